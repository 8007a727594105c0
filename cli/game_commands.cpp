// `opsim turn`, `check` and `supply`: playing player-turns and asking the rules about a game.
// The check and supply answers come from libquery; this file reads the options and prints.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "context.h"
#include "game_source.h"
#include "opsim/core/files.h"
#include "opsim/ops/state_file.h"
#include "opsim/query/check.h"
#include "opsim/query/log.h"
#include "opsim/query/play.h"
#include "opsim/query/supply.h"

namespace opsim::cli {

namespace {

using nlohmann::json;

std::string TurnText(const ops::TurnResult& r) {
  std::ostringstream out;
  out << ops::FormatGameDate(r.date) << ", " << SideName(r.side) << " player-turn ("
      << r.player_turn << ")\n";
  for (const ops::Event& e : r.events) {
    out << "  " << e.kind << ": " << e.text;
    if (!e.rule.empty()) out << " [" << e.rule.id << "]";
    out << "\n";
  }
  for (const ops::PhaseHash& h : r.hashes) {
    out << "  state after " << ops::PhaseName(h.phase) << ": " << h.hash.substr(0, 16) << "\n";
  }
  return out.str();
}

Result<ops::Orders> ReadOrders(const std::string& path, const map::Theater& t) {
  auto src = JsonSource::FromFile(path, kMaxOrdersBytes);
  if (!src) return std::unexpected(src.error());
  return ops::ParseOrders(*src, t);
}

// A chance as a whole percent, a half rounded up (12.5% is 13%).
std::string PercentOf(const query::Chance& c) {
  return Percent(std::round(c.probability() * 100), 0);
}

// One line per roll: its odds, every result of its table.
std::string OddsText(const query::Odds& o) {
  if (!o.complete) {
    return "  odds: more than " + std::to_string(o.max_plays) +
           " ways the dice may fall, too many to enumerate (opsim odds estimates them)\n";
  }
  std::string text;
  for (const query::RollOdds& r : o.odds) {
    text += "  " + r.purpose + " (" + std::string(r.rule.id) + ")" +
            (r.against.empty() ? "" : ", " + r.against) + ":";
    for (std::size_t i = 0; i < r.results.size(); ++i) {
      text += (i ? ", " : " ") + r.results[i].first + " " + PercentOf(r.results[i].second);
    }
    if (r.rolled.numerator != r.rolled.denominator) {
      text += " (rolled " + std::to_string(r.rolled.numerator) + "/" +
              std::to_string(r.rolled.denominator) + " of the time)";
    }
    text += "\n";
  }
  return text;
}

std::string CheckText(const query::CheckAnswer& a, const std::string& action) {
  if (!a.legal) return "not legal: " + a.reason + " [" + a.rules.front() + "]\n";
  std::string text = "legal: " + action + "\n";
  for (const ops::Event& e : a.events) {
    text += "  " + e.text + (e.rule.empty() ? "" : " [" + std::string(e.rule.id) + "]") + "\n";
  }
  return text + OddsText(a.odds);
}

std::string DryRunText(const query::DryRunAnswer& a) {
  std::string text = a.turn + ", " + a.side + " player-turn: a dry run\n";
  for (const query::OrderVerdict& o : a.orders) {
    text += "  " + o.where + ": " + o.what + ": ";
    if (o.problems.empty()) text += "legal\n";
    for (std::size_t i = 0; i < o.problems.size(); ++i) {
      text += std::string(i ? "    and " : "") + "refused: " + o.problems[i].message + " [" +
              o.problems[i].rule + "]\n";
    }
  }
  // The problems the lines above do not tell in full: those of no order (the orders' dice),
  // and those met only after some outcomes.
  for (const auto& [e, chance] : a.problems) {
    const bool sometimes = a.odds.complete && chance.numerator != chance.denominator;
    const bool told = std::any_of(a.orders.begin(), a.orders.end(),
                                  [&](const query::OrderVerdict& o) { return o.where == e.where; });
    if (told && !sometimes) continue;
    text += "  " + e.where + ": " +
            (sometimes ? "after " + PercentOf(chance) + " of the outcomes: " : "") + e.message +
            " [" + e.rule + "]\n";
  }
  text += OddsText(a.odds);
  text +=
      a.legal() ? "every order is legal\n" : std::to_string(a.problems.size()) + " problem(s)\n";
  return text;
}

std::string SupplyText(const map::Theater& t, const query::SupplyHexAnswer& a) {
  const ops::SupplyTrace& trace = a.trace;
  std::ostringstream text;
  text << t.HexName(a.hex) << " for " << SideName(a.side) << ": "
       << ops::SupplyStatusName(trace.status);
  if (!trace.path.empty()) {
    text << " (" << ops::ToMp(trace.cost) << " MP to the supply net at " << t.HexName(trace.network)
         << ")\n  line:";
    for (map::HexRef p : trace.path) text << " " << t.HexName(p);
  }
  if (!trace.why.empty()) text << "\n  why: " << trace.why;
  text << "\n  rules:";
  for (RuleId r : trace.rules) text << " " << r.id;
  return text.str();
}

std::string SupplyText(const map::Theater& t, const query::SupplyAllAnswer& a) {
  std::ostringstream text;
  text << SideName(a.side) << " supply [B8]\n";
  for (const query::UnitSupply& u : a.units) {
    text << "  " << u.name << " at " << t.HexName(u.hex) << ": " << ops::SupplyStatusName(u.status)
         << "\n";
  }
  return text.str();
}

// `opsim turn`: one player-turn from an orders file, into a state file or a log.
void AddTurnCommand(CLI::App& app, Context& ctx) {
  struct TurnOptions {
    GameSource game;
    std::string orders, out;
    bool force = false;
  };
  auto to = std::make_shared<TurnOptions>();
  auto* turn = app.add_subcommand(
      "turn",
      "Play the phasing side's player-turn from an orders file (docs/orders-format.md).\n"
      "From a scenario or a state file it writes the new state to --out; with --db it appends "
      "the turn to the log. An illegal order refuses the whole player-turn (exit 3), naming the "
      "rule; nothing of it is applied.\n"
      "A state file is for solo play: it holds the dice's state, so anyone holding it can foresee "
      "every die, and it carries a hash of its content only to flag a hand edit (a warning, and "
      "\"state_edited\" in --json). Two players keep a turn log with fair dice (docs/pbem.md).");
  AddGameSourceOptions(turn, to->game, SourceFor::kPlay);
  turn->add_option("--orders", to->orders, "the orders file")->required();
  turn->add_option("--out", to->out,
                   "where to write the new state: a state file, for solo play, whose dice anyone "
                   "holding it can foresee")
      ->group(kNotWithDb);
  AddForceOption(turn, to->force)->group(kNotWithDb);
  Bind(turn, ctx, [&ctx, to, turn]() -> Status {
    ops::TurnResult result;
    if (!to->game.db.empty()) {
      // Every option listed "Not with --db" is refused, never ignored.
      const bool out = turn->get_option("--out")->count() > 0;
      if (out || to->force) {
        return Fail(ErrorCode::kInvalidInput,
                    std::string(out ? "--out" : "--force") +
                        " goes with --scenario or --state; the log keeps the game");
      }
      if (!to->game.sets.empty()) {
        return Fail(ErrorCode::kInvalidInput,
                    "a logged game is played as it stands: no --set (use opsim branch)");
      }
      if (turn->get_option("--seed")->count() > 0) {
        return Fail(ErrorCode::kInvalidInput,
                    "--seed goes with --scenario; a logged game's dice are the log's (its seed "
                    "was fixed by opsim new)");
      }
      auto src = JsonSource::FromFile(to->orders, kMaxOrdersBytes);
      if (!src) return std::unexpected(src.error());
      auto played = query::PlayTurn(to->game.db, *src);
      if (!played) return std::unexpected(played.error());
      result = std::move(*played);
    } else {
      if (to->out.empty()) {
        return Fail(ErrorCode::kInvalidInput, "say where the new state goes: --out FILE");
      }
      auto g = LoadGame(ctx, to->game);
      if (!g) return std::unexpected(g.error());
      auto game = query::GameOf(*g);
      if (!game) return std::unexpected(game.error());
      auto orders = ReadOrders(to->orders, *g->theater);
      if (!orders) return std::unexpected(orders.error());
      auto played = game->Play(*orders);
      if (!played) return std::unexpected(played.error());
      result = std::move(*played);
      const OutputKind state_file{"an opsim state file",
                                  [](std::string_view t) { return IsOpsimFile(t, "state"); }};
      if (auto s = WriteOutputFile(
              to->out, ops::StateToJson(game->state(), *g->theater, game->tables(), g->scenario),
              state_file, to->force);
          !s) {
        return s;
      }
    }
    json doc = query::ToJson(result);
    if (!to->out.empty()) doc["out"] = to->out;
    Emit(ctx, doc, TurnText(result) + (to->out.empty() ? "" : "  wrote " + to->out + "\n"));
    return {};
  });
}

// `opsim check`: would one order, or a whole orders file, be legal, and with what odds?
void AddCheckCommand(CLI::App& app, Context& ctx) {
  struct CheckOptions {
    GameSource game;
    std::string action, orders, side;
  };
  auto co = std::make_shared<CheckOptions>();
  auto* check = app.add_subcommand(
      "check",
      "Say whether an order would be legal, by which rules, and with what odds, without "
      "applying it.\n"
      "--action is one order in the orders file's syntax, e.g. "
      "'{\"units\": [\"de-9pz\"], \"path\": [\"16A:1323\", \"16A:1223\"]}' or "
      "'{\"attack\": \"16A:1122\", \"units\": [\"de-18a\"]}' or '{\"suez\": \"close\"}'.\n"
      "--orders is a dry run of a whole orders file: each order judged in turn as `opsim turn` "
      "would play it, later orders seeing the earlier moves; every problem is listed with its "
      "place in the file and its rule, a refused order is left out and the rest judged "
      "without it. Exit 0 when every order is legal, else the exit code `turn` would give for "
      "the first problem (3 for an order the rules forbid, 2 for one naming what is not "
      "there); a malformed file exits 2.\n"
      "No die is rolled, revealed or consumed: every attack and flood attempt is answered with "
      "the exact odds of each result (every way the dice may fall is played; past " +
          std::to_string(query::Odds::kMaxPlays) +
          " player-turns it says so). The weather is the present weather: the weather of a "
          "new game turn is not rolled.\n"
          "--side plans for that side's next player-turn from the present position: the same "
          "map, units and weather, at the date of that player-turn (docs/orders-format.md).");
  AddGameSourceOptions(check, co->game);
  auto* action = check->add_option("--action", co->action, "one order, as JSON");
  auto* orders = check->add_option("--orders", co->orders, "an orders file, for a dry run");
  action->excludes(orders);
  AddSideOption(check, co->side, "plan for this side (default: the side now moving)");
  Bind(check, ctx, [&ctx, co]() -> Status {
    if (co->action.empty() == co->orders.empty()) {
      return Fail(ErrorCode::kInvalidInput, "check needs --action ORDER or --orders FILE");
    }
    auto g = LoadGame(ctx, co->game);
    if (!g) return std::unexpected(g.error());
    const std::optional<Side> side =
        co->side.empty() ? std::nullopt : std::optional<Side>(*ParseSide(co->side));
    if (!co->orders.empty()) {
      auto src = JsonSource::FromFile(co->orders, kMaxOrdersBytes);
      if (!src) return std::unexpected(src.error());
      auto a = query::AnswerDryRun(*g, *src, side);
      if (!a) return std::unexpected(a.error());
      Emit(ctx, query::ToJson(*a), DryRunText(*a));
      if (!a->legal()) ctx.exit_code = ExitCodeFor(a->problems.front().first.code);
      return {};
    }
    auto a = query::AnswerCheck(*g, co->action, side);
    if (!a) return std::unexpected(a.error());
    Emit(ctx, query::ToJson(*a), CheckText(*a, co->action));
    return {};
  });
}

// `opsim supply`: a hex's or every unit's supply (B8).
void AddSupplyCommand(CLI::App& app, Context& ctx) {
  struct SupplyOptions {
    GameSource game;
    std::string side = "allied";
    std::string hex;
    bool all = false;
  };
  auto so = std::make_shared<SupplyOptions>();
  auto* supply = app.add_subcommand(
      "supply",
      "Is it in supply (B8)? With --hex: the status of that hex for a side, the line traced and "
      "why not; with --all: every unit of the side.");
  AddGameSourceOptions(supply, so->game);
  AddSideOption(supply, so->side, "allied or axis", "allied");
  auto* hex = supply->add_option("--hex", so->hex, "one hex");
  auto* all = supply->add_flag("--all", so->all, "every unit of the side");
  hex->excludes(all);
  Bind(supply, ctx, [&ctx, so]() -> Status {
    if (so->hex.empty() && !so->all) {
      return Fail(ErrorCode::kInvalidInput, "supply needs --hex HEX or --all");
    }
    auto g = LoadGame(ctx, so->game);
    if (!g) return std::unexpected(g.error());
    const Side side = *ParseSide(so->side);
    const map::Theater& t = *g->theater;
    if (!so->hex.empty()) {
      auto a = query::AnswerSupplyAt(*g, side, so->hex);
      if (!a) return std::unexpected(a.error());
      Emit(ctx, query::ToJson(t, *a), SupplyText(t, *a));
      return {};
    }
    auto a = query::AnswerSupplyAll(*g, side);
    if (!a) return std::unexpected(a.error());
    Emit(ctx, query::ToJson(t, *a), SupplyText(t, *a));
    return {};
  });
}

}  // namespace

void AddGameCommands(CLI::App& app, Context& ctx) {
  AddTurnCommand(app, ctx);
  AddCheckCommand(app, ctx);
  AddSupplyCommand(app, ctx);
}

}  // namespace opsim::cli
