// G8 Rice Paddies: entry, banks and movement (G8.1-G8.2112, G8.71, G8.72, G8.8), on the board of
// the G8.2108 illustration (scenarios/tactical/g8_2108.json). Each EX is checked through the
// library and through `opsim tactical move`.
#include <gtest/gtest.h>

#include "opsim/core/dice.h"
#include "opsim/core/rule_ids.h"
#include "opsim/tactical/board_file.h"
#include "opsim/tactical/paddy.h"
#include "tactical_test_util.h"

namespace opsim::tactical {
namespace {

using test::Cli;
using test::CliStepCosts;
using test::Illustration;
using test::Infantry;
using test::Move;
using test::Paddies;
using test::StepCosts;

nlohmann::json CliPaddyMove(const std::string& paddy, const std::string& path,
                            std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {
      "move", "--board", test::BoardPath("g8_2108"), "--paddy", paddy, "--path", path};
  args.insert(args.end(), extra.begin(), extra.end());
  return Cli(args);
}

std::vector<std::string> Rules(const StepReport& s) {
  std::vector<std::string> out;
  for (const Charge& c : s.charges) out.push_back(c.rule);
  return out;
}

// ---- G8.1 -----------------------------------------------------------------------------------

// G8.1: DYO paddy state: dr with EC drm; <= 2 In-Season, 3-4 Drained, >= 5 Irrigated.
TEST(G8, Rule8_1_PaddyStateTable) {
  EXPECT_EQ(PaddyStateDrm(Ec::kDry), -2);
  EXPECT_EQ(PaddyStateDrm(Ec::kVeryDry), -2);
  EXPECT_EQ(PaddyStateDrm(Ec::kModerate), -1);
  EXPECT_EQ(PaddyStateDrm(Ec::kWet), 2);
  EXPECT_EQ(PaddyStateDrm(Ec::kOvercast), 2);
  EXPECT_EQ(PaddyStateDrm(Ec::kMud), 2);
  EXPECT_EQ(PaddyStateFor(2), PaddyState::kInSeason);
  EXPECT_EQ(PaddyStateFor(-1), PaddyState::kInSeason);
  EXPECT_EQ(PaddyStateFor(3), PaddyState::kDrained);
  EXPECT_EQ(PaddyStateFor(4), PaddyState::kDrained);
  EXPECT_EQ(PaddyStateFor(5), PaddyState::kIrrigated);
  EXPECT_EQ(PaddyStateFor(8), PaddyState::kIrrigated);
}

// G8.1: the DYO dr is a seeded opsim::Dice roll, and the CLI shows it.
TEST(G8, Rule8_1_PaddyStateDrIsSeededAndShown) {
  for (std::uint64_t seed : {1ULL, 2ULL, 99ULL}) {
    Dice probe(seed);
    const int dr = probe.Roll(6);
    Dice dice(seed);
    const PaddyStateRoll r = RollPaddyState(dice, Ec::kWet);
    EXPECT_EQ(r.dr, dr);
    EXPECT_EQ(r.final_dr, dr + 2);
    EXPECT_EQ(r.state, PaddyStateFor(dr + 2));
    auto doc = Cli({"move", "--board", test::BoardPath("g8_2108"), "--paddy", "dyo", "--ec", "wet",
                    "--seed", std::to_string(seed), "--path", "oL2,oL2:bank"});
    EXPECT_EQ(doc["paddy_dr"]["dr"], dr);
    EXPECT_EQ(doc["paddy_dr"]["final"], dr + 2);
    EXPECT_EQ(doc["paddy_dr"]["rule"], rules::kG8_1.id);
    EXPECT_EQ(doc["settings"]["paddy"], Name(r.state));
  }
}

// G8.1: paddies are always defined: a move on a paddy board without a state is refused.
TEST(G8, Rule8_1_StateMustBeSet) {
  Board b = Illustration("g8_2108");
  EXPECT_FALSE(EvaluateMove(b, Infantry(), {"oM5", "oM4"}).has_value());
  auto doc = Cli({"move", "--board", test::BoardPath("g8_2108"), "--path", "oM5,oM4"}, 2);
  EXPECT_EQ(doc["error"]["rule"], rules::kG8_1.id);
}

// ---- G8.2108 EX -----------------------------------------------------------------------------

// G8.2108 EX: Squad A enters INTO oM4 and oM3 (G8.2102): Drained 2 MF each, Irrigated 4 MF each,
// In-Season 2½ MF each.
TEST(G8, Ex8_2108_SquadAIntoOM4AndOM3) {
  const std::pair<PaddyState, double> cases[] = {
      {PaddyState::kDrained, 2}, {PaddyState::kIrrigated, 4}, {PaddyState::kInSeason, 2.5}};
  for (auto [state, each] : cases) {
    const MoveReport r = Move(Paddies(state), Infantry(), "oM5,oM4,oM3");
    ASSERT_TRUE(r.legal());
    EXPECT_EQ(StepCosts(r), (std::vector<double>{each, each})) << Name(state);
    EXPECT_EQ(Rules(r.steps[1]), (std::vector<std::string>{rules::kG8_2102, rules::kG8_2}));
    auto doc = CliPaddyMove(Name(state), "oM5,oM4,oM3");
    EXPECT_TRUE(doc["legal"]);
    EXPECT_EQ(CliStepCosts(doc), (std::vector<double>{each, each})) << Name(state);
    EXPECT_EQ(doc["steps"][1]["charges"][0]["rule"], rules::kG8_2102.id);
  }
}

// G8.2108 EX: along the banks, oM4's Bank counter costs 2 MF (G8.2101), then oM3's 1 MF (G8.2105),
// whatever the paddy state; it is placed on a Bank counter in each hex.
TEST(G8, Ex8_2108_SquadAAlongTheBanks) {
  for (PaddyState state : {PaddyState::kDrained, PaddyState::kIrrigated, PaddyState::kInSeason}) {
    const MoveReport r = Move(Paddies(state), Infantry(), "oM5,oM4:bank,oM3:bank");
    ASSERT_TRUE(r.legal());
    EXPECT_EQ(StepCosts(r), (std::vector<double>{2, 1}));
    EXPECT_EQ(r.steps[1].charges[0].rule, rules::kG8_2101.id);
    EXPECT_EQ(r.steps[2].charges[0].rule, rules::kG8_2105.id);
    EXPECT_EQ(r.steps[2].to.place, Place::kBank);
    auto doc = CliPaddyMove(Name(state), "oM5,oM4:bank,oM3:bank");
    EXPECT_EQ(CliStepCosts(doc), (std::vector<double>{2, 1}));
    EXPECT_EQ(doc["steps"][2]["to"], "oM3:bank");
  }
}

// G8.2108 EX: In-Season, squad B reaches INTO oM3 three ways: 2½ (G8.2106), 2½ (G8.2105 then
// G8.2108), 4 (G8.2108 then G8.2102).
TEST(G8, Ex8_2108_SquadBThreeWaysIntoOM3) {
  const Board b = Paddies(PaddyState::kInSeason);
  const std::pair<const char*, double> ways[] = {
      {"oL3:bank,oM3", 2.5}, {"oL3:bank,oM3:bank,oM3", 2.5}, {"oL3:bank,oL3,oM3", 4}};
  for (auto [path, total] : ways) {
    const MoveReport r = Move(b, Infantry(), path);
    ASSERT_TRUE(r.legal()) << path;
    EXPECT_EQ(r.total().value(), total) << path;
    EXPECT_EQ(r.steps.back().to, (Position{test::Hex(b, "oM3"), Place::kHex}));
    auto doc = CliPaddyMove("in-season", path);
    EXPECT_EQ(doc["total"], total) << path;
  }
  EXPECT_EQ(Move(b, Infantry(), "oL3:bank,oM3").steps[1].charges[0].rule, rules::kG8_2106.id);
  EXPECT_EQ(Move(b, Infantry(), "oL3:bank,oM3:bank,oM3").steps[2].charges[0].rule,
            rules::kG8_2108.id);
}

// G8.2108 EX: squad C reaches the oL3 Bank counter for 2 MF (G8.2101), 2 MF (G8.2104 + G8.2105),
// or >= 3 MF (G8.2102 + G8.2104).
TEST(G8, Ex8_2108_SquadCOntoOL3Bank) {
  for (PaddyState state : {PaddyState::kDrained, PaddyState::kIrrigated, PaddyState::kInSeason}) {
    const Board b = Paddies(state);
    EXPECT_EQ(Move(b, Infantry(), "oL2,oL3:bank").total().value(), 2);
    EXPECT_EQ(Move(b, Infantry(), "oL2,oL2:bank,oL3:bank").total().value(), 2);
    const MoveReport third = Move(b, Infantry(), "oL2,oL3,oL3:bank");
    EXPECT_GE(third.total().value(), 3);
    EXPECT_EQ(third.steps[2].charges[0].rule, rules::kG8_2104.id);
    EXPECT_EQ(CliPaddyMove(Name(state), "oL2,oL2:bank,oL3:bank")["total"], 2);
    EXPECT_GE(CliPaddyMove(Name(state), "oL2,oL3,oL3:bank")["total"].get<double>(), 3);
  }
}

// G8.2108 EX: oJ4-oK5 is not a bank hexside: squad D enters INTO oJ4 for 1 / 3 / 1½ MF, and
// reaches its banks only by entering INTO it first (G8.2102, G8.2104).
TEST(G8, Ex8_2108_SquadDAcrossAnOpenHexside) {
  const std::pair<PaddyState, double> cases[] = {
      {PaddyState::kDrained, 1}, {PaddyState::kIrrigated, 3}, {PaddyState::kInSeason, 1.5}};
  for (auto [state, cost] : cases) {
    const Board b = Paddies(state);
    EXPECT_FALSE(IsBankHexside(b, *Hexside::Between(test::Hex(b, "oJ4"), test::Hex(b, "oK5"))));
    EXPECT_EQ(Move(b, Infantry(), "oK5,oJ4").total().value(), cost);
    EXPECT_EQ(CliPaddyMove(Name(state), "oK5,oJ4")["total"], cost);
    const MoveReport direct = Move(b, Infantry(), "oK5,oJ4:bank");
    EXPECT_FALSE(direct.legal());
    EXPECT_EQ(direct.refusal()->rule, rules::kG8_2101.id);
    EXPECT_EQ(CliPaddyMove(Name(state), "oK5,oJ4:bank")["refusal"]["rule"], rules::kG8_2101.id);
    const MoveReport two = Move(b, Infantry(), "oK5,oJ4,oJ4:bank");
    ASSERT_TRUE(two.legal());
    EXPECT_EQ(two.steps[2].charges[0].rule, rules::kG8_2104.id);
    EXPECT_EQ(two.steps[2].total().value(), 1);
  }
}

// G8.2108 EX: squad D Riding a cycle: 3 MP INTO Drained oJ4, then 3 MP onto its Bank counter.
TEST(G8, Ex8_2108_SquadDOnACycle) {
  MoveOptions cycle;
  cycle.unit = Unit(UnitKind::kCycle);
  const MoveReport r = Move(Paddies(PaddyState::kDrained), cycle, "oK5,oJ4,oJ4:bank");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(StepCosts(r), (std::vector<double>{3, 3}));
  auto doc = CliPaddyMove("drained", "oK5,oJ4,oJ4:bank", {"--unit", "cycle"});
  EXPECT_EQ(CliStepCosts(doc), (std::vector<double>{3, 3}));
  EXPECT_EQ(doc["points"], "MP");
}

// ---- G8.21x rules ---------------------------------------------------------------------------

// G8.2101-.2108: every movement case, in MF and in cycle MP.
TEST(G8, Rule8_2101To8_2108_EachCaseInMfAndCycleMp) {
  const Board b = Paddies(PaddyState::kDrained);
  MoveOptions cycle;
  cycle.unit = Unit(UnitKind::kCycle);
  struct Case {
    const char* path;
    std::string_view rule;
    double mf;
    double mp;
  };
  const Case cases[] = {
      {"oM5,oM4:bank", rules::kG8_2101.id, 2, 6},  // non-paddy -> adjacent Bank counter
      {"oL2,oL3:bank", rules::kG8_2101.id, 2, 6},  // IN -> adjacent Bank counter
      {"oM5,oM4", rules::kG8_2102.id, 2, 6},       // -> INTO an adjacent paddy
      {"oM4,oM5", rules::kG8_2103.id, 2, 6},       // IN -> adjacent non-paddy hex
      {"oL2,oL2:bank", rules::kG8_2104.id, 1, 3},  // IN -> own Bank counter
      {"oL3:bank,oL2:bank", rules::kG8_2105.id, 1, 3}, {"oL3:bank,oL2", rules::kG8_2106.id, 2, 6},
      {"oM4:bank,oM5", rules::kG8_2107.id, 2, 6},      {"oL3:bank,oL3", rules::kG8_2108.id, 1, 3},
  };
  for (const Case& c : cases) {
    const MoveReport inf = Move(b, Infantry(), c.path);
    ASSERT_TRUE(inf.legal()) << c.path;
    EXPECT_EQ(inf.steps[1].charges[0].rule, c.rule) << c.path;
    EXPECT_EQ(inf.total().value(), c.mf) << c.path;
    const MoveReport mp = Move(b, cycle, c.path);
    ASSERT_TRUE(mp.legal()) << c.path;
    EXPECT_EQ(mp.total().value(), c.mp) << c.path;
  }
}

// G8.2, G8.12: the IN-hex COT: Drained Open Ground, Irrigated twice Open Ground mud, In-Season
// grain.
TEST(G8, Rule8_2_InHexCot) {
  const Unit inf(UnitKind::kInfantry);
  const Unit tank = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kAfv);
  EXPECT_EQ(*PaddyInCot(Paddies(PaddyState::kDrained), inf,
                        test::Hex(Paddies(PaddyState::kDrained), "oL3")),
            Cost::Points(1));
  const Board irr = Paddies(PaddyState::kIrrigated);
  EXPECT_EQ(*PaddyInCot(irr, inf, test::Hex(irr, "oL3")), Cost::Points(3));
  EXPECT_EQ(*PaddyInCot(irr, tank, test::Hex(irr, "oL3")), Cost::Points(4));
  const Board grain = Paddies(PaddyState::kInSeason);
  EXPECT_EQ(*PaddyInCot(grain, inf, test::Hex(grain, "oL3")), Cost::Halves(3));
}

// G8.2: only Infantry (not riding bicycles), Cavalry, Cycle Riders and fully-tracked vehicles
// may enter INTO a paddy across an unbreached bank hexside.
TEST(G8, Rule8_2_WhoMayEnterInto) {
  const Board b = Paddies(PaddyState::kDrained);
  for (UnitKind k :
       {UnitKind::kInfantry, UnitKind::kCavalry, UnitKind::kCycle, UnitKind::kFullyTracked}) {
    MoveOptions o;
    o.unit = Unit(k);
    EXPECT_TRUE(Move(b, o, "oM5,oM4").legal()) << Name(k);
  }
  for (UnitKind k : {UnitKind::kTruck, UnitKind::kBicycle}) {
    MoveOptions o;
    o.unit = Unit(k);
    const MoveReport r = Move(b, o, "oM5,oM4");
    EXPECT_FALSE(r.legal()) << Name(k);
    EXPECT_EQ(r.refusal()->rule, rules::kG8_2.id) << Name(k);
    auto doc = CliPaddyMove("drained", "oM5,oM4", {"--unit", Name(k)});
    EXPECT_FALSE(doc["legal"]);
    EXPECT_EQ(doc["refusal"]["rule"], rules::kG8_2.id);
  }
}

// G8.12: no Galloping Cavalry, Pushed/Ridden motorcycle, ridden bicycle or unhooked
// non-vehicular Gun (unless Animal-Packed) IN an Irrigated paddy.
TEST(G8, Rule8_12_NotAllowedInIrrigated) {
  const Board b = Paddies(PaddyState::kIrrigated);
  const Unit banned[] = {Unit(UnitKind::kCavalry).Set(UnitFlag::kGalloping), Unit(UnitKind::kCycle),
                         Unit(UnitKind::kInfantry).Set(UnitFlag::kPushingMotorcycle),
                         Unit(UnitKind::kBicycle),
                         Unit(UnitKind::kInfantry).Set(UnitFlag::kManhandlingGun)};
  for (const Unit& u : banned) {
    auto s = MayBeIn(b, u, test::Hex(b, "oL3"), true);
    ASSERT_FALSE(s.has_value()) << u.ToString();
    EXPECT_EQ(s.error().rule, rules::kG8_12.id) << u.ToString();
  }
  EXPECT_TRUE(
      MayBeIn(b,
              Unit(UnitKind::kInfantry).Set(UnitFlag::kManhandlingGun).Set(UnitFlag::kAnimalPacked),
              test::Hex(b, "oL3"), false)
          .has_value());
  EXPECT_TRUE(
      MayBeIn(Paddies(PaddyState::kDrained), Unit(UnitKind::kCycle), test::Hex(b, "oL3"), false)
          .has_value());
  auto doc = CliPaddyMove("irrigated", "oM5,oM4", {"--unit", "cavalry", "--flag", "galloping"});
  EXPECT_EQ(doc["refusal"]["rule"], rules::kG8_12.id);
}

// G8.21: only units allowed INTO a paddy may cross a bank hexside, but bicyclists may cross one
// onto a Bank counter or a road; Infantry (even riding bicycles or leading horses, not
// Manhandling a Gun/boat), Cavalry and Cycle Riders may be above a Bank counter.
TEST(G8, Rule8_21_BankCrossingAndBankCounters) {
  const Board b = Paddies(PaddyState::kDrained);
  MoveOptions bike;
  bike.unit = Unit(UnitKind::kBicycle);
  EXPECT_TRUE(Move(b, bike, "oM5,oM4:bank").legal());
  EXPECT_EQ(Move(b, bike, "oM5,oM4").refusal()->rule, rules::kG8_2.id);
  MoveOptions truck;
  truck.unit = Unit(UnitKind::kTruck);
  EXPECT_EQ(Move(b, truck, "oM5,oM4:bank").refusal()->rule, rules::kG8_21.id);
  MoveOptions tank;
  tank.unit = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kAfv);
  EXPECT_EQ(Move(b, tank, "oM5,oM4:bank").refusal()->rule, rules::kG8_21.id);
  MoveOptions gun = Infantry();
  gun.unit.Set(UnitFlag::kManhandlingGun);
  EXPECT_EQ(Move(b, gun, "oL2,oL2:bank").refusal()->rule, rules::kG8_21.id);
  MoveOptions horses = Infantry();
  horses.unit.Set(UnitFlag::kLeadingHorses);
  EXPECT_TRUE(Move(b, horses, "oL2,oL2:bank").legal());
  EXPECT_EQ(CliPaddyMove("drained", "oM5,oM4:bank", {"--unit", "truck"})["refusal"]["rule"],
            rules::kG8_21.id);
}

