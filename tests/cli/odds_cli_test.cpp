// `opsim odds` in-process: reproducible for a seed, the same counts on any threads and any
// shards merged, mismatched shards refused, bad options exit 2, a refused run exits 3.
#include <gtest/gtest.h>

#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;
using test::RunCli;

// The bundled first player-turn: moves, an air drop, and an attack the Dutch answer with a
// flooding attempt (41.A.4).
std::vector<std::string> Odds(std::vector<std::string> more) {
  std::vector<std::string> args = {"odds", "--scenario", "special-terrain", "--orders",
                                   test::BundledOrders("01-axis-may-i-1940.json")};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

json Played(std::vector<std::string> args) {
  args.push_back("--json");
  const auto r = RunCli(args);
  EXPECT_EQ(r.code, 0) << r.err;
  return r.json();
}

json Counts(json j) {
  for (const char* key : {"shards", "shards_in", "missing_shards"}) j.erase(key);
  return j;
}

TEST(OddsCli, ASeedGivesTheSameOddsOnAnyThreads) {
  const json one = Played(Odds({"--runs", "60", "--seed", "9", "--threads", "1"}));
  EXPECT_EQ(Played(Odds({"--runs", "60", "--seed", "9", "--threads", "2"})), one);
  EXPECT_EQ(Played(Odds({"--runs", "60", "--seed", "9", "--threads", "1"})), one);
  EXPECT_NE(Played(Odds({"--runs", "60", "--seed", "10", "--threads", "1"})), one);
  EXPECT_EQ(one["opsim"], "odds");
  EXPECT_EQ(one["side"], "axis");
  EXPECT_EQ(one["turn"], "May I 1940");
  EXPECT_EQ(one["played"], 60);
  EXPECT_EQ(one["scripted_dice_ignored"], 0);
  // Bounded counts: each attack comes to one result or is called off in every run, its one
  // flooding attempt is made in every run, and no unit or hex counts more runs than were played.
  ASSERT_EQ(one["attacks"].size(), 1u);
  const json& attack = one["attacks"][0];
  EXPECT_EQ(attack["hex"], "16A:1122");
  std::uint64_t outcomes = attack["called_off"], floods = 0;
  for (const auto& [r, n] : attack["results"].items()) outcomes += n.get<std::uint64_t>();
  for (const auto& [f, n] : attack["floods"].items()) floods += n.get<std::uint64_t>();
  EXPECT_EQ(outcomes, 60u);
  EXPECT_EQ(floods, 60u);
  std::uint64_t runs = 0;
  for (const json& row : one["losses"]["runs"]) {
    runs += row["runs"].get<std::uint64_t>();
    EXPECT_LE(row["units"].get<std::uint64_t>(), one["eliminated"].size());
  }
  EXPECT_EQ(runs, 60u);
  for (const json& u : one["eliminated"]) EXPECT_LE(u["runs"].get<std::uint64_t>(), 60u);
  for (const json& h : one["gained"]) EXPECT_LE(h["runs"].get<std::uint64_t>(), 60u);
  runs = 0;
  for (const json& row : one["srp_spent"]["runs"]) runs += row["runs"].get<std::uint64_t>();
  EXPECT_EQ(runs, 60u);
}

TEST(OddsCli, TheTextSaysTheOddsOfEachAttackAndFlood) {
  const auto r = RunCli(Odds({"--runs", "30", "--seed", "2", "--threads", "2"}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("30 runs, seed 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attack on 16A:1122 [B7.2]: AE "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("flooding attempt [41.A.4.a]: F* "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("units eliminated: mean "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hexes gained by the axis side:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("SRPs spent: mean "), std::string::npos) << r.out;
}

TEST(OddsCli, ShardsMergedEqualTheWholeRun) {
  test::TempDir dir;
  const json whole = Played(Odds({"--runs", "50", "--seed", "4"}));
  std::vector<std::string> merge = {"odds", "--merge"};
  for (const char* k : {"1", "2", "3"}) {
    const std::string out = dir.Path(std::string("shard-") + k + ".json");
    const json shard = Played(
        Odds({"--runs", "50", "--seed", "4", "--shard", std::string(k) + "/3", "--out", out}));
    EXPECT_EQ(json::parse(test::ReadFile(out)), shard);
    merge.push_back(out);
  }
  // Shard 1 of 3 plays runs 0, 3, ... 48: 17 runs; shards 2 and 3 play 17 and 16.
  EXPECT_EQ(json::parse(test::ReadFile(dir.Path("shard-3.json")))["played"], 16);
  const json merged = Played(merge);
  EXPECT_EQ(merged["shards_in"], json::array({1, 2, 3}));
  EXPECT_EQ(merged["missing_shards"], json::array());
  EXPECT_EQ(Counts(merged), Counts(whole));

  // Two of three: an answer that says what is missing.
  const auto partial =
      RunCli({"odds", "--merge", dir.Path("shard-1.json"), dir.Path("shard-3.json")});
  ASSERT_EQ(partial.code, 0) << partial.err;
  EXPECT_NE(partial.out.find("missing: 2"), std::string::npos) << partial.out;
}

TEST(OddsCli, MismatchedShardsAreRefused) {
  test::TempDir dir;
  const std::string a = dir.Path("a.json"), b = dir.Path("b.json"), c = dir.Path("c.json");
  Played(Odds({"--runs", "20", "--seed", "4", "--shard", "1/2", "--out", a}));
  Played(Odds({"--runs", "20", "--seed", "5", "--shard", "2/2", "--out", b}));
  Played(Odds({"--runs", "30", "--seed", "4", "--shard", "2/2", "--out", c}));
  const auto seed = RunCli({"odds", "--merge", a, b});
  EXPECT_EQ(seed.code, 2);
  EXPECT_NE(seed.err.find("/seed is 5"), std::string::npos) << seed.err;
  const auto runs = RunCli({"odds", "--merge", a, c});
  EXPECT_EQ(runs.code, 2);
  EXPECT_NE(runs.err.find("/runs is 30"), std::string::npos) << runs.err;
  const auto twice = RunCli({"odds", "--merge", a, a});
  EXPECT_EQ(twice.code, 2);
  EXPECT_NE(twice.err.find("counted twice"), std::string::npos) << twice.err;
  // Other orders: the orders file's hash differs.
  const std::string other = dir.Path("other.json");
  test::WriteFile(other, test::ReadFile(test::BundledOrders("01-axis-may-i-1940.json")) + "\n");
  const std::string d = dir.Path("d.json");
  Played({"odds", "--scenario", "special-terrain", "--orders", other, "--runs", "20", "--seed", "4",
          "--shard", "2/2", "--out", d});
  const auto orders = RunCli({"odds", "--merge", a, d});
  EXPECT_EQ(orders.code, 2);
  EXPECT_NE(orders.err.find("/orders_sha256"), std::string::npos) << orders.err;
  // Not an odds result at all.
  const auto state = RunCli({"odds", "--merge", test::BundledOrders("01-axis-may-i-1940.json")});
  EXPECT_EQ(state.code, 2);
  EXPECT_NE(state.err.find("not an opsim odds result"), std::string::npos) << state.err;
}

TEST(OddsCli, BadOptionsExitTwoAndSayWhy) {
  auto refused = [](std::vector<std::string> args, const std::string& says) {
    const auto r = RunCli(Odds(std::move(args)));
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  };
  refused({"--runs", "0", "--seed", "1"}, "--runs must be from 1 to 100000000, not 0");
  refused({"--runs", "1000000000000", "--seed", "1"}, "--runs must be from 1 to 100000000");
  refused({"--runs", "99999999999999999999999", "--seed", "1"},
          "--runs must be from 1 to 100000000, not 99999999999999999999999");
  refused({"--runs", "-5", "--seed", "1"}, "--runs must be from 1 to 100000000, not -5");
  refused({"--runs", "10", "--seed", "1", "--shard", "3/2"}, "--shard 3/2");
  refused({"--runs", "10", "--seed", "1", "--shard", "two"}, "expected K/N");
  refused({"--runs", "10", "--seed", "1", "--threads", "0"}, "--threads must be from 1");
  refused({"--seed", "1"}, "odds needs --runs N");
  refused({"--runs", "10"}, "odds needs --seed S");
  const auto no_orders = RunCli({"odds", "--scenario", "special-terrain", "--runs", "5"});
  EXPECT_EQ(no_orders.code, 2);
  EXPECT_NE(no_orders.err.find("odds needs --orders FILE"), std::string::npos) << no_orders.err;
}

// A turn log's head, or an earlier turn with --at: orders for another player-turn are bad input.
TEST(OddsCli, AGameFromATurnLog) {
  test::TempDir dir;
  const std::string db = dir.Path("g.sqlite");
  ASSERT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", db, "--seed", "1940"}).code, 0);
  ASSERT_EQ(
      RunCli({"turn", "--db", db, "--orders", test::BundledOrders("01-axis-may-i-1940.json")}).code,
      0);
  const json j =
      Played({"odds", "--db", db, "--orders", test::BundledOrders("02-allied-may-i-1940.json"),
              "--runs", "20", "--seed", "3"});
  EXPECT_EQ(j["side"], "allied");
  EXPECT_EQ(j["attacks"][0]["hex"], "19A:2715");
  const auto early =
      RunCli({"odds", "--db", db, "--at", "0", "--orders",
              test::BundledOrders("02-allied-may-i-1940.json"), "--runs", "20", "--seed", "3"});
  EXPECT_EQ(early.code, 2);
  EXPECT_NE(early.err.find("these are allied orders, but the game stands at May I 1940, axis"),
            std::string::npos)
      << early.err;
  EXPECT_EQ(early.err.find("run 0"), std::string::npos) << early.err;
}

// A run the rules refuse refuses the command, as `turn` would (exit 3, the rule); the orders'
// scripted dice are ignored, and the answer says so.
TEST(OddsCli, ARefusedRunExitsThreeAndScriptedDiceAreIgnored) {
  test::TempDir dir;
  test::WriteFile(dir.Path("far.json"), R"({"opsim": "orders", "version": 1, "side": "axis",
  "turn": "May I 1940",
  "movement": [{"units": ["de-9pz"], "path": ["16A:1323", "16A:1223", "16A:1123", "16A:1023",
    "16A:0923", "16A:0823", "16A:0723"]}]})");
  const auto far = RunCli({"odds", "--scenario", "special-terrain", "--orders",
                           dir.Path("far.json"), "--runs", "5", "--seed", "1"});
  EXPECT_EQ(far.code, 3) << far.err;
  EXPECT_NE(far.err.find("run 0"), std::string::npos) << far.err;
  EXPECT_NE(far.err.find("[B4."), std::string::npos) << far.err;

  json orders = json::parse(test::ReadFile(test::BundledOrders("01-axis-may-i-1940.json")));
  orders["dice"] = {1, 1, 1};
  test::WriteFile(dir.Path("scripted.json"), orders.dump());
  json j = Played({"odds", "--scenario", "special-terrain", "--orders", dir.Path("scripted.json"),
                   "--runs", "20", "--seed", "1"});
  EXPECT_EQ(j["scripted_dice_ignored"], 3);
  json without = Played(Odds({"--runs", "20", "--seed", "1"}));
  EXPECT_EQ(without["scripted_dice_ignored"], 0);
  for (json* k : {&without, &j}) {
    k->erase("scripted_dice_ignored");
    k->erase("orders_sha256");
  }
  EXPECT_EQ(j, without);
}

}  // namespace
}  // namespace opsim
