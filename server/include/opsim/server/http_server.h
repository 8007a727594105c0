// The HTTP layer of `opsim serve` (docs/api.md): Boost.Beast over TCP. It reads requests with
// explicit limits, hands /api/ requests to an Api (api.h), streams a game's changes as
// Server-Sent Events, and serves the browser client's static files. It decides nothing about a
// game.
//
// It promises:
// - a request line and headers over 16 KiB, or a body over the Api's max_body, are refused
//   (431, 413) before the body is read or handed on; a client over its rate gets 429; a
//   request that is not HTTP gets 400; a client that sends nothing for the idle timeout is
//   disconnected (a slow client cannot hold a connection forever);
// - static files are served only from inside the web folder: no "..", no links followed out
//   of it, only regular files;
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

#include "opsim/core/error.h"
#include "opsim/server/api.h"

namespace opsim::server {

struct ServerOptions {
  std::string bind = "127.0.0.1";
  std::uint16_t port = 8080;  // 0: any free port (Listen answers which)
  std::string web_dir;        // the browser client's files; empty: none served
  int threads = 0;            // 0: twice the cores, at least 4
  std::size_t max_body = 4 * 1024 * 1024;
  double rate = 100;   // requests per second per client (address and token); 0: no limit
  double burst = 200;  // requests a client may make at once before the rate applies
  std::chrono::seconds idle_timeout{30};
  std::size_t max_connections = 1024;  // more are accepted and closed at once
  bool handle_signals = false;         // SIGTERM and SIGINT call Stop()
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

  struct Impl;  // opaque: the connections in http_server.cpp reach it

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace opsim::server
