#include "opsim/query/view.h"

#include <algorithm>
#include <numeric>

#include "opsim/ops/calendar.h"
#include "opsim/ops/game.h"
#include "opsim/query/log.h"
#include "opsim/query/map.h"
#include "opsim/query/play.h"
#include "opsim/query/supply.h"

namespace opsim::query {

namespace {

using nlohmann::json;

json Pair(int a, int b) {
  return json::array({a, b});
}

// A player-turn serial as players say it: "the allied player-turn of Jun I 1940".
std::string SerialText(const ops::GameState& s, std::int32_t serial) {
  return std::string("the ") + SideName(s.PhasingAt(serial)) + " player-turn of " +
         ops::FormatGameDate(ops::AddTurns(s.start, serial / 2));
}

json HexNames(const map::Theater& t, const std::vector<std::uint8_t>& by_hex) {
  json list = json::array();
  for (std::uint32_t v = 0; v < by_hex.size(); ++v) {
    if (by_hex[v]) list.push_back(t.HexName(map::HexRef{v}));
  }
  return list;
}

json HexIndices(const std::vector<std::uint8_t>& by_hex) {
  std::vector<std::uint32_t> list;
  for (std::uint32_t v = 0; v < by_hex.size(); ++v) {
    if (by_hex[v]) list.push_back(v);
  }
  return list;
}

json FeatureNames(std::uint16_t features) {
  json list = json::array();
  for (int bit = 0; bit < map::kHexsideFeatureCount; ++bit) {
    const auto f = static_cast<map::HexsideFeature>(1u << bit);
    if (features & f) list.push_back(map::HexsideFeatureName(f));
  }
  return list;
}

}  // namespace

std::array<int, 4> SheetWindow(const map::Sheet& s) {
  return {s.origin.col + s.first_col, s.origin.row + s.first_row, s.origin.col + s.last_col,
          s.origin.row + s.last_row};
}

std::vector<std::size_t> SheetPanels(std::span<const std::array<int, 4>> windows) {
  const std::size_t n = windows.size();
  std::vector<std::size_t> group(n);
  std::iota(group.begin(), group.end(), 0);
  const auto find = [&group](std::size_t i) {
    while (group[i] != i) i = group[i] = group[group[i]];
    return i;
  };
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const auto& a = windows[i];
      const auto& b = windows[j];
      if (a[0] <= b[2] + 1 && b[0] <= a[2] + 1 && a[1] <= b[3] + 1 && b[1] <= a[3] + 1) {
        group[find(i)] = find(j);
      }
    }
  }
  // Number the groups in the order of their first sheet.
  std::vector<std::size_t> panel(n), number(n, n);
  std::size_t next = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t& k = number[find(i)];
    if (k == n) k = next++;
    panel[i] = k;
  }
  return panel;
}

std::vector<std::size_t> SheetPanels(const map::Theater& t) {
  std::vector<std::array<int, 4>> windows;
  windows.reserve(t.sheets().size());
  for (const map::Sheet& s : t.sheets()) windows.push_back(SheetWindow(s));
  return SheetPanels(windows);
}

std::string CounterText(const ops::GroundUnit& u) {
  return std::to_string(u.attack) + "-" + std::to_string(u.defense) + "-" + std::to_string(u.mp) +
         " " + std::to_string(u.re_halves / 2) + (u.re_halves % 2 ? ".5" : "") + "RE";
}

