// The scenario loader: the bundled theater, and one test per kind of bad file. Every error
// names the file, the line and the JSON path, says what is wrong, and yields no theater.
#include <gtest/gtest.h>

#include "opsim/map/scenario.h"
#include "test_support.h"

namespace opsim::map {
namespace {

// A small valid theater; each bad-file test breaks one thing in it.
constexpr char kMini[] = R"({
  "opsim": "scenario",
  "version": 1,
  "name": "mini",
  "sheets": [
    {"name": "1", "size": [20, 20], "origin": [0, 0], "first": [1, 1], "zone": "A",
     "terrain": [
       "~~~~~",
       "~ccc~",
       "~ckc~",
       "~cc=c",
       "~~~~~"
     ],
     "coast": [
       ".....",
       ".sss.",
       ".s.s.",
       ".sl.l",
       "....."
     ]}
  ],
  "places": [
    {"hex": "1:0202", "name": "Port", "city": "dot", "port": "standard", "airbase": true}
  ],
  "hexsides": {
    "major-river": ["1:0303/0304"],
    "road": ["1:0202-0302-0402"]
  },
  "areas": [
    {"name": "Land", "role": "netherlands", "hexes": ["1:0202..0403"]}
  ],
  "state": {"control": {"allied": ["1:0202", "1:0302"]}}
})";

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "fixture lacks: " << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Loads a broken variant and returns its error; fails the test if it loads.
Error Broken(const std::string& text) {
  auto sc = test::LoadText(text, "bad.json");
  EXPECT_FALSE(sc) << "loaded a bad file";
  return sc ? Error{} : sc.error();
}

void ExpectError(const Error& e, const std::string& where, const std::string& what) {
  EXPECT_EQ(e.where, where) << e.to_string();
  EXPECT_NE(e.message.find(what), std::string::npos) << e.to_string();
}

TEST(Scenario, MiniLoads) {
  auto sc = test::LoadText(kMini);
  ASSERT_TRUE(sc) << sc.error().to_string();
  const Theater& t = sc->theater;
  EXPECT_EQ(t.name(), "mini");
  EXPECT_EQ(t.hex_count(), 25u);
  auto port = t.FindHex("1:0202");
  ASSERT_TRUE(port);
  EXPECT_EQ(t.hex(*port).coast, Coast::kPartialSea);
  EXPECT_EQ(t.hex(*port).port, PortSize::kStandard);
  EXPECT_EQ(t.PlaceName(*port), "Port");
  EXPECT_EQ(sc->state.owner(*port), Owner::kAllied);
  auto block = t.areas().at(0).hexes;
  EXPECT_EQ(block.size(), 6u);  // 0202..0403: three columns, two rows
  auto road = t.FindHexside("1:0302/0402");
  ASSERT_TRUE(road);
  EXPECT_TRUE(t.hexside(*road).Has(kRoad));
}

// 41.E.6 with 41.A.3: the Vuoksa lakes never freeze, nor do their shores: a `vuoksa` area takes
// in the partial-lake hexes beside its lake hexes (1:0304 and 1:0504 beside 1:0404), listed or
// not.
TEST(Scenario, Rule41E6_VuoksaAreaTakesInItsLakesShores) {
  const std::string text =
      Replace(kMini, "\"hexes\": [\"1:0202..0403\"]}",
              "\"hexes\": [\"1:0202..0403\"]},\n    {\"name\": \"V\", \"role\": \"vuoksa\", "
              "\"hexes\": [\"1:0404\"]}");
  auto sc = test::LoadText(text, "vuoksa.json");
  ASSERT_TRUE(sc) << sc.error().to_string();
  const Theater& t = sc->theater;
  std::vector<std::string> hexes;
  for (HexRef h : t.areas()[t.AreaWithRole(AreaRole::kVuoksa)].hexes) hexes.push_back(t.HexName(h));
  EXPECT_EQ(hexes, (std::vector<std::string>{"1:0304", "1:0404", "1:0504"}));
}

