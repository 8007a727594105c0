// G8 Rice Paddies: the state of the paddies, who may be IN a paddy or on its banks, what the
// interior costs, mud, and what a bank hexside is.
//
// A paddy hex has an interior (IN) and banks; a unit on the banks is above a Bank counter
// (G8.1, G8.21). Paddy hexes belong to fields: hexsides inside a field are open, every other
// hexside of a paddy hex is a bank hexside (the G8.2108 EX's oJ4-oK5 is such an open hexside).
// Movement costs are applied by movement.h, TEM and LOS by attack.h and los.h, using these.
// Every refusal names its rule. Pure functions of the board; thread-safe.
#pragma once

#include <optional>

#include "opsim/core/dice.h"
#include "opsim/core/error.h"
#include "opsim/tactical/board.h"
#include "opsim/tactical/cost.h"
#include "opsim/tactical/unit.h"

namespace opsim::tactical {

bool IsPaddy(const Board& b, GridPos hex);
// G8.1: a hexside of a paddy hex that does not join two hexes of the same paddy field.
bool IsBankHexside(const Board& b, const Hexside& h);

// G8.1 DYO: one dr, modified by EC: Dry/Very Dry -2, Moderate -1, Wet/Overcast/Mud +2.
// Final dr <= 2 In-Season, 3-4 Drained, >= 5 Irrigated.
int PaddyStateDrm(Ec ec);
PaddyState PaddyStateFor(int final_dr);
struct PaddyStateRoll {
  int dr = 0;
  int drm = 0;
  int final_dr = 0;
  PaddyState state = PaddyState::kUnset;
};
PaddyStateRoll RollPaddyState(Dice& dice, Ec ec);

// G8.2, G8.12, G8.8: may `u` set up IN / enter INTO paddy hex `hex`? `via_open`: it enters
// across a breached or non-bank hexside (G8.8 lets any unit type do so if Drained/In-Season).
Status MayBeIn(const Board& b, const Unit& u, GridPos hex, bool via_open);
// G8.21: may `u` cross an (unbreached) bank hexside? Only units allowed INTO a paddy, and
// bicyclists entering onto a Bank counter or a road.
Status MayCrossBank(const Board& b, const Unit& u, GridPos paddy, bool onto_bank_or_road);
// G8.21, G8.7, G8.2112: may `u` be above the Bank counter in `hex`?
Status MayBeOnBank(const Board& b, const Unit& u, GridPos hex);

// G8.2: the IN-hex COT: Drained, Open Ground; Irrigated, twice Open Ground mud; In-Season,
// grain. G8.72: shellholes IN a Drained/In-Season paddy cost their own COT instead.
std::optional<Cost> PaddyInCot(const Board& b, const Unit& u, GridPos hex);

// G8.5: mud at a position: IN an Irrigated paddy, or anywhere in/IN a paddy when EC are Mud.
bool MudAt(const Board& b, const Position& p);
// G8.3: the interior of the paddy is grain when In-Season (G8.13), and shellholes remove the
// grain (G8.72).
bool InteriorIsGrain(const Board& b, GridPos hex);

// G8.2111: Infantry above a Bank counter are subject to Hazardous Movement; so are Infantry
// above a Wire or Panji counter in a paddy hex for G8.212 purposes (G8.7).
bool OnBankForAttacks(const Board& b, const Position& p, const Unit& u);

// G8.8: a Mobile dozer may breach a bank hexside of a Drained/In-Season paddy at ¼ (FRU) of its
// printed MP allotment.
Result<Cost> BreachCost(const Board& b, const Unit& u, const Hexside& h, int printed_mp);

// G8.22: parachutes and gliders landing in a paddy hex land IN it; a ⅝" parachute landing IN an
// Irrigated paddy takes a NMC (E9.42); a glider landing across a bank hexside gets the +1
// "hedge" Crash drm (E8.231).
struct PaddyLanding {
  Position at;
  bool nmc = false;
  int crash_drm = 0;
};
PaddyLanding LandInPaddy(const Board& b, GridPos hex, bool five_eighths_parachute,
                         std::optional<Hexside> glider_across);

// G8.7, G8.72, G8.73: the board's paddy set-up is legal under its paddy state: no Fortification
// but mines, wire or panjis in an Irrigated paddy, no shellholes or subterranean passage there,
// no unit above a Bank counter in a hex with Wire or Panji counters.
Status CheckPaddySetup(const Board& b);

// G8.6: whether Terrain Flame/Blaze can occur in the hex, and whether a Fire spreading across a
// hexside may take the -2 "directly attached" DRM (B25.62).
Status MayBurn(const Board& b, GridPos hex);
bool DirectlyAttachedSpread(const Board& b, const Hexside& h);

}  // namespace opsim::tactical
