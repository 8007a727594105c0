// G9 Panjis, on the board of the G9.3 illustration (scenarios/tactical/g9_3.json): set-up,
// Covered hexsides, entry above/beneath, the Panji MC, vehicles and horses, Bypass, exit,
// Searching, activities and removal. Each EX is checked through the library and the CLI.
#include <gtest/gtest.h>

#include "opsim/core/dice.h"
#include "opsim/core/rule_ids.h"
#include "opsim/tactical/activity.h"
#include "opsim/tactical/attack.h"
#include "opsim/tactical/board_file.h"
#include "opsim/tactical/panji.h"
#include "tactical_test_util.h"

namespace opsim::tactical {
namespace {

using test::Cli;
using test::CliStepCosts;
using test::End;
using test::HasNote;
using test::Illustration;
using test::Infantry;
using test::Move;
using test::StepCosts;

nlohmann::json CliMove(const std::string& path, std::vector<std::string> extra = {},
                       const std::string& board = test::BoardPath("g9_3")) {
  std::vector<std::string> args = {"move", "--board", board, "--path", path};
  args.insert(args.end(), extra.begin(), extra.end());
  return Cli(args);
}

bool CliHasNote(const nlohmann::json& step, const std::string& rule) {
  for (const auto& n : step["notes"]) {
    if (n["rule"] == rule) return true;
  }
  return false;
}

Dir DirOf(const Board& b, const std::string& from, const std::string& to) {
  return *map::DirectionTo(test::Hex(b, from), test::Hex(b, to));
}

// ---- G9.1, G9.11, G9.3 ------------------------------------------------------------------------

// G9.3 EX: 37DD7-CC8, DD7-DD8 and DD7-EE8 are the Covered hexsides of Panji counter C; only
// EE7-EE8 is one of Panji counter A.
TEST(G9, Ex9_3_CoveredHexsides) {
  const Board b = Illustration("g9_3");
  const PanjiSetupReport r = CheckPanjiSetup(b, std::nullopt);
  ASSERT_EQ(r.panjis.size(), 2u);
  const PanjiSetupEntry& c = r.panjis[0].id == 'C' ? r.panjis[0] : r.panjis[1];
  const PanjiSetupEntry& a = r.panjis[0].id == 'A' ? r.panjis[0] : r.panjis[1];
  EXPECT_EQ(std::set<std::string>(c.covered.begin(), c.covered.end()),
            (std::set<std::string>{"37DD7-CC8", "37DD7-DD8", "37DD7-EE8"}));
  EXPECT_EQ(a.covered, (std::vector<std::string>{"37EE7-EE8"}));
  EXPECT_EQ(r.covered_total, 4);
  auto doc = Cli({"panji-setup", "--board", test::BoardPath("g9_3")});
  EXPECT_TRUE(doc["legal"]);
  EXPECT_EQ(doc["covered_total"], 4);
  for (const auto& p : doc["panjis"]) {
    if (p["id"] == "C") {
      EXPECT_EQ(p["covered"].size(), 3u);
    } else {
      EXPECT_EQ(p["covered"], nlohmann::json::array({"37EE7-EE8"}));
    }
  }
}

// G9.11 EX: hidden, the counters would be recorded "Panji A: 37EE7-EE8" and "Panji C: 37DD7-DD8".
TEST(G9, Ex9_11_HipRecords) {
  const Board b = Illustration("g9_3");
  EXPECT_EQ(HipRecordOf(b, test::Hex(b, "37EE7")), "Panji A: 37EE7-EE8");
  EXPECT_EQ(HipRecordOf(b, test::Hex(b, "37DD7")), "Panji C: 37DD7-DD8");
  auto doc = Cli({"panji-setup", "--board", test::BoardPath("g9_3")});
  std::set<std::string> hips;
  for (const auto& p : doc["panjis"]) hips.insert(p["hip"].get<std::string>());
  EXPECT_EQ(hips, (std::set<std::string>{"Panji A: 37EE7-EE8", "Panji C: 37DD7-DD8"}));
  // And a record read back gives the same counter and Covered hexsides.
  auto rec = ParseHipRecord("Panji C: 37DD7-DD8");
  ASSERT_TRUE(rec.has_value());
  EXPECT_EQ(rec->id, 'C');
  EXPECT_EQ(rec->facing, "37DD8");
}

// G9.11: a HIP record must read "Panji X: HEX-HEX", setup hex first.
TEST(G9, Rule9_11_BadHipRecord) {
  for (const char* bad :
       {"Panji A 37EE7-EE8", "Panji G: 37EE7-EE8", "Panji A: 37EE7", "Panji A: -EE8"}) {
    auto r = ParseHipRecord(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().rule, rules::kG9_11.id);
  }
  auto doc =
      Cli({"panji-setup", "--board", test::BoardPath("g9_3"), "--hip", "Panji A: 37EE6-EE8"}, 2);
  EXPECT_EQ(doc["error"]["rule"], rules::kG9_11.id);
}

// G9.1: PTO Terrain, the terrain, one per hex, no wire/mines/roadblock, the OB's Covered-hexside
// budget, and a bridge's road hexsides.
TEST(G9, Rule9_1_SetUpLegality) {
  Board b = Illustration("g9_3");
  EXPECT_TRUE(CheckPanjiSetup(b, 4).legal());
  EXPECT_EQ(CheckPanjiSetup(b, 3).problems.at(0).rule, rules::kG9_1.id);
  Board no_pto = b;
  no_pto.mutable_settings().pto = false;
  EXPECT_EQ(CheckPanjiSetup(no_pto, std::nullopt).problems.at(0).rule, rules::kG9_1.id);
  for (Terrain t : {Terrain::kBuilding, Terrain::kRubble, Terrain::kMarsh, Terrain::kSwamp,
                    Terrain::kRunway, Terrain::kCrag, Terrain::kRiver}) {
    Board bad = b;
    bad.MutableAt(test::Hex(b, "37EE7"))->terrain = t;
    EXPECT_FALSE(CheckPanjiSetup(bad, std::nullopt).legal()) << TerrainName(t);
  }
  Board paved = b;
  paved.MutableAt(test::Hex(b, "37EE7"))->road = Road::kPaved;
  EXPECT_FALSE(CheckPanjiSetup(paved, std::nullopt).legal());
  for (CounterType t : {CounterType::kWire, CounterType::kMines, CounterType::kRoadblock}) {
    Board bad = b;
    bad.MutableAt(test::Hex(b, "37EE7"))->counters.push_back(t);
    EXPECT_FALSE(CheckPanjiSetup(bad, std::nullopt).legal()) << Name(t);
  }
  Board bridge = b;
  bridge.MutableAt(test::Hex(b, "37EE7"))->bridge = true;
  EXPECT_FALSE(CheckPanjiSetup(bridge, std::nullopt).legal());
  bridge.MutableFeatures(*Hexside::Between(test::Hex(b, "37EE7"), test::Hex(b, "37EE8"))).road =
      true;
  EXPECT_TRUE(CheckPanjiSetup(bridge, std::nullopt).legal());
  auto over = Cli({"panji-setup", "--board", test::BoardPath("g9_3"), "--ob", "3"});
  EXPECT_FALSE(over["legal"]);
  EXPECT_EQ(over["problems"][0]["rule"], rules::kG9_1.id);
  auto second =
      Cli({"panji-setup", "--board", test::BoardPath("g9_3"), "--hip", "Panji B: 37EE7-EE6"});
  EXPECT_FALSE(second["legal"]);
  EXPECT_EQ(second["problems"][0]["rule"], rules::kG9_1.id);
  auto added = Cli({"panji-setup", "--board", test::BoardPath("g9_3"), "--hip",
                    "Panji B: 37CC8-CC7", "--ob", "6"});
  EXPECT_TRUE(added["legal"]);
  EXPECT_EQ(added["covered_total"], 6);
  test::TempBoard wire(test::BoardPath("g9_3"),
                       R"({"counters": [{"type": "wire", "hex": "37EE7"}]})");
  EXPECT_FALSE(Cli({"panji-setup", "--board", wire.path()})["legal"]);
  test::TempBoard two(test::BoardPath("g9_3"),
                      R"({"counters": [{"type": "panji", "hip": "Panji B: 37EE7-EE6"}]})");
  auto doc = Cli({"panji-setup", "--board", two.path()}, 2);
  EXPECT_EQ(doc["error"]["rule"], rules::kG9_1.id);
}

// G9.1: a board's own set-up is checked as panji-setup checks it whenever a command opens the
// board, so move and los refuse a Panji counter in a hex with wire (exit 2, naming the file and
// hex; before, only panji-setup saw it), while panji-setup answers with the problem. A Rubble
// counter counts as rubble terrain, where no panji may be set up.
TEST(G9, Rule9_1_CheckedWhenABoardIsOpened) {
  EXPECT_TRUE(CheckPanjiBoardSetup(Illustration("g9_3")).has_value());
  for (const char* counter : {"wire", "rubble"}) {
    const std::string patch =
        std::string(R"({"counters": [{"type": ")") + counter + R"(", "hex": "37EE7"}]})";
    test::TempBoard file(test::BoardPath("g9_3"), patch);
    auto b = LoadBoard(file.path());
    ASSERT_TRUE(b.has_value()) << counter;
    const PanjiSetupReport r = CheckPanjiSetup(*b, std::nullopt);
    ASSERT_EQ(r.problems.size(), 1u) << counter;
    EXPECT_EQ(r.problems[0].rule, rules::kG9_1.id) << counter;
    EXPECT_EQ(r.problems[0].hex, "37EE7") << counter;
    const Status s = CheckPanjiBoardSetup(*b);
    ASSERT_FALSE(s.has_value()) << counter;
    EXPECT_EQ(s.error().rule, rules::kG9_1.id);
    EXPECT_EQ(s.error().where, file.path() + ": 37EE7");
    EXPECT_NE(s.error().message.find(counter), std::string::npos) << s.error().message;
    auto move = Cli({"move", "--board", file.path(), "--path", "37EE8,EE7"}, 2);
    EXPECT_EQ(move["error"]["rule"], rules::kG9_1.id) << counter;
    auto los = Cli({"los", "--board", file.path(), "--from", "A", "--to", "C"}, 2);
    EXPECT_EQ(los["error"]["rule"], rules::kG9_1.id) << counter;
    auto setup = Cli({"panji-setup", "--board", file.path()});
    EXPECT_FALSE(setup["legal"]) << counter;
    EXPECT_EQ(setup["problems"][0]["rule"], rules::kG9_1.id) << counter;
  }
}

// G9.12: neither a non-vehicular Gun nor a unit that may not go from above to beneath may set up
// above a Panji counter.
TEST(G9, Rule9_12_WhoMaySetUpAbove) {
  EXPECT_TRUE(MaySetUpAbove(Unit(UnitKind::kInfantry), false).has_value());
  EXPECT_EQ(MaySetUpAbove(Unit(UnitKind::kInfantry), true).error().rule, rules::kG9_12.id);
  EXPECT_EQ(MaySetUpAbove(Unit(UnitKind::kTruck), false).error().rule, rules::kG9_12.id);
  const Board b = Illustration("g9_3");
  MoveOptions truck;
  truck.unit = Unit(UnitKind::kTruck);
  EXPECT_EQ(Move(b, truck, "37EE7:above").refusal()->rule, rules::kG9_12.id);
}

// ---- G9.4-.46 EX
// ---------------------------------------------------------------------------------

// G9.4 EX: squad A expends two MF to enter EE7 (three across a wall or hedge) and is placed above
// Panji counter A, in any phase.
TEST(G9, Ex9_4_SquadAEntersEE7) {
  const Board b = Illustration("g9_3");
  const MoveReport r = Move(b, Infantry(), "37EE8,EE7");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.total().value(), 2);
  EXPECT_EQ(r.steps[1].to.place, Place::kAbove);
  MoveOptions advance = Infantry();
  advance.phase = Phase::kAdvance;
  EXPECT_EQ(Move(b, advance, "37EE8,EE7").steps[1].to.place, Place::kAbove);
  auto doc = CliMove("37EE8,EE7");
  EXPECT_EQ(doc["total"], 2);
  EXPECT_EQ(doc["steps"][1]["to"], "37EE7:above");
  EXPECT_EQ(CliMove("37EE8,EE7", {"--phase", "advance"})["steps"][1]["to"], "37EE7:above");
  for (const char* feature : {"hedge", "wall"}) {
    test::TempBoard file(
        test::BoardPath("g9_3"),
        std::string(R"({"hexsides": [{"hexes": "37EE7-37EE8", ")") + feature + R"(": true}]})");
    auto hedged = CliMove("37EE8,EE7", {}, file.path());
    EXPECT_EQ(hedged["total"], 3) << feature;
    EXPECT_EQ(hedged["steps"][1]["charges"][0]["rule"], rules::kG9_4.id);
  }
}

// G9.41: Infantry entering across a Covered hexside take a Panji MC unless using Assault
// Movement, Armored Assault or Low Crawl, or making a normal advance; then they may spend an
// extra MF to go beneath (not in the APh).
TEST(G9, Rule9_41_PanjiMcAndItsExemptions) {
  const Board b = Illustration("g9_3");
  const MoveReport r = Move(b, Infantry(), "37EE8,EE7,EE7:beneath");
  ASSERT_TRUE(r.legal());
  EXPECT_TRUE(HasNote(r.steps[1], rules::kG9_41));
  EXPECT_EQ(r.steps[2].total().value(), 1);
  EXPECT_EQ(r.steps[2].charges[0].rule, rules::kG9_5.id);
  auto exempt = [&](MoveOptions o) {
    const MoveReport m = Move(b, o, "37EE8,EE7");
    for (const Note& n : m.steps[1].notes) {
      if (n.rule == rules::kG9_41.id && n.text.rfind("no Panji MC", 0) == 0) return true;
    }
    return false;
  };
  EXPECT_FALSE(exempt(Infantry()));
  MoveOptions o = Infantry();
  o.assault_movement = true;
  EXPECT_TRUE(exempt(o));
  o = Infantry();
  o.low_crawl = true;
  EXPECT_TRUE(exempt(o));
  o = Infantry();
  o.armored_assault = true;
  EXPECT_TRUE(exempt(o));
  o = Infantry();
  o.phase = Phase::kAdvance;
  EXPECT_TRUE(exempt(o));
  EXPECT_EQ(Move(b, o, "37EE8,EE7,EE7:beneath").refusal()->rule, rules::kG9_41.id);
  auto doc = CliMove("37EE8,EE7", {"--assault-movement"});
  EXPECT_TRUE(CliHasNote(doc["steps"][1], rules::kG9_41));
}

// G9.31: the Panji MC: a NMC; Original Doubles < 12 add Casualty Reduction, an Original 12 a
// Casualty MC; failed: Replacement, then CR/CMC, then the break; Final DR = morale pins.
TEST(G9, Rule9_31_PanjiMc) {
  const PanjiMc doubles = ResolvePanjiMc(3, 3, 0, 7, false);
  EXPECT_TRUE(doubles.passed);
  EXPECT_TRUE(doubles.casualty_reduction);
  EXPECT_FALSE(doubles.casualty_mc);
  const PanjiMc twelve = ResolvePanjiMc(6, 6, 0, 7, false);
  EXPECT_FALSE(twelve.passed);
  EXPECT_TRUE(twelve.casualty_mc);
  EXPECT_FALSE(twelve.casualty_reduction);
  EXPECT_EQ(twelve.sequence, (std::vector<std::string>{"Replacement (if applicable)",
                                                       "Casualty MC (Original 12; A10.31)",
                                                       "broken (Panji MC failed)"}));
  const PanjiMc pin = ResolvePanjiMc(3, 4, 0, 7, false);
  EXPECT_TRUE(pin.passed);
  EXPECT_TRUE(pin.pinned);
  EXPECT_FALSE(ResolvePanjiMc(3, 4, 0, 7, true).pinned);
  const PanjiMc fail = ResolvePanjiMc(5, 4, 0, 8, false);
  EXPECT_FALSE(fail.passed);
  EXPECT_FALSE(fail.casualty_reduction);
  // Rolled through opsim::Dice with a seed: the same two dice as a Dice with that seed.
  Dice probe(11);
  const int d1 = probe.Roll(6), d2 = probe.Roll(6);
  Dice dice(11);
  const PanjiMc rolled = RollPanjiMc(dice, 0, 7, false);
  EXPECT_EQ(rolled.dice[0], d1);
  EXPECT_EQ(rolled.dice[1], d2);
}

// G9.31 through a move: with a seed the MC is rolled, and a broken or pinned unit stops.
TEST(G9, Rule9_31_RolledOnEntry) {
  const Board b = Illustration("g9_3");
  int stopped = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    MoveOptions o = Infantry();
    o.seed = seed;
    const MoveReport r = Move(b, o, "37EE8,EE7,EE7:beneath");
    Dice probe(seed);
    const PanjiMc mc = ResolvePanjiMc(probe.Roll(6), probe.Roll(6), 0, 7, false);
    EXPECT_EQ(r.legal(), mc.passed && !mc.pinned) << seed;
    if (!r.legal()) ++stopped;
    auto doc = CliMove("37EE8,EE7,EE7:beneath", {"--seed", std::to_string(seed)});
    EXPECT_EQ(doc["legal"], mc.passed && !mc.pinned);
  }
  EXPECT_GT(stopped, 0);
}

// G9.31: the Panji MC's outcome is the unit's state in the answer (as Swamping's immobilization
// is): broken if it failed, pinned on a Final DR equal to its morale, reduced by Casualty
// Reduction on Original Doubles < 12 (even if it passed). Before, only notes said so and
// "unit_after" was the unit that started. A unit that starts pinned moves no further (G8.2111).
TEST(G9, Rule9_31_OutcomeIsTheUnitsState) {
  const Board b = Illustration("g9_3");
  int broken = 0, pinned = 0, reduced = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    MoveOptions o = Infantry();
    o.seed = seed;
    const MoveReport r = Move(b, o, "37EE8,EE7");
    Dice probe(seed);
    const PanjiMc mc = ResolvePanjiMc(probe.Roll(6), probe.Roll(6), 0, 7, false);
    Unit after(UnitKind::kInfantry);
    if (mc.casualty_reduction) after.Set(UnitFlag::kReduced);
    if (!mc.passed) {
      after.Set(UnitFlag::kBroken);
    } else if (mc.pinned) {
      after.Set(UnitFlag::kPinned);
    }
    broken += after.Has(UnitFlag::kBroken);
    pinned += after.Has(UnitFlag::kPinned);
    reduced += after.Has(UnitFlag::kReduced);
    EXPECT_EQ(r.unit, after.ToString()) << seed;
    auto doc = CliMove("37EE8,EE7", {"--seed", std::to_string(seed)});
    EXPECT_EQ(doc["unit_after"], after.ToString()) << seed;
  }
  EXPECT_GT(broken, 0);
  EXPECT_GT(pinned, 0);
  EXPECT_GT(reduced, 0);
  // Without a seed the MC is not rolled, and the unit is as it started.
  EXPECT_EQ(Move(b, Infantry(), "37EE8,EE7").unit, "infantry");
  MoveOptions pin = Infantry();
  pin.unit.Set(UnitFlag::kPinned);
  const MoveReport stays = Move(b, pin, "37EE8,EE7");
  ASSERT_FALSE(stays.legal());
  EXPECT_EQ(stays.refusal()->rule, rules::kG8_2111.id);
  EXPECT_EQ(CliMove("37EE8,EE7", {"--flag", "pinned"})["refusal"]["rule"], rules::kG8_2111.id);
}

// G9.45 EX: squad D entering EE7, or DD7 without Bypass, is placed beneath; so is any unit
// entering EE7 from DD7 or back.
TEST(G9, Ex9_45_NonCoveredHexsides) {
  const Board b = Illustration("g9_3");
  for (const char* path : {"37DD6,EE7", "37DD6,DD7", "37DD7:beneath,EE7", "37EE7:beneath,DD7"}) {
    const MoveReport r = Move(b, Infantry(), path);
    ASSERT_TRUE(r.legal()) << path;
    EXPECT_EQ(r.steps[1].to.place, Place::kBeneath) << path;
    EXPECT_TRUE(HasNote(r.steps[1], rules::kG9_45)) << path;
    auto doc = CliMove(path);
    EXPECT_EQ(doc["steps"][1]["to"].get<std::string>().substr(6), "beneath") << path;
  }
  EXPECT_EQ(Move(b, Infantry(), "37DD6,EE7:above").refusal()->rule, rules::kG9_45.id);
}

// G9.45 EX: A and B beneath Trench counters, moving within the trenches to each other's hex:
// no Panji MC, and A enters EE7 straight to beneath Panji counter A.
TEST(G9, Ex9_45_WithinTrenches) {
  test::TempBoard file(test::BoardPath("g9_3"), R"({"counters": [{"type": "trench", "hex": "37EE7"},
                                               {"type": "trench", "hex": "37EE8"}]})");
  auto b = LoadBoard(file.path());
  ASSERT_TRUE(b.has_value());
  // The COT only: light jungle 2 MF into EE7, Open Ground 1 MF into EE8.
  for (auto [path, cot] :
       {std::pair{"37EE8:trench,EE7:trench", 2}, std::pair{"37EE7:trench,EE8:trench", 1}}) {
    const MoveReport r = Move(*b, Infantry(), path);
    ASSERT_TRUE(r.legal()) << path;
    EXPECT_FALSE(HasNote(r.steps[1], rules::kG9_41)) << path;
    EXPECT_EQ(r.steps[1].total().value(), cot) << path;
  }
  const MoveReport a = Move(*b, Infantry(), "37EE8:trench,EE7:trench");
  EXPECT_EQ(a.steps[1].to.place, Place::kTrench);
  EXPECT_TRUE(HasNote(a.steps[1], rules::kG9_45));
  auto doc = CliMove("37EE8:trench,EE7:trench", {}, file.path());
  EXPECT_TRUE(doc["legal"]);
  EXPECT_FALSE(CliHasNote(doc["steps"][1], rules::kG9_41));
}

