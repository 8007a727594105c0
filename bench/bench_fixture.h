// The benchmark theater: generated once per process (100,000 hexes, seed 1), written to a
// temporary file so that loading is measured from disk, and loaded once for the query
// benchmarks; and a campaign of 2,000 units on it.
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <string>
#include <vector>

#include "opsim/map/scenario.h"
#include "opsim/ops/game.h"
#include "opsim/query/source.h"

namespace opsim::bench {

inline constexpr int kBenchHexes = 100000;

const std::string& BenchTheaterPath();
const map::Scenario& BenchScenario();

inline constexpr int kBenchUnits = 2000;
// The same theater with a synthetic campaign of 2,000 units (seed 1), at its start: as a game,
// and as the queries load one.
const ops::Game& BenchGame();
// That campaign's scenario file text (the generator's layout).
const std::string& BenchCampaignText();
const query::LoadedGame& BenchLoadedGame();

// Heap bytes this process holds (malloc's count: arena chunks in use and mmapped blocks). Unlike
// the resident set it does not depend on what earlier benchmarks freed and malloc kept.
std::size_t HeapBytesInUse();

using Clock = std::chrono::steady_clock;
inline double Seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// The hex nearest the middle of the theater that a foot unit may stand in.
map::HexRef CentralLandHex(const map::Theater& t);

// The floor the searches are held to: a plain breadth-first search over the theater's CSR graph.
class BareBfs {
 public:
  BareBfs(const map::Theater& t, map::HexRef source);
  std::size_t Run();  // hexes reached
  const std::vector<std::uint32_t>& dist() const { return dist_; }

 private:
  const map::Theater& t_;
  map::HexRef source_;
  std::vector<std::uint32_t> dist_;
  std::vector<std::uint32_t> queue_;
};

// A benchmark's own time set against the bare BFS, run alternately in the same iterations so
// that both see the same machine: Add() each iteration, then Report() the `vs_bfs` counter
// (the target is 2 or less).
class VersusBfs {
 public:
  explicit VersusBfs(const map::Theater& t) : bfs_(t, CentralLandHex(t)) {}
  void Add(benchmark::State& state, double own_seconds);
  void Report(benchmark::State& state) const;

 private:
  BareBfs bfs_;
  double own_ = 0, bfs_seconds_ = 0;
};

}  // namespace opsim::bench
