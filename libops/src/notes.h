// Notes on a step (route.h's Note) and the few words they share: the step judges (ground.cpp,
// naval.cpp and the Rule 41 clauses in rule41/) build a note's text only when someone asked
// for notes, since each costs a string. Private to libops.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "opsim/ops/route.h"

namespace opsim::ops {

template <class Text>
void AddNote(std::vector<Note>* notes, RuleId rule, Text text) {
  if (notes) notes->push_back(Note{rule, text()});
}

// A step `rule` forbids; `why` becomes its note.
template <class Text>
StepVerdict Blocked(RuleId rule, std::vector<Note>* notes, Text why) {
  StepVerdict v;
  v.cost = kUnreachable;
  v.blocked = rule;
  if (notes) {
    v.why = why();
    notes->push_back(Note{rule, v.why});
  }
  return v;
}

// Half-MP counts as people read them: "2", "2.5".
inline std::string Halves(std::int64_t halves) {
  return std::to_string(halves / 2) + (halves % 2 ? ".5" : "");
}
// A multiplier in quarters as people read it: "2", "0.5", "1.25".
inline std::string Quarters(int quarters) {
  static constexpr const char* kParts[] = {"", ".25", ".5", ".75"};
  return std::to_string(quarters / 4) + kParts[quarters % 4];
}
inline std::string Mp(std::uint32_t halves) {
  return Halves(halves) + " MP";
}

// "along 19A:3413/3414 (the Suez Canal)": a step along a waterway.
inline std::string Along(const map::Theater& t, map::HexsideRef side, const map::Waterway& way) {
  return "along " + t.HexsideName(side) + " (" + way.name + ")";
}

}  // namespace opsim::ops