namespace {

// What both forms of the theater share: sheets, the grid's bounds, weather zones, waterways,
// rail ferries, areas and exits.
json TheaterCommon(const map::Theater& t) {
  json sheets = json::array();
  const std::vector<std::size_t> panels = SheetPanels(t);
  for (std::size_t i = 0; i < t.sheets().size(); ++i) {
    const map::Sheet& s = t.sheets()[i];
    sheets.push_back({{"name", s.name},
                      {"origin", Pair(s.origin.col, s.origin.row)},
                      {"first", Pair(s.first_col, s.first_row)},
                      {"last", Pair(s.last_col, s.last_row)},
                      {"panel", panels[i]}});
  }
  map::GridPos low{0, 0}, high{-1, -1};
  for (std::uint32_t v = 0; v < t.hex_count(); ++v) {
    const map::GridPos pos = t.Pos(map::HexRef{v});
    if (v == 0) low = high = pos;
    low = {std::min(low.col, pos.col), std::min(low.row, pos.row)};
    high = {std::max(high.col, pos.col), std::max(high.row, pos.row)};
  }
  json waterways = json::array();
  for (const map::Waterway& w : t.waterways()) {
    json sides = json::array();
    for (map::HexsideRef s : w.hexsides) sides.push_back(t.HexsideName(s));
    waterways.push_back({{"name", w.name},
                         {"rule", std::string(map::WaterwayRuleId(w.rule))},
                         {"navigable", w.navigable},
                         {"closed", w.closed},
                         {"hexsides", sides}});
  }
  json ferries = json::array();
  for (const map::RailFerry& f : t.rail_ferries()) {
    json line = json::array();
    for (map::HexRef h : f.line) line.push_back(t.HexName(h));
    ferries.push_back({{"name", f.name}, {"line", line}});
  }
  json areas = json::array();
  for (const map::Area& a : t.areas()) {
    json list = json::array();
    for (map::HexRef h : a.hexes) list.push_back(h.v);
    areas.push_back({{"name", a.name}, {"role", map::AreaRoleName(a.role)}, {"hexes", list}});
  }
  json exits = json::array();
  for (const map::ExitEdge& e : t.exits()) {
    json list = json::array();
    for (map::HexRef h : e.hexes) list.push_back(h.v);
    exits.push_back({{"name", e.name},
                     {"side", SideName(e.side)},
                     {"edge", map::MapEdgeName(e.edge)},
                     {"total", e.total},
                     {"hexes", std::move(list)}});
  }
  return {{"opsim", "theater"},
          {"name", t.name()},
          {"title", t.title()},
          {"sheets", std::move(sheets)},
          {"bounds", {{"min", Pair(low.col, low.row)}, {"max", Pair(high.col, high.row)}}},
          {"zones", t.weather_zones()},
          {"waterways", std::move(waterways)},
          {"rail_ferries", std::move(ferries)},
          {"areas", std::move(areas)},
          {"exits", std::move(exits)}};
}

bool Listed(const map::HexsideInfo& info) {  // a hexside that carries something
  return info.water != map::HexsideWater::kNone || info.features != 0 || info.waterway != 0;
}

}  // namespace

json TheaterJson(const map::Theater& t) {
  json doc = TheaterCommon(t);
  std::vector<std::string_view> place(t.hex_count());
  for (const map::Place& p : t.places()) place[p.hex.v] = p.name;
  json hexes = json::array();
  for (std::uint32_t v = 0; v < t.hex_count(); ++v) {
    const map::HexRef h{v};
    const map::HexInfo& info = t.hex(h);
    const map::GridPos pos = t.Pos(h);
    json hex = {{"hex", t.HexName(h)},
                {"col", pos.col},
                {"row", pos.row},
                {"terrain", map::TerrainName(info.terrain)},
                {"zone", info.zone}};
    if (info.coast != map::Coast::kNone) hex["coast"] = map::CoastName(info.coast);
    if (info.city != map::CityKind::kNone) hex["city"] = map::CityKindName(info.city);
    if (info.port != map::PortSize::kNone) hex["port"] = map::PortSizeName(info.port);
    if (info.inland_port) hex["inland"] = true;
    if (info.airbase) hex["airbase"] = true;
    if (!place[v].empty()) hex["place"] = place[v];
    hexes.push_back(std::move(hex));
  }
  json hexsides = json::array();
  for (std::uint32_t v = 0; v < t.hexside_count(); ++v) {
    const map::HexsideRef s{v};
    const map::HexsideInfo& info = t.hexside(s);
    if (!Listed(info)) continue;
    json side = {{"hexside", t.HexsideName(s)},
                 {"a", info.a.v},
                 {"b", info.b.v},
                 {"dir", static_cast<int>(info.dir_from_a)}};
    if (info.water != map::HexsideWater::kNone) side["water"] = map::HexsideWaterName(info.water);
    if (info.features != 0) side["features"] = FeatureNames(info.features);
    if (info.waterway != 0) side["waterway"] = info.waterway - 1;
    hexsides.push_back(std::move(side));
  }
  doc["hexes"] = std::move(hexes);
  doc["hexsides"] = std::move(hexsides);
  return doc;
}

