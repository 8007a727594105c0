// Several `opsim serve` processes on one PostgreSQL store (issue 21; docs/deploy.md), as players
// meet them: over sockets on 127.0.0.1, each server a real process on the throwaway cluster that
// ctest's pg.start fixture starts. A player submits through one server and the other player,
// listening on the other, hears it; two submits at once through two servers: exactly one wins;
// a server killed in the middle of a write leaves nothing half-written and the game goes on
// through the other; the log exports and verifies.
#include <gtest/gtest.h>

#include <barrier>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <cstdlib>
#include <fstream>
#include <set>
#include <thread>

#include "http_client.h"
#include "opsim/db/game_log.h"
#include "opsim/db/turn_log.h"
#include "pg_test.h"
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

// One `opsim serve --store` process, listening on a port of its own.
struct Server {
  explicit Server(const std::vector<std::string>& more = {}) {
    std::vector<std::string> args{OPSIM_BINARY, "serve", "--store", opsim::test::PgUri(),
                                  "--port",     "0",     "--json"};
    args.insert(args.end(), more.begin(), more.end());
    process = std::make_unique<ServeProcess>(args);
    started = process->FirstLine();
    EXPECT_TRUE(started.is_object() && started.contains("port"))
        << "opsim serve printed no address";
    port = started.value("port", std::uint16_t{0});
  }
  std::unique_ptr<ServeProcess> process;
  json started;
  std::uint16_t port = 0;
};

class SharedStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    a_ = std::make_unique<Server>(std::vector<std::string>{"--new", "special-terrain"});
    b_ = std::make_unique<Server>();
    ASSERT_TRUE(a_->port && b_->port);
    const json game = a_->started["created"][0];
    game_ = game["game"];
    axis_ = game["tokens"]["axis"];
    allied_ = game["tokens"]["allied"];
    spectator_ = game["tokens"]["spectator"];
    base_ = "/api/games/" + game_;
  }
  json Status(std::uint16_t port) {
    Client c(port);
    const Reply r = c.Get(base_, spectator_);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json();
  }
  // The game's log replayed and verified where the servers keep it.
  void Verifies(int turns) {
    db::ReplayOptions verify;
    verify.verify = true;
    auto report = db::ReplayLog(opsim::test::PgUri() + "#" + game_, verify);
    ASSERT_TRUE(report.has_value()) << report.error().to_string();
    EXPECT_EQ(report->game.turns_played, turns);
  }

  std::unique_ptr<Server> a_, b_;
  std::string game_, axis_, allied_, spectator_, base_;
};

TEST_F(SharedStoreTest, AGameMadeOnOneServerIsPlayedThroughTheOtherAndHeardOnBoth) {
  Client b(b_->port);
  const Reply list = b.Get("/api/games");
  ASSERT_EQ(list.status, 200) << list.body;
  const json games = list.json()["games"];
  bool listed = false;
  for (const json& g : games) listed = listed || g["id"] == game_;
  EXPECT_TRUE(listed) << "server B does not list the game server A made: " << list.body;
  EXPECT_EQ(b.Get(base_, "not-a-token").status, 401);  // its secrets are the store's

  Events allied_on_b(b_->port, base_, allied_);
  Events axis_on_a(a_->port, base_, axis_);
  const auto [orders, reply] = FirstTurn();
  Client a(a_->port);
  ASSERT_EQ(a.Post(base_ + "/orders", orders, axis_).status, 202);
  EXPECT_EQ(allied_on_b.Await("pending")["number"], 1);  // heard from the store
  EXPECT_EQ(axis_on_a.Await("pending")["number"], 1);    // told by its own server
  EXPECT_FALSE(Status(b_->port)["pending"].is_null());
  const Reply played = b.Post(base_ + "/reply", reply, allied_);
  ASSERT_EQ(played.status, 200) << played.body;
  EXPECT_EQ(axis_on_a.Await("turn")["number"], 1);
  EXPECT_EQ(allied_on_b.Await("turn")["number"], 1);
  EXPECT_EQ(Status(a_->port)["turns_logged"], 1);  // A's warm cache saw B's write
  Verifies(1);

  // `opsim export` writes an ordinary turn log that replays and verifies.
  opsim::test::TempDir dir;
  const std::string file = dir.Path("exported.sqlite");
  const auto exported =
      opsim::test::RunCli({"export", "--db", opsim::test::PgUri() + "#" + game_, "--out", file});
  ASSERT_EQ(exported.code, 0) << exported.err;
  const auto verified = opsim::test::RunCli({"replay", "--db", file, "--verify"});
  EXPECT_EQ(verified.code, 0) << verified.err;
}

