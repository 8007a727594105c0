// What a map shows (view.h, docs/views.md): the theater and a position, as `opsim theater` and
// `opsim position` print them and the game server sends them to a browser.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "opsim/core/json_source.h"
#include "opsim/db/game_log.h"
#include "opsim/query/log.h"
#include "opsim/query/play.h"
#include "opsim/query/supply.h"
#include "opsim/query/view.h"
#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;

json Position(const query::LoadedGame& g, query::PositionOptions o = {}) {
  auto j = query::PositionJson(g, o);
  EXPECT_TRUE(j.has_value()) << (j ? "" : j.error().to_string());
  return j ? *j : json();
}

const json* Unit(const json& position, const std::string& id) {
  for (const json& u : position["units"]) {
    if (u["id"] == id) return &u;
  }
  return nullptr;
}

TEST(TheaterView, EveryHexOnceAtItsPlaceOnTheGlobalGrid) {
  const query::LoadedGame g = test::LoadBundledGame();
  const map::Theater& t = *g.theater;
  const json j = query::TheaterJson(t);
  ASSERT_EQ(j["hexes"].size(), t.hex_count());
  std::set<std::string> names;
  for (std::uint32_t v = 0; v < t.hex_count(); ++v) {
    const json& h = j["hexes"][v];
    EXPECT_TRUE(names.insert(h["hex"].get<std::string>()).second) << h["hex"];
    EXPECT_EQ(h["hex"], t.HexName(map::HexRef{v}));
    const map::GridPos p = t.Pos(map::HexRef{v});
    EXPECT_EQ(h["col"], p.col);
    EXPECT_EQ(h["row"], p.row);
  }
  EXPECT_EQ(j["sheets"].size(), t.sheets().size());
  EXPECT_EQ(j, test::CliJson({"theater", "--scenario", "special-terrain"}));
}

