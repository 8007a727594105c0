#include "opsim/map/generate.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
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

// Sheet layout: up to 64x64 hexes each, tiled in a near-square block.
struct Layout {
  explicit Layout(int hexes)
      : n(std::max(100, hexes)),
        // Even, so that every sheet's origin (a multiple of it) is even.
        sheet_side(n >= 4096 ? 64 : std::max(10, int(std::sqrt(double(n))) & ~1)),
        across(int(std::ceil(std::sqrt(double(SheetCount()))))),
        down((SheetCount() + across - 1) / across) {}
  int SheetCount() const {
    const int per_sheet = sheet_side * sheet_side;
    return (n + per_sheet - 1) / per_sheet;
  }
  // The last row of sheets is trimmed so the total stays close to what was asked.
  int Rows() const {
    return std::min(std::max(sheet_side, (n + Cols() - 1) / Cols()), down * sheet_side);
  }
  int Cols() const { return across * sheet_side; }

  int n;
  int sheet_side;
  int across;
  int down;
};

// One generated theater, built stage by stage. The stages draw from one Dice in a fixed order
// (terrain, lakes, rivers, cities), so a seed always gives the same file.
class Generator {
 public:
  explicit Generator(const GenerateOptions& options)
      : seed_(options.seed),
        dice_(options.seed * 0x9E3779B97F4A7C15ULL + 17),
        l_(options.hexes),
        g_(l_.Cols(), l_.Rows()),
        height_(std::size_t(g_.cols()) * g_.rows()),
        names_(std::size_t(g_.cols()) * g_.rows()) {}

  std::string Run() {
    Terrain();
    Lakes();
    Names();
    json sheets = Sheets();
    Rivers();
    Canals();
    Cities();
    Causeways();
    json doc;
    doc["opsim"] = "scenario";
    doc["version"] = 1;
    doc["name"] = "generated-" + std::to_string(l_.n) + "-" + std::to_string(seed_);
    doc["title"] = "Generated theater, about " + std::to_string(l_.n) + " hexes, seed " +
                   std::to_string(seed_);
    doc["notes"] = {"Synthetic: made by `opsim generate` for benchmarks and tests."};
    doc["sheets"] = sheets;
    doc["places"] = places_;
    doc["hexsides"] = {{"major-river", major_}, {"minor-river", minor_}, {"canal", canal_},
                       {"road", road_},         {"railroad", rail_},     {"all-sea", all_sea_}};
    doc["waterways"] = waterways_;
    doc["state"] = {{"suez", "open"}};
    return doc.dump(1) + "\n";
  }

 private:
  std::size_t Index(GridPos p) const { return std::size_t(p.row) * g_.cols() + p.col; }
  double Elevation(GridPos p) const { return height_[Index(p)]; }
  const std::string& Name(GridPos p) const { return names_[Index(p)]; }
  std::string SheetName(int s) const { return (s + 1 < 10 ? "G0" : "G") + std::to_string(s + 1); }
  std::pair<int, int> Key(GridPos a, GridPos b) const {
    int x = a.row * g_.cols() + a.col, y = b.row * g_.cols() + b.col;
    return std::make_pair(std::min(x, y), std::max(x, y));
  }
  // Coasts are where land meets all-sea; shores where it meets a lake.
  char CoastOf(GridPos p) const {
    if (!Land(g_[p])) return '.';
    char out = '.';
    for (Dir d : kAllDirs) {
      GridPos q = Step(p, d);
      if (!g_.In(q)) continue;
      if (g_[q] == '~') return 's';
      if (g_[q] == '=') out = 'l';
    }
    return out;
  }

  // Terrain from two octaves of noise: the lowest ground is sea, the highest mountain.
  void Terrain() {
    Noise coarse(dice_, g_.cols(), g_.rows(), 16), fine(dice_, g_.cols(), g_.rows(), 5);
    Noise wet(dice_, g_.cols(), g_.rows(), 9);
    for (int r = 0; r < g_.rows(); ++r) {
      for (int c = 0; c < g_.cols(); ++c) {
        const double e = 0.7 * coarse.At(c, r) + 0.3 * fine.At(c, r);
        height_[Index({c, r})] = e;
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
        g_[{c, r}] = t;
      }
    }
  }

