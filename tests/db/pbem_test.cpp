// Fair dice and the PBEM exchange (docs/dice.md, docs/pbem.md), through the CLI: two players,
// each with his own log and key file, play a fair game trading only files, end with identical
// heads and logs that verify; and each way to cheat is refused or detected.
#include <gtest/gtest.h>

#include <filesystem>

#include "db_test_util.h"
#include "opsim/core/sha256.h"
#include "opsim/db/game_log.h"
#include "opsim/db/turn_log.h"
#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;
using test::RunCli;
using test::SqlValue;

// Two players on one machine: the axis player starts, the allied player joins.
class PbemTest : public ::testing::Test {
 protected:
  void SetUp() override {
    axis_ = dir_.Path("axis.sqlite");
    allied_ = dir_.Path("allied.sqlite");
    ASSERT_NO_FATAL_FAILURE(Ok({"pbem", "start", "--scenario", "special-terrain", "--side", "axis",
                                "--db", axis_, "--out", dir_.Path("invitation.json")}));
    ASSERT_NO_FATAL_FAILURE(Ok({"pbem", "join", "--invitation", dir_.Path("invitation.json"),
                                "--db", allied_, "--out", dir_.Path("acceptance.json")}));
    ASSERT_NO_FATAL_FAILURE(Ok({"pbem", "accept", "--invitation", dir_.Path("invitation.json"),
                                "--acceptance", dir_.Path("acceptance.json"), "--db", axis_}));
  }

  static json Ok(const std::vector<std::string>& args) {
    std::vector<std::string> with_json = args;
    with_json.push_back("--json");
    const auto r = RunCli(with_json);
    EXPECT_EQ(r.code, 0) << args[1] << ": " << r.err;
    return r.code == 0 ? r.json() : json();
  }

  // An orders file for the mover: a bundled one without the defender's reactions (his reply),
  // or a quiet one; and the reactions as a reply file.
  std::string MoverOrders(const std::string& bundled, const std::string& name) {
    json o = json::parse(test::ReadFile(test::BundledOrders(bundled)));
    o.erase("reactions");
    const std::string path = dir_.Path(name);
    test::WriteFile(path, o.dump(2));
    return path;
  }
  std::string ReplyOf(const std::string& bundled, const std::string& name) {
    const json o = json::parse(test::ReadFile(test::BundledOrders(bundled)));
    const std::string path = dir_.Path(name);
    test::WriteFile(path, json{{"reactions", o.value("reactions", json::array())}}.dump(2));
    return path;
  }
  std::string Orders(const json& o, const std::string& name) {
    const std::string path = dir_.Path(name);
    test::WriteFile(path, o.dump(2));
    return path;
  }

  // One player-turn between the two logs; returns the result file's JSON.
  json PlayerTurn(const std::string& mover, const std::string& defender, const std::string& orders,
                  const std::string& reply, int n) {
    const std::string turn = dir_.Path("turn" + std::to_string(n) + ".json");
    const std::string answer = dir_.Path("reply" + std::to_string(n) + ".json");
    const std::string result = dir_.Path("result" + std::to_string(n) + ".json");
    Ok({"pbem", "move", "--db", mover, "--orders", orders, "--out", turn});
    std::vector<std::string> r = {"pbem",   "reply", "--db",  defender,
                                  "--turn", turn,    "--out", answer};
    if (!reply.empty()) r.insert(r.end(), {"--reply", reply});
    Ok(r);
    const json resolved =
        Ok({"pbem", "resolve", "--db", mover, "--reply", answer, "--out", result});
    const json applied = Ok({"pbem", "apply", "--db", defender, "--result", result});
    EXPECT_EQ(resolved["head"], applied["head"]) << "player-turn " << n;
    return json::parse(test::ReadFile(result));
  }

  std::string Head(const std::string& db) {
    return SqlValue(db, "SELECT value FROM meta WHERE key = 'head_hash'");
  }

  test::TempDir dir_;
  std::string axis_, allied_;
};