// The compact form holds what the JSON form does, column by column: a hex's name follows from
// its sheet, column and row (docs/views.md), each code is its word's index in "names", and
// everything else is the JSON form's.
TEST(TheaterView, TheCompactFormHoldsTheSameTheater) {
  const query::LoadedGame g = test::LoadBundledGame();
  const json full = query::TheaterJson(*g.theater), c = query::TheaterCompactJson(*g.theater);
  EXPECT_EQ(c["form"], "compact");
  for (const char* key : {"opsim", "name", "title", "sheets", "bounds", "zones", "waterways",
                          "rail_ferries", "areas", "exits"}) {
    EXPECT_EQ(c[key], full[key]) << key;
  }
  const json &h = c["hexes"], &names = c["names"];
  ASSERT_EQ(h["count"], full["hexes"].size());
  for (const char* column :
       {"sheet", "col", "row", "terrain", "zone", "coast", "city", "port", "flags"}) {
    EXPECT_EQ(h[column].size(), full["hexes"].size()) << column;
  }
  std::map<std::size_t, std::string> places;
  for (const json& p : h["places"]) places[p[0]] = p[1];
  const auto two = [](int n) { return std::string{char('0' + n / 10 % 10), char('0' + n % 10)}; };
  const auto word = [](const json& h, const char* key) {  // the JSON form's, absent as "none"
    return h.contains(key) ? h[key].get<std::string>() : std::string("none");
  };
  std::vector<std::string> hex_names;
  for (std::size_t i = 0; i < full["hexes"].size(); ++i) {
    const json& want = full["hexes"][i];
    const json& sheet = c["sheets"][h["sheet"][i].get<std::size_t>()];
    const int col = h["col"][i], row = h["row"][i];
    hex_names.push_back(sheet["name"].get<std::string>() + ":" +
                        two(col - sheet["origin"][0].get<int>()) +
                        two(row - sheet["origin"][1].get<int>()));
    EXPECT_EQ(hex_names.back(), want["hex"].get<std::string>());
    EXPECT_EQ(col, want["col"]);
    EXPECT_EQ(row, want["row"]);
    EXPECT_EQ(names["terrain"][h["terrain"][i].get<std::size_t>()], want["terrain"]);
    EXPECT_EQ(h["zone"][i], want["zone"]);
    EXPECT_EQ(names["coast"][h["coast"][i].get<std::size_t>()], word(want, "coast"));
    EXPECT_EQ(names["city"][h["city"][i].get<std::size_t>()], word(want, "city"));
    EXPECT_EQ(names["port"][h["port"][i].get<std::size_t>()], word(want, "port"));
    EXPECT_EQ((h["flags"][i].get<int>() & 1) != 0, want.value("inland", false));
    EXPECT_EQ((h["flags"][i].get<int>() & 2) != 0, want.value("airbase", false));
    EXPECT_EQ(places.contains(i) ? places[i] : "", want.value("place", "")) << want["hex"];
  }
  EXPECT_FALSE(places.empty());
  const json& s = c["hexsides"];
  ASSERT_EQ(s["count"], full["hexsides"].size());
  bool features = false, waterways = false;
  for (std::size_t i = 0; i < full["hexsides"].size(); ++i) {
    const json& want = full["hexsides"][i];
    const std::size_t a = s["a"][i], b = s["b"][i];
    EXPECT_EQ(a, want["a"]);
    EXPECT_EQ(b, want["b"]);
    EXPECT_EQ(s["dir"][i], want["dir"]);
    // Its name: its hexes' names, the second without its sheet when both are on one sheet.
    const std::string sheet_a = hex_names[a].substr(0, hex_names[a].find(':') + 1);
    EXPECT_EQ(hex_names[a] + "/" +
                  (hex_names[b].starts_with(sheet_a) ? hex_names[b].substr(sheet_a.size())
                                                     : hex_names[b]),
              want["hexside"].get<std::string>());
    EXPECT_EQ(names["water"][s["water"][i].get<std::size_t>()], word(want, "water"));
    json listed = json::array();
    for (std::size_t bit = 0; bit < names["features"].size(); ++bit) {
      if (s["features"][i].get<unsigned>() & (1u << bit)) listed.push_back(names["features"][bit]);
    }
    EXPECT_EQ(listed, want.value("features", json::array()));
    EXPECT_EQ(s["waterway"][i], want.value("waterway", -1));
    features = features || !listed.empty();
    waterways = waterways || want.contains("waterway");
  }
  EXPECT_TRUE(features && waterways) << "the bundled theater shows both";
  EXPECT_EQ(c, test::CliJson({"theater", "--scenario", "special-terrain", "--compact"}));
  EXPECT_LT(c.dump().size() * 2, full.dump().size()) << "not compact";
}

// Each sheet's panel is the one `opsim render` draws it in (the SVG titles each panel with its
// sheets, joined by " + "), and the two hexes of every hexside are in one panel.
TEST(TheaterView, SheetsInThePanelsRenderDrawsThem) {
  const query::LoadedGame g = test::LoadBundledGame();
  const json j = query::TheaterJson(*g.theater);
  std::vector<std::string> titles;
  for (const json& s : j["sheets"]) {
    const std::size_t panel = s["panel"];
    ASSERT_LE(panel, titles.size()) << "panels are numbered in sheet order";
    if (panel == titles.size()) titles.emplace_back("sheet ");
    titles[panel] += (titles[panel].size() > 6 ? " + " : "") + s["name"].get<std::string>();
  }
  EXPECT_LT(titles.size(), j["sheets"].size()) << "no two sheets joined";
  const test::TempDir dir;
  ASSERT_EQ(
      test::RunCli({"render", "--scenario", "special-terrain", "--out", dir.Path("m.svg")}).code,
      0);
  const std::string svg = test::ReadFile(dir.Path("m.svg"));
  for (const std::string& title : titles) {
    EXPECT_NE(svg.find(">" + title + "</text>"), std::string::npos) << title;
  }
  std::map<std::string, json> panel;  // by sheet name
  for (const json& s : j["sheets"]) panel[s["name"]] = s["panel"];
  const auto panel_of = [&](const json& side, const char* end) {
    const std::string hex = j["hexes"][side[end].get<std::size_t>()]["hex"];
    return panel[hex.substr(0, hex.find(':'))];
  };
  for (const json& s : j["hexsides"]) EXPECT_EQ(panel_of(s, "a"), panel_of(s, "b")) << s["hexside"];
}