  // Lakes: small inland clusters.
  void Lakes() {
    const int lakes = std::max(1, g_.cols() * g_.rows() / 800);
    for (int i = 0; i < lakes; ++i) {
      GridPos p{int(dice_.Roll(g_.cols())) - 1, int(dice_.Roll(g_.rows())) - 1};
      if (!Land(g_[p])) continue;
      g_[p] = '=';
      for (Dir d : kAllDirs) {
        GridPos q = Step(p, d);
        if (g_.In(q) && Land(g_[q]) && dice_.Roll(3) == 1) g_[q] = '=';
      }
    }
  }

  // Hex names, sheet by sheet.
  void Names() {
    for (int r = 0; r < g_.rows(); ++r) {
      for (int c = 0; c < g_.cols(); ++c) {
        const int sheet = (r / l_.sheet_side) * l_.across + c / l_.sheet_side;
        names_[Index({c, r})] =
            FormatHexName(SheetName(sheet), c % l_.sheet_side + 1, r % l_.sheet_side + 1);
      }
    }
  }

  json Sheets() const {
    json sheets = json::array();
    for (int s = 0; s < l_.across * l_.down; ++s) {
      const int c0 = (s % l_.across) * l_.sheet_side, r0 = (s / l_.across) * l_.sheet_side;
      if (r0 >= g_.rows()) continue;
      const int h = std::min(l_.sheet_side, g_.rows() - r0);
      json terrain = json::array(), coast = json::array(), zones = json::array();
      for (int r = r0; r < r0 + h; ++r) {
        std::string t, co, z;
        for (int c = c0; c < c0 + l_.sheet_side; ++c) {
          t += g_[{c, r}];
          co += CoastOf({c, r});
          z += r < g_.rows() / 3 ? 'E' : (r < 2 * g_.rows() / 3 ? 'C' : 'A');
        }
        terrain.push_back(t);
        coast.push_back(co);
        zones.push_back(z);
      }
      sheets.push_back({{"name", SheetName(s)},
                        {"size", {l_.sheet_side, l_.sheet_side}},
                        {"origin", {c0, r0}},
                        {"first", {1, 1}},
                        {"terrain", terrain},
                        {"coast", coast},
                        {"zone", "C"},
                        {"zones", zones}});
    }
    return sheets;
  }

  // Rivers run downhill along hexsides, corner to corner, from high ground to the sea. Some
  // of the long major rivers are navigable, with an inland port at their head.
  void Rivers() {
    const int river_count = std::max(2, g_.cols() * g_.rows() / 250);
    for (int i = 0; i < river_count; ++i) {
      GridPos a{int(dice_.Roll(g_.cols())) - 1, int(dice_.Roll(g_.rows())) - 1};
      const Dir d0 = static_cast<Dir>(dice_.Roll(6) - 1);
      GridPos b = Step(a, d0);
      if (!g_.In(b) || !Land(g_[a]) || !Land(g_[b]) || Elevation(a) < 0.5) continue;
      std::vector<std::pair<GridPos, GridPos>> line;
      const bool reached_sea = RiverLine(a, b, d0, line);
      if (line.size() < 4) continue;
      const bool is_major = line.size() >= 10 || dice_.Roll(3) == 1;
      json tokens = json::array();
      for (auto [x, y] : line) {
        river_sides_.insert(Key(x, y));
        tokens.push_back(SideToken(names_, g_, x, y));
        (is_major ? major_ : minor_).push_back(SideToken(names_, g_, x, y));
      }
      if (is_major && reached_sea && line.size() >= 10 && waterways_.size() < 255 &&
          dice_.Roll(2) == 1) {
        waterways_.push_back({{"name", "River " + std::to_string(waterways_.size() + 1)},
                              {"navigable", true},
                              {"hexsides", tokens}});
        RiverPort(line.front());
      }
    }
  }

