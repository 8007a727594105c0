// The combat phase (B7): attacks, the CRT and its shifts, retreats and advances. The defender's
// flooding (41.A.4) is in rule41/flooding.cpp, the Kerch hexside's refusal (41.E.1) in
// rule41/kerch.cpp.
#include <algorithm>

#include "notes.h"
#include "opsim/core/echo.h"
#include "turn.h"

namespace opsim::ops {

namespace {

// The hexside a crossing is on the terrain effects chart (B7.2), if the chart names it.
std::optional<CombatHexside> CombatHexsideOf(Crossing c) {
  switch (c) {
    case Crossing::kMinor:
      return CombatHexside::kMinorRiver;
    case Crossing::kMajor:
      return CombatHexside::kMajorRiver;
    case Crossing::kCanal:
      return CombatHexside::kCanal;
    default:
      return std::nullopt;
  }
}

// "major river": a hexside of the chart in words.
std::string Words(const char* name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '-', ' ');
  return out;
}

}  // namespace

Status Turn::Combat() {
  for (const AttackOrder& a : orders_.combat) {
    if (auto st = Attempt([&] { return Attack(a); }); !st) return st;
  }
  return EndCombat();
}

Status Turn::EndCombat() {
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
  auto declared = Declare(a);
  if (!declared) return std::unexpected(declared.error());
  if (auto st = Resolve(*declared); !st) return st;
  if (!declared->result) return {};
  ApplyResult(*declared);
  if (a.advance_units) {
    if (auto st = MayAdvanceThese(*declared, *a.advance_units, a.where); !st) return st;
  }
  Advance(*declared, a.advance_units ? *a.advance_units
                     : a.advance     ? MayAdvance(*declared)
                                     : std::vector<std::string>{});
  return {};
}

Result<Turn::Declared> Turn::Declare(const AttackOrder& a) {
  auto d = Weigh(a);
  if (!d) return d;
  attacked_hexes_.insert(a.hex.v);
  for (const std::string& id : d->attackers) attacked_.insert(id);
  return d;
}

Result<Turn::Declared> Turn::Weigh(const AttackOrder& a) {
  if (attacked_hexes_.count(a.hex.v)) {
    return Refuse(rules::kB7_1, Name(a.hex) + " is attacked once a player-turn", a.where);
  }
  if (UnitsAt(a.hex, Enemy(side_)).empty()) {
    return Refuse(rules::kB7_1, "no enemy units to attack at " + Name(a.hex), a.where);
  }
  const RuleContext ctx = Ctx(false);
  Declared d{a, {}, {}, {}, std::nullopt};
  for (const std::string& id : a.units) {
    Status error;
    GroundUnit* u = Unit(id, a.where, &error);
    if (u == nullptr) return std::unexpected(error.error());
    if (attacked_.count(u->id)) {
      return Refuse(rules::kB7_1, u->name + " has already attacked this player-turn", a.where);
    }
    if (u->hex == a.hex) {
      // B11.3: dropped onto the enemy, it attacks from within the hex, across no hexside.
      d.across.push_back(std::nullopt);
      d.attackers.push_back(u->id);
      continue;
    }
    const map::HexsideRef side = t_.HexsideBetween(u->hex, a.hex);
    if (!side.valid()) {
      return Refuse(rules::kB7_1,
                    u->name + " at " + Name(u->hex) + " is not next to " + Name(a.hex), a.where);
    }
    if (auto st = KerchAttack(side, a.where); !st) return std::unexpected(st.error());
    GroundMover mover;
    mover.side = side_;
    mover.cls = tables_.type(u->type).cls;
    std::vector<Note> notes;
    const CrossingVerdict cross = ClassifyCrossing(ctx, mover, u->hex, side, &notes);
    if (cross.crossing == Crossing::kBlocked) {
      return Refuse(cross.rule,
                    u->name + " cannot attack across " + t_.HexsideName(side) + ": " + cross.why,
                    a.where);
    }
    d.across.push_back(CombatHexsideOf(cross.crossing));
    d.crossings.push_back(StepNotes{{u->hex, a.hex}, std::move(notes)});
    d.attackers.push_back(u->id);
  }
  // B11.3: units that dropped onto the hex's enemy units this player-turn attack with the rest.
  for (GroundUnit* u : UnitsAt(a.hex, side_)) {
    if (u->dropped_in == serial_ &&
        std::find(d.attackers.begin(), d.attackers.end(), u->id) == d.attackers.end()) {
      return Refuse(rules::kB11_3,
                    u->name + " dropped onto " + Name(a.hex) +
                        " this player-turn: it must be among the hex's attackers",
                    a.where);
    }
  }
  // A hex that a flood made prohibited terrain is not attacked at all (41.A.4).
  GroundMover foot;
  foot.side = side_;
  if (const map::Flood* f = s_.map.flood(a.hex);
      f && !EvaluateGroundHex(ctx, foot, a.hex, nullptr).blocked.empty()) {
    return Refuse(f->kind == map::FloodKind::kMassive ? rules::k41A4b : rules::k41A4a,
                  Name(a.hex) + " is prohibited terrain: no attack may be made on it", a.where);
  }
  return d;
}