// G8.21 EXC: a bicyclist above a Bank counter may cross a bank hexside into a road hex.
TEST(G8, Rule8_21_BicyclistOntoARoad) {
  Board b = Paddies(PaddyState::kDrained);
  MoveOptions bike;
  bike.unit = Unit(UnitKind::kBicycle);
  EXPECT_EQ(Move(b, bike, "oM4:bank,oM5").refusal()->rule, rules::kG8_21.id);
  b.MutableAt(test::Hex(b, "oM5"))->road = Road::kDirt;
  const MoveReport r = Move(b, bike, "oM4:bank,oM5");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.steps[1].charges[0].rule, rules::kG8_2107.id);
}

// G8.2111 EX: Irrigated; squad B, having expended two MF, is pinned/broken on its Bank counter:
// it enters INTO oL3 for three more MF even beyond its MF, and does not become CX.
TEST(G8, Ex8_2111_ForcedIntoWhenPinned) {
  MoveOptions o = Infantry();
  o.allowance = Cost::Points(4);
  for (const char* event : {"+pinned", "+broken"}) {
    const std::string path = std::string("oL3:bank,oL2:bank,oL3:bank,") + event;
    const MoveReport r = Move(Paddies(PaddyState::kIrrigated), o, path);
    ASSERT_TRUE(r.legal()) << path;
    EXPECT_EQ(r.steps[3].total().value(), 3);
    EXPECT_EQ(r.steps[3].charges[0].rule, rules::kG8_2111.id);
    EXPECT_EQ(r.total().value(), 5);
    EXPECT_FALSE(r.cx);
    EXPECT_EQ(r.steps[3].to.place, Place::kHex);
    auto doc = CliPaddyMove("irrigated", path, {"--allowance", "4"});
    EXPECT_TRUE(doc["legal"]);
    EXPECT_EQ(doc["total"], 5);
    EXPECT_FALSE(doc["cx"]);
    EXPECT_EQ(doc["steps"][3]["charges"][0]["rule"], rules::kG8_2111.id);
  }
  // Without the forced entry the same 5 MF would exceed the allowance.
  EXPECT_EQ(
      Move(Paddies(PaddyState::kIrrigated), o, "oL3:bank,oL2:bank,oL3:bank,oL3").refusal()->rule,
      rules::kAslA4_1.id);
}

