#include "opsim/core/dice.h"

#include <limits>

namespace opsim {

std::uint64_t Dice::Next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

int DiceSource::Roll(int sides) {
  if (sides <= 1) return 1;
  const auto n = static_cast<std::uint64_t>(sides);
  // Reject the top partial block so every face is equally likely.
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
  std::uint64_t x;
  do {
    x = Next();
  } while (x >= limit);
  return static_cast<int>(x % n) + 1;
}

}  // namespace opsim
