// Routes: ground and naval movement over a theater under the current map state.
//
// Each step of a move is judged in one place (EvaluateGroundStep, NavalRouter::Evaluate):
// its cost, or the rule that forbids it, with the rules that shaped it. Searches and path
// checks both go through those judges, so a route the search finds is one the check accepts.
// GroundRouter caches each edge's cost for one mover under one MapState: build a new one when
// the state changes. Routers hold scratch space: one per thread.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/map/state.h"
#include "opsim/map/theater.h"
#include "opsim/ops/tables.h"

namespace opsim::ops {

// What the rules read: the theater, its state, the tables, and when it is.
struct RuleContext {
  const map::Theater& theater;
  const map::MapState& state;
  const RuleTables& tables;
  std::int32_t player_turn = 0;  // serial number; floods expire against it
  bool exploitation = false;     // 41.A.4.a: a partially flooded hex is swamp in exploitation
};

// A rule that applied to a step, and how.
struct Note {
  RuleId rule;
  std::string text;
};

// --- ground ------------------------------------------------------------------------------------

struct GroundMover {
  Side side = Side::kAllied;
  MoveClass cls{};        // the rules' first class: foot in the base rules
  bool engineer = false;  // B4.7: engineers lessen river crossings
  int res = 1;            // size in REs (41.A.2: a rail ferry carries up to 3)
};
// A unit of one of the rules' types ("infantry", "armor", ...), as the step judge sees it.
Result<GroundMover> ParseUnitKind(const RuleTables& tables, std::string_view kind, Side side);

inline constexpr std::uint32_t kUnreachable = 0xFFFFFFFFu;

// One ground step from `from` across `side` into its other hex. cost is in half-MPs, or
// kUnreachable with `blocked` naming the forbidding rule. `notes`, when given, receives every
// rule that shaped the step.
struct StepVerdict {
  std::uint32_t cost = 0;
  RuleId blocked;
  std::string why;  // filled only when notes are asked for
};
StepVerdict EvaluateGroundStep(const RuleContext& ctx, const GroundMover& mover, map::HexRef from,
                               map::HexsideRef side, std::vector<Note>* notes);
// How a ground unit crosses a hexside: freely, as a river or canal, over frozen lake, or not
// at all. `rule` names the rule that decided (41.A.1 for a causeway, B4.5 for the sea...);
// `why` is filled when notes are asked for and the crossing is blocked.
enum class Crossing : std::uint8_t { kNone, kMinor, kMajor, kCanal, kFrozenLake, kBlocked };
struct CrossingVerdict {
  Crossing crossing = Crossing::kNone;
  RuleId rule;
  bool frozen = false;
  std::string why;
};
CrossingVerdict ClassifyCrossing(const RuleContext& ctx, const GroundMover& mover, map::HexRef from,
                                 map::HexsideRef side, std::vector<Note>* notes);
// 41.A.2: the whole length of a rail ferry, as one major river hexside.
StepVerdict EvaluateFerryStep(const RuleContext& ctx, const GroundMover& mover,
                              const map::RailFerry& ferry, map::HexRef from,
                              std::vector<Note>* notes);
// Whether a ground unit may stand in a hex at all (41.A.4, B4.4).
StepVerdict EvaluateGroundHex(const RuleContext& ctx, const GroundMover& mover, map::HexRef h,
                              std::vector<Note>* notes);

// A point on a route: a hex (for naval routes, one of its water areas) or a riverine hexside.
struct Waypoint {
  map::HexRef hex;
  std::uint8_t area = 0;
  bool area_named = false;  // the token named the area ("16A:0827#veere")
  map::HexsideRef river;    // set for a step along a waterway
  bool is_river() const { return river.valid(); }
};
// "16A:0827", "16A:0827#veere" (a named water area) or "19A:3413/3414" (a riverine hexside).
// A hex after the first of a path may drop the sheet of the waypoint before it ("1222").
Result<Waypoint> ParseWaypoint(const map::Theater& t, std::string_view token,
                               const Waypoint* previous = nullptr);
std::string FormatWaypoint(const map::Theater& t, const Waypoint& w);
// Comma-separated waypoints, e.g. the CLI's --path.
Result<std::vector<Waypoint>> ParseWaypoints(const map::Theater& t, std::string_view list);

struct RouteAnswer {
  bool reachable = false;
  std::vector<Waypoint> path;
  std::uint32_t cost = 0;          // half-MPs on the ground, naval steps at sea
  std::vector<RuleId> blocked_by;  // rules that refused steps the search tried (see docs)
  std::string reason;              // why there is no route, when there is none
};

struct PathVerdict {
  bool legal = true;
  std::uint32_t cost = 0;
  std::vector<RuleId> blocked_by;  // the rule that forbids the first illegal step
  int failed_step = -1;            // index of the waypoint that could not be reached
  std::string reason;
  std::vector<std::vector<Note>> notes;  // per step, the rules that applied
};

class GroundRouter {
 public:
  // Outbound arcs cost the step from a hex to its neighbour: searches give the cost from the
  // source. Inbound arcs cost the step from the neighbour into the hex: a search from a set of
  // hexes gives, for every hex, the cost of reaching that set from it (supply lines, B8).
  enum class Arcs : std::uint8_t { kOutbound, kInbound };

