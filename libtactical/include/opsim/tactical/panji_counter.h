// PanjiCounter: one Panji counter, its facing and its Covered hexsides (G9.1, G9.11, G9.3).
//
// Each Panji counter creates one to six Covered hexsides, shown the way an HD counter shows HD
// hexsides (G9.3): the counter's top faces one hexside and its pattern spreads from there. Which
// pattern a counter bears is printed on it and is not in the text; opsim reads it from the ID
// letter, A = one Covered hexside up to F = six, spreading clockwise first (so C covers its top
// hexside and the one either side, as Panji C of the G9.3 illustration does). A hidden counter
// is recorded as "Panji A: 37EE7-EE8": ID letter, then the hexside its top faces, setup hex
// first (G9.11). Covered hexsides can later be cleared (G9.7). Value type; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "opsim/core/error.h"
#include "opsim/tactical/geometry.h"

namespace opsim::tactical {

class PanjiCounter {
 public:
  // id: 'A'..'F'; top: the hexside the counter's top faces.
  static std::optional<PanjiCounter> Make(char id, Dir top, bool hidden);
  // How many Covered hexsides counter `id` has printed on it (A = 1 ... F = 6).
  static int PrintedCovered(char id);

  char id() const { return id_; }
  Dir top() const { return top_; }
  bool hidden() const { return hidden_; }

  bool Covers(Dir d) const { return (covered_ >> static_cast<int>(d)) & 1U; }
  int covered_count() const;
  // Turns one Covered hexside into a non-Covered one (G9.71-.74); false if it was not Covered.
  bool Uncover(Dir d);

 private:
  PanjiCounter(char id, Dir top, bool hidden, std::uint8_t covered)
      : id_(id), top_(top), hidden_(hidden), covered_(covered) {}
  char id_;
  Dir top_;
  bool hidden_;
  std::uint8_t covered_;  // bit per Dir
};

// A HIP record, "Panji A: 37EE7-EE8" (G9.11). `facing` inherits `hex`'s board prefix when it
// is written without one (EE8 -> 37EE8).
struct HipRecord {
  char id = 'A';
  std::string hex;
  std::string facing;
};
Result<HipRecord> ParseHipRecord(std::string_view text);

}  // namespace opsim::tactical
