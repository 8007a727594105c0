// 41.A.3 Ice airfields: built in the initial phase on a frozen partial-lake hex with no
// airfield, by any ground unit there; removed when a weather roll thaws the lake, its air units
// escaping (B11.2).
#include "../turn.h"
#include "opsim/core/rule_ids.h"
#include "rule41.h"

namespace opsim::ops {

bool Turn::FrozenLakeHex(map::HexRef h) const {
  // The lower Vuoksa's lakes never freeze (41.E.6).
  return t_.hex(h).IsPartialLake() && s_.map.HexFrozen(t_, h) && !rule41::VuoksaHex(t_, h);
}

Status Turn::BuildIceAirfield(const InitialOrder& o) {
  Status error;
  GroundUnit* u = Unit(o.unit, o.where, &error);
  if (u == nullptr) return error;
  if (u->hex != o.hex) {
    return Refuse(rules::k41A3, u->name + " is not in " + Name(o.hex), o.where);
  }
  if (rule41::VuoksaHex(t_, o.hex)) {
    return Refuse(
        rules::k41A3,
        Name(o.hex) + " is on a Vuoksa lake, which never freezes (41.E.6): no ice airfield",
        o.where);
  }
  if (!FrozenLakeHex(o.hex)) {
    return Refuse(rules::k41A3,
                  "an ice airfield needs a frozen partial-lake hex; " + Name(o.hex) + " is not one",
                  o.where);
  }
  if (t_.hex(o.hex).airbase || s_.map.ice_airfield(o.hex)) {
    return Refuse(rules::k41A3, Name(o.hex) + " already has an airfield", o.where);
  }
  s_.map.SetIceAirfield(o.hex, true);
  Say("ice-airfield", rules::k41A3,
      u->name + " builds an ice airfield at " + Name(o.hex) + " (any unit may; no SMP cost)",
      {u->id}, {o.hex}, {});
  return {};
}

Status Turn::ThawIceAirfields() {
  // An ice airfield goes when its lake thaws, and its air units must try to escape.
  std::vector<std::uint32_t> thawed;
  for (const auto& [hex, present] : s_.map.ice_airfields()) {
    if (!FrozenLakeHex(map::HexRef{hex})) thawed.push_back(hex);
  }
  for (std::uint32_t hex : thawed) {
    s_.map.SetIceAirfield(map::HexRef{hex}, false);
    Say("ice-airfield", rules::k41A3,
        "the lake thaws at " + Name(map::HexRef{hex}) + ": its ice airfield is removed", {},
        {map::HexRef{hex}}, {});
    for (AirUnit& a : s_.air) {
      if (a.status == AirStatus::kBased && a.base.v == hex) {
        if (auto st = AirEscape(a, rules::k41A3); !st) return st;
      }
    }
  }
  return {};
}

}  // namespace opsim::ops
