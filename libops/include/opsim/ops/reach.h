// Reach: every hex a stack of ground units can reach in one movement or exploitation phase from
// where it stands, with the MP cost and the path to each, and the rule that stops the search at
// each edge of that area; or, asked for rail, every hex one rail move takes it to (B5.1).
//
// It asks the movement phase's own judges (EvaluateGroundStep, EvaluateFerryStep, EnemyZones,
// and movement.h's allowance, overrun odds and rail bars), so a hex it reaches at cost C is a
// move `turn` plays at C, and a hex it does not reach is one `turn` refuses, within the limits
// docs/planning.md lists (the coming weather roll; nothing past an overrun). Each unit of the
// stack pays its own class's costs from its own allowance (B4.10); a hex's cost is the most any
// of them spends, as the move's event reports it. Pure function of the game; thread-safe for
// distinct games, and for one game that no thread changes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "opsim/ops/game.h"
#include "opsim/ops/route.h"

namespace opsim::ops {

// For the phasing side of `game`, in its coming player-turn: to ask for the other side, pass the
// game as it stands when that side's player-turn begins (libquery's reach does: the same
// position, the next player-turn).
struct ReachRequest {
  std::vector<std::string> units;  // the stack, by id, all in one hex
  bool exploitation = false;       // B7.8: motorized units, half their MPs
  bool rail = false;               // a rail move (B5.1), in the movement phase
  std::optional<map::HexRef> to;   // also explain the path to this hex, step by step
};

struct ReachUnit {
  std::string id, name;
  MoveClass cls{};
  std::string class_name;  // the rules' name of cls
  int allowance = 0;       // half-MPs this phase
  int marker = 0;          // half-MPs it owes first (41.A.4.b.4)
};

struct ReachHex {
  map::HexRef hex;
  // Half-MPs: the most any unit of the stack has spent on arrival; for rail, the rail hexes run.
  std::uint32_t cost = 0;
  // From the start to this hex; consecutive hexes are adjacent or a rail ferry's ends (41.A.2).
  std::vector<map::HexRef> path;
  // The move ends here: B4.8 (an enemy zone of control) or B4.9 (an overrun; the search does
  // not look past it, since what the overrun eliminates changes the zones of control).
  RuleId stop;
  RuleId no_end;    // the move may pass through but not end here (B3.2 stacking)
  std::string why;  // for stop and no_end
};

// An edge out of the reached area that the stack may not take, and the rule that says so.
struct ReachEdge {
  map::HexRef from, to;
  RuleId rule;
  std::string why;
};

// One step of the path to ReachRequest::to: the hex entered, the stack's cost on arrival, and
// every rule that shaped the step for any unit of the stack.
struct ReachStep {
  map::HexRef hex;
  std::uint32_t cost = 0;
  std::vector<Note> notes;
};

struct ReachAnswer {
  Side side = Side::kAxis;
  bool exploitation = false;
  bool rail = false;
  std::int32_t player_turn = 0;  // the player-turn the answer is for
  map::HexRef start;
  std::vector<ReachUnit> units;
  std::vector<ReachHex> hexes;     // the start first, then by cost and hex
  std::vector<ReachEdge> blocked;  // from reached hexes to hexes not reached, by from and to
  bool to_reached = false;         // with ReachRequest::to: whether the search reached it
  std::vector<ReachStep> steps;    // with ReachRequest::to, when reached
};

// kInvalidInput for no units or an unknown id; kRuleViolation, naming the rule `turn` would, for
// a unit that may not move this phase (B1.2 another side's, B4.10 off the map or not in the
// first unit's hex (B5.1 by rail), B7.8 not motorized in exploitation or by rail) or a stack over
// the side's rail capacity (B5.1).
Result<ReachAnswer> Reach(const Game& game, const ReachRequest& request);

}  // namespace opsim::ops