CombatOdds Turn::Odds(const Declared& d, bool swamp) {
  // B7.2: odds, columns and shifts.
  const CombatTables& crt = tables_.combat;
  const map::HexRef hex = d.order.hex;
  const map::HexInfo& info = t_.hex(hex);
  const map::Terrain terrain = swamp ? map::Terrain::kSwamp : info.terrain;
  // Strengths in quarters, each attacker's multiplied by its hexside's and the defenders' by
  // their terrain's; the totals drop their fractions.
  CombatOdds o;
  std::vector<std::string> multiplied;
  const std::vector<GroundUnit*> attackers = Attackers(d);
  for (std::size_t i = 0; i < attackers.size(); ++i) {
    const GroundUnit* u = attackers[i];
    const int attack = u->supply == SupplyStatus::kSupplied
                           ? u->attack
                           : u->attack / crt.out_of_supply_attack_divisor;
    const int quarters = d.across[i] ? crt.attack_multiplier[static_cast<int>(*d.across[i])] : 4;
    if (quarters != 4) {
      multiplied.push_back(u->name + " x" + Quarters(quarters) + " across a " +
                           Words(CombatHexsideName(*d.across[i])));
    }
    o.attack += attack * quarters;
  }
  const int defense_quarters = crt.defense_multiplier[static_cast<int>(terrain)];
  for (GroundUnit* u : UnitsAt(hex, Enemy(side_))) o.defense += u->defense * defense_quarters;
  if (defense_quarters != 4) {
    multiplied.push_back("defense x" + Quarters(defense_quarters) + " in " +
                         map::TerrainName(terrain));
  }
  o.attack /= 4;
  o.defense = std::max(o.defense / 4, 1);
  o.column = std::max(crt.Column(o.attack, o.defense), 0);
  o.shift =
      crt.terrain_shift[static_cast<int>(terrain)] + crt.city_shift[static_cast<int>(info.city)];
  // A hexside shifts the column when every attacker attacks across its kind.
  const std::optional<CombatHexside> across =
      !d.across.empty() && std::all_of(d.across.begin(), d.across.end(),
                                       [&](const auto& h) { return h == d.across.front(); })
          ? d.across.front()
          : std::nullopt;
  const int hexside_shift = across ? crt.hexside_shift[static_cast<int>(*across)] : 0;
  o.shift += hexside_shift;
  o.shifted = std::clamp(o.column + o.shift, 0, static_cast<int>(crt.columns.size()) - 1);
  std::string why;
  for (const std::string& m : multiplied) why += (why.empty() ? " (" : "; ") + m;
  o.text =
      std::to_string(o.attack) + " to " + std::to_string(o.defense) +
      (why.empty() ? "" : why + ")") + ", column " + crt.columns[o.column] +
      (o.shift ? " shifted " + std::to_string(o.shift) + " (" + map::TerrainName(terrain) +
                     (info.city != map::CityKind::kNone ? ", city" : "") +
                     (hexside_shift ? ", across a " + Words(CombatHexsideName(*across)) : "") + ")"
               : "") +
      " to " + crt.columns[o.shifted];
  return o;
}