TEST_F(PbemTest, AFairGameBetweenTwoLogsEndsWithTheSameHeadAndVerifiesOnBoth) {
  EXPECT_EQ(Head(axis_), Head(allied_));
  const json status = Ok({"status", "--db", axis_});
  EXPECT_EQ(status["dice"], "fair");
  EXPECT_EQ(SqlValue(axis_, "PRAGMA user_version"), "3");

  // Each side moves twice and defends twice; the axis attack meets the allied flood reply.
  PlayerTurn(axis_, allied_, MoverOrders("01-axis-may-i-1940.json", "o1.json"),
             ReplyOf("01-axis-may-i-1940.json", "r1.json"), 1);
  PlayerTurn(allied_, axis_, MoverOrders("02-allied-may-i-1940.json", "o2.json"), "", 2);
  PlayerTurn(
      axis_, allied_,
      Orders({{"opsim", "orders"},
              {"version", 1},
              {"side", "axis"},
              {"turn", "May II 1940"},
              {"movement",
               {{{"rail", {"de-61"}},
                 {"path", {"9A:0610", "9A:0611", "9A:0612", "9A:0613", "9A:0514", "9A:0414"}}}}}},
             "o3.json"),
      "", 3);
  PlayerTurn(
      allied_, axis_,
      Orders({{"opsim", "orders"},
              {"version", 1},
              {"side", "allied"},
              {"turn", "May II 1940"},
              {"movement",
               {{{"naval", {"su-azov"}},
                 {"path",
                  {"4A:2621", "4A:2522/2622", "4A:2622/2523", "4A:2623", "4A:2724", "4A:2824"}}}}}},
             "o4.json"),
      ReplyOf("02-allied-may-i-1940.json", "r4.json"), 4);
  ASSERT_FALSE(HasFailure());

  EXPECT_EQ(Head(axis_), Head(allied_));
  for (const std::string& db : {axis_, allied_}) {
    const json v = Ok({"replay", "--db", db, "--verify"});
    EXPECT_EQ(v["turns"], 4);
    EXPECT_EQ(v["chain"]["head"], Head(axis_));
    EXPECT_FALSE(Ok({"status", "--db", db}).contains("pending"));
  }
  // The logged dice are fair ones: none scripted, and the seeded state never moved.
  EXPECT_EQ(SqlValue(axis_, "SELECT count(*) FROM roll WHERE scripted = 1"), "0");
  EXPECT_NE(SqlValue(axis_, "SELECT count(*) FROM roll"), "0");
  EXPECT_EQ(SqlValue(axis_,
                     "SELECT count(*) FROM turn WHERE length(axis_key) = 64 AND "
                     "length(allied_key) = 64"),
            "4");
  // The flood reply is the allied player's, logged with the axis orders.
  EXPECT_NE(SqlValue(axis_, "SELECT orders FROM turn WHERE number = 1").find("reactions"),
            std::string::npos);
  // No secret is in a log or an exchange file.
  const std::string secret = json::parse(test::ReadFile(axis_ + ".key"))["secret"];
  for (const auto& e : std::filesystem::directory_iterator(dir_.dir())) {
    if (e.path().extension() == ".key") {
      EXPECT_EQ(std::filesystem::status(e.path()).permissions() & std::filesystem::perms::all,
                std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
      continue;
    }
    EXPECT_EQ(test::ReadFile(e.path().string()).find(secret), std::string::npos) << e.path();
  }
  // A fair game is not played with `opsim turn`.
  const auto turn = RunCli({"turn", "--db", axis_, "--orders", dir_.Path("o1.json")});
  EXPECT_EQ(turn.code, 2);
}

// B7.5, 41.A.4: the defender's reply holds his floods and his retreat preferences, in the
// orders file's syntax; they are logged with the mover's orders and both logs agree. A
// preference for a hex where the defender has no unit (the mover's stack) is refused.
TEST_F(PbemTest, AReplyGivesRetreatPreferencesForTheDefendersOwnStacksOnly) {
  const std::string orders = MoverOrders("01-axis-may-i-1940.json", "o1.json");
  const std::string turn = dir_.Path("turn1.json");
  Ok({"pbem", "move", "--db", axis_, "--orders", orders, "--out", turn});

  const std::string theirs =
      Orders({{"reactions", {{{"flood", "16A:1122"}}}},
              {"retreats", {{{"hex", "16A:1322"}, {"prefer", {"16A:1422"}}}}}},
             "r-theirs.json");
  const auto refused = RunCli({"pbem", "reply", "--db", allied_, "--turn", turn, "--reply", theirs,
                               "--out", dir_.Path("reply1.json")});
  EXPECT_EQ(refused.code, 2) << refused.err;
  EXPECT_NE(refused.err.find("16A:1322, where the allied player has no unit"), std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("B7.5"), std::string::npos) << refused.err;
  EXPECT_FALSE(std::filesystem::exists(dir_.Path("reply1.json")));

  const std::string mine = Orders({{"reactions", {{{"flood", "16A:1122"}}}},
                                   {"retreats", {{{"hex", "16A:1122"}, {"prefer", {"16A:1022"}}}}}},
                                  "r-mine.json");
  Ok({"pbem", "reply", "--db", allied_, "--turn", turn, "--reply", mine, "--out",
      dir_.Path("reply1.json")});
  const json resolved = Ok({"pbem", "resolve", "--db", axis_, "--reply", dir_.Path("reply1.json"),
                            "--out", dir_.Path("result1.json")});
  const json applied =
      Ok({"pbem", "apply", "--db", allied_, "--result", dir_.Path("result1.json")});
  EXPECT_EQ(resolved["head"], applied["head"]);
  EXPECT_EQ(Head(axis_), Head(allied_));
  const std::string logged = SqlValue(axis_, "SELECT orders FROM turn WHERE number = 1");
  EXPECT_NE(logged.find("\"retreats\""), std::string::npos) << logged;
  EXPECT_NE(logged.find("16A:1022"), std::string::npos) << logged;
  for (const std::string& db : {axis_, allied_}) {
    EXPECT_EQ(Ok({"replay", "--db", db, "--verify"})["turns"], 1);
  }
}

// The pending player-turn lives outside the hash chain (meta `pbem_pending`): a value edited to
// the wrong type is refused as corrupt (exit 4) by every step and by status, never thrown on.
TEST_F(PbemTest, APendingPlayerTurnEditedToTheWrongTypesIsRefusedNotThrownOn) {
  Ok({"pbem", "move", "--db", axis_, "--orders", MoverOrders("01-axis-may-i-1940.json", "o1.json"),
      "--out", dir_.Path("turn1.json")});
  for (const std::string bad :
       {R"({"stage":"moved","number":1,"side":"axis","orders":"{}","orders_hash":5})",
        R"({"stage":"moved","number":1,"side":7,"orders":"{}","orders_hash":"x"})",
        R"({"stage":"replied","number":1,"side":"axis","orders":"{}","orders_hash":"x",)"
        R"("reply":"[1e400","reply_hash":"y"})"}) {
    ASSERT_EQ(test::Sql(axis_, "UPDATE meta SET value = '" + bad + "' WHERE key = 'pbem_pending'"),
              "");
    const auto status = RunCli({"status", "--db", axis_});
    EXPECT_EQ(status.code, 4) << bad << ": " << status.err;
    const auto move = RunCli({"pbem", "move", "--db", axis_, "--orders", dir_.Path("o1.json"),
                              "--out", dir_.Path("again.json")});
    EXPECT_EQ(move.code, 4) << bad << ": " << move.err;
    EXPECT_NE(move.err.find("the pending player-turn does not read"), std::string::npos)
        << move.err;
  }
}

// The steps had no --force: a file of another kind at --out could only be removed by hand. Now
// each step refuses it (exit 2, left alone) unless --force, as every --out does; a link is never
// replaced, even with --force (docs/output-files.md).
TEST_F(PbemTest, AStepReplacesAFileOfAnotherKindOnlyWithForceAndNeverALink) {
  const std::string orders = MoverOrders("01-axis-may-i-1940.json", "o1.json");
  const std::string notes = dir_.Path("notes.txt");
  test::WriteFile(notes, "my notes\n");
  const std::vector<std::string> move = {"pbem",     "move", "--db", axis_,
                                         "--orders", orders, "--out"};
  auto with = [&](const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> args = move;
    args.push_back(out);
    args.insert(args.end(), extra.begin(), extra.end());
    return RunCli(args);
  };
  const auto refused = with(notes, {});
  EXPECT_EQ(refused.code, 2) << refused.err;
  EXPECT_NE(refused.err.find("--force"), std::string::npos) << refused.err;
  EXPECT_EQ(test::ReadFile(notes), "my notes\n");

  const std::string link = dir_.Path("link.json");
  std::filesystem::create_symlink(notes, link);
  EXPECT_EQ(with(link, {"--force"}).code, 2);
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_EQ(test::ReadFile(notes), "my notes\n");

  const auto forced = with(notes, {"--force"});
  ASSERT_EQ(forced.code, 0) << forced.err;
  EXPECT_EQ(json::parse(test::ReadFile(notes))["opsim"], "pbem-turn");
  // Every step that writes a file offers it.
  for (const char* step : {"start", "join", "move", "reply", "resolve"}) {
    EXPECT_NE(RunCli({"pbem", step, "--help"}).out.find("--force"), std::string::npos) << step;
  }
}

TEST_F(PbemTest, AWaitingPlayerTurnShowsInStatusAndAKeyFileIsNeverOverwritten) {
  Ok({"pbem", "move", "--db", axis_, "--orders", MoverOrders("01-axis-may-i-1940.json", "o.json"),
      "--out", dir_.Path("turn.json")});
  const auto status = RunCli({"status", "--db", axis_});
  ASSERT_EQ(status.code, 0) << status.err;
  EXPECT_NE(status.out.find("dice: fair"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("awaiting the defender's reply"), std::string::npos) << status.out;
  Ok({"pbem", "reply", "--db", allied_, "--turn", dir_.Path("turn.json"), "--out",
      dir_.Path("reply.json")});
  EXPECT_EQ(Ok({"status", "--db", allied_})["pending"]["stage"], "replied");

  const std::string key = test::ReadFile(axis_ + ".key");
  const auto again =
      RunCli({"pbem", "start", "--scenario", "special-terrain", "--side", "axis", "--db",
              dir_.Path("new.sqlite"), "--key", axis_ + ".key", "--out", dir_.Path("inv2.json")});
  EXPECT_EQ(again.code, 2);
  EXPECT_EQ(test::ReadFile(axis_ + ".key"), key);
  // A seeded game says plainly that its dice can be foreseen.
  ASSERT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", dir_.Path("solo.sqlite")}).code,
            0);
  const auto solo = RunCli({"status", "--db", dir_.Path("solo.sqlite")});
  EXPECT_NE(solo.out.find("anyone holding this file can foresee the dice"), std::string::npos);
  EXPECT_EQ(SqlValue(dir_.Path("solo.sqlite"), "PRAGMA user_version"), "2");
}

TEST_F(PbemTest, AMoverWhoTriesTwoOrdersFilesForOnePlayerTurnIsRefusedAndDetected) {
  const std::string first = MoverOrders("01-axis-may-i-1940.json", "o1.json");
  Ok({"pbem", "move", "--db", axis_, "--orders", first, "--out", dir_.Path("turn-a.json")});
  Ok({"pbem", "reply", "--db", allied_, "--turn", dir_.Path("turn-a.json"), "--out",
      dir_.Path("reply-a.json")});
  // The second orders: the same without the attack.
  json o = json::parse(test::ReadFile(first));
  o.erase("combat");
  const std::string second = Orders(o, "o1b.json");
  const auto refused = RunCli(
      {"pbem", "move", "--db", axis_, "--orders", second, "--out", dir_.Path("turn-b.json")});
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.err.find("already sent"), std::string::npos) << refused.err;
  // A mover who clears his own pending orders gets a second turn file out, but the defender,
  // who replied to the first, detects it.
  ASSERT_EQ(test::Sql(axis_, "DELETE FROM meta WHERE key = 'pbem_pending'"), "");
  Ok({"pbem", "move", "--db", axis_, "--orders", second, "--out", dir_.Path("turn-b.json")});
  const auto detected = RunCli({"pbem", "reply", "--db", allied_, "--turn",
                                dir_.Path("turn-b.json"), "--out", dir_.Path("reply-b.json")});
  EXPECT_EQ(detected.code, 4);
  EXPECT_NE(detected.err.find("the mover changed his orders after sending them"), std::string::npos)
      << detected.err;
  // And the reply he has (to the first orders) does not resolve the second ones.
  const auto mismatch = RunCli({"pbem", "resolve", "--db", axis_, "--reply",
                                dir_.Path("reply-a.json"), "--out", dir_.Path("result.json")});
  EXPECT_EQ(mismatch.code, 4);
  EXPECT_NE(mismatch.err.find("the reply answers other orders"), std::string::npos) << mismatch.err;
  EXPECT_FALSE(std::filesystem::exists(dir_.Path("result.json")));
}

TEST_F(PbemTest, ADefenderWhoChangesHisReplyAfterSeeingTheMoversKeyIsDetected) {
  Ok({"pbem", "move", "--db", axis_, "--orders", MoverOrders("01-axis-may-i-1940.json", "o.json"),
      "--out", dir_.Path("turn.json")});
  Ok({"pbem", "reply", "--db", allied_, "--turn", dir_.Path("turn.json"), "--reply",
      ReplyOf("01-axis-may-i-1940.json", "r.json"), "--out", dir_.Path("reply.json")});
  Ok({"pbem", "resolve", "--db", axis_, "--reply", dir_.Path("reply.json"), "--out",
      dir_.Path("result.json")});
  // The result carries the mover's key: the dice are known now. A second reply is refused...
  test::WriteFile(dir_.Path("none.json"), R"({"reactions": []})");
  const auto second = RunCli({"pbem", "reply", "--db", allied_, "--turn", dir_.Path("turn.json"),
                              "--reply", dir_.Path("none.json"), "--out", dir_.Path("r2.json")});
  EXPECT_EQ(second.code, 2);
  EXPECT_NE(second.err.find("once sent, a reply is fixed"), std::string::npos) << second.err;
  // ... the mover has moved on ...
  const auto late = RunCli({"pbem", "resolve", "--db", axis_, "--reply", dir_.Path("reply.json"),
                            "--out", dir_.Path("result2.json")});
  EXPECT_EQ(late.code, 9);
  // ... and a reply changed in the defender's own log does not match the result.
  json pending =
      json::parse(SqlValue(allied_, "SELECT value FROM meta WHERE key = 'pbem_pending'"));
  pending["reply"] = "{}";
  pending["reply_hash"] = Sha256Hex("{}");
  ASSERT_EQ(test::Sql(allied_, "UPDATE meta SET value = '" + pending.dump() +
                                   "' WHERE key = 'pbem_pending'"),
            "");
  const auto applied =
      RunCli({"pbem", "apply", "--db", allied_, "--result", dir_.Path("result.json")});
  EXPECT_EQ(applied.code, 4);
  EXPECT_NE(applied.err.find("the result is for another reply"), std::string::npos) << applied.err;
  EXPECT_EQ(SqlValue(allied_, "SELECT count(*) FROM turn"), "0");

  // In a log, a reply changed after the reveal fails replay, even with the chain rebuilt.
  const std::string forged = dir_.Path("forged.sqlite");
  {
    auto log = db::TurnLog::Open(axis_, db::TurnLog::Access::kRead);
    ASSERT_TRUE(log);
    auto start = log->ReadSnapshot(0);
    auto turn = log->ReadTurn(1);
    auto snap = log->ReadSnapshot(1);
    ASSERT_TRUE(start && turn && snap);
    json orders = json::parse(turn->orders);
    orders.erase("reactions");
    turn->orders = orders.dump();
    auto out = db::TurnLog::Create(forged, log->game(), *start);
    ASSERT_TRUE(out);
    auto tx = out->Begin();
    ASSERT_TRUE(tx && out->AppendTurn(*turn, *snap) && tx->Commit() && out->Publish());
  }
  const auto replay = RunCli({"replay", "--db", forged, "--verify"});
  EXPECT_EQ(replay.code, 4);
  EXPECT_NE(replay.err.find("the defender's reply does not match its logged hash"),
            std::string::npos)
      << replay.err;
}

TEST_F(PbemTest, AKeyThatDoesNotMatchItsCommitmentIsRefused) {
  Ok({"pbem", "move", "--db", axis_, "--orders", MoverOrders("01-axis-may-i-1940.json", "o.json"),
      "--out", dir_.Path("turn.json")});
  Ok({"pbem", "reply", "--db", allied_, "--turn", dir_.Path("turn.json"), "--out",
      dir_.Path("reply.json")});
  json reply = json::parse(test::ReadFile(dir_.Path("reply.json")));
  std::string key = reply["key"];
  key[0] = key[0] == '0' ? '1' : '0';
  reply["key"] = key;
  test::WriteFile(dir_.Path("bad-key.json"), reply.dump(2));
  const auto r = RunCli({"pbem", "resolve", "--db", axis_, "--reply", dir_.Path("bad-key.json"),
                         "--out", dir_.Path("result.json")});
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.err.find("the allied key for player-turn 1 does not match the allied player's "
                       "commitment"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("bad-key.json"), std::string::npos) << r.err;
  EXPECT_EQ(SqlValue(axis_, "SELECT count(*) FROM turn"), "0");

  // The mover's key, in the result, is checked the same way; so is a logged key on replay.
  Ok({"pbem", "resolve", "--db", axis_, "--reply", dir_.Path("reply.json"), "--out",
      dir_.Path("result.json")});
  json result = json::parse(test::ReadFile(dir_.Path("result.json")));
  std::string mine = result["key"];
  mine[5] = mine[5] == 'a' ? 'b' : 'a';
  result["key"] = mine;
  test::WriteFile(dir_.Path("bad-result.json"), result.dump(2));
  const auto a =
      RunCli({"pbem", "apply", "--db", allied_, "--result", dir_.Path("bad-result.json")});
  EXPECT_EQ(a.code, 4);
  EXPECT_NE(a.err.find("the axis key for player-turn 1 does not match"), std::string::npos)
      << a.err;
  const std::string forged = dir_.Path("forged.sqlite");
  {
    auto log = db::TurnLog::Open(axis_, db::TurnLog::Access::kRead);
    ASSERT_TRUE(log);
    auto start = log->ReadSnapshot(0);
    auto turn = log->ReadTurn(1);
    auto snap = log->ReadSnapshot(1);
    ASSERT_TRUE(start && turn && snap);
    turn->axis_key = mine;
    auto out = db::TurnLog::Create(forged, log->game(), *start);
    ASSERT_TRUE(out);
    auto tx = out->Begin();
    ASSERT_TRUE(tx && out->AppendTurn(*turn, *snap) && tx->Commit() && out->Publish());
  }
  const auto replay = RunCli({"replay", "--db", forged, "--verify"});
  EXPECT_EQ(replay.code, 4);
  EXPECT_NE(replay.err.find("the axis key for player-turn 1 does not match the axis player's "
                            "commitment"),
            std::string::npos)
      << replay.err;
}

// Issue 22: a turn file edited by hand, its orders hash recomputed, was replied to (exit 0): the
// reply fixed, the defender's key revealed, and the genuine file then refused as "a second,
// different turn file". The defender now makes every check the mover's `opsim` makes on the
// orders before he replies: no dice, the player-turn's side and date, no reply keys (exit 2),
// and what the rules refuse before any die (exit 3). Nothing is fixed, no key revealed, and the
// genuine file is then replied to.
TEST_F(PbemTest, AForgedTurnFileIsRefusedBeforeTheDefenderRepliesOrRevealsHisKey) {
  const std::string genuine = dir_.Path("turn1.json");
  Ok({"pbem", "move", "--db", axis_, "--orders", MoverOrders("01-axis-may-i-1940.json", "o1.json"),
      "--out", genuine});
  const auto forge = [&](const std::string& from, const std::string& name, auto edit) {
    json file = json::parse(test::ReadFile(from));
    edit(file["orders"]);
    file["orders_hash"] = Sha256Hex(file["orders"].dump());
    const std::string path = dir_.Path(name);
    test::WriteFile(path, file.dump(2));
    return path;
  };
  const std::string reply = dir_.Path("reply1.json");
  const auto refused = [&](const std::string& turn, int code, const std::string& says) {
    const auto r = RunCli({"pbem", "reply", "--db", allied_, "--turn", turn, "--out", reply});
    EXPECT_EQ(r.code, code) << turn << ": " << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(reply));
    EXPECT_FALSE(Ok({"status", "--db", allied_}).contains("pending")) << turn;
  };
  refused(forge(genuine, "dice.json",
                [](json& o) {
                  o["dice"] = {6, 6, 6};
                }),
          2, "the orders may carry no dice");
  refused(forge(genuine, "date.json", [](json& o) { o["turn"] = "May II 1940"; }), 2,
          "these are axis orders for May II 1940");
  refused(forge(genuine, "reactions.json",
                [](json& o) {
                  o["reactions"] = json::array({{{"flood", "16A:1122"}}});
                }),
          2, "are the defender's reply");

  // The genuine file is replied to, and the player-turn plays on both logs.
  Ok({"pbem", "reply", "--db", allied_, "--turn", genuine, "--out", reply});
  Ok({"pbem", "resolve", "--db", axis_, "--reply", reply, "--out", dir_.Path("result1.json")});
  Ok({"pbem", "apply", "--db", allied_, "--result", dir_.Path("result1.json")});
  ASSERT_EQ(Head(axis_), Head(allied_));

  // Player-turn 2 rolls no weather: its orders are judged up to the first die. A unit moved
  // twice (B4.10) is refused by the mover's `opsim` and, in a forged file, by the defender's.
  const std::string allied_orders = MoverOrders("02-allied-may-i-1940.json", "o2.json");
  const std::string turn2 = dir_.Path("turn2.json");
  Ok({"pbem", "move", "--db", allied_, "--orders", allied_orders, "--out", turn2});
  const auto twice = [](json& o) { o["movement"].push_back(o["movement"].back()); };
  const std::string forged = forge(turn2, "twice.json", twice);
  const auto r = RunCli({"pbem", "reply", "--db", axis_, "--turn", forged, "--out",
                         dir_.Path("reply2.json"), "--json"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(r.json()["error"]["rule"], "B4.10") << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir_.Path("reply2.json")));
  EXPECT_FALSE(Ok({"status", "--db", axis_}).contains("pending"));
  json moved_twice = json::parse(test::ReadFile(allied_orders));
  twice(moved_twice);
  const std::string other = Orders(moved_twice, "o2-twice.json");
  ASSERT_EQ(test::Sql(allied_, "DELETE FROM meta WHERE key = 'pbem_pending'"), "");
  const auto move = RunCli(
      {"pbem", "move", "--db", allied_, "--orders", other, "--out", dir_.Path("turn2b.json")});
  EXPECT_EQ(move.code, 3) << move.err;
  EXPECT_NE(move.err.find("B4.10"), std::string::npos) << move.err;
}