TEST(Scenario, BundledSpecialTerrainHoldsEveryRule41Locale) {
  const Theater& t = test::Bundled("special-terrain").theater;
  auto hex = [&](const char* token) {
    auto h = t.FindHex(token);
    EXPECT_TRUE(h) << token;
    return h ? *h : HexRef{};
  };
  // 41.A.4: the Netherlands' canal-intensive hexes.
  for (const char* h : {"16A:0623", "16A:0922", "16A:1122", "16A:0417"}) {
    EXPECT_EQ(t.hex(hex(h)).terrain, Terrain::kCanalIntensive) << h;
    EXPECT_TRUE(t.InRole(hex(h), AreaRole::kNetherlands)) << h;
  }
  // 41.A.1: the causeway is derived from the railroad across an all-sea hexside.
  auto causeway = t.FindHexside("16A:0827/0727");
  ASSERT_TRUE(causeway);
  EXPECT_TRUE(t.hexside(*causeway).Has(kCauseway));
  EXPECT_EQ(t.hexside(*causeway).water, HexsideWater::kAllSea);
  // 41.B: Port Said and Suez at the ends of the canal.
  EXPECT_EQ(t.PlaceName(hex("19A:3413")), "Port Said");
  EXPECT_EQ(t.PlaceName(hex("19A:3718")), "Suez");
  // 41.D: the inland ports and the limit hexside.
  EXPECT_EQ(t.PlaceName(hex("22A:4410")), "Abadan");
  EXPECT_EQ(t.PlaceName(hex("22A:4311")), "Khorramshahr");
  EXPECT_EQ(t.PlaceName(hex("22A:4313")), "Basra");
  EXPECT_EQ(t.PlaceName(hex("22A:3219")), "Kut-al-Imara");
  for (const char* p : {"22A:4410", "22A:4311", "22A:4313", "22A:3219"}) {
    EXPECT_TRUE(t.hex(hex(p)).inland_port) << p;
  }
  auto limit = t.FindHexside("22A:3219/3220");
  ASSERT_TRUE(limit);
  ASSERT_NE(t.WaterwayOf(*limit), nullptr);
  EXPECT_EQ(t.WaterwayOf(*limit)->rule, WaterwayRule::kShatt);
  EXPECT_TRUE(t.WaterwayOf(*limit)->navigable);
  // 41.C, 41.E.1, 41.E.3, 41.E.6: the rule hexsides.
  for (auto [side, rule] : {std::pair{"15B:0813/0814", WaterwayRule::kCorinth},
                            std::pair{"4A:3525/3526", WaterwayRule::kKerch},
                            std::pair{"2A:0832/0933", WaterwayRule::kKronshtadt},
                            std::pair{"35:4317/4316", WaterwayRule::kVuoksa}}) {
    auto s = t.FindHexside(side);
    ASSERT_TRUE(s) << side;
    ASSERT_NE(t.WaterwayOf(*s), nullptr) << side;
    EXPECT_EQ(t.WaterwayOf(*s)->rule, rule) << side;
  }
  EXPECT_EQ(t.PlaceName(hex("2A:0832")), "Kronshtadt");
  EXPECT_EQ(t.PlaceName(hex("2A:0933")), "Leningrad");
  // 41.E.4: the Sivash line, from 4A:2929 through 4A:3240.
  const int sivash = t.AreaWithRole(AreaRole::kSivash);
  ASSERT_GE(sivash, 0);
  EXPECT_TRUE(t.InArea(hex("4A:2929"), sivash));
  EXPECT_TRUE(t.InArea(hex("4A:3240"), sivash));
  EXPECT_EQ(t.areas()[sivash].hexes.size(), 14u);
  // 41.E.1, 41.E.2, 41.E.5, 41.F areas and edges.
  for (AreaRole role :
       {AreaRole::kKerchStraits, AreaRole::kSeaOfAzov, AreaRole::kBalticIslands, AreaRole::kEstonia,
        AreaRole::kGreaterGermany, AreaRole::kIran, AreaRole::kEgyptianDelta, AreaRole::kVuoksa}) {
    EXPECT_GE(t.AreaWithRole(role), 0) << AreaRoleName(role);
  }
  // 41.E.6: the two Vuoksa lakes and every partial-lake hex on their shores.
  for (const char* h : {"35:4420", "35:4419", "35:4521", "35:4623", "35:4622", "35:4724"}) {
    EXPECT_TRUE(t.InRole(hex(h), AreaRole::kVuoksa)) << h;
  }
  EXPECT_EQ(t.areas()[t.AreaWithRole(AreaRole::kVuoksa)].hexes.size(), 14u);
  EXPECT_EQ(t.rail_ferries().size(), 1u);
  EXPECT_EQ(t.exits().size(), 3u);
}

