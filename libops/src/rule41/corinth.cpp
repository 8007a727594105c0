// 41.C The Corinth Canal: a group with no TFs or CGs, of the side owning both canal hexes
// (15B:0813 and 0814), may move through it between the Gulf of Corinth and the Saronic Gulf.
#include "../notes.h"
#include "opsim/core/rule_ids.h"

namespace opsim::ops {

RuleId NavalRouter::CorinthStep(map::HexsideRef side, const map::Waterway& way,
                                std::vector<Note>* notes) const {
  const map::Theater& t = ctx_.theater;
  const map::HexsideInfo& s = t.hexside(side);
  if (group_.warships()) {
    AddNote(notes, rules::k41C, [&]() -> std::string {
      return "a group with TFs or CGs may not use the Corinth Canal";
    });
    return rules::k41C;
  }
  const Owner own = OwnerOf(group_.side);
  if (ctx_.state.owner(s.a) != own || ctx_.state.owner(s.b) != own) {
    AddNote(notes, rules::k41C, [&]() -> std::string {
      return std::string("the Corinth Canal needs both ") + t.HexName(s.a) + " and " +
             t.HexName(s.b) + " to be " + SideName(group_.side) + "-owned";
    });
    return rules::k41C;
  }
  AddNote(notes, rules::k41C, [&]() -> std::string {
    return Along(t, side, way) + ": no TF or CG, both canal hexes owned";
  });
  return {};
}

}  // namespace opsim::ops
