// Rule 41 at the command line: every clause through `route`, `check` and `turn` on the bundled
// special-terrain theater, at the rule's own coordinates, each test named after its clause.
// (The same clauses through the library are in tests/ops and tests/map.)
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;
using test::RunCli;

json Answer(std::vector<std::string> args, int code = 0) {
  args.push_back("--json");
  const test::CliRun r = RunCli(args);
  EXPECT_EQ(r.code, code) << r.err;
  return r.code == code && code == 0 ? r.json() : json::object();
}

// `opsim route --path`: a path judged step by step.
json RoutePath(const std::string& mode, const std::string& side, const std::string& path,
               std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"route", "--mode", mode, "--side", side, "--path", path};
  args.insert(args.end(), test::kBundledGame.begin(), test::kBundledGame.end());
  args.insert(args.end(), extra.begin(), extra.end());
  return Answer(args);
}

// `opsim check --action`: one order judged for the phasing side.
json Check(const std::string& action, std::vector<std::string> source = test::kBundledGame) {
  std::vector<std::string> args = {"check", "--action", action};
  args.insert(args.end(), source.begin(), source.end());
  return Answer(args);
}

// Does any step of a `route --path` answer cite the rule?
bool StepsCite(const json& answer, const std::string& rule) {
  for (const json& step : answer["steps"]) {
    for (const json& note : step) {
      if (note["rule"] == rule) return true;
    }
  }
  return false;
}

