#include "opsim/query/map.h"

#include <algorithm>
#include <map>

#include "opsim/core/rule_ids.h"
#include "opsim/map/types.h"
#include "opsim/ops/route.h"

namespace opsim::query {

namespace {

using nlohmann::json;

json HexSummary(const map::Theater& t, const map::MapState& state, map::HexRef h) {
  const map::HexInfo& info = t.hex(h);
  json j = {{"hex", t.HexName(h)},
            {"terrain", map::TerrainName(info.terrain)},
            {"coast", map::CoastName(info.coast)},
            {"weather_zone", t.weather_zones()[info.zone]},
            {"owner", OwnerName(state.owner(h))}};
  if (auto name = t.PlaceName(h); !name.empty()) j["name"] = name;
  if (info.city != map::CityKind::kNone) j["city"] = map::CityKindName(info.city);
  if (info.port != map::PortSize::kNone) {
    j["port"] = map::PortSizeName(info.port);
    j["inland_port"] = info.inland_port;
  }
  if (info.airbase) j["airbase"] = true;
  json areas = json::array();
  for (std::size_t i = 0; i < t.areas().size(); ++i) {
    if (t.InArea(h, i)) areas.push_back(t.areas()[i].name);
  }
  j["areas"] = areas;
  return j;
}

json HexsideSummary(const map::Theater& t, const map::MapState& state, map::HexsideRef s) {
  const map::HexsideInfo& info = t.hexside(s);
  json features = json::array();
  for (int i = 0; i < map::kHexsideFeatureCount; ++i) {
    const auto f = static_cast<map::HexsideFeature>(1u << i);
    if (info.Has(f)) features.push_back(map::HexsideFeatureName(f));
  }
  json j = {{"hexside", t.HexsideName(s)},
            {"water", map::HexsideWaterName(info.water)},
            {"features", features},
            {"owner", OwnerName(state.hexside_owner(s))}};
  if (const map::Waterway* w = t.WaterwayOf(s)) {
    j["waterway"] = w->name;
    j["navigable"] = w->navigable;
    if (w->rule != map::WaterwayRule::kNone) j["rule"] = map::WaterwayRuleId(w->rule).id;
  }
  return j;
}

json HexDetail(const map::Theater& t, const map::MapState& state, map::HexRef h) {
  json j = HexSummary(t, state, h);
  json sides = json::array();
  for (map::Dir d : map::kAllDirs) {
    json side = {{"dir", map::DirName(d)}};
    const map::HexsideRef s = t.HexsideAt(h, d);
    if (s.valid()) {
      side["neighbor"] = t.HexName(t.hexside(s).Other(h));
      side.update(HexsideSummary(t, state, s));
    } else {
      side["neighbor"] = nullptr;
      side["map_edge"] = true;
    }
    sides.push_back(side);
  }
  j["hexsides"] = sides;
  json water = json::array();
  for (const map::WaterArea& a : t.WaterAreasOf(h)) {
    json area = {{"index", a.index}, {"port_only", a.port_only}};
    if (!a.name.empty()) area["name"] = a.name;
    json dirs = json::array();
    for (map::Dir d : map::kAllDirs) {
      if (a.Touches(d)) dirs.push_back(map::DirName(d));
    }
    area["sides"] = dirs;
    if (a.split_by.valid()) {
      area["split_by"] = t.HexsideName(a.split_by);
      area["rule"] = rules::k41A1.id;
    }
    water.push_back(area);
  }
  j["water_areas"] = water;
  json ferries = json::array();
  for (std::size_t i : t.RailFerriesAt(h)) ferries.push_back(t.rail_ferries()[i].name);
  if (!ferries.empty()) j["rail_ferries"] = ferries;
  return j;
}

}  // namespace

json SummaryJson(const map::Theater& t) {
  std::map<std::string, int> terrain;
  for (const map::HexInfo& h : t.hexes()) ++terrain[map::TerrainName(h.terrain)];
  json sheets = json::array();
  for (const map::Sheet& s : t.sheets()) {
    int held = 0;
    for (std::uint32_t c : s.cells) held += c != map::HexRef::kNone;
    sheets.push_back({{"name", s.name},
                      {"hexes", held},
                      {"from", map::FormatHexName(s.name, s.first_col, s.first_row)},
                      {"to", map::FormatHexName(s.name, s.last_col, s.last_row)}});
  }
  json areas = json::array();
  for (const map::Area& a : t.areas()) {
    areas.push_back(
        {{"name", a.name}, {"role", map::AreaRoleName(a.role)}, {"hexes", a.hexes.size()}});
  }
  json waterways = json::array();
  for (const map::Waterway& w : t.waterways()) {
    json way = {{"name", w.name}, {"navigable", w.navigable}, {"hexsides", w.hexsides.size()}};
    if (w.rule != map::WaterwayRule::kNone) way["rule"] = map::WaterwayRuleId(w.rule).id;
    waterways.push_back(way);
  }
  json ferries = json::array();
  for (const map::RailFerry& f : t.rail_ferries()) {
    ferries.push_back({{"name", f.name}, {"from", t.HexName(f.from())}, {"to", t.HexName(f.to())}});
  }
  json exits = json::array();
  for (const map::ExitEdge& e : t.exits()) {
    exits.push_back({{"name", e.name},
                     {"side", SideName(e.side)},
                     {"edge", map::MapEdgeName(e.edge)},
                     {"total", e.total},
                     {"hexes", e.hexes.size()}});
  }
  std::size_t causeways = 0;
  for (const map::HexsideInfo& s : t.hexsides()) causeways += s.Has(map::kCauseway);
  return {{"name", t.name()},
          {"title", t.title()},
          {"notes", t.notes()},
          {"hexes", t.hex_count()},
          {"hexsides", t.hexside_count()},
          {"causeways", causeways},
          {"water_areas", t.water_area_count()},
          {"terrain", terrain},
          {"sheets", sheets},
          {"places", t.places().size()},
          {"areas", areas},
          {"waterways", waterways},
          {"rail_ferries", ferries},
          {"exits", exits},
          {"weather_zones", t.weather_zones()}};
}

Result<HexAnswer> AnswerHex(const LoadedGame& g, std::string_view hex) {
  auto h = g.theater->FindHex(hex);
  if (!h) return std::unexpected(h.error());
  HexAnswer a;
  a.hex = *h;
  if (!g.state) return a;
  a.in_game = true;
  for (const ops::GroundUnit& u : g.state->units) {
    if (u.on_map() && u.hex == *h) a.units.push_back(u);
  }
  if (const map::Flood* f = g.map.flood(*h)) {
    a.flood = *f;
    // The ground step judge's view: a partial flood is swamp in its own player-turn's combat
    // and exploitation, so the hex is judged as in exploitation.
    ops::RuleContext ctx{*g.theater, g.map, g.tables()};
    ctx.player_turn = g.player_turn();
    ctx.exploitation = true;
    std::vector<ops::Note> notes;
    const ops::StepVerdict v = ops::EvaluateGroundHex(ctx, ops::GroundMover{}, *h, &notes);
    const auto flood_note = std::find_if(notes.begin(), notes.end(), [](const ops::Note& n) {
      return n.rule == rules::k41A4a || n.rule == rules::k41A4b;
    });
    if (!v.blocked.empty()) {
      a.flood_counts_as = "prohibited";
      a.flood_note = {v.blocked, v.why};
    } else if (flood_note != notes.end()) {
      a.flood_counts_as = map::TerrainName(map::Terrain::kSwamp);
      a.flood_note = *flood_note;
    } else {
      a.flood_counts_as = map::TerrainName(g.theater->hex(*h).terrain);
      a.flood_note = {f->kind == map::FloodKind::kMassive ? rules::k41A4b : rules::k41A4a,
                      g.theater->HexName(*h) + " is no longer flooded for movement or combat"};
    }
  }
  a.ice_airfield = g.map.ice_airfield(*h);
  return a;
}

json ToJson(const LoadedGame& g, const HexAnswer& a) {
  json j = HexDetail(*g.theater, g.map, a.hex);
  if (!a.in_game) return j;
  json units = json::array();
  for (const ops::GroundUnit& u : a.units) {
    units.push_back({{"id", u.id},
                     {"name", u.name},
                     {"side", SideName(u.side)},
                     {"type", g.campaign->tables.type(u.type).name},
                     {"strength", std::to_string(u.attack) + "-" + std::to_string(u.defense) + "-" +
                                      std::to_string(u.mp)},
                     {"supply", ops::SupplyStatusName(u.supply)}});
  }
  j["units"] = units;
  if (a.flood) {
    j["flood"] = {{"kind", map::FloodKindName(a.flood->kind)},
                  {"from", a.flood->from},
                  {"until", a.flood->until},
                  {"counts_as", a.flood_counts_as},
                  {"rule", a.flood_note.rule.id},
                  {"why", a.flood_note.text}};
  }
  if (a.ice_airfield) j["ice_airfield"] = true;
  return j;
}

}  // namespace opsim::query
