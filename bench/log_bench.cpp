// Turn-log benchmarks (issue 4) on the generated 100,000-hex theater with 2,000 units: what
// logging adds to a player-turn, and replaying a logged 100-turn game.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "bench_fixture.h"
#include "opsim/core/fair_dice.h"
#include "opsim/core/files.h"
#include "opsim/core/sha256.h"
#include "opsim/db/game_log.h"
#include "opsim/db/snapshot.h"
#include "opsim/map/generate.h"
#include "opsim/ops/orders.h"
#include "opsim/ops/state_file.h"
#include "opsim/ops/synthetic.h"
#include "opsim/query/play.h"

namespace opsim::bench {
namespace {

[[noreturn]] void Die(const char* what, const Error& e) {
  std::fprintf(stderr, "%s: %s\n", what, e.to_string().c_str());
  std::abort();
}

// `name` in a folder of this process's files, removed at exit.
std::string BenchFile(const std::string& name) {
  static const std::filesystem::path dir = [] {
    auto d =
        std::filesystem::temp_directory_path() / ("opsim-log-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    });
    return d;
  }();
  return (dir / name).string();
}

// A path for a new log `name`, with nothing left there from before.
std::string LogPath(const std::string& name) {
  const std::string path = BenchFile(name);
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
  return path;
}

// A new log of the bench campaign with seed 1 at `path`, and the game at its start.
ops::Game NewBenchLog(const std::string& path) {
  auto src = JsonSource::FromText(BenchCampaignText(), "bench-campaign.json");
  if (!src) Die("bench campaign", src.error());
  auto game = db::NewLoggedGame(path, *src, 1);
  if (!game) Die("new log", game.error());
  return ops::Game(game->theater, game->campaign, game->state);
}

// Orders the rules accept for the phasing side's player-turn `number`, the same in every run:
// SyntheticOrders with seed `number`, or with the next seeds where it writes an order the rules
// refuse (it can ask a unit for more MPs than it has); `refused` counts those.
ops::Orders OrdersFor(const ops::Game& game, std::int32_t number, int& refused) {
  for (std::uint64_t seed = static_cast<std::uint64_t>(number);; seed += 1000) {
    ops::Orders orders = ops::SyntheticOrders(game, seed);
    ops::Game trial = game;
    auto result = trial.Play(orders);
    if (result) return orders;
    if (++refused > 1000) Die("synthetic orders", result.error());
  }
}

// Seconds a logged player-turn took, and its commit.
struct LoggedTimes {
  double total = 0, commit = 0;
};

// Plays the phasing side's player-turn from `orders` and appends it to `log` as player-turn
// `number` in one transaction, as `opsim turn --db` does (db::PlayAndAppend, then the commit).
LoggedTimes PlayAndLog(ops::Game& game, const ops::Orders& orders, db::TurnLog& log,
                       std::int32_t number) {
  const auto t0 = Clock::now();
  auto tx = log.Begin();
  if (!tx) Die("begin", tx.error());
  auto result = db::PlayAndAppend(game, orders, log, number);
  if (!result) Die("play and append", result.error());
  const auto t1 = Clock::now();
  if (auto s = tx->Commit(); !s) Die("commit", s.error());
  const auto t2 = Clock::now();
  return {Seconds(t0, t2), Seconds(t1, t2)};
}

// What making the canonical orders and reading them back costs (db::CanonicalOrders), timed
// apart: PlayAndAppend does it on a second thread while the rules play.
double OrdersCheckSeconds(const ops::Orders& orders, const map::Theater& theater) {
  const auto t0 = Clock::now();
  if (auto c = db::CanonicalOrders(orders, theater); !c) Die("canonical orders", c.error());
  return Seconds(t0, Clock::now());
}

// One player-turn each iteration, of one game that goes on (20 player-turns, the same in every
// run), played and logged as `opsim turn --db` does: the iteration time. The same player-turn
// is then played again without the log, from a copy of the game made before it (timed apart,
// after the logged one, so that the unlogged play gets the warmer caches). `log_ms` is what the
// log adds: the logged player-turn less the unlogged play; `log_ratio` is that over the play,
// the target being 0.10 or less. `commit_ms` is the commit (its fsync) and `orders_check_ms` the
// CPU time of the orders check, which runs beside the rules. `reload_ms` is what `opsim turn
// --db` spends reading the newest snapshot back, where a game without a log reads a state file.
// BM_LogTurnPostgres is the same with the log in PostgreSQL (the store at
// $OPSIM_BENCH_PG_URI, e.g. what scripts/pg.sh start prints).
void LogTurnIn(benchmark::State& state, const std::string& path) {
  ops::Game game = NewBenchLog(path);
  auto log = db::TurnLog::Open(path, db::TurnLog::Access::kWrite);
  if (!log) Die("open", log.error());
  double logged = 0, play = 0, commit = 0, check = 0;
  std::int32_t number = 0;
  int refused = 0;
  for (auto _ : state) {
    state.PauseTiming();  // choosing the orders is the bench's work, not the game's
    const ops::Orders orders = OrdersFor(game, number + 1, refused);
    ops::Game unlogged = game;
    check += OrdersCheckSeconds(orders, game.theater());
    state.ResumeTiming();
    const LoggedTimes t = PlayAndLog(game, orders, *log, ++number);
    state.PauseTiming();
    const auto t0 = Clock::now();
    if (auto r = unlogged.Play(orders); !r) Die("unlogged play", r.error());
    play += Seconds(t0, Clock::now());
    if (unlogged.hash() != game.hash()) {
      Die("unlogged play",
          Fail(ErrorCode::kInternal, "its state differs from the logged one").error());
    }
    state.ResumeTiming();
    logged += t.total;
    commit += t.commit;
  }
  const auto t0 = Clock::now();
  auto snap = log->ReadSnapshot(number);
  auto back = snap ? db::LoadSnapshot(snap->data, snap->format, game.theater(), game.tables())
                   : Result<ops::GameState>(std::unexpected(snap.error()));
  if (!back) Die("reload", back.error());
  const double reload = Seconds(t0, Clock::now());
  state.counters["log_ratio"] = (logged - play) / play;
  state.counters["play_ms"] = 1000 * play / number;
  state.counters["log_ms"] = 1000 * (logged - play) / number;
  state.counters["commit_ms"] = 1000 * commit / number;
  state.counters["orders_check_ms"] = 1000 * check / number;
  state.counters["reload_ms"] = 1000 * reload;
  state.counters["snapshot_kib"] = static_cast<double>(snap->data.size()) / 1024;
  state.counters["refused_orders"] = refused;
}
// The PostgreSQL store the PostgreSQL benchmarks use, with a new game id; empty (and
// the benchmark skipped, saying why) without $OPSIM_BENCH_PG_URI.
std::string BenchPgGame(benchmark::State& state, const std::string& name) {
  const char* uri = std::getenv("OPSIM_BENCH_PG_URI");
  if (uri == nullptr || *uri == '\0') {
    state.SkipWithError("set $OPSIM_BENCH_PG_URI to a PostgreSQL store (scripts/pg.sh start DIR)");
    return "";
  }
  static int runs = 0;  // a new game each run (--benchmark_repetitions)
  return std::string(uri) + "#" + name + "-" + std::to_string(::getpid()) + "-" +
         std::to_string(++runs);
}

void BM_LogTurn(benchmark::State& state) {
  LogTurnIn(state, LogPath("log-turn.sqlite"));
}
BENCHMARK(BM_LogTurn)->Unit(benchmark::kMillisecond)->Iterations(20);

void BM_LogTurnPostgres(benchmark::State& state) {
  if (const std::string game = BenchPgGame(state, "log-turn"); !game.empty()) {
    LogTurnIn(state, game);
  }
}
BENCHMARK(BM_LogTurnPostgres)->Unit(benchmark::kMillisecond)->Iterations(20);

// Opening a small log to read it (TurnLog::Open: for PostgreSQL, a new connection), as every
// command and every server request that reads a log does: arg 0 a file, 1 PostgreSQL.
int opened_logs = 0;
void BM_OpenLog(benchmark::State& state) {
  const std::string address = state.range(0) == 0
                                  ? LogPath("open-" + std::to_string(++opened_logs) + ".sqlite")
                                  : BenchPgGame(state, "open");
  if (address.empty()) return;
  db::GameRecord record;
  record.scenario_name = "tiny.json";
  record.scenario = R"({"opsim":"scenario","name":"tiny"})";
  record.seed = 1;
  record.start_hash = std::string(64, 'a');
  auto log = db::TurnLog::Create(address, record,
                                 db::Snapshot{0, db::kSnapshotFormat, record.start_hash, "x"});
  if (!log) Die("create", log.error());
  if (auto s = log->Publish(); !s) Die("publish", s.error());
  for (auto _ : state) {
    auto opened = db::TurnLog::Open(address, db::TurnLog::Access::kRead);
    if (!opened) Die("open", opened.error());
    benchmark::DoNotOptimize(opened->game());
  }
}
BENCHMARK(BM_OpenLog)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// Runs the built opsim executable with `args`, its output discarded; dies unless it exits 0.
void RunOpsim(const std::vector<std::string>& args) {
  std::vector<char*> argv{const_cast<char*>(OPSIM_BINARY)};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, OPSIM_BINARY, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  if (rc != 0 || ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    std::string cmd = "opsim";
    for (const std::string& a : args) cmd += " " + a;
    Die("opsim", Fail(ErrorCode::kInternal, "failed", cmd).error());
  }
}

double TimeOpsim(const std::vector<std::string>& args) {
  const auto t0 = Clock::now();
  RunOpsim(args);
  return Seconds(t0, Clock::now());
}

// `opsim turn` as a player runs it, a process each player-turn, on the bench campaign: with
// the game kept in state files (`--state S --out S'`, each written with fsync) and with the game
// kept in a turn log (`--db`). Each iteration plays the same player-turn both ways, in turns
// first, and is timed as the logged command; `state_ms` and `db_ms` are the two commands' mean
// times and `log_share` what the log adds over the state files, (db - state) / state. Both start
// the process, read the scenario and the game, play and save: the log reads its scenario from
// itself and its game from the newest snapshot.
void BM_TurnCommand(benchmark::State& state) {
  const std::string scenario = BenchFile("bench-campaign.json");
  if (auto s = WriteFileAtomically(scenario, BenchCampaignText()); !s) Die("scenario", s.error());
  const std::string db = LogPath("command.sqlite");
  ops::Game game = NewBenchLog(db);
  const ops::ScenarioId id{game.theater().name(), scenario, Sha256Hex(BenchCampaignText())};
  auto state_file = [](std::int32_t n) {
    return BenchFile("state-" + std::to_string(n) + ".json");
  };
  if (auto s = WriteFileAtomically(
          state_file(0), ops::StateToJson(game.state(), game.theater(), game.tables(), id));
      !s) {
    Die("state file", s.error());
  }
  double by_state = 0, by_db = 0;
  std::int32_t number = 0;
  int refused = 0;
  for (auto _ : state) {
    const ops::Orders orders = OrdersFor(game, ++number, refused);
    const std::string orders_file = BenchFile("orders-" + std::to_string(number) + ".json");
    if (auto s = WriteFileAtomically(orders_file, ops::OrdersToJson(orders, game.theater())); !s) {
      Die("orders file", s.error());
    }
    if (auto r = game.Play(orders); !r) Die("play", r.error());
    const std::vector<std::string> with_state = {
        "turn",      "--state", state_file(number - 1), "--orders",
        orders_file, "--out",   state_file(number)};
    const std::vector<std::string> with_db = {"turn", "--db", db, "--orders", orders_file};
    double s = 0, d = 0;
    if (number % 2 == 0) {
      s = TimeOpsim(with_state);
      d = TimeOpsim(with_db);
    } else {
      d = TimeOpsim(with_db);
      s = TimeOpsim(with_state);
    }
    by_state += s;
    by_db += d;
    state.SetIterationTime(d);
  }
  // Both ways reached the same game.
  auto logged = db::LoadLoggedGame(db, std::nullopt);
  auto file = JsonSource::FromFile(state_file(number));
  auto saved = file ? ops::StateFromJson(*file, game.theater(), game.tables())
                    : Result<ops::LoadedState>(std::unexpected(file.error()));
  if (!logged || !saved) Die("final states", logged ? saved.error() : logged.error());
  const std::string final_hash = game.hash();
  if (ops::StateHash(logged->state) != final_hash || ops::StateHash(saved->state) != final_hash) {
    Die("final states", Fail(ErrorCode::kInternal, "the log and the state files differ").error());
  }
  state.counters["state_ms"] = 1000 * by_state / number;
  state.counters["db_ms"] = 1000 * by_db / number;
  state.counters["log_share"] = (by_db - by_state) / by_state;
}
BENCHMARK(BM_TurnCommand)->Unit(benchmark::kMillisecond)->Iterations(10)->UseManualTime();

// A hosted fair game's player-turn on the bench campaign, as the server writes it (docs/api.md):
// the mover's orders checked on the warm game and made pending (query::SubmitOrders), then the
// defender's empty reply playing and logging the player-turn with both keys
// (query::ReplyToOrders). Each call is what one POST does below the HTTP layer; `move_ms` and
// `resolve_ms` are their mean times. The orders are chosen (and the game read back to choose the
// next ones, as the server's warm game) outside the timing; `load_ms` is that read back
// (query::Load of the log, its scenario's rules already built).
void BM_HostedTurn(benchmark::State& state) {
  const std::string path = LogPath("hosted.sqlite");
  // Fixed secrets: the same dice, so the same player-turns, on every run.
  Key axis{}, allied{};
  axis.fill(0x11);
  allied.fill(0x22);
  auto src = JsonSource::FromText(BenchCampaignText(), "bench-campaign.json");
  if (!src) Die("hosted game", src.error());
  auto started = db::NewFairLoggedGame(path, *src, "bench", KeyHex(ChainKey(axis, 0)),
                                       KeyHex(ChainKey(allied, 0)));
  if (!started) Die("new hosted game", started.error());
  query::Source source;
  source.db = path;
  auto warm = query::Load(source);
  if (!warm) Die("load", warm.error());
  ops::Game game(started->theater, started->campaign, started->state);
  const db::FairSecrets secrets{axis, allied};
  const auto empty_reply = JsonSource::FromText("{}", "reply");
  double move = 0, resolve = 0, load = 0;
  std::int32_t number = 0;
  int refused = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ops::Orders orders = OrdersFor(game, ++number, refused);
    orders.dice.clear();  // a fair game's dice come from both keys
    auto text = JsonSource::FromText(ops::OrdersToJson(orders, game.theater()), "orders");
    if (!text) Die("orders", text.error());
    state.ResumeTiming();
    const auto t0 = Clock::now();
    auto moved = query::SubmitOrders(*warm, path, *text);
    if (!moved) Die("submit orders", moved.error());
    const auto t1 = Clock::now();
    auto played = query::ReplyToOrders(path, secrets, *empty_reply);
    if (!played) Die("reply", played.error());
    const auto t2 = Clock::now();
    move += Seconds(t0, t1);
    resolve += Seconds(t1, t2);
    state.PauseTiming();
    const auto t3 = Clock::now();
    warm = query::Load(source);
    if (!warm) Die("reload", warm.error());
    load += Seconds(t3, Clock::now());
    auto now = query::GameOf(*warm);
    if (!now) Die("reload", now.error());
    game = std::move(*now);
    state.ResumeTiming();
  }
  state.counters["move_ms"] = 1000 * move / number;
  state.counters["resolve_ms"] = 1000 * resolve / number;
  state.counters["load_ms"] = 1000 * load / number;
}
BENCHMARK(BM_HostedTurn)->Unit(benchmark::kMillisecond)->Iterations(6);

// A log of 100 player-turns of the bench campaign, written once per process.
const std::string& HundredTurnLog() {
  static const std::string path = [] {
    const std::string p = LogPath("hundred.sqlite");
    ops::Game game = NewBenchLog(p);
    auto log = db::TurnLog::Open(p, db::TurnLog::Access::kWrite);
    if (!log) Die("open", log.error());
    int refused = 0;
    for (std::int32_t n = 1; n <= 100; ++n) PlayAndLog(game, OrdersFor(game, n, refused), *log, n);
    if (refused > 0) std::fprintf(stderr, "100-turn log: %d synthetic orders refused\n", refused);
    return p;
  }();
  return path;
}

// `opsim replay` of a 100-turn game from the start: the scenario loaded, every player-turn
// played again from its logged orders and checked against its logged dice, events and hashes.
// With verify (arg 1), also the whole chain and every snapshot. Target: 5 s or less. The
// counters `load_s`, `rows_s`, `parse_s` and `play_s` split a replay's time, measured apart.
void BM_Replay100Turns(benchmark::State& state) {
  const std::string& path = HundredTurnLog();
  db::ReplayOptions options;
  options.verify = state.range(0) != 0;
  std::int64_t rolls = 0, events = 0;
  for (auto _ : state) {
    auto r = db::ReplayLog(path, options);
    if (!r) {
      state.SkipWithError(r.error().to_string().c_str());
      break;
    }
    if (r->game.turns_played != 100) {
      state.SkipWithError("the replay did not reach 100 player-turns");
      break;
    }
    rolls = r->rolls;
    events = r->events;
  }
  // Where the time goes, measured apart once: the scenario and the start rebuilt, the logged
  // rows read and checked, the orders read (ops::ParseOrders), the player-turns played.
  double load = 0, rows = 0, parse = 0, play = 0;
  auto t = Clock::now();
  auto lap = [&t](double& into) {
    const auto now = Clock::now();
    into += Seconds(t, now);
    t = now;
  };
  auto start = db::LoadLoggedGame(path, 0);
  auto log = db::TurnLog::Open(path, db::TurnLog::Access::kRead);
  if (!start || !log) Die("replay parts", start ? log.error() : start.error());
  ops::Game game(start->theater, start->campaign, start->state);
  lap(load);
  for (std::int32_t n = 1; n <= 100; ++n) {
    auto turn = log->ReadTurn(n);
    if (!turn) Die("read", turn.error());
    lap(rows);
    auto src = JsonSource::FromText(turn->orders, "orders");
    auto orders = src ? ops::ParseOrders(*src, game.theater())
                      : Result<ops::Orders>(std::unexpected(src.error()));
    if (!orders) Die("orders", orders.error());
    lap(parse);
    if (auto r = game.Play(*orders); !r) Die("play", r.error());
    lap(play);
  }
  state.counters["load_s"] = load;
  state.counters["rows_s"] = rows;
  state.counters["parse_s"] = parse;
  state.counters["play_s"] = play;
  state.counters["turns"] = 100;
  state.counters["rolls"] = static_cast<double>(rolls);
  state.counters["events"] = static_cast<double>(events);
  state.counters["log_mib"] =
      static_cast<double>(std::filesystem::file_size(path)) / (1024.0 * 1024.0);
}
BENCHMARK(BM_Replay100Turns)
    ->ArgName("verify")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();

}  // namespace
}  // namespace opsim::bench
