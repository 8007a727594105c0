// `opsim serve` as players meet it: the real game API behind the real HTTP layer, over sockets
// on 127.0.0.1 (docs/api.md). Its answers are the CLI's, access is checked before anything is
// written, of two submits at once exactly one wins, the other side sees a turn arrive live,
// and SIGTERM lets a player-turn in flight finish and exits 0. The tactical module's endpoints
// answer as `opsim tactical ... --json` does.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <barrier>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "http_client.h"
#include "opsim/core/json_source.h"
#include "opsim/db/game_log.h"
#include "opsim/ops/game_state.h"
#include "opsim/query/scenario.h"
#include "opsim/query/source.h"
#include "opsim/query/view.h"
#include "opsim/server/api.h"
#include "opsim/server/http_server.h"
#include "serve_process.h"
#include "serve_support.h"
#include "test_support.h"

namespace opsim::server {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using opsim::test::ServeProcess;
using test::Client;
using test::Events;
using test::FirstTurn;
using test::Reply;

const std::string kOrdersFile =
    std::string(OPSIM_SCENARIO_DIR) + "/orders/special-terrain/01-axis-may-i-1940.json";

class ServeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ApiOptions a;
    a.games_dir = dir_.Path("games");
    a.max_body = 64 * 1024;
    a.positions = Positions();
    auto api = Api::Open(a);
    ASSERT_TRUE(api.has_value()) << api.error().to_string();
    api_ = std::move(*api);
    ServerOptions o;
    o.port = 0;
    o.threads = 4;
    o.max_body = a.max_body;
    o.rate = 0;
    server_ = std::make_unique<HttpServer>(*api_, o);
    auto port = server_->Listen();
    ASSERT_TRUE(port.has_value()) << port.error().to_string();
    port_ = *port;
    runner_ = std::thread([this] { server_->Run(); });

    Client c(port_);
    const Reply made = c.Post("/api/games", R"({"scenario": "special-terrain"})");
    ASSERT_EQ(made.status, 201) << made.body;
    const json j = made.json();
    game_ = j["game"];
    axis_ = j["tokens"]["axis"];
    allied_ = j["tokens"]["allied"];
    spectator_ = j["tokens"]["spectator"];
    base_ = "/api/games/" + game_;
  }

  void TearDown() override {
    if (server_) server_->Stop();
    if (runner_.joinable()) runner_.join();
  }

  std::string LogPath() const { return dir_.Path("games/" + game_ + ".sqlite"); }
  // The logged past positions the server keeps (ApiOptions::positions).
  virtual std::size_t Positions() const { return 16; }

  json Status() {
    Client c(port_);
    const Reply r = c.Get(base_, spectator_);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json();
  }

  opsim::test::TempDir dir_;
  std::unique_ptr<Api> api_;
  std::unique_ptr<HttpServer> server_;
  std::thread runner_;
  std::uint16_t port_ = 0;
  std::string game_, axis_, allied_, spectator_, base_;
};

TEST_F(ServeTest, EveryReadAnswersAsTheCliDoes) {
  Client c(port_);
  EXPECT_EQ(c.Get("/api/scenarios").status, 200);
  const Reply games = c.Get("/api/games");
  ASSERT_EQ(games.status, 200);
  ASSERT_EQ(games.json()["games"].size(), 1u);
  EXPECT_EQ(games.json()["games"][0]["id"], game_);

  const Reply status = c.Get(base_, spectator_);
  ASSERT_EQ(status.status, 200) << status.body;
  EXPECT_EQ(status.json()["role"], "spectator");
  EXPECT_EQ(status.json()["turns_logged"], 0);

  const Reply theater = c.Get(base_ + "/theater", axis_);
  ASSERT_EQ(theater.status, 200);
  EXPECT_FALSE(theater.headers[boost::beast::http::field::etag].empty());
  EXPECT_NE(theater.headers[boost::beast::http::field::cache_control].find("public"),
            std::string::npos);
  // Gzipped when asked, once, under an ETag of its own that revalidates (docs/api.md).
  namespace http = boost::beast::http;
  auto asking = [&](const std::string& target, const std::string& if_none_match) {
    http::request<http::string_body> req{http::verb::get, target, 11};
    req.set(http::field::accept_encoding, "gzip");
    if (!if_none_match.empty()) req.set(http::field::if_none_match, if_none_match);
    return c.Send(std::move(req), axis_);
  };
  const Reply zipped = asking(base_ + "/theater", "");
  ASSERT_EQ(zipped.status, 200);
  EXPECT_EQ(zipped.headers[http::field::content_encoding], "gzip");
  EXPECT_EQ(opsim::server::test::Gunzip(zipped.body), theater.body);
  const std::string tag(zipped.headers[http::field::etag]);
  EXPECT_EQ(tag, std::string(theater.headers[http::field::etag])
                     .insert(theater.headers[http::field::etag].size() - 1, "-gzip"));
  EXPECT_EQ(asking(base_ + "/theater", tag).status, 304);
  EXPECT_EQ(asking(base_ + "/theater", "").body, zipped.body);

  const Reply state = c.Get(base_ + "/state?supply=allied&zoc=axis", allied_);
  ASSERT_EQ(state.status, 200) << state.body;
  EXPECT_EQ(state.json(), opsim::test::CliJson({"position", "--db", LogPath(), "--supply", "allied",
                                                "--zoc", "axis"}));
  const Reply state_zipped = asking(base_ + "/state?supply=allied&zoc=axis", "");
  ASSERT_EQ(state_zipped.status, 200);
  EXPECT_EQ(state_zipped.headers[http::field::content_encoding], "gzip");
  EXPECT_EQ(opsim::server::test::Gunzip(state_zipped.body), state.body);

  const Reply hex = c.Get(base_ + "/hex/16A:0827", spectator_);
  ASSERT_EQ(hex.status, 200) << hex.body;
  EXPECT_EQ(hex.json(), opsim::test::CliJson({"map", "--db", LogPath(), "--hex", "16A:0827"}));

  const Reply route = c.Post(base_ + "/route",
                             R"({"mode": "naval", "side": "allied", "path": ["16A:0827",
                                 "16A:0826", "16A:0825"]})",
                             spectator_);
  ASSERT_EQ(route.status, 200) << route.body;
  EXPECT_EQ(route.json(),
            opsim::test::CliJson({"route", "--db", LogPath(), "--mode", "naval", "--side", "allied",
                                  "--path", "16A:0827,16A:0826,16A:0825"}));

  const Reply reach = c.Post(base_ + "/reach", R"({"units": ["de-9pz"]})", axis_);
  ASSERT_EQ(reach.status, 200) << reach.body;
  EXPECT_EQ(reach.json(), opsim::test::CliJson({"reach", "--db", LogPath(), "--unit", "de-9pz"}));

  const Reply check = c.Post(base_ + "/check", R"({"action": {"suez": "close"}})", allied_);
  ASSERT_EQ(check.status, 200) << check.body;
  EXPECT_EQ(check.json(),
            opsim::test::CliJson({"check", "--db", LogPath(), "--action", R"({"suez": "close"})"}));

  const Reply supply = c.Get(base_ + "/supply?side=allied&hex=4A:3524", allied_);
  ASSERT_EQ(supply.status, 200) << supply.body;
  EXPECT_EQ(supply.json(), opsim::test::CliJson({"supply", "--db", LogPath(), "--side", "allied",
                                                 "--hex", "4A:3524"}));

  EXPECT_EQ(c.Get(base_ + "/log", spectator_).status, 200);
  const Reply dice = c.Get(base_ + "/dice", spectator_);
  ASSERT_EQ(dice.status, 200);
  EXPECT_EQ(dice.json()["dice"], "fair");
}

