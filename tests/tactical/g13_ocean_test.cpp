// G13 Beaches: the rules beside the examples: Be7 (G13.11), Islands (G13.15), sandbars (G13.31),
// Watercraft (G13.401), the non-Beach shoreline (G13.41), the (un)Beaching effects (G13.4421-.4423)
// and Swamping in Heavy Surf (G13.441), overlay entry (G13.46), sunk boats (G13.48), OCEAN
// miscellany (G13.491-.495), piers (G13.7, G13.731-.734), Straying (G13.83) and VP
// (G13.84). Mostly on tests/tactical/boards/shore.json: a Moderate beach cut back at its western
// end so that OCEAN hex 1001 meets Hinterland hex A5, a wooden pier in 1003, a stone pier in 1005
// and an Island hex iA1 out at sea.
#include <gtest/gtest.h>

#include <algorithm>

#include "opsim/core/rule_ids.h"
#include "opsim/tactical/activity.h"
#include "opsim/tactical/attack.h"
#include "opsim/tactical/beach.h"
#include "opsim/tactical/beach_dyo.h"
#include "opsim/tactical/board_file.h"
#include "opsim/tactical/ocean_misc.h"
#include "opsim/tactical/surf.h"
#include "tactical_test_util.h"

namespace opsim::tactical {
namespace {

using test::Cli;
using test::Infantry;
using test::LoadFile;
using test::Move;

Board Shore() {
  return LoadFile(test::FixturePath("shore"));
}

LosEnd EndAt(const Board& b, const std::string& hex, UnitKind kind = UnitKind::kInfantry) {
  LosEnd e;
  e.at = test::At(b, hex);
  e.unit = Unit(kind);
  return e;
}

bool Has(const std::vector<OceanEffect>& v, const std::string& rule) {
  return std::any_of(v.begin(), v.end(), [&](const OceanEffect& e) { return e.rule == rule; });
}

bool Has(const std::vector<SurfFactor>& v, const std::string& rule) {
  return std::any_of(v.begin(), v.end(), [&](const SurfFactor& e) { return e.rule == rule; });
}

// ---- G13.11, G13.15, G13.31, G13.401, G13.41 ---------------------------------------------------

// G13.11: the Water Obstacle hexes of Overlay Be7 are always River, and at Level -1 (the river
// cannot be flooded while Be7 is in play); a board that says otherwise is refused, naming the rule.
TEST(G13, Rule13_11_Be7RiverHexes) {
  test::TempBoard good(test::FixturePath("river_mouth"),
                       R"({"hexes": {"103": {"terrain": "river"}}})");
  const Board b = LoadFile(good.path());
  EXPECT_TRUE(CheckBeachSetup(b).has_value());
  EXPECT_EQ(b.At(test::Hex(b, "103"))->level, -1);
  for (const char* patch : {R"({"hexes": {"103": {"terrain": "river", "level": 0}}})",
                            R"({"hexes": {"103": {"terrain": "ocean"}}})"}) {
    test::TempBoard bad(test::FixturePath("river_mouth"), patch);
    const auto s = CheckBeachSetup(LoadFile(bad.path()));
    ASSERT_FALSE(s.has_value()) << patch;
    EXPECT_EQ(s.error().rule, rules::kG13_11.id) << patch;
    const auto doc = Cli({"move", "--board", bad.path(), "--path", "7A1,7A2"}, 2);
    EXPECT_EQ(doc["error"]["rule"], rules::kG13_11.id) << patch;
  }
}

// G13.15: an Island hex is not Hinterland (G13.2); its hexsides with OCEAN are OCEAN-Island
// hexsides (G13.41); Watercraft do not Drift toward it (G13.444); and a LC next to a non-Beach
// Island hex gets the +1 (un)Beaching DRM (G13.442).
TEST(G13, Rule13_15_Islands) {
  Board b = Shore();
  const GridPos island = test::Hex(b, "iA1");
  EXPECT_TRUE(IsIsland(b, island));
  EXPECT_FALSE(IsHinterland(b, island));
  const GridPos beside = test::Hex(b, "1032");  // D10, north of the Island
  ASSERT_TRUE(map::DirectionTo(beside, island).has_value());
  EXPECT_TRUE(IsOceanShore(b, *Hexside::Between(beside, island)));
  const GridPos d9 = test::Hex(b, "1025");
  const auto toward = DriftToward(b, d9, false, false);
  ASSERT_FALSE(toward.empty());
  for (GridPos g : toward) {
    EXPECT_FALSE(IsIsland(b, g)) << b.Name(g);
    EXPECT_GT(map::Distance(d9, g), map::Distance(d9, island)) << b.Name(g);
  }
  b.mutable_settings().heavy_surf = true;
  EXPECT_TRUE(Has(BeachingDrms(b, beside, false, 0, false), rules::kG13_442));
  EXPECT_FALSE(Has(BeachingDrms(b, test::Hex(b, "1023"), false, 0, false), rules::kG13_442));
}

// G13.31: a Sand overlay in the OCEAN, given the Beach role (docs/tactical.md), is a Beach
// overlay: its hexes are Hard Sand with Beach-OCEAN hexsides, OCEAN next to it is shallow, and
// the DYO Tide does not change the number of its hexes.
TEST(G13, Rule13_31_Sandbars) {
  test::TempBoard file(test::FixturePath("shore"),
                       R"({"grids": [{"name": "sandbar", "role": "beach",
                           "numbers": {"first": 301, "per_row": 2, "rows": 1},
                           "place": {"hex": "301", "on": "F9"}}]})");
  const Board b = LoadFile(file.path());
  const GridPos sand = test::Hex(b, "301");
  EXPECT_TRUE(IsBeach(b, sand));
  EXPECT_TRUE(IsHardSand(b, sand));
  const GridPos below = test::Hex(b, "1041");  // F11, deep but for the sandbar
  EXPECT_EQ(OceanDepth(b, below), Depth::kShallow);
  EXPECT_EQ(OceanDepth(Shore(), test::Hex(Shore(), "1041")), Depth::kDeep);
  for (Tide tide : {Tide::kHigh, Tide::kLow}) {
    DyoOptions o;
    o.seed = 5;
    o.tide = tide;
    auto r = RunBeachDyo(b, o);
    ASSERT_TRUE(r.has_value());
    int hexes = 0;
    for (const Hex* h : r->board.Hexes()) hexes += r->board.grids()[h->grid].name() == "sandbar";
    EXPECT_EQ(hexes, 2) << Name(tide);
  }
  const auto doc = Cli({"move", "--board", file.path(), "--path", "1034,301"});
  EXPECT_EQ(doc["steps"][1]["charges"][0]["rule"], rules::kG13_3.id);
  EXPECT_EQ(doc["total"], 1);  // Hard Sand
}

