// opsim::Dice: the only source of randomness in rules code.
//
// A seeded SplitMix64 generator with unbiased rolls (rejection sampling). Unlike the
// <random> distributions, whose output is implementation-defined, a given seed yields the same
// rolls on every machine, compiler and standard library. Its whole state is one 64-bit word, so
// a game can log and restore it. Not thread-safe; give each thread its own Dice.
#pragma once

#include <cstdint>

namespace opsim {

class Dice {
 public:
  explicit Dice(std::uint64_t seed) : state_(seed) {}

  // A uniformly distributed integer in [1, sides]; sides must be at least 1.
  int Roll(int sides);
  // The next raw 64-bit output.
  std::uint64_t Next();

  std::uint64_t state() const { return state_; }

 private:
  std::uint64_t state_;
};

}  // namespace opsim
