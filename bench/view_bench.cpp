// What a map shows (libquery view.h): the theater and a position as JSON, as `opsim serve` sends
// them to a browser, on the 100,000-hex theater and its 2,000-unit game. Each counts the JSON's
// build and its dump (what the server writes); `bytes` is the dump's size.
#include "bench_fixture.h"
#include "opsim/query/view.h"

namespace opsim::bench {
namespace {

void BM_TheaterJson(benchmark::State& state) {
  const query::LoadedGame& g = BenchLoadedGame();
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string text = query::TheaterJson(*g.theater).dump();
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.counters["hexes"] = static_cast<double>(g.theater->hex_count());
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_TheaterJson)->Unit(benchmark::kMillisecond);

// Argument 1: with each side's supply and zones of control, as the browser asks for them.
void BM_PositionJson(benchmark::State& state) {
  const query::LoadedGame& g = BenchLoadedGame();
  query::PositionOptions options;
  if (state.range(0)) {
    options.supply = options.zoc = {Side::kAxis, Side::kAllied};
  }
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto j = query::PositionJson(g, options);
    if (!j) {
      state.SkipWithError(j.error().to_string().c_str());
      break;
    }
    const std::string text = j->dump();
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.counters["units"] = static_cast<double>(g.state->units.size());
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_PositionJson)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace opsim::bench
