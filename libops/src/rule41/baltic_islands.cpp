// 41.E.2 Baltic Islands: all-sea hexsides between two of the islands, or between an island and
// Estonia, are major river hexsides for movement, overrun, combat and supply.
#include "../notes.h"
#include "opsim/core/rule_ids.h"
#include "rule41.h"

namespace opsim::ops {

namespace {

bool BalticHexside(const map::Theater& t, const map::HexsideInfo& s) {
  const bool a_island = t.InRole(s.a, map::AreaRole::kBalticIslands);
  const bool b_island = t.InRole(s.b, map::AreaRole::kBalticIslands);
  if (!a_island && !b_island) return false;
  const bool a_ok = a_island || t.InRole(s.a, map::AreaRole::kEstonia);
  const bool b_ok = b_island || t.InRole(s.b, map::AreaRole::kEstonia);
  return a_ok && b_ok;
}

}  // namespace

bool rule41::BalticCrossing(const RuleContext& ctx, map::HexsideRef side, const std::string& name,
                            CrossingVerdict& v, std::vector<Note>* notes) {
  if (!BalticHexside(ctx.theater, ctx.theater.hexside(side))) return false;
  v.crossing = Crossing::kMajor;
  v.rule = rules::k41E2;
  AddNote(notes, rules::k41E2, [&]() -> std::string {
    return name + ": a Baltic Islands sea hexside is a major river";
  });
  return true;
}

}  // namespace opsim::ops
