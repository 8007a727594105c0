// 41.E.5 The Sea of Azov: a river flotilla, kept off all-sea hexes elsewhere (B6.4), may enter
// any all-sea hex of the Sea of Azov.
#include "../notes.h"
#include "opsim/core/rule_ids.h"

namespace opsim::ops {

RuleId NavalRouter::FlotillaStep(map::HexRef to, std::vector<Note>* notes) const {
  const map::Theater& t = ctx_.theater;
  if (!AzovHex(to)) {
    AddNote(notes, rules::kB6_4, [&]() -> std::string {
      return "a group with river flotillas may not enter the all-sea hex " + t.HexName(to) +
             " outside the Sea of Azov";
    });
    return rules::kB6_4;
  }
  AddNote(notes, rules::k41E5, [&]() -> std::string {
    return "river flotillas may enter any all-sea hex of the Sea of Azov";
  });
  return {};
}

}  // namespace opsim::ops