// The events of a `turn` or `check` answer that cite the rule, one line each.
std::string EventsCiting(const json& answer, const std::string& rule) {
  std::string out;
  for (const json& e : answer["events"]) {
    if (e["rule"] == rule) out += e["text"].get<std::string>() + "\n";
  }
  return out;
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The bundled campaign after its first (Axis) player-turn: the Allies to move.
class AlliedToMove : public ::testing::Test {
 protected:
  void SetUp() override {
    const test::CliRun r =
        RunCli({"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders",
                test::BundledOrders("01-axis-may-i-1940.json"), "--out", state_});
    ASSERT_EQ(r.code, 0) << r.err;
  }
  std::vector<std::string> State(std::vector<std::string> sets = {}) const {
    std::vector<std::string> args = {"--state", state_};
    for (const std::string& s : sets) {
      args.push_back("--set");
      args.push_back(s);
    }
    return args;
  }
  test::TempDir dir_;
  std::string state_ = dir_.Path("1.json");
};

// --- 41.A.1 ---------------------------------------------------------------------------------

// 41.A.1: the 16A:0827/0727 causeway is a major river hexside for ground units, even along its
// road, and the move's record says so.
TEST(Rule41A1Cli, CausewayIsAMajorRiverForGroundUnits) {
  const json r = RoutePath("ground", "allied", "16A:0727,16A:0827");
  EXPECT_EQ(r["legal"], true);
  EXPECT_TRUE(StepsCite(r, "41.A.1")) << r.dump();
  const json moved = Check(R"({"units": ["de-9pz"], "path": ["16A:0827", "16A:0727"]})",
                           {"--scenario", "special-terrain", "--set", "unit:de-9pz=16A:0827"});
  EXPECT_EQ(moved["legal"], true) << moved.dump();
  EXPECT_TRUE(Has(EventsCiting(moved, "41.A.1"), "causeway: a major river hexside"))
      << moved.dump();
}

// --- 41.A.2 ---------------------------------------------------------------------------------

// 41.A.2: up to 3 REs move the length of the Sassnitz-Trelleborg ferry as one major river
// hexside; engineers do not reduce it; no rail capacity is used; a fourth RE is refused.
TEST(Rule41A2Cli, RailFerry) {
  const json eng = RoutePath("ground", "axis", "9A:1004,9A:1001", {"--unit", "engineer"});
  EXPECT_EQ(eng["legal"], true);
  EXPECT_EQ(eng["cost"], 3.0);  // 1 MP for clear Trelleborg, 2 for the ferry: no engineer rebate
  EXPECT_TRUE(StepsCite(eng, "41.A.2"));

  const json three = Check(R"({"units": ["de-61"], "path": ["9A:1004", "9A:1001"]})",
                           {"--scenario", "special-terrain", "--set", "unit:de-61=9A:1004"});
  EXPECT_EQ(three["legal"], true) << three.dump();
  EXPECT_TRUE(Has(EventsCiting(three, "41.A.2"), "no rail capacity used")) << three.dump();

  const json four = Check(R"({"units": ["de-61", "de-22la"], "path": ["9A:1004", "9A:1001"]})",
                          {"--scenario", "special-terrain", "--set", "unit:de-61=9A:1004", "--set",
                           "unit:de-22la=9A:1004"});
  EXPECT_EQ(four["legal"], false);
  EXPECT_EQ(four["rules"], json::array({"41.A.2"}));
}

// --- 41.A.3 ---------------------------------------------------------------------------------

// 41.A.3: any unit builds an ice airfield on a frozen partial-lake hex (2A:1231), at no SMP
// cost; not when the lake is not frozen, nor on dry land.
TEST_F(AlliedToMove, Rule41A3_IceAirfieldOnlyOnAFrozenPartialLake) {
  const std::string build = R"({"ice-airfield": "2A:1231", "unit": "su-eng"})";
  const json frozen = Check(build, State({"frozen:E=true"}));
  EXPECT_EQ(frozen["legal"], true) << frozen.dump();
  EXPECT_TRUE(Has(EventsCiting(frozen, "41.A.3"), "no SMP cost")) << frozen.dump();
  const json thawed = Check(build, State({"frozen:E=false"}));
  EXPECT_EQ(thawed["legal"], false);
  EXPECT_EQ(thawed["rules"], json::array({"41.A.3"}));
  const json land =
      Check(R"({"ice-airfield": "2A:0933", "unit": "su-lf"})", State({"frozen:E=true"}));
  EXPECT_EQ(land["legal"], false);
  EXPECT_EQ(land["rules"], json::array({"41.A.3"}));
}

// 41.A.3 with 41.E.6: no ice airfield on the Vuoksa lakes' shores (35:4419), frozen or not.
TEST_F(AlliedToMove, Rule41A3_NoIceAirfieldOnTheVuoksaLakes) {
  const json vuoksa = Check(R"({"ice-airfield": "35:4419", "unit": "su-eng"})",
                            State({"frozen:E=true", "unit:su-eng=35:4419"}));
  EXPECT_EQ(vuoksa["legal"], false) << vuoksa.dump();
  EXPECT_EQ(vuoksa["rules"], json::array({"41.A.3"}));
}

// --- 41.A.4.a -------------------------------------------------------------------------------

// 41.A.4.a: the bundled first turn with the players' own dice. Six weather dice (2: clear),
// then the flood die: 2+2 in the Netherlands is F, and the attack's die gets -1; 6+2 is S*.
TEST(Rule41A4aCli, FloodResultsWithThePlayersDice) {
  test::TempDir dir;
  json orders = json::parse(test::ReadFile(test::BundledOrders("01-axis-may-i-1940.json")));
  // Plays the first turn with these dice; the state goes to NAME-out.json.
  auto play = [&](std::vector<int> dice, const std::string& name) {
    orders["dice"] = dice;
    test::WriteFile(dir.Path(name + ".json"), orders.dump());
    return Answer({"turn", "--scenario", "special-terrain", "--orders", dir.Path(name + ".json"),
                   "--out", dir.Path(name + "-out.json")});
  };
  const json f = play({2, 2, 2, 2, 2, 2, 2, 4}, "f");
  const std::string f_events = EventsCiting(f, "41.A.4.a");
  EXPECT_TRUE(Has(f_events, "F (2+2 in the Netherlands)")) << f_events;
  EXPECT_TRUE(Has(f_events, "fails to flood 16A:1122 (F): the attack has -1")) << f_events;
  bool combat_modified = false;
  for (const json& roll : f["rolls"]) {
    if (roll["purpose"] == "combat at 16A:1122") combat_modified = Has(roll["decided"], "die -1");
  }
  EXPECT_TRUE(combat_modified) << f["rolls"].dump();

  const json s = play({2, 2, 2, 2, 2, 2, 6, 4}, "s");
  const std::string s_events = EventsCiting(s, "41.A.4.a");
  EXPECT_TRUE(Has(s_events, "16A:1122 is flooded (S*)")) << s_events;
  EXPECT_TRUE(Has(s_events, "then prohibited terrain for the next two turns")) << s_events;
  // In the next player-turn the hex is prohibited: no route enters it.
  const json next = Answer({"route", "--state", dir.Path("s-out.json"), "--mode", "ground",
                            "--side", "allied", "--path", "16A:1022,16A:1122"});
  EXPECT_EQ(next["legal"], false);
  EXPECT_EQ(next["blocked_by"], json::array({"41.A.4.a"}));
}

// --- 41.A.4.b -------------------------------------------------------------------------------

// An Allied attack on an Axis-held hex of the bundled theater, with the Axis's massive flood.
json MassiveFlood(const std::vector<std::string>& state, const std::string& hex,
                  const std::string& attacker, int code, const std::string& out) {
  test::TempDir dir;
  test::WriteFile(dir.Path("orders.json"),
                  R"({"opsim": "orders", "version": 1, "side": "allied", "turn": "May I 1940",
                      "combat": [{"attack": ")" +
                      hex + R"(", "units": [")" + attacker + R"("]}],
                      "reactions": [{"massive-flood": ")" +
                      hex + R"("}]})");
  std::vector<std::string> args = {"turn", "--orders", dir.Path("orders.json"), "--out", out};
  args.insert(args.end(), state.begin(), state.end());
  args.push_back("--json");
  const test::CliRun r = RunCli(args);
  EXPECT_EQ(r.code, code) << r.err;
  if (code != 0) {
    EXPECT_FALSE(std::filesystem::exists(out));
    return json{{"err", r.err}};
  }
  return r.json();
}