// G13.401: a Watercraft is any LC, boat or amphibian; a Waterproofed tank is not one.
TEST(G13, Rule13_401_Watercraft) {
  for (UnitKind k : {UnitKind::kAmphibian, UnitKind::kBoat, UnitKind::kLandingCraft}) {
    EXPECT_TRUE(Unit(k).watercraft()) << Name(k);
  }
  EXPECT_FALSE(Unit(UnitKind::kFullyTracked).Set(UnitFlag::kWaterproofed).watercraft());
  EXPECT_FALSE(Unit(UnitKind::kTruck).watercraft());
  EXPECT_FALSE(Unit(UnitKind::kInfantry).watercraft());
}

// G13.41: a hexside between OCEAN and a non-Beach land hex is a Crest Line: climbing out of the
// water across it doubles the COT, and a Wading vehicle crossing it is subject to Bog (G13.4223).
TEST(G13, Rule13_41_NonBeachShoreline) {
  const Board b = Shore();
  const GridPos sea = test::Hex(b, "1001");
  const GridPos land = test::Hex(b, "A5");
  ASSERT_TRUE(IsHinterland(b, land));
  EXPECT_TRUE(IsOceanShore(b, *Hexside::Between(sea, land)));
  EXPECT_FALSE(IsOceanShore(b, *Hexside::Between(test::Hex(b, "1002"), test::Hex(b, "102"))));
  const MoveReport r = Move(b, Infantry(), "1001,A5");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.total().value(), 2);
  EXPECT_EQ(r.steps[1].charges.back().rule, rules::kG13_41.id);
  EXPECT_EQ(Move(b, Infantry(), "1002,102").total().value(), 1);  // Beach: no Crest Line
  const auto doc = Cli({"move", "--board", test::FixturePath("shore"), "--path", "1001,A5"});
  EXPECT_EQ(doc["total"], 2);
  EXPECT_EQ(doc["steps"][1]["charges"][1]["rule"], rules::kG13_41.id);
}

