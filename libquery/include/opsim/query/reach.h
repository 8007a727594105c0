// `opsim reach`: every hex a stack can reach in the coming movement or exploitation phase, with
// its MP cost and path, and the rules that stop it at the edges of that area (ops::Reach).
//
// `side` lets the waiting side plan: its units are asked as if its player-turn began at the
// present position (the same units, map and weather; the next player-turn's serial, so floods
// expire as they will then). Pure function of the LoadedGame; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "opsim/ops/reach.h"
#include "opsim/query/source.h"

namespace opsim::query {

struct ReachRequest {
  std::vector<std::string> units;  // the stack, by id; or
  std::string hex;                 // every unit of the side in this hex
  std::optional<Side> side;        // default: the phasing side
  bool exploitation = false;
  bool rail = false;               // a rail move (B5.1): costs are rail hexes
  std::string to;                  // also explain the path to this hex
  std::optional<double> max_cost;  // list only hexes reached for at most this many MP (rail hexes)
};

struct ReachAnswer {
  ReachRequest request;
  ops::ReachAnswer found;           // every hex reached, before max_cost
  std::string turn;                 // the game date of the player-turn asked about
  std::vector<std::size_t> listed;  // indices into found.hexes within max_cost, the start excluded
  std::optional<map::HexRef> to;
};

// kInvalidInput for a bad hex, unit or side, or no units in --hex; the rule's refusal
// (kRuleViolation) for a unit that may not move in the phase asked about.
Result<ReachAnswer> AnswerReach(const LoadedGame& g, const ReachRequest& request);
// A cost as the answer gives it: MPs (halves as .5), or rail hexes.
double CostOf(const ops::ReachAnswer& a, std::uint32_t cost);
// Whether the player-turn asked about begins with the weather roll (B2.1), which may freeze or
// thaw the ground before the stack moves: the answer is for the weather in force.
bool WeatherRollFirst(const ReachAnswer& a);
// {side, turn, player_turn, phase, mode, weather_roll_first, from, units, count, hexes: [{hex,
// cost, path, stop?, no_end?}], blocked: [{from, to, rule, why}], to?} (docs/planning.md).
nlohmann::json ToJson(const map::Theater& t, const ReachAnswer& a);

}  // namespace opsim::query