// 41.A.4.b EX: after the surrender, the Axis may massively flood 16A:0623 (its unit retreats,
// the attack is cancelled, 7 SRPs of relief), but not 16A:1122 or 16A:0417.
TEST_F(AlliedToMove, Rule41A4b_Example_0623ButNot1122Or0417) {
  const json ok = MassiveFlood(State({"netherlands-surrendered=true", "owner:16A:0623=axis",
                                      "unit:de-22la=16A:0623", "unit:nl-3=16A:0622"}),
                               "16A:0623", "nl-3", 0, dir_.Path("0623.json"));
  const std::string said = EventsCiting(ok, "41.A.4.b");
  EXPECT_TRUE(Has(said,
                  "16A:0623 is massively flooded: prohibited terrain this player-turn and "
                  "the next, then swamp"))
      << said;
  EXPECT_TRUE(Has(said, "German 22nd Air Landing retreats 16A:0623")) << said;
  EXPECT_TRUE(Has(said, "the attack on 16A:0623 is cancelled")) << said;
  EXPECT_TRUE(Has(said, "7 SRPs")) << said;

  for (auto [hex, attacker, from] :
       {std::tuple{"16A:1122", "nl-2", "16A:1022"}, std::tuple{"16A:0417", "nl-lt", "16A:0418"}}) {
    const std::string h = hex;
    const json refused = MassiveFlood(
        State({"netherlands-surrendered=true", "owner:" + h + "=axis", "unit:de-61=" + h,
               "unit:" + std::string(attacker) + "=" + from, "unit:nl-1=16A:1021"}),
        h, attacker, 3, dir_.Path("refused.json"));
    EXPECT_TRUE(Has(refused["err"], "cannot be massively flooded")) << refused["err"];
    EXPECT_TRUE(Has(refused["err"], "[41.A.4.b]")) << refused["err"];
  }
  // Before the surrender, not even 16A:0623.
  const json early =
      MassiveFlood(State({"owner:16A:0623=axis", "unit:de-22la=16A:0623", "unit:nl-3=16A:0622"}),
                   "16A:0623", "nl-3", 3, dir_.Path("early.json"));
  EXPECT_TRUE(Has(early["err"], "[41.A.4.b]")) << early["err"];
}

