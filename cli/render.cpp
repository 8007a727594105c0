#include "render.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "opsim/core/echo.h"
#include "opsim/query/svg.h"
#include "opsim/query/view.h"

namespace opsim::cli {

namespace {

using query::Escape;
using query::Palette;
using query::StyleColor;

constexpr double kSize = 14.0;  // hex radius in SVG units
constexpr double kLegendWidth = 600, kLegendHeight = 150;
const double kRoot3 = std::sqrt(3.0);
// The natural print size: a hex 16 mm across its flats, as on a printed Europa map, so a
// counter is about 16 mm wide. Every text is at least 6 pt at that size: 6 / 72 * 25.4 mm, or
// about 3.2 units (render_cli_test checks every text of the drawing against it).
const double kMmPerUnit = 16.0 / (kRoot3 * kSize);
// A counter: kCounterW x kCounterH units, between its hex's number and its place name.
constexpr double kCounterW = 24, kCounterH = 14;

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

std::string TerrainColor(map::Terrain t) {
  return Palette().at("terrain").at(map::TerrainName(t)).get<std::string>();
}

// Where each drawn hex goes. Sheets that touch on the global grid form one panel
// (query::SheetPanels, as the browser gets them); panels are stacked top to bottom. A window
// (a printed page's part of the drawing) limits what is drawn to the hexes in it.
struct Rect {
  double x0, y0, x1, y1;
};

class Layout {
 public:
  static Result<Layout> Make(const map::Theater& t, const std::string& sheet);

  bool drawn(map::HexRef h) const {
    const std::size_t s = t_->hex(h).sheet;
    const bool shown = sheet_.empty()
                           ? std::find(roots_.begin(), roots_.end(), root_[s]) != roots_.end()
                           : t_->sheets()[s].name == sheet_;
    if (!shown || !window_) return shown;
    const Point c = at(h);
    return c.x > window_->x0 - 2 * kSize && c.x < window_->x1 + 2 * kSize &&
           c.y > window_->y0 - 2 * kSize && c.y < window_->y1 + 2 * kSize;
  }
  std::size_t root(map::HexRef h) const { return root_[t_->hex(h).sheet]; }
  Point at(map::HexRef h) const {
    const Panel& p = *std::find_if(panels_.begin(), panels_.end(),
                                   [&](const Panel& q) { return q.root == root(h); });
    Point c = Center(t_->Pos(h));
    return Point{c.x - p.x0, c.y + p.offset_y};
  }
  void set_window(std::optional<Rect> w) { window_ = w; }
  // The names of the sheets with a hex whose centre lies in `w`, by commas ("" if none).
  std::string SheetsIn(const Rect& w) const;
  // Each panel's title ("sheet 16A + 16B").
  void DrawTitles(std::ostringstream& svg) const;
  double width() const { return width_; }
  // Each panel's part of the drawing, and its title.
  std::vector<std::pair<Rect, std::string>> PanelRects() const;
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
  std::optional<Rect> window_;
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

std::string Layout::SheetsIn(const Rect& w) const {
  std::vector<bool> seen(t_->sheets().size());
  for (std::uint32_t v = 0; v < t_->hex_count(); ++v) {
    const map::HexRef h{v};
    if (!drawn(h)) continue;
    const Point c = at(h);
    if (c.x >= w.x0 && c.x <= w.x1 && c.y >= w.y0 && c.y <= w.y1) seen[t_->hex(h).sheet] = true;
  }
  std::string names;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    if (seen[i]) names += (names.empty() ? "" : ", ") + t_->sheets()[i].name;
  }
  return names;
}

std::vector<std::pair<Rect, std::string>> Layout::PanelRects() const {
  std::vector<std::pair<Rect, std::string>> rects;
  for (const Panel& p : panels_) {
    std::string names;
    for (std::size_t i = 0; i < t_->sheets().size(); ++i) {
      if (root_[i] == p.root && Shown(i)) {
        names += (names.empty() ? "sheet " : " + ") + t_->sheets()[i].name;
      }
    }
    rects.emplace_back(Rect{0, p.offset_y + p.y0, p.x1 - p.x0, p.offset_y + p.y1}, names);
  }
  return rects;
}

void Layout::DrawTitles(std::ostringstream& svg) const {
  for (const auto& [r, names] : PanelRects()) {
    svg << "<text x=\"4\" y=\"" << r.y0 - 8 << "\" font-size=\"14\" "
        << "font-weight=\"bold\">" << Escape(names) << "</text>\n";
  }
}

// The <svg> element's opening: its size on paper, the part of the drawing it shows, the
// background and the patterns the drawing uses.
void Header(std::ostringstream& svg, const std::string& title, const std::string& width,
            const std::string& height, const Rect& view) {
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"" << view.x0 << " " << view.y0 << " " << view.x1 - view.x0 << " "
      << view.y1 - view.y0 << "\" font-family=\"sans-serif\">\n";
  svg << "<title>" << Escape(title) << "</title>\n<rect x=\"" << view.x0 << "\" y=\"" << view.y0
      << "\" width=\"100%\" height=\"100%\" fill=\"" << StyleColor("background") << "\"/>\n";
  // Ownership is hatched, one slant per side, so that it reads without colour.
  svg << "<defs><pattern id=\"own-axis\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" "
      << "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"4\" "
      << "stroke=\"" << StyleColor("axisHatch") << "\" stroke-width=\"0.8\"/></pattern>"
      << "<pattern id=\"own-allied\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" "
      << "patternTransform=\"rotate(-45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"4\" "
      << "stroke=\"" << StyleColor("alliedHatch") << "\" stroke-width=\"0.8\"/></pattern></defs>\n";
}

void DrawHexes(std::ostringstream& svg, const map::Theater& t, const map::MapState& state,
               const Layout& layout) {
  // Hexes: terrain, then the water of coastal hexes as wedges toward their water hexsides.
  svg << "<g stroke=\"" << StyleColor("hexEdge") << "\" stroke-width=\"0.5\">\n";
  const std::string sea = TerrainColor(map::Terrain::kAllSea);
  const std::string lake = TerrainColor(map::Terrain::kLake);
  const std::string flood = StyleColor("flood");
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
      const bool partial_sea = info.coast == map::Coast::kPartialSea;
      for (map::Dir d : map::kAllDirs) {
        const map::HexsideRef s = t.HexsideAt(h, d);
        if (!s.valid()) continue;
        const map::HexsideWater w = t.hexside(s).water;
        if (partial_sea ? !map::IsSea(w) : w != map::HexsideWater::kLake) continue;
        auto [a, b] = SideCorners(c, d);
        svg << "<polygon points=\"" << c.x * 0.35 + (a.x + b.x) / 2 * 0.65 << ","
            << c.y * 0.35 + (a.y + b.y) / 2 * 0.65 << " " << a.x << "," << a.y << " " << b.x << ","
            << b.y << "\" fill=\"" << (partial_sea ? sea : lake) << "\" stroke=\"none\"/>\n";
      }
    }
    if (state.flood(h)) {
      svg << "<circle class=\"flood\" cx=\"" << c.x << "\" cy=\"" << c.y << "\" r=\"" << kSize * 0.8
          << "\" fill=\"" << flood << "\" stroke=\"none\"/>\n";
    }
  }
  svg << "</g>\n";
}

