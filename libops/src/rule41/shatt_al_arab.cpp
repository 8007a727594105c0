// 41.D The Shatt al Arab-Tigris: groups with no TFs or CGs move along it between the Persian
// Gulf and the inland ports, no further upriver than 22A:3219/3220; the scenario closes the
// waterways beyond (docs/rules.md), which naval.cpp refuses citing this clause.
#include "../notes.h"
#include "opsim/core/rule_ids.h"

namespace opsim::ops {

RuleId NavalRouter::ShattStep(map::HexsideRef side, const map::Waterway& way,
                              std::vector<Note>* notes) const {
  if (group_.warships()) {
    AddNote(notes, rules::k41D, [&]() -> std::string {
      return "a group with TFs or CGs may not move along the Shatt al Arab-Tigris";
    });
    return rules::k41D;
  }
  AddNote(notes, rules::k41D,
          [&]() -> std::string { return Along(ctx_.theater, side, way) + ": no TF or CG"; });
  return {};
}

}  // namespace opsim::ops
