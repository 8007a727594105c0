// `opsim play` (docs/rules.md B1.3): the bundled first player-turn played step by step from the
// command line, with the defender's flood decision, an undo, refusals, `status` saying whose
// decision the game waits for, and the log verifying at the end.
#include <gtest/gtest.h>

#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;
using test::RunCli;

struct PlayCli : ::testing::Test {
  test::TempDir dir;
  std::string db = dir.Path("game.sqlite");
  void SetUp() override {
    auto made = RunCli({"new", "--scenario", "special-terrain", "--seed", "1940", "--db", db});
    ASSERT_EQ(made.code, 0) << made.err;
  }
  test::CliRun Play(std::vector<std::string> args) {
    args.insert(args.begin(), {"play", "--db", db, "--json"});
    return RunCli(args);
  }
};

TEST_F(PlayCli, APlayerTurnStepByStep) {
  // Where it stands: the Axis initial phase.
  auto where = Play({});
  ASSERT_EQ(where.code, 0) << where.err;
  EXPECT_EQ(where.json()["prompt"]["waiting"], "order");
  EXPECT_EQ(where.json()["prompt"]["side"], "axis");
  EXPECT_EQ(where.json()["prompt"]["phase"], "initial");
  EXPECT_EQ(where.json()["steps"], 0);
  // A move before the movement phase is refused (B1.3), exit 3, and nothing is kept.
  auto early = Play({"--action", R"({"units": ["de-18a"], "path": ["16A:1322", "16A:1222"]})"});
  EXPECT_EQ(early.code, 3);
  EXPECT_NE(early.out.find("B1.3"), std::string::npos) << early.out;
  auto ended = Play({"--end-phase"});
  ASSERT_EQ(ended.code, 0) << ended.err;
  const std::string before_move = ended.json()["state_hash"];
  // A move, seen at once in the answer; taken back; made again.
  auto moved = Play({"--action", R"({"units": ["de-18a"], "path": ["16A:1322", "16A:1222"]})"});
  ASSERT_EQ(moved.code, 0) << moved.err;
  EXPECT_TRUE(moved.json()["can_undo"]);
  EXPECT_FALSE(moved.json()["step"]["events"].empty());
  const std::string after_move = moved.json()["state_hash"];
  auto undone = Play({"--undo"});
  ASSERT_EQ(undone.code, 0) << undone.err;
  EXPECT_EQ(undone.json()["state_hash"], before_move);
  EXPECT_NE(before_move, after_move);
  auto again = Play({"--action", R"({"units": ["de-18a"], "path": ["16A:1322", "16A:1222"]})"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.json()["state_hash"], after_move) << "the same move, the same position";
  ASSERT_EQ(
      Play({"--action", R"({"units": ["de-9pz"], "path": ["16A:1323", "16A:1322", "16A:1221"]})"})
          .code,
      0);
  ASSERT_EQ(Play({"--action", R"({"air-drop": "de-22la", "hex": "16A:0723"})"}).code, 0);
  ASSERT_EQ(Play({"--end-phase"}).code, 0);
  // B7.2: the attack's odds, weighed before it is declared; nothing is taken.
  const std::string in_combat = Play({}).json()["state_hash"];
  auto odds = Play({"--odds", R"({"attack": "16A:1122", "units": ["de-18a", "de-9pz"]})"});
  ASSERT_EQ(odds.code, 0) << odds.err;
  EXPECT_EQ(odds.json()["odds"], "5:1");
  EXPECT_EQ(odds.json()["text"], "18 to 3, column 6:1 shifted -1 (canal-intensive) to 5:1");
  EXPECT_EQ(odds.json()["floods"], json({"flood"}));
  EXPECT_EQ(Play({}).json()["state_hash"], in_combat);
  EXPECT_EQ(Play({}).json()["steps"], 5);
  auto odds_text =
      RunCli({"play", "--db", db, "--odds", R"({"attack": "16A:1122", "units": ["de-18a"]})"});
  EXPECT_EQ(odds_text.code, 0) << odds_text.err;
  EXPECT_NE(odds_text.out.find("would be fought at"), std::string::npos) << odds_text.out;
  auto not_attack = Play({"--odds", R"({"end-phase": true})"});
  EXPECT_EQ(not_attack.code, 2) << not_attack.out;
  auto not_next = Play({"--odds", R"({"attack": "16A:1122", "units": ["de-22la"]})"});
  EXPECT_EQ(not_next.code, 3) << not_next.out;
  EXPECT_EQ(not_next.json()["error"]["rule"], "B7.1") << not_next.out;
  // The attack on a canal-intensive hex waits for the Allied player's flood decision.
  auto attack = Play({"--action", R"({"attack": "16A:1122", "units": ["de-18a", "de-9pz"]})"});
  ASSERT_EQ(attack.code, 0) << attack.err;
  const json prompt = attack.json()["prompt"];
  EXPECT_EQ(prompt["waiting"], "flood");
  EXPECT_EQ(prompt["side"], "allied");
  EXPECT_EQ(prompt["hex"], "16A:1122");
  // status says so.
  auto status = RunCli({"status", "--db", db, "--json"});
  ASSERT_EQ(status.code, 0) << status.err;
  EXPECT_EQ(status.json()["in_play"]["prompt"]["waiting"], "flood");
  EXPECT_EQ(status.json()["in_play"]["prompt"]["side"], "allied");
  auto text = RunCli({"status", "--db", db});
  EXPECT_NE(text.out.find("waiting for the allied player"), std::string::npos) << text.out;
  // The Axis player cannot answer for him.
  auto wrong = Play({"--side", "axis", "--action", R"({"flood": "16A:1122"})"});
  EXPECT_EQ(wrong.code, 3);
  // An orders file is refused while the player-turn is in play.
  auto batch =
      RunCli({"turn", "--db", db, "--orders",
              std::string(OPSIM_SCENARIO_DIR) + "/orders/special-terrain/01-axis-may-i-1940.json"});
  EXPECT_EQ(batch.code, 2) << batch.err;
  auto flood = Play({"--action", R"({"flood": "16A:1122"})"});
  ASSERT_EQ(flood.code, 0) << flood.err;
  EXPECT_FALSE(flood.json()["step"]["rolls"].empty()) << "the flood and the attack roll";
  // Whatever the dice said, answer what the game asks until the phase can end.
  for (int i = 0; i < 6; ++i) {
    const json p = Play({}).json()["prompt"];
    if (p["waiting"] == "order") break;
    if (p["waiting"] == "retreat") {
      ASSERT_EQ(Play({"--action", R"({"prefer": []})"}).code, 0);
    }
    if (p["waiting"] == "advance") {
      ASSERT_EQ(Play({"--action", json{{"advance", p["units"]}}.dump()}).code, 0);
    }
  }
  ASSERT_EQ(Play({"--end-phase"}).code, 0);
  auto last = Play({"--end-phase"});
  ASSERT_EQ(last.code, 0) << last.err;
  EXPECT_TRUE(last.json()["step"]["logged"]);
  EXPECT_EQ(last.json()["prompt"]["side"], "allied") << "the next player-turn";
  auto log = RunCli({"log", "--db", db, "--turn", "1", "--json"});
  ASSERT_EQ(log.code, 0) << log.err;
  auto verify = RunCli({"replay", "--db", db, "--verify"});
  EXPECT_EQ(verify.code, 0) << verify.err << verify.out;
  // The replay takes the player-turn again step by step (B1.3): step 0 is its beginning.
  auto steps = RunCli({"log", "--db", db, "--turn", "1", "--steps", "--json"});
  ASSERT_EQ(steps.code, 0) << steps.err;
  const json turn = steps.json()["turns"][0];
  EXPECT_EQ(turn["played_by"], "steps");
  EXPECT_EQ(turn["steps"][1]["step"],
            json::parse(R"({"units": ["de-18a"], "path": ["16A:1322", "16A:1222"]})"));
  const auto hex_of_18a = [&](int step) {
    auto at =
        RunCli({"position", "--db", db, "--at", "1", "--step", std::to_string(step), "--json"});
    EXPECT_EQ(at.code, 0) << at.err;
    const json position = at.json();
    for (const json& u : position["units"]) {
      if (u["id"] == "de-18a") return u["hex"];
    }
    return json();
  };
  EXPECT_EQ(hex_of_18a(1), "16A:1322");
  EXPECT_EQ(hex_of_18a(2), "16A:1222");
  auto past = RunCli({"position", "--db", db, "--at", "1", "--step", "999"});
  EXPECT_EQ(past.code, 2) << past.err;
  EXPECT_NE(past.err.find("it has"), std::string::npos) << past.err;
  auto both = RunCli({"position", "--db", db, "--at", "1", "--step", "1", "--phase", "combat"});
  EXPECT_EQ(both.code, 2) << both.err;
  auto all = RunCli({"log", "--db", db, "--steps"});
  EXPECT_EQ(all.code, 2) << all.err;
  // Text for people.
  auto human = RunCli({"play", "--db", db});
  EXPECT_EQ(human.code, 0);
  EXPECT_NE(human.out.find("allied"), std::string::npos) << human.out;
}

TEST_F(PlayCli, BadStepsAreBadInput) {
  for (const std::string& bad :
       {std::string("not json"), std::string("[1]"), std::string(R"({"end-phase": 1})"),
        std::string(R"({"units": ["x"], "path": ["16A:9999"]})")}) {
    auto r = Play({"--action", bad});
    EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
    EXPECT_TRUE(r.json().contains("error")) << r.out;
  }
  auto both = RunCli({"play", "--db", db, "--undo", "--end-phase"});
  EXPECT_EQ(both.code, 2);
  auto none = RunCli({"play", "--db", dir.Path("missing.sqlite"), "--json"});
  EXPECT_NE(none.code, 0);
}

}  // namespace
}  // namespace opsim