// Render puts each hex where the doc's centre formula puts its global column and row, less its
// panel's offset: within a panel, two hexes are as far apart in the SVG as on the global grid.
TEST(TheaterView, EveryHexWhereRenderDrawsIt) {
  const query::LoadedGame g = test::LoadBundledGame();
  const json j = query::TheaterJson(*g.theater);
  const test::TempDir dir;
  ASSERT_EQ(
      test::RunCli({"render", "--scenario", "special-terrain", "--out", dir.Path("m.svg")}).code,
      0);
  // The hex numbers, one per hex in the theater's order.
  const std::string svg = test::ReadFile(dir.Path("m.svg"));
  // Each is <text x="X" y="Y" fill="#555555">NNNN</text> (the palette's hex-number colour). (Read
  // by hand: std::regex trips gcc 12's -Wmaybe-uninitialized in the sanitizer build.)
  std::vector<std::pair<double, double>> drawn;
  const std::string open = "<text x=\"", tail = "\" fill=\"#555555\">";
  for (std::size_t at = svg.find(open); at != std::string::npos; at = svg.find(open, at + 1)) {
    const std::size_t x = at + open.size(), y = svg.find("\" y=\"", x);
    const std::size_t end = y == std::string::npos ? y : svg.find('"', y + 5);
    if (end == std::string::npos || svg.find('"', x) != y ||
        svg.compare(end, tail.size(), tail) != 0) {
      continue;
    }
    const std::string number = svg.substr(end + tail.size(), 4);
    if (number.size() != 4 ||
        !std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        svg.compare(end + tail.size() + 4, 7, "</text>") != 0) {
      continue;
    }
    drawn.emplace_back(std::stod(svg.substr(x, y - x)), std::stod(svg.substr(y + 5, end - y - 5)));
  }
  ASSERT_EQ(drawn.size(), j["hexes"].size());
  const auto centre = [](const json& h) {
    const int col = h["col"], row = h["row"];
    return std::pair{1.5 * col, std::sqrt(3.0) * row + ((col & 1) == 0 ? std::sqrt(3.0) / 2 : 0)};
  };
  constexpr double kRadius = 14;             // render's hex radius
  std::map<std::string, std::size_t> first;  // by panel: its first hex
  std::map<std::string, json> panel;         // by sheet name
  for (const json& s : j["sheets"]) panel[s["name"]] = s["panel"];
  for (std::size_t v = 0; v < drawn.size(); ++v) {
    const std::string hex = j["hexes"][v]["hex"];
    const std::size_t f =
        first.emplace(panel[hex.substr(0, hex.find(':'))].dump(), v).first->second;
    const auto [cx, cy] = centre(j["hexes"][v]);
    const auto [fx, fy] = centre(j["hexes"][f]);
    EXPECT_NEAR(drawn[v].first - drawn[f].first, (cx - fx) * kRadius, 0.1) << hex;
    EXPECT_NEAR(drawn[v].second - drawn[f].second, (cy - fy) * kRadius, 0.1) << hex;
  }
}

TEST(TheaterView, BoundsHoldEveryHex) {
  const query::LoadedGame g = test::LoadBundledGame();
  const json j = query::TheaterJson(*g.theater);
  int min_col = 1 << 30, min_row = 1 << 30, max_col = -1, max_row = -1;
  for (const json& h : j["hexes"]) {
    min_col = std::min(min_col, h["col"].get<int>());
    min_row = std::min(min_row, h["row"].get<int>());
    max_col = std::max(max_col, h["col"].get<int>());
    max_row = std::max(max_row, h["row"].get<int>());
  }
  EXPECT_EQ(j["bounds"]["min"], json::array({min_col, min_row}));
  EXPECT_EQ(j["bounds"]["max"], json::array({max_col, max_row}));
}

