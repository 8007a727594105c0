#include "opsim/tactical/beach.h"

#include <algorithm>
#include <climits>
#include <set>

#include "neighbours.h"
#include "opsim/core/rule_ids.h"

namespace opsim::tactical {

namespace {

GridRole RoleOf(const Board& b, const Hex& h) {
  return b.grids()[h.grid].role();
}

bool UsesBeachOverlays(const Board& b) {
  return std::any_of(b.grids().begin(), b.grids().end(), [](const CoordinateGrid& g) {
    return g.role() == GridRole::kBeach || g.role() == GridRole::kOcean ||
           g.role() == GridRole::kEffluent;
  });
}

std::unexpected<Error> Bad(std::string message, std::string where, std::string rule) {
  return Fail(ErrorCode::kInvalidInput, std::move(message), std::move(where), std::move(rule));
}

int ShallowReach(Slope s) {
  switch (s) {
    case Slope::kSlight:
      return 3;
    case Slope::kModerate:
      return 2;
    case Slope::kSteep:
      return 1;
    case Slope::kUnset:
      break;
  }
  return 0;
}

}  // namespace

bool IsBeach(const Board& b, GridPos hex) {
  const Hex* h = b.At(hex);
  return h != nullptr && h->terrain == Terrain::kBeach;
}

bool IsEffluent(const Board& b, GridPos hex) {
  const Hex* h = b.At(hex);
  return h != nullptr && RoleOf(b, *h) == GridRole::kEffluent;
}

bool RiverIsOcean(const Board& b, GridPos hex) {
  const Hex* start = b.At(hex);
  if (start == nullptr || start->terrain != Terrain::kRiver) return false;
  std::set<GridPos, GridPosLess> seen{hex};
  std::vector<GridPos> todo{hex};
  while (!todo.empty()) {
    const GridPos cur = todo.back();
    todo.pop_back();
    for (Dir d : map::kAllDirs) {
      const GridPos n = map::Neighbor(cur, d);
      const Hex* h = b.At(n);
      if (h == nullptr) continue;
      if (RoleOf(b, *h) == GridRole::kOcean) return true;
      if (h->terrain == Terrain::kRiver && seen.insert(n).second) todo.push_back(n);
    }
  }
  return false;
}

bool IsOcean(const Board& b, GridPos hex) {
  const Hex* h = b.At(hex);
  if (h == nullptr) return false;
  if (h->terrain == Terrain::kOcean) return !IsExposedReef(b, hex);
  return h->terrain == Terrain::kRiver && RiverIsOcean(b, hex);
}

bool IsOceanProper(const Board& b, GridPos hex) {
  return b.settings().water == Water::kOcean && IsOcean(b, hex);
}

bool IsExposedReef(const Board& b, GridPos hex) {
  const Hex* h = b.At(hex);
  return h != nullptr && h->terrain == Terrain::kOcean && h->reef &&
         b.settings().reef == Reef::kExposed;
}

bool IsIsland(const Board& b, GridPos hex) {
  const Hex* h = b.At(hex);
  return h != nullptr && RoleOf(b, *h) == GridRole::kIsland;
}

bool IsLand(const Board& b, GridPos hex) {
  const Hex* h = b.At(hex);
  return h != nullptr && !IsOcean(b, hex) && !Info(h->terrain).water_obstacle;
}

bool IsHinterland(const Board& b, GridPos hex) {
  return UsesBeachOverlays(b) && IsLand(b, hex) && !IsBeach(b, hex) && !IsIsland(b, hex) &&
         !IsExposedReef(b, hex);
}

bool IsBeachHinterland(const Board& b, const Hexside& h) {
  return (IsBeach(b, h.first()) && IsHinterland(b, h.second())) ||
         (IsBeach(b, h.second()) && IsHinterland(b, h.first()));
}

bool IsBeachOcean(const Board& b, const Hexside& h) {
  return (IsBeach(b, h.first()) && IsOcean(b, h.second())) ||
         (IsBeach(b, h.second()) && IsOcean(b, h.first()));
}

bool IsOceanShore(const Board& b, const Hexside& h) {
  auto shore = [&](GridPos water, GridPos land) {
    return IsOcean(b, water) && !IsBeach(b, land) && (IsHinterland(b, land) || IsIsland(b, land));
  };
  return shore(h.first(), h.second()) || shore(h.second(), h.first());
}

bool IsCliffBeach(const Board& b, GridPos hex) {
  if (!IsBeach(b, hex)) return false;
  return AnyNeighbour(b, hex, [&](GridPos n) {
    const Hexside side = *Hexside::Between(hex, n);
    return IsHinterland(b, n) && b.Features(side).cliff;
  });
}

bool IsHardSand(const Board& b, GridPos hex) {
  if (!IsBeach(b, hex)) return false;
  if (IsEffluent(b, hex)) return true;
  const Ec ec = b.settings().ec;
  if (ec == Ec::kWet || ec == Ec::kMud || ec == Ec::kSnow) return true;
  return b.settings().slope != Slope::kSteep &&
         AnyNeighbour(b, hex, [&](GridPos n) { return IsOcean(b, n); });
}

Depth OceanDepth(const Board& b, GridPos hex) {
  const Hex* h = b.At(hex);
  if (h != nullptr && h->reef && b.settings().reef == Reef::kSubmerged) return Depth::kShallow;
  if (BetweenReefAndShore(b, hex)) return Depth::kShallow;
  const int reach = ShallowReach(b.settings().slope);
  for (const Hex* other : b.Hexes()) {
    if (other->terrain == Terrain::kBeach && map::Distance(hex, other->cell) <= reach) {
      return Depth::kShallow;
    }
  }
  return Depth::kDeep;
}

bool BetweenReefAndShore(const Board& b, GridPos hex) {
  const Hex* h = b.At(hex);
  if (h == nullptr || h->reef || !IsOceanProper(b, hex) || b.settings().reef == Reef::kNone) {
    return false;
  }
  if (b.entry_area().empty()) return false;
  // Everything the sea reaches from the entry area without crossing the reef is seaward.
  std::set<GridPos, GridPosLess> seaward(b.entry_area().begin(), b.entry_area().end());
  std::vector<GridPos> todo(b.entry_area().begin(), b.entry_area().end());
  while (!todo.empty()) {
    const GridPos cur = todo.back();
    todo.pop_back();
    for (Dir d : map::kAllDirs) {
      const GridPos n = map::Neighbor(cur, d);
      const Hex* nh = b.At(n);
      if (nh == nullptr || nh->reef || !IsOceanProper(b, n)) continue;
      if (seaward.insert(n).second) todo.push_back(n);
    }
  }
  return !seaward.contains(hex);
}

std::vector<GridPos> ReefBeside(const Board& b, const std::vector<GridPos>& entry_area) {
  std::vector<GridPos> reef;
  for (const Hex* h : b.Hexes()) {
    if (!IsOceanProper(b, h->cell) ||
        std::find(entry_area.begin(), entry_area.end(), h->cell) != entry_area.end()) {
      continue;
    }
    const bool beside = AnyNeighbour(b, h->cell, [&](GridPos n) {
      return std::find(entry_area.begin(), entry_area.end(), n) != entry_area.end();
    });
    if (beside) reef.push_back(h->cell);
  }
  return reef;
}

bool HeavySurfIn(const Board& b, GridPos hex) {
  return b.settings().heavy_surf && IsOceanProper(b, hex) && !BetweenReefAndShore(b, hex);
}

bool IsRubbleLand(const Board& b, GridPos hex) {
  const Hex* h = b.At(hex);
  return h != nullptr && h->Has(CounterType::kRubble) && IsOcean(b, hex) &&
         OceanDepth(b, hex) == Depth::kShallow;
}

bool IsWading(const Board& b, const Position& p, const Unit& u) {
  if (p.place == Place::kPier || IsRubbleLand(b, p.hex) || b.settings().frozen) return false;
  if (u.kind() == UnitKind::kBoat || u.kind() == UnitKind::kLandingCraft) return false;
  return IsOcean(b, p.hex) && OceanDepth(b, p.hex) == Depth::kShallow;
}

bool IsSeawallHexside(const Board& b, const Hexside& h) {
  if (b.settings().seawall == Seawall::kNone || !IsBeachHinterland(b, h)) return false;
  return !b.seawalls_designated() || b.Features(h).seawall;
}

int RangeToLand(const Board& b, GridPos hex) {
  int best = INT_MAX;
  for (const Hex* h : b.Hexes()) {
    if (IsLand(b, h->cell)) best = std::min(best, map::Distance(hex, h->cell));
  }
  return best == INT_MAX ? 0 : best;
}

int SwampingDrm(const Board& b, GridPos hex) {
  static constexpr int kTimes[] = {0, 2, 3, 6};  // unset, Slight, Moderate, Steep
  return kTimes[static_cast<int>(b.settings().slope)] * RangeToLand(b, hex);
}

SwampingRoll RollSwamping(Dice& dice, int drm) {
  SwampingRoll r;
  r.dice[0] = dice.Roll(6);
  r.dice[1] = dice.Roll(6);
  r.drm = drm;
  r.final_dr = r.dice[0] + r.dice[1] + drm;
  r.immobilized = r.final_dr >= 12;
  return r;
}

SurfSwampingRoll RollSurfSwamping(Dice& dice) {
  SurfSwampingRoll r;
  r.dice[0] = dice.Roll(6);
  r.dice[1] = dice.Roll(6);
  r.dr = dice.Roll(6);
  r.swamped = r.dice[0] + r.dice[1] == 12;
  return r;
}

int TerrainLevel(const Board& b, GridPos hex, bool across_beach_hinterland) {
  const Hex* h = b.At(hex);
  if (h == nullptr) return 0;
  const Slope s = b.settings().slope;
  const bool low = IsBeach(b, hex) || h->terrain == Terrain::kOcean;
  if (low && across_beach_hinterland && (s == Slope::kSlight || s == Slope::kModerate) &&
      !IsCliffBeach(b, hex)) {
    return 0;
  }
  return h->level;
}

Status MayGainCrestStatus(const Board& b, const Position& p, const Unit& u) {
  if (!u.infantry()) {
    return Fail(ErrorCode::kRuleViolation, "only Infantry may gain Crest status", {},
                rules::kG13_23);
  }
  if (b.settings().slope != Slope::kSteep || !IsBeach(b, p.hex) ||
      CrestHexsides(b, p.hex).empty()) {
    return Fail(
        ErrorCode::kRuleViolation,
        b.Name(p.hex) + " is not a Steeply Sloped Beach hex with a Beach-Hinterland hexside", {},
        rules::kG13_23);
  }
  return {};
}

std::vector<Hexside> CrestHexsides(const Board& b, GridPos hex) {
  std::vector<Hexside> out;
  for (Dir d : map::kAllDirs) {
    const GridPos n = map::Neighbor(hex, d);
    if (b.At(n) == nullptr) continue;
    const Hexside side = Hexside::Of(hex, d);
    if (IsBeachHinterland(b, side)) out.push_back(side);
  }
  return out;
}

Status CheckBeachSetup(const Board& b) {
  const Settings& st = b.settings();
  bool any_beach = false;
  bool any_reef = false;
  for (const Hex* h : b.Hexes()) {
    const GridPos c = h->cell;
    const std::string where = b.file() + ": " + b.Name(c);
    any_beach = any_beach || h->terrain == Terrain::kBeach;
    if (h->reef) {
      any_reef = true;
      if (h->terrain != Terrain::kOcean || st.water != Water::kOcean) {
        return Bad("a reef can exist only in Ocean hexes", where, rules::kG13_43);
      }
    }
    const std::string& grid = b.grids()[h->grid].name();
    if ((grid == "Be7" || grid.starts_with("Be7 ")) &&
        (h->terrain == Terrain::kOcean || Info(h->terrain).water_obstacle)) {
      if (h->terrain != Terrain::kRiver) {
        return Bad("the Water Obstacle hexes of Overlay Be7 are always River", where,
                   rules::kG13_11);
      }
      if (h->level != -1) {
        return Bad(
            "a river cannot be flooded while Overlay Be7 is in play: its river hexes are always "
            "at Level -1",
            where, rules::kG13_11);
      }
    }
    if (h->pier && !IsBeach(b, c) && !IsOcean(b, c) && !Info(h->terrain).water_obstacle) {
      return Bad("a Pier counter must be set up in a water or Beach hex", where, rules::kG13_7);
    }
    const bool water = h->terrain == Terrain::kOcean;
    for (CounterType t : h->counters) {
      if (water && IsFortification(t) && t != CounterType::kBeachObstacle) {
        return Bad(
            std::string("only Beach Obstacles may be set up in OCEAN/reef hexes, not ") + Name(t),
            where, rules::kG13_5);
      }
      if (t == CounterType::kTunnel && IsBeach(b, c)) {
        return Bad("tunnels are NA in Beach/OCEAN/reef hexes", where, rules::kG13_5);
      }
      if ((t == CounterType::kTrench || t == CounterType::kFoxhole) && IsEffluent(b, c)) {
        return Bad("Entrenchments are NA in an Effluent hex", where, rules::kG13_14);
      }
    }
    if (water && h->panji) {
      return Bad("only Beach Obstacles may be set up in OCEAN/reef hexes, not a Panji counter",
                 where, rules::kG13_5);
    }
  }
  for (const auto& [side, f] : b.hexsides()) {
    if (f.seawall && !IsBeachHinterland(b, side)) {
      return Bad("a seawall hexside must be a Beach-Hinterland hexside (never OCEAN-Hinterland)",
                 b.file() + ": " + b.Name(side), rules::kG13_6);
    }
  }
  if (any_beach && st.slope == Slope::kUnset) {
    return Bad("the SSR must define the Slope of the Beach (slight, moderate or steep)", b.file(),
               rules::kG13_2);
  }
  if (st.seawall != Seawall::kNone && st.slope == Slope::kSteep) {
    return Bad("a seawall never exists along a Steeply Sloped beach", b.file(), rules::kG13_6);
  }
  if (any_reef && st.reef == Reef::kNone) {
    return Bad(
        "the board has reef hexes: the SSR must say whether the reef is exposed or "
        "submerged",
        b.file(), rules::kG13_431);
  }
  if (!any_reef && st.reef != Reef::kNone) {
    return Bad("the settings name a reef but no hex is marked \"reef\"", b.file(), rules::kG13_43);
  }
  if (any_reef && b.entry_area().empty()) {
    return Bad(
        "a reef needs the amphibious side's entry/exit area (\"entry_area\") to tell the "
        "shore side from the sea",
        b.file(), rules::kG13_43);
  }
  return {};
}

}  // namespace opsim::tactical
