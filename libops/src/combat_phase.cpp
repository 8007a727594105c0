// The combat phase (B7): attacks, the CRT and its shifts, retreats and advances, and the
// defender's flooding of canal-intensive hexes (41.A.4). Attacks across the Kerch hexside are
// refused (41.E.1).
#include <algorithm>

#include "turn.h"

namespace opsim::ops {

Status Turn::Combat() {
  for (const AttackOrder& a : orders_.combat) {
    if (auto st = Attack(a); !st) return st;
  }
  // 41.A.4.a: a hex is flooded only when it is attacked.
  for (const Reaction& r : orders_.reactions) {
    if (!attacked_hexes_.count(r.hex.v)) {
      return Refuse(r.kind == ReactionKind::kFlood ? rules::k41A4a : rules::k41A4b,
                    "the owner floods a canal-intensive hex only when enemy units attack it; " +
                        Name(r.hex) + " is not attacked",
                    r.where);
    }
  }
  // B11.3: an assault that has not cleared its hex by the end of combat is lost.
  for (GroundUnit& u : s_.units) {
    if (u.on_map() && u.side == side_ && u.dropped_in == serial_ && Occupied(u.hex, Enemy(side_))) {
      Eliminate(u, rules::kB11_3, "its air assault did not clear " + Name(u.hex));
    }
  }
  return {};
}

Result<Turn::FloodOutcome> Turn::Flood(const AttackOrder& a, const Reaction& r) {
  const map::HexRef h = a.hex;
  const Side owner = Enemy(side_);
  const bool massive = r.kind == ReactionKind::kMassiveFlood;
  const RuleId rule = massive ? rules::k41A4b : rules::k41A4a;
  if (t_.hex(h).terrain != map::Terrain::kCanalIntensive) {
    return Refuse(rule, Name(h) + " is not canal-intensive", r.where);
  }
  if (s_.map.owner(h) != OwnerOf(owner)) {
    return Refuse(rule, "only the player owning " + Name(h) + " may flood it", r.where);
  }
  const bool in_nl = t_.InRole(h, map::AreaRole::kNetherlands);
  if (massive) {
    if (owner != Side::kAxis) {
      return Refuse(rules::k41A4b,
                    "only the Axis player may massively flood a hex; the Allied player cannot",
                    r.where);
    }
    if (!s_.netherlands_surrendered) {
      return Refuse(rules::k41A4b, "massive flooding comes only after the Netherlands surrenders",
                    r.where);
    }
    bool water_side = t_.hex(h).HasSea();
    for (map::Dir d : map::kAllDirs) {
      const map::HexsideRef e = t_.HexsideAt(h, d);
      if (e.valid() &&
          (t_.hexside(e).features & (map::kMajorRiver | map::kMinorRiver | map::kCanal)) != 0) {
        water_side = true;
      }
    }
    if (!in_nl || !water_side) {
      return Refuse(rules::k41A4b,
                    Name(h) +
                        " cannot be massively flooded: the hex must be in the Netherlands "
                        "and be coastal or have a river or canal hexside",
                    r.where);
    }
  }
  const int modifier = in_nl ? tables_.flooding.netherlands_modifier : 0;
  auto roll = Roll(tables_.flooding.die,
                   std::string(massive ? "massive flooding of " : "flooding of ") + Name(h), rule);
  if (!roll) return std::unexpected(roll.error());
  const int index =
      std::clamp(*roll + modifier, 1, static_cast<int>(tables_.flooding.results.size()));
  const FloodResult result = tables_.flooding.results[index - 1];
  Decided(std::string(FloodResultName(result)) +
          (modifier ? " (" + std::to_string(*roll) + "+" + std::to_string(modifier) +
                          " in the Netherlands)"
                    : ""));
  FloodOutcome out;
  switch (result) {
    case FloodResult::kCompleteFailure:
      Say("flood", rule,
          "the " + std::string(SideName(owner)) + " side fails to flood " + Name(h) + " (F*)");
      return out;
    case FloodResult::kFailure:
      out.attack_modifier = tables_.flooding.failure_attack_modifier;
      Say("flood", rule,
          "the " + std::string(SideName(owner)) + " side fails to flood " + Name(h) +
              " (F): the attack has " + std::to_string(out.attack_modifier) + " to its die roll");
      return out;
    case FloodResult::kSuccess:
    case FloodResult::kGreatSuccess:
      break;
  }
  out.flooded = true;
  if (massive) {
    out.massive = true;
    s_.map.SetFlood(h, map::Flood{map::FloodKind::kMassive, serial_, serial_ + 1});
    s_.map.AddMarker(h, "massively-flooded");
    Say("flood", rules::k41A4b,
        Name(h) +
            " is massively flooded: prohibited terrain this player-turn and the next, then "
            "swamp for the rest of the game");
    PayRelief(tables_.flooding.massive_relief_srp, "the massive flood at " + Name(h),
              rules::k41A4b);
    if (auto st = MassiveFloodEffects(h); !st) return std::unexpected(st.error());
    return out;
  }
  if (result == FloodResult::kGreatSuccess) {
    s_.map.SetFlood(h, map::Flood{map::FloodKind::kProhibited, serial_,
                                  serial_ + tables_.flooding.great_success_player_turns});
    Say("flood", rules::k41A4a,
        Name(h) +
            " is flooded (S*): swamp for this player-turn's combat and exploitation, then "
            "prohibited terrain for the next two turns");
  } else {
    s_.map.SetFlood(h, map::Flood{map::FloodKind::kPartial, serial_, serial_});
    Say("flood", rules::k41A4a,
        Name(h) + " is flooded (S): swamp" +
            (t_.hex(h).city != map::CityKind::kNone ? " (its city still counts)" : "") +
            " for this player-turn's combat and exploitation");
  }
  // 41.A.4.a.4: after the surrender, relief for a dot city in the hex or, in the Netherlands,
  // a dot or major city next to it.
  if (s_.netherlands_surrendered) {
    bool relief = t_.hex(h).city == map::CityKind::kDot;
    if (!relief && in_nl) {
      for (map::Dir d : map::kAllDirs) {
        const map::HexRef n = t_.NeighborAt(h, d);
        if (n.valid() && t_.hex(n).city != map::CityKind::kNone &&
            t_.InRole(n, map::AreaRole::kNetherlands)) {
          relief = true;
        }
      }
    }
    if (relief) PayRelief(tables_.flooding.relief_srp, "the flood at " + Name(h), rules::k41A4a);
  }
  return out;
}

Status Turn::MassiveFloodEffects(map::HexRef h) {
  // 41.A.4.b.2: Axis units retreat, Axis air units escape, Axis naval units put to sea.
  std::vector<map::HexRef> attackers_at;
  for (const AttackOrder& a : orders_.combat) {
    if (a.hex != h) continue;
    for (const std::string& id : a.units) {
      if (const GroundUnit* u = s_.FindUnit(id)) attackers_at.push_back(u->hex);
    }
  }
  for (GroundUnit* u : UnitsAt(h, Side::kAxis)) Retreat(*u, attackers_at, rules::k41A4b);
  Gain(h, Side::kAllied);  // units that dropped into the hex hold it now
  for (AirUnit& a : s_.air) {
    if (a.side == Side::kAxis && a.status == AirStatus::kBased && a.base == h) {
      if (auto st = AirEscape(a, rules::k41A4b); !st) return st;
    }
  }
  for (NavalUnit& n : s_.naval) {
    if (n.side == Side::kAxis && !n.sunk && n.hex == h && !n.at_sea) {
      n.at_sea = true;
      Say("naval", rules::k41A4b, n.name + " puts to sea from the flooded port at " + Name(h));
    }
  }
  // 41.A.4.b.3: the airbase and port are damaged to their maximum.
  const map::HexInfo& info = t_.hex(h);
  if (info.airbase) {
    s_.map.SetAirbaseDamage(h, static_cast<std::uint8_t>(tables_.airbase_max_damage));
    Say("damage", rules::k41A4b, "the airbase at " + Name(h) + " is damaged to the maximum");
  }
  if (info.port != map::PortSize::kNone) {
    s_.map.SetPortDamage(
        h, static_cast<std::uint8_t>(tables_.port_max_damage[static_cast<int>(info.port)]));
    Say("damage", rules::k41A4b, "the port at " + Name(h) + " is damaged to the maximum");
  }
  // 41.A.4.b.4: air-dropped Allied units stay, with a "+3 MP" marker.
  for (GroundUnit* u : UnitsAt(h, Side::kAllied)) {
    if (u->dropped_in == serial_) {
      u->extra_mp_marker = 3;
      Say("marker", rules::k41A4b, u->name + " stays in the flooded hex with a +3 MP marker");
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
    const map::Waterway* way = t_.WaterwayOf(side);
    if (way != nullptr && way->rule == map::WaterwayRule::kKerch) {
      return Refuse(rules::k41E1,
                    "no attack across the Kerch Straits hexside " + t_.HexsideName(side) +
                        " (units may move and overrun "
                        "across it, not attack)",
                    a.where);
    }
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
    attackers.push_back(u);
  }
  attacked_hexes_.insert(a.hex.v);
  for (GroundUnit* u : attackers) attacked_.insert(u->id);
  // 41.A.4: the owner's answer to the announced attack.
  int drm = 0;
  bool swamp = false;
  for (const Reaction& r : orders_.reactions) {
    if (r.hex != a.hex) continue;
    auto outcome = Flood(a, r);
    if (!outcome) return std::unexpected(outcome.error());
    drm += outcome->attack_modifier;
    if (outcome->massive) {
      Say("combat", rules::k41A4b,
          "the attack on " + Name(a.hex) +
              " is cancelled: the hex is prohibited terrain; its "
              "attackers may not attack elsewhere");
      return {};
    }
    if (outcome->flooded) {
      swamp = true;
      if (a.call_off_if_flooded) {
        Say("combat", rules::k41A4a,
            "the attack on " + Name(a.hex) +
                " is called off; its units may not attack a "
                "different hex");
        return {};
      }
    }
    break;
  }
  // The hex after a massive flood is prohibited terrain: not attacked at all.
  GroundMover foot;
  foot.side = side_;
  if (const map::Flood* f = s_.map.flood(a.hex);
      f && !EvaluateGroundHex(ctx, foot, a.hex, nullptr).blocked.empty()) {
    return Refuse(f->kind == map::FloodKind::kMassive ? rules::k41A4b : rules::k41A4a,
                  Name(a.hex) + " is prohibited terrain: no attack may be made on it", a.where);
  }
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
  // A flooded hex is swamp for combat, still counting its city (41.A.4.a.2).
  const map::Terrain terrain =
      swamp || (s_.map.flood(a.hex) != nullptr) ? map::Terrain::kSwamp : info.terrain;
  int shift =
      crt.terrain_shift[static_cast<int>(terrain)] + crt.city_shift[static_cast<int>(info.city)];
  if (all_major) shift += crt.major_river_shift;
  const int shifted = std::clamp(column + shift, 0, static_cast<int>(crt.columns.size()) - 1);
  auto roll = Roll(6, "combat at " + Name(a.hex), rules::kB7_2);
  if (!roll) return std::unexpected(roll.error());
  const int die = std::clamp(*roll + drm, 1, 6);
  const CombatResult result = crt.results[die - 1][shifted];
  Decided(std::string(CombatResultName(result)) + " at " + crt.columns[shifted] +
          (drm ? " (die " + std::to_string(drm) + ")" : ""));
  std::string attackers_names;
  for (GroundUnit* u : attackers)
    attackers_names += (attackers_names.empty() ? "" : ", ") + u->name;
  Say("combat", rules::kB7_2,
      attackers_names + " attack " + Name(a.hex) + ": " + std::to_string(attack) + " to " +
          std::to_string(defense) + ", column " + crt.columns[column] +
          (shift ? " shifted " + std::to_string(shift) + " (" + map::TerrainName(terrain) +
                       (info.city != map::CityKind::kNone ? ", city" : "") +
                       (all_major ? ", across a major river" : "") + ")"
                 : "") +
          " to " + crt.columns[shifted] + ": " + CombatResultName(result));
  std::vector<map::HexRef> attack_hexes;
  for (GroundUnit* u : attackers) attack_hexes.push_back(u->hex);
  switch (result) {
    case CombatResult::kAE:
      for (GroundUnit* u : attackers) Eliminate(*u, rules::kB7_3, "AE at " + Name(a.hex));
      break;
    case CombatResult::kAR:
      for (GroundUnit* u : attackers) Retreat(*u, {a.hex}, rules::kB7_3);
      break;
    case CombatResult::kEX: {
      int lost = 0;
      for (GroundUnit* d : defenders) {
        lost += d->defense;
        Eliminate(*d, rules::kB7_3, "EX at " + Name(a.hex));
      }
      std::vector<GroundUnit*> order = attackers;
      std::stable_sort(order.begin(), order.end(),
                       [](GroundUnit* x, GroundUnit* y) { return x->attack < y->attack; });
      int paid = 0;
      for (GroundUnit* u : order) {
        if (paid >= lost) break;
        paid += u->attack;
        Eliminate(*u, rules::kB7_3, "its side of the exchange at " + Name(a.hex));
      }
      break;
    }
    case CombatResult::kDR:
      for (GroundUnit* d : defenders) Retreat(*d, attack_hexes, rules::kB7_3);
      break;
    case CombatResult::kDE:
      for (GroundUnit* d : defenders) Eliminate(*d, rules::kB7_3, "DE at " + Name(a.hex));
      break;
  }
  Gain(a.hex, side_);  // units that dropped in hold the hex once the enemy is gone (B9.1)
  // B7.6: advance into the emptied hex, as far as stacking allows.
  if (a.advance && !Occupied(a.hex, Enemy(side_)) &&
      EvaluateGroundHex(Ctx(false), foot, a.hex, nullptr).blocked.empty()) {
    for (GroundUnit* u : attackers) {
      if (!u->on_map() || u->hex == a.hex) continue;
      if (ResAt(a.hex, side_) + u->re_halves > tables_.stacking_halves) break;
      Enter(*u, a.hex);
      Say("advance", rules::kB7_6, u->name + " advances into " + Name(a.hex));
    }
  }
  return {};
}

}  // namespace opsim::ops
