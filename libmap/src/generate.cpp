#include "opsim/map/generate.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "opsim/core/dice.h"
#include "opsim/core/hex.h"

namespace opsim::map {

namespace {

using nlohmann::json;

// The whole theater as one grid of cells before it is cut into sheets.
class Grid {
 public:
  Grid(int cols, int rows) : cols_(cols), rows_(rows), cells_(std::size_t(cols) * rows) {}
  int cols() const { return cols_; }
  int rows() const { return rows_; }
  bool In(GridPos p) const { return p.col >= 0 && p.row >= 0 && p.col < cols_ && p.row < rows_; }
  char& operator[](GridPos p) { return cells_[std::size_t(p.row) * cols_ + p.col]; }
  char operator[](GridPos p) const { return cells_[std::size_t(p.row) * cols_ + p.col]; }

 private:
  int cols_, rows_;
  std::vector<char> cells_;
};

// Smooth noise in [0, 1): random values on a coarse lattice, bilinearly blended.
class Noise {
 public:
  Noise(Dice& dice, int cols, int rows, int step) : step_(step), w_(cols / step + 2) {
    const int h = rows / step + 2;
    values_.resize(std::size_t(w_) * h);
    for (double& v : values_) v = (dice.Next() >> 11) * (1.0 / 9007199254740992.0);
  }
  double At(int col, int row) const {
    const double x = double(col) / step_, y = double(row) / step_;
    const int x0 = int(x), y0 = int(y);
    const double fx = x - x0, fy = y - y0;
    auto v = [&](int i, int j) { return values_[std::size_t(j) * w_ + i]; };
    const double top = v(x0, y0) * (1 - fx) + v(x0 + 1, y0) * fx;
    const double bottom = v(x0, y0 + 1) * (1 - fx) + v(x0 + 1, y0 + 1) * fx;
    return top * (1 - fy) + bottom * fy;
  }