// Issue 22: a reply flooding 16A:0922, which is not attacked, was fixed and its key revealed
// (exit 0); the mover's `resolve` refused it (exit 3, 41.A.4.a) and a new reply was refused
// (exit 2): the player-turn could never resolve. Each flood attempt is now checked against the
// orders it answers before it is fixed (exit 3, nothing written, no key revealed).
TEST_F(PbemTest, AReplyThatCouldNeverResolveIsRefusedBeforeItIsFixed) {
  const std::string turn = dir_.Path("turn1.json");
  Ok({"pbem", "move", "--db", axis_, "--orders", MoverOrders("01-axis-may-i-1940.json", "o1.json"),
      "--out", turn});
  const std::string reply = dir_.Path("reply1.json");
  const auto refused = [&](const json& answer, const std::string& rule, const std::string& says) {
    const std::string path = Orders(answer, "answer.json");
    const auto r =
        RunCli({"pbem", "reply", "--db", allied_, "--turn", turn, "--reply", path, "--out", reply});
    EXPECT_EQ(r.code, 3) << answer.dump() << ": " << r.err;
    EXPECT_NE(r.err.find("[" + rule + "]"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("answer.json"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(reply));
    EXPECT_FALSE(Ok({"status", "--db", allied_}).contains("pending")) << answer.dump();
  };
  refused({{"reactions", {{{"flood", "16A:0922"}}}}}, "41.A.4.a", "16A:0922 is not attacked");
  // Attacked, but the allied player may not massively flood it: the rules' own refusal.
  refused({{"reactions", {{{"massive-flood", "16A:1122"}}}}}, "41.A.4.b",
          "only the Axis player may massively flood");

  const json flood = {{"reactions", {{{"flood", "16A:1122"}}}}};
  Ok({"pbem", "reply", "--db", allied_, "--turn", turn, "--reply", Orders(flood, "flood.json"),
      "--out", reply});
  Ok({"pbem", "resolve", "--db", axis_, "--reply", reply, "--out", dir_.Path("result1.json")});
  Ok({"pbem", "apply", "--db", allied_, "--result", dir_.Path("result1.json")});
  EXPECT_EQ(Head(axis_), Head(allied_));
}

// Issue 22: a result file's final_hash was never checked: one edited there was applied (exit 0).
TEST_F(PbemTest, AResultWhoseFinalHashWasEditedIsRefused) {
  Ok({"pbem", "move", "--db", axis_, "--orders", MoverOrders("01-axis-may-i-1940.json", "o1.json"),
      "--out", dir_.Path("turn1.json")});
  Ok({"pbem", "reply", "--db", allied_, "--turn", dir_.Path("turn1.json"), "--out",
      dir_.Path("reply1.json")});
  Ok({"pbem", "resolve", "--db", axis_, "--reply", dir_.Path("reply1.json"), "--out",
      dir_.Path("result1.json")});
  json result = json::parse(test::ReadFile(dir_.Path("result1.json")));
  std::string final_hash = result["final_hash"];
  final_hash[0] = final_hash[0] == '0' ? '1' : '0';
  result["final_hash"] = final_hash;
  test::WriteFile(dir_.Path("edited.json"), result.dump(2));
  const auto r = RunCli({"pbem", "apply", "--db", allied_, "--result", dir_.Path("edited.json")});
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("final_hash"), std::string::npos) << r.err;
  EXPECT_EQ(SqlValue(allied_, "SELECT count(*) FROM turn"), "0");
  // The file as sent applies.
  Ok({"pbem", "apply", "--db", allied_, "--result", dir_.Path("result1.json")});
  EXPECT_EQ(Head(axis_), Head(allied_));
}

// Issue 22: `pbem move|reply|start --out` replaced the player's own key file (0600) without
// --force, as "another pbem file"; `start --key k --out k` wrote the invitation over the secret it
// had just made. A key file is known by what it holds, and never replaced, even with --force;
// `start` and `join` refuse an --out or --db that is the key file (by path or by inode).
TEST_F(PbemTest, AKeyFileIsNeverReplacedByAnyStepEvenWithForce) {
  const std::string key = axis_ + ".key";
  const std::string secret = test::ReadFile(key);
  const std::string orders = MoverOrders("01-axis-may-i-1940.json", "o1.json");
  for (const bool force : {false, true}) {
    std::vector<std::string> move = {"pbem",     "move", "--db",  axis_,
                                     "--orders", orders, "--out", key};
    if (force) move.push_back("--force");
    const auto r = RunCli(move);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("holds a secret"), std::string::npos) << r.err;
    EXPECT_EQ(test::ReadFile(key), secret);
  }
  // Under another name, and a render over it: known by its content.
  const std::string copy = dir_.Path("my-secret.json");
  std::filesystem::copy_file(key, copy);
  EXPECT_EQ(RunCli({"render", "--scenario", "special-terrain", "--sheet", "16A", "--out", copy,
                    "--force"})
                .code,
            2);
  EXPECT_EQ(test::ReadFile(copy), secret);
  Ok({"pbem", "move", "--db", axis_, "--orders", orders, "--out", dir_.Path("turn1.json")});
  const auto reply = RunCli({"pbem", "reply", "--db", allied_, "--turn", dir_.Path("turn1.json"),
                             "--out", allied_ + ".key", "--force"});
  EXPECT_EQ(reply.code, 2) << reply.err;
  EXPECT_FALSE(Ok({"status", "--db", allied_}).contains("pending"));

  // start: --out the key file to be made, by the same path spelled otherwise, or a hard link.
  const std::string k = dir_.Path("k.json");
  const std::string same = dir_.dir() + "/./k.json";
  for (const auto& [out, key_path] : {std::pair{k, k}, std::pair{same, k}}) {
    const auto r = RunCli({"pbem", "start", "--scenario", "special-terrain", "--side", "axis",
                           "--db", dir_.Path("n.sqlite"), "--key", key_path, "--out", out});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("--out is the key file"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(k));
  }
  const std::string inv = dir_.Path("inv3.json");
  Ok({"pbem", "start", "--scenario", "special-terrain", "--side", "axis", "--db",
      dir_.Path("n.sqlite"), "--key", k, "--out", inv});
  const std::string k_secret = test::ReadFile(k);
  std::filesystem::create_hard_link(k, dir_.Path("k-link.json"));
  const auto joined = RunCli({"pbem", "join", "--invitation", inv, "--db", dir_.Path("j.sqlite"),
                              "--key", dir_.Path("k-link.json"), "--out", k, "--force"});
  EXPECT_EQ(joined.code, 2) << joined.err;
  EXPECT_NE(joined.err.find("--out is the key file"), std::string::npos) << joined.err;
  EXPECT_EQ(test::ReadFile(k), k_secret);
  EXPECT_FALSE(std::filesystem::exists(dir_.Path("j.sqlite")));
}

