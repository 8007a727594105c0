// The HTTP layer of `opsim serve` as a connection's bytes reach it: server::HttpServer::
// AnswerBytes (server/include/opsim/server/http_server.h) reads requests from raw bytes with the
// limits and the parser a socket's Session uses, and answers them by the same code: the target's
// escapes and query, the token, Accept-Encoding and If-None-Match, chunked and sized bodies,
// keep-alive and pipelined requests, event streams, and the web folder's files. No socket is
// read or written: the server listens once on a free port of 127.0.0.1 and never runs.
//
// The API behind it is a double that echoes what it was handed (the real API has api_fuzz), and
// its answers take every shape the layer treats apart: large (gzipped), with an ETag
// (revalidated), with Retry-After, refused. The web folder holds files, a folder, a FIFO, links
// inside and out of it, and a link to the games folder; the games folder holds a log and its
// secrets, which no answer may carry.
//
// A crash, a sanitizer report, a hang, a 5xx, or an answer that carries the games folder's
// secret (that the request did not) is a defect: the harness aborts.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "opsim/server/api.h"
#include "opsim/server/http_server.h"

namespace {

namespace fs = std::filesystem;
using opsim::server::Api;
using opsim::server::Request;
using opsim::server::Response;
using opsim::server::Subscription;

constexpr std::string_view kSecret = "games-folder-secret-7f3a";

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "http_fuzz: %s\n", what.c_str());
  std::abort();
}

class EchoApi final : public Api {
 public:
  Response Handle(const Request& r) override {
    Response res;
    if (r.path.starts_with("/api/big")) {
      res.body = nlohmann::json(std::vector<std::string>(200, r.path))
                     .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      if (r.path == "/api/big/cached") res.etag = "\"big-1\"";
      return res;
    }
    if (r.path == "/api/quota") {
      res.status = 429;
      res.retry_after = 60;
      res.body = R"({"error": {"code": "rate-limited"}})";
      return res;
    }
    if (r.path == "/api/refused") {
      res.status = 404;
      res.body = R"({"error": {"code": "not-found"}})";
      return res;
    }
    nlohmann::json q = nlohmann::json::array();
    for (const auto& [k, v] : r.query) q.push_back({k, v});
    res.body = nlohmann::json{{"method", r.method},
                              {"path", r.path},
                              {"query", q},
                              {"token", r.token},
                              {"body", r.body.size()}}
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return res;
  }

  std::expected<std::unique_ptr<Subscription>, Response> Subscribe(const Request& r,
                                                                   Listener) override {
    if (r.token != "good") {
      Response refused;
      refused.status = 401;
      refused.body = R"({"error": {"code": "unauthorized"}})";
      return std::unexpected(refused);
    }
    return std::make_unique<Subscription>();
  }
};

// The folders on tmpfs (/dev/shm, else $TMPDIR), owned by this process, and the server over them.
class Table {
 public:
  Table() {
    const char* tmp = std::getenv("TMPDIR");
    const fs::path base =
        fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::path(tmp ? tmp : "/tmp");
    root_ = base / ("opsim-fuzz-http-" + std::to_string(getpid()));
    std::error_code ec;
    fs::remove_all(root_, ec);
    const fs::path web = root_ / "web", games = root_ / "games";
    fs::create_directories(web / "js", ec);
    fs::create_directories(web / "dir", ec);
    fs::create_directories(games, ec);
    if (ec) Die("cannot make " + root_.string() + ": " + ec.message());
    std::ofstream(web / "index.html") << "<!doctype html><title>opsim</title>";
    std::ofstream(web / "js" / "app.js") << std::string(4000, 'x');
    std::ofstream(web / "style.css") << "body {}";
    std::ofstream(root_ / "outside.txt") << "not for clients";
    std::ofstream(games / "g1.sqlite") << kSecret;
    std::ofstream(games / "g1.secrets") << kSecret;
    if (mkfifo((web / "pipe").c_str(), 0600) != 0) Die("cannot make the FIFO");
    fs::create_symlink("js/app.js", web / "app-link.js", ec);
    fs::create_symlink(root_ / "outside.txt", web / "out.txt", ec);
    fs::create_symlink(games, web / "games", ec);
    if (ec) Die("cannot make the links: " + ec.message());

    opsim::server::ServerOptions options;
    options.port = 0;
    options.threads = 1;
    options.web_dir = web.string();
    options.games_dir = games.string();
    options.rate = 0;  // every request answered, not 429 after the first burst
    options.max_body = 64 * 1024;
    server_ = std::make_unique<opsim::server::HttpServer>(api_, options);
    if (auto port = server_->Listen(); !port) Die(port.error().to_string());
  }
  ~Table() {
    server_.reset();
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  void Answer(std::string_view bytes) {
    const std::string out = server_->AnswerBytes(bytes, "fuzz");
    if (out.empty()) return;
    if (!out.starts_with("HTTP/1.")) Die("an answer that is not HTTP: " + out.substr(0, 80));
    if (out.size() > 9 && out[9] == '5') Die("a 5xx: " + out.substr(0, 200));
    // Served is an answer that carries the secret when the request did not: answers echo what
    // they were asked (a 404's path, the API double's method), and the fuzzer learns to write
    // the secret into the request.
    if (out.find(kSecret) != std::string::npos && bytes.find(kSecret) == std::string_view::npos) {
      Die("the games folder served: " + out);
    }
  }

 private:
  fs::path root_;
  EchoApi api_;
  std::unique_ptr<opsim::server::HttpServer> server_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Table table;
  table.Answer(opsim::fuzz::AsText(data, size));
  return 0;
}
