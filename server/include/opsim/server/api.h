// The game server's API (docs/api.md) apart from its transport: the HTTP layer
// (http_server.h) parses a request, hands it here, and writes back the Response; it never
// decides anything about a game. Every question a game answers comes from libquery, the same
// answers the CLI's --json prints, and every write (new games, orders, replies, steps) goes
// through libquery's one door (opsim/query/play.h), as the CLI's do. Its games are in a folder
// or in a PostgreSQL store that several servers share (docs/deploy.md): the store
// (server/src/store.h) is the one part that asks db/ where games are (db/hosting.h).
//
// It promises: Handle never throws and never crashes on any input (a bad request is a 4xx
// Response with the CLI's "where: message [rule]" text); a request refused for access
// (401/403) or input (4xx) writes nothing; each game has one writer at a time (its turn log's
// transaction), and reads never wait for a write (the logs are WAL).
// Threading: Handle and Subscribe may be called from many threads at once.
#pragma once

#include <cstddef>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "opsim/core/error.h"

namespace opsim::server {

struct Request {
  std::string method;  // "GET", "POST", ...
  std::string path;    // percent-decoded, without the query: "/api/games/g1/state"
  std::vector<std::pair<std::string, std::string>> query;  // decoded ?k=v pairs, in order
  std::string token;  // "Authorization: Bearer T", else the query's token=T; may be empty
  std::string body;   // at most ApiOptions::max_body bytes: the transport refuses more (413)
  std::string peer;   // the client's address, for logs
  // An event stream's Last-Event-ID: the last event's id its client heard, sent again on
  // reconnecting.
  std::string last_event_id;
};

struct Response {
  int status = 200;
  std::string body;  // JSON text, unless content_type says otherwise
  std::string content_type = "application/json";
  std::string etag;           // non-empty: the answer never changes for this ETag (the theater)
  std::string cache_control;  // empty: "no-store"
  int retry_after = 0;        // > 0: a refusal's Retry-After, in seconds
};

struct ApiOptions {
  // Where the games are kept, one of: a folder, one turn log per game (and its server-side
  // secrets); or a PostgreSQL store's URI, which several servers may share (docs/deploy.md).
  std::string games_dir;
  std::string store;
  std::size_t max_body = 4 * 1024 * 1024;  // the transport's request body limit
  // The games the folder may hold: past it a create is 503. 0: no limit.
  std::size_t max_games = 1000;
  // The games one client (address) may create in an hour: past it a create is 429 with
  // Retry-After. 0: no limit.
  int create_quota = 20;
  // About how many bytes the games kept loaded (positions, answers) and the theaters may hold:
  // past it the least recently used are dropped, to be loaded again when next asked for.
  // 0: no limit.
  std::size_t cache_bytes = std::size_t{512} << 20;
  // The positions of the games' logged past (`?at=N`, with `phase` or `step`) kept loaded with
  // their answers, at most; they hold about a quarter of cache_bytes besides it.
  std::size_t positions = 16;
};

// A live subscription to one game's changes; they stop when it is destroyed.
class Subscription {
 public:
  virtual ~Subscription() = default;
};

class Api {
 public:
  // `event` is the SSE event name ("pending", "turn"), `data` one line of JSON, `id` the event's
  // id (the game's log as the change left it; none: no id).
  using Listener =
      std::function<void(const std::string& event, const std::string& data, const std::string& id)>;

  virtual ~Api() = default;
  // Opens (or creates) the games folder and lists the logs in it.
  static Result<std::unique_ptr<Api>> Open(const ApiOptions& options);

  // Every /api/... request but the event stream.
  virtual Response Handle(const Request& request) = 0;
  // GET /api/games/{id}/events: on success, `listener` is called with each change of the game
  // (from the thread that made it) until the Subscription is destroyed; else the Response to
  // send (401, 403, 404), as Handle would answer. A request whose last_event_id is not the game
  // as it is now hears at once a `step` event: what it missed is to be read again.
  virtual std::expected<std::unique_ptr<Subscription>, Response> Subscribe(const Request& request,
                                                                           Listener listener) = 0;
};

}  // namespace opsim::server
