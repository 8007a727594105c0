// Hex coordinates in the Europa convention, and the grid they live on.
//
// A hex is written SHEET:XXYY (`16A:0827`): XX is the column, counted west to east, YY the row,
// counted north to south. Hexes are flat-topped and stand in vertical columns; even columns sit
// half a hex lower. A hexside is written `16A:0827/0727`, or `14:5019/15A:0120` across a sheet
// join. A theater places each sheet on one global grid (GridPos), so adjacency across sheet joins
// is ordinary grid adjacency. Everything here is pure and thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "opsim/core/error.h"

namespace opsim::map {

// The six hexside directions of a flat-topped hex, clockwise from north.
enum class Dir : std::uint8_t { kN = 0, kNE = 1, kSE = 2, kS = 3, kSW = 4, kNW = 5 };
inline constexpr int kDirCount = 6;
inline constexpr std::array<Dir, kDirCount> kAllDirs = {Dir::kN, Dir::kNE, Dir::kSE,
                                                        Dir::kS, Dir::kSW, Dir::kNW};

constexpr Dir Opposite(Dir d) {
  return static_cast<Dir>((static_cast<int>(d) + 3) % kDirCount);
}
// The direction `steps` places clockwise of d (negative: counter-clockwise).
constexpr Dir Rotate(Dir d, int steps) {
  return static_cast<Dir>(((static_cast<int>(d) + steps) % kDirCount + kDirCount) % kDirCount);
}
const char* DirName(Dir d);  // "N", "NE", ...
std::optional<Dir> ParseDir(std::string_view name);

// A position on a theater's global grid. Columns keep their sheet parity (sheets sit at even
// column offsets), so a global column is even exactly when the sheet's XX is even.
struct GridPos {
  std::int32_t col = 0;
  std::int32_t row = 0;
  friend bool operator==(GridPos, GridPos) = default;
};

// The neighbour of p in direction d: an even column touches (c,r±1), (c±1,r) and (c±1,r+1);
// an odd column touches (c,r±1), (c±1,r−1) and (c±1,r).
GridPos Neighbor(GridPos p, Dir d);
// The direction from a to b if they are adjacent.
std::optional<Dir> DirectionTo(GridPos a, GridPos b);
// Hex distance on the grid.
int Distance(GridPos a, GridPos b);

// A syntactically valid hex token, not yet resolved against a theater.
struct HexName {
  std::string sheet;
  int col = 0;  // XX, 0..99
  int row = 0;  // YY, 0..99
  friend bool operator==(const HexName&, const HexName&) = default;
};

// Parses `SHEET:XXYY` strictly: the sheet is letters and digits, then exactly four digits.
// `default_sheet`, when given, lets the token omit "SHEET:" (as in `16A:0827/0727`).
Result<HexName> ParseHexName(std::string_view token, std::string_view default_sheet = {});
std::string FormatHexName(std::string_view sheet, int col, int row);
inline std::string FormatHexName(const HexName& h) {
  return FormatHexName(h.sheet, h.col, h.row);
}

// Parses `16A:0827/0727` or `14:5019/15A:0120` (the second hex inherits the first one's sheet
// unless it names its own). Adjacency is checked later, against a theater.
Result<std::array<HexName, 2>> ParseHexsideName(std::string_view token);

}  // namespace opsim::map
