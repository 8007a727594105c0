// The game API (docs/api.md) through Api::Handle and Subscribe, as the HTTP layer calls them:
// every endpoint, access (401/403 with nothing written), malformed bodies, a whole hosted
// player-turn whose dice verify, two submits at once, and a CLI-made log in the folder.
#include <gtest/gtest.h>

#include <malloc.h>
#if defined(OPSIM_SANITIZED)
#include <sanitizer/allocator_interface.h>
#endif
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "opsim/core/fair_dice.h"
#include "opsim/db/game_log.h"
#include "opsim/query/steps.h"
#include "opsim/server/api.h"
#include "test_support.h"

namespace opsim::server {
namespace {

using nlohmann::json;
using test::BundledPath;
using test::CliRun;
using test::ReadFile;
using test::RunCli;
using test::TempDir;

struct Created {
  std::string id, axis, allied, spectator;
  json doc;
};

class ApiTest : public ::testing::Test {
 protected:
  void SetUp() override { Open({}); }

  // The API over the test's games folder, with `options` otherwise.
  void Open(ApiOptions options) {
    options.games_dir = dir_.Path("games");
    api_.reset();
    auto api = Api::Open(options);
    ASSERT_TRUE(api) << api.error().to_string();
    api_ = std::move(*api);
  }

  Response Call(const std::string& method, const std::string& path, const std::string& token = "",
                const std::string& body = "",
                std::vector<std::pair<std::string, std::string>> query = {},
                const std::string& peer = "") {
    Request r;
    r.method = method;
    r.path = path;
    r.token = token;
    r.body = body;
    r.query = std::move(query);
    r.peer = peer;
    return api_->Handle(r);
  }

  static json Json(const Response& r) { return json::parse(r.body); }

  Created Create() {
    const Response r = Call("POST", "/api/games", "", R"({"scenario": "special-terrain"})");
    EXPECT_EQ(r.status, 201) << r.body;
    Created c;
    c.doc = Json(r);
    c.id = c.doc["game"];
    c.axis = c.doc["tokens"]["axis"];
    c.allied = c.doc["tokens"]["allied"];
    c.spectator = c.doc["tokens"]["spectator"];
    return c;
  }

  std::string Log(const Created& c) const { return dir_.Path("games") + "/" + c.id + ".sqlite"; }
  std::string Head(const Created& c) const {
    auto log = db::TurnLog::Open(Log(c), db::TurnLog::Access::kRead);
    EXPECT_TRUE(log);
    auto meta = log->Meta();
    return (*meta)["head_hash"] + "|" +
           (meta->count("pbem_pending") ? (*meta)["pbem_pending"] : "");
  }

  // The first bundled orders, split into the mover's orders and the defender's reply.
  static std::pair<std::string, std::string> FirstTurn() {
    json orders = json::parse(ReadFile(test::BundledOrders("01-axis-may-i-1940.json")));
    json reply = {{"reactions", orders["reactions"]}};
    orders.erase("reactions");
    return {orders.dump(), reply.dump()};
  }
  // The spectator of game `c` listening: each event's name goes to `events`.
  std::expected<std::unique_ptr<Subscription>, Response> Listen(const Created& c,
                                                                std::vector<std::string>& events) {
    Request sub;
    sub.method = "GET";
    sub.path = "/api/games/" + c.id + "/events";
    sub.token = c.spectator;
    return api_->Subscribe(sub, [&events](const std::string& e, const std::string&,
                                          const std::string&) { events.push_back(e); });
  }

  // A game made by the CLI in the games folder ("by-hand"), the first bundled orders played:
  // its log's path, or "" if the CLI failed (the test then fails).
  std::string ByHandAfterOneTurn() {
    std::filesystem::create_directories(dir_.Path("games"));
    const std::string log = dir_.Path("games") + "/by-hand.sqlite";
    const auto made =
        RunCli({"new", "--scenario", "special-terrain", "--db", log, "--seed", "1940"});
    EXPECT_EQ(made.code, 0) << made.err;
    const auto played =
        RunCli({"turn", "--db", log, "--orders", test::BundledOrders("01-axis-may-i-1940.json")});
    EXPECT_EQ(played.code, 0) << played.err;
    return made.code == 0 && played.code == 0 ? log : "";
  }

