// G13 Beaches: the rules one by one (G13.1-G13.82), with the G13.12 and G13.13 examples on small
// fixture boards (tests/tactical/boards/). The DYO procedure is in g13_dyo_test.cpp.
#include <gtest/gtest.h>

#include "opsim/core/dice.h"
#include "opsim/core/rule_ids.h"
#include "opsim/tactical/activity.h"
#include "opsim/tactical/attack.h"
#include "opsim/tactical/beach.h"
#include "opsim/tactical/board_file.h"
#include "opsim/tactical/surf.h"
#include "tactical_test_util.h"

namespace opsim::tactical {
namespace {

using test::Beach;
using test::Cli;
using test::End;
using test::HasNote;
using test::Infantry;
using test::Move;
using test::StepCosts;

// A board file with the beach's Slope set.
Board Load(const std::string& path, Slope s = Slope::kSlight) {
  Board out = test::LoadFile(path);
  out.mutable_settings().slope = s;
  return out;
}

bool Has(const std::vector<LosFactor>& v, const std::string& rule) {
  for (const auto& f : v) {
    if (f.rule == rule) return true;
  }
  return false;
}

MoveOptions Vehicle(UnitKind k, bool waterproofed = false) {
  MoveOptions o;
  o.unit = Unit(k)
               .Set(UnitFlag::kAfv, k == UnitKind::kFullyTracked)
               .Set(UnitFlag::kWaterproofed, waterproofed);
  return o;
}

// ---- G13.1, G13.2, G13.24
// ---------------------------------------------------------------------------

// G13.1: an overlay hex is always called by its printed coordinate, not that of the hex it covers;
// overlay hexes beyond the mapboard's edge are playable.
TEST(G13, Rule13_1_OverlayCoordinates) {
  const Board b = test::Illustration("g13_23");
  auto covered = b.Find("F10");
  ASSERT_FALSE(covered.has_value());
  EXPECT_EQ(covered.error().rule, rules::kG13_1.id);
  EXPECT_NE(covered.error().message.find("406"), std::string::npos);
  EXPECT_TRUE(b.Find("1013").has_value());  // beyond the mapboard's southern edge
  auto doc = Cli(
      {"move", "--board", test::BoardPath("g13_23"), "--slope", "slight", "--path", "F9,F10"}, 2);
  EXPECT_EQ(doc["error"]["rule"], rules::kG13_1.id);
}

// G13.2: non-Beach land hexes not part of an Island are Hinterland; Beach-Hinterland and
// Beach-OCEAN hexsides follow.
TEST(G13, Rule13_2_HinterlandAndHexsides) {
  const Board b = Beach(Slope::kSlight);
  EXPECT_TRUE(IsHinterland(b, test::Hex(b, "D9")));
  EXPECT_FALSE(IsHinterland(b, test::Hex(b, "406")));
  EXPECT_FALSE(IsHinterland(b, test::Hex(b, "1079")));
  EXPECT_TRUE(IsBeachHinterland(b, *Hexside::Between(test::Hex(b, "F9"), test::Hex(b, "406"))));
  EXPECT_TRUE(IsBeachOcean(b, *Hexside::Between(test::Hex(b, "459"), test::Hex(b, "1084"))));
  test::TempBoard island(
      test::BoardPath("g13_23"),
      R"({"grids": [{"name": "island", "role": "island", "letters": {"prefix": "i", "columns": "A", "rows": "1"},
                              "place": {"hex": "iA1", "on": "A20"}}]})");
  const Board i = Load(island.path());
  EXPECT_TRUE(IsIsland(i, test::Hex(i, "iA1")));
  EXPECT_FALSE(IsHinterland(i, test::Hex(i, "iA1")));
}

// G13.21/.22: a LOS across a Beach-Hinterland hexside of a Slight or Moderate beach sees Beach and
// OCEAN hexes at Level 0; Steep, they stay at Level -1 (G13.23).
TEST(G13, Rule13_21_LevelsAcrossTheShore) {
  for (auto [slope, level] : {std::pair{Slope::kSlight, 0}, std::pair{Slope::kModerate, 0},
                              std::pair{Slope::kSteep, -1}}) {
    const Board b = Beach(slope);
    EXPECT_EQ(CheckLos(b, End(b, "4-4-7"), End(b, "6-6-8")).to_level, level) << Name(slope);
  }
  const Board b = Beach(Slope::kSlight);
  EXPECT_EQ(CheckLos(b, End(b, "6-6-8"), End(b, "LC F")).to_level,
            -1);  // no Beach-Hinterland hexside
}

// G13.24: a Beach hex with a cliff Beach-Hinterland hexside stays at Level -1 for all purposes;
// the cliff cannot be crossed (opsim does not model Climbing).
TEST(G13, Rule13_24_Cliffs) {
  test::TempBoard file(test::BoardPath("g13_23"),
                       R"({"hexsides": [{"hexes": "G10-408", "cliff": true}]})");
  const Board b = Load(file.path());
  EXPECT_TRUE(IsCliffBeach(b, test::Hex(b, "408")));
  EXPECT_FALSE(IsCliffBeach(b, test::Hex(b, "406")));
  EXPECT_EQ(TerrainLevel(b, test::Hex(b, "408"), true), -1);
  EXPECT_EQ(TerrainLevel(b, test::Hex(b, "406"), true), 0);
  EXPECT_EQ(Move(b, Infantry(), "G10,408").refusal()->rule, rules::kG13_24.id);
  auto doc = Cli({"move", "--board", file.path(), "--slope", "slight", "--path", "G10,408"});
  EXPECT_EQ(doc["refusal"]["rule"], rules::kG13_24.id);
}

// ---- G13.12 EX, G13.13 EX, G13.14 --------------------------------------------------------------

// An OCEAN-overlay hex laid next to the river of the river_mouth fixture.
const char* kOceanAtTheRiver =
    R"({"grids": [{"name": "OC2", "role": "ocean", "numbers": {"first": 2001, "per_row": 1,
  "rows": 1}, "place": {"hex": "2001", "on": "7B6"}}]})";

