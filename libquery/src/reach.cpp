#include "opsim/query/reach.h"

#include "opsim/ops/calendar.h"
#include "warm.h"

namespace opsim::query {

using nlohmann::json;

double CostOf(const ops::ReachAnswer& a, std::uint32_t cost) {
  return a.rail ? cost : ops::ToMp(cost);
}

Result<ReachAnswer> AnswerReach(const LoadedGame& g, const ReachRequest& request) {
  const map::Theater& t = *g.theater;
  if (!g.campaign || !g.state) {
    return Fail(ErrorCode::kInvalidInput,
                "scenario '" + g.scenario.name + "' is a map only: it has no units to move");
  }
  const Side side = request.side.value_or(g.state->phasing());
  // The waiting side plans its coming player-turn from the present position.
  auto lease = LeasePlanningGame(g, side);
  if (!lease) return std::unexpected(lease.error());
  const ops::Game& game = **lease;
  ReachAnswer a;
  a.request = request;
  a.turn = ops::FormatGameDate(game.state().date());
  ops::ReachRequest r;
  r.exploitation = request.exploitation;
  r.rail = request.rail;
  r.units = request.units;
  if (!request.hex.empty()) {
    auto hex = t.FindHex(request.hex);
    if (!hex) return std::unexpected(hex.error());
    for (const ops::GroundUnit& u : game.state().units) {
      // In exploitation, the stack's motorized units (B7.8).
      if (u.on_map() && u.side == side && u.hex == *hex &&
          (!request.exploitation || game.tables().type(u.type).motorized)) {
        r.units.push_back(u.id);
      }
    }
    if (r.units.empty()) {
      return Fail(ErrorCode::kInvalidInput,
                  std::string("no ") + SideName(side) + " unit in " + t.HexName(*hex) +
                      (request.exploitation ? " may exploit" : " to move"),
                  request.hex);
    }
  }
  if (!request.to.empty()) {
    auto to = t.FindHex(request.to);
    if (!to) return std::unexpected(to.error());
    a.to = *to;
    r.to = *to;
  }
  auto found = ops::Reach(game, r);
  if (!found) return std::unexpected(found.error());
  a.found = std::move(*found);
  for (std::size_t i = 1; i < a.found.hexes.size(); ++i) {
    if (!request.max_cost || CostOf(a.found, a.found.hexes[i].cost) <= *request.max_cost) {
      a.listed.push_back(i);
    }
  }
  return a;
}

bool WeatherRollFirst(const ReachAnswer& a) {
  return a.found.player_turn % 2 == 0;
}

json ToJson(const map::Theater& t, const ReachAnswer& a) {
  const ops::ReachAnswer& f = a.found;
  auto path = [&](const std::vector<map::HexRef>& hexes) {
    json out = json::array();
    for (map::HexRef h : hexes) out.push_back(t.HexName(h));
    return out;
  };
  json units = json::array();
  for (const ops::ReachUnit& u : f.units) {
    units.push_back({{"id", u.id},
                     {"name", u.name},
                     {"class", u.class_name},
                     {"mp", ops::ToMp(static_cast<std::uint32_t>(u.allowance))},
                     {"marker", ops::ToMp(static_cast<std::uint32_t>(u.marker))}});
  }
  json hexes = json::array();
  for (std::size_t i : a.listed) {
    const ops::ReachHex& h = f.hexes[i];
    json e = {{"hex", t.HexName(h.hex)}, {"cost", CostOf(f, h.cost)}, {"path", path(h.path)}};
    if (!h.stop.empty()) e["stop"] = h.stop.id;
    if (!h.no_end.empty()) e["no_end"] = h.no_end.id;
    if (!h.why.empty()) e["why"] = h.why;
    hexes.push_back(std::move(e));
  }
  json blocked = json::array();
  for (const ops::ReachEdge& e : f.blocked) {
    blocked.push_back({{"from", t.HexName(e.from)},
                       {"to", t.HexName(e.to)},
                       {"rule", e.rule.id},
                       {"why", e.why}});
  }
  json doc = {{"side", SideName(f.side)},
              {"turn", a.turn},
              {"player_turn", f.player_turn},
              {"phase", f.exploitation ? "exploitation" : "movement"},
              {"mode", f.rail ? "rail" : "ground"},
              {"weather_roll_first", WeatherRollFirst(a)},
              {"from", t.HexName(f.start)},
              {"units", units},
              {"count", a.listed.size()},
              {"hexes", hexes},
              {"blocked", blocked}};
  if (a.to) {
    json to = {{"hex", t.HexName(*a.to)}, {"reachable", f.to_reached}};
    for (std::size_t i = 1; i < f.hexes.size(); ++i) {
      const ops::ReachHex& h = f.hexes[i];
      if (h.hex != *a.to) continue;
      to["cost"] = CostOf(f, h.cost);
      to["path"] = path(h.path);
      if (!h.stop.empty()) to["stop"] = h.stop.id;
      if (!h.no_end.empty()) to["no_end"] = h.no_end.id;
    }
    json steps = json::array();
    for (const ops::ReachStep& s : f.steps) {
      json notes = json::array();
      for (const ops::Note& n : s.notes) notes.push_back({{"rule", n.rule.id}, {"text", n.text}});
      steps.push_back({{"hex", t.HexName(s.hex)}, {"cost", CostOf(f, s.cost)}, {"notes", notes}});
    }
    to["steps"] = steps;
    json into = json::array();
    for (const ops::ReachEdge& e : f.blocked) {
      if (e.to == *a.to)
        into.push_back({{"from", t.HexName(e.from)}, {"rule", e.rule.id}, {"why", e.why}});
    }
    to["blocked"] = into;
    doc["to"] = to;
  }
  return doc;
}

}  // namespace opsim::query
