#include "render.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "opsim/core/echo.h"
#include "opsim/query/view.h"

namespace opsim::cli {

namespace {

constexpr double kSize = 14.0;  // hex radius in SVG units
constexpr double kLegendWidth = 600, kLegendHeight = 150;
const double kRoot3 = std::sqrt(3.0);

struct Point {
  double x, y;
};

// Hex centres on the global grid: flat-topped, even columns half a hex lower.
Point Center(map::GridPos p) {
  return {p.col * 1.5 * kSize,
          p.row * kRoot3 * kSize + ((p.col & 1) == 0 ? kRoot3 / 2 * kSize : 0)};
}

// Corner k (0 = east, counter-clockwise in math terms, clockwise on screen from east).
Point Corner(Point c, int k) {
  const double a = M_PI / 3 * k;
  return {c.x + kSize * std::cos(a), c.y + kSize * std::sin(a)};
}

// The two corners bounding the hexside in direction d.
std::pair<Point, Point> SideCorners(Point c, map::Dir d) {
  // Screen corners: 0 E, 1 SE-low, 2 SW-low, 3 W, 4 NW-up, 5 NE-up.
  static constexpr int kFirst[map::kDirCount] = {4, 5, 0, 1, 2, 3};  // N NE SE S SW NW
  const int k = kFirst[static_cast<int>(d)];
  return {Corner(c, k), Corner(c, (k + 1) % 6)};
}

// A hex's six corners, as a polygon's points.
void HexPoints(std::ostringstream& svg, Point c) {
  for (int k = 0; k < 6; ++k) {
    Point q = Corner(c, k);
    svg << q.x << "," << q.y << (k < 5 ? " " : "");
  }
}

const char* TerrainColor(map::Terrain t) {
  switch (t) {
    case map::Terrain::kClear:
      return "#e8e0b0";
    case map::Terrain::kRough:
      return "#c8a878";
    case map::Terrain::kForest:
      return "#8fbf7f";
    case map::Terrain::kSwamp:
      return "#9fc8b8";
    case map::Terrain::kMountain:
      return "#a08060";
    case map::Terrain::kCanalIntensive:
      return "#d8e8a0";
    case map::Terrain::kProhibited:
      return "#707070";
    case map::Terrain::kAllSea:
      return "#6fa8dc";
    case map::Terrain::kLake:
      return "#9fc5e8";
  }
  return "#ffffff";
}

std::string Escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Where each drawn hex goes. Sheets that touch on the global grid form one panel
// (query::SheetPanels, as the browser gets them); panels are stacked top to bottom.
class Layout {
 public:
  static Result<Layout> Make(const map::Theater& t, const std::string& sheet);

  bool drawn(map::HexRef h) const {
    const std::size_t s = t_->hex(h).sheet;
    return sheet_.empty() ? std::find(roots_.begin(), roots_.end(), root_[s]) != roots_.end()
                          : t_->sheets()[s].name == sheet_;
  }
  std::size_t root(map::HexRef h) const { return root_[t_->hex(h).sheet]; }
  Point at(map::HexRef h) const {
    const Panel& p = *std::find_if(panels_.begin(), panels_.end(),
                                   [&](const Panel& q) { return q.root == root(h); });
    Point c = Center(t_->Pos(h));
    return Point{c.x - p.x0, c.y + p.offset_y};
  }
  // The header, the patterns the drawing uses, and each panel's title.
  void DrawFrame(std::ostringstream& svg) const;
  // Where the legend starts, below the panels.
  double legend_y() const { return height_; }

 private:
  struct Panel {
    std::size_t root;
    double x0, y0, x1, y1, offset_y;
  };
  bool Shown(std::size_t sheet) const {
    return sheet_.empty() || t_->sheets()[sheet].name == sheet_;
  }