// G13.12 EX: no OCEAN-overlay hexside covers a board-7 river hexside: normal Chapter B river rules
// (Fording, not Wading) apply in that river.
TEST(G13, Ex13_12_RiverStaysARiver) {
  const Board b = Load(test::FixturePath("river_mouth"));
  for (const char* hex : {"7C1", "7C5", "7C6"}) {
    EXPECT_FALSE(RiverIsOcean(b, test::Hex(b, hex))) << hex;
    EXPECT_FALSE(IsOcean(b, test::Hex(b, hex))) << hex;
  }
  EXPECT_EQ(Move(b, Infantry(), "7D5,7C5").refusal()->rule, rules::kG13_12.id);
  EXPECT_EQ(Cli({"move", "--board", test::FixturePath("river_mouth"), "--path",
                 "7D5,7C5"})["refusal"]["rule"],
            rules::kG13_12.id);
}

// G13.12 EX: once an OCEAN-overlay hexside covers one of its hexsides, the river's hexes are OCEAN
// hexes: Wading in its shallow ones, a Water Obstacle in its deep ones.
TEST(G13, Ex13_12_RiverBecomesOcean) {
  test::TempBoard file(test::FixturePath("river_mouth"), kOceanAtTheRiver);
  const Board b = Load(file.path());
  for (const char* hex : {"7C1", "7C5", "7C6"}) EXPECT_TRUE(IsOcean(b, test::Hex(b, hex))) << hex;
  const MoveReport wade = Move(b, Infantry(), "7D5,7C5");
  ASSERT_TRUE(wade.legal());
  EXPECT_EQ(wade.steps[1].charges[0].rule, rules::kG13_42.id);
  EXPECT_TRUE(IsWading(b, test::At(b, "7C5"), Unit(UnitKind::kInfantry)));
  EXPECT_EQ(Move(b, Infantry(), "7D1,7C1").refusal()->rule, rules::kG13_4.id);
  auto doc = Cli({"move", "--board", file.path(), "--path", "7D5,7C5"});
  EXPECT_TRUE(doc["legal"]);
  EXPECT_EQ(doc["steps"][1]["charges"][0]["rule"], rules::kG13_42.id);
}

// G13.4223: a Wading vehicle leaving shallow OCEAN across an OCEAN-Hinterland hexside is subject
// to Bog; across a Beach-OCEAN hexside it is not.
TEST(G13, Rule13_4223_WadingBog) {
  test::TempBoard file(test::FixturePath("river_mouth"), kOceanAtTheRiver);
  const Board b = Load(file.path());
  const MoveOptions tank = Vehicle(UnitKind::kFullyTracked, true);
  EXPECT_TRUE(HasNote(Move(b, tank, "7C5,7B5").steps[1], rules::kG13_4223));
  EXPECT_FALSE(HasNote(Move(b, tank, "7C6,101").steps[1], rules::kG13_4223));
}

// G13.13 EX: a LOS along the hexside between a Beach hex and a dense-jungle hex is not blocked
// by the jungle (the overlay covers that part of it); a SMOKE/Wreck/AFV/Rubble counter in the
// jungle hex still Hinders it; Bypass along that hexside is NA (G13.81).
TEST(G13, Ex13_13_JungleUnderTheBeach) {
  const std::string path = test::FixturePath("jungle_beach");
  const Board b = Load(path);
  const LosResult beach = CheckLos(b, End(b, "105"), End(b, "107"));
  ASSERT_EQ(beach.trace.along.size(), 1u);
  EXPECT_EQ(b.Name(beach.trace.along[0]), "F9-106");
  EXPECT_TRUE(beach.clear);
  EXPECT_EQ(beach.hindrance, 0);
  const LosResult inland =
      CheckLos(b, End(b, "E9"), End(b, "G9"));  // along F8-F9: no overlay there
  EXPECT_FALSE(inland.clear);
  EXPECT_EQ(inland.blocked->rule, "B.6");
  EXPECT_TRUE(Cli({"los", "--board", path, "--from", "105", "--to", "107"})["los"]);
  EXPECT_FALSE(Cli({"los", "--board", path, "--from", "E9", "--to", "G9"})["los"]);
  for (const char* counter : {"smoke", "wreck", "afv", "rubble"}) {
    test::TempBoard hindered(
        path, std::string(R"({"counters": [{"type": ")") + counter + R"(", "hex": "F9"}]})");
    const Board h = Load(hindered.path());
    const LosResult los = CheckLos(h, End(h, "105"), End(h, "107"));
    EXPECT_TRUE(los.clear) << counter;
    EXPECT_EQ(los.hindrance, 1) << counter;
    EXPECT_EQ(Cli({"los", "--board", hindered.path(), "--from", "105", "--to", "107"})["hindrance"],
              1)
        << counter;
  }
  EXPECT_EQ(Move(b, Infantry(), "105,F9~106").refusal()->rule, rules::kG13_81.id);
  EXPECT_EQ(Cli({"move", "--board", path, "--path", "105,F9~106"})["refusal"]["rule"],
            rules::kG13_81.id);
  EXPECT_EQ(Move(b, Infantry(), "E9,F9~F8").refusal(),
            nullptr);  // a jungle hexside inland: Bypass allowed
}

// G13.14: an Effluent hex is a Hard-Sand Beach hex in which Entrenchments are NA.
TEST(G13, Rule13_14_Effluent) {
  const std::string effluent =
      R"({"grids": [{"name": "Ef1", "role": "effluent", "numbers": {"first": 501, "per_row": 1, "rows": 1},
                                   "place": {"hex": "501", "on": "433"}}]})";
  test::TempBoard file(test::BoardPath("g13_23"), effluent);
  const Board b = Load(file.path(), Slope::kSteep);
  const GridPos ef = test::Hex(b, "501");
  EXPECT_TRUE(IsEffluent(b, ef));
  EXPECT_TRUE(IsBeach(b, ef));
  EXPECT_TRUE(IsHardSand(b, ef));
  EXPECT_EQ(CheckActivity(b, test::At(b, "501"), Unit(UnitKind::kInfantry), Activity::kEntrench)
                .error()
                .rule,
            rules::kG13_14.id);
  test::TempBoard dug(file.path(), R"({"counters": [{"type": "foxhole", "hex": "501"}]})");
  Board d = Load(dug.path());
  EXPECT_EQ(CheckBeachSetup(d).error().rule, rules::kG13_14.id);
}

