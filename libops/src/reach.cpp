// Reach (reach.h): a label-setting search from the stack's hex, bounded by its allowance. A label
// is one way to reach a hex: what each move class of the stack has spent on the way. With one
// class it is Dijkstra's algorithm; with several, a hex keeps every label no other label beats
// for all classes, so that no path a slower class could still afford is lost. Steps are judged
// on demand, only where the stack's MPs reach, by the movement phase's own judges. A rail move
// is a breadth-first search along the railroads, barred where RailStepBar says.
#include "opsim/ops/reach.h"

#include <algorithm>
#include <array>
#include <optional>
#include <queue>
#include <unordered_map>

#include "movement.h"
#include "notes.h"
#include "opsim/core/echo.h"
#include "opsim/core/rule_ids.h"
#include "rule41/rule41.h"

namespace opsim::ops {

namespace {

using map::HexRef;
using map::HexsideRef;

constexpr std::uint32_t kNone = 0xFFFFFFFFu;

struct Label {
  std::uint32_t hex = 0;
  std::uint32_t cost = 0;  // the most any unit has spent: the order labels are settled in
  std::array<std::uint32_t, kMaxMoveClasses> spent{};  // by class slot, markers excluded
  std::uint32_t pred = kNone;                          // label
  std::uint32_t next = kNone;                          // the hex's next label
  bool dead = false;                                   // beaten after it was queued
};

// A refused edge, worded at the end only if it leads out of the reached area.
struct Refusal {
  enum Kind : std::uint8_t { kStep, kAllowance, kOverrun, kStop, kRail };
  HexRef from, to;
  RuleId rule;
  Kind kind = kStep;
  int slot = 0;             // kStep, kAllowance: the class refused
  std::uint32_t need = 0;   // kAllowance: half-MPs the class would have spent; kOverrun: odds
  std::uint32_t limit = 0;  // kAllowance: what it may spend
  std::string why{};        // kRail
};

class Search {
 public:
  Search(const Game& game, const ReachRequest& request, ReachAnswer& a)
      : g_(game),
        t_(game.theater()),
        tables_(game.tables()),
        ctx_(game.Context(request.exploitation)),
        r_(request),
        a_(a) {}

  Status Run();

 private:
  void Rail();  // B5.1: breadth-first along the railroads
  Status Gather();
  std::uint32_t CostOf(const std::array<std::uint32_t, kMaxMoveClasses>& spent) const;
  // The step from label `l`'s hex into `to` (across `side`, or by `ferry`), queued if affordable.
  void Relax(std::uint32_t l, HexRef to, HexsideRef side, const map::RailFerry* ferry);
  void Insert(Label next);
  StepVerdict Step(int slot, HexRef from, HexsideRef side, const map::RailFerry* ferry,
                   std::vector<Note>* notes) const;
  int OverrunOddsAt(HexRef to);
  std::string Why(const Refusal& r) const;
  void Answer();

  const Game& g_;
  const map::Theater& t_;
  const RuleTables& tables_;
  const RuleContext ctx_;
  const ReachRequest& r_;
  ReachAnswer& a_;

  std::vector<const GroundUnit*> stack_;
  int halves_ = 0;
  std::vector<MoveClass> classes_;                       // by slot
  std::vector<GroundMover> movers_;                      // by slot
  std::array<std::uint32_t, kMaxMoveClasses> budget_{};  // by slot: the least any unit may spend
  std::array<std::uint32_t, kMaxMoveClasses> marker_{};  // by slot: the most any unit owes first
  std::vector<std::uint8_t> zoc_;
  std::unordered_map<std::uint32_t, int> defense_;  // enemy-held hexes: their defence
  std::unordered_map<std::uint32_t, int> friends_;  // friendly half REs outside the stack
  std::unordered_map<std::uint32_t, int> odds_;     // overrun odds, by hex
  std::optional<SupplyStatus> supply_;              // the stack's, as its initial phase sets it