TEST(ScenarioErrors, NotJsonNamesLineAndColumn) {
  const Error e = Broken(Replace(kMini, "\"name\": \"mini\",", "\"name\": \"mini\",,"));
  EXPECT_EQ(e.where, "bad.json:4:18");
  EXPECT_NE(e.message.find("not valid JSON"), std::string::npos) << e.message;
}

TEST(ScenarioErrors, WrongKindOfFile) {
  ExpectError(Broken(Replace(kMini, "\"opsim\": \"scenario\"", "\"opsim\": \"orders\"")),
              "bad.json:2: /opsim", "not a scenario");
}

TEST(ScenarioErrors, NewerFormatIsRefusedAsUnsupported) {
  const Error e = Broken(Replace(kMini, "\"version\": 1", "\"version\": 2"));
  EXPECT_EQ(e.code, ErrorCode::kUnsupported);
  ExpectError(e, "bad.json:3: /version", "newer than this opsim");
}

TEST(ScenarioErrors, UnknownTopLevelKey) {
  ExpectError(Broken(Replace(kMini, "\"name\": \"mini\",", "\"name\": \"mini\", \"nmae\": 1,")),
              "bad.json:4: /nmae", "unknown key 'nmae'");
}

TEST(ScenarioErrors, MissingName) {
  ExpectError(Broken(Replace(kMini, "\"name\": \"mini\",", "")), "bad.json:1: /",
              "missing required key 'name'");
}

TEST(ScenarioErrors, UnknownTerrainCodeNamesRowAndColumn) {
  ExpectError(Broken(Replace(kMini, "\"~ckc~\"", "\"~cqc~\"")), "bad.json:10: /sheets/0/terrain/2",
              "column 3: unknown terrain code 'q'");
}

TEST(ScenarioErrors, RaggedRows) {
  ExpectError(Broken(Replace(kMini, "\"~ckc~\"", "\"~ckc~c\"")), "bad.json:10: /sheets/0/terrain/2",
              "row has 6 hexes; the first row has 5");
}

TEST(ScenarioErrors, CoastOnAnAllSeaHex) {
  ExpectError(Broken(Replace(kMini, "\".sss.\"", "\"ssss.\"")), "bad.json:16: /sheets/0/coast/1",
              "an all-sea or lake hex has no coast");
}

TEST(ScenarioErrors, OddSheetOrigin) {
  ExpectError(Broken(Replace(kMini, "\"origin\": [0, 0]", "\"origin\": [1, 0]")),
              "bad.json:6: /sheets/0/origin", "must be even");
}

TEST(ScenarioErrors, GridOffTheSheet) {
  ExpectError(Broken(Replace(kMini, "\"first\": [1, 1]", "\"first\": [18, 1]")),
              "bad.json:7: /sheets/0/terrain", "does not fit on the sheet");
}

TEST(ScenarioErrors, OverlappingSheets) {
  const std::string text = Replace(
      kMini, "     ]}\n  ],",
      "     ]},\n    {\"name\": \"2\", \"size\": [20, 20], \"origin\": [2, 2], \"first\": [1, 1], "
      "\"zone\": \"A\", \"terrain\": [\"c\"]}\n  ],");
  ExpectError(Broken(text), "bad.json:21: /sheets/1/origin", "overlaps sheet 1");
}

TEST(ScenarioErrors, PlaceOnAnUnknownHex) {
  ExpectError(Broken(Replace(kMini, "\"hex\": \"1:0202\"", "\"hex\": \"1:0909\"")),
              "bad.json:23: /places/0/hex", "not on the theater");
}

TEST(ScenarioErrors, PortWithoutACoast) {
  ExpectError(Broken(Replace(kMini, "\"hex\": \"1:0202\", \"name\": \"Port\"",
                             "\"hex\": \"1:0303\", "
                             "\"name\": \"Port\"")),
              "bad.json:23: /places/0/port", "has no sea coast");
}

TEST(ScenarioErrors, CityAtSea) {
  ExpectError(Broken(Replace(kMini, "\"hex\": \"1:0202\", \"name\": \"Port\"",
                             "\"hex\": \"1:0101\", "
                             "\"name\": \"Port\"")),
              "bad.json:23: /places/0/city", "a city needs land");
}

