// `opsim scenario format` and `check` (issue 20): every bundled and generated scenario, laid out
// and loaded again, is the same theater and the same state (state hash); the layout is stable
// (formatting a formatted file changes nothing); road and railroad hexsides become chains; and
// a check's error is located on its line, JSON pointer, hex or hexside.
#include <gtest/gtest.h>

#include <set>

#include "opsim/map/generate.h"
#include "opsim/map/scenario_layout.h"
#include "opsim/ops/game_state.h"
#include "opsim/ops/synthetic.h"
#include "opsim/query/scenario.h"
#include "opsim/query/view.h"
#include "test_support.h"

namespace opsim::query {
namespace {

using nlohmann::json;

std::string Formatted(const std::string& text, const std::string& name) {
  auto src = JsonSource::FromText(text, name);
  EXPECT_TRUE(src) << src.error().to_string();
  if (!src) return {};
  auto out = map::FormatScenario(*src);
  EXPECT_TRUE(out) << out.error().to_string();
  return out ? *out : std::string();
}

// What a scenario loads to: its theater as the browser gets it, and its state's hash (or the
// map state's JSON for a map only).
struct Loaded {
  std::string theater;
  std::string state;
};
Loaded LoadedOf(const std::string& text, const std::string& name) {
  auto src = JsonSource::FromText(text, name);
  EXPECT_TRUE(src) << src.error().to_string();
  if (!src) return {};
  auto g = LoadScenarioSource(*src);
  EXPECT_TRUE(g) << g.error().to_string();
  if (!g) return {};
  ops::GameState map_only;
  map_only.map = g->map;
  return {TheaterJson(*g->theater).dump(), ops::StateHash(g->state ? *g->state : map_only)};
}

// Formatted, loaded again, formatted again.
void ExpectRoundTrip(const std::string& text, const std::string& name) {
  const std::string once = Formatted(text, name);
  ASSERT_FALSE(once.empty());
  EXPECT_EQ(Formatted(once, name), once) << name << ": the layout is not stable";
  const Loaded before = LoadedOf(text, name), after = LoadedOf(once, name);
  EXPECT_EQ(before.state, after.state) << name << ": another state";
  EXPECT_TRUE(before.theater == after.theater) << name << ": another theater";
  EXPECT_TRUE(once.ends_with("}\n")) << name;
}

TEST(ScenarioFormat, EveryBundledScenarioRoundTripsToTheSameStateHash) {
  const auto bundled = map::ListScenarios(ScenarioDir());
  ASSERT_FALSE(bundled.empty());
  for (const map::BundledScenario& s : bundled) {
    ExpectRoundTrip(test::ReadFile(s.path), s.name);
  }
}

TEST(ScenarioFormat, GeneratedScenariosRoundTripUpToTheHundredThousandHexOne) {
  for (const auto& [hexes, units] :
       std::vector<std::pair<int, int>>{{300, 0}, {5'000, 100}, {20'000, 0}, {100'000, 2'000}}) {
    map::GenerateOptions o;
    o.hexes = hexes;
    o.seed = 7;
    std::string text = map::GenerateTheater(o);
    if (units > 0) {
      auto with = ops::AddSyntheticCampaign(text, units, 7);
      ASSERT_TRUE(with) << with.error().to_string();
      text = std::move(*with);
    }
    ExpectRoundTrip(text, "generated-" + std::to_string(hexes));
  }
}

TEST(ScenarioFormat, RoadAndRailroadHexsidesAreJoinedIntoChains) {
  EXPECT_EQ(map::ChainHexsides({"16A:0420/0520", "16A:0520/0620", "16A:0721/0620"}),
            std::vector<std::string>{"16A:0420-0520-0620-0721"});
  // A lone hexside is read either way; one that joins nothing, or is no hexside, is kept.
  EXPECT_EQ(
      map::ChainHexsides({"16A:0520/0420", "16A:0520/0620", "16A:1010/1011", "x", "16A:0620/0720"}),
      (std::vector<std::string>{"16A:0420-0520-0620", "16A:1010/1011", "x", "16A:0620/0720"}));
  // Across a sheet join the next hex names its sheet; chains join chains.
  EXPECT_EQ(map::ChainHexsides({"14:5019/15A:0120", "15A:0120-0121-0122", "15A:0123/0122"}),
            std::vector<std::string>{"14:5019-15A:0120-0121-0122-0123"});
  // A join that makes a new end joins again, so that a second pass changes nothing.
  const std::vector<std::string> loop = {"16A:0101/0102", "16A:0301/0302", "16A:0302/0202",
                                         "16A:0202/0102"};
  const auto once = map::ChainHexsides(loop);
  EXPECT_EQ(map::ChainHexsides(once), once);
  EXPECT_EQ(once, std::vector<std::string>{"16A:0101-0102-0202-0302-0301"});
  // The generator writes hexsides one by one: laid out, its roads are chains.
  map::GenerateOptions o;
  o.hexes = 5'000;
  const std::string text = map::GenerateTheater(o);
  const json before = json::parse(text), after = json::parse(Formatted(text, "generated"));
  ASSERT_TRUE(before["hexsides"].contains("road"));
  EXPECT_LT(after["hexsides"]["road"].size(), before["hexsides"]["road"].size());
  // Its chains name each hex's sheet; laid out, only where it changes.
  EXPECT_NE(before["hexsides"]["railroad"][0].get<std::string>().find("-G0"), std::string::npos);
  for (const json& chain : after["hexsides"]["railroad"]) {
    EXPECT_EQ(chain.get<std::string>().find("-G0"), std::string::npos) << chain;
  }
  EXPECT_EQ(after["hexsides"]["major-river"], before["hexsides"]["major-river"]);
}

TEST(ScenarioFormat, TheLayoutKeepsKeysInOrderAndPutsGridsARowPerLine) {
  const std::string text = Formatted(
      R"({"opsim":"scenario","version":1,"name":"t","sheets":[{"name":"16A","size":[52,45],)"
      R"("origin":[0,0],"first":[1,1],"zone":"A","terrain":["cc","cc"]}],"places":[{"hex":)"
      R"("16A:0101","name":"A","city":"dot"}]})",
      "t");
  EXPECT_EQ(text,
            "{\n"
            "  \"opsim\": \"scenario\",\n"
            "  \"version\": 1,\n"
            "  \"name\": \"t\",\n"
            "  \"sheets\": [\n"
            "    {\n"
            "      \"name\": \"16A\",\n"
            "      \"size\": [52, 45],\n"
            "      \"origin\": [0, 0],\n"
            "      \"first\": [1, 1],\n"
            "      \"zone\": \"A\",\n"
            "      \"terrain\": [\n"
            "        \"cc\",\n"
            "        \"cc\"\n"
            "      ]\n"
            "    }\n"
            "  ],\n"
            "  \"places\": [{\"hex\": \"16A:0101\", \"name\": \"A\", \"city\": \"dot\"}]\n"
            "}\n");
}

TEST(ScenarioFormat, LongTokenListsArePackedWithinOneHundredColumns) {
  json doc = {{"opsim", "scenario"}, {"notes", json::array()}, {"hexsides", json::object()}};
  for (int i = 10; i < 40; ++i) {
    doc["hexsides"]["border"].push_back("16A:" + std::to_string(i) + "10/" + std::to_string(i) +
                                        "11");
  }
  const std::string text = Formatted(doc.dump(), "t");
  EXPECT_NE(text.find("\"notes\": []"), std::string::npos) << text;
  std::size_t lines = 0;
  for (std::size_t at = 0; at < text.size(); ++lines) {
    const std::size_t end = text.find('\n', at);
    EXPECT_LE(end - at, map::kLayoutWidth) << text.substr(at, end - at);
    at = end + 1;
  }
  // 30 tokens of 15 characters (17 quoted), 5 to a line, between the list's brackets.
  EXPECT_EQ(text.find("      \"16A:1010/1011\", \"16A:1110/1111\", \"16A:1210/1211\""),
            text.find("\"border\": [\n") + 12)
      << text;
  EXPECT_EQ(lines, 3u + 6u + 5u) << text;
}

// The bundled scenario with `change` made to its JSON, checked as text laid out by dump(2).
json CheckChanged(const std::function<void(json&)>& change, std::string* text_out = nullptr) {
  json doc = json::parse(test::ReadFile(test::BundledPath("special-terrain")));
  change(doc);
  const std::string text = doc.dump(2);
  if (text_out) *text_out = text;
  const ScenarioCheck c = CheckScenarioText(text, "scenario");
  EXPECT_TRUE(c.error.has_value());
  EXPECT_EQ(c.doc["ok"], false);
  return c.doc["error"];
}

TEST(ScenarioCheck, ABadCoastCodeIsItsCellsHex) {
  json sheet;
  const json e = CheckChanged([&](json& d) {
    sheet = d["sheets"][0];
    std::string row = d["sheets"][0]["coast"][5];
    row[0] = 'z';
    d["sheets"][0]["coast"][5] = row;
  });
  EXPECT_EQ(e["path"], "/sheets/0/coast/5");
  EXPECT_EQ(e["hex"],
            map::FormatHexName(sheet["name"].get<std::string>(), sheet["first"][0].get<int>(),
                               sheet["first"][1].get<int>() + 5))
      << e.dump();
}

TEST(ScenarioCheck, AUnitOnTheSeaIsItsHex) {
  std::string text;
  const json e =
      CheckChanged([](json& d) { d["campaign"]["units"][0]["hex"] = "16A:0114"; }, &text);
  EXPECT_EQ(e["hex"], "16A:0114") << e.dump();
  EXPECT_TRUE(e["path"].get<std::string>().starts_with("/campaign/units/0")) << e.dump();
  EXPECT_EQ(e["line"].get<std::size_t>(),
            1 + static_cast<std::size_t>(
                    std::count(text.begin(), text.begin() + text.find("16A:0114"), '\n')))
      << e.dump();
}

TEST(ScenarioCheck, APlaceWithABadPortIsItsHex) {
  const json e = CheckChanged([](json& d) { d["places"][0]["port"] = "enormous"; });
  EXPECT_EQ(e["path"], "/places/0/port");
  EXPECT_EQ(e["hex"],
            json::parse(test::ReadFile(test::BundledPath("special-terrain")))["places"][0]["hex"])
      << e.dump();
}

TEST(ScenarioCheck, AHexsideNotOnTheMapIsThatHexside) {
  const json e = CheckChanged([](json& d) { d["hexsides"]["canal"].push_back("16A:5040/5041"); });
  EXPECT_EQ(e["hexside"], "16A:5040/5041") << e.dump();
  EXPECT_EQ(e["hex"], nullptr);
}

TEST(ScenarioCheck, AChainsHexesThatDoNotTouchAreTheHexsideBetweenThem) {
  json e = CheckChanged([](json& d) { d["hexsides"]["road"].push_back("16A:0520-0620-0622"); });
  EXPECT_EQ(e["hexside"], "16A:0620/0622") << e.dump();
  // A chain's hex off its sheet: that hex, not the sheet's corners the message gives.
  e = CheckChanged([](json& d) { d["hexsides"]["road"].push_back("16A:0520-9999"); });
  EXPECT_EQ(e["hex"], "16A:9999") << e.dump();
  e = CheckChanged([](json& d) { d["areas"][0]["hexes"].push_back("16A:0520..0599"); });
  EXPECT_EQ(e["message"].get<std::string>().find(e["hex"].get<std::string>()), 4u) << e.dump();
  // The block's first hex off the theater, as the message names it.
  ASSERT_TRUE(e["hex"].is_string()) << e.dump();
  EXPECT_TRUE(e["hex"].get<std::string>().starts_with("16A:05")) << e.dump();
  EXPECT_NE(e["message"].get<std::string>().find(e["hex"].get<std::string>()), std::string::npos);
}

// An exit's hex off its edge: the hex the message names; a list the message names no hex of:
// its first hex.
TEST(ScenarioCheck, AnExitsErrorIsItsHex) {
  json e = CheckChanged([](json& d) { d["exits"][0]["hexes"].push_back("9A:0520"); });
  EXPECT_EQ(e["path"], "/exits/0/hexes") << e.dump();
  EXPECT_EQ(e["hex"], "9A:0520") << e.dump();
  e = CheckChanged([](json& d) { d["exits"][0]["edge"] = "east"; });
  EXPECT_EQ(e["path"], "/exits/0/hexes") << e.dump();
  EXPECT_EQ(e["hex"], "9A:0104") << e.dump();
}

TEST(ScenarioCheck, NotJsonIsItsLineAndANewerVersionIsUnsupported) {
  ScenarioCheck c = CheckScenarioText("{\n\n\"opsim\": ,\n}", "scenario");
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.doc["error"]["line"], 3) << c.doc.dump();
  EXPECT_EQ(c.doc["error"]["path"], nullptr);
  c = CheckScenarioText(R"({"opsim": "scenario", "version": 99, "name": "x", "sheets": []})",
                        "scenario");
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->code, ErrorCode::kUnsupported);
  EXPECT_EQ(c.doc["error"]["code"], "unsupported");
  EXPECT_EQ(c.doc["error"]["path"], "/version") << c.doc.dump();
}

