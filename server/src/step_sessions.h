// The player-turns in play step by step that a server keeps between requests (docs/api.md,
// "Steps"): each game's step session (query::OpenSteps) with its theater, state and open log,
// so that a step costs the step, not a load.
//
// It promises: a session is handed out only while its log is as it left it (the log's stamp,
// game_cache.h): a write by anyone else (another server, `opsim`) drops it and the next request
// opens the game again. At most kMax sessions are kept, the least recently used dropped first.
// A hosted game's session is opened with both dice secrets and written through; a game without
// tokens (seeded, made by `opsim new`) is only looked at.
// Threading: the map is guarded; a session itself is not thread-safe, so its caller holds the
// game's writer lock from Of() to its last use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "game_cache.h"
#include "opsim/query/play.h"
#include "store.h"

namespace opsim::server {

class StepSessions {
 public:
  static constexpr std::size_t kMax = 16;  // each holds its game's theater, state and log

  // The game's session, kept or opened at the log's head.
  Result<std::shared_ptr<query::StepSession>> Of(const std::string& id, const std::string& address,
                                                 const std::optional<Secrets>& secrets);
  // After this server's own write through the session: `stamp`, the log as the session left it.
  void Wrote(const std::string& id, const LogStamp& stamp);
  // The session is dropped (its step was refused, or its player-turn is logged).
  void Forget(const std::string& id);

 private:
  struct InPlay {
    std::shared_ptr<query::StepSession> session;
    LogStamp stamp;
    std::uint64_t used = 0;
  };
  std::mutex mu_;                       // play_, clock_
  std::map<std::string, InPlay> play_;  // by game
  std::uint64_t clock_ = 0;
};

}  // namespace opsim::server