TEST_F(ServeTest, AccessIsCheckedAndARefusalWritesNothing) {
  const auto [orders, reply] = FirstTurn();
  Client c(port_);
  EXPECT_EQ(c.Get(base_ + "/state").status, 401);                        // no token
  EXPECT_EQ(c.Get(base_ + "/state", std::string(64, 'f')).status, 401);  // not the game's
  EXPECT_EQ(c.Post(base_ + "/orders", orders).status, 401);
  EXPECT_EQ(c.Post(base_ + "/orders", orders, spectator_).status, 403);
  EXPECT_EQ(c.Post(base_ + "/orders", orders, allied_).status, 403);  // the axis moves
  EXPECT_EQ(c.Post(base_ + "/reply", reply, axis_).status, 403);      // the allies reply
  // Another game's token is no token of this one.
  const Reply other = c.Post("/api/games", R"({"scenario": "special-terrain"})");
  ASSERT_EQ(other.status, 201);
  EXPECT_EQ(c.Post(base_ + "/orders", orders, other.json()["tokens"]["axis"]).status, 401);
  const json s = Status();
  EXPECT_EQ(s["turns_logged"], 0);
  EXPECT_FALSE(s.contains("pending") && !s["pending"].is_null()) << s.dump();
}

TEST_F(ServeTest, MalformedAndOversizedBodiesAreRefusedWithTheCliMessage) {
  Client c(port_);
  const Reply bad = c.Post(base_ + "/orders", "{\"side\": \"axis\",\n  oops}", axis_);
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.json()["error"]["code"], "invalid-input");
  EXPECT_EQ(bad.json()["error"]["where"].get<std::string>().rfind("request body:2:", 0), 0u)
      << bad.body;
  const Reply big = c.Post(base_ + "/orders", std::string(65 * 1024, ' '), axis_);
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(Status()["turns_logged"], 0);
}

TEST_F(ServeTest, OfTwoSubmitsAtOnceExactlyOneWinsAndTheLogVerifies) {
  const auto [orders, reply] = FirstTurn();
  std::barrier start(2);
  int status[2] = {0, 0};
  std::vector<std::thread> players;
  for (int i = 0; i < 2; ++i) {
    players.emplace_back([&, i] {
      Client c(port_);
      c.Get("/api/scenarios");  // connected before the race
      start.arrive_and_wait();
      status[i] = c.Post(base_ + "/orders", orders, axis_).status;
    });
  }
  for (auto& p : players) p.join();
  EXPECT_EQ(std::min(status[0], status[1]), 202);
  EXPECT_EQ(std::max(status[0], status[1]), 409);
  Client c(port_);
  const Reply played = c.Post(base_ + "/reply", reply, allied_);
  ASSERT_EQ(played.status, 200) << played.body;
  EXPECT_EQ(played.json()["number"], 1);
  // The axis now defends, and nothing is pending.
  EXPECT_EQ(c.Post(base_ + "/reply", reply, axis_).status, 409);
  EXPECT_EQ(Status()["turns_logged"], 1);
  db::ReplayOptions verify;
  verify.verify = true;
  auto report = db::ReplayLog(LogPath(), verify);
  ASSERT_TRUE(report.has_value()) << report.error().to_string();
  EXPECT_EQ(report->game.turns_played, 1);
  // The dice's keys are revealed and match the commitments.
  const json dice = c.Get(base_ + "/dice", spectator_).json();
  ASSERT_EQ(dice["turns"].size(), 1u);
  EXPECT_EQ(dice["turns"][0]["axis_key"].get<std::string>().size(), 64u);
}

TEST_F(ServeTest, TheOtherSideSeesOrdersAndTheTurnArriveLive) {
  Events allied(port_, base_, allied_);

  const auto [orders, reply] = FirstTurn();
  Client axis(port_);
  ASSERT_EQ(axis.Post(base_ + "/orders", orders, axis_).status, 202);
  EXPECT_EQ(allied.Await("pending")["number"], 1);
  // The defender sees what he replies to: the attack on 16A:1122.
  Client c(port_);
  const json pending = c.Get(base_, allied_).json()["pending"];
  ASSERT_EQ(pending["attacks"].size(), 1u) << pending.dump();
  EXPECT_EQ(pending["attacks"][0]["hex"], "16A:1122");
  EXPECT_EQ(pending["attacks"][0]["units"], json::array({"de-18a", "de-9pz"}));
  ASSERT_EQ(c.Post(base_ + "/reply", reply, allied_).status, 200);
  EXPECT_EQ(allied.Await("turn")["number"], 1);
}

