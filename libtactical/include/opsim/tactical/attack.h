// Attack: what the terrain does to an attack along a LOS: the target's TEM and Open Ground
// status, HD and Wall Advantage, and the FP and DRM changes the G rules make for firer and
// target.
//
// TEM: the better of the target Location's terrain TEM and a hedge-like hexside's (a bank
// hexside is a hedge, +1, G8.3; with its exceptions), plus mud's +1 (G8.5), deir TEM on a
// Moderate beach (G13.22), entrenchment. FP: halved vs an Irrigated paddy hex (G8.12), vs Wading
// Infantry (G13.421), in Soft Sand (F7.4; not in Hard Sand, G13.3). DRMs: above a Bank counter
// (G8.212), above a Panji counter (G9.21), Heavy Surf (G13.445), a Wading vehicle (G13.422).
// Attack restrictions are refusals with their rule. Pure; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opsim/tactical/board.h"
#include "opsim/tactical/los.h"

namespace opsim::tactical {

enum class AttackType {
  kSmallArms,      // Inherent FP, SW, LMG
  kDirectHe,       // Direct-Fire ordnance HE
  kVehicleTarget,  // ordnance using HE-Equivalency or the Vehicle Target Type
  kIndirectHe,     // mortar/OBA: Indirect Fire
  kFlameThrower,
  kSetDc,
  kThrownDc,
  kPlacedDc,
  kAerial,  // a FB/DB strafing: from above every target
  kCloseCombat,
};
const char* Name(AttackType a);
std::optional<AttackType> ParseAttackType(std::string_view s);
std::string AttackTypeNames();

struct AttackEffects {
  std::vector<std::string> refusals;  // "G8.212: ..." when the attack may not be made
  int tem = 0;
  std::vector<LosFactor> tem_items;
  bool open_ground = false;  // the target is in Open Ground (FFMO/Interdiction possible)
  bool hd = false;
  bool wall_advantage = false;
  bool height_advantage = false;  // a unit on a pier vs an adjacent unit in water/Beach (G13.72)
  bool entrenched = false;        // the target counts as entrenched vs this attack
  std::vector<LosFactor> fp;      // FP changes ("halved")
  std::vector<LosFactor> drm;     // DRMs to the attack, from either end
  std::vector<LosFactor> notes;   // effects that are not this attack's DRM (Ambush dr, HM...)
};

AttackEffects EvaluateAttack(const Board& b, const LosEnd& firer, const LosEnd& target,
                             AttackType attack, const LosResult& los);

}  // namespace opsim::tactical
