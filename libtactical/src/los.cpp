#include "opsim/tactical/los.h"

#include <algorithm>

#include "opsim/core/rule_ids.h"
#include "opsim/tactical/beach.h"
#include "opsim/tactical/paddy.h"

namespace opsim::tactical {

namespace {

bool Contains(const std::vector<Hexside>& v, const Hexside& h) {
  return std::find(v.begin(), v.end(), h) != v.end();
}

bool WaterOrBeach(const Board& b, const Position& p) {
  return p.place != Place::kPier && (IsOcean(b, p.hex) || IsBeach(b, p.hex));
}

// The Hindrance a hex adds to a LOS through (or along) it, split into an In-Season paddy's
// (halved, G8.4) and everything else.
struct HexHindrance {
  int paddy = 0;
  int other = 0;
  std::string what;
};

HexHindrance HindranceOf(const Board& b, GridPos hex, bool count_piers) {
  const Hex& h = *b.At(hex);
  HexHindrance r;
  if (InteriorIsGrain(b, hex)) {
    r.paddy = 1;
    r.what = "In-Season paddy " + b.Name(hex);
  } else if (Info(h.terrain).hindrance > 0) {
    r.other = Info(h.terrain).hindrance;
    r.what = std::string(TerrainName(h.terrain)) + " " + b.Name(hex);
  }
  for (CounterType t :
       {CounterType::kSmoke, CounterType::kWreck, CounterType::kAfv, CounterType::kRubble}) {
    if (h.Has(t)) {
      r.other += 1;
      r.what += (r.what.empty() ? "" : ", ") + std::string(Name(t)) + " counter in " + b.Name(hex);
    }
  }
  if (count_piers && h.pier == PierKind::kWooden) {
    r.other += 1;
    r.what += (r.what.empty() ? "" : ", ") + std::string("wooden pier ") + b.Name(hex);
  }
  return r;
}

// G13.71: whether pier hexes act on this LOS, and which.
bool PiersAct(const Board& b, const Position& from, const Position& to, int from_level,
              int to_level, GridPos pier) {
  const bool wf = WaterOrBeach(b, from);
  const bool wt = WaterOrBeach(b, to);
  if (wf && wt) return map::Distance(from.hex, to.hex) > 1;
  if (wf == wt) return false;  // neither end in water/Beach: no effect
  const int high = wf ? to_level : from_level;
  if (high < 0) return false;
  const GridPos water_end = wf ? from.hex : to.hex;
  return map::Distance(water_end, pier) == 1;
}

}  // namespace

LosEnd EndOf(const BoardUnit& u) {
  return LosEnd{u.at, u.unit, true, u.entrenched, u.crest, u.level_offset};
}

LosResult CheckLos(const Board& b, const LosEnd& from, const LosEnd& to) {
  LosResult r;
  r.trace = TraceLos(from.at.hex, to.at.hex);
  const LosTrace& t = r.trace;
  auto block = [&](std::string rule, std::string what, std::vector<GridPos> where) {
    if (!r.blocked) r.blocked = LosFactor{std::move(rule), std::move(what), 0, std::move(where)};
    r.clear = false;
  };

  // Levels (G13.21-.24): a LOS across or along a Beach-Hinterland hexside of a Slight or
  // Moderate beach sees Beach and OCEAN hexes at Level 0.
  bool across_bh = false;
  for (const auto* list : {&t.crossed, &t.along, &t.entry, &t.exit}) {
    for (const Hexside& h : *list) across_bh = across_bh || IsBeachHinterland(b, h);
  }
  auto crest_view = [&](const LosEnd& e, const std::vector<Hexside>& sides) {
    if (!e.crest) return false;
    for (const Hexside& h : CrestHexsides(b, e.at.hex)) {
      if (Contains(sides, h) || Contains(t.along, h)) return true;
    }
    return false;
  };
  r.from_at_crest = crest_view(from, t.exit);
  r.to_at_crest = crest_view(to, t.entry);
  auto level_of = [&](const LosEnd& e, bool at_crest) {
    if (e.at.place == Place::kPier) return 0;
    if (at_crest) return 0;
    return TerrainLevel(b, e.at.hex, across_bh) + e.level_offset;
  };
  r.from_level = level_of(from, r.from_at_crest);
  r.to_level = level_of(to, r.to_at_crest);
  const int high = std::max(r.from_level, r.to_level);
  const int low = std::min(r.from_level, r.to_level);

  // Obstacles: terrain, hills and piers.
  auto height_of = [&](GridPos hex) {
    const Hex& h = *b.At(hex);
    int height = TerrainLevel(b, hex, across_bh);
    const bool stone_pier =
        h.pier == PierKind::kStone && PiersAct(b, from.at, to.at, r.from_level, r.to_level, hex);
    if (Info(h.terrain).obstacle || stone_pier) height += 1;
    return height;
  };
  auto blocks = [&](GridPos hex) {
    const int height = height_of(hex);
    return height > high || (height >= high && height > low);
  };
  auto obstacle_rule = [&](GridPos hex) -> std::string {
    const Hex& h = *b.At(hex);
    if (h.pier == PierKind::kStone && !Info(h.terrain).obstacle) return rules::kG13_71;
    if (IsHinterland(b, hex) && (IsBeach(b, from.at.hex) || IsOcean(b, from.at.hex) ||
                                 IsBeach(b, to.at.hex) || IsOcean(b, to.at.hex))) {
      return rules::kG13_23;
    }
    return rules::kAslA6;
  };
  const bool large =
      (from.unit.Has(UnitFlag::kLargeTarget) && from.unit.vehicle()) ||
      (to.unit.Has(UnitFlag::kLargeTarget) && (to.unit.vehicle() || to.unit.watercraft()));
  for (GridPos hex : t.Intervening()) {
    const Hex& ih = *b.At(hex);
    if (large && ih.pier == PierKind::kStone && !Info(ih.terrain).obstacle && blocks(hex)) {
      r.stone_pier_cover = true;
      continue;
    }
    if (blocks(hex)) {
      const Hex& h = *b.At(hex);
      block(obstacle_rule(hex),
            b.Name(hex) + " (" + TerrainName(h.terrain) + ", Level " +
                std::to_string(TerrainLevel(b, hex, across_bh)) + ") stands between Level " +
                std::to_string(r.from_level) + " and Level " + std::to_string(r.to_level),
            {hex});
    }
  }
  auto overlay = [&](GridPos c) {
    const GridRole role = b.grids()[b.At(c)->grid].role();
    return role == GridRole::kBeach || role == GridRole::kOcean || role == GridRole::kEffluent;
  };
  for (const Hexside& h : t.along) {
    const GridPos x = h.first();
    const GridPos y = h.second();
    if (blocks(x) && blocks(y)) {
      block(rules::kAslA6,
            "obstacles on both sides of hexside " + b.Name(h) + ", which the LOS runs along",
            {x, y});
      continue;
    }
    for (auto [side, other] : {std::pair{x, y}, std::pair{y, x}}) {
      const Hex& sh = *b.At(side);
      if (!Info(sh.terrain).obstacle || !Info(sh.terrain).inherent || !blocks(side)) continue;
      if (overlay(other) && !overlay(side)) continue;  // G13.13: the overlay covers that side
      block("B.6",
            std::string(TerrainName(sh.terrain)) + " " + b.Name(side) +
                " is Inherent Terrain, filling hexside " + b.Name(h),
            {side});
    }
  }

  // Entrenched Infantry and bank (hedge), hedge and wall hexsides (G8.4, B9.21).
  for (auto [e, other] : {std::pair{&from, &to}, std::pair{&to, &from}}) {
    if (!e->entrenched || !e->unit.infantry()) continue;
    for (const auto* list : {&t.crossed, &t.along, &t.entry, &t.exit}) {
      for (const Hexside& h : *list) {
        const HexsideFeatures f = b.Features(h);
        const bool bank = IsBankHexside(b, h);
        if (!(bank || f.hedge || f.wall) || IsSeawallHexside(b, h)) continue;
        if (h.Touches(other->at.hex)) continue;
        block(bank ? rules::kG8_4 : rules::kAslB9_21,
              std::string("an entrenched unit treats ") + (bank ? "bank hexside " : "hexside ") +
                  b.Name(h) + " as a hedge, and the LOS crosses or runs along it",
              {h.first(), h.second()});
      }
    }
  }

  // Low seawalls (G13.622).
  if (b.settings().seawall == Seawall::kLow) {
    auto level0_hinterland = [&](const LosEnd& e) {
      return IsHinterland(b, e.at.hex) && TerrainLevel(b, e.at.hex, false) + e.level_offset == 0;
    };
    for (auto [e, other] : {std::pair{&from, &to}, std::pair{&to, &from}}) {
      const bool entrenched_on_beach = e->entrenched && IsBeach(b, e->at.hex);
      if (!entrenched_on_beach || !level0_hinterland(*other)) continue;
      for (const auto* list : {&t.crossed, &t.along, &t.entry, &t.exit}) {
        for (const Hexside& h : *list) {
          if (!IsSeawallHexside(b, h)) continue;
          const GridPos inland = IsHinterland(b, h.first()) ? h.first() : h.second();
          if (inland == other->at.hex) continue;
          block(rules::kG13_622,
                "a unit entrenched in Beach hex " + b.Name(e->at.hex) +
                    " has no LOS across/along low-seawall hexside " + b.Name(h) +
                    " to a Level 0 Hinterland Location beyond " + b.Name(inland),
                {h.first(), h.second()});
        }
      }
    }
    const bool one_end_inland = level0_hinterland(from) != level0_hinterland(to);
    if (one_end_inland) {
      for (const Hexside& h : t.crossed) {
        if (IsSeawallHexside(b, h) && !h.Touches(from.at.hex) && !h.Touches(to.at.hex)) {
          r.hindrances.push_back(
              {rules::kG13_622,
               "low-seawall hexside " + b.Name(h) + " crossed away from both ends (at most +1)",
               1,
               {h.first(), h.second()}});
          break;
        }
      }
    }
  }

  // Hindrances: hexes crossed, and hexsides run along (counted once each).
  int paddy = 0;
  auto add = [&](const HexHindrance& h, const std::string& prefix, std::vector<GridPos> where) {
    if (h.paddy + h.other == 0) return;
    paddy += h.paddy;
    r.hindrances.push_back({h.paddy ? rules::kG8_4 : rules::kAslA6, prefix + h.what,
                            h.paddy + h.other, std::move(where)});
  };
  for (GridPos hex : t.Intervening()) {
    const bool piers = PiersAct(b, from.at, to.at, r.from_level, r.to_level, hex);
    HexHindrance h = HindranceOf(b, hex, piers);
    if (piers && b.At(hex)->pier == PierKind::kWooden) {
      r.hindrances.push_back({rules::kG13_71,
                              "wooden pier " + b.Name(hex) +
                                  ", an Inherent-Terrain +1 "
                                  "LOS Hindrance between water/Beach Locations",
                              1,
                              {hex}});
      h.other -= 1;
    }
    add(h, "", {hex});
  }
  for (const Hexside& h : t.along) {
    HexHindrance x = HindranceOf(b, h.first(), false);
    HexHindrance y = HindranceOf(b, h.second(), false);
    HexHindrance best = x.paddy + x.other >= y.paddy + y.other ? x : y;
    if (best.paddy + best.other > 1) best = {best.paddy ? 1 : 0, best.paddy ? 0 : 1, best.what};
    add(best, "along hexside " + b.Name(h) + ": ", {h.first(), h.second()});
  }
  for (const LosFactor& f : r.hindrances) r.hindrance += f.amount;
  if (paddy > 0) {
    const int halved = paddy / 2;
    r.hindrance -= paddy - halved;
    r.hindrances.push_back({rules::kG8_4,
                            "In-Season paddy Hindrance +" + std::to_string(paddy) +
                                " halved, FRD: +" + std::to_string(halved),
                            halved - paddy});
  }
  return r;
}

}  // namespace opsim::tactical