// A player whose stream dropped reconnects to the other server with the id of the last event he
// heard: he is told at once that the game changed since; with the id of the game as it is, he is
// told nothing until it changes.
TEST_F(SharedStoreTest, AStreamResumedOnAnyServerWithLastEventIdMissesNothing) {
  const auto [orders, reply] = FirstTurn();
  std::string heard;
  {
    Events allied(b_->port, base_, allied_);
    Client a(a_->port);
    ASSERT_EQ(a.Post(base_ + "/orders", orders, axis_).status, 202);
    EXPECT_EQ(allied.Await("pending")["number"], 1);
    heard = allied.last_id();
    ASSERT_FALSE(heard.empty()) << "an event without an id";
  }  // the stream drops; meanwhile the player-turn is played through the other server
  {
    Events up_to_date(a_->port, base_, allied_, heard);
    EXPECT_TRUE(up_to_date.Quiet(300ms)) << "told of a change that was not";
  }
  Client a(a_->port);
  ASSERT_EQ(a.Post(base_ + "/reply", reply, allied_).status, 200);
  Events resumed(a_->port, base_, allied_, heard);
  EXPECT_EQ(resumed.Await("step")["number"], 2);  // player-turn 1 is logged: 2 is next
  EXPECT_NE(resumed.last_id(), heard);
  Events again(b_->port, base_, allied_, resumed.last_id());
  EXPECT_TRUE(again.Quiet(300ms));
}

TEST_F(SharedStoreTest, OfTwoSubmitsThroughTwoServersExactlyOneWins) {
  const auto [orders, reply] = FirstTurn();
  std::barrier start(2);
  int status[2] = {0, 0};
  std::vector<std::thread> players;
  for (int i = 0; i < 2; ++i) {
    players.emplace_back([&, i] {
      Client c(i == 0 ? a_->port : b_->port);
      c.Get("/api/scenarios");  // connected before the race
      start.arrive_and_wait();
      status[i] = c.Post(base_ + "/orders", orders, axis_).status;
    });
  }
  for (auto& p : players) p.join();
  EXPECT_EQ(std::min(status[0], status[1]), 202);
  EXPECT_EQ(std::max(status[0], status[1]), 409);
  Client b(b_->port);
  ASSERT_EQ(b.Post(base_ + "/reply", reply, allied_).status, 200);
  Verifies(1);
}

// SIGKILL of the server writing a player-turn: the player-turn is logged whole or not at all,
// and the game goes on through the other server.
TEST_F(SharedStoreTest, AServerKilledMidWriteLeavesNothingHalfWrittenAndTheOtherGoesOn) {
  const auto [orders, reply] = FirstTurn();
  Client a(a_->port);
  ASSERT_EQ(a.Post(base_ + "/orders", orders, axis_).status, 202);
  int played = 0;
  std::thread defender([&] {
    try {
      Client d(a_->port);
      played = d.Post(base_ + "/reply", reply, allied_).status;
    } catch (const std::exception&) {
      played = -1;  // the server died under it
    }
  });
  std::this_thread::sleep_for(30ms);
  a_->process->Signal(SIGKILL);
  defender.join();
  const int turns = Status(b_->port)["turns_logged"];
  EXPECT_EQ(turns, played == 200 ? 1 : turns) << "reply answered " << played;
  Verifies(turns);
  Client b(b_->port);
  if (turns == 0) {
    ASSERT_EQ(b.Post(base_ + "/reply", reply, allied_).status, 200);
  }
  EXPECT_EQ(Status(b_->port)["turns_logged"], 1);
  Verifies(1);
}

