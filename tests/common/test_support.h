// Shared test helpers: the bundled scenarios, scratch files, and the CLI run in-process.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opsim/map/scenario.h"

namespace opsim::test {

// A bundled scenario by name, loaded once per process; the test fails if it does not load.
const map::Scenario& Bundled(const std::string& name);
std::string BundledPath(const std::string& name);

// Loads scenario text (as if from a file named `name`).
Result<map::Scenario> LoadText(const std::string& text, const std::string& name = "test.json");

// A fresh directory under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string Path(const std::string& file) const { return dir_ + "/" + file; }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

struct CliRun {
  int code = 0;
  std::string out;
  std::string err;
  nlohmann::json json() const;  // `out` parsed; fails the test if it is not one JSON object
};
CliRun RunCli(const std::vector<std::string>& args);

std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& text);

}  // namespace opsim::test
