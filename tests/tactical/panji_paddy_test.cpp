// Where the G8 and G9 rules meet, and the G9 statements about what happens while moving that the
// examples do not show: G8.2122 (mines in a paddy hex), G9.121 (trip flares), G9.54 (road bonus)
// and G9.731 (a breached Covered paddy hexside). Through the library and through
// `opsim tactical move`; G9.5 (no Panji MC going above), G9.43 (stacks) and G9.7 (removal).
#include <gtest/gtest.h>

#include "opsim/core/dice.h"
#include "opsim/core/rule_ids.h"
#include "opsim/tactical/board_file.h"
#include "opsim/tactical/paddy.h"
#include "opsim/tactical/panji.h"
#include "tactical_test_util.h"

namespace opsim::tactical {
namespace {

using test::Cli;
using test::HasNote;
using test::Infantry;
using test::LoadFile;
using test::Move;

// A board file with its paddies in `paddy`.
Board LoadPaddies(const std::string& path, PaddyState paddy) {
  Board b = test::LoadFile(path);
  b.mutable_settings().paddy = paddy;
  return b;
}

// The text of the first note citing `rule`, or "".
std::string NoteText(const StepReport& s, const std::string& rule) {
  for (const Note& n : s.notes) {
    if (n.rule == rule) return n.text;
  }
  return "";
}

std::string CliNoteText(const nlohmann::json& step, const std::string& rule) {
  for (const auto& n : step["notes"]) {
    if (n["rule"] == rule) return n["text"].get<std::string>();
  }
  return "";
}

nlohmann::json CliBoardMove(const std::string& board, const std::string& path,
                            std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"move", "--board", board, "--path", path};
  args.insert(args.end(), extra.begin(), extra.end());
  return Cli(args);
}

// ---- G8.2122 ------------------------------------------------------------------------------------

// G8.2122 (with G8.7: mines occupy both the interior and the banks): the mines in a paddy hex
// attack a unit entering it in the normal manner, whether it goes IN the paddy or onto its Bank
// counter; in a paddy hex without mines nothing is said.
TEST(G8, Rule8_2122_MinesAttackOnTheBankToo) {
  test::TempBoard file(test::BoardPath("g8_2108"),
                       R"({"counters": [{"type": "mines", "hex": "oM4"}]})");
  const Board b = LoadPaddies(file.path(), PaddyState::kDrained);
  for (const char* to : {"oM4", "oM4:bank"}) {
    const MoveReport r = Move(b, Infantry(), std::string("oM5,") + to);
    ASSERT_TRUE(r.legal()) << to;
    EXPECT_TRUE(HasNote(r.steps[1], rules::kG8_2122)) << to;
    const auto doc = CliBoardMove(file.path(), std::string("oM5,") + to, {"--paddy", "drained"});
    EXPECT_NE(CliNoteText(doc["steps"][1], rules::kG8_2122).find("attack it in the normal manner"),
              std::string::npos)
        << to;
  }
  EXPECT_NE(
      NoteText(Move(b, Infantry(), "oM5,oM4:bank").steps[1], rules::kG8_2122).find("Bank counter"),
      std::string::npos);
  EXPECT_FALSE(HasNote(Move(b, Infantry(), "oM5,oL4").steps[1], rules::kG8_2122));
  EXPECT_FALSE(
      HasNote(Move(test::Paddies(PaddyState::kDrained), Infantry(), "oM5,oM4:bank").steps[1],
              rules::kG8_2122));
}

// ---- G9.121 -------------------------------------------------------------------------------------

// The G9.3 board with a trip flare in EE7, its light jungle cleared (`open`) or not.
std::string TripFlareBoard(bool open) {
  return std::string(R"({"counters": [{"type": "trip-flare", "hex": "37EE7"}])") +
         (open ? R"(, "hexes": {"37EE7": {"terrain": "open"}}})" : "}");
}

// G9.121: in a panji Location without jungle, a trip flare is set off only by entry (or a Search)
// across a Covered hexside, or by MF expended while entering or remaining above the Panji counter;
// entering across a non-Covered hexside cannot set it off. In jungle the trip flare is normal.
TEST(G9, Rule9_121_TripFlares) {
  test::TempBoard file(test::BoardPath("g9_3"), TripFlareBoard(true));
  const Board b = LoadFile(file.path());
  auto sets_off = [](const std::string& text) {
    return text.find("may set off") != std::string::npos;
  };
  struct Case {
    const char* path;
    std::size_t step;
    bool qualifies;
  };
  const Case cases[] = {
      {"37EE8,EE7", 1, true},                // across Covered EE7-EE8: above
      {"37EE6,EE7", 1, false},               // across a non-Covered hexside: beneath
      {"37EE7:beneath,EE7:above", 1, true},  // MF expended going above
      {"37EE8,EE7,EE7:beneath", 2, true},    // MF expended while above
      {"37EE8,+search:37EE7", 1, true},      // Search across Covered EE7-EE8
      {"37EE6,+search:37EE7", 1, false},     // Search across a non-Covered hexside
  };
  for (const Case& c : cases) {
    const MoveReport r = Move(b, Infantry(), c.path);
    ASSERT_TRUE(r.legal()) << c.path;
    EXPECT_EQ(sets_off(NoteText(r.steps[c.step], rules::kG9_121)), c.qualifies) << c.path;
    const auto doc = CliBoardMove(file.path(), c.path);
    const std::string text = CliNoteText(doc["steps"][c.step], rules::kG9_121);
    EXPECT_FALSE(text.empty()) << c.path;
    EXPECT_EQ(sets_off(text), c.qualifies) << c.path;
  }
  test::TempBoard jungle(test::BoardPath("g9_3"), TripFlareBoard(false));
  const MoveReport r = Move(LoadFile(jungle.path()), Infantry(), "37EE6,EE7");
  EXPECT_FALSE(HasNote(r.steps[1], rules::kG9_121));
  EXPECT_TRUE(HasNote(r.steps[1], "G.8"));
}

// ---- G9.54 --------------------------------------------------------------------------------------

// G9.54: Infantry cannot claim road bonus in a MPh in which they cross any Covered hexside, whether
// entering above the Panji counter (the G9.6 EX's squad A into DD7) or leaving beneath it across
// one (squad E out of DD7 into CC8); crossing only non-Covered hexsides costs no road bonus.
TEST(G9, Rule9_54_NoRoadBonusAcrossCoveredHexsides) {
  const Board b = test::Illustration("g9_3");
  const MoveReport a = Move(b, Infantry(), "37EE8,DD7,DD7:beneath,CC8");
  ASSERT_TRUE(a.legal());
  EXPECT_TRUE(HasNote(a.steps[1], rules::kG9_54));
  EXPECT_TRUE(HasNote(a.steps[3], rules::kG9_54));
  const MoveReport e = Move(b, Infantry(), "37DD7:beneath,CC8");
  EXPECT_TRUE(HasNote(e.steps[1], rules::kG9_54));
  const MoveReport d = Move(b, Infantry(), "37DD6,DD7,DD6");
  for (const StepReport& s : d.steps) EXPECT_FALSE(HasNote(s, rules::kG9_54)) << s.token;
  MoveOptions truck;
  truck.unit = Unit(UnitKind::kTruck);
  EXPECT_FALSE(HasNote(Move(b, truck, "37EE8,EE7").steps[1], rules::kG9_54));  // not Infantry
  const auto doc = CliBoardMove(test::BoardPath("g9_3"), "37DD7:beneath,CC8");
  EXPECT_NE(CliNoteText(doc["steps"][1], rules::kG9_54).find("road bonus"), std::string::npos);
  EXPECT_TRUE(
      CliNoteText(CliBoardMove(test::BoardPath("g9_3"), "37DD6,DD7")["steps"][1], rules::kG9_54)
          .empty());
}

// ---- G9.731 -------------------------------------------------------------------------------------

// A Panji counter in paddy hex oL2 of the G8.2108 board whose one Covered hexside is the bank
// hexside oL2-oL3; `breached` breaches it.
std::string PanjiInPaddy(bool breached) {
  return std::string(R"({"settings": {"pto": true},
    "counters": [{"type": "panji", "hip": "Panji A: oL2-oL3"}])") +
         (breached ? R"(, "hexsides": [{"hexes": "oL2-oL3", "breached": true}]})" : "}");
}

// G9.731: a Covered paddy hexside breached by a dozer (G8.8) becomes a non-Covered hexside: a
// squad entering oL2 across it is placed beneath the Panji counter, not above it.
TEST(G9, Rule9_731_BreachedCoveredHexside) {
  test::TempBoard covered(test::BoardPath("g8_2108"), PanjiInPaddy(false));
  test::TempBoard breached(test::BoardPath("g8_2108"), PanjiInPaddy(true));
  const Board c = LoadPaddies(covered.path(), PaddyState::kDrained);
  const Board x = LoadPaddies(breached.path(), PaddyState::kDrained);
  const GridPos ol2 = test::Hex(c, "oL2");
  const Hexside side = *Hexside::Between(ol2, test::Hex(c, "oL3"));
  EXPECT_TRUE(IsCovered(c, ol2, side));
  EXPECT_FALSE(IsCovered(x, ol2, side));
  EXPECT_EQ(Move(c, Infantry(), "oL3,oL2").steps[1].to.place, Place::kAbove);
  const MoveReport r = Move(x, Infantry(), "oL3,oL2");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.steps[1].to.place, Place::kBeneath);
  EXPECT_TRUE(HasNote(r.steps[1], rules::kG9_45));
  EXPECT_EQ(CliBoardMove(covered.path(), "oL3,oL2", {"--paddy", "drained"})["steps"][1]["to"],
            "oL2:above");
  EXPECT_EQ(CliBoardMove(breached.path(), "oL3,oL2", {"--paddy", "drained"})["steps"][1]["to"],
            "oL2:beneath");
}