// G9.46 EX: with light jungle, DD7 may be Bypassed only along DD7-DD6; not along its Covered
// hexsides nor along DD7-EE7, which touches Covered hexside DD7-EE8.
TEST(G9, Ex9_46_WhereDD7MayBeBypassed) {
  const Board b = Illustration("g9_3");
  const GridPos dd7 = test::Hex(b, "37DD7");
  for (const char* other : {"37CC8", "37DD8", "37EE8", "37EE7", "37CC7"}) {
    auto s = MayBypassAlong(b, dd7, *Hexside::Between(dd7, test::Hex(b, other)));
    ASSERT_FALSE(s.has_value()) << other;
    EXPECT_EQ(s.error().rule, rules::kG9_46.id);
  }
  EXPECT_TRUE(MayBypassAlong(b, dd7, *Hexside::Between(dd7, test::Hex(b, "37DD6"))).has_value());
  EXPECT_NE(MayBypassAlong(b, dd7, *Hexside::Between(dd7, test::Hex(b, "37EE7")))
                .error()
                .message.find("touches"),
            std::string::npos);
  // Through the CLI: a unit touching each hexside tries to Bypass DD7 along it; only DD7-DD6 lets
  // it in.
  const std::pair<const char*, const char*> attempts[] = {{"37EE8", "37EE8"}, {"37EE8", "37DD8"},
                                                          {"37EE8", "37EE7"}, {"37DD6", "37DD6"},
                                                          {"37DD6", "37CC7"}, {"37CC8", "37CC8"}};
  for (auto [from, along] : attempts) {
    const auto doc = CliMove(std::string(from) + ",DD7~" + along);
    const bool entered = doc["steps"][1]["to"] == "37DD7:beneath";
    EXPECT_EQ(entered, std::string(along) == "37DD6") << from << " along DD7-" << along;
    EXPECT_EQ(doc["steps"][1]["charges"][0]["rule"], rules::kG9_46.id);
  }
}

