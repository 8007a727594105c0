#include "scenario_arg.h"

#include <cstdlib>

namespace opsim::cli {

std::string ScenarioDir() {
  if (const char* dir = std::getenv("OPSIM_SCENARIO_DIR"); dir && *dir) return dir;
  return OPSIM_SCENARIO_DIR;
}

Result<map::Scenario> LoadScenarioArg(const std::string& name_or_path) {
  auto path = map::ResolveScenario(name_or_path, ScenarioDir());
  if (!path) return std::unexpected(path.error());
  return map::LoadScenarioFile(*path);
}

}  // namespace opsim::cli
