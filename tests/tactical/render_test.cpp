// Boards you can see (issue 23): `--board` takes a bundled board's name, `opsim tactical boards`
// lists them, and `opsim tactical render` draws each one, well-formed and legible, with a LOS
// thread or a path that shows the same answer as `tactical los` and `tactical move`. A picture of
// each bundled board goes to build/test-output/tactical/.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "opsim/tactical/board_file.h"
#include "svg_check.h"
#include "tactical_test_util.h"

namespace opsim::tactical {
namespace {

using opsim::test::Count;
using opsim::test::Element;
using opsim::test::RunCli;
using opsim::test::TextsOfSixPoints;
using opsim::test::WellFormed;
using test::Cli;

const std::vector<std::string> kBundled = {"g13_23", "g13_62", "g8_2108", "g9_3", "samurai"};

// The settings each bundled board needs before it can be opened (docs/tactical.md).
std::vector<std::string> Needs(const std::string& board) {
  if (board == "g13_23") return {"--slope", "steep"};
  if (board == "g13_62") return {"--slope", "moderate"};  // no seawall on a Steep beach (G13.6)
  if (board == "g8_2108") return {"--paddy", "in-season"};
  return {};
}

// `opsim tactical render --board NAME extra --out DIR/NAME.svg`: the drawing.
std::string Render(const opsim::test::TempDir& dir, const std::string& board,
                   std::vector<std::string> extra = {}, nlohmann::json* doc = nullptr) {
  std::vector<std::string> args = {"--json", "tactical", "render", "--board", board};
  for (const std::string& s : Needs(board)) args.push_back(s);
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), {"--out", dir.Path(board + ".svg")});
  const auto r = RunCli(args);
  EXPECT_EQ(r.code, 0) << r.err << r.out;
  if (doc) *doc = r.json();
  return opsim::test::ReadFile(dir.Path(board + ".svg"));
}

// Saves a picture for a person to look at (build/test-output/tactical/NAME.svg).
void Keep(const std::string& name, const std::string& svg) {
  std::filesystem::create_directories(OPSIM_TEST_OUTPUT);
  opsim::test::WriteFile(std::string(OPSIM_TEST_OUTPUT) + "/" + name + ".svg", svg);
}

TEST(TacticalBoards, ListsEveryBundledBoardWithItsTitleAndSize) {
  const nlohmann::json doc = Cli({"boards"});
  ASSERT_EQ(doc["boards"].size(), kBundled.size()) << doc.dump(1);
  for (std::size_t i = 0; i < kBundled.size(); ++i) {
    const nlohmann::json& b = doc["boards"][i];
    EXPECT_EQ(b["name"], kBundled[i]);
    EXPECT_EQ(b["path"], test::BoardPath(kBundled[i]));
    EXPECT_EQ(b["title"], test::Illustration(kBundled[i]).name());
    EXPECT_EQ(b["hexes"], test::Illustration(kBundled[i]).Hexes().size());
    EXPECT_GT(b["columns"].get<int>(), 0);
    EXPECT_GT(b["rows"].get<int>(), 0);
    EXPECT_FALSE(b["grids"].empty());
  }
  EXPECT_EQ(doc["boards"][2]["hexes"], 20);  // g8_2108: RP overlay hexes oJ1-oM5
  const auto text = RunCli({"tactical", "boards"});
  EXPECT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("g8_2108\tG8.2108 illustration"), std::string::npos) << text.out;
}

// Every command that takes --board answers the same for a bundled board's name as for its file.
TEST(TacticalBoards, BoardTakesABundledNameWhereverItTakesAFile) {
  const std::vector<std::vector<std::string>> runs = {
      {"move", "--board", "@g8_2108", "--paddy", "in-season", "--path", "oL3:bank,oM3"},
      {"los", "--board", "@g13_23", "--slope", "steep", "--from", "4-4-8", "--to", "LC E"},
      {"panji-setup", "--board", "@g9_3", "--pto", "--ob", "4"},
      {"beach-dyo", "--board", "@g13_23", "--seed", "7", "--tide", "low"},
      {"samurai-move", "--board", "@samurai", "--unit", "infantry", "--order", "march", "--path",
       "A1,B1"}};
  for (const auto& run : runs) {
    std::vector<std::string> by_name = run, by_path = run;
    for (std::size_t i = 0; i < run.size(); ++i) {
      if (!run[i].starts_with("@")) continue;
      by_name[i] = run[i].substr(1);
      by_path[i] = test::BoardPath(run[i].substr(1));
    }
    EXPECT_EQ(Cli(by_name), Cli(by_path)) << run[0];
  }
}

