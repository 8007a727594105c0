#include "opsim/tactical/geometry.h"

namespace opsim::tactical {

std::optional<Hexside> Hexside::Between(GridPos a, GridPos b) {
  if (!map::DirectionTo(a, b)) return std::nullopt;
  if (GridPosLess{}(b, a)) std::swap(a, b);
  return Hexside(a, b);
}

Hexside Hexside::Of(GridPos hex, Dir d) {
  return *Between(hex, map::Neighbor(hex, d));
}

std::array<GridPos, 3> HexesAtCorner(Corner c) {
  return {c.hex, map::Neighbor(c.hex, c.d), map::Neighbor(c.hex, map::Rotate(c.d, 1))};
}

std::array<Hexside, 2> HexsidesAtCorner(Corner c) {
  return {Hexside::Of(c.hex, c.d), Hexside::Of(c.hex, map::Rotate(c.d, 1))};
}

Point Center(GridPos p) {
  return {3LL * p.col, 2LL * p.row + ((p.col & 1) == 0 ? 1 : 0)};
}

Point CornerPoint(GridPos hex, Dir d) {
  // Offsets of the corner that follows each direction clockwise.
  static constexpr std::array<Point, 6> kOffsets = {Point{1, -1}, Point{2, 0},  Point{1, 1},
                                                    Point{-1, 1}, Point{-2, 0}, Point{-1, -1}};
  const Point c = Center(hex);
  const Point o = kOffsets[static_cast<int>(d)];
  return {c.u + o.u, c.v + o.v};
}

Cube ToCube(GridPos p) {
  return {p.col, p.row - (p.col + (p.col & 1)) / 2};
}

GridPos FromCube(Cube c) {
  return {c.q, c.r + (c.q + (c.q & 1)) / 2};
}

Cube Rotate(Cube c, int sixths) {
  sixths = ((sixths % 6) + 6) % 6;
  for (int i = 0; i < sixths; ++i) {
    // (x, y, z) -> (-z, -x, -y) with x = q, z = r, y = -q - r.
    const int y = -c.q - c.r;
    c = {-c.r, -y};
  }
  return c;
}

}  // namespace opsim::tactical
