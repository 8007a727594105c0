#include "opsim/query/check.h"

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <tuple>

#include "opsim/ops/calendar.h"
#include "opsim/ops/orders.h"
#include "opsim/query/log.h"
#include "warm.h"

namespace opsim::query {

using nlohmann::json;

namespace {

Chance Reduced(std::uint64_t n, std::uint64_t d) {
  const std::uint64_t k = std::gcd(n, d);
  return k ? Chance{n / k, d / k} : Chance{0, 1};
}

Chance Plus(Chance a, Chance b) {
  const std::uint64_t l = std::lcm(a.denominator, b.denominator);
  return Reduced(a.numerator * (l / a.denominator) + b.numerator * (l / b.denominator), l);
}

// a / b, for a no more likely than b.
Chance Given(Chance a, Chance b) {
  const Chance n = Reduced(a.numerator, b.numerator), d = Reduced(a.denominator, b.denominator);
  return Reduced(n.numerator * d.denominator, n.denominator * d.numerator);
}

// Every result of the table a roll's outcome comes from, in the table's order.
std::vector<ops::RollOutcome> TableOf(const ops::RollOutcome& o, const ops::CombatTables& crt) {
  using ops::CombatResult, ops::FloodResult, ops::Weather, ops::AirEscape;
  switch (o.index()) {
    case 1:
      return {Weather::kClear, Weather::kMud, Weather::kFrost, Weather::kSnow};
    case 2:
      return {FloodResult::kCompleteFailure, FloodResult::kFailure, FloodResult::kSuccess,
              FloodResult::kGreatSuccess};
    case 3: {
      std::vector<ops::RollOutcome> codes;
      for (std::size_t k = 0; k < crt.codes.size(); ++k) {
        codes.emplace_back(CombatResult{static_cast<std::uint8_t>(k)});
      }
      return codes;
    }
    case 4:
      return {AirEscape::kEscapes, AirEscape::kEliminated};
    default:
      return {o};
  }
}

std::string OutcomeName(const ops::RollOutcome& o, const ops::CombatTables& crt) {
  struct {
    const ops::CombatTables& crt;
    std::string operator()(std::monostate) const { return "-"; }
    std::string operator()(ops::Weather w) const { return ops::WeatherName(w); }
    std::string operator()(ops::FloodResult r) const { return ops::FloodResultName(r); }
    std::string operator()(ops::CombatResult r) const { return crt.name(r); }
    std::string operator()(ops::AirEscape e) const { return ops::AirEscapeName(e); }
  } name{crt};
  return std::visit(name, o);
}

// One way the dice may fall: the player-turn played with them, and how likely it is.
struct Leaf {
  ops::TurnResult result;
  ops::ProbeRun run;
  Chance weight;
};

// Plays the orders for every die: at each roll, each value is tried, and the values that
// decide the same (the same roll, against the same odds, with the same result) lead to the
// same player-turn, so one of them is followed with their joint weight.
class Enumerator {
 public:
  Enumerator(const ops::Game& game, const ops::Orders& orders, bool go_on, int max_plays)
      : game_(game), orders_(orders), go_on_(go_on), max_plays_(max_plays) {}

  Status Run() {
    ops::ProbeRun run;
    run.go_on = go_on_;
    auto r = Play(run);
    if (!r) return std::unexpected(r.error());
    if (run.needs == 0) {
      leaves_.push_back({std::move(*r), std::move(run), {1, 1}});
      return {};
    }
    return Expand({}, {1, 1}, run.needs);
  }
  std::vector<Leaf>& leaves() { return leaves_; }
  bool complete() const { return complete_; }

 private:
  Result<ops::TurnResult> Play(ops::ProbeRun& run) {
    ++plays_;
    return game_.Probe(orders_, run);
  }

  Status Expand(const std::vector<int>& dice, Chance weight, int sides) {
    struct Branch {
      std::tuple<std::string, std::string, ops::RollOutcome> decided;
      std::uint64_t count = 0;
      Leaf leaf;
    };
    std::vector<Branch> branches;
    for (int v = 1; v <= sides; ++v) {
      if (plays_ >= max_plays_) {
        complete_ = false;
        return {};
      }
      ops::ProbeRun run;
      run.go_on = go_on_;
      run.dice = dice;
      run.dice.push_back(v);
      auto r = Play(run);
      if (!r) return std::unexpected(r.error());
      // The roll of this die: the last of the probe's own (not the orders' scripted dice).
      std::size_t k = 0;
      const ops::DieRoll* roll = nullptr;
      for (const ops::DieRoll& d : r->rolls) {
        if (!d.scripted && k++ == dice.size()) roll = &d;
      }
      if (roll == nullptr) return Fail(ErrorCode::kInternal, "a probe's die was not rolled");
      auto decided = std::make_tuple(roll->purpose, roll->against, roll->outcome);
      auto same = std::find_if(branches.begin(), branches.end(),
                               [&](const Branch& b) { return b.decided == decided; });
      if (same != branches.end()) {
        ++same->count;
      } else {
        branches.push_back({std::move(decided), 1, {std::move(*r), std::move(run), {}}});
      }
    }
    for (Branch& b : branches) {
      const Chance w = Reduced(weight.numerator * b.count, weight.denominator * sides);
      if (b.leaf.run.needs == 0) {
        b.leaf.weight = w;
        leaves_.push_back(std::move(b.leaf));
      } else if (auto st = Expand(b.leaf.run.dice, w, b.leaf.run.needs); !st || !complete_) {
        return st;
      }
    }
    return {};
  }