// ---- G13.441, G13.4421-.4423, G13.84 ------------------------------------------------------------

// G13.441: an Original 12 Swamping DR sinks a craft in deep Ocean with no survivors; in shallow
// Ocean a LC becomes Fast Aground, a boat sinks (Passengers Wading), anything else is immobilized.
// G13.84: what Swamping destroys counts for casualty VP.
TEST(G13, Rule13_441_SwampingEffects) {
  const Board b = Shore();
  const GridPos deep = test::Hex(b, "1029");
  const GridPos shallow = test::Hex(b, "1002");
  ASSERT_EQ(OceanDepth(b, deep), Depth::kDeep);
  ASSERT_EQ(OceanDepth(b, shallow), Depth::kShallow);
  const auto sunk = ApplySurfSwamping(b, deep, Unit(UnitKind::kAmphibian));
  EXPECT_TRUE(sunk.sinks);
  EXPECT_TRUE(sunk.casualty_vp);
  EXPECT_TRUE(Has(sunk.effects, rules::kG13_84));
  const auto lc = ApplySurfSwamping(b, shallow, Unit(UnitKind::kLandingCraft));
  EXPECT_TRUE(lc.fast_aground);
  EXPECT_FALSE(lc.sinks);
  EXPECT_FALSE(lc.casualty_vp);
  const auto boat = ApplySurfSwamping(b, shallow, Unit(UnitKind::kBoat));
  EXPECT_TRUE(boat.sinks);
  EXPECT_TRUE(boat.passengers_wading);
  EXPECT_TRUE(boat.casualty_vp);
  const auto tank =
      ApplySurfSwamping(b, shallow, Unit(UnitKind::kFullyTracked).Set(UnitFlag::kWaterproofed));
  EXPECT_FALSE(tank.sinks);
  EXPECT_FALSE(tank.fast_aground);
  EXPECT_FALSE(tank.casualty_vp);
}

// G13.4421: a Final (un)Beaching DR of 9-10 makes the LC TI (unless devoid of PRC) and toggles
// Beached/un-Beached, but with its ramp down it becomes Fast Aground in shallow Ocean or sinks in
// deep; >= 11 Broaches it: Beached, a wreck, its crew rolls for Survival (G13.84: casualty VP);
// >= 9, it has expended all its MP for Defensive First Fire.
TEST(G13, Rule13_4421_BeachingEffects) {
  Board b = Shore();
  b.mutable_settings().heavy_surf = true;
  const GridPos shallow = test::Hex(b, "1002");
  const GridPos deep = test::Hex(b, "1029");
  const auto calm = ApplyBeachingDr(b, shallow, 8, Craft::kLandingCraft, true, false, true);
  EXPECT_TRUE(calm.beached);
  EXPECT_FALSE(calm.ti);
  EXPECT_FALSE(calm.all_mp_expended);
  const auto off = ApplyBeachingDr(b, shallow, 9, Craft::kLandingCraft, true, false, true);
  EXPECT_TRUE(off.ti);
  EXPECT_FALSE(off.beached);
  EXPECT_TRUE(off.all_mp_expended);
  EXPECT_FALSE(ApplyBeachingDr(b, shallow, 10, Craft::kLandingCraft, true, false, false).ti);
  EXPECT_TRUE(ApplyBeachingDr(b, shallow, 10, Craft::kLandingCraft, false, false, true).beached);
  EXPECT_TRUE(ApplyBeachingDr(b, shallow, 9, Craft::kLandingCraft, true, true, true).fast_aground);
  EXPECT_TRUE(ApplyBeachingDr(b, deep, 9, Craft::kLandingCraft, true, true, true).sinks);
  const auto broach = ApplyBeachingDr(b, shallow, 11, Craft::kLandingCraft, false, false, true);
  EXPECT_TRUE(broach.wreck);
  EXPECT_TRUE(broach.beached);
  EXPECT_TRUE(broach.casualty_vp);
  EXPECT_TRUE(Has(broach.effects, rules::kG13_84));
}