// G8.2111: pinned or broken, it moves no further; broken (not pinned) it takes the -1 FFNAM DRM.
TEST(G8, Rule8_2111_PinnedOrBrokenEndsTheMove) {
  const Board b = Paddies(PaddyState::kDrained);
  const MoveReport pinned = Move(b, Infantry(), "oL3:bank,+pinned,oM3");
  EXPECT_FALSE(pinned.legal());
  EXPECT_EQ(pinned.refusal()->rule, rules::kG8_2111.id);
  const MoveReport broken = Move(b, Infantry(), "oL3:bank,+broken");
  bool ffnam = false;
  for (const Note& n : broken.steps[1].notes)
    ffnam = ffnam || n.text.find("FFNAM") != std::string::npos;
  EXPECT_TRUE(ffnam);
  // The event is the unit's state in the answer.
  EXPECT_EQ(pinned.unit, "infantry+pinned");
  EXPECT_EQ(broken.unit, "infantry+broken");
  EXPECT_EQ(CliPaddyMove("drained", "oL3:bank,+broken")["unit_after"], "infantry+broken");
}

// G8.2111: Low Crawl onto a Bank counter is NA; above one a unit is subject to Hazardous Movement.
TEST(G8, Rule8_2111_LowCrawlAndHazardousMovement) {
  MoveOptions o = Infantry();
  o.low_crawl = true;
  EXPECT_EQ(Move(Paddies(PaddyState::kDrained), o, "oL2,oL2:bank").refusal()->rule,
            rules::kG8_2111.id);
  const MoveReport r = Move(Paddies(PaddyState::kDrained), Infantry(), "oL2,oL2:bank");
  bool hm = false;
  for (const Note& n : r.steps[1].notes)
    hm = hm || (n.rule == rules::kG8_2111.id && n.text.find("Hazardous") != std::string::npos);
  EXPECT_TRUE(hm);
}

