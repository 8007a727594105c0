// G8 Rice Paddies: TEM, LOS, mud, attacks, activities, fires, aerial landings (G8.11-.13, G8.211,
// G8.212-.213, G8.22, G8.3-.6), on the G8.2108 illustration. Each EX is checked through the
// library and through `opsim tactical los`.
#include <gtest/gtest.h>

#include "opsim/core/rule_ids.h"
#include "opsim/tactical/activity.h"
#include "opsim/tactical/attack.h"
#include "opsim/tactical/board_file.h"
#include "opsim/tactical/paddy.h"
#include "tactical_test_util.h"

namespace opsim::tactical {
namespace {

using test::Cli;
using test::End;
using test::Illustration;
using test::Paddies;

struct Shot {
  LosResult los;
  AttackEffects fx;
};

Shot Fire(const Board& b, LosEnd from, LosEnd to, AttackType attack) {
  Shot s{CheckLos(b, from, to), {}};
  s.fx = EvaluateAttack(b, from, to, attack, s.los);
  return s;
}
Shot Fire(const Board& b, const std::string& from, const std::string& to, AttackType attack) {
  return Fire(b, End(b, from), End(b, to), attack);
}

nlohmann::json CliLos(const std::string& paddy, const std::string& from, const std::string& to,
                      std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {
      "los", "--board", test::BoardPath("g8_2108"), "--paddy", paddy, "--from", from, "--to", to};
  args.insert(args.end(), extra.begin(), extra.end());
  return Cli(args);
}

bool HasRule(const std::vector<LosFactor>& v, const std::string& rule) {
  for (const auto& f : v) {
    if (f.rule == rule) return true;
  }
  return false;
}

// ---- G8.3 EX ----------------------------------------------------------------------------------

// G8.3 EX: Drained: none of the squads can claim bank-hexside TEM vs Indirect Fire (B9.34).
TEST(G8, Ex8_3_NoBankTemVsIndirectFire) {
  const Board b = Paddies(PaddyState::kDrained);
  for (const char* target : {"B", "C", "D"}) {
    const Shot s = Fire(b, "A", target, AttackType::kIndirectHe);
    EXPECT_EQ(s.fx.tem, 0) << target;
    auto doc = CliLos("drained", "A", target, {"--attack", "indirect-he"});
    EXPECT_EQ(doc["tem"], 0) << target;
  }
  const Shot c = Fire(b, "A", "C", AttackType::kIndirectHe);
  ASSERT_FALSE(c.fx.tem_items.empty());
  EXPECT_TRUE(HasRule(c.fx.tem_items, rules::kG8_3));
}

// G8.3 EX: enemy squad A attacks with other than a mortar/FT/Set DC: C and D claim the +1
// bank-hexside TEM (so no FFMO); B claims none and is in Open Ground.
TEST(G8, Ex8_3_SquadAFiresOnBCAndD) {
  const Board b = Paddies(PaddyState::kDrained);
  for (const char* target : {"C", "D"}) {
    const Shot s = Fire(b, "A", target, AttackType::kSmallArms);
    EXPECT_EQ(s.fx.tem, 1) << target;
    EXPECT_FALSE(s.fx.open_ground) << target;
    auto doc = CliLos("drained", "A", target);
    EXPECT_EQ(doc["tem"], 1) << target;
    EXPECT_FALSE(doc["open_ground"]) << target;
    EXPECT_EQ(doc["tem_items"][1]["rule"], rules::kG8_3.id);
  }
  for (AttackType a : {AttackType::kFlameThrower, AttackType::kSetDc}) {
    EXPECT_EQ(Fire(b, "A", "C", a).fx.tem, 0);
  }
  const Shot bank = Fire(b, "A", "B", AttackType::kSmallArms);
  EXPECT_EQ(bank.fx.tem, 0);
  EXPECT_TRUE(bank.fx.open_ground);
  auto doc = CliLos("drained", "A", "B");
  EXPECT_EQ(doc["tem"], 0);
  EXPECT_TRUE(doc["open_ground"]);
}

// G8.3 EX: if squad A were higher, C and D would be in Open Ground vs its attacks. The rule's
// "firer at any elevation >= the target's" is read as "higher than" (docs/tactical.md: read
// literally it contradicts the rest of this EX), so A at Level 0 leaves them their TEM and A at
// Level 1 takes it away.
TEST(G8, Ex8_3_SquadAHigher) {
  const Board b = Paddies(PaddyState::kDrained);
  for (const char* target : {"C", "D"}) {
    LosEnd a = End(b, "A");
    a.level_offset = 1;
    const Shot s = Fire(b, a, End(b, target), AttackType::kSmallArms);
    EXPECT_EQ(s.fx.tem, 0) << target;
    EXPECT_TRUE(s.fx.open_ground) << target;
    auto doc = CliLos("drained", "A", target, {"--from-level", "1"});
    EXPECT_EQ(doc["tem"], 0) << target;
    EXPECT_TRUE(doc["open_ground"]) << target;
  }
}

// G8.3 EX: In-Season, whatever squad A's elevation, C and D are in grain, B in Open Ground.
TEST(G8, Ex8_3_InSeason) {
  const Board b = Paddies(PaddyState::kInSeason);
  for (int level : {0, 1}) {
    LosEnd a = End(b, "A");
    a.level_offset = level;
    for (const char* target : {"C", "D"}) {
      const Shot s = Fire(b, a, End(b, target), AttackType::kSmallArms);
      EXPECT_FALSE(s.fx.open_ground) << target << level;
      EXPECT_TRUE(HasRule(s.fx.tem_items, rules::kG8_13)) << target;
      auto doc = CliLos("in-season", "A", target, {"--from-level", std::to_string(level)});
      EXPECT_FALSE(doc["open_ground"]);
    }
    EXPECT_TRUE(Fire(b, a, End(b, "B"), AttackType::kSmallArms).fx.open_ground);
    EXPECT_TRUE(
        CliLos("in-season", "A", "B", {"--from-level", std::to_string(level)})["open_ground"]);
  }
}

// G8.3 EX: squad D's Inherent FP vs squad A: A claims the bank-hexside TEM, unless it is in a
// building (whose TEM it would claim instead).
TEST(G8, Ex8_3_SquadDFiresOnA) {
  Board b = Paddies(PaddyState::kDrained);
  const Shot s = Fire(b, "D", "A", AttackType::kSmallArms);
  EXPECT_EQ(s.fx.tem, 1);
  EXPECT_TRUE(HasRule(s.fx.tem_items, rules::kG8_3));
  EXPECT_EQ(CliLos("drained", "D", "A")["tem"], 1);
  b.MutableAt(test::Hex(b, "oM5"))->terrain = Terrain::kBuilding;
  const Shot built = Fire(b, "D", "A", AttackType::kSmallArms);
  EXPECT_EQ(built.fx.tem, 2);
  EXPECT_EQ(built.fx.tem_items.front().rule, "B Terrain Chart");
  test::TempBoard file(test::BoardPath("g8_2108"),
                       R"({"hexes": {"oM5": {"terrain": "building"}}})");
  auto doc = Cli({"los", "--board", file.path(), "--paddy", "drained", "--from", "D", "--to", "A"});
  EXPECT_EQ(doc["tem"], 2);
}

// G8.3 EX: C claims the bank-hexside TEM vs B's Small Arms; B cannot vs C's, and is in Open
// Ground.
TEST(G8, Ex8_3_SquadsBAndCFireOnEachOther) {
  const Board b = Paddies(PaddyState::kDrained);
  EXPECT_EQ(Fire(b, "B", "C", AttackType::kSmallArms).fx.tem, 1);
  const Shot back = Fire(b, "C", "B", AttackType::kSmallArms);
  EXPECT_EQ(back.fx.tem, 0);
  EXPECT_TRUE(back.fx.open_ground);
  EXPECT_EQ(CliLos("drained", "B", "C")["tem"], 1);
  EXPECT_EQ(CliLos("drained", "C", "B")["tem"], 0);
}

// G8.3 EX: vs a FB strafing hexrow oL, neither B nor C claims bank-hexside TEM.
TEST(G8, Ex8_3_FighterBomberStrafing) {
  const Board b = Paddies(PaddyState::kDrained);
  for (const char* target : {"B", "C"}) {
    EXPECT_EQ(Fire(b, "oL1", target, AttackType::kAerial).fx.tem, 0) << target;
    EXPECT_EQ(CliLos("drained", "oL1", target, {"--attack", "aerial"})["tem"], 0) << target;
  }
}

// G8.3: the bank hexside's TEM is zero for a target that is not Infantry, but Direct Fire at an
// "empty" hex across a bank hexside keeps it.
TEST(G8, Rule8_3_NonInfantryAndEmptyHex) {
  const Board b = Paddies(PaddyState::kDrained);
  LosEnd tank = End(b, "C");
  tank.unit = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kAfv);
  EXPECT_EQ(Fire(b, End(b, "A"), tank, AttackType::kDirectHe).fx.tem, 0);
  LosEnd empty = tank;
  empty.occupied = false;
  EXPECT_EQ(Fire(b, End(b, "A"), empty, AttackType::kDirectHe).fx.tem, 1);
  EXPECT_EQ(CliLos("drained", "A", "oL2", {"--to-unit", "fully-tracked"})["tem"], 0);
  EXPECT_EQ(CliLos("drained", "A", "oL2", {"--to-unit", "fully-tracked", "--empty-target"})["tem"],
            1);
}

// G8.31: a unit above a Bank counter cannot claim the TEM of an AFV/wreck IN its hex.
TEST(G8, Rule8_31_NoWreckTemOnTheBank) {
  Board b = Paddies(PaddyState::kDrained);
  b.MutableAt(test::Hex(b, "oL3"))->counters.push_back(CounterType::kWreck);
  const Shot bank = Fire(b, "A", "B", AttackType::kSmallArms);
  EXPECT_EQ(bank.fx.tem, 0);
  EXPECT_TRUE(HasRule(bank.fx.tem_items, rules::kG8_31));
  EXPECT_EQ(Fire(b, "A", "oL3", AttackType::kSmallArms).fx.tem, 1);
}

// ---- G8.4 EX ------------------------------------------------------------------------------------

// G8.4 EX: In-Season: A to C +1 (oM4, oL3 halved), to oK2 +1 (two hexsides and oL3: 1½ FRD),
// to oJ1 +2 (four hexes halved), to B and D +0 (one hexside halved, FRD).
TEST(G8, Ex8_4_InSeasonHindrances) {
  const Board b = Paddies(PaddyState::kInSeason);
  const std::pair<const char*, int> cases[] = {
      {"C", 1}, {"oK2", 1}, {"oJ1", 2}, {"B", 0}, {"D", 0}};
  for (auto [target, hindrance] : cases) {
    const LosResult los = CheckLos(b, End(b, "A"), End(b, target));
    EXPECT_TRUE(los.clear) << target;
    EXPECT_EQ(los.hindrance, hindrance) << target;
    auto doc = CliLos("in-season", "A", target);
    EXPECT_TRUE(doc["los"]);
    EXPECT_EQ(doc["hindrance"], hindrance) << target;
  }
  // The reasons the EX gives: the hexsides oL4-oM4 and oK3-oL2 and the hex oL3, halved.
  const LosResult k2 = CheckLos(b, End(b, "A"), End(b, "oK2"));
  ASSERT_EQ(k2.trace.along.size(), 2u);
  EXPECT_EQ(b.Name(k2.trace.along[0]), "oL4-oM4");
  EXPECT_EQ(b.Name(k2.trace.along[1]), "oK3-oL2");
  EXPECT_EQ(k2.hindrances.back().rule, rules::kG8_4.id);
  EXPECT_EQ(k2.hindrances.back().what, "In-Season paddy Hindrance +3 halved, FRD: +1");
  const LosResult j1 = CheckLos(b, End(b, "A"), End(b, "oJ1"));
  std::vector<std::string> hexes;
  for (GridPos c : j1.trace.Intervening()) hexes.push_back(b.Name(c));
  EXPECT_EQ(hexes, (std::vector<std::string>{"oL4", "oL3", "oK3", "oK2"}));
}

// G8.4 EX: the LOS from squad B (on its Bank counter) to oJ1, and back, is +1 (oK2, oK3 halved).
TEST(G8, Ex8_4_SquadBToOJ1) {
  const Board b = Paddies(PaddyState::kInSeason);
  EXPECT_EQ(CheckLos(b, End(b, "B"), End(b, "oJ1")).hindrance, 1);
  EXPECT_EQ(CheckLos(b, End(b, "oJ1"), End(b, "B")).hindrance, 1);
  EXPECT_EQ(CliLos("in-season", "B", "oJ1")["hindrance"], 1);
  EXPECT_EQ(CliLos("in-season", "oJ1", "B")["hindrance"], 1);
}

// G8.4 EX: entrenched, squad D would have no LOS to the other squads (reciprocity too).
TEST(G8, Ex8_4_EntrenchedSquadD) {
  const Board b = Paddies(PaddyState::kInSeason);
  LosEnd d = End(b, "D");
  d.entrenched = true;
  for (const char* other : {"A", "B", "C"}) {
    const LosResult out = CheckLos(b, d, End(b, other));
    EXPECT_FALSE(out.clear) << other;
    EXPECT_EQ(out.blocked->rule, rules::kG8_4.id) << other;
    EXPECT_FALSE(CheckLos(b, End(b, other), d).clear) << other;
    auto doc = CliLos("in-season", "D", other, {"--from-entrenched"});
    EXPECT_FALSE(doc["los"]);
    EXPECT_EQ(doc["blocked"]["rule"], rules::kG8_4.id);
    EXPECT_FALSE(CliLos("in-season", other, "D", {"--to-entrenched"})["los"]);
  }
  EXPECT_TRUE(CheckLos(b, End(b, "D"), End(b, "A")).clear);  // not entrenched: it sees them
}

// G8.4: LOS to a unit on a Bank counter is drawn to its hex's centre dot, and a Bank counter
// does not affect LOS; an AFV IN a paddy keeps its Hindrance.
TEST(G8, Rule8_4_BankCounterAndAfv) {
  Board b = Paddies(PaddyState::kDrained);
  const LosResult bank = CheckLos(b, End(b, "A"), End(b, "oL3:bank"));
  const LosResult in = CheckLos(b, End(b, "A"), End(b, "oL3"));
  EXPECT_EQ(bank.trace.along, in.trace.along);
  EXPECT_EQ(bank.hindrance, in.hindrance);
  b.MutableAt(test::Hex(b, "oL3"))->counters.push_back(CounterType::kAfv);
  EXPECT_EQ(CheckLos(b, End(b, "A"), End(b, "oL2")).hindrance, 1);
}

// ---- G8.5
// ----------------------------------------------------------------------------------------

// G8.5 EX: mud in/IN the paddies: vs Indirect Fire HE squads B and C get +1 for mud (no bank
// TEM); vs A's Direct-Fire ordnance HE, B +1 and C +2; Irrigated, those HE attacks are halved.
TEST(G8, Ex8_5_MudTem) {
  const std::pair<PaddyState, Ec> cases[] = {{PaddyState::kIrrigated, Ec::kMud},
                                             {PaddyState::kDrained, Ec::kMud}};
  for (auto [state, ec] : cases) {
    const Board b = Paddies(state, ec);
    EXPECT_EQ(Fire(b, "A", "B", AttackType::kIndirectHe).fx.tem, 1);
    EXPECT_EQ(Fire(b, "A", "C", AttackType::kIndirectHe).fx.tem, 1);
    EXPECT_EQ(Fire(b, "A", "B", AttackType::kDirectHe).fx.tem, 1);
    EXPECT_EQ(Fire(b, "A", "C", AttackType::kDirectHe).fx.tem, 2);
    const bool halved = HasRule(Fire(b, "A", "C", AttackType::kDirectHe).fx.fp, rules::kG8_12);
    EXPECT_EQ(halved, state == PaddyState::kIrrigated);
    for (auto [target, attack, tem] :
         {std::tuple{"B", "indirect-he", 1}, std::tuple{"C", "indirect-he", 1},
          std::tuple{"B", "direct-he", 1}, std::tuple{"C", "direct-he", 2}}) {
      auto doc = CliLos(Name(state), "A", target, {"--ec", "mud", "--attack", attack});
      EXPECT_EQ(doc["tem"], tem) << target << attack;
    }
  }
  auto doc = CliLos("irrigated", "A", "B", {"--ec", "mud", "--attack", "direct-he"});
  ASSERT_FALSE(doc["fp"].empty());
  EXPECT_EQ(doc["fp"][0]["rule"], rules::kG8_12.id);
}

// G8.5: Irrigated paddies are mud only IN those hexes unless EC are Mud; with EC Mud mud is in
// and IN every paddy hex, even In-Season (G8.13).
TEST(G8, Rule8_5_WhereMudIs) {
  const Board irrigated = Paddies(PaddyState::kIrrigated);
  EXPECT_TRUE(MudAt(irrigated, test::At(irrigated, "oL3")));
  EXPECT_FALSE(MudAt(irrigated, test::At(irrigated, "oL3:bank")));
  EXPECT_EQ(Fire(irrigated, "A", "B", AttackType::kIndirectHe).fx.tem, 0);
  const Board season = Paddies(PaddyState::kInSeason, Ec::kMud);
  EXPECT_TRUE(MudAt(season, test::At(season, "oL3")));
  EXPECT_TRUE(MudAt(season, test::At(season, "oL3:bank")));
  EXPECT_FALSE(MudAt(Paddies(PaddyState::kDrained), test::At(season, "oL3")));
}

// G8.11: the interior of a Drained paddy is Open Ground aside from its banks: across an open
// (non-bank) hexside there is no TEM.
TEST(G8, Rule8_11_DrainedInteriorIsOpenGround) {
  const Board b = Paddies(PaddyState::kDrained);
  const Shot s = Fire(b, "oJ4", "D", AttackType::kSmallArms);
  EXPECT_EQ(s.fx.tem, 0);
  EXPECT_TRUE(s.fx.open_ground);
}

// ---- G8.12
// ------------------------------------------------------------------------------------------

// G8.12: IN an Irrigated paddy: equipment (not a horse or boat) left unpossessed is eliminated
// unless Animal-Packed; a vehicle's Bog DR gets +1 mud and +2 more; a SW of >= 3 PP has a
// restricted field of fire; Manhandling a boat is not doubled; white SMOKE may not be placed.
TEST(G8, Rule8_12_IrrigatedEffects) {
  const Board b = Paddies(PaddyState::kIrrigated);
  const Position in = test::At(b, "oL3");
  EXPECT_TRUE(DropItem(b, in, false, false, false).eliminated);
  EXPECT_EQ(DropItem(b, in, false, false, false).rule, rules::kG8_12.id);
  EXPECT_FALSE(DropItem(b, in, false, true, false).eliminated);
  EXPECT_FALSE(DropItem(b, in, false, false, true).eliminated);
  EXPECT_EQ(BogDrm(b, in), 3);
  EXPECT_TRUE(RestrictedFieldOfFire(b, in, 3));
  EXPECT_FALSE(RestrictedFieldOfFire(b, in, 2));
  EXPECT_FALSE(ManhandlingBoatDoubled(b, in));
  EXPECT_EQ(
      CheckActivity(b, in, Unit(UnitKind::kInfantry), Activity::kPlaceWhiteSmoke).error().rule,
      rules::kG8_12.id);
  const Board drained = Paddies(PaddyState::kDrained);
  EXPECT_FALSE(DropItem(drained, in, false, false, false).eliminated);
  EXPECT_EQ(BogDrm(drained, in), 0);
  EXPECT_TRUE(ManhandlingBoatDoubled(drained, in));
  EXPECT_TRUE(CheckActivity(drained, in, Unit(UnitKind::kInfantry), Activity::kPlaceWhiteSmoke)
                  .has_value());
}

// G8.12: DC and ordnance/OBA HE vs an Irrigated paddy hex are halved, but not HE-Equivalency /
// the Vehicle Target Type.
TEST(G8, Rule8_12_HeHalved) {
  const Board b = Paddies(PaddyState::kIrrigated);
  for (AttackType a : {AttackType::kDirectHe, AttackType::kIndirectHe, AttackType::kThrownDc}) {
    EXPECT_TRUE(HasRule(Fire(b, "A", "C", a).fx.fp, rules::kG8_12)) << Name(a);
  }
  for (AttackType a : {AttackType::kVehicleTarget, AttackType::kSmallArms}) {
    EXPECT_FALSE(HasRule(Fire(b, "A", "C", a).fx.fp, rules::kG8_12)) << Name(a);
  }
}

// ---- G8.211-.213 -----------------------------------------------------------------------------

// G8.211: above a Bank counter a unit may not Recover/Scrounge IN the paddy, Transfer, Set a DC,
// Guard a prisoner IN the paddy, or voluntarily become TI (Entrenching, Clearance, Searching,
// (Un)Packing); CC Withdrawal onto a Bank counter is NA.
TEST(G8, Rule8_211_RestrictionsOnTheBank) {
  const Board b = Paddies(PaddyState::kDrained);
  const Position bank = test::At(b, "oL3:bank");
  const Unit inf(UnitKind::kInfantry);
  for (Activity a : {Activity::kRecover, Activity::kScrounge, Activity::kTransfer, Activity::kSetDc,
                     Activity::kVoluntaryTi, Activity::kEntrench, Activity::kClearance,
                     Activity::kSearch, Activity::kPack, Activity::kCcWithdrawOnto}) {
    auto s = CheckActivity(b, bank, inf, a);
    ASSERT_FALSE(s.has_value()) << Name(a);
    EXPECT_EQ(s.error().rule, rules::kG8_211.id) << Name(a);
    EXPECT_TRUE(CheckActivity(b, test::At(b, "oL3"), inf, a).has_value()) << Name(a);
  }
  EXPECT_FALSE(
      CheckActivity(b, bank, inf, Activity::kGuardPrisoner, test::At(b, "oL3")).has_value());
  EXPECT_TRUE(CheckActivity(b, bank, inf, Activity::kGuardPrisoner, bank).has_value());
}

// G8.212: above a Bank counter Infantry use only Inherent FP/SW, LMG, LATW, FT and Thrown DC;
// its non-CC attacks are Area Fire (Thrown DC excepted); Ambush +2 drm; its CC +1 DRM; CC vs it -1.
TEST(G8, Rule8_212_AttacksFromTheBank) {
  const Board b = Paddies(PaddyState::kDrained);
  EXPECT_TRUE(Fire(b, "B", "A", AttackType::kDirectHe).fx.refusals.size() == 1);
  EXPECT_TRUE(Fire(b, "B", "A", AttackType::kSetDc).fx.refusals.size() == 1);
  const Shot sa = Fire(b, "B", "A", AttackType::kSmallArms);
  EXPECT_TRUE(sa.fx.refusals.empty());
  EXPECT_TRUE(HasRule(sa.fx.fp, rules::kG8_212));
  EXPECT_FALSE(HasRule(Fire(b, "B", "A", AttackType::kThrownDc).fx.fp, rules::kG8_212));
  const Shot cc = Fire(b, "B", "oL4", AttackType::kCloseCombat);
  ASSERT_FALSE(cc.fx.drm.empty());
  EXPECT_EQ(cc.fx.drm[0].amount, 1);
  EXPECT_EQ(cc.fx.notes[0].amount, 2);  // its Ambush dr
  const Shot vs = Fire(b, "oL4", "B", AttackType::kCloseCombat);
  EXPECT_TRUE(HasRule(vs.fx.drm, rules::kG8_212));
  EXPECT_EQ(vs.fx.drm[0].amount, -1);
  auto doc = CliLos("drained", "B", "A", {"--attack", "direct-he"});
  ASSERT_EQ(doc["refusals"].size(), 1u);
  EXPECT_EQ(doc["refusals"][0].get<std::string>().substr(0, 7), "G8.212:");
}

// G8.213: an unpossessed SW above a Bank counter goes IN the paddy (eliminated if Irrigated)
// unless Animal-Packed; a Gun stays on the Bank counter.
TEST(G8, Rule8_213_DroppedOnTheBank) {
  const Board b = Paddies(PaddyState::kDrained);
  const Position bank = test::At(b, "oL3:bank");
  EXPECT_EQ(DropItem(b, bank, false, false, false).at.place, Place::kHex);
  EXPECT_FALSE(DropItem(b, bank, false, false, false).eliminated);
  EXPECT_TRUE(DropItem(Paddies(PaddyState::kIrrigated), bank, false, false, false).eliminated);
  EXPECT_EQ(DropItem(b, bank, true, true, false).at.place, Place::kBank);
  EXPECT_EQ(DropItem(b, bank, false, true, false).at.place, Place::kBank);
}

// G8.22: parachutes and gliders land IN the paddy; a ⅝" parachute IN an Irrigated paddy takes a
// NMC; a glider landing across a bank hexside gets +1 Crash drm.
TEST(G8, Rule8_22_AerialLandings) {
  const Board b = Paddies(PaddyState::kIrrigated);
  const GridPos l3 = test::Hex(b, "oL3");
  const PaddyLanding chute = LandInPaddy(b, l3, true, std::nullopt);
  EXPECT_EQ(chute.at.place, Place::kHex);
  EXPECT_TRUE(chute.nmc);
  EXPECT_FALSE(LandInPaddy(Paddies(PaddyState::kDrained), l3, true, std::nullopt).nmc);
  EXPECT_EQ(LandInPaddy(b, l3, false, Hexside::Between(l3, test::Hex(b, "oL2"))).crash_drm, 1);
  EXPECT_EQ(LandInPaddy(b, test::Hex(b, "oK5"), false,
                        Hexside::Between(test::Hex(b, "oK5"), test::Hex(b, "oJ4")))
                .crash_drm,
            0);
}

// G8.6: no Terrain Flame/Blaze in a Drained/Irrigated paddy; In-Season paddies burn as grain, but
// Fire spreading across a bank hexside between two of them gets no "directly attached" -2.
TEST(G8, Rule8_6_Fires) {
  const Board drained = Paddies(PaddyState::kDrained);
  EXPECT_EQ(MayBurn(drained, test::Hex(drained, "oL3")).error().rule, rules::kG8_6.id);
  EXPECT_EQ(MayBurn(Paddies(PaddyState::kIrrigated), test::Hex(drained, "oL3")).error().rule,
            rules::kG8_6.id);
  const Board season = Paddies(PaddyState::kInSeason);
  EXPECT_TRUE(MayBurn(season, test::Hex(season, "oL3")).has_value());
  const auto bank = *Hexside::Between(test::Hex(season, "oL2"), test::Hex(season, "oL3"));
  const auto open = *Hexside::Between(test::Hex(season, "oJ4"), test::Hex(season, "oK5"));
  EXPECT_FALSE(DirectlyAttachedSpread(season, bank));
  EXPECT_TRUE(DirectlyAttachedSpread(season, open));
}

// G8.7: Infantry above a Wire or Panji counter in a paddy hex are IN it but claim neither the
// bank-hexside TEM nor non-Open Ground status, and are subject to G8.212 (but not Thrown DC).
TEST(G8, Rule8_7_AboveWireOrPanjiInAPaddy) {
  test::TempBoard file(test::BoardPath("g8_2108"),
                       R"({"counters": [{"type": "panji", "hip": "Panji A: oL2-oL1"}]})");
  auto b = LoadBoard(file.path());
  ASSERT_TRUE(b.has_value()) << b.error().to_string();
  b->mutable_settings().paddy = PaddyState::kInSeason;
  LosEnd above = End(*b, "oL2:above");
  const Shot s = Fire(*b, End(*b, "A"), above, AttackType::kSmallArms);
  EXPECT_EQ(s.fx.tem, 0);
  EXPECT_TRUE(s.fx.open_ground);
  EXPECT_TRUE(HasRule(s.fx.tem_items, rules::kG8_7));
  b->mutable_settings().paddy = PaddyState::kIrrigated;
  EXPECT_TRUE(MudAt(*b, above.at));  // considered IN the hex
  b->mutable_settings().paddy = PaddyState::kInSeason;
  const Shot thrown = Fire(*b, above, End(*b, "A"), AttackType::kThrownDc);
  EXPECT_FALSE(thrown.fx.refusals.empty());
}

}  // namespace
}  // namespace opsim::tactical