// G13.4422: a Beached LC wreck's 9-10 leaves it Fast Aground in shallow Ocean or sunk in deep.
// G13.4423: boats are treated as LC, but a Broach eliminates the boat and its contents, except
// that in shallow Ocean its Personnel Passengers become Wading Infantry.
TEST(G13, Rule13_4422_4423_WrecksAndBoats) {
  const Board b = Shore();
  const GridPos shallow = test::Hex(b, "1002");
  const GridPos deep = test::Hex(b, "1029");
  EXPECT_TRUE(
      ApplyBeachingDr(b, shallow, 9, Craft::kLandingCraftWreck, true, false, false).fast_aground);
  EXPECT_TRUE(ApplyBeachingDr(b, deep, 10, Craft::kLandingCraftWreck, true, false, false).sinks);
  const auto boat = ApplyBeachingDr(b, shallow, 12, Craft::kBoat, true, false, true);
  EXPECT_TRUE(boat.eliminated);
  EXPECT_TRUE(boat.passengers_wading);
  EXPECT_TRUE(Has(boat.effects, rules::kG13_4423));
  const auto lost = ApplyBeachingDr(b, deep, 12, Craft::kBoat, false, false, true);
  EXPECT_TRUE(lost.eliminated);
  EXPECT_FALSE(lost.passengers_wading);
  EXPECT_TRUE(ApplyBeachingDr(b, shallow, 9, Craft::kBoat, false, false, true).beached);
}

// ---- G13.46, G13.48, G13.491-.495 ---------------------------------------------------------------

// G13.46: a Watercraft (not a DD tank expending amphibious MP) entering an OCEAN hex from offboard
// has expended four MP for LOS and TH; a Gun on land firing its first shot of the game at it, with
// the Vehicle Target Type, in its initial MPh/DFPh, giving up HIP and "?", gets -1.
TEST(G13, Rule13_46_OverlayEntry) {
  const Board b = Shore();
  const GridPos sea = test::Hex(b, "1029");
  EXPECT_EQ(OverlayEntryMp(b, sea, Unit(UnitKind::kLandingCraft), false), 4);
  EXPECT_EQ(OverlayEntryMp(b, sea, Unit(UnitKind::kAmphibian), true), std::nullopt);
  EXPECT_EQ(OverlayEntryMp(b, sea, Unit(UnitKind::kFullyTracked), false), std::nullopt);
  EXPECT_EQ(OverlayEntryMp(b, test::Hex(b, "C2"), Unit(UnitKind::kBoat), false), std::nullopt);
  const GridPos gun = test::Hex(b, "C3");
  const Unit lc(UnitKind::kLandingCraft);
  EXPECT_EQ(FirstShotAcquisitionDrm(b, gun, sea, lc, FirstShot{}), -1);
  for (int k = 0; k < 5; ++k) {
    FirstShot s;
    bool* field[] = {&s.first_fire_of_game, &s.vehicle_target_type, &s.targets_initial_mph_or_dfph,
                     &s.target_dd_tank_amphibious, &s.relinquishes_hip_and_concealment};
    *field[k] = !*field[k];
    EXPECT_EQ(FirstShotAcquisitionDrm(b, gun, sea, lc, s), 0) << k;
  }
  EXPECT_EQ(FirstShotAcquisitionDrm(b, test::Hex(b, "1002"), sea, lc, FirstShot{}), 0);
}