// --- 41.B -----------------------------------------------------------------------------------

// 41.B: the Allies may close the open canal while an Axis unit stands in supply in the Egyptian
// Delta; only a temporarily closed canal reopens; only Allied groups use it, and only while it
// is open.
TEST_F(AlliedToMove, Rule41B_SuezStatusAndPassage) {
  const json close = Check(R"({"suez": "close"})", State());
  EXPECT_EQ(close["legal"], true) << close.dump();
  EXPECT_TRUE(Has(EventsCiting(close, "41.B"), "temporarily close the Suez Canal"));
  const json reopen = Check(R"({"suez": "reopen"})", State());
  EXPECT_EQ(reopen["legal"], false);
  EXPECT_EQ(reopen["rules"], json::array({"41.B"}));

  const std::string canal = "19A:3413,19A:3414/3514,19A:3414/3515";
  const json open = RoutePath("naval", "allied", canal);
  EXPECT_EQ(open["legal"], true) << open.dump();
  EXPECT_TRUE(StepsCite(open, "41.B"));
  const json axis = RoutePath("naval", "axis", canal);
  EXPECT_EQ(axis["legal"], false);
  EXPECT_EQ(axis["blocked_by"], json::array({"41.B"}));
  const json shut = RoutePath("naval", "allied", canal, {"--set", "suez=temporarily-closed"});
  EXPECT_EQ(shut["legal"], false);
  EXPECT_EQ(shut["blocked_by"], json::array({"41.B"}));
}

// --- 41.C -----------------------------------------------------------------------------------

// 41.C: a group with no TF or CG, of the side owning both 15B:0813 and 0814, uses the canal.
TEST(Rule41CCli, CorinthCanal) {
  const std::string through = "15B:0714,15B:0813/0814,15B:0914";
  const json ok = RoutePath("naval", "allied", through);
  EXPECT_EQ(ok["legal"], true) << ok.dump();
  EXPECT_TRUE(StepsCite(ok, "41.C"));
  const json tf = RoutePath("naval", "allied", through, {"--group", "tf,transport"});
  EXPECT_EQ(tf["blocked_by"], json::array({"41.C"}));
  const json lost = RoutePath("naval", "allied", through, {"--set", "owner:15B:0813=axis"});
  EXPECT_EQ(lost["blocked_by"], json::array({"41.C"}));
}

// --- 41.D -----------------------------------------------------------------------------------

// 41.D: transports reach Basra up the Shatt al Arab, but not beyond 22A:3219/3220 (Baghdad), and
// task forces not at all.
TEST(Rule41DCli, ShattAlArabTigris) {
  const json basra = Answer({"route", "--scenario", "special-terrain", "--mode", "naval", "--from",
                             "22A:4806", "--to", "22A:4313"});
  EXPECT_EQ(basra["reachable"], true);
  std::string path;
  for (const json& w : basra["path"]) path += (path.empty() ? "" : ",") + w.get<std::string>();
  EXPECT_TRUE(StepsCite(RoutePath("naval", "allied", path), "41.D")) << path;
  const json baghdad = Answer({"route", "--scenario", "special-terrain", "--mode", "naval",
                               "--from", "22A:4806", "--to", "22A:2919"});
  EXPECT_EQ(baghdad["reachable"], false);
  EXPECT_EQ(baghdad["blocked_by"], json::array({"41.D"}));
  const json tf = Answer({"route", "--scenario", "special-terrain", "--mode", "naval", "--group",
                          "tf", "--from", "22A:4806", "--to", "22A:4313"});
  EXPECT_EQ(tf["reachable"], false);
  EXPECT_EQ(tf["blocked_by"], json::array({"41.D"}));
}

// --- 41.E.1 ---------------------------------------------------------------------------------

