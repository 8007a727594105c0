#include "opsim/query/route.h"

#include <memory>
#include <string>

#include "warm.h"

namespace opsim::query {

namespace {

using nlohmann::json;

ops::RuleContext ContextOf(const LoadedGame& g, bool exploitation) {
  ops::RuleContext ctx{*g.theater, g.map, g.tables()};
  ctx.player_turn = g.player_turn();
  ctx.exploitation = exploitation;
  return ctx;
}

// A ground router for `mover`, lent from the game's warm pool (warm.h). Its arcs and its
// barriers depend on the game alone, so it is built once per side, unit kind and phase: B4.8,
// with units on the map, enemy zones of control end a ground move and enemy units bar their
// hexes.
Lease<ops::GroundRouter> GroundRouterFor(const LoadedGame& g, const RouteRequest& r,
                                         const ops::GroundMover& mover) {
  const ops::RuleContext ctx = ContextOf(g, r.exploitation);
  Pool<ops::GroundRouter>& pool = g.warm.get().routers;
  std::string key = std::string(SideName(r.side)) + "/" + r.unit + (r.exploitation ? "/x" : "");
  std::unique_ptr<ops::GroundRouter> router = pool.Take(key);
  if (router) {
    router->Rebind(ctx);  // the same game, perhaps moved since
  } else {
    router = std::make_unique<ops::GroundRouter>(ctx, mover);
    if (g.state && g.campaign) {
      ops::Game game(g.theater, g.campaign, *g.state);
      std::vector<std::uint8_t> enemy(g.theater->hex_count(), 0);
      for (const ops::GroundUnit& u : g.state->units) {
        if (u.on_map() && u.side != r.side) enemy[u.hex.v] = 1;
      }
      router->SetBarriers(game.EnemyZoc(r.side), enemy);
    }
  }
  return Lease<ops::GroundRouter>(pool, std::move(key), std::move(router));
}

Result<ops::PathVerdict> CheckPath(const LoadedGame& g, const RouteRequest& r,
                                   const std::vector<ops::Waypoint>& path) {
  const ops::RuleContext ctx = ContextOf(g, r.exploitation);
  if (r.mode == RouteMode::kNaval) {
    auto group = ops::ParseGroup(r.group, r.side);
    if (!group) return std::unexpected(group.error());
    return ops::NavalRouter(ctx, *group).Check(path);
  }
  auto mover = ops::ParseUnitKind(ctx.tables, r.unit, r.side);
  if (!mover) return std::unexpected(mover.error());
  std::vector<map::HexRef> hexes;
  for (const ops::Waypoint& w : path) {
    if (w.is_river()) {
      return Fail(ErrorCode::kInvalidInput, "a ground path is made of hexes, not hexsides",
                  ops::FormatWaypoint(*g.theater, w));
    }
    hexes.push_back(w.hex);
  }
  return GroundRouterFor(g, r, *mover)->Check(hexes);
}

Result<ops::RouteAnswer> FindRoute(const LoadedGame& g, const RouteRequest& r) {
  const map::Theater& t = *g.theater;
  auto from = ops::ParseWaypoint(t, r.from);
  if (!from) return std::unexpected(from.error());
  auto to = ops::ParseWaypoint(t, r.to);
  if (!to) return std::unexpected(to.error());
  const ops::RuleContext ctx = ContextOf(g, r.exploitation);
  if (r.mode == RouteMode::kNaval) {
    auto group = ops::ParseGroup(r.group, r.side);
    if (!group) return std::unexpected(group.error());
    ops::NavalRouter router(ctx, *group);
    return router.Route(*from, *to);
  }
  auto mover = ops::ParseUnitKind(ctx.tables, r.unit, r.side);
  if (!mover) return std::unexpected(mover.error());
  if (from->is_river() || to->is_river()) {
    return Fail(ErrorCode::kInvalidInput, "a ground route runs between hexes", r.from);
  }
  return GroundRouterFor(g, r, *mover)->Route(from->hex, to->hex);
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

}  // namespace

Result<RouteAnswer> AnswerRoute(const LoadedGame& g, const RouteRequest& request) {
  const map::Theater& t = *g.theater;
  RouteAnswer a;
  a.request = request;
  if (request.checks_path()) {
    auto path = ops::ParseWaypoints(t, request.path);
    if (!path) return std::unexpected(path.error());
    auto v = CheckPath(g, request, *path);
    if (!v) return std::unexpected(v.error());
    if (!v->legal && v->blocked_by.empty()) {
      return Fail(ErrorCode::kInvalidInput, v->reason, request.path);
    }
    a.verdict = std::move(*v);
    for (const ops::Waypoint& w : *path) a.waypoints.push_back(ops::FormatWaypoint(t, w));
    return a;
  }
  auto found = FindRoute(g, request);
  if (!found) return std::unexpected(found.error());
  a.found = std::move(*found);
  for (const ops::Waypoint& w : a.found.path) a.waypoints.push_back(ops::FormatWaypoint(t, w));
  if (a.found.reachable) {
    // The route's steps, each with the rules that shaped it, as --path would give them.
    auto v = CheckPath(g, request, a.found.path);
    if (!v) return std::unexpected(v.error());
    a.verdict = std::move(*v);
  }
  return a;
}

json CostJson(RouteMode mode, std::uint32_t cost) {
  return mode == RouteMode::kNaval ? json(cost) : json(ops::ToMp(cost));
}

json ToJson(const RouteAnswer& a) {
  const RouteMode mode = a.request.mode;
  if (a.request.checks_path()) {
    const ops::PathVerdict& v = a.verdict;
    json doc = {{"legal", v.legal},
                {"cost", CostJson(mode, v.cost)},
                {"blocked_by", RuleList(v.blocked_by)},
                {"steps", NotesJson(v.notes)}};
    if (!v.legal) {
      doc["failed_step"] = v.failed_step;
      doc["reason"] = v.reason;
    }
    return doc;
  }
  const ops::RouteAnswer& r = a.found;
  json doc = {{"reachable", r.reachable},
              {"path", a.waypoints},
              {"cost", r.reachable ? CostJson(mode, r.cost) : json(nullptr)},
              {"blocked_by", RuleList(r.blocked_by)}};
  if (r.reachable) doc["steps"] = NotesJson(a.verdict.notes);
  if (!r.reachable) doc["reason"] = r.reason;
  return doc;
}

}  // namespace opsim::query
