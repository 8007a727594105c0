#include "opsim/tactical/surf.h"

#include <climits>

#include "neighbours.h"
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
    out.push_back({"G13.442", "Inexperienced crew (boat: Untrained Passengers, G13.4423)", 1});
  const bool rough = AnyNeighbour(b, hex, [&](GridPos n) {
    return IsHinterland(b, n) || (IsBeach(b, n) && b.settings().slope == Slope::kSteep) ||
           (IsIsland(b, n) && !IsBeach(b, n));
  });
  if (rough)
    out.push_back(
        {"G13.442", "adjacent to a Hinterland/Steeply-Sloped-Beach/non-Beach-Island hex", 1});
  if (other_craft > 0) {
    out.push_back(
        {"G13.442", "other LC/amphibians/non-Passenger wrecks in the Location", other_craft});
  }
  if (wreck)
    out.push_back({"G13.4422", "a LC wreck (or a boat with no Personnel Passenger, G13.4423)", 2});
  return out;
}

BeachingResult ResolveBeaching(int final_dr) {
  if (final_dr <= 8) return BeachingResult::kNoEffect;
  if (final_dr <= 10) return BeachingResult::kTiAndToggle;
  return BeachingResult::kBroach;
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