  const map::Theater* t_ = nullptr;
  std::string sheet_;
  std::vector<std::size_t> root_;   // by sheet: its panel
  std::vector<std::size_t> roots_;  // the groups drawn, in sheet order
  std::vector<Panel> panels_;
  double width_ = 0, height_ = 0;
};

Result<Layout> Layout::Make(const map::Theater& t, const std::string& sheet) {
  Layout l;
  l.t_ = &t;
  l.sheet_ = sheet;
  const auto& sheets = t.sheets();
  l.root_ = query::SheetPanels(t);
  bool sheet_found = sheet.empty();
  for (std::size_t i = 0; i < sheets.size(); ++i) {
    if (!l.Shown(i)) continue;
    sheet_found = true;
    if (std::find(l.roots_.begin(), l.roots_.end(), l.root_[i]) == l.roots_.end()) {
      l.roots_.push_back(l.root_[i]);
    }
  }
  if (!sheet_found) {
    return Fail(ErrorCode::kNotFound, "no sheet '" + EchoToken(sheet) + "' on this theater",
                EchoToken(sheet));
  }
  for (std::size_t root : l.roots_) {
    Panel p{root, 1e18, 1e18, -1e18, -1e18, 0};
    for (std::size_t i = 0; i < sheets.size(); ++i) {
      if (l.root_[i] != root || !l.Shown(i)) continue;
      auto w = query::SheetWindow(sheets[i]);
      Point a = Center({w[0], w[1]});
      Point b = Center({w[2], w[3]});
      p.x0 = std::min(p.x0, a.x - 2 * kSize);
      p.y0 = std::min(p.y0, a.y - 2 * kSize);
      p.x1 = std::max(p.x1, b.x + 2 * kSize);
      p.y1 = std::max(p.y1, b.y + 2 * kSize);
    }
    p.offset_y = l.height_ + 24 - p.y0;
    l.height_ += (p.y1 - p.y0) + 40;
    l.width_ = std::max(l.width_, p.x1 - p.x0);
    l.panels_.push_back(p);
  }
  return l;
}

void Layout::DrawFrame(std::ostringstream& svg) const {
  const double width = std::max(width_, kLegendWidth), y = height_ + kLegendHeight;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << y
      << "\" viewBox=\"0 0 " << width << " " << y << "\" font-family=\"sans-serif\">\n";
  svg << "<title>" << Escape(t_->title()) << "</title>\n<rect width=\"100%\" height=\"100%\" "
      << "fill=\"#fafafa\"/>\n";
  // Ownership is hatched, one slant per side, so that it reads without colour.
  svg << "<defs><pattern id=\"own-axis\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" "
      << "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"4\" "
      << "stroke=\"#404040\" stroke-width=\"0.8\"/></pattern><pattern id=\"own-allied\" "
      << "width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" "
      << "patternTransform=\"rotate(-45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"4\" "
      << "stroke=\"#a61c00\" stroke-width=\"0.8\"/></pattern></defs>\n";
  for (const Panel& p : panels_) {
    std::string names;
    for (std::size_t i = 0; i < t_->sheets().size(); ++i) {
      if (root_[i] == p.root && Shown(i)) {
        names += (names.empty() ? "sheet " : " + ") + t_->sheets()[i].name;
      }
    }
    svg << "<text x=\"4\" y=\"" << p.offset_y + p.y0 - 8 << "\" font-size=\"14\" "
        << "font-weight=\"bold\">" << Escape(names) << "</text>\n";
  }
}

void DrawHexes(std::ostringstream& svg, const map::Theater& t, const map::MapState& state,
               const Layout& layout) {
  // Hexes: terrain, then the water of coastal hexes as wedges toward their water hexsides.
  svg << "<g stroke=\"#999\" stroke-width=\"0.5\">\n";
  for (std::uint32_t v = 0; v < t.hex_count(); ++v) {
    const map::HexRef h{v};
    if (!layout.drawn(h)) continue;
    const map::HexInfo& info = t.hex(h);
    const Point c = layout.at(h);
    svg << "<polygon points=\"";
    HexPoints(svg, c);
    svg << "\" fill=\"" << TerrainColor(info.terrain) << "\"/>\n";
    if (const Owner o = state.owner(h); o != Owner::kNone) {
      svg << "<polygon class=\"own " << OwnerName(o) << "\" points=\"";
      HexPoints(svg, c);
      svg << "\" fill=\"url(#own-" << OwnerName(o) << ")\" fill-opacity=\"0.5\"/>\n";
    }
    if (info.coast != map::Coast::kNone) {
      const bool sea = info.coast == map::Coast::kPartialSea;
      for (map::Dir d : map::kAllDirs) {
        const map::HexsideRef s = t.HexsideAt(h, d);
        if (!s.valid()) continue;
        const map::HexsideWater w = t.hexside(s).water;
        if (sea ? !map::IsSea(w) : w != map::HexsideWater::kLake) continue;
        auto [a, b] = SideCorners(c, d);
        svg << "<polygon points=\"" << c.x * 0.35 + (a.x + b.x) / 2 * 0.65 << ","
            << c.y * 0.35 + (a.y + b.y) / 2 * 0.65 << " " << a.x << "," << a.y << " " << b.x << ","
            << b.y << "\" fill=\"" << (sea ? "#6fa8dc" : "#9fc5e8") << "\" stroke=\"none\"/>\n";
      }
    }
    if (state.flood(h)) {
      svg << "<circle class=\"flood\" cx=\"" << c.x << "\" cy=\"" << c.y << "\" r=\"" << kSize * 0.8
          << "\" fill=\"#3c78d8\" fill-opacity=\"0.35\" stroke=\"none\"/>\n";
    }
  }
  svg << "</g>\n";
}

void DrawHexsides(std::ostringstream& svg, const map::Theater& t, const Layout& layout) {
  // Hexsides: water, rivers, canals, waterways; then roads, rail, causeways and ferries.
  svg << "<g fill=\"none\" stroke-linecap=\"round\">\n";
  for (std::uint32_t i = 0; i < t.hexside_count(); ++i) {
    const map::HexsideInfo& s = t.hexside(map::HexsideRef{i});
    if (!layout.drawn(s.a) || !layout.drawn(s.b) || layout.root(s.a) != layout.root(s.b)) continue;
    const Point ca = layout.at(s.a);
    const Point cb = layout.at(s.b);
    auto [p, q] = SideCorners(ca, s.dir_from_a);
    auto side_line = [&](const char* color, double w, const char* dash) {
      svg << "<line x1=\"" << p.x << "\" y1=\"" << p.y << "\" x2=\"" << q.x << "\" y2=\"" << q.y
          << "\" stroke=\"" << color << "\" stroke-width=\"" << w << "\""
          << (*dash ? std::string(" stroke-dasharray=\"") + dash + "\"" : "") << "/>\n";
    };
    auto cross_line = [&](const char* color, double w, const char* dash) {
      svg << "<line x1=\"" << ca.x << "\" y1=\"" << ca.y << "\" x2=\"" << cb.x << "\" y2=\"" << cb.y
          << "\" stroke=\"" << color << "\" stroke-width=\"" << w << "\""
          << (*dash ? std::string(" stroke-dasharray=\"") + dash + "\"" : "") << "/>\n";
    };
    const map::Waterway* way = t.WaterwayOf(map::HexsideRef{i});
    if (way && way->navigable) side_line("#00a0a0", 5, "");
    if (s.water == map::HexsideWater::kAllSea && !t.hex(s.a).IsWater() && !t.hex(s.b).IsWater()) {
      side_line("#1c4587", 2.5, "");
    }
    if (s.Has(map::kMajorRiver)) side_line("#1f5fbf", 3, "");
    if (s.Has(map::kMinorRiver)) side_line("#3d85c6", 1.5, "");
    if (s.Has(map::kCanal)) side_line("#20b0d0", 2, "4 2");
    if (s.Has(map::kBorder)) side_line("#cc0000", 1, "2 2");
    if (s.Has(map::kRoad)) cross_line("#b45f06", 1.5, "");
    if (s.Has(map::kRailroad)) cross_line("#202020", 1.2, "3 2");
    if (s.Has(map::kCauseway)) cross_line("#cc0000", 3, "");
    if (s.Has(map::kRailFerry)) cross_line("#9900cc", 2, "5 3");
  }
  svg << "</g>\n";
}

void DrawLabels(std::ostringstream& svg, const map::Theater& t, const map::MapState& state,
                const Layout& layout) {
  // Places and hex numbers.
  svg << "<g font-size=\"5\" text-anchor=\"middle\">\n";
  for (std::uint32_t v = 0; v < t.hex_count(); ++v) {
    const map::HexRef h{v};
    if (!layout.drawn(h)) continue;
    const map::HexInfo& info = t.hex(h);
    const Point c = layout.at(h);
    char num[8];
    std::snprintf(num, sizeof num, "%02d%02d", info.col, info.row);
    svg << "<text x=\"" << c.x << "\" y=\"" << c.y - kSize * 0.55 << "\" fill=\"#555\">" << num
        << "</text>\n";
    if (info.city == map::CityKind::kDot) {
      svg << "<circle cx=\"" << c.x << "\" cy=\"" << c.y << "\" r=\"2.5\" fill=\"#000\"/>\n";
    } else if (info.city != map::CityKind::kNone) {
      svg << "<rect x=\"" << c.x - 4 << "\" y=\"" << c.y - 4 << "\" width=\"8\" height=\"8\" "
          << "fill=\"" << (info.city == map::CityKind::kFullMajor ? "#000" : "#666") << "\"/>\n";
    }
    if (info.port != map::PortSize::kNone) {
      svg << "<text x=\"" << c.x + 7 << "\" y=\"" << c.y + 2 << "\" font-size=\"7\" "
          << "fill=\"#0b5394\">" << (info.inland_port ? "i" : "") << "P</text>\n";
    }
    if (info.airbase) {
      svg << "<text x=\"" << c.x - 7 << "\" y=\"" << c.y + 2 << "\" font-size=\"7\" "
          << "fill=\"#444\">A</text>\n";
    }
    if (state.ice_airfield(h)) {
      svg << "<text class=\"ice-airfield\" x=\"" << c.x << "\" y=\"" << c.y + 9
          << "\" font-size=\"6\" "
          << "fill=\"#0b5394\">ice AF</text>\n";
    }
    if (auto name = t.PlaceName(h); !name.empty()) {
      svg << "<text x=\"" << c.x << "\" y=\"" << c.y + kSize * 0.75 << "\" font-size=\"6\">"
          << Escape(name) << "</text>\n";
    }
  }
  svg << "</g>\n";
}

const char* KindName(UnitKind k) {
  switch (k) {
    case UnitKind::kGround:
      return "ground";
    case UnitKind::kAir:
      return "air";
    case UnitKind::kNaval:
      return "naval";
  }
  return "ground";
}

void DrawCounter(std::ostringstream& svg, const RenderUnit& u, double x, double y) {
  // Side and kind are classes for styling, and text on the face for readers of a print.
  const bool axis = u.side == Side::kAxis;
  svg << "<g class=\"counter " << KindName(u.kind) << " " << (axis ? "axis" : "allied")
      << "\" data-unit=\"" << Escape(u.label) << "\"><title>" << Escape(u.name) << " ("
      << (axis ? "Axis" : "Allied") << " " << KindName(u.kind) << ")</title>\n<rect x=\"" << x
      << "\" y=\"" << y << "\" width=\"20\" height=\"11\" rx=\""
      << (u.kind == UnitKind::kGround ? 0 : 3) << "\" fill=\"" << (axis ? "#9e9e9e" : "#e6b8af")
      << "\" stroke=\"#000\" stroke-width=\"0.4\"/>\n<text x=\"" << x + 10 << "\" y=\"" << y + 4.5
      << "\" font-size=\"4\" text-anchor=\"middle\">" << Escape(u.label) << "</text>\n<text x=\""
      << x + 10 << "\" y=\"" << y + 9.5 << "\" font-size=\"3.5\" text-anchor=\"middle\">"
      << (axis ? "Ax " : "Al ") << Escape(u.strength) << "</text></g>\n";
}

void DrawUnits(std::ostringstream& svg, const Layout& layout,
               const std::vector<RenderUnit>& units) {
  // A stack is one counter (its top unit) with the count on it, and beside it a list of every
  // unit in it, so that no counter hides another.
  std::map<std::uint32_t, std::vector<const RenderUnit*>> stacks;
  for (const RenderUnit& u : units) {
    if (layout.drawn(u.hex)) stacks[u.hex.v].push_back(&u);
  }
  svg << "<g class=\"units\">\n";
  for (const auto& [v, stack] : stacks) {
    const Point c = layout.at(map::HexRef{v});
    const double x = c.x - 10, y = c.y - 6;
    DrawCounter(svg, *stack.front(), x, y);
    if (stack.size() == 1) continue;
    svg << "<g class=\"stack\" data-count=\"" << stack.size() << "\"><circle cx=\"" << x + 20
        << "\" cy=\"" << y << "\" r=\"3\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"0.4\"/>"
        << "<text x=\"" << x + 20 << "\" y=\"" << y + 1.3
        << "\" font-size=\"4\" text-anchor=\"middle\">" << stack.size() << "</text>\n"
        << "<rect x=\"" << x + 24 << "\" y=\"" << y - 3 << "\" width=\"34\" height=\""
        << 4.5 * static_cast<double>(stack.size()) + 1
        << "\" fill=\"#fff\" fill-opacity=\"0.9\" stroke=\"#000\" stroke-width=\"0.3\"/>\n";
    for (std::size_t i = 0; i < stack.size(); ++i) {
      const RenderUnit& u = *stack[i];
      svg << "<text class=\"stack-entry\" data-unit=\"" << Escape(u.label) << "\" x=\"" << x + 25
          << "\" y=\"" << y + 0.8 + 4.5 * static_cast<double>(i) << "\" font-size=\"3.5\">"
          << (u.side == Side::kAxis ? "Ax " : "Al ") << Escape(u.label) << " " << Escape(u.strength)
          << "</text>\n";
    }
    svg << "</g>\n";
  }
  svg << "</g>\n";
}

void DrawMarkers(std::ostringstream& svg, const map::Theater& t, const map::MapState& state,
                 const Layout& layout) {
  // Destroyed bridges (B14) as a cross on their hexside; the Suez Canal's status (41.B) in words
  // on each of its hexsides when it is not open.
  svg << "<g fill=\"none\">\n";
  auto cross = [&](map::HexsideRef s, const char* cls, const std::string& words) {
    const map::HexsideInfo& info = t.hexside(s);
    if (!layout.drawn(info.a)) return;
    auto [a, b] = SideCorners(layout.at(info.a), info.dir_from_a);
    const Point m{(a.x + b.x) / 2, (a.y + b.y) / 2};
    svg << "<g class=\"" << cls << "\" data-hexside=\"" << t.HexsideName(s) << "\"><path d=\"M"
        << m.x - 3 << "," << m.y - 3 << "L" << m.x + 3 << "," << m.y + 3 << "M" << m.x - 3 << ","
        << m.y + 3 << "L" << m.x + 3 << "," << m.y - 3
        << "\" stroke=\"#cc0000\" stroke-width=\"1.5\"/><text x=\"" << m.x << "\" y=\"" << m.y - 4
        << "\" font-size=\"3.5\" text-anchor=\"middle\" fill=\"#cc0000\">" << words
        << "</text></g>\n";
  };
  for (std::uint32_t s : state.destroyed_bridges())
    cross(map::HexsideRef{s}, "bridge-destroyed", "bridge out");
  if (state.suez() != map::CanalStatus::kOpen) {
    for (const map::Waterway& w : t.waterways()) {
      if (w.rule != map::WaterwayRule::kSuez) continue;
      for (map::HexsideRef s : w.hexsides) {
        cross(s, "suez-closed", std::string("Suez ") + map::CanalStatusName(state.suez()));
      }
    }
  }
  svg << "</g>\n";
}

void DrawOverlays(std::ostringstream& svg, const map::Theater& t, const Layout& layout,
                  const RenderRequest& req) {
  // Zones of control as a dashed outline, supply as a ring with its status in words.
  svg << "<g class=\"overlays\" fill=\"none\">\n";
  for (std::uint32_t v = 0; v < req.zoc.size(); ++v) {
    if (!req.zoc[v] || !layout.drawn(map::HexRef{v})) continue;
    svg << "<polygon class=\"zoc " << req.zoc_side << "\" data-hex=\"" << t.HexName(map::HexRef{v})
        << "\" points=\"";
    HexPoints(svg, layout.at(map::HexRef{v}));
    svg << "\" stroke=\"#7f00ff\" stroke-width=\"1\" stroke-dasharray=\"2 1.5\"/>\n";
  }
  for (const auto& [hex, status] : req.supply) {
    if (!layout.drawn(hex)) continue;
    const Point c = layout.at(hex);
    const bool ok = status == "supplied";
    svg << "<g class=\"supply " << req.supply_side << " " << status << "\" data-hex=\""
        << t.HexName(hex) << "\"><circle cx=\"" << c.x << "\" cy=\"" << c.y << "\" r=\""
        << kSize * 0.9 << "\" stroke=\"" << (ok ? "#38761d" : "#cc0000")
        << "\" stroke-width=\"1.2\"/>";
    if (!ok) {
      svg << "<text x=\"" << c.x << "\" y=\"" << c.y + 10 << "\" font-size=\"4\" "
          << "text-anchor=\"middle\" fill=\"#cc0000\">" << status << "</text>";
    }
    svg << "</g>\n";
  }
  svg << "</g>\n";
}

void DrawLegend(std::ostringstream& svg, const Layout& layout) {
  // Every symbol the drawing uses, each a sample beside its words, in columns.
  struct Entry {
    std::string key, text, sample;  // the sample is drawn in a 12x8 box at (0,0)
  };
  auto fill = [](const char* color, const char* extra = "") {
    return std::string("<rect width=\"12\" height=\"8\" fill=\"") + color +
           "\" stroke=\"#999\" stroke-width=\"0.5\"" + extra + "/>";
  };
  auto line = [](const char* color, double w, const char* dash) {
    std::ostringstream l;
    l << "<line x1=\"0\" y1=\"4\" x2=\"12\" y2=\"4\" stroke=\"" << color << "\" stroke-width=\""
      << w << "\"" << (*dash ? std::string(" stroke-dasharray=\"") + dash + "\"" : "") << "/>";
    return l.str();
  };
  auto glyph = [](const char* text, const char* color) {
    return std::string("<text x=\"6\" y=\"6.5\" font-size=\"7\" text-anchor=\"middle\" fill=\"") +
           color + "\">" + text + "</text>";
  };
  auto counter = [](const char* color, int rx, const char* text) {
    return std::string("<rect width=\"12\" height=\"8\" rx=\"") + std::to_string(rx) +
           "\" fill=\"" + color + "\" stroke=\"#000\" stroke-width=\"0.4\"/><text x=\"6\" " +
           "y=\"5.5\" font-size=\"3.5\" text-anchor=\"middle\">" + text + "</text>";
  };
  std::vector<Entry> entries;
  for (map::Terrain t :
       {map::Terrain::kClear, map::Terrain::kRough, map::Terrain::kForest, map::Terrain::kSwamp,
        map::Terrain::kMountain, map::Terrain::kCanalIntensive, map::Terrain::kProhibited,
        map::Terrain::kAllSea, map::Terrain::kLake}) {
    entries.push_back({std::string("terrain-") + map::TerrainName(t), map::TerrainName(t),
                       fill(TerrainColor(t))});
  }
  entries.push_back({"own-axis", "Axis-owned (hatched /)", fill("url(#own-axis)")});
  entries.push_back({"own-allied", "Allied-owned (hatched \\)", fill("url(#own-allied)")});
  entries.push_back({"flood", "flooded",
                     "<circle cx=\"6\" cy=\"4\" r=\"4\" fill=\"#3c78d8\" fill-opacity=\"0.35\"/>"});
  entries.push_back({"ice-airfield", "ice airfield", glyph("ice", "#0b5394")});
  entries.push_back(
      {"city-dot", "dot city", "<circle cx=\"6\" cy=\"4\" r=\"2.5\" fill=\"#000\"/>"});
  entries.push_back({"city", "city (black: full major)",
                     "<rect x=\"2\" y=\"0\" width=\"8\" height=\"8\" fill=\"#666\"/>"});
  entries.push_back({"port", "port (iP: inland)", glyph("P", "#0b5394")});
  entries.push_back({"airbase", "airbase", glyph("A", "#444")});
  entries.push_back({"waterway", "navigable waterway", line("#00a0a0", 5, "")});
  entries.push_back({"sea-hexside", "all-sea hexside", line("#1c4587", 2.5, "")});
  entries.push_back({"major-river", "major river", line("#1f5fbf", 3, "")});
  entries.push_back({"minor-river", "minor river", line("#3d85c6", 1.5, "")});
  entries.push_back({"canal", "canal", line("#20b0d0", 2, "4 2")});
  entries.push_back({"border", "border", line("#cc0000", 1, "2 2")});
  entries.push_back({"road", "road", line("#b45f06", 1.5, "")});
  entries.push_back({"railroad", "railroad", line("#202020", 1.2, "3 2")});
  entries.push_back({"causeway", "causeway", line("#cc0000", 3, "")});
  entries.push_back({"rail-ferry", "rail ferry", line("#9900cc", 2, "5 3")});
  entries.push_back({"route", "route", line("#e00000", 2.5, "")});
  entries.push_back({"bridge-destroyed", "bridge destroyed; Suez closed",
                     "<path d=\"M3,1L9,7M3,7L9,1\" stroke=\"#cc0000\" stroke-width=\"1.5\"/>"});
  entries.push_back({"zoc", "zone of control (--zoc)", line("#7f00ff", 1, "2 1.5")});
  entries.push_back({"supply", "in supply (--supply)",
                     "<circle cx=\"6\" cy=\"4\" r=\"3.5\" fill=\"none\" stroke=\"#38761d\"/>"});
  entries.push_back({"no-supply", "out of supply, isolated",
                     "<circle cx=\"6\" cy=\"4\" r=\"3.5\" fill=\"none\" stroke=\"#cc0000\"/>"});
  entries.push_back({"counter-axis", "Axis unit (Ax)", counter("#9e9e9e", 0, "Ax")});
  entries.push_back({"counter-allied", "Allied unit (Al)", counter("#e6b8af", 0, "Al")});
  entries.push_back({"counter-air-naval", "air or naval unit", counter("#ffffff", 3, "tf")});
  entries.push_back({"stack", "stack: count, units listed",
                     "<circle cx=\"6\" cy=\"4\" r=\"3\" fill=\"#fff\" stroke=\"#000\" "
                     "stroke-width=\"0.4\"/><text x=\"6\" y=\"5.3\" font-size=\"4\" "
                     "text-anchor=\"middle\">2</text>"});
  const double top = layout.legend_y() + 16;
  constexpr double kColumn = 120, kRow = 12;
  const int rows = static_cast<int>((kLegendHeight - 20) / kRow);
  svg << "<g class=\"legend\" font-size=\"6\"><text x=\"4\" y=\"" << top - 4
      << "\" font-size=\"10\" font-weight=\"bold\">Legend</text>\n";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double x = 4 + kColumn * static_cast<double>(i / rows);
    const double y = top + kRow * static_cast<double>(i % rows);
    svg << "<g class=\"legend-entry\" data-key=\"" << entries[i].key << "\" transform=\"translate("
        << x << "," << y << ")\">" << entries[i].sample << "<text x=\"16\" y=\"6.5\">"
        << Escape(entries[i].text) << "</text></g>\n";
  }
  svg << "</g>\n";
}

Status DrawRoute(std::ostringstream& svg, const map::Theater& t, const Layout& layout,
                 const std::vector<std::string>& route) {
  // The route on top.
  if (!route.empty()) {
    svg << "<polyline fill=\"none\" stroke=\"#e00000\" stroke-width=\"2.5\" "
        << "stroke-opacity=\"0.85\" points=\"";
    for (const std::string& token : route) {
      Point p{0, 0};
      if (token.find('/') != std::string::npos) {
        auto s = t.FindHexside(token);
        if (!s) return std::unexpected(s.error());
        const map::HexsideInfo& info = t.hexside(*s);
        auto [a, b] = SideCorners(layout.at(info.a), info.dir_from_a);
        p = {(a.x + b.x) / 2, (a.y + b.y) / 2};
      } else {
        auto h = t.FindHex(token.substr(0, token.find('#')));
        if (!h) return std::unexpected(h.error());
        if (!layout.drawn(*h)) continue;
        p = layout.at(*h);
      }
      svg << p.x << "," << p.y << " ";
    }
    svg << "\"/>\n";
  }
  return {};
}

}  // namespace

Result<std::string> RenderSvg(const map::Theater& t, const map::MapState& state,
                              const RenderRequest& req) {
  auto layout = Layout::Make(t, req.sheet);
  if (!layout) return std::unexpected(layout.error());
  std::ostringstream svg;
  svg.setf(std::ios::fixed);
  svg.precision(1);
  layout->DrawFrame(svg);
  DrawHexes(svg, t, state, *layout);
  DrawHexsides(svg, t, *layout);
  DrawLabels(svg, t, state, *layout);
  DrawMarkers(svg, t, state, *layout);
  DrawOverlays(svg, t, *layout, req);
  DrawUnits(svg, *layout, req.units);
  if (auto s = DrawRoute(svg, t, *layout, req.route); !s) return std::unexpected(s.error());
  DrawLegend(svg, *layout);
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace opsim::cli