// The workshop's panels (/api/scenario/panels) from the sheets as the theater lists them, less
// their panel: what AnswerSheetPanels says of `theater`'s sheets, or the error.
Result<json> PanelsOfWindows(const json& theater) {
  json sheets = theater["sheets"];
  for (json& s : sheets) s.erase("panel");
  auto body = JsonSource::FromText(json{{"sheets", sheets}}.dump(1), "request body");
  if (!body) return std::unexpected(body.error());
  return AnswerSheetPanels(*body);
}
json PanelsOfTheater(const json& theater) {
  json panels = json::array();
  for (const json& s : theater["sheets"]) panels.push_back(s["panel"]);
  return panels;
}

// The panels from the sheets' windows alone are the theater's, on every bundled scenario (which
// join some sheets and keep others apart).
TEST(SheetPanels, TheWindowsGiveEachBundledTheatersPanels) {
  const auto bundled = map::ListScenarios(ScenarioDir());
  ASSERT_GE(bundled.size(), 2u);
  for (const map::BundledScenario& b : bundled) {
    const json theater = TheaterJson(test::Bundled(b.name).theater);
    auto a = PanelsOfWindows(theater);
    ASSERT_TRUE(a) << b.name << ": " << a.error().to_string();
    EXPECT_EQ((*a)["panels"], PanelsOfTheater(theater)) << b.name;
  }
  const json special = TheaterJson(test::Bundled("special-terrain").theater);
  const json panels = PanelsOfTheater(special);
  const std::set<json> distinct(panels.begin(), panels.end());
  EXPECT_GT(distinct.size(), 1u) << "special-terrain keeps sheets apart";
  EXPECT_LT(distinct.size(), panels.size()) << "special-terrain joins sheets";
}

