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