// G8.2112 EX: Cavalry on a Bank counter dismounts only onto it, for the normal one MF.
TEST(G8, Ex8_2112_CavalryDismountsOntoTheBank) {
  MoveOptions cav;
  cav.unit = Unit(UnitKind::kCavalry);
  const MoveReport r = Move(Paddies(PaddyState::kDrained), cav, "oL3:bank,+dismount");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.total().value(), 1);
  EXPECT_EQ(r.steps[1].to.place, Place::kBank);
  EXPECT_EQ(r.unit, "infantry");
  auto doc = CliPaddyMove("drained", "oL3:bank,+dismount", {"--unit", "cavalry"});
  EXPECT_EQ(doc["total"], 1);
  EXPECT_EQ(doc["steps"][1]["to"], "oL3:bank");
  EXPECT_EQ(doc["steps"][1]["charges"][0]["rule"], rules::kG8_2112.id);
}

// G8.2112 EX: Infantry IN any paddy mounts a horse on the Bank counter only by first going onto
// the Bank counter (1 MF), then mounting (1 MF).
TEST(G8, Ex8_2112_InfantryMountsAHorseOnTheBank) {
  MoveOptions o = Infantry();
  o.transport = Transport::kHorse;
  o.transport_at = Place::kBank;
  for (PaddyState state : {PaddyState::kDrained, PaddyState::kIrrigated, PaddyState::kInSeason}) {
    const Board b = Paddies(state);
    const MoveReport r = Move(b, o, "oL3,oL3:bank,+mount");
    ASSERT_TRUE(r.legal());
    EXPECT_EQ(StepCosts(r), (std::vector<double>{1, 1}));
    EXPECT_EQ(r.unit, "cavalry");
    EXPECT_EQ(Move(b, o, "oL3,+mount").refusal()->rule, rules::kG8_2112.id);
    auto doc = CliPaddyMove(Name(state), "oL3,oL3:bank,+mount",
                            {"--transport", "horse", "--transport-at", "bank"});
    EXPECT_EQ(CliStepCosts(doc), (std::vector<double>{1, 1}));
    EXPECT_EQ(
        CliPaddyMove(Name(state), "oL3,+mount", {"--transport-at", "bank"})["refusal"]["rule"],
        rules::kG8_2112.id);
  }
}