// 41.E.1: ground units cross the Kerch hexside as a major river but may not attack across it;
// naval units may not pass while the enemy owns both strait hexes, but may enter them.
TEST(Rule41E1Cli, KerchStraits) {
  const json cross = RoutePath("ground", "axis", "4A:3526,4A:3525");
  EXPECT_EQ(cross["cost"], 3.0);
  EXPECT_TRUE(StepsCite(cross, "41.E.1"));
  const json attack = Check(R"({"attack": "4A:3525", "units": ["de-11a"]})",
                            {"--scenario", "special-terrain", "--set", "unit:de-11a=4A:3526",
                             "--set", "unit:su-51=4A:3525"});
  EXPECT_EQ(attack["legal"], false);
  EXPECT_EQ(attack["rules"], json::array({"41.E.1"}));
  const std::vector<std::string> axis_straits = {"--set", "owner:4A:3525=axis", "--set",
                                                 "owner:4A:3526=axis"};
  const json pass = RoutePath("naval", "allied", "4A:3425,4A:3525,4A:3625", axis_straits);
  EXPECT_EQ(pass["legal"], false);
  EXPECT_EQ(pass["blocked_by"], json::array({"41.E.1"}));
  EXPECT_EQ(RoutePath("naval", "allied", "4A:3425,4A:3525", axis_straits)["legal"], true);
}

// 41.E.1: no passage through the straits in two moves. In a game where the Axis hold both strait
// hexes, the Azov flotilla sails into 4A:3525 (as it may); in its next move it may go back into
// the Sea of Azov, but not on into the Black Sea.
TEST(Rule41E1Cli, NoPassageThroughTheStraitsInTwoMoves) {
  test::TempDir dir;
  json scenario =
      json::parse(test::ReadFile(std::string(OPSIM_SCENARIO_DIR) + "/special-terrain.json"));
  auto& allied = scenario["state"]["control"]["allied"];
  allied.erase(std::find(allied.begin(), allied.end(), "4A:3525"));
  scenario["state"]["control"]["axis"].push_back("4A:3525");
  for (json& n : scenario["campaign"]["naval"]) {
    if (n["id"] == "su-azov") n["hex"] = "4A:3425";
  }
  test::WriteFile(dir.Path("kerch.json"), scenario.dump());
  // Plays one player-turn from `movement` into NAME.json.
  std::string state;
  auto play = [&](const std::string& side, const std::string& turn, json movement,
                  const std::string& name) {
    const json orders = {{"opsim", "orders"},
                         {"version", 1},
                         {"side", side},
                         {"turn", turn},
                         {"movement", movement}};
    test::WriteFile(dir.Path(name + "-orders.json"), orders.dump());
    std::vector<std::string> args = {"turn", "--orders", dir.Path(name + "-orders.json"), "--out",
                                     dir.Path(name + ".json")};
    if (state.empty()) {
      args.insert(args.end(), {"--scenario", dir.Path("kerch.json"), "--seed", "1940"});
    } else {
      args.insert(args.end(), {"--state", state});
    }
    const json r = Answer(args);
    state = dir.Path(name + ".json");
    return r;
  };
  play("axis", "May I 1940", json::array(), "1");
  play("allied", "May I 1940",
       json::array({{{"naval", {"su-azov"}}, {"path", {"4A:3425", "4A:3525"}}}}), "2");
  play("axis", "May II 1940", json::array(), "3");
  const json on =
      Check(R"({"naval": ["su-azov"], "path": ["4A:3525", "4A:3624"]})", {"--state", state});
  EXPECT_EQ(on["legal"], false) << on.dump();
  EXPECT_EQ(on["rules"], json::array({"41.E.1"}));
  const json back =
      Check(R"({"naval": ["su-azov"], "path": ["4A:3525", "4A:3425"]})", {"--state", state});
  EXPECT_EQ(back["legal"], true) << back.dump();
}

// --- route and turn agree (B4.8) ------------------------------------------------------------