TEST_F(PbemTest, AReplayedOldTurnFileOrOneForAnotherGameIsRefused) {
  PlayerTurn(axis_, allied_, MoverOrders("01-axis-may-i-1940.json", "o1.json"), "", 1);
  const auto old = RunCli({"pbem", "reply", "--db", allied_, "--turn", dir_.Path("turn1.json"),
                           "--out", dir_.Path("again.json")});
  EXPECT_EQ(old.code, 9);
  EXPECT_NE(old.err.find("an old file: player-turn 1 is already logged"), std::string::npos)
      << old.err;
  const auto old_result =
      RunCli({"pbem", "apply", "--db", allied_, "--result", dir_.Path("result1.json")});
  EXPECT_EQ(old_result.code, 9);

  // A second game between the same players: its turn file does not fit the first game.
  const std::string other = dir_.Path("other-axis.sqlite");
  Ok({"pbem", "start", "--scenario", "special-terrain", "--side", "axis", "--db", other, "--out",
      dir_.Path("inv2.json")});
  Ok({"pbem", "join", "--invitation", dir_.Path("inv2.json"), "--db",
      dir_.Path("other-allied.sqlite"), "--out", dir_.Path("acc2.json")});
  Ok({"pbem", "accept", "--invitation", dir_.Path("inv2.json"), "--acceptance",
      dir_.Path("acc2.json"), "--db", other});
  Ok({"pbem", "move", "--db", other, "--orders", dir_.Path("o1.json"), "--out",
      dir_.Path("turn-other.json")});
  const auto foreign =
      RunCli({"pbem", "reply", "--db", allied_, "--turn", dir_.Path("turn-other.json"), "--out",
              dir_.Path("r.json"), "--json"});
  EXPECT_EQ(foreign.code, 9);
  EXPECT_EQ(foreign.json()["error"]["code"], "wrong-turn");
  EXPECT_NE(foreign.err.find("this file is for game"), std::string::npos) << foreign.err;
  EXPECT_NE(foreign.err.find("turn-other.json"), std::string::npos) << foreign.err;
  // The other game's key does not open this game's log.
  const auto key = RunCli({"pbem", "move", "--db", axis_, "--key", other + ".key", "--orders",
                           dir_.Path("o1.json"), "--out", dir_.Path("x.json")});
  EXPECT_EQ(key.code, 9);
}

