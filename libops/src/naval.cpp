// Naval movement: the step judge (B6; Rule 41's clauses are NavalRouter members defined in
// rule41/: 41.A.1, 41.B, 41.C, 41.D, 41.E.1, 41.E.4, 41.E.5) and an A* search over the
// theater's naval view.
#include <algorithm>
#include <queue>

#include "notes.h"
#include "opsim/core/rule_ids.h"
#include "opsim/ops/route.h"
#include "rule41/rule41.h"

namespace opsim::ops {

using map::HexRef;
using map::HexsideRef;

namespace {

constexpr int kTags = 3;

std::uint64_t RoleMask(const map::Theater& t, map::AreaRole role) {
  std::uint64_t mask = 0;
  for (std::size_t i = 0; i < t.areas().size(); ++i) {
    if (t.areas()[i].role == role) mask |= std::uint64_t{1} << i;
  }
  return mask;
}

}  // namespace

NavalRouter::NavalRouter(const RuleContext& ctx, const NavalGroup& group)
    : ctx_(ctx), group_(group) {
  const map::Theater& t = ctx.theater;
  sivash_ = RoleMask(t, map::AreaRole::kSivash);
  azov_ = RoleMask(t, map::AreaRole::kSeaOfAzov);
  straits_ = RoleMask(t, map::AreaRole::kKerchStraits);
  straits_enemy_ = rule41::EnemyHoldsStraits(ctx, group.side);
}

HexRef NavalRouter::NodeHex(std::uint32_t node) const {
  if (ctx_.theater.IsRiverNode(node)) return {};
  return ctx_.theater.water_area(node).hex;
}

NavalRouter::Move NavalRouter::Evaluate(std::uint32_t from, Tag tag, const Edge& e,
                                        std::vector<Note>* notes) const {
  const map::Theater& t = ctx_.theater;
  const auto& tables = ctx_.tables.naval;
  const HexsideRef side{e.props.hexside};
  Move mv;
  const HexRef from_hex = NodeHex(from);
  const HexRef to_hex = NodeHex(e.target);
  // A refused step; a clause's refusal has written its note already.
  auto refused = [&](RuleId rule) {
    mv.cost = kUnreachable;
    mv.blocked = rule;
    return mv;
  };
  auto block = [&](RuleId rule, auto why) {
    AddNote(notes, rule, why);
    return refused(rule);
  };
  RuleId clause;
  switch (e.props.kind) {
    case map::NavalEdgeKind::kSea:
      if (OnCauseway(side)) return refused(CausewayStep(side, notes));
      if (OnSivashLine(to_hex)) return refused(SivashStep(to_hex, notes));
      if (FlotillaAtSea(to_hex)) {
        if (clause = FlotillaStep(to_hex, notes); !clause.empty()) return refused(clause);
      }
      mv.cost = tables.sea_hex;
      AddNote(notes, rules::kB6_2, [&]() -> std::string {
        return "into " + t.HexName(to_hex) + " across " + t.HexsideName(side);
      });
      break;
    case map::NavalEdgeKind::kAccess:
    case map::NavalEdgeKind::kRiver: {
      const map::Waterway* way = t.WaterwayOf(side);
      if (way->closed) {
        const RuleId rule =
            way->rule == map::WaterwayRule::kNone ? rules::kB6_3 : map::WaterwayRuleId(way->rule);
        return block(rule, [&]() -> std::string {
          return t.HexsideName(side) + " is on " + way->name + ", closed to riverine movement" +
                 (way->note.empty() ? std::string() : ": " + way->note);
        });
      }
      switch (way->rule) {
        case map::WaterwayRule::kSuez:
          clause = SuezStep(side, *way, notes);
          break;
        case map::WaterwayRule::kCorinth:
          clause = CorinthStep(side, *way, notes);
          break;
        case map::WaterwayRule::kShatt:
          clause = ShattStep(side, *way, notes);
          break;
        default:
          if (group_.warships()) {
            return block(rules::kB6_3,
                         [&]() -> std::string { return "TFs and CGs do not move along rivers"; });
          }
          AddNote(notes, rules::kB6_3, [&]() -> std::string { return Along(t, side, *way); });
          break;
      }
      if (!clause.empty()) return refused(clause);
      mv.cost = tables.riverine_hexside;
      break;
    }
    case map::NavalEdgeKind::kLeave:
      mv.cost = tables.leave_waterway;
      AddNote(notes, rules::kB6_3,
              [&]() -> std::string { return "off the waterway into " + t.HexName(to_hex); });
      break;
  }
  if (!StraitsHex(to_hex) && !StraitsHex(from_hex)) return mv;
  return KerchStep(from_hex, to_hex, tag, mv, notes);
}

std::uint32_t NavalRouter::Node(const Waypoint& w) const {
  const map::Theater& t = ctx_.theater;
  if (w.is_river()) {
    auto node = t.RiverNode(w.river);
    return node ? *node : HexRef::kNone;
  }
  auto areas = t.WaterAreasOf(w.hex);
  if (w.area >= areas.size()) return HexRef::kNone;
  return t.AreaNode(w.hex, w.area);
}

std::uint32_t NavalRouter::Heuristic(std::uint32_t node, map::GridPos target) const {
  // A sea step moves one hex; a step onto a waterway and off again may move two. Half the
  // distance never overestimates.
  const map::Theater& t = ctx_.theater;
  map::GridPos p;
  if (t.IsRiverNode(node)) {
    p = t.Pos(t.hexside(t.RiverHexside(node)).a);
  } else {
    p = t.Pos(t.water_area(node).hex);
  }
  const int d = std::max(0, map::Distance(p, target) - (t.IsRiverNode(node) ? 2 : 0));
  const std::uint32_t step =
      std::min<std::uint32_t>(ctx_.tables.naval.sea_hex, ctx_.tables.naval.riverine_hexside);
  return static_cast<std::uint32_t>(d / 2) * step;
}

RouteAnswer NavalRouter::Route(const Waypoint& from, const Waypoint& to) {
  const map::Theater& t = ctx_.theater;
  const auto& g = t.naval_graph();
  RouteAnswer a;
  const std::uint32_t src = Node(from);
  if (src == HexRef::kNone) {
    a.reason = FormatWaypoint(t, from) + " holds no water or port a naval group can be in";
    a.blocked_by.push_back(rules::kB6_1);
    return a;
  }
  std::vector<std::uint32_t> goals;
  if (to.is_river() || to.area_named) {
    if (std::uint32_t n = Node(to); n != HexRef::kNone) goals.push_back(n);
  } else {
    for (std::size_t i = 0; i < t.WaterAreasOf(to.hex).size(); ++i) {
      goals.push_back(t.AreaNode(to.hex, i));
    }
  }
  if (goals.empty()) {
    a.reason = FormatWaypoint(t, to) + " holds no water or port a naval group can be in";
    a.blocked_by.push_back(rules::kB6_1);
    return a;
  }
  const map::GridPos target = to.is_river() ? t.Pos(t.hexside(to.river).a) : t.Pos(to.hex);
  const std::size_t states = static_cast<std::size_t>(boost::num_vertices(g)) * kTags;
  dist_.assign(states, kUnreachable);
  pred_.assign(states, HexRef::kNone);
  std::vector<RuleId> refused;

  using Item = std::pair<std::uint32_t, std::uint32_t>;  // (f, state)
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  dist_[src * kTags] = 0;
  open.push({Heuristic(src, target), src * kTags});
  std::uint32_t found = HexRef::kNone;
  while (!open.empty()) {
    const auto [f, state] = open.top();
    open.pop();
    const std::uint32_t node = state / kTags;
    const Tag tag = static_cast<Tag>(state % kTags);
    const std::uint32_t gcost = dist_[state];
    if (f != gcost + Heuristic(node, target)) continue;  // stale entry
    if (std::find(goals.begin(), goals.end(), node) != goals.end()) {
      found = state;
      break;
    }
    for (auto e : boost::make_iterator_range(boost::out_edges(node, g))) {
      const Edge edge{static_cast<std::uint32_t>(boost::target(e, g)), g[e]};
      const Move mv = Evaluate(node, tag, edge, nullptr);
      if (!mv.blocked.empty()) {
        if (std::find(refused.begin(), refused.end(), mv.blocked) == refused.end()) {
          refused.push_back(mv.blocked);
        }
        continue;
      }
      const std::uint32_t next = edge.target * kTags + mv.tag;
      const std::uint32_t nd = gcost + mv.cost;
      if (nd < dist_[next]) {
        dist_[next] = nd;
        pred_[next] = state;
        open.push({nd + Heuristic(edge.target, target), next});
      }
    }
  }
  if (found == HexRef::kNone) {
    a.reason = "no legal naval route joins " + FormatWaypoint(t, from) + " and " +
               FormatWaypoint(t, to) + " for a group of " + GroupName(group_);
    a.blocked_by = std::move(refused);
    return a;
  }
  a.reachable = true;
  a.cost = dist_[found];
  for (std::uint32_t s = found; s != HexRef::kNone; s = pred_[s]) {
    const std::uint32_t node = s / kTags;
    Waypoint w;
    if (t.IsRiverNode(node)) {
      w.river = t.RiverHexside(node);
    } else {
      w.hex = t.water_area(node).hex;
      w.area = t.water_area(node).index;
    }
    a.path.push_back(w);
    if (s == src * kTags) break;
  }
  std::reverse(a.path.begin(), a.path.end());
  return a;
}

PathVerdict NavalRouter::Check(std::span<const Waypoint> path, Tag* straits) const {
  const map::Theater& t = ctx_.theater;
  const auto& g = t.naval_graph();
  PathVerdict v;
  auto fail = [&](std::size_t step, RuleId rule, std::string reason) {
    v.legal = false;
    v.failed_step = static_cast<int>(step);
    if (!rule.empty()) v.blocked_by.push_back(rule);
    v.reason = std::move(reason);
    return v;
  };
  if (path.empty()) return v;
  std::uint32_t node = Node(path[0]);
  if (node == HexRef::kNone) {
    return fail(0, rules::kB6_1,
                FormatWaypoint(t, path[0]) + " holds no water or port a naval group can be in");
  }
  Tag tag = straits ? *straits : kNoTag;
  for (std::size_t i = 1; i < path.size(); ++i) {
    const Waypoint& w = path[i];
    // The waypoint must be on the naval view at all.
    if (w.is_river() && !t.RiverNode(w.river)) {
      return fail(i, rules::kB6_3,
                  t.HexsideName(w.river) + " is not a hexside of a navigable waterway");
    }
    if (!w.is_river() && t.WaterAreasOf(w.hex).empty()) {
      return fail(i, rules::kB6_1,
                  t.HexName(w.hex) + " holds no water or port a naval group can be in");
    }
    // Every naval-view edge from here to the waypoint; the cheapest legal one is taken.
    std::vector<Note> best_notes;
    Move best;
    best.cost = kUnreachable;
    Move first_refusal;
    std::vector<Note> refusal_notes;
    std::uint32_t best_target = HexRef::kNone;
    for (auto e : boost::make_iterator_range(boost::out_edges(node, g))) {
      const std::uint32_t target = boost::target(e, g);
      const bool matches = w.is_river()
                               ? (t.IsRiverNode(target) && t.RiverHexside(target) == w.river)
                               : (!t.IsRiverNode(target) && t.water_area(target).hex == w.hex &&
                                  (!w.area_named || t.water_area(target).index == w.area));
      if (!matches) continue;
      std::vector<Note> notes;
      const Move mv = Evaluate(node, tag, Edge{target, g[e]}, &notes);
      if (!mv.blocked.empty()) {
        if (first_refusal.blocked.empty()) {
          first_refusal = mv;
          refusal_notes = std::move(notes);
        }
      } else if (mv.cost < best.cost) {
        best = mv;
        best_notes = std::move(notes);
        best_target = target;
      }
    }
    if (best_target != HexRef::kNone) {
      v.cost += best.cost;
      v.notes.push_back(std::move(best_notes));
      node = best_target;
      tag = best.tag;
      continue;
    }
    if (!first_refusal.blocked.empty()) {
      v.notes.push_back(refusal_notes);
      return fail(i, first_refusal.blocked, refusal_notes.back().text);
    }
    // No water link at all: say why.
    const std::string here = FormatWaypoint(t, path[i - 1]);
    const std::string there = FormatWaypoint(t, w);
    if (t.IsRiverNode(node) || w.is_river()) {
      return fail(i, rules::kB6_3, here + " and " + there + " do not meet along a waterway");
    }
    const HexRef from_hex = t.water_area(node).hex;
    const HexsideRef side = t.HexsideBetween(from_hex, w.hex);
    if (!side.valid()) return fail(i, {}, here + " and " + there + " are not adjacent");
    if (!map::IsSea(t.hexside(side).water)) {
      return fail(i, rules::kB6_1, t.HexsideName(side) + " holds no sea: no water link");
    }
    const map::Dir d = t.DirFrom(side, from_hex);
    const map::WaterArea& area = t.water_area(node);
    if (!area.Touches(d)) {
      if (auto split = rule41::CausewaySplitFrom(t, area, here, d, side)) {
        return fail(i, rules::k41A1, std::move(*split));
      }
      return fail(i, rules::kB6_1,
                  "the water of " + here + " does not reach its " + map::DirName(d) + " hexside " +
                      t.HexsideName(side));
    }
    if (auto split = rule41::CausewaySplitInto(t, w, there, side)) {
      return fail(i, rules::k41A1, std::move(*split));
    }
    return fail(
        i, rules::kB6_1,
        there + " is a different body of water from " + here + " across " + t.HexsideName(side));
  }
  if (straits) *straits = tag;
  return v;
}

}  // namespace opsim::ops
