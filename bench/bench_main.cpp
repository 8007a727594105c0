#include <benchmark/benchmark.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "bench_fixture.h"
#include "opsim/map/generate.h"
#include "opsim/ops/synthetic.h"

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

const ops::Game& BenchGame() {
  static const ops::Game game = [] {
    const std::string theater = map::GenerateTheater({.hexes = kBenchHexes, .seed = 1});
    auto text = ops::AddSyntheticCampaign(theater, kBenchUnits, 1);
    auto src = text ? JsonSource::FromText(*text, "bench-campaign")
                    : Result<JsonSource>(std::unexpected(text.error()));
    auto sc = src ? map::LoadScenario(*src) : Result<map::Scenario>(std::unexpected(src.error()));
    auto campaign =
        sc ? ops::LoadCampaign(*src, *sc, 1) : Result<ops::Campaign>(std::unexpected(sc.error()));
    if (!campaign) {
      std::fprintf(stderr, "bench campaign: %s\n", campaign.error().to_string().c_str());
      std::abort();
    }
    return ops::Game(std::make_shared<const map::Theater>(std::move(sc->theater)),
                     std::make_shared<const ops::Campaign>(std::move(*campaign)));
  }();
  return game;
}

std::size_t HeapBytesInUse() {
  const struct mallinfo2 m = ::mallinfo2();
  return m.uordblks + m.hblkhd;
}

}  // namespace opsim::bench

BENCHMARK_MAIN();