TEST(ScenarioErrors, HexsideBetweenHexesThatDoNotTouch) {
  ExpectError(Broken(Replace(kMini, "\"1:0303/0304\"", "\"1:0303/0305\"")),
              "bad.json:26: /hexsides/major-river/0", "not adjacent");
}

TEST(ScenarioErrors, UnknownHexsideKind) {
  ExpectError(Broken(Replace(kMini, "\"major-river\":", "\"big-river\":")),
              "bad.json:26: /hexsides/big-river", "unknown hexside kind 'big-river'");
}

TEST(ScenarioErrors, CausewaysAreDerivedNotListed) {
  ExpectError(Broken(Replace(kMini, "\"major-river\":", "\"causeway\":")),
              "bad.json:26: /hexsides/causeway", "41.A.1");
}

TEST(ScenarioErrors, RoadIntoTheSea) {
  ExpectError(Broken(Replace(kMini, "\"1:0202-0302-0402\"", "\"1:0202-0201\"")),
              "bad.json:27: /hexsides/road/0", "runs into an all-sea or lake hex");
}

TEST(ScenarioErrors, AllSeaHexsideBetweenLandHexes) {
  ExpectError(Broken(Replace(kMini, "\"road\":", "\"all-sea\": [\"1:0303/0304\"], \"road\":")),
              "bad.json:27: /hexsides/all-sea/0", "both of its hexes must hold that water");
}

TEST(ScenarioErrors, WaterAreaTouchingDryHexside) {
  const std::string text =
      Replace(kMini, "  \"areas\"",
              "  \"water-areas\": [{\"hex\": \"1:0202\", \"areas\": [{\"name\": \"a\", \"sides\": "
              "[\"SE\"]}]}],\n  \"areas\"");
  ExpectError(Broken(text), "bad.json:29: /water-areas/0", "which holds no sea");
}

TEST(ScenarioErrors, SplitByMustBeACauseway) {
  const std::string text =
      Replace(kMini, "  \"areas\"",
              "  \"water-areas\": [{\"hex\": \"1:0202\", \"split-by\": \"1:0202/0201\", "
              "\"areas\": [{\"name\": \"a\", \"sides\": [\"N\", \"NW\", \"SW\", \"NE\"]}]}],\n"
              "  \"areas\"");
  ExpectError(Broken(text), "bad.json:29: /water-areas/0", "is not a causeway");
}

TEST(ScenarioErrors, UnknownWaterwayRule) {
  const std::string text = Replace(
      kMini, "  \"areas\"",
      "  \"waterways\": [{\"name\": \"W\", \"rule\": \"41.Z\", \"hexsides\": [\"1:0303/0304\"]}],\n"
      "  \"areas\"");
  ExpectError(Broken(text), "bad.json:29: /waterways/0/rule", "no waterway rule '41.Z'");
}

TEST(ScenarioErrors, BrokenNavigableWaterway) {
  const std::string text =
      Replace(kMini, "  \"areas\"",
              "  \"waterways\": [{\"name\": \"W\", \"navigable\": true, \"hexsides\": "
              "[\"1:0303/0304\", \"1:0202/0302\"]}],\n  \"areas\"");
  ExpectError(Broken(text), "bad.json:29: /waterways/0", "is broken");
}

TEST(ScenarioErrors, RailFerryTerminalAtSea) {
  const std::string text =
      Replace(kMini, "  \"areas\"",
              "  \"rail-ferries\": [{\"name\": \"F\", \"line\": \"1:0202-0201\"}],\n  \"areas\"");
  ExpectError(Broken(text), "bad.json:29: /rail-ferries/0/line", "must be a land hex (41.A.2)");
}

TEST(ScenarioErrors, AreaRoleTwice) {
  const std::string text =
      Replace(kMini, "\"hexes\": [\"1:0202..0403\"]}",
              "\"hexes\": [\"1:0202..0403\"]},\n    {\"name\": \"Again\", \"role\": "
              "\"netherlands\", \"hexes\": [\"1:0303\"]}");
  ExpectError(Broken(text), "bad.json:31: /areas/1", "a second area with role 'netherlands'");
}

TEST(ScenarioErrors, BlockRunningBackwards) {
  ExpectError(Broken(Replace(kMini, "\"1:0202..0403\"", "\"1:0403..0202\"")),
              "bad.json:30: /areas/0/hexes/0", "must run from its north-west hex");
}

