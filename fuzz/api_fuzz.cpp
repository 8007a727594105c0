// The game API as `opsim serve` hands it requests: server::Api::Handle (server/include/opsim/
// server/api.h) on a games folder made once per process, holding one hosted game created
// through the API and one CLI-made log (a fixture), so that orders, replies and creates write.
//
// An input is text, so that seeds can be written by hand (fuzz/seeds/api/):
//   line 1  METHOD TARGET        TARGET is a path with an optional ?k=v&k=v query; "{game}"
//                                stands for the hosted game's id, "{log}" for the CLI-made one's
//   line 2  the token            axis, allied, spectator (the hosted game's), wrong, none (or
//                                empty), else the line itself
//   rest    the body
// Any 4xx is a fine answer. A crash, a sanitizer report, a hang or a 5xx (an exception escaping
// the API, or an I/O error on a folder that works) is a defect: the harness aborts on 5xx.
// The folder stays small: after a few created games or played player-turns it is made anew.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "opsim/server/api.h"

namespace {

namespace fs = std::filesystem;
using opsim::server::Api;
using opsim::server::Request;
using opsim::server::Response;

// Made anew after this many games created or player-turns played by the inputs.
constexpr int kMaxWrites = 4;

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "api_fuzz: %s\n", what.c_str());
  std::abort();
}

// Every occurrence of `from` in `s` replaced by `to`.
std::string Replace(std::string s, std::string_view from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

// The games folder on tmpfs (/dev/shm, else $TMPDIR), owned by this process, and the API over it.
class Table {
 public:
  Table() {
    const char* tmp = std::getenv("TMPDIR");
    const fs::path base =
        fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::path(tmp ? tmp : "/tmp");
    dir_ = (base / ("opsim-fuzz-api-" + std::to_string(getpid()))).string();
    Reset();
  }
  ~Table() {
    api_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  Response Handle(Request r) {
    r.path = Replace(Replace(r.path, "{game}", game_), "{log}", "cli-log");
    if (r.token == "axis" || r.token == "allied" || r.token == "spectator") {
      r.token = tokens_[r.token];
    } else if (r.token == "wrong") {
      r.token = std::string(64, '0');
    } else if (r.token == "none") {
      r.token.clear();
    }
    Response answer;
    if (r.path.ends_with("/events")) {  // what the HTTP layer hands Subscribe instead
      auto sub =
          api_->Subscribe(r, [](const std::string&, const std::string&, const std::string&) {});
      if (!sub) answer = sub.error();
    } else {
      answer = api_->Handle(r);
    }
    if (answer.status >= 500) Die(r.method + " " + r.path + " answered " + answer.body);
    const bool wrote = (answer.status == 201 && r.method == "POST") ||
                       (answer.status == 200 && r.path.ends_with("/reply"));
    if (wrote && ++writes_ >= kMaxWrites) Reset();
    return answer;
  }

 private:
  void Reset() {
    api_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
    fs::create_directories(dir_, ec);
    if (ec) Die("cannot make " + dir_ + ": " + ec.message());
    fs::copy_file(std::string(OPSIM_SOURCE_DIR) + "/tests/db/fixtures/log-schema2.sqlite",
                  dir_ + "/cli-log.sqlite", ec);
    if (ec) Die("cannot copy the fixture log: " + ec.message());
    opsim::server::ApiOptions options;
    options.games_dir = dir_;
    auto api = Api::Open(options);
    if (!api) Die(api.error().to_string());
    api_ = std::move(*api);
    Request create;
    create.method = "POST";
    create.path = "/api/games";
    create.body = R"({"scenario": "special-terrain"})";
    const Response made = api_->Handle(create);
    if (made.status != 201) Die("cannot create the hosted game: " + made.body);
    const auto doc = nlohmann::json::parse(made.body);
    game_ = doc["game"];
    for (const char* role : {"axis", "allied", "spectator"}) tokens_[role] = doc["tokens"][role];
    writes_ = 0;
  }

  std::string dir_;
  std::unique_ptr<Api> api_;
  std::string game_;
  std::map<std::string, std::string> tokens_;
  int writes_ = 0;
};

// The next line of `text` from `at` (without its '\n'), moving `at` past it.
std::string_view Line(std::string_view text, std::size_t& at) {
  const std::size_t end = std::min(text.find('\n', at), text.size());
  const std::string_view line = text.substr(at, end - at);
  at = std::min(end + 1, text.size());
  return line;
}

Request Parse(std::string_view text) {
  Request r;
  std::size_t at = 0;
  const std::string_view first = Line(text, at);
  const std::size_t space = std::min(first.find(' '), first.size());
  r.method = first.substr(0, space);
  std::string_view target = first.substr(std::min(space + 1, first.size()));
  const std::size_t question = std::min(target.find('?'), target.size());
  r.path = target.substr(0, question);
  std::string_view query = target.substr(std::min(question + 1, target.size()));
  while (!query.empty()) {
    const std::size_t amp = std::min(query.find('&'), query.size());
    const std::string_view pair = query.substr(0, amp);
    const std::size_t eq = std::min(pair.find('='), pair.size());
    r.query.emplace_back(pair.substr(0, eq), pair.substr(std::min(eq + 1, pair.size())));
    query = query.substr(std::min(amp + 1, query.size()));
  }
  r.token = Line(text, at);
  r.body = text.substr(at);
  r.peer = "fuzz";
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Table table;
  (void)table.Handle(Parse(opsim::fuzz::AsText(data, size)));
  return 0;
}
