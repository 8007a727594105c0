// The warm cache of the games a server hosts: each game's latest position, loaded once, and the
// answers made from it (its status, its position with the overlays asked for, its log), each
// made once and shared until the game's log changes; the theaters' JSON (both forms), made once
// a scenario; and the games list's summaries.
//
// It promises:
// - An answer is never older than the log's last change seen by its request, but for a reader
//   who asks while another thread loads the log's new state: he gets the last answer rather than
//   wait (a write asks with `fresh`, and always gets the log as it is).
// - One load at a time per game (a position's answer may ask for the game's latest state inside
//   its own load: the lock is recursive).
// - What it holds stays within about `cache_bytes` (0: no bound): the least recently used game's
//   answers, or theater, go first, never the one just made; what a request holds stays alive
//   until it is answered.
// - A log's change is seen by its stamp (db::LogStamp: a file's and its WAL's times and size; a
//   PostgreSQL game's metadata digest), so a write by another server is seen too.
// Threading: thread-safe; a load runs outside the cache's lock.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "opsim/core/error.h"
#include "opsim/map/theater.h"
#include "opsim/query/source.h"

namespace opsim::server {

// What tells whether a log changed since something was loaded from it (db::LogStamp). A log
// whose stamp cannot be read gets one that matches nothing, so that it is loaded again (and
// the load says what is wrong).
using LogStamp = std::string;
LogStamp StampOf(const std::string& address);

// About how many bytes a loaded game holds: its theater and state.
std::size_t LoadedBytes(const query::LoadedGame& g);

class GameCache {
 public:
  explicit GameCache(std::size_t cache_bytes) : cache_bytes_(cache_bytes) {}

  // The game's latest position, from the cache unless its log changed. `fresh`: the log as it
  // is now, never the state before a change being loaded (a write is judged on what it extends).
  Result<std::shared_ptr<const query::LoadedGame>> Latest(const std::string& id,
                                                          const std::string& path,
                                                          bool fresh = false);
  // The game's latest `opsim status --json`, without "db" (the server's path).
  Result<std::shared_ptr<const nlohmann::json>> Status(const std::string& id,
                                                       const std::string& path);
  // An answer about the game's latest state: of its position (`key`: the overlays asked for) or
  // of its log (`key`: the turns and detail asked for), made by `make` once a state of the log.
  enum class Of { kPosition, kLog };
  using Make = std::function<Result<std::string>()>;
  Result<std::shared_ptr<const std::string>> Answer(const std::string& id, const std::string& path,
                                                    Of of, const std::string& key,
                                                    const Make& make);

  // A scenario's theater (by its SHA-256) in either form (query::TheaterJson, or
  // TheaterCompactJson's columns) if it is kept; and made from `t` once, both forms together.
  enum class TheaterForm { kJson, kCompact };
  std::shared_ptr<const std::string> KeptTheater(const std::string& sha,
                                                 TheaterForm form = TheaterForm::kJson);
  std::shared_ptr<const std::string> Theater(const std::string& sha, const map::Theater& t,
                                             TheaterForm form = TheaterForm::kJson);

  // What the games list shows of a game (store.h ReadSummary), read once a state of its log:
  // never by loading it.
  Result<std::shared_ptr<const nlohmann::json>> Summary(const std::string& id,
                                                        const std::string& path);

 private:
  // A game's latest position and answers about it, and when it was last asked for.
  struct Warm {
    LogStamp stamp;
    std::shared_ptr<const query::LoadedGame> game;
    std::shared_ptr<const nlohmann::json> status;
    std::map<std::string, std::shared_ptr<const std::string>> positions;  // by ?supply&zoc
    std::map<std::string, std::shared_ptr<const std::string>> logs;       // by ?turn&phases
    std::size_t bytes = 0;   // what the above hold, about
    std::uint64_t used = 0;  // when last asked for, on the cache's clock
  };
  // A theater's JSON in both forms, made once per scenario, and when it was last asked for.
  struct WarmTheater {
    std::shared_ptr<const std::string> body;     // TheaterJson
    std::shared_ptr<const std::string> compact;  // TheaterCompactJson
    std::uint64_t used = 0;
  };

  // What `load` makes of a game's log, kept in the slot `slot(entry)` of its entry until the log
  // changes.
  template <class T, class Slot, class Load>
  Result<std::shared_ptr<const T>> Cached(const std::string& id, const std::string& path, Slot slot,
                                          Load load, bool fresh = false);
  // Drops the least recently used games' answers and theaters until what the cache holds is
  // within cache_bytes_, never the game `keep_game` or the theater `keep_theater` just made.
  // Under mu_.
  void Trim(const std::string& keep_game, const std::string& keep_theater);
  std::shared_ptr<std::recursive_mutex> LoadLock(const std::string& id);

  const std::size_t cache_bytes_;
  std::mutex mu_;  // all below
  std::map<std::string, Warm> warm_;
  std::map<std::string, WarmTheater> theaters_;  // by scenario SHA-256
  std::size_t bytes_ = 0;                        // what warm_ and theaters_ hold, about
  std::uint64_t clock_ = 0;                      // ticks at each use of a warm answer
  std::map<std::string, std::pair<LogStamp, std::shared_ptr<const nlohmann::json>>>
      summaries_;  // by game
  // Loaders, by game; recursive, since a position's loader asks for the game's latest state.
  std::map<std::string, std::shared_ptr<std::recursive_mutex>> load_locks_;
};

}  // namespace opsim::server
