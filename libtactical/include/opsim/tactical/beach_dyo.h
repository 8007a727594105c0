// The DYO beach procedure, G13.91 to G13.99, as one reproducible seeded run.
//
// In order: the reef dr (Allied-vs-Japanese, 1943-44, OCEAN as Ocean; G13.91), the Slope dr
// (G13.92), the width DR (colored die first, then white; G13.93), purchases (G13.94), the
// defender's set-up (G13.95), UDT (G13.96), the declared Tide (G13.97), the Heavy Surf dr
// (G13.98) and the attacker's set-up (G13.99). Every roll comes from one opsim::Dice seeded by
// the caller, so a seed gives the same run on every machine. The report carries every roll, the
// resulting settings, and the board as the procedure leaves it (reef hexes marked, Slope, Tide,
// surf set) with each OCEAN hex's depth. The board's overlays stay where its file put them: the
// widths are reported, not laid out. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/tactical/board.h"

namespace opsim::tactical {

struct DyoOptions {
  std::uint64_t seed = 0;
  bool allied_vs_japanese = false;
  int year = 1944;
  bool wholly_non_us = false;  // the amphibious side (G13.91 -1 drm)
  std::optional<Tide> tide;    // declared by the amphibious player (G13.97)
};

struct DyoStep {
  std::string rule;
  std::string text;
  std::vector<int> dice;  // the roll, if this step rolled: dr, or colored and white dice
  int drm = 0;
  std::optional<int> final_roll;
};

struct DyoReport {
  std::vector<DyoStep> steps;
  bool reef = false;
  std::vector<GridPos> reef_hexes;
  Slope slope = Slope::kUnset;
  int high_tide_width = 0;
  int low_tide_width = 0;
  Tide tide = Tide::kHigh;
  int width = 0;
  bool heavy_surf = false;
  Board board;  // as the procedure leaves it
};

Result<DyoReport> RunBeachDyo(const Board& board, const DyoOptions& options);

}  // namespace opsim::tactical