  GroundRouter(const RuleContext& ctx, const GroundMover& mover, Arcs arcs = Arcs::kOutbound);

  // Hexes a search may enter but not leave (enemy zones of control, B4.8; a source is always
  // left), and hexes it may not enter at all (enemy units). Either may be empty.
  void SetBarriers(std::span<const std::uint8_t> stop, std::span<const std::uint8_t> closed);

  // Cheapest cost (half-MPs) from `from` (or from the nearest of `from`) to every hex;
  // kUnreachable where none.
  const std::vector<std::uint32_t>& CostsFrom(map::HexRef from);
  const std::vector<std::uint32_t>& CostsFrom(std::span<const map::HexRef> from);
  RouteAnswer Route(map::HexRef from, map::HexRef to);
  // The cheapest route between `to` and the nearest of `sources`, listed from `to` for
  // inbound arcs and from the source for outbound ones.
  RouteAnswer Route(std::span<const map::HexRef> sources, map::HexRef to);
  // A path judged step by step; with barriers set, it stops where a move order would: leaving
  // an enemy zone of control it entered (B4.8), entering enemy units (B4.9, an overrun, which
  // needs the units' strengths).
  PathVerdict Check(std::span<const map::HexRef> path) const;

  const RuleContext& ctx() const { return *ctx_; }
  // Points the router at another state whose movement costs are the same (see RouterCache).
  void Rebind(const RuleContext& ctx);

 private:
  // Dial's algorithm from `from`; stops once `stop` is settled (if valid). With kTrack it also
  // keeps predecessors and the rules that refused arcs, for Route().
  template <bool kTrack, bool kBarriers>
  void Search(std::span<const map::HexRef> from, map::HexRef stop);
  void Run(bool track, std::span<const map::HexRef> from, map::HexRef stop);

  // A hex's arcs in half a cache line: where each of its hexsides leads and what crossing it
  // costs (half-MPs), the open ones first; for a forbidden arc, `cost` holds its rule's code
  // (1 + an index into rule_names_). A rail ferry terminal's extra arc lives in ferries_.
  struct alignas(32) Slots {
    static constexpr std::uint8_t kFerry = 0x80;  // in `total`: a rail ferry starts here
    std::uint32_t target[6] = {};
    std::uint8_t cost[6] = {};
    std::uint8_t open = 0;   // arcs [0, open) may be taken
    std::uint8_t total = 0;  // arcs [open, total & 7) are forbidden
  };
  static_assert(sizeof(Slots) == 32);
  struct Ferry {
    std::uint32_t from, to;
    std::uint8_t cost;  // or the rule's code, when forbidden
    bool open;
  };

  std::optional<RuleContext> ctx_;  // optional only so that Rebind can replace it
  GroundMover mover_;
  Arcs direction_;
  std::vector<Slots> hexes_;
  std::vector<Ferry> ferries_;
  std::vector<std::uint8_t> barriers_;  // by hex: kStopBit, kClosedBit
  static constexpr std::uint8_t kStopBit = 1, kClosedBit = 2;
  std::vector<RuleId> rule_names_;
  // Scratch.
  std::vector<std::uint32_t> dist_;
  std::vector<std::uint32_t> pred_;  // predecessor hex, for routes
  std::vector<std::vector<std::uint32_t>> buckets_;
  std::vector<std::uint8_t> rules_seen_;
};

// --- naval -------------------------------------------------------------------------------------

struct NavalGroup {
  Side side = Side::kAllied;
  bool tf = false;         // task force
  bool cg = false;         // carrier group
  bool transport = false;  // transports
  bool flotilla = false;   // river flotillas
  bool warships() const { return tf || cg; }
};
// A comma-separated composition: "tf", "cg", "transport", "flotilla".
Result<NavalGroup> ParseGroup(std::string_view composition, Side side);
std::string GroupName(const NavalGroup& g);

class NavalRouter {
 public:
  NavalRouter(const RuleContext& ctx, const NavalGroup& group);

