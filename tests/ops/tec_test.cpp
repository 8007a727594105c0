// B3.1, B4.1, B4.9, B7.2 from a rules file's own unit types, movement classes and terrain
// effects chart (docs/rules.md, "Unit types and classes are data" and "The terrain effects
// chart").
#include <gtest/gtest.h>

#include "campaign_support.h"
#include "movement.h"
#include "opsim/core/rule_ids.h"
#include "opsim/ops/route.h"
#include "opsim/ops/state_file.h"
#include "opsim/ops/tables.h"
#include "test_support.h"

namespace opsim::ops {
extern const char* const kBaseRulesJson;
namespace {

using nlohmann::json;
using test::Fields;
using test::Said;

Result<RuleTables> TryLoad(const json& rules) {
  auto src = JsonSource::FromText(rules.dump(2), "rules.json");
  if (!src) return std::unexpected(src.error());
  return LoadRuleTables(*src);
}

RuleTables Load(const json& rules) {
  auto t = TryLoad(rules);
  EXPECT_TRUE(t) << t.error().to_string();
  return t ? *t : RuleTables{};
}

// The base rules with a fourth class, "mountain", which climbs mountains at 1 MP a hex, and
// their types with mountain infantry ("alpini") of that class.
json MountainRules() {
  json rules = json::parse(kBaseRulesJson);
  json& m = rules["movement"];
  m["classes"] = {"foot", "cavalry", "motorized", "mountain"};
  for (auto& [terrain, costs] : m["terrain"].items()) {
    if (costs.is_array()) costs.push_back(terrain == "mountain" ? json(1) : costs[0]);
  }
  for (auto& [hexside, costs] : m["hexside"].items()) costs.push_back(costs[0]);
  rules["units"]["types"].push_back({{"type", "alpini"}, {"class", "mountain"}});
  return rules;
}

// What the loader said about `rules`, or "" when it loaded.
std::string Refusal(const json& rules) {
  auto t = TryLoad(rules);
  return t ? "" : t.error().to_string();
}

TEST(B3_1, TheBaseRulesDefineTenTypesAndWhatEachImplies) {
  const RuleTables& t = DefaultRuleTables();
  ASSERT_EQ(t.unit_types.size(), 10u);
  EXPECT_EQ(t.movement.classes, std::vector<std::string>({"foot", "cavalry", "motorized"}));
  auto type = [&](const char* name) { return t.type(*t.FindType(name)); };
  EXPECT_EQ(t.movement.ClassName(type("infantry").cls), "foot");
  EXPECT_EQ(t.movement.ClassName(type("cavalry").cls), "cavalry");
  EXPECT_EQ(t.movement.ClassName(type("armor").cls), "motorized");
  EXPECT_TRUE(type("armor").motorized);
  EXPECT_FALSE(type("infantry").motorized);
  EXPECT_TRUE(type("engineer").engineer);
  EXPECT_TRUE(type("engineer").construction);
  EXPECT_TRUE(type("construction").construction);
  EXPECT_FALSE(type("construction").engineer);
  EXPECT_TRUE(type("airborne").airborne);
  EXPECT_FALSE(t.FindType("alpini"));
  // A rules file without units.types takes these ten.
  json rules = json::parse(kBaseRulesJson);
  rules.erase("units");
  rules["movement"].erase("classes");
  const RuleTables back = Load(rules);
  ASSERT_EQ(back.unit_types.size(), 10u);
  EXPECT_EQ(back.type(*back.FindType("mechanized")).cls, type("mechanized").cls);
}

// B4.1: a class of the rules file's own pays its own costs: alpini cross two mountain hexes for
// 2 MP where infantry pay 6 (every neighbour of 1:0110 is mountain).
TEST(B4_1, ARulesFilesOwnClassPaysItsOwnCosts) {
  const RuleTables t = Load(MountainRules());
  ASSERT_EQ(t.movement.classes.size(), 4u);
  test::Camp c = Fields();
  const RuleContext ctx{c.t(), c.state.map, t};
  auto alpini = ParseUnitKind(t, "alpini", Side::kAxis);
  auto infantry = ParseUnitKind(t, "infantry", Side::kAxis);
  ASSERT_TRUE(alpini && infantry);
  const RouteAnswer up = GroundRouter(ctx, *alpini).Route(c.Hex("1:0108"), c.Hex("1:0110"));
  const RouteAnswer slow = GroundRouter(ctx, *infantry).Route(c.Hex("1:0108"), c.Hex("1:0110"));
  ASSERT_TRUE(up.reachable && slow.reachable) << up.reason << slow.reason;
  EXPECT_EQ(up.cost, 4u);     // 2 x 1 MP, in half-MPs
  EXPECT_EQ(slow.cost, 12u);  // 2 x 3 MP
  // Only the rules' types are units: the error lists them.
  auto bad = ParseUnitKind(t, "ski", Side::kAxis);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("unknown unit type 'ski' (infantry, mountain, airborne"),
            std::string::npos)
      << bad.error().message;
  EXPECT_NE(bad.error().message.find("artillery, alpini)"), std::string::npos);
}

// B3.1: a scenario's units take the types of its rules; state files name them, and a type the
// rules lack is refused at its line.
TEST(B3_1, AScenarioUnderItsOwnRulesHasItsOwnTypes) {
  json scenario = json::parse(opsim::test::ReadFile(opsim::test::BundledPath("special-terrain")));
  scenario["campaign"]["rules"] = MountainRules();
  json& units = scenario["campaign"]["units"];
  ASSERT_FALSE(units.empty());
  units[0]["type"] = "alpini";
  test::Camp c(scenario.dump(1), 1);
  const GroundUnit& u = c.state.units.front();
  const RuleTables& t = c.campaign().tables;
  EXPECT_EQ(t.type(u.type).name, "alpini");
  EXPECT_EQ(t.movement.ClassName(t.type(u.type).cls), "mountain");
  // The state file writes the type's name and reads it back to the same state.
  const ScenarioId id{"special-terrain", "special-terrain.json", "0"};
  const std::string text = StateToJson(c.state, c.t(), t, id);
  EXPECT_NE(text.find("\"alpini\""), std::string::npos);
  auto src = JsonSource::FromText(text, "state.json");
  ASSERT_TRUE(src);
  auto back = StateFromJson(*src, c.t(), t);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(StateHash(back->state), StateHash(c.state));
  // Under the base rules the same state file names a type they lack.
  auto base = StateFromJson(*src, c.t(), DefaultRuleTables());
  ASSERT_FALSE(base);
  EXPECT_NE(base.error().message.find("unknown unit type 'alpini'"), std::string::npos)
      << base.error().to_string();
  // And a scenario giving a unit a type its rules lack is refused at the unit's type.
  units[0]["type"] = "ski";
  auto sc_src = JsonSource::FromText(scenario.dump(1), "campaign.json");
  ASSERT_TRUE(sc_src);
  auto sc = map::LoadScenario(*sc_src);
  ASSERT_TRUE(sc) << sc.error().to_string();
  auto refused = LoadCampaign(*sc_src, *sc, 1);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().where.substr(refused.error().where.find(": ") + 2),
            "/campaign/units/0/type")
      << refused.error().to_string();
  EXPECT_NE(refused.error().message.find("unknown unit type 'ski' (infantry,"), std::string::npos)
      << refused.error().message;
}