  const ops::Game& game_;
  const ops::Orders& orders_;
  bool go_on_;
  int max_plays_;
  int plays_ = 0;
  bool complete_ = true;
  std::vector<Leaf> leaves_;
};

// The odds of each roll over every leaf, each roll in the order first met.
Odds OddsOf(const std::vector<Leaf>& leaves, bool complete, int max_plays,
            const ops::CombatTables& crt) {
  Odds out;
  out.max_plays = max_plays;
  out.complete = complete;
  if (!complete) return out;
  std::vector<RollOdds>& rows = out.odds;
  for (const Leaf& leaf : leaves) {
    for (const ops::DieRoll& d : leaf.result.rolls) {
      auto row = std::find_if(rows.begin(), rows.end(), [&](const auto& r) {
        return r.purpose == d.purpose && r.against == d.against && r.rule == d.rule;
      });
      if (row == rows.end()) {
        RollOdds odds{d.purpose, d.rule, d.against, {}, {0, 1}};
        for (const ops::RollOutcome& o : TableOf(d.outcome, crt)) {
          odds.results.emplace_back(OutcomeName(o, crt), Chance{0, 1});
        }
        rows.push_back(std::move(odds));
        row = rows.end() - 1;
      }
      row->rolled = Plus(row->rolled, leaf.weight);
      const std::string name = OutcomeName(d.outcome, crt);
      for (auto& [result, chance] : row->results) {
        if (result == name) chance = Plus(chance, leaf.weight);
      }
    }
  }
  for (RollOdds& odds : rows) {
    // Every result over one denominator, the least they share.
    std::uint64_t common = 1;
    for (auto& [result, chance] : odds.results) {
      chance = Given(chance, odds.rolled);
      common = std::lcm(common, chance.denominator);
    }
    for (auto& [result, chance] : odds.results) {
      chance = {chance.numerator * (common / chance.denominator), common};
    }
  }
  return out;
}

json ChanceJson(const Chance& c) {
  return {
      {"numerator", c.numerator}, {"denominator", c.denominator}, {"probability", c.probability()}};
}

json OddsJson(const Odds& o) {
  json rolls = json::array();
  for (const RollOdds& r : o.odds) {
    json results = json::array();
    for (const auto& [name, chance] : r.results) {
      json c = ChanceJson(chance);
      c["result"] = name;
      results.push_back(c);
    }
    rolls.push_back({{"purpose", r.purpose},
                     {"rule", r.rule.id},
                     {"against", r.against},
                     {"rolled", ChanceJson(r.rolled)},
                     {"results", results}});
  }
  return {{"complete", o.complete}, {"max_plays", o.max_plays}, {"rolls", rolls}};
}

bool Reported(const ops::Event& e) {
  return e.kind != "weather" && e.kind != "supply" && e.kind != "die";
}

}  // namespace

Result<CheckAnswer> AnswerCheck(const LoadedGame& g, const std::string& action_text,
                                std::optional<Side> side, int max_plays) {
  auto game = LeasePlanningGame(g, side);
  if (!game) return std::unexpected(game.error());
  auto action_src = JsonSource::FromText(action_text, "--action");
  if (!action_src) return std::unexpected(action_src.error());
  const json& action = action_src->doc();
  if (!action.is_object()) return Fail(ErrorCode::kInvalidInput, "--action is one JSON object");
  const char* section = action.contains("attack")                                    ? "combat"
                        : action.contains("suez") || action.contains("ice-airfield") ? "initial"
                                                                                     : "movement";
  CheckAnswer a;
  a.side = SideName((*game)->state().phasing());
  a.turn = ops::FormatGameDate((*game)->state().date());
  json orders = {{"opsim", "orders"},
                 {"version", 1},
                 {"side", a.side},
                 {"turn", a.turn},
                 {section, json::array({action})}};
  auto src = JsonSource::FromText(orders.dump(), "--action");
  if (!src) return std::unexpected(src.error());
  auto parsed = ops::ParseOrders(*src, *g.theater);
  if (!parsed) return std::unexpected(parsed.error());
  Enumerator dice(**game, *parsed, false, max_plays);
  if (auto st = dice.Run(); !st) {
    if (st.error().code != ErrorCode::kRuleViolation) return std::unexpected(st.error());
    a.rules = {st.error().rule};
    a.reason = st.error().message;
    return a;
  }
  a.legal = true;
  std::set<std::string> rules;
  for (const Leaf& leaf : dice.leaves()) {
    for (const ops::Event& e : leaf.result.events) {
      if (Reported(e) && !e.rule.empty()) rules.insert(std::string(e.rule.id));
    }
    for (const ops::DieRoll& d : leaf.result.rolls) rules.insert(std::string(d.rule.id));
  }
  if (!dice.leaves().empty()) {
    const Leaf& first = dice.leaves().front();
    const std::size_t shared = std::min(first.run.shared_events, first.result.events.size());
    for (std::size_t i = 0; i < shared; ++i) {
      if (Reported(first.result.events[i])) a.events.push_back(first.result.events[i]);
    }
  }
  a.rules.assign(rules.begin(), rules.end());
  a.odds = OddsOf(dice.leaves(), dice.complete(), max_plays, g.tables().combat);
  return a;
}

json ToJson(const CheckAnswer& a) {
  json doc;
  if (a.legal) {
    json events = json::array();
    for (const ops::Event& e : a.events) events.push_back(ToJson(e));
    doc = {{"legal", true}, {"rules", a.rules}, {"events", events}, {"odds", OddsJson(a.odds)}};
  } else {
    doc = {{"legal", false}, {"rules", a.rules}, {"reason", a.reason}};
  }
  doc["side"] = a.side;
  doc["turn"] = a.turn;
  return doc;
}

namespace {

// One line's name for each order, in the order the player-turn plays them.
std::vector<OrderVerdict> OrdersOf(const ops::Orders& o, const map::Theater& t) {
  std::vector<OrderVerdict> out;
  auto units = [](const std::vector<std::string>& ids) {
    std::string s;
    for (const std::string& id : ids) s += (s.empty() ? "" : ", ") + id;
    return s;
  };
  for (const ops::InitialOrder& i : o.initial) {
    out.push_back({i.where,
                   i.kind == ops::InitialKind::kIceAirfield
                       ? "ice airfield at " + t.HexName(i.hex) + " by " + i.unit
                   : i.kind == ops::InitialKind::kCloseSuez ? "close the Suez Canal"
                                                            : "reopen the Suez Canal",
                   {}});
  }
  for (const ops::MoveOrder& m : o.movement) out.push_back({m.where, "move " + units(m.units), {}});
  for (const ops::AttackOrder& a : o.combat) {
    out.push_back({a.where, "attack on " + t.HexName(a.hex) + " by " + units(a.units), {}});
  }
  for (const ops::Reaction& r : o.reactions) {
    out.push_back(
        {r.where,
         (r.kind == ops::ReactionKind::kMassiveFlood ? "massive flooding of " : "flooding of ") +
             t.HexName(r.hex),
         {}});
  }
  for (const ops::MoveOrder& m : o.exploitation) {
    out.push_back({m.where, "exploit " + units(m.units), {}});
  }
  return out;
}

}  // namespace

Result<DryRunAnswer> AnswerDryRun(const LoadedGame& g, const JsonSource& src,
                                  std::optional<Side> side, int max_plays) {
  auto game = LeasePlanningGame(g, side);
  if (!game) return std::unexpected(game.error());
  auto orders = ops::ParseOrders(src, *g.theater);
  if (!orders) return std::unexpected(orders.error());
  Enumerator dice(**game, *orders, true, max_plays);
  if (auto st = dice.Run(); !st) return std::unexpected(st.error());
  DryRunAnswer a;
  a.side = SideName((*game)->state().phasing());
  a.turn = ops::FormatGameDate((*game)->state().date());
  a.orders = OrdersOf(*orders, *g.theater);
  // The same problem met after several outcomes is one problem, as likely as they are.
  for (const Leaf& leaf : dice.leaves()) {
    for (const Error& e : leaf.run.refused) {
      auto same = std::find_if(a.problems.begin(), a.problems.end(), [&](const auto& p) {
        return p.first.where == e.where && p.first.message == e.message && p.first.rule == e.rule;
      });
      if (same == a.problems.end()) {
        a.problems.emplace_back(e, leaf.weight);
      } else {
        same->second = Plus(same->second, leaf.weight);
      }
    }
  }
  for (const auto& [e, chance] : a.problems) {
    for (OrderVerdict& o : a.orders) {
      if (o.where == e.where) o.problems.push_back(e);
    }
  }
  a.odds = OddsOf(dice.leaves(), dice.complete(), max_plays, g.tables().combat);
  return a;
}

json ToJson(const DryRunAnswer& a) {
  auto error = [](const Error& e) {
    return json{{"where", e.where}, {"rule", e.rule}, {"message", e.message}};
  };
  json orders = json::array();
  for (const OrderVerdict& o : a.orders) {
    json problems = json::array();
    for (const Error& e : o.problems) problems.push_back(error(e));
    orders.push_back({{"where", o.where},
                      {"order", o.what},
                      {"legal", o.problems.empty()},
                      {"problems", problems}});
  }
  json problems = json::array();
  for (const auto& [e, chance] : a.problems) {
    json p = error(e);
    p["exit_code"] = ExitCodeFor(e.code);
    if (a.odds.complete) p["chance"] = ChanceJson(chance);
    problems.push_back(p);
  }
  return {{"legal", a.legal()}, {"side", a.side},       {"turn", a.turn},
          {"orders", orders},   {"problems", problems}, {"odds", OddsJson(a.odds)}};
}

}  // namespace opsim::query
