// Ground movement: the step judge (B4; the Rule 41 clauses it asks are in rule41/: 41.A.1,
// 41.A.4, 41.E.1-3, 41.E.6; rail ferries, 41.A.2, in rule41/rail_ferries.cpp) and Dial's
// algorithm over its cached edge costs.
#include <algorithm>
#include <array>

#include "notes.h"
#include "opsim/core/echo.h"
#include "opsim/core/rule_ids.h"
#include "opsim/ops/route.h"
#include "rule41/rule41.h"

namespace opsim::ops {

using map::HexRef;
using map::HexsideRef;

Result<GroundMover> ParseUnitKind(const RuleTables& tables, std::string_view kind, Side side) {
  const auto type = tables.FindType(kind);
  if (!type) {
    return Fail(ErrorCode::kInvalidInput,
                "unknown unit type '" + EchoToken(kind) + "' (" + tables.TypeNames() + ")",
                EchoToken(kind));
  }
  GroundMover m;
  m.side = side;
  m.cls = tables.type(*type).cls;
  m.engineer = tables.type(*type).engineer;
  return m;
}

StepVerdict EvaluateGroundHex(const RuleContext& ctx, const GroundMover& mover, HexRef h,
                              std::vector<Note>* notes) {
  const map::Theater& t = ctx.theater;
  const map::HexInfo& info = t.hex(h);
  const auto& m = ctx.tables.movement;
  const int c = static_cast<int>(mover.cls);
  map::Terrain terrain = info.terrain;
  if (const map::Flood* f = ctx.state.flood(h)) {
    if (auto prohibited = rule41::FloodedTerrain(ctx, h, *f, terrain, notes)) return *prohibited;
  }
  StepVerdict v;
  switch (terrain) {
    case map::Terrain::kAllSea:
      return Blocked(rules::kB4_4, notes, [&]() -> std::string {
        return t.HexName(h) + " is all-sea: no ground unit may enter";
      });
    case map::Terrain::kProhibited:
      return Blocked(rules::kB4_4, notes,
                     [&]() -> std::string { return t.HexName(h) + " is prohibited terrain"; });
    case map::Terrain::kLake:
      if (ctx.state.HexFrozen(t, h)) {
        if (rule41::VuoksaHex(t, h)) return rule41::VuoksaLakeHex(ctx, h, notes);
        v.cost = m.frozen_lake[c];
        AddNote(notes, rules::kB4_6,
                [&]() -> std::string { return t.HexName(h) + " is a frozen lake: " + Mp(v.cost); });
        return v;
      }
      return Blocked(rules::kB4_4, notes,
                     [&]() -> std::string { return t.HexName(h) + " is an unfrozen lake"; });
    default:
      break;
  }
  v.cost = m.terrain[static_cast<int>(terrain)][c];
  if (v.cost == kProhibited) {
    return Blocked(rules::kB4_1, notes, [&]() -> std::string {
      return std::string(map::TerrainName(terrain)) + " is closed to " +
             ctx.tables.movement.ClassName(mover.cls) + " units";
    });
  }
  AddNote(notes, rules::kB4_1, [&]() -> std::string {
    return t.HexName(h) + " is " + map::TerrainName(terrain) + ": " + Mp(v.cost);
  });
  return v;
}

CrossingVerdict ClassifyCrossing(const RuleContext& ctx, const GroundMover& mover, HexRef from,
                                 HexsideRef side, std::vector<Note>* notes) {
  const map::Theater& t = ctx.theater;
  const map::HexsideInfo& s = t.hexside(side);
  const HexRef to = s.Other(from);
  const std::string name = notes ? t.HexsideName(side) : std::string();
  CrossingVerdict v;
  v.frozen =
      ctx.state.HexFrozen(t, from) && ctx.state.HexFrozen(t, to) && !rule41::VuoksaHexside(t, side);
  if (s.water == map::HexsideWater::kAllSea || s.water == map::HexsideWater::kLake) {
    // Water no ground unit crosses (B4.5), unless a Rule 41 clause makes it a major river.
    if (rule41::CausewayCrossing(ctx, side, name, v, notes)) {
      // decided: a major river, or a destroyed causeway
    } else if (s.water == map::HexsideWater::kLake) {
      if (v.frozen) {
        v.crossing = Crossing::kFrozenLake;
        v.rule = rules::kB4_6;
        AddNote(notes, rules::kB4_6,
                [&]() -> std::string { return name + " is a frozen lake hexside"; });
      } else if (!rule41::VuoksaLakeCrossing(ctx, from, side, name, v, notes)) {
        v.crossing = Crossing::kBlocked;
        v.rule = rules::kB4_5;
        if (notes) v.why = name + " is an unfrozen lake hexside";
      }
    } else if (!rule41::KerchCrossing(ctx, side, name, v, notes) &&
               !rule41::BalticCrossing(ctx, side, name, v, notes) &&
               !rule41::KronshtadtCrossing(ctx, mover, side, name, v, notes)) {
      v.crossing = Crossing::kBlocked;
      v.rule = rules::kB4_5;
      if (notes) v.why = name + " is an all-sea hexside";
    }
    if (v.crossing == Crossing::kBlocked) return v;
  }
  if (s.Has(map::kMajorRiver)) {
    if (v.crossing != Crossing::kMajor) v.rule = rules::kB4_2;
    v.crossing = Crossing::kMajor;
  } else if (v.crossing == Crossing::kNone && s.Has(map::kMinorRiver)) {
    v.crossing = Crossing::kMinor;
    v.rule = rules::kB4_2;
  } else if (v.crossing == Crossing::kNone && s.Has(map::kCanal)) {
    v.crossing = Crossing::kCanal;
    v.rule = rules::kB4_2;
  }
  return v;
}

StepVerdict EvaluateGroundStep(const RuleContext& ctx, const GroundMover& mover, HexRef from,
                               HexsideRef side, std::vector<Note>* notes) {
  const map::Theater& t = ctx.theater;
  const map::HexsideInfo& s = t.hexside(side);
  const HexRef to = s.Other(from);
  const auto& m = ctx.tables.movement;
  const int c = static_cast<int>(mover.cls);
  const std::string name = notes ? t.HexsideName(side) : std::string();

  const std::size_t hex_notes = notes ? notes->size() : 0;
  StepVerdict hex = EvaluateGroundHex(ctx, mover, to, notes);
  if (!hex.blocked.empty()) return hex;

  const CrossingVerdict cross = ClassifyCrossing(ctx, mover, from, side, notes);
  if (cross.crossing == Crossing::kBlocked) {
    return Blocked(cross.rule, notes, [&]() -> std::string { return cross.why; });
  }
  const bool frozen = cross.frozen;
  const bool road = s.Has(map::kRoad);

  std::uint32_t river = 0;
  const bool bridged = rule41::RoadBridgesWater(s) && !ctx.state.bridge_destroyed(side) &&
                       cross.crossing != Crossing::kNone && cross.crossing != Crossing::kFrozenLake;
  if (bridged) {
    AddNote(notes, rules::kB4_3,
            [&]() -> std::string { return name + ": the road bridges the water"; });
  } else {
    switch (cross.crossing) {
      case Crossing::kNone:
      case Crossing::kBlocked:
        break;
      case Crossing::kMinor:
        river = frozen ? m.frozen_minor_river[c] : m.minor_river[c];
        if (frozen) {
          AddNote(notes, rules::kB4_6,
                  [&]() -> std::string { return name + ": frozen minor river"; });
        }
        rule41::NoteVuoksaRiver(ctx, from, side, name, notes);
        break;
      case Crossing::kMajor:
        river = frozen && s.Has(map::kMajorRiver) ? m.frozen_major_river[c] : m.major_river[c];
        if (frozen && s.Has(map::kMajorRiver)) {
          AddNote(notes, rules::kB4_6, [&]() -> std::string { return name + ": frozen river"; });
        }
        break;
      case Crossing::kCanal:
        river = m.canal[c];
        break;
      case Crossing::kFrozenLake:
        river = m.frozen_lake_hexside[c];
        break;
    }
    if (river > 0 && mover.engineer && cross.crossing != Crossing::kFrozenLake) {
      const std::uint32_t cut = std::min<std::uint32_t>(river, m.engineer_river_reduction);
      river -= cut;
      AddNote(notes, rules::kB4_7,
              [&]() -> std::string { return "engineers lessen the crossing by " + Mp(cut); });
    }
    if (river > 0) {
      AddNote(notes, rules::kB4_2,
              [&]() -> std::string { return name + ": crossing costs " + Mp(river); });
    }
  }

  StepVerdict v;
  if (road) {
    v.cost = m.road + river;
    // B4.3: the road's cost stands in for the terrain's, so the terrain's note would mislead.
    if (notes) {
      const auto terrain =
          std::remove_if(notes->begin() + static_cast<std::ptrdiff_t>(hex_notes), notes->end(),
                         [](const Note& n) { return n.rule == rules::kB4_1; });
      notes->erase(terrain, notes->end());
    }
    AddNote(notes, rules::kB4_3, [&]() -> std::string { return "along the road: " + Mp(m.road); });
  } else {
    v.cost = hex.cost + river;
  }
  return v;
}

GroundRouter::GroundRouter(const RuleContext& ctx, const GroundMover& mover, Arcs arcs)
    : ctx_(std::in_place, ctx), mover_(mover), direction_(arcs) {
  // The mover's weighted view of the ground graph: for each hex, half a cache line holding its
  // hexsides' edges from the CSR graph, each with its cost or the rule that forbids it; rail
  // ferries (41.A.2) apart.
  const auto& g = ctx.theater.graph();
  const std::size_t n = ctx.theater.hex_count();
  hexes_.assign(n, Slots{});
  std::uint32_t max_cost = 1;
  auto code = [&](RuleId r) -> std::uint8_t {
    auto it = std::find(rule_names_.begin(), rule_names_.end(), r);
    if (it == rule_names_.end()) {
      rule_names_.push_back(r);
      it = rule_names_.end() - 1;
    }
    return static_cast<std::uint8_t>(it - rule_names_.begin() + 1);
  };
  auto cost_of = [&](const StepVerdict& step) {
    // Rule tables keep every cost at most 60 MP, so a step fits in a byte of half-MPs.
    const auto c = static_cast<std::uint8_t>(std::min<std::uint32_t>(step.cost, 0xFE));
    max_cost = std::max<std::uint32_t>(max_cost, c);
    return c;
  };
  for (std::uint32_t v = 0; v < n; ++v) {
    std::array<std::pair<std::uint32_t, StepVerdict>, map::kDirCount> steps;
    int count = 0;
    for (auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
      // Outbound: the step from v to its neighbour u. Inbound: the step from u into v.
      const auto u = static_cast<std::uint32_t>(boost::target(e, g));
      const HexRef from{arcs == Arcs::kOutbound ? v : u};
      steps[count++] = {u, EvaluateGroundStep(ctx, mover, from, HexsideRef{g[e].hexside}, nullptr)};
    }
    Slots& slots = hexes_[v];
    for (bool open : {true, false}) {
      for (int k = 0; k < count; ++k) {
        const auto& [target, step] = steps[k];
        if (step.blocked.empty() != open) continue;
        slots.target[slots.total] = target;
        slots.cost[slots.total++] = open ? cost_of(step) : code(step.blocked);
        slots.open += open;
      }
    }
  }
  for (const map::RailFerry& f : ctx.theater.rail_ferries()) {
    for (HexRef end : {f.from(), f.to()}) {
      const HexRef to = f.from() == end ? f.to() : f.from();
      // Inbound, the arc at `end` is the crossing from the far terminal into it.
      const StepVerdict step =
          EvaluateFerryStep(ctx, mover, f, arcs == Arcs::kOutbound ? end : to, nullptr);
      const bool open = step.blocked.empty();
      ferries_.push_back(Ferry{end.v, to.v, open ? cost_of(step) : code(step.blocked), open});
      hexes_[end.v].total |= Slots::kFerry;
    }
  }
  // A power of two above the largest arc cost, so a bucket index is a mask, not a division.
  std::size_t nb = 1;
  while (nb <= max_cost) nb <<= 1;
  buckets_.resize(nb);
}

void GroundRouter::Rebind(const RuleContext& ctx) {
  ctx_.emplace(ctx);
}

void GroundRouter::SetBarriers(std::span<const std::uint8_t> stop,
                               std::span<const std::uint8_t> closed) {
  const std::size_t n = ctx_->theater.hex_count();
  barriers_.resize(n);
  for (std::size_t v = 0; v < n; ++v) {
    barriers_[v] = static_cast<std::uint8_t>((v < stop.size() && stop[v] ? kStopBit : 0) |
                                             (v < closed.size() && closed[v] ? kClosedBit : 0));
  }
}

void GroundRouter::Run(bool track, std::span<const HexRef> from, HexRef stop) {
  const bool barriers = !barriers_.empty();
  if (track) {
    barriers ? Search<true, true>(from, stop) : Search<true, false>(from, stop);
  } else {
    barriers ? Search<false, true>(from, stop) : Search<false, false>(from, stop);
  }
}

template <bool kTrack, bool kBarriers>
void GroundRouter::Search(std::span<const HexRef> from, HexRef stop) {
  // Dial's algorithm: costs are small integers, so a circular array of buckets replaces the
  // heap. Hexes leave a bucket in no spatial order, so the loop prefetches a few ahead. With
  // kTrack it also records each hex's predecessor and the rules that refused arcs.
  const std::size_t n = ctx_->theater.hex_count();
  dist_.assign(n, kUnreachable);
  if constexpr (kTrack) {
    pred_.assign(n, HexRef::kNone);
    rules_seen_.assign(rule_names_.size() + 1, 0);
  }
  for (auto& b : buckets_) b.clear();
  const std::size_t mask = buckets_.size() - 1;
  const Slots* hexes = hexes_.data();
  std::uint32_t* dist = dist_.data();
  std::size_t pending = 0;
  for (HexRef f : from) {
    if (dist[f.v] == 0) continue;
    dist[f.v] = 0;
    buckets_[0].push_back(f.v);
    ++pending;
  }
  for (std::uint32_t cur = 0; pending > 0; ++cur) {
    std::vector<std::uint32_t>& bucket = buckets_[cur & mask];
    for (std::size_t i = 0; i < bucket.size(); ++i) {
      if (i + 6 < bucket.size()) {
        __builtin_prefetch(hexes + bucket[i + 6]);
        __builtin_prefetch(dist + bucket[i + 6]);
      }
      if (i + 3 < bucket.size()) {
        const Slots& next = hexes[bucket[i + 3]];
        for (int k = 0; k < next.open; ++k) __builtin_prefetch(dist + next.target[k]);
      }
      const std::uint32_t u = bucket[i];
      --pending;
      if (dist[u] != cur) continue;
      if (u == stop.v) {
        pending = 0;
        break;
      }
      // In a zone of control a search stops, unless it started there.
      if constexpr (kBarriers) {
        if ((barriers_[u] & kStopBit) && cur != 0) continue;
      }
      const Slots& slots = hexes[u];
      auto relax = [&](std::uint32_t target, std::uint32_t cost) {
        if constexpr (kBarriers) {
          if (barriers_[target] & kClosedBit) return;
        }
        const std::uint32_t nd = cur + cost;
        if (nd < dist[target]) {
          dist[target] = nd;
          if constexpr (kTrack) pred_[target] = u;
          buckets_[nd & mask].push_back(target);
          ++pending;
        }
      };
      for (int k = 0; k < slots.open; ++k) relax(slots.target[k], slots.cost[k]);
      if constexpr (kTrack) {
        for (int k = slots.open; k < (slots.total & 7); ++k) rules_seen_[slots.cost[k]] = 1;
      }
      if (slots.total & Slots::kFerry) [[unlikely]] {
        for (const Ferry& f : ferries_) {
          if (f.from != u) continue;
          if (f.open) {
            relax(f.to, f.cost);
          } else if constexpr (kTrack) {
            rules_seen_[f.cost] = 1;
          }
        }
      }
    }
    bucket.clear();
  }
}

const std::vector<std::uint32_t>& GroundRouter::CostsFrom(HexRef from) {
  Run(false, std::span<const HexRef>(&from, 1), HexRef{});
  return dist_;
}

const std::vector<std::uint32_t>& GroundRouter::CostsFrom(std::span<const HexRef> from) {
  Run(false, from, HexRef{});
  return dist_;
}

RouteAnswer GroundRouter::Route(HexRef from, HexRef to) {
  return Route(std::span<const HexRef>(&from, 1), to);
}

RouteAnswer GroundRouter::Route(std::span<const HexRef> sources, HexRef to) {
  RouteAnswer a;
  Run(true, sources, to);
  if (dist_[to.v] == kUnreachable) {
    for (std::size_t i = 1; i < rules_seen_.size(); ++i) {
      if (rules_seen_[i]) a.blocked_by.push_back(rule_names_[i - 1]);
    }
    StepVerdict stand = EvaluateGroundHex(*ctx_, mover_, to, nullptr);
    a.reason = !stand.blocked.empty()
                   ? ctx_->theater.HexName(to) + " is closed to this unit"
                   : "no legal ground route reaches " + ctx_->theater.HexName(to);
    if (!stand.blocked.empty() &&
        std::find(a.blocked_by.begin(), a.blocked_by.end(), stand.blocked) == a.blocked_by.end()) {
      a.blocked_by.insert(a.blocked_by.begin(), stand.blocked);
    }
    return a;
  }
  a.reachable = true;
  a.cost = dist_[to.v];
  for (std::uint32_t v = to.v; v != HexRef::kNone; v = pred_[v]) {
    Waypoint w;
    w.hex = HexRef{v};
    a.path.push_back(w);
    if (dist_[v] == 0) break;
  }
  // Outbound paths run from the source; inbound ones (supply lines) from `to`.
  if (direction_ == Arcs::kOutbound) std::reverse(a.path.begin(), a.path.end());
  return a;
}

PathVerdict GroundRouter::Check(std::span<const HexRef> path) const {
  PathVerdict verdict;
  const map::Theater& t = ctx_->theater;
  // A barrier refuses step i as a move order's would (Turn::GroundStep): the same rule, reason
  // and step.
  auto barred = [&](std::size_t i, RuleId rule, std::string why, std::vector<Note> notes) {
    verdict.legal = false;
    verdict.failed_step = static_cast<int>(i);
    verdict.blocked_by.push_back(rule);
    notes.push_back(Note{rule, why});
    verdict.notes.push_back(std::move(notes));
    verdict.reason = std::move(why);
    return verdict;
  };
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (!barriers_.empty() && i > 1 && (barriers_[path[i - 1].v] & kStopBit)) {
      return barred(
          i, rules::kB4_8,
          "entering an enemy zone of control at " + t.HexName(path[i - 1]) + " ends the move", {});
    }
    std::vector<Note> notes;
    StepVerdict step;
    const HexsideRef side = t.HexsideBetween(path[i - 1], path[i]);
    const map::RailFerry* ferry = rule41::FerryBetween(t, path[i - 1], path[i]);
    if (side.valid()) {
      step = EvaluateGroundStep(*ctx_, mover_, path[i - 1], side, &notes);
    } else if (ferry) {
      step = EvaluateFerryStep(*ctx_, mover_, *ferry, path[i - 1], &notes);
    } else {
      verdict.legal = false;
      verdict.failed_step = static_cast<int>(i);
      verdict.reason = t.HexName(path[i - 1]) + " and " + t.HexName(path[i]) +
                       " are not adjacent, nor the ends of one rail ferry";
      verdict.notes.push_back(std::move(notes));
      return verdict;
    }
    verdict.notes.push_back(std::move(notes));
    if (!step.blocked.empty()) {
      verdict.legal = false;
      verdict.failed_step = static_cast<int>(i);
      verdict.blocked_by.push_back(step.blocked);
      verdict.reason = verdict.notes.back().back().text;
      return verdict;
    }
    if (!barriers_.empty() && (barriers_[path[i].v] & kClosedBit)) {
      std::vector<Note> step_notes = std::move(verdict.notes.back());
      verdict.notes.pop_back();
      return barred(i, rules::kB4_9,
                    t.HexName(path[i]) +
                        " holds enemy units: moving in is an overrun, which the moving units' "
                        "strengths decide (opsim check judges it)",
                    std::move(step_notes));
    }
    verdict.cost += step.cost;
  }
  return verdict;
}

}  // namespace opsim::ops
