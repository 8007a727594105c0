// The terrain chapter of the samurai-era game, statement by statement (ids SAM-*, see
// docs/tactical.md), through the library and through `opsim tactical samurai-move`, `los` and
// `loss-test`, on scenarios/tactical/samurai.json or on terrain-only paths.
#include <gtest/gtest.h>

#include <set>

#include "opsim/core/dice.h"
#include "opsim/core/rule_ids.h"
#include "opsim/tactical/samurai.h"
#include "tactical_test_util.h"

namespace opsim::tactical {
namespace {

using test::Cli;

std::vector<SamuraiHex> Path(std::initializer_list<Terrain> terrains) {
  std::vector<SamuraiHex> out;
  for (Terrain t : terrains) out.push_back({TerrainName(t), t, 0, false});
  return out;
}

nlohmann::json CliSamuraiMove(const std::string& unit, const std::string& order,
                              const std::string& path, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"samurai-move", "--unit", unit, "--order",
                                   order,          "--path", path};
  args.insert(args.end(), extra.begin(), extra.end());
  return Cli(args);
}

nlohmann::json CliBoardMove(const std::string& unit, const std::string& order,
                            const std::string& path, std::vector<std::string> extra = {}) {
  extra.insert(extra.begin(), {"--board", test::BoardPath("samurai")});
  return CliSamuraiMove(unit, order, path, extra);
}

SamuraiLos Los(const Board& b, const std::string& from, const std::string& to) {
  return CheckSamuraiLos(b, test::Hex(b, from), test::Hex(b, to));
}

nlohmann::json CliLos(const std::string& from, const std::string& to) {
  return Cli({"los", "--board", test::BoardPath("samurai"), "--from", from, "--to", to});
}

constexpr Terrain P = Terrain::kPlains;

// ---- LOS: SAM-*.1, SAM-RA.5 --------------------------------------------------------------------

// SAM-PL.1, SAM-RF.1, SAM-RV.1, SAM-FD.1, SAM-BR.1, SAM-RA.1, SAM-RG.1: plains, rice fields, river,
// ford, bridge, ravine and rocky ground hexes do not block LOS; SAM-LW.1, SAM-HW.1, SAM-VI.1:
// light woods, heavy woods and village hexes do.
TEST(Samurai, LosThroughEachTerrain) {
  const Board b = test::Illustration("samurai");
  struct Case {
    const char* from;
    const char* to;
    bool clear;
    std::string_view rule;  // the statement that blocks, if any
  };
  const Case cases[] = {
      {"A1", "A6", true, ""},  // plains
      {"B4", "B6", true, ""},  // through rice fields B5
      {"D1", "D6", true, ""},  // river D2, ford D3, river D4, bridge D5
      {"G4", "G7", true, ""},  // through ravine G5, G6
      {"G1", "G3", true, ""},  // through rocky ground G2
      {"B1", "B4", false, rules::kSamLW_1.id},
      {"F1", "F4", false, rules::kSamHW_1.id},
      {"F4", "F6", false, rules::kSamVI_1.id},
  };
  for (const Case& c : cases) {
    const SamuraiLos los = Los(b, c.from, c.to);
    EXPECT_EQ(los.clear, c.clear) << c.from << "-" << c.to;
    EXPECT_EQ(los.rule, c.rule) << c.from << "-" << c.to;
    const auto doc = CliLos(c.from, c.to);
    EXPECT_EQ(doc["los"], c.clear) << c.from << "-" << c.to;
    if (!c.clear) {
      EXPECT_EQ(doc["blocked"]["rule"], c.rule);
    }
  }
  EXPECT_EQ(LosRuling(Terrain::kPlains).rule, rules::kSamPL_1.id);
  EXPECT_EQ(LosRuling(Terrain::kRiceFields).text, "rice fields does not block LOS");
  EXPECT_EQ(LosRuling(Terrain::kVillage).text, "village blocks LOS");
  const auto doc = CliLos("D1", "D6");
  ASSERT_EQ(doc["hexes"].size(), 4u);
  EXPECT_EQ(doc["hexes"][1]["rule"], rules::kSamFD_1.id);
  EXPECT_EQ(doc["hexes"][3]["rule"], rules::kSamBR_1.id);
}

// SAM-RA.5: a unit in a ravine hex is visible only to units in adjacent hexes, and sees only
// adjacent hexes.
TEST(Samurai, RavineSeesOnlyAdjacentHexes) {
  const Board b = test::Illustration("samurai");
  EXPECT_TRUE(Los(b, "G4", "G5").clear);
  EXPECT_FALSE(Los(b, "G4", "G6").clear);
  EXPECT_EQ(Los(b, "G4", "G6").rule, rules::kSamRA_5.id);
  EXPECT_FALSE(Los(b, "G5", "G3").clear);
  EXPECT_TRUE(CliLos("G6", "G7")["los"]);
  EXPECT_EQ(CliLos("G6", "G4")["blocked"]["rule"], rules::kSamRA_5.id);
}

// ---- Ambush: SAM-INTRO.2 and each terrain's Ambush statement
// --------------------------------------

// SAM-INTRO.2 (Ambush only in the right terrain): SAM-LW.4 and SAM-VI.2 all units; SAM-HW.4
// infantry; SAM-PL.2, SAM-RF.4, SAM-FD.5, SAM-BR.4, SAM-RG.4 no unit.
TEST(Samurai, AmbushByTerrain) {
  struct Case {
    Terrain t;
    bool infantry, cavalry;
    std::string_view rule;
  };
  const Case cases[] = {
      {Terrain::kLightWoods, true, true, rules::kSamLW_4.id},
      {Terrain::kVillage, true, true, rules::kSamVI_2.id},
      {Terrain::kHeavyWoods, true, false, rules::kSamHW_4.id},
      {Terrain::kPlains, false, false, rules::kSamPL_2.id},
      {Terrain::kRiceFields, false, false, rules::kSamRF_4.id},
      {Terrain::kFord, false, false, rules::kSamFD_5.id},
      {Terrain::kBridge, false, false, rules::kSamBR_4.id},
      {Terrain::kRockyGround, false, false, rules::kSamRG_4.id},
      {Terrain::kSamuraiRiver, false, false, rules::kSamIntro_2.id},
      {Terrain::kRavine, false, false, rules::kSamIntro_2.id},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(MayAmbush(SamuraiUnit::kInfantry, c.t).allowed, c.infantry) << TerrainName(c.t);
    EXPECT_EQ(MayAmbush(SamuraiUnit::kNinja, c.t).allowed, c.infantry) << TerrainName(c.t);
    EXPECT_EQ(MayAmbush(SamuraiUnit::kCavalry, c.t).allowed, c.cavalry) << TerrainName(c.t);
    EXPECT_EQ(MayAmbush(SamuraiUnit::kInfantry, c.t).rule, c.rule) << TerrainName(c.t);
    const auto doc = CliSamuraiMove("infantry", "ambush", TerrainName(c.t));
    EXPECT_EQ(doc["legal"], c.infantry) << TerrainName(c.t);
    if (!c.infantry) {
      EXPECT_EQ(doc["refusal"]["rule"], c.rule);
    }
  }
  EXPECT_FALSE(CliSamuraiMove("cavalry", "ambush", "heavy-woods")["legal"]);
  EXPECT_FALSE(
      CliSamuraiMove("infantry", "ambush", "light-woods,plains")["legal"]);  // it does not move
}

// ---- Movement reductions ------------------------------------------------------------------------

// SAM-INTRO.3 EX: infantry Assaulting into light woods can move only 1 hex, so it reaches the
// enemy only if it began next to the light woods.
TEST(Samurai, Intro3ExampleAssaultIntoLightWoods) {
  const auto adjacent = EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kAssault, std::nullopt,
                                            Path({P, Terrain::kLightWoods}));
  EXPECT_TRUE(adjacent.legal());
  EXPECT_EQ(adjacent.limit, 1);
  const auto far = EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kAssault, std::nullopt,
                                       Path({P, P, Terrain::kLightWoods}));
  EXPECT_FALSE(far.legal());
  EXPECT_EQ(far.refusal->rule, rules::kSamLW_3.id);
  EXPECT_EQ(*far.refused_step, 2u);
  EXPECT_TRUE(CliSamuraiMove("infantry", "assault", "plains,light-woods")["legal"]);
  const auto doc = CliSamuraiMove("infantry", "assault", "plains,plains,light-woods");
  EXPECT_FALSE(doc["legal"]);
  EXPECT_EQ(doc["refusal"]["rule"], rules::kSamLW_3.id);
}

