// Where a command's game comes from: a scenario (a new game), a saved state file, or a turn
// log at a logged turn; then any --set what-if overrides.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "opsim/ops/campaign.h"
#include "opsim/ops/game.h"
#include "opsim/ops/state_file.h"

namespace opsim::cli {

struct GameSource {
  std::string scenario;
  std::string state;
  std::string db;
  int at = -1;  // with --db: the state after this many logged player-turns
  std::uint64_t seed = 1;
  std::vector<std::string> sets;
};

// --scenario/--state/--db/--at/--set (and --seed when `seed`).
void AddGameSourceOptions(CLI::App* cmd, GameSource& src, bool seed = false);

struct LoadedGame {
  std::shared_ptr<const map::Theater> theater;
  std::shared_ptr<const ops::Campaign> campaign;  // null for a map-only scenario
  std::optional<ops::GameState> state;            // present when there is a campaign
  map::MapState map;                              // what map queries read
  ops::ScenarioId scenario;
  std::string label;  // where it came from, for output
};

Result<LoadedGame> LoadGame(const GameSource& src);
// A scenario file, its text hashed; the campaign too when it has one.
Result<LoadedGame> LoadScenarioGame(const std::string& name_or_path, std::uint64_t seed);

}  // namespace opsim::cli
