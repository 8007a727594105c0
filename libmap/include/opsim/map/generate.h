// A synthetic theater for benchmarks and tests: valid, loadable, and about the size asked.
//
// Sheets of up to 64x64 hexes are tiled on the global grid, so routes cross sheet joins.
// A seeded value-noise field makes seas, coasts and land terrain; then come lakes with
// partial-lake shores, rivers along hexsides, canals, canal-intensive lowlands, roads and rail
// between cities, causeways across narrow straits, ports (coastal, and inland on a navigable
// river) and airbases. The same options always give the same file.
#pragma once

#include <cstdint>
#include <string>

namespace opsim::map {

struct GenerateOptions {
  int hexes = 100000;
  std::uint64_t seed = 1;
};

// The scenario file's text (docs/scenario-format.md).
std::string GenerateTheater(const GenerateOptions& options);

}  // namespace opsim::map
