// B8 supply, shared by the initial phase and by supply queries. Private to libops.
#pragma once

#include <mutex>
#include <vector>

#include "opsim/ops/game.h"
#include "router_cache.h"

namespace opsim::ops {

struct SupplyNet {
  std::vector<map::HexRef> network;  // hexes of the road and rail net fed by sources
  std::vector<std::uint8_t> stop;    // enemy zones of control without a friendly unit (B4.8)
  std::vector<std::uint8_t> closed;  // hexes holding enemy units, or owned by the enemy (B8.2)
};

// The side's supply network: its sources (owned, free of enemy units), and the hexes joined to
// them by roads and railroads through hexes it owns that hold no enemy unit and lie in no
// enemy zone of control (unless a friendly unit stands there).
SupplyNet SupplyNetwork(const map::Theater& t, const GameState& s, const Campaign& c, Side side,
                        const RuleContext& ctx);

// For every hex, the half-MPs of the cheapest overland line from it to the network (B8.2), or
// kUnreachable. Router must be an inbound foot router of `side` (RouterCache keeps one).
const std::vector<std::uint32_t>& SupplyCosts(GroundRouter& router, const SupplyNet& net);
SupplyStatus SupplyFromCost(std::uint32_t cost, const RuleTables& tables);

// Every hex's supply for `side` at `s` (whose map `ctx` reads), by hex.
std::vector<SupplyStatus> SupplyByHex(const map::Theater& t, const GameState& s, const Campaign& c,
                                      Side side, const RuleContext& ctx, RouterCache& routers);

// The phasing side's supply by hex when a probe of one position (Game::Probe) reaches it in the
// initial phase: worked out by the first such probe and read by the rest. Until then a probe
// has changed the state only by what the state itself decides (floods that expire, ice that
// thaws, the Suez Canal's automatic closure), unless it has rolled a die: then it works out its
// own. Thread-safe: a Game's forks on other threads share it.
class ProbeSupply {
 public:
  template <class Compute>
  const std::vector<SupplyStatus>& Get(Compute&& compute) {
    std::call_once(once_, [&] { by_hex_ = compute(); });
    return by_hex_;
  }

 private:
  std::once_flag once_;
  std::vector<SupplyStatus> by_hex_;
};

}  // namespace opsim::ops