// G9.46 EX: hidden Panji C: squad B Bypassing along DD7-EE8 reveals it, is blocked, and spends
// the one MF while still beneath Panji counter A; squad B Bypassing along DD7-DD6 enters DD7
// beneath Panji counter C; it may also Bypass along FF7-EE8.
TEST(G9, Ex9_46_SquadBBypasses) {
  test::TempBoard file(test::BoardPath("g9_3"), "{}");
  {
    auto doc = nlohmann::json::parse(opsim::test::ReadFile(file.path()));
    doc["counters"][1]["hidden"] = true;
    opsim::test::WriteFile(file.path(), doc.dump());
  }
  auto b = LoadBoard(file.path());
  ASSERT_TRUE(b.has_value());
  const MoveReport blocked = Move(*b, Infantry(), "37EE7:beneath,DD7~EE8");
  ASSERT_TRUE(blocked.legal());
  EXPECT_EQ(blocked.steps[1].total().value(), 1);
  EXPECT_EQ(blocked.steps[1].to, test::At(*b, "37EE7:beneath"));
  bool revealed = false;
  for (const Note& n : blocked.steps[1].notes)
    revealed = revealed || n.text.find("revealed") != std::string::npos;
  EXPECT_TRUE(revealed);
  const MoveReport in = Move(*b, Infantry(), "37EE7:beneath,DD7~DD6");
  ASSERT_TRUE(in.legal());
  EXPECT_EQ(in.steps[1].to, test::At(*b, "37DD7:beneath"));
  EXPECT_TRUE(Move(*b, Infantry(), "37EE7:beneath,FF7~EE8").legal());
  auto doc = CliMove("37EE7:beneath,DD7~EE8", {}, file.path());
  EXPECT_EQ(doc["total"], 1);
  EXPECT_EQ(doc["steps"][1]["to"], "37EE7:beneath");
  EXPECT_EQ(doc["steps"][1]["charges"][0]["rule"], rules::kG9_46.id);
  EXPECT_EQ(CliMove("37EE7:beneath,DD7~DD6", {}, file.path())["steps"][1]["to"], "37DD7:beneath");
}