// SAM-INTRO.3: a reduction applies only when the unit enters such a hex, not when it leaves one.
TEST(Samurai, Intro3ReductionOnlyOnEntering) {
  EXPECT_TRUE(EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kAssault, std::nullopt,
                                  Path({Terrain::kLightWoods, P, P}))
                  .legal());
  EXPECT_TRUE(CliSamuraiMove("infantry", "assault", "light-woods,plains,plains")["legal"]);
  EXPECT_FALSE(EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kAssault, std::nullopt,
                                   Path({P, Terrain::kLightWoods, P}))
                   .legal());
}

// SAM-LW.3, SAM-RF.3, SAM-FD.4, SAM-BR.3, SAM-RG.3: Assault or Move and Fire into/through these
// hexes: infantry only 1 hex, cavalry up to 2.
TEST(Samurai, ReducedMovement) {
  const std::pair<Terrain, std::string_view> terrains[] = {
      {Terrain::kLightWoods, rules::kSamLW_3.id},
      {Terrain::kRiceFields, rules::kSamRF_3.id},
      {Terrain::kFord, rules::kSamFD_4.id},
      {Terrain::kBridge, rules::kSamBR_3.id},
      {Terrain::kRockyGround, rules::kSamRG_3.id}};
  for (auto [t, rule] : terrains) {
    for (Order o : {Order::kAssault, Order::kMoveAndFire}) {
      const auto inf = EvaluateSamuraiMove(SamuraiUnit::kInfantry, o, 3, Path({P, t, P}));
      EXPECT_FALSE(inf.legal()) << TerrainName(t);
      EXPECT_EQ(inf.refusal->rule, rule);
      EXPECT_TRUE(EvaluateSamuraiMove(SamuraiUnit::kInfantry, o, 3, Path({P, t})).legal());
      EXPECT_TRUE(EvaluateSamuraiMove(SamuraiUnit::kCavalry, o, 4, Path({P, t, P})).legal())
          << TerrainName(t);
      const auto cav = EvaluateSamuraiMove(SamuraiUnit::kCavalry, o, 4, Path({P, t, P, P}));
      EXPECT_FALSE(cav.legal());
      EXPECT_EQ(cav.limit, 2);
      EXPECT_TRUE(
          EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kMarch, 3, Path({P, t, P})).legal());
    }
    const std::string path = std::string("plains,") + TerrainName(t) + ",plains";
    EXPECT_EQ(CliSamuraiMove("infantry", "assault", path, {"--allowance", "3"})["refusal"]["rule"],
              rule);
    EXPECT_TRUE(CliSamuraiMove("cavalry", "move-and-fire", path)["legal"]);
  }
}

