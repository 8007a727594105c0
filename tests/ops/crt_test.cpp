// B7.2-B7.5 played from a rules file's own combat table (docs/rules.md, "Another game's table"
// and "Result codes are data"): a differential CRT on a d10, its codes defined by their effects.
#include <gtest/gtest.h>

#include <algorithm>

#include "campaign_support.h"
#include "opsim/core/rule_ids.h"
#include "opsim/ops/tables.h"
#include "test_support.h"

namespace opsim::ops {
extern const char* const kBaseRulesJson;
namespace {

using nlohmann::json;
using test::Camp;
using test::Fields;
using test::Said;

// The base rules with a differential table on a d10 in place of B7.4's.
json DifferentialRules() {
  json rules = json::parse(kBaseRulesJson);
  json& c = rules["combat"];
  c["kind"] = "differential";
  c["die"] = 10;
  c["codes"] = json::array({{{"code", "NE"}},
                            {{"code", "A1"}, {"attacker-loss", 0.5}},
                            {{"code", "D1"}, {"defender-loss", 0.5}},
                            {{"code", "DR2"}, {"defender-retreat", 2}},
                            {{"code", "BX"}, {"exchange", true}},
                            {{"code", "DL"}, {"defender-loss", 0.5}, {"defender-retreat", 1}}});
  c["columns"] = {"-2", "0", "+2", "+4", "+6"};
  c["results"] = json::array({{"A1", "A1", "NE", "D1", "D1"},
                              {"A1", "NE", "NE", "D1", "DR2"},
                              {"A1", "NE", "D1", "DL", "DR2"},
                              {"NE", "NE", "D1", "DL", "DR2"},
                              {"NE", "D1", "BX", "DR2", "DR2"},
                              {"NE", "D1", "BX", "DR2", "DL"},
                              {"NE", "D1", "DL", "DR2", "DL"},
                              {"NE", "DL", "DL", "DR2", "DL"},
                              {"D1", "DL", "DL", "DL", "DL"},
                              {"D1", "DL", "DR2", "DL", "DL"}});
  return rules;
}

RuleTables Load(const json& rules) {
  auto src = JsonSource::FromText(rules.dump(2), "rules.json");
  EXPECT_TRUE(src);
  auto t = LoadRuleTables(*src);
  EXPECT_TRUE(t) << t.error().to_string();
  return t ? *t : RuleTables{};
}

// Fields (campaign_support.h) played under the differential table.
struct DifferentialFight {
  Camp c = Fields();
  DifferentialFight() { c.campaign().tables = Load(DifferentialRules()); }
  Result<TurnResult> Attack(const std::vector<std::string>& units, int die) {
    c.Own("1:0505", Side::kAllied);
    return c.Play({{"combat", json::array({{{"attack", "1:0505"}, {"units", units}}})}}, {1, die});
  }
};

TEST(B7_3, TheBaseRulesDefineTheirFiveCodesByTheirEffects) {
  const CombatTables& crt = DefaultRuleTables().combat;
  EXPECT_EQ(crt.kind, CrtKind::kOdds);
  EXPECT_EQ(crt.die, 6);
  ASSERT_EQ(crt.codes.size(), 5u);
  EXPECT_EQ(crt.codes[0].name, "AE");
  EXPECT_EQ(crt.codes[0].attacker_loss, 100);
  EXPECT_EQ(crt.codes[1].attacker_retreat, 1);
  EXPECT_TRUE(crt.codes[2].exchange);
  EXPECT_EQ(crt.codes[3].defender_retreat, 1);
  EXPECT_EQ(crt.codes[4].defender_loss, 100);
  // A rules file that gives no codes takes these five.
  json rules = json::parse(kBaseRulesJson);
  rules["combat"].erase("codes");
  const RuleTables t = Load(rules);
  ASSERT_EQ(t.combat.codes.size(), 5u);
  EXPECT_EQ(t.combat.name(t.combat.results[0][0]), std::string("AE"));
}

// B7.2: attack minus defense picks the highest column it reaches; a d10 picks the row.
TEST(B7_2, ADifferentialTablePicksItsColumnByTheDifference) {
  const CombatTables crt = Load(DifferentialRules()).combat;
  EXPECT_EQ(crt.Column(8, 3), 3);   // +5 reaches +4
  EXPECT_EQ(crt.Column(3, 3), 1);   // 0
  EXPECT_EQ(crt.Column(1, 6), -1);  // -5 is below -2
  EXPECT_EQ(crt.Column(20, 1), 4);  // +19 is +6
}

// B7.3, B7.5: DR2 retreats the defender two hexes away from the attacker, hex by hex.
TEST(B7_3, AResultMayRetreatTheDefendersTwoHexes) {
  DifferentialFight f;
  f.c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 8, 2, 4, 2, "1:0405");
  f.c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 3, 4, 2, "1:0505");
  auto r = f.Attack({"ax"}, 5);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::kB7_2, "ax attack 1:0505: 8 to 3, column +4 to +4: DR2"))
      << test::AllEvents(*r);
  const map::HexRef su = f.c.Unit("su").hex;
  EXPECT_EQ(map::Distance(f.c.t().Pos(su), f.c.t().Pos(f.c.Hex("1:0405"))), 3);
  EXPECT_TRUE(Said(*r, "retreat", rules::kB7_3, "su retreats 1:0505")) << test::AllEvents(*r);
  EXPECT_TRUE(Said(*r, "retreat", rules::kB7_3, "to " + f.c.t().HexName(su)))
      << test::AllEvents(*r);
  EXPECT_EQ(f.c.Unit("ax").hex, f.c.Hex("1:0505"));  // the hex is empty: the attacker advances
}