// ---- G13.3, G13.32
// --------------------------------------------------------------------------------

// G13.3: a Beach hex is Hard Sand with a Beach-OCEAN hexside unless Steeply Sloped, and every Beach
// hex is Hard when EC are Wet, Mud or Snow; otherwise Soft.
TEST(G13, Rule13_3_HardOrSoft) {
  Board b = Beach(Slope::kSlight);
  const GridPos shore = test::Hex(b, "459");
  const GridPos inner = test::Hex(b, "433");
  EXPECT_TRUE(IsHardSand(b, shore));
  EXPECT_FALSE(IsHardSand(b, inner));
  b.mutable_settings().slope = Slope::kSteep;
  EXPECT_FALSE(IsHardSand(b, shore));
  for (Ec ec : {Ec::kWet, Ec::kMud, Ec::kSnow}) {
    b.mutable_settings().ec = ec;
    EXPECT_TRUE(IsHardSand(b, inner)) << Name(ec);
  }
}

// G13.32: vehicles in sand are subject to Sand Bog (F7.31).
TEST(G13, Rule13_32_SandBog) {
  const Board b = Beach(Slope::kSlight);
  EXPECT_TRUE(
      HasNote(Move(b, Vehicle(UnitKind::kFullyTracked), "420,433").steps[1], rules::kG13_32));
  EXPECT_FALSE(HasNote(Move(b, Infantry(), "420,433").steps[1], rules::kG13_32));
}

// ---- G13.4
// -------------------------------------------------------------------------------------------

// G13.4: an OCEAN hex is shallow within three hexes of a Slightly, two of a Moderately, or one of a
// Steeply Sloped Beach hex; deep OCEAN is a Water Obstacle.
TEST(G13, Rule13_4_ShallowOrDeep) {
  const std::pair<const char*, int> hexes[] = {{"1079", 1}, {"1066", 2}, {"1053", 3}, {"1040", 4}};
  for (auto [slope, reach] : {std::pair{Slope::kSlight, 3}, std::pair{Slope::kModerate, 2},
                              std::pair{Slope::kSteep, 1}}) {
    const Board b = Beach(slope);
    for (auto [hex, range] : hexes) {
      int nearest = 99;
      for (const Hex* h : b.Hexes()) {
        if (IsBeach(b, h->cell))
          nearest = std::min(nearest, map::Distance(test::Hex(b, hex), h->cell));
      }
      ASSERT_EQ(nearest, range) << hex;
      EXPECT_EQ(OceanDepth(b, test::Hex(b, hex)) == Depth::kShallow, range <= reach)
          << hex << Name(slope);
    }
  }
  EXPECT_EQ(Move(Beach(Slope::kSteep), Infantry(), "1079,1066").refusal()->rule, rules::kG13_4.id);
}

// G13.42/.421: a unit in shallow OCEAN is Wading (not a LC or boat): HE and DC FP vs Wading
// Infantry is halved; their own Small Arms are halved as Area Fire; no multi-hex Fire Group; a
// Wading SMC may not direct; no CC; broken Infantry may not rout into it.
TEST(G13, Rule13_421_WadingInfantry) {
  const Board b = Beach(Slope::kSlight);
  EXPECT_TRUE(IsWading(b, test::At(b, "1079"), Unit(UnitKind::kInfantry)));
  EXPECT_FALSE(IsWading(b, test::At(b, "1079"), Unit(UnitKind::kLandingCraft)));
  EXPECT_FALSE(IsWading(b, test::At(b, "1079"), Unit(UnitKind::kBoat)));
  LosEnd wader = End(b, "1079");
  const LosEnd shore = End(b, "459");
  for (AttackType a : {AttackType::kDirectHe, AttackType::kIndirectHe, AttackType::kThrownDc}) {
    const LosResult los = CheckLos(b, shore, wader);
    EXPECT_TRUE(Has(EvaluateAttack(b, shore, wader, a, los).fp, rules::kG13_421)) << Name(a);
  }
  const LosResult out = CheckLos(b, wader, shore);
  EXPECT_TRUE(
      Has(EvaluateAttack(b, wader, shore, AttackType::kSmallArms, out).fp, rules::kG13_421));
  EXPECT_EQ(EvaluateAttack(b, wader, shore, AttackType::kCloseCombat, out).refusals.size(), 1u);
  EXPECT_EQ(CheckActivity(b, wader.at, wader.unit, Activity::kMultiHexFireGroup).error().rule,
            rules::kG13_421.id);
  EXPECT_EQ(CheckActivity(b, wader.at, wader.unit, Activity::kDirectFire).error().rule,
            rules::kG13_421.id);
  MoveOptions rout = Infantry();
  rout.phase = Phase::kRout;
  rout.unit.Set(UnitFlag::kBroken);
  EXPECT_EQ(Move(b, rout, "459,1084").refusal()->rule, rules::kG13_421.id);
  auto doc = Cli({"los", "--board", test::BoardPath("g13_23"), "--slope", "slight", "--from", "459",
                  "--to", "1079", "--attack", "direct-he"});
  EXPECT_EQ(doc["fp"][0]["rule"], rules::kG13_421.id);
}