 private:
  int step_, w_;
  std::vector<double> values_;
};

bool Land(char c) {
  return c != '~' && c != '=';
}

// Grid column c is global column c + 1 (sheets start at column 01 and sit at even origins),
// so steps and distances on the grid take the global column's parity.
GridPos Step(GridPos p, Dir d) {
  const GridPos q = Neighbor({p.col + 1, p.row}, d);
  return {q.col - 1, q.row};
}
int Dist(GridPos a, GridPos b) {
  return Distance({a.col + 1, a.row}, {b.col + 1, b.row});
}

std::string SideToken(const std::vector<std::string>& names, const Grid& g, GridPos a, GridPos b) {
  return names[std::size_t(a.row) * g.cols() + a.col] + "/" +
         names[std::size_t(b.row) * g.cols() + b.col];
}

}  // namespace

std::string GenerateTheater(const GenerateOptions& options) {
  Dice dice(options.seed * 0x9E3779B97F4A7C15ULL + 17);
  // Sheet layout: up to 64x64 hexes each, tiled in a near-square block.
  const int n = std::max(100, options.hexes);
  // Even, so that every sheet's origin (a multiple of it) is even.
  const int sheet_side = n >= 4096 ? 64 : std::max(10, int(std::sqrt(double(n))) & ~1);
  const int per_sheet = sheet_side * sheet_side;
  const int sheet_count = (n + per_sheet - 1) / per_sheet;
  const int across = int(std::ceil(std::sqrt(double(sheet_count))));
  const int down = (sheet_count + across - 1) / across;
  // The last row of sheets is trimmed so the total stays close to what was asked.
  const int cols = across * sheet_side;
  const int rows = std::max(sheet_side, (n + cols - 1) / cols);
  Grid g(cols, std::min(rows, down * sheet_side));

  // Terrain from two octaves of noise: the lowest ground is sea, the highest mountain.
  Noise coarse(dice, g.cols(), g.rows(), 16), fine(dice, g.cols(), g.rows(), 5);
  Noise wet(dice, g.cols(), g.rows(), 9);
  std::vector<double> height(std::size_t(g.cols()) * g.rows());
  auto elevation = [&](GridPos p) { return height[std::size_t(p.row) * g.cols() + p.col]; };
  for (int r = 0; r < g.rows(); ++r) {
    for (int c = 0; c < g.cols(); ++c) {
      const double e = 0.7 * coarse.At(c, r) + 0.3 * fine.At(c, r);
      height[std::size_t(r) * g.cols() + c] = e;
      const double m = wet.At(c, r);
      char t = 'c';
      if (e < 0.36) {
        t = '~';
      } else if (e > 0.78) {
        t = 'm';
      } else if (e > 0.68) {
        t = 'r';
      } else if (m > 0.72 && e < 0.45) {
        t = 'k';
      } else if (m > 0.66) {
        t = 's';
      } else if (m < 0.3) {
        t = 'f';
      }
      g[{c, r}] = t;
    }
  }
  // Lakes: small inland clusters.
  const int lakes = std::max(1, g.cols() * g.rows() / 800);
  for (int i = 0; i < lakes; ++i) {
    GridPos p{int(dice.Roll(g.cols())) - 1, int(dice.Roll(g.rows())) - 1};
    if (!Land(g[p])) continue;
    g[p] = '=';
    for (Dir d : kAllDirs) {
      GridPos q = Step(p, d);
      if (g.In(q) && Land(g[q]) && dice.Roll(3) == 1) g[q] = '=';
    }
  }

  // Hex names, sheet by sheet.
  std::vector<std::string> names(std::size_t(g.cols()) * g.rows());
  auto sheet_of = [&](GridPos p) { return (p.row / sheet_side) * across + p.col / sheet_side; };
  auto sheet_name = [&](int s) { return (s + 1 < 10 ? "G0" : "G") + std::to_string(s + 1); };
  for (int r = 0; r < g.rows(); ++r) {
    for (int c = 0; c < g.cols(); ++c) {
      names[std::size_t(r) * g.cols() + c] =
          FormatHexName(sheet_name(sheet_of({c, r})), c % sheet_side + 1, r % sheet_side + 1);
    }
  }
  auto name = [&](GridPos p) { return names[std::size_t(p.row) * g.cols() + p.col]; };

  json doc;
  doc["opsim"] = "scenario";
  doc["version"] = 1;
  doc["name"] = "generated-" + std::to_string(n) + "-" + std::to_string(options.seed);
  doc["title"] = "Generated theater, about " + std::to_string(n) + " hexes, seed " +
                 std::to_string(options.seed);
  doc["notes"] = {"Synthetic: made by `opsim generate` for benchmarks and tests."};

  // Coasts are where land meets all-sea; shores where it meets a lake.
  auto coast_of = [&](GridPos p) {
    if (!Land(g[p])) return '.';
    char out = '.';
    for (Dir d : kAllDirs) {
      GridPos q = Step(p, d);
      if (!g.In(q)) continue;
      if (g[q] == '~') return 's';
      if (g[q] == '=') out = 'l';
    }
    return out;
  };
  json sheets = json::array();
  for (int s = 0; s < across * down; ++s) {
    const int c0 = (s % across) * sheet_side, r0 = (s / across) * sheet_side;
    if (r0 >= g.rows()) continue;
    const int h = std::min(sheet_side, g.rows() - r0);
    json terrain = json::array(), coast = json::array(), zones = json::array();
    for (int r = r0; r < r0 + h; ++r) {
      std::string t, co, z;
      for (int c = c0; c < c0 + sheet_side; ++c) {
        t += g[{c, r}];
        co += coast_of({c, r});
        z += r < g.rows() / 3 ? 'E' : (r < 2 * g.rows() / 3 ? 'C' : 'A');
      }
      terrain.push_back(t);
      coast.push_back(co);
      zones.push_back(z);
    }
    sheets.push_back({{"name", sheet_name(s)},
                      {"size", {sheet_side, sheet_side}},
                      {"origin", {c0, r0}},
                      {"first", {1, 1}},
                      {"terrain", terrain},
                      {"coast", coast},
                      {"zone", "C"},
                      {"zones", zones}});
  }

  // Rivers run downhill along hexsides, corner to corner, from high ground to the sea. Some
  // of the long major rivers are navigable, with an inland port at their head.
  json major = json::array(), minor = json::array(), canal = json::array(), road = json::array(),
       rail = json::array(), all_sea = json::array(), waterways = json::array(),
       places = json::array();
  std::set<std::pair<int, int>> river_sides;
  auto key = [&](GridPos a, GridPos b) {
    int x = a.row * g.cols() + a.col, y = b.row * g.cols() + b.col;
    return std::make_pair(std::min(x, y), std::max(x, y));
  };
  std::set<int> port_hexes;
  const int river_count = std::max(2, g.cols() * g.rows() / 250);
  for (int i = 0; i < river_count; ++i) {
    GridPos a{int(dice.Roll(g.cols())) - 1, int(dice.Roll(g.rows())) - 1};
    const Dir d0 = static_cast<Dir>(dice.Roll(6) - 1);
    GridPos b = Step(a, d0);
    if (!g.In(b) || !Land(g[a]) || !Land(g[b]) || elevation(a) < 0.5) continue;
    // Walk corner to corner: at each corner (three hexes) the river leaves along one of the
    // two hexsides it did not come by, the lower one, and never revisits a corner.
    auto dir_to = [](GridPos x, GridPos y) {
      return *DirectionTo({x.col + 1, x.row}, {y.col + 1, y.row});
    };
    auto third = [&](GridPos x, GridPos y, GridPos not_this) {
      const Dir d = dir_to(x, y);
      const GridPos c = Step(x, Rotate(d, 1));
      return c == not_this ? Step(x, Rotate(d, -1)) : c;
    };
    auto corner_key = [&](GridPos x, GridPos y, GridPos z) {
      std::array<int, 3> k = {x.row * g.cols() + x.col, y.row * g.cols() + y.col,
                              z.row * g.cols() + z.col};
      std::sort(k.begin(), k.end());
      return k;
    };
    std::vector<std::pair<GridPos, GridPos>> line = {{a, b}};
    GridPos c = Step(a, Rotate(d0, 1));
    std::set<std::array<int, 3>> corners = {corner_key(a, b, Step(a, Rotate(d0, -1)))};
    bool reached_sea = false;
    for (int step = 0; step < 48; ++step) {
      if (!g.In(c) || !Land(g[c])) {
        reached_sea = g.In(c) && g[c] == '~';
        break;
      }
      if (!corners.insert(corner_key(a, b, c)).second) break;
      // Leave along a/c or b/c, whichever lies lower and is not a river yet.
      std::pair<GridPos, GridPos> next{};
      double best_e = 1e9;
      for (GridPos e : {a, b}) {
        if (river_sides.count(key(e, c))) continue;
        const double h = (elevation(e) + elevation(c)) / 2 + 0.02 * dice.Roll(3);
        if (h < best_e) best_e = h, next = {e, c};
      }
      if (best_e >= 1e9) break;
      const GridPos behind = next.first == a ? b : a;
      line.push_back(next);
      a = next.first;
      b = next.second;
      c = third(a, b, behind);
      if (!g.In(c)) break;
    }
    if (line.size() < 4) continue;
    const bool is_major = line.size() >= 10 || dice.Roll(3) == 1;
    json tokens = json::array();
    for (auto [x, y] : line) {
      river_sides.insert(key(x, y));
      tokens.push_back(SideToken(names, g, x, y));
      (is_major ? major : minor).push_back(SideToken(names, g, x, y));
    }
    if (is_major && reached_sea && line.size() >= 10 && waterways.size() < 255 &&
        dice.Roll(2) == 1) {
      waterways.push_back({{"name", "River " + std::to_string(waterways.size() + 1)},
                           {"navigable", true},
                           {"hexsides", tokens}});
      // An inland port at the river's head, if that hex is dry.
      for (GridPos head : {line.front().first, line.front().second}) {
        bool dry = Land(g[head]);
        for (Dir d : kAllDirs) {
          const GridPos q = Step(head, d);
          dry = dry && !(g.In(q) && g[q] == '~');
        }
        if (dry && port_hexes.insert(head.row * g.cols() + head.col).second) {
          places.push_back({{"hex", name(head)},
                            {"name", "River port " + std::to_string(waterways.size())},
                            {"city", "dot"},
                            {"port", "minor"},
                            {"inland", true}});
          break;
        }
      }
    }
  }
  // Canals in the canal-intensive lowlands.
  for (int r = 0; r < g.rows(); r += 3) {
    for (int c = 0; c < g.cols(); c += 3) {
      GridPos p{c, r};
      if (g[p] != 'k') continue;
      GridPos q = Step(p, Dir::kS);
      if (g.In(q) && Land(g[q]) && !river_sides.count(key(p, q))) {
        canal.push_back(SideToken(names, g, p, q));
      }
    }
  }

  // Cities on a coarse lattice of land hexes; roads and rail join neighbouring cities.
  std::vector<GridPos> cities;
  const int spacing = 12;
  for (int r = spacing / 2; r < g.rows(); r += spacing) {
    for (int c = spacing / 2; c < g.cols(); c += spacing) {
      GridPos p{c + int(dice.Roll(5)) - 3, r + int(dice.Roll(5)) - 3};
      if (!g.In(p) || !Land(g[p]) || port_hexes.count(p.row * g.cols() + p.col)) continue;
      cities.push_back(p);
      json place = {{"hex", name(p)},
                    {"name", "City " + std::to_string(cities.size())},
                    {"city", dice.Roll(4) == 1 ? "full-hex-major" : "dot"}};
      if (coast_of(p) == 's') place["port"] = dice.Roll(3) == 1 ? "major" : "standard";
      if (dice.Roll(2) == 1) place["airbase"] = true;
      places.push_back(place);
    }
  }
  auto lay_line = [&](GridPos a, GridPos b, json& out) {
    std::string chain = name(a);
    GridPos p = a;
    for (int guard = 0; guard < 64 && !(p == b); ++guard) {
      Dir best = Dir::kN;
      int best_d = 1 << 30;
      for (Dir d : kAllDirs) {
        GridPos q = Step(p, d);
        if (!g.In(q) || !Land(g[q])) continue;
        const int dd = Dist(q, b);
        if (dd < best_d) best_d = dd, best = d;
      }
      if (best_d >= Dist(p, b)) return;  // blocked by water: leave the line where it is
      p = Step(p, best);
      chain += "-" + name(p);
    }
    if (chain.find('-') != std::string::npos) out.push_back(chain);
  };
  // Roads join each city to the next one along its row of the lattice; rail joins every other
  // city to its nearest neighbour in the next row.
  for (std::size_t i = 0; i + 1 < cities.size(); ++i) {
    if (Dist(cities[i], cities[i + 1]) <= spacing + 6) lay_line(cities[i], cities[i + 1], road);
    if (i % 2 != 0) continue;
    std::size_t best = cities.size();
    for (std::size_t j = i + 1; j < cities.size(); ++j) {
      if (cities[j].row <= cities[i].row + spacing / 2) continue;
      if (best == cities.size() || Dist(cities[i], cities[j]) < Dist(cities[i], cities[best])) {
        best = j;
      }
      if (cities[j].row > cities[i].row + 2 * spacing) break;
    }
    if (best < cities.size() && Dist(cities[i], cities[best]) <= spacing + 6) {
      lay_line(cities[i], cities[best], rail);
    }
  }
  // Causeways: a road across an all-sea hexside between two coastal hexes.
  int causeways = 0;
  for (int r = 1; r < g.rows() - 1 && causeways < std::max(1, n / 5000); r += 7) {
    for (int c = 1; c < g.cols() - 1 && causeways < std::max(1, n / 5000); ++c) {
      GridPos p{c, r}, q = Step(p, Dir::kSE);
      if (!g.In(q) || coast_of(p) != 's' || coast_of(q) != 's') continue;
      if (river_sides.count(key(p, q))) continue;
      all_sea.push_back(SideToken(names, g, p, q));
      road.push_back(SideToken(names, g, p, q));
      ++causeways;
      c += 11;
    }
  }
  doc["sheets"] = sheets;
  doc["places"] = places;
  doc["hexsides"] = {{"major-river", major}, {"minor-river", minor}, {"canal", canal},
                     {"road", road},         {"railroad", rail},     {"all-sea", all_sea}};
  doc["waterways"] = waterways;
  doc["state"] = {{"suez", "open"}};
  return doc.dump(1) + "\n";
}

}  // namespace opsim::map
