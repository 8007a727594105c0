// `opsim reach` at the command line: the hexes, costs and paths it answers are moves `check
// --action` accepts at that cost, the hexes it does not reach are refused, --to explains one path,
// --side lets the waiting side plan, and bad requests exit with the codes of the rest of opsim.
#include <gtest/gtest.h>

#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;
using test::RunCli;

json Reach(std::vector<std::string> args, int code = 0) {
  args.insert(args.begin(), "reach");
  args.insert(args.end(), test::kBundledGame.begin(), test::kBundledGame.end());
  args.push_back("--json");
  const test::CliRun r = RunCli(args);
  EXPECT_EQ(r.code, code) << r.err;
  return r.json();
}

json CheckJson(const std::string& action) {
  std::vector<std::string> args = {"check", "--action", action, "--json"};
  args.insert(args.end(), test::kBundledGame.begin(), test::kBundledGame.end());
  const test::CliRun r = RunCli(args);
  EXPECT_EQ(r.code, 0) << r.err;
  return r.json();
}

std::string MoveAction(const std::string& unit, const json& path) {
  return json{{"units", {unit}}, {"path", path}}.dump();
}

// As events print MPs: "(2 MP)", "(2.5 MP)".
std::string MpText(double mp) {
  const auto halves = static_cast<int>(mp * 2);
  return "(" + std::to_string(halves / 2) + (halves % 2 ? ".5" : "") + " MP)";
}

TEST(ReachCli, EveryListedHexIsAMoveCheckAcceptsAtItsCost) {
  const json a = Reach({"--unit", "de-9pz"});
  EXPECT_EQ(a["side"], "axis");
  EXPECT_EQ(a["phase"], "movement");
  EXPECT_EQ(a["from"], "16A:1323");
  ASSERT_GT(a["count"].get<int>(), 10);
  EXPECT_EQ(a["count"].get<std::size_t>(), a["hexes"].size());
  int checked = 0;
  for (const json& h : a["hexes"]) {
    if (h.contains("no_end") || ++checked % 5 != 1) continue;  // a sample: check plays a turn
    const json c = CheckJson(MoveAction("de-9pz", h["path"]));
    ASSERT_TRUE(c["legal"].get<bool>()) << h.dump() << c.dump();
    bool paid = false;
    for (const json& e : c["events"]) {
      paid = paid || (e["kind"] == "move" && e["text"].get<std::string>().find(MpText(
                                                 h["cost"].get<double>())) != std::string::npos);
    }
    EXPECT_TRUE(paid) << h.dump() << c.dump();
  }
  // The edges it says are stopped: check refuses them by the same rule.
  int refused = 0;
  for (const json& e : a["blocked"]) {
    if (++refused > 12) break;
    json path = json::array({e["from"]});
    for (const json& h : a["hexes"]) {
      if (h["hex"] == e["from"]) path = h["path"];
    }
    path.push_back(e["to"]);
    const json c = CheckJson(MoveAction("de-9pz", path));
    EXPECT_FALSE(c["legal"].get<bool>()) << e.dump();
    EXPECT_EQ(c["rules"][0], e["rule"]) << e.dump() << c.dump();
  }
}

TEST(ReachCli, ZonesOfControlAndStackingAreNamed) {
  const json a = Reach({"--unit", "de-9pz"});
  bool zoc = false, stacking = false;
  for (const json& h : a["hexes"]) {
    zoc = zoc || (h["hex"] == "16A:1221" && h["stop"] == "B4.8");
    stacking = stacking || (h["hex"] == "16A:1322" && h["no_end"] == "B3.2");
  }
  EXPECT_TRUE(zoc);
  EXPECT_TRUE(stacking);
}