// G13.4211/.4212: Wading Infantry may fire, (un)dismantle, (un)Pack or (un)Limber no SW but fire a
// LMG; unpossessed SW in shallow OCEAN are eliminated; no Concealment dr by day (at night, yes).
TEST(G13, Rule13_4211_4212_WadingSwAndConcealment) {
  Board b = Beach(Slope::kSlight);
  const Position wade = test::At(b, "1079");
  const Unit inf(UnitKind::kInfantry);
  for (Activity a : {Activity::kFireSw, Activity::kDismantle, Activity::kPack, Activity::kLimber}) {
    EXPECT_EQ(CheckActivity(b, wade, inf, a).error().rule, rules::kG13_4211.id) << Name(a);
  }
  EXPECT_TRUE(DropItem(b, wade, false, false, false).eliminated);
  EXPECT_EQ(DropItem(b, wade, false, false, false).rule, rules::kG13_4211.id);
  EXPECT_EQ(CheckActivity(b, wade, inf, Activity::kConcealmentDr).error().rule,
            rules::kG13_4212.id);
  b.mutable_settings().night = true;
  EXPECT_TRUE(CheckActivity(b, wade, inf, Activity::kConcealmentDr).has_value());
}

// G13.422: a Ridden motorcycle cannot enter shallow OCEAN; ordnance TH vs a Wading vehicle +2.
TEST(G13, Rule13_422_MotorcyclesAndToHit) {
  const Board b = Beach(Slope::kSlight);
  MoveOptions cycle;
  cycle.unit = Unit(UnitKind::kCycle);
  EXPECT_EQ(Move(b, cycle, "459,1084").refusal()->rule, rules::kG13_422.id);
  LosEnd tank = End(b, "1079");
  tank.unit = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kAfv);
  const LosResult los = CheckLos(b, End(b, "459"), tank);
  const AttackEffects fx = EvaluateAttack(b, End(b, "459"), tank, AttackType::kDirectHe, los);
  ASSERT_TRUE(Has(fx.drm, rules::kG13_422));
  EXPECT_EQ(fx.drm.back().amount, 2);
}

// G13.4221/.4222: a Waterproofed vehicle (an amphibian always) is exempt from Swamping; a
// non-Waterproofed Wading vehicle entering shallow OCEAN takes a Swamping DR, + twice / three /
// six times the range to the nearest land hex by Slope; Final >= 12 immobilizes.
TEST(G13, Rule13_4222_Swamping) {
  for (auto [slope, times] : {std::pair{Slope::kSlight, 2}, std::pair{Slope::kModerate, 3},
                              std::pair{Slope::kSteep, 6}}) {
    const Board b = Beach(slope);
    EXPECT_EQ(SwampingDrm(b, test::Hex(b, "1084")), times * RangeToLand(b, test::Hex(b, "1084")));
    EXPECT_EQ(RangeToLand(b, test::Hex(b, "1084")), 1);
  }
  const Board b = Beach(Slope::kModerate);
  EXPECT_TRUE(HasNote(Move(b, Vehicle(UnitKind::kFullyTracked, true), "459,1084").steps[1],
                      rules::kG13_4221));
  EXPECT_TRUE(
      HasNote(Move(b, Vehicle(UnitKind::kAmphibian), "459,1084").steps[1], rules::kG13_4221));
  int immobilized = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    MoveOptions o = Vehicle(UnitKind::kFullyTracked);
    o.seed = seed;
    const MoveReport r = Move(b, o, "459,1084,1071");
    Dice probe(seed);
    const int dr = probe.Roll(6) + probe.Roll(6);
    const bool stuck = dr + 3 >= 12;
    EXPECT_EQ(r.legal(), !stuck) << seed;  // immobilized: it cannot go on into 1071
    immobilized += stuck;
    auto doc = Cli({"move", "--board", test::BoardPath("g13_23"), "--slope", "moderate", "--unit",
                    "fully-tracked", "--flag", "afv", "--seed", std::to_string(seed), "--path",
                    "459,1084,1071"});
    EXPECT_EQ(doc["legal"], !stuck) << seed;
  }
  EXPECT_GT(immobilized, 0);
}

// ---- G13.43 reefs, G13.44 Heavy Surf
// ----------------------------------------------------------------

const char* kReef =
    R"({"hexes": {"1014": {"reef": true}, "1015": {"reef": true}, "1016": {"reef": true},
  "1017": {"reef": true}, "1018": {"reef": true}, "1019": {"reef": true}, "1020": {"reef": true},
  "1021": {"reef": true}, "1022": {"reef": true}, "1023": {"reef": true}, "1024": {"reef": true},
  "1025": {"reef": true}, "1026": {"reef": true}}})";

// G13.43/.431: all Ocean hexes between the reef and the shore are shallow; an Exposed-reef hex is a
// Level -1 land hex (never Hinterland), a Submerged-reef hex shallow Ocean.
TEST(G13, Rule13_43_Reefs) {
  test::TempBoard file(test::BoardPath("g13_23"), kReef);
  Board b = Load(file.path(), Slope::kSteep);
  b.mutable_settings().reef = Reef::kExposed;
  ASSERT_TRUE(CheckBeachSetup(b).has_value());
  const GridPos mid = test::Hex(b, "1040");
  EXPECT_TRUE(BetweenReefAndShore(b, mid));
  EXPECT_EQ(OceanDepth(b, mid), Depth::kShallow);
  EXPECT_FALSE(BetweenReefAndShore(b, test::Hex(b, "1001")));
  EXPECT_EQ(OceanDepth(b, test::Hex(b, "1001")), Depth::kDeep);
  const GridPos reef = test::Hex(b, "1020");
  EXPECT_TRUE(IsExposedReef(b, reef));
  EXPECT_TRUE(IsLand(b, reef));
  EXPECT_FALSE(IsHinterland(b, reef));
  EXPECT_EQ(TerrainLevel(b, reef, false), -1);
  b.mutable_settings().reef = Reef::kSubmerged;
  EXPECT_FALSE(IsLand(b, reef));
  EXPECT_EQ(OceanDepth(b, reef), Depth::kShallow);
  b.mutable_settings().reef = Reef::kNone;
  EXPECT_EQ(CheckBeachSetup(b).error().rule, rules::kG13_431.id);
  Board unmarked = Beach(Slope::kSteep);
  unmarked.mutable_settings().reef = Reef::kExposed;
  EXPECT_EQ(CheckBeachSetup(unmarked).error().rule, rules::kG13_43.id);
  auto doc = Cli({"move", "--board", file.path(), "--slope", "steep", "--reef", "submerged",
                  "--path", "1053,1040"});
  EXPECT_TRUE(doc["legal"]);
}

