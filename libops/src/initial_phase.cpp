// The start of a player-turn: the weather (B2, at the start of a game turn), then the initial
// phase: expired floods, the Netherlands' surrender (B13), Suez status (41.B), reinforcements
// (B16.1), supply (B8), disaster relief (41.A.4.b.5) and the initial-phase orders (41.B, 41.A.3).
// The Rule 41 pieces are in rule41/: flooding.cpp, suez.cpp, ice_airfields.cpp.
#include "supply.h"
#include "turn.h"

namespace opsim::ops {

Status Turn::Weather() {
  if (serial_ % 2 != 0) return {};  // the weather is rolled once a game turn
  // A probe plans in the present weather: the coming weather is no one's to know.
  if (probe_ != nullptr) return ThawIceAirfields();
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
    Decided(WeatherName(w), w, {}, {}, {});
    const bool frozen = (w == ops::Weather::kFrost && tables_.weather.frost_freezes) ||
                        (w == ops::Weather::kSnow && tables_.weather.snow_freezes);
    if (frozen != s_.map.frozen(z)) {
      Say("weather", rules::kB2_1,
          std::string("zone ") + zone + (frozen ? " freezes" : " thaws") + " (" + WeatherName(w) +
              ")",
          {}, {}, {});
    }
    s_.weather[z] = w;
    s_.map.SetFrozen(z, frozen);
  }
  return ThawIceAirfields();
}

Status Turn::Initial() {
  if (auto st = InitialStart(); !st) return st;
  for (const InitialOrder& o : orders_.initial) {
    if (auto st = Attempt([&] { return InitialStep(o); }); !st) return st;
  }
  return {};
}

Status Turn::InitialStep(const InitialOrder& o) {
  return o.kind == InitialKind::kIceAirfield ? BuildIceAirfield(o) : SuezStatus(&o);
}

Status Turn::InitialStart() {
  ExpireFloods();
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
        Say("surrender", rules::kB13_1, "the Netherlands surrenders: the Axis holds all its cities",
            {}, {}, {});
      }
    }
  }
  // 41.B.3: permanent closure, automatically, at the start of any initial phase.
  if (auto st = SuezStatus(nullptr); !st) return st;
  Reinforcements();
  if (auto st = Supply(); !st) return st;
  Relief();
  return {};
}

void Turn::Reinforcements() {
  for (GroundUnit& u : s_.units) {
    if (u.status != UnitStatus::kReinforcement || u.side != side_) continue;
    const auto due = c_.arrivals.find(u.id);
    if (due == c_.arrivals.end() || due->second > s_.date()) continue;
    const std::string why = Occupied(u.hex, Enemy(side_))                  ? "enemy units hold it"
                            : s_.map.owner(u.hex) == OwnerOf(Enemy(side_)) ? "the enemy owns it"
                            : ResAt(u.hex, side_) + u.re_halves > tables_.stacking_halves
                                ? "it would break stacking (B3.2)"
                                : "";
    if (!why.empty()) {
      Say("reinforcement", rules::kB16_1,
          u.name + " cannot enter at " + Name(u.hex) + ": " + why + "; it waits", {u.id}, {u.hex},
          {});
      continue;
    }
    Arrive(u);
    Say("reinforcement", rules::kB16_1, u.name + " arrives at " + Name(u.hex), {u.id}, {u.hex}, {});
  }
}

Status Turn::Supply() {
  auto work_out = [&] { return SupplyByHex(t_, s_, c_, side_, Ctx(false), routers_); };
  std::vector<SupplyStatus> own;
  const std::vector<SupplyStatus>& by_hex = probe_supply_ != nullptr && result_.rolls.empty()
                                                ? probe_supply_->Get(work_out)
                                                : (own = work_out());
  int supplied = 0, out = 0, isolated = 0;
  for (GroundUnit& u : s_.units) {
    if (!u.on_map() || u.side != side_) continue;
    const SupplyStatus now = by_hex[u.hex.v];
    (now == SupplyStatus::kSupplied ? supplied : now == SupplyStatus::kIsolated ? isolated : out)++;
    if (now != u.supply) {
      Say("supply", rules::kB8_1,
          u.name + " at " + Name(u.hex) + " is now " + SupplyStatusName(now) + " (was " +
              SupplyStatusName(u.supply) + ")",
          {u.id}, {u.hex}, {});
      u.supply = now;
    }
  }
  Say("supply", rules::kB8_1,
      std::string(SideName(side_)) + " supply: " + std::to_string(supplied) + " supplied, " +
          std::to_string(out) + " out of supply, " + std::to_string(isolated) + " isolated",
      {}, {}, {supplied, out, isolated});
  return {};
}

}  // namespace opsim::ops