// G9.46 EX: squad C, leaving EE6 by Bypass (of DD6, along DD6-EE7) and trying to go on Bypassing
// DD7 along DD7-EE7, spends the blocked attempt's MF while in Bypass at vertex DD6-EE7-DD7.
TEST(G9, Ex9_46_SquadCBlockedInBypass) {
  const Board b = Illustration("g9_3");
  const MoveReport r = Move(b, Infantry(), "37EE6,DD6~EE7,DD7~EE7");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(StepCosts(r), (std::vector<double>{1, 1}));
  EXPECT_EQ(r.steps[2].to.hex, test::Hex(b, "37DD6"));
  EXPECT_EQ(CliStepCosts(CliMove("37EE6,DD6~EE7,DD7~EE7")), (std::vector<double>{1, 1}));
}

// G9.46: a vehicle whose Bypass is blocked also spends a Stop MP.
TEST(G9, Rule9_46_VehicleStopMp) {
  const Board b = Illustration("g9_3");
  MoveOptions tank;
  tank.unit = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kAfv);
  const MoveReport r = Move(b, tank, "37EE7:beneath,DD7~EE8");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.steps[1].total().value(), 2);
}

// ---- G9.42-.44 --------------------------------------------------------------------------------

// G9.42: a vehicle entering across a Covered hexside is immobilized unless a fully-tracked
// AFV/dozer; a Ridden motorcycle is eliminated and its Riders bail out (G9.423: then entering
// Infantry); G9.421: a towed Gun is eliminated with its immobilized tower.
TEST(G9, Rule9_42_Vehicles) {
  const Board b = Illustration("g9_3");
  Board open = b;
  open.MutableAt(test::Hex(b, "37EE7"))->terrain = Terrain::kOpenGround;
  MoveOptions truck;
  truck.unit = Unit(UnitKind::kTruck).Set(UnitFlag::kTowingGun);
  const MoveReport t = Move(open, truck, "37EE8,EE7");
  EXPECT_TRUE(HasNote(t.steps[1], rules::kG9_421));
  EXPECT_EQ(t.steps[1].to.place, Place::kAbove);
  EXPECT_EQ(Move(open, truck, "37EE8,EE7,EE6").refusal()->rule, rules::kG9_42.id);
  MoveOptions tank;
  tank.unit = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kAfv);
  const MoveReport ok = Move(b, tank, "37EE8,EE7,EE7:beneath");
  ASSERT_TRUE(ok.legal());
  EXPECT_TRUE(HasNote(ok.steps[1], rules::kG9_42));
  MoveOptions halftrack;
  halftrack.unit = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kTowingGun);
  const MoveReport stuck = Move(b, halftrack, "37EE8,EE7,EE6");
  EXPECT_FALSE(stuck.legal());
  EXPECT_TRUE(HasNote(stuck.steps[1], rules::kG9_42));
  EXPECT_TRUE(HasNote(stuck.steps[1], rules::kG9_421));
  EXPECT_EQ(stuck.refusal()->rule, rules::kG9_42.id);
  MoveOptions cycle;
  cycle.unit = Unit(UnitKind::kCycle);
  const MoveReport bike = Move(b, cycle, "37EE8,EE7");
  EXPECT_TRUE(HasNote(bike.steps[1], rules::kG9_42));
  EXPECT_TRUE(HasNote(bike.steps[1], rules::kG9_423));
  EXPECT_TRUE(HasNote(bike.steps[1], rules::kG9_41));  // the Riders take the Panji MC
  EXPECT_EQ(bike.unit, "infantry");
  auto doc = CliMove("37EE8,EE7,EE6", {"--unit", "fully-tracked"});
  EXPECT_EQ(doc["refusal"]["rule"], rules::kG9_42.id);
}