// What the server logs at debug level while one lives (the positions cache says what it loads
// and makes there): the proof that an answer came from the cache, without timing it.
class DebugLog {
 public:
  DebugLog() : before_(spdlog::default_logger()), level_(spdlog::get_level()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(lines_);
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("serve-test", sink));
    spdlog::set_level(spdlog::level::debug);
  }
  ~DebugLog() {
    spdlog::set_default_logger(before_);
    spdlog::set_level(level_);
  }
  // How many lines contain `text`.
  std::size_t Count(const std::string& text) {
    spdlog::default_logger()->flush();
    std::istringstream in(lines_.str());
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);) n += line.find(text) != std::string::npos;
    return n;
  }

 private:
  std::ostringstream lines_;
  std::shared_ptr<spdlog::logger> before_;
  spdlog::level::level_enum level_;
};

// Plays the bundled first player-turn: the axis orders, the allied reply.
void PlayFirstTurn(std::uint16_t port, const std::string& base, const std::string& axis,
                   const std::string& allied) {
  const auto [orders, reply] = FirstTurn();
  Client c(port);
  ASSERT_EQ(c.Post(base + "/orders", orders, axis).status, 202);
  ASSERT_EQ(c.Post(base + "/reply", reply, allied).status, 200);
}

// Issue 21: a position of the logged past (?at, ?phase) is loaded and answered once, then kept
// (position_cache.h): the second request is served from the cache (the log says one load and
// one answer made), byte for byte the answer made afresh without the server, gzipped once under
// an ETag that revalidates; a hex asked at that turn reads the same kept position.
TEST_F(ServeTest, APastPositionIsLoadedOnceAndServedFromTheCache) {
  PlayFirstTurn(port_, base_, axis_, allied_);
  DebugLog log;
  Client c(port_);
  const std::string phase = base_ + "/state?at=1&phase=movement";
  const Reply first = c.Get(phase, spectator_);
  ASSERT_EQ(first.status, 200) << first.body;
  const Reply second = c.Get(phase, axis_);
  ASSERT_EQ(second.status, 200) << second.body;
  const std::string name = "position " + game_ + " at 1, movement: ";
  EXPECT_EQ(log.Count(name + "loaded"), 1u);
  EXPECT_EQ(log.Count(name + "answer '' made"), 1u);
  EXPECT_EQ(second.body, first.body);

  query::Source src;
  src.db = LogPath();
  src.at = 1;
  src.phase = ops::Phase::kMovement;
  auto uncached = query::Load(src);
  ASSERT_TRUE(uncached.has_value()) << uncached.error().to_string();
  auto doc = query::PositionJson(*uncached, {});
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  EXPECT_EQ(first.body, doc->dump()) << "byte for byte";
  EXPECT_EQ(json::parse(first.body)["phase"], "movement");

  namespace http = boost::beast::http;
  auto zipped = [&](const std::string& if_none_match) {
    http::request<http::string_body> req{http::verb::get, phase, 11};
    req.set(http::field::accept_encoding, "gzip");
    if (!if_none_match.empty()) req.set(http::field::if_none_match, if_none_match);
    return c.Send(std::move(req), spectator_);
  };
  const Reply gz = zipped("");
  ASSERT_EQ(gz.status, 200);
  EXPECT_EQ(gz.headers[http::field::content_encoding], "gzip");
  EXPECT_EQ(opsim::server::test::Gunzip(gz.body), first.body);
  EXPECT_EQ(zipped(std::string(gz.headers[http::field::etag])).status, 304);
  EXPECT_EQ(log.Count(name + "loaded"), 1u);

  // Another answer of the same position (with zones of control) is made once from it.
  const std::string zoc = phase + "&zoc=allied";
  ASSERT_EQ(c.Get(zoc, spectator_).status, 200);
  ASSERT_EQ(c.Get(zoc, spectator_).status, 200);
  EXPECT_EQ(log.Count(name + "answer 'zallied' made"), 1u);
  // A hex at turn 1 loads the position after it once, as the state at turn 1 then reads it.
  ASSERT_EQ(c.Get(base_ + "/hex/16A:1122?at=1", spectator_).status, 200);
  ASSERT_EQ(c.Get(base_ + "/state?at=1", spectator_).status, 200);
  EXPECT_EQ(log.Count("position " + game_ + " at 1: loaded"), 1u);
  EXPECT_EQ(log.Count(name + "loaded"), 1u);
}

// A game's log replaced under its id by another game's (one that has logged nothing): the
// position kept of the old log is not served for the new one; the new log answers, as it stands.
TEST_F(ServeTest, AGameReplacedUnderItsIdIsNotAnsweredFromTheOldOnesPositions) {
  PlayFirstTurn(port_, base_, axis_, allied_);
  DebugLog log;
  Client c(port_);
  ASSERT_EQ(c.Get(base_ + "/state?at=1", spectator_).status, 200);
  ASSERT_EQ(c.Get(base_ + "/state?at=1", spectator_).status, 200);
  EXPECT_EQ(log.Count("position " + game_ + " at 1: loaded"), 1u);
  const Reply other = c.Post("/api/games", R"({"scenario": "special-terrain"})");
  ASSERT_EQ(other.status, 201) << other.body;
  const std::string from =
      dir_.Path("games/" + other.json()["game"].get<std::string>() + ".sqlite");
  for (const char* ext : {"", "-wal", "-shm"}) {
    std::error_code ec;
    std::filesystem::remove(LogPath() + ext, ec);
    if (std::filesystem::exists(from + ext)) std::filesystem::rename(from + ext, LogPath() + ext);
  }
  const Reply after = c.Get(base_ + "/state?at=1", spectator_);
  EXPECT_EQ(after.status, 400) << "the new log holds no player-turn: " << after.body;
  ASSERT_EQ(c.Get(base_ + "/state?at=0", spectator_).status, 200);
  EXPECT_EQ(log.Count("position " + game_ + " at 0: loaded"), 1u);
}