// Sheets are joined where they join: the two hexes of every hexside, on two sheets or one, are
// neighbours on the global grid in the hexside's direction.
TEST(TheaterView, HexsidesJoinNeighboursAcrossSheets) {
  const query::LoadedGame g = test::LoadBundledGame();
  const json j = query::TheaterJson(*g.theater);
  int across_sheets = 0;
  for (const json& s : j["hexsides"]) {
    const json& a = j["hexes"][s["a"].get<std::size_t>()];
    const json& b = j["hexes"][s["b"].get<std::size_t>()];
    const map::GridPos next =
        map::Neighbor(map::GridPos{a["col"], a["row"]}, static_cast<map::Dir>(s["dir"].get<int>()));
    EXPECT_EQ(next.col, b["col"]) << s["hexside"];
    EXPECT_EQ(next.row, b["row"]) << s["hexside"];
    const std::string an = a["hex"], bn = b["hex"];
    if (an.substr(0, an.find(':')) != bn.substr(0, bn.find(':'))) ++across_sheets;
  }
  EXPECT_GT(across_sheets, 0) << "no hexside with features joins two sheets";
}

TEST(TheaterView, HexsidesCarryTheirFeaturesAndWaterways) {
  const query::LoadedGame g = test::LoadBundledGame();
  const json j = query::TheaterJson(*g.theater);
  bool causeway = false, suez = false;
  for (const json& s : j["hexsides"]) {
    if (s["hexside"] == "16A:0727/0827") {
      causeway = s["features"].dump().find("causeway") != std::string::npos;  // 41.A.1
    }
    if (s.contains("waterway") && j["waterways"][s["waterway"].get<int>()]["rule"] == "41.B") {
      suez = true;
    }
  }
  EXPECT_TRUE(causeway) << "the Sloedam";
  EXPECT_TRUE(suez) << "the Suez Canal's hexsides";
}

// The map-edge exits (41.F), with their hexes by index.
TEST(TheaterView, ExitsNameTheirEdgeSideAndHexes) {
  const query::LoadedGame g = test::LoadBundledGame();
  const map::Theater& t = *g.theater;
  const json j = query::TheaterJson(t);
  ASSERT_EQ(j["exits"].size(), t.exits().size());
  ASSERT_FALSE(t.exits().empty());
  const json& e = j["exits"][0];
  EXPECT_EQ(e["name"], "west edge in Greater Germany");
  EXPECT_EQ(e["side"], "allied");
  EXPECT_EQ(e["edge"], "west");
  EXPECT_EQ(e["total"], "greater-germany");
  ASSERT_EQ(e["hexes"].size(), 13u);  // 9A:0104..0116
  EXPECT_EQ(j["hexes"][e["hexes"][0].get<std::size_t>()]["hex"], "9A:0104");
}

TEST(PositionView, EveryKindOfUnitWithWhatItsCounterSays) {
  const query::LoadedGame g = test::LoadBundledGame();
  const json p = Position(g);
  const json* ground = Unit(p, "de-9pz");
  ASSERT_NE(ground, nullptr);
  EXPECT_EQ((*ground)["kind"], "ground");
  EXPECT_EQ((*ground)["side"], "axis");
  EXPECT_EQ((*ground)["hex"], "16A:1323");
  const ops::GroundUnit* u = g.state->FindUnit("de-9pz");
  EXPECT_EQ((*ground)["strength"], query::CounterText(*u));
  EXPECT_EQ((*ground)["attack"], u->attack);
  const json* air = Unit(p, "de-kg2");
  ASSERT_NE(air, nullptr);
  EXPECT_EQ((*air)["kind"], "air");
  EXPECT_EQ((*air)["hex"], "16A:1321");
  const json* naval = Unit(p, "uk-med");
  ASSERT_NE(naval, nullptr);
  EXPECT_EQ((*naval)["kind"], "naval");
  EXPECT_EQ((*naval)["naval_kind"], "tf");
  EXPECT_EQ((*naval)["hex"], "19A:2612");
  EXPECT_EQ(p["units"].size(), g.state->units.size() + g.state->air.size() + g.state->naval.size());
  EXPECT_EQ(p["next"]["phasing"], "axis");
}

