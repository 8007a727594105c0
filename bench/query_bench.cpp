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

// Asks `ask()` each iteration and reports the 99th percentile of the calls' wall times (the
// issue's target is set on it, a counter in ms) and `counter` of the last answer, as `name`.
template <class Ask, class Counter>
void TimeQuery(benchmark::State& state, Ask ask, const char* name, Counter counter) {
  std::vector<double> times;
  double last = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    auto a = ask();
    times.push_back(Seconds(t0, Clock::now()));
    if (!a) {
      state.SkipWithError(a.error().to_string().c_str());
      return;
    }
    last = static_cast<double>(counter(*a));
    benchmark::DoNotOptimize(a);
  }
  std::sort(times.begin(), times.end());
  if (!times.empty()) state.counters["p99_ms"] = 1000 * times[(times.size() - 1) * 99 / 100];
  state.counters[name] = last;
}

query::RouteRequest GroundRequest() {
  query::RouteRequest r;
  r.side = BenchLoadedGame().state->phasing();
  return r;
}

void BM_QueryRoute(benchmark::State& state) {
  query::RouteRequest r = GroundRequest();
  r.from = BenchNearMove().path.front();
  r.to = BenchNearMove().path.back();
  TimeQuery(
      state, [&] { return query::AnswerRoute(BenchLoadedGame(), r); }, "waypoints",
      [](const query::RouteAnswer& a) { return a.waypoints.size(); });
}
BENCHMARK(BM_QueryRoute)->Unit(benchmark::kMillisecond);

void BM_QueryPathCheck(benchmark::State& state) {
  query::RouteRequest r = GroundRequest();
  r.path = Joined(BenchNearMove().path);
  TimeQuery(
      state, [&] { return query::AnswerRoute(BenchLoadedGame(), r); }, "legal",
      [](const query::RouteAnswer& a) { return a.verdict.legal; });
}
BENCHMARK(BM_QueryPathCheck)->Unit(benchmark::kMillisecond);

void BM_QueryCheckMove(benchmark::State& state) {
  const NearMove& m = BenchNearMove();
  const std::string text = nlohmann::json{{"units", {m.unit}}, {"path", m.path}}.dump();
  TimeQuery(
      state, [&] { return query::AnswerCheck(BenchLoadedGame(), text); }, "legal",
      [](const query::CheckAnswer& a) { return a.legal; });
}
BENCHMARK(BM_QueryCheckMove)->Unit(benchmark::kMillisecond);

void BM_QueryReach(benchmark::State& state) {
  query::ReachRequest r;
  r.units = {BenchNearMove().unit};
  TimeQuery(
      state, [&] { return query::AnswerReach(BenchLoadedGame(), r); }, "hexes",
      [](const query::ReachAnswer& a) { return a.found.hexes.size(); });
}
BENCHMARK(BM_QueryReach)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace opsim::bench