// The same server keeping at most two past positions: a third asked drops the least recently
// used, which is loaded again when asked; the two most recent are still kept.
class ServeTwoPositionsTest : public ServeTest {
 protected:
  std::size_t Positions() const override { return 2; }
};

TEST_F(ServeTwoPositionsTest, TheLeastRecentlyUsedPositionIsDropped) {
  PlayFirstTurn(port_, base_, axis_, allied_);
  DebugLog log;
  Client c(port_);
  const std::string start = base_ + "/state?at=0", after = base_ + "/state?at=1",
                    combat = base_ + "/state?at=1&phase=combat";
  for (const std::string& ask : {start, after, start, combat, start, after}) {
    ASSERT_EQ(c.Get(ask, spectator_).status, 200) << ask;
  }
  const std::string name = "position " + game_ + " at ";
  // at 0, at 1, at 0 (kept), combat (drops at 1), at 0 (kept), at 1 (loaded again, drops combat)
  EXPECT_EQ(log.Count(name + "0: loaded"), 1u);
  EXPECT_EQ(log.Count(name + "1: loaded"), 2u);
  EXPECT_EQ(log.Count(name + "1, combat: loaded"), 1u);
  EXPECT_EQ(log.Count(name + "1: dropped"), 1u);
  EXPECT_EQ(log.Count(name + "1, combat: dropped"), 1u);
  EXPECT_EQ(log.Count(name + "0: dropped"), 0u);
}

// docs/api.md, "Steps", over real sockets: the bundled first player-turn played step by step as
// its players would at the table, each side following what the game waits for. The mover gives
// his orders one at a time and declares the attack; the defender, who hears every step live,
// answers the flooding attempt he is asked for (41.A.4) and any retreat; the last step logs the
// player-turn with both keys revealed, and the log verifies. (The dice are the server's secret, so
// an order the weather made illegal is refused, with its rule, and the mover goes on.)
TEST_F(ServeTest, APlayerTurnIsPlayedStepByStepAndTheDefenderAnswersWhatHeIsAsked) {
  Events listener(port_, base_, allied_);

  const json file = json::parse(opsim::test::ReadFile(kOrdersFile));
  std::vector<json> orders;  // the mover's orders, phase by phase
  Client axis(port_), allied(port_);
  const json end = {{"end-phase", true}};
  std::size_t moves = 0, attacks = 0;
  int answered_floods = 0, steps = 0, refused = 0;
  bool attacked = false;
  bool logged = false;
  for (int guard = 0; guard < 50 && !logged; ++guard) {
    const Reply now = allied.Get(base_ + "/play", allied_);
    ASSERT_EQ(now.status, 200) << now.body;
    const json prompt = now.json()["prompt"];
    json step;
    std::string token = axis_;
    if (prompt["waiting"] == "begin") {  // the mover begins his player-turn: its weather
      ASSERT_EQ(prompt["side"], "axis");
      ASSERT_EQ(axis.Post(base_ + "/begin", "", axis_).status, 200);
      EXPECT_EQ(listener.Await("step")["action"], "begin");
      continue;
    }
    if (prompt["waiting"] == "order") {
      ASSERT_EQ(prompt["side"], "axis");
      if (prompt["phase"] == "movement" && moves < file["movement"].size()) {
        step = file["movement"][moves++];
      } else if (prompt["phase"] == "combat" && attacks < file["combat"].size()) {
        step = file["combat"][attacks++];
      } else {
        step = end;
      }
    } else if (prompt["waiting"] == "flood") {
      ASSERT_EQ(prompt["side"], "allied");
      EXPECT_EQ(prompt["hex"], "16A:1122");
      token = allied_;
      const bool may = std::find(prompt["floods"].begin(), prompt["floods"].end(), "flood") !=
                       prompt["floods"].end();
      step = {{"flood", may ? json("16A:1122") : json(false)}};
      ++answered_floods;
      // Not the mover's to answer (B1.3).
      const Reply wrong = axis.Post(base_ + "/step", json{{"step", step}}.dump(), axis_);
      EXPECT_EQ(wrong.status, 422) << wrong.body;
    } else if (prompt["waiting"] == "retreat") {
      token = prompt["side"] == "axis" ? axis_ : allied_;
      step = {{"hex", prompt["hex"]}, {"prefer", json::array()}};
    } else if (prompt["waiting"] == "advance") {
      step = {{"advance", json::array()}};
    } else {
      FAIL() << prompt.dump();
    }
    const Reply r =
        (token == axis_ ? axis : allied).Post(base_ + "/step", json{{"step", step}}.dump(), token);
    if (r.status == 422 && prompt["waiting"] == "order" && step != end) {
      EXPECT_FALSE(r.json()["error"]["rule"].get<std::string>().empty()) << r.body;
      ++refused;
      continue;
    }
    ASSERT_EQ(r.status, 200) << step.dump() << ": " << r.body;
    if (step.contains("attack")) attacked = true;
    ++steps;
    logged = r.json()["step"]["logged"];
    // The defender hears each step as it is taken.
    const json heard = listener.Await(logged ? "turn" : "step");
    EXPECT_EQ(heard["number"], 1);
    if (!logged) {
      EXPECT_EQ(heard["steps"], steps);
    }
  }
  ASSERT_TRUE(logged);
  EXPECT_EQ(moves, file["movement"].size());
  EXPECT_EQ(attacks, 1u);
  // The attack on 16A:1122, a canal-intensive hex, asks its owner whether he floods it.
  if (attacked) {
    EXPECT_EQ(answered_floods, 1);
  }
  EXPECT_LE(refused, 4);
  // The player-turn is logged with both keys revealed; the next one is the allied side's.
  const json dice = axis.Get(base_ + "/dice", spectator_).json();
  ASSERT_EQ(dice["turns"].size(), 1u);
  EXPECT_EQ(dice["turns"][0]["axis_key"].get<std::string>().size(), 64u);
  EXPECT_EQ(Status()["next"]["phasing"], "allied");
  const json next = allied.Get(base_ + "/play", allied_).json();
  EXPECT_EQ(next["player_turn"], 2);
  EXPECT_EQ(next["prompt"]["side"], "allied");
  db::ReplayOptions verify;
  verify.verify = true;
  auto replay = db::ReplayLog(LogPath(), verify);
  ASSERT_TRUE(replay) << replay.error().to_string();
  EXPECT_TRUE(replay->differences.empty());
}