TEST(PositionView, OwnershipAndTheMapStateAsTheGameHasThem) {
  const query::LoadedGame g =
      test::LoadBundledGame({"flood:16A:1122=partial", "bridge:16A:0727/0827=destroyed",
                             "suez=temporarily-closed", "owner:16A:0827=axis"});
  const json p = Position(g);
  std::size_t axis = 0, allied = 0;
  for (std::uint32_t v = 0; v < g.theater->hex_count(); ++v) {
    axis += g.map.owner(map::HexRef{v}) == Owner::kAxis;
    allied += g.map.owner(map::HexRef{v}) == Owner::kAllied;
  }
  EXPECT_EQ(p["owner"]["axis"].size(), axis);
  EXPECT_EQ(p["owner"]["allied"].size(), allied);
  EXPECT_NE(p["owner"]["axis"].dump().find("\"16A:0827\""), std::string::npos);
  ASSERT_EQ(p["floods"].size(), 1u);
  EXPECT_EQ(p["floods"][0]["hex"], "16A:1122");
  EXPECT_EQ(p["floods"][0]["kind"], "partial");
  EXPECT_EQ(p["destroyed_bridges"], json::array({"16A:0727/0827"}));
  EXPECT_EQ(p["suez"], "temporarily-closed");
}

// A flood says what it makes its hex count as now, as `opsim map --hex` says it (41.A.4).
TEST(PositionView, AFloodSaysWhatItsHexCountsAsAsTheHexPanelDoes) {
  const std::vector<std::string> set = {"flood:16A:1122=partial", "flood:16A:1222=massive"};
  const json p = Position(test::LoadBundledGame(set));
  ASSERT_EQ(p["floods"].size(), 2u);
  for (const json& f : p["floods"]) {
    std::vector<std::string> args = {"map", "--scenario", "special-terrain", "--hex", f["hex"]};
    for (const std::string& s : set) args.insert(args.end(), {"--set", s});
    const json hex = test::CliJson(args);
    EXPECT_EQ(f["counts_as"], hex["flood"]["counts_as"]) << f["hex"];
    EXPECT_EQ(f["rule"], hex["flood"]["rule"]) << f["hex"];
  }
  EXPECT_EQ(p["floods"][1]["hex"], "16A:1222");
  EXPECT_EQ(p["floods"][1]["counts_as"], "prohibited");  // 41.A.4.b, in its own player-turn
}

TEST(PositionView, SupplyAndZonesOfControlOnDemandAsTheQueriesAnswer) {
  const query::LoadedGame g = test::LoadBundledGame();
  EXPECT_FALSE(Position(g).contains("supply"));
  query::PositionOptions o;
  o.supply = {Side::kAllied};
  o.zoc = {Side::kAxis};
  const json p = Position(g, o);
  auto supply = query::AnswerSupplyAll(g, Side::kAllied);
  ASSERT_TRUE(supply.has_value());
  EXPECT_EQ(p["supply"]["allied"], query::ToJson(*g.theater, *supply));
  ASSERT_FALSE(p["zoc"]["axis"].empty());
  // The axis zones cover the hexes around its units (B4.8).
  EXPECT_NE(p["zoc"]["axis"].dump().find("\"16A:1322\""), std::string::npos);
  EXPECT_EQ(p, test::CliJson({"position", "--scenario", "special-terrain", "--supply", "allied",
                              "--zoc", "axis"}));
}