// SAM-LW.2, SAM-RF.2, SAM-FD.3, SAM-BR.2, SAM-RG.2: no unit may Run into or through these hexes;
// SAM-RA.3 infantry may not Run into a ravine.
TEST(Samurai, NoRunning) {
  const std::pair<Terrain, std::string_view> terrains[] = {
      {Terrain::kLightWoods, rules::kSamLW_2.id},  {Terrain::kRiceFields, rules::kSamRF_2.id},
      {Terrain::kFord, rules::kSamFD_3.id},        {Terrain::kBridge, rules::kSamBR_2.id},
      {Terrain::kRockyGround, rules::kSamRG_2.id}, {Terrain::kRavine, rules::kSamRA_3.id}};
  for (auto [t, rule] : terrains) {
    for (SamuraiUnit u : {SamuraiUnit::kInfantry, SamuraiUnit::kCavalry}) {
      if (t == Terrain::kRavine && u == SamuraiUnit::kCavalry) continue;
      const auto r = EvaluateSamuraiMove(u, Order::kRun, std::nullopt, Path({P, t}));
      EXPECT_FALSE(r.legal()) << TerrainName(t);
      EXPECT_EQ(r.refusal->rule, rule) << TerrainName(t);
    }
    EXPECT_EQ(CliSamuraiMove("infantry", "run",
                             std::string("plains,") + TerrainName(t))["refusal"]["rule"],
              rule);
  }
  EXPECT_TRUE(
      EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kRun, std::nullopt, Path({P, P, P, P}))
          .legal());
}

