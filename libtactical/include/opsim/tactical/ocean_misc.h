// OCEAN miscellany: G13.46 (overlay entry), G13.48 (sunk boats), G13.491-.492 (berserk,
// paratroops and gliders), G13.731-.734 (Watercraft at piers) and G13.83 (Straying).
//
// These rules answer questions about Watercraft, landings and units in sight of the sea that no
// movement path asks; opsim does not move boats or landing craft, so each is a function of the
// board and of what the caller says of the unit. Every refusal names its rule. Pure; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/tactical/board.h"
#include "opsim/tactical/los.h"
#include "opsim/tactical/unit.h"

namespace opsim::tactical {

// A consequence, with the rule that imposes it.
struct OceanEffect {
  std::string rule;
  std::string text;
};

// G13.46: a Watercraft (not a DD tank expending amphibious MP) entering an OCEAN hex from
// offboard has, for LOS and TH purposes only, expended four MP to enter it; nullopt otherwise.
std::optional<int> OverlayEntryMp(const Board& b, GridPos entered, const Unit& u,
                                  bool dd_tank_amphibious);

// G13.46: the -1 Target Acquisition a Gun on land may claim the first time it fires in the game.
struct FirstShot {
  bool first_fire_of_game = true;
  bool vehicle_target_type = true;
  bool targets_initial_mph_or_dfph = true;  // the Watercraft's initial MPh (or DFPh) of the game
  bool target_dd_tank_amphibious = false;
  bool relinquishes_hip_and_concealment = true;
};
int FirstShotAcquisitionDrm(const Board& b, GridPos gun, GridPos target, const Unit& target_unit,
                            const FirstShot& shot);

// G13.48: a boat (not a LC) that sinks in `hex`. In shallow OCEAN its Passengers become Wading
// Infantry there and its SW and Guns are eliminated (E5.531-.532 do not apply); elsewhere
// E5.531-.532 apply, which these texts do not hold.
struct SunkBoat {
  bool passengers_wading = false;
  bool sw_and_guns_eliminated = false;
  std::vector<OceanEffect> effects;
};
SunkBoat SinkBoat(const Board& b, GridPos hex);

// G13.491: units in OCEAN hexes are not Known for berserk creation/charge purposes.
bool KnownForBerserk(const Board& b, GridPos enemy);
// G13.491: a unit on land whose berserk result is changed to Battle Hardening because the
// closest Known enemy unit on land is farther from it than the closest enemy unit in an OCEAN
// hex in its LOS.
struct BerserkEnemy {
  LosEnd at;
  bool known = true;
};
bool BerserkBecomesBattleHardening(const Board& b, const LosEnd& unit,
                                   const std::vector<BerserkEnemy>& enemies);

// G13.492: a parachute or glider landing in shallow OCEAN. A ⅝" parachute is Wading and takes a
// NMC (E9.42) with the G13.4222 DRM and +1 more in Heavy Surf, G13.421 applying to its result; a
// ½" parachute is eliminated; a glider lands as in a fordable river (E8.23-.232), +1 Crash drm in
// Heavy Surf, and its Passengers are Wading. An error if `hex` is not shallow OCEAN.
enum class AerialLanding { kFiveEighthsParachute, kHalfInchParachute, kGlider };
struct OceanLanding {
  bool eliminated = false;
  bool wading = false;
  std::optional<int> nmc_drm;  // the NMC's DRM, when one is taken
  int crash_drm = 0;           // the glider's extra Crash drm
  std::vector<OceanEffect> effects;
};
Result<OceanLanding> LandInShallowOcean(const Board& b, GridPos hex, AerialLanding landing);

// G13.731: the MF/MP Personnel spend to (un)load between a Stopped LC (in a water Location) or
// amphibian (in a water/Beach Location) and an adjacent pier: 50% (FRU) of their allotment, 100%
// if Heavy Surf applies in that water Location; no extra COT or elevation cost. Refused, with
// its rule, for other craft or places.
Result<int> PierUnloadingCost(const Board& b, GridPos craft_hex, GridPos pier_hex,
                              const Unit& craft, int allotment);
// G13.732: only Personnel (un)load between a boat and a pier, and only with the boat Beached
// across a hexside of that pier hex; a boat cannot Beach while beneath a Pier counter.
Status MayBoatUseThePier(const Board& b, GridPos boat_hex, GridPos beached_across, bool personnel,
                         bool beneath_pier);
// G13.734: a LC/amphibian does not Drift if it would Drift into a pier hex; a boat or swimmer
// (Infantry) not if into a stone-pier hex.
bool DriftBlockedByPier(const Board& b, GridPos into, const Unit& u);

// G13.83: whether the unit has a LOS to any Beach or OCEAN Location.
bool SeesBeachOrOcean(const Board& b, const LosEnd& unit);
// G13.83: at night, a unit that begins its MPh with such a LOS is exempt from Straying in it.
bool ExemptFromStraying(const Board& b, const LosEnd& unit);

}  // namespace opsim::tactical
