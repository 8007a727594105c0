// `opsim scenarios`, `map`, `route`, `render` and `generate`: the theater commands. The
// answers come from libquery; this file reads the options and prints.
#include <filesystem>
#include <sstream>

#include "context.h"
#include "game_source.h"
#include "opsim/core/files.h"
#include "opsim/map/generate.h"
#include "opsim/ops/game.h"
#include "opsim/ops/synthetic.h"
#include "opsim/query/map.h"
#include "opsim/query/route.h"
#include "opsim/query/supply.h"
#include "opsim/query/svg.h"
#include "opsim/query/view.h"
#include "render.h"

namespace opsim::cli {

namespace {

using nlohmann::json;

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

// Options shared by `route` and `render --route`.
struct RouteOptions {
  GameSource game;
  std::string mode = "ground";
  std::string side = "allied";
  std::string from, to, path;
  std::string unit = "infantry";
  std::string group = "transport";
  bool exploitation = false;
  bool asked() const { return !path.empty() || !from.empty(); }
};

void AddRouteOptions(CLI::App* cmd, RouteOptions& o) {
  cmd->add_option("--mode", o.mode, "ground or naval")
      ->check(CLI::IsMember({"ground", "naval"}))
      ->default_val("ground");
  AddSideOption(cmd, o.side, "allied or axis", "allied");
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

query::RouteRequest RequestOf(const RouteOptions& o) {
  query::RouteRequest r;
  r.mode = o.mode == "naval" ? query::RouteMode::kNaval : query::RouteMode::kGround;
  r.side = *ParseSide(o.side);
  r.from = o.from;
  r.to = o.to;
  r.path = o.path;
  r.unit = o.unit;
  r.group = o.group;
  r.exploitation = o.exploitation;
  return r;
}

// Each step of a path checked or a route found, with the rules that shaped it.
void StepsText(const query::RouteAnswer& a, std::ostringstream& text) {
  const ops::PathVerdict& v = a.verdict;
  for (std::size_t i = 0; i < v.notes.size(); ++i) {
    text << "  step " << i + 1 << " to " << a.waypoints[i + 1] << ":\n";
    for (const ops::Note& n : v.notes[i]) text << "    " << n.text << " [" << n.rule.id << "]\n";
  }
}

std::string PathText(const query::RouteAnswer& a, const std::string& unit) {
  const ops::PathVerdict& v = a.verdict;
  std::ostringstream text;
  text << (v.legal ? "legal" : "not legal") << ": " << a.request.path << "\n";
  StepsText(a, text);
  if (v.legal) {
    text << "  cost " << query::CostJson(a.request.mode, v.cost).dump() << unit << "\n";
  } else {
    text << "  refused at step " << v.failed_step << ": " << v.reason << " ["
         << v.blocked_by.front().id << "]\n";
  }
  return text.str();
}

std::string RouteText(const query::RouteAnswer& a) {
  const std::string unit = a.request.mode == query::RouteMode::kNaval ? " naval steps" : " MP";
  if (a.request.checks_path()) return PathText(a, unit);
  const ops::RouteAnswer& r = a.found;
  const query::RouteRequest& o = a.request;
  std::ostringstream text;
  if (r.reachable) {
    text << "route " << o.from << " to " << o.to << ": " << query::CostJson(o.mode, r.cost).dump()
         << unit << "\n  ";
    for (std::size_t i = 0; i < a.waypoints.size(); ++i) text << (i ? " " : "") << a.waypoints[i];
    text << "\n";
    StepsText(a, text);
  } else {
    text << "no route " << o.from << " to " << o.to << ": " << r.reason;
    if (!r.blocked_by.empty()) {
      text << " (refused by";
      for (RuleId rule : r.blocked_by) text << " " << rule.id;
      text << ")";
    }
    text << "\n";
  }
  return text.str();
}

std::string UnitsText(const query::LoadedGame& g, const query::HexAnswer& a) {
  std::string text;
  for (const ops::GroundUnit& u : a.units) {
    text += "  unit " + u.name + " (" + u.id + ", " + SideName(u.side) + ", " +
            g.campaign->tables.type(u.type).name + ", " + ops::SupplyStatusName(u.supply) + ")\n";
  }
  if (a.flood) {
    text += std::string("  flooded (") + map::FloodKindName(a.flood->kind) + "): counts as " +
            a.flood_counts_as + ": " + a.flood_note.text + " [" +
            std::string(a.flood_note.rule.id) + "]\n";
  }
  if (a.ice_airfield) text += "  ice airfield [41.A.3]\n";
  return text;
}

// `opsim scenarios`: the bundled scenarios.
void AddScenariosCommand(CLI::App& app, Context& ctx) {
  auto* scenarios = app.add_subcommand("scenarios", "List the bundled scenarios");
  Bind(scenarios, ctx, [&ctx]() -> Status {
    json list = json::array();
    std::ostringstream text;
    for (const map::BundledScenario& s : map::ListScenarios(query::ScenarioDir())) {
      list.push_back({{"name", s.name}, {"title", s.title}, {"path", s.path}});
      text << s.name << "\t" << s.title << "\n";
    }
    Emit(ctx, {{"scenarios", list}}, text.str());
    return {};
  });
}

// `opsim map`: a theater's summary, or one hex.
void AddMapCommand(CLI::App& app, Context& ctx) {
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
    // A summary reads the theater only: no campaign is built for it.
    auto g =
        LoadGame(ctx, mo->game, mo->hex.empty() ? query::Needs::kTheater : query::Needs::kGame);
    if (!g) return std::unexpected(g.error());
    if (mo->hex.empty()) {
      json j = query::SummaryJson(*g->theater);
      Emit(ctx, j, SummaryText(j));
      return {};
    }
    auto a = query::AnswerHex(*g, mo->hex);
    if (!a) return std::unexpected(a.error());
    json j = query::ToJson(*g, *a);
    Emit(ctx, j, HexText(j) + UnitsText(*g, *a));
    return {};
  });
}

// `opsim route`: a route found, or a path checked.
void AddRouteCommand(CLI::App& app, Context& ctx) {
  auto ro = std::make_shared<RouteOptions>();
  auto* route = app.add_subcommand(
      "route",
      "Find a ground or naval route (--from/--to), or check a given path (--path).\n"
      "Answers {reachable, path, cost, blocked_by} or {legal, cost, blocked_by}; blocked_by "
      "names the rules that refused steps (see docs/rules.md)");
  AddGameSourceOptions(route, ro->game);
  AddRouteOptions(route, *ro);
  Bind(route, ctx, [&ctx, ro]() -> Status {
    if (!ro->asked()) {
      return Fail(ErrorCode::kInvalidInput, "route needs --from and --to, or --path");
    }
    auto g = LoadGame(ctx, ro->game);
    if (!g) return std::unexpected(g.error());
    auto r = query::AnswerRoute(*g, RequestOf(*ro));
    if (!r) return std::unexpected(r.error());
    Emit(ctx, query::ToJson(*r), RouteText(*r));
    return {};
  });
}

// `opsim render`: the theater as SVG, with a route on top.
void AddRenderCommand(CLI::App& app, Context& ctx) {
  struct RenderOptions {
    std::string out;
    std::string sheet;
    std::string supply;  // a side, or empty
    std::string zoc;     // a side, or empty
    std::string page;    // a4, letter, or empty: one file
    RouteOptions route;
    bool force = false;
  };
  auto rd = std::make_shared<RenderOptions>();
  auto* render = app.add_subcommand(
      "render",
      "Draw the theater as SVG: terrain, hexsides, labels; with --from/--to or --path, a route "
      "on top; --supply and --zoc mark a side's supply and zones of control");
  AddGameSourceOptions(render, rd->route.game);
  render
      ->add_option("--out", rd->out,
                   "the SVG file to write (with --page: OUT-1.svg, OUT-2.svg, ...)")
      ->required();
  AddForceOption(render, rd->force);
  render->add_option("--sheet", rd->sheet, "draw only this sheet");
  render->add_option("--supply", rd->supply, "mark each unit of this side with its supply (B8)")
      ->check(CLI::IsMember({"allied", "axis"}));
  render->add_option("--zoc", rd->zoc, "outline the zones of control of this side (B4.8)")
      ->check(CLI::IsMember({"allied", "axis"}));
  render
      ->add_option("--page", rd->page,
                   "split the drawing into pages of this paper size, one SVG file each, the "
                   "legend last")
      ->check(CLI::IsMember({"a4", "letter"}));
  AddRouteOptions(render, rd->route);
  Bind(render, ctx, [&ctx, rd]() -> Status {
    auto g = LoadGame(ctx, rd->route.game);
    if (!g) return std::unexpected(g.error());
    RenderRequest req;
    req.sheet = rd->sheet;
    if (g->state) {
      for (const ops::GroundUnit& u : g->state->units) {
        if (!u.on_map()) continue;
        req.units.push_back({u.hex, u.id, u.side, UnitKind::kGround, query::CounterText(u), u.name,
                             u.nationality, g->campaign->tables.type(u.type).name});
      }
      for (const ops::AirUnit& u : g->state->air) {
        if (u.status == ops::AirStatus::kBased) {
          req.units.push_back(
              {u.base, u.id, u.side, UnitKind::kAir, "air", u.name, u.nationality, "air"});
        }
      }
      for (const ops::NavalUnit& u : g->state->naval) {
        if (!u.sunk) {
          req.units.push_back({u.hex, u.id, u.side, UnitKind::kNaval, ops::NavalKindName(u.kind),
                               u.name, u.nationality, "naval"});
        }
      }
    }
    if (!rd->supply.empty()) {
      auto a = query::AnswerSupplyAll(*g, *ParseSide(rd->supply));
      if (!a) return std::unexpected(a.error());
      req.supply_side = rd->supply;
      for (const query::UnitSupply& u : a->units) {
        req.supply.emplace_back(u.hex, ops::SupplyStatusName(u.status));
      }
    }
    if (!rd->zoc.empty() && g->state && g->campaign) {
      const Side side = *ParseSide(rd->zoc);
      req.zoc_side = rd->zoc;
      // B4.8: the zones `side` exerts are those its enemy meets.
      req.zoc = ops::Game(g->theater, g->campaign, *g->state)
                    .EnemyZoc(side == Side::kAxis ? Side::kAllied : Side::kAxis);
    }
    json doc = {{"out", rd->out}};
    if (rd->route.asked()) {
      auto r = query::AnswerRoute(*g, RequestOf(rd->route));
      if (!r) return std::unexpected(r.error());
      req.route = r->waypoints;
      doc["route"] = query::ToJson(*r);
    }
    const OutputKind& svg_file = query::SvgFile();
    if (!rd->page.empty()) {
      auto pages = RenderPages(*g->theater, g->map, req,
                               rd->page == "letter" ? PageSize::kLetter : PageSize::kA4);
      if (!pages) return std::unexpected(pages.error());
      // OUT.svg's pages are OUT-1.svg, OUT-2.svg, ...
      const std::filesystem::path out(rd->out);
      std::size_t bytes = 0;
      doc["pages"] = json::array();
      for (std::size_t i = 0; i < pages->size(); ++i) {
        std::filesystem::path file = out;
        file.replace_filename(out.stem().string() + "-" + std::to_string(i + 1) +
                              (out.has_extension() ? out.extension().string() : ".svg"));
        if (auto s = WriteOutputFile(file.string(), (*pages)[i], svg_file, rd->force); !s) return s;
        doc["pages"].push_back(file.string());
        bytes += (*pages)[i].size();
      }
      doc["bytes"] = bytes;
      Emit(ctx, doc,
           "wrote " + std::to_string(pages->size()) + " " + rd->page + " pages, " +
               doc["pages"].front().get<std::string>() + " to " +
               doc["pages"].back().get<std::string>() + " (" + std::to_string(bytes) + " bytes)");
      return {};
    }
    auto svg = RenderSvg(*g->theater, g->map, req);
    if (!svg) return std::unexpected(svg.error());
    if (auto s = WriteOutputFile(rd->out, *svg, svg_file, rd->force); !s) return s;
    doc["bytes"] = svg->size();
    Emit(ctx, doc, "wrote " + rd->out + " (" + std::to_string(svg->size()) + " bytes)");
    return {};
  });
}

// `opsim generate`: a synthetic theater.
void AddGenerateCommand(CLI::App& app, Context& ctx) {
  struct GenerateOptions {
    std::int64_t hexes = 100000;
    std::int64_t units = 0;
    std::uint64_t seed = 1;
    std::string out;
    bool force = false;
  };
  auto go = std::make_shared<GenerateOptions>();
  auto* generate = app.add_subcommand(
      "generate",
      "Write a synthetic theater of about N hexes (seas, coasts, rivers, lakes, canals, "
      "causeways, rail, ports, cities), for benchmarks and tests");
  generate->add_option("--hexes", go->hexes, "about how many hexes")
      ->check(InRange<std::int64_t>(100, 900'000))
      ->default_val(100000);
  generate
      ->add_option("--units", go->units,
                   "add a campaign with this many ground units, half a side each")
      ->check(InRange<std::int64_t>(0, 200'000))
      ->default_val(0);
  generate->add_option("--seed", go->seed, "random seed")->check(kSeedRange)->default_val(1);
  generate->add_option("--out", go->out, "the scenario file to write")->required();
  AddForceOption(generate, go->force);
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
    // Loaded before it is written: a theater opsim would refuse is not left behind.
    auto src = JsonSource::FromText(text, go->out);
    auto sc = src ? map::LoadScenario(*src) : Result<map::Scenario>(std::unexpected(src.error()));
    if (!sc) return std::unexpected(sc.error());
    if (auto s = WriteOutputFile(go->out, text, kScenarioOutput, go->force); !s) return s;
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

}  // namespace

void AddMapCommands(CLI::App& app, Context& ctx) {
  AddScenariosCommand(app, ctx);
  AddMapCommand(app, ctx);
  AddRouteCommand(app, ctx);
  AddRenderCommand(app, ctx);
  AddGenerateCommand(app, ctx);
}

}  // namespace opsim::cli
