// Line of sight on an ASL tactical board: whether it exists, and its Hindrances.
//
// A LOS is traced centre dot to centre dot (los_trace.h); a unit on a Bank counter is seen at
// its hex's centre dot (G8.4). It is blocked by an obstacle higher than both ends, or as high as
// the higher end and higher than the lower (so a Steep beach's Hinterland edge hides the beach
// below from units back from the edge; G13.23), by an obstacle on both sides of a hexside it runs
// along, by Inherent Terrain along its hexside unless an overlay covers that side (G13.13), by
// bank (hedge) hexsides for entrenched Infantry (G8.4), by low-seawall hexsides for a unit
// entrenched in a Beach hex (G13.622), and by stone piers between water Locations (G13.71).
// Hindrances: terrain and counters crossed or run along; an In-Season paddy's per-hex Hindrance
// is halved, FRD (G8.4); a low seawall adds at most +1 (G13.622); a wooden pier +1 (G13.71).
// Levels follow the Slope of the Beach (G13.21-.24). Pure; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "opsim/tactical/board.h"
#include "opsim/tactical/los_trace.h"
#include "opsim/tactical/unit.h"

namespace opsim::tactical {

// One end of a LOS and what stands there.
struct LosEnd {
  Position at;
  Unit unit;
  bool occupied = true;  // false: an "empty" hex is the target (G8.3)
  bool entrenched = false;
  bool crest = false;  // in Crest status (G13.23)
  int level_offset = 0;
};
// The end at a board unit's position, with its status.
LosEnd EndOf(const BoardUnit& u);

// A reason, with its rule and what it adds.
struct LosFactor {
  std::string rule;
  std::string what;
  int amount = 0;
  // Where on the LOS it lies, for a picture: the hex, or the two hexes of a hexside; empty for
  // what belongs to the whole LOS (the In-Season paddy's FRD) or to an end (TEM, FP, DRM).
  std::vector<GridPos> where = {};
};

struct LosResult {
  LosTrace trace;
  bool clear = true;
  std::optional<LosFactor> blocked;
  int from_level = 0;
  int to_level = 0;
  int hindrance = 0;
  std::vector<LosFactor> hindrances;
  // Whether each end is, for this LOS, a Crest-status unit looking across its Crest hexside
  // (and so at the crest's level, and entrenched vs this LOS; G13.23).
  bool from_at_crest = false;
  bool to_at_crest = false;
  // G13.711: a stone pier that would block the LOS to or from a large vehicle instead puts the
  // target directly behind a stone wall.
  bool stone_pier_cover = false;
};

LosResult CheckLos(const Board& b, const LosEnd& from, const LosEnd& to);

}  // namespace opsim::tactical