// The lake scenario by mail (issue 22; docs/pbem.md): the Axis orders move de-18a onto the frozen
// lake 16A:1421; the defender replies; the mover resolves. When the weather the reply's dice
// rolled thaws the lake, the move is refused inside the played player-turn (an event naming the
// lake) and the game goes on: resolve and apply succeed, and both logs verify with one head.
// Keys are random here, and a thaw is one roll in two: games are played until one thaws (at
// most 14; each game, thawed or not, must go through).
// A log in PostgreSQL has no folder beside it for the key file: `pbem start` without --key is
// refused in words before anything is written (it made a key file named after the URI before),
// and takes the address when the key file is named. Nothing here connects to a store.
TEST(PbemStore, ALogInPostgresqlNeedsItsKeyFileNamed) {
  test::TempDir dir;
  const std::string db = "postgresql://player:sekrit1@/opsim?host=/nonexistent#g1";
  const std::string invitation = dir.Path("invitation.json");
  const auto refused = RunCli({"pbem", "start", "--scenario", "special-terrain", "--side", "axis",
                               "--db", db, "--out", invitation});
  EXPECT_NE(refused.code, 0);
  EXPECT_NE(refused.err.find("name one with --key"), std::string::npos) << refused.err;
  EXPECT_EQ(refused.err.find("sekrit1"), std::string::npos) << refused.err;
  EXPECT_FALSE(std::filesystem::exists(invitation));
  EXPECT_TRUE(std::filesystem::is_empty(dir.Path("")));
  const auto started = RunCli({"pbem", "start", "--scenario", "special-terrain", "--side", "axis",
                               "--db", db, "--key", dir.Path("axis.key"), "--out", invitation});
  EXPECT_EQ(started.code, 0) << started.err;
  EXPECT_TRUE(std::filesystem::exists(invitation));
  EXPECT_TRUE(std::filesystem::exists(dir.Path("axis.key")));
}