// SAM-HW.2: no Assault or Run into/through heavy woods; SAM-HW.3: cavalry never.
TEST(Samurai, HeavyWoods) {
  for (Order o : {Order::kAssault, Order::kRun}) {
    const auto r = EvaluateSamuraiMove(SamuraiUnit::kInfantry, o, std::nullopt,
                                       Path({P, Terrain::kHeavyWoods}));
    EXPECT_EQ(r.refusal->rule, rules::kSamHW_2.id);
  }
  EXPECT_TRUE(EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kMarch, std::nullopt,
                                  Path({P, Terrain::kHeavyWoods}))
                  .legal());
  const auto cav = EvaluateSamuraiMove(SamuraiUnit::kCavalry, Order::kMarch, std::nullopt,
                                       Path({P, Terrain::kHeavyWoods}));
  EXPECT_EQ(cav.refusal->rule, rules::kSamHW_3.id);
  EXPECT_EQ(CliSamuraiMove("cavalry", "march", "plains,heavy-woods")["refusal"]["rule"],
            rules::kSamHW_3.id);
  EXPECT_EQ(CliSamuraiMove("infantry", "assault", "plains,heavy-woods")["refusal"]["rule"],
            rules::kSamHW_2.id);
  EXPECT_TRUE(CliBoardMove("infantry", "march", "F1,F2,F3")["legal"]);
}

// SAM-RA.2: cavalry cannot enter a ravine; SAM-RA.4: infantry in a ravine executing Assault may
// move only 1 hex.
TEST(Samurai, Ravine) {
  EXPECT_EQ(EvaluateSamuraiMove(SamuraiUnit::kCavalry, Order::kMarch, std::nullopt,
                                Path({P, Terrain::kRavine}))
                .refusal->rule,
            rules::kSamRA_2.id);
  const auto out = EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kAssault, std::nullopt,
                                       Path({Terrain::kRavine, P, P}));
  EXPECT_FALSE(out.legal());
  EXPECT_EQ(out.refusal->rule, rules::kSamRA_4.id);
  EXPECT_TRUE(EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kAssault, std::nullopt,
                                  Path({Terrain::kRavine, P}))
                  .legal());
  EXPECT_TRUE(EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kMarch, std::nullopt,
                                  Path({Terrain::kRavine, P, P}))
                  .legal());
  EXPECT_EQ(CliBoardMove("infantry", "assault", "G5,G4,G3")["refusal"]["rule"], rules::kSamRA_4.id);
  EXPECT_EQ(CliBoardMove("cavalry", "march", "G4,G5")["refusal"]["rule"], rules::kSamRA_2.id);
}

// SAM-RG.5: with rocky ground on a hill hex, cavalry cannot move up the slope into it.
TEST(Samurai, RockyGroundOnAHill) {
  std::vector<SamuraiHex> up = {{"low", P, 0, false}, {"hill", Terrain::kRockyGround, 1, false}};
  EXPECT_EQ(
      EvaluateSamuraiMove(SamuraiUnit::kCavalry, Order::kMarch, std::nullopt, up).refusal->rule,
      rules::kSamRG_5.id);
  EXPECT_TRUE(EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kMarch, std::nullopt, up).legal());
  std::vector<SamuraiHex> along = {{"hilltop", P, 1, false},
                                   {"hill", Terrain::kRockyGround, 1, false}};
  EXPECT_TRUE(
      EvaluateSamuraiMove(SamuraiUnit::kCavalry, Order::kMarch, std::nullopt, along).legal());
  EXPECT_EQ(CliSamuraiMove("cavalry", "march", "plains,rocky-ground@1")["refusal"]["rule"],
            rules::kSamRG_5.id);
  EXPECT_EQ(CliBoardMove("cavalry", "march", "G3,H2")["refusal"]["rule"], rules::kSamRG_5.id);
  EXPECT_TRUE(CliBoardMove("cavalry", "march", "H1,H2")["legal"]);
  // A level is one digit, as a board's: a longer one is refused, not an abort in stoi.
  for (const char* path : {"plains,rocky-ground@99999999999", "plains,rocky-ground@10"}) {
    const auto doc =
        Cli({"samurai-move", "--unit", "cavalry", "--order", "march", "--path", path}, 2);
    EXPECT_NE(doc["error"]["message"].get<std::string>().find("from 0 to 9"), std::string::npos)
        << doc.dump();
  }
}

// ---- River, ford and the Loss Test -------------------------------------------------------------

