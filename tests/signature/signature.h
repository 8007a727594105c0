// The behaviour signature: the final state hashes of the games opsim must always play alike.
//
// Like a chess engine's bench node count, one line sums up how the rules behave: every bundled
// orders file played into a turn log, every fixture log replayed (and verified), and a synthetic
// campaign on a generated theater. A change that alters any of these hashes changed behaviour;
// it must say so in its commit message and in docs/rules.md, and update the pins in
// tests/signature/signature_test.cpp in the same commit.
#pragma once

#include <string>
#include <vector>

#include "opsim/core/error.h"

namespace opsim::signature {

// One game of the signature: its player-turns' final state hashes, in order.
struct Game {
  std::string name;
  std::vector<std::string> turn_hashes;  // after each player-turn played or replayed
  std::string final_hash;                // the state the game ends in
};

struct Signature {
  std::vector<Game> games;
  // SHA-256 over every game's name and hashes, in order: the one line to compare.
  std::string digest;
  std::string Line() const;  // "signature <digest> (N games, M player-turns)"
};

struct Sources {
  std::string scenario_dir;  // scenarios/: the bundled scenarios and their orders
  std::string fixture_dir;   // tests/db/fixtures: the logs written by earlier builds
  std::string scratch_dir;   // an empty folder the logs are written in
};

// Plays and replays every game of the signature. Fails on the first game that does not play,
// replay or verify.
Result<Signature> Compute(const Sources& sources);

}  // namespace opsim::signature
