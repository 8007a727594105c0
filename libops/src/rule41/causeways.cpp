// 41.A.1 Causeways: a road or railroad across an all-sea or lake hexside. Ground units cross
// it as a major river, even along its road; it blocks naval movement and may split a hex's
// water; it is a bridge for construction and destruction (B14).
#include "../notes.h"
#include "opsim/core/rule_ids.h"
#include "rule41.h"

namespace opsim::ops {

bool rule41::CausewayCrossing(const RuleContext& ctx, map::HexsideRef side, const std::string& name,
                              CrossingVerdict& v, std::vector<Note>* notes) {
  if (!ctx.theater.hexside(side).Has(map::kCauseway)) return false;
  v.rule = rules::k41A1;
  if (ctx.state.bridge_destroyed(side)) {
    // docs/rules.md: a destroyed causeway leaves all-sea water, which no ground unit crosses.
    v.crossing = Crossing::kBlocked;
    if (notes) v.why = name + " is a destroyed causeway: nothing crosses the water there";
    return true;
  }
  v.crossing = Crossing::kMajor;
  AddNote(notes, rules::k41A1, [&]() -> std::string {
    return name + " is a causeway: a major river hexside for ground units";
  });
  return true;
}

bool rule41::RoadBridgesWater(const map::HexsideInfo& s) {
  return s.Has(map::kRoad) && !s.Has(map::kCauseway);
}

std::optional<std::string> rule41::CausewaySplitFrom(const map::Theater& t,
                                                     const map::WaterArea& from,
                                                     const std::string& here, map::Dir d,
                                                     map::HexsideRef side) {
  if (!from.split_by.valid()) return std::nullopt;
  return "the causeway on " + t.HexsideName(from.split_by) + " splits the water of " +
         t.HexName(from.hex) + ": from " + here + " there is no water link to " + map::DirName(d) +
         " hexside " + t.HexsideName(side);
}

std::optional<std::string> rule41::CausewaySplitInto(const map::Theater& t, const Waypoint& w,
                                                     const std::string& there,
                                                     map::HexsideRef side) {
  for (const map::WaterArea& other : t.WaterAreasOf(w.hex)) {
    if (w.area_named && other.index != w.area) continue;
    if (other.split_by.valid()) {
      return "the causeway on " + t.HexsideName(other.split_by) + " splits the water of " +
             t.HexName(w.hex) + ": " + there + " is not reached across " + t.HexsideName(side);
    }
  }
  return std::nullopt;
}

const char* rule41::BridgeWord(const map::HexsideInfo& s) {
  return s.Has(map::kCauseway) ? "causeway" : "bridge";
}

RuleId rule41::BridgeRule(const map::HexsideInfo& s, RuleId base) {
  return s.Has(map::kCauseway) ? rules::k41A1 : base;
}

RuleId NavalRouter::CausewayStep(map::HexsideRef side, std::vector<Note>* notes) const {
  const map::Theater& t = ctx_.theater;
  AddNote(notes, rules::k41A1, [&]() -> std::string {
    return "the causeway on " + t.HexsideName(side) +
           " blocks all-sea routes, and so naval movement";
  });
  return rules::k41A1;
}

}  // namespace opsim::ops
