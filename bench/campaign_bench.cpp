// Campaign benchmarks on the generated 100,000-hex theater with 2,000 units: supply for a
// whole side, a whole player-turn, a Monte Carlo run of it (opsim odds), and one stack's reach.
#include <benchmark/benchmark.h>

#include "bench_fixture.h"
#include "opsim/ops/orders.h"
#include "opsim/ops/reach.h"
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

// `opsim reach` for the Axis stack nearest the Allied units (ties: the first in the game's
// order): enemy zones of control, the search within its MPs, the stopped edges worded.
// The game is kept across iterations, as a server keeps it.
void BM_Reach(benchmark::State& state) {
  const ops::Game& game = BenchGame();
  const map::Theater& t = game.theater();
  const ops::GameState& s = game.state();
  ops::ReachRequest request;
  int best = 1 << 30;
  map::HexRef hex;
  for (const ops::GroundUnit& u : s.units) {
    if (!u.on_map() || u.side != Side::kAxis) continue;
    for (const ops::GroundUnit& e : s.units) {
      if (!e.on_map() || e.side == Side::kAxis) continue;
      const int d = map::Distance(t.Pos(u.hex), t.Pos(e.hex));
      if (d < best) {
        best = d;
        hex = u.hex;
      }
    }
  }
  for (const ops::GroundUnit& u : s.units) {
    if (u.on_map() && u.side == Side::kAxis && u.hex == hex) request.units.push_back(u.id);
  }
  std::size_t hexes = 0, blocked = 0;
  for (auto _ : state) {
    auto a = ops::Reach(game, request);
    if (!a) {
      state.SkipWithError(a.error().to_string().c_str());
      break;
    }
    hexes = a->hexes.size();
    blocked = a->blocked.size();
    benchmark::DoNotOptimize(a);
  }
  state.counters["units"] = static_cast<double>(request.units.size());
  state.counters["hexes"] = static_cast<double>(hexes);
  state.counters["blocked"] = static_cast<double>(blocked);
  state.counters["enemy_hexes_away"] = best;
}
BENCHMARK(BM_Reach)->Unit(benchmark::kMillisecond);
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