// The hexside lines: along the hexside (`along`) or across it, centre to centre. The colours
// and dashes are the browser's (web/js/mapview.js), in this drawing's units.
struct SideLine {
  const char* color;  // a palette style key
  double width;
  const char* dash;
  bool along;
};
constexpr SideLine kWaterway{"waterway", 5, "", true}, kSeaSide{"seaSide", 2.5, "", true},
    kMajorRiver{"majorRiver", 3, "", true}, kMinorRiver{"minorRiver", 1.5, "", true},
    kCanal{"canal", 2, "4 2", true}, kBorder{"border", 1, "4 1.5 1 1.5", true},
    kRoad{"road", 1.5, "", false}, kRail{"rail", 1.2, "3 2", false},
    kCauseway{"causeway", 3, "", false}, kRailFerry{"railFerry", 2, "5 3", false};

std::string LineAttrs(const SideLine& l) {
  std::ostringstream a;
  a << "stroke=\"" << StyleColor(l.color) << "\" stroke-width=\"" << l.width << "\"";
  if (*l.dash) a << " stroke-dasharray=\"" << l.dash << "\"";
  return a.str();
}

void DrawHexsides(std::ostringstream& svg, const map::Theater& t, const Layout& layout) {
  // Hexsides: water, rivers, canals, waterways; then roads, rail, causeways and ferries.
  std::map<const SideLine*, std::string> attrs;
  for (const SideLine* l : {&kWaterway, &kSeaSide, &kMajorRiver, &kMinorRiver, &kCanal, &kBorder,
                            &kRoad, &kRail, &kCauseway, &kRailFerry}) {
    attrs[l] = LineAttrs(*l);
  }
  svg << "<g fill=\"none\" stroke-linecap=\"round\">\n";
  for (std::uint32_t i = 0; i < t.hexside_count(); ++i) {
    const map::HexsideInfo& s = t.hexside(map::HexsideRef{i});
    if (!layout.drawn(s.a) || !layout.drawn(s.b) || layout.root(s.a) != layout.root(s.b)) continue;
    const Point ca = layout.at(s.a);
    const Point cb = layout.at(s.b);
    auto [p, q] = SideCorners(ca, s.dir_from_a);
    auto draw = [&](const SideLine& l) {
      const Point a = l.along ? p : ca, b = l.along ? q : cb;
      svg << "<line x1=\"" << a.x << "\" y1=\"" << a.y << "\" x2=\"" << b.x << "\" y2=\"" << b.y
          << "\" " << attrs[&l] << "/>\n";
    };
    const map::Waterway* way = t.WaterwayOf(map::HexsideRef{i});
    if (way && way->navigable) draw(kWaterway);
    if (s.water == map::HexsideWater::kAllSea && !t.hex(s.a).IsWater() && !t.hex(s.b).IsWater()) {
      draw(kSeaSide);
    }
    if (s.Has(map::kMajorRiver)) draw(kMajorRiver);
    if (s.Has(map::kMinorRiver)) draw(kMinorRiver);
    if (s.Has(map::kCanal)) draw(kCanal);
    if (s.Has(map::kBorder)) draw(kBorder);
    if (s.Has(map::kRoad)) draw(kRoad);
    if (s.Has(map::kRailroad)) draw(kRail);
    if (s.Has(map::kCauseway)) draw(kCauseway);
    if (s.Has(map::kRailFerry)) draw(kRailFerry);
  }
  svg << "</g>\n";
}