// G13.48: a boat sunk in shallow OCEAN leaves its Passengers Wading there and loses its SW and
// Guns (E5.531-.532 do not apply); in deep OCEAN E5.531-.532 apply.
TEST(G13, Rule13_48_SunkBoats) {
  const Board b = Shore();
  const SunkBoat shallow = SinkBoat(b, test::Hex(b, "1002"));
  EXPECT_TRUE(shallow.passengers_wading);
  EXPECT_TRUE(shallow.sw_and_guns_eliminated);
  EXPECT_TRUE(Has(shallow.effects, rules::kG13_48));
  const SunkBoat deep = SinkBoat(b, test::Hex(b, "1029"));
  EXPECT_FALSE(deep.passengers_wading);
  EXPECT_TRUE(Has(deep.effects, rules::kAslE5_531));
}

// G13.491: units in OCEAN are not Known for berserk purposes; a land unit's berserk result becomes
// Battle Hardening when the closest Known enemy on land is farther than the closest enemy in OCEAN
// in its LOS.
TEST(G13, Rule13_491_Berserk) {
  const Board b = Shore();
  EXPECT_FALSE(KnownForBerserk(b, test::Hex(b, "1002")));
  EXPECT_TRUE(KnownForBerserk(b, test::Hex(b, "102")));
  const LosEnd unit = EndAt(b, "B4");
  const BerserkEnemy wading{EndAt(b, "1002"), true};  // two hexes off
  EXPECT_TRUE(BerserkBecomesBattleHardening(b, unit, {wading, {EndAt(b, "B1"), true}}));
  EXPECT_FALSE(BerserkBecomesBattleHardening(b, unit, {wading, {EndAt(b, "B3"), true}}));
  EXPECT_TRUE(BerserkBecomesBattleHardening(b, unit, {wading, {EndAt(b, "B3"), false}}));
  EXPECT_FALSE(BerserkBecomesBattleHardening(b, unit, {{EndAt(b, "B1"), true}}));
  // Out of its LOS behind a building row, the enemy at sea does not count.
  test::TempBoard wall(test::FixturePath("shore"), R"({"hexes": {"A3": {"terrain": "building"},
      "B3": {"terrain": "building"}, "C3": {"terrain": "building"}}})");
  const Board w = LoadFile(wall.path());
  EXPECT_TRUE(BerserkBecomesBattleHardening(b, EndAt(b, "B1"), {{EndAt(b, "1002"), true}}));
  EXPECT_FALSE(BerserkBecomesBattleHardening(w, EndAt(w, "B1"), {{EndAt(w, "1002"), true}}));
}

// G13.492: a ⅝" parachute in shallow OCEAN is Wading and takes a NMC with the G13.4222 DRM (+1 in
// Heavy Surf); a ½" parachute is eliminated; a glider gets +1 Crash drm in Heavy Surf and its
// Passengers Wade. Deep OCEAN is not what G13.492 covers.
TEST(G13, Rule13_492_ParatroopsAndGliders) {
  Board b = Shore();
  const GridPos hex = test::Hex(b, "1008");
  const int drm = SwampingDrm(b, hex);
  ASSERT_GT(drm, 0);
  auto chute = LandInShallowOcean(b, hex, AerialLanding::kFiveEighthsParachute);
  ASSERT_TRUE(chute.has_value());
  EXPECT_TRUE(chute->wading);
  EXPECT_EQ(chute->nmc_drm, drm);
  EXPECT_TRUE(Has(chute->effects, rules::kG13_421));
  EXPECT_TRUE(LandInShallowOcean(b, hex, AerialLanding::kHalfInchParachute)->eliminated);
  EXPECT_EQ(LandInShallowOcean(b, hex, AerialLanding::kGlider)->crash_drm, 0);
  b.mutable_settings().heavy_surf = true;
  EXPECT_EQ(LandInShallowOcean(b, hex, AerialLanding::kFiveEighthsParachute)->nmc_drm, drm + 1);
  EXPECT_EQ(LandInShallowOcean(b, hex, AerialLanding::kGlider)->crash_drm, 1);
  const auto deep = LandInShallowOcean(b, test::Hex(b, "1029"), AerialLanding::kGlider);
  ASSERT_FALSE(deep.has_value());
  EXPECT_EQ(deep.error().rule, rules::kG13_492.id);
}