// Sheets that do not touch, a column apart or a row apart, are each a panel of their own; one
// that touches a corner joins (no whole column or row between them). Numbered in sheet order.
TEST(SheetPanels, SheetsThatDoNotTouchAreApart) {
  constexpr char kApart[] = R"({
  "opsim": "scenario", "version": 1, "name": "apart",
  "sheets": [
    {"name": "1", "size": [10, 10], "origin": [0, 0], "first": [1, 1], "zone": "A",
     "terrain": ["ccc", "ccc"]},
    {"name": "2", "size": [10, 10], "origin": [20, 0], "first": [1, 1], "zone": "A",
     "terrain": ["ccc", "ccc"]},
    {"name": "3", "size": [10, 10], "origin": [0, 0], "first": [1, 4], "zone": "A",
     "terrain": ["ccc", "ccc"]},
    {"name": "4", "size": [10, 10], "origin": [2, 0], "first": [2, 6], "zone": "A",
     "terrain": ["ccc", "ccc"]},
    {"name": "5", "size": [10, 10], "origin": [20, 0], "first": [5, 1], "zone": "A",
     "terrain": ["ccc", "ccc"]}
  ]
})";
  auto sc = test::LoadText(kApart);
  ASSERT_TRUE(sc) << sc.error().to_string();
  const json theater = TheaterJson(sc->theater);
  // 1: columns 1-3, rows 1-2; 2: 21-23, 1-2; 3: 1-3, 4-5 (a row apart from 1); 4: 4-6, 6-7
  // (by 3's corner); 5: 25-27, 1-2 (a column apart from 2).
  EXPECT_EQ(PanelsOfTheater(theater), json({0, 1, 2, 2, 3}));
  auto a = PanelsOfWindows(theater);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ((*a)["panels"], PanelsOfTheater(theater));
}