// G13.431: an Exposed-reef hex is a Level -1 Hammada land hex, so Infantry (and vehicles) may
// enter it, for the Open Ground COT (Hammada's own, F3, is not in these texts), with no mud
// (E3.64 is NA there), and walk along it; Submerged, it is shallow Ocean and Waded. Before, it
// was refused as OCEAN (no COT for "ocean" terrain).
TEST(G13, Rule13_431_ExposedReefIsLand) {
  test::TempBoard file(test::BoardPath("g13_23"), kReef);
  Board b = Load(file.path(), Slope::kSteep);
  b.mutable_settings().reef = Reef::kExposed;
  b.mutable_settings().ec = Ec::kMud;
  const MoveReport in = Move(b, Infantry(), "1033,1020,1021");
  ASSERT_TRUE(in.legal()) << in.refusal()->message;
  EXPECT_EQ(StepCosts(in), (std::vector<double>{1, 1}));
  EXPECT_EQ(in.steps[1].charges.at(0).rule, rules::kG13_431.id);
  MoveOptions truck;
  truck.unit = Unit(UnitKind::kTruck);
  EXPECT_EQ(StepCosts(Move(b, truck, "1033,1020")), (std::vector<double>{4}));
  // Off the reef seawards is deep OCEAN, a Water Obstacle.
  EXPECT_EQ(Move(b, Infantry(), "1020,1007").refusal()->rule, rules::kG13_4.id);
  auto doc = Cli({"move", "--board", file.path(), "--slope", "steep", "--reef", "exposed", "--ec",
                  "mud", "--path", "1033,1020,1021"});
  EXPECT_TRUE(doc["legal"]);
  EXPECT_EQ(doc["total"], 2);
  EXPECT_EQ(doc["steps"][1]["charges"][0]["rule"], rules::kG13_431.id);
  auto wading = Cli({"move", "--board", file.path(), "--slope", "steep", "--reef", "submerged",
                     "--path", "1033,1020"});
  EXPECT_EQ(wading["steps"][1]["charges"][0]["rule"], rules::kG13_42.id);
}

// G13.44: Heavy Surf acts only in Ocean hexes, and not between the reef and the shore.
TEST(G13, Rule13_44_WhereSurfActs) {
  test::TempBoard file(test::BoardPath("g13_23"), kReef);
  Board b = Load(file.path(), Slope::kSteep);
  b.mutable_settings().reef = Reef::kSubmerged;
  b.mutable_settings().heavy_surf = true;
  EXPECT_TRUE(HeavySurfIn(b, test::Hex(b, "1001")));
  EXPECT_FALSE(HeavySurfIn(b, test::Hex(b, "1079")));
  EXPECT_FALSE(HeavySurfIn(b, test::Hex(b, "459")));
  Board lake = Beach(Slope::kSteep);
  lake.mutable_settings().heavy_surf = true;
  EXPECT_TRUE(HeavySurfIn(lake, test::Hex(lake, "1079")));
  lake.mutable_settings().water = Water::kLake;
  EXPECT_FALSE(HeavySurfIn(lake, test::Hex(lake, "1079")));
}

// G13.441: in Heavy Surf a non-Waterproofed Wading vehicle entering shallow Ocean is immobilized
// at once; a Waterproofed one risks one Swamping DR and dr for its whole MPh.
TEST(G13, Rule13_441_SurfSwamping) {
  Board b = Beach(Slope::kSlight);
  b.mutable_settings().heavy_surf = true;
  const MoveReport stuck = Move(b, Vehicle(UnitKind::kFullyTracked), "459,1084,1071");
  EXPECT_EQ(stuck.refusal()->rule, rules::kG13_441.id);
  const MoveReport proofed = Move(b, Vehicle(UnitKind::kFullyTracked, true), "459,1084,1071");
  ASSERT_TRUE(proofed.legal());
  EXPECT_TRUE(HasNote(proofed.steps[1], rules::kG13_441));
  EXPECT_FALSE(HasNote(proofed.steps[2], rules::kG13_441));
  auto doc = Cli({"move", "--board", test::BoardPath("g13_23"), "--slope", "slight", "--surf",
                  "--unit", "fully-tracked", "--path", "459,1084,1071"});
  EXPECT_EQ(doc["refusal"]["rule"], rules::kG13_441.id);
}

// G13.445: every IFT/TH attack from or vs an Ocean Location in Heavy Surf gets +1 (not OBA, FB/DB);
// G13.447: Infantry entering shallow Ocean in Heavy Surf become CX.
TEST(G13, Rule13_445_447_SurfAttacksAndCx) {
  Board b = Beach(Slope::kSlight);
  b.mutable_settings().heavy_surf = true;
  const LosEnd shore = End(b, "459");
  const LosEnd lc = End(b, "LC F");
  const LosResult los = CheckLos(b, shore, lc);
  EXPECT_TRUE(Has(EvaluateAttack(b, shore, lc, AttackType::kSmallArms, los).drm, rules::kG13_445));
  EXPECT_FALSE(
      Has(EvaluateAttack(b, shore, lc, AttackType::kIndirectHe, los).drm, rules::kG13_445));
  const MoveReport wade = Move(b, Infantry(), "459,1084");
  EXPECT_TRUE(wade.cx);
  EXPECT_TRUE(HasNote(wade.steps[1], rules::kG13_447));
  b.mutable_settings().heavy_surf = false;
  EXPECT_FALSE(Move(b, Infantry(), "459,1084").cx);
  EXPECT_TRUE(Cli({"move", "--board", test::BoardPath("g13_23"), "--slope", "slight", "--surf",
                   "--path", "459,1084"})["cx"]);
}

