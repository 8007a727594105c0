// `opsim render` at the command line: a game's drawing shows every unit, ground, air and naval,
// with its side and strength as text, stacks listing each unit, and stays well-formed XML.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

#include "opsim/query/svg.h"
#include "svg_check.h"
#include "test_support.h"

namespace opsim {
namespace {

using test::Attr;
using test::Count;
using test::Element;
using test::PointsPerUnit;
using test::RunCli;
using test::TextsOfSixPoints;
using test::WellFormed;

// The SVG of a new special-terrain game, drawn from its log.
std::string RenderGame(const test::TempDir& dir, std::vector<std::string> extra = {}) {
  const std::string db = dir.Path("g.sqlite");
  EXPECT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", db, "--seed", "1"}).code, 0);
  std::vector<std::string> args = {"render", "--db", db, "--out", dir.Path("m.svg")};
  args.insert(args.end(), extra.begin(), extra.end());
  const test::CliRun r = RunCli(args);
  EXPECT_EQ(r.code, 0) << r.err;
  return test::ReadFile(dir.Path("m.svg"));
}

TEST(RenderCli, EveryUnitKindHasACounterWithItsSideAndStrengthAsText) {
  test::TempDir dir;
  const std::string svg = RenderGame(dir);
  const std::string naval =
      Element(svg, "<g class=\"counter naval allied\" data-unit=\"uk-gulf\"", "</g>");
  ASSERT_FALSE(naval.empty()) << svg.substr(0, 2000);
  EXPECT_NE(naval.find(">uk-gulf</text>"), std::string::npos) << naval;
  EXPECT_NE(naval.find(">Al transport</text>"), std::string::npos) << naval;
  EXPECT_NE(naval.find("Gulf Transports"), std::string::npos) << naval;
  const std::string air =
      Element(svg, "<g class=\"counter air allied\" data-unit=\"uk-raf\"", "</g>");
  ASSERT_FALSE(air.empty());
  EXPECT_NE(air.find(">Al air</text>"), std::string::npos) << air;
  // de-kg2 is based under de-22la: listed in that stack with its side and kind.
  EXPECT_NE(svg.find(">Ax de-kg2 air</text>"), std::string::npos);
  const std::string ground =
      Element(svg, "<g class=\"counter ground axis\" data-unit=\"de-9pz\"", "</g>");
  ASSERT_FALSE(ground.empty());
  EXPECT_NE(ground.find("RE</text>"), std::string::npos) << ground;
  EXPECT_TRUE(WellFormed(svg));
}

TEST(RenderCli, AStackOfTwoListsBothUnits) {
  test::TempDir dir;
  const std::string svg = RenderGame(dir);
  // uk-med and uk-tr share 19A:2612: one counter on top, the count, and both in the list.
  const auto top = svg.find("<g class=\"counter naval allied\" data-unit=\"uk-med\"");
  ASSERT_NE(top, std::string::npos);
  const std::string stack = Element(svg.substr(top), "<g class=\"stack\"", "</g>");
  EXPECT_NE(stack.find("data-count=\"2\""), std::string::npos) << stack;
  EXPECT_NE(stack.find(">2</text>"), std::string::npos) << stack;
  EXPECT_NE(stack.find(">Al uk-med tf</text>"), std::string::npos) << stack;
  EXPECT_NE(stack.find(">Al uk-tr transport</text>"), std::string::npos) << stack;
}

TEST(RenderCli, TheDrawingAtATurnIsWellFormed) {
  test::TempDir dir;
  EXPECT_TRUE(WellFormed(RenderGame(dir, {"--at", "0"})));
}

std::string RenderScenario(const test::TempDir& dir, std::vector<std::string> extra) {
  std::vector<std::string> args = {"render", "--scenario",      "special-terrain",
                                   "--out",  dir.Path("s.svg"), "--force"};
  args.insert(args.end(), extra.begin(), extra.end());
  const test::CliRun r = RunCli(args);
  EXPECT_EQ(r.code, 0) << r.err;
  return test::ReadFile(dir.Path("s.svg"));
}

TEST(RenderCli, OwnedHexesAreHatchedBySide) {
  test::TempDir dir;
  const std::string before = RenderScenario(dir, {});
  const std::string after = RenderScenario(dir, {"--set", "owner:16A:0623=axis"});
  EXPECT_GT(Count(before, "<polygon class=\"own allied\""), 0u);
  EXPECT_EQ(Count(after, "<polygon class=\"own axis\" "),
            Count(before, "<polygon class=\"own axis\" ") + 1);
  EXPECT_EQ(Count(after, "<polygon class=\"own allied\" "),
            Count(before, "<polygon class=\"own allied\" ") - 1);
  EXPECT_NE(after.find("fill=\"url(#own-axis)\""), std::string::npos);
  EXPECT_NE(after.find("<pattern id=\"own-axis\""), std::string::npos);
  EXPECT_NE(after.find("<pattern id=\"own-allied\""), std::string::npos);
  EXPECT_TRUE(WellFormed(after));
}

TEST(RenderCli, TheLegendNamesEverySymbolInsideTheFile) {
  test::TempDir dir;
  const std::string svg = RenderScenario(dir, {});
  const std::string legend = Element(svg, "<g class=\"legend\"", "</svg>");
  ASSERT_FALSE(legend.empty());
  for (const char* key : {"terrain-clear",
                          "terrain-all-sea",
                          "own-axis",
                          "own-allied",
                          "flood",
                          "ice-airfield",
                          "city",
                          "port",
                          "airbase",
                          "major-river",
                          "canal",
                          "road",
                          "railroad",
                          "causeway",
                          "rail-ferry",
                          "route",
                          "counter-axis",
                          "counter-allied",
                          "counter-air-naval",
                          "stack"}) {
    EXPECT_NE(legend.find(std::string("data-key=\"") + key + "\""), std::string::npos) << key;
  }
}

TEST(RenderCli, TheSupplyOverlayMarksEachUnitAsOpsimSupplyAnswers) {
  test::TempDir dir;
  const std::string svg = RenderScenario(dir, {"--supply", "allied"});
  const test::CliRun s =
      RunCli({"supply", "--scenario", "special-terrain", "--side", "allied", "--all", "--json"});
  ASSERT_EQ(s.code, 0) << s.err;
  const nlohmann::json units = s.json()["units"];
  ASSERT_FALSE(units.empty());
  bool out_of_supply = false;
  for (const nlohmann::json& u : units) {
    const std::string status = u["status"];
    out_of_supply = out_of_supply || status != "supplied";
    EXPECT_NE(svg.find("<g class=\"supply allied " + status + "\" data-hex=\"" +
                       u["hex"].get<std::string>() + "\""),
              std::string::npos)
        << u.dump();
  }
  EXPECT_TRUE(out_of_supply) << "the fixture has an allied unit out of supply (su-51)";
  EXPECT_NE(svg.find(">out-of-supply</text>"), std::string::npos);
  EXPECT_EQ(Count(svg, "<g class=\"supply "), units.size());
  EXPECT_EQ(Count(RenderScenario(dir, {}), "<g class=\"supply "), 0u);
  EXPECT_TRUE(WellFormed(svg));
}

TEST(RenderCli, TheZocOverlayOutlinesTheHexesOfTheSidesUnitsAndTheirNeighbours) {
  test::TempDir dir;
  const std::string svg = RenderScenario(dir, {"--zoc", "allied"});
  // nl-lt at 16A:0620 exerts a zone in its hex and the hexes beside it (B4.8); nothing of the
  // Axis side is outlined.
  for (const char* hex : {"16A:0620", "16A:0619", "16A:0521", "16A:0721"}) {
    EXPECT_NE(svg.find(std::string("<polygon class=\"zoc allied\" data-hex=\"") + hex + "\""),
              std::string::npos)
        << hex;
  }
  EXPECT_EQ(svg.find("data-hex=\"16A:1323\""), std::string::npos);  // de-9pz's hex
  EXPECT_EQ(Count(svg, "class=\"zoc axis\""), 0u);
  EXPECT_EQ(Count(RenderScenario(dir, {}), "class=\"zoc "), 0u);
  const test::CliRun bad = RunCli(
      {"render", "--scenario", "special-terrain", "--zoc", "nobody", "--out", dir.Path("x.svg")});
  EXPECT_EQ(bad.code, 2) << bad.err;
}

TEST(RenderCli, FloodsIceAirfieldsDestroyedBridgesAndAClosedSuezAreMarked) {
  test::TempDir dir;
  const std::string before = RenderScenario(dir, {});
  const std::string svg = RenderScenario(
      dir, {"--set", "bridge:16A:0827/0727=destroyed", "--set", "suez=temporarily-closed", "--set",
            "flood:16A:0623=partial", "--set", "ice-airfield:16A:0623=true"});
  EXPECT_NE(svg.find("<g class=\"bridge-destroyed\" data-hexside=\"16A:0727/0827\""),
            std::string::npos);
  EXPECT_EQ(Count(before, "class=\"bridge-destroyed\""), 0u);
  EXPECT_GT(Count(svg, "<g class=\"suez-closed\""), 0u);
  EXPECT_NE(svg.find(">Suez temporarily-closed</text>"), std::string::npos);
  EXPECT_EQ(Count(before, "class=\"suez-closed\""), 0u);
  EXPECT_EQ(Count(svg, "<circle class=\"flood\""), Count(before, "<circle class=\"flood\"") + 1);
  EXPECT_EQ(Count(svg, "<text class=\"ice-airfield\""),
            Count(before, "<text class=\"ice-airfield\"") + 1);
  EXPECT_TRUE(WellFormed(svg));
}

TEST(RenderCli, CountersCarryTheirTypesSymbolAndTheirNationalitysColour) {
  test::TempDir dir;
  const std::string svg = RenderGame(dir);
  const nlohmann::json& palette = query::Palette();
  struct Case {
    const char* head;
    const char* symbol;
    const char* nation;
  };
  for (const Case& c :
       {Case{"<g class=\"counter ground axis\" data-unit=\"de-9pz\"", "armor", "german"},
        Case{"<g class=\"counter ground axis\" data-unit=\"de-61\"", "infantry", "german"},
        Case{"<g class=\"counter ground allied\" data-unit=\"gr-1\"", "mountain", "greek"},
        Case{"<g class=\"counter naval allied\" data-unit=\"uk-gulf\"", "naval", "british"},
        Case{"<g class=\"counter air allied\" data-unit=\"uk-raf\"", "air", "british"}}) {
    const std::string counter = Element(svg, c.head, "</g>\n");
    ASSERT_FALSE(counter.empty()) << c.head;
    EXPECT_NE(counter.find(std::string("data-symbol=\"") + c.symbol + "\""), std::string::npos)
        << counter;
    EXPECT_NE(counter.find("fill=\"" + palette["nationality"][c.nation].get<std::string>() + "\""),
              std::string::npos)
        << counter;
  }
}

TEST(RenderCli, EveryTextIsSixPointsOrMoreAtTheDrawingsNaturalSize) {
  test::TempDir dir;
  const std::string svg = RenderGame(dir);
  // A hex is 16 mm across its flats: 24.2 units of 14 * sqrt(3).
  EXPECT_NEAR(PointsPerUnit(svg) * 14 * std::sqrt(3.0), 16 / 25.4 * 72, 0.5);
  EXPECT_TRUE(TextsOfSixPoints(svg));
}

TEST(RenderCli, EachCountersTextLiesWithinItsCounter) {
  test::TempDir dir;
  const std::string svg = RenderGame(dir);
  std::size_t counters = 0;
  for (auto at = svg.find("<g class=\"counter "); at != std::string::npos;
       at = svg.find("<g class=\"counter ", at + 1), ++counters) {
    const std::string counter = svg.substr(at, svg.find("</g>\n", at) - at);
    const std::string rect = Element(counter, "<rect ", ">");
    const double x = Attr(rect, "x"), y = Attr(rect, "y"), w = Attr(rect, "width"),
                 h = Attr(rect, "height");
    for (const char* cls : {"id", "str"}) {
      const std::string head = std::string("<text class=\"") + cls + "\"";
      const std::string text = Element(counter, head, "</text>");
      ASSERT_FALSE(text.empty()) << counter;
      const double font = Attr(text, "font-size"), cx = Attr(text, "x"), base = Attr(text, "y");
      const std::size_t chars = text.size() - text.find('>') - 1;
      // Its width: as squeezed, or a generous 0.62 em a character.
      const double length = std::isnan(Attr(text, "textLength"))
                                ? 0.62 * font * static_cast<double>(chars)
                                : Attr(text, "textLength");
      EXPECT_GE(cx - length / 2, x) << text << " in " << rect;
      EXPECT_LE(cx + length / 2, x + w) << text << " in " << rect;
      EXPECT_GE(base - 0.8 * font, y) << text << " in " << rect;
      EXPECT_LE(base, y + h) << text << " in " << rect;
    }
  }
  EXPECT_GT(counters, 10u);
}

// `opsim render --page SIZE` of the game in `db`: the files it writes, in order.
std::vector<std::string> RenderPages(const test::TempDir& dir, const std::string& db,
                                     const std::string& size) {
  const test::CliRun r = RunCli(
      {"render", "--db", db, "--page", size, "--out", dir.Path("p.svg"), "--json", "--force"});
  EXPECT_EQ(r.code, 0) << r.err;
  const nlohmann::json doc = r.json();
  std::vector<std::string> pages;
  for (std::size_t i = 0; i < doc["pages"].size(); ++i) {
    EXPECT_EQ(doc["pages"][i], dir.Path("p-" + std::to_string(i + 1) + ".svg"));
    pages.push_back(test::ReadFile(doc["pages"][i].get<std::string>()));
  }
  EXPECT_FALSE(std::filesystem::exists(dir.Path("p.svg")));
  return pages;
}

TEST(RenderCli, PageSplitsALargeTheaterIntoPrintablePagesOfThatSize) {
  test::TempDir dir;
  const std::string whole = RenderGame(dir);
  for (const auto& [size, width, height] :
       {std::tuple{"a4", "210mm", "297mm"}, std::tuple{"letter", "8.5in", "11in"}}) {
    const std::vector<std::string> pages = RenderPages(dir, dir.Path("g.sqlite"), size);
    // The bundled theater's seven sheets are far apart: more than a page of map, and the legend.
    ASSERT_GE(pages.size(), 4u) << size;
    std::size_t counters = 0;
    for (std::size_t i = 0; i < pages.size(); ++i) {
      const std::string& page = pages[i];
      // Upright, or on its side where a sheet's shape takes fewer pages so.
      const std::string upright = std::string("width=\"") + width + "\" height=\"" + height + "\"";
      const std::string sideways = std::string("width=\"") + height + "\" height=\"" + width + "\"";
      EXPECT_TRUE(page.find(upright) != std::string::npos ||
                  page.find(sideways) != std::string::npos)
          << size << " page " << i + 1 << ": " << page.substr(0, 200);
      EXPECT_NE(page.find("page " + std::to_string(i + 1) + " of " + std::to_string(pages.size())),
                std::string::npos)
          << page.substr(0, 600);
      EXPECT_TRUE(TextsOfSixPoints(page)) << size << " page " << i + 1;
      EXPECT_TRUE(WellFormed(page)) << size << " page " << i + 1;
      // At the natural size: a hex 16 mm across, as in the single drawing.
      EXPECT_NEAR(PointsPerUnit(page), PointsPerUnit(whole), 0.01);
      counters += Count(page, "<g class=\"counter ");
    }
    EXPECT_NE(pages.back().find("<g class=\"legend\""), std::string::npos);
    EXPECT_NE(pages.back().find(std::string("width=\"") + width + "\" height=\"" + height + "\""),
              std::string::npos);
    EXPECT_EQ(pages.front().find("<g class=\"legend\""), std::string::npos);
    // Every counter is on a page (one near a page's edge on both of its pages).
    EXPECT_GE(counters, Count(whole, "<g class=\"counter "));
  }
  const test::CliRun bad = RunCli(
      {"render", "--scenario", "special-terrain", "--page", "a3", "--out", dir.Path("x.svg")});
  EXPECT_EQ(bad.code, 2) << bad.err;
}

}  // namespace
}  // namespace opsim
