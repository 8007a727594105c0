// The HTTP layer of `opsim serve` (docs/api.md): Boost.Beast over TCP. It reads requests with
// explicit limits, hands /api/ requests to an Api (api.h), streams a game's changes as
// Server-Sent Events, and serves the browser client's static files. It decides nothing about a
// game.
//
// It promises:
// - a request line and headers over 16 KiB, or a body over the Api's max_body (over the
//   scenario size limit for the workshop's /api/scenario/ endpoints), are refused (431, 413)
//   before the body is read or handed on; a client over its rate gets 429; a
//   request that is not HTTP gets 400; a client that sends nothing for the idle timeout is
//   disconnected (a slow client cannot hold a connection forever);
// - static files are served only from inside the web folder and outside the games folder: no
//   "..", no links followed out of it, only regular files (nothing else is opened: a FIFO would
//   hold a thread in open());
// - a failed accept for want of descriptors is retried after a pause, not at once; connections
//   are capped below the descriptor limit; either is logged once, not per connection;
// - a 200 of text over 1 KiB goes gzipped to a client whose Accept-Encoding takes gzip, under
//   an ETag of its own (an ETag's gzip made once), never an event stream; If-None-Match on
//   the ETag of the form the client would get is answered 304;
// - Stop() (and SIGTERM/SIGINT when handle_signals is set) stops accepting, ends idle and
//   event-stream connections, lets every request already being handled finish and its answer
//   be written, then Run() returns: a player-turn in flight commits or rolls back, never half.
//
// Threading: Run() runs the handlers on `threads` threads; Stop() may be called from any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "opsim/core/error.h"
#include "opsim/server/api.h"

namespace opsim::server {

struct ServerOptions {
  std::string bind = "127.0.0.1";
  std::uint16_t port = 8080;  // 0: any free port (Listen answers which)
  std::string web_dir;        // the browser client's files; empty: none served
  std::string games_dir;      // the games folder (ApiOptions): never served; Listen refuses it
                              // inside web_dir
  int threads = 0;            // 0: twice the cores, at least 4
  std::size_t max_body = 4 * 1024 * 1024;
  double rate = 100;   // requests per second per client (address and token); 0: no limit
  double burst = 200;  // requests a client may make at once before the rate applies
  std::chrono::seconds idle_timeout{30};
  // More are accepted and closed at once; fewer if RLIMIT_NOFILE leaves room for fewer (the limit
  // less 32 and 8 a thread, for the files the requests open).
  std::size_t max_connections = 1024;
  bool handle_signals = false;  // SIGTERM and SIGINT call Stop()
};

class HttpServer {
 public:
  HttpServer(Api& api, ServerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and listens; answers the port (the one chosen when options.port is 0).
  Result<std::uint16_t> Listen();
  // Serves until Stop(), then returns once every request in flight is answered.
  void Run();
  // Thread-safe; idempotent.
  void Stop();

  // The bytes the server would write back for `bytes` read on one connection from `peer`:
  // request after request, read with the same limits and answered by the same code as on a
  // socket, until the bytes end or an answer closes the connection. An event stream is
  // subscribed to and left at once. For the fuzzer (fuzz/http_fuzz.cpp): no socket; call it
  // after Listen (which resolves the folders), without Run.
  std::string AnswerBytes(std::string_view bytes, const std::string& peer);

  struct Impl;  // opaque: the connections in http_server.cpp reach it

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace opsim::server
