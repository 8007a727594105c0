// Orders: one player-turn's orders, read from an orders file (docs/orders-format.md).
//
// The phasing side's orders by phase (initial, movement, combat, exploitation), the other
// side's reactions during that player-turn (flood attempts, 41.A.4), retreat preferences
// (B7.5), and optionally the dice
// the players rolled. Parsing resolves every hex against the theater and locates every error
// at its line; legality is judged later, by Game.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"
#include "opsim/map/theater.h"
#include "opsim/ops/calendar.h"
#include "opsim/ops/route.h"

namespace opsim::ops {

enum class InitialKind : std::uint8_t {
  kCloseSuez,    // 41.B.1
  kReopenSuez,   // 41.B.2
  kIceAirfield,  // 41.A.3
};

struct InitialOrder {
  InitialKind kind = InitialKind::kCloseSuez;
  map::HexRef hex;    // kIceAirfield: where
  std::string unit;   // kIceAirfield: who builds it
  std::string where;  // "orders.json:12: /initial/0", for refusals
};

enum class MoveKind : std::uint8_t {
  kGround,         // a stack moving hex by hex, paying MPs (B4); may end by exiting the map (41.F)
  kRail,           // rail movement (B5)
  kNaval,          // a naval group (B6), perhaps carrying ground units to land (B12)
  kAirDrop,        // an airborne unit dropped from its airbase (B11.3)
  kRebase,         // an air unit flying to another airbase (B11.1)
  kDestroyBridge,  // a unit blowing a bridge or causeway on a hexside of its hex (B14.1)
  kBuildBridge,    // a construction unit bridging a hexside of its hex (B14.2)
};

struct MoveOrder {
  MoveKind kind = MoveKind::kGround;
  std::vector<std::string> units;  // ground units, naval units, or the air unit
  std::vector<Waypoint> path;      // from the units' hex; for kAirDrop/kRebase, just the target
  bool exit = false;               // kGround: leave the map from the path's last hex (41.F)
  std::vector<std::string> carry;  // kNaval: ground units carried and landed at the end
  map::HexsideRef hexside;         // kDestroyBridge, kBuildBridge
  std::string where;
};

struct AttackOrder {
  map::HexRef hex;
  std::vector<std::string> units;
  bool call_off_if_flooded = false;  // 41.A.4.a.3
  bool advance = true;               // advance after combat if the hex is emptied (B7.6)
  // B7.6 chosen in play: these attackers advance, not all (`"advance": [IDS]`); a player-turn
  // played step by step records its advances so.
  std::optional<std::vector<std::string>> advance_units;
  std::string where;
};

enum class ReactionKind : std::uint8_t { kFlood, kMassiveFlood };
struct Reaction {
  ReactionKind kind = ReactionKind::kFlood;
  map::HexRef hex;  // an attacked canal-intensive hex
  std::string where;
};

// B7.5: the hexes the units standing in `hex` prefer to retreat into, best first; each is next
// to `hex` and listed once. A preference the rules refuse falls through to the next, then to
// the engine's own choice.
struct RetreatPreference {
  map::HexRef hex;
  std::vector<map::HexRef> prefer;  // none: the rules' choice
  std::string where;
};

// B7.5: the preference that retreat `k` (from 0) of a stack from `hex` in a player-turn takes:
// a hex listed once, its entry every time; listed more often (a player-turn played step by
// step lists one per retreat), the k-th, and none past the last. Null when there is none.
const RetreatPreference* RetreatPreferenceFor(const std::vector<RetreatPreference>& listed,
                                              map::HexRef hex, std::size_t k);

// One step of a player-turn played step by step (steps.h), as the log keeps it: who took it
// and its canonical JSON (ops::StepToJson).
struct LoggedStep {
  Side side = Side::kAxis;
  std::string step;
  std::string where;
};

struct Orders {
  Side side = Side::kAxis;
  GameDate turn;
  std::vector<int> dice;  // rolled by the players, used before the seeded dice
  std::vector<InitialOrder> initial;
  std::vector<MoveOrder> movement;
  std::vector<AttackOrder> combat;
  std::vector<Reaction> reactions;          // the non-phasing side's, during this player-turn
  std::vector<RetreatPreference> retreats;  // by hex, each hex once
  std::vector<MoveOrder> exploitation;
  // A player-turn played step by step: its steps in the order taken, of which the sections
  // above are the script (docs/rules.md, B1.3); replay checks that both play alike.
  std::vector<LoggedStep> steps;
  std::string source;  // the file's name
};

Result<Orders> ParseOrders(const JsonSource& src, const map::Theater& theater);
// One order, the whole of `src`, written as an entry of the orders file's `section` (a step of
// a player-turn played step by step, steps.h); the Orders holds it alone.
enum class OrderSection : std::uint8_t {
  kInitial,
  kMovement,
  kCombat,
  kReaction,
  kRetreat,
  kExploitation
};
Result<Orders> ParseOrder(const JsonSource& src, const map::Theater& theater, OrderSection section);
// The canonical JSON text of parsed orders: what the turn log stores and replays.
std::string OrdersToJson(const Orders& orders, const map::Theater& theater);

}  // namespace opsim::ops