json TheaterCompactJson(const map::Theater& t) {
  json doc = TheaterCommon(t);
  doc["form"] = "compact";
  // The words each code stands for: a code is its word's index (features: bit k is word k).
  const auto words = [](int count, auto name_of) {
    json list = json::array();
    for (int i = 0; i < count; ++i) list.push_back(name_of(i));
    return list;
  };
  doc["names"] = {
      {"terrain", words(map::kTerrainCount,
                        [](int i) { return map::TerrainName(static_cast<map::Terrain>(i)); })},
      {"coast",
       words(map::kCoastCount, [](int i) { return map::CoastName(static_cast<map::Coast>(i)); })},
      {"city", words(map::kCityKindCount,
                     [](int i) { return map::CityKindName(static_cast<map::CityKind>(i)); })},
      {"port", words(map::kPortSizeCount,
                     [](int i) { return map::PortSizeName(static_cast<map::PortSize>(i)); })},
      {"water",
       words(map::kHexsideWaterCount,
             [](int i) { return map::HexsideWaterName(static_cast<map::HexsideWater>(i)); })},
      {"features", words(map::kHexsideFeatureCount, [](int i) {
         return map::HexsideFeatureName(static_cast<map::HexsideFeature>(1u << i));
       })}};
  const std::size_t n = t.hex_count();
  std::vector<int> sheet(n), col(n), row(n), terrain(n), zone(n), coast(n), city(n), port(n),
      flags(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    const map::HexRef h{v};
    const map::HexInfo& info = t.hex(h);
    const map::GridPos pos = t.Pos(h);
    sheet[v] = info.sheet;
    col[v] = pos.col;
    row[v] = pos.row;
    terrain[v] = static_cast<int>(info.terrain);
    zone[v] = info.zone;
    coast[v] = static_cast<int>(info.coast);
    city[v] = static_cast<int>(info.city);
    port[v] = static_cast<int>(info.port);
    flags[v] = (info.inland_port ? 1 : 0) | (info.airbase ? 2 : 0);
  }
  std::vector<std::string_view> place(n);  // a hex's place name: the last one given, as above
  for (const map::Place& p : t.places()) place[p.hex.v] = p.name;
  json places = json::array();
  for (std::uint32_t v = 0; v < n; ++v) {
    if (!place[v].empty()) places.push_back(json::array({v, place[v]}));
  }
  doc["hexes"] = {{"count", n},
                  {"sheet", sheet},
                  {"col", col},
                  {"row", row},
                  {"terrain", terrain},
                  {"zone", zone},
                  {"coast", coast},
                  {"city", city},
                  {"port", port},
                  {"flags", flags},
                  {"places", std::move(places)}};
  std::vector<std::uint32_t> a, b;
  std::vector<int> dir, water, features, waterway;
  for (std::uint32_t v = 0; v < t.hexside_count(); ++v) {
    const map::HexsideInfo& info = t.hexside(map::HexsideRef{v});
    if (!Listed(info)) continue;
    a.push_back(info.a.v);
    b.push_back(info.b.v);
    dir.push_back(static_cast<int>(info.dir_from_a));
    water.push_back(static_cast<int>(info.water));
    features.push_back(info.features);
    waterway.push_back(static_cast<int>(info.waterway) - 1);
  }
  doc["hexsides"] = {{"count", a.size()},   {"a", a},         {"b", b},
                     {"dir", dir},          {"water", water}, {"features", features},
                     {"waterway", waterway}};
  return doc;
}

