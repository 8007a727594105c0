// 41.A.4 Flooding of canal-intensive hexes: the owner's attempt when an attack is announced
// (41.A.4.a) and the Axis's massive flood after the Netherlands' surrender (41.A.4.b), their
// results, the flooded-terrain switch (swamp, prohibited), expiry, the massive flood's effects
// and the Allies' disaster relief in SRPs.
#include <algorithm>

#include "../notes.h"
#include "../turn.h"
#include "opsim/core/rule_ids.h"
#include "rule41.h"

namespace opsim::ops {

std::optional<StepVerdict> rule41::FloodedTerrain(const RuleContext& ctx, map::HexRef h,
                                                  const map::Flood& f, map::Terrain& terrain,
                                                  std::vector<Note>* notes) {
  const map::Theater& t = ctx.theater;
  switch (f.kind) {
    case map::FloodKind::kMassive:
      if (ctx.player_turn <= f.until) {
        return Blocked(rules::k41A4b, notes, [&]() -> std::string {
          return t.HexName(h) +
                 " is massively flooded: prohibited terrain through "
                 "the player-turn after the flooding";
        });
      }
      terrain = map::Terrain::kSwamp;
      AddNote(notes, rules::k41A4b, [&]() -> std::string {
        return t.HexName(h) + " is massively flooded: swamp for the game";
      });
      break;
    case map::FloodKind::kProhibited:
      // S* succeeds as S does in the player-turn of the flood, then prohibits the hex for
      // the next two turns (docs/rules.md, 41.A.4.a).
      if (ctx.player_turn > f.from && ctx.player_turn <= f.until) {
        return Blocked(rules::k41A4a, notes, [&]() -> std::string {
          return t.HexName(h) +
                 " was flooded with great success (S*): prohibited "
                 "terrain for two turns";
        });
      }
      [[fallthrough]];
    case map::FloodKind::kPartial:
      if (ctx.exploitation && ctx.player_turn == f.from) {
        terrain = map::Terrain::kSwamp;
        AddNote(notes, rules::k41A4a, [&]() -> std::string {
          return t.HexName(h) + " is flooded: swamp for combat and exploitation this player-turn";
        });
      }
      break;
  }
  return std::nullopt;
}

Result<Turn::FloodAnswer> Turn::AnswerAttack(const AttackOrder& a) {
  FloodAnswer answer;
  for (const Reaction& r : orders_.reactions) {
    if (r.hex != a.hex) continue;
    auto outcome = Flood(a, r);
    if (!outcome) return std::unexpected(outcome.error());
    answer.flood = outcome->result;
    answer.modifier += outcome->attack_modifier;
    if (outcome->massive) {
      Say("combat", rules::k41A4b,
          "the attack on " + Name(a.hex) +
              " is cancelled: the hex is prohibited terrain; its "
              "attackers may not attack elsewhere",
          {}, {a.hex}, {});
      answer.attack = false;
      return answer;
    }
    if (outcome->flooded) {
      answer.swamp = true;
      if (a.call_off_if_flooded) {
        Say("combat", rules::k41A4a,
            "the attack on " + Name(a.hex) +
                " is called off; its units may not attack a "
                "different hex",
            {}, {a.hex}, {});
        answer.attack = false;
        return answer;
      }
    }
    break;
  }
  // (A hex a flood made prohibited terrain was refused when the attack was declared.)
  // A flooded hex is swamp for combat, still counting its city (41.A.4.a.2).
  answer.swamp = answer.swamp || s_.map.flood(a.hex) != nullptr;
  return answer;
}

Status Turn::MayFlood(map::HexRef h, ReactionKind kind, const std::string& where) const {
  const Side owner = Enemy(side_);
  const bool massive = kind == ReactionKind::kMassiveFlood;
  const RuleId rule = massive ? rules::k41A4b : rules::k41A4a;
  auto refuse = [&](RuleId r, std::string message) {
    return Fail(ErrorCode::kRuleViolation, std::move(message), where, std::string(r.id));
  };
  if (t_.hex(h).terrain != map::Terrain::kCanalIntensive) {
    return refuse(rule, Name(h) + " is not canal-intensive");
  }
  if (s_.map.owner(h) != OwnerOf(owner)) {
    return refuse(rule, "only the player owning " + Name(h) + " may flood it");
  }
  if (!massive) return {};
  if (owner != Side::kAxis) {
    return refuse(rules::k41A4b,
                  "only the Axis player may massively flood a hex; the Allied player cannot");
  }
  if (!s_.netherlands_surrendered) {
    return refuse(rules::k41A4b, "massive flooding comes only after the Netherlands surrenders");
  }
  bool water_side = t_.hex(h).HasSea();
  for (map::Dir d : map::kAllDirs) {
    const map::HexsideRef e = t_.HexsideAt(h, d);
    if (e.valid() &&
        (t_.hexside(e).features & (map::kMajorRiver | map::kMinorRiver | map::kCanal)) != 0) {
      water_side = true;
    }
  }
  if (!t_.InRole(h, map::AreaRole::kNetherlands) || !water_side) {
    return refuse(rules::k41A4b, Name(h) +
                                     " cannot be massively flooded: the hex must be in the "
                                     "Netherlands and be coastal or have a river or canal hexside");
  }
  return {};
}

std::vector<ReactionKind> Turn::FloodChoices(map::HexRef h) const {
  std::vector<ReactionKind> out;
  for (ReactionKind k : {ReactionKind::kFlood, ReactionKind::kMassiveFlood}) {
    if (MayFlood(h, k, "")) out.push_back(k);
  }
  return out;
}

Result<Turn::FloodOutcome> Turn::Flood(const AttackOrder& a, const Reaction& r) {
  const map::HexRef h = a.hex;
  const Side owner = Enemy(side_);
  const bool massive = r.kind == ReactionKind::kMassiveFlood;
  const RuleId rule = massive ? rules::k41A4b : rules::k41A4a;
  if (auto st = MayFlood(h, r.kind, r.where); !st) return std::unexpected(st.error());
  const bool in_nl = t_.InRole(h, map::AreaRole::kNetherlands);
  const int modifier = in_nl ? tables_.flooding.netherlands_modifier : 0;
  auto roll = Roll(tables_.flooding.die,
                   std::string(massive ? "massive flooding of " : "flooding of ") + Name(h), rule);
  if (!roll) return std::unexpected(roll.error());
  if (modifier)
    result_.rolls.back().against = "+" + std::to_string(modifier) + " in the Netherlands";
  const int index =
      std::clamp(*roll + modifier, 1, static_cast<int>(tables_.flooding.results.size()));
  const FloodResult result = tables_.flooding.results[index - 1];
  Decided(std::string(FloodResultName(result)) +
              (modifier ? " (" + std::to_string(*roll) + "+" + std::to_string(modifier) +
                              " in the Netherlands)"
                        : ""),
          result, {}, {h}, modifier ? Numbers{*roll, modifier} : Numbers{});
  FloodOutcome out;
  out.result = result;
  switch (result) {
    case FloodResult::kCompleteFailure:
      Say("flood", rule,
          "the " + std::string(SideName(owner)) + " side fails to flood " + Name(h) + " (F*)", {},
          {h}, {});
      return out;
    case FloodResult::kFailure:
      out.attack_modifier = tables_.flooding.failure_attack_modifier;
      Say("flood", rule,
          "the " + std::string(SideName(owner)) + " side fails to flood " + Name(h) +
              " (F): the attack has " + std::to_string(out.attack_modifier) + " to its die roll",
          {}, {h}, {out.attack_modifier});
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
            "swamp for the rest of the game",
        {}, {h}, {});
    PayRelief(tables_.flooding.massive_relief_srp, "the massive flood", h, rules::k41A4b);
    if (auto st = MassiveFloodEffects(h); !st) return std::unexpected(st.error());
    return out;
  }
  if (result == FloodResult::kGreatSuccess) {
    s_.map.SetFlood(h, map::Flood{map::FloodKind::kProhibited, serial_,
                                  serial_ + tables_.flooding.great_success_player_turns});
    Say("flood", rules::k41A4a,
        Name(h) +
            " is flooded (S*): swamp for this player-turn's combat and exploitation, then "
            "prohibited terrain for the next two turns",
        {}, {h}, {});
  } else {
    s_.map.SetFlood(h, map::Flood{map::FloodKind::kPartial, serial_, serial_});
    Say("flood", rules::k41A4a,
        Name(h) + " is flooded (S): swamp" +
            (t_.hex(h).city != map::CityKind::kNone ? " (its city still counts)" : "") +
            " for this player-turn's combat and exploitation",
        {}, {h}, {});
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
    if (relief) PayRelief(tables_.flooding.relief_srp, "the flood", h, rules::k41A4a);
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
  const std::vector<GroundUnit*> axis = UnitsAt(h, Side::kAxis);
  if (!axis.empty()) TakeRetreatPreferences({h});
  for (GroundUnit* u : axis) Retreat(*u, attackers_at, rules::k41A4b);
  retreat_prefs_.clear();
  Gain(h, Side::kAllied);  // units that dropped into the hex hold it now
  for (AirUnit& a : s_.air) {
    if (a.side == Side::kAxis && a.status == AirStatus::kBased && a.base == h) {
      if (auto st = AirEscape(a, rules::k41A4b); !st) return st;
    }
  }
  for (NavalUnit& n : s_.naval) {
    if (n.side == Side::kAxis && !n.sunk && n.hex == h && !n.at_sea) {
      n.at_sea = true;
      Say("naval", rules::k41A4b, n.name + " puts to sea from the flooded port at " + Name(h),
          {n.id}, {h}, {});
    }
  }
  // 41.A.4.b.3: the airbase and port are damaged to their maximum.
  const map::HexInfo& info = t_.hex(h);
  if (info.airbase) {
    s_.map.SetAirbaseDamage(h, static_cast<std::uint8_t>(tables_.airbase_max_damage));
    Say("damage", rules::k41A4b, "the airbase at " + Name(h) + " is damaged to the maximum", {},
        {h}, {tables_.airbase_max_damage});
  }
  if (info.port != map::PortSize::kNone) {
    s_.map.SetPortDamage(
        h, static_cast<std::uint8_t>(tables_.port_max_damage[static_cast<int>(info.port)]));
    Say("damage", rules::k41A4b, "the port at " + Name(h) + " is damaged to the maximum", {}, {h},
        {tables_.port_max_damage[static_cast<int>(info.port)]});
  }
  // 41.A.4.b.4: air-dropped Allied units stay, with a "+3 MP" marker.
  for (GroundUnit* u : UnitsAt(h, Side::kAllied)) {
    if (u->dropped_in == serial_) {
      u->extra_mp_marker = 3;
      Say("marker", rules::k41A4b, u->name + " stays in the flooded hex with a +3 MP marker",
          {u->id}, {h}, {u->extra_mp_marker});
    }
  }
  return {};
}

void Turn::PayRelief(int srp, const std::string& flood, map::HexRef h, RuleId rule) {
  if (srp <= 0) return;
  int& pool = s_.srp[c_.relief_pool];
  const int paid = std::min(pool, srp);
  pool -= paid;
  Say("relief", rule,
      "the Allies spend " + std::to_string(paid) + " SRP" + (paid == 1 ? "" : "s") + " of " +
          c_.relief_pool + " as disaster relief for " + flood + " at " + Name(h) +
          (paid < srp ? " (short by " + std::to_string(srp - paid) + ")" : ""),
      {}, {h}, paid < srp ? Numbers{paid, srp - paid} : Numbers{paid});
}

void Turn::Relief() {
  // 41.A.4.b.5: 1 SRP per massively flooded hex in each month's 1 and 3 Allied initial
  // phases: docs/rules.md reads these as the Allies' first and second initial phases of the
  // month, i.e. each Allied initial phase after the flood.
  if (side_ != Side::kAllied) return;
  for (const auto& [hex, f] : s_.map.floods()) {
    if (f.kind != map::FloodKind::kMassive || f.from >= serial_) continue;
    PayRelief(tables_.flooding.monthly_relief_srp, "the massive flood", map::HexRef{hex},
              rules::k41A4b);
  }
}

void Turn::ExpireFloods() {
  // A massive flood stays, as swamp, for good.
  std::vector<std::uint32_t> expired;
  for (const auto& [hex, f] : s_.map.floods()) {
    if (f.kind != map::FloodKind::kMassive && f.until < serial_) expired.push_back(hex);
  }
  for (std::uint32_t hex : expired) {
    s_.map.ClearFlood(map::HexRef{hex});
    Say("flood", rules::k41A4a, "the flood at " + Name(map::HexRef{hex}) + " is over", {},
        {map::HexRef{hex}}, {});
  }
}

Status Turn::FloodsAnswerAttacks() {
  // 41.A.4.a: a hex is flooded only when it is attacked.
  for (const Reaction& r : orders_.reactions) {
    if (!attacked_hexes_.count(r.hex.v)) {
      return Refuse(r.kind == ReactionKind::kFlood ? rules::k41A4a : rules::k41A4b,
                    "the owner floods a canal-intensive hex only when enemy units attack it; " +
                        Name(r.hex) + " is not attacked",
                    r.where);
    }
  }
  return {};
}

void Turn::RecedeFloods() {
  // 41.A.4.a S: a partial flood lasts for the rest of the player-turn only.
  std::vector<std::uint32_t> over;
  for (const auto& [hex, f] : s_.map.floods()) {
    if (f.kind == map::FloodKind::kPartial && f.until <= serial_) over.push_back(hex);
  }
  for (std::uint32_t hex : over) {
    s_.map.ClearFlood(map::HexRef{hex});
    Say("flood", rules::k41A4a,
        "the flood at " + Name(map::HexRef{hex}) + " recedes with the player-turn", {},
        {map::HexRef{hex}}, {});
  }
}

Status Turn::PayFloodMarkers(MovingStack& stack, map::HexRef start, const std::string& where) {
  // 41.A.4.b.4: the "+3 MP" marker costs its holder 3 MP the next time it moves.
  for (std::size_t k = 0; k < stack.units.size(); ++k) {
    GroundUnit& u = *stack.units[k];
    if (u.extra_mp_marker <= 0) continue;
    if (auto st = Pay(stack, k, static_cast<std::uint32_t>(u.extra_mp_marker) * 2, start, where);
        !st) {
      return st;
    }
    Say("move", rules::k41A4b,
        u.name + " pays its +" + std::to_string(u.extra_mp_marker) + " MP marker", {u.id}, {},
        {u.extra_mp_marker});
    u.extra_mp_marker = 0;
  }
  return {};
}

}  // namespace opsim::ops
