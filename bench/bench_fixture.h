// The benchmark theater: generated once per process (100,000 hexes, seed 1), written to a
// temporary file so that loading is measured from disk, and loaded once for the query
// benchmarks; and a campaign of 2,000 units on it.
#pragma once

#include <string>

#include "opsim/map/scenario.h"
#include "opsim/ops/game.h"

namespace opsim::bench {

inline constexpr int kBenchHexes = 100000;

const std::string& BenchTheaterPath();
const map::Scenario& BenchScenario();

inline constexpr int kBenchUnits = 2000;
// The same theater with a synthetic campaign of 2,000 units (seed 1), at its start.
const ops::Game& BenchGame();

// Heap bytes this process holds (malloc's count: arena chunks in use and mmapped blocks). Unlike
// the resident set it does not depend on what earlier benchmarks freed and malloc kept.
std::size_t HeapBytesInUse();

}  // namespace opsim::bench
