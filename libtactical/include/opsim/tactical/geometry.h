// Geometry of the tactical grid: hexsides, vertices, exact centre points and rigid moves.
//
// Tactical boards live on the same flat-topped grid as the operational map (opsim::map::GridPos,
// Dir, Neighbor, Distance): columns stand vertically and odd columns sit half a hex higher, which
// is exactly the ASL layout when column A is global column 1 (A, C, E... high; B, D... low). This
// file adds what the tactical rules need on top: a Hexside as a value, the vertices where three
// hexes meet, exact integer centre coordinates for line-of-sight geometry, and the rotations and
// translations that place an overlay on a board. Everything here is pure and thread-safe.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>

#include "opsim/core/hex.h"

namespace opsim::tactical {

using map::Dir;
using map::GridPos;

// A strict weak order on grid positions, so they can key ordered maps.
struct GridPosLess {
  bool operator()(GridPos a, GridPos b) const {
    return a.col != b.col ? a.col < b.col : a.row < b.row;
  }
};

// The hexside between two adjacent hexes, stored in a canonical order so that (a,b) and (b,a)
// compare equal.
class Hexside {
 public:
  // Requires a and b adjacent.
  static std::optional<Hexside> Between(GridPos a, GridPos b);
  static Hexside Of(GridPos hex, Dir d);

  GridPos first() const { return a_; }
  GridPos second() const { return b_; }
  // The hex across this hexside from `hex` (which must be one of its two hexes).
  GridPos Other(GridPos hex) const { return hex == a_ ? b_ : a_; }
  bool Touches(GridPos hex) const { return hex == a_ || hex == b_; }

  friend bool operator==(const Hexside&, const Hexside&) = default;
  friend bool operator<(const Hexside& x, const Hexside& y) {
    GridPosLess less;
    if (!(x.a_ == y.a_)) return less(x.a_, y.a_);
    return less(x.b_, y.b_);
  }

 private:
  Hexside(GridPos a, GridPos b) : a_(a), b_(b) {}
  GridPos a_;
  GridPos b_;
};

// The corner of `hex` between its hexside in direction d and the next one clockwise.
struct Corner {
  GridPos hex;
  Dir d;
};
// The three hexes that meet at a corner: hex, its neighbour across d, and its neighbour across
// the next direction clockwise.
std::array<GridPos, 3> HexesAtCorner(Corner c);
// The two hexsides of `hex` that meet at corner c.
std::array<Hexside, 2> HexsidesAtCorner(Corner c);

// Exact centre coordinates: u = 3*col, v = 2*row (+1 in the low, even, columns). In these units
// a hex's corners lie at (±2,0) and (±1,±1) from its centre; the map is affine to the Euclidean
// plane, so lines stay lines and every incidence test is exact integer arithmetic.
struct Point {
  std::int64_t u = 0;
  std::int64_t v = 0;
  friend bool operator==(Point, Point) = default;
};
Point Center(GridPos p);
// The corner point of `hex` between direction d and the next one clockwise.
Point CornerPoint(GridPos hex, Dir d);

// Cube coordinates, for rigid moves of a whole grid.
struct Cube {
  int q = 0;
  int r = 0;
  friend bool operator==(Cube, Cube) = default;
};
Cube ToCube(GridPos p);
GridPos FromCube(Cube c);
// Rotates about the origin by `sixths` × 60° clockwise.
Cube Rotate(Cube c, int sixths);
inline Cube operator+(Cube a, Cube b) {
  return {a.q + b.q, a.r + b.r};
}
inline Cube operator-(Cube a, Cube b) {
  return {a.q - b.q, a.r - b.r};
}

}  // namespace opsim::tactical
