#include "opsim/tactical/ocean_misc.h"

#include <climits>

#include "opsim/core/rule_ids.h"
#include "opsim/tactical/beach.h"
#include "text.h"

namespace opsim::tactical {

namespace {

bool Shallow(const Board& b, GridPos hex) {
  return IsOcean(b, hex) && OceanDepth(b, hex) == Depth::kShallow;
}

bool WaterLocation(const Board& b, GridPos hex) {
  const Hex* h = b.At(hex);
  return h != nullptr && (IsOcean(b, hex) || Info(h->terrain).water_obstacle);
}

}  // namespace

std::optional<int> OverlayEntryMp(const Board& b, GridPos entered, const Unit& u,
                                  bool dd_tank_amphibious) {
  if (!u.watercraft() || dd_tank_amphibious || !IsOcean(b, entered)) return std::nullopt;
  return 4;
}

int FirstShotAcquisitionDrm(const Board& b, GridPos gun, GridPos target, const Unit& target_unit,
                            const FirstShot& shot) {
  const bool qualifies = IsLand(b, gun) && IsOcean(b, target) && target_unit.watercraft() &&
                         !shot.target_dd_tank_amphibious && shot.first_fire_of_game &&
                         shot.vehicle_target_type && shot.targets_initial_mph_or_dfph &&
                         shot.relinquishes_hip_and_concealment;
  return qualifies ? -1 : 0;
}

SunkBoat SinkBoat(const Board& b, GridPos hex) {
  SunkBoat s;
  if (Shallow(b, hex)) {
    s.passengers_wading = true;
    s.sw_and_guns_eliminated = true;
    s.effects.push_back({rules::kG13_48, "E5.531-.532 do not apply in shallow OCEAN"});
    s.effects.push_back(
        {rules::kG13_48, "its former Passengers become Wading Infantry in " + b.Name(hex)});
    s.effects.push_back({rules::kG13_48, "all SW and Guns aboard it are eliminated"});
  } else {
    s.effects.push_back(
        {rules::kAslE5_531,
         "not shallow OCEAN: E5.531-.532 apply (not in these texts; not modelled)"});
  }
  return s;
}

bool KnownForBerserk(const Board& b, GridPos enemy) {
  return !IsOcean(b, enemy);
}

bool BerserkBecomesBattleHardening(const Board& b, const LosEnd& unit,
                                   const std::vector<BerserkEnemy>& enemies) {
  if (IsOcean(b, unit.at.hex) || !IsLand(b, unit.at.hex)) return false;
  int land = INT_MAX;
  int ocean = INT_MAX;
  for (const BerserkEnemy& e : enemies) {
    const int range = map::Distance(unit.at.hex, e.at.at.hex);
    if (IsOcean(b, e.at.at.hex)) {
      if (range < ocean && CheckLos(b, unit, e.at).clear) ocean = range;
    } else if (e.known && KnownForBerserk(b, e.at.at.hex)) {
      land = std::min(land, range);
    }
  }
  return ocean != INT_MAX && land > ocean;
}

Result<OceanLanding> LandInShallowOcean(const Board& b, GridPos hex, AerialLanding landing) {
  if (!Shallow(b, hex)) {
    return Fail(ErrorCode::kInvalidInput,
                std::string(rules::kG13_492.id) + " covers landings in shallow OCEAN; " +
                    b.Name(hex) + " is not",
                b.Name(hex), rules::kG13_492);
  }
  const bool surf = HeavySurfIn(b, hex);
  OceanLanding l;
  switch (landing) {
    case AerialLanding::kFiveEighthsParachute:
      l.wading = true;
      l.nmc_drm = SwampingDrm(b, hex) + (surf ? 1 : 0);
      l.effects.push_back(
          {rules::kG13_492, "the ⅝\" parachute is Wading and takes a NMC (E9.42), +" +
                                std::to_string(*l.nmc_drm) + " DRM"});
      l.effects.push_back({rules::kG13_421,
                           "a break result on that NMC is a Casualty Reduction instead; no "
                           "Pin result"});
      break;
    case AerialLanding::kHalfInchParachute:
      l.eliminated = true;
      l.effects.push_back(
          {rules::kG13_492, "a ½\" parachute that lands in shallow OCEAN is eliminated"});
      break;
    case AerialLanding::kGlider:
      l.wading = true;
      l.crash_drm = surf ? 1 : 0;
      l.effects.push_back(
          {rules::kG13_492, "the glider lands as if in a fordable river (E8.23-.232)" +
                                std::string(surf ? ", +1 Crash drm for Heavy Surf" : "") +
                                "; all Wading effects apply to its Passengers"});
      break;
  }
  return l;
}

Result<int> PierUnloadingCost(const Board& b, GridPos craft_hex, GridPos pier_hex,
                              const Unit& craft, int allotment) {
  const Hex* pier = b.At(pier_hex);
  if (pier == nullptr || !pier->pier) {
    return Fail(ErrorCode::kInvalidInput, b.Name(pier_hex) + " holds no Pier counter",
                b.Name(pier_hex), rules::kG13_731);
  }
  if (!map::DirectionTo(craft_hex, pier_hex)) {
    return Refuse("the craft must be adjacent to the pier hex", rules::kG13_731);
  }
  if (craft.kind() == UnitKind::kBoat) {
    return Refuse("a boat (un)loads at a pier as G13.732 says, not G13.731", rules::kG13_732);
  }
  if (craft.kind() == UnitKind::kLandingCraft) {
    if (!WaterLocation(b, craft_hex)) {
      return Refuse("a LC (un)loads onto a pier only from a water Location", rules::kG13_731);
    }
  } else if (craft.kind() == UnitKind::kAmphibian) {
    if (!WaterLocation(b, craft_hex) && !IsBeach(b, craft_hex)) {
      return Refuse("an amphibian (un)loads onto a pier only from a water/Beach Location",
                    rules::kG13_731);
    }
  } else {
    return Refuse("only a Stopped LC or amphibian may (un)load directly onto a pier",
                  rules::kG13_731);
  }
  if (HeavySurfIn(b, craft_hex)) return allotment;  // 100% (G13.443)
  return (allotment + 1) / 2;
}

Status MayBoatUseThePier(const Board& b, GridPos boat_hex, GridPos beached_across, bool personnel,
                         bool beneath_pier) {
  if (!personnel)
    return Refuse("only Personnel may (un)load between a boat and a pier", rules::kG13_732);
  const Hex* pier = b.At(beached_across);
  if (pier == nullptr || !pier->pier || !map::DirectionTo(boat_hex, beached_across)) {
    return Refuse("the boat must be Beached across a hexside of the pier hex", rules::kG13_732);
  }
  if (beneath_pier)
    return Refuse("a boat cannot Beach while beneath a Pier counter", rules::kG13_732);
  return {};
}

bool DriftBlockedByPier(const Board& b, GridPos into, const Unit& u) {
  const Hex* h = b.At(into);
  if (h == nullptr || !h->pier) return false;
  if (u.kind() == UnitKind::kLandingCraft || u.kind() == UnitKind::kAmphibian) return true;
  return *h->pier == PierKind::kStone;  // boats and swimmers
}

bool SeesBeachOrOcean(const Board& b, const LosEnd& unit) {
  for (const Hex* h : b.Hexes()) {
    if (!IsBeach(b, h->cell) && !IsOcean(b, h->cell)) continue;
    LosEnd to;
    to.at = {h->cell, Place::kHex};
    to.occupied = false;
    if (CheckLos(b, unit, to).clear) return true;
  }
  return false;
}

bool ExemptFromStraying(const Board& b, const LosEnd& unit) {
  return b.settings().night && SeesBeachOrOcean(b, unit);
}

}  // namespace opsim::tactical
