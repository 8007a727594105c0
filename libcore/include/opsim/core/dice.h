// opsim::Dice: the only source of randomness in rules code.
//
// DiceSource is what rules code rolls: unbiased rolls (rejection sampling) over a stream of
// 64-bit words. Two streams stand behind it: Dice, a seeded SplitMix64 (solo play, tests,
// benchmarks; anyone who knows the seed foresees every roll), and KeyedDice (fair_dice.h), an
// HMAC-SHA-256 stream keyed by both players' secrets (fair play by mail, docs/dice.md). Unlike
// the <random> distributions, whose output is implementation-defined, a given stream yields the
// same rolls on every machine, compiler and standard library. Dice's whole state is one 64-bit
// word, so a game can log and restore it. Not thread-safe; give each thread its own dice.
#pragma once

#include <cstdint>

namespace opsim {

class DiceSource {
 public:
  virtual ~DiceSource() = default;
  // A uniformly distributed integer in [1, sides]; sides must be at least 1.
  int Roll(int sides);
  // The next raw 64-bit output.
  virtual std::uint64_t Next() = 0;
};

class Dice final : public DiceSource {
 public:
  explicit Dice(std::uint64_t seed) : state_(seed) {}

  std::uint64_t Next() override;

  std::uint64_t state() const { return state_; }

 private:
  std::uint64_t state_;
};

}  // namespace opsim
