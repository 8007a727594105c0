// What each game's listeners on this server were told of its log, so that a change another
// server wrote to a shared store is told to them once, as the event it is (docs/api.md,
// "Events"; docs/deploy.md). Used only on a shared store (store_listener.h hears its changes).
//
// It promises:
// - this server's own write is recorded (Announced) under the game's writer lock, before its
//   commit's notification can be looked at (Tell takes the same lock): listeners told of a write
//   by the server that made it are never told of it again;
// - a change not yet told (Tell) is told once, as `turn` (a player-turn logged), `pending`
//   (orders now waiting for their reply) or `step` (anything else: a step, an undo), with the
//   number of the player-turn it concerns; a game told nothing yet is only recorded;
// - a log that cannot be read is forgotten, so that the next change is told afresh.
// Threading: the record has a mutex of its own; the game's writer lock is the caller's.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "event_hub.h"
#include "game_cache.h"

namespace opsim::server {

class ToldChanges {
 public:
  explicit ToldChanges(std::shared_ptr<EventHub> hub) : hub_(std::move(hub)) {}

  // After this server's write to game `id`, whose log is at `path` (under the game's writer
  // lock): records the log as its listeners are about to be told it. The log's stamp now: the
  // event's id.
  LogStamp Announced(const std::string& id, const std::string& path);
  // Under the game's writer lock: tells the game's listeners of a change of its log they were
  // not told, and records the log as they now know it.
  void Tell(const std::string& game, const std::string& path);
  // The games recorded: those a change heard for any game may concern.
  std::vector<std::string> Games() const;

 private:
  struct Told {
    LogStamp stamp;
    std::int64_t turns = 0;  // player-turns logged
    bool pending = false;    // orders waiting for their reply
  };
  static Result<Told> Now(const std::string& path);

  std::shared_ptr<EventHub> hub_;
  mutable std::mutex mu_;
  std::map<std::string, Told> told_;  // by game
};

}  // namespace opsim::server