// docs/api.md, "The tactical module": no game, no token; each answer is the CLI's
// `opsim tactical ... --json` for the same question.
json TacticalCli(std::vector<std::string> args) {
  args.insert(args.begin(), {"--json", "tactical"});
  const opsim::test::CliRun run = opsim::test::RunCli(args);
  EXPECT_EQ(run.code, 0) << run.err << run.out;
  return run.json();
}

// The CLI's --json error as the API gives it: "where" and "rule" always there, empty if none.
json AsApiError(json error) {
  for (const char* key : {"where", "rule"}) {
    if (!error.contains(key)) error[key] = "";
  }
  return error;
}

TEST_F(ServeTest, TacticalBoardsAreTheCliListWithoutPaths) {
  Client c(port_);
  const Reply r = c.Get("/api/tactical/boards");
  ASSERT_EQ(r.status, 200) << r.body;
  json cli = TacticalCli({"boards"});
  ASSERT_FALSE(cli["boards"].empty());
  for (json& b : cli["boards"]) b.erase("path");
  EXPECT_EQ(r.json(), cli);
  EXPECT_EQ(r.body.find(OPSIM_SCENARIO_DIR), std::string::npos);
  EXPECT_EQ(c.Post("/api/tactical/boards", "{}").status, 405);
}

// G8.4: a LOS across an In-Season paddy (a Hindrance), and the same LOS in Mud, where E3.62 adds
// its DRM: the answer changes with the EC, and each is the CLI's.
TEST_F(ServeTest, TacticalLosIsTheCliAnswerAndChangesWithTheSettings) {
  Client c(port_);
  const Reply moderate = c.Post("/api/tactical/los", R"({"board": "g8_2108", "paddy": "in-season",
      "from": "A", "to": "C"})");
  ASSERT_EQ(moderate.status, 200) << moderate.body;
  EXPECT_EQ(moderate.json(), TacticalCli({"los", "--board", "g8_2108", "--paddy", "in-season",
                                          "--from", "A", "--to", "C"}));
  EXPECT_EQ(moderate.json()["hindrance"], 1);
  const Reply mud = c.Post("/api/tactical/los", R"({"board": "g8_2108", "paddy": "in-season",
      "ec": "mud", "from": "A", "to": "C", "attack": "small-arms", "to_entrenched": false,
      "from_level": 0, "seed": 7})");
  ASSERT_EQ(mud.status, 200) << mud.body;
  EXPECT_EQ(mud.json(), TacticalCli({"los", "--board", "g8_2108", "--paddy", "in-season", "--ec",
                                     "mud", "--from", "A", "--to", "C", "--seed", "7"}));
  EXPECT_NE(mud.json(), moderate.json());
  EXPECT_NE(mud.body.find("E3.62"), std::string::npos) << mud.body;
  EXPECT_EQ(moderate.body.find("E3.62"), std::string::npos) << moderate.body;
}

// G9.4: a move through a panji hex with PTO Terrain, Double Time and an allowance.
TEST_F(ServeTest, TacticalMoveIsTheCliAnswer) {
  Client c(port_);
  const Reply r = c.Post("/api/tactical/move", R"({"board": "g9_3", "pto": true,
      "double_time": true, "allowance": 4, "path": "37EE8,DD7,DD7:beneath,CC8", "seed": 3,
      "morale": 8, "flags": []})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json(),
            TacticalCli({"move", "--board", "g9_3", "--pto", "--double-time", "--allowance", "4",
                         "--path", "37EE8,DD7,DD7:beneath,CC8", "--seed", "3", "--morale", "8"}));
}

TEST_F(ServeTest, TacticalRenderIsTheSvgTheCliWritesWithItsAnswers) {
  Client c(port_);
  const Reply r = c.Post("/api/tactical/render", R"({"board": "g8_2108", "paddy": "in-season",
      "los": "A,C", "path": "oL3:bank,oM3"})");
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 400);
  const std::string out = dir_.Path("g8.svg");
  const json cli = TacticalCli({"render", "--board", "g8_2108", "--paddy", "in-season", "--los",
                                "A,C", "--path", "oL3:bank,oM3", "--out", out});
  const json doc = r.json();
  EXPECT_EQ(doc["svg"], opsim::test::ReadFile(out));
  EXPECT_EQ(doc["board"], cli["board"]);
  EXPECT_EQ(doc["los"], cli["los"]);
  EXPECT_EQ(doc["move"], cli["move"]);
  EXPECT_EQ(doc.size(), 4u) << doc.dump().substr(0, 400);
  // What the page clicks: each unit of the board by name.
  for (const char* unit : {"A", "B", "C", "D"}) {
    EXPECT_NE(doc["svg"].get<std::string>().find(std::string("data-unit=\"") + unit + "\""),
              std::string::npos)
        << unit;
  }
  // Without a LOS or a path: the board alone, as the CLI draws it.
  const Reply bare = c.Post("/api/tactical/render", R"({"board": "samurai"})");
  ASSERT_EQ(bare.status, 200) << bare.body.substr(0, 400);
  TacticalCli({"render", "--board", "samurai", "--out", out, "--force"});
  EXPECT_EQ(bare.json()["svg"], opsim::test::ReadFile(out));
  EXPECT_EQ(bare.json().size(), 2u);
}

