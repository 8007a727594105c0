// How commands find scenarios: `--scenario` takes a bundled name or a file path.
#pragma once

#include <string>

#include "opsim/map/scenario.h"

namespace opsim::cli {

// The bundled scenarios' folder: $OPSIM_SCENARIO_DIR, else the source tree's scenarios/.
std::string ScenarioDir();
Result<map::Scenario> LoadScenarioArg(const std::string& name_or_path);

}  // namespace opsim::cli