// SAM-RV.2/.3: any unit may attempt to cross a river, making a Loss Test as it enters; SAM-RV.4:
// all but Ninja spend the whole turn entering, from an adjacent hex; SAM-FD.2: at a ford, no Loss
// Test.
TEST(Samurai, RiverEntry) {
  for (SamuraiUnit u : {SamuraiUnit::kInfantry, SamuraiUnit::kCavalry, SamuraiUnit::kNinja}) {
    const auto r =
        EvaluateSamuraiMove(u, Order::kMarch, std::nullopt, Path({P, Terrain::kSamuraiRiver}));
    EXPECT_TRUE(r.legal()) << Name(u);
    EXPECT_TRUE(r.loss_test) << Name(u);
  }
  for (SamuraiUnit u : {SamuraiUnit::kInfantry, SamuraiUnit::kCavalry}) {
    const auto on =
        EvaluateSamuraiMove(u, Order::kMarch, std::nullopt, Path({P, Terrain::kSamuraiRiver, P}));
    EXPECT_EQ(on.refusal->rule, rules::kSamRV_4.id) << Name(u);
    const auto late =
        EvaluateSamuraiMove(u, Order::kMarch, std::nullopt, Path({P, P, Terrain::kSamuraiRiver}));
    EXPECT_EQ(late.refusal->rule, rules::kSamRV_4.id) << Name(u);
  }
  EXPECT_TRUE(EvaluateSamuraiMove(SamuraiUnit::kNinja, Order::kMarch, std::nullopt,
                                  Path({P, Terrain::kSamuraiRiver, P}))
                  .legal());
  const auto ford = EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kMarch, std::nullopt,
                                        Path({P, Terrain::kFord, P}));
  EXPECT_TRUE(ford.legal());
  EXPECT_FALSE(ford.loss_test);
  EXPECT_TRUE(CliBoardMove("infantry", "march", "C2,D2")["loss_test"]);
  EXPECT_EQ(CliBoardMove("infantry", "march", "C2,D2,E2")["refusal"]["rule"], rules::kSamRV_4.id);
  EXPECT_TRUE(CliBoardMove("ninja", "march", "C2,D2,E2")["legal"]);
  const auto crossing = CliBoardMove("infantry", "march", "C3,D3,E3");
  EXPECT_TRUE(crossing["legal"]);
  EXPECT_FALSE(crossing["loss_test"]);
}

// SAM-RV.5: the next turn the unit leaves the river normally, but only with the March order:
// infantry 1 hex, cavalry up to 2.
TEST(Samurai, LeavingTheRiver) {
  const auto run = EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kRun, std::nullopt,
                                       Path({Terrain::kSamuraiRiver, P}));
  EXPECT_EQ(run.refusal->rule, rules::kSamRV_5.id);
  EXPECT_TRUE(EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kMarch, std::nullopt,
                                  Path({Terrain::kSamuraiRiver, P}))
                  .legal());
  EXPECT_EQ(EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kMarch, std::nullopt,
                                Path({Terrain::kSamuraiRiver, P, P}))
                .refusal->rule,
            rules::kSamRV_5.id);
  EXPECT_TRUE(EvaluateSamuraiMove(SamuraiUnit::kCavalry, Order::kMarch, std::nullopt,
                                  Path({Terrain::kSamuraiRiver, P, P}))
                  .legal());
  EXPECT_FALSE(EvaluateSamuraiMove(SamuraiUnit::kCavalry, Order::kMarch, std::nullopt,
                                   Path({Terrain::kSamuraiRiver, P, P, P}))
                   .legal());
  EXPECT_EQ(CliBoardMove("infantry", "run", "D2,E2")["refusal"]["rule"], rules::kSamRV_5.id);
  EXPECT_EQ(CliBoardMove("infantry", "march", "D2,E2,F1")["refusal"]["rule"], rules::kSamRV_5.id);
}

// SAM-RV.6: entering a river hex next to an enemy, the unit must enter melee after the Loss Test,
// without the Assault order's benefits.
TEST(Samurai, RiverNextToTheEnemy) {
  std::vector<SamuraiHex> path = Path({P, Terrain::kSamuraiRiver});
  path[1].enemy_adjacent = true;
  const auto r = EvaluateSamuraiMove(SamuraiUnit::kInfantry, Order::kAssault, std::nullopt, path);
  EXPECT_TRUE(r.melee);
  bool benefits = false;
  for (const auto& n : r.notes)
    benefits =
        benefits || (n.rule == rules::kSamRV_6.id && n.text.find("Assault") != std::string::npos);
  EXPECT_TRUE(benefits);
  const auto doc = CliBoardMove("infantry", "assault", "C2,D2", {"--enemy", "E2"});
  EXPECT_TRUE(doc["melee"]);
  EXPECT_FALSE(CliBoardMove("infantry", "assault", "C2,D2", {"--enemy", "H6"})["melee"]);
}

