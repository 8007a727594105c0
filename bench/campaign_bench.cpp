// Campaign benchmarks on the generated 100,000-hex theater with 2,000 units: supply for a
// whole side, a whole player-turn, and a Monte Carlo run of it (opsim odds).
#include <benchmark/benchmark.h>

#include "bench_fixture.h"
#include "opsim/ops/orders.h"
#include "opsim/ops/synthetic.h"
#include "opsim/query/odds.h"

namespace opsim::bench {
namespace {

// Supply status of every hex for one side (B8): enemy zones, the supply net along roads and
// rail from the sources, and the overland search from it. `vs_bfs` sets it against the bare BFS
// in the same iterations.
void BM_SupplyWholeSide(benchmark::State& state) {
  const ops::Game game = BenchGame();
  VersusBfs versus(game.theater());
  std::size_t supplied = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    const std::vector<ops::SupplyStatus> map = game.SupplyMap(Side::kAxis);
    benchmark::DoNotOptimize(map.data());
    versus.Add(state, Seconds(t0, Clock::now()));
    supplied =
        static_cast<std::size_t>(std::count(map.begin(), map.end(), ops::SupplyStatus::kSupplied));
  }
  state.counters["supplied_hexes"] = static_cast<double>(supplied);
  versus.Report(state);
}
BENCHMARK(BM_SupplyWholeSide)->Unit(benchmark::kMicrosecond);

// The Axis player-turn of the first game turn (weather, supply, ~750 moves, the attacks along
// the front), played on a copy of the same game each iteration.
void BM_PlayerTurn(benchmark::State& state) {
  const ops::Game game = BenchGame();
  const ops::Orders orders = ops::SyntheticOrders(game, 7);
  std::size_t events = 0;
  for (auto _ : state) {
    ops::Game copy = game;
    auto result = copy.Play(orders);
    if (!result) {
      state.SkipWithError(result.error().to_string().c_str());
      break;
    }
    events = result->events.size();
    benchmark::DoNotOptimize(result);
  }
  state.counters["moves"] = static_cast<double>(orders.movement.size());
  state.counters["attacks"] = static_cast<double>(orders.combat.size());
  state.counters["events"] = static_cast<double>(events);
}
BENCHMARK(BM_PlayerTurn)->Unit(benchmark::kMillisecond);

// opsim odds: 1,000 runs of the player-turn above, on as many threads as the argument. Wall
// time, since the work is on the worker threads.
void BM_Odds(benchmark::State& state) {
  const query::LoadedGame& g = BenchLoadedGame();
  const ops::Orders orders = ops::SyntheticOrders(BenchGame(), 7);
  auto src = JsonSource::FromText(ops::OrdersToJson(orders, *g.theater), "synthetic-orders");
  if (!src) {
    state.SkipWithError(src.error().to_string().c_str());
    return;
  }
  query::OddsRequest request;
  request.runs = 1000;
  request.seed = 1;
  request.threads = static_cast<unsigned>(state.range(0));
  std::size_t eliminated = 0;
  for (auto _ : state) {
    auto answer = query::RunOdds(g, *src, request);
    if (!answer) {
      state.SkipWithError(answer.error().to_string().c_str());
      break;
    }
    eliminated = answer->eliminated.size();
  }
  state.counters["runs"] = static_cast<double>(request.runs);
  state.counters["attacks"] = static_cast<double>(orders.combat.size());
  state.counters["units_ever_eliminated"] = static_cast<double>(eliminated);
}
BENCHMARK(BM_Odds)->Arg(1)->Arg(2)->Iterations(1)->UseRealTime()->Unit(benchmark::kSecond);

}  // namespace
}  // namespace opsim::bench