json MapStateJson(const map::Theater& t, const ops::GameState& s) {
  json weather = json::object();
  for (std::size_t z = 0; z < t.weather_zones().size() && z < s.weather.size(); ++z) {
    weather[t.weather_zones()[z]] = {{"weather", ops::WeatherName(s.weather[z])},
                                     {"frozen", s.map.frozen(z)}};
  }
  json floods = json::array();
  for (const auto& [hex, f] : s.map.floods()) {
    floods.push_back({{"hex", t.HexName(map::HexRef{hex})},
                      {"kind", map::FloodKindName(f.kind)},
                      {"from", SerialText(s, f.from)},
                      {"until", SerialText(s, f.until)}});
  }
  json ice = json::array();
  for (const auto& [hex, present] : s.map.ice_airfields()) {
    if (present) ice.push_back(t.HexName(map::HexRef{hex}));
  }
  json markers = json::object();
  for (const auto& [hex, list] : s.map.markers()) markers[t.HexName(map::HexRef{hex})] = list;
  json doc = {{"weather", weather},
              {"floods", floods},
              {"ice_airfields", ice},
              {"markers", markers},
              {"netherlands_surrendered", s.netherlands_surrendered},
              {"srp", s.srp},
              {"exit_totals", s.exit_totals}};
  if (t.FindWaterway(map::WaterwayRule::kSuez)) doc["suez"] = map::CanalStatusName(s.map.suez());
  return doc;
}

