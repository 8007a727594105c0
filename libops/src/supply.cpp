// B8: supply lines, traced from a unit overland to the road and rail net fed by the sources.
#include "supply.h"

#include <algorithm>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/pending/queue.hpp>

#include "opsim/core/rule_ids.h"
#include "zones_of_control.h"

namespace opsim::ops {

namespace {

// The supply view of the ground graph (B8.2): edges along a road or railroad not cut at a
// destroyed bridge (B14), into hexes the side owns that hold no enemy unit and lie in no enemy
// zone unheld. Pointers, as BGL wants its filters default-constructible.
struct SupplyLine {
  const map::Theater* t = nullptr;
  const map::MapState* m = nullptr;
  bool operator()(const map::Theater::Graph::edge_descriptor& e) const {
    const map::HexsideRef side{t->graph()[e].hexside};
    const map::HexsideInfo& info = t->hexside(side);
    return (info.Has(map::kRoad) || info.Has(map::kRailroad)) &&
           !(info.IsBridge() && m->bridge_destroyed(side));
  }
};
struct SupplyHex {
  const map::MapState* m = nullptr;
  Owner own = Owner::kNone;
  const std::vector<std::uint8_t>* enemy = nullptr;
  const std::vector<std::uint8_t>* stop = nullptr;
  bool operator()(std::uint32_t v) const {
    return m->owner(map::HexRef{v}) == own && !(*enemy)[v] && !(*stop)[v];
  }
};

// The network in the order the search takes its hexes from the queue.
struct InQueueOrder : boost::default_bfs_visitor {
  explicit InQueueOrder(std::vector<map::HexRef>* out) : out(out) {}
  template <class Graph>
  void examine_vertex(std::uint32_t v, const Graph&) const {
    out->push_back(map::HexRef{v});
  }
  std::vector<map::HexRef>* out;
};

}  // namespace

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
  const SupplyHex usable{&s.map, OwnerOf(side), &enemy, &net.stop};
  std::vector<std::uint32_t> sources;
  for (map::HexRef src : c.supply_sources[static_cast<int>(side)]) {
    if (usable(src.v) && std::find(sources.begin(), sources.end(), src.v) == sources.end()) {
      sources.push_back(src.v);
    }
  }
  const map::Theater::Graph& g = t.graph();
  const boost::filtered_graph<map::Theater::Graph, SupplyLine, SupplyHex> view(
      g, SupplyLine{&t, &s.map}, usable);
  std::vector<boost::default_color_type> color(n, boost::white_color);
  boost::queue<std::uint32_t> todo;
  boost::breadth_first_search(
      view, sources.begin(), sources.end(), todo, InQueueOrder{&net.network},
      boost::make_iterator_property_map(color.begin(), boost::get(boost::vertex_index, g)));
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

std::vector<SupplyStatus> SupplyByHex(const map::Theater& t, const GameState& s, const Campaign& c,
                                      Side side, const RuleContext& ctx, RouterCache& routers) {
  GroundMover foot;
  foot.side = side;
  GroundRouter& router = routers.Get(ctx, foot, GroundRouter::Arcs::kInbound);
  const std::vector<std::uint32_t>& cost = SupplyCosts(router, SupplyNetwork(t, s, c, side, ctx));
  std::vector<SupplyStatus> out(t.hex_count());
  for (std::size_t v = 0; v < out.size(); ++v) out[v] = SupplyFromCost(cost[v], c.tables);
  return out;
}

}  // namespace opsim::ops
