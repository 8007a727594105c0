// The terrain of a samurai-era hex game: orders, movement, Ambush, LOS and the river Loss Test.
//
// The text has no rule numbers, so opsim numbers its statements by section and order:
// SAM-INTRO.n, SAM-PL.n (plains), SAM-LW.n (light woods), SAM-HW.n (heavy woods), SAM-RF.n (rice
// fields), SAM-RV.n (river), SAM-LT.n (Loss Test), SAM-FD.n (ford), SAM-BR.n (bridge), SAM-RA.n
// (ravine), SAM-RG.n (rocky ground), SAM-VI.n (village); docs/tactical.md lists each statement
// with its id. Units are Infantry, Cavalry or Ninja (Ninja are Infantry except for river
// entry); orders are March, Run, Assault, Move and Fire and Ambush. The text does not give the
// orders' movement allowances; opsim's are in docs/tactical.md and may be overridden.
// The Loss Test rolls through opsim::Dice. Pure; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opsim/core/dice.h"
#include "opsim/tactical/board.h"

namespace opsim::tactical {

enum class SamuraiUnit { kInfantry, kCavalry, kNinja };
enum class Order { kMarch, kRun, kAssault, kMoveAndFire, kAmbush };
const char* Name(SamuraiUnit u);
const char* Name(Order o);
std::optional<SamuraiUnit> ParseSamuraiUnit(std::string_view s);
std::optional<Order> ParseOrder(std::string_view s);
std::string OrderNames();

// How many hexes an order lets a unit move (opsim's numbers; the text gives only reductions).
int BaseAllowance(SamuraiUnit u, Order o);

// One hex of a samurai path.
struct SamuraiHex {
  std::string name;
  Terrain terrain = Terrain::kPlains;
  int level = 0;
  bool enemy_adjacent = false;
};

struct SamuraiNote {
  std::string rule;
  std::string text;
};

struct SamuraiMoveReport {
  int allowance = 0;  // hexes the order allows before any reduction
  int limit = 0;      // after the reductions met
  std::vector<SamuraiNote> notes;
  std::optional<SamuraiNote> refusal;
  std::optional<std::size_t> refused_step;  // index into the path
  bool loss_test = false;                   // a river was entered
  bool melee = false;
  bool legal() const { return !refusal.has_value(); }
};

// path[0] is where the unit starts; each later hex is entered in turn.
SamuraiMoveReport EvaluateSamuraiMove(SamuraiUnit unit, Order order, std::optional<int> allowance,
                                      const std::vector<SamuraiHex>& path);

// SAM-INTRO.2 and each terrain's Ambush statement.
struct AmbushRuling {
  bool allowed = false;
  std::string rule;
};
AmbushRuling MayAmbush(SamuraiUnit unit, Terrain terrain);

// SAM-*.1 and SAM-RA.5: LOS on a samurai board.
struct SamuraiLos {
  bool clear = true;
  std::string rule;
  std::string reason;
  std::vector<std::string> hexes;  // intervening hexes
};
SamuraiLos CheckSamuraiLos(const Board& b, GridPos from, GridPos to);
// Whether a terrain blocks LOS, and the statement that says so.
SamuraiNote LosRuling(Terrain t);

// SAM-LT: one d20 per model; 1-10 safe, 11 or more a casualty; Defense Value has no effect; any
// casualty calls for a Fortitude Test (Intermediate Rules).
struct LossTest {
  std::vector<int> rolls;
  int safe = 0;
  int casualties = 0;
  bool fortitude_test = false;
};
LossTest RollLossTest(Dice& dice, int models);

}  // namespace opsim::tactical