  // Walks a river from hexside a/b (b = a's d0 neighbour) corner to corner: at each corner
  // (three hexes) it leaves along one of the two hexsides it did not come by, the lower one, and
  // never revisits a corner. Fills `line`; true if it reached the sea.
  bool RiverLine(GridPos a, GridPos b, Dir d0, std::vector<std::pair<GridPos, GridPos>>& line) {
    auto dir_to = [](GridPos x, GridPos y) {
      return *DirectionTo({x.col + 1, x.row}, {y.col + 1, y.row});
    };
    auto third = [&](GridPos x, GridPos y, GridPos not_this) {
      const Dir d = dir_to(x, y);
      const GridPos c = Step(x, Rotate(d, 1));
      return c == not_this ? Step(x, Rotate(d, -1)) : c;
    };
    auto corner_key = [&](GridPos x, GridPos y, GridPos z) {
      std::array<int, 3> k = {x.row * g_.cols() + x.col, y.row * g_.cols() + y.col,
                              z.row * g_.cols() + z.col};
      std::sort(k.begin(), k.end());
      return k;
    };
    line = {{a, b}};
    GridPos c = Step(a, Rotate(d0, 1));
    std::set<std::array<int, 3>> corners = {corner_key(a, b, Step(a, Rotate(d0, -1)))};
    for (int step = 0; step < 48; ++step) {
      if (!g_.In(c) || !Land(g_[c])) return g_.In(c) && g_[c] == '~';
      if (!corners.insert(corner_key(a, b, c)).second) break;
      // Leave along a/c or b/c, whichever lies lower and is not a river yet.
      std::pair<GridPos, GridPos> next{};
      double best_e = 1e9;
      for (GridPos e : {a, b}) {
        if (river_sides_.count(Key(e, c))) continue;
        const double h = (Elevation(e) + Elevation(c)) / 2 + 0.02 * dice_.Roll(3);
        if (h < best_e) best_e = h, next = {e, c};
      }
      if (best_e >= 1e9) break;
      const GridPos behind = next.first == a ? b : a;
      line.push_back(next);
      a = next.first;
      b = next.second;
      c = third(a, b, behind);
      if (!g_.In(c)) break;
    }
    return false;
  }

  // An inland port at a navigable river's head, if one of its hexes is dry.
  void RiverPort(std::pair<GridPos, GridPos> head_side) {
    for (GridPos head : {head_side.first, head_side.second}) {
      bool dry = Land(g_[head]);
      for (Dir d : kAllDirs) {
        const GridPos q = Step(head, d);
        dry = dry && !(g_.In(q) && g_[q] == '~');
      }
      if (dry && port_hexes_.insert(head.row * g_.cols() + head.col).second) {
        places_.push_back({{"hex", Name(head)},
                           {"name", "River port " + std::to_string(waterways_.size())},
                           {"city", "dot"},
                           {"port", "minor"},
                           {"inland", true}});
        return;
      }
    }
  }

  // Canals in the canal-intensive lowlands.
  void Canals() {
    for (int r = 0; r < g_.rows(); r += 3) {
      for (int c = 0; c < g_.cols(); c += 3) {
        GridPos p{c, r};
        if (g_[p] != 'k') continue;
        GridPos q = Step(p, Dir::kS);
        if (g_.In(q) && Land(g_[q]) && !river_sides_.count(Key(p, q))) {
          canal_.push_back(SideToken(names_, g_, p, q));
        }
      }
    }
  }

