// State files: a game's state saved as JSON, so that a player can keep a game without a turn
// log, ask what-if questions of it, or edit it by hand (docs/state-format.md).
//
// A state file is for solo play: anyone holding it holds the dice's state, so he can foresee
// every die (two players keep a turn log with fair dice). It names its scenario (name, path
// and SHA-256 of its content) and carries the state's own hash and a SHA-256 of its canonical
// content. Loading refuses a file for another scenario, or for a changed one, and says so; a
// hand-edited file (whose content or state no longer matches its hashes) loads, and the caller
// is told. A version-1 file (before the content hash) is judged by its state hash alone.
#pragma once

#include <string>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"
#include "opsim/ops/campaign.h"

namespace opsim::ops {

struct ScenarioId {
  std::string name;
  std::string path;
  std::string sha256;  // of the scenario file's text
};

// The theater names its hexes; the rules name its unit types.
std::string StateToJson(const GameState& s, const map::Theater& t, const RuleTables& rules,
                        const ScenarioId& scenario);

struct LoadedState {
  GameState state;
  ScenarioId scenario;
  bool edited = false;  // the saved hashes do not match the content or the state read
};
// Reads the scenario id only, to find the scenario before reading the rest.
Result<ScenarioId> ReadStateScenario(const JsonSource& src);
Result<LoadedState> StateFromJson(const JsonSource& src, const map::Theater& t,
                                  const RuleTables& rules);

}  // namespace opsim::ops