  std::vector<Label> labels_;
  std::vector<std::uint32_t> head_;  // by hex: its first label
  std::vector<std::uint32_t> best_;  // by hex: its first settled label
  std::vector<std::uint32_t> settled_;
  std::vector<Refusal> refusals_;
  using Entry = std::pair<std::uint32_t, std::uint32_t>;  // cost, label
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue_;
};

Status Search::Gather() {
  const GameState& s = g_.state();
  const Side side = s.phasing();
  if (r_.units.empty()) return Fail(ErrorCode::kInvalidInput, "name at least one unit");
  if (r_.rail && r_.exploitation) {
    return Fail(ErrorCode::kRuleViolation, "only ground units move in the exploitation phase",
                r_.units.front(), std::string(rules::kB7_8.id));
  }
  for (const std::string& id : r_.units) {
    const GroundUnit* u = s.FindUnit(id);
    if (u == nullptr)
      return Fail(ErrorCode::kInvalidInput, "no ground unit '" + EchoToken(id) + "'",
                  EchoToken(id));
    auto refuse = [&](RuleId rule, const std::string& why) {
      return Fail(ErrorCode::kRuleViolation, why, id, std::string(rule.id));
    };
    if (!u->on_map()) return refuse(rules::kB4_10, OffMapWhy(*u));
    if (u->side != side) {
      return refuse(rules::kB1_2,
                    u->name + " is not " + SideName(side) + ": only the phasing side's units move");
    }
    if (!stack_.empty() && u->hex != stack_.front()->hex) {
      return refuse(
          r_.rail ? rules::kB5_1 : rules::kB4_10,
          u->name + " is in " + t_.HexName(u->hex) + ", not " + t_.HexName(stack_.front()->hex));
    }
    if (r_.exploitation && !tables_.type(u->type).motorized) {
      return refuse(rules::kB7_8, u->name + " may not exploit: only motorized units exploit");
    }
    if (std::find(stack_.begin(), stack_.end(), u) != stack_.end()) {
      return Fail(ErrorCode::kInvalidInput, u->name + " is named twice", id);
    }
    stack_.push_back(u);
    halves_ += u->re_halves;
  }
  a_.start = stack_.front()->hex;
  const int capacity = g_.campaign().rail_capacity[static_cast<int>(side)] * 2;
  if (r_.rail && halves_ > capacity) {
    return Fail(
        ErrorCode::kRuleViolation,
        "rail capacity: " + Halves(capacity) + " REs a player-turn, " + Halves(halves_) + " asked",
        r_.units.front(), std::string(rules::kB5_1.id));
  }
  bool engineer = false;
  for (const GroundUnit* u : stack_) engineer = engineer || tables_.type(u->type).engineer;
  budget_.fill(kNone);
  for (const GroundUnit* u : stack_) {
    const MoveClass cls = tables_.type(u->type).cls;
    auto it = std::find(classes_.begin(), classes_.end(), cls);
    const auto slot = static_cast<std::size_t>(it - classes_.begin());
    if (it == classes_.end()) {
      classes_.push_back(cls);
      movers_.push_back(StackMover(side, cls, engineer, halves_));
    }
    ReachUnit ru{u->id,
                 u->name,
                 cls,
                 tables_.movement.ClassName(cls),
                 MoveAllowance(*u, tables_, r_.exploitation),
                 u->extra_mp_marker * 2};
    // A unit whose marker exceeds its allowance has nothing left: every step is refused.
    const int left = std::max(ru.allowance - ru.marker, 0);
    budget_[slot] = std::min<std::uint32_t>(budget_[slot], static_cast<std::uint32_t>(left));
    marker_[slot] = std::max<std::uint32_t>(marker_[slot], static_cast<std::uint32_t>(ru.marker));
    a_.units.push_back(std::move(ru));
  }
  zoc_ = g_.EnemyZoc(side);
  for (const GroundUnit& u : s.units) {
    if (!u.on_map()) continue;
    if (u.side != side) {
      defense_[u.hex.v] += u.defense;
    } else if (std::find(stack_.begin(), stack_.end(), &u) == stack_.end()) {
      friends_[u.hex.v] += u.re_halves;
    }
  }
  return {};
}

std::uint32_t Search::CostOf(const std::array<std::uint32_t, kMaxMoveClasses>& spent) const {
  std::uint32_t most = 0;
  for (std::size_t k = 0; k < classes_.size(); ++k) most = std::max(most, marker_[k] + spent[k]);
  return most;
}

StepVerdict Search::Step(int slot, HexRef from, HexsideRef side, const map::RailFerry* ferry,
                         std::vector<Note>* notes) const {
  return ferry ? EvaluateFerryStep(ctx_, movers_[slot], *ferry, from, notes)
               : EvaluateGroundStep(ctx_, movers_[slot], from, side, notes);
}

int Search::OverrunOddsAt(HexRef to) {
  auto it = odds_.find(to.v);
  if (it != odds_.end()) return it->second;
  auto odds_if = [&](SupplyStatus status) {
    int attack = 0;
    for (const GroundUnit* u : stack_) {
      GroundUnit as = *u;
      as.supply = status;
      attack += OverrunAttack(as, tables_);
    }
    return OverrunOdds(tables_, t_.hex(to), attack, defense_[to.v]);
  };
  // The coming initial phase sets the stack's supply (B8) before it moves. Tracing it costs a
  // whole-map search, so it is asked only when the overrun's verdict depends on it.
  const int supplied = odds_if(SupplyStatus::kSupplied);
  const int unsupplied = odds_if(SupplyStatus::kOutOfSupply);
  const int needed = tables_.combat.overrun_odds;
  int odds = supplied;
  if ((supplied >= needed) != (unsupplied >= needed)) {
    if (!supply_) supply_ = g_.SupplyAt(g_.state().phasing(), a_.start).status;
    odds = *supply_ == SupplyStatus::kSupplied ? supplied : unsupplied;
  } else if (supplied >= needed) {
    odds = unsupplied;  // the least it gets; the answer says "or more"
  }
  odds_.emplace(to.v, odds);
  return odds;
}

void Search::Relax(std::uint32_t l, HexRef to, HexsideRef side, const map::RailFerry* ferry) {
  const HexRef from{labels_[l].hex};
  Label next;
  next.hex = to.v;
  next.pred = l;
  for (std::size_t k = 0; k < classes_.size(); ++k) {
    const StepVerdict step = Step(static_cast<int>(k), from, side, ferry, nullptr);
    if (!step.blocked.empty()) {
      refusals_.push_back({from, to, step.blocked, Refusal::kStep, static_cast<int>(k)});
      return;
    }
    next.spent[k] = labels_[l].spent[k] + step.cost;
  }
  auto afford = [&](RuleId rule) {
    for (std::size_t k = 0; k < classes_.size(); ++k) {
      if (next.spent[k] > budget_[k]) {
        refusals_.push_back({from, to, rule, Refusal::kAllowance, static_cast<int>(k),
                             marker_[k] + next.spent[k], marker_[k] + budget_[k]});
        return false;
      }
    }
    return true;
  };
  const RuleId allowance = r_.exploitation ? rules::kB7_8 : rules::kB4_10;
  if (!afford(allowance)) return;
  if (defense_.count(to.v)) {
    const int odds = OverrunOddsAt(to);
    if (odds < tables_.combat.overrun_odds) {
      refusals_.push_back(
          {from, to, rules::kB4_9, Refusal::kOverrun, 0, static_cast<std::uint32_t>(odds)});
      return;
    }
    const auto extra = static_cast<std::uint32_t>(tables_.combat.overrun_extra_mp) * 2;
    for (std::size_t k = 0; k < classes_.size(); ++k) next.spent[k] += extra;
    if (!afford(allowance)) return;
  }
  next.cost = CostOf(next.spent);
  Insert(next);
}

void Search::Insert(Label next) {
  const std::size_t n = classes_.size();
  auto beats = [n](const Label& x, const Label& y) {
    for (std::size_t k = 0; k < n; ++k) {
      if (x.spent[k] > y.spent[k]) return false;
    }
    return true;
  };
  for (std::uint32_t i = head_[next.hex]; i != kNone; i = labels_[i].next) {
    if (!labels_[i].dead && beats(labels_[i], next)) return;
  }
  for (std::uint32_t i = head_[next.hex]; i != kNone; i = labels_[i].next) {
    if (!labels_[i].dead && beats(next, labels_[i]) && best_[next.hex] != i) labels_[i].dead = true;
  }
  const auto id = static_cast<std::uint32_t>(labels_.size());
  next.next = head_[next.hex];
  head_[next.hex] = id;
  queue_.emplace(next.cost, id);
  labels_.push_back(next);
}

Status Search::Run() {
  if (auto st = Gather(); !st) return st;
  const std::size_t n = t_.hex_count();
  head_.assign(n, kNone);
  best_.assign(n, kNone);
  Label start;
  start.hex = a_.start.v;
  if (r_.rail) {
    labels_.push_back(start);
    Rail();
    Answer();
    return {};
  }
  start.cost = CostOf(start.spent);
  Insert(start);
  while (!queue_.empty()) {
    const auto [cost, l] = queue_.top();
    queue_.pop();
    if (labels_[l].dead) continue;
    const HexRef u{labels_[l].hex};
    if (best_[u.v] == kNone) {
      best_[u.v] = l;
      settled_.push_back(u.v);
    }
    // B4.8: entering an enemy zone of control ends the move; an overrun ends the search.
    if (u != a_.start && (zoc_[u.v] || defense_.count(u.v))) continue;
    for (map::Dir d : map::kAllDirs) {
      const HexsideRef side = t_.HexsideAt(u, d);
      if (side.valid()) Relax(l, t_.hexside(side).Other(u), side, nullptr);
    }
    for (const map::RailFerry& f : t_.rail_ferries()) {
      if (f.from() == u || f.to() == u) {
        const HexRef to = f.from() == u ? f.to() : f.from();
        // A ferry between adjacent terminals is a plain step in `turn`, judged above.
        if (!t_.HexsideBetween(u, to).valid()) Relax(l, to, HexsideRef{}, &f);
      }
    }
  }
  Answer();
  return {};
}

void Search::Rail() {
  const map::MapState& m = g_.state().map;
  const Side side = g_.state().phasing();
  const RailBar at_start = RailStepBar(t_, m, side, zoc_[a_.start.v], false, HexRef{}, a_.start);
  best_[a_.start.v] = 0;
  settled_.push_back(a_.start.v);
  // labels_ is the queue: breadth-first, so each hex is first reached by its fewest rail hexes.
  for (std::uint32_t q = 0; q < labels_.size(); ++q) {
    const HexRef u{labels_[q].hex};
    const std::uint32_t hexes = labels_[q].cost;
    for (map::Dir d : map::kAllDirs) {
      const HexsideRef side_ref = t_.HexsideAt(u, d);
      if (!side_ref.valid()) continue;
      const HexRef v = t_.hexside(side_ref).Other(u);
      if (best_[v.v] != kNone) continue;
      RailBar bar = at_start;
      if (bar.rule.empty()) bar = RailStepBar(t_, m, side, zoc_[v.v], defense_.count(v.v), u, v);
      if (bar.rule.empty() && hexes + 1 > static_cast<std::uint32_t>(tables_.rail_hexes)) {
        bar = {rules::kB5_1,
               "a rail move runs at most " + std::to_string(tables_.rail_hexes) + " hexes"};
      }
      if (!bar.rule.empty()) {
        refusals_.push_back({u, v, bar.rule, Refusal::kRail, 0, 0, 0, std::move(bar.why)});
        continue;
      }
      Label next;
      next.hex = v.v;
      next.cost = hexes + 1;
      next.pred = q;
      best_[v.v] = static_cast<std::uint32_t>(labels_.size());
      settled_.push_back(v.v);
      labels_.push_back(next);
    }
  }
}

std::string Search::Why(const Refusal& r) const {
  switch (r.kind) {
    case Refusal::kStep: {
      std::vector<Note> notes;
      const map::RailFerry* ferry = t_.HexsideBetween(r.from, r.to).valid()
                                        ? nullptr
                                        : rule41::FerryBetween(t_, r.from, r.to);
      return Step(r.slot, r.from, t_.HexsideBetween(r.from, r.to), ferry, &notes).why;
    }
    case Refusal::kAllowance:
      return tables_.movement.ClassName(classes_[r.slot]) + " units would have spent " +
             Mp(r.need) + " entering " + t_.HexName(r.to) + "; they have " + Mp(r.limit);
    case Refusal::kOverrun:
      return "an overrun at " + t_.HexName(r.to) + " needs " +
             std::to_string(tables_.combat.overrun_odds) +
             ":1 after terrain; this stack gets at most " +
             std::to_string(std::max<int>(static_cast<int>(r.need), 0)) + ":1";
    case Refusal::kRail:
      return r.why;
    case Refusal::kStop:
      break;
  }
  return r.rule == rules::kB4_8
             ? "entering an enemy zone of control at " + t_.HexName(r.from) + " ends the move"
             : "the move ends with the overrun at " + t_.HexName(r.from);
}

void Search::Answer() {
  const GameState& s = g_.state();
  a_.side = s.phasing();
  a_.exploitation = r_.exploitation;
  a_.rail = r_.rail;
  a_.player_turn = s.player_turn;
  std::sort(settled_.begin(), settled_.end(), [&](std::uint32_t x, std::uint32_t y) {
    const std::uint32_t cx = labels_[best_[x]].cost, cy = labels_[best_[y]].cost;
    return x == a_.start.v || (y != a_.start.v && (cx != cy ? cx < cy : x < y));
  });
  for (std::uint32_t v : settled_) {
    ReachHex h;
    h.hex = HexRef{v};
    h.cost = labels_[best_[v]].cost;
    for (std::uint32_t l = best_[v]; l != kNone; l = labels_[l].pred) {
      h.path.push_back(HexRef{labels_[l].hex});
    }
    std::reverse(h.path.begin(), h.path.end());
    if (v != a_.start.v && !r_.rail) {
      if (defense_.count(v)) {
        h.stop = rules::kB4_9;
        h.why = "an overrun at " + std::to_string(odds_[v]) +
                ":1 or more eliminates the enemy units (" +
                Mp(static_cast<std::uint32_t>(tables_.combat.overrun_extra_mp) * 2) +
                " more); the move ends there";
      } else if (zoc_[v]) {
        h.stop = rules::kB4_8;
        h.why = "an enemy zone of control: the move ends there";
      }
    }
    if (v != a_.start.v) {
      const int holds = (friends_.count(v) ? friends_.at(v) : 0) + halves_;
      if (holds > tables_.stacking_halves) {
        h.no_end = rules::kB3_2;
        h.why += (h.why.empty() ? "" : "; ") + t_.HexName(h.hex) + " would hold " + Halves(holds) +
                 " REs; the limit is " + Halves(tables_.stacking_halves);
      }
    }
    a_.hexes.push_back(std::move(h));
  }
  // The frontier: refused edges into hexes never reached, and the edges out of stops.
  for (std::uint32_t v : settled_) {
    if (r_.rail || v == a_.start.v || !(zoc_[v] || defense_.count(v))) continue;
    const RuleId rule = defense_.count(v) ? rules::kB4_9 : rules::kB4_8;
    for (map::Dir d : map::kAllDirs) {
      const HexsideRef side = t_.HexsideAt(HexRef{v}, d);
      if (side.valid()) {
        refusals_.push_back({HexRef{v}, t_.hexside(side).Other(HexRef{v}), rule, Refusal::kStop});
      }
    }
  }
  std::stable_sort(refusals_.begin(), refusals_.end(), [](const Refusal& x, const Refusal& y) {
    return x.from != y.from ? x.from < y.from : x.to < y.to;
  });
  for (std::size_t i = 0; i < refusals_.size(); ++i) {
    const Refusal& r = refusals_[i];
    if (best_[r.to.v] != kNone) continue;
    if (i > 0 && refusals_[i - 1].from == r.from && refusals_[i - 1].to == r.to) continue;
    a_.blocked.push_back(ReachEdge{r.from, r.to, r.rule, Why(r)});
  }
  if (!r_.to) return;
  const std::uint32_t end = best_[r_.to->v];
  a_.to_reached = end != kNone;
  if (!a_.to_reached) return;
  std::vector<std::uint32_t> chain;
  for (std::uint32_t l = end; l != kNone; l = labels_[l].pred) chain.push_back(l);
  std::reverse(chain.begin(), chain.end());
  for (std::size_t i = 1; i < chain.size(); ++i) {
    const HexRef from{labels_[chain[i - 1]].hex}, to{labels_[chain[i]].hex};
    const HexsideRef side = t_.HexsideBetween(from, to);
    const map::RailFerry* ferry = side.valid() ? nullptr : rule41::FerryBetween(t_, from, to);
    ReachStep step{to, labels_[chain[i]].cost, {}};
    if (r_.rail) {
      step.notes.push_back({rules::kB5_1, "by rail from " + t_.HexName(from)});
      a_.steps.push_back(std::move(step));
      continue;
    }
    for (std::size_t k = 0; k < classes_.size(); ++k) {
      std::vector<Note> notes;
      Step(static_cast<int>(k), from, side, ferry, &notes);
      for (Note& note : notes) {
        const bool seen = std::any_of(step.notes.begin(), step.notes.end(), [&](const Note& x) {
          return x.rule == note.rule && x.text == note.text;
        });
        if (!seen) step.notes.push_back(std::move(note));
      }
    }
    a_.steps.push_back(std::move(step));
  }
}

}  // namespace

Result<ReachAnswer> Reach(const Game& game, const ReachRequest& request) {
  ReachAnswer a;
  Search search(game, request, a);
  if (auto st = search.Run(); !st) return std::unexpected(st.error());
  return a;
}

}  // namespace opsim::ops