// The compact form holds what the JSON form does: the owners' characters name the hexes the
// JSON form lists, a unit's hex and the zones' hexes are indices to the same names, and
// everything else is the JSON form's.
TEST(PositionView, TheCompactFormHoldsTheSamePosition) {
  const std::vector<std::string> set = {"flood:16A:1122=partial", "bridge:16A:0727/0827=destroyed",
                                        "owner:16A:0827=axis", "owner:16A:1323=allied"};
  const query::LoadedGame g = test::LoadBundledGame(set);
  query::PositionOptions o;
  o.supply = {Side::kAllied};
  o.zoc = {Side::kAxis, Side::kAllied};
  const json full = Position(g, o);
  auto made = query::PositionCompactJson(g, o);
  ASSERT_TRUE(made.has_value()) << made.error().to_string();
  const json& c = *made;
  EXPECT_EQ(c["form"], "compact");
  EXPECT_FALSE(full.contains("form"));
  const map::Theater& t = *g.theater;
  const auto name = [&t](const json& index) {
    return t.HexName(map::HexRef{index.get<std::uint32_t>()});
  };
  // Everything but the owners, the units' hexes and the zones is the JSON form's.
  for (const auto& [key, value] : full.items()) {
    if (key != "owner" && key != "units" && key != "zoc") {
      EXPECT_EQ(c[key], value) << key;
    }
  }
  EXPECT_EQ(c.size(), full.size() + 1);  // and "form"
  // The owners: one character a hex, in the theater's order.
  const std::string owner = c["owner"];
  ASSERT_EQ(owner.size(), t.hex_count());
  json lists = {{"axis", json::array()}, {"allied", json::array()}};
  for (std::uint32_t v = 0; v < owner.size(); ++v) {
    ASSERT_TRUE(owner[v] == '0' || owner[v] == '1' || owner[v] == '2') << v;
    if (owner[v] != '0')
      lists[owner[v] == '1' ? "axis" : "allied"].push_back(t.HexName(map::HexRef{v}));
  }
  EXPECT_EQ(lists, full["owner"]);
  EXPECT_FALSE(full["owner"]["axis"].empty());
  EXPECT_FALSE(full["owner"]["allied"].empty());
  // The units: the same, each hex an index (or null off the map).
  ASSERT_EQ(c["units"].size(), full["units"].size());
  std::size_t on_map = 0;
  for (std::size_t i = 0; i < full["units"].size(); ++i) {
    json unit = c["units"][i];
    const json& want = full["units"][i];
    if (!unit["hex"].is_null()) {
      ASSERT_TRUE(unit["hex"].is_number_unsigned()) << unit;
      unit["hex"] = name(unit["hex"]);
      ++on_map;
    }
    EXPECT_EQ(unit, want);
  }
  EXPECT_GT(on_map, 0u);
  // The zones of control: indices to the same hexes, in the same order.
  ASSERT_EQ(c["zoc"].size(), 2u);
  for (const char* side : {"axis", "allied"}) {
    json names = json::array();
    for (const json& i : c["zoc"][side]) names.push_back(name(i));
    EXPECT_EQ(names, full["zoc"][side]) << side;
    EXPECT_FALSE(names.empty()) << side;
  }
  std::vector<std::string> args = {
      "position", "--scenario", "special-terrain", "--supply", "allied",
      "--zoc",    "axis",       "--zoc",           "allied",   "--compact"};
  for (const std::string& s : set) args.insert(args.end(), {"--set", s});
  EXPECT_EQ(c, test::CliJson(args));
}

// --- the position at a phase (replay by phase) ---------------------------------------------

