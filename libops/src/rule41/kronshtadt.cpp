// 41.E.3 Kronshtadt: its island and its hex's coastal portion are one hex, gained whole; the
// all-sea hexside between it and Leningrad's north-west hex is a major river for the Soviet
// (Allied) player while he owns both hexes, and all-sea otherwise.
#include "../notes.h"
#include "opsim/core/rule_ids.h"
#include "rule41.h"

namespace opsim::ops {

bool rule41::IsKronshtadt(const map::Theater& t, map::HexRef h) {
  // Kronshtadt is the end of the Kronshtadt-Leningrad hexside that is not Leningrad's
  // north-west hex (a major city).
  for (const map::Waterway& w : t.waterways()) {
    if (w.rule != map::WaterwayRule::kKronshtadt) continue;
    for (map::HexsideRef s : w.hexsides) {
      const map::HexsideInfo& side = t.hexside(s);
      if ((side.a == h || side.b == h) && t.hex(h).city != map::CityKind::kFullMajor &&
          t.hex(h).city != map::CityKind::kPartialMajor) {
        return true;
      }
    }
  }
  return false;
}

bool rule41::KronshtadtCrossing(const RuleContext& ctx, const GroundMover& mover,
                                map::HexsideRef side, const std::string& name, CrossingVerdict& v,
                                std::vector<Note>* notes) {
  const map::Waterway* w = ctx.theater.WaterwayOf(side);
  if (!w || w->rule != map::WaterwayRule::kKronshtadt) return false;
  const map::HexsideInfo& s = ctx.theater.hexside(side);
  v.rule = rules::k41E3;
  const bool soviet_owns_both = mover.side == Side::kAllied &&
                                ctx.state.owner(s.a) == Owner::kAllied &&
                                ctx.state.owner(s.b) == Owner::kAllied;
  if (!soviet_owns_both) {
    v.crossing = Crossing::kBlocked;
    if (notes) {
      v.why = name +
              " is all-sea; only the Soviet player owning both hexes may treat it as a "
              "major river";
    }
    return true;
  }
  v.crossing = Crossing::kMajor;
  AddNote(notes, rules::k41E3, [&]() -> std::string {
    return name + ": the Soviet player owns both hexes: a major river";
  });
  return true;
}

std::string rule41::KronshtadtOwners(const RuleContext& ctx) {
  const map::Theater& t = ctx.theater;
  std::string owners;
  for (const map::Waterway& w : t.waterways()) {
    if (w.rule != map::WaterwayRule::kKronshtadt) continue;
    for (map::HexsideRef s : w.hexsides) {
      owners += OwnerName(ctx.state.owner(t.hexside(s).a));
      owners += OwnerName(ctx.state.owner(t.hexside(s).b));
    }
  }
  return owners;
}

}  // namespace opsim::ops