// SAM-LT.1: the Loss Test rolls one d20 per model: 1-10 safe, 11 or more a casualty; SAM-LT.2:
// Defense Value plays no part (nothing but the model count goes in); SAM-LT.3: any casualty
// calls for a Fortitude Test.
TEST(Samurai, LossTest) {
  int fortitude = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Dice probe(seed);
    Dice dice(seed);
    const LossTest t = RollLossTest(dice, 6);
    ASSERT_EQ(t.rolls.size(), 6u);
    int safe = 0;
    for (int roll : t.rolls) {
      EXPECT_EQ(roll, probe.Roll(20));
      safe += roll <= 10;
    }
    EXPECT_EQ(t.safe, safe);
    EXPECT_EQ(t.casualties, 6 - safe);
    EXPECT_EQ(t.fortitude_test, t.casualties > 0);
    fortitude += t.fortitude_test;
    const auto doc = Cli({"loss-test", "--models", "6", "--seed", std::to_string(seed)});
    EXPECT_EQ(doc["rolls"], t.rolls);
    EXPECT_EQ(doc["casualties"], t.casualties);
    EXPECT_EQ(doc["fortitude_test"], t.fortitude_test);
    EXPECT_EQ(doc["rule"], rules::kSamLT_1.id);
  }
  EXPECT_GT(fortitude, 0);
  EXPECT_EQ(Cli({"loss-test", "--models", "0", "--seed", "1"}, 2)["error"]["rule"],
            rules::kSamLT_1.id);
}

// SAM-RV.3 with SAM-LT.1: entering a river with --models and --seed rolls the Loss Test at once.
TEST(Samurai, LossTestOnEntering) {
  const auto doc = CliBoardMove("infantry", "march", "C2,D2", {"--models", "4", "--seed", "9"});
  Dice dice(9);
  const LossTest t = RollLossTest(dice, 4);
  EXPECT_EQ(doc["loss_test_roll"]["rolls"], t.rolls);
  EXPECT_FALSE(CliBoardMove("infantry", "march", "C3,D3", {"--models", "4", "--seed", "9"})
                   .contains("loss_test_roll"));
}

// SAM-INTRO.1: "Many terrain types also reduce movement, and some block Line of Sight": over every
// terrain of the chapter, exactly light woods, heavy woods and village block LOS, and every terrain
// but plains and village limits some order or some unit, through the library and the CLI. (The
// Defense Value bonuses the statement mentions are given no values in the text; opsim has none.)
TEST(Samurai, Intro1WhichTerrainsMatter) {
  const Terrain all[] = {Terrain::kPlains,     Terrain::kLightWoods,   Terrain::kHeavyWoods,
                         Terrain::kRiceFields, Terrain::kSamuraiRiver, Terrain::kFord,
                         Terrain::kBridge,     Terrain::kRavine,       Terrain::kRockyGround,
                         Terrain::kVillage};
  const std::set<Terrain> blocking = {Terrain::kLightWoods, Terrain::kHeavyWoods,
                                      Terrain::kVillage};
  const std::set<Terrain> free_moving = {Terrain::kPlains, Terrain::kVillage};
  const Order orders[] = {Order::kMarch, Order::kRun, Order::kAssault, Order::kMoveAndFire};
  for (Terrain t : all) {
    const bool blocks = LosRuling(t).text.find("does not") == std::string::npos;
    EXPECT_EQ(blocks, blocking.contains(t)) << TerrainName(t);
    bool limited = false, cli_limited = false;
    for (SamuraiUnit u : {SamuraiUnit::kInfantry, SamuraiUnit::kCavalry}) {
      for (Order o : orders) {
        limited = limited || !EvaluateSamuraiMove(u, o, 6, Path({P, t, P})).legal();
        const std::string path = std::string("plains,") + TerrainName(t) + ",plains";
        cli_limited =
            cli_limited || !CliSamuraiMove(Name(u), Name(o), path, {"--allowance", "6"})["legal"];
      }
    }
    EXPECT_EQ(limited, !free_moving.contains(t)) << TerrainName(t);
    EXPECT_EQ(cli_limited, limited) << TerrainName(t);
  }
}

}  // namespace
}  // namespace opsim::tactical