  TempDir dir_;
  std::unique_ptr<Api> api_;
};

// The CLI's list, but names only: the server's files are no client's business.
TEST_F(ApiTest, ScenariosAreTheBundledOnesAsTheCliListsThemWithoutTheirPaths) {
  const Response r = Call("GET", "/api/scenarios");
  ASSERT_EQ(r.status, 200);
  const CliRun cli = RunCli({"scenarios", "--json"});
  json expected = json::parse(cli.out);
  for (json& s : expected["scenarios"]) s.erase("path");
  EXPECT_EQ(Json(r), expected);
  EXPECT_EQ(r.body.find(OPSIM_SCENARIO_DIR), std::string::npos) << r.body;
}

TEST_F(ApiTest, CreatingAGameGivesTokensLinksAndCommitmentsAndKeepsOnlyHashes) {
  const Created c = Create();
  EXPECT_EQ(c.doc["links"]["axis"], "/?game=" + c.id + "&token=" + c.axis);
  EXPECT_EQ(c.doc["scenario"], "special-terrain.json");
  const std::string secrets = dir_.Path("games") + "/" + c.id + ".secrets";
  struct stat st {};
  ASSERT_EQ(stat(secrets.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600);
  const std::string text = ReadFile(secrets);
  for (const std::string& t : {c.axis, c.allied, c.spectator}) {
    EXPECT_EQ(text.find(t), std::string::npos) << "a token stored in clear";
  }
  auto log = db::TurnLog::Open(Log(c), db::TurnLog::Access::kRead);
  ASSERT_TRUE(log);
  EXPECT_EQ(log->game().axis_commitment, c.doc["dice"]["axis_commitment"].get<std::string>());
  EXPECT_EQ(log->game().game_id, c.id);
}

TEST_F(ApiTest, AnUploadedScenarioIsCheckedByTheLoader) {
  const json scenario = json::parse(ReadFile(BundledPath("special-terrain")));
  Response r = Call("POST", "/api/games", "", json{{"scenario_json", scenario}}.dump());
  EXPECT_EQ(r.status, 201) << r.body;
  r = Call("POST", "/api/games", "", R"({"scenario_json": {"opsim": "scenario"}})");
  EXPECT_EQ(r.status, 400) << r.body;
  r = Call("POST", "/api/games", "", R"({"scenario": "no-such"})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Json(r)["error"]["where"], "request body:1: /scenario");
}

TEST_F(ApiTest, StatusIsTheCliStatusWithTheCallersRole) {
  const Created c = Create();
  const Response r = Call("GET", "/api/games/" + c.id, c.spectator);
  ASSERT_EQ(r.status, 200) << r.body;
  json doc = Json(r);
  EXPECT_EQ(doc["role"], "spectator");
  EXPECT_EQ(doc["hosted"], true);
  const CliRun cli = RunCli({"status", "--db", Log(c), "--json"});
  json expected = json::parse(cli.out);
  expected.erase("db");  // the server's path: the API names the game by its id
  for (const char* k : {"role", "hosted", "game"}) doc.erase(k);
  EXPECT_EQ(doc, expected);
  const Response list = Call("GET", "/api/games");
  ASSERT_EQ(list.status, 200);
  EXPECT_EQ(Json(list)["games"][0]["id"], c.id);
  EXPECT_EQ(Json(list)["games"][0]["dice"], "fair");
}

TEST_F(ApiTest, ReadsAreTheCliAnswers) {
  const Created c = Create();
  const std::string g = "/api/games/" + c.id;
  Response r = Call("GET", g + "/hex/16A:0827", c.axis);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json(r),
            json::parse(RunCli({"map", "--db", Log(c), "--hex", "16A:0827", "--json"}).out));

  r = Call("POST", g + "/route", c.allied,
           R"({"mode": "naval", "side": "allied", "path": ["16A:0827", "16A:0826", "16A:0825"]})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json(r),
            json::parse(RunCli({"route", "--db", Log(c), "--mode", "naval", "--side", "allied",
                                "--path", "16A:0827,16A:0826,16A:0825", "--json"})
                            .out));

  r = Call("POST", g + "/reach", c.spectator, R"({"units": ["de-18a"]})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json(r),
            json::parse(RunCli({"reach", "--db", Log(c), "--unit", "de-18a", "--json"}).out));

  r = Call("POST", g + "/check", c.axis, R"({"action": {"suez": "close"}})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(
      Json(r),
      json::parse(
          RunCli({"check", "--db", Log(c), "--action", R"({"suez": "close"})", "--json"}).out));

  const auto [orders, reply] = FirstTurn();
  r = Call("POST", g + "/check", c.axis, json{{"orders", json::parse(orders)}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(Json(r).contains("orders"));

  r = Call("GET", g + "/supply", c.allied, "", {{"side", "allied"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(
      Json(r),
      json::parse(RunCli({"supply", "--db", Log(c), "--side", "allied", "--all", "--json"}).out));
  r = Call("GET", g + "/supply", c.allied, "", {{"side", "allied"}, {"hex", "16A:1021"}});
  EXPECT_EQ(r.status, 200) << r.body;

  r = Call("POST", g + "/odds", c.axis,
           json{{"orders", json::parse(orders)}, {"runs", 20}, {"seed", 7}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json(r)["runs"], 20);
  r = Call("POST", g + "/odds", c.axis,
           json{{"orders", json::parse(orders)}, {"runs", 1'001}}.dump());
  EXPECT_EQ(r.status, 400);

  r = Call("GET", g + "/log", c.axis);
  ASSERT_EQ(r.status, 200) << r.body;
  json log = json::parse(RunCli({"log", "--db", Log(c), "--json"}).out);
  log.erase("db");
  EXPECT_EQ(Json(r), log);

  r = Call("GET", g + "/dice", c.spectator);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json(r)["axis_commitment"], c.doc["dice"]["axis_commitment"]);
  EXPECT_TRUE(Json(r)["turns"].empty());
}

TEST_F(ApiTest, TheTheaterIsCacheableAndTheStateIsTheCliPosition) {
  const Created c = Create();
  const std::string g = "/api/games/" + c.id;
  Response r = Call("GET", g + "/theater", c.spectator);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_FALSE(r.etag.empty());
  EXPECT_EQ(r.cache_control, "public, max-age=86400");
  EXPECT_EQ(Json(r),
            json::parse(RunCli({"theater", "--scenario", "special-terrain", "--json"}).out));
  EXPECT_EQ(Call("GET", g + "/theater").status, 401);
  // ?form=compact: the same theater in columns (the browser's), under an ETag of its own.
  const std::string etag = r.etag;
  r = Call("GET", g + "/theater", c.spectator, "", {{"form", "compact"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.etag, etag.substr(0, etag.size() - 1) + ".compact\"");
  EXPECT_EQ(r.cache_control, "public, max-age=86400");
  EXPECT_EQ(
      Json(r),
      json::parse(RunCli({"theater", "--scenario", "special-terrain", "--json", "--compact"}).out));
  EXPECT_EQ(Call("GET", g + "/theater", c.spectator, "", {{"form", "json"}}).body,
            Call("GET", g + "/theater", c.spectator).body);
  r = Call("GET", g + "/theater", c.spectator, "", {{"form", "columns"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Json(r)["error"]["where"], "?form") << r.body;

  r = Call("GET", g + "/state", c.axis, "", {{"supply", "allied"}, {"zoc", "axis"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(r.etag.empty());
  EXPECT_EQ(Json(r), json::parse(RunCli({"position", "--db", Log(c), "--supply", "allied", "--zoc",
                                         "axis", "--json"})
                                     .out));
  // ?form=compact: the same position with its hexes as indices (the browser's).
  r = Call("GET", g + "/state", c.axis, "",
           {{"supply", "allied"}, {"zoc", "axis"}, {"form", "compact"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json(r)["form"], "compact");
  EXPECT_EQ(Json(r), json::parse(RunCli({"position", "--db", Log(c), "--supply", "allied", "--zoc",
                                         "axis", "--json", "--compact"})
                                     .out));
  EXPECT_EQ(Call("GET", g + "/state", c.axis, "", {{"form", "json"}}).body,
            Call("GET", g + "/state", c.axis).body);
  r = Call("GET", g + "/state", c.axis, "", {{"form", "columns"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Json(r)["error"]["where"], "?form") << r.body;
  r = Call("GET", g + "/state", c.axis, "", {{"supply", "both"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Json(r)["error"]["where"], "?supply");
}

TEST_F(ApiTest, AWholePlayerTurnIsLoggedWithDiceThatVerify) {
  const Created c = Create();
  const std::string g = "/api/games/" + c.id;
  std::vector<std::string> events;
  auto subscription = Listen(c, events);
  ASSERT_TRUE(subscription);

  const auto [orders, reply] = FirstTurn();
  Response r = Call("POST", g + "/orders", c.axis, orders);
  ASSERT_EQ(r.status, 202) << r.body;
  EXPECT_EQ(Json(r)["number"], 1);
  r = Call("GET", g, c.allied);
  EXPECT_EQ(Json(r)["pending"]["stage"], "moved");

  r = Call("POST", g + "/reply", c.allied, reply);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(events, (std::vector<std::string>{"pending", "turn"}));

  r = Call("GET", g + "/log", c.spectator, "", {{"turn", "1"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json(r)["turns"].size(), 1u);

  r = Call("GET", g + "/dice", c.spectator);
  const json dice = Json(r);
  ASSERT_EQ(dice["turns"].size(), 1u);
  for (const char* side : {"axis", "allied"}) {
    auto key = KeyFromHex(dice["turns"][0][std::string(side) + "_key"].get<std::string>());
    auto commitment = KeyFromHex(dice[std::string(side) + "_commitment"].get<std::string>());
    ASSERT_TRUE(key && commitment);
    EXPECT_TRUE(KeyMatches(*key, 1, *commitment)) << side;
  }
  db::ReplayOptions verify;
  verify.verify = true;
  auto replay = db::ReplayLog(Log(c), verify);
  ASSERT_TRUE(replay) << replay.error().to_string();

  // The axis token cannot give the allied orders now due.
  EXPECT_EQ(Call("POST", g + "/orders", c.axis,
                 ReadFile(test::BundledOrders("02-allied-may-i-1940.json")))
                .status,
            403);
  // The next defender's reply finds nothing pending.
  EXPECT_EQ(Call("POST", g + "/reply", c.axis, "{}").status, 409);
  // The warm game moved on: the allied side now phases.
  r = Call("GET", g, c.axis);
  EXPECT_EQ(Json(r)["next"]["phasing"], "allied");
}

// docs/api.md, "Steps": a hosted player-turn played step by step. A step is taken by the side
// the game waits for (B1.3), a spectator takes none, a move may be taken back (B1.4), each step
// is heard by the listeners, the position in play is the one drawn, and orders are refused while
// steps are in play.
TEST_F(ApiTest, StepsAreTakenByTheSideTheGameWaitsForAndHeardAtOnce) {
  const Created c = Create();
  const std::string g = "/api/games/" + c.id;
  std::vector<std::string> events;
  auto subscription = Listen(c, events);
  ASSERT_TRUE(subscription);
  const auto hex_of = [](const json& play, const std::string& unit) {
    for (const json& u : play["position"]["units"]) {
      if (u["id"] == unit) return u["hex"];
    }
    return json();
  };

  // Not begun: nothing drawn for it is shown.
  Response r = Call("GET", g + "/play", c.spectator);
  ASSERT_EQ(r.status, 200) << r.body;
  json play = Json(r);
  EXPECT_FALSE(play["begun"]);
  EXPECT_EQ(play["prompt"]["waiting"], "begin");
  EXPECT_EQ(play["prompt"]["side"], "axis");
  EXPECT_TRUE(play["rolls"].empty());
  EXPECT_EQ(hex_of(play, "de-18a"), "16A:1322");

  const std::string end = R"({"step": {"end-phase": true}})";
  const std::string before = Head(c);
  r = Call("POST", g + "/step", c.allied, end);  // only the mover begins it
  EXPECT_EQ(r.status, 422) << r.body;
  EXPECT_EQ(Json(r)["error"]["rule"], "B1.3");
  EXPECT_EQ(Call("POST", g + "/begin", c.allied).status, 422);
  EXPECT_EQ(Call("POST", g + "/begin", c.spectator).status, 403);
  EXPECT_EQ(Call("POST", g + "/step", c.spectator, end).status, 403);
  EXPECT_EQ(Call("POST", g + "/step", "", end).status, 401);
  EXPECT_EQ(Call("POST", g + "/step", c.axis, R"({"stepp": {}})").status, 400);
  EXPECT_EQ(Call("POST", g + "/step", c.axis, "[]").status, 400);
  EXPECT_EQ(Call("GET", g + "/step", c.axis).status, 405);
  EXPECT_EQ(Head(c), before);
  EXPECT_FALSE(*query::StepsInPlay(Log(c)));
  EXPECT_TRUE(events.empty());

  // The mover begins it: the weather is drawn, one die per weather zone (B2.1).
  r = Call("POST", g + "/begin", c.axis);
  ASSERT_EQ(r.status, 200) << r.body;
  play = Json(Call("GET", g + "/play", c.spectator));
  EXPECT_TRUE(play["begun"]);
  EXPECT_EQ(play["prompt"]["waiting"], "order");
  EXPECT_EQ(play["prompt"]["phase"], "initial");
  EXPECT_EQ(play["steps"], 0);
  ASSERT_FALSE(play["rolls"].empty());
  for (const json& roll : play["rolls"]) EXPECT_EQ(roll["rule"], "B2.1") << roll.dump();
  EXPECT_EQ(Json(Call("GET", g, c.spectator))["in_play"]["steps"], 0);
  EXPECT_EQ(Call("POST", g + "/begin", c.axis).status, 200);  // begun already: nothing more
  EXPECT_EQ(events, (std::vector<std::string>{"step"}));      // and no one hears of it
  events.clear();
  // The position in play with a side's supply and zones of control, as `state` gives them.
  r = Call("GET", g + "/play", c.allied, "", {{"supply", "axis"}, {"zoc", "allied"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(Json(r)["position"]["supply"].contains("axis")) << r.body;
  EXPECT_TRUE(Json(r)["position"]["zoc"].contains("allied")) << r.body;
  EXPECT_FALSE(Json(Call("GET", g + "/play", c.allied))["position"].contains("supply"));
  EXPECT_EQ(Call("GET", g + "/play", c.allied, "", {{"zoc", "nobody"}}).status, 400);

  r = Call("POST", g + "/step", c.axis, end);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json(r)["step"]["steps"], 1);
  EXPECT_EQ(Json(r)["prompt"]["phase"], "movement");
  r = Call("POST", g + "/step", c.axis,
           R"({"step": {"units": ["de-18a"], "path": ["16A:1322", "16A:1222"]}})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(Json(r)["can_undo"]);
  play = Json(Call("GET", g + "/play", c.allied));
  EXPECT_EQ(hex_of(play, "de-18a"), "16A:1222");
  EXPECT_EQ(play["steps"], 2);
  EXPECT_EQ(events, (std::vector<std::string>{"step", "step"}));

  // The allied side may not take the axis move back; the axis side may.
  EXPECT_EQ(Call("POST", g + "/undo", c.spectator).status, 403);
  r = Call("POST", g + "/undo", c.allied);
  EXPECT_EQ(r.status, 422) << r.body;
  EXPECT_EQ(Json(r)["error"]["rule"], "B1.4");
  r = Call("POST", g + "/undo", c.axis);
  ASSERT_EQ(r.status, 200) << r.body;
  play = Json(Call("GET", g + "/play", c.allied));
  EXPECT_EQ(hex_of(play, "de-18a"), "16A:1322");
  EXPECT_EQ(play["steps"], 1);
  EXPECT_EQ(events.size(), 3u);

  // Orders are refused while the player-turn is played by steps (B1.3).
  const auto [orders, reply] = FirstTurn();
  r = Call("POST", g + "/orders", c.axis, orders);
  EXPECT_EQ(r.status, 409) << r.body;
  // A new server on the same folder takes the player-turn up where it stood.
  Open({});
  play = Json(Call("GET", g + "/play", c.allied));
  EXPECT_EQ(play["steps"], 1);
  EXPECT_EQ(play["prompt"]["phase"], "movement");
}

// docs/dice.md, "Step by step": looking at a hosted player-turn draws nothing the players see,
// so the mover may still send orders (whose dice differ from the steps'); once begun, by a step
// or by /begin, it is played by steps, and orders are refused. Else the mover could look at the
// steps' weather and, not liking it, have the orders' instead: a re-roll.
TEST_F(ApiTest, ALookBindsNothingAndABeginningBindsThePlayerTurnToSteps) {
  const auto [orders, reply] = FirstTurn();
  const Created looked = Create();
  const std::string g = "/api/games/" + looked.id;
  ASSERT_EQ(Call("GET", g + "/play", looked.axis).status, 200);
  ASSERT_EQ(Call("GET", g + "/play", looked.allied).status, 200);
  EXPECT_EQ(Call("POST", g + "/orders", looked.axis, orders).status, 202);
  // Orders pending: the player-turn is played from them, not by steps.
  EXPECT_EQ(Call("GET", g + "/play", looked.axis).status, 409);
  EXPECT_EQ(Call("POST", g + "/begin", looked.axis).status, 409);
  EXPECT_EQ(Call("POST", g + "/reply", looked.allied, reply).status, 200);

  const Created begun = Create();
  const std::string h = "/api/games/" + begun.id;
  ASSERT_EQ(Call("POST", h + "/begin", begun.axis).status, 200);
  const Response refused = Call("POST", h + "/orders", begun.axis, orders);
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_EQ(Json(refused)["error"]["rule"], "B1.3");
  // A refused step begins it too: a refusal may say something of the dice.
  const Created refusing = Create();
  const std::string k = "/api/games/" + refusing.id;
  EXPECT_EQ(Call("POST", k + "/step", refusing.axis,
                 R"({"step": {"units": ["de-18a"], "path": ["16A:1322", "16A:1222"]}})")
                .status,
            422);  // a move in the initial phase (B1.3)
  EXPECT_EQ(Call("POST", k + "/orders", refusing.axis, orders).status, 409);
}

TEST_F(ApiTest, AccessIsRefusedAndNothingIsWritten) {
  const Created c = Create();
  const Created other = Create();
  const std::string g = "/api/games/" + c.id;
  const auto [orders, reply] = FirstTurn();
  const std::string before = Head(c);
  EXPECT_EQ(Call("GET", g + "/log").status, 401);
  EXPECT_EQ(Call("GET", g + "/log", "not-a-token").status, 401);
  EXPECT_EQ(Call("GET", g + "/log", other.axis).status, 401);
  EXPECT_EQ(Call("POST", g + "/orders").status, 401);
  EXPECT_EQ(Call("POST", g + "/orders", other.axis, orders).status, 401);
  EXPECT_EQ(Call("POST", g + "/orders", c.allied, orders).status, 403);
  EXPECT_EQ(Call("POST", g + "/orders", c.spectator, orders).status, 403);
  EXPECT_EQ(Head(c), before);
  ASSERT_EQ(Call("POST", g + "/orders", c.axis, orders).status, 202);
  const std::string pending = Head(c);
  EXPECT_EQ(Call("POST", g + "/reply", c.axis, reply).status, 403);
  EXPECT_EQ(Call("POST", g + "/reply", c.spectator, reply).status, 403);
  EXPECT_EQ(Call("POST", g + "/reply", "", reply).status, 401);
  EXPECT_EQ(Head(c), pending);
  const Response denied = Call("POST", g + "/reply", c.spectator, reply);
  EXPECT_EQ(Json(denied)["error"]["code"], "forbidden");
}

TEST_F(ApiTest, ErrorsHaveTheCliShapeAndStatus) {
  const Created c = Create();
  const std::string g = "/api/games/" + c.id;
  Response r = Call("POST", g + "/route", c.axis, "{\"mode\": \n  nope}");
  ASSERT_EQ(r.status, 400);
  const json e = Json(r)["error"];
  EXPECT_EQ(e["code"], "invalid-input");
  EXPECT_EQ(e["where"].get<std::string>().rfind("request body:2:", 0), 0u) << e;
  for (const char* k : {"message", "rule"}) EXPECT_TRUE(e.contains(k));
  EXPECT_EQ(Call("GET", "/api/games/no-such-game/log", c.axis).status, 404);
  EXPECT_EQ(Call("GET", "/api/games/..%2F..%2Fetc/log", c.axis).status, 404);
  EXPECT_EQ(Call("GET", "/api/games/../x", c.axis).status, 404);
  EXPECT_EQ(Call("GET", "/api/nothing").status, 404);
  EXPECT_EQ(Call("GET", g + "/nothing", c.axis).status, 404);
  EXPECT_EQ(Call("DELETE", g + "/log", c.axis).status, 405);
  EXPECT_EQ(Call("GET", g + "/orders", c.axis).status, 405);
  EXPECT_EQ(Call("PUT", "/api/games").status, 405);
  r = Call("GET", g + "/log", c.axis, "", {{"turn", "x"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Json(r)["error"]["where"], "?turn");
  EXPECT_EQ(Call("GET", g + "/log", c.axis, "", {{"turn", "3"}}).status, 400);
  // An order the rules forbid is 422 with its rule, and nothing is pending.
  json bad = json::parse(FirstTurn().first);
  // B4: beyond the panzer's movement allowance.
  bad["movement"] = json::array(
      {{{"units", {"de-9pz"}},
        {"path",
         {"16A:1323", "16A:1223", "16A:1123", "16A:1023", "16A:0923", "16A:0823", "16A:0723"}}}});
  bad.erase("combat");
  const std::string before = Head(c);
  r = Call("POST", g + "/orders", c.axis, bad.dump());
  EXPECT_EQ(r.status, 422) << r.body;
  EXPECT_FALSE(Json(r)["error"]["rule"].get<std::string>().empty()) << r.body;
  EXPECT_EQ(Head(c), before);
}

TEST_F(ApiTest, AnEventStreamNeedsAGamesTokenAndStopsWithItsSubscription) {
  const Created c = Create();
  Request sub;
  sub.method = "GET";
  sub.path = "/api/games/" + c.id + "/events";
  int calls = 0;
  const auto count = [&calls](const std::string&, const std::string&, const std::string&) {
    ++calls;
  };
  auto none = api_->Subscribe(sub, count);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().status, 401);
  sub.token = c.spectator;
  sub.path = "/api/games/no-such/events";
  auto unknown = api_->Subscribe(sub, count);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().status, 404);
  sub.path = "/api/games/" + c.id + "/events";
  auto live = api_->Subscribe(sub, count);
  ASSERT_TRUE(live);
  const auto [orders, reply] = FirstTurn();
  ASSERT_EQ(Call("POST", "/api/games/" + c.id + "/orders", c.axis, orders).status, 202);
  EXPECT_EQ(calls, 1);
  live->reset();
  ASSERT_EQ(Call("POST", "/api/games/" + c.id + "/reply", c.allied, reply).status, 200);
  EXPECT_EQ(calls, 1);
}

TEST_F(ApiTest, ABodyOverTheLimitIsRefusedAndWritesNothing) {
  ApiOptions options;
  options.games_dir = dir_.Path("games");
  options.max_body = 64;
  auto small = Api::Open(options);
  ASSERT_TRUE(small);
  Request r;
  r.method = "POST";
  r.path = "/api/games";
  r.body = R"({"scenario": "special-terrain", "padding": ")" + std::string(100, 'x') + R"("})";
  EXPECT_EQ((*small)->Handle(r).status, 413);
  EXPECT_TRUE(Json(Call("GET", "/api/games"))["games"].empty());
}

// docs/api.md, "Scenarios (the workshop)": a scenario sent to check or format may be as large
// as a scenario file, whatever max_body is; one byte more is 413.
TEST_F(ApiTest, TheWorkshopTakesAScenarioSizedBodyAndNoMore) {
  ApiOptions options;
  options.games_dir = dir_.Path("games");
  options.max_body = 64;
  auto small = Api::Open(options);
  ASSERT_TRUE(small);
  Request r;
  r.method = "POST";
  r.path = "/api/scenario/check";
  r.body = opsim::test::ReadFile(opsim::test::BundledPath("special-terrain"));
  const Response ok = (*small)->Handle(r);
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(Json(ok)["ok"], true) << ok.body;
  r.body = std::string(kMaxScenarioBytes + 1, ' ');
  EXPECT_EQ((*small)->Handle(r).status, 413);
  r.path = "/api/scenario/format";
  EXPECT_EQ((*small)->Handle(r).status, 413);
  r.body = "  {\"opsim\": \"scenario\"}";
  const Response laid = (*small)->Handle(r);
  EXPECT_EQ(laid.status, 200);
  EXPECT_EQ(Json(laid)["text"], "{\"opsim\": \"scenario\"}\n");
}

// docs/api.md, "Scenarios (the workshop)": the panels of a theater's sheets, sent as the served
// theater lists them (less their panel), are the served theater's, in both its forms; a bad body
// is 400 where it is wrong; a body may be as large as a scenario, and no larger (413).
TEST_F(ApiTest, TheWorkshopsPanelsAreTheServedTheatersPanels) {
  const Created c = Create();
  const Response served = Call("GET", "/api/games/" + c.id + "/theater", c.spectator);
  ASSERT_EQ(served.status, 200) << served.body;
  json sheets = Json(served)["sheets"], panels = json::array();
  for (json& s : sheets) {
    panels.push_back(s["panel"]);
    s.erase("panel");
  }
  const Response compact =
      Call("GET", "/api/games/" + c.id + "/theater", c.spectator, "", {{"form", "compact"}});
  ASSERT_EQ(compact.status, 200);
  json compact_panels = json::array();
  const json compact_sheets = Json(compact)["sheets"];
  for (const json& s : compact_sheets) compact_panels.push_back(s["panel"]);
  EXPECT_EQ(compact_panels, panels);
  ASSERT_GT(*std::max_element(panels.begin(), panels.end()), 0) << "one panel: nothing to tell";
  Response r = Call("POST", "/api/scenario/panels", "", json{{"sheets", sheets}}.dump(1));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json(r), json({{"panels", panels}}));

  sheets[1]["last"] = json::array({0, 0});
  r = Call("POST", "/api/scenario/panels", "", json{{"sheets", sheets}}.dump(1));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Json(r)["error"]["code"], "invalid-input");
  EXPECT_TRUE(Json(r)["error"]["where"].get<std::string>().ends_with(": /sheets/1/last")) << r.body;
  r = Call("POST", "/api/scenario/panels", "", R"({"sheets": "16A"})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Json(r)["error"]["where"], "request body:1: /sheets") << r.body;
  EXPECT_EQ(Call("POST", "/api/scenario/panels", "", "{\n oops").status, 400);
  EXPECT_EQ(Call("GET", "/api/scenario/panels").status, 405);

  ApiOptions small;
  small.max_body = 64;
  Open(small);
  const std::string one = json{{"sheets", json::array({sheets[0]})}}.dump();
  r = Call("POST", "/api/scenario/panels", "", one + std::string(100, ' '));
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json(r), json({{"panels", {0}}}));
  r = Call("POST", "/api/scenario/panels", "", one + std::string(kMaxScenarioBytes, ' '));
  EXPECT_EQ(r.status, 413);
}

TEST_F(ApiTest, OfTwoSubmitsAtOnceExactlyOneWins) {
  const Created c = Create();
  const std::string g = "/api/games/" + c.id;
  const auto [orders, reply] = FirstTurn();
  std::atomic<int> won = 0, conflict = 0;
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back([&, i] {
      const int status = Call("POST", g + "/orders", c.axis, orders).status;
      (status == 202 ? won : conflict) += status == 202 || status == 409 ? 1 : 100 + i;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(won, 1);
  EXPECT_EQ(conflict, 1);
  ASSERT_EQ(Call("POST", g + "/reply", c.allied, reply).status, 200);
  db::ReplayOptions verify;
  verify.verify = true;
  EXPECT_TRUE(db::ReplayLog(Log(c), verify));
}

TEST_F(ApiTest, ACliMadeLogInTheFolderIsListedAndReadableButNotPlayable) {
  std::filesystem::create_directories(dir_.Path("games"));
  const std::string log = dir_.Path("games") + "/by-hand.sqlite";
  ASSERT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", log, "--seed", "1940"}).code,
            0);
  const Response list = Call("GET", "/api/games");
  ASSERT_EQ(list.status, 200);
  const json games = Json(list)["games"];
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0]["id"], "by-hand");
  EXPECT_EQ(games[0]["hosted"], false);
  EXPECT_EQ(games[0]["dice"], "seeded");
  const Response status = Call("GET", "/api/games/by-hand");
  ASSERT_EQ(status.status, 200) << status.body;
  EXPECT_EQ(Json(status)["role"], "public");
  EXPECT_EQ(Call("GET", "/api/games/by-hand/log").status, 200);
  EXPECT_EQ(Call("GET", "/api/games/by-hand/dice").status, 200);
  EXPECT_EQ(Call("POST", "/api/games/by-hand/orders", "", FirstTurn().first).status, 403);
  // A turn the CLI logs while the server holds the game warm is seen at once.
  EXPECT_EQ(Json(Call("GET", "/api/games/by-hand"))["turns_logged"], 0);
  EXPECT_EQ(Call("POST", "/api/games/by-hand/reach", "", R"({"units": ["de-18a"]})").status, 200);
  ASSERT_EQ(
      RunCli({"turn", "--db", log, "--orders", test::BundledOrders("01-axis-may-i-1940.json")})
          .code,
      0);
  EXPECT_EQ(Json(Call("GET", "/api/games/by-hand"))["turns_logged"], 1);
  EXPECT_EQ(Json(Call("GET", "/api/games"))["games"][0]["next"]["phasing"], "allied");
  const Response reach = Call("POST", "/api/games/by-hand/reach", "", R"({"units": ["de-18a"]})");
  EXPECT_EQ(Json(reach),
            json::parse(RunCli({"reach", "--db", log, "--unit", "de-18a", "--json"}).out));
}

// The position's loader asks for the game's latest state while it holds the game's loader
// lock: after a turn logged elsewhere both are stale at once, and the answer still comes (it
// once waited for itself).
TEST_F(ApiTest, APositionAfterATurnLoggedElsewhereIsLoadedOnce) {
  std::filesystem::create_directories(dir_.Path("games"));
  const std::string log = dir_.Path("games") + "/by-hand.sqlite";
  ASSERT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", log, "--seed", "1940"}).code,
            0);
  ASSERT_EQ(Call("GET", "/api/games/by-hand/state").status, 200);
  ASSERT_EQ(
      RunCli({"turn", "--db", log, "--orders", test::BundledOrders("01-axis-may-i-1940.json")})
          .code,
      0);
  const Response state = Call("GET", "/api/games/by-hand/state");
  ASSERT_EQ(state.status, 200) << state.body;
  EXPECT_EQ(Json(state)["player_turn"], 1);
  EXPECT_EQ(Json(state), json::parse(RunCli({"position", "--db", log, "--json"}).out));
}

// Replay by phase: the state at a phase of a logged player-turn is the CLI's, the log gives each
// phase's events and rolls on demand, and a phase that is no phase is a 400 naming the four.
TEST_F(ApiTest, TheStateAtAPhaseIsTheCliPositionAndTheLogSaysEachPhasesEvents) {
  const std::string log = ByHandAfterOneTurn();
  ASSERT_FALSE(log.empty());
  const std::string g = "/api/games/by-hand";
  for (const char* phase : {"initial", "movement", "combat", "exploitation"}) {
    const Response r = Call("GET", g + "/state", "", "", {{"at", "1"}, {"phase", phase}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(
        Json(r),
        json::parse(RunCli({"position", "--db", log, "--at", "1", "--phase", phase, "--json"}).out))
        << phase;
  }
  Response r = Call("GET", g + "/state", "", "", {{"at", "1"}, {"phase", "supply"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Json(r)["error"]["where"], "?phase");
  EXPECT_NE(Json(r)["error"]["message"].get<std::string>().find(
                "initial, movement, combat and exploitation"),
            std::string::npos)
      << r.body;
  // A past position's compact form: the CLI's, under an ETag of its own.
  r = Call("GET", g + "/state", "", "", {{"at", "1"}, {"phase", "combat"}, {"form", "compact"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json(r), json::parse(RunCli({"position", "--db", log, "--at", "1", "--phase", "combat",
                                         "--json", "--compact"})
                                     .out));
  const std::string compact_etag = r.etag;
  r = Call("GET", g + "/state", "", "", {{"at", "1"}, {"phase", "combat"}});
  EXPECT_FALSE(compact_etag.empty());
  EXPECT_FALSE(r.etag.empty());
  EXPECT_NE(compact_etag, r.etag);
  EXPECT_FALSE(Json(r).contains("form"));
  r = Call("GET", g + "/state", "", "", {{"phase", "combat"}});
  EXPECT_EQ(r.status, 400) << r.body;  // no ?at
  r = Call("GET", g + "/state", "", "", {{"at", "2"}, {"phase", "combat"}});
  EXPECT_EQ(r.status, 400) << r.body;  // no such player-turn

  r = Call("GET", g + "/log", "", "", {{"turn", "1"}, {"phases", "true"}});
  ASSERT_EQ(r.status, 200) << r.body;
  json phases = json::parse(RunCli({"log", "--db", log, "--turn", "1", "--phases", "--json"}).out);
  phases.erase("db");
  EXPECT_EQ(Json(r), phases);
  EXPECT_TRUE(Json(r)["turns"][0]["phases"][1].contains("events"));
  r = Call("GET", g + "/log", "", "", {{"turn", "1"}});
  EXPECT_FALSE(Json(r)["turns"][0]["phases"][1].contains("events"));
  EXPECT_EQ(Call("GET", g + "/log", "", "", {{"phases", "yes"}}).status, 400);
}

// B1.3: the replay steps through a logged player-turn: the state after each step is the CLI's
// `position --step`, and the log with ?steps the CLI's `log --steps`.
TEST_F(ApiTest, TheStateAtAStepIsTheCliPositionAndTheLogSaysEachStepsEvents) {
  const std::string log = ByHandAfterOneTurn();
  ASSERT_FALSE(log.empty());
  const std::string g = "/api/games/by-hand";
  Response r = Call("GET", g + "/log", "", "", {{"turn", "1"}, {"steps", "true"}});
  ASSERT_EQ(r.status, 200) << r.body;
  json steps = json::parse(RunCli({"log", "--db", log, "--turn", "1", "--steps", "--json"}).out);
  steps.erase("db");
  EXPECT_EQ(Json(r), steps);
  const json logged = Json(r);
  const json& turn = logged["turns"][0];
  EXPECT_EQ(turn["played_by"], "orders");
  const std::size_t count = turn["steps"].size();
  ASSERT_GT(count, 3u);
  for (std::size_t k = 0; k <= count; ++k) {
    r = Call("GET", g + "/state", "", "", {{"at", "1"}, {"step", std::to_string(k)}});
    ASSERT_EQ(r.status, 200) << r.body;
    const json cli = json::parse(
        RunCli({"position", "--db", log, "--at", "1", "--step", std::to_string(k), "--json"}).out);
    EXPECT_EQ(Json(r), cli) << k;
    EXPECT_EQ(Json(r)["step"]["taken"], k);
    if (k > 0) {
      EXPECT_EQ(Json(r)["step"]["last"]["step"], turn["steps"][k - 1]["step"]);
    }
  }
  for (const auto& query : std::vector<std::vector<std::pair<std::string, std::string>>>{
           {{"step", "1"}},                                    // no ?at
           {{"at", "1"}, {"step", "1"}, {"phase", "combat"}},  // a step or a phase
           {{"at", "1"}, {"step", std::to_string(count + 1)}},
           {{"at", "1"}, {"step", "-1"}}}) {
    r = Call("GET", g + "/state", "", "", query);
    EXPECT_EQ(r.status, 400) << r.body;
  }
  EXPECT_EQ(Call("GET", g + "/log", "", "", {{"steps", "true"}}).status, 400);  // which turn?
  EXPECT_EQ(Call("GET", g + "/log", "", "", {{"turn", "1"}, {"steps", "1"}}).status, 400);
}

// B7.2: in the combat phase the mover weighs an attack's odds before declaring it: nothing is
// taken, drawn, written or heard, and the attack declared is fought at those odds. Only the side
// the game waits for weighs one (B1.3).
TEST_F(ApiTest, TheMoverWeighsAnAttacksOddsBeforeDeclaringIt) {
  const Created c = Create();
  const std::string g = "/api/games/" + c.id;
  const std::string attack = R"({"step": {"attack": "16A:1122", "units": ["de-18a", "de-9pz"]}})";
  Response r = Call("POST", g + "/preview", c.axis, attack);
  EXPECT_EQ(r.status, 409) << r.body;  // not begun
  const std::string end = R"({"step": {"end-phase": true}})";
  for (const std::string& step :
       {end, std::string(R"({"step": {"units": ["de-18a"], "path": ["16A:1322", "16A:1222"]}})"),
        std::string(
            R"({"step": {"units": ["de-9pz"], "path": ["16A:1323", "16A:1322", "16A:1221"]}})"),
        end}) {
    r = Call("POST", g + "/step", c.axis, step);
    ASSERT_EQ(r.status, 200) << step << ": " << r.body;
  }
  std::vector<std::string> events;
  auto subscription = Listen(c, events);
  ASSERT_TRUE(subscription);
  const json before = Json(Call("GET", g + "/play", c.axis));
  const std::string head = Head(c);
  const auto pending = *query::StepsInPlay(Log(c));

  r = Call("POST", g + "/preview", c.axis, attack);
  ASSERT_EQ(r.status, 200) << r.body;
  const json odds = Json(r);
  EXPECT_EQ(odds["hex"], "16A:1122");
  EXPECT_EQ(odds["attackers"], json({"de-18a", "de-9pz"}));
  EXPECT_EQ(odds["rule"], "B7.2");
  EXPECT_GT(odds["attack"].get<int>(), 0);
  EXPECT_NE(odds["text"].get<std::string>().find(" to " + odds["odds"].get<std::string>()),
            std::string::npos)
      << odds.dump();
  EXPECT_EQ(odds["floods"], json({"flood"}));  // the owner may flood it first (41.A.4)
  const json after = Json(Call("GET", g + "/play", c.axis));
  EXPECT_EQ(after["state_hash"], before["state_hash"]);
  EXPECT_EQ(after["rolls"].size(), before["rolls"].size());
  EXPECT_EQ(Head(c), head);
  EXPECT_EQ(*query::StepsInPlay(Log(c)), pending);
  EXPECT_TRUE(events.empty());

  r = Call("POST", g + "/preview", c.allied, attack);
  EXPECT_EQ(r.status, 422) << r.body;
  EXPECT_EQ(Json(r)["error"]["rule"], "B1.3");
  EXPECT_EQ(Call("POST", g + "/preview", c.spectator, attack).status, 403);
  r = Call("POST", g + "/preview", c.axis, end);
  EXPECT_EQ(r.status, 400) << r.body;  // the odds are an attack's
  r = Call("POST", g + "/preview", c.axis,
           R"({"step": {"attack": "16A:1122", "units": ["de-22la"]}})");
  EXPECT_EQ(r.status, 422) << r.body;  // not next to it (B7.1)
  EXPECT_EQ(Call("GET", g + "/preview", c.axis).status, 405);

  // Declared and not flooded, it is fought at the odds weighed.
  ASSERT_EQ(Call("POST", g + "/step", c.axis, attack).status, 200);
  r = Call("POST", g + "/step", c.allied, R"({"step": {"flood": false}})");
  ASSERT_EQ(r.status, 200) << r.body;
  const json rolls = Json(r)["step"]["rolls"];
  ASSERT_FALSE(rolls.empty()) << r.body;
  EXPECT_EQ(rolls.back()["against"], odds["text"]);
}

// B4.10: mid-turn, the reach asked of the position in play starts where the stack stands now,
// and a unit that moved in the phase in play moves no more; before the player-turn is begun it is
// the logged position's.
TEST_F(ApiTest, TheReachInPlayIsOfThePositionInPlay) {
  const Created c = Create();
  const std::string g = "/api/games/" + c.id;
  const std::string ask_18a = R"({"units": ["de-18a"], "in_play": true})";
  Response r = Call("POST", g + "/reach", c.allied, ask_18a);
  ASSERT_EQ(r.status, 200) << r.body;  // not begun: the logged position
  EXPECT_EQ(Json(r)["from"], "16A:1322");
  EXPECT_EQ(Json(r), Json(Call("POST", g + "/reach", c.allied, R"({"units": ["de-18a"]})")));
  for (const std::string& step :
       {std::string(R"({"step": {"end-phase": true}})"),
        std::string(R"({"step": {"units": ["de-9pz"], "path": ["16A:1323", "16A:1324"]}})")}) {
    ASSERT_EQ(Call("POST", g + "/step", c.axis, step).status, 200) << step;
  }
  r = Call("POST", g + "/reach", c.spectator, ask_18a);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json(r)["phase"], "movement");
  r = Call("POST", g + "/reach", c.spectator, R"({"units": ["de-9pz"], "in_play": true})");
  EXPECT_EQ(r.status, 422) << r.body;
  EXPECT_EQ(Json(r)["error"]["rule"], "B4.10");
  // The logged position still has it at its start, with its whole allowance.
  r = Call("POST", g + "/reach", c.spectator, R"({"units": ["de-9pz"]})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Json(r)["from"], "16A:1323");
  r = Call("POST", g + "/reach", c.spectator, R"({"units": ["de-9pz"], "in_play": true, "at": 0})");
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(
      Call("POST", g + "/reach", c.spectator, R"({"units": ["de-9pz"], "in_play": 1})").status,
      400);
}

// Issue 22: a server killed while it created a game left `ID.secrets` with no log, or a log's
// `ID.sqlite.partial-PID` files. At its start the server sweeps what dead processes left, and
// keeps every whole game and what a live process is still writing.
TEST_F(ApiTest, AtStartTheServerSweepsWhatADeadCreationLeftAndKeepsTheRest) {
  const Created whole = Create();
  const std::string games = dir_.Path("games");
  const auto files = [&games] {
    std::set<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(games)) {
      names.insert(e.path().filename().string());
    }
    return names;
  };
  const std::set<std::string> before = files();
  const pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  ASSERT_EQ(waitpid(child, nullptr, 0), child);
  const std::string dead = std::to_string(child), live = std::to_string(getppid());
  const std::string orphan = "aaaaaaaaaaaaaaaaaaaa", killed = "bbbbbbbbbbbbbbbbbbbb",
                    making = "cccccccccccccccccccc";
  for (const std::string& name :
       {orphan + ".secrets", killed + ".secrets", killed + ".sqlite.partial-" + dead,
        killed + ".sqlite.partial-" + dead + "-journal", making + ".secrets",
        making + ".sqlite.partial-" + live, whole.id + ".sqlite.partial-" + dead}) {
    test::WriteFile(games + "/" + name, "x");
  }
  Open({});
  std::set<std::string> kept = before;
  kept.insert({making + ".secrets", making + ".sqlite.partial-" + live});
  EXPECT_EQ(files(), kept);
  EXPECT_EQ(Call("GET", "/api/games/" + whole.id, whole.axis).status, 200);
}

// The list reads each log's header rows, not its position: what it shows of a game is what
// the game's status says, at the start, after an odd and an even count of player-turns, and
// with a hosted player-turn pending.
TEST_F(ApiTest, TheListShowsWhatEachGamesStatusSays) {
  std::filesystem::create_directories(dir_.Path("games"));
  const std::string log = dir_.Path("games") + "/by-hand.sqlite";
  ASSERT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", log, "--seed", "1940"}).code,
            0);
  const Created c = Create();
  const auto same = [&](const std::string& id, const std::string& token) {
    const json status = Json(Call("GET", "/api/games/" + id, token));
    const json list = Json(Call("GET", "/api/games"));
    for (const json& entry : list["games"]) {
      if (entry["id"] != id) continue;
      for (const char* k : {"scenario", "turns_logged", "next", "dice", "hosted"}) {
        EXPECT_EQ(entry[k], status[k]) << id << " " << k;
      }
      EXPECT_EQ(entry["pending"], status.contains("pending") ? status["pending"]["stage"] : json())
          << id;
      return;
    }
    ADD_FAILURE() << id << " is not listed";
  };
  same("by-hand", "");
  same(c.id, c.spectator);
  for (const char* orders : {"01-axis-may-i-1940.json", "02-allied-may-i-1940.json"}) {
    ASSERT_EQ(RunCli({"turn", "--db", log, "--orders", test::BundledOrders(orders)}).code, 0);
    same("by-hand", "");
  }
  EXPECT_EQ(Json(Call("GET", "/api/games/by-hand"))["next"]["game_turn"], 1);
  const auto [orders, reply] = FirstTurn();
  ASSERT_EQ(Call("POST", "/api/games/" + c.id + "/orders", c.axis, orders).status, 202);
  same(c.id, c.spectator);
  ASSERT_EQ(Call("POST", "/api/games/" + c.id + "/reply", c.allied, reply).status, 200);
  same(c.id, c.spectator);
}

// A folder holding the 100,000-hex generated game lists at once, without loading it: the list
// answers while another request is still loading that game (seconds), and it answers again
// from what it read.
TEST_F(ApiTest, AFolderWithTheHundredThousandHexGameListsWithoutLoadingIt) {
  std::filesystem::create_directories(dir_.Path("games"));
  const std::string big = dir_.Path("big.json"), log = dir_.Path("games") + "/big.sqlite";
  ASSERT_EQ(
      RunCli({"generate", "--hexes", "100000", "--units", "2000", "--seed", "1", "--out", big})
          .code,
      0);
  ASSERT_EQ(RunCli({"new", "--scenario", big, "--db", log, "--seed", "1"}).code, 0);
  std::atomic<bool> loaded = false;
  std::thread reader([&] {
    EXPECT_EQ(Call("GET", "/api/games/big/state").status, 200);
    loaded = true;
  });
  // Time for the reader to take the game's loader (its load takes about 0.3 s, the list 20 ms):
  // a list that loaded the game would wait for it.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const Response list = Call("GET", "/api/games");
  EXPECT_FALSE(loaded) << "the list waited for the game's load";
  reader.join();
  ASSERT_EQ(list.status, 200) << list.body;
  const json entry = Json(list)["games"][0];
  EXPECT_EQ(entry["id"], "big");
  EXPECT_EQ(entry["turns_logged"], 0);
  EXPECT_EQ(entry["next"], Json(Call("GET", "/api/games/big"))["next"]);
  EXPECT_EQ(Json(Call("GET", "/api/games")), Json(list));
}

// Found by api_fuzz: an error echoes the request's path, id or hex, and bytes that are not
// UTF-8 there made the answer's JSON throw (a 500); they are sent as U+FFFD.
TEST_F(ApiTest, BytesThatAreNotUtf8InAPathAreAnsweredNotThrown) {
  const Created c = Create();
  for (const std::string& path :
       {std::string("/api/games/\x89/state"), std::string("/api/\xff\xfe"),
        "/api/games/" + c.id + "/hex/16A:08\xc3"}) {
    const Response r = Call("GET", path, c.axis);
    EXPECT_GE(r.status, 400) << r.body;
    EXPECT_LT(r.status, 500) << r.body;
    EXPECT_TRUE(json::accept(r.body)) << r.body;
  }
  EXPECT_EQ(Json(Call("GET", "/api/games/\x89/state"))["error"]["where"], "\xef\xbf\xbd");
}

// Found by api_fuzz: orders of a newer format version than this server reads were a 500 (the
// CLI's exit 8 had no status); they are the client's to fix, a 400 named "unsupported".
TEST_F(ApiTest, OrdersOfANewerFormatVersionAreABadRequest) {
  const Created c = Create();
  json orders = json::parse(FirstTurn().first);
  orders["version"] = 2;
  const std::string head = Head(c);
  for (const auto& [path, body] :
       {std::pair{"/orders", orders}, std::pair{"/check", json{{"orders", orders}}},
        std::pair{"/odds", json{{"orders", orders}, {"runs", 1}}}}) {
    const Response r = Call("POST", "/api/games/" + c.id + path, c.axis, body.dump());
    EXPECT_EQ(r.status, 400) << path << " " << r.body;
    EXPECT_EQ(Json(r)["error"]["code"], "unsupported") << path;
  }
  EXPECT_EQ(Head(c), head);
}

// No answer names the server's folders: a game is its id (its status and log said "db": the
// log's absolute path), a file its name, also in errors and in the games list.
TEST_F(ApiTest, NoAnswerNamesTheServersFolders) {
  const Created c = Create();
  const std::string games = dir_.Path("games");
  const std::string g = "/api/games/" + c.id;
  for (const std::string& path : {g, g + "/log", std::string("/api/games")}) {
    const Response r = Call("GET", path, c.spectator);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_FALSE(Json(r).contains("db")) << path;
    EXPECT_EQ(r.body.find(games), std::string::npos) << path << ": " << r.body;
  }
  const Response at = Call("GET", g, c.spectator, "", {{"at", "0"}});
  ASSERT_EQ(at.status, 200) << at.body;
  EXPECT_FALSE(Json(at).contains("db"));
  // A log that does not read: its error names the file, not the folder.
  { std::ofstream(games + "/broken.sqlite") << "not a turn log"; }
  const Response broken = Call("GET", "/api/games/broken");
  EXPECT_GE(broken.status, 400) << broken.body;
  EXPECT_EQ(broken.body.find(games), std::string::npos) << broken.body;
  EXPECT_NE(broken.body.find("broken.sqlite"), std::string::npos) << broken.body;
  const Response list = Call("GET", "/api/games");
  ASSERT_EQ(list.status, 200);
  EXPECT_EQ(list.body.find(games), std::string::npos) << list.body;
  EXPECT_NE(list.body.find("broken.sqlite"), std::string::npos) << list.body;
}

// Anyone could create games without bound (300 creates: 242 MB, never freed). An address may
// create create_quota games an hour (then 429 with the seconds to wait), and the folder holds
// at most max_games (then 503), whoever asks.
TEST_F(ApiTest, CreatesAreBoundedPerAddressAndInAll) {
  ApiOptions options;
  options.create_quota = 2;
  options.max_games = 3;
  Open(options);
  const std::string body = R"({"scenario": "special-terrain"})";
  EXPECT_EQ(Call("POST", "/api/games", "", body, {}, "10.0.0.1").status, 201);
  EXPECT_EQ(Call("POST", "/api/games", "", body, {}, "10.0.0.1").status, 201);
  const Response over = Call("POST", "/api/games", "", body, {}, "10.0.0.1");
  EXPECT_EQ(over.status, 429) << over.body;
  EXPECT_EQ(Json(over)["error"]["code"], "rate-limited");
  EXPECT_GT(over.retry_after, 3500);
  EXPECT_LE(over.retry_after, 3600);
  const Response other = Call("POST", "/api/games", "", body, {}, "10.0.0.2");
  ASSERT_EQ(other.status, 201) << other.body;
  const Response full = Call("POST", "/api/games", "", body, {}, "10.0.0.3");
  EXPECT_EQ(full.status, 503) << full.body;
  EXPECT_EQ(Json(full)["error"]["code"], "full");
  EXPECT_EQ(Json(Call("GET", "/api/games"))["games"].size(), 3u);
  // Room made by the operator is room again.
  std::filesystem::remove(dir_.Path("games") + "/" + Json(other)["game"].get<std::string>() +
                          ".sqlite");
  EXPECT_EQ(Call("POST", "/api/games", "", body, {}, "10.0.0.3").status, 201);
}

// Bytes the heap holds now (the main arena and mmapped blocks: the test calls the API on its
// own thread).
// The bytes the program holds on the heap: malloc's count, or under AddressSanitizer (whose heap
// malloc's statistics do not see) its allocator's.
std::size_t HeapBytes() {
#if defined(OPSIM_SANITIZED)
  return __sanitizer_get_current_allocated_bytes();
#else
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
#endif
}

// The warm games were never dropped: each game asked for stayed loaded (about 0.8 MB each for
// the bundled one). With cache_bytes the least recently used go, and come back when asked for.
TEST_F(ApiTest, TheWarmGamesStayWithinTheCachesBytes) {
  const auto grown = [&](std::size_t cache_bytes) {
    ApiOptions options;
    options.cache_bytes = cache_bytes;
    options.create_quota = 0;
    // The process keeps the rules of the last 8 scenarios and seeds built (db/src/game_log.cpp,
    // RulesCache), shared by the games that use them. Earlier tests in this process may have left
    // other scenarios' there, which the creations below would push out and free, hiding the
    // growth measured. Games of this scenario fill it first, in a server then closed: each
    // creation below then pushes out rules as big as those it keeps.
    Open(options);
    for (int i = 0; i < 10; ++i) (void)Create();
    Open(options);
    malloc_trim(0);
    const std::size_t before = HeapBytes();
    std::vector<Created> games;
    for (int i = 0; i < 12; ++i) {
      games.push_back(Create());
      EXPECT_EQ(Call("GET", "/api/games/" + games.back().id + "/state", games.back().axis, "",
                     {{"supply", "axis"}})
                    .status,
                200);
    }
    const std::size_t after = HeapBytes();
    // The first game, dropped long ago, answers again.
    const Response again =
        Call("GET", "/api/games/" + games.front().id + "/state", games.front().axis);
    EXPECT_EQ(again.status, 200) << again.body;
    return after > before ? after - before : 0;
  };
  const std::size_t unbounded = grown(0);
  const std::size_t bounded = grown(1u << 20);  // room for about one game
  // Each warm game holds its own state and warm caches, about 200 KiB.
  EXPECT_GT(unbounded, 2u << 20) << "the measure no longer sees the warm games; bounded: "
                                 << bounded;
  EXPECT_LT(bounded * 2, unbounded) << "bounded: " << bounded;
}

// `?supply=axis` a thousand times was a thousand supply traces (8 s on a 20,000-hex game), and
// each distinct list a cache entry of its own: the sides are a set.
TEST_F(ApiTest, ASideNamedManyTimesIsTracedOnce) {
  const Created c = Create();
  const std::string g = "/api/games/" + c.id + "/state";
  const auto timed = [&](std::vector<std::pair<std::string, std::string>> query) {
    query.emplace_back("at", "0");  // not from the cache: each request makes its answer
    const auto start = std::chrono::steady_clock::now();
    const Response r = Call("GET", g, c.axis, "", query);
    EXPECT_EQ(r.status, 200) << r.body;
    return std::pair{r.body, std::chrono::steady_clock::now() - start};
  };
  const auto [once, once_took] = timed({{"supply", "axis"}, {"supply", "allied"}});
  std::vector<std::pair<std::string, std::string>> many;
  for (int i = 0; i < 1000; ++i) many.emplace_back("supply", i % 2 ? "axis" : "allied");
  const auto [repeated, repeated_took] = timed(many);
  EXPECT_EQ(json::parse(repeated), json::parse(once));
  EXPECT_LT(repeated_took, 3 * once_took + std::chrono::milliseconds(100))
      << "once: " << std::chrono::duration<double>(once_took).count() << " s";
  // The latest position's cache has one answer for both lists.
  EXPECT_EQ(Call("GET", g, c.axis, "", {{"supply", "allied"}, {"supply", "axis"}}).body,
            Call("GET", g, c.axis, "", many).body);
}

// log?phases=true replays the player-turns asked (0.23 s a request on a 200-turn log), and was
// made anew each time: it is kept until the log changes.
TEST_F(ApiTest, TheLogByPhaseIsMadeOncePerStateOfTheLog) {
  std::filesystem::create_directories(dir_.Path("games"));
  const std::string log = dir_.Path("games") + "/by-hand.sqlite";
  ASSERT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", log, "--seed", "1940"}).code,
            0);
  ASSERT_EQ(
      RunCli({"turn", "--db", log, "--orders", test::BundledOrders("01-axis-may-i-1940.json")})
          .code,
      0);
  const std::string g = "/api/games/by-hand/log";
  const auto timed = [&] {
    const auto start = std::chrono::steady_clock::now();
    const Response r = Call("GET", g, "", "", {{"phases", "true"}});
    EXPECT_EQ(r.status, 200) << r.body;
    return std::pair{Json(r), std::chrono::steady_clock::now() - start};
  };
  const auto [first, first_took] = timed();
  std::chrono::steady_clock::duration again_took{};
  for (int i = 0; i < 5; ++i) {
    const auto [again, took] = timed();
    EXPECT_EQ(again, first);
    again_took += took;
  }
  EXPECT_LT(again_took, first_took)
      << "the first: " << std::chrono::duration<double>(first_took).count() << " s";
  // A player-turn logged since is in the next answer.
  ASSERT_EQ(
      RunCli({"turn", "--db", log, "--orders", test::BundledOrders("02-allied-may-i-1940.json")})
          .code,
      0);
  const auto [after, after_took] = timed();
  EXPECT_EQ(after["turns_logged"], 2);
  EXPECT_EQ(after["turns"].size(), 2u);
}

}  // namespace
}  // namespace opsim::server