namespace {

// Both forms of the position: `compact` names hexes by index (docs/views.md, "The compact
// position"), the other by name.
Result<json> Position(const LoadedGame& g, const PositionOptions& options, bool compact) {
  const map::Theater& t = *g.theater;
  json owner;
  if (compact) {  // one character a hex, in the theater's order: '0' no one, '1' axis, '2' allied
    std::string by_hex(t.hex_count(), '0');
    for (std::uint32_t v = 0; v < t.hex_count(); ++v) {
      const Owner o = g.map.owner(map::HexRef{v});
      if (o != Owner::kNone) by_hex[v] = o == Owner::kAxis ? '1' : '2';
    }
    owner = std::move(by_hex);
  } else {
    owner = {{"axis", json::array()}, {"allied", json::array()}};
    for (std::uint32_t v = 0; v < t.hex_count(); ++v) {
      const Owner o = g.map.owner(map::HexRef{v});
      if (o != Owner::kNone) owner[OwnerName(o)].push_back(t.HexName(map::HexRef{v}));
    }
  }
  json bridges = json::array();
  for (std::uint32_t s : g.map.destroyed_bridges()) {
    bridges.push_back(t.HexsideName(map::HexsideRef{s}));
  }
  json doc = {{"opsim", "position"},
              {"scenario", g.scenario.name},
              {"player_turn", g.player_turn()},
              {"owner", std::move(owner)},
              {"destroyed_bridges", std::move(bridges)},
              {"units", json::array()}};
  if (compact) doc["form"] = "compact";
  if (!g.state) {
    if (t.FindWaterway(map::WaterwayRule::kSuez)) doc["suez"] = map::CanalStatusName(g.map.suez());
    return doc;
  }
  const ops::GameState& s = *g.state;
  // The map as queries read it (overrides applied), the rest from the game's state.
  ops::GameState shown = s;
  shown.map = g.map;
  doc.update(MapStateJson(t, shown));
  // How each flood makes its hex count now (41.A.4), as `opsim map --hex` says it.
  for (json& f : doc["floods"]) {
    auto a = AnswerHex(g, f["hex"].get<std::string>());
    if (!a) return std::unexpected(a.error());
    f["counts_as"] = a->flood_counts_as;
    f["rule"] = a->flood_note.rule.id;
  }
  doc["next"] = NextJson(s);
  if (g.phase) {
    // Mid player-turn, what comes next is the rest of it.
    doc["phase"] = ops::PhaseName(*g.phase);
    if (*g.phase != ops::Phase::kExploitation) {
      doc["next"]["phase"] =
          ops::PhaseName(static_cast<ops::Phase>(static_cast<int>(*g.phase) + 1));
    }
  }
  if (g.step) {
    // Mid player-turn, taken again step by step: where it stands, and what comes next.
    const StepPlace& p = *g.step;
    json step = {{"player_turn", p.number},
                 {"taken", p.taken},
                 {"of", p.steps},
                 {"played_by", p.by_steps ? "steps" : "orders"},
                 {"prompt", ToJson(p.prompt, t)}};
    if (p.last) {
      step["last"] = {{"side", SideName(p.last->side)},
                      {"step", json::parse(p.last->step, nullptr, false)}};
    }
    doc["step"] = std::move(step);
  }
  const auto hex_or_null = [&t, compact](map::HexRef h) -> json {
    if (!h.valid()) return json(nullptr);
    return compact ? json(h.v) : json(t.HexName(h));
  };
  json& units = doc["units"];
  for (const ops::GroundUnit& u : s.units) {
    units.push_back({{"id", u.id},
                     {"name", u.name},
                     {"side", SideName(u.side)},
                     {"kind", "ground"},
                     {"type", g.campaign->tables.type(u.type).name},
                     {"nationality", u.nationality},
                     {"hex", u.on_map() ? hex_or_null(u.hex) : json(nullptr)},
                     {"status", ops::UnitStatusName(u.status)},
                     {"attack", u.attack},
                     {"defense", u.defense},
                     {"mp", u.mp},
                     {"re", u.re_halves / 2.0},
                     {"supply", ops::SupplyStatusName(u.supply)},
                     {"strength", CounterText(u)}});
  }
  for (const ops::AirUnit& u : s.air) {
    const bool based = u.status == ops::AirStatus::kBased;
    units.push_back({{"id", u.id},
                     {"name", u.name},
                     {"side", SideName(u.side)},
                     {"kind", "air"},
                     {"nationality", u.nationality},
                     {"hex", based ? hex_or_null(u.base) : json(nullptr)},
                     {"status", ops::AirStatusName(u.status)},
                     {"strength", "air"}});
  }
  for (const ops::NavalUnit& u : s.naval) {
    units.push_back({{"id", u.id},
                     {"name", u.name},
                     {"side", SideName(u.side)},
                     {"kind", "naval"},
                     {"naval_kind", ops::NavalKindName(u.kind)},
                     {"nationality", u.nationality},
                     {"hex", u.sunk ? json(nullptr) : hex_or_null(u.hex)},
                     {"area", u.area},
                     {"at_sea", u.at_sea},
                     {"status", u.sunk ? "sunk" : "afloat"},
                     {"strength", ops::NavalKindName(u.kind)}});
  }
  for (Side side : options.supply) {
    auto a = AnswerSupplyAll(g, side);
    if (!a) return std::unexpected(a.error());
    doc["supply"][SideName(side)] = ToJson(t, *a);
  }
  if (!options.zoc.empty() && g.campaign) {
    const ops::Game game(g.theater, g.campaign, shown);
    for (Side side : options.zoc) {
      // B4.8: the zones `side` exerts are those its enemy meets.
      const std::vector<std::uint8_t> zoc = game.EnemyZoc(Enemy(side));
      doc["zoc"][SideName(side)] = compact ? HexIndices(zoc) : HexNames(t, zoc);
    }
  }
  return doc;
}

}  // namespace

Result<json> PositionJson(const LoadedGame& g, const PositionOptions& options) {
  return Position(g, options, false);
}

Result<json> PositionCompactJson(const LoadedGame& g, const PositionOptions& options) {
  return Position(g, options, true);
}

}  // namespace opsim::query
