// The changes other servers commit to a shared PostgreSQL store, heard on this server's own Asio
// loop (docs/deploy.md): one connection LISTENs (db::PgListener); its socket waits in a
// posix::stream_descriptor, and each game it hears of is handed to `heard`.
//
// It promises: every change committed while the connection is up is heard, in commit order,
// once; a lost connection is opened again (after 1 s, then every 5 s) and then `heard` is called
// with no game, since what was committed meanwhile is unknown: the caller looks at every game it
// cares about. Destruction stops the loop and waits for a call in progress.
// Threading: `heard` runs on the listener's one thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace opsim::server {

class StoreListener {
 public:
  // `game`: the game that changed; nullopt: any may have (the connection was lost).
  using Heard = std::function<void(const std::optional<std::string>& game)>;
  StoreListener(std::string uri, Heard heard);
  ~StoreListener();
  StoreListener(const StoreListener&) = delete;
  StoreListener& operator=(const StoreListener&) = delete;

 private:
  struct Loop;
  std::unique_ptr<Loop> loop_;
};

}  // namespace opsim::server
