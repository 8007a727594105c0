// `opsim scenarios`, `map`, `route`, `render` and `generate`: the theater commands.
#include <fstream>
#include <map>
#include <sstream>

#include "context.h"
#include "game_source.h"
#include "opsim/core/files.h"
#include "opsim/map/generate.h"
#include "opsim/ops/route.h"
#include "opsim/ops/synthetic.h"
#include "render.h"
#include "scenario_arg.h"

namespace opsim::cli {

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
      area["rule"] = "41.A.1";
    }
    water.push_back(area);
  }
  j["water_areas"] = water;
  json ferries = json::array();
  for (std::size_t i : t.RailFerriesAt(h)) ferries.push_back(t.rail_ferries()[i].name);
  if (!ferries.empty()) j["rail_ferries"] = ferries;
  return j;
}

std::string HexText(const json& j) {
  std::ostringstream out;
  out << j["hex"].get<std::string>();
  if (j.contains("name")) out << " (" << j["name"].get<std::string>() << ")";
  out << ": " << j["terrain"].get<std::string>();
  if (j["coast"] != "none") out << ", " << j["coast"].get<std::string>();
  if (j.contains("city")) out << ", " << j["city"].get<std::string>() << " city";
  if (j.contains("port")) {
    out << ", " << j["port"].get<std::string>() << (j["inland_port"].get<bool>() ? " inland" : "")
        << " port";
  }
  if (j.contains("airbase")) out << ", airbase";
  out << "; zone " << j["weather_zone"].get<std::string>() << "; owner "
      << j["owner"].get<std::string>() << "\n";
  if (!j["areas"].empty()) {
    out << "  areas:";
    for (const auto& a : j["areas"]) out << " [" << a.get<std::string>() << "]";
    out << "\n";
  }
  for (const auto& s : j["hexsides"]) {
    out << "  " << s["dir"].get<std::string>() << ": ";
    if (s["neighbor"].is_null()) {
      out << "map edge\n";
      continue;
    }
    out << s["neighbor"].get<std::string>() << " water " << s["water"].get<std::string>();
    for (const auto& f : s["features"]) out << ", " << f.get<std::string>();
    if (s.contains("waterway")) {
      out << ", on " << s["waterway"].get<std::string>();
      if (s.contains("rule")) out << " (" << s["rule"].get<std::string>() << ")";
    }
    out << "\n";
  }
  for (const auto& a : j["water_areas"]) {
    out << "  water area " << a["index"].get<int>();
    if (a.contains("name")) out << " '" << a["name"].get<std::string>() << "'";
    out << (a["port_only"].get<bool>() ? ": port only" : ": touches");
    for (const auto& d : a["sides"]) out << " " << d.get<std::string>();
    if (a.contains("split_by")) {
      out << "; split from the others by the causeway on " << a["split_by"].get<std::string>()
          << " [41.A.1]";
    }
    out << "\n";
  }
  return out.str();
}

