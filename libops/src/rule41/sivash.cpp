// 41.E.4 The Sivash: no naval unit enters any hex of the line 4A:2929 through 4A:3240.
#include "../notes.h"
#include "opsim/core/rule_ids.h"

namespace opsim::ops {

RuleId NavalRouter::SivashStep(map::HexRef to, std::vector<Note>* notes) const {
  const map::Theater& t = ctx_.theater;
  AddNote(notes, rules::k41E4, [&]() -> std::string {
    return t.HexName(to) + " is on the Sivash line: impassable to naval units";
  });
  return rules::k41E4;
}

}  // namespace opsim::ops