// B4.8: with a game loaded, `route --path` refuses a ground path that moves on from an enemy
// zone of control it entered (nl-1's at 16A:1222), where `turn` refuses it, with the same rule
// and reason; and a path into enemy units is an overrun (B4.9) it leaves to `check`.
TEST(RouteAgreesWithTurnCli, AnEnemyZoneOfControlEndsTheMove) {
  const json route = RoutePath("ground", "axis", "16A:1323,16A:1222,16A:1221", {"--unit", "armor"});
  EXPECT_EQ(route["legal"], false) << route.dump();
  EXPECT_EQ(route["blocked_by"], json::array({"B4.8"}));
  EXPECT_EQ(route["failed_step"], 2);
  const json turn = Check(R"({"units": ["de-9pz"], "path": ["16A:1323", "16A:1222", "16A:1221"]})");
  EXPECT_EQ(turn["legal"], false);
  EXPECT_EQ(turn["rules"], json::array({"B4.8"}));
  EXPECT_TRUE(Has(turn["reason"], route["reason"].get<std::string>())) << turn.dump();
  const json overrun = RoutePath("ground", "axis", "16A:1323,16A:1222,16A:1122");
  EXPECT_EQ(overrun["blocked_by"], json::array({"B4.8"}));
  const json into = RoutePath("ground", "axis", "16A:1222,16A:1122");
  EXPECT_EQ(into["blocked_by"], json::array({"B4.9"})) << into.dump();
}

// --- explanations ---------------------------------------------------------------------------

