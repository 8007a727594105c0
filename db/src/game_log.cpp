#include "opsim/db/game_log.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <future>

#include "opsim/db/snapshot.h"
#include "opsim/map/scenario.h"
#include "opsim/ops/campaign.h"
#include "opsim/ops/orders.h"

namespace opsim::db {

namespace {

// The static side of a logged game, built once from the logged scenario and seed.
struct Rules {
  std::shared_ptr<const map::Theater> theater;
  std::shared_ptr<const ops::Campaign> campaign;
};

Result<Rules> BuildRules(const JsonSource& src, std::uint64_t seed) {
  auto loaded = map::LoadScenario(src);
  if (!loaded) return std::unexpected(loaded.error());
  // The theater stays where it was loaded: the campaign may point into it.
  auto scenario = std::make_shared<map::Scenario>(std::move(*loaded));
  auto campaign = ops::LoadCampaign(src, *scenario, seed);
  if (!campaign) return std::unexpected(campaign.error());
  return Rules{std::shared_ptr<const map::Theater>(scenario, &scenario->theater),
               std::make_shared<const ops::Campaign>(std::move(*campaign))};
}

Result<Rules> BuildRules(const TurnLog& log) {
  auto src = JsonSource::FromText(log.game().scenario, log.game().scenario_name);
  auto rules = src ? BuildRules(*src, log.game().seed) : std::unexpected(src.error());
  if (!rules) {
    Error e = rules.error();
    e.message = "the log's scenario does not load in this build: " + e.message;
    return std::unexpected(e);
  }
  return rules;
}

// The number of player-turns `at` asks for (all of them when absent), if the log holds them.
Result<std::int32_t> Target(const TurnLog& log, std::optional<std::int32_t> at) {
  auto count = log.CountTurns();
  if (!count) return std::unexpected(count.error());
  const std::int32_t target = at.value_or(*count);
  if (target < 0 || target > *count) {
    return Fail(ErrorCode::kInvalidInput,
                "no state after " + std::to_string(target) + " player-turns: the log holds " +
                    std::to_string(*count) + " player-turns (0 to " + std::to_string(*count) + ")",
                log.path());
  }
  return target;
}

// The game at its start as this build rebuilds it from the logged scenario and seed, which must
// be the start the log recorded.
Result<ops::Game> StartOf(const TurnLog& log, const Rules& rules) {
  ops::Game game(rules.theater, rules.campaign);
  if (game.hash() != log.game().start_hash) {
    return Fail(ErrorCode::kCorruption,
                "this build does not rebuild the logged start from the scenario and seed (the "
                "log has state hash " +
                    log.game().start_hash + ", this build " + game.hash() + ")",
                log.path() + ": game");
  }
  return game;
}

std::string RollText(const LoggedRoll& r) {
  return std::to_string(r.value) + " on d" + std::to_string(r.sides) +
         (r.scripted ? " (from the orders)" : "") + " -> " + r.decided + " [" + r.rule + "]";
}

std::string EventText(const LoggedEvent& e) {
  return "[" + e.kind + "] " + e.text + " [" + e.rule + "]";
}

std::string Count(std::size_t n, const char* what) {
  return std::to_string(n) + " " + what;
}

// The first way a replayed player-turn differs from the logged one, in the order the rules
// decided them: who and when, the dice, the events, the state after each phase.
std::optional<std::string> FirstDifference(const LoggedTurn& logged, const LoggedTurn& replay) {
  if (logged.serial != replay.serial || logged.side != replay.side || logged.date != replay.date) {
    return "the log has the " + logged.side + " player-turn of " + logged.date +
           ", the replay played the " + replay.side + " player-turn of " + replay.date;
  }
  for (std::size_t i = 0; i < std::min(logged.rolls.size(), replay.rolls.size()); ++i) {
    if (logged.rolls[i] != replay.rolls[i]) {
      return "die roll " + std::to_string(i + 1) + " ('" + logged.rolls[i].purpose +
             "'): the log says " + RollText(logged.rolls[i]) + ", the replay rolled " +
             RollText(replay.rolls[i]) + " for '" + replay.rolls[i].purpose + "'";
    }
  }
  if (logged.rolls.size() != replay.rolls.size()) {
    return "the log has " + Count(logged.rolls.size(), "die rolls") + ", the replay rolled " +
           std::to_string(replay.rolls.size());
  }
  for (std::size_t i = 0; i < std::min(logged.events.size(), replay.events.size()); ++i) {
    if (logged.events[i] != replay.events[i]) {
      return "event " + std::to_string(i + 1) + ": the log says " + EventText(logged.events[i]) +
             ", the replay says " + EventText(replay.events[i]);
    }
  }
  if (logged.events.size() != replay.events.size()) {
    return "the log has " + Count(logged.events.size(), "events") + ", the replay has " +
           std::to_string(replay.events.size());
  }
  for (std::size_t i = 0; i < std::min(logged.phases.size(), replay.phases.size()); ++i) {
    if (logged.phases[i] != replay.phases[i]) {
      return "the state after the " + logged.phases[i].phase + " phase: the log has hash " +
             logged.phases[i].state_hash + ", the replay reached " + replay.phases[i].state_hash +
             " after the " + replay.phases[i].phase + " phase";
    }
  }
  if (logged.phases.size() != replay.phases.size()) {
    return "the log has " + Count(logged.phases.size(), "phase hashes") + ", the replay has " +
           std::to_string(replay.phases.size());
  }
  if (logged.final_hash != replay.final_hash) {
    return "the final state: the log has hash " + logged.final_hash + ", the replay reached " +
           replay.final_hash;
  }
  return std::nullopt;
}

std::string TurnTitle(const LoggedTurn& t) {
  return "player-turn " + std::to_string(t.number) + " (" + t.side + ", " + t.date + ")";
}

// Plays a logged player-turn again and checks that it reproduces the log.
Result<ops::TurnResult> ReplayTurn(ops::Game& game, const LoggedTurn& logged,
                                   const std::string& path) {
  const std::string where = path + ": player-turn " + std::to_string(logged.number);
  auto refuse = [&](const std::string& why) {
    return Fail(ErrorCode::kCorruption, TurnTitle(logged) + ": " + why, where);
  };
  auto src = JsonSource::FromText(logged.orders, "orders of " + TurnTitle(logged));
  if (!src) return refuse("the logged orders are not JSON: " + src.error().to_string());
  auto orders = ops::ParseOrders(*src, game.theater());
  if (!orders) return refuse("the logged orders do not read: " + orders.error().to_string());
  auto result = game.Play(*orders);
  if (!result) return refuse("the replay refuses the logged orders: " + result.error().to_string());
  if (auto diff = FirstDifference(logged, ToLoggedTurn(logged.number, logged.orders, *result))) {
    return refuse(*diff);
  }
  return result;
}

// The game after `target` logged player-turns: from the newest snapshot this build can read at
// or before it (else from the start), then the logged player-turns after that, each checked.
Result<ops::Game> GameAt(const TurnLog& log, const Rules& rules, std::int32_t target) {
  auto turns = log.SnapshotTurns();
  if (!turns) return std::unexpected(turns.error());
  std::optional<ops::Game> game;
  std::int32_t from = 0;
  for (auto it = turns->rbegin(); it != turns->rend() && !game; ++it) {
    if (*it > target) continue;
    auto snap = log.ReadSnapshot(*it);
    if (!snap) return std::unexpected(snap.error());
    auto state = LoadSnapshot(snap->data, snap->format);
    if (!state && state.error().code == ErrorCode::kUnsupported) {
      spdlog::warn(
          "{}: the snapshot after {} player-turns cannot be read by this build ({}); "
          "rebuilding from an earlier one",
          log.path(), *it, state.error().message);
      continue;
    }
    if (!state) {
      return Fail(ErrorCode::kCorruption,
                  "the snapshot after " + std::to_string(*it) +
                      " player-turns does not read: " + state.error().message,
                  log.path());
    }
    if (ops::StateHash(*state) != snap->state_hash) {
      return Fail(ErrorCode::kCorruption,
                  "the snapshot after " + std::to_string(*it) +
                      " player-turns does not hold the state its hash names",
                  log.path());
    }
    game.emplace(rules.theater, rules.campaign, std::move(*state));
    from = *it;
  }
  if (!game) {
    auto start = StartOf(log, rules);
    if (!start) return std::unexpected(start.error());
    game.emplace(std::move(*start));
  }
  for (std::int32_t n = from + 1; n <= target; ++n) {
    auto logged = log.ReadTurn(n);
    if (!logged) return std::unexpected(logged.error());
    if (auto r = ReplayTurn(*game, *logged, log.path()); !r) return std::unexpected(r.error());
  }
  return std::move(*game);
}

Snapshot SnapshotOf(const ops::GameState& state, std::int32_t turn, std::string state_hash) {
  return Snapshot{turn, kSnapshotFormat, std::move(state_hash), SaveSnapshot(state)};
}

// With --verify: the snapshot after `turn` must name the replayed state, and hold it if this
// build can read it.
Status CheckSnapshot(const TurnLog& log, std::int32_t turn, const ops::Game& game,
                     ReplayReport& report) {
  auto snap = log.ReadSnapshot(turn);
  if (!snap) {
    Error e = snap.error();
    e.code = ErrorCode::kCorruption;
    return std::unexpected(e);
  }
  const std::string what = "the snapshot after " + std::to_string(turn) + " player-turns";
  if (snap->state_hash != game.hash()) {
    return Fail(ErrorCode::kCorruption,
                what + " names state " + snap->state_hash + ", the replay reached " + game.hash(),
                log.path());
  }
  auto state = LoadSnapshot(snap->data, snap->format);
  if (!state && state.error().code == ErrorCode::kUnsupported) {
    ++report.snapshots_unreadable;
    return {};
  }
  if (!state) {
    return Fail(ErrorCode::kCorruption, what + " does not read: " + state.error().message,
                log.path());
  }
  // Equal states serialize to equal bytes (GameState's operator== cannot be used yet).
  if (SaveSnapshot(*state) != SaveSnapshot(game.state())) {
    return Fail(ErrorCode::kCorruption, what + " holds a state other than the replayed one",
                log.path());
  }
  ++report.snapshots_loaded;
  return {};
}

}  // namespace

Result<LoggedGame> NewLoggedGame(const std::string& db_path, const JsonSource& scenario,
                                 std::uint64_t seed) {
  if (seed > static_cast<std::uint64_t>(INT64_MAX)) {
    return Fail(ErrorCode::kInvalidInput, "the seed must be below 2^63", std::to_string(seed));
  }
  auto rules = BuildRules(scenario, seed);
  if (!rules) return std::unexpected(rules.error());
  ops::Game game(rules->theater, rules->campaign);
  GameRecord record;
  record.scenario_name = std::filesystem::path(scenario.name()).filename().string();
  record.scenario = scenario.text();
  record.seed = seed;
  record.start_hash = game.hash();
  auto log = TurnLog::Create(db_path, record, SnapshotOf(game.state(), 0, game.hash()));
  if (!log) return std::unexpected(log.error());
  if (auto s = log->Publish(); !s) return std::unexpected(s.error());
  return LoggedGame{rules->theater, rules->campaign, game.state(), record.scenario_name, 0};
}

Result<LoggedGame> LoadLoggedGame(const std::string& db_path, std::optional<std::int32_t> at) {
  auto log = TurnLog::Open(db_path, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  auto target = Target(*log, at);
  if (!target) return std::unexpected(target.error());
  auto rules = BuildRules(*log);
  if (!rules) return std::unexpected(rules.error());
  auto game = GameAt(*log, *rules, *target);
  if (!game) return std::unexpected(game.error());
  return LoggedGame{rules->theater, rules->campaign, game->state(), log->game().scenario_name,
                    *target};
}

Result<ops::TurnResult> PlayLoggedTurn(const std::string& db_path, const JsonSource& orders) {
  return PlayLoggedTurn(db_path, orders, {});
}

Result<ops::TurnResult> PlayLoggedTurn(const std::string& db_path, const JsonSource& orders,
                                       const std::function<void()>& before_commit) {
  auto log = TurnLog::Open(db_path, TurnLog::Access::kWrite);
  if (!log) return std::unexpected(log.error());
  auto rules = BuildRules(*log);
  if (!rules) return std::unexpected(rules.error());
  const map::Theater& theater = *rules->theater;

  auto tx = log->Begin();
  if (!tx) return std::unexpected(tx.error());
  auto count = log->CountTurns();
  if (!count) return std::unexpected(count.error());
  auto game = GameAt(*log, *rules, *count);
  if (!game) return std::unexpected(game.error());

  auto parsed = ops::ParseOrders(orders, theater);
  if (!parsed) return std::unexpected(parsed.error());
  auto result = PlayAndAppend(*game, *parsed, *log, *count + 1);
  if (!result) return std::unexpected(result.error());
  if (before_commit) before_commit();
  if (auto s = tx->Commit(); !s) return std::unexpected(s.error());
  return result;
}

Result<std::string> CanonicalOrders(const ops::Orders& orders, const map::Theater& theater) {
  std::string canonical = ops::OrdersToJson(orders, theater);
  auto again = JsonSource::FromText(canonical, "canonical orders");
  auto reparsed = again ? ops::ParseOrders(*again, theater) : std::unexpected(again.error());
  if (!reparsed || ops::OrdersToJson(*reparsed, theater) != canonical) {
    return Fail(ErrorCode::kInternal,
                "the canonical orders do not read back as the same orders; nothing was logged",
                orders.source);
  }
  return canonical;
}

Result<ops::TurnResult> PlayAndAppend(ops::Game& game, const ops::Orders& orders, TurnLog& log,
                                      std::int32_t number) {
  // The orders and theater are only read, on both threads; the game is the rules' alone. (Both
  // policies: where no thread can be started, the work runs when it is waited for.)
  constexpr auto kBeside = std::launch::async | std::launch::deferred;
  auto canonical =
      std::async(kBeside, CanonicalOrders, std::cref(orders), std::cref(game.theater()));
  auto result = game.Play(orders);
  if (!result) return std::unexpected(result.error());
  auto text = canonical.get();
  if (!text) return std::unexpected(text.error());
  // From here the game is only read: the snapshot is made while the rows are written.
  auto snapshot = std::async(kBeside, [&game, number, hash = result->final_hash] {
    return SnapshotOf(game.state(), number, hash);
  });
  if (auto s = log.AppendTurn(ToLoggedTurn(number, std::move(*text), *result), std::move(snapshot));
      !s) {
    return std::unexpected(s.error());
  }
  return result;
}

Result<ReplayReport> ReplayLog(const std::string& db_path, const ReplayOptions& options) {
  auto log = TurnLog::Open(db_path, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  ReplayReport report;
  if (options.verify) {
    auto chain = log->VerifyChain();
    if (!chain) return std::unexpected(chain.error());
    report.chain = *chain;
  }
  auto to = Target(*log, options.to);
  if (!to) return std::unexpected(to.error());
  auto rules = BuildRules(*log);
  if (!rules) return std::unexpected(rules.error());
  auto start = StartOf(*log, *rules);
  if (!start) return std::unexpected(start.error());
  ops::Game& game = *start;
  ++report.hashes;
  if (options.verify) {
    if (auto s = CheckSnapshot(*log, 0, game, report); !s) return std::unexpected(s.error());
  }
  for (std::int32_t n = 1; n <= *to; ++n) {
    auto logged = log->ReadTurn(n);
    if (!logged) return std::unexpected(logged.error());
    auto result = ReplayTurn(game, *logged, db_path);
    if (!result) return std::unexpected(result.error());
    report.rolls += static_cast<std::int64_t>(logged->rolls.size());
    report.events += static_cast<std::int64_t>(logged->events.size());
    report.hashes += static_cast<std::int64_t>(logged->phases.size()) + 1;
    if (options.verify) {
      if (auto s = CheckSnapshot(*log, n, game, report); !s) return std::unexpected(s.error());
    }
    if (options.progress) options.progress(n, *to);
  }
  report.game =
      LoggedGame{rules->theater, rules->campaign, game.state(), log->game().scenario_name, *to};
  return report;
}

Result<BranchReport> BranchLog(const std::string& db_path, std::int32_t at,
                               const std::string& out_path, const Progress& progress) {
  auto log = TurnLog::Open(db_path, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  if (auto chain = log->VerifyChain(); !chain) return std::unexpected(chain.error());
  if (auto target = Target(*log, at); !target) return std::unexpected(target.error());
  auto rules = BuildRules(*log);
  if (!rules) return std::unexpected(rules.error());
  auto start = StartOf(*log, *rules);
  if (!start) return std::unexpected(start.error());
  ops::Game& game = *start;
  auto out = TurnLog::Create(out_path, log->game(), SnapshotOf(game.state(), 0, game.hash()));
  if (!out) return std::unexpected(out.error());
  auto tx = out->Begin();
  if (!tx) return std::unexpected(tx.error());
  for (std::int32_t n = 1; n <= at; ++n) {
    auto logged = log->ReadTurn(n);
    if (!logged) return std::unexpected(logged.error());
    auto result = ReplayTurn(game, *logged, db_path);
    if (!result) return std::unexpected(result.error());
    LoggedTurn turn = ToLoggedTurn(n, logged->orders, *result);
    turn.logged_at = logged->logged_at;
    if (auto s = out->AppendTurn(turn, SnapshotOf(game.state(), n, result->final_hash)); !s) {
      return std::unexpected(s.error());
    }
    if (progress) progress(n, at);
  }
  for (auto [key, value] : {std::pair<const char*, std::string>{"branched_from", db_path},
                            {"branched_at", std::to_string(at)}}) {
    if (auto s = out->SetMeta(key, value); !s) return std::unexpected(s.error());
  }
  auto meta = out->Meta();
  if (!meta) return std::unexpected(meta.error());
  if (auto s = tx->Commit(); !s) return std::unexpected(s.error());
  if (auto s = out->Publish(); !s) return std::unexpected(s.error());
  return BranchReport{at, (*meta)["head_hash"], game.hash()};
}

}  // namespace opsim::db
