// Activity: what a unit may do where it is, and what becomes of what it drops.
//
// Several G rules forbid activities by position: above a Bank counter (G8.211), above a Panji
// counter (G9.48, G9.52-.56, G9.71), Wading (G13.421-.4212), in OCEAN (G13.45, G13.47), IN an
// Irrigated paddy (G8.12). CheckActivity answers one such question with the rule that decides.
// DropItem says where an item that becomes unpossessed ends up (G8.12, G8.213, G9.52,
// G13.4211). Pure; thread-safe.
#pragma once

#include <optional>
#include <string>

#include "opsim/core/error.h"
#include "opsim/tactical/board.h"

namespace opsim::tactical {

enum class Activity {
  kRecover,
  kScrounge,
  kTransfer,
  kSetDc,
  kPlaceDc,
  kThrowDc,
  kGuardPrisoner,  // `other`: where the prisoner is
  kVoluntaryTi,
  kEntrench,
  kClearance,
  kSearch,
  kPack,  // (Un)Packing, 10.3
  kCcWithdrawOnto,
  kAdvanceOff,
  kConcealmentDr,
  kFireSw,  // a SW other than a LMG
  kDismantle,
  kLimber,
  kRepair,
  kChangeVca,
  kInterdict,
  kDirectFire,  // an SMC directing/modifying an attack
  kMultiHexFireGroup,
  kPlaceSmoke,
  kPlaceWhiteSmoke,
  kBoreSight,
  kCloseCombat,
};
const char* Name(Activity a);

// Refused with the rule that forbids it, or allowed. `other`: a second position the activity
// involves (the prisoner guarded).
Status CheckActivity(const Board& b, const Position& at, const Unit& u, Activity a,
                     std::optional<Position> other = std::nullopt);

// Where an item that becomes unpossessed at `at` ends up.
struct DroppedItem {
  Position at;
  bool eliminated = false;
  std::string rule;
};
DroppedItem DropItem(const Board& b, const Position& at, bool gun, bool animal_packed,
                     bool horse_or_boat);

// Bog DR modifiers at a vehicle's position: +1 mud and +2 more IN an Irrigated paddy (G8.12),
// -1 in Hard Sand (G13.3 EX).
int BogDrm(const Board& b, const Position& at);
// G13.82: Coral Soil: +2 to Entrenching Attempts.
int EntrenchingDrm(const Board& b);
// G8.12: the MF cost of Manhandling a boat is not doubled (C10.3) IN an Irrigated paddy.
bool ManhandlingBoatDoubled(const Board& b, const Position& at);
// G8.12: a SW of >= 3 PP manned by Infantry IN an Irrigated paddy has a restricted field of fire.
bool RestrictedFieldOfFire(const Board& b, const Position& at, int sw_pp);

}  // namespace opsim::tactical
