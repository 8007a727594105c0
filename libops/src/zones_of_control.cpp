// B4.8: zones of control, the one place they are worked out. Movement (stopping in an enemy
// zone), retreats, the supply net (B8.2) and route queries all read this map.
#include "zones_of_control.h"

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

}  // namespace opsim::ops