// G13.45, G13.47: only a shallow OCEAN hex may be Bore Sighted; no SMOKE may be placed in OCEAN.
TEST(G13, Rule13_45_47_BoreSightingAndSmoke) {
  const Board b = Beach(Slope::kSteep);
  const Unit inf(UnitKind::kInfantry);
  EXPECT_TRUE(CheckActivity(b, test::At(b, "1079"), inf, Activity::kBoreSight).has_value());
  EXPECT_EQ(CheckActivity(b, test::At(b, "1001"), inf, Activity::kBoreSight).error().rule,
            rules::kG13_45.id);
  EXPECT_EQ(CheckActivity(b, test::At(b, "1079"), inf, Activity::kPlaceSmoke).error().rule,
            rules::kG13_47.id);
  EXPECT_TRUE(CheckActivity(b, test::At(b, "459"), inf, Activity::kPlaceSmoke).has_value());
}

// ---- G13.5, G13.6x
// ----------------------------------------------------------------------------------

// G13.5: only Beach Obstacles in OCEAN/reef hexes; no tunnels in Beach/OCEAN hexes.
TEST(G13, Rule13_5_Fortifications) {
  for (const char* patch : {R"({"counters": [{"type": "wire", "hex": "1079"}]})",
                            R"({"counters": [{"type": "tunnel", "hex": "433"}]})"}) {
    test::TempBoard file(test::BoardPath("g13_23"), patch);
    Board b = Load(file.path());
    EXPECT_EQ(CheckBeachSetup(b).error().rule, rules::kG13_5.id) << patch;
    auto doc = Cli({"move", "--board", file.path(), "--slope", "slight", "--path", "433,420"}, 2);
    EXPECT_EQ(doc["error"]["rule"], rules::kG13_5.id);
  }
  test::TempBoard ok(test::BoardPath("g13_23"),
                     R"({"counters": [{"type": "beach-obstacle", "hex": "1079"}]})");
  Board b = Load(ok.path());
  EXPECT_TRUE(CheckBeachSetup(b).has_value());
  // Every Fortification counter but the Beach Obstacle is refused in OCEAN (and on a reef).
  for (std::size_t i = 0; i < static_cast<std::size_t>(CounterType::kCount); ++i) {
    const auto t = static_cast<CounterType>(i);
    if (!IsFortification(t) || t == CounterType::kBeachObstacle) continue;
    Board with = b;
    with.MutableAt(test::Hex(b, "1079"))->counters.push_back(t);
    const Status s = CheckBeachSetup(with);
    ASSERT_FALSE(s.has_value()) << Name(t);
    EXPECT_EQ(s.error().rule, rules::kG13_5.id) << Name(t);
  }
}

// G13.6: a seawall never exists along a Steeply Sloped beach, nor along an OCEAN-Hinterland
// hexside.
TEST(G13, Rule13_6_WhereSeawallsStand) {
  Board b = Beach(Slope::kSteep, "g13_62");
  EXPECT_EQ(CheckBeachSetup(b).error().rule, rules::kG13_6.id);
  auto doc = Cli({"los", "--board", test::BoardPath("g13_62"), "--slope", "steep", "--from",
                  "4-4-8", "--to", "6-6-8"},
                 2);
  EXPECT_EQ(doc["error"]["rule"], rules::kG13_6.id);
  test::TempBoard inland(test::BoardPath("g13_23"),
                         R"({"hexsides": [{"hexes": "D8-D9", "seawall": true}]})");
  Board i = Load(inland.path());
  EXPECT_EQ(CheckBeachSetup(i).error().rule, rules::kG13_6.id);
}

// G13.61: a high seawall is a one-level cliff only Commandos may Climb.
TEST(G13, Rule13_61_HighSeawall) {
  Board b = Beach(Slope::kSlight, "g13_62");
  b.mutable_settings().seawall = Seawall::kHigh;
  EXPECT_EQ(Move(b, Infantry(), "408,H9").refusal()->rule, rules::kG13_61.id);
  MoveOptions commando = Infantry();
  commando.unit.Set(UnitFlag::kCommando);
  const MoveReport r = Move(b, commando, "408,H9,H8");
  EXPECT_TRUE(HasNote(r.steps[1], rules::kG13_61));
  EXPECT_EQ(r.refusal()->rule, rules::kG13_61.id);  // the Climb ends its MPh
  auto doc = Cli({"move", "--board", test::BoardPath("g13_62"), "--slope", "slight", "--seawall",
                  "high", "--path", "408,H9"});
  EXPECT_EQ(doc["refusal"]["rule"], rules::kG13_61.id);
}

// G13.621: Infantry/Cavalry crossing a low seawall from the Hinterland to the Beach pay no wall MF
// (from the Beach they do); vehicles cross only where it is Breached (G13.624, then Open Ground) or
// over a fascine (G13.625: 25% of the printed MP plus the COT).
TEST(G13, Rule13_621_624_625_CrossingALowSeawall) {
  const Board b = Beach(Slope::kSlight, "g13_62");
  const MoveReport up = Move(b, Infantry(), "408,H9");
  EXPECT_EQ(up.total().value(), 2);
  EXPECT_EQ(up.steps[1].charges[0].rule, rules::kG13_62.id);
  const MoveReport down = Move(b, Infantry(), "H9,408");
  EXPECT_EQ(down.total().value(), 2);  // Soft Sand only
  EXPECT_TRUE(HasNote(down.steps[1], rules::kG13_621));
  EXPECT_EQ(Move(b, Vehicle(UnitKind::kFullyTracked), "H9,408").refusal()->rule,
            rules::kG13_621.id);
  test::TempBoard breached(test::BoardPath("g13_62"),
                           R"({"hexsides": [{"hexes": "H9-408", "breached": true}]})");
  const Board br = Load(breached.path());
  const MoveReport through = Move(br, Vehicle(UnitKind::kFullyTracked), "H9,408");
  ASSERT_TRUE(through.legal());
  EXPECT_TRUE(HasNote(through.steps[1], rules::kG13_624));
  EXPECT_EQ(Move(br, Infantry(), "408,H9").total().value(), 1);
  test::TempBoard fascine(test::BoardPath("g13_62"),
                          R"({"hexsides": [{"hexes": "H9-408", "fascine": true}]})");
  const Board fa = Load(fascine.path());
  MoveOptions tank = Vehicle(UnitKind::kFullyTracked);
  tank.printed_mp = 14;
  const MoveReport over = Move(fa, tank, "H9,408");
  ASSERT_TRUE(over.legal());
  EXPECT_EQ(over.total().value(), 4 + 3);  // 25% of 14, FRU, plus Soft Sand
  EXPECT_EQ(over.steps[1].charges[0].rule, rules::kG13_625.id);
  auto doc = Cli({"move", "--board", fascine.path(), "--slope", "slight", "--unit", "fully-tracked",
                  "--flag", "afv", "--printed-mp", "14", "--path", "H9,408"});
  EXPECT_EQ(doc["total"], 7);
}