TEST(B3_1, ABadUnitTableIsRefusedAtItsPlace) {
  json rules = MountainRules();
  rules["units"]["types"][10]["class"] = "ski";
  EXPECT_NE(Refusal(rules).find("/units/types/10/class: 'ski' is not one of movement.classes"),
            std::string::npos)
      << Refusal(rules);
  rules = MountainRules();
  rules["units"]["types"][10]["type"] = "armor";
  EXPECT_NE(Refusal(rules).find("/units/types/10/type: unit type 'armor' is defined twice"),
            std::string::npos)
      << Refusal(rules);
  rules = MountainRules();
  rules["units"]["types"][10]["tracked"] = true;
  EXPECT_NE(Refusal(rules).find("/units/types/10/tracked: unknown key"), std::string::npos)
      << Refusal(rules);
  rules = MountainRules();
  rules["movement"]["terrain"]["clear"] = {1, 1, 1};
  EXPECT_NE(
      Refusal(rules).find("/movement/terrain/clear: expected one cost per class: [foot, cavalry, "
                          "motorized, mountain]"),
      std::string::npos)
      << Refusal(rules);
  rules = MountainRules();
  rules["movement"]["classes"].push_back("ski");
  EXPECT_NE(Refusal(rules).find("/movement/classes: from 1 to 4 movement classes"),
            std::string::npos)
      << Refusal(rules);
  // Classes renamed without types: the base types' classes are gone, so types must be given.
  rules = json::parse(kBaseRulesJson);
  rules.erase("units");
  rules["movement"]["classes"] = {"foot", "horse", "motorized"};
  EXPECT_NE(Refusal(rules).find("give units.types: the base rules' cavalry moves as cavalry"),
            std::string::npos)
      << Refusal(rules);
}

