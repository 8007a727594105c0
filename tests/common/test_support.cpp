#include "test_support.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "cli.h"

namespace opsim::test {

std::string BundledPath(const std::string& name) {
  return std::string(OPSIM_SCENARIO_DIR) + "/" + name + ".json";
}

std::string BundledOrders(const std::string& file) {
  return std::string(OPSIM_SCENARIO_DIR) + "/orders/special-terrain/" + file;
}

const map::Scenario& Bundled(const std::string& name) {
  static std::map<std::string, map::Scenario> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    auto sc = map::LoadScenarioFile(BundledPath(name));
    if (!sc) {
      ADD_FAILURE() << "bundled scenario " << name << ": " << sc.error().to_string();
      std::abort();
    }
    it = cache.emplace(name, std::move(*sc)).first;
  }
  return it->second;
}

Result<map::Scenario> LoadText(const std::string& text, const std::string& name) {
  auto src = JsonSource::FromText(text, name);
  if (!src) return std::unexpected(src.error());
  return map::LoadScenario(*src);
}

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "opsim-test-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) std::abort();
  dir_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

nlohmann::json CliRun::json() const {
  try {
    auto j = nlohmann::json::parse(out);
    EXPECT_TRUE(j.is_object()) << out;
    return j;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not one JSON object on stdout: " << e.what() << "\n" << out;
    return nlohmann::json::object();
  }
}

CliRun RunCli(const std::vector<std::string>& args) {
  std::vector<const char*> argv = {"opsim"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  CliRun r;
  r.code = cli::Run(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

nlohmann::json CliJson(std::vector<std::string> args) {
  args.push_back("--json");
  const CliRun r = RunCli(args);
  EXPECT_EQ(r.code, 0) << r.err;
  return r.json();
}

query::LoadedGame LoadBundledGame(std::vector<std::string> overrides, query::Needs needs) {
  query::Source source;
  source.scenario = "special-terrain";
  source.overrides = std::move(overrides);
  auto g = query::Load(source, needs);
  EXPECT_TRUE(g.has_value()) << (g ? "" : g.error().to_string());
  return g ? std::move(*g) : query::LoadedGame{};
}

}  // namespace opsim::test