// ---- G13.7 piers
// --------------------------------------------------------------------------------------

// G13.73: Infantry changing elevation onto a pier pay as for a hill Crest Line; from land, or
// along the pier, the paved-road COT; no vehicle/Gun/Horse to or from a pier directly from or into
// water/Beach; beneath a wooden pier only Infantry (not in deep water) and boats; beneath a stone
// pier nothing.
TEST(G13, Rule13_73_PierEntry) {
  const std::string path = test::FixturePath("pier");
  const Board b = Load(path, Slope::kModerate);
  const MoveReport up = Move(b, Infantry(), "102,103:pier");
  ASSERT_TRUE(up.legal());
  EXPECT_EQ(up.total().value(), 2);
  EXPECT_EQ(up.steps[1].charges.back().rule, rules::kG13_73.id);
  EXPECT_EQ(Move(b, Infantry(), "C4,103:pier").total().value(), 1);
  EXPECT_EQ(Move(b, Infantry(), "103:pier,1003:pier").total().value(), 1);
  MoveOptions truck;
  truck.unit = Unit(UnitKind::kTruck);
  EXPECT_TRUE(Move(b, truck, "C4,103:pier,1003:pier").legal());
  EXPECT_EQ(Move(b, truck, "102,103:pier").refusal()->rule, rules::kG13_73.id);
  EXPECT_EQ(Move(b, truck, "103:pier,102").refusal()->rule, rules::kG13_73.id);
  EXPECT_EQ(Move(b, truck, "102,103").refusal()->rule, rules::kG13_73.id);
  EXPECT_TRUE(Move(b, Infantry(), "102,103").legal());  // beneath the wooden pier
  EXPECT_EQ(Move(b, Infantry(), "104,105").refusal()->rule,
            rules::kG13_73.id);  // beneath the stone pier
  EXPECT_EQ(Move(b, Infantry(), "1016,1017").refusal()->rule, rules::kG13_4.id);
  auto doc = Cli({"move", "--board", path, "--path", "102,103:pier"});
  EXPECT_EQ(doc["total"], 2);
}

// G13.71: between non-adjacent water/Beach Locations an intervening stone-pier hex is an obstacle
// and a wooden-pier hex a +1 Hindrance; from >= Level 0 to water/Beach a pier has no effect unless
// that water/Beach Location is next to a pier hex the LOS crosses.
TEST(G13, Rule13_71_PierLos) {
  const std::string path = test::FixturePath("pier");
  const Board b = Load(path, Slope::kModerate);
  const LosResult stone = CheckLos(b, End(b, "1011"), End(b, "1006"));
  EXPECT_FALSE(stone.clear);
  EXPECT_EQ(stone.blocked->rule, rules::kG13_71.id);
  const LosResult wood = CheckLos(b, End(b, "1009"), End(b, "1004"));
  EXPECT_TRUE(wood.clear);
  EXPECT_EQ(wood.hindrance, 1);
  EXPECT_EQ(wood.hindrances[0].rule, rules::kG13_71.id);
  EXPECT_TRUE(CheckLos(b, End(b, "E3"), End(b, "1026")).clear);
  EXPECT_FALSE(CheckLos(b, End(b, "E3"), End(b, "1019")).clear);
  EXPECT_FALSE(Cli({"los", "--board", path, "--from", "1011", "--to", "1006"})["los"]);
  EXPECT_EQ(Cli({"los", "--board", path, "--from", "1009", "--to", "1004"})["hindrance"], 1);
}

// G13.72: a pier Location is Open Ground with a 0 TEM.
TEST(G13, Rule13_72_PierTem) {
  const Board b = Load(test::FixturePath("pier"), Slope::kModerate);
  const LosEnd pier = End(b, "1003:pier");
  const LosResult los = CheckLos(b, End(b, "C3"), pier);
  const AttackEffects fx = EvaluateAttack(b, End(b, "C3"), pier, AttackType::kSmallArms, los);
  EXPECT_EQ(fx.tem, 0);
  EXPECT_TRUE(fx.open_ground);
  EXPECT_TRUE(Has(fx.tem_items, rules::kG13_72));
}

// G13.711: a stone pier that would block the LOS to a large vehicle instead puts it directly
// behind a stone wall (its TEM and HD), not cumulative with other +TEM.
TEST(G13, Rule13_711_LargeVehiclesBehindStonePiers) {
  const Board b = Load(test::FixturePath("pier"), Slope::kModerate);
  LosEnd lc = End(b, "1006");
  lc.unit = Unit(UnitKind::kLandingCraft).Set(UnitFlag::kLargeTarget);
  const LosResult los = CheckLos(b, End(b, "1011"), lc);
  EXPECT_TRUE(los.clear);
  EXPECT_TRUE(los.stone_pier_cover);
  const AttackEffects fx = EvaluateAttack(b, End(b, "1011"), lc, AttackType::kDirectHe, los);
  EXPECT_EQ(fx.tem, 2);
  EXPECT_TRUE(fx.hd);
  EXPECT_TRUE(Has(fx.tem_items, rules::kG13_711));
  lc.unit = Unit(UnitKind::kLandingCraft);
  EXPECT_FALSE(CheckLos(b, End(b, "1011"), lc).clear);
  auto doc = Cli({"los", "--board", test::FixturePath("pier"), "--from", "1011", "--to", "1006",
                  "--to-unit", "landing-craft", "--attack", "direct-he"});
  EXPECT_FALSE(doc["los"]);
}