TEST(ScenarioErrors, ExitHexNotOnTheEdge) {
  const std::string text =
      Replace(kMini, "  \"state\"",
              "  \"exits\": [{\"side\": \"allied\", \"edge\": \"west\", \"total\": \"t\", "
              "\"hexes\": [\"1:0303\"]}],\n  \"state\"");
  ExpectError(Broken(text), "bad.json:32: /exits/0/hexes", "is not on the west edge");
}

TEST(ScenarioErrors, HexGivenToBothSides) {
  ExpectError(Broken(Replace(kMini, "{\"allied\": [\"1:0202\", \"1:0302\"]}",
                             "{\"allied\": [\"1:0202\"], \"axis\": [\"1:0202\"]}")),
              "bad.json:32: /state/control/allied", "given to both sides");
}

TEST(ScenarioErrors, UnknownSuezStatus) {
  ExpectError(Broken(Replace(kMini, "\"state\": {", "\"state\": {\"suez\": \"shut\", ")),
              "bad.json:32: /state/suez", "(41.B)");
}

TEST(ScenarioErrors, MissingFile) {
  auto sc = LoadScenarioFile("/nonexistent/opsim/scenario.json");
  ASSERT_FALSE(sc);
  EXPECT_EQ(sc.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(sc.error().where, "/nonexistent/opsim/scenario.json");
}

TEST(JsonSourceTest, WhereFindsNestedValues) {
  auto src = JsonSource::FromText(kMini, "m.json");
  ASSERT_TRUE(src);
  EXPECT_EQ(src->Where(JsonSource::Pointer("/sheets/0/terrain/4")),
            "m.json:12: /sheets/0/terrain/4");
  EXPECT_EQ(src->Where(JsonSource::Pointer("/hexsides/road/0")), "m.json:27: /hexsides/road/0");
  EXPECT_EQ(src->Where(JsonSource::Pointer("/state/control/allied/1")),
            "m.json:32: /state/control/allied/1");
}

// Where() resumes its scan from the last answer; any order of questions gets the answers a
// fresh source gives, for every value of a file.
TEST(JsonSourceTest, WhereAnswersAlikeInAnyOrder) {
  const std::string text = R"({"a": [1,
  2, [3,
    4], {"k": "v",
    "m": [5,
      6]}],
  "b": {"x": 1,
    "y": [7, 8,
      9]}, "c": "z"})";
  std::vector<JsonSource::Pointer> all;
  const auto flat = nlohmann::json::parse(text).flatten();
  for (const auto& [path, value] : flat.items()) {
    for (JsonSource::Pointer p(path); !p.empty(); p = p.parent_pointer()) all.push_back(p);
  }
  all.push_back(JsonSource::Pointer("/a/9"));   // no such element: the array's end
  all.push_back(JsonSource::Pointer("/b/no"));  // no such member: the object's end
  auto walked = JsonSource::FromText(text, "t.json");
  ASSERT_TRUE(walked);
  for (int round = 0; round < 2; ++round) {
    for (const auto& p : all) {
      auto fresh = JsonSource::FromText(text, "t.json");
      ASSERT_TRUE(fresh);
      EXPECT_EQ(walked->Where(p), fresh->Where(p));
    }
    std::reverse(all.begin(), all.end());
  }
  EXPECT_EQ(walked->Where(JsonSource::Pointer("/a/3/m/1")), "t.json:5: /a/3/m/1");
  EXPECT_EQ(walked->Where(JsonSource::Pointer("/a/2/1")), "t.json:3: /a/2/1");
  EXPECT_EQ(walked->Where(JsonSource::Pointer("/b/y/2")), "t.json:8: /b/y/2");
  EXPECT_EQ(walked->Where(JsonSource::Pointer("/c")), "t.json:8: /c");
}

TEST(BundledScenarios, ListedAndResolvedByName) {
  const auto list = ListScenarios(OPSIM_SCENARIO_DIR);
  auto it = std::find_if(list.begin(), list.end(),
                         [](const BundledScenario& s) { return s.name == "special-terrain"; });
  ASSERT_NE(it, list.end());
  auto path = ResolveScenario("special-terrain", OPSIM_SCENARIO_DIR);
  ASSERT_TRUE(path);
  EXPECT_EQ(*path, it->path);
  auto missing = ResolveScenario("no-such-scenario", OPSIM_SCENARIO_DIR);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("special-terrain"), std::string::npos);
}

}  // namespace
}  // namespace opsim::map