// An uploaded board: its errors are the CLI's for the same file, named as the page names it.
TEST_F(ServeTest, TacticalBoardTextIsReadAsTheCliReadsAFile) {
  Client c(port_);
  std::string text =
      opsim::test::ReadFile(std::string(OPSIM_SCENARIO_DIR) + "/tactical/g8_2108.json");
  const json upload = {{"board_text", text},
                       {"board_file_name", "mine.json"},
                       {"paddy", "in-season"},
                       {"from", "A"},
                       {"to", "C"}};
  const Reply good = c.Post("/api/tactical/los", upload.dump());
  ASSERT_EQ(good.status, 200) << good.body;
  EXPECT_EQ(good.json(), TacticalCli({"los", "--board", "g8_2108", "--paddy", "in-season", "--from",
                                      "A", "--to", "C"}));

  text.replace(text.find("\"terrain\": \"open\""), 17, "\"terrain\": \"lava\"");
  const std::string file = dir_.Path("mine.json");
  opsim::test::WriteFile(file, text);
  const opsim::test::CliRun cli =
      opsim::test::RunCli({"--json", "tactical", "los", "--board", file, "--paddy", "in-season",
                           "--from", "A", "--to", "C"});
  ASSERT_EQ(cli.code, 2);
  json expected = AsApiError(cli.json()["error"]);
  for (const char* key : {"message", "where"}) {
    std::string v = expected[key];
    if (const auto at = v.find(dir_.Path("")); at != std::string::npos)
      v.erase(at, dir_.Path("").size());
    expected[key] = v;
  }
  json bad = upload;
  bad["board_text"] = text;
  const Reply r = c.Post("/api/tactical/los", bad.dump());
  EXPECT_EQ(r.status, 422) << r.body;
  EXPECT_EQ(r.json()["error"], expected);
  EXPECT_EQ(r.json()["error"]["where"].get<std::string>().rfind("mine.json:15: ", 0), 0u) << r.body;
  // A short text that asks for 26 million hexes is refused at its grid, at once.
  bad["board_text"] =
      R"({"format": "opsim-tactical-board", "grids": [{"letters": {"columns": "A-)" +
      std::string(1000, 'Z') + R"(", "rows": "1-999"}}]})";
  const auto start = std::chrono::steady_clock::now();
  const Reply huge = c.Post("/api/tactical/los", bad.dump());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  EXPECT_EQ(huge.status, 422) << huge.body;
  EXPECT_EQ(huge.json()["error"]["where"], "mine.json:1: /grids/0") << huge.body;
  EXPECT_EQ(huge.json()["error"]["message"],
            "the grid spans 25974000 hexes: a board spans at most 20000");
}

TEST_F(ServeTest, TacticalRefusalsAreTheCliErrorsWithTheApiStatus) {
  Client c(port_);
  const auto post = [&c](const std::string& what, const std::string& body) {
    return c.Post("/api/tactical/" + what, body);
  };
  // Malformed: 400, where in the body.
  Reply r = post("los", R"({"board": "g8_2108", "from": "A", "to": "C", "colour": "red"})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.json()["error"]["message"].get<std::string>().find("unknown key 'colour'"),
            std::string::npos)
      << r.body;
  EXPECT_EQ(r.json()["error"]["where"], "request body:1: /colour");
  EXPECT_EQ(post("los", R"({"board": "g8_2108", "from": "A", "to": "C", "pto": "yes"})").status,
            400);
  EXPECT_EQ(post("move", R"({"board": "g8_2108", "from": "A"})").status, 400);  // los's key
  EXPECT_EQ(post("move", R"({"board": "g9_3", "path": "37EE8", "stack": 101})").status, 400);
  EXPECT_EQ(post("los", "[1]").status, 400);
  for (const char* name :
       {"../tactical/g8_2108", "tactical/g8_2108", "g8_2108.json", "/etc/passwd", "."}) {
    r = post("los", json({{"board", name}, {"from", "A"}, {"to", "C"}}).dump());
    EXPECT_EQ(r.status, 400) << name << ": " << r.body;
    EXPECT_EQ(r.json()["error"]["where"], "request body:1: /board") << r.body;
  }
  // Unknown board: 404, naming the bundled ones.
  r = post("render", R"({"board": "g8_2109"})");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.json()["error"]["message"],
            "no bundled board named 'g8_2109' (bundled: g13_23, g13_62, g8_2108, g9_3, samurai)");
  // What the board or the rules refuse: 422 with the CLI's message, where and rule.
  const std::vector<std::pair<std::string, std::vector<std::string>>> refused = {
      {R"({"board": "g8_2108", "paddy": "in-season", "from": "A", "to": "oZ9"})",
       {"los", "--board", "g8_2108", "--paddy", "in-season", "--from", "A", "--to", "oZ9"}},
      {R"({"board": "g8_2108", "from": "A", "to": "C", "paddy": "flooded"})",
       {"los", "--board", "g8_2108", "--from", "A", "--to", "C", "--paddy", "flooded"}},
      {R"({"board": "g9_3", "path": "37EE8,DD7", "unit": "boat"})",
       {"move", "--board", "g9_3", "--path", "37EE8,DD7", "--unit", "boat"}},
      {R"({"board": "samurai", "path": "A1,B1"})",
       {"move", "--board", "samurai", "--path", "A1,B1"}},
      {R"({"board": "g8_2108", "paddy": "in-season", "los": "A"})",
       {"render", "--board", "g8_2108", "--paddy", "in-season", "--los", "A", "--out",
        "unwritten.svg"}}};
  for (const auto& [body, args] : refused) {
    const std::string what = args[0];
    r = post(what, body);
    std::vector<std::string> cli = {"--json", "tactical"};
    cli.insert(cli.end(), args.begin(), args.end());
    const opsim::test::CliRun run = opsim::test::RunCli(cli);
    EXPECT_NE(run.code, 0) << body;
    EXPECT_EQ(r.status, 422) << body << ": " << r.body;
    EXPECT_EQ(r.json()["error"], AsApiError(run.json()["error"])) << body;
  }
  EXPECT_FALSE(std::filesystem::exists("unwritten.svg"));
  // A bundled board's set-up the settings make illegal: named by the board's file in the bundled
  // folder, never the server's path (docs/api.md, Errors).
  r = post("los", R"({"board": "g13_23", "from": "4-4-8", "to": "LC E"})");
  EXPECT_EQ(r.status, 422);
  EXPECT_EQ(r.json()["error"]["rule"], "G13.2") << r.body;
  EXPECT_EQ(r.json()["error"]["where"], "tactical/g13_23.json") << r.body;
  EXPECT_EQ(r.body.find(OPSIM_SCENARIO_DIR), std::string::npos) << r.body;
  // Another method: 405; another path: 404.
  EXPECT_EQ(c.Get("/api/tactical/los").status, 405);
  EXPECT_EQ(c.Get("/api/tactical/render").status, 405);
  EXPECT_EQ(post("boards/x", "{}").status, 404);
  EXPECT_EQ(post("reach", "{}").status, 404);
}