// G13.72: a unit on a pier may claim Height Advantage only vs an adjacent, in-LOS unit in a
// water/Beach Location, and not if that unit is a large vehicle.
TEST(G13, Rule13_72_HeightAdvantage) {
  const Board b = Load(test::FixturePath("pier"), Slope::kModerate);
  const LosEnd pier = End(b, "1003:pier");
  for (auto [firer, want] :
       {std::pair{"1004", true}, std::pair{"1017", false}, std::pair{"C4", false}}) {
    const LosEnd f = End(b, firer);
    const LosResult los = CheckLos(b, f, pier);
    EXPECT_EQ(EvaluateAttack(b, f, pier, AttackType::kSmallArms, los).height_advantage, want)
        << firer;
  }
  LosEnd big = End(b, "1004");
  big.unit = Unit(UnitKind::kLandingCraft).Set(UnitFlag::kLargeTarget);
  EXPECT_FALSE(EvaluateAttack(b, big, pier, AttackType::kSmallArms, CheckLos(b, big, pier))
                   .height_advantage);
  EXPECT_TRUE(Cli({"los", "--board", test::FixturePath("pier"), "--from", "1004", "--to",
                   "1003:pier"})["height_advantage"]);
}

// ---- G13.442-.449: Heavy Surf and Watercraft
// --------------------------------------------------------

// G13.442: a LC not Aground in an Ocean Location with a Beachable hexside makes an (un)Beaching DR
// in Heavy Surf: +1 Inexperienced, +1 next to a Hinterland/Steep-Beach/non-Beach-Island hex, +1 per
// other craft, +2 a LC wreck (G13.4422); <= 8 nothing, 9-10 TI and (un)Beached, >= 11 Broach.
TEST(G13, Rule13_442_Beaching) {
  Board b = Beach(Slope::kSlight);
  const GridPos shore = test::Hex(b, "1084");
  EXPECT_FALSE(BeachingDrRequired(b, shore, false));
  b.mutable_settings().heavy_surf = true;
  EXPECT_TRUE(BeachingDrRequired(b, shore, false));
  EXPECT_FALSE(BeachingDrRequired(b, shore, true));
  EXPECT_FALSE(BeachingDrRequired(b, test::Hex(b, "1001"), false));
  auto sum = [](const std::vector<SurfFactor>& v) {
    int n = 0;
    for (const auto& f : v) n += f.amount;
    return n;
  };
  EXPECT_EQ(sum(BeachingDrms(b, shore, false, 0, false)), 0);
  EXPECT_EQ(sum(BeachingDrms(b, shore, true, 2, true)), 5);
  b.mutable_settings().slope = Slope::kSteep;
  EXPECT_EQ(sum(BeachingDrms(b, shore, false, 0, false)), 1);
  EXPECT_EQ(ResolveBeaching(8), BeachingResult::kNoEffect);
  EXPECT_EQ(ResolveBeaching(9), BeachingResult::kTiAndToggle);
  EXPECT_EQ(ResolveBeaching(10), BeachingResult::kTiAndToggle);
  EXPECT_EQ(ResolveBeaching(11), BeachingResult::kBroach);
}

// G13.443: (un)loading costs double in Heavy Surf, FRU after doubling.
TEST(G13, Rule13_443_Unloading) {
  Board b = Beach(Slope::kSlight);
  const GridPos shore = test::Hex(b, "1084");
  EXPECT_EQ(UnloadingCost(b, shore, Cost::Halves(3)), 2);
  b.mutable_settings().heavy_surf = true;
  EXPECT_EQ(UnloadingCost(b, shore, Cost::Halves(3)), 3);
  EXPECT_EQ(UnloadingCost(b, shore, Cost::Points(2)), 4);
}

// G13.444: Watercraft/swimmers Drift toward the nearest non-Island land hex, not if next to land.
TEST(G13, Rule13_444_Drift) {
  const Board b = Beach(Slope::kSlight);
  const auto toward = DriftToward(b, test::Hex(b, "1001"), false, false);
  ASSERT_FALSE(toward.empty());
  for (GridPos c : toward) {
    EXPECT_TRUE(IsLand(b, c));
    EXPECT_EQ(map::Distance(test::Hex(b, "1001"), c), 7);
  }
  EXPECT_TRUE(DriftToward(b, test::Hex(b, "1084"), false, false).empty());
  EXPECT_TRUE(DriftToward(b, test::Hex(b, "1001"), true, false).empty());
  EXPECT_TRUE(DriftToward(b, test::Hex(b, "1001"), false, true).empty());
}

// G13.446, G13.448, G13.449: no running Aground, Heavy Winds all scenario, Naval OBA Accuracy +1.
TEST(G13, Rule13_446_448_449_SurfMiscellany) {
  Board b = Beach(Slope::kSlight);
  EXPECT_TRUE(MayRunAground(b, test::Hex(b, "1084")));
  EXPECT_FALSE(HeavyWinds(b));
  EXPECT_EQ(NavalObaAccuracyDrm(b), 0);
  b.mutable_settings().heavy_surf = true;
  EXPECT_FALSE(MayRunAground(b, test::Hex(b, "1084")));
  EXPECT_TRUE(HeavyWinds(b));
  EXPECT_EQ(NavalObaAccuracyDrm(b), 1);
}

// G13.82: Coral Soil gives Entrenching Attempts +2.
TEST(G13, Rule13_82_CoralSoil) {
  Board b = Beach(Slope::kSlight);
  EXPECT_EQ(EntrenchingDrm(b), 0);
  b.mutable_settings().coral_soil = true;
  EXPECT_EQ(EntrenchingDrm(b), 2);
}

}  // namespace
}  // namespace opsim::tactical