void DrawLabels(std::ostringstream& svg, const map::Theater& t, const map::MapState& state,
                const Layout& layout) {
  // Places and hex numbers.
  const std::string port = StyleColor("port");
  svg << "<g font-size=\"5\" text-anchor=\"middle\">\n";
  for (std::uint32_t v = 0; v < t.hex_count(); ++v) {
    const map::HexRef h{v};
    if (!layout.drawn(h)) continue;
    const map::HexInfo& info = t.hex(h);
    const Point c = layout.at(h);
    char num[8];
    std::snprintf(num, sizeof num, "%02d%02d", info.col, info.row);
    svg << "<text x=\"" << c.x << "\" y=\"" << c.y - kSize * 0.55 << "\" fill=\""
        << StyleColor("faint") << "\">" << num << "</text>\n";
    if (info.city == map::CityKind::kDot) {
      svg << "<circle cx=\"" << c.x << "\" cy=\"" << c.y << "\" r=\"2.5\" fill=\""
          << StyleColor("ink") << "\"/>\n";
    } else if (info.city != map::CityKind::kNone) {
      svg << "<rect x=\"" << c.x - 4 << "\" y=\"" << c.y - 4 << "\" width=\"8\" height=\"8\" "
          << "fill=\"" << StyleColor(info.city == map::CityKind::kFullMajor ? "ink" : "city")
          << "\"/>\n";
    }
    if (info.port != map::PortSize::kNone) {
      svg << "<text x=\"" << c.x + 7 << "\" y=\"" << c.y + 2 << "\" font-size=\"7\" "
          << "fill=\"" << port << "\">" << (info.inland_port ? "i" : "") << "P</text>\n";
    }
    if (info.airbase) {
      svg << "<text x=\"" << c.x - 7 << "\" y=\"" << c.y + 2 << "\" font-size=\"7\" "
          << "fill=\"" << StyleColor("airbase") << "\">A</text>\n";
    }
    if (state.ice_airfield(h)) {
      svg << "<text class=\"ice-airfield\" x=\"" << c.x << "\" y=\"" << c.y + 9
          << "\" font-size=\"6\" fill=\"" << port << "\">ice AF</text>\n";
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

// A counter's colour: its nationality's, else its side's.
std::string CounterColor(const RenderUnit& u) {
  const auto& nations = Palette().at("nationality");
  if (auto it = nations.find(u.nationality); it != nations.end()) return it->get<std::string>();
  return Palette().at("side").at(SideName(u.side)).get<std::string>();
}

// A unit type's symbol (the palette's paths, NATO style) in the box (x, y, w, w * 0.6).
void DrawSymbol(std::ostringstream& svg, const std::string& key, double x, double y, double w) {
  const auto& symbols = Palette().at("symbols");
  const double box_w = symbols.at("box")[0].get<double>();
  const double box_h = symbols.at("box")[1].get<double>();
  const double scale = w / box_w;
  svg << "<g class=\"symbol\" data-symbol=\"" << Escape(key) << "\" transform=\"translate(" << x
      << "," << y << ") scale(" << std::setprecision(3) << scale << std::setprecision(1)
      << ")\" fill=\"none\" stroke=\"#000\" stroke-width=\"" << 0.45 / scale << "\"><rect width=\""
      << box_w << "\" height=\"" << box_h << "\"/>";
  if (auto it = symbols.find(key); it != symbols.end()) {
    for (const auto& d : it->value("stroke", nlohmann::json::array())) {
      svg << "<path d=\"" << d.get<std::string>() << "\"/>";
    }
    for (const auto& d : it->value("fill", nlohmann::json::array())) {
      svg << "<path d=\"" << d.get<std::string>() << "\" fill=\"#000\" stroke=\"none\"/>";
    }
  }
  svg << "</g>";
}

// A line of text centred at x in a box `width` wide: squeezed to fit (textLength) when a
// generous estimate of its width (0.62 em a character) is wider.
void FittedText(std::ostringstream& svg, const char* cls, const std::string& text, double x,
                double y, double font, double width, const char* extra = "") {
  svg << "<text class=\"" << cls << "\" x=\"" << x << "\" y=\"" << y << "\" font-size=\"" << font
      << "\" text-anchor=\"middle\"" << extra;
  if (0.62 * font * static_cast<double>(text.size()) > width) {
    svg << " textLength=\"" << width << "\" lengthAdjust=\"spacingAndGlyphs\"";
  }
  svg << ">" << Escape(text) << "</text>";
}

constexpr double kCounterFont = 3.5;  // 6.5 pt at the natural size

void DrawCounter(std::ostringstream& svg, const RenderUnit& u, double x, double y) {
  // Side and kind are classes for styling, and text on the face for readers of a print: the
  // id on top, the type's symbol, the side and strength below; the nationality's colour.
  const bool axis = u.side == Side::kAxis;
  svg << "<g class=\"counter " << KindName(u.kind) << " " << (axis ? "axis" : "allied")
      << "\" data-unit=\"" << Escape(u.label) << "\"><title>" << Escape(u.name) << " ("
      << (axis ? "Axis" : "Allied") << " " << Escape(u.nationality) << " " << Escape(u.symbol)
      << ")</title>\n<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << kCounterW
      << "\" height=\"" << kCounterH << "\" rx=\"" << (u.kind == UnitKind::kGround ? 0 : 3)
      << "\" fill=\"" << CounterColor(u) << "\" stroke=\"#000\" stroke-width=\"0.4\"/>\n";
  FittedText(svg, "id", u.label, x + kCounterW / 2, y + 3.6, kCounterFont, kCounterW - 2,
             " font-weight=\"bold\"");
  FittedText(svg, "str", std::string(axis ? "Ax " : "Al ") + u.strength, x + kCounterW / 2,
             y + kCounterH - 0.9, kCounterFont, kCounterW - 2);
  DrawSymbol(svg, u.symbol, x + kCounterW / 2 - 5, y + 4.2, 10);  // last: its own <g> inside
  svg << "</g>\n";
}

void DrawUnits(std::ostringstream& svg, const Layout& layout,
               const std::vector<RenderUnit>& units) {
  // A stack is one counter (its top unit) with the count on it, and beside it a list of every
  // unit in it, so that no counter hides another.
  std::map<std::uint32_t, std::vector<const RenderUnit*>> stacks;
  for (const RenderUnit& u : units) {
    if (layout.drawn(u.hex)) stacks[u.hex.v].push_back(&u);
  }
  constexpr double kLine = 4.4;
  svg << "<g class=\"units\">\n";
  for (const auto& [v, stack] : stacks) {
    const Point c = layout.at(map::HexRef{v});
    const double x = c.x - kCounterW / 2, y = c.y - 7.6;
    DrawCounter(svg, *stack.front(), x, y);
    if (stack.size() == 1) continue;
    std::size_t longest = 0;
    std::vector<std::string> lines;
    for (const RenderUnit* u : stack) {
      lines.push_back((u->side == Side::kAxis ? "Ax " : "Al ") + u->label + " " + u->strength);
      longest = std::max(longest, lines.back().size());
    }
    const double list_w = 0.62 * kCounterFont * static_cast<double>(longest) + 2;
    const double right = x + kCounterW;
    svg << "<g class=\"stack\" data-count=\"" << stack.size() << "\"><circle cx=\"" << right
        << "\" cy=\"" << y << "\" r=\"3\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"0.4\"/>"
        << "<text x=\"" << right << "\" y=\"" << y + 1.2 << "\" font-size=\"" << kCounterFont
        << "\" text-anchor=\"middle\">" << stack.size() << "</text>\n"
        << "<rect x=\"" << right + 4 << "\" y=\"" << y - 3 << "\" width=\"" << list_w
        << "\" height=\"" << kLine * static_cast<double>(stack.size()) + 1.5
        << "\" fill=\"#fff\" fill-opacity=\"0.9\" stroke=\"#000\" stroke-width=\"0.3\"/>\n";
    for (std::size_t i = 0; i < stack.size(); ++i) {
      svg << "<text class=\"stack-entry\" data-unit=\"" << Escape(stack[i]->label) << "\" x=\""
          << right + 5 << "\" y=\"" << y + 1.2 + kLine * static_cast<double>(i) << "\" font-size=\""
          << kCounterFont << "\">" << Escape(lines[i]) << "</text>\n";
    }
    svg << "</g>\n";
  }
  svg << "</g>\n";
}

void DrawMarkers(std::ostringstream& svg, const map::Theater& t, const map::MapState& state,
                 const Layout& layout) {
  // Destroyed bridges (B14) as a cross on their hexside; the Suez Canal's status (41.B) in words
  // on each of its hexsides when it is not open.
  const std::string alert = StyleColor("alert");
  svg << "<g fill=\"none\">\n";
  auto cross = [&](map::HexsideRef s, const char* cls, const std::string& words) {
    const map::HexsideInfo& info = t.hexside(s);
    if (!layout.drawn(info.a)) return;
    auto [a, b] = SideCorners(layout.at(info.a), info.dir_from_a);
    const Point m{(a.x + b.x) / 2, (a.y + b.y) / 2};
    svg << "<g class=\"" << cls << "\" data-hexside=\"" << t.HexsideName(s) << "\"><path d=\"M"
        << m.x - 3 << "," << m.y - 3 << "L" << m.x + 3 << "," << m.y + 3 << "M" << m.x - 3 << ","
        << m.y + 3 << "L" << m.x + 3 << "," << m.y - 3 << "\" stroke=\"" << alert
        << "\" stroke-width=\"1.5\"/><text x=\"" << m.x << "\" y=\"" << m.y - 4 << "\" font-size=\""
        << kCounterFont << "\" text-anchor=\"middle\" fill=\"" << alert << "\">" << words
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
  const std::string alert = StyleColor("alert");
  const std::string zoc = StyleColor(req.zoc_side == "allied" ? "zocAllied" : "zocAxis");
  svg << "<g class=\"overlays\" fill=\"none\">\n";
  for (std::uint32_t v = 0; v < req.zoc.size(); ++v) {
    if (!req.zoc[v] || !layout.drawn(map::HexRef{v})) continue;
    svg << "<polygon class=\"zoc " << req.zoc_side << "\" data-hex=\"" << t.HexName(map::HexRef{v})
        << "\" points=\"";
    HexPoints(svg, layout.at(map::HexRef{v}));
    svg << "\" stroke=\"" << zoc << "\" stroke-width=\"1\" stroke-dasharray=\""
        << (req.zoc_side == "allied" ? "0.5 1.5" : "2 1.5") << "\"/>\n";
  }
  for (const auto& [hex, status] : req.supply) {
    if (!layout.drawn(hex)) continue;
    const Point c = layout.at(hex);
    const bool ok = status == "supplied";
    svg << "<g class=\"supply " << req.supply_side << " " << status << "\" data-hex=\""
        << t.HexName(hex) << "\"><circle cx=\"" << c.x << "\" cy=\"" << c.y << "\" r=\""
        << kSize * 0.9 << "\" stroke=\"" << (ok ? StyleColor("supplied") : alert)
        << "\" stroke-width=\"1.2\"/>";
    if (!ok) {
      svg << "<text x=\"" << c.x << "\" y=\"" << c.y + 12 << "\" font-size=\"4\" "
          << "text-anchor=\"middle\" fill=\"" << alert << "\">" << status << "</text>";
    }
    svg << "</g>\n";
  }
  svg << "</g>\n";
}

// Every symbol the drawing uses, each a sample beside its words, in columns that fit `width`,
// from (x, y). Returns the height it took.
double DrawLegend(std::ostringstream& svg, double x0, double y0, double width) {
  struct Entry {
    std::string key, text, sample;  // the sample is drawn in a 12x8 box at (0,0)
  };
  auto fill = [](const std::string& color) {
    return "<rect width=\"12\" height=\"8\" fill=\"" + color +
           "\" stroke=\"#999\" stroke-width=\"0.5\"/>";
  };
  auto line = [](const std::string& color, double w, const char* dash) {
    std::ostringstream l;
    l << "<line x1=\"0\" y1=\"4\" x2=\"12\" y2=\"4\" stroke=\"" << color << "\" stroke-width=\""
      << w << "\"" << (*dash ? std::string(" stroke-dasharray=\"") + dash + "\"" : "") << "/>";
    return l.str();
  };
  auto side_line = [&](const SideLine& l) {
    return "<line x1=\"0\" y1=\"4\" x2=\"12\" y2=\"4\" " + LineAttrs(l) + "/>";
  };
  auto glyph = [](const char* text, const std::string& color) {
    return std::string("<text x=\"6\" y=\"6.5\" font-size=\"7\" text-anchor=\"middle\" fill=\"") +
           color + "\">" + text + "</text>";
  };
  auto ring = [](const std::string& color) {
    return "<circle cx=\"6\" cy=\"4\" r=\"3.5\" fill=\"none\" stroke=\"" + color + "\"/>";
  };
  auto symbol = [](const std::string& key) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(1);
    DrawSymbol(s, key, 1, 0.5, 10);
    return s.str();
  };
  auto counter = [](const std::string& color) {
    return "<rect width=\"12\" height=\"8\" fill=\"" + color +
           "\" stroke=\"#000\" stroke-width=\"0.4\"/>";
  };
  std::vector<Entry> entries;
  for (map::Terrain t :
       {map::Terrain::kClear, map::Terrain::kRough, map::Terrain::kForest, map::Terrain::kSwamp,
        map::Terrain::kMountain, map::Terrain::kCanalIntensive, map::Terrain::kProhibited,
        map::Terrain::kAllSea, map::Terrain::kLake}) {
    entries.push_back({std::string("terrain-") + map::TerrainName(t), map::TerrainName(t),
                       fill(TerrainColor(t))});
  }
  const std::string alert = StyleColor("alert");
  entries.push_back({"own-axis", "Axis-owned (hatched /)", fill("url(#own-axis)")});
  entries.push_back({"own-allied", "Allied-owned (hatched \\)", fill("url(#own-allied)")});
  entries.push_back({"flood", "flooded",
                     "<circle cx=\"6\" cy=\"4\" r=\"4\" fill=\"" + StyleColor("flood") + "\"/>"});
  entries.push_back({"ice-airfield", "ice airfield", glyph("ice", StyleColor("port"))});
  entries.push_back(
      {"city-dot", "dot city", "<circle cx=\"6\" cy=\"4\" r=\"2.5\" fill=\"#000\"/>"});
  entries.push_back(
      {"city", "city (black: full major)",
       "<rect x=\"2\" y=\"0\" width=\"8\" height=\"8\" fill=\"" + StyleColor("city") + "\"/>"});
  entries.push_back({"port", "port (iP: inland)", glyph("P", StyleColor("port"))});
  entries.push_back({"airbase", "airbase", glyph("A", StyleColor("airbase"))});
  entries.push_back({"waterway", "navigable waterway", side_line(kWaterway)});
  entries.push_back({"sea-hexside", "all-sea hexside", side_line(kSeaSide)});
  entries.push_back({"major-river", "major river", side_line(kMajorRiver)});
  entries.push_back({"minor-river", "minor river", side_line(kMinorRiver)});
  entries.push_back({"canal", "canal", side_line(kCanal)});
  entries.push_back({"border", "border", side_line(kBorder)});
  entries.push_back({"road", "road", side_line(kRoad)});
  entries.push_back({"railroad", "railroad", side_line(kRail)});
  entries.push_back({"causeway", "causeway", side_line(kCauseway)});
  entries.push_back({"rail-ferry", "rail ferry", side_line(kRailFerry)});
  entries.push_back({"route", "route", line(StyleColor("path"), 2.5, "")});
  entries.push_back(
      {"bridge-destroyed", "bridge destroyed; Suez closed (red: a problem)",
       "<path d=\"M3,1L9,7M3,7L9,1\" stroke=\"" + alert + "\" stroke-width=\"1.5\"/>"});
  entries.push_back({"zoc", "zone of control (--zoc; Axis dashed, Allied dotted)",
                     "<polygon points=\"1,4 3.5,0 8.5,0 11,4 8.5,8 3.5,8\" fill=\"none\" "
                     "stroke=\"" +
                         StyleColor("zocAxis") + "\" stroke-dasharray=\"2 1.5\"/>"});
  entries.push_back({"supply", "in supply (--supply)", ring(StyleColor("supplied"))});
  entries.push_back({"no-supply", "out of supply, isolated (red)", ring(alert)});
  for (const auto& [key, value] : Palette().at("symbols").items()) {
    if (key != "box") entries.push_back({"symbol-" + key, key + " (counter symbol)", symbol(key)});
  }
  for (const auto& [nation, color] : Palette().at("nationality").items()) {
    entries.push_back(
        {"nationality-" + nation, nation + " unit", counter(color.get<std::string>())});
  }
  const auto& sides = Palette().at("side");
  entries.push_back(
      {"counter-axis", "other Axis unit (Ax)", counter(sides.at("axis").get<std::string>())});
  entries.push_back(
      {"counter-allied", "other Allied unit (Al)", counter(sides.at("allied").get<std::string>())});
  entries.push_back({"counter-air-naval", "air or naval unit (rounded)",
                     "<rect width=\"12\" height=\"8\" rx=\"3\" fill=\"#fff\" stroke=\"#000\" "
                     "stroke-width=\"0.4\"/>"});
  entries.push_back({"stack", "stack: count, units listed",
                     "<circle cx=\"6\" cy=\"4\" r=\"3\" fill=\"#fff\" stroke=\"#000\" "
                     "stroke-width=\"0.4\"/><text x=\"6\" y=\"5.3\" font-size=\"4\" "
                     "text-anchor=\"middle\">2</text>"});
  constexpr double kColumn = 140, kRow = 12;
  const std::size_t columns = std::max<std::size_t>(1, static_cast<std::size_t>(width / kColumn));
  const std::size_t rows = (entries.size() + columns - 1) / columns;
  const double top = y0 + 16;
  svg << "<g class=\"legend\" font-size=\"6\"><text x=\"" << x0 + 4 << "\" y=\"" << top - 4
      << "\" font-size=\"10\" font-weight=\"bold\">Legend</text>\n";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double x = x0 + 4 + kColumn * static_cast<double>(i / rows);
    const double y = top + kRow * static_cast<double>(i % rows);
    svg << "<g class=\"legend-entry\" data-key=\"" << entries[i].key << "\" transform=\"translate("
        << x << "," << y << ")\">" << entries[i].sample << "<text x=\"16\" y=\"6.5\">"
        << Escape(entries[i].text) << "</text></g>\n";
  }
  svg << "</g>\n";
  return 16 + kRow * static_cast<double>(rows) + 8;
}

Status DrawRoute(std::ostringstream& svg, const map::Theater& t, const Layout& layout,
                 const std::vector<std::string>& route) {
  // The route on top.
  if (!route.empty()) {
    svg << "<polyline fill=\"none\" stroke=\"" << StyleColor("path") << "\" stroke-width=\"2.5\" "
        << "stroke-opacity=\"0.85\" points=\"";
    for (const std::string& token : route) {
      Point p{0, 0};
      if (token.find('/') != std::string::npos) {
        auto s = t.FindHexside(token);
        if (!s) return std::unexpected(s.error());
        const map::HexsideInfo& info = t.hexside(*s);
        if (!layout.drawn(info.a)) continue;
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

// What a page shows, whatever part of the drawing it is.
Status DrawMap(std::ostringstream& svg, const map::Theater& t, const map::MapState& state,
               const RenderRequest& req, const Layout& layout) {
  DrawHexes(svg, t, state, layout);
  DrawHexsides(svg, t, layout);
  DrawLabels(svg, t, state, layout);
  DrawMarkers(svg, t, state, layout);
  DrawOverlays(svg, t, layout, req);
  DrawUnits(svg, layout, req.units);
  return DrawRoute(svg, t, layout, req.route);
}

std::string Mm(double units) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(1);
  s << units * kMmPerUnit << "mm";
  return s.str();
}

std::ostringstream NewSvg() {
  std::ostringstream svg;
  svg.setf(std::ios::fixed);
  svg.precision(1);
  return svg;
}

}  // namespace

const char* PageSizeName(PageSize p) {
  switch (p) {
    case PageSize::kA4:
      return "a4";
    case PageSize::kLetter:
      return "letter";
  }
  return "a4";
}

Result<std::string> RenderSvg(const map::Theater& t, const map::MapState& state,
                              const RenderRequest& req) {
  auto layout = Layout::Make(t, req.sheet);
  if (!layout) return std::unexpected(layout.error());
  std::ostringstream svg = NewSvg();
  const double width = std::max(layout->width(), kLegendWidth);
  const double height = layout->legend_y() + kLegendHeight;
  Header(svg, t.title(), Mm(width), Mm(height), Rect{0, 0, width, height});
  layout->DrawTitles(svg);
  if (auto s = DrawMap(svg, t, state, req, *layout); !s) return std::unexpected(s.error());
  DrawLegend(svg, 0, layout->legend_y(), width);
  svg << "</svg>\n";
  return svg.str();
}

Result<std::vector<std::string>> RenderPages(const map::Theater& t, const map::MapState& state,
                                             const RenderRequest& req, PageSize size) {
  auto layout = Layout::Make(t, req.sheet);
  if (!layout) return std::unexpected(layout.error());
  // The paper in mm and as the SVG says it, upright and on its side; what is printed on it in
  // drawing units: within 10 mm margins, under a line saying which page it is.
  struct Paper {
    double w_mm, h_mm;
    std::string w_attr, h_attr;
  };
  const bool a4 = size == PageSize::kA4;
  const Paper upright =
      a4 ? Paper{210, 297, "210mm", "297mm"} : Paper{215.9, 279.4, "8.5in", "11in"};
  const Paper sideways{upright.h_mm, upright.w_mm, upright.h_attr, upright.w_attr};
  const double margin = 10 / kMmPerUnit, band = 8 / kMmPerUnit;
  auto print_w = [&](const Paper& p) { return p.w_mm / kMmPerUnit - 2 * margin; };
  auto print_h = [&](const Paper& p) { return p.h_mm / kMmPerUnit - 2 * margin - band; };
  struct Tile {
    Rect window;
    const Paper* paper;
    std::string what;  // "sheet 16A: row R of N, column C of M"
  };
  // Each panel (sheets that join) is cut into pages of its own, upright or on their side,
  // whichever takes fewer. Neighbouring pages share a hex's width, so no hex is cut on both.
  auto cut = [&](const Rect& panel, const std::string& names, const Paper& paper) {
    const double cw = print_w(paper), ch = print_h(paper);
    const double step_x = cw - 2 * kSize, step_y = ch - 2 * kSize;
    const int cols =
        std::max(1, static_cast<int>(std::ceil((panel.x1 - panel.x0 - 2 * kSize) / step_x)));
    const int rows =
        std::max(1, static_cast<int>(std::ceil((panel.y1 - panel.y0 - 2 * kSize) / step_y)));
    std::vector<Tile> tiles;
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const Rect w{panel.x0 + c * step_x, panel.y0 + r * step_y, panel.x0 + c * step_x + cw,
                     panel.y0 + r * step_y + ch};
        const std::string sheets = layout->SheetsIn(w);
        if (sheets.empty()) continue;
        tiles.push_back({w, &paper,
                         names + ": row " + std::to_string(r + 1) + " of " + std::to_string(rows) +
                             ", column " + std::to_string(c + 1) + " of " + std::to_string(cols) +
                             "; hexes of " + sheets});
      }
    }
    return tiles;
  };
  std::vector<Tile> tiles;
  for (const auto& [panel, names] : layout->PanelRects()) {
    std::vector<Tile> a = cut(panel, names, upright), b = cut(panel, names, sideways);
    std::vector<Tile>& best = b.size() < a.size() ? b : a;
    tiles.insert(tiles.end(), best.begin(), best.end());
  }
  const std::size_t count = tiles.size() + 1;  // and the legend's page
  std::vector<std::string> pages;
  auto page = [&](const Rect& w, const Paper& paper, const std::string& what) {
    std::ostringstream svg = NewSvg();
    const Rect view{w.x0 - margin, w.y0 - margin - band, w.x0 - margin + paper.w_mm / kMmPerUnit,
                    w.y0 - margin - band + paper.h_mm / kMmPerUnit};
    Header(svg, t.title(), paper.w_attr, paper.h_attr, view);
    svg << "<text class=\"page-title\" x=\"" << w.x0 << "\" y=\"" << w.y0 - band / 2
        << "\" font-size=\"6\">" << Escape(t.title()) << ": page " << pages.size() + 1 << " of "
        << count << " (" << PageSizeName(size) << ")" << (what.empty() ? "" : ", ") << Escape(what)
        << "</text>\n";
    return svg;
  };
  for (const Tile& tile : tiles) {
    const Rect& w = tile.window;
    layout->set_window(w);
    std::ostringstream svg = page(w, *tile.paper, tile.what);
    svg << "<clipPath id=\"page\"><rect x=\"" << w.x0 << "\" y=\"" << w.y0 << "\" width=\""
        << w.x1 - w.x0 << "\" height=\"" << w.y1 - w.y0
        << "\"/></clipPath>\n<g clip-path=\"url(#page)\">\n";
    layout->DrawTitles(svg);
    if (auto s = DrawMap(svg, t, state, req, *layout); !s) return std::unexpected(s.error());
    svg << "</g>\n</svg>\n";
    pages.push_back(svg.str());
  }
  const Rect legend{0, 0, print_w(upright), print_h(upright)};
  std::ostringstream svg = page(legend, upright, "the legend");
  DrawLegend(svg, 0, 0, print_w(upright));
  svg << "</svg>\n";
  pages.push_back(svg.str());
  return pages;
}

}  // namespace opsim::cli
