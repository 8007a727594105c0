// `opsim new`, `status`, `log`, `replay` and `branch`: games kept in a turn log
// (docs/log-format.md). `opsim turn --db` and the queries' `--db --at` live with the game
// commands.
#include <unistd.h>

#include <iostream>
#include <sstream>

#include "context.h"
#include "opsim/map/scenario.h"
#include "opsim/ops/calendar.h"
#include "opsim/ops/rules_version.h"
#include "opsim/query/log.h"
#include "opsim/query/play.h"
#include "opsim/query/source.h"

namespace opsim::cli {

namespace {

using nlohmann::json;

constexpr const char* kAtHelp =
    "the state after this many logged player-turns (0 is the start; default: all of them)";

// "3 of 12" progress on stderr when stderr is a terminal; silent otherwise.
class ProgressLine {
 public:
  ProgressLine(Context& ctx, std::string what)
      : ctx_(ctx), what_(std::move(what)), on_(&ctx.err == &std::cerr && ::isatty(STDERR_FILENO)) {}
  ~ProgressLine() {
    if (shown_) ctx_.err << "\n";
  }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  db::Progress callback() {
    if (!on_) return {};
    return [this](std::int64_t done, std::int64_t total) {
      ctx_.err << "\r" << what_ << " " << done << " of " << total << std::flush;
      shown_ = true;
    };
  }