// G8.2112 EX: Infantry on a Bank counter mount transport IN their In-Season paddy for 2½ MF.
TEST(G8, Ex8_2112_MountTransportInTheInSeasonPaddy) {
  MoveOptions o = Infantry();
  o.transport = Transport::kVehicle;
  o.transport_at = Place::kHex;
  const MoveReport r = Move(Paddies(PaddyState::kInSeason), o, "oL3:bank,oL3,+mount");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.total().value(), 2.5);
  EXPECT_EQ(CliPaddyMove("in-season", "oL3:bank,oL3,+mount",
                         {"--transport", "vehicle", "--transport-at", "in"})["total"],
            2.5);
}

// G8.2112: Cavalry may Gallop/Charge neither onto nor off a Bank counter; Bailing Out goes INTO
// the hex, and a cycle placed IN an Irrigated paddy is eliminated.
TEST(G8, Rule8_2112_GallopAndBailOut) {
  MoveOptions gallop;
  gallop.unit = Unit(UnitKind::kCavalry).Set(UnitFlag::kGalloping);
  EXPECT_EQ(Move(Paddies(PaddyState::kDrained), gallop, "oM5,oM4:bank").refusal()->rule,
            rules::kG8_2112.id);
  MoveOptions cycle;
  cycle.unit = Unit(UnitKind::kCycle);
  const MoveReport r = Move(Paddies(PaddyState::kIrrigated), cycle, "oL3:bank,+bailout");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.steps[1].to.place, Place::kHex);
  bool eliminated = false;
  for (const Note& n : r.steps[1].notes)
    eliminated = eliminated || n.text.find("eliminated") != std::string::npos;
  EXPECT_TRUE(eliminated);
}