TEST(ReachCli, ToExplainsOnePathStepByStep) {
  const json a = Reach({"--unit", "de-9pz", "--to", "16A:1221"});
  const json& to = a["to"];
  EXPECT_TRUE(to["reachable"].get<bool>());
  EXPECT_EQ(to["cost"], 2);
  EXPECT_EQ(to["stop"], "B4.8");
  EXPECT_EQ(to["path"].back(), "16A:1221");
  ASSERT_EQ(to["steps"].size(), to["path"].size() - 1);
  EXPECT_EQ(to["steps"][0]["notes"][0]["rule"], "B4.1");

  const test::CliRun text =
      RunCli({"reach", "--scenario", "special-terrain", "--unit", "de-9pz", "--to", "16A:1221"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("16A:1221: 2 MP"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("[B4.8]"), std::string::npos) << text.out;

  const json far = Reach({"--unit", "de-9pz", "--to", "16A:0827", "--max-cost", "1"});
  EXPECT_TRUE(far["to"]["reachable"].get<bool>());  // --max-cost trims the list, not --to
  for (const json& h : far["hexes"]) EXPECT_LE(h["cost"].get<double>(), 1.0);
}

TEST(ReachCli, AHexMeansItsWholeStackAndExploitationItsMotorizedUnits) {
  const json stack = Reach({"--hex", "16A:1323"});
  ASSERT_EQ(stack["units"].size(), 1u);
  EXPECT_EQ(stack["units"][0]["id"], "de-9pz");
  const json exploit = Reach({"--hex", "16A:1323", "--phase", "exploitation"});
  EXPECT_EQ(exploit["phase"], "exploitation");
  EXPECT_EQ(exploit["units"][0]["mp"], stack["units"][0]["mp"].get<double>() / 2);
  EXPECT_LT(exploit["count"], stack["count"]);
}

TEST(ReachCli, TheWaitingSidePlansItsNextPlayerTurn) {
  const json allied = Reach({"--unit", "nl-1", "--side", "allied"});
  EXPECT_EQ(allied["side"], "allied");
  EXPECT_EQ(allied["player_turn"], 1);
  EXPECT_EQ(allied["from"], "16A:1122");
  // The same answer as once the Axis has played a player-turn that moves nothing.
  test::TempDir dir;
  test::WriteFile(dir.Path("none.json"),
                  R"({"opsim": "orders", "version": 1, "side": "axis", "turn": "May I 1940"})");
  const test::CliRun turn = RunCli({"turn", "--scenario", "special-terrain", "--orders",
                                    dir.Path("none.json"), "--out", dir.Path("t1.json")});
  ASSERT_EQ(turn.code, 0) << turn.err;
  const test::CliRun after =
      RunCli({"reach", "--state", dir.Path("t1.json"), "--unit", "nl-1", "--json"});
  ASSERT_EQ(after.code, 0) << after.err;
  EXPECT_EQ(after.json()["hexes"], allied["hexes"]);
  EXPECT_EQ(after.json()["blocked"], allied["blocked"]);
}

TEST(ReachCli, RailCountsRailHexes) {
  const json a = Reach({"--hex", "16A:1323", "--rail"});
  EXPECT_EQ(a["mode"], "rail");
  EXPECT_EQ(a["count"], 0);  // the next hex along the line is in the Dutch zone of control
  ASSERT_FALSE(a["blocked"].empty());
  EXPECT_EQ(a["blocked"][0]["rule"], "B5.1");
  EXPECT_EQ(Reach({"--unit", "de-9pz", "--rail", "--phase", "exploitation"}, 3)["error"]["rule"],
            "B7.8");
}

TEST(ReachCli, BadRequestsExitAsElsewhere) {
  EXPECT_EQ(Reach({"--unit", "no-such"}, 2)["error"]["code"], "invalid-input");
  EXPECT_EQ(Reach({"--unit", "nl-1"}, 3)["error"]["rule"], "B1.2");
  EXPECT_EQ(Reach({"--unit", "de-18a", "--phase", "exploitation"}, 3)["error"]["rule"], "B7.8");
  EXPECT_EQ(Reach({"--hex", "16A:0101"}, 2)["error"]["code"], "not-found");
  EXPECT_EQ(RunCli({"reach", "--scenario", "special-terrain"}).code, 2);
  const test::CliRun help = RunCli({"reach", "--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--side"), std::string::npos);
}

}  // namespace
}  // namespace opsim