// G9.422: a ridden horse/bicycle is eliminated entering across a Covered hexside, unless a horse
// that expended eleven MF (COT included) and is not Galloping; led horses and portaged bicycles
// are unaffected; Cavalry may not Gallop onto a non-hidden Panji counter.
TEST(G9, Rule9_422_HorsesAndBicycles) {
  const Board b = Illustration("g9_3");
  MoveOptions cav;
  cav.unit = Unit(UnitKind::kCavalry);
  const MoveReport fast = Move(b, cav, "37EE8,EE7");
  EXPECT_TRUE(HasNote(fast.steps[1], rules::kG9_422));
  EXPECT_EQ(fast.unit, "infantry");
  const MoveReport slow = Move(b, cav, "37EE8,EE7@11");
  EXPECT_EQ(slow.unit, "cavalry");
  EXPECT_EQ(slow.steps[1].total().value(), 11);
  MoveOptions gallop;
  gallop.unit = Unit(UnitKind::kCavalry).Set(UnitFlag::kGalloping);
  EXPECT_EQ(Move(b, gallop, "37EE8,EE7").refusal()->rule, rules::kG9_422.id);
  MoveOptions led = Infantry();
  led.unit.Set(UnitFlag::kLeadingHorses);
  EXPECT_EQ(Move(b, led, "37EE8,EE7").unit, "infantry+leading-horses");
  MoveOptions bike;
  bike.unit = Unit(UnitKind::kBicycle);
  EXPECT_EQ(Move(b, bike, "37EE8,EE7").unit, "infantry");
  EXPECT_EQ(CliMove("37EE8,EE7@11", {"--unit", "cavalry"})["unit_after"], "cavalry");
}

// G9.411: an item Manhandled across a Covered hexside is eliminated; G9.44: a Column Disbands.
TEST(G9, Rule9_411_9_44_ManhandlingAndColumns) {
  Board b = Illustration("g9_3");
  MoveOptions gun = Infantry();
  gun.unit.Set(UnitFlag::kManhandlingGun);
  const MoveReport r = Move(b, gun, "37EE8,EE7");
  EXPECT_TRUE(HasNote(r.steps[1], rules::kG9_411));
  EXPECT_EQ(r.unit, "infantry");
  MoveOptions column = Infantry();
  column.unit.Set(UnitFlag::kColumn);
  EXPECT_TRUE(HasNote(Move(b, column, "37EE8,EE7").steps[1], rules::kG9_44));
}

// ---- G9.5, G9.6
// -----------------------------------------------------------------------------------

// G9.5: only Mobile fully-tracked AFV/dozers, Infantry not Manhandling, led horses and Cavalry
// may change between above and beneath, for one MF/MP.
TEST(G9, Rule9_5_AboveAndBeneath) {
  EXPECT_TRUE(MayChangeAboveBeneath(Unit(UnitKind::kInfantry)).has_value());
  EXPECT_TRUE(MayChangeAboveBeneath(Unit(UnitKind::kCavalry)).has_value());
  EXPECT_TRUE(
      MayChangeAboveBeneath(Unit(UnitKind::kFullyTracked).Set(UnitFlag::kDozer)).has_value());
  EXPECT_EQ(
      MayChangeAboveBeneath(Unit(UnitKind::kInfantry).Set(UnitFlag::kManhandlingGun)).error().rule,
      rules::kG9_5.id);
  EXPECT_EQ(MayChangeAboveBeneath(Unit(UnitKind::kTruck)).error().rule, rules::kG9_5.id);
  EXPECT_EQ(MayChangeAboveBeneath(
                Unit(UnitKind::kFullyTracked).Set(UnitFlag::kAfv).Set(UnitFlag::kImmobilized))
                .error()
                .rule,
            rules::kG9_5.id);
  const Board b = Illustration("g9_3");
  const MoveReport r = Move(b, Infantry(), "37EE7:beneath,EE7:above,EE7:beneath");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(StepCosts(r), (std::vector<double>{1, 1}));
}

