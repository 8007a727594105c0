// The rules a moving stack obeys as a whole, shared by the movement phase (Turn) and the reach
// search (reach.cpp), so that both decide them the same way: the allowance (B4.10, B7.8), the
// step judge's view of one unit of a stack (B4.7, 41.A.2), overrun odds (B4.9), and what bars a
// rail move's path (B5.1, B14.1).
// Stateless; private to libops.
#pragma once

#include <algorithm>
#include <string>

#include "opsim/map/state.h"
#include "opsim/map/theater.h"
#include "opsim/ops/route.h"
#include "opsim/ops/units.h"

namespace opsim::ops {

// The half-MPs a unit may spend in a movement phase, or an exploitation phase (B7.8: halved).
inline int MoveAllowance(const GroundUnit& u, const RuleTables& t, bool exploitation) {
  return exploitation ? u.mp * 2 / t.exploitation_divisor : u.mp * 2;
}

// One unit of a moving stack as the step judge sees it: the stack's engineers lessen its river
// crossings (B4.7) and a rail ferry weighs the whole stack (41.A.2).
inline GroundMover StackMover(Side side, MoveClass cls, bool engineer, int stack_halves) {
  GroundMover mover;
  mover.side = side;
  mover.cls = cls;
  mover.engineer = engineer;
  mover.res = (stack_halves + 1) / 2;
  return mover;
}

// B4.9: a unit's part of an overrun's attack (less out of supply).
inline int OverrunAttack(const GroundUnit& u, const RuleTables& t) {
  return u.supply == SupplyStatus::kSupplied ? u.attack
                                             : u.attack / t.combat.out_of_supply_attack_divisor;
}

// B4.9: an overrun's odds in hex `info`, its defence multiplied by the terrain (B7.2, whole
// points, at least 1) and the odds shifted by its terrain and city; an empty defence gives just
// the odds an overrun needs.
inline int OverrunOdds(const RuleTables& t, const map::HexInfo& info, int attack, int defense) {
  const int terrain = static_cast<int>(info.terrain);
  const int shift =
      t.combat.terrain_shift[terrain] + t.combat.city_shift[static_cast<int>(info.city)];
  if (defense == 0) return t.combat.overrun_odds;
  return attack / std::max(defense * t.combat.defense_multiplier[terrain] / 4, 1) + shift;
}

// B5.1, B14.1: what bars a rail move's path from `from` into `to`, or an empty rule. For the
// start hex `from` is invalid and only the zone of control is asked. `zoc`: `to` is in an enemy
// zone of control; `enemy`: enemy units stand in it.
struct RailBar {
  RuleId rule;
  std::string why;
};
RailBar RailStepBar(const map::Theater& t, const map::MapState& m, Side side, bool zoc, bool enemy,
                    map::HexRef from, map::HexRef to);

}  // namespace opsim::ops
