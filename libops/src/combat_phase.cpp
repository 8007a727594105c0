// The combat phase (B7): attacks, the CRT and its shifts, retreats and advances. The defender's
// flooding (41.A.4) is in rule41/flooding.cpp, the Kerch hexside's refusal (41.E.1) in
// rule41/kerch.cpp.
#include <algorithm>

#include "turn.h"

namespace opsim::ops {

Status Turn::Combat() {
  for (const AttackOrder& a : orders_.combat) {
    if (auto st = Attempt([&] { return Attack(a); }); !st) return st;
  }
  if (auto st = Attempt([&] { return FloodsAnswerAttacks(); }); !st) return st;
  // B11.3: an assault that has not cleared its hex by the end of combat is lost.
  for (GroundUnit& u : s_.units) {
    if (u.on_map() && u.side == side_ && u.dropped_in == serial_ && Occupied(u.hex, Enemy(side_))) {
      Eliminate(u, rules::kB11_3, "its air assault did not clear " + Name(u.hex), {u.hex}, {});
    }
  }
  return {};
}

Status Turn::Attack(const AttackOrder& a) {
  if (attacked_hexes_.count(a.hex.v)) {
    return Refuse(rules::kB7_1, Name(a.hex) + " is attacked once a player-turn", a.where);
  }
  std::vector<GroundUnit*> defenders = UnitsAt(a.hex, Enemy(side_));
  if (defenders.empty()) {
    return Refuse(rules::kB7_1, "no enemy units to attack at " + Name(a.hex), a.where);
  }
  const RuleContext ctx = Ctx(false);
  std::vector<GroundUnit*> attackers;
  std::vector<StepNotes> crossings;  // the Rule 41 clauses that shaped each attacker's hexside
  bool all_major = true;
  for (const std::string& id : a.units) {
    Status error;
    GroundUnit* u = Unit(id, a.where, &error);
    if (u == nullptr) return error;
    if (attacked_.count(u->id)) {
      return Refuse(rules::kB7_1, u->name + " has already attacked this player-turn", a.where);
    }
    if (u->hex == a.hex) {
      // B11.3: dropped onto the enemy, it attacks from within the hex, across no hexside.
      all_major = false;
      attackers.push_back(u);
      continue;
    }
    const map::HexsideRef side = t_.HexsideBetween(u->hex, a.hex);
    if (!side.valid()) {
      return Refuse(rules::kB7_1,
                    u->name + " at " + Name(u->hex) + " is not next to " + Name(a.hex), a.where);
    }
    if (auto st = KerchAttack(side, a.where); !st) return st;
    GroundMover mover;
    mover.side = side_;
    mover.cls = u->traits().cls;
    std::vector<Note> notes;
    const CrossingVerdict cross = ClassifyCrossing(ctx, mover, u->hex, side, &notes);
    if (cross.crossing == Crossing::kBlocked) {
      return Refuse(cross.rule,
                    u->name + " cannot attack across " + t_.HexsideName(side) + ": " + cross.why,
                    a.where);
    }
    all_major = all_major && cross.crossing == Crossing::kMajor;
    crossings.push_back(StepNotes{{u->hex, a.hex}, std::move(notes)});
    attackers.push_back(u);
  }
  attacked_hexes_.insert(a.hex.v);
  for (GroundUnit* u : attackers) attacked_.insert(u->id);
  // 41.A.4: the owner's answer to the announced attack.
  auto answer = AnswerAttack(a);
  if (!answer) return std::unexpected(answer.error());
  result_.attacks.push_back(AttackOutcome{a.hex, answer->flood, std::nullopt});
  if (!answer->attack) return {};
  const int drm = answer->modifier;
  // B7.2: odds, columns and shifts.
  const CombatTables& crt = tables_.combat;
  int attack = 0, defense = 0;
  for (GroundUnit* u : attackers) {
    attack += u->supply == SupplyStatus::kSupplied ? u->attack
                                                   : u->attack / crt.out_of_supply_attack_divisor;
  }
  for (GroundUnit* d : defenders) defense += d->defense;
  defense = std::max(defense, 1);
  int column = 0;
  for (std::size_t k = 0; k < crt.columns.size(); ++k) {
    if (attack * crt.column_defense[k] >= defense * crt.column_attack[k]) {
      column = static_cast<int>(k);
    }
  }
  const map::HexInfo& info = t_.hex(a.hex);
  const map::Terrain terrain = answer->swamp ? map::Terrain::kSwamp : info.terrain;
  int shift =
      crt.terrain_shift[static_cast<int>(terrain)] + crt.city_shift[static_cast<int>(info.city)];
  if (all_major) shift += crt.major_river_shift;
  const int shifted = std::clamp(column + shift, 0, static_cast<int>(crt.columns.size()) - 1);
  const std::string odds =
      std::to_string(attack) + " to " + std::to_string(defense) + ", column " +
      crt.columns[column] +
      (shift ? " shifted " + std::to_string(shift) + " (" + map::TerrainName(terrain) +
                   (info.city != map::CityKind::kNone ? ", city" : "") +
                   (all_major ? ", across a major river" : "") + ")"
             : "") +
      " to " + crt.columns[shifted];
  auto roll = Roll(6, "combat at " + Name(a.hex), rules::kB7_2);
  if (!roll) return std::unexpected(roll.error());
  result_.rolls.back().against = odds + (drm ? ", die " + std::to_string(drm) : "");
  const int die = std::clamp(*roll + drm, 1, 6);
  const CombatResult result = crt.results[die - 1][shifted];
  result_.attacks.back().result = result;
  Decided(std::string(CombatResultName(result)) + " at " + crt.columns[shifted] +
              (drm ? " (die " + std::to_string(drm) + ")" : ""),
          result, {}, {a.hex}, drm ? Numbers{drm} : Numbers{});
  std::string attackers_names;
  Units attacker_ids;
  for (GroundUnit* u : attackers) {
    attackers_names += (attackers_names.empty() ? "" : ", ") + u->name;
    attacker_ids.push_back(u->id);
  }
  Say("combat", rules::kB7_2,
      attackers_names + " attack " + Name(a.hex) + ": " + odds + ": " + CombatResultName(result),
      attacker_ids, {a.hex}, shift ? Numbers{attack, defense, shift} : Numbers{attack, defense});
  // The clauses that made a hexside a major river for this attack (41.A.1, 41.E.2, 41.E.3).
  SayRule41("combat", attackers_names, attacker_ids, crossings);
  ApplyResult(result, a, attackers, defenders);
  return {};
}

void Turn::ApplyResult(CombatResult result, const AttackOrder& a,
                       const std::vector<GroundUnit*>& attackers,
                       const std::vector<GroundUnit*>& defenders) {
  // B7.3: the result.
  std::vector<map::HexRef> attack_hexes;
  for (GroundUnit* u : attackers) attack_hexes.push_back(u->hex);
  switch (result) {
    case CombatResult::kAE:
      for (GroundUnit* u : attackers)
        Eliminate(*u, rules::kB7_3, "AE at " + Name(a.hex), {a.hex}, {});
      break;
    case CombatResult::kAR:
      for (GroundUnit* u : attackers) Retreat(*u, {a.hex}, rules::kB7_3);
      break;
    case CombatResult::kEX: {
      int lost = 0;
      for (GroundUnit* d : defenders) {
        lost += d->defense;
        Eliminate(*d, rules::kB7_3, "EX at " + Name(a.hex), {a.hex}, {});
      }
      std::vector<GroundUnit*> order = attackers;
      std::stable_sort(order.begin(), order.end(),
                       [](GroundUnit* x, GroundUnit* y) { return x->attack < y->attack; });
      int paid = 0;
      for (GroundUnit* u : order) {
        if (paid >= lost) break;
        paid += u->attack;
        Eliminate(*u, rules::kB7_3, "its side of the exchange at " + Name(a.hex), {a.hex}, {});
      }
      break;
    }
    case CombatResult::kDR:
      for (GroundUnit* d : defenders) Retreat(*d, attack_hexes, rules::kB7_3);
      break;
    case CombatResult::kDE:
      for (GroundUnit* d : defenders)
        Eliminate(*d, rules::kB7_3, "DE at " + Name(a.hex), {a.hex}, {});
      break;
  }
  Gain(a.hex, side_);  // units that dropped in hold the hex once the enemy is gone (B9.1)
  // B7.6: advance into the emptied hex, as far as stacking allows.
  GroundMover foot;
  foot.side = side_;
  if (a.advance && !Occupied(a.hex, Enemy(side_)) &&
      EvaluateGroundHex(Ctx(false), foot, a.hex, nullptr).blocked.empty()) {
    for (GroundUnit* u : attackers) {
      if (!u->on_map() || u->hex == a.hex) continue;
      if (ResAt(a.hex, side_) + u->re_halves > tables_.stacking_halves) break;
      Enter(*u, a.hex);
      Say("advance", rules::kB7_6, u->name + " advances into " + Name(a.hex), {u->id}, {a.hex}, {});
    }
  }
}

}  // namespace opsim::ops
