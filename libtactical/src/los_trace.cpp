#include "opsim/tactical/los_trace.h"

#include <algorithm>
#include <optional>

namespace opsim::tactical {

namespace {

// A non-negative rational with a positive denominator; parameters along the LOS lie in [0, 1].
struct Frac {
  std::int64_t num = 0;
  std::int64_t den = 1;
  friend bool operator<(Frac a, Frac b) { return a.num * b.den < b.num * a.den; }
  friend bool operator==(Frac a, Frac b) { return a.num * b.den == b.num * a.den; }
};

Frac Ratio(std::int64_t num, std::int64_t den) {
  if (den < 0) return {-num, -den};
  return {num, den};
}

// The six half-planes of a hex about its centre: a.u*w.u + a.v*w.v <= b, one per direction, so
// the hexside in direction d lies on the boundary of constraint d.
struct HalfPlane {
  int au, av, b;
};
constexpr std::array<HalfPlane, 6> kHalfPlanes = {{
    {0, -1, 1},   // N
    {1, -1, 2},   // NE
    {1, 1, 2},    // SE
    {0, 1, 1},    // S
    {-1, 1, 2},   // SW
    {-1, -1, 2},  // NW
}};

struct Contact {
  GridPos hex;
  Frac lo;
  Frac hi;
  std::optional<Dir> along;  // the LOS lies on this hexside of `hex`
};

std::optional<Contact> Intersect(GridPos hex, Point p, Point d) {
  const Point c = Center(hex);
  Frac lo{0, 1};
  Frac hi{1, 1};
  std::optional<Dir> along;
  for (int i = 0; i < 6; ++i) {
    const HalfPlane& h = kHalfPlanes[i];
    const std::int64_t alpha = h.au * (p.u - c.u) + h.av * (p.v - c.v);
    const std::int64_t beta = h.au * d.u + h.av * d.v;
    if (beta == 0) {
      if (alpha > h.b) return std::nullopt;
      if (alpha == h.b) along = static_cast<Dir>(i);
      continue;
    }
    const Frac bound = Ratio(h.b - alpha, beta);
    if (beta > 0) {
      if (bound < hi) hi = bound;
    } else if (lo < bound) {
      lo = bound;
    }
  }
  if (hi < lo) return std::nullopt;
  return Contact{hex, lo, hi, along};
}

// The corner of `hex` at parameter t along p + t*d, if that point is one.
std::optional<Dir> CornerAt(GridPos hex, Point p, Point d, Frac t) {
  for (Dir dir : map::kAllDirs) {
    const Point k = CornerPoint(hex, dir);
    if ((p.u - k.u) * t.den + d.u * t.num == 0 && (p.v - k.v) * t.den + d.v * t.num == 0) {
      return dir;
    }
  }
  return std::nullopt;
}

void AddUnique(std::vector<Hexside>& v, Hexside h) {
  if (std::find(v.begin(), v.end(), h) == v.end()) v.push_back(h);
}

}  // namespace

std::vector<GridPos> LosTrace::Intervening() const {
  if (hexes.size() <= 2) return {};
  return {hexes.begin() + 1, hexes.end() - 1};
}

LosTrace TraceLos(GridPos from, GridPos to) {
  LosTrace t;
  t.from = from;
  t.to = to;
  t.hexes.push_back(from);
  if (from == to) return t;
  t.hexes.clear();

  const Point p = Center(from);
  const Point q = Center(to);
  const Point d{q.u - p.u, q.v - p.v};

  std::vector<Contact> interior;
  std::vector<std::pair<Frac, Hexside>> along;
  const int c0 = std::min(from.col, to.col) - 1, c1 = std::max(from.col, to.col) + 1;
  const int r0 = std::min(from.row, to.row) - 2, r1 = std::max(from.row, to.row) + 2;
  for (int c = c0; c <= c1; ++c) {
    for (int r = r0; r <= r1; ++r) {
      const auto contact = Intersect({c, r}, p, d);
      if (!contact || !(contact->lo < contact->hi)) continue;  // missed, or touched at a point
      if (contact->along) {
        const Hexside side = Hexside::Of(contact->hex, *contact->along);
        const bool seen = std::any_of(along.begin(), along.end(),
                                      [&](const auto& a) { return a.second == side; });
        if (!seen) along.emplace_back(contact->lo, side);
      } else {
        interior.push_back(*contact);
      }
    }
  }
  std::sort(interior.begin(), interior.end(),
            [](const Contact& a, const Contact& b) { return a.lo < b.lo; });
  std::sort(along.begin(), along.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& a : along) t.along.push_back(a.second);

  auto add_vertex = [&](GridPos hex, Frac at) -> std::optional<Dir> {
    const auto corner = CornerAt(hex, p, d, at);
    if (corner) t.vertices.push_back(HexesAtCorner({hex, *corner}));
    return corner;
  };
  for (std::size_t i = 0; i < interior.size(); ++i) {
    const Contact& cur = interior[i];
    t.hexes.push_back(cur.hex);
    if (i + 1 == interior.size()) break;
    const Contact& next = interior[i + 1];
    if (cur.hi == next.lo) {
      // Straight from one interior into the next: across their hexside, maybe at its end.
      add_vertex(cur.hex, cur.hi);
      if (auto side = Hexside::Between(cur.hex, next.hex)) AddUnique(t.crossed, *side);
    } else {
      // Along a hexside in between, entered and left through vertices.
      add_vertex(cur.hex, cur.hi);
      add_vertex(next.hex, next.lo);
    }
  }

  // How the LOS leaves `from` and enters `to`.
  auto touching = [&](const Contact& end, Frac at, GridPos neighbour) {
    std::vector<Hexside> out;
    if (const auto corner = CornerAt(end.hex, p, d, at)) {
      for (const Hexside& h : HexsidesAtCorner({end.hex, *corner})) out.push_back(h);
    } else if (auto side = Hexside::Between(end.hex, neighbour)) {
      out.push_back(*side);
    }
    return out;
  };
  t.exit = touching(interior.front(), interior.front().hi, interior[1].hex);
  t.entry = touching(interior.back(), interior.back().lo, interior[interior.size() - 2].hex);
  return t;
}

}  // namespace opsim::tactical