// G9.731 with G8.8 and G9.6: a dozer beneath the Panji counter that breaches its Covered bank
// hexside then leaves across it without the G9.6 Covered-hexside MP; without the breach it pays
// that MP.
TEST(G9, Rule9_731_DozerBreachesThenLeaves) {
  test::TempBoard file(test::BoardPath("g8_2108"), PanjiInPaddy(false));
  const Board b = LoadPaddies(file.path(), PaddyState::kDrained);
  MoveOptions dozer;
  dozer.unit = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kDozer);
  dozer.printed_mp = 12;
  auto rules = [](const StepReport& s) {
    std::vector<std::string> out;
    for (const Charge& c : s.charges) out.push_back(c.rule);
    return out;
  };
  const MoveReport plain = Move(b, dozer, "oL2:beneath,oL3");
  ASSERT_TRUE(plain.legal());
  const auto plain_rules = rules(plain.steps[1]);
  EXPECT_NE(std::find(plain_rules.begin(), plain_rules.end(), rules::kG9_6.id), plain_rules.end());
  const MoveReport r = Move(b, dozer, "oL2:beneath,+breach:oL3,oL3");
  ASSERT_TRUE(r.legal());
  EXPECT_TRUE(HasNote(r.steps[1], rules::kG9_731));
  const auto after = rules(r.steps[2]);
  EXPECT_EQ(std::find(after.begin(), after.end(), rules::kG9_6.id), after.end());
  EXPECT_LT(r.steps[2].total(), plain.steps[1].total());
  const auto doc = CliBoardMove(
      file.path(), "oL2:beneath,+breach:oL3,oL3",
      {"--paddy", "drained", "--unit", "fully-tracked", "--flag", "dozer", "--printed-mp", "12"});
  EXPECT_TRUE(doc["legal"]);
  EXPECT_NE(CliNoteText(doc["steps"][1], rules::kG9_731).find("non-Covered"), std::string::npos);
  EXPECT_EQ(doc["steps"][2]["cost"], r.steps[2].total().value());
}