std::vector<GroundUnit*> Turn::Attackers(const Declared& d) {
  std::vector<GroundUnit*> out;
  for (const std::string& id : d.attackers) out.push_back(s_.FindUnit(id));
  return out;
}

Status Turn::Resolve(Declared& d) {
  const AttackOrder& a = d.order;
  // 41.A.4: the owner's answer to the announced attack.
  auto answer = AnswerAttack(a);
  if (!answer) return std::unexpected(answer.error());
  result_.attacks.push_back(AttackOutcome{a.hex, answer->flood, std::nullopt});
  if (!answer->attack) return {};
  const int drm = answer->modifier;
  const std::vector<GroundUnit*> attackers = Attackers(d);
  const CombatTables& crt = tables_.combat;
  const CombatOdds odds = Odds(d, answer->swamp);
  auto roll = Roll(crt.die, "combat at " + Name(a.hex), rules::kB7_2);
  if (!roll) return std::unexpected(roll.error());
  result_.rolls.back().against = odds.text + (drm ? ", die " + std::to_string(drm) : "");
  const int die = std::clamp(*roll + drm, 1, crt.die);
  const CombatResult result = crt.results[die - 1][odds.shifted];
  result_.attacks.back().result = result;
  d.result = result;
  Decided(std::string(crt.name(result)) + " at " + crt.columns[odds.shifted] +
              (drm ? " (die " + std::to_string(drm) + ")" : ""),
          result, {}, {a.hex}, drm ? Numbers{drm} : Numbers{});
  std::string attackers_names;
  Units attacker_ids;
  for (GroundUnit* u : attackers) {
    attackers_names += (attackers_names.empty() ? "" : ", ") + u->name;
    attacker_ids.push_back(u->id);
  }
  Say("combat", rules::kB7_2,
      attackers_names + " attack " + Name(a.hex) + ": " + odds.text + ": " + crt.name(result),
      attacker_ids, {a.hex},
      odds.shift ? Numbers{odds.attack, odds.defense, odds.shift}
                 : Numbers{odds.attack, odds.defense});
  // The clauses that made a hexside a major river for this attack (41.A.1, 41.E.2, 41.E.3).
  SayRule41("combat", attackers_names, attacker_ids, d.crossings);
  return {};
}

void Turn::TakeRetreatPreferences(const std::vector<map::HexRef>& hexes) {
  retreat_prefs_.clear();
  for (map::HexRef h : hexes) {
    retreat_prefs_[h.v] = RetreatPreferenceFor(orders_.retreats, h, retreats_taken_[h.v]++);
  }
}

std::vector<map::HexRef> Turn::Retreating(const Declared& d) {
  std::vector<map::HexRef> out;
  auto add = [&](const std::vector<GroundUnit*>& units) {
    for (GroundUnit* u : units) {
      if (u->on_map() && std::find(out.begin(), out.end(), u->hex) == out.end()) {
        out.push_back(u->hex);
      }
    }
  };
  if (!d.result) return out;
  const CombatResultCode& code = tables_.combat.code(*d.result);
  if (code.attacker_retreat > 0) add(Attackers(d));
  if (code.defender_retreat > 0) add(UnitsAt(d.order.hex, Enemy(side_)));
  return out;
}

std::vector<map::HexRef> Turn::RetreatChoices(const Declared& d, map::HexRef h) {
  const bool defenders = d.result && tables_.combat.code(*d.result).defender_retreat > 0;
  std::vector<map::HexRef> from;
  if (defenders) {
    for (GroundUnit* u : Attackers(d)) from.push_back(u->hex);
  } else {
    from.push_back(d.order.hex);
  }
  for (GroundUnit* u : UnitsAt(h, defenders ? Enemy(side_) : side_)) {
    return Farthest(*u, from);
  }
  return {};
}

void Turn::Lose(const std::vector<GroundUnit*>& units, int percent, bool attacking,
                const std::string& why, map::HexRef hex) {
  // B7.3: every unit, in order; or the weakest first until the share is lost.
  if (percent >= 100) {
    for (GroundUnit* u : units) Eliminate(*u, rules::kB7_3, why, {hex}, {});
    return;
  }
  if (percent <= 0) return;
  int total = 0;
  for (const GroundUnit* u : units) total += attacking ? u->attack : u->defense;
  LoseAtLeast(units, (total * percent + 99) / 100, attacking, why, hex);
}