// G9.6 EX: squad B (beneath A) enters EE8 for one MF across the Covered hexside plus EE8's COT;
// a tank above A must first go beneath; a truck beneath A cannot cross that hexside; none may
// leave EE7 Bypassing along DD7-EE8, but all may Bypass along FF7-EE8.
TEST(G9, Ex9_6_LeavingEE7) {
  const Board b = Illustration("g9_3");
  const MoveReport squad = Move(b, Infantry(), "37EE7:beneath,EE8");
  ASSERT_TRUE(squad.legal());
  EXPECT_EQ(squad.total().value(), 2);
  EXPECT_EQ(squad.steps[1].charges[0].rule, rules::kG9_6.id);
  EXPECT_EQ(CliMove("37EE7:beneath,EE8")["total"], 2);
  MoveOptions tank;
  tank.unit = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kAfv);
  EXPECT_EQ(Move(b, tank, "37EE7:above,EE8").refusal()->rule, rules::kG9_6.id);
  EXPECT_TRUE(Move(b, tank, "37EE7:above,EE7:beneath,EE8").legal());
  EXPECT_EQ(
      CliMove("37EE7:above,EE8", {"--unit", "fully-tracked", "--flag", "afv"})["refusal"]["rule"],
      rules::kG9_6.id);
  EXPECT_EQ(
      CheckActivity(b, test::At(b, "37EE7:above"), tank.unit, Activity::kChangeVca).error().rule,
      rules::kG9_52.id);
  MoveOptions truck;
  truck.unit = Unit(UnitKind::kTruck);
  EXPECT_EQ(Move(b, truck, "37EE7:beneath,EE8").refusal()->rule, rules::kG9_6.id);
  EXPECT_EQ(CliMove("37EE7:beneath,EE8", {"--unit", "truck"})["refusal"]["rule"], rules::kG9_6.id);
  for (const MoveOptions& o : {Infantry(), tank, truck}) {
    const MoveReport no = Move(b, o, "37EE7:beneath,DD7~EE8");
    EXPECT_EQ(no.steps[1].to.hex, test::Hex(b, "37EE7"));  // blocked: still in EE7
    const MoveReport yes = Move(b, o, "37EE7:beneath,FF7~EE8");
    ASSERT_TRUE(yes.legal());
    EXPECT_EQ(yes.steps[1].to.hex, test::Hex(b, "37FF7"));
  }
  EXPECT_EQ(CliMove("37EE7:beneath,FF7~EE8", {"--unit", "truck"})["steps"][1]["to"], "37FF7");
}

// G9.6 EX: a Terrain Blaze in DD8: squad A reaches CC8 with Double Time for six MF: DD7 (2, above,
// MC), beneath (1), across Covered DD7-CC8 (1), CC8 (2); it cannot Bypass along DD7-DD8.
TEST(G9, Ex9_6_SquadAToCC8) {
  test::TempBoard file(test::BoardPath("g9_3"),
                       R"({"counters": [{"type": "blaze", "hex": "37DD8"}]})");
  auto b = LoadBoard(file.path());
  ASSERT_TRUE(b.has_value());
  MoveOptions o = Infantry();
  o.double_time = true;
  o.allowance = Cost::Points(4);
  const MoveReport r = Move(*b, o, "37EE8,DD7,DD7:beneath,CC8");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(StepCosts(r), (std::vector<double>{2, 1, 3}));
  EXPECT_EQ(r.total().value(), 6);
  EXPECT_EQ(r.steps[1].to.place, Place::kAbove);
  EXPECT_TRUE(HasNote(r.steps[1], rules::kG9_41));
  EXPECT_EQ(r.steps[3].charges[0].rule, rules::kG9_6.id);
  EXPECT_EQ(Move(*b, o, "37EE8,DD8").refusal()->rule, rules::kAslB25.id);
  EXPECT_EQ(Move(*b, o, "37EE8,DD7~DD8").steps[1].to.hex, test::Hex(*b, "37EE8"));
  auto doc =
      CliMove("37EE8,DD7,DD7:beneath,CC8", {"--double-time", "--allowance", "4"}, file.path());
  EXPECT_TRUE(doc["legal"]);
  EXPECT_EQ(doc["total"], 6);
  EXPECT_EQ(CliStepCosts(doc), (std::vector<double>{2, 1, 3}));
}

// G9.55 EX: a Foxhole in EE7 lies beneath Panji counter A: from above, one MF to go beneath and
// another to enter it; leaving it, the unit is beneath the Panji counter.
TEST(G9, Ex9_55_FoxholeBeneathThePanji) {
  test::TempBoard file(test::BoardPath("g9_3"),
                       R"({"counters": [{"type": "foxhole", "hex": "37EE7"}]})");
  auto b = LoadBoard(file.path());
  ASSERT_TRUE(b.has_value());
  const MoveReport r = Move(*b, Infantry(), "37EE7:above,EE7:beneath,EE7:foxhole,EE7:beneath");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(StepCosts(r), (std::vector<double>{1, 1, 0}));
  EXPECT_EQ(r.steps[3].to.place, Place::kBeneath);
  EXPECT_EQ(Move(*b, Infantry(), "37EE7:above,EE7:foxhole").refusal()->rule, rules::kG9_55.id);
  EXPECT_EQ(Move(*b, Infantry(), "37EE8,EE7:foxhole").refusal()->rule, rules::kG9_55.id);
  EXPECT_EQ(
      CheckActivity(*b, test::At(*b, "37EE7:above"), Unit(UnitKind::kInfantry), Activity::kEntrench)
          .error()
          .rule,
      rules::kG9_55.id);
  auto doc = CliMove("37EE7:above,EE7:beneath,EE7:foxhole,EE7:beneath", {}, file.path());
  EXPECT_EQ(CliStepCosts(doc), (std::vector<double>{1, 1, 0}));
  EXPECT_EQ(doc["steps"][3]["to"], "37EE7:beneath");
}

// ---- G9.2, G9.21, G9.47, G9.48, G9.5x ----------------------------------------------------------

// G9.2: a Panji counter is neither obstacle nor Hindrance, has no TEM and leaves the hex's TEM; an
// AFV/wreck above one provides no TEM.
TEST(G9, Rule9_2_LosAndTem) {
  Board b = Illustration("g9_3");
  b.MutableAt(test::Hex(b, "37EE7"))->terrain = Terrain::kOpenGround;
  const LosResult los = CheckLos(b, End(b, "37EE6"), End(b, "37EE8"));
  EXPECT_TRUE(los.clear);
  EXPECT_EQ(los.hindrance, 0);
  const LosEnd above = End(b, "37EE7:above");
  LosResult near = CheckLos(b, End(b, "37EE6"), above);
  EXPECT_EQ(EvaluateAttack(b, End(b, "37EE6"), above, AttackType::kSmallArms, near).tem, 0);
  b.MutableAt(test::Hex(b, "37EE7"))->terrain = Terrain::kLightJungle;
  near = CheckLos(b, End(b, "37EE6"), above);
  EXPECT_EQ(EvaluateAttack(b, End(b, "37EE6"), above, AttackType::kSmallArms, near).tem, 1);
  test::TempBoard file(test::BoardPath("g9_3"),
                       R"({"counters": [{"type": "wreck", "hex": "37EE8", "above_panji": false},
                                               {"type": "afv", "hex": "37EE7", "above_panji": true}]})");
  auto w = LoadBoard(file.path());
  ASSERT_TRUE(w.has_value()) << w.error().to_string();
  const LosResult l = CheckLos(*w, End(*w, "37EE6"), End(*w, "37EE7:beneath"));
  const AttackEffects fx =
      EvaluateAttack(*w, End(*w, "37EE6"), End(*w, "37EE7:beneath"), AttackType::kSmallArms, l);
  bool g92 = false;
  for (const auto& f : fx.tem_items) g92 = g92 || f.rule == rules::kG9_2.id;
  EXPECT_TRUE(g92);
}