 private:
  Context& ctx_;
  std::string what_;
  bool on_;
  bool shown_ = false;
};

std::string NextText(const ops::GameState& s) {
  return ops::FormatGameDate(s.date()) + ", the " + SideName(s.phasing()) +
         " player-turn, initial phase";
}

// "rules version 1 (this build plays 2)": the log's rules version, and this build's if other.
std::string RulesVersionText(std::int32_t logged) {
  return "rules version " + std::to_string(logged) +
         (logged == ops::kRulesVersion
              ? std::string()
              : " (this build plays " + std::to_string(ops::kRulesVersion) + ")");
}

std::string StatusText(const json& j) {
  std::ostringstream out;
  out << j["scenario"].get<std::string>() << " after " << j["turns_played"] << " of "
      << j["turns_logged"] << " logged player-turns\n";
  out << "  " << RulesVersionText(j["rules_version"].get<std::int32_t>()) << "\n";
  if (j["dice"] == "fair") {
    out << "  dice: fair, drawn from both players' keys (game " << j["game_id"].get<std::string>()
        << "; docs/dice.md)\n";
  } else {
    out << "  dice: seeded (anyone holding this file can foresee the dice)\n";
  }
  if (j.contains("pending"))
    out << "  pending: " << j["pending"]["text"].get<std::string>() << "\n";
  if (j.contains("in_play")) {
    const json& p = j["in_play"];
    out << "  in play: player-turn " << p["player_turn"] << ", " << p["steps"]
        << " steps taken; waiting for the " << p["prompt"]["side"].get<std::string>()
        << " player: " << p["prompt"]["text"].get<std::string>() << " [B1.3]\n";
  }
  if (j.contains("victory")) {
    const json& v = j["victory"];
    out << "  victory [B15.1]: Axis " << v["points"]["axis"] << ", Allies " << v["points"]["allied"]
        << " points; " << (v["over"].get<bool>() ? "the game is over: " : "if it ended now: ")
        << v["result"].get<std::string>() << " (the game ends after " << v["end"].get<std::string>()
        << ")\n";
    for (const auto& o : v["objectives"]) {
      out << "    " << o["name"].get<std::string>() << " " << o["hex"].get<std::string>() << " ("
          << o["points"]
          << "): " << (o["owner"].is_null() ? "unowned" : o["owner"].get<std::string>()) << "\n";
    }
  }
  const json& next = j["next"];
  out << "  next: " << next["date"].get<std::string>() << " (game turn "
      << next["game_turn"].get<int>() + 1 << "), the " << next["phasing"].get<std::string>()
      << " player-turn, " << next["phase"].get<std::string>() << " phase\n";
  if (!j["weather"].empty()) {
    out << "  weather:";
    for (const auto& [zone, w] : j["weather"].items()) {
      out << " " << zone << " " << w["weather"].get<std::string>()
          << (w["frozen"].get<bool>() ? " (frozen)" : "") << ";";
    }
    out << "\n";
  }
  if (j.contains("suez")) out << "  Suez Canal: " << j["suez"].get<std::string>() << " [41.B]\n";
  out << "  flooded hexes [41.A.4]:" << (j["floods"].empty() ? " none" : "") << "\n";
  for (const auto& f : j["floods"]) {
    out << "    " << f["hex"].get<std::string>() << " " << f["kind"].get<std::string>() << ", from "
        << f["from"].get<std::string>() << " until " << f["until"].get<std::string>() << "\n";
  }
  out << "  ice airfields [41.A.3]:";
  for (const auto& h : j["ice_airfields"]) out << " " << h.get<std::string>();
  out << (j["ice_airfields"].empty() ? " none\n" : "\n");
  for (const auto& [hex, list] : j["markers"].items()) {
    out << "  markers on " << hex << ":";
    for (const auto& m : list) out << " " << m.get<std::string>();
    out << "\n";
  }
  out << "  Netherlands surrendered: " << (j["netherlands_surrendered"].get<bool>() ? "yes" : "no")
      << "\n";
  out << "  SRP pools:";
  for (const auto& [pool, n] : j["srp"].items()) out << " " << pool << " " << n << ";";
  out << (j["srp"].empty() ? " none\n" : "\n");
  out << "  exit totals [41.F]:";
  for (const auto& [total, n] : j["exit_totals"].items()) out << " " << total << " " << n << ";";
  out << (j["exit_totals"].empty() ? " none\n" : "\n");
  for (const char* side : {"axis", "allied"}) {
    const json& u = j["units"][side];
    out << "  " << side << " units: " << u["on_map"] << " on the map, " << u["eliminated"]
        << " eliminated, " << u["exited"] << " exited";
    if (u["reinforcements"] != 0) out << ", " << u["reinforcements"] << " still to arrive [B16.1]";
    out << "\n";
  }
  out << "  units out of supply [B8]:" << (j["out_of_supply"].empty() ? " none" : "") << "\n";
  for (const auto& u : j["out_of_supply"]) {
    out << "    " << u["id"].get<std::string>() << " (" << u["name"].get<std::string>() << ", "
        << u["side"].get<std::string>() << ") at " << u["hex"].get<std::string>() << ": "
        << u["supply"].get<std::string>() << "\n";
  }
  out << "  state " << j["state_hash"].get<std::string>() << "\n";
  return out.str();
}

// Which of the numbered rolls and events a phase's or a step's are: " rolls 2-3, events none"
// (each list when `j` gives its [from, to) range), the first after `lead`.
std::string Numbered(const json& j, const char* lead = "") {
  std::ostringstream out;
  const char* sep = lead;
  for (const char* what : {"rolls", "events"}) {
    if (!j.contains(what)) continue;
    const auto from = j[what][0].get<std::size_t>(), to = j[what][1].get<std::size_t>();
    out << sep << " " << what << " ";
    sep = ",";
    if (from == to) {
      out << "none";
    } else if (from + 1 == to) {
      out << to;
    } else {
      out << from + 1 << "-" << to;
    }
  }
  return out.str();
}

std::string TurnText(const json& t) {
  std::ostringstream out;
  out << "player-turn " << t["number"] << ": " << t["date"].get<std::string>() << ", the "
      << t["side"].get<std::string>() << " player-turn (logged "
      << t["logged_at"].get<std::string>() << ")\n";
  out << "  orders:";
  int sections = 0;
  if (t["orders"].is_object()) {
    for (const auto& [section, list] : t["orders"].items()) {
      if (!list.is_array()) continue;
      out << (sections++ ? ", " : " ") << list.size() << " " << section;
    }
  }
  out << (sections ? "\n" : " none\n");
  out << "  die rolls:" << (t["rolls"].empty() ? " none" : "") << "\n";
  int i = 0;
  for (const auto& r : t["rolls"]) {
    out << "    " << ++i << ". " << r["purpose"].get<std::string>() << ": rolled " << r["value"]
        << " on d" << r["sides"] << (r["scripted"].get<bool>() ? " (a die from the orders)" : "")
        << " -> " << r["decided"].get<std::string>() << " [" << r["rule"].get<std::string>()
        << "]\n";
  }
  out << "  events:" << (t["events"].empty() ? " none" : "") << "\n";
  for (const auto& e : t["events"]) {
    out << "    " << e["kind"].get<std::string>() << ": " << e["text"].get<std::string>();
    if (!e["rule"].get<std::string>().empty()) out << " [" << e["rule"].get<std::string>() << "]";
    out << "\n";
  }
  out << "  state after each phase:";
  for (const auto& p : t["phases"]) {
    out << " " << p["phase"].get<std::string>() << " "
        << p["state_hash"].get<std::string>().substr(0, 12);
    // With --phases: which of the numbered rolls and the events above are this phase's.
    out << Numbered(p, ",") << ";";
  }
  out << "\n  final state " << t["final_hash"].get<std::string>() << "\n";
  if (t.contains("steps")) {
    out << "  steps (" << (t["played_by"] == "steps" ? "played step by step" : "its orders' script")
        << "), begun with" << Numbered(t["begun"]) << ":\n";
    for (const json& s : t["steps"]) {
      out << "    " << s["number"] << ". " << s["side"].get<std::string>() << " "
          << s["step"].dump() << ":" << Numbered(s) << "\n";
    }
  }
  return out.str();
}

// `opsim new`: a game in a new turn log.
void AddNewCommand(CLI::App& app, Context& ctx) {
  struct NewOptions {
    std::string scenario, db;
    std::uint64_t seed = 1;
  };
  auto no = std::make_shared<NewOptions>();
  auto* create = app.add_subcommand(
      "new",
      "Start a game in a new turn log (an SQLite file, docs/log-format.md).\n"
      "The log keeps the scenario's full text and its SHA-256, and the seed; every player-turn "
      "played with `opsim turn --db` is added to it.");
  create->add_option("--scenario", no->scenario, "a bundled scenario's name, or a scenario file")
      ->required();
  create->add_option("--db", no->db, "the new log file; it must not exist yet")->required();
  create
      ->add_option("--seed", no->seed,
                   "the seed of the game's dice, 0 to 9223372036854775807; the same seed and "
                   "orders replay the same game")
      ->check(kSeedRange)
      ->default_val(1);
  Bind(create, ctx, [&ctx, no]() -> Status {
    auto path = map::ResolveScenario(no->scenario, query::ScenarioDir());
    if (!path) return std::unexpected(path.error());
    auto src = JsonSource::FromFile(*path);
    if (!src) return std::unexpected(src.error());
    auto game = query::NewGame(no->db, *src, no->seed);
    if (!game) return std::unexpected(game.error());
    json doc = {{"db", no->db},
                {"scenario", game->scenario_name},
                {"seed", no->seed},
                {"turns_played", 0},
                {"next", query::NextJson(game->state)},
                {"state_hash", ops::StateHash(game->state)}};
    Emit(ctx, doc,
         "new game in " + no->db + ": " + game->scenario_name + ", seed " +
             std::to_string(no->seed) + "\n  next: " + NextText(game->state) + "\n  state " +
             doc["state_hash"].get<std::string>());
    return {};
  });
}

// `opsim status`: where a logged game stands.
void AddStatusCommand(CLI::App& app, Context& ctx) {
  struct StatusOptions {
    std::string db;
    int at = -1;
  };
  auto so = std::make_shared<StatusOptions>();
  auto* status = app.add_subcommand(
      "status",
      "Where a logged game stands: the date, phase and phasing side; the weather; the Suez "
      "Canal (41.B), flooded hexes (41.A.4) and ice airfields (41.A.3); SRP pools and exit "
      "totals (41.F); units out of supply (B8)");
  status->add_option("--db", so->db, "the turn log")->required();
  status->add_option("--at", so->at, kAtHelp)->check(InRange(0, kMaxPlayerTurns));
  Bind(status, ctx, [&ctx, so]() -> Status {
    auto status = query::AnswerStatus(
        so->db, so->at >= 0 ? std::optional<std::int32_t>(so->at) : std::nullopt);
    if (!status) return std::unexpected(status.error());
    json doc = query::ToJson(*status);
    // A player-turn in play step by step: whose decision the game waits for (B1.3).
    if (so->at < 0 && status->game.dice == db::DiceKind::kSeeded) {
      auto steps = query::StepsInPlay(so->db);
      if (!steps) return std::unexpected(steps.error());
      if (*steps) {
        auto session = query::OpenSteps(so->db, nullptr, false);
        if (!session) return std::unexpected(session.error());
        doc["in_play"] = query::PlayStatusJson(*session);
      }
    }
    if (status->game.dice == db::DiceKind::kFair) {
      auto pending = query::PendingOrders(so->db);
      if (!pending) return std::unexpected(pending.error());
      if (*pending) doc["pending"] = **pending;
    }
    Emit(ctx, doc, StatusText(doc));
    return {};
  });
}

// `opsim log`: the logged player-turns.
void AddLogCommand(CLI::App& app, Context& ctx) {
  struct LogOptions {
    std::string db;
    int turn = 0;
    bool phases = false;
    bool steps = false;
  };
  auto lo = std::make_shared<LogOptions>();
  auto* log_cmd = app.add_subcommand(
      "log",
      "Print the logged player-turns: the orders, each die roll and what it decided, each "
      "event (who did what), with the rule that applied, and the state hash after each phase");
  log_cmd->add_option("--db", lo->db, "the turn log")->required();
  log_cmd
      ->add_option("--turn", lo->turn,
                   "only this player-turn (numbered from 1 in the order they were logged)")
      ->check(InRange(1, kMaxPlayerTurns));
  log_cmd->add_flag("--phases", lo->phases,
                    "also say which events and die rolls are each phase's, by replaying each "
                    "player-turn as `opsim replay` does (a mismatch exits 4)");
  log_cmd
      ->add_flag("--steps", lo->steps,
                 "with --turn: also list the player-turn's steps (B1.3) and which events and die "
                 "rolls each one's are, by taking it again step by step; a player-turn played "
                 "from orders is listed as their script's steps")
      ->needs("--turn");
  Bind(log_cmd, ctx, [&ctx, lo]() -> Status {
    auto log = query::AnswerLog(lo->db,
                                lo->turn > 0 ? std::optional<std::int32_t>(lo->turn) : std::nullopt,
                                lo->phases, lo->steps);
    if (!log) return std::unexpected(log.error());
    json doc = query::ToJson(*log);
    std::string text = lo->db + ": " + log->scenario + ", seed " + std::to_string(log->seed) +
                       ", " + std::to_string(log->turns_logged) + " player-turns logged\n";
    for (const json& turn : doc["turns"]) text += TurnText(turn);
    Emit(ctx, doc, text);
    return {};
  });
}

// `opsim replay`: rebuild a log and check it.
void AddReplayCommand(CLI::App& app, Context& ctx) {
  struct ReplayOptions {
    std::string db;
    int to = -1;
    bool verify = false;
  };
  auto ro = std::make_shared<ReplayOptions>();
  auto* replay = app.add_subcommand(
      "replay",
      "Rebuild a logged game from the start, from its logged orders and dice, and check that "
      "every player-turn reproduces its logged die rolls, events and state hashes.\n"
      "--verify also checks the hash chain of every row and every snapshot. A mismatch or a "
      "broken chain exits 4, naming the first bad row.");
  replay->add_option("--db", ro->db, "the turn log")->required();
  replay
      ->add_option("--to", ro->to,
                   "stop after this many logged player-turns (default: all of them)")
      ->check(InRange(0, kMaxPlayerTurns));
  replay->add_flag("--verify", ro->verify, "also check the hash chain and the snapshots");
  Bind(replay, ctx, [&ctx, ro]() -> Status {
    ProgressLine progress(ctx, "replaying player-turn");
    db::ReplayOptions options;
    if (ro->to >= 0) options.to = ro->to;
    options.verify = ro->verify;
    options.progress = progress.callback();
    auto report = query::ReplayGame(ro->db, options);
    if (!report) return std::unexpected(report.error());
    const ops::GameState& s = report->game.state;
    json doc = {{"db", ro->db},
                {"turns", report->game.turns_played},
                {"rolls", report->rolls},
                {"events", report->events},
                {"hashes", report->hashes},
                {"verified", ro->verify},
                {"rules_version", report->game.rules_version},
                {"build_rules_version", ops::kRulesVersion},
                {"next", query::NextJson(s)},
                {"state_hash", ops::StateHash(s)}};
    std::ostringstream text;
    text << "replayed " << report->game.turns_played << " player-turns of " << ro->db
         << " from the start: all " << report->hashes << " state hashes, " << report->rolls
         << " die rolls and " << report->events << " events match the log"
         << (report->differences.empty() ? "" : ", but for the differences below") << "\n";
    text << "  the log's " << RulesVersionText(report->game.rules_version) << "\n";
    json differences = json::array();
    for (const db::ReplayDifference& d : report->differences) {
      differences.push_back({{"turn", d.turn},
                             {"seq", d.seq},
                             {"what", d.what},
                             {"change", d.change},
                             {"logged", d.logged},
                             {"replayed", d.replayed}});
      text << "  player-turn " << d.turn << ", " << d.what;
      if (d.seq > 0) text << " (row seq " << d.seq << ")";
      text << ": " << d.change;
      if (!d.logged.empty()) text << "; the log: " << d.logged;
      if (!d.replayed.empty()) text << "; this build: " << d.replayed;
      text << "\n";
    }
    doc["differences"] = differences;
    if (!report->differences.empty()) {
      text << "  (" << report->differences.size()
           << " differences in wording, or made by another rules version: not tampering)\n";
    }
    if (report->chain) {
      doc["chain"] = {{"rows", report->chain->rows},
                      {"turns", report->chain->turns},
                      {"head", report->chain->head}};
      doc["snapshots"] = {{"loaded", report->snapshots_loaded},
                          {"unreadable", report->snapshots_unreadable}};
      text << "  hash chain: " << report->chain->rows << " rows intact, head "
           << report->chain->head << "\n  snapshots: " << report->snapshots_loaded
           << " equal to the replayed state";
      if (report->snapshots_unreadable > 0) {
        text << ", " << report->snapshots_unreadable
             << " in a format this build cannot read (their state hashes match)";
      }
      text << "\n";
    }
    text << "  next: " << NextText(s) << "\n  state " << doc["state_hash"].get<std::string>();
    Emit(ctx, doc, text.str());
    return {};
  });
}

// `opsim branch`: a new log from a logged turn.
void AddBranchCommand(CLI::App& app, Context& ctx) {
  struct BranchOptions {
    std::string db, out;
    int at = 0;
  };
  auto bo = std::make_shared<BranchOptions>();
  auto* branch = app.add_subcommand(
      "branch",
      "Start a new turn log from any logged turn of another: a what-if. The new log holds the "
      "same scenario and seed and the first --at player-turns, each replayed and checked; "
      "`opsim turn --db` then carries on from there");
  branch->add_option("--db", bo->db, "the turn log to branch from")->required();
  branch
      ->add_option("--at", bo->at,
                   "the number of logged player-turns the new log starts with (0: the start)")
      ->required()
      ->check(InRange(0, kMaxPlayerTurns));
  branch->add_option("--out", bo->out, "the new log file; it must not exist yet")->required();
  Bind(branch, ctx, [&ctx, bo]() -> Status {
    db::BranchReport report;
    {
      ProgressLine progress(ctx, "copying player-turn");
      auto r = query::BranchGame(bo->db, bo->at, bo->out, progress.callback());
      if (!r) return std::unexpected(r.error());
      report = std::move(*r);
    }
    json doc = {{"db", bo->out},
                {"from", bo->db},
                {"at", bo->at},
                {"turns_played", report.turns},
                {"head", report.head},
                {"next", query::NextJson(report.state)},
                {"state_hash", report.state_hash}};
    Emit(ctx, doc,
         "branched " + bo->out + " from " + bo->db + " after " + std::to_string(bo->at) +
             " player-turns (each replayed and checked)\n  next: " + NextText(report.state) +
             "\n  state " + report.state_hash);
    return {};
  });
}

}  // namespace

void AddLogCommands(CLI::App& app, Context& ctx) {
  AddNewCommand(app, ctx);
  AddStatusCommand(app, ctx);
  AddLogCommand(app, ctx);
  AddReplayCommand(app, ctx);
  AddBranchCommand(app, ctx);
}

}  // namespace opsim::cli