// B7.3: a share of the defense is lost, weakest units first, rounded up.
TEST(B7_3, HalfTheDefenseIsLostWeakestFirst) {
  DifferentialFight f;
  f.c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 10, 2, 4, 2, "1:0405");
  f.c.Add("d3", Side::kAllied, opsim::test::BaseType("infantry"), 1, 3, 4, 2, "1:0505");
  f.c.Add("d1", Side::kAllied, opsim::test::BaseType("infantry"), 1, 1, 4, 2, "1:0505");
  f.c.Add("d2", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1:0505");
  auto r = f.Attack({"ax"}, 1);  // +4, die 1: D1
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::kB7_2, "10 to 6, column +4 to +4: D1"))
      << test::AllEvents(*r);
  // Half of 6 is 3: d1 (1), then d2 (2); d3 stays, and holds the hex.
  EXPECT_EQ(f.c.Unit("d1").status, UnitStatus::kEliminated);
  EXPECT_EQ(f.c.Unit("d2").status, UnitStatus::kEliminated);
  EXPECT_EQ(f.c.Unit("d3").status, UnitStatus::kOnMap);
  EXPECT_EQ(f.c.Unit("d3").hex, f.c.Hex("1:0505"));
  EXPECT_EQ(f.c.Unit("ax").hex, f.c.Hex("1:0405"));
  EXPECT_TRUE(Said(*r, "eliminated", rules::kB7_3, "D1 at 1:0505")) << test::AllEvents(*r);
}

// B7.3: losses come before the retreat, which only the survivors make.
TEST(B7_3, TheSurvivorsOfALossRetreat) {
  DifferentialFight f;
  f.c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 12, 2, 4, 2, "1:0405");
  f.c.Add("d2", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1:0505");
  f.c.Add("d3a", Side::kAllied, opsim::test::BaseType("infantry"), 1, 3, 4, 2, "1:0505");
  f.c.Add("d3b", Side::kAllied, opsim::test::BaseType("infantry"), 1, 3, 4, 2, "1:0505");
  auto r = f.Attack({"ax"}, 3);  // +4, die 3: DL
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::kB7_2, "12 to 8, column +4 to +4: DL"))
      << test::AllEvents(*r);
  // Half of 8 is 4: d2 (2), then d3a (3, the first of the two threes); d3b retreats.
  EXPECT_EQ(f.c.Unit("d2").status, UnitStatus::kEliminated);
  EXPECT_EQ(f.c.Unit("d3a").status, UnitStatus::kEliminated);
  EXPECT_EQ(f.c.Unit("d3b").status, UnitStatus::kOnMap);
  EXPECT_TRUE(Said(*r, "retreat", rules::kB7_3, "d3b retreats 1:0505")) << test::AllEvents(*r);
  EXPECT_EQ(map::Distance(f.c.t().Pos(f.c.Unit("d3b").hex), f.c.t().Pos(f.c.Hex("1:0405"))), 2);
}

// B7.2: strengths below the first column fight on it; the attacker's share of the loss.
TEST(B7_3, BelowTheFirstColumnTheAttackerLosesHalf) {
  DifferentialFight f;
  f.c.Add("a1", Side::kAxis, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1:0405");
  f.c.Add("a2", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 2, "1:0504");
  f.c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 9, 4, 2, "1:0505");
  auto r = f.Attack({"a2", "a1"}, 2);  // 3 - 9 = -6: column -2, die 2: A1
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::kB7_2, "3 to 9, column -2 to -2: A1"))
      << test::AllEvents(*r);
  // Half of 3 is 2: a1 (1), then a2 (2).
  EXPECT_EQ(f.c.Unit("a1").status, UnitStatus::kEliminated);
  EXPECT_EQ(f.c.Unit("a2").status, UnitStatus::kEliminated);
  EXPECT_EQ(f.c.Unit("su").status, UnitStatus::kOnMap);
}