// Every log a phase's replay is tested on: the fixture logs earlier builds wrote (schemas 1 to 3,
// seeded and fair) and the bundled orders played into a new log, all copied into `dir`.
std::vector<std::string> LoggedGames(const test::TempDir& dir) {
  std::vector<std::string> logs;
  for (const char* name : {"log-schema1.sqlite", "log-schema1-bundled.sqlite", "log-schema2.sqlite",
                           "log-schema3-fair.sqlite"}) {
    logs.push_back(dir.Path(name));
    std::filesystem::copy_file(std::string(OPSIM_DB_FIXTURES) + "/" + name, logs.back());
  }
  logs.push_back(dir.Path("bundled.sqlite"));
  auto scenario = JsonSource::FromFile(test::BundledPath("special-terrain"));
  EXPECT_TRUE(scenario.has_value());
  EXPECT_TRUE(db::NewLoggedGame(logs.back(), *scenario, 1940).has_value());
  std::vector<std::string> files;
  for (const auto& e :
       std::filesystem::directory_iterator(query::ScenarioDir() + "/orders/special-terrain")) {
    files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) {
    auto orders = JsonSource::FromFile(f);
    EXPECT_TRUE(orders.has_value());
    auto played = query::PlayTurn(logs.back(), *orders);
    EXPECT_TRUE(played.has_value()) << f << ": " << (played ? "" : played.error().to_string());
  }
  return logs;
}

json PositionAt(const std::string& db, std::int32_t at, std::optional<ops::Phase> phase) {
  query::Source source;
  source.db = db;
  source.at = at;
  source.phase = phase;
  auto g = query::Load(source);
  EXPECT_TRUE(g.has_value()) << (g ? "" : g.error().to_string());
  return g ? Position(*g) : json();
}

TEST(PositionAtPhase, EveryPhaseOfEveryLoggedPlayerTurnHashesToTheLoggedHash) {
  const test::TempDir dir;
  int turns = 0;
  for (const std::string& db : LoggedGames(dir)) {
    auto log = query::AnswerLog(db, std::nullopt);
    ASSERT_TRUE(log.has_value()) << db << ": " << log.error().to_string();
    for (const db::LoggedTurn& t : log->turns) {
      auto phases = db::LoadLoggedPhases(db, t.number);
      ASSERT_TRUE(phases.has_value())
          << db << " " << t.number << ": " << phases.error().to_string();
      ASSERT_EQ(phases->states.size(), t.phases.size()) << db << " " << t.number;
      ASSERT_EQ(t.phases.size(), 4u);
      for (std::size_t i = 0; i < t.phases.size(); ++i) {
        EXPECT_EQ(ops::PhaseName(phases->replayed.hashes[i].phase), t.phases[i].phase);
        EXPECT_EQ(ops::StateHash(phases->states[i]), t.phases[i].state_hash)
            << db << ", player-turn " << t.number << ", " << t.phases[i].phase;
      }
      EXPECT_EQ(ops::StateHash(phases->game.state), t.final_hash);
      ++turns;
    }
  }
  EXPECT_EQ(turns, 20);  // 3 + 6 + 3 + 2 in the fixtures, 6 bundled
}

// The position after the last phase is the position after the player-turn, but for saying so.
TEST(PositionAtPhase, AfterTheExploitationPhaseIsThePositionAfterThePlayerTurn) {
  const test::TempDir dir;
  const std::string db = LoggedGames(dir).back();
  for (std::int32_t at = 1; at <= 2; ++at) {
    json last = PositionAt(db, at, ops::Phase::kExploitation);
    EXPECT_EQ(last["phase"], "exploitation");
    EXPECT_EQ(last["next"]["phase"], "initial");
    last.erase("phase");
    EXPECT_EQ(last, PositionAt(db, at, std::nullopt));
  }
  // Mid player-turn, the player-turn is still the one being played, and next is its next phase.
  const json movement = PositionAt(db, 1, ops::Phase::kMovement);
  const json before = PositionAt(db, 0, std::nullopt);
  EXPECT_EQ(movement["player_turn"], before["player_turn"]);
  EXPECT_EQ(movement["next"]["date"], before["next"]["date"]);
  EXPECT_EQ(movement["next"]["phasing"], before["next"]["phasing"]);
  EXPECT_EQ(movement["next"]["phase"], "combat");
}

