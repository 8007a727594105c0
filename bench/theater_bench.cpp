// Theater benchmarks: load, whole-map ground costs, naval routes, and the bare BFS floor.
#include <benchmark/benchmark.h>

#include <deque>
#include <vector>

#include "bench_fixture.h"
#include "opsim/map/scenario_layout.h"
#include "opsim/ops/route.h"
#include "opsim/query/scenario.h"

namespace opsim::bench {
namespace {

void BM_LoadTheater(benchmark::State& state) {
  const std::string& path = BenchTheaterPath();
  std::size_t hexes = 0;
  for (auto _ : state) {
    auto sc = map::LoadScenarioFile(path);
    if (!sc) state.SkipWithError(sc.error().to_string().c_str());
    hexes = sc->theater.hex_count();
    benchmark::DoNotOptimize(sc);
  }
  state.counters["hexes"] = static_cast<double>(hexes);
}
BENCHMARK(BM_LoadTheater)->Unit(benchmark::kMillisecond);

// `opsim scenario format` and the workshop's save on the 100,000-hex campaign (2,000 units):
// parsed, laid out, chains joined.
void BM_FormatScenario(benchmark::State& state) {
  const std::string& text = BenchCampaignText();
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto src = JsonSource::FromText(text, "bench-campaign.json");
    auto out = src ? map::FormatScenario(*src) : Result<std::string>(std::unexpected(src.error()));
    if (!out) {
      state.SkipWithError(out.error().to_string().c_str());
      break;
    }
    bytes = out->size();
  }
  state.counters["bytes_in"] = static_cast<double>(text.size());
  state.counters["bytes_out"] = static_cast<double>(bytes);
}
BENCHMARK(BM_FormatScenario)->Unit(benchmark::kMillisecond);

// `opsim scenario check` and the workshop's live check on the same campaign: the theater and the
// campaign loaded, and counted.
void BM_CheckScenario(benchmark::State& state) {
  const std::string& text = BenchCampaignText();
  for (auto _ : state) {
    const query::ScenarioCheck c = query::CheckScenarioText(text, "bench-campaign.json");
    if (c.error) {
      state.SkipWithError(c.error->to_string().c_str());
      break;
    }
    benchmark::DoNotOptimize(c.doc);
  }
}
BENCHMARK(BM_CheckScenario)->Unit(benchmark::kMillisecond);

// Memory a loaded theater and its state hold, per hex: the heap bytes still in use once the
// load is done (the file's text and parse tree freed). The structures are filled when they are
// built, so all of it is resident.
void BM_TheaterMemory(benchmark::State& state) {
  const std::string& path = BenchTheaterPath();
  double per_hex = 0;
  for (auto _ : state) {
    const std::size_t before = HeapBytesInUse();
    auto sc = map::LoadScenarioFile(path);
    const std::size_t after = HeapBytesInUse();
    per_hex = static_cast<double>(after - before) / static_cast<double>(sc->theater.hex_count());
    benchmark::DoNotOptimize(sc);
  }
  state.counters["bytes_per_hex"] = per_hex;
}
BENCHMARK(BM_TheaterMemory)->Iterations(1)->Unit(benchmark::kMillisecond);

// The floor: a plain breadth-first search over the same CSR graph from the same hex.
void BM_BareBfs(benchmark::State& state) {
  const map::Theater& t = BenchScenario().theater;
  BareBfs bfs(t, CentralLandHex(t));
  std::size_t reached = 0;
  for (auto _ : state) reached = bfs.Run();
  state.counters["reached"] = static_cast<double>(reached);
}
BENCHMARK(BM_BareBfs)->Unit(benchmark::kMicrosecond);

// Single-source ground movement costs to every hex, for a foot unit, with the edge costs of
// the current state already built (one build serves every query until the state changes).
void BM_GroundCostsWholeMap(benchmark::State& state) {
  const map::Scenario& sc = BenchScenario();
  const ops::RuleContext ctx{sc.theater, sc.state, ops::DefaultRuleTables()};
  ops::GroundRouter router(
      ctx, *ops::ParseUnitKind(ops::DefaultRuleTables(), "infantry", Side::kAllied));
  const map::HexRef source = CentralLandHex(sc.theater);
  VersusBfs versus(sc.theater);
  for (auto _ : state) {
    const auto t0 = Clock::now();
    const auto& costs = router.CostsFrom(source);
    benchmark::DoNotOptimize(costs.data());
    versus.Add(state, Seconds(t0, Clock::now()));
  }
  const auto& costs = router.CostsFrom(source);
  state.counters["reached"] = static_cast<double>(
      std::count_if(costs.begin(), costs.end(), [](auto c) { return c != ops::kUnreachable; }));
  versus.Report(state);
}
BENCHMARK(BM_GroundCostsWholeMap)->Unit(benchmark::kMicrosecond);

// Building a mover's edge costs for a state: paid once per state change and unit class.
void BM_GroundRouterBuild(benchmark::State& state) {
  const map::Scenario& sc = BenchScenario();
  const ops::RuleContext ctx{sc.theater, sc.state, ops::DefaultRuleTables()};
  const auto mover = *ops::ParseUnitKind(ops::DefaultRuleTables(), "armor", Side::kAllied);
  for (auto _ : state) {
    ops::GroundRouter router(ctx, mover);
    benchmark::DoNotOptimize(&router);
  }
}
BENCHMARK(BM_GroundRouterBuild)->Unit(benchmark::kMillisecond);

// Naval point-to-point routes between far-apart sea hexes of one connected sea.
void BM_NavalRoute(benchmark::State& state) {
  const map::Scenario& sc = BenchScenario();
  const map::Theater& t = sc.theater;
  const ops::RuleContext ctx{t, sc.state, ops::DefaultRuleTables()};
  ops::NavalRouter router(ctx, *ops::ParseGroup("tf,transport", Side::kAllied));
  // The largest connected sea: flood-fill the naval graph from each unseen all-sea node.
  const auto& g = t.naval_graph();
  const std::uint32_t n = static_cast<std::uint32_t>(boost::num_vertices(g));
  std::vector<int> comp(n, -1);
  std::vector<std::vector<std::uint32_t>> seas;
  for (std::uint32_t s = 0; s < t.water_area_count(); ++s) {
    if (comp[s] >= 0 || t.hex(t.water_area(s).hex).terrain != map::Terrain::kAllSea) continue;
    seas.emplace_back();
    std::deque<std::uint32_t> todo = {s};
    comp[s] = static_cast<int>(seas.size() - 1);
    while (!todo.empty()) {
      const std::uint32_t u = todo.front();
      todo.pop_front();
      if (!t.IsRiverNode(u) && t.hex(t.water_area(u).hex).terrain == map::Terrain::kAllSea) {
        seas.back().push_back(u);
      }
      for (auto e : boost::make_iterator_range(boost::out_edges(u, g))) {
        const std::uint32_t v = boost::target(e, g);
        if (comp[v] < 0) {
          comp[v] = comp[s];
          todo.push_back(v);
        }
      }
    }
  }
  const auto& sea = *std::max_element(
      seas.begin(), seas.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
  // Sixteen pairs spread across it.
  std::vector<std::pair<ops::Waypoint, ops::Waypoint>> pairs;
  for (std::size_t i = 0; i < 16; ++i) {
    ops::Waypoint a, b;
    a.hex = t.water_area(sea[i * sea.size() / 16]).hex;
    b.hex = t.water_area(sea[(i * sea.size() / 16 + sea.size() / 2) % sea.size()]).hex;
    pairs.emplace_back(a, b);
  }
  std::size_t i = 0, reachable = 0, total_cost = 0, routes = 0;
  for (auto _ : state) {
    const auto& [a, b] = pairs[i++ % pairs.size()];
    const ops::RouteAnswer r = router.Route(a, b);
    reachable += r.reachable;
    total_cost += r.cost;
    ++routes;
    benchmark::DoNotOptimize(r);
  }
  state.counters["sea_hexes"] = static_cast<double>(sea.size());
  state.counters["reachable_share"] = static_cast<double>(reachable) / static_cast<double>(routes);
  state.counters["mean_steps"] = static_cast<double>(total_cost) / static_cast<double>(routes);
}
BENCHMARK(BM_NavalRoute)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace opsim::bench