// docs/api.md, "Scenarios (the workshop)": no game, no token.
const std::string kBundledScenario = std::string(OPSIM_SCENARIO_DIR) + "/special-terrain.json";

TEST_F(ServeTest, ABundledScenarioIsItsFileAsOnDisk) {
  Client c(port_);
  const Reply r = c.Get("/api/scenarios/special-terrain");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body, opsim::test::ReadFile(kBundledScenario));
  EXPECT_EQ(r.headers[boost::beast::http::field::content_type], "application/json");
  for (const char* bad : {"special-terrain.json", "..%2Fspecial-terrain", "a%5Cb", "."}) {
    const Reply refused = c.Get(std::string("/api/scenarios/") + bad);
    EXPECT_EQ(refused.status, 400) << bad << ": " << refused.body;
  }
  EXPECT_EQ(c.Get("/api/scenarios/no-such-scenario").status, 404);
  EXPECT_EQ(c.Post("/api/scenarios/special-terrain", "{}").status, 405);
}

// The check's answer, for `text` sent as the body.
json WorkshopCheck(Client& c, const std::string& text) {
  const Reply r = c.Post("/api/scenario/check", text);
  EXPECT_EQ(r.status, 200) << r.body;
  return r.json();
}

// The line of `text` (1-based) where `needle` first stands.
std::size_t LineOf(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + at, '\n'));
}

TEST_F(ServeTest, TheWorkshopCheckAnswersWhatLoadsWithItsStats) {
  Client c(port_);
  const std::string text = opsim::test::ReadFile(kBundledScenario);
  const json ok = WorkshopCheck(c, text);
  EXPECT_EQ(ok["ok"], true) << ok.dump();
  EXPECT_EQ(ok["stats"], query::CheckScenarioFile(kBundledScenario).doc["stats"]);
  EXPECT_EQ(ok["stats"]["name"], "special-terrain");
  EXPECT_GT(ok["stats"]["units"]["axis"]["ground"].get<int>(), 0);
}

TEST_F(ServeTest, TheWorkshopCheckLocatesEachErrorOnItsHexOrHexside) {
  Client c(port_);
  const json doc = json::parse(opsim::test::ReadFile(kBundledScenario));
  const json& sheet = doc["sheets"][0];
  const std::string name = sheet["name"];
  const int col0 = sheet["first"][0], row0 = sheet["first"][1];

  // A bad terrain code: the grid cell's hex, from the sheet's first hex, row and column.
  json bad = doc;
  std::string row = bad["sheets"][0]["terrain"][2];
  ASSERT_GE(row.size(), 4u);
  row[3] = 'q';
  bad["sheets"][0]["terrain"][2] = row;
  std::string text = bad.dump(2);
  json e = WorkshopCheck(c, text);
  EXPECT_EQ(e["ok"], false);
  EXPECT_EQ(e["error"]["path"], "/sheets/0/terrain/2") << e.dump();
  EXPECT_EQ(e["error"]["line"], LineOf(text, "\"" + row + "\"")) << e.dump();
  EXPECT_EQ(e["error"]["hex"], map::FormatHexName(name, col0 + 3, row0 + 2)) << e.dump();
  EXPECT_EQ(e["error"]["hexside"], nullptr);
  EXPECT_EQ(e["error"]["code"], "invalid-input");
  EXPECT_NE(e["error"]["message"].get<std::string>().find("unknown terrain code 'q'"),
            std::string::npos);

  // A unit on a hex off its sheet: that hex.
  bad = doc;
  bad["campaign"]["units"][1]["hex"] = name + ":9999";
  text = bad.dump(2);
  e = WorkshopCheck(c, text);
  EXPECT_EQ(e["ok"], false);
  EXPECT_EQ(e["error"]["path"], "/campaign/units/1/hex") << e.dump();
  EXPECT_EQ(e["error"]["hex"], name + ":9999") << e.dump();
  EXPECT_EQ(e["error"]["line"], LineOf(text, name + ":9999")) << e.dump();

  // A hexside between two hexes that do not touch: that hexside.
  bad = doc;
  const std::string side = map::FormatHexName(name, col0, row0) + "/" +
                           map::FormatHexName(name, col0 + 2, row0).substr(name.size() + 1);
  bad["hexsides"]["border"].push_back(side);
  text = bad.dump(2);
  e = WorkshopCheck(c, text);
  EXPECT_EQ(e["ok"], false);
  EXPECT_EQ(e["error"]["hexside"], side) << e.dump();
  EXPECT_EQ(e["error"]["hex"], nullptr);
  EXPECT_EQ(e["error"]["line"], LineOf(text, side)) << e.dump();

  // Not JSON: its line, no path, still a 200 with ok false.
  e = WorkshopCheck(c, "{\n  \"opsim\": \"scenario\",\n  oops\n}");
  EXPECT_EQ(e["ok"], false);
  EXPECT_EQ(e["error"]["line"], 3) << e.dump();
  EXPECT_EQ(e["error"]["path"], nullptr);
  EXPECT_EQ(c.Get("/api/scenario/check").status, 405);
  EXPECT_EQ(c.Post("/api/scenario/lint", "{}").status, 404);
}