// A move of the movement phase: its unit is at the move's start after the initial phase, and at
// its end after the movement phase; the log's ranges put the move in the movement phase.
TEST(PositionAtPhase, AMovedUnitIsAtItsStartThenItsEnd) {
  const test::TempDir dir;
  const std::string db = LoggedGames(dir).back();
  auto log = query::AnswerLog(db, 1, true);
  ASSERT_TRUE(log.has_value()) << log.error().to_string();
  const json turn = query::ToJson(*log)["turns"][0];
  const json& movement = turn["phases"][1];
  ASSERT_EQ(movement["phase"], "movement");
  const json* move = nullptr;
  for (std::size_t i = movement["events"][0]; i < movement["events"][1]; ++i) {
    if (turn["events"][i]["kind"] == "move" && !move) move = &turn["events"][i];
  }
  ASSERT_NE(move, nullptr) << movement;
  const std::string unit = (*move)["units"][0];
  const json initial = PositionAt(db, 1, ops::Phase::kInitial);
  const json moved = PositionAt(db, 1, ops::Phase::kMovement);
  EXPECT_EQ((*Unit(initial, unit))["hex"], (*move)["hexes"].front());
  EXPECT_EQ((*Unit(moved, unit))["hex"], (*move)["hexes"].back());
  // The ranges cover the turn's events and rolls in order, with none left out.
  std::size_t events = 0, rolls = 0;
  for (const json& p : turn["phases"]) {
    EXPECT_EQ(p["events"][0], events);
    EXPECT_EQ(p["rolls"][0], rolls);
    events = p["events"][1];
    rolls = p["rolls"][1];
  }
  EXPECT_EQ(events, turn["events"].size());
  EXPECT_EQ(rolls, turn["rolls"].size());
  // Without `phases`, the log's keys are as they were.
  EXPECT_FALSE(query::ToJson(*query::AnswerLog(db, 1))["turns"][0]["phases"][0].contains("events"));
}

// The whole log's phase ranges come from one replay of every player-turn: the same as each
// player-turn's asked for alone, on every logged game.
TEST(PositionAtPhase, TheWholeLogsPhasesAreEachPlayerTurnsAskedAlone) {
  const test::TempDir dir;
  int turns = 0;
  for (const std::string& db : LoggedGames(dir)) {
    auto all = query::AnswerLog(db, std::nullopt, true);
    ASSERT_TRUE(all.has_value()) << db << ": " << all.error().to_string();
    const json whole = query::ToJson(*all);
    ASSERT_EQ(whole["turns"].size(), all->turns.size());
    for (std::size_t i = 0; i < all->turns.size(); ++i) {
      auto one = query::AnswerLog(db, all->turns[i].number, true);
      ASSERT_TRUE(one.has_value()) << db << ": " << one.error().to_string();
      const json alone = query::ToJson(*one)["turns"][0];
      EXPECT_TRUE(alone["phases"][0].contains("rolls")) << db;
      EXPECT_EQ(whole["turns"][i], alone) << db << ", player-turn " << all->turns[i].number;
      ++turns;
    }
  }
  EXPECT_EQ(turns, 20);
}

TEST(PositionAtPhase, APhaseNeedsALoggedPlayerTurn) {
  const test::TempDir dir;
  const std::string db = LoggedGames(dir).back();
  query::Source source;
  source.db = db;
  source.phase = ops::Phase::kCombat;
  EXPECT_EQ(query::Load(source).error().code, ErrorCode::kInvalidInput);  // no --at
  source.at = 0;
  EXPECT_EQ(query::Load(source).error().code, ErrorCode::kInvalidInput);
  source.at = 99;
  EXPECT_EQ(query::Load(source).error().code, ErrorCode::kInvalidInput);
  EXPECT_FALSE(ops::ParsePhase("supply").has_value());
  EXPECT_NE(
      ops::ParsePhase("supply").error().message.find("initial, movement, combat and exploitation"),
      std::string::npos);
}

}  // namespace
}  // namespace opsim
