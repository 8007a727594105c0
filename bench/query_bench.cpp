// Warm engine queries on the generated 100,000-hex game with 2,000 units, through the libquery
// functions `opsim serve` calls on its warm LoadedGame: a route between near hexes, the check of
// a short path, one movement order checked, and one stack's reach. Each benchmark asks the same
// question over and over, as the browser does while a player drags a path.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "bench_fixture.h"
#include "opsim/query/check.h"
#include "opsim/query/reach.h"
#include "opsim/query/route.h"

namespace opsim::bench {
namespace {

// A phasing unit and a hex it reaches in about six steps, with the path there.
struct NearMove {
  std::string unit;
  std::vector<std::string> path;  // hex names, from the unit's hex
};

const NearMove& BenchNearMove() {
  static const NearMove move = [] {
    const query::LoadedGame& g = BenchLoadedGame();
    const map::Theater& t = *g.theater;
    NearMove m;
    for (const ops::GroundUnit& u : g.state->units) {
      if (!u.on_map() || u.side != g.state->phasing()) continue;
      query::ReachRequest r;
      r.units = {u.id};
      auto a = query::AnswerReach(g, r);
      if (!a) continue;
      for (const ops::ReachHex& h : a->found.hexes) {
        if (h.path.size() != 7) continue;
        m.unit = u.id;
        for (map::HexRef p : h.path) m.path.push_back(t.HexName(p));
        return m;
      }
    }
    return m;
  }();
  return move;
}

std::string Joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ",") + n;
  return s;
}

// Each call's wall time, for the 99th percentile the target is set on (a counter, in ms).
class Percentile {
 public:
  void Add(Clock::time_point from) { times_.push_back(Seconds(from, Clock::now())); }
  void Report(benchmark::State& state) {
    if (times_.empty()) return;
    std::sort(times_.begin(), times_.end());
    state.counters["p99_ms"] = 1000 * times_[(times_.size() - 1) * 99 / 100];
  }

 private:
  std::vector<double> times_;
};

query::RouteRequest GroundRequest() {
  query::RouteRequest r;
  r.side = BenchLoadedGame().state->phasing();
  return r;
}

void BM_QueryRoute(benchmark::State& state) {
  const NearMove& m = BenchNearMove();
  query::RouteRequest r = GroundRequest();
  r.from = m.path.front();
  r.to = m.path.back();
  std::size_t steps = 0;
  Percentile p99;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    auto a = query::AnswerRoute(BenchLoadedGame(), r);
    p99.Add(t0);
    if (!a) {
      state.SkipWithError(a.error().to_string().c_str());
      break;
    }
    steps = a->waypoints.size();
    benchmark::DoNotOptimize(a);
  }
  p99.Report(state);
  state.counters["waypoints"] = static_cast<double>(steps);
}
BENCHMARK(BM_QueryRoute)->Unit(benchmark::kMillisecond);

void BM_QueryPathCheck(benchmark::State& state) {
  query::RouteRequest r = GroundRequest();
  r.path = Joined(BenchNearMove().path);
  bool legal = false;
  Percentile p99;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    auto a = query::AnswerRoute(BenchLoadedGame(), r);
    p99.Add(t0);
    if (!a) {
      state.SkipWithError(a.error().to_string().c_str());
      break;
    }
    legal = a->verdict.legal;
    benchmark::DoNotOptimize(a);
  }
  p99.Report(state);
  state.counters["legal"] = legal;
}
BENCHMARK(BM_QueryPathCheck)->Unit(benchmark::kMillisecond);

void BM_QueryCheckMove(benchmark::State& state) {
  const NearMove& m = BenchNearMove();
  const nlohmann::json action = {{"units", {m.unit}}, {"path", m.path}};
  const std::string text = action.dump();
  bool legal = false;
  Percentile p99;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    auto a = query::AnswerCheck(BenchLoadedGame(), text);
    p99.Add(t0);
    if (!a) {
      state.SkipWithError(a.error().to_string().c_str());
      break;
    }
    legal = a->legal;
    benchmark::DoNotOptimize(a);
  }
  p99.Report(state);
  state.counters["legal"] = legal;
}
BENCHMARK(BM_QueryCheckMove)->Unit(benchmark::kMillisecond);

void BM_QueryReach(benchmark::State& state) {
  query::ReachRequest r;
  r.units = {BenchNearMove().unit};
  std::size_t hexes = 0;
  Percentile p99;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    auto a = query::AnswerReach(BenchLoadedGame(), r);
    p99.Add(t0);
    if (!a) {
      state.SkipWithError(a.error().to_string().c_str());
      break;
    }
    hexes = a->found.hexes.size();
    benchmark::DoNotOptimize(a);
  }
  p99.Report(state);
  state.counters["hexes"] = static_cast<double>(hexes);
}
BENCHMARK(BM_QueryReach)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace opsim::bench