// A port free on 127.0.0.1 now (for nginx, which is told its port).
std::uint16_t FreePort() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor a(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();
}

// The two servers behind a throwaway nginx on 127.0.0.1 (scripts/nginx.sh), round-robin, as
// docs/deploy.md shows: the players know only the proxy's address.
class BehindNginxTest : public SharedStoreTest {
 protected:
  void SetUp() override {
    SharedStoreTest::SetUp();
    port_ = FreePort();
    const std::string start = std::string("bash ") + OPSIM_NGINX_SH + " start " +
                              dir_.Path("nginx") + " " + std::to_string(port_) + " " +
                              std::to_string(a_->port) + " " + std::to_string(b_->port);
    ASSERT_EQ(std::system(start.c_str()), 0) << start;
  }
  void TearDown() override {
    const std::string stop = std::string("bash ") + OPSIM_NGINX_SH + " stop " + dir_.Path("nginx");
    EXPECT_EQ(std::system(stop.c_str()), 0);
  }
  // Which server answered (the test proxy's X-Upstream header).
  static std::string Upstream(const Reply& r) {
    auto it = r.headers.find("X-Upstream");
    return it == r.headers.end() ? "" : std::string(it->value());
  }
  opsim::test::TempDir dir_;
  std::uint16_t port_ = 0;
};

TEST_F(BehindNginxTest, PlayersThroughTheProxyAreServedByBothServersAndHearEachOther) {
  Client c(port_);
  std::set<std::string> served;
  for (int i = 0; i < 4; ++i) {
    const Reply r = c.Get(base_, spectator_);
    ASSERT_EQ(r.status, 200) << r.body;
    served.insert(Upstream(r));
  }
  EXPECT_EQ(served.size(), 2u) << "the proxy's round robin reached one server";

  Events allied(port_, base_, allied_);
  Events axis(port_, base_, axis_);
  const auto [orders, reply] = FirstTurn();
  ASSERT_EQ(c.Post(base_ + "/orders", orders, axis_).status, 202);
  EXPECT_EQ(allied.Await("pending")["number"], 1);
  EXPECT_EQ(axis.Await("pending")["number"], 1);
  ASSERT_EQ(c.Post(base_ + "/reply", reply, allied_).status, 200);
  EXPECT_EQ(allied.Await("turn")["number"], 1);
  EXPECT_EQ(axis.Await("turn")["number"], 1);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(Status(port_)["turns_logged"], 1);

  // Two allied submits at once, through the proxy to both servers: exactly one wins.
  json allied_orders =
      json::parse(opsim::test::ReadFile(opsim::test::BundledOrders("02-allied-may-i-1940.json")));
  allied_orders.erase("reactions");
  std::barrier go(2);
  int status[2] = {0, 0};
  std::vector<std::thread> players;
  for (int i = 0; i < 2; ++i) {
    players.emplace_back([&, i] {
      Client p(port_);
      p.Get("/api/scenarios");  // connected before the race
      go.arrive_and_wait();
      status[i] = p.Post(base_ + "/orders", allied_orders.dump(), allied_).status;
    });
  }
  for (auto& p : players) p.join();
  EXPECT_EQ(std::min(status[0], status[1]), 202);
  EXPECT_EQ(std::max(status[0], status[1]), 409);
  EXPECT_EQ(axis.Await("pending")["number"], 2);

  // One server dies: the proxy passes its reads to the other, and the game goes on.
  a_->process->Signal(SIGKILL);
  for (int i = 0; i < 4; ++i) {
    const Reply r = c.Get(base_, spectator_);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_FALSE(r.json()["pending"].is_null());
  }
  Verifies(1);
}

}  // namespace
}  // namespace opsim::server
