#include <benchmark/benchmark.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "bench_fixture.h"
#include "opsim/map/generate.h"
#include "opsim/ops/route.h"
#include "opsim/ops/synthetic.h"
#include "signature.h"

namespace opsim::bench {

const std::string& BenchTheaterPath() {
  static const std::string path = [] {
    const std::string p = (std::filesystem::temp_directory_path() /
                           ("opsim-bench-" + std::to_string(::getpid()) + ".json"))
                              .string();
    std::ofstream(p) << map::GenerateTheater({.hexes = kBenchHexes, .seed = 1});
    std::atexit([] { std::remove(BenchTheaterPath().c_str()); });
    return p;
  }();
  return path;
}

const map::Scenario& BenchScenario() {
  static const map::Scenario scenario = [] {
    auto sc = map::LoadScenarioFile(BenchTheaterPath());
    if (!sc) {
      std::fprintf(stderr, "bench theater: %s\n", sc.error().to_string().c_str());
      std::abort();
    }
    return std::move(*sc);
  }();
  return scenario;
}

const std::string& BenchCampaignText() {
  static const std::string text = [] {
    auto t = ops::AddSyntheticCampaign(map::GenerateTheater({.hexes = kBenchHexes, .seed = 1}),
                                       kBenchUnits, 1);
    if (!t) {
      std::fprintf(stderr, "bench campaign: %s\n", t.error().to_string().c_str());
      std::abort();
    }
    return *t;
  }();
  return text;
}

const query::LoadedGame& BenchLoadedGame() {
  static const query::LoadedGame game = [] {
    auto src = JsonSource::FromText(BenchCampaignText(), "bench-campaign");
    auto sc = src ? map::LoadScenario(*src) : Result<map::Scenario>(std::unexpected(src.error()));
    auto campaign =
        sc ? ops::LoadCampaign(*src, *sc, 1) : Result<ops::Campaign>(std::unexpected(sc.error()));
    if (!campaign) {
      std::fprintf(stderr, "bench campaign: %s\n", campaign.error().to_string().c_str());
      std::abort();
    }
    query::LoadedGame g;
    g.theater = std::make_shared<const map::Theater>(std::move(sc->theater));
    g.campaign = std::make_shared<const ops::Campaign>(std::move(*campaign));
    g.state = g.campaign->initial;
    g.map = g.state->map;
    g.scenario.name = "bench-campaign";
    return g;
  }();
  return game;
}

const ops::Game& BenchGame() {
  static const ops::Game game(BenchLoadedGame().theater, BenchLoadedGame().campaign);
  return game;
}

map::HexRef CentralLandHex(const map::Theater& t) {
  map::GridPos lo{1 << 30, 1 << 30}, hi{-1, -1};
  for (std::uint32_t v = 0; v < t.hex_count(); ++v) {
    const map::GridPos p = t.Pos(map::HexRef{v});
    lo = {std::min(lo.col, p.col), std::min(lo.row, p.row)};
    hi = {std::max(hi.col, p.col), std::max(hi.row, p.row)};
  }
  const map::GridPos mid{(lo.col + hi.col) / 2, (lo.row + hi.row) / 2};
  map::HexRef best;
  int best_d = 1 << 30;
  for (std::uint32_t v = 0; v < t.hex_count(); ++v) {
    if (t.hex(map::HexRef{v}).IsWater()) continue;
    const int d = map::Distance(t.Pos(map::HexRef{v}), mid);
    if (d < best_d) best_d = d, best = map::HexRef{v};
  }
  return best;
}

BareBfs::BareBfs(const map::Theater& t, map::HexRef source)
    : t_(t), source_(source), dist_(t.hex_count()), queue_(t.hex_count()) {}

std::size_t BareBfs::Run() {
  const auto& g = t_.graph();
  std::fill(dist_.begin(), dist_.end(), ops::kUnreachable);
  std::size_t head = 0, tail = 0;
  dist_[source_.v] = 0;
  queue_[tail++] = source_.v;
  while (head < tail) {
    const std::uint32_t u = queue_[head++];
    const auto [first, last] = boost::out_edges(u, g);
    for (auto it = first; it != last; ++it) {
      const std::uint32_t v = boost::target(*it, g);
      if (dist_[v] == ops::kUnreachable) {
        dist_[v] = dist_[u] + 1;
        queue_[tail++] = v;
      }
    }
  }
  benchmark::DoNotOptimize(dist_.data());
  return tail;
}

void VersusBfs::Add(benchmark::State& state, double own_seconds) {
  state.PauseTiming();
  const auto t0 = Clock::now();
  bfs_.Run();
  bfs_seconds_ += Seconds(t0, Clock::now());
  own_ += own_seconds;
  state.ResumeTiming();
}

void VersusBfs::Report(benchmark::State& state) const {
  state.counters["vs_bfs"] = bfs_seconds_ > 0 ? own_ / bfs_seconds_ : 0;
}

std::size_t HeapBytesInUse() {
  const struct mallinfo2 m = ::mallinfo2();
  return m.uordblks + m.hblkhd;
}

}  // namespace opsim::bench

// `opsim-bench --signature` prints the behaviour signature (tests/signature/signature.h) and
// exits: 0 when every game played, 1 otherwise. Anything else runs the benchmarks.
int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--signature") {
    const std::filesystem::path scratch =
        std::filesystem::temp_directory_path() / ("opsim-signature-" + std::to_string(::getpid()));
    std::filesystem::create_directories(scratch);
    auto sig = opsim::signature::Compute({OPSIM_SCENARIO_DIR, OPSIM_DB_FIXTURES, scratch.string()});
    std::error_code ec;
    std::filesystem::remove_all(scratch, ec);
    if (!sig) {
      std::fprintf(stderr, "signature: %s\n", sig.error().to_string().c_str());
      return 1;
    }
    for (const opsim::signature::Game& g : sig->games) {
      std::printf("%-40s %s\n", g.name.c_str(), g.final_hash.c_str());
    }
    std::printf("%s\n", sig->Line().c_str());
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