// G13.493: a shallow-OCEAN Location with a Rubble counter is rubble land: no Wading, rubble's COT,
// and CC is allowed there (G13.495 is for OCEAN Locations).
TEST(G13, Rule13_493_RubbleInTheShallows) {
  test::TempBoard file(test::FixturePath("shore"),
                       R"({"counters": [{"type": "rubble", "hex": "1002"}]})");
  const Board b = LoadFile(file.path());
  const GridPos hex = test::Hex(b, "1002");
  EXPECT_TRUE(IsRubbleLand(b, hex));
  EXPECT_FALSE(IsRubbleLand(Shore(), hex));
  EXPECT_FALSE(IsWading(b, {hex, Place::kHex}, Unit(UnitKind::kInfantry)));
  const MoveReport r = Move(b, Infantry(), "102,1002");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.steps[1].charges[0].rule, rules::kG13_493.id);
  EXPECT_EQ(r.steps[1].charges[0].cost.value(), 3);
  EXPECT_EQ(Move(Shore(), Infantry(), "102,1002").steps[1].charges[0].rule, rules::kG13_42.id);
  const Position at{hex, Place::kHex};
  EXPECT_TRUE(CheckActivity(b, at, Unit(UnitKind::kInfantry), Activity::kCloseCombat).has_value());
  const auto doc = Cli({"move", "--board", file.path(), "--path", "102,1002"});
  EXPECT_EQ(doc["steps"][1]["charges"][0]["rule"], rules::kG13_493.id);
}

// G13.495: CC attacks are NA in non-frozen OCEAN Locations, against a Wading unit or by one.
TEST(G13, Rule13_495_NoCloseCombatInOcean) {
  const Board b = Shore();
  const auto s =
      CheckActivity(b, test::At(b, "1002"), Unit(UnitKind::kInfantry), Activity::kCloseCombat);
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().rule, rules::kG13_495.id);
  EXPECT_TRUE(
      CheckActivity(b, test::At(b, "102"), Unit(UnitKind::kInfantry), Activity::kCloseCombat)
          .has_value());
  for (auto [from, to] : {std::pair{"102", "1002"}, std::pair{"1002", "102"}}) {
    const LosEnd f = EndAt(b, from), t = EndAt(b, to);
    const AttackEffects fx = EvaluateAttack(b, f, t, AttackType::kCloseCombat, CheckLos(b, f, t));
    EXPECT_TRUE(std::any_of(fx.refusals.begin(), fx.refusals.end(), [](const std::string& r) {
      return r.starts_with("G13.495:");
    })) << from;
    const auto doc = Cli({"los", "--board", test::FixturePath("shore"), "--from", from, "--to", to,
                          "--attack", "close-combat"});
    bool refused = false;
    for (const auto& r : doc["refusals"])
      refused = refused || r.get<std::string>().starts_with("G13.495:");
    EXPECT_TRUE(refused) << from;
  }
}

// ---- G13.731-.734 -------------------------------------------------------------------------------

