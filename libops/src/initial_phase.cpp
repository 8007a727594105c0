// The start of a player-turn: the weather (B2, at the start of a game turn), then the initial
// phase: expired floods, the Netherlands' surrender (B13), Suez status (41.B), supply (B8),
// disaster relief (41.A.4.b.5) and the initial-phase orders (41.B, 41.A.3).
#include <algorithm>

#include "supply.h"
#include "turn.h"

namespace opsim::ops {

Status Turn::Weather() {
  if (serial_ % 2 != 0) return {};  // the weather is rolled once a game turn
  const GameDate date = s_.date();
  for (std::size_t z = 0; z < t_.weather_zones().size(); ++z) {
    const char zone = t_.weather_zones()[z][0];
    const std::string& faces = tables_.weather.zones.at(zone)[date.month - 1];
    auto roll = Roll(6, std::string("weather in zone ") + zone, rules::kB2_1);
    if (!roll) return std::unexpected(roll.error());
    ops::Weather w = ops::Weather::kClear;
    switch (faces[*roll - 1]) {
      case 'M':
        w = ops::Weather::kMud;
        break;
      case 'F':
        w = ops::Weather::kFrost;
        break;
      case 'S':
        w = ops::Weather::kSnow;
        break;
      default:
        break;
    }
    Decided(WeatherName(w));
    const bool frozen = (w == ops::Weather::kFrost && tables_.weather.frost_freezes) ||
                        (w == ops::Weather::kSnow && tables_.weather.snow_freezes);
    if (frozen != s_.map.frozen(z)) {
      Say("weather", rules::kB2_1,
          std::string("zone ") + zone + (frozen ? " freezes" : " thaws") + " (" + WeatherName(w) +
              ")");
    }
    s_.weather[z] = w;
    s_.map.SetFrozen(z, frozen);
  }
  // 41.A.3: an ice airfield goes when its lake thaws, and its air units must try to escape.
  std::vector<std::uint32_t> thawed;
  for (const auto& [hex, present] : s_.map.ice_airfields()) {
    if (!FrozenLakeHex(map::HexRef{hex})) thawed.push_back(hex);
  }
  for (std::uint32_t hex : thawed) {
    s_.map.SetIceAirfield(map::HexRef{hex}, false);
    Say("ice-airfield", rules::k41A3,
        "the lake thaws at " + Name(map::HexRef{hex}) + ": its ice airfield is removed");
    for (AirUnit& a : s_.air) {
      if (a.status == AirStatus::kBased && a.base.v == hex) {
        if (auto st = AirEscape(a, rules::k41A3); !st) return st;
      }
    }
  }
  return {};
}

Status Turn::Initial() {
  // Floods that have run their course (41.A.4): a massive flood stays, as swamp, for good.
  std::vector<std::uint32_t> expired;
  for (const auto& [hex, f] : s_.map.floods()) {
    if (f.kind != map::FloodKind::kMassive && f.until < serial_) expired.push_back(hex);
  }
  for (std::uint32_t hex : expired) {
    s_.map.ClearFlood(map::HexRef{hex});
    Say("flood", rules::k41A4a, "the flood at " + Name(map::HexRef{hex}) + " is over");
  }
  // B13.1: the Netherlands surrenders once the Axis owns every city hex in it.
  if (!s_.netherlands_surrendered) {
    const int nl = t_.AreaWithRole(map::AreaRole::kNetherlands);
    if (nl >= 0) {
      bool any = false, all = true;
      for (map::HexRef h : t_.areas()[nl].hexes) {
        if (t_.hex(h).city == map::CityKind::kNone) continue;
        any = true;
        all = all && s_.map.owner(h) == Owner::kAxis;
      }
      if (any && all) {
        s_.netherlands_surrendered = true;
        Say("surrender", rules::kB13_1,
            "the Netherlands surrenders: the Axis holds all its cities");
      }
    }
  }
  // 41.B.3: permanent closure, automatically, at the start of any initial phase.
  if (auto st = SuezStatus(nullptr); !st) return st;
  if (auto st = Supply(); !st) return st;
  Relief();
  for (const InitialOrder& o : orders_.initial) {
    if (o.kind == InitialKind::kIceAirfield) {
      Status error;
      GroundUnit* u = Unit(o.unit, o.where, &error);
      if (u == nullptr) return error;
      if (u->hex != o.hex) {
        return Refuse(rules::k41A3, u->name + " is not in " + Name(o.hex), o.where);
      }
      if (!IceAirfieldAllowed(o.hex)) {
        return Refuse(
            rules::k41A3,
            "an ice airfield needs a frozen partial-lake hex; " + Name(o.hex) + " is not one",
            o.where);
      }
      if (t_.hex(o.hex).airbase || s_.map.ice_airfield(o.hex)) {
        return Refuse(rules::k41A3, Name(o.hex) + " already has an airfield", o.where);
      }
      s_.map.SetIceAirfield(o.hex, true);
      Say("ice-airfield", rules::k41A3,
          u->name + " builds an ice airfield at " + Name(o.hex) + " (any unit may; no SMP cost)");
    } else {
      if (auto st = SuezStatus(&o); !st) return st;
    }
  }
  return {};
}

Status Turn::SuezStatus(const InitialOrder* order) {
  const map::Waterway* canal = nullptr;
  for (const map::Waterway& w : t_.waterways()) {
    if (w.rule == map::WaterwayRule::kSuez) canal = &w;
  }
  if (order == nullptr) {
    if (canal == nullptr || s_.map.suez() == map::CanalStatus::kPermanentlyClosed) return {};
    for (map::HexsideRef side : canal->hexsides) {
      if (s_.map.hexside_owner(side) == Owner::kAxis) {
        s_.map.SetSuez(map::CanalStatus::kPermanentlyClosed);
        Say("suez", rules::k41B,
            "the Suez Canal is permanently closed: hexside " + t_.HexsideName(side) +
                " is Axis-owned");
        return {};
      }
    }
    return {};
  }
  if (canal == nullptr) return Refuse(rules::k41B, "this map has no Suez Canal", order->where);
  if (side_ != Side::kAllied) {
    return Refuse(rules::k41B, "only the Allied player closes or reopens the Suez Canal",
                  order->where);
  }
  if (order->kind == InitialKind::kCloseSuez) {
    if (s_.map.suez() != map::CanalStatus::kOpen) {
      return Refuse(rules::k41B,
                    std::string("only an open canal can be closed; it is ") +
                        map::CanalStatusName(s_.map.suez()),
                    order->where);
    }
    // At least one Axis unit in regular supply (B8) anywhere in the Egyptian Delta.
    const RuleContext ctx = Ctx(false);
    GroundMover foot;
    foot.side = Side::kAxis;
    GroundRouter& router = routers_.Get(ctx, foot, GroundRouter::Arcs::kInbound);
    const SupplyNet net = SupplyNetwork(t_, s_, c_, Side::kAxis, ctx);
    const auto& cost = SupplyCosts(router, net);
    const GroundUnit* found = nullptr;
    for (const GroundUnit& u : s_.units) {
      if (u.on_map() && u.side == Side::kAxis && t_.InRole(u.hex, map::AreaRole::kEgyptianDelta) &&
          SupplyFromCost(cost[u.hex.v], tables_) == SupplyStatus::kSupplied) {
        found = &u;
        break;
      }
    }
    if (found == nullptr) {
      return Refuse(rules::k41B,
                    "the canal may be closed only while an Axis unit in regular supply is in "
                    "the Egyptian Delta",
                    order->where);
    }
    s_.map.SetSuez(map::CanalStatus::kTemporarilyClosed);
    Say("suez", rules::k41B,
        "the Allies temporarily close the Suez Canal (" + found->name + " stands in supply at " +
            Name(found->hex) + ")");
    return {};
  }
  if (s_.map.suez() != map::CanalStatus::kTemporarilyClosed) {
    return Refuse(rules::k41B,
                  std::string("only a temporarily closed canal can be reopened; it is ") +
                      map::CanalStatusName(s_.map.suez()),
                  order->where);
  }
  for (map::HexsideRef side : canal->hexsides) {
    if (s_.map.hexside_owner(side) != Owner::kAllied) {
      return Refuse(rules::k41B,
                    "the canal reopens only when all its hexsides are Allied-owned; " +
                        t_.HexsideName(side) + " is not",
                    order->where);
    }
  }
  s_.map.SetSuez(map::CanalStatus::kOpen);
  Say("suez", rules::k41B, "the Allies reopen the Suez Canal");
  return {};
}

Status Turn::Supply() {
  const RuleContext ctx = Ctx(false);
  GroundMover foot;
  foot.side = side_;
  GroundRouter& router = routers_.Get(ctx, foot, GroundRouter::Arcs::kInbound);
  const SupplyNet net = SupplyNetwork(t_, s_, c_, side_, ctx);
  const std::vector<std::uint32_t>& cost = SupplyCosts(router, net);
  int supplied = 0, out = 0, isolated = 0;
  for (GroundUnit& u : s_.units) {
    if (!u.on_map() || u.side != side_) continue;
    const SupplyStatus now = SupplyFromCost(cost[u.hex.v], tables_);
    (now == SupplyStatus::kSupplied ? supplied : now == SupplyStatus::kIsolated ? isolated : out)++;
    if (now != u.supply) {
      Say("supply", rules::kB8_1,
          u.name + " at " + Name(u.hex) + " is now " + SupplyStatusName(now) + " (was " +
              SupplyStatusName(u.supply) + ")");
      u.supply = now;
    }
  }
  Say("supply", rules::kB8_1,
      std::string(SideName(side_)) + " supply: " + std::to_string(supplied) + " supplied, " +
          std::to_string(out) + " out of supply, " + std::to_string(isolated) + " isolated");
  return {};
}

void Turn::PayRelief(int srp, const std::string& why, RuleId rule) {
  if (srp <= 0) return;
  int& pool = s_.srp[c_.relief_pool];
  const int paid = std::min(pool, srp);
  pool -= paid;
  Say("relief", rule,
      "the Allies spend " + std::to_string(paid) + " SRP" + (paid == 1 ? "" : "s") + " of " +
          c_.relief_pool + " as disaster relief for " + why +
          (paid < srp ? " (short by " + std::to_string(srp - paid) + ")" : ""));
}

void Turn::Relief() {
  // 41.A.4.b.5: 1 SRP per massively flooded hex in each month's 1 and 3 Allied initial
  // phases: docs/rules.md reads these as the Allies' first and second initial phases of the
  // month, i.e. each Allied initial phase after the flood.
  if (side_ != Side::kAllied) return;
  for (const auto& [hex, f] : s_.map.floods()) {
    if (f.kind != map::FloodKind::kMassive || f.from >= serial_) continue;
    PayRelief(tables_.flooding.monthly_relief_srp, "the massive flood at " + Name(map::HexRef{hex}),
              rules::k41A4b);
  }
}

}  // namespace opsim::ops
