// 41.E.6 The Vuoksa: the lower Vuoksa (from the Imatra Falls) and its two lakes never freeze
// for ground units: its river hexsides keep their unfrozen cost and its lakes stop ground units.
#include "../notes.h"
#include "opsim/core/rule_ids.h"
#include "rule41.h"

namespace opsim::ops {

bool rule41::VuoksaHex(const map::Theater& t, map::HexRef h) {
  return t.InRole(h, map::AreaRole::kVuoksa);
}

bool rule41::VuoksaHexside(const map::Theater& t, map::HexsideRef side) {
  const map::Waterway* w = t.WaterwayOf(side);
  return w && w->rule == map::WaterwayRule::kVuoksa;
}

StepVerdict rule41::VuoksaLakeHex(const RuleContext& ctx, map::HexRef h, std::vector<Note>* notes) {
  return Blocked(rules::k41E6, notes, [&]() -> std::string {
    return ctx.theater.HexName(h) +
           " is a Vuoksa lake: it never freezes enough for ground "
           "units to cross the ice";
  });
}

bool rule41::VuoksaLakeCrossing(const RuleContext& ctx, map::HexRef from, map::HexsideRef side,
                                const std::string& name, CrossingVerdict& v,
                                std::vector<Note>* notes) {
  const map::Theater& t = ctx.theater;
  const map::HexRef to = t.hexside(side).Other(from);
  if (!VuoksaHexside(t, side) || !ctx.state.HexFrozen(t, from) || !ctx.state.HexFrozen(t, to)) {
    return false;
  }
  v.crossing = Crossing::kBlocked;
  v.rule = rules::k41E6;
  if (notes) v.why = name + " is on the Vuoksa: open water all game for ground units";
  return true;
}

void rule41::NoteVuoksaRiver(const RuleContext& ctx, map::HexRef from, map::HexsideRef side,
                             const std::string& name, std::vector<Note>* notes) {
  const map::Theater& t = ctx.theater;
  const map::HexRef to = t.hexside(side).Other(from);
  if (VuoksaHexside(t, side) && ctx.state.HexFrozen(t, from) && ctx.state.HexFrozen(t, to)) {
    AddNote(notes, rules::k41E6,
            [&]() -> std::string { return name + ": the Vuoksa counts as open water all game"; });
  }
}

}  // namespace opsim::ops
