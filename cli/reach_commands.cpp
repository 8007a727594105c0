// `opsim reach`: where can this stack go this phase? The answer comes from libquery; this file
// reads the options and prints.
#include <map>
#include <sstream>

#include "context.h"
#include "game_source.h"
#include "opsim/query/reach.h"

namespace opsim::cli {

namespace {

std::string Cost(const ops::ReachAnswer& a, std::uint32_t cost) {
  std::ostringstream out;
  out << query::CostOf(a, cost) << (a.rail ? " rail hexes" : " MP");
  return out.str();
}

std::string ReachText(const map::Theater& t, const query::ReachAnswer& a) {
  const ops::ReachAnswer& f = a.found;
  std::ostringstream text;
  text << SideName(f.side) << " " << (f.exploitation ? "exploitation" : "movement")
       << (f.rail ? " by rail" : "") << ", " << a.turn << ": from " << t.HexName(f.start) << ",";
  for (const ops::ReachUnit& u : f.units) {
    text << " " << u.id << " (" << u.class_name << ", "
         << ops::ToMp(static_cast<std::uint32_t>(u.allowance)) << " MP)";
  }
  if (query::WeatherRollFirst(a)) text << "\n(the weather in force; B2.1 rolls it first)";
  text << "\n"
       << a.listed.size() << " hexes reached; "
       << (f.rail ? "[B3.2]: it may not end there\n"
                  : "[rule]: the move ends there (B4.8, B4.9), or may not (B3.2)\n");
  // One line per cost, cheapest first.
  std::uint32_t line = ops::kUnreachable;
  for (std::size_t i : a.listed) {
    const ops::ReachHex& h = f.hexes[i];
    if (h.cost != line) {
      text << (line == ops::kUnreachable ? "" : "\n") << "  " << Cost(f, h.cost) << ":";
      line = h.cost;
    }
    text << " " << t.HexName(h.hex);
    if (!h.stop.empty()) text << " [" << h.stop.id << "]";
    if (!h.no_end.empty()) text << " [" << h.no_end.id << "]";
  }
  if (!a.listed.empty()) text << "\n";
  std::map<std::string_view, int> rules;
  for (const ops::ReachEdge& e : f.blocked) ++rules[e.rule.id];
  text << f.blocked.size() << " edges stop it:";
  for (const auto& [rule, count] : rules) text << " " << rule << " x" << count;
  text << "\n";
  if (!a.to) return text.str();
  text << t.HexName(*a.to) << ": ";
  if (!f.to_reached) {
    text << "not reached\n";
    for (const ops::ReachEdge& e : f.blocked) {
      if (e.to == *a.to) {
        text << "  from " << t.HexName(e.from) << ": " << e.why << " [" << e.rule.id << "]\n";
      }
    }
    return text.str();
  }
  for (const ops::ReachHex& h : f.hexes) {
    if (h.hex != *a.to) continue;
    text << Cost(f, h.cost);
    if (!h.why.empty()) text << "; " << h.why;
    if (!h.no_end.empty())
      text << " [" << h.no_end.id << "]";
    else if (!h.stop.empty())
      text << " [" << h.stop.id << "]";
    text << "\n  " << t.HexName(f.start) << "\n";
  }
  for (const ops::ReachStep& s : f.steps) {
    text << "  " << t.HexName(s.hex) << " (" << Cost(f, s.cost) << ")\n";
    for (const ops::Note& n : s.notes) text << "      " << n.text << " [" << n.rule.id << "]\n";
  }
  return text.str();
}

}  // namespace

void AddReachCommands(CLI::App& app, Context& ctx) {
  struct ReachOptions {
    GameSource game;
    std::vector<std::string> units;
    std::string hex, side, phase = "movement", to;
    bool rail = false;
    double max_cost = -1;
  };
  auto o = std::make_shared<ReachOptions>();
  auto* reach = app.add_subcommand(
      "reach",
      "Every hex a stack can reach in the coming movement or exploitation phase, with its MP "
      "cost (the most any unit of the stack spends, B4.10) and the path to each: roads, rivers, "
      "rail ferries (41.A.2), enemy zones of control (B4.8: the move ends there), overruns of "
      "enemy units (B4.9: reach looks no further), stacking at the end (B3.2). Every edge out of "
      "the reached area names the rule that stops it. A hex it lists at C MP is a move `turn` "
      "plays at C MP, unless the coming weather roll (B2.1) freezes or thaws the ground first "
      "(docs/planning.md). --rail answers a rail move (B5.1) instead.\n"
      "--json: {side, turn, phase, mode, from, units, count, hexes: [{hex, cost, path, stop?, "
      "no_end?, "
      "why?}], blocked: [{from, to, rule, why}], to?}");
  AddGameSourceOptions(reach, o->game);
  auto* units = reach->add_option("--unit", o->units, "a unit of the stack, by id (repeatable)");
  auto* hex = reach->add_option("--hex", o->hex, "or: the side's whole stack in this hex");
  units->excludes(hex);
  reach
      ->add_option("--phase", o->phase,
                   "movement, or exploitation (B7.8: motorized units, half their MPs)")
      ->check(CLI::IsMember({"movement", "exploitation"}))
      ->default_val("movement");
  AddSideOption(reach, o->side,
                "axis or allied: the waiting side plans its next player-turn from the present "
                "position (default: the phasing side)");
  reach->add_flag("--rail", o->rail,
                  "a rail move instead (B5.1): railroads through friendly hexes free of enemy "
                  "zones of control, up to the rail hexes a move runs; costs are rail hexes");
  reach->add_option("--to", o->to, "also show the path to this hex, step by step, with its rules");
  reach
      ->add_option("--max-cost", o->max_cost,
                   "list only hexes reached for at most this many MP (rail hexes with --rail)")
      ->check(InRange(0.0, 1000.0));
  Bind(reach, ctx, [&ctx, o]() -> Status {
    if (o->units.empty() && o->hex.empty()) {
      return Fail(ErrorCode::kInvalidInput, "reach needs --unit ID or --hex HEX");
    }
    auto g = LoadGame(ctx, o->game);
    if (!g) return std::unexpected(g.error());
    query::ReachRequest r;
    r.units = o->units;
    r.hex = o->hex;
    if (!o->side.empty()) r.side = ParseSide(o->side);
    r.exploitation = o->phase == "exploitation";
    r.rail = o->rail;
    r.to = o->to;
    if (o->max_cost >= 0) r.max_cost = o->max_cost;
    auto a = query::AnswerReach(*g, r);
    if (!a) return std::unexpected(a.error());
    Emit(ctx, query::ToJson(*g->theater, *a), ReachText(*g->theater, *a));
    return {};
  });
}

}  // namespace opsim::cli