TEST_F(ServeTest, TheWorkshopFormatIsTheCliLayoutAndLoadsToTheSameGame) {
  Client c(port_);
  const std::string text = opsim::test::ReadFile(kBundledScenario);
  const Reply r = c.Post("/api/scenario/format", text);
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string formatted = r.json()["text"];
  // Formatting the formatted text changes nothing.
  const Reply again = c.Post("/api/scenario/format", formatted);
  ASSERT_EQ(again.status, 200);
  EXPECT_EQ(again.json()["text"], formatted);
  // It loads to the same game.
  auto before = JsonSource::FromText(text, "before");
  auto after = JsonSource::FromText(formatted, "after");
  ASSERT_TRUE(before && after);
  auto g0 = query::LoadScenarioSource(*before);
  auto g1 = query::LoadScenarioSource(*after);
  ASSERT_TRUE(g0 && g1) << (g1 ? "" : g1.error().to_string());
  EXPECT_EQ(ops::StateHash(*g0->state), ops::StateHash(*g1->state));
  // A work in progress with rule errors is laid out too; what is not JSON is 400 at its line.
  const Reply wip =
      c.Post("/api/scenario/format", R"({"opsim": "scenario", "sheets": [{"terrain": ["qqq"]}]})");
  EXPECT_EQ(wip.status, 200) << wip.body;
  const Reply bad = c.Post("/api/scenario/format", "{\n\n  oops");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.json()["error"]["line"], 3) << bad.body;
  EXPECT_EQ(c.Post("/api/scenario/format", "[1, 2]").status, 400);
}

TEST(ServeProcessTest, SigtermLetsThePlayerTurnInFlightFinishAndExitsZero) {
  opsim::test::TempDir dir;
  ServeProcess serve({OPSIM_BINARY, "serve", "--games", dir.Path("games"), "--port", "0", "--new",
                      "special-terrain", "--json"});
  const json started = serve.FirstLine();
  ASSERT_TRUE(started.is_object() && started.contains("port")) << "opsim serve printed no address";
  const auto port = started["port"].get<std::uint16_t>();
  const json game = started["created"][0];
  const std::string base = "/api/games/" + game["game"].get<std::string>();
  EXPECT_EQ(started["url"], "http://127.0.0.1:" + std::to_string(port) + "/");

  const auto [orders, reply] = FirstTurn();
  Client c(port);
  ASSERT_EQ(c.Post(base + "/orders", orders, game["tokens"]["axis"]).status, 202);
  // The reply plays and logs the player-turn; SIGTERM arrives while it is in flight.
  int played = 0;
  std::thread defender([&] {
    try {
      Client d(port);
      played = d.Post(base + "/reply", reply, game["tokens"]["allied"]).status;
    } catch (const std::exception&) {
      played = -1;  // the connection was closed unread: the server had stopped
    }
  });
  std::this_thread::sleep_for(5ms);
  serve.Signal(SIGTERM);
  defender.join();
  EXPECT_EQ(serve.Wait(30s), 0);
  // Answered, or never begun (the server had stopped reading): never half-logged.
  db::ReplayOptions verify;
  verify.verify = true;
  auto report =
      db::ReplayLog(dir.Path("games/" + game["game"].get<std::string>() + ".sqlite"), verify);
  ASSERT_TRUE(report.has_value()) << report.error().to_string();
  EXPECT_EQ(report->game.turns_played, played == 200 ? 1 : 0) << "reply answered " << played;
}

// At `ulimit -n 128`, 150 idle connections took every descriptor and accept spun: 4 s of CPU
// and a 122 MB log in 5 s, and new clients went unanswered. Connections are capped below the
// limit: the rest are closed at once, the server idles, says so once, and serves again when
// they go.
TEST(ServeProcessTest, TheDescriptorLimitCapsConnectionsWithoutSpinning) {
  opsim::test::TempDir dir;
  const std::string log = dir.Path("serve.log");
  ServeProcess serve({OPSIM_BINARY, "serve", "--games", dir.Path("games"), "--port", "0",
                      "--threads", "2", "--json"},
                     log, 128);
  const json started = serve.FirstLine();
  ASSERT_TRUE(started.is_object() && started.contains("port")) << "opsim serve printed no address";
  const auto port = started["port"].get<std::uint16_t>();
  const double cpu_before = test::CpuSeconds(serve.pid());
  boost::asio::io_context io;
  std::vector<boost::asio::ip::tcp::socket> idle;
  for (int i = 0; i < 150; ++i) {
    idle.emplace_back(io);
    boost::system::error_code ec;
    idle.back().connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
  }
  std::this_thread::sleep_for(3s);
  EXPECT_LT(test::CpuSeconds(serve.pid()) - cpu_before, 0.5) << "the accept loop spun";
  idle.clear();
  std::this_thread::sleep_for(200ms);
  Client c(port);
  EXPECT_EQ(c.Get("/api/games").status, 200);
  serve.Signal(SIGTERM);
  EXPECT_EQ(serve.Wait(30s), 0);
  EXPECT_LT(std::filesystem::file_size(log), 4000u) << "a log line per connection";
}

// With --games inside --web the client's folder served the games' secrets and logs: refused
// at start (exit 2), before any game is made.
TEST(ServeProcessTest, RefusesAGamesFolderInsideTheWebFolder) {
  opsim::test::TempDir dir;
  std::filesystem::create_directories(dir.Path("web"));
  const std::string log = dir.Path("serve.log");
  ServeProcess serve({OPSIM_BINARY, "serve", "--web", dir.Path("web"), "--games",
                      dir.Path("web/games"), "--port", "0", "--new", "special-terrain"},
                     log);
  EXPECT_EQ(serve.Wait(30s), 2);
  const std::string said = opsim::test::ReadFile(log);
  EXPECT_NE(said.find("inside the web client's folder"), std::string::npos) << said;
  EXPECT_TRUE(std::filesystem::is_empty(dir.Path("web/games"))) << "a game was made there";
}

}  // namespace
}  // namespace opsim::server