// G13.731: Personnel (un)load between a Stopped LC (water) or amphibian (water or Beach) and an
// adjacent pier for 50% (FRU) of their allotment, 100% in Heavy Surf; boats follow G13.732.
TEST(G13, Rule13_731_UnloadingOntoAPier) {
  Board b = Shore();
  const GridPos pier = test::Hex(b, "1003");
  const GridPos water = test::Hex(b, "1002");
  const GridPos beach = test::Hex(b, "102");
  ASSERT_TRUE(map::DirectionTo(water, pier).has_value());
  ASSERT_TRUE(map::DirectionTo(beach, pier).has_value());
  EXPECT_EQ(PierUnloadingCost(b, water, pier, Unit(UnitKind::kLandingCraft), 7), 4);
  EXPECT_EQ(PierUnloadingCost(b, beach, pier, Unit(UnitKind::kAmphibian), 4), 2);
  EXPECT_EQ(PierUnloadingCost(b, beach, pier, Unit(UnitKind::kLandingCraft), 4).error().rule,
            rules::kG13_731.id);
  EXPECT_EQ(PierUnloadingCost(b, water, pier, Unit(UnitKind::kBoat), 4).error().rule,
            rules::kG13_732.id);
  EXPECT_EQ(PierUnloadingCost(b, water, pier, Unit(UnitKind::kTruck), 4).error().rule,
            rules::kG13_731.id);
  EXPECT_FALSE(PierUnloadingCost(b, test::Hex(b, "1029"), pier, Unit(UnitKind::kLandingCraft), 4)
                   .has_value());
  b.mutable_settings().heavy_surf = true;
  EXPECT_EQ(PierUnloadingCost(b, water, pier, Unit(UnitKind::kLandingCraft), 7), 7);
}

// G13.732: only Personnel, and only with the boat Beached across a hexside of the pier hex, and
// never while the boat is beneath a Pier counter.
TEST(G13, Rule13_732_BoatsAtPiers) {
  const Board b = Shore();
  const GridPos pier = test::Hex(b, "1003");
  const GridPos water = test::Hex(b, "1002");
  EXPECT_TRUE(MayBoatUseThePier(b, water, pier, true, false).has_value());
  EXPECT_EQ(MayBoatUseThePier(b, water, pier, false, false).error().rule, rules::kG13_732.id);
  EXPECT_EQ(MayBoatUseThePier(b, water, pier, true, true).error().rule, rules::kG13_732.id);
  EXPECT_EQ(MayBoatUseThePier(b, water, test::Hex(b, "102"), true, false).error().rule,
            rules::kG13_732.id);
}

// G13.733: Infantry leaving a pier Location may carry their possessed SW.
TEST(G13, Rule13_733_SwOnAndOffPiers) {
  const Board b = Shore();
  const MoveReport r = Move(b, Infantry(), "1003:pier,102");
  ASSERT_TRUE(r.legal());
  EXPECT_TRUE(std::any_of(r.steps[1].notes.begin(), r.steps[1].notes.end(),
                          [](const Note& n) { return n.rule == rules::kG13_733.id; }));
  const auto doc = Cli({"move", "--board", test::FixturePath("shore"), "--path", "1003:pier,102"});
  bool sw = false;
  for (const auto& n : doc["steps"][1]["notes"]) sw = sw || n["rule"] == rules::kG13_733.id;
  EXPECT_TRUE(sw);
}

// G13.734: a LC/amphibian does not Drift into a pier hex; a boat or swimmer only not into a
// stone-pier hex.
TEST(G13, Rule13_734_DriftAndPiers) {
  const Board b = Shore();
  const GridPos wooden = test::Hex(b, "1003");
  const GridPos stone = test::Hex(b, "1005");
  for (UnitKind k : {UnitKind::kLandingCraft, UnitKind::kAmphibian}) {
    EXPECT_TRUE(DriftBlockedByPier(b, wooden, Unit(k)));
    EXPECT_TRUE(DriftBlockedByPier(b, stone, Unit(k)));
  }
  for (UnitKind k : {UnitKind::kBoat, UnitKind::kInfantry}) {
    EXPECT_FALSE(DriftBlockedByPier(b, wooden, Unit(k)));
    EXPECT_TRUE(DriftBlockedByPier(b, stone, Unit(k)));
  }
  EXPECT_FALSE(DriftBlockedByPier(b, test::Hex(b, "1004"), Unit(UnitKind::kLandingCraft)));
}