// B7.2: the d10's faces past 6 are rows of the table too.
TEST(B7_2, TheTablesDieHasItsOwnFaces) {
  DifferentialFight f;
  f.c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 3, 2, 4, 2, "1:0405");
  f.c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 3, 4, 2, "1:0505");
  auto r = f.Attack({"ax"}, 10);  // 0, die 10: DL
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::kB7_2, "3 to 3, column 0 to 0: DL")) << test::AllEvents(*r);
  EXPECT_EQ(f.c.Unit("su").status, UnitStatus::kEliminated);
}

// Issue 20: a game under its own table, end to end as a user plays it: the bundled campaign with
// the differential rules inline (campaign.rules), a new log, every bundled player-turn, and
// replay --verify. Its combats are decided by the new codes, and the odds name them.
TEST(B7_3, AGameUnderItsOwnTablePlaysAndReplays) {
  opsim::test::TempDir dir;
  json scenario = json::parse(opsim::test::ReadFile(opsim::test::BundledPath("special-terrain")));
  scenario["campaign"]["rules"] = DifferentialRules();
  const std::string file = dir.Path("differential.json");
  const std::string log = dir.Path("game.sqlite");
  opsim::test::WriteFile(file, scenario.dump(1));
  ASSERT_EQ(opsim::test::RunCli({"new", "--scenario", file, "--db", log, "--seed", "1940"}).code,
            0);
  std::string results;
  for (const char* orders : {"01-axis-may-i-1940.json", "02-allied-may-i-1940.json",
                             "03-axis-may-ii-1940.json", "04-allied-may-ii-1940.json"}) {
    const nlohmann::json turn =
        opsim::test::CliJson({"turn", "--db", log, "--orders", opsim::test::BundledOrders(orders)});
    for (const nlohmann::json& roll : turn.at("rolls")) {
      if (roll.at("rule") != "B7.2") continue;
      EXPECT_EQ(roll.at("sides"), 10);  // the table's d10
      results += roll.at("decided").get<std::string>() + ";";
    }
  }
  // Each attack's result is a code of the differential table, at one of its columns.
  ASSERT_FALSE(results.empty());
  for (const char* base : {"AE ", "AR ", "EX ", "DR ", "DE "}) {
    EXPECT_EQ(results.find(base), std::string::npos) << results;
  }
  EXPECT_NE(results.find(" at "), std::string::npos) << results;
  const opsim::test::CliRun replay = opsim::test::RunCli({"replay", "--db", log, "--verify"});
  EXPECT_EQ(replay.code, 0) << replay.err;
  const nlohmann::json odds = opsim::test::CliJson(
      {"odds", "--scenario", file, "--orders",
       opsim::test::BundledOrders("01-axis-may-i-1940.json"), "--runs", "200", "--seed", "3"});
  EXPECT_EQ(odds.at("codes"), json({"NE", "A1", "D1", "DR2", "BX", "DL"}));
  std::uint64_t runs = 0;
  for (const auto& [code, n] : odds.at("attacks").at(0).at("results").items())
    runs += n.get<std::uint64_t>();
  EXPECT_EQ(runs + odds.at("attacks").at(0).at("called_off").get<std::uint64_t>(), 200u);
}

// Issue 20: an error in a scenario's own rules is reported at the scenario file's line.
TEST(B7_3, ARulesErrorIsReportedAtTheScenariosLine) {
  opsim::test::TempDir dir;
  json scenario = json::parse(opsim::test::ReadFile(opsim::test::BundledPath("special-terrain")));
  json rules = DifferentialRules();
  rules["combat"]["results"][3][2] = "ZZ";
  scenario["campaign"]["rules"] = rules;
  const std::string file = dir.Path("bad.json");
  const std::string text = scenario.dump(1);
  opsim::test::WriteFile(file, text);
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(
                                   text.begin(), text.begin() + text.find("\"ZZ\""), '\n'));
  const opsim::test::CliRun r =
      opsim::test::RunCli({"new", "--scenario", file, "--db", dir.Path("g.sqlite")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(file + ":" + std::to_string(line) +
                       ": /campaign/rules/combat/results/3/2: 'ZZ' is not a code of combat.codes"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace opsim::ops
