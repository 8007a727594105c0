// Heavy Surf and Watercraft: G13.442 to G13.449.
//
// When Heavy Surf is in effect in an Ocean Location (beach.h: HeavySurfIn), a LC there that is
// not Aground makes an (un)Beaching DR each phase (G13.442; LC wrecks G13.4422, boats G13.4423);
// (un)loading costs double (G13.443); Watercraft and swimmers Drift toward the nearest non-Island
// land hex (G13.444); LC cannot run Aground (G13.446); Heavy Winds blow all scenario (G13.448);
// Naval OBA gets +1 to its Accuracy dr but no +1 IFT DRM (G13.449). Moving Watercraft is not
// modelled; these functions answer the questions the rules ask. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "opsim/tactical/board.h"
#include "opsim/tactical/cost.h"

namespace opsim::tactical {

struct SurfFactor {
  std::string rule;
  std::string what;
  int amount = 0;
};

// G13.442: must a LC (not Aground) in this Ocean Location make an (un)Beaching DR? Only with
// Heavy Surf there and >= one Beachable (Beach-Ocean) hexside.
bool BeachingDrRequired(const Board& b, GridPos hex, bool aground);
// G13.442, G13.4422, G13.4423: the DRMs: +1 Inexperienced crew (Untrained boat Passengers), +1
// adjacent to a Hinterland, Steeply-Sloped-Beach or non-Beach Island hex, +1 per other LC /
// amphibian / non-Passenger wreck in the Location, +2 for a LC wreck (or a boat with no Personnel).
std::vector<SurfFactor> BeachingDrms(const Board& b, GridPos hex, bool inexperienced,
                                     int other_craft, bool wreck);
enum class BeachingResult { kNoEffect, kTiAndToggle, kBroach };
// <= 8 no effect; 9-10 TI and Beached <-> un-Beached; >= 11 Broach (G13.442).
BeachingResult ResolveBeaching(int final_dr);

// What an (un)Beaching DR does (G13.4421), to a LC, a LC wreck (G13.4422) or a boat (G13.4423),
// each effect with its rule. A Broached LC/boat is a casualty for VP purposes (G13.84).
enum class Craft { kLandingCraft, kLandingCraftWreck, kBoat };
struct BeachingEffects {
  BeachingResult result = BeachingResult::kNoEffect;
  bool ti = false;
  bool beached = false;  // after the DR
  bool fast_aground = false;
  bool sinks = false;
  bool wreck = false;
  bool eliminated = false;
  bool passengers_wading = false;
  bool casualty_vp = false;
  bool all_mp_expended = false;  // for Defensive First Fire (Final DR >= 9)
  std::vector<SurfFactor> effects;
};
BeachingEffects ApplyBeachingDr(const Board& b, GridPos hex, int final_dr, Craft craft,
                                bool beached, bool ramp_down, bool has_prc);

// G13.441: what an Original 12 Swamping DR does to a Watercraft or Wading vehicle in `hex`: in deep
// Ocean it sinks with no survivors; in shallow Ocean it is immobilized, but a LC becomes Fast
// Aground and a boat sinks, its Passengers Wading and its SW and Guns lost. G13.84: casualty VP.
BeachingEffects ApplySurfSwamping(const Board& b, GridPos hex, const Unit& u);

// G13.443: (un)loading MF/MP in an Ocean hex with Heavy Surf are doubled, FRU after doubling.
int UnloadingCost(const Board& b, GridPos hex, Cost normal);

// G13.444: the hexes a Watercraft/swimmer Drifts toward from `hex` (one is chosen at random if
// several): the nearest land hexes not part of an Island. None if it is Aground, next to a land
// or reef hex, or has exited land or (un)Beached this Player Turn.
std::vector<GridPos> DriftToward(const Board& b, GridPos hex, bool aground,
                                 bool left_land_or_beached);

// G13.446: LC cannot run Aground in Heavy Surf.
bool MayRunAground(const Board& b, GridPos hex);
// G13.448: with Heavy Surf, Heavy Winds exist all scenario (no Wind Force DR; a Wind Change dr of 5
// has no effect).
bool HeavyWinds(const Board& b);
// G13.449: Naval OBA's Accuracy dr gets +1 in Heavy Surf.
int NavalObaAccuracyDrm(const Board& b);

}  // namespace opsim::tactical
