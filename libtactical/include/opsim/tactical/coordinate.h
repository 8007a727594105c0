// CoordinateGrid: one printed coordinate system of a tactical board, and where it lies.
//
// The rules write hexes the way the boards print them: board hexes by board number, column
// letters and row (`37EE7`, or `EE7` when the board is understood), overlay hexes with an "o"
// (`oL3`), Beach-overlay hexes with three digits and OCEAN-overlay hexes with four (`433`,
// `1080`; G13.1). A board file stacks several such grids, bottom first; each is placed on one
// global grid by a rotation (a multiple of 60°) and a translation, so an overlay can be laid on
// a mapboard the way a scenario's SSR lays it. Numbered overlays count their hexes row by row
// (`per_row` to a row), so hexrow 1001-1013 of OC1 lies beside hexrow 1014-1026 (G13.91 EX).
// Value type; thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opsim/tactical/geometry.h"

namespace opsim::tactical {

// What the hexes of a grid are, for G13: a mapboard, a plain terrain overlay (G8 paddies on
// Overlay 3 / RP overlays), a Beach, OCEAN or Effluent overlay, or a land overlay defined as an
// Island (G13.15).
enum class GridRole { kBoard, kOverlay, kBeach, kOcean, kEffluent, kIsland };
const char* GridRoleName(GridRole r);
std::optional<GridRole> ParseGridRole(std::string_view name);

class CoordinateGrid {
 public:
  // Lettered columns and numbered rows: `prefix` + letters + row ("37EE7", "oL3", "H9").
  // Columns are given as letter indices (A = 0, Z = 25, AA = 26, GG = 32).
  static CoordinateGrid Lettered(std::string name, GridRole role, std::string prefix, int first_col,
                                 int last_col, int first_row, int last_row);
  // Hexes numbered first, first+1, ... `per_row` to a row, `rows` rows, written with `digits`
  // digits ("1001").
  static CoordinateGrid Numbered(std::string name, GridRole role, int first, int per_row, int rows,
                                 int digits);

  // Places the grid: its local cell `local` lands on global `global`, after turning the grid
  // `sixths` × 60° clockwise about that cell.
  void Place(GridPos local, GridPos global, int sixths);

  const std::string& name() const { return name_; }
  GridRole role() const { return role_; }
  bool lettered() const { return lettered_; }
  const std::string& prefix() const { return prefix_; }

  // The local cell a token names in this grid's numbering, whether or not it lies within the
  // grid's extent; nullopt if the token is not written in this numbering.
  std::optional<GridPos> Parse(std::string_view token) const;
  // The printed coordinate of a local cell.
  std::string Name(GridPos local) const;
  // Whether a local cell is one of the grid's hexes.
  bool Contains(GridPos local) const;
  // How many cells its extent spans, omitted ones included.
  std::size_t extent() const {
    return static_cast<std::size_t>(col_hi_ - col_lo_ + 1) *
           static_cast<std::size_t>(row_hi_ - row_lo_ + 1);
  }
  // Cuts a hex out of the grid, as an overlay is cut out along its shape (G.9, G13.1).
  void Omit(GridPos local) { omitted_.push_back(local); }
  // Every local cell of the grid, column by column.
  template <class F>
  void ForEach(F f) const {
    for (int c = col_lo_; c <= col_hi_; ++c) {
      for (int r = row_lo_; r <= row_hi_; ++r) {
        if (Contains(GridPos{c, r})) f(GridPos{c, r});
      }
    }
  }

  GridPos ToGlobal(GridPos local) const;
  GridPos ToLocal(GridPos global) const;

 private:
  CoordinateGrid() = default;

  std::string name_;
  GridRole role_ = GridRole::kBoard;
  bool lettered_ = true;
  std::string prefix_;                                     // lettered
  int first_ = 0;                                          // numbered
  int per_row_ = 0;                                        // numbered
  int digits_ = 0;                                         // numbered
  int col_lo_ = 0, col_hi_ = 0, row_lo_ = 0, row_hi_ = 0;  // extent, in local cells
  std::vector<GridPos> omitted_;
  Cube origin_;
  int sixths_ = 0;
};

// Letter column names: 0 -> "A", 25 -> "Z", 26 -> "AA", 32 -> "GG".
std::string ColumnLetters(int index);
// The inverse; nullopt unless the text is one letter repeated.
std::optional<int> ColumnIndex(std::string_view letters);

}  // namespace opsim::tactical
