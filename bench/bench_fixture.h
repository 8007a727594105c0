// The benchmark theater: generated once per process (100,000 hexes, seed 1), written to a
// temporary file so that loading is measured from disk, and loaded once for the query
// benchmarks.
#pragma once

#include <string>

#include "opsim/map/scenario.h"

namespace opsim::bench {

inline constexpr int kBenchHexes = 100000;

const std::string& BenchTheaterPath();
const map::Scenario& BenchScenario();

// Resident memory of this process, in bytes (from /proc/self/statm).
std::size_t ResidentBytes();

}  // namespace opsim::bench