// G9.21: Infantry above a Panji counter: only Inherent FP/SW, LMG, LATW, FT; +1 DRM to each of its
// attacks (CC too); CC vs it -1; +1 Ambush drm; no Interdiction; G9.211: no DC at all.
TEST(G9, Rule9_21_AttacksFromAbove) {
  const Board b = Illustration("g9_3");
  const LosEnd above = End(b, "37EE7:above");
  const LosEnd there = End(b, "37EE8");
  const LosResult los = CheckLos(b, above, there);
  const AttackEffects sa = EvaluateAttack(b, above, there, AttackType::kSmallArms, los);
  EXPECT_TRUE(sa.refusals.empty());
  ASSERT_FALSE(sa.drm.empty());
  EXPECT_EQ(sa.drm[0].rule, rules::kG9_21.id);
  EXPECT_EQ(sa.drm[0].amount, 1);
  EXPECT_EQ(EvaluateAttack(b, above, there, AttackType::kThrownDc, los).refusals.size(), 1u);
  EXPECT_EQ(EvaluateAttack(b, above, there, AttackType::kDirectHe, los).refusals.size(), 1u);
  const LosResult back = CheckLos(b, there, above);
  const AttackEffects cc = EvaluateAttack(b, there, above, AttackType::kCloseCombat, back);
  ASSERT_FALSE(cc.drm.empty());
  EXPECT_EQ(cc.drm.back().amount, -1);
  EXPECT_EQ(CheckActivity(b, above.at, above.unit, Activity::kInterdict).error().rule,
            rules::kG9_21.id);
  EXPECT_EQ(CheckActivity(b, above.at, above.unit, Activity::kSetDc).error().rule,
            rules::kG9_211.id);
  auto doc =
      Cli({"los", "--board", test::BoardPath("g9_3"), "--from", "37EE7:above", "--to", "37EE8"});
  EXPECT_EQ(doc["drm"][0]["rule"], rules::kG9_21.id);
}

// G9.47: a ⅝" parachute in a panji Location: dr + 1 if broken + half (FRU) the Covered hexsides;
// < 6 beneath, else above (Panji MC at ML 7); a ½" parachute takes both drm; a glider landing
// across a Covered hexside gets +1 Crash drm.
TEST(G9, Rule9_47_AerialLandings) {
  const Board b = Illustration("g9_3");
  const PanjiCounter& c = *b.At(test::Hex(b, "37DD7"))->panji;
  EXPECT_EQ(PlaceParachute(3, c, false, false).drm, 2);
  EXPECT_FALSE(PlaceParachute(3, c, false, false).above);
  EXPECT_TRUE(PlaceParachute(4, c, false, false).above);
  EXPECT_EQ(PlaceParachute(3, c, true, false).drm, 3);
  EXPECT_TRUE(PlaceParachute(3, c, true, false).above);
  EXPECT_EQ(PlaceParachute(1, c, false, true).drm, 3);
  const GridPos dd7 = test::Hex(b, "37DD7");
  EXPECT_EQ(GliderCrashDrm(b, dd7, *Hexside::Between(dd7, test::Hex(b, "37DD8"))), 1);
  EXPECT_EQ(GliderCrashDrm(b, dd7, *Hexside::Between(dd7, test::Hex(b, "37DD6"))), 0);
}

// G9.48 EX: squad A Searching EE7 or DD7 risks Casualty Reduction (a Covered hexside between), as
// do squad B Searching EE8 and squad E Searching CC8/DD8/EE8; a unit above may not Search.
TEST(G9, Ex9_48_Searching) {
  const Board b = Illustration("g9_3");
  const std::pair<const char*, const char*> risky[] = {{"37EE8", "37EE7"}, {"37EE8", "37DD7"},
                                                       {"37EE7", "37EE8"}, {"37DD7", "37CC8"},
                                                       {"37DD7", "37DD8"}, {"37DD7", "37EE8"}};
  for (auto [searcher, searched] : risky) {
    EXPECT_TRUE(SearchRisksCasualties(b, test::Hex(b, searcher), test::Hex(b, searched)))
        << searcher << searched;
  }
  EXPECT_FALSE(SearchRisksCasualties(b, test::Hex(b, "37DD6"), test::Hex(b, "37DD7")));
  EXPECT_EQ(
      CheckActivity(b, test::At(b, "37EE7:above"), Unit(UnitKind::kInfantry), Activity::kSearch)
          .error()
          .rule,
      rules::kG9_48.id);
  auto risk = [](const nlohmann::json& doc) {
    return doc["steps"][1]["notes"][0]["text"].get<std::string>().find("Casualty Reduction") !=
           std::string::npos;
  };
  for (auto [searcher, searched] : risky) {
    const auto doc =
        CliMove(std::string(searcher) + (std::string(searcher) == "37EE8" ? "" : ":beneath") +
                ",+search:" + searched);
    EXPECT_TRUE(doc["legal"]) << searcher << searched;
    EXPECT_EQ(doc["steps"][1]["notes"][0]["rule"], rules::kG9_48.id);
    EXPECT_TRUE(risk(doc)) << searcher << searched;
  }
  EXPECT_FALSE(risk(CliMove("37DD6,+search:37DD7")));
  EXPECT_EQ(CliMove("37EE7:above,+search:37EE8")["refusal"]["rule"], rules::kG9_48.id);
}

// G9.48: a hidden Panji counter is revealed when its Location is Searched.
TEST(G9, Rule9_48_SearchReveals) {
  test::TempBoard file(test::BoardPath("g9_3"), "{}");
  auto doc = nlohmann::json::parse(opsim::test::ReadFile(file.path()));
  doc["counters"][0]["hidden"] = true;
  opsim::test::WriteFile(file.path(), doc.dump());
  const auto r = CliMove("37EE8,+search:37EE7", {}, file.path());
  bool revealed = false;
  for (const auto& n : r["steps"][1]["notes"]) {
    revealed = revealed || n["text"].get<std::string>().find("revealed") != std::string::npos;
  }
  EXPECT_TRUE(revealed);
}