TEST(PbemLake, AThawAfterTheOrdersIsARefusalInsideThePlayedTurnAndTheGameGoesOn) {
  int thawed = 0;
  for (int n = 1; n <= 14 && thawed == 0; ++n) {
    SCOPED_TRACE("game " + std::to_string(n));
    test::TempDir dir;
    const std::string scenario = dir.Path("lake.json"), axis = dir.Path("axis.sqlite"),
                      allied = dir.Path("allied.sqlite");
    test::WriteFile(scenario, test::LakeScenario());
    test::WriteFile(
        dir.Path("orders.json"),
        json{{"opsim", "orders"},
             {"version", 1},
             {"side", "axis"},
             {"turn", "Feb I 1940"},
             {"movement", {{{"units", {"de-18a"}}, {"path", {"16A:1322", "16A:1421"}}}}}}
            .dump());
    const std::vector<std::vector<std::string>> steps = {
        {"pbem", "start", "--scenario", scenario, "--side", "axis", "--db", axis, "--out",
         dir.Path("invitation.json")},
        {"pbem", "join", "--invitation", dir.Path("invitation.json"), "--db", allied, "--out",
         dir.Path("acceptance.json")},
        {"pbem", "accept", "--invitation", dir.Path("invitation.json"), "--acceptance",
         dir.Path("acceptance.json"), "--db", axis},
        {"pbem", "move", "--db", axis, "--orders", dir.Path("orders.json"), "--out",
         dir.Path("turn.json")},
        {"pbem", "reply", "--db", allied, "--turn", dir.Path("turn.json"), "--out",
         dir.Path("reply.json")},
        {"pbem", "resolve", "--db", axis, "--reply", dir.Path("reply.json"), "--out",
         dir.Path("result.json")},
        {"pbem", "apply", "--db", allied, "--result", dir.Path("result.json")}};
    for (const std::vector<std::string>& step : steps) {
      const auto r = RunCli(step);
      ASSERT_EQ(r.code, 0) << step[1] << ": " << r.err;
    }
    const auto log = RunCli({"log", "--db", axis, "--turn", "1", "--json"});
    ASSERT_EQ(log.code, 0) << log.err;
    const json turn = log.json()["turns"][0];
    json refusal;
    for (const json& e : turn["events"]) {
      if (e["kind"] == "refused") refusal = e;
    }
    const auto position = RunCli({"position", "--db", axis, "--json"});
    ASSERT_EQ(position.code, 0) << position.err;
    json hex;
    const json drawn = position.json();
    for (const json& u : drawn["units"]) {
      if (u["id"] == "de-18a") hex = u["hex"];
    }
    if (hex == "16A:1322") {
      ++thawed;
      ASSERT_TRUE(refusal.is_object()) << turn.dump();
      EXPECT_NE(refusal["text"].get<std::string>().find("16A:1421"), std::string::npos)
          << refusal.dump();
    } else {
      EXPECT_EQ(hex, "16A:1421");
      EXPECT_TRUE(refusal.is_null()) << refusal.dump();
    }
    EXPECT_EQ(SqlValue(axis, "SELECT value FROM meta WHERE key = 'head_hash'"),
              SqlValue(allied, "SELECT value FROM meta WHERE key = 'head_hash'"));
    for (const std::string& db : {axis, allied}) {
      const auto verify = RunCli({"replay", "--db", db, "--verify"});
      EXPECT_EQ(verify.code, 0) << verify.err;
    }
  }
  EXPECT_EQ(thawed, 1);
}

}  // namespace
}  // namespace opsim
