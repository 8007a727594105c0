// B4.8: zones of control, the one place they are worked out. Movement (stopping in an enemy
// zone), retreats, the supply net (B8.2) and route queries all read this map.
#include "zones_of_control.h"

#include <algorithm>
#include <array>

#include "router_cache.h"

namespace opsim::ops {

namespace {

// Whether `u`, an enemy of `side`, exerts a zone of control at all.
bool Exerts(const GroundUnit& u, Side side, const RuleContext& ctx) {
  return u.on_map() && u.side != side && (u.attack != 0 || ctx.tables.zoc_from_zero_attack);
}

// The mover whose steps a zone of `enemy` reaches across (Reaches).
GroundMover ZoneMover(Side enemy) {
  GroundMover mover;
  mover.side = enemy;
  return mover;
}

// Whether a zone exerted from `from` reaches its neighbour across `e`: a unit of `enemy` could
// step there (not across all-sea or unfrozen lake hexsides, not into prohibited hexes).
bool Reaches(const RuleContext& ctx, Side enemy, map::HexRef from, map::HexsideRef e) {
  return EvaluateGroundStep(ctx, ZoneMover(enemy), from, e, nullptr).blocked.empty();
}

}  // namespace

std::vector<std::uint8_t> EnemyZones(const map::Theater& t, const GameState& s, Side side,
                                     const RuleContext& ctx) {
  std::vector<std::uint8_t> zoc(t.hex_count(), 0);
  // A hex that holds units of both sides (an air assault, B11.3) is contested: the units in it
  // exert no zone beyond it.
  std::vector<std::uint8_t> own(t.hex_count(), 0);
  for (const GroundUnit& u : s.units) {
    if (u.on_map() && u.side == side) own[u.hex.v] = 1;
  }
  for (const GroundUnit& u : s.units) {
    if (!Exerts(u, side, ctx)) continue;
    zoc[u.hex.v] = 1;
    if (own[u.hex.v]) continue;
    // A zone reaches every neighbour the unit could step into. (A neighbour already in a zone
    // is not asked.)
    for (map::Dir d : map::kAllDirs) {
      const map::HexsideRef side_ref = t.HexsideAt(u.hex, d);
      if (!side_ref.valid()) continue;
      const map::HexRef next = t.hexside(side_ref).Other(u.hex);
      if (!zoc[next.v] && Reaches(ctx, u.side, u.hex, side_ref)) zoc[next.v] = 1;
    }
  }
  return zoc;
}

bool InEnemyZone(const map::Theater& t, const GameState& s, Side side, const RuleContext& ctx,
                 map::HexRef h) {
  // The hex and its neighbours: which hold a unit that exerts a zone, and which hold a unit of
  // `side` (contested: its enemies exert no zone beyond it).
  std::array<map::HexRef, 7> near{h};
  std::array<map::HexsideRef, 7> across{};
  std::size_t n = 1;
  for (map::Dir d : map::kAllDirs) {
    const map::HexsideRef e = t.HexsideAt(h, d);
    if (!e.valid()) continue;
    near[n] = t.hexside(e).Other(h);
    across[n++] = e;
  }
  std::array<bool, 7> exerted{}, own{};
  for (const GroundUnit& u : s.units) {
    if (!u.on_map()) continue;
    for (std::size_t i = 0; i < n; ++i) {
      if (u.hex != near[i]) continue;
      if (u.side == side) own[i] = true;
      if (Exerts(u, side, ctx)) exerted[i] = true;
    }
  }
  if (exerted[0]) return true;
  for (std::size_t i = 1; i < n; ++i) {
    if (exerted[i] && !own[i] && Reaches(ctx, Enemy(side), near[i], across[i])) return true;
  }
  return false;
}

std::shared_ptr<const std::vector<std::uint8_t>> ZoneCache::Get(const map::Theater& t,
                                                                const GameState& s, Side side,
                                                                const RuleContext& ctx) {
  // The key: what EnemyZones reads of the units, then of the map.
  std::vector<std::uint32_t> own;
  for (const GroundUnit& u : s.units) {
    if (u.on_map() && u.side == side) own.push_back(u.hex.v);
  }
  std::sort(own.begin(), own.end());
  std::vector<std::uint64_t> units;
  for (const GroundUnit& u : s.units) {
    if (!Exerts(u, side, ctx)) continue;
    const bool contested = std::binary_search(own.begin(), own.end(), u.hex.v);
    units.push_back(std::uint64_t{u.hex.v} << 1 | static_cast<std::uint64_t>(contested));
  }
  std::string map = StepSignature(ctx, ZoneMover(Enemy(side)));
  {
    std::lock_guard lock(mu_);
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
      return e.side == side && e.units == units && e.map == map;
    });
    if (it != entries_.end()) {
      ++hits_;
      std::rotate(entries_.begin(), it, it + 1);
      return entries_.front().zones;
    }
  }
  // Worked out outside the lock: two threads that miss at once both work it out, alike.
  auto zones = std::make_shared<const std::vector<std::uint8_t>>(EnemyZones(t, s, side, ctx));
  std::lock_guard lock(mu_);
  if (entries_.size() == kEntries) entries_.pop_back();
  entries_.insert(entries_.begin(), Entry{side, std::move(units), std::move(map), zones});
  return zones;
}

std::size_t ZoneCache::hits() const {
  std::lock_guard lock(mu_);
  return hits_;
}

}  // namespace opsim::ops
