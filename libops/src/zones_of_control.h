// B4.8 zones of control, and the cache that shares them between the probes and queries of
// one position. Private to libops.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
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

// EnemyZones, worked out once for each thing it reads and then shared: a Game keeps one for
// its copies and forks, so that every check (each probe's movement phase) and reach of one
// position asks for the whole map's zones once, where each used to trace every enemy unit.
// An entry is keyed by exactly what EnemyZones reads: the side; each enemy unit that exerts a
// zone, by its hex and whether a unit of `side` shares that hex (contested); and the map
// state the enemy's step verdicts read (StepSignature). So it is never stale: a position in
// which anything it reads has changed has another key, and its own zones. The theater and the
// rules are the Game's, fixed. Keeps the kEntries most recently used. Thread-safe.
class ZoneCache {
 public:
  std::shared_ptr<const std::vector<std::uint8_t>> Get(const map::Theater& t, const GameState& s,
                                                       Side side, const RuleContext& ctx);
  // How many Get calls were answered from an entry (for tests).
  std::size_t hits() const;

 private:
  // A player-turn's few positions (before and after combat), both sides, a weather or two.
  static constexpr std::size_t kEntries = 8;
  struct Entry {
    Side side;
    std::vector<std::uint64_t> units;  // each exerting enemy unit: hex << 1 | contested
    std::string map;                   // StepSignature of the enemy's mover
    std::shared_ptr<const std::vector<std::uint8_t>> zones;
  };
  mutable std::mutex mu_;
  std::vector<Entry> entries_;  // newest first
  std::size_t hits_ = 0;
};

}  // namespace opsim::ops
