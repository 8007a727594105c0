// Shared test helpers: the bundled scenarios, scratch files, and the CLI run in-process.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opsim/map/scenario.h"
#include "opsim/query/source.h"

namespace opsim::test {

// The base rules' unit type named `name` ("infantry", "armor", ...).
inline ops::UnitType BaseType(std::string_view name) {
  return *ops::DefaultRuleTables().FindType(name);
}

// A bundled scenario by name, loaded once per process; the test fails if it does not load.
const map::Scenario& Bundled(const std::string& name);
std::string BundledPath(const std::string& name);
// scenarios/orders/special-terrain/<file>: the bundled game's orders.
std::string BundledOrders(const std::string& file);
// The CLI arguments naming the bundled game.
inline const std::vector<std::string> kBundledGame = {"--scenario", "special-terrain"};

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
// What the CLI prints with --json for these arguments (--json is added); the test fails unless
// it exits 0.
nlohmann::json CliJson(std::vector<std::string> args);

// The bundled special-terrain game through libquery, with these --set overrides; the test fails
// if it does not load.
query::LoadedGame LoadBundledGame(std::vector<std::string> overrides = {},
                                  query::Needs needs = query::Needs::kGame);

std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& text);

}  // namespace opsim::test