// G8.2121: an AFV crossing an unbreached bank hexside is subject to Underbelly Hits.
TEST(G8, Rule8_2121_UnderbellyHits) {
  MoveOptions tank;
  tank.unit = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kAfv);
  const MoveReport r = Move(Paddies(PaddyState::kDrained), tank, "oM5,oM4");
  bool underbelly = false;
  for (const Note& n : r.steps[1].notes) underbelly = underbelly || n.rule == rules::kG8_2121.id;
  EXPECT_TRUE(underbelly);
}

// ---- G8.5 EX: mud -----------------------------------------------------------------------------

// G8.5 EX: Drained, EC Mud: Double Time, INTO oL3 1 MF, INTO oM3 2½, onto its bank 1, onto oM2's
// bank 1½: six MF in all.
TEST(G8, Ex8_5_SquadBInMud) {
  MoveOptions o = Infantry();
  o.double_time = true;
  o.allowance = Cost::Points(4);
  const MoveReport r =
      Move(Paddies(PaddyState::kDrained, Ec::kMud), o, "oL3:bank,oL3,oM3,oM3:bank,oM2:bank");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(StepCosts(r), (std::vector<double>{1, 2.5, 1, 1.5}));
  EXPECT_TRUE(r.cx);
  auto doc = CliPaddyMove("drained", "oL3:bank,oL3,oM3,oM3:bank,oM2:bank",
                          {"--ec", "mud", "--double-time", "--allowance", "4"});
  EXPECT_TRUE(doc["legal"]);
  EXPECT_EQ(CliStepCosts(doc), (std::vector<double>{1, 2.5, 1, 1.5}));
  MoveOptions plain = o;
  plain.double_time = false;
  EXPECT_EQ(
      Move(Paddies(PaddyState::kDrained, Ec::kMud), plain, "oL3:bank,oL3,oM3,oM3:bank,oM2:bank")
          .refusal()
          ->rule,
      rules::kAslA4_1.id);
}

// G8.5 EX: straight off the Bank counter INTO oM3, then onto oM2's Bank counter: 2½ MF each.
TEST(G8, Ex8_5_SquadBOffTheBankInMud) {
  const MoveReport r =
      Move(Paddies(PaddyState::kDrained, Ec::kMud), Infantry(), "oL3:bank,oM3,oM2:bank");
  EXPECT_EQ(StepCosts(r), (std::vector<double>{2.5, 2.5}));
  EXPECT_EQ(CliStepCosts(CliPaddyMove("drained", "oL3:bank,oM3,oM2:bank", {"--ec", "mud"})),
            (std::vector<double>{2.5, 2.5}));
}

// G8.5 EX: never leaving the banks, 1½ MF in each hex.
TEST(G8, Ex8_5_SquadBOnTheBanksInMud) {
  const MoveReport r =
      Move(Paddies(PaddyState::kDrained, Ec::kMud), Infantry(), "oL3:bank,oM3:bank,oM2:bank");
  EXPECT_EQ(StepCosts(r), (std::vector<double>{1.5, 1.5}));
  EXPECT_EQ(CliStepCosts(CliPaddyMove("drained", "oL3:bank,oM3:bank,oM2:bank", {"--ec", "mud"})),
            (std::vector<double>{1.5, 1.5}));
}

// G8.5: mud's extra cost is already in the Irrigated IN-hex COT: no second ½ MF with EC Mud.
TEST(G8, Rule8_5_IrrigatedAlreadyIncludesMud) {
  const MoveReport r = Move(Paddies(PaddyState::kIrrigated, Ec::kMud), Infantry(), "oM5,oM4");
  EXPECT_EQ(r.total().value(), 4);
}

// ---- G8.7x, G8.8 ------------------------------------------------------------------------------