// A legal route found by --from/--to lists each step's rules, as --path does, in text and JSON.
TEST(ExplanationsCli, ARouteFoundListsEachStepsRules) {
  const json found =
      Answer({"route", "--scenario", "special-terrain", "--mode", "naval", "--side", "allied",
              "--from", "4A:2621", "--to", "4A:3025", "--group", "flotilla"});
  ASSERT_EQ(found["reachable"], true);
  ASSERT_EQ(found["steps"].size(), found["path"].size() - 1);
  EXPECT_TRUE(StepsCite(found, "41.E.5")) << found.dump();
  const test::CliRun text = RunCli({"route", "--scenario", "special-terrain", "--mode", "naval",
                                    "--from", "4A:2621", "--to", "4A:3025", "--group", "flotilla"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_TRUE(Has(text.out, "  step 1 to ")) << text.out;
  EXPECT_TRUE(Has(text.out, "[41.E.5]")) << text.out;
}

// 41.A.4.b: `map --hex` shows a massively flooded hex as prohibited terrain through the
// player-turn after the flood (then as swamp: QueryMap.AMassivelyFloodedHexCountsAsSwampLater).
TEST(ExplanationsCli, AMassivelyFloodedHexShowsHowItCounts) {
  const json prohibited = Answer({"map", "--scenario", "special-terrain", "--hex", "16A:0623",
                                  "--set", "flood:16A:0623=massive"});
  EXPECT_EQ(prohibited["flood"]["counts_as"], "prohibited") << prohibited.dump();
  EXPECT_EQ(prohibited["flood"]["rule"], "41.A.4.b");
  const test::CliRun text = RunCli({"map", "--scenario", "special-terrain", "--hex", "16A:0623",
                                    "--set", "flood:16A:0623=massive"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_TRUE(Has(text.out,
                  "flooded (massive): counts as prohibited: 16A:0623 is massively "
                  "flooded: prohibited terrain"))
      << text.out;
}

// --- 41.E.2 ---------------------------------------------------------------------------------

// 41.E.2: the sea hexside between Estonia and Muhu is a major river.
TEST(Rule41E2Cli, BalticIslands) {
  const json r = RoutePath("ground", "axis", "1A:3826,1A:3726");
  EXPECT_EQ(r["legal"], true);
  EXPECT_EQ(r["cost"], 3.0);
  EXPECT_TRUE(StepsCite(r, "41.E.2"));
}

// --- 41.E.3 ---------------------------------------------------------------------------------

// 41.E.3 EX: an Axis unit entering 2A:0832 from an adjacent land hex gains the whole hex; the
// Kronshtadt-Leningrad hexside is a major river only for the Soviet owning both hexes.
TEST(Rule41E3Cli, Kronshtadt) {
  const json enter = Check(R"({"units": ["de-11a"], "path": ["2A:0833", "2A:0832"]})",
                           {"--scenario", "special-terrain", "--set", "unit:de-11a=2A:0833",
                            "--set", "unit:su-kr=2A:1231"});
  EXPECT_EQ(enter["legal"], true) << enter.dump();
  EXPECT_TRUE(Has(EventsCiting(enter, "41.E.3"), "2A:0832 is now axis")) << enter.dump();
  const json soviet = RoutePath("ground", "allied", "2A:0933,2A:0832");
  EXPECT_EQ(soviet["legal"], true);
  EXPECT_TRUE(StepsCite(soviet, "41.E.3"));
  EXPECT_EQ(RoutePath("ground", "axis", "2A:0933,2A:0832")["blocked_by"], json::array({"41.E.3"}));
  EXPECT_EQ(RoutePath("ground", "allied", "2A:0933,2A:0832",
                      {"--set", "owner:2A:0832=axis"})["blocked_by"],
            json::array({"41.E.3"}));
}

// --- 41.E.4, 41.E.5 -------------------------------------------------------------------------

// 41.E.4: no naval unit enters the Sivash line, 4A:2929 to 3240.
TEST(Rule41E4Cli, Sivash) {
  for (const char* path : {"4A:2829,4A:2929", "4A:3140,4A:3240"}) {
    const json r = RoutePath("naval", "allied", path, {"--group", "flotilla"});
    EXPECT_EQ(r["blocked_by"], json::array({"41.E.4"})) << path;
  }
}

// 41.E.5: the Azov flotilla sails the Sea of Azov's all-sea hexes, but not the Black Sea's.
TEST(Rule41E5Cli, FlotillasInTheSeaOfAzov) {
  const json azov = Answer({"route", "--scenario", "special-terrain", "--mode", "naval", "--group",
                            "flotilla", "--from", "4A:2621", "--to", "4A:3025"});
  ASSERT_EQ(azov["reachable"], true);
  std::string path;
  for (const json& w : azov["path"]) path += (path.empty() ? "" : ",") + w.get<std::string>();
  EXPECT_TRUE(StepsCite(RoutePath("naval", "allied", path, {"--group", "flotilla"}), "41.E.5"));
  const json black = Answer({"route", "--scenario", "special-terrain", "--mode", "naval", "--group",
                             "flotilla", "--from", "4A:2621", "--to", "4A:3725"});
  EXPECT_EQ(black["reachable"], false);
}

// --- 41.E.6 ---------------------------------------------------------------------------------

// 41.E.6: in a frozen zone the Vuoksa's lakes still stop ground units; other lakes bear them.
TEST(Rule41E6Cli, VuoksaNeverFreezes) {
  const json vuoksa = RoutePath("ground", "allied", "35:4419,35:4420", {"--set", "frozen:E=true"});
  EXPECT_EQ(vuoksa["blocked_by"], json::array({"41.E.6"}));
  EXPECT_EQ(RoutePath("ground", "allied", "35:4015,35:4014", {"--set", "frozen:E=true"})["legal"],
            true);
}

// --- 41.F -----------------------------------------------------------------------------------

// 41.F: only unisolated, supplied units exit, and only where their side may: a Soviet army cut
// off at the west edge stays, and no Axis unit exits there.
TEST_F(AlliedToMove, Rule41F_WhoMayExitWhere) {
  const json cut = Check(R"({"units": ["su-51"], "path": ["9A:0105"], "exit": true})",
                         State({"unit:su-51=9A:0105"}));
  EXPECT_EQ(cut["legal"], false);
  EXPECT_EQ(cut["rules"], json::array({"41.F"}));
  EXPECT_TRUE(Has(cut["reason"], "only unisolated, supplied units may exit")) << cut.dump();
  const json axis = Check(R"({"units": ["de-61"], "path": ["9A:0105"], "exit": true})",
                          {"--scenario", "special-terrain", "--set", "unit:de-61=9A:0105"});
  EXPECT_EQ(axis["legal"], false);
  EXPECT_EQ(axis["rules"], json::array({"41.F"}));
}

}  // namespace
}  // namespace opsim