  // Cities on a coarse lattice of land hexes; roads and rail join neighbouring cities.
  void Cities() {
    std::vector<GridPos> cities;
    for (int r = kSpacing / 2; r < g_.rows(); r += kSpacing) {
      for (int c = kSpacing / 2; c < g_.cols(); c += kSpacing) {
        GridPos p{c + int(dice_.Roll(5)) - 3, r + int(dice_.Roll(5)) - 3};
        if (!g_.In(p) || !Land(g_[p]) || port_hexes_.count(p.row * g_.cols() + p.col)) continue;
        cities.push_back(p);
        json place = {{"hex", Name(p)},
                      {"name", "City " + std::to_string(cities.size())},
                      {"city", dice_.Roll(4) == 1 ? "full-hex-major" : "dot"}};
        if (CoastOf(p) == 's') place["port"] = dice_.Roll(3) == 1 ? "major" : "standard";
        if (dice_.Roll(2) == 1) place["airbase"] = true;
        places_.push_back(place);
      }
    }
    // Roads join each city to the next one along its row of the lattice; rail joins every
    // other city to its nearest neighbour in the next row.
    for (std::size_t i = 0; i + 1 < cities.size(); ++i) {
      if (Dist(cities[i], cities[i + 1]) <= kSpacing + 6) {
        LayLine(cities[i], cities[i + 1], road_);
      }
      if (i % 2 != 0) continue;
      std::size_t best = cities.size();
      for (std::size_t j = i + 1; j < cities.size(); ++j) {
        if (cities[j].row <= cities[i].row + kSpacing / 2) continue;
        if (best == cities.size() || Dist(cities[i], cities[j]) < Dist(cities[i], cities[best])) {
          best = j;
        }
        if (cities[j].row > cities[i].row + 2 * kSpacing) break;
      }
      if (best < cities.size() && Dist(cities[i], cities[best]) <= kSpacing + 6) {
        LayLine(cities[i], cities[best], rail_);
      }
    }
  }

  // A chain of hexes from a towards b over land, added to `out` unless it could not leave a.
  void LayLine(GridPos a, GridPos b, json& out) const {
    std::string chain = Name(a);
    GridPos p = a;
    for (int guard = 0; guard < 64 && !(p == b); ++guard) {
      Dir best = Dir::kN;
      int best_d = 1 << 30;
      for (Dir d : kAllDirs) {
        GridPos q = Step(p, d);
        if (!g_.In(q) || !Land(g_[q])) continue;
        const int dd = Dist(q, b);
        if (dd < best_d) best_d = dd, best = d;
      }
      if (best_d >= Dist(p, b)) return;  // blocked by water: leave the line where it is
      p = Step(p, best);
      chain += "-" + Name(p);
    }
    if (chain.find('-') != std::string::npos) out.push_back(chain);
  }

  // Causeways: a road across an all-sea hexside between two coastal hexes.
  void Causeways() {
    int causeways = 0;
    const int most = std::max(1, l_.n / 5000);
    for (int r = 1; r < g_.rows() - 1 && causeways < most; r += 7) {
      for (int c = 1; c < g_.cols() - 1 && causeways < most; ++c) {
        GridPos p{c, r}, q = Step(p, Dir::kSE);
        if (!g_.In(q) || CoastOf(p) != 's' || CoastOf(q) != 's') continue;
        if (river_sides_.count(Key(p, q))) continue;
        all_sea_.push_back(SideToken(names_, g_, p, q));
        road_.push_back(SideToken(names_, g_, p, q));
        ++causeways;
        c += 11;
      }
    }
  }

  static constexpr int kSpacing = 12;  // between the cities' lattice points

  std::uint64_t seed_;
  Dice dice_;
  Layout l_;
  Grid g_;
  std::vector<double> height_;
  std::vector<std::string> names_;
  std::set<std::pair<int, int>> river_sides_;
  std::set<int> port_hexes_;
  json major_ = json::array(), minor_ = json::array(), canal_ = json::array(),
       road_ = json::array(), rail_ = json::array(), all_sea_ = json::array(),
       waterways_ = json::array(), places_ = json::array();
};

}  // namespace

std::string GenerateTheater(const GenerateOptions& options) {
  return Generator(options).Run();
}

}  // namespace opsim::map
