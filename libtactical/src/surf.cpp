#include "opsim/tactical/surf.h"

#include <climits>

#include "neighbours.h"
#include "opsim/core/rule_ids.h"
#include "opsim/tactical/beach.h"

namespace opsim::tactical {

bool BeachingDrRequired(const Board& b, GridPos hex, bool aground) {
  if (aground || !HeavySurfIn(b, hex)) return false;
  return AnyNeighbour(b, hex, [&](GridPos n) { return IsBeach(b, n); });
}

std::vector<SurfFactor> BeachingDrms(const Board& b, GridPos hex, bool inexperienced,
                                     int other_craft, bool wreck) {
  std::vector<SurfFactor> out;
  if (inexperienced)
    out.push_back(
        {rules::kG13_442, "Inexperienced crew (boat: Untrained Passengers, G13.4423)", 1});
  const bool rough = AnyNeighbour(b, hex, [&](GridPos n) {
    return IsHinterland(b, n) || (IsBeach(b, n) && b.settings().slope == Slope::kSteep) ||
           (IsIsland(b, n) && !IsBeach(b, n));
  });
  if (rough)
    out.push_back(
        {rules::kG13_442, "adjacent to a Hinterland/Steeply-Sloped-Beach/non-Beach-Island hex", 1});
  if (other_craft > 0) {
    out.push_back(
        {rules::kG13_442, "other LC/amphibians/non-Passenger wrecks in the Location", other_craft});
  }
  if (wreck)
    out.push_back(
        {rules::kG13_4422, "a LC wreck (or a boat with no Personnel Passenger, G13.4423)", 2});
  return out;
}

BeachingResult ResolveBeaching(int final_dr) {
  if (final_dr <= 8) return BeachingResult::kNoEffect;
  if (final_dr <= 10) return BeachingResult::kTiAndToggle;
  return BeachingResult::kBroach;
}

BeachingEffects ApplyBeachingDr(const Board& b, GridPos hex, int final_dr, Craft craft,
                                bool beached, bool ramp_down, bool has_prc) {
  BeachingEffects e;
  e.result = ResolveBeaching(final_dr);
  e.beached = beached;
  const bool shallow = OceanDepth(b, hex) == Depth::kShallow;
  auto effect = [&](std::string rule, std::string what) {
    e.effects.push_back({std::move(rule), std::move(what), 0});
  };
  if (e.result == BeachingResult::kNoEffect) {
    effect(rules::kG13_442, "a Final (un)Beaching DR <= 8 has no adverse effect");
    return e;
  }
  e.all_mp_expended = true;
  effect(rules::kG13_4421,
         "for Defensive First Fire it has expended its entire printed MP allotment (or all its "
         "remaining MP) in this hex");
  if (e.result == BeachingResult::kBroach) {
    if (craft == Craft::kBoat) {
      e.eliminated = true;
      e.casualty_vp = true;
      e.passengers_wading = shallow;
      effect(rules::kG13_4423, shallow
                                   ? "Broached: the boat and its contents are eliminated, but its "
                                     "Personnel Passengers become Wading Infantry"
                                   : "Broached: the boat and all its contents are eliminated");
    } else {
      e.beached = true;
      e.wreck = true;
      e.casualty_vp = true;
      effect(rules::kG13_4421,
             "Broached: it is (or stays) Beached and is flipped to its Wreck side; its Inherent "
             "crew rolls for Survival; its Vehicle and Infantry Stacks take MC as if attacked by "
             "Bombardment in Open Ground (C1.82); surviving Passengers stay aboard");
    }
    effect(rules::kG13_84, "Casualty VP are amassed for it");
    return e;
  }
  // A Final DR of 9 or 10.
  if (craft == Craft::kLandingCraftWreck) {
    if (beached) {
      e.beached = false;
      e.fast_aground = shallow;
      e.sinks = !shallow;
      effect(rules::kG13_4422, shallow
                                   ? "the LC wreck becomes Fast Aground in its shallow-Ocean hex"
                                   : "the LC wreck sinks in its deep-Ocean hex (12.69)");
    }
    return e;
  }
  e.ti = has_prc;
  if (e.ti) effect(rules::kG13_442, "it becomes TI and may conduct no activity this Player Turn");
  if (beached) {
    if (ramp_down && craft == Craft::kLandingCraft) {
      e.fast_aground = shallow;
      e.sinks = !shallow;
      effect(rules::kG13_4421,
             shallow ? "un-Beached with its ramp down: it becomes Fast Aground"
                     : "un-Beached with its ramp down in deep Ocean: it sinks (12.69)");
    } else {
      e.beached = false;
      effect(rules::kG13_4421,
             "it becomes un-Beached: Non-Stopped using forward movement, and subject at once "
             "to any Tetrahedrons/A-B mines in its hex");
    }
  } else {
    e.beached = true;
    effect(rules::kG13_4421,
           "it becomes Beached across a randomly determined Beachable hexside of its hex");
  }
  return e;
}

BeachingEffects ApplySurfSwamping(const Board& b, GridPos hex, const Unit& u) {
  BeachingEffects e;
  auto effect = [&](std::string rule, std::string what) {
    e.effects.push_back({std::move(rule), std::move(what), 0});
  };
  if (OceanDepth(b, hex) == Depth::kDeep) {
    e.sinks = true;
    e.casualty_vp = true;
    effect(rules::kG13_441, "swamped in deep Ocean: it sinks with no survivors");
  } else if (u.kind() == UnitKind::kLandingCraft) {
    e.fast_aground = true;
    effect(rules::kG13_441, "swamped in shallow Ocean: the LC becomes Fast Aground (12.211)");
  } else if (u.kind() == UnitKind::kBoat) {
    e.sinks = true;
    e.passengers_wading = true;
    e.casualty_vp = true;
    effect(rules::kG13_441,
           "swamped in shallow Ocean: the boat sinks; its Passengers become Wading Infantry and "
           "all SW and Guns aboard are lost");
  } else {
    effect(rules::kG13_441, "swamped in shallow Ocean: it becomes immobilized");
  }
  if (e.casualty_vp) effect(rules::kG13_84, "Casualty VP are amassed for what Swamping destroyed");
  return e;
}

int UnloadingCost(const Board& b, GridPos hex, Cost normal) {
  const int halves = normal.halves() * (HeavySurfIn(b, hex) ? 2 : 1);
  return (halves + 1) / 2;
}

std::vector<GridPos> DriftToward(const Board& b, GridPos hex, bool aground,
                                 bool left_land_or_beached) {
  if (aground || left_land_or_beached) return {};
  const bool near_land = AnyNeighbour(b, hex, [&](GridPos n) {
    const Hex* h = b.At(n);
    return IsLand(b, n) || (h->reef && h->terrain == Terrain::kOcean);
  });
  if (near_land) return {};
  int best = INT_MAX;
  std::vector<GridPos> out;
  for (const Hex* h : b.Hexes()) {
    if (!IsLand(b, h->cell) || IsIsland(b, h->cell) || IsExposedReef(b, h->cell)) continue;
    const int d = map::Distance(hex, h->cell);
    if (d < best) {
      best = d;
      out.clear();
    }
    if (d == best) out.push_back(h->cell);
  }
  return out;
}

bool MayRunAground(const Board& b, GridPos hex) {
  return !HeavySurfIn(b, hex);
}

bool HeavyWinds(const Board& b) {
  return b.settings().heavy_surf;
}

int NavalObaAccuracyDrm(const Board& b) {
  return b.settings().heavy_surf ? 1 : 0;
}

}  // namespace opsim::tactical