// G8.71: Infantry ignore the bank-crossing cost entering one Trench counter from another.
TEST(G8, Rule8_71_TrenchToTrench) {
  Board b = Paddies(PaddyState::kDrained);
  for (const char* hex : {"oL2", "oL3"})
    b.MutableAt(test::Hex(b, hex))->counters.push_back(CounterType::kTrench);
  const MoveReport r = Move(b, Infantry(), "oL2:trench,oL3:trench");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.total().value(), 1);
  bool g871 = false;
  for (const Note& n : r.steps[1].notes) g871 = g871 || n.rule == rules::kG8_71.id;
  EXPECT_TRUE(g871);
  EXPECT_EQ(Move(b, Infantry(), "oL2,oL3").total().value(), 2);
}

// G8.72 EX: shellholes IN an In-Season paddy: interior and shellholes together for two MF plus
// the bank; the grain is gone.
TEST(G8, Ex8_72_ShellholesInAnInSeasonPaddy) {
  Board b = Paddies(PaddyState::kInSeason);
  b.MutableAt(test::Hex(b, "oL4"))->counters.push_back(CounterType::kShellholes);
  const MoveReport r = Move(b, Infantry(), "oM5,oL4");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.total().value(), 3);
  EXPECT_EQ(r.steps[1].charges[1].rule, rules::kG8_72.id);
  EXPECT_FALSE(InteriorIsGrain(b, test::Hex(b, "oL4")));
  EXPECT_TRUE(InteriorIsGrain(b, test::Hex(b, "oL3")));
  test::TempBoard file(test::BoardPath("g8_2108"),
                       R"({"counters": [{"type": "shellholes", "hex": "oL4"}]})");
  auto doc = Cli({"move", "--board", file.path(), "--paddy", "in-season", "--path", "oM5,oL4"});
  EXPECT_EQ(doc["total"], 3);
  auto los =
      Cli({"los", "--board", file.path(), "--paddy", "in-season", "--from", "A", "--to", "oK4"});
  EXPECT_EQ(los["hindrance"], 0);  // the LOS runs through oL4 only: no grain there
}

// G8.72, G8.73, G8.7: shellholes, subterranean passages and Fortifications other than mines,
// wire and panjis are impossible in an Irrigated paddy.
TEST(G8, Rule8_72_73_7_IrrigatedSetUp) {
  Board b = Paddies(PaddyState::kIrrigated);
  EXPECT_TRUE(CheckPaddySetup(b).has_value());
  Board shell = b;
  shell.MutableAt(test::Hex(b, "oL4"))->counters.push_back(CounterType::kShellholes);
  EXPECT_EQ(CheckPaddySetup(shell).error().rule, rules::kG8_72.id);
  Board tunnel = b;
  tunnel.MutableAt(test::Hex(b, "oL4"))->subterranean = true;
  EXPECT_EQ(CheckPaddySetup(tunnel).error().rule, rules::kG8_73.id);
  Board trench = b;
  trench.MutableAt(test::Hex(b, "oL4"))->counters.push_back(CounterType::kTrench);
  EXPECT_EQ(CheckPaddySetup(trench).error().rule, rules::kG8_7.id);
  Board wire = b;
  wire.MutableAt(test::Hex(b, "oL4"))->counters.push_back(CounterType::kWire);
  EXPECT_TRUE(CheckPaddySetup(wire).has_value());
  trench.mutable_settings().paddy = PaddyState::kDrained;
  EXPECT_TRUE(CheckPaddySetup(trench).has_value());
  test::TempBoard file(test::BoardPath("g8_2108"),
                       R"({"counters": [{"type": "shellholes", "hex": "oL4"}]})");
  auto doc = Cli({"move", "--board", file.path(), "--paddy", "irrigated", "--path", "oM5,oL4"}, 2);
  EXPECT_EQ(doc["error"]["rule"], rules::kG8_72.id);
}

// G8.7: no Bank counter in a paddy hex with a Wire or Panji counter.
TEST(G8, Rule8_7_NoBankWithWire) {
  Board b = Paddies(PaddyState::kDrained);
  b.MutableAt(test::Hex(b, "oM4"))->counters.push_back(CounterType::kWire);
  EXPECT_EQ(Move(b, Infantry(), "oM5,oM4:bank").refusal()->rule, rules::kG8_7.id);
}

// G8.7 with G13.5: a Beach Obstacle is a Fortification (G14.5), so an Irrigated paddy refuses
// it as it refuses trenches; every counter type is checked against G8.7's list: only mines and
// wire (and panjis) of the Fortifications, and none of the counters that are not Fortifications.
TEST(G8, Rule8_7_EveryCounterTypeInAnIrrigatedPaddy) {
  const Board b = Paddies(PaddyState::kIrrigated);
  for (std::size_t i = 0; i < static_cast<std::size_t>(CounterType::kCount); ++i) {
    const auto t = static_cast<CounterType>(i);
    if (t == CounterType::kShellholes) continue;  // G8.72, above
    Board with = b;
    with.MutableAt(test::Hex(b, "oL4"))->counters.push_back(t);
    const bool allowed = !IsFortification(t) || t == CounterType::kWire || t == CounterType::kMines;
    const Status s = CheckPaddySetup(with);
    EXPECT_EQ(s.has_value(), allowed) << Name(t);
    if (!allowed) {
      EXPECT_EQ(s.error().rule, rules::kG8_7.id) << Name(t);
    }
    with.mutable_settings().paddy = PaddyState::kDrained;
    EXPECT_TRUE(CheckPaddySetup(with).has_value()) << Name(t);
  }
  EXPECT_TRUE(IsFortification(CounterType::kBeachObstacle));
  EXPECT_FALSE(IsFortification(CounterType::kTripFlare));
  test::TempBoard file(test::BoardPath("g8_2108"),
                       R"({"counters": [{"type": "beach-obstacle", "hex": "oL4"}]})");
  auto doc = Cli({"move", "--board", file.path(), "--paddy", "irrigated", "--path", "oM5,oL4"}, 2);
  EXPECT_EQ(doc["error"]["rule"], rules::kG8_7.id);
  EXPECT_NE(doc["error"]["message"].get<std::string>().find("beach-obstacle"), std::string::npos);
  EXPECT_TRUE(
      Cli({"move", "--board", file.path(), "--paddy", "drained", "--path", "oM5,oL4"})["legal"]);
}

