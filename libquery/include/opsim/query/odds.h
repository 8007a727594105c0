// `opsim odds`: a Monte Carlo run of an orders file. The whole player-turn is played `runs`
// times, each on a fresh copy of the game with dice of its own, and what came of it is counted:
// each attack's combat results and flooding attempts, the units eliminated, the hexes gained and
// the SRPs spent.
//
// Run i's dice depend only on the seed and i (RunDice), never on the threads or the shard that
// play it, and the counts are sums, so any number of threads, and any sharding merged back,
// give the same answer. The orders' scripted dice are ignored. A run the rules refuse refuses
// the whole request with that run's error (the lowest such run, whatever the threads).
//
// RunOdds reads the LoadedGame only; each of its threads plays on a Game of its own (a Game's
// router cache may not be shared between threads). The answers are plain values.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "opsim/core/json_source.h"
#include "opsim/query/source.h"

namespace opsim::query {

inline constexpr std::uint64_t kMaxOddsRuns = 100'000'000;
inline constexpr unsigned kMaxOddsThreads = 256;

struct OddsRequest {
  std::uint64_t seed = 1;
  std::uint64_t runs = 0;  // of the whole run, over every shard: 1 to kMaxOddsRuns
  unsigned threads = 1;    // 1 to kMaxOddsThreads
  // This shard plays the runs i with i % shards == shard - 1.
  std::uint32_t shard = 1, shards = 1;
  // Called now and then from the worker threads (one at a time) with the runs played so far.
  std::function<void(std::uint64_t played, std::uint64_t of)> progress;
};

// The opsim::Dice state run i starts from: the (i+1)th output of SplitMix64 seeded with `seed`.
std::uint64_t RunDice(std::uint64_t seed, std::uint64_t run);

// One attack's counts, over the runs.
struct AttackOdds {
  std::string hex;
  std::vector<std::uint64_t> results;     // by result code, as OddsAnswer::codes
  std::uint64_t called_off = 0;           // called off or cancelled after a flood (41.A.4)
  std::array<std::uint64_t, 4> floods{};  // by ops::FloodResult: F*, F, S, S*
};

struct UnitLosses {
  std::string id, name, side;
  std::uint64_t runs = 0;  // the runs in which it was eliminated
};

struct OddsAnswer {
  // What was played: merging refuses shards that differ in any of these.
  std::string orders_sha256;  // of the orders file's text
  std::string scenario;       // the game's scenario name
  std::string game_hash;      // the state hash the runs start from
  std::string side, turn;     // the player-turn played
  std::uint64_t seed = 0;
  std::uint64_t runs = 0;                // of the whole run
  std::uint32_t shards = 1;              // the whole run's number of shards
  std::vector<std::uint32_t> shards_in;  // the shards counted here, ascending (1-based)
  std::uint64_t played = 0;              // runs counted here
  std::uint64_t scripted_dice_ignored = 0;

  std::vector<std::string> codes;                   // the CRT's result codes, in its order
  std::vector<AttackOdds> attacks;                  // in the orders' order
  std::vector<UnitLosses> eliminated;               // units eliminated in any run, by id
  std::map<std::int64_t, std::uint64_t> losses;     // units eliminated in a run -> runs
  std::map<std::string, std::uint64_t> gained;      // hex gained by the phasing side -> runs
  std::map<std::int64_t, std::uint64_t> srp_spent;  // the SRP pools' fall in a run -> runs

  // The shards of `shards` not counted here.
  std::vector<std::uint32_t> MissingShards() const;
};

// Plays the orders (`orders`'s text is hashed) `request.runs` times, or this shard's part.
// kInvalidInput for a bad request or orders; a refused run's kRuleViolation.
Result<OddsAnswer> RunOdds(const LoadedGame& g, const JsonSource& orders,
                           const OddsRequest& request);

// Adds shard answers: refused (kInvalidInput, naming the file) when they are of other orders,
// game, seed, runs or sharding, or count a shard twice. Missing shards are not an error; the
// answer's MissingShards() names them.
Result<OddsAnswer> MergeOdds(const std::vector<OddsAnswer>& shards,
                             const std::vector<std::string>& names);

// A shard result as --json prints it, and back (file:line and JSON path on a bad one).
nlohmann::json ToJson(const OddsAnswer& a);
Result<OddsAnswer> OddsFromJson(const JsonSource& src);

// Mean and quantiles of a histogram (value -> runs), for the text and the JSON.
struct Summary {
  double mean = 0;
  std::int64_t p10 = 0, p50 = 0, p90 = 0;
};
Summary Summarize(const std::map<std::int64_t, std::uint64_t>& histogram);

}  // namespace opsim::query