json Summary(const map::Theater& t) {
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

std::string SummaryText(const json& j) {
  std::ostringstream out;
  out << j["title"].get<std::string>() << " (" << j["name"].get<std::string>() << ")\n";
  out << "  " << j["hexes"] << " hexes, " << j["hexsides"] << " hexsides, " << j["causeways"]
      << " causeways, " << j["water_areas"] << " water areas, " << j["places"] << " places\n";
  out << "  sheets:";
  for (const auto& s : j["sheets"]) {
    out << " " << s["name"].get<std::string>() << " (" << s["hexes"] << " hexes, "
        << s["from"].get<std::string>() << ".." << s["to"].get<std::string>() << ")";
  }
  out << "\n  terrain:";
  for (const auto& [k, v] : j["terrain"].items()) out << " " << k << " " << v;
  out << "\n  areas:\n";
  for (const auto& a : j["areas"]) {
    out << "    " << a["name"].get<std::string>() << " (" << a["hexes"] << " hexes";
    if (a["role"] != "none") out << ", role " << a["role"].get<std::string>();
    out << ")\n";
  }
  out << "  waterways:\n";
  for (const auto& w : j["waterways"]) {
    out << "    " << w["name"].get<std::string>() << " (" << w["hexsides"] << " hexsides"
        << (w["navigable"].get<bool>() ? ", navigable" : "");
    if (w.contains("rule")) out << ", " << w["rule"].get<std::string>();
    out << ")\n";
  }
  for (const auto& f : j["rail_ferries"]) {
    out << "  rail ferry " << f["name"].get<std::string>() << ": " << f["from"].get<std::string>()
        << " to " << f["to"].get<std::string>() << " [41.A.2]\n";
  }
  for (const auto& e : j["exits"]) {
    out << "  exit " << e["name"].get<std::string>() << ": " << e["side"].get<std::string>()
        << " units off the " << e["edge"].get<std::string>() << " edge, " << e["hexes"]
        << " hexes, total '" << e["total"].get<std::string>() << "' [41.F]\n";
  }
  for (const auto& n : j["notes"]) out << "  note: " << n.get<std::string>() << "\n";
  return out.str();
}

json RuleList(const std::vector<RuleId>& rules) {
  json out = json::array();
  for (RuleId r : rules) out.push_back(r.id);
  return out;
}

json NotesJson(const std::vector<std::vector<ops::Note>>& steps) {
  json out = json::array();
  for (const auto& step : steps) {
    json notes = json::array();
    for (const ops::Note& n : step) notes.push_back({{"rule", n.rule.id}, {"text", n.text}});
    out.push_back(notes);
  }
  return out;
}

// Options shared by `route` and `render --route`.
struct RouteOptions {
  GameSource game;
  std::string mode = "ground";
  std::string side = "allied";
  std::string from, to, path;
  std::string unit = "infantry";
  std::string group = "transport";
  bool exploitation = false;
};

void AddRouteOptions(CLI::App* cmd, RouteOptions& o) {
  cmd->add_option("--mode", o.mode, "ground or naval")
      ->check(CLI::IsMember({"ground", "naval"}))
      ->default_val("ground");
  cmd->add_option("--side", o.side, "allied or axis")
      ->check(CLI::IsMember({"allied", "axis"}))
      ->default_val("allied");
  auto* from = cmd->add_option("--from", o.from, "start hex, e.g. 16A:0827");
  auto* to = cmd->add_option("--to", o.to, "goal hex");
  auto* path = cmd->add_option("--path,--route", o.path,
                               "check this path instead: H,H,... (naval paths may name a water "
                               "area, 16A:0827#veere, or a riverine hexside, 19A:3413/3414)");
  from->needs(to);
  to->needs(from);
  path->excludes(from)->excludes(to);
  cmd->add_option("--unit", o.unit,
                  "ground unit kind: infantry, mountain, engineer, cavalry, motorized, armor")
      ->default_val("infantry");
  cmd->add_option("--group", o.group,
                  "naval group composition, comma-separated: tf, cg, transport, flotilla")
      ->default_val("transport");
  cmd->add_flag("--exploitation", o.exploitation,
                "move in the exploitation phase (41.A.4.a: a flooded hex counts as swamp)");
}

struct RouteResult {
  json doc;
  std::string text;
  std::vector<std::string> drawn;  // waypoint names, for render
};

// The rule context of a loaded game: its tables and state, at its player-turn.
ops::RuleContext ContextOf(const LoadedGame& g, bool exploitation) {
  ops::RuleContext ctx{*g.theater, g.map,
                       g.campaign ? g.campaign->tables : ops::DefaultRuleTables()};
  ctx.player_turn = g.state ? g.state->player_turn : 0;
  ctx.exploitation = exploitation;
  return ctx;
}

// B4.8: with units on the map, enemy zones of control end a ground move and enemy units bar
// their hexes.
void SetGroundBarriers(const LoadedGame& g, Side side, ops::GroundRouter& router) {
  if (!g.state || !g.campaign) return;
  ops::Game game(g.theater, g.campaign, *g.state);
  std::vector<std::uint8_t> enemy(g.theater->hex_count(), 0);
  for (const ops::GroundUnit& u : g.state->units) {
    if (u.on_map() && u.side != side) enemy[u.hex.v] = 1;
  }
  router.SetBarriers(game.EnemyZoc(side), enemy);
}

Result<RouteResult> RunRoute(const LoadedGame& g, const RouteOptions& o) {
  const map::Theater& t = *g.theater;
  const Side side = *ParseSide(o.side);
  const ops::RuleContext ctx = ContextOf(g, o.exploitation);
  RouteResult r;
  std::ostringstream text;
  const bool naval = o.mode == "naval";
  auto fmt = [&](const ops::Waypoint& w) { return ops::FormatWaypoint(t, w); };
  auto cost_json = [&](std::uint32_t c) -> json { return naval ? json(c) : json(ops::ToMp(c)); };
  const std::string unit = naval ? " naval steps" : " MP";

  if (!o.path.empty()) {
    auto path = ops::ParseWaypoints(t, o.path);
    if (!path) return std::unexpected(path.error());
    ops::PathVerdict v;
    if (naval) {
      auto group = ops::ParseGroup(o.group, side);
      if (!group) return std::unexpected(group.error());
      v = ops::NavalRouter(ctx, *group).Check(*path);
    } else {
      auto mover = ops::ParseUnitKind(o.unit, side);
      if (!mover) return std::unexpected(mover.error());
      std::vector<map::HexRef> hexes;
      for (const ops::Waypoint& w : *path) {
        if (w.is_river()) {
          return Fail(ErrorCode::kInvalidInput, "a ground path is made of hexes, not hexsides",
                      fmt(w));
        }
        hexes.push_back(w.hex);
      }
      ops::GroundRouter router(ctx, *mover);
      v = router.Check(hexes);
    }
    if (!v.legal && v.blocked_by.empty()) {
      return Fail(ErrorCode::kInvalidInput, v.reason, o.path);
    }
    r.doc = {{"legal", v.legal},
             {"cost", cost_json(v.cost)},
             {"blocked_by", RuleList(v.blocked_by)},
             {"steps", NotesJson(v.notes)}};
    if (!v.legal) {
      r.doc["failed_step"] = v.failed_step;
      r.doc["reason"] = v.reason;
    }
    for (const ops::Waypoint& w : *path) r.drawn.push_back(fmt(w));
    text << (v.legal ? "legal" : "not legal") << ": " << o.path << "\n";
    for (std::size_t i = 0; i < v.notes.size(); ++i) {
      text << "  step " << i + 1 << " to " << fmt((*path)[i + 1]) << ":\n";
      for (const ops::Note& n : v.notes[i]) text << "    " << n.text << " [" << n.rule.id << "]\n";
    }
    if (v.legal) {
      text << "  cost " << cost_json(v.cost).dump() << unit << "\n";
    } else {
      text << "  refused at step " << v.failed_step << ": " << v.reason << " ["
           << v.blocked_by.front().id << "]\n";
    }
    r.text = text.str();
    return r;
  }

  auto from = ops::ParseWaypoint(t, o.from);
  if (!from) return std::unexpected(from.error());
  auto to = ops::ParseWaypoint(t, o.to);
  if (!to) return std::unexpected(to.error());
  ops::RouteAnswer a;
  if (naval) {
    auto group = ops::ParseGroup(o.group, side);
    if (!group) return std::unexpected(group.error());
    ops::NavalRouter router(ctx, *group);
    a = router.Route(*from, *to);
  } else {
    auto mover = ops::ParseUnitKind(o.unit, side);
    if (!mover) return std::unexpected(mover.error());
    if (from->is_river() || to->is_river()) {
      return Fail(ErrorCode::kInvalidInput, "a ground route runs between hexes", o.from);
    }
    ops::GroundRouter router(ctx, *mover);
    SetGroundBarriers(g, side, router);
    a = router.Route(from->hex, to->hex);
  }
  json path = json::array();
  for (const ops::Waypoint& w : a.path) {
    path.push_back(fmt(w));
    r.drawn.push_back(fmt(w));
  }
  r.doc = {{"reachable", a.reachable},
           {"path", path},
           {"cost", a.reachable ? cost_json(a.cost) : json(nullptr)},
           {"blocked_by", RuleList(a.blocked_by)}};
  if (!a.reachable) r.doc["reason"] = a.reason;
  if (a.reachable) {
    text << "route " << o.from << " to " << o.to << ": " << cost_json(a.cost).dump() << unit
         << "\n  ";
    for (std::size_t i = 0; i < a.path.size(); ++i) text << (i ? " " : "") << fmt(a.path[i]);
    text << "\n";
  } else {
    text << "no route " << o.from << " to " << o.to << ": " << a.reason;
    if (!a.blocked_by.empty()) {
      text << " (refused by";
      for (RuleId rule : a.blocked_by) text << " " << rule.id;
      text << ")";
    }
    text << "\n";
  }
  r.text = text.str();
  return r;
}

}  // namespace