  // Kerch tags (41.E.1): which sea a group in the straits entered them from.
  enum Tag : std::uint8_t { kNoTag = 0, kFromAzov = 1, kFromBlackSea = 2 };

  RouteAnswer Route(const Waypoint& from, const Waypoint& to);
  // A path judged step by step. `straits`, when given, is the sea the group entered the
  // straits from when it starts in them (a passage begun in an earlier move), and is set to
  // the same at the path's end.
  PathVerdict Check(std::span<const Waypoint> path, Tag* straits = nullptr) const;

 private:
  struct Edge {
    std::uint32_t target;
    map::NavalEdgeProps props;
  };
  struct Move {
    std::uint32_t cost = 0;
    RuleId blocked;
    Tag tag = kNoTag;
  };
  Move Evaluate(std::uint32_t from, Tag tag, const Edge& e, std::vector<Note>* notes) const;
  // Rule 41's naval clauses, each defined in its clause's file in src/rule41/: the rule that
  // refuses the step (having noted why), or none (having noted the clause, if it applied).
  // The sea-step clauses are asked only where their inline "applies here" test below holds, so
  // that the common step makes no call (BM_NavalRoute).
  RuleId CausewayStep(map::HexsideRef side, std::vector<Note>* notes) const;  // 41.A.1
  RuleId SuezStep(map::HexsideRef side, const map::Waterway& way,
                  std::vector<Note>* notes) const;  // 41.B
  RuleId CorinthStep(map::HexsideRef side, const map::Waterway& way,
                     std::vector<Note>* notes) const;  // 41.C
  RuleId ShattStep(map::HexsideRef side, const map::Waterway& way,
                   std::vector<Note>* notes) const;                     // 41.D
  RuleId SivashStep(map::HexRef to, std::vector<Note>* notes) const;    // 41.E.4
  RuleId FlotillaStep(map::HexRef to, std::vector<Note>* notes) const;  // 41.E.5, B6.4
  // 41.E.1: `mv` with the Kerch tag the step leaves the group, or refused.
  Move KerchStep(map::HexRef from, map::HexRef to, Tag tag, Move mv,
                 std::vector<Note>* notes) const;
  // Where each applies: a causeway hexside (41.A.1), the Sivash line (41.E.4), a flotilla
  // entering all-sea (41.E.5, B6.4), a step into or out of the Kerch Straits (41.E.1).
  bool OnCauseway(map::HexsideRef side) const {
    return ctx_.theater.hexside(side).Has(map::kCauseway);
  }
  bool OnSivashLine(map::HexRef to) const { return (ctx_.theater.hex(to).areas & sivash_) != 0; }
  bool FlotillaAtSea(map::HexRef to) const {
    return group_.flotilla && ctx_.theater.hex(to).terrain == map::Terrain::kAllSea;
  }
  bool StraitsHex(map::HexRef h) const {
    return h.valid() && (ctx_.theater.hex(h).areas & straits_) != 0;
  }
  bool AzovHex(map::HexRef h) const {
    return h.valid() && (ctx_.theater.hex(h).areas & azov_) != 0;
  }
  map::HexRef NodeHex(std::uint32_t node) const;
  std::uint32_t Node(const Waypoint& w) const;
  std::uint32_t Heuristic(std::uint32_t node, map::GridPos target) const;

  RuleContext ctx_;
  NavalGroup group_;
  std::uint64_t sivash_ = 0, azov_ = 0, straits_ = 0;  // area masks
  bool straits_enemy_ = false;                         // 41.E.1: the enemy owns both strait hexes
  // Scratch.
  std::vector<std::uint32_t> dist_;
  std::vector<std::uint32_t> pred_;
};

}  // namespace opsim::ops
