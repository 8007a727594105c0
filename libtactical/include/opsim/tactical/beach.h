// G13 Beaches: what each hex and hexside is once Beach and OCEAN overlays are in play.
//
// Beach hexes are sand, Hard or Soft (G13.3); OCEAN hexes (Ocean, Lake or River; G13.12) are
// shallow or deep by the Slope of the Beach, their distance from it and any reef (G13.4,
// G13.43); land hexes other than Beach and Island hexes are Hinterland (G13.2). The Slope decides
// levels and Crest Lines along Beach-Hinterland hexsides (G13.21-.24); seawalls line them
// (G13.6); piers stand in water or Beach hexes (G13.7). Movement, LOS and attacks read these
// through movement.h, los.h and attack.h; the DYO procedure is beach_dyo.h. Pure functions of
// the board; thread-safe.
#pragma once

#include <vector>

#include "opsim/core/dice.h"
#include "opsim/core/error.h"
#include "opsim/tactical/board.h"
#include "opsim/tactical/unit.h"

namespace opsim::tactical {

bool IsBeach(const Board& b, GridPos hex);
bool IsEffluent(const Board& b, GridPos hex);
// G13.12: a mapboard river hex is OCEAN only if an OCEAN-overlay hexside covers one of that
// river's hexsides, i.e. an OCEAN-overlay hex borders the river.
bool RiverIsOcean(const Board& b, GridPos hex);
// An OCEAN hex: an OCEAN-overlay hex, or a river hex made OCEAN by G13.12. An Exposed-reef hex
// is land (G13.431), not OCEAN.
bool IsOcean(const Board& b, GridPos hex);
// "Ocean" proper: an OCEAN hex when the OCEAN represents Ocean (G13.12).
bool IsOceanProper(const Board& b, GridPos hex);
bool IsExposedReef(const Board& b, GridPos hex);
bool IsIsland(const Board& b, GridPos hex);
// Land: neither OCEAN nor a Water Obstacle.
bool IsLand(const Board& b, GridPos hex);
// G13.2: non-Beach land that is not part of an Island, when any Beach/OCEAN overlay is in use.
bool IsHinterland(const Board& b, GridPos hex);

bool IsBeachHinterland(const Board& b, const Hexside& h);
bool IsBeachOcean(const Board& b, const Hexside& h);
// G13.41: an OCEAN-Hinterland or OCEAN-Island hexside (a Crest Line as per B21.2).
bool IsOceanShore(const Board& b, const Hexside& h);
// G13.24: a Beach hex with a cliff Beach-Hinterland hexside, at Level -1 for all purposes.
bool IsCliffBeach(const Board& b, GridPos hex);

// G13.3: Hard Sand if the Beach hex has a Beach-OCEAN hexside and is not Steeply Sloped, or EC
// are Wet, Mud or Snow; an Effluent hex is always Hard (G13.14).
bool IsHardSand(const Board& b, GridPos hex);

enum class Depth { kShallow, kDeep };
// G13.4: shallow within 3 hexes of a Slightly, 2 of a Moderately, or 1 of a Steeply Sloped Beach
// hex [EXC G13.43: every Ocean hex between a reef and the shore; a Submerged-reef hex].
Depth OceanDepth(const Board& b, GridPos hex);
// G13.43: an Ocean hex on the shore side of the reef.
bool BetweenReefAndShore(const Board& b, GridPos hex);
// G13.91: the reef is the hexrow (or Alternate Hex Grain) of Ocean hexes next to the entry area.
std::vector<GridPos> ReefBeside(const Board& b, const std::vector<GridPos>& entry_area);
// G13.44: Heavy Surf applies in this hex (an Ocean hex not between the reef and the shore).
bool HeavySurfIn(const Board& b, GridPos hex);

// G13.493: a shallow-OCEAN Location containing a Rubble counter is a rubble land Location, not an
// OCEAN one: no Wading there, rubble's COT, and CC is allowed.
bool IsRubbleLand(const Board& b, GridPos hex);

// G13.42: a unit in a shallow-OCEAN (or Submerged-reef) Location is Wading, unless it is a LC or
// boat; a unit on a pier is not in the water; nor is one on rubble (G13.493), nor on frozen
// OCEAN (G13.494: B21.6 applies instead).
bool IsWading(const Board& b, const Position& p, const Unit& u);

// G13.6: a seawall hexside: a Beach-Hinterland hexside when a seawall SSR is in effect (all of
// them unless the board designates which).
bool IsSeawallHexside(const Board& b, const Hexside& h);

// The range from `hex` to the nearest land hex.
int RangeToLand(const Board& b, GridPos hex);
// G13.4222: + twice (Slight), three times (Moderate) or six times (Steep) that range.
int SwampingDrm(const Board& b, GridPos hex);
struct SwampingRoll {
  int dice[2] = {0, 0};
  int drm = 0;
  int final_dr = 0;
  bool immobilized = false;  // Final DR >= 12
};
SwampingRoll RollSwamping(Dice& dice, int drm);
// G13.441: one Secret DR and dr for the vehicle's MPh; only an Original 12 matters.
struct SurfSwampingRoll {
  int dice[2] = {0, 0};
  int dr = 0;  // picks the eligible hex, as for a vehicle moving in mud (D8.23)
  bool swamped = false;
};
SurfSwampingRoll RollSurfSwamping(Dice& dice);

// The level of a hex for LOS and movement. Beach and OCEAN hexes are Level -1, but a LOS or
// move across a Beach-Hinterland hexside of a Slightly or Moderately Sloped beach treats them
// as Level 0 (G13.21, G13.22) unless the Beach hex is a cliff hex (G13.24).
int TerrainLevel(const Board& b, GridPos hex, bool across_beach_hinterland);

// G13.23: Infantry in a Steeply Sloped Beach hex with a Beach-Hinterland hexside may gain Crest
// status along those hexsides.
Status MayGainCrestStatus(const Board& b, const Position& p, const Unit& u);
// The hexsides a Crest-status unit at `hex` holds: its Beach-Hinterland hexsides.
std::vector<Hexside> CrestHexsides(const Board& b, GridPos hex);

// G13.5, G13.6, G13.2, G13.43, G13.11: a board's beach set-up is legal under its settings.
Status CheckBeachSetup(const Board& b);

}  // namespace opsim::tactical
