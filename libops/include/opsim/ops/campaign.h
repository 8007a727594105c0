// Campaign: the static side of a campaign, read from a scenario's "campaign" section
// (docs/scenario-format.md, "Campaign"): the start date and who moves first, nationalities,
// supply sources, rail capacity, the SRP pools and every unit's starting position.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"
#include "opsim/map/scenario.h"
#include "opsim/ops/game_state.h"
#include "opsim/ops/tables.h"

namespace opsim::ops {

// B15: how a scenario is won. Each objective counts its points for the side that owns its hex;
// when the game ends (after `end`'s second player-turn), the first level whose side holds at least
// its points is the result.
struct Objective {
  map::HexRef hex;
  std::string name;
  int points = 0;
};
struct VictoryLevel {
  Side side = Side::kAxis;
  int points = 0;
  std::string result;  // "Axis decisive victory"
};
struct Victory {
  GameDate end;
  std::vector<Objective> objectives;
  std::vector<VictoryLevel> levels;  // in order; the last is met by any total
};

struct Campaign {
  GameDate start;
  Side first = Side::kAxis;
  std::map<std::string, Side> nationalities;
  // 41.A.4: the Allied pool that pays disaster relief.
  std::string relief_pool;
  std::array<int, 2> rail_capacity{};                      // REs per player-turn, by side
  std::array<std::vector<map::HexRef>, 2> supply_sources;  // by side (B8)
  RuleTables tables;               // the scenario's rules file, or the built-in ones
  std::optional<Victory> victory;  // B15, when the scenario says how it is won
  // B16.1: each reinforcement's game turn, by unit id (its unit waits in the state as
  // kReinforcement, at the hex where it enters).
  std::map<std::string, GameDate> arrivals;
  // The state at the start: the scenario's map state with the units placed.
  GameState initial;
};

// B15.1: each side's points for the objectives it owns in `state`, by side.
std::array<int, 2> VictoryPoints(const Victory& v, const GameState& state);
// B15.1: the level `points` reach (the result if the game ended now).
const VictoryLevel& VictoryStanding(const Victory& v, const std::array<int, 2>& points);
// B15.1: whether the game has ended: `state` is past the last player-turn of `v.end`.
bool GameOver(const Victory& v, const GameState& state);

// Reads the campaign section (all or nothing, with located errors); `seed` seeds the dice.
Result<Campaign> LoadCampaign(const JsonSource& src, const map::Scenario& scenario,
                              std::uint64_t seed);

}  // namespace opsim::ops