// ---- G13.7, G13.494, G13.83 ---------------------------------------------------------------------

// G13.7: a Pier counter stands in a water or Beach hex (on land it is refused); a unit on the pier
// is above the Pier counter in a separate Level 0 Location, whose COT is a paved road's.
TEST(G13, Rule13_7_PierLocation) {
  const Board b = Shore();
  const MoveReport r = Move(b, Infantry(), "102,1003:pier");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.steps[1].charges[0].rule, rules::kG13_7.id);
  EXPECT_EQ(r.steps[1].charges[0].cost.value(), 1);
  LosEnd on = EndAt(b, "1003:pier");
  EXPECT_EQ(CheckLos(b, on, EndAt(b, "1029")).from_level, 0);
  EXPECT_EQ(CheckLos(b, EndAt(b, "1003"), EndAt(b, "1029")).from_level, -1);
  test::TempBoard land(test::FixturePath("shore"),
                       R"({"counters": [{"type": "pier", "hex": "C2", "kind": "wooden"}]})");
  const auto s = CheckBeachSetup(LoadFile(land.path()));
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().rule, rules::kG13_7.id);
  const auto doc = Cli({"move", "--board", test::FixturePath("shore"), "--path", "102,1003:pier"});
  EXPECT_EQ(doc["steps"][1]["charges"][0]["rule"], rules::kG13_7.id);
  EXPECT_EQ(Cli({"move", "--board", land.path(), "--path", "C1,C2"}, 2)["error"]["rule"],
            rules::kG13_7.id);
}

// G13.494: B21.6 applies if OCEAN is frozen: no Wading, CC is no longer NA (G13.495), and moving
// onto the ice is a feature opsim does not model (exit 8), not a refusal.
TEST(G13, Rule13_494_FrozenOcean) {
  Board b = Shore();
  b.mutable_settings().frozen = true;
  const Position at = test::At(b, "1002");
  EXPECT_FALSE(IsWading(b, at, Unit(UnitKind::kInfantry)));
  EXPECT_TRUE(CheckActivity(b, at, Unit(UnitKind::kInfantry), Activity::kCloseCombat).has_value());
  const auto r = EvaluateMove(b, Infantry(), {"102", "1002"});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(r.error().rule, rules::kG13_494.id);
  EXPECT_TRUE(EvaluateMove(b, Infantry(), {"C4", "C3"}).has_value());  // land is unaffected
  const auto doc =
      Cli({"move", "--board", test::FixturePath("shore"), "--frozen", "--path", "102,1002"}, 8);
  EXPECT_EQ(doc["error"]["rule"], rules::kG13_494.id);
}

// ---- G13.83 -------------------------------------------------------------------------------------

// G13.83: at night a unit that begins its MPh with a LOS to a Beach/OCEAN Location is exempt from
// Straying; one whose view of the sea is blocked is not; by day no exemption is needed.
TEST(G13, Rule13_83_Straying) {
  test::TempBoard file(test::FixturePath("shore"), R"({"settings": {"night": true},
      "hexes": {"A3": {"terrain": "building"}, "B3": {"terrain": "building"},
                "C3": {"terrain": "building"}, "D3": {"terrain": "building"},
                "E3": {"terrain": "building"}, "F3": {"terrain": "building"},
                "G3": {"terrain": "building"}}})");
  const Board b = LoadFile(file.path());
  EXPECT_TRUE(SeesBeachOrOcean(b, EndAt(b, "C4")));
  EXPECT_TRUE(ExemptFromStraying(b, EndAt(b, "C4")));
  EXPECT_FALSE(SeesBeachOrOcean(b, EndAt(b, "D1")));
  EXPECT_FALSE(ExemptFromStraying(b, EndAt(b, "D1")));
  EXPECT_FALSE(ExemptFromStraying(Shore(), EndAt(Shore(), "C4")));  // not a night scenario
}

}  // namespace
}  // namespace opsim::tactical