// G8.8 EX: Drained, oL2-oL3 breached: C enters INTO oL3 for one MF but onto its Bank counter
// still for two; B's entry into/INTO oL2 is unaffected.
TEST(G8, Ex8_8_BreachedOL2OL3) {
  Board b = Paddies(PaddyState::kDrained);
  b.MutableFeatures(*Hexside::Between(test::Hex(b, "oL2"), test::Hex(b, "oL3"))).breached = true;
  EXPECT_EQ(Move(b, Infantry(), "oL2,oL3").total().value(), 1);
  EXPECT_EQ(Move(b, Infantry(), "oL2,oL3:bank").total().value(), 2);
  EXPECT_EQ(Move(b, Infantry(), "oL3:bank,oL2").total().value(), 2);
  EXPECT_EQ(Move(b, Infantry(), "oL3:bank,oL2:bank").total().value(), 1);
  test::TempBoard file(test::BoardPath("g8_2108"),
                       R"({"hexsides": [{"hexes": "oL2-oL3", "breached": true}]})");
  auto cli = [&](const std::string& path) {
    return Cli({"move", "--board", file.path(), "--paddy", "drained", "--path", path})["total"]
        .get<double>();
  };
  EXPECT_EQ(cli("oL2,oL3"), 1);
  EXPECT_EQ(cli("oL2,oL3:bank"), 2);
  EXPECT_EQ(cli("oL3:bank,oL2"), 2);
  EXPECT_EQ(cli("oL3:bank,oL2:bank"), 1);
}

// G8.8 EX: oL4-oM5 breached: A enters INTO oL4 for one MF; with oL4-oK5 breached too, a truck
// Bypassing oM5 enters INTO oL4, INTO oK5 and INTO oL4 for its Open Ground four MP each.
TEST(G8, Ex8_8_TruckThroughTheBreaches) {
  Board b = Paddies(PaddyState::kDrained);
  b.MutableFeatures(*Hexside::Between(test::Hex(b, "oL4"), test::Hex(b, "oM5"))).breached = true;
  EXPECT_EQ(Move(b, Infantry(), "oM5,oL4").total().value(), 1);
  MoveOptions truck;
  truck.unit = Unit(UnitKind::kTruck);
  EXPECT_FALSE(Move(b, truck, "oM5,oL4,oK5").legal());
  b.MutableFeatures(*Hexside::Between(test::Hex(b, "oL4"), test::Hex(b, "oK5"))).breached = true;
  const MoveReport r = Move(b, truck, "oM5,oL4,oK5,oL4");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(StepCosts(r), (std::vector<double>{4, 4, 4}));
  test::TempBoard file(test::BoardPath("g8_2108"),
                       R"({"hexsides": [{"hexes": "oL4-oM5", "breached": true},
                                                {"hexes": "oL4-oK5", "breached": true}]})");
  auto doc = Cli({"move", "--board", file.path(), "--paddy", "drained", "--unit", "truck", "--path",
                  "oM5,oL4,oK5,oL4"});
  EXPECT_EQ(CliStepCosts(doc), (std::vector<double>{4, 4, 4}));
  EXPECT_EQ(
      Cli({"move", "--board", file.path(), "--paddy", "drained", "--path", "oM5,oL4"})["total"], 1);
}

// G8.8: a Mobile dozer breaches a bank hexside of a Drained/In-Season paddy for ¼ (FRU) of its
// printed MP; not an Irrigated one.
TEST(G8, Rule8_8_DozerBreach) {
  MoveOptions dozer;
  dozer.unit = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kDozer);
  dozer.printed_mp = 13;
  const MoveReport r = Move(Paddies(PaddyState::kDrained), dozer, "oM5,+breach:oM4,oM4");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.steps[1].total().value(), 4);  // 13 / 4, FRU
  EXPECT_EQ(r.steps[2].total().value(), 1);  // no bank MP once breached
  EXPECT_EQ(Move(Paddies(PaddyState::kIrrigated), dozer, "oM5,+breach:oM4").refusal()->rule,
            rules::kG8_8.id);
  MoveOptions tank = dozer;
  tank.unit = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kAfv);
  EXPECT_EQ(Move(Paddies(PaddyState::kDrained), tank, "oM5,+breach:oM4").refusal()->rule,
            rules::kG8_8.id);
}

}  // namespace
}  // namespace opsim::tactical