// A body that is not sheets' windows is refused where it is wrong; no more sheets than a
// theater holds.
TEST(SheetPanels, ABadBodyIsLocated) {
  const auto error = [](const std::string& text) {
    auto body = JsonSource::FromText(text, "request body");
    if (!body) return body.error().where + ": " + body.error().message;
    auto a = AnswerSheetPanels(*body);
    return a ? std::string("answered ") + a->dump() : a.error().where + ": " + a.error().message;
  };
  const std::string one = R"({"name": "1", "origin": [0, 0], "first": [1, 1], "last": [3, 2]})";
  EXPECT_EQ(error(R"({"sheets": [)" + one + "]}"), R"(answered {"panels":[0]})");
  EXPECT_EQ(error(R"({"sheets": []})"),
            "request body:1: /sheets: a theater needs at least one sheet");
  EXPECT_EQ(error(R"({"sheet": []})"),
            "request body:1: /sheet: unknown key 'sheet' (expected one of: sheets)");
  EXPECT_EQ(error(R"({"sheets": [{"name": "1", "origin": [0, 0], "first": [1, 1]}]})"),
            "request body:1: /sheets/0: missing required key 'last'");
  EXPECT_EQ(error("{\"sheets\": [" + one + ",\n" +
                  R"({"name": "2", "origin": [0, -2], "first": [1, 1], "last": [3, 2]}]})"),
            "request body:2: /sheets/1/origin/1: expected an integer from 0 to 1000000, found -2");
  EXPECT_EQ(
      error(R"({"sheets": [{"name": "1", "origin": [0, 0], "first": [1, 3], "last": [3, 2]}]})"),
      "request body:1: /sheets/0/last: before \"first\": a window holds at least one column "
      "and row");
  std::string many = R"({"sheets": [)" + one;
  for (std::size_t i = 1; i < map::kMaxSheets; ++i) many += ", " + one;
  EXPECT_TRUE(error(many + "]}").starts_with("answered")) << "as many sheets as a theater holds";
  EXPECT_EQ(error(many + ", " + one + "]}"),
            "request body:1: /sheets: a theater may hold at most 250 sheets");
}

}  // namespace
}  // namespace opsim::query
