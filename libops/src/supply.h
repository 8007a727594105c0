// B8 supply, shared by the initial phase and by supply queries. Private to libops.
#pragma once

#include <vector>

#include "opsim/ops/game.h"

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

}  // namespace opsim::ops
