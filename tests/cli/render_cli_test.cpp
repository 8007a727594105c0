// `opsim render` at the command line: a game's drawing shows every unit, ground, air and naval,
// with its side and strength as text, stacks listing each unit, and stays well-formed XML.
#include <gtest/gtest.h>

#include <vector>

#include "test_support.h"

namespace opsim {
namespace {

using test::RunCli;

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

// The element that opens with `head` (e.g. `<g class="counter naval allied" data-unit="uk-med"`),
// through its closing tag's start; empty if absent.
std::string Element(const std::string& svg, const std::string& head, const std::string& close) {
  const auto at = svg.find(head);
  if (at == std::string::npos) return "";
  return svg.substr(at, svg.find(close, at) - at);
}

// Tags open and close in order, and every '&' starts an entity: enough to catch an unescaped
// label or a counter left open.
::testing::AssertionResult WellFormed(const std::string& svg) {
  std::vector<std::string> open;
  for (std::size_t i = svg.find('<'); i != std::string::npos; i = svg.find('<', i + 1)) {
    const std::size_t end = svg.find('>', i);
    if (end == std::string::npos) return ::testing::AssertionFailure() << "unclosed tag at " << i;
    const std::string tag = svg.substr(i + 1, end - i - 1);
    const std::string name =
        tag.substr(tag[0] == '/', tag.find_first_of(" />", 1) - (tag[0] == '/'));
    if (tag[0] == '/') {
      if (open.empty() || open.back() != name) {
        return ::testing::AssertionFailure() << "</" << name << "> closes nothing open at " << i;
      }
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(name);
    }
  }
  for (std::size_t i = svg.find('&'); i != std::string::npos; i = svg.find('&', i + 1)) {
    const std::size_t semi = svg.find(';', i);
    if (semi == std::string::npos || semi - i > 6) {
      return ::testing::AssertionFailure() << "bare '&' at " << i;
    }
  }
  if (!open.empty()) return ::testing::AssertionFailure() << "<" << open.back() << "> left open";
  return ::testing::AssertionSuccess();
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

std::size_t Count(const std::string& svg, const std::string& what) {
  std::size_t n = 0;
  for (auto at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1)) ++n;
  return n;
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

}  // namespace
}  // namespace opsim
