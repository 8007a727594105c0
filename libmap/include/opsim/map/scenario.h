// Reading theaters from scenario files (the format is docs/scenario-format.md).
//
// A scenario file is JSON. Its theater sections (sheets, places, hexsides, water areas,
// waterways, rail ferries, areas, exits, state) are read here; its "campaign" section belongs to
// the rules (libops) and is left alone. Loading is all or nothing: a bad file yields one Error that
// names the file, the line, the JSON path and what is wrong, and no Theater.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"
#include "opsim/map/state.h"
#include "opsim/map/theater.h"

namespace opsim::map {

inline constexpr int kScenarioFormatVersion = 1;
// The most sheets a theater holds, and the greatest column or row of a sheet's origin on the
// global grid.
inline constexpr std::size_t kMaxSheets = 250;
inline constexpr int kMaxOrigin = 1000000;

// A theater and its state at the start: the file's "state" section (who controls which hexes,
// frozen weather zones, the Suez Canal's status) over an all-unowned, thawed MapState.
struct Scenario {
  Theater theater;
  MapState state;
};

Result<Scenario> LoadScenario(const JsonSource& src);
Result<Scenario> LoadScenarioFile(const std::string& path);

// The hex named by the string at `at` in a document about theater `t` (orders, states,
// campaigns); a bad or unknown token is an error located there.
Result<HexRef> ReadHex(const JsonReader& r, const JsonSource::Pointer& at, const Theater& t);

struct BundledScenario {
  std::string name;
  std::string title;
  std::string path;
};

// The scenarios shipped in `dir` (*.json files whose "opsim" is "scenario"), sorted by name.
std::vector<BundledScenario> ListScenarios(const std::string& dir);
// `--scenario` takes a bundled scenario's name or a path to a file.
Result<std::string> ResolveScenario(std::string_view name_or_path, const std::string& dir);

}  // namespace opsim::map