void Turn::LoseAtLeast(const std::vector<GroundUnit*>& units, int due, bool attacking,
                       const std::string& why, map::HexRef hex) {
  auto strength = [&](const GroundUnit* u) { return attacking ? u->attack : u->defense; };
  std::vector<GroundUnit*> order = units;
  std::stable_sort(order.begin(), order.end(),
                   [&](GroundUnit* x, GroundUnit* y) { return strength(x) < strength(y); });
  int lost = 0;
  for (GroundUnit* u : order) {
    if (lost >= due) break;
    lost += strength(u);
    Eliminate(*u, rules::kB7_3, why, {hex}, {});
  }
}

void Turn::ApplyResult(const Declared& d) {
  const map::HexRef hex = d.order.hex;
  const std::vector<GroundUnit*> attackers = Attackers(d);
  const std::vector<GroundUnit*> defenders = UnitsAt(hex, Enemy(side_));
  const CombatResultCode& code = tables_.combat.code(*d.result);
  const std::string at = code.name + " at " + Name(hex);
  // B7.3: the result's losses, its exchange, then its retreats.
  std::vector<map::HexRef> attack_hexes;
  for (GroundUnit* u : attackers) attack_hexes.push_back(u->hex);
  TakeRetreatPreferences(Retreating(d));
  Lose(attackers, code.attacker_loss, true, at, hex);
  Lose(defenders, code.defender_loss, false, at, hex);
  if (code.exchange) {
    int lost = 0;
    for (const GroundUnit* u : defenders) lost += u->defense;
    Lose(defenders, 100, false, at, hex);
    LoseAtLeast(attackers, lost, true, "its side of the exchange at " + Name(hex), hex);
  }
  for (GroundUnit* u : attackers) {
    if (code.attacker_retreat > 0 && u->on_map()) {
      Retreat(*u, {hex}, rules::kB7_3, code.attacker_retreat);
    }
  }
  for (GroundUnit* u : defenders) {
    if (code.defender_retreat > 0 && u->on_map()) {
      Retreat(*u, attack_hexes, rules::kB7_3, code.defender_retreat);
    }
  }
  retreat_prefs_.clear();
  Gain(hex, side_);  // units that dropped in hold the hex once the enemy is gone (B9.1)
}

std::vector<std::string> Turn::MayAdvance(const Declared& d) {
  const map::HexRef hex = d.order.hex;
  GroundMover foot;
  foot.side = side_;
  std::vector<std::string> out;
  if (!d.result || Occupied(hex, Enemy(side_)) ||
      !EvaluateGroundHex(Ctx(false), foot, hex, nullptr).blocked.empty()) {
    return out;
  }
  for (GroundUnit* u : Attackers(d)) {
    if (u->on_map() && u->hex != hex) out.push_back(u->id);
  }
  return out;
}

Status Turn::MayAdvanceThese(const Declared& d, const std::vector<std::string>& units,
                             const std::string& where) {
  const std::vector<std::string> may = MayAdvance(d);
  for (const std::string& id : units) {
    if (std::find(may.begin(), may.end(), id) == may.end()) {
      return Refuse(rules::kB7_6,
                    may.empty() ? "no unit may advance into " + Name(d.order.hex)
                                : "'" + EchoToken(id) +
                                      "' is not one of the attackers that may advance into " +
                                      Name(d.order.hex),
                    where);
    }
  }
  return {};
}

void Turn::Advance(const Declared& d, const std::vector<std::string>& units) {
  // B7.6: into the emptied hex, in the attack's order, as far as stacking allows.
  const map::HexRef hex = d.order.hex;
  for (GroundUnit* u : Attackers(d)) {
    if (std::find(units.begin(), units.end(), u->id) == units.end()) continue;
    if (!u->on_map() || u->hex == hex) continue;
    if (ResAt(hex, side_) + u->re_halves > tables_.stacking_halves) break;
    Enter(*u, hex);
    Say("advance", rules::kB7_6, u->name + " advances into " + Name(hex), {u->id}, {hex}, {});
  }
}

}  // namespace opsim::ops