TEST(TacticalBoards, AnUnknownNameIsBadInputNamingTheBundledBoards) {
  opsim::test::TempDir dir;
  const std::vector<std::vector<std::string>> runs = {
      {"move", "--path", "oM5"},
      {"los", "--from", "A", "--to", "B"},
      {"panji-setup"},
      {"beach-dyo", "--seed", "1"},
      {"samurai-move", "--unit", "infantry", "--order", "march", "--path", "A1"},
      {"render", "--out", dir.Path("x.svg")}};
  for (const auto& run : runs) {
    std::vector<std::string> args = {"tactical", run[0], "--board", "g8_2109"};
    args.insert(args.end(), run.begin() + 1, run.end());
    const auto r = RunCli(args);
    EXPECT_EQ(r.code, 2) << run[0] << ": " << r.err;
    EXPECT_NE(r.err.find("bundled board named 'g8_2109'"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.Path("x.svg")));
  const auto r = RunCli({"tactical", "los", "--board", "g8_2109", "--from", "A", "--to", "B"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no board file or bundled board named 'g8_2109' (bundled: g13_23, "
                       "g13_62, g8_2108, g9_3, samurai)"),
            std::string::npos)
      << r.err;
  const nlohmann::json doc = Cli({"los", "--board", "nowhere", "--from", "A", "--to", "B"}, 2);
  EXPECT_NE(doc["error"]["message"].get<std::string>().find("bundled: g13_23"), std::string::npos)
      << doc.dump();
}

// The scenarios' rule is the boards' rule (ResolveBundled): a scenario's unknown name says the
// same.
TEST(TacticalBoards, ScenariosAndBoardsResolveNamesOneWay) {
  const auto r = RunCli({"map", "--scenario", "special-terrian"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no scenario file or bundled scenario named 'special-terrian' (bundled: "),
            std::string::npos)
      << r.err;
}

// Every bundled board: well-formed, legible at its natural size, every hex with its coordinate
// and terrain, every unit and counter as text, the legend naming every terrain drawn.
TEST(TacticalRender, EachBundledBoardIsWellFormedAndShowsWhatItMust) {
  opsim::test::TempDir dir;
  for (const std::string& name : kBundled) {
    const std::string svg = Render(dir, name);
    Keep(name, svg);
    EXPECT_TRUE(WellFormed(svg)) << name;
    EXPECT_TRUE(TextsOfSixPoints(svg)) << name;
    const Board b = test::Illustration(name);
    std::set<std::string> terrains;
    for (const Hex* h : b.Hexes()) {
      const std::string hex = b.Name(h->cell);
      const std::string polygon =
          Element(svg, "<polygon class=\"hex\" data-hex=\"" + hex + "\"", ">");
      ASSERT_FALSE(polygon.empty()) << name << " " << hex;
      const std::string terrain = *opsim::test::AttrText(polygon, "data-terrain");
      terrains.insert(terrain);
      EXPECT_NE(svg.find("class=\"coord\" data-hex=\"" + hex + "\""), std::string::npos) << hex;
    }
    const std::string legend = Element(svg, "<g class=\"legend\"", "</svg>");
    for (const std::string& t : terrains)
      EXPECT_NE(legend.find("data-key=\"" + t + "\""), std::string::npos) << name << " " << t;
    for (const BoardUnit& u : b.units()) {
      EXPECT_NE(svg.find("<g class=\"unit\" data-hex=\"" + b.Name(u.at.hex) + "\" data-unit=\"" +
                         u.name + "\" data-at=\"" + b.Name(u.at) + "\"><title>" + u.name + ": "),
                std::string::npos)
          << name << " " << u.name;
    }
    EXPECT_EQ(Count(svg, "<g class=\"unit\""), b.units().size()) << name;
    // What a page clicks (docs/api.md): every data-hex is a coordinate --from and --path take,
    // every data-unit a board unit's name, every data-at the position --path takes for it.
    const auto values = [&svg](const std::string& attr) {
      std::vector<std::string> out;
      const std::string open = " " + attr + "=\"";
      for (std::size_t at = svg.find(open); at != std::string::npos; at = svg.find(open, at + 1))
        out.push_back(*opsim::test::AttrText(svg.substr(at, 100), attr));
      return out;
    };
    const std::vector<std::string> hexes = values("data-hex"), units = values("data-unit"),
                                   ats = values("data-at");
    for (const std::string& hex : hexes) EXPECT_TRUE(b.FindPosition(hex)) << name << " " << hex;
    ASSERT_EQ(ats.size(), units.size()) << name;
    for (std::size_t i = 0; i < ats.size(); ++i) {
      const BoardUnit* u = b.FindUnit(units[i]);
      ASSERT_NE(u, nullptr) << name << " " << units[i];
      const auto at = b.FindPosition(ats[i]);
      ASSERT_TRUE(at) << name << " " << ats[i];
      EXPECT_EQ(b.Name(*at), b.Name(u->at)) << name << " " << units[i];
    }
    for (const std::string& unit : units)
      EXPECT_NE(b.FindUnit(unit), nullptr) << name << " " << unit;
    EXPECT_GE(hexes.size(), 2 * b.Hexes().size()) << name;  // its polygon and its coordinate
    EXPECT_EQ(units.size(), b.units().size()) << name;
  }
}

// G13.1, G13.2, G13.3, G13.4: the overlays where the board file lays them, the beach zones and
// the Crest Lines in words and lines.
TEST(G13_23, TheBeachBoardShowsSandOceanDepthsCrestLinesAndItsOverlays) {
  opsim::test::TempDir dir;
  const std::string svg = Render(dir, "g13_23");
  // OC1 is turned 180°: 1001, in the entry area, lies farthest from the shore, at M27.
  EXPECT_NE(Element(svg, "<polygon class=\"hex\" data-hex=\"1001\"", ">"), "");
  EXPECT_NE(svg.find("data-terrain=\"ocean-deep\""), std::string::npos);
  EXPECT_NE(svg.find("data-terrain=\"ocean-shallow\""), std::string::npos);
  EXPECT_NE(svg.find("data-terrain=\"sand-soft\""), std::string::npos);  // Steep: all Soft (G13.3)
  EXPECT_NE(svg.find(">shallow OCEAN</text>"), std::string::npos);
  EXPECT_NE(svg.find(">Soft Sand</text>"), std::string::npos);
  EXPECT_NE(svg.find(">Level -1</text>"), std::string::npos);
  // Every Beach-Hinterland hexside is a Crest Line (G13.2): 406-E10, say.
  const std::string crest = Element(svg, "class=\"crest\" data-hexside=\"", "/>");
  EXPECT_FALSE(crest.empty());
  EXPECT_GT(Count(svg, "class=\"crest\""), 10u);
  for (const char* key : {"crest", "grid-edge", "sand-soft", "ocean-deep", "ocean-shallow"})
    EXPECT_NE(svg.find(std::string("data-key=\"") + key + "\""), std::string::npos) << key;
  // A covered hex is not drawn: F10 lies under Beach hex 406 (G13.1).
  EXPECT_EQ(svg.find("data-hex=\"F10\""), std::string::npos);
  // G13.6: the G13.62 board's low seawall along every Beach-Hinterland hexside.
  const std::string walls = Render(dir, "g13_62");
  EXPECT_EQ(Count(walls, "class=\"seawall\""), Count(walls, "class=\"crest\""));
  EXPECT_GT(Count(walls, "class=\"seawall\""), 10u);
  EXPECT_NE(walls.find("seawall hexside, low (G13.6)"), std::string::npos);
}

// G8.1: paddy interiors and banks; oJ4-oK5 joins one field, so it is the one interior hexside.
TEST(G8_1, ThePaddyBoardShowsInteriorsAndEveryBankButOne) {
  opsim::test::TempDir dir;
  const std::string svg = Render(dir, "g8_2108");
  EXPECT_EQ(Count(svg, "<polygon class=\"paddy-interior\""), 19u);  // all but oM5
  EXPECT_EQ(svg.find("class=\"bank\" data-hexside=\"oJ4-oK5\""), std::string::npos);
  EXPECT_NE(svg.find("class=\"bank\" data-hexside=\"oL2-oL3\""), std::string::npos);
  EXPECT_NE(svg.find(">B bank</text>"), std::string::npos);  // squad B above oL3's Bank counter
  EXPECT_NE(svg.find("rice paddy (G8), in season"), std::string::npos);
}

// G9.3: each Panji counter with its ID and its Covered hexsides: A covers one, C three.
TEST(G9_3, PanjiCountersShowTheirCoveredHexsides) {
  opsim::test::TempDir dir;
  const std::string svg = Render(dir, "g9_3");
  EXPECT_NE(svg.find(">Panji A</text>"), std::string::npos);
  EXPECT_NE(svg.find(">Panji C</text>"), std::string::npos);
  EXPECT_EQ(Count(svg, "<polyline data-covered=\"37EE7-"), 1u);
  EXPECT_NE(svg.find("<polyline data-covered=\"37EE7-37EE8\""), std::string::npos);
  EXPECT_EQ(Count(svg, "<polyline data-covered=\"37DD7-"), 3u);
  EXPECT_NE(svg.find("<polyline data-covered=\"37DD7-37DD8\""), std::string::npos);
  EXPECT_NE(svg.find(">B beneath</text>"), std::string::npos);
  EXPECT_NE(svg.find("data-key=\"covered\""), std::string::npos);
}

// G8.4: the LOS thread's hexes, what each adds, and the verdict, as `tactical los --json` says.
TEST(G8_4, TheLosThreadShowsTheSameAnswerAsTacticalLos) {
  opsim::test::TempDir dir;
  nlohmann::json doc;
  const std::string svg = Render(dir, "g8_2108", {"--los", "A,C"}, &doc);
  Keep("g8_2108-los", svg);
  const nlohmann::json los =
      Cli({"los", "--board", "g8_2108", "--paddy", "in-season", "--from", "A", "--to", "C"});
  EXPECT_EQ(doc["los"], los);
  const std::string thread = Element(svg, "<g class=\"los\"", "</g>\n");
  EXPECT_NE(thread.find("data-verdict=\"yes\""), std::string::npos) << thread;
  for (const auto& hex : los["path"])
    EXPECT_NE(thread.find("data-hex=\"" + hex.get<std::string>() + "\""), std::string::npos) << hex;
  EXPECT_EQ(Count(thread, "class=\"los-hex\""), los["path"].size());
  // Each In-Season paddy crossed adds +1, before the FRD halving (G8.4); the target's TEM.
  for (const char* hex : {"oM4", "oL3"}) {
    const std::string mark =
        Element(svg, std::string("<g class=\"mark\" data-where=\"") + hex + "\"", "</g>");
    EXPECT_NE(mark.find(">Hindrance +1</text>"), std::string::npos) << hex << mark;
  }
  EXPECT_NE(Element(svg, "<g class=\"mark\" data-where=\"oL2\"", "</g>").find(">TEM +1</text>"),
            std::string::npos);
  EXPECT_NE(svg.find("LOS oM5 -&gt; oL2: clear, Hindrance +1; vs small-arms, TEM +1"),
            std::string::npos);
  // The answer as `tactical los` prints it, rule by rule.
  EXPECT_NE(svg.find("hindrance [G8.4] In-Season paddy Hindrance +2 halved, FRD: +1: -1"),
            std::string::npos);
  EXPECT_NE(svg.find("tem [G8.3] bank hexside oL2-oL3, treated as a hedge: +1"), std::string::npos);
  EXPECT_TRUE(WellFormed(svg));
}

// G13.23: a Steep beach's Hinterland hides the beach from a unit back from the shore; the
// obstacle is marked and the thread drawn as blocked.
TEST(G13_23, ABlockedLosIsDrawnAsBlockedWithItsObstacle) {
  opsim::test::TempDir dir;
  nlohmann::json doc;
  const std::string svg = Render(dir, "g13_23", {"--los", "3-4-7,6-6-8"}, &doc);
  Keep("g13_23-los", svg);
  EXPECT_FALSE(doc["los"]["los"].get<bool>());
  EXPECT_EQ(doc["los"]["blocked"]["rule"], "G13.23");
  const std::string thread = Element(svg, "<g class=\"los\"", "</g>\n");
  EXPECT_NE(thread.find("data-verdict=\"no\""), std::string::npos);
  EXPECT_NE(thread.find("stroke-dasharray"), std::string::npos);
  EXPECT_NE(Element(svg, "<g class=\"mark\" data-where=\"E8\"", "</g>").find(">blocks</text>"),
            std::string::npos);
  EXPECT_NE(svg.find("LOS E7 -&gt; 406: no LOS [G13.23] E8 (open, Level 0) stands between Level 0 "
                     "and Level -1"),
            std::string::npos);
  EXPECT_NE(svg.find("data-key=\"blocked\""), std::string::npos);
}

// SAM-LW.1: on a samurai-era board, light woods block the thread.
TEST(SamLW_1, ASamuraiLosThroughLightWoodsIsDrawnBlocked) {
  opsim::test::TempDir dir;
  nlohmann::json doc;
  const std::string svg = Render(dir, "samurai", {"--los", "A2,C3"}, &doc);
  EXPECT_EQ(doc["los"], Cli({"los", "--board", "samurai", "--from", "A2", "--to", "C3"}));
  EXPECT_NE(Element(svg, "<g class=\"mark\" data-where=\"B2\"", "</g>").find(">blocks</text>"),
            std::string::npos);
  EXPECT_NE(svg.find("blocked [SAM-LW.1] B2 (light woods) blocks LOS"), std::string::npos);
}

// G9.5, G9.6: a path's steps with their costs, as `tactical move --json` answers.
TEST(G9_6, ThePathShowsEachStepsCostAsTacticalMove) {
  opsim::test::TempDir dir;
  nlohmann::json doc;
  const std::vector<std::string> move = {"--pto", "--double-time", "--allowance",
                                         "4",     "--path",        "37EE8,DD7,DD7:beneath,CC8"};
  const std::string svg = Render(dir, "g9_3", move, &doc);
  Keep("g9_3-path", svg);
  std::vector<std::string> args = {"move", "--board", "g9_3"};
  args.insert(args.end(), move.begin(), move.end());
  EXPECT_EQ(doc["move"], Cli(args));
  for (const auto& [where, label] :
       {std::pair{"37EE8", "start"}, std::pair{"37DD7", "1: 2 MF"}, std::pair{"37DD7", "2: 1 MF"},
        std::pair{"37CC8", "3: 3 MF"}}) {
    EXPECT_NE(svg.find(std::string("<g class=\"mark\" data-where=\"") + where + "\">"),
              std::string::npos)
        << where;
    EXPECT_NE(svg.find(std::string(">") + label + "</text>"), std::string::npos) << label;
  }
  EXPECT_NE(svg.find("path of infantry: legal, 6 MF in total, CX"), std::string::npos);
  EXPECT_NE(svg.find("[G9.6] cross Covered hexside 37CC8-37DD7"), std::string::npos);
  // A refused step is marked as such (G8.2: no truck in a paddy).
  const std::string refused = Render(dir, "g8_2108", {"--unit", "truck", "--path", "oM5,oM4"});
  EXPECT_NE(refused.find(">1: refused</text>"), std::string::npos);
  EXPECT_NE(refused.find("data-verdict=\"no\""), std::string::npos);
}

// docs/output-files.md: an empty --out, a link, a file of another kind; a bad --los.
TEST(TacticalRender, OutFollowsTheOutputFileRules) {
  opsim::test::TempDir dir;
  const std::vector<std::string> base = {"tactical", "render", "--board", "g9_3", "--out"};
  auto run = [&](const std::string& out, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = base;
    args.push_back(out);
    args.insert(args.end(), extra.begin(), extra.end());
    return RunCli(args);
  };
  EXPECT_EQ(run("").code, 2);
  opsim::test::WriteFile(dir.Path("notes.txt"), "mine\n");
  EXPECT_EQ(run(dir.Path("notes.txt")).code, 2);
  EXPECT_EQ(opsim::test::ReadFile(dir.Path("notes.txt")), "mine\n");
  EXPECT_EQ(run(dir.Path("notes.txt"), {"--force"}).code, 0);
  std::filesystem::create_symlink(dir.Path("target.svg"), dir.Path("link.svg"));
  EXPECT_EQ(run(dir.Path("link.svg"), {"--force"}).code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.Path("target.svg")));
  EXPECT_EQ(run(dir.Path("b.svg")).code, 0);
  EXPECT_EQ(run(dir.Path("b.svg")).code, 0);  // an SVG drawing is replaced
  const auto bad = run(dir.Path("c.svg"), {"--los", "A"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("expected the firer and the target"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir.Path("c.svg")));
}

// The board fixtures too (piers, a river mouth, jungle by a beach): well-formed and legible.
TEST(TacticalRender, EveryFixtureBoardDraws) {
  opsim::test::TempDir dir;
  int drawn = 0;
  for (const auto& entry : std::filesystem::directory_iterator(OPSIM_TACTICAL_FIXTURES)) {
    const auto r = RunCli({"tactical", "render", "--board", entry.path().string(), "--slope",
                           "moderate", "--out", dir.Path("f.svg"), "--force"});
    if (r.code != 0) continue;  // a fixture whose set-up needs other settings
    const std::string svg = opsim::test::ReadFile(dir.Path("f.svg"));
    EXPECT_TRUE(WellFormed(svg)) << entry.path();
    EXPECT_TRUE(TextsOfSixPoints(svg)) << entry.path();
    ++drawn;
  }
  EXPECT_GE(drawn, 2);
}

}  // namespace
}  // namespace opsim::tactical