void AddMapCommands(CLI::App& app, Context& ctx) {
  auto* scenarios = app.add_subcommand("scenarios", "List the bundled scenarios");
  Bind(scenarios, ctx, [&ctx]() -> Status {
    json list = json::array();
    std::ostringstream text;
    for (const map::BundledScenario& s : map::ListScenarios(ScenarioDir())) {
      list.push_back({{"name", s.name}, {"title", s.title}, {"path", s.path}});
      text << s.name << "\t" << s.title << "\n";
    }
    Emit(ctx, {{"scenarios", list}}, text.str());
    return {};
  });

  struct MapOptions {
    GameSource game;
    std::string hex;
  };
  auto mo = std::make_shared<MapOptions>();
  auto* map_cmd = app.add_subcommand(
      "map",
      "Summarise a theater, or show one hex: terrain, hexsides, neighbours, water areas, and "
      "(in a game) its owner and units");
  AddGameSourceOptions(map_cmd, mo->game);
  map_cmd->add_option("--hex", mo->hex, "show this hex, e.g. 16A:0827");
  Bind(map_cmd, ctx, [&ctx, mo]() -> Status {
    auto g = LoadGame(mo->game);
    if (!g) return std::unexpected(g.error());
    const map::Theater& t = *g->theater;
    if (mo->hex.empty()) {
      json j = Summary(t);
      Emit(ctx, j, SummaryText(j));
      return {};
    }
    auto h = t.FindHex(mo->hex);
    if (!h) return std::unexpected(h.error());
    json j = HexDetail(t, g->map, *h);
    std::string text = HexText(j);
    if (g->state) {
      json units = json::array();
      for (const ops::GroundUnit& u : g->state->units) {
        if (!u.on_map() || u.hex != *h) continue;
        units.push_back({{"id", u.id},
                         {"name", u.name},
                         {"side", SideName(u.side)},
                         {"type", ops::UnitTypeName(u.type)},
                         {"strength", std::to_string(u.attack) + "-" + std::to_string(u.defense) +
                                          "-" + std::to_string(u.mp)},
                         {"supply", ops::SupplyStatusName(u.supply)}});
        text += "  unit " + u.name + " (" + u.id + ", " + SideName(u.side) + ", " +
                ops::UnitTypeName(u.type) + ", " + ops::SupplyStatusName(u.supply) + ")\n";
      }
      j["units"] = units;
      if (const map::Flood* f = g->map.flood(*h)) {
        j["flood"] = {
            {"kind", map::FloodKindName(f->kind)}, {"from", f->from}, {"until", f->until}};
        text += std::string("  flooded (") + map::FloodKindName(f->kind) + ")\n";
      }
      if (g->map.ice_airfield(*h)) {
        j["ice_airfield"] = true;
        text += "  ice airfield [41.A.3]\n";
      }
    }
    Emit(ctx, j, text);
    return {};
  });

  auto ro = std::make_shared<RouteOptions>();
  auto* route = app.add_subcommand(
      "route",
      "Find a ground or naval route (--from/--to), or check a given path (--path).\n"
      "Answers {reachable, path, cost, blocked_by} or {legal, cost, blocked_by}; blocked_by "
      "names the rules that refused steps (see docs/rules.md)");
  AddGameSourceOptions(route, ro->game);
  AddRouteOptions(route, *ro);
  Bind(route, ctx, [&ctx, ro]() -> Status {
    if (ro->path.empty() && ro->from.empty()) {
      return Fail(ErrorCode::kInvalidInput, "route needs --from and --to, or --path");
    }
    auto g = LoadGame(ro->game);
    if (!g) return std::unexpected(g.error());
    auto r = RunRoute(*g, *ro);
    if (!r) return std::unexpected(r.error());
    Emit(ctx, r->doc, r->text);
    return {};
  });

  struct RenderOptions {
    std::string out;
    std::string sheet;
    RouteOptions route;
  };
  auto rd = std::make_shared<RenderOptions>();
  auto* render = app.add_subcommand(
      "render",
      "Draw the theater as SVG: terrain, hexsides, labels; with --from/--to or --path, a route "
      "on top");
  AddGameSourceOptions(render, rd->route.game);
  render->add_option("--out", rd->out, "the SVG file to write")->required();
  render->add_option("--sheet", rd->sheet, "draw only this sheet");
  AddRouteOptions(render, rd->route);
  Bind(render, ctx, [&ctx, rd]() -> Status {
    auto g = LoadGame(rd->route.game);
    if (!g) return std::unexpected(g.error());
    RenderRequest req;
    req.sheet = rd->sheet;
    if (g->state) {
      for (const ops::GroundUnit& u : g->state->units) {
        if (u.on_map()) req.units.push_back({u.hex, u.id, u.side});
      }
    }
    json doc = {{"out", rd->out}};
    if (!rd->route.path.empty() || !rd->route.from.empty()) {
      auto r = RunRoute(*g, rd->route);
      if (!r) return std::unexpected(r.error());
      req.route = r->drawn;
      doc["route"] = r->doc;
    }
    auto svg = RenderSvg(*g->theater, g->map, req);
    if (!svg) return std::unexpected(svg.error());
    if (auto s = WriteFileAtomically(rd->out, *svg); !s) return s;
    doc["bytes"] = svg->size();
    Emit(ctx, doc, "wrote " + rd->out + " (" + std::to_string(svg->size()) + " bytes)");
    return {};
  });

  struct GenerateOptions {
    std::int64_t hexes = 100000;
    std::int64_t units = 0;
    std::uint64_t seed = 1;
    std::string out;
  };
  auto go = std::make_shared<GenerateOptions>();
  auto* generate = app.add_subcommand(
      "generate",
      "Write a synthetic theater of about N hexes (seas, coasts, rivers, lakes, canals, "
      "causeways, rail, ports, cities), for benchmarks and tests");
  generate->add_option("--hexes", go->hexes, "about how many hexes")
      ->check(CLI::Range(std::int64_t{100}, std::int64_t{2000000}))
      ->default_val(100000);
  generate
      ->add_option("--units", go->units,
                   "add a campaign with this many ground units, half a side each")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{200000}))
      ->default_val(0);
  generate->add_option("--seed", go->seed, "random seed")->default_val(1);
  generate->add_option("--out", go->out, "the scenario file to write")->required();
  Bind(generate, ctx, [&ctx, go]() -> Status {
    map::GenerateOptions opts;
    opts.hexes = static_cast<int>(go->hexes);
    opts.seed = go->seed;
    std::string text = map::GenerateTheater(opts);
    if (go->units > 0) {
      auto with = ops::AddSyntheticCampaign(text, static_cast<int>(go->units), go->seed);
      if (!with) return std::unexpected(with.error());
      text = std::move(*with);
    }
    if (auto s = WriteFileAtomically(go->out, text); !s) return s;
    auto src = JsonSource::FromText(text, go->out);
    auto sc = src ? map::LoadScenario(*src) : Result<map::Scenario>(std::unexpected(src.error()));
    if (!sc) return std::unexpected(sc.error());
    json doc = {{"out", go->out},
                {"hexes", sc->theater.hex_count()},
                {"hexsides", sc->theater.hexside_count()},
                {"sheets", sc->theater.sheets().size()},
                {"bytes", text.size()}};
    Emit(ctx, doc,
         "wrote " + go->out + ": " + std::to_string(sc->theater.hex_count()) + " hexes on " +
             std::to_string(sc->theater.sheets().size()) + " sheets");
    return {};
  });
}

}  // namespace opsim::cli