TEST(B7_2, ABadTerrainEffectsChartIsRefusedAtItsPlace) {
  json rules = json::parse(kBaseRulesJson);
  rules["combat"]["defense-multiplier"] = {{"mountain", 0.3}};
  EXPECT_NE(Refusal(rules).find(
                "/combat/defense-multiplier/mountain: a multiplier runs from 0 to 8 in steps of "
                "1/4"),
            std::string::npos)
      << Refusal(rules);
  rules = json::parse(kBaseRulesJson);
  rules["combat"]["hexside-shift"] = {{"bridge", -1}};
  EXPECT_NE(Refusal(rules).find("/combat/hexside-shift/bridge: unknown key"), std::string::npos)
      << Refusal(rules);
  rules = json::parse(kBaseRulesJson);
  rules["combat"]["attack-multiplier"] = {{"canal", 9}};
  EXPECT_NE(Refusal(rules).find("/combat/attack-multiplier/canal: a multiplier runs"),
            std::string::npos)
      << Refusal(rules);
  // The base rules name only the major river's shift: every other entry is x1 and 0.
  const CombatTables& crt = DefaultRuleTables().combat;
  EXPECT_EQ(crt.hexside_shift, (std::array<int, kCrossingKinds>{0, -1, 0}));
  for (int q : crt.defense_multiplier) EXPECT_EQ(q, 4);
  for (int q : crt.attack_multiplier) EXPECT_EQ(q, 4);
}

// Fields (campaign_support.h) under rules with their own terrain effects chart.
struct ChartFight {
  test::Camp c = Fields();
  explicit ChartFight(const json& combat) {
    json rules = json::parse(kBaseRulesJson);
    for (auto& [key, value] : combat.items()) rules["combat"][key] = value;
    c.campaign().tables = Load(rules);
  }
  Result<TurnResult> Attack(const std::string& hex, const std::vector<std::string>& units) {
    c.Own(hex, Side::kAllied);
    return c.Play({{"combat", json::array({{{"attack", hex}, {"units", units}}})}}, {1, 3});
  }
};

// B7.2: a terrain's defense multiplier scales the defenders' strength before the odds.
TEST(B7_2, ATerrainMultipliesTheDefense) {
  ChartFight f(json{{"defense-multiplier", {{"clear", 2}}}});
  f.c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 8, 2, 4, 2, "1:0405");
  f.c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1:0505");
  auto r = f.Attack("1:0505", {"ax"});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::kB7_2,
                   "ax attack 1:0505: 8 to 4 (defense x2 in clear), column 2:1 to 2:1"))
      << test::AllEvents(*r);
}

// B7.2: a hexside's attack multiplier scales each attacker across it; its shift applies only
// when every attacker attacks across it. Fractions of the totals are dropped.
TEST(B7_2, AHexsideMultipliesItsAttackersAndShiftsWhenAllCrossIt) {
  {
    ChartFight f(json{{"attack-multiplier", {{"major-river", 0.5}}}});
    f.c.Add("a1", Side::kAxis, opsim::test::BaseType("infantry"), 7, 2, 4, 2, "1:0407");
    f.c.Add("a2", Side::kAxis, opsim::test::BaseType("infantry"), 4, 2, 4, 2, "1:0506");
    f.c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1:0507");
    auto r = f.Attack("1:0507", {"a1", "a2"});
    ASSERT_TRUE(r) << r.error().to_string();
    // 3.5 + 4 = 7.5, dropped to 7; a2 attacks across no river, so no shift.
    EXPECT_TRUE(Said(*r, "combat", rules::kB7_2,
                     "a1, a2 attack 1:0507: 7 to 2 (a1 x0.5 across a major river), column 3:1 "
                     "to 3:1"))
        << test::AllEvents(*r);
  }
  {
    ChartFight f(json{{"attack-multiplier", {{"major-river", 0.5}}},
                      {"hexside-shift", {{"major-river", -2}}}});
    f.c.Add("a1", Side::kAxis, opsim::test::BaseType("infantry"), 8, 2, 4, 2, "1:0407");
    f.c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1:0507");
    auto r = f.Attack("1:0507", {"a1"});
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_TRUE(Said(*r, "combat", rules::kB7_2,
                     "a1 attack 1:0507: 4 to 2 (a1 x0.5 across a major river), column 2:1 "
                     "shifted -2 (clear, across a major river) to 1:2"))
        << test::AllEvents(*r);
  }
}

// B4.9: an overrun's defense is multiplied by its terrain like an attack's, never below 1.
TEST(B4_9, AnOverrunsDefenseIsMultipliedByItsTerrain) {
  json rules = json::parse(kBaseRulesJson);
  rules["combat"]["defense-multiplier"] = {{"clear", 2}, {"forest", 0}};
  const RuleTables t = Load(rules);
  map::HexInfo clear;
  clear.terrain = map::Terrain::kClear;
  EXPECT_EQ(OverrunOdds(t, clear, 20, 2), 5);  // 20 to 4
  EXPECT_EQ(OverrunOdds(DefaultRuleTables(), clear, 20, 2), 10);
  map::HexInfo forest;
  forest.terrain = map::Terrain::kForest;
  EXPECT_EQ(OverrunOdds(t, forest, 20, 2), 20 - 1);  // defense at least 1; forest shifts -1
  EXPECT_EQ(OverrunOdds(t, clear, 20, 0), t.combat.overrun_odds);
}

}  // namespace
}  // namespace opsim::ops