// G9.52, G9.53, G9.56, G9.71: above a Panji counter: no Recover/Transfer/dismantle/repair, no VCA
// change or Scrounging of a vehicle, no concealment dr in enemy LOS, no Guarding across, no
// Clearance; an item dropped above stays above.
TEST(G9, Rule9_5x_ActivitiesAbove) {
  const Board b = Illustration("g9_3");
  const Position above = test::At(b, "37EE7:above");
  const Unit inf(UnitKind::kInfantry);
  for (Activity a :
       {Activity::kRecover, Activity::kTransfer, Activity::kDismantle, Activity::kRepair}) {
    EXPECT_EQ(CheckActivity(b, above, inf, a).error().rule, rules::kG9_52.id) << Name(a);
  }
  EXPECT_EQ(CheckActivity(b, above, Unit(UnitKind::kTruck), Activity::kScrounge).error().rule,
            rules::kG9_52.id);
  EXPECT_EQ(CheckActivity(b, above, inf, Activity::kConcealmentDr).error().rule, rules::kG9_53.id);
  EXPECT_EQ(CheckActivity(b, above, inf, Activity::kGuardPrisoner, test::At(b, "37EE7:beneath"))
                .error()
                .rule,
            rules::kG9_56.id);
  EXPECT_EQ(CheckActivity(b, test::At(b, "37EE7:beneath"), inf, Activity::kGuardPrisoner, above)
                .error()
                .rule,
            rules::kG9_56.id);
  EXPECT_EQ(CheckActivity(b, above, inf, Activity::kClearance).error().rule, rules::kG9_71.id);
  EXPECT_EQ(CheckActivity(b, above, inf, Activity::kAdvanceOff).error().rule, rules::kG9_5.id);
  EXPECT_TRUE(CheckActivity(b, test::At(b, "37EE7:beneath"), inf, Activity::kSearch).has_value());
  const DroppedItem d = DropItem(b, above, true, false, false);
  EXPECT_EQ(d.at.place, Place::kAbove);
  EXPECT_EQ(d.rule, rules::kG9_52.id);
}

// G9.51: Infantry become PRC in a panji Location only if it and its transport are both above or
// both beneath; G9.423: dismounting above, they take the Panji MC as entering Infantry.
TEST(G9, Rule9_51_9_423_Prc) {
  const Board b = Illustration("g9_3");
  MoveOptions o = Infantry();
  o.transport = Transport::kHorse;
  o.transport_at = Place::kAbove;
  EXPECT_EQ(Move(b, o, "37EE7:beneath,+mount").refusal()->rule, rules::kG9_51.id);
  EXPECT_TRUE(Move(b, o, "37EE7:above,+mount").legal());
  MoveOptions cav;
  cav.unit = Unit(UnitKind::kCavalry);
  const MoveReport r = Move(b, cav, "37EE7:above,+dismount");
  EXPECT_TRUE(HasNote(r.steps[1], rules::kG9_423));
  EXPECT_TRUE(HasNote(r.steps[1], rules::kG9_41));
}

// ---- G9.7 removal
// ------------------------------------------------------------------------------------

// G9.71: a successful Clearance turns the predesignated Covered hexside non-Covered.
TEST(G9, Rule9_71_Clearance) {
  const Board b = Illustration("g9_3");
  PanjiCounter c = *b.At(test::Hex(b, "37DD7"))->panji;
  const Dir s = DirOf(b, "37DD7", "37DD8");
  EXPECT_TRUE(ClearCoveredHexside(c, s).has_value());
  EXPECT_FALSE(c.Covers(s));
  EXPECT_EQ(c.covered_count(), 2);
  EXPECT_EQ(ClearCoveredHexside(c, s).error().rule, rules::kG9_71.id);
}

// G9.72: a KIA by HE/DC makes as many Covered hexsides non-Covered as its KIA #: the attacker's
// choice, at random for Indirect Fire, and a DC Placed across a Covered hexside takes that one
// first.
TEST(G9, Rule9_72_HeAndDc) {
  const Board b = Illustration("g9_3");
  const PanjiCounter c = *b.At(test::Hex(b, "37DD7"))->panji;
  const Dir s = DirOf(b, "37DD7", "37DD8");
  const Dir sw = DirOf(b, "37DD7", "37CC8");
  const Dir se = DirOf(b, "37DD7", "37EE8");
  Dice dice(5);
  PanjiCounter chosen = c;
  EXPECT_EQ(ApplyHeKia(chosen, 1, false, std::nullopt, {se}, dice), (std::vector<Dir>{se}));
  EXPECT_EQ(chosen.covered_count(), 2);
  PanjiCounter dc = c;
  EXPECT_EQ(ApplyHeKia(dc, 2, false, sw, {se}, dice), (std::vector<Dir>{sw, se}));
  PanjiCounter random = c;
  const auto changed = ApplyHeKia(random, 2, true, std::nullopt, {s}, dice);
  EXPECT_EQ(changed.size(), 2u);
  EXPECT_EQ(random.covered_count(), 1);
  PanjiCounter all = c;
  EXPECT_EQ(ApplyHeKia(all, 5, false, std::nullopt, {}, dice).size(), 3u);
  EXPECT_EQ(all.covered_count(), 0);
}

// G9.73: a fully-tracked AFV/dozer beneath the counter clears a Covered hexside for ¼ (FRU) of its
// printed MP, if not Stopped and using neither Reverse nor VBM.
TEST(G9, Rule9_73_AfvClearance) {
  const Unit tank = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kAfv);
  EXPECT_EQ(*AfvClearanceCost(tank, true, false, false, 15), 4);
  EXPECT_EQ(AfvClearanceCost(tank, false, false, false, 15).error().rule, rules::kG9_73.id);
  EXPECT_EQ(AfvClearanceCost(tank, true, true, false, 15).error().rule, rules::kG9_73.id);
  EXPECT_EQ(AfvClearanceCost(tank, true, false, true, 15).error().rule, rules::kG9_73.id);
  EXPECT_EQ(AfvClearanceCost(Unit(UnitKind::kTruck), true, false, false, 15).error().rule,
            rules::kG9_73.id);
}

// G9.74: Bombardment: a NMC at Morale Level 8; one random Covered hexside cleared per point it
// fails by.
TEST(G9, Rule9_74_Bombardment) {
  const Board b = Illustration("g9_3");
  int failures = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    PanjiCounter c = *b.At(test::Hex(b, "37DD7"))->panji;
    Dice dice(seed);
    Dice probe(seed);
    const int dr = probe.Roll(6) + probe.Roll(6);
    const PanjiBombardment r = BombardPanji(c, dice);
    EXPECT_EQ(r.dice[0] + r.dice[1], dr);
    EXPECT_EQ(r.failed_by, std::max(0, dr - 8));
    EXPECT_EQ(static_cast<int>(r.uncovered.size()), std::min(3, r.failed_by));
    EXPECT_EQ(c.covered_count(), 3 - static_cast<int>(r.uncovered.size()));
    failures += r.failed_by > 0;
  }
  EXPECT_GT(failures, 0);
}

}  // namespace
}  // namespace opsim::tactical