// ---- G9.5, G9.43, G9.7
// ---------------------------------------------------------------------------

// G9.5: going from beneath to above a Panji counter costs one MF and brings no Panji MC or other
// panji-caused penalty, even with dice to roll one.
TEST(G9, Rule9_5_NoPanjiMcGoingAbove) {
  const Board b = test::Illustration("g9_3");
  MoveOptions o = Infantry();
  o.seed = 4;
  const MoveReport r = Move(b, o, "37EE7:beneath,EE7:above");
  ASSERT_TRUE(r.legal());
  EXPECT_EQ(r.steps[1].to.place, Place::kAbove);
  EXPECT_TRUE(HasNote(r.steps[1], rules::kG9_5));
  EXPECT_FALSE(HasNote(r.steps[1], rules::kG9_41));
  EXPECT_FALSE(HasNote(r.steps[1], rules::kG9_31));
  EXPECT_TRUE(HasNote(Move(b, o, "37EE8,EE7").steps[1], rules::kG9_31));  // entering across Covered
  const auto doc =
      CliBoardMove(test::BoardPath("g9_3"), "37EE7:beneath,EE7:above", {"--seed", "4"});
  EXPECT_TRUE(CliNoteText(doc["steps"][1], rules::kG9_31).empty());
  EXPECT_FALSE(CliNoteText(doc["steps"][1], rules::kG9_5).empty());
}

