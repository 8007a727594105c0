// B4.8 zones of control. Private to libops.
#pragma once

#include <cstdint>
#include <vector>

#include "opsim/ops/game.h"
#include "opsim/ops/route.h"

namespace opsim::ops {

// Hexes in the zones of control of `side`'s enemies, by hex (1: in one). A zone covers the
// unit's own hex and every neighbour it could step into; a hex holding units of both sides
// projects none. Zero-attack units exert one only where the tables say so.
std::vector<std::uint8_t> EnemyZones(const map::Theater& t, const GameState& s, Side side,
                                     const RuleContext& ctx);
// EnemyZones(...)[h], for one hex: from the units in it and its neighbours only (a retreat asks
// of a few hexes, where the whole map would cost a trace of every unit).
bool InEnemyZone(const map::Theater& t, const GameState& s, Side side, const RuleContext& ctx,
                 map::HexRef h);

}  // namespace opsim::ops
