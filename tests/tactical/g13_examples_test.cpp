// G13 Beaches: the examples set on the G13.23 illustration (scenarios/tactical/g13_23.json) and on
// the G13.62 example's board (g13_62.json, the same beach with a low seawall and the 7-6-8):
// G13.23 EX (Slight, Moderate, Steep), G13.3 EX, G13.422 EX, G13.622 EX and G13.91 EX. Each
// statement is checked through the library and through the CLI.
#include <gtest/gtest.h>

#include <set>

#include "opsim/core/rule_ids.h"
#include "opsim/tactical/activity.h"
#include "opsim/tactical/attack.h"
#include "opsim/tactical/beach.h"
#include "opsim/tactical/board_file.h"
#include "tactical_test_util.h"

namespace opsim::tactical {
namespace {

using test::Cli;
using test::End;
using test::Infantry;
using test::Move;

const std::vector<std::string> kJapanese = {"4-4-8", "4-4-7", "3-4-7", "D8 ordnance"};
const std::vector<std::string> kAmerican = {"6-6-8", "5-5-8", "4-5-8", "LC E",
                                            "LC F",  "LC G",  "LC H"};
const std::vector<std::string> kUsSquadsOnTheBeach = {"6-6-8", "5-5-8", "4-5-8"};
const std::vector<std::string> kLandingCraft = {"LC E", "LC F", "LC G", "LC H"};

// What a LOS query answers, from the library and, the same query, from the CLI.
struct View {
  bool los = false;
  int hindrance = 0;
  int seawall = 0;  // the G13.622 part of the Hindrance
  int tem = 0;
  bool hd = false;
  bool entrenched = false;
  bool wall_advantage = false;
};

struct Look {
  std::string board = "g13_23";
  Slope slope = Slope::kSlight;
  bool from_entrenched = false, to_entrenched = false, from_crest = false, to_crest = false;
  AttackType attack = AttackType::kSmallArms;
};

View Library(const Look& q, const std::string& from, const std::string& to) {
  const Board b = test::Beach(q.slope, q.board);
  LosEnd f = End(b, from), t = End(b, to);
  f.entrenched = f.entrenched || q.from_entrenched;
  t.entrenched = t.entrenched || q.to_entrenched;
  f.crest = q.from_crest;
  t.crest = q.to_crest;
  const LosResult los = CheckLos(b, f, t);
  const AttackEffects fx = EvaluateAttack(b, f, t, q.attack, los);
  View v{los.clear, los.hindrance, 0, fx.tem, fx.hd, fx.entrenched, fx.wall_advantage};
  for (const auto& h : los.hindrances) {
    if (h.rule == rules::kG13_622.id) v.seawall += h.amount;
  }
  return v;
}

View Command(const Look& q, const std::string& from, const std::string& to) {
  std::vector<std::string> args = {"los",      "--board",     test::BoardPath(q.board),
                                   "--slope",  Name(q.slope), "--from",
                                   from,       "--to",        to,
                                   "--attack", Name(q.attack)};
  if (q.from_entrenched) args.push_back("--from-entrenched");
  if (q.to_entrenched) args.push_back("--to-entrenched");
  if (q.from_crest) args.push_back("--from-crest");
  if (q.to_crest) args.push_back("--to-crest");
  const nlohmann::json doc = Cli(args);
  View v{doc["los"],        doc["hindrance"],     0, doc["tem"], doc["hd"],
         doc["entrenched"], doc["wall_advantage"]};
  for (const auto& h : doc["hindrances"]) {
    if (h["rule"] == rules::kG13_622.id) v.seawall += h["amount"].get<int>();
  }
  return v;
}

// Both ways of asking agree; the answer is returned.
View See(const Look& q, const std::string& from, const std::string& to) {
  const View lib = Library(q, from, to);
  const View cli = Command(q, from, to);
  EXPECT_EQ(lib.los, cli.los) << from << " -> " << to;
  EXPECT_EQ(lib.hindrance, cli.hindrance) << from << " -> " << to;
  EXPECT_EQ(lib.tem, cli.tem) << from << " -> " << to;
  EXPECT_EQ(lib.hd, cli.hd) << from << " -> " << to;
  EXPECT_EQ(lib.entrenched, cli.entrenched) << from << " -> " << to;
  return lib;
}

double CliMoveTotal(const std::string& board, const std::string& slope, const std::string& path,
                    std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"move",   "--board", test::BoardPath(board), "--slope", slope,
                                   "--path", path};
  args.insert(args.end(), extra.begin(), extra.end());
  const nlohmann::json doc = Cli(args);
  EXPECT_TRUE(doc["legal"]) << path;
  return doc["total"].get<double>();
}

// ---- G13.23 EX: Slight
// ---------------------------------------------------------------------------

// G13.23 EX (Slight, no PTO Terrain): every Japanese unit has a LOS to every U.S. unit and back,
// and the U.S. units all see each other.
TEST(G13, Ex13_23_SlightAllSeeAll) {
  const Look q{.slope = Slope::kSlight};
  for (const auto& j : kJapanese) {
    for (const auto& u : kAmerican) {
      EXPECT_TRUE(See(q, j, u).los) << j << " -> " << u;
      EXPECT_TRUE(Library(q, u, j).los) << u << " -> " << j;
    }
  }
  for (const auto& u : kAmerican) {
    for (const auto& v : kAmerican) {
      if (u != v) {
        EXPECT_TRUE(Library(q, u, v).los) << u << " -> " << v;
      }
    }
  }
}

// G13.23 EX (Slight): the 4-4-8 and 4-4-7 have a LOS to every Beach and OCEAN hex.
TEST(G13, Ex13_23_SlightSeesTheWholeBeach) {
  const Board b = test::Beach(Slope::kSlight, "g13_23");
  int hexes = 0;
  for (const Hex* h : b.Hexes()) {
    if (!IsBeach(b, h->cell) && !IsOcean(b, h->cell)) continue;
    ++hexes;
    for (const char* j : {"4-4-8", "4-4-7"}) {
      LosEnd to;
      to.at = {h->cell, Place::kHex};
      to.unit = Unit(UnitKind::kInfantry);
      EXPECT_TRUE(CheckLos(b, End(b, j), to).clear) << j << " -> " << b.Name(h->cell);
    }
  }
  EXPECT_GT(hexes, 100);
  EXPECT_TRUE(Cli({"los", "--board", test::BoardPath("g13_23"), "--slope", "slight", "--from",
                   "4-4-8", "--to", "1001"})["los"]);
}

// G13.23 EX (Slight): the 4-4-7's attacks on any U.S. squad or LC (and theirs on it) get no
// Hindrance and no terrain modifier; the 4-5-8 enters H9 for one MF.
TEST(G13, Ex13_23_SlightNoModifiers) {
  const Look q{.slope = Slope::kSlight};
  for (const auto& u : kAmerican) {
    const View out = See(q, "4-4-7", u);
    EXPECT_EQ(out.hindrance, 0) << u;
    EXPECT_EQ(out.tem, 0) << u;
    const View back = See(q, u, "4-4-7");
    EXPECT_EQ(back.hindrance, 0) << u;
    EXPECT_EQ(back.tem, 0) << u;
  }
  EXPECT_EQ(Move(test::Beach(Slope::kSlight, "g13_23"), Infantry(), "408,H9").total().value(), 1);
  EXPECT_EQ(CliMoveTotal("g13_23", "slight", "408,H9"), 1);
}

// ---- G13.23 EX: Moderate
// -------------------------------------------------------------------------

// G13.23 EX (Moderate): the same LOS exist.
TEST(G13, Ex13_23_ModerateSameLos) {
  const Look q{.slope = Slope::kModerate};
  for (const auto& j : kJapanese) {
    for (const auto& u : kAmerican) EXPECT_TRUE(See(q, j, u).los) << j << " -> " << u;
  }
}

// G13.23 EX (Moderate): the 4-4-8's or the 3-4-7's fire gives any U.S. squad the +1 deir TEM, as
// does the 4-4-7's fire on the 5-5-8 or the 4-5-8, but not on the 6-6-8.
TEST(G13, Ex13_23_ModerateDeirTem) {
  const Look q{.slope = Slope::kModerate};
  for (const char* j : {"4-4-8", "3-4-7"}) {
    for (const auto& u : kUsSquadsOnTheBeach) EXPECT_EQ(See(q, j, u).tem, 1) << j << " -> " << u;
  }
  EXPECT_EQ(See(q, "4-4-7", "5-5-8").tem, 1);
  EXPECT_EQ(See(q, "4-4-7", "4-5-8").tem, 1);
  EXPECT_EQ(See(q, "4-4-7", "6-6-8").tem, 0);
  auto doc = Cli({"los", "--board", test::BoardPath("g13_23"), "--slope", "moderate", "--from",
                  "4-4-8", "--to", "6-6-8"});
  bool deir = false;
  for (const auto& item : doc["tem_items"]) deir = deir || item["rule"] == rules::kG13_22.id;
  EXPECT_TRUE(deir);
}

// G13.23 EX (Moderate): the 6-6-8 firing at the 4-5-8's hex (the 4-5-8 in Melee) gives it deir TEM.
TEST(G13, Ex13_23_ModerateDeirTemWithinTheDeir) {
  EXPECT_EQ(See(Look{.slope = Slope::kModerate}, "6-6-8", "4-5-8").tem, 1);
}

// G13.23 EX (Moderate): hidden ordnance in D8 treats any LC it fires at as HD; in F9 only LC "E"
// and "H".
TEST(G13, Ex13_23_ModerateHullDown) {
  const Look q{.slope = Slope::kModerate, .attack = AttackType::kDirectHe};
  for (const auto& lc : kLandingCraft) {
    EXPECT_TRUE(See(q, "D8 ordnance", lc).hd) << lc;
    EXPECT_EQ(See(q, "F9 ordnance", lc).hd, lc == "LC E" || lc == "LC H") << lc;
  }
}

// G13.23 EX (Moderate): the 4-5-8 still enters H9 for one MF.
TEST(G13, Ex13_23_ModerateIntoH9) {
  EXPECT_EQ(Move(test::Beach(Slope::kModerate, "g13_23"), Infantry(), "408,H9").total().value(), 1);
  EXPECT_EQ(CliMoveTotal("g13_23", "moderate", "408,H9"), 1);
}

// ---- G13.23 EX: Steep
// -----------------------------------------------------------------------------

// G13.23 EX (Steep): the 4-4-8 sees only LC "E", "F" and "G"; the 4-4-7 every U.S. unit but the
// 4-5-8 and LC "H"; the 3-4-7 and any unit in D8 none.
TEST(G13, Ex13_23_SteepLos) {
  const Look q{.slope = Slope::kSteep};
  const std::set<std::string> from_448 = {"LC E", "LC F", "LC G"};
  const std::set<std::string> from_447 = {"6-6-8", "5-5-8", "LC E", "LC F", "LC G"};
  for (const auto& u : kAmerican) {
    EXPECT_EQ(See(q, "4-4-8", u).los, from_448.contains(u)) << "4-4-8 -> " << u;
    EXPECT_EQ(See(q, "4-4-7", u).los, from_447.contains(u)) << "4-4-7 -> " << u;
    EXPECT_FALSE(See(q, "3-4-7", u).los) << "3-4-7 -> " << u;
    EXPECT_FALSE(See(q, "D8 ordnance", u).los) << "D8 -> " << u;
  }
  auto doc = Cli({"los", "--board", test::BoardPath("g13_23"), "--slope", "steep", "--from",
                  "4-4-8", "--to", "LC H"});
  EXPECT_EQ(doc["blocked"]["rule"], rules::kG13_23.id);
}

// G13.23 EX (Steep): the 6-6-8, 5-5-8 and 4-5-8 may gain Crest status along the hexes' Beach-
// Hinterland hexsides, and then appear entrenched to the Japanese squads, but the 6-6-8 not to
// the 4-4-7 (B20.92).
TEST(G13, Ex13_23_SteepCrestStatus) {
  const Board b = test::Beach(Slope::kSteep, "g13_23");
  for (const auto& u : kUsSquadsOnTheBeach) {
    EXPECT_TRUE(MayGainCrestStatus(b, b.FindUnit(u)->at, b.FindUnit(u)->unit).has_value()) << u;
  }
  const Look crest{.slope = Slope::kSteep, .to_crest = true};
  int seen = 0;
  for (const char* j : {"4-4-8", "4-4-7", "3-4-7"}) {
    for (const auto& u : kUsSquadsOnTheBeach) {
      const View v = See(crest, j, u);
      if (!v.los) continue;
      ++seen;
      EXPECT_EQ(v.entrenched, !(std::string(j) == "4-4-7" && u == "6-6-8")) << j << " -> " << u;
    }
  }
  EXPECT_GE(seen, 4);
  EXPECT_TRUE(See(crest, "4-4-7", "6-6-8").los);
  EXPECT_FALSE(See(crest, "4-4-7", "6-6-8").entrenched);
  EXPECT_TRUE(See(crest, "4-4-7", "5-5-8").entrenched);
}

// G13.23 EX (Steep): the 6-6-8 and 4-5-8 see each other whether one, both or neither is in Crest
// status.
TEST(G13, Ex13_23_SteepCrestMutualLos) {
  for (int m = 0; m < 4; ++m) {
    const Look q{.slope = Slope::kSteep, .from_crest = (m & 1) != 0, .to_crest = (m & 2) != 0};
    EXPECT_TRUE(See(q, "6-6-8", "4-5-8").los) << m;
    EXPECT_TRUE(See(q, "4-5-8", "6-6-8").los) << m;
  }
}

// G13.23 EX (Steep): the 4-5-8 expends two MF to enter H9, crossing a Crest Line to a higher
// elevation.
TEST(G13, Ex13_23_SteepIntoH9) {
  const MoveReport r = Move(test::Beach(Slope::kSteep, "g13_23"), Infantry(), "408,H9");
  EXPECT_EQ(r.total().value(), 2);
  EXPECT_EQ(r.steps[1].charges.back().rule, rules::kG13_23.id);
  EXPECT_EQ(CliMoveTotal("g13_23", "steep", "408,H9"), 2);
}

// ---- G13.3 EX, G13.422 EX, G13.91 EX
// --------------------------------------------------------------

// G13.3 EX: Infantry expend two MF in Soft Sand and one in Hard Sand; a fully-tracked vehicle
// three and two MP.
TEST(G13, Ex13_3_SandCosts) {
  const Board b = test::Beach(Slope::kSlight, "g13_23");
  ASSERT_FALSE(IsHardSand(b, test::Hex(b, "433")));
  ASSERT_TRUE(IsHardSand(b, test::Hex(b, "459")));
  MoveOptions tank;
  tank.unit = Unit(UnitKind::kFullyTracked).Set(UnitFlag::kAfv);
  EXPECT_EQ(Move(b, Infantry(), "420,433").total().value(), 2);
  EXPECT_EQ(Move(b, Infantry(), "446,459").total().value(), 1);
  EXPECT_EQ(Move(b, tank, "420,433").total().value(), 3);
  EXPECT_EQ(Move(b, tank, "446,459").total().value(), 2);
  EXPECT_EQ(CliMoveTotal("g13_23", "slight", "420,433"), 2);
  EXPECT_EQ(CliMoveTotal("g13_23", "slight", "446,459"), 1);
  EXPECT_EQ(
      CliMoveTotal("g13_23", "slight", "420,433", {"--unit", "fully-tracked", "--flag", "afv"}), 3);
  EXPECT_EQ(
      CliMoveTotal("g13_23", "slight", "446,459", {"--unit", "fully-tracked", "--flag", "afv"}), 2);
}

// G13.3 EX: a -1 DRM applies to a Bog DR caused by Hard Sand; ordnance/OBA vs an unarmored target
// in Hard Sand is not halved; Foxhole TEM is not halved in Hard Sand (it is in Soft Sand).
TEST(G13, Ex13_3_HardSandEffects) {
  const Board b = test::Beach(Slope::kSlight, "g13_23");
  EXPECT_EQ(BogDrm(b, test::At(b, "459")), -1);
  EXPECT_EQ(BogDrm(b, test::At(b, "433")), 0);
  const auto bog = Cli({"move", "--board", test::BoardPath("g13_23"), "--slope", "slight", "--unit",
                        "fully-tracked", "--path", "446,459"});
  ASSERT_FALSE(bog["steps"][1]["notes"].empty());
  EXPECT_EQ(bog["steps"][1]["notes"][0]["rule"], rules::kG13_32.id);
  EXPECT_NE(bog["steps"][1]["notes"][0]["text"].get<std::string>().find("-1 DRM"),
            std::string::npos);
  for (auto [hex, halved] : {std::pair{"459", false}, std::pair{"433", true}}) {
    LosEnd t = End(b, hex);
    t.entrenched = true;
    const LosResult los = CheckLos(b, End(b, "4-4-8"), t);
    const AttackEffects fx = EvaluateAttack(b, End(b, "4-4-8"), t, AttackType::kDirectHe, los);
    bool f74 = false;
    for (const auto& f : fx.fp) f74 = f74 || f.rule == rules::kAslF7_4.id;
    EXPECT_EQ(f74, halved) << hex;
    EXPECT_EQ(fx.tem, halved ? 1 : 2) << hex;
    auto doc = Cli({"los", "--board", test::BoardPath("g13_23"), "--slope", "slight", "--from",
                    "4-4-8", "--to", hex, "--to-entrenched", "--attack", "direct-he"});
    EXPECT_EQ(doc["tem"], halved ? 1 : 2) << hex;
    ASSERT_FALSE(doc["fp"].empty());
    EXPECT_EQ(doc["fp"][0]["rule"], halved ? rules::kAslF7_4.id : rules::kG13_3.id) << hex;
  }
}

// G13.422 EX: a Wading tank entering 1079 from 1080 expends three MP if Waterproofed (2 shallow
// stream + 1), four if not; a truck seven or eight.
TEST(G13, Ex13_422_WadingCosts) {
  const Board b = test::Beach(Slope::kSlight, "g13_23");
  struct Case {
    UnitKind kind;
    bool proofed;
    double mp;
  };
  for (const Case& c :
       {Case{UnitKind::kFullyTracked, true, 3}, Case{UnitKind::kFullyTracked, false, 4},
        Case{UnitKind::kTruck, true, 7}, Case{UnitKind::kTruck, false, 8}}) {
    MoveOptions o;
    o.unit = Unit(c.kind).Set(UnitFlag::kWaterproofed, c.proofed);
    const MoveReport r = Move(b, o, "1080,1079");
    ASSERT_TRUE(r.legal());
    EXPECT_EQ(r.total().value(), c.mp) << Name(c.kind) << c.proofed;
    std::vector<std::string> extra = {"--unit", Name(c.kind)};
    if (c.proofed) extra.insert(extra.end(), {"--flag", "waterproofed"});
    EXPECT_EQ(CliMoveTotal("g13_23", "slight", "1080,1079", extra), c.mp);
  }
}

// G13.91 EX: with hexrow 1001-1013 of OC1 the entry/exit area, a reef lies in hexrow 1014-1026.
TEST(G13, Ex13_91_ReefHexrow) {
  const Board b = test::Illustration("g13_23");
  std::set<std::string> reef;
  for (GridPos c : ReefBeside(b, b.entry_area())) reef.insert(b.Name(c));
  std::set<std::string> want;
  for (int n = 1014; n <= 1026; ++n) want.insert(std::to_string(n));
  EXPECT_EQ(reef, want);
  for (std::uint64_t seed = 1; seed < 60; ++seed) {
    auto doc =
        Cli({"beach-dyo", "--board", test::BoardPath("g13_23"), "--seed", std::to_string(seed),
             "--tide", "high", "--allied-vs-japanese", "--year", "1944"});
    if (!doc["reef"]) continue;
    std::set<std::string> got;
    for (const auto& h : doc["reef_hexes"]) got.insert(h.get<std::string>());
    EXPECT_EQ(got, want);
    return;
  }
  ADD_FAILURE() << "no seed below 60 rolled a reef";
}

// ---- G13.622 EX
// -----------------------------------------------------------------------------------

// G13.622 EX: with a low seawall along every Beach-Hinterland hexside, Slight or Moderate, all the
// Japanese units still see all the U.S. units.
TEST(G13, Ex13_622_AllStillSeeAll) {
  for (Slope s : {Slope::kSlight, Slope::kModerate}) {
    const Look q{.board = "g13_62", .slope = s};
    for (const auto& j : kJapanese) {
      for (const auto& u : kAmerican) EXPECT_TRUE(See(q, j, u).los) << j << " -> " << u;
      EXPECT_TRUE(See(q, j, "7-6-8").los) << j;
    }
  }
}

// G13.622 EX: the 4-4-8's LOS to LC "H", the 7-6-8, 5-5-8 and 4-5-8 gets a +1 low-seawall
// Hindrance; no Japanese Small Arms vs the 6-6-8 does.
TEST(G13, Ex13_622_SeawallHindrance) {
  for (Slope s : {Slope::kSlight, Slope::kModerate}) {
    const Look q{.board = "g13_62", .slope = s};
    for (const char* u : {"LC H", "7-6-8", "5-5-8", "4-5-8"}) {
      const View v = See(q, "4-4-8", u);
      EXPECT_EQ(v.seawall, 1) << u;
      EXPECT_EQ(Command(q, "4-4-8", u).seawall, 1) << u;
    }
    for (const char* u : {"6-6-8", "LC E", "LC F", "LC G"})
      EXPECT_EQ(See(q, "4-4-8", u).seawall, 0) << u;
    for (const char* j : {"4-4-8", "4-4-7", "3-4-7"}) EXPECT_EQ(See(q, j, "6-6-8").seawall, 0) << j;
  }
}

// G13.622 EX: had the 6-6-8 moved next to the non-entrenched 4-4-7, the latter could claim Wall
// Advantage but not wall TEM vs a Direct Fire attack (G13.623).
TEST(G13, Ex13_622_WallAdvantage) {
  const Board b = test::Beach(Slope::kSlight, "g13_62");
  const GridPos h447 = b.FindUnit("4-4-7")->at.hex;
  std::string next;
  for (Dir d : map::kAllDirs) {
    const GridPos n = map::Neighbor(h447, d);
    if (b.At(n) && IsSeawallHexside(b, Hexside::Of(h447, d)) && b.Name(n) != "437")
      next = b.Name(n);
  }
  ASSERT_FALSE(next.empty());
  const Look q{.board = "g13_62", .slope = Slope::kSlight};
  const View v = See(q, next, "4-4-7");
  EXPECT_TRUE(v.wall_advantage);
  EXPECT_TRUE(Command(q, next, "4-4-7").wall_advantage);
  EXPECT_EQ(v.tem, 0);
  Look entrenched = q;
  entrenched.to_entrenched = true;
  EXPECT_FALSE(See(entrenched, next, "4-4-7").wall_advantage);
  Look indirect = q;
  indirect.attack = AttackType::kIndirectHe;
  EXPECT_EQ(See(indirect, next, "4-4-7").tem, 1);  // +1 wall TEM vs Indirect Fire (B9.34)
}

// G13.622 EX: the three U.S. squads in Beach hexes entrenched: whether or not the Japanese squads
// are entrenched, the only LOS between opposing squads are 4-4-7/6-6-8 and 4-4-7/5-5-8, unhindered.
TEST(G13, Ex13_622_EntrenchedOnTheBeach) {
  for (Slope s : {Slope::kSlight, Slope::kModerate}) {
    for (bool japanese_dug_in : {false, true}) {
      const Look q{
          .board = "g13_62", .slope = s, .from_entrenched = japanese_dug_in, .to_entrenched = true};
      const Look back{
          .board = "g13_62", .slope = s, .from_entrenched = true, .to_entrenched = japanese_dug_in};
      for (const char* j : {"4-4-8", "4-4-7", "3-4-7"}) {
        for (const auto& u : kUsSquadsOnTheBeach) {
          const bool want = std::string(j) == "4-4-7" && (u == "6-6-8" || u == "5-5-8");
          const View v = See(q, j, u);
          EXPECT_EQ(v.los, want) << j << " -> " << u;
          EXPECT_EQ(See(back, u, j).los, want) << u << " -> " << j;
          if (want) {
            EXPECT_EQ(v.hindrance, 0) << j << " -> " << u;
          }
        }
      }
    }
  }
  auto doc = Cli({"los", "--board", test::BoardPath("g13_62"), "--slope", "slight", "--from",
                  "4-4-8", "--to", "5-5-8", "--to-entrenched"});
  EXPECT_EQ(doc["blocked"]["rule"], rules::kG13_622.id);
}

// G13.622 EX: an unhindered LOS runs from E10 to G10, and from 433 (or 420) to 446, even if
// the units there are entrenched.
TEST(G13, Ex13_622_UnhinderedAlongTheSeawall) {
  for (Slope s : {Slope::kSlight, Slope::kModerate}) {
    const Look q{.board = "g13_62", .slope = s, .from_entrenched = true, .to_entrenched = true};
    for (auto [from, to] :
         {std::pair{"E10", "G10"}, std::pair{"433", "446"}, std::pair{"420", "446"}}) {
      const View v = See(q, from, to);
      EXPECT_TRUE(v.los) << from;
      EXPECT_EQ(v.hindrance, 0) << from;
    }
  }
  const Board b = test::Beach(Slope::kSlight, "g13_62");
  const LosResult along = CheckLos(b, End(b, "E10"), End(b, "G10"));
  ASSERT_EQ(along.trace.along.size(), 1u);
  EXPECT_TRUE(IsSeawallHexside(b, along.trace.along[0]));
}

}  // namespace
}  // namespace opsim::tactical