// G9.43: a stack entering above a Panji counter across a road hexside: one unit, picked at random
// by the ATTACKER, takes the Panji MC and the others a PTC; across any other hexside, or if the
// stack is berserk or routing, each unit takes its own (G9.41).
TEST(G9, Rule9_43_Stacks) {
  test::TempBoard road(test::BoardPath("g9_3"),
                       R"({"hexsides": [{"hexes": "37EE7-37EE8", "road": true}]})");
  const Board b = LoadFile(road.path());
  MoveOptions o = Infantry();
  o.stack = 3;
  o.seed = 21;
  Dice probe(21);
  const int picked = probe.Roll(3);
  const StepReport s = Move(b, o, "37EE8,EE7").steps[1];
  const std::string text = NoteText(s, rules::kG9_43);
  EXPECT_NE(text.find("unit " + std::to_string(picked) + " of the stack"), std::string::npos)
      << text;
  EXPECT_NE(text.find("other 2 take a normal PTC"), std::string::npos) << text;
  const auto doc = CliBoardMove(road.path(), "37EE8,EE7", {"--stack", "3", "--seed", "21"});
  EXPECT_EQ(CliNoteText(doc["steps"][1], rules::kG9_43), text);
  // Across a hexside with no road: G9.41 for each unit.
  const StepReport plain = Move(test::Illustration("g9_3"), o, "37EE8,EE7").steps[1];
  EXPECT_FALSE(HasNote(plain, rules::kG9_43));
  EXPECT_NE(NoteText(plain, rules::kG9_41).find("each of its 3 units"), std::string::npos);
  MoveOptions berserk = o;
  berserk.unit.Set(UnitFlag::kBerserk);
  EXPECT_NE(
      NoteText(Move(b, berserk, "37EE8,EE7").steps[1], rules::kG9_43).find("G9.41, not G9.43"),
      std::string::npos);
  MoveOptions single = Infantry();
  single.seed = 21;
  EXPECT_FALSE(HasNote(Move(b, single, "37EE8,EE7").steps[1], rules::kG9_43));
  EXPECT_EQ(Cli({"move", "--board", road.path(), "--stack", "0", "--path", "37EE8,EE7"},
                2)["error"]["rule"],
            rules::kG9_43.id);
}

// G9.7: clearing Panji A's only Covered hexside (a KIA, G9.72) eliminates it, and the units above
// and beneath it are simply in the hex, unharmed; Panji C keeps two hexsides after one is cleared,
// until shellholes are created in DD7 (G9.72). Entering EE7 afterwards meets no panjis.
TEST(G9, Rule9_7_RemovalLeavesUnitsUnharmed) {
  test::TempBoard file(test::BoardPath("g9_3"),
                       R"({"units": [{"name": "X", "kind": "infantry", "at": "37EE7:above"}]})");
  Board b = LoadFile(file.path());
  const GridPos ee7 = test::Hex(b, "37EE7");
  const GridPos dd7 = test::Hex(b, "37DD7");
  Dice dice(1);
  ASSERT_EQ(ApplyHeKia(*b.MutableAt(ee7)->panji, 1, false, std::nullopt, {}, dice).size(), 1u);
  const auto placed = RemovePanjiIfEliminated(b, ee7, false);
  EXPECT_EQ(placed, (std::vector<std::string>{"B", "X"}));
  EXPECT_FALSE(b.At(ee7)->panji.has_value());
  EXPECT_EQ(b.FindUnit("X")->at, (Position{ee7, Place::kHex}));
  const MoveReport in = Move(b, Infantry(), "37EE8,EE7");
  ASSERT_TRUE(in.legal());
  EXPECT_EQ(in.steps[1].to.place, Place::kHex);
  EXPECT_FALSE(HasNote(in.steps[1], rules::kG9_41));
  ASSERT_EQ(ApplyHeKia(*b.MutableAt(dd7)->panji, 1, false, std::nullopt, {}, dice).size(), 1u);
  EXPECT_TRUE(RemovePanjiIfEliminated(b, dd7, false).empty());
  EXPECT_TRUE(b.At(dd7)->panji.has_value());
  EXPECT_EQ(RemovePanjiIfEliminated(b, dd7, true), (std::vector<std::string>{"E"}));
  EXPECT_FALSE(b.At(dd7)->panji.has_value());
  EXPECT_TRUE(b.At(dd7)->Has(CounterType::kShellholes));
}

}  // namespace
}  // namespace opsim::tactical
