#include "opsim/query/supply.h"

#include <map>

namespace opsim::query {

using nlohmann::json;

Result<SupplyHexAnswer> AnswerSupplyAt(const LoadedGame& g, Side side, std::string_view hex) {
  auto game = GameOf(g);
  if (!game) return std::unexpected(game.error());
  auto h = g.theater->FindHex(hex);
  if (!h) return std::unexpected(h.error());
  return SupplyHexAnswer{side, *h, game->SupplyAt(side, *h)};
}

json ToJson(const map::Theater& t, const SupplyHexAnswer& a) {
  const ops::SupplyTrace& trace = a.trace;
  json path = json::array();
  for (map::HexRef p : trace.path) path.push_back(t.HexName(p));
  json rules = json::array();
  for (RuleId r : trace.rules) rules.push_back(r.id);
  json doc = {{"hex", t.HexName(a.hex)},
              {"side", SideName(a.side)},
              {"status", ops::SupplyStatusName(trace.status)},
              {"in_supply", trace.status == ops::SupplyStatus::kSupplied},
              {"path", path},
              {"rules", rules}};
  if (!trace.path.empty()) doc["cost_mp"] = ops::ToMp(trace.cost);
  if (trace.network.valid()) doc["network"] = t.HexName(trace.network);
  if (!trace.why.empty()) doc["why"] = trace.why;
  return doc;
}

Result<SupplyAllAnswer> AnswerSupplyAll(const LoadedGame& g, Side side) {
  auto game = GameOf(g);
  if (!game) return std::unexpected(game.error());
  const std::vector<ops::SupplyStatus> map = game->SupplyMap(side);
  SupplyAllAnswer a;
  a.side = side;
  for (const ops::GroundUnit& u : game->state().units) {
    if (!u.on_map() || u.side != side) continue;
    a.units.push_back({u.id, u.name, u.hex, map[u.hex.v]});
  }
  return a;
}

json ToJson(const map::Theater& t, const SupplyAllAnswer& a) {
  json units = json::array();
  std::map<std::string, int> counts;
  for (const UnitSupply& u : a.units) {
    ++counts[ops::SupplyStatusName(u.status)];
    units.push_back({{"id", u.id},
                     {"name", u.name},
                     {"hex", t.HexName(u.hex)},
                     {"status", ops::SupplyStatusName(u.status)}});
  }
  return {{"side", SideName(a.side)}, {"units", units}, {"counts", counts}};
}

}  // namespace opsim::query
