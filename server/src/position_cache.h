// PositionCache: positions of games' logged past, each loaded once and kept with the answers
// made from it, so that a cheap read (`?at=N`, `?at=N&phase=P`, `?at=N&step=K`) cannot make the
// server load a snapshot and replay a player-turn each time (docs/api.md, "Reads").
//
// What it keeps: by game id, the log's identity (LogIdentity), the logged player-turn, the phase
// and the step, the LoadedGame the read loads, and beside it each answer made from it once
// (the position's JSON, by the options asked). The HTTP layer keeps each answer's gzip by the
// ETag the API gives it (PositionEtag), so it is compressed once too.
//
// What makes an entry stale: nothing that can happen to a log while it holds the same game. A
// logged player-turn never changes (the hash chain): later ones are only appended after it. A
// game replaced under the same id (its log deleted and another put in its place) is another
// log: the key holds the log's identity, read from the file at each request, so an entry of
// the old log is never served for the new one; it ages out.
//
// Its bound: at most `max_entries` positions and about `max_bytes` (a LoadedGame counted by the
// `size_of` it is given, each answer by its length); past either the least recently used go
// first. The entry just asked for is kept even alone over the bound (its answer is sent).
//
// Thread-safe. Two requests for one position at once load it once: the second waits for the
// first's load. A load that fails is not kept (the next request tries again).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "opsim/core/error.h"
#include "opsim/ops/calendar.h"
#include "opsim/query/source.h"

namespace opsim::server {

// Which logged position: after `at` player-turns, or after `phase` or `step` of player-turn
// `at`, of the log `log` (LogIdentity) of game `game`.
struct PositionKey {
  std::string game;
  std::string log;
  std::int32_t at = 0;
  std::optional<ops::Phase> phase;
  std::optional<std::size_t> step;
  friend auto operator<=>(const PositionKey&, const PositionKey&) = default;
};

// What tells a log from any other put at its path: its game record (the start's state hash,
// the scenario's digest, the seed, a fair game's id and commitments) and when it was created
// (its meta `created_at`), as one string. Reads the log's header rows.
Result<std::string> LogIdentity(const std::string& path);

// The ETag of answer `what` (the position options) of the position `key`: it never changes.
std::string PositionEtag(const PositionKey& key, const std::string& what);

class PositionCache {
 public:
  using Load = std::function<Result<query::LoadedGame>()>;
  using Make = std::function<Result<std::string>(const query::LoadedGame&)>;
  using SizeOf = std::function<std::size_t(const query::LoadedGame&)>;

  PositionCache(std::size_t max_entries, std::size_t max_bytes, SizeOf size_of);

  // The position `key`, loaded by `load` unless kept.
  Result<std::shared_ptr<const query::LoadedGame>> Game(const PositionKey& key, const Load& load);
  // Answer `what` of the position `key`, made by `make` from it unless kept.
  Result<std::shared_ptr<const std::string>> Answer(const PositionKey& key, const std::string& what,
                                                    const Load& load, const Make& make);

  struct Counts {
    std::uint64_t loads = 0;  // positions loaded
    std::uint64_t hits = 0;   // positions found kept (Game and Answer)
    std::uint64_t made = 0;   // answers made
    std::size_t entries = 0;  // positions kept now
    std::size_t bytes = 0;    // what they hold, about
  };
  Counts counts() const;

 private:
  using Loaded = Result<std::shared_ptr<const query::LoadedGame>>;
  struct Entry {
    std::shared_future<Loaded> game;
    std::map<std::string, std::shared_ptr<const std::string>> answers;  // by `what`
    std::size_t bytes = 0;
    std::list<PositionKey>::iterator used;  // its place in used_
    std::uint64_t serial = 0;               // which load made it
  };
  // Drops the least recently used entries but `keep` while over a bound. Under mu_.
  void Trim(const PositionKey& keep);

  const std::size_t max_entries_, max_bytes_;
  const SizeOf size_of_;
  mutable std::mutex mu_;
  std::map<PositionKey, Entry> entries_;
  std::list<PositionKey> used_;  // most recently used first
  std::size_t bytes_ = 0;
  std::uint64_t serial_ = 0;
  Counts counts_;
};

}  // namespace opsim::server
