// B8: supply lines, traced from a unit overland to the road and rail net fed by the sources.
#include "supply.h"

#include <deque>

#include "opsim/core/rule_ids.h"

namespace opsim::ops {

std::vector<std::uint8_t> EnemyZones(const map::Theater& t, const GameState& s, Side side,
                                     const RuleContext& ctx) {
  std::vector<std::uint8_t> zoc(t.hex_count(), 0);
  // A hex that holds units of both sides (an air assault, B11.3) is contested: the units in it
  // exert no zone beyond it.
  std::vector<std::uint8_t> own(t.hex_count(), 0);
  for (const GroundUnit& u : s.units) {
    if (u.on_map() && u.side == side) own[u.hex.v] = 1;
  }
  const bool zero = ctx.tables.zoc_from_zero_attack;
  for (const GroundUnit& u : s.units) {
    if (!u.on_map() || u.side == side || (u.attack == 0 && !zero)) continue;
    zoc[u.hex.v] = 1;
    if (own[u.hex.v]) continue;
    // A zone reaches every neighbour the unit could step into: not across all-sea or unfrozen
    // lake hexsides, not into prohibited hexes. (A neighbour already in a zone is not asked.)
    GroundMover mover;
    mover.side = u.side;
    for (map::Dir d : map::kAllDirs) {
      const map::HexsideRef side_ref = t.HexsideAt(u.hex, d);
      if (!side_ref.valid()) continue;
      const map::HexRef next = t.hexside(side_ref).Other(u.hex);
      if (zoc[next.v]) continue;
      if (EvaluateGroundStep(ctx, mover, u.hex, side_ref, nullptr).blocked.empty()) {
        zoc[next.v] = 1;
      }
    }
  }
  return zoc;
}

SupplyNet SupplyNetwork(const map::Theater& t, const GameState& s, const Campaign& c, Side side,
                        const RuleContext& ctx) {
  SupplyNet net;
  const std::size_t n = t.hex_count();
  const std::vector<std::uint8_t> zoc = EnemyZones(t, s, side, ctx);
  std::vector<std::uint8_t> friendly(n, 0), enemy(n, 0);
  for (const GroundUnit& u : s.units) {
    if (!u.on_map()) continue;
    (u.side == side ? friendly : enemy)[u.hex.v] = 1;
  }
  const Owner foe = OwnerOf(Enemy(side));
  net.closed.resize(n);
  net.stop.resize(n);
  for (std::size_t v = 0; v < n; ++v) {
    net.closed[v] = enemy[v] || s.map.owner(map::HexRef{static_cast<std::uint32_t>(v)}) == foe;
    net.stop[v] = zoc[v] && !friendly[v];
  }
  const Owner own = OwnerOf(side);
  auto usable = [&](map::HexRef h) {
    return s.map.owner(h) == own && !enemy[h.v] && !net.stop[h.v];
  };
  std::vector<std::uint8_t> in_net(n, 0);
  std::deque<map::HexRef> todo;
  for (map::HexRef src : c.supply_sources[static_cast<int>(side)]) {
    if (usable(src) && !in_net[src.v]) {
      in_net[src.v] = 1;
      todo.push_back(src);
    }
  }
  while (!todo.empty()) {
    const map::HexRef h = todo.front();
    todo.pop_front();
    net.network.push_back(h);
    for (map::Dir d : map::kAllDirs) {
      const map::HexsideRef e = t.HexsideAt(h, d);
      if (!e.valid()) continue;
      const map::HexsideInfo& info = t.hexside(e);
      if (!info.Has(map::kRoad) && !info.Has(map::kRailroad)) continue;
      if (info.IsBridge() && s.map.bridge_destroyed(e)) continue;  // B14: the line is cut
      const map::HexRef next = info.Other(h);
      if (in_net[next.v] || !usable(next)) continue;
      in_net[next.v] = 1;
      todo.push_back(next);
    }
  }
  return net;
}

const std::vector<std::uint32_t>& SupplyCosts(GroundRouter& router, const SupplyNet& net) {
  router.SetBarriers(net.stop, net.closed);
  return router.CostsFrom(net.network);
}

SupplyStatus SupplyFromCost(std::uint32_t cost, const RuleTables& tables) {
  if (cost == kUnreachable) return SupplyStatus::kIsolated;
  if (cost <= static_cast<std::uint32_t>(tables.supply_overland_mp) * 2) {
    return SupplyStatus::kSupplied;
  }
  return SupplyStatus::kOutOfSupply;
}

}  // namespace opsim::ops
