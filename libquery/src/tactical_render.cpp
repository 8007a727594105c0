#include "opsim/query/tactical_render.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "opsim/query/svg.h"
#include "opsim/tactical/beach.h"
#include "opsim/tactical/paddy.h"
#include "opsim/tactical/panji.h"

namespace opsim::query {

namespace {

namespace t = opsim::tactical;
using t::GridPos;

// The natural print size: a hex 18 mm across its flats (an ASL hex is about 19 mm), drawn in mm.
// 6 pt is 2.12 mm: every text is 2.2 mm or more (tactical render tests check each one).
constexpr double kFlats = 18.0;
const double kRadius = kFlats / std::sqrt(3.0);
constexpr double kMargin = 6.0;
constexpr double kMinWidth = 200.0;
constexpr double kFont = 2.3;       // counters, hex texts
constexpr double kSmallFont = 2.2;  // the smallest text
constexpr double kPanelFont = 2.7;  // the answers and the legend
constexpr double kCharEm = 0.6;     // DejaVu Sans's average character width, in ems
constexpr double kBoxW = 11.0, kBoxH = 3.4;

struct Xy {
  double x = 0, y = 0;
};

// tactical::Center's exact units (a corner at u ±2 or ±1, v ±1) in mm.
Xy ToMm(t::Point p) {
  return {static_cast<double>(p.u) * kRadius / 2, static_cast<double>(p.v) * kFlats / 2};
}

std::size_t Chars(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

double TextWidth(std::string_view s, double font) {
  return static_cast<double>(Chars(s)) * kCharEm * font;
}

std::string Num(double v) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(2);
  o << v;
  std::string s = o.str();
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

// A text, squeezed to `max_width` mm if it would be wider.
std::string Text(double x, double y, double font, std::string_view text, std::string_view attrs,
                 double max_width = 0) {
  std::ostringstream o;
  o << "<text x=\"" << Num(x) << "\" y=\"" << Num(y) << "\" font-size=\"" << Num(font) << "\"";
  if (!attrs.empty()) o << " " << attrs;
  if (max_width > 0 && TextWidth(text, font) > max_width) {
    o << " textLength=\"" << Num(max_width) << "\" lengthAdjust=\"spacingAndGlyphs\"";
  }
  o << ">" << Escape(text) << "</text>\n";
  return o.str();
}

std::string Words(std::string_view name) {
  std::string s(name);
  std::replace(s.begin(), s.end(), '-', ' ');
  return s;
}

// Palette keys (web/palette.json) for each tactical terrain: the operational map's colours for
// the nearest operational terrain, so the two drawings and the browser speak one palette.
const char* TerrainKey(t::Terrain terrain) {
  switch (terrain) {
    case t::Terrain::kGrain:
    case t::Terrain::kPaddy:
    case t::Terrain::kRiceFields:
      return "canal-intensive";
    case t::Terrain::kWoods:
    case t::Terrain::kLightJungle:
    case t::Terrain::kDenseJungle:
    case t::Terrain::kLightWoods:
    case t::Terrain::kHeavyWoods:
      return "forest";
    case t::Terrain::kMarsh:
    case t::Terrain::kSwamp:
      return "swamp";
    case t::Terrain::kRubble:
    case t::Terrain::kCrag:
    case t::Terrain::kRockyGround:
    case t::Terrain::kRavine:
      return "rough";
    case t::Terrain::kBuilding:
    case t::Terrain::kVillage:
      return "mountain";
    case t::Terrain::kRiver:
    case t::Terrain::kSamuraiRiver:
    case t::Terrain::kFord:
    case t::Terrain::kBridge:
      return "lake";
    case t::Terrain::kOcean:
      return "all-sea";
    default:
      return "clear";
  }
}

std::string TerrainColor(const char* key) {
  return Palette().at("terrain").at(key).get<std::string>();
}

// What a hex is, in words and colour: the legend key, its label, the fill and a pattern.
struct HexLook {
  std::string key;    // legend key
  std::string label;  // the legend's words
  std::string text;   // the hex's own words
  std::string fill;
  std::string pattern;  // a <pattern> id laid over the fill, or ""
};

HexLook LookOf(const t::Board& b, const t::Hex& h) {
  const bool asl = b.ruleset() == t::Ruleset::kAsl;
  if (asl && t::IsBeach(b, h.cell)) {
    const bool hard = t::IsHardSand(b, h.cell);
    return {hard ? "sand-hard" : "sand-soft",
            hard ? "Hard Sand Beach hex (G13.3)" : "Soft Sand Beach hex (G13.3)",
            hard ? "Hard Sand" : "Soft Sand", TerrainColor("clear"),
            hard ? "sand-hard" : "sand-soft"};
  }
  if (asl && t::IsOcean(b, h.cell)) {
    if (t::IsExposedReef(b, h.cell)) {
      return {"reef-exposed", "Exposed reef: Level -1 land (G13.431)", "exposed reef",
              TerrainColor("rough"), "reef"};
    }
    const bool shallow = t::OceanDepth(b, h.cell) == t::Depth::kShallow;
    std::string text = shallow ? "shallow OCEAN" : "deep OCEAN";
    if (h.reef) text = shallow ? "reef, shallow" : "reef, deep";
    return {shallow ? "ocean-shallow" : "ocean-deep",
            shallow ? "shallow OCEAN (G13.4): Wading" : "deep OCEAN (G13.4)", text,
            TerrainColor(shallow ? "lake" : "all-sea"), h.reef ? "reef" : ""};
  }
  const char* key = TerrainKey(h.terrain);
  const std::string name = t::TerrainName(h.terrain);
  std::string label = Words(name);
  if (h.terrain == t::Terrain::kPaddy)
    label = "rice paddy (G8), " + Words(t::Name(b.settings().paddy));
  std::string text = Words(name);
  if (h.terrain == t::Terrain::kOpenGround) text = "open";
  if (h.road != t::Road::kNone) text += ", road";
  return {std::string("terrain-") + name, label, text, TerrainColor(key), ""};
}

std::string HexPoints(Xy c, double scale = 1.0) {
  std::ostringstream o;
  for (int k = 0; k < 6; ++k) {
    const double a = M_PI / 3 * k;
    o << (k ? " " : "") << Num(c.x + kRadius * scale * std::cos(a)) << ","
      << Num(c.y + kRadius * scale * std::sin(a));
  }
  return o.str();
}

std::string SideAbbrev(const std::string& side) {
  static const std::map<std::string, std::string> known = {
      {"American", "US"}, {"Japanese", "JP"}, {"British", "UK"}, {"German", "DE"}};
  if (auto it = known.find(side); it != known.end()) return it->second;
  std::string s = side.substr(0, 3);
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// One counter in a hex: a unit of the board, or a counter, as its face says it.
struct Item {
  std::string text;
  std::string cls;  // "unit" or "counter"
  std::string title;
  std::string unit;  // a unit's board name (data-unit), for a page to click
  std::string at;    // a unit's position as a path names it (data-at: "37DD7:beneath")
};

class Drawing {
 public:
  Drawing(const t::Board& b, const TacticalRenderRequest& req) : b_(b), req_(req) {}
  std::string Draw();

 private:
  Xy At(GridPos p) const {
    const Xy m = ToMm(t::Center(p));
    return {m.x + dx_, m.y + dy_};
  }
  Xy Corner(GridPos hex, t::Dir d) const {
    const Xy m = ToMm(t::CornerPoint(hex, d));
    return {m.x + dx_, m.y + dy_};
  }
  // The two ends of `hex`'s hexside in direction d.
  std::pair<Xy, Xy> Side(GridPos hex, t::Dir d) const {
    return {Corner(hex, map::Rotate(d, -1)), Corner(hex, d)};
  }
  void Line(std::pair<Xy, Xy> s, const std::string& attrs) {
    svg_ << "<line x1=\"" << Num(s.first.x) << "\" y1=\"" << Num(s.first.y) << "\" x2=\""
         << Num(s.second.x) << "\" y2=\"" << Num(s.second.y) << "\" " << attrs << "/>\n";
  }
  void Use(const std::string& key) { used_.insert(key); }

  void Layout();
  void Defs();
  void Hexes();
  void Hexsides();
  void Panjis();
  void CollectItems();
  void HexTexts();
  // How many rows of counters a hex shows (at most two).
  std::size_t Rows(GridPos hex) const {
    const auto it = items_.find(hex);
    return it == items_.end()
               ? 0
               : std::min<std::size_t>(it->second.size() > 2 ? 1 : it->second.size(), 2);
  }
  void Overlay(const BoardOverlay& o, const char* color);
  void Marks(const BoardOverlay& o);
  double Panel(double y, const BoardOverlay& o);
  double UnitsPanel(double y);
  double Legend(double y);
  double Wrapped(double y, const std::string& line, double font, std::string_view attrs,
                 double indent = 0);

  const t::Board& b_;
  const TacticalRenderRequest& req_;
  std::ostringstream svg_;
  std::set<std::string> used_;
  std::map<GridPos, std::vector<Item>, t::GridPosLess> items_;
  std::vector<HexLook> legend_;  // the terrains drawn, in order
  double dx_ = 0, dy_ = 0, width_ = 0, map_bottom_ = 0;
};

void Drawing::Layout() {
  double x0 = std::numeric_limits<double>::max(), y0 = x0;
  double x1 = std::numeric_limits<double>::lowest(), y1 = x1;
  for (const t::Hex* h : b_.Hexes()) {
    const Xy c = ToMm(t::Center(h->cell));
    x0 = std::min(x0, c.x - kRadius);
    x1 = std::max(x1, c.x + kRadius);
    y0 = std::min(y0, c.y - kFlats / 2);
    y1 = std::max(y1, c.y + kFlats / 2);
  }
  if (b_.Hexes().empty()) x0 = y0 = x1 = y1 = 0;
  width_ = std::max(kMinWidth, x1 - x0 + 2 * kMargin);
  const double top = kMargin + 15.0;  // below the title
  dx_ = (width_ - (x1 - x0)) / 2 - x0;
  dy_ = top - y0;
  map_bottom_ = top + (y1 - y0);
}

void Drawing::Defs() {
  const std::string sand = TerrainColor("rough");
  const std::string edge = StyleColor("faint");
  svg_ << "<defs>\n"
       << "<pattern id=\"sand-soft\" width=\"2.4\" height=\"2.4\" patternUnits=\"userSpaceOnUse\">"
       << "<circle cx=\"0.6\" cy=\"0.6\" r=\"0.32\" fill=\"" << sand << "\"/>"
       << "<circle cx=\"1.8\" cy=\"1.8\" r=\"0.32\" fill=\"" << sand << "\"/></pattern>\n"
       << "<pattern id=\"sand-hard\" width=\"1.6\" height=\"1.6\" patternUnits=\"userSpaceOnUse\">"
       << "<path d=\"M0,1.6L1.6,0\" stroke=\"" << sand << "\" stroke-width=\"0.3\"/></pattern>\n"
       << "<pattern id=\"reef\" width=\"3\" height=\"3\" patternUnits=\"userSpaceOnUse\">"
       << "<path d=\"M0.7,1.5H2.3M1.5,0.7V2.3\" stroke=\"" << edge
       << "\" stroke-width=\"0.35\"/></pattern>\n"
       << "</defs>\n";
}

void Drawing::Hexes() {
  const std::string edge = StyleColor("hexEdge");
  svg_ << "<g class=\"hexes\" stroke=\"" << edge << "\" stroke-width=\"0.25\">\n";
  for (const t::Hex* h : b_.Hexes()) {
    const HexLook look = LookOf(b_, *h);
    const std::string name = b_.Name(h->cell);
    svg_ << "<polygon class=\"hex\" data-hex=\"" << Escape(name) << "\" data-terrain=\""
         << Escape(look.key) << "\" points=\"" << HexPoints(At(h->cell)) << "\" fill=\""
         << look.fill << "\"><title>" << Escape(name + ": " + look.label) << "</title></polygon>\n";
    if (!look.pattern.empty()) {
      svg_ << "<polygon points=\"" << HexPoints(At(h->cell)) << "\" fill=\"url(#" << look.pattern
           << ")\" stroke=\"none\"/>\n";
    }
    if (!used_.contains(look.key)) legend_.push_back(look);
    Use(look.key);
    if (b_.ruleset() == t::Ruleset::kAsl && t::IsPaddy(b_, h->cell)) {
      // The interior, IN the paddy, inside its banks (G8.1).
      svg_ << "<polygon class=\"paddy-interior\" points=\"" << HexPoints(At(h->cell), 0.8)
           << "\" fill=\"none\" stroke=\"" << StyleColor("faint")
           << "\" stroke-width=\"0.25\" stroke-dasharray=\"0.8 0.8\"/>\n";
      Use("paddy-interior");
    }
  }
  svg_ << "</g>\n";
}

void Drawing::Hexsides() {
  const bool asl = b_.ruleset() == t::Ruleset::kAsl;
  svg_ << "<g class=\"hexsides\" stroke-linecap=\"round\" fill=\"none\">\n";
  for (const t::Hex* h : b_.Hexes()) {
    for (t::Dir d : map::kAllDirs) {
      const GridPos n = map::Neighbor(h->cell, d);
      const t::Hex* other = b_.At(n);
      if (other != nullptr && t::GridPosLess()(n, h->cell)) continue;  // drawn from there
      const auto ends = Side(h->cell, d);
      const std::string data =
          other ? " data-hexside=\"" + Escape(b_.Name(*t::Hexside::Between(h->cell, n))) + "\""
                : "";
      if (other == nullptr || other->grid != h->grid) {
        Line(ends,
             "class=\"grid-edge\" stroke=\"" + StyleColor("sheetEdge") + "\" stroke-width=\"0.6\"");
        Use("grid-edge");
      }
      if (other == nullptr) continue;
      const t::Hexside side = *t::Hexside::Between(h->cell, n);
      const t::HexsideFeatures f = b_.Features(side);
      if (asl && t::IsBankHexside(b_, side)) {
        Line(ends, "class=\"bank\"" + data + " stroke=\"" + StyleColor("causeway") +
                       "\" stroke-width=\"1.1\"" +
                       (f.breached ? " stroke-dasharray=\"1.5 1.2\"" : ""));
        Use(f.breached ? "bank-breached" : "bank");
      }
      if (asl && t::IsBeachHinterland(b_, side)) {
        Line(ends, "class=\"crest\"" + data + " stroke=\"" + StyleColor("road") +
                       "\" stroke-width=\"0.9\"");
        Use("crest");
      } else if (asl && t::IsOceanShore(b_, side)) {
        Line(ends, "class=\"shore\"" + data + " stroke=\"" + StyleColor("road") +
                       "\" stroke-width=\"0.9\" stroke-dasharray=\"2 0.8\"");
        Use("shore");
      }
      if (asl && t::IsSeawallHexside(b_, side)) {
        Line(ends, "class=\"seawall\"" + data + " stroke=\"" + StyleColor("ink") +
                       "\" stroke-width=\"0.7\" stroke-dasharray=\"2.2 0.9\"" +
                       (f.breached ? " stroke-opacity=\"0.5\"" : ""));
        Use(f.breached ? "seawall-breached" : "seawall");
      }
      if (f.wall) {
        Line(ends, "class=\"wall\"" + data + " stroke=\"" + StyleColor("ink") +
                       "\" stroke-width=\"1.0\"");
        Use("wall");
      }
      if (f.hedge) {
        Line(ends, "class=\"hedge\"" + data + " stroke=\"" + StyleColor("supplied") +
                       "\" stroke-width=\"1.0\" stroke-dasharray=\"0.9 0.5\"");
        Use("hedge");
      }
      if (f.cliff) {
        Line(ends, "class=\"cliff\"" + data + " stroke=\"" + StyleColor("border") +
                       "\" stroke-width=\"1.3\" stroke-dasharray=\"0.4 0.6\"");
        Use("cliff");
      }
      if (f.road || f.path) {
        Line({At(h->cell), At(n)}, std::string("class=\"") + (f.road ? "road" : "path") + "\"" +
                                       data + " stroke=\"" + StyleColor("road") +
                                       "\" stroke-width=\"0.5\"" +
                                       (f.path ? " stroke-dasharray=\"1 0.7\"" : ""));
        Use(f.road ? "road" : "path-hexside");
      }
    }
  }
  svg_ << "</g>\n";
}

// G9.3: each Covered hexside as a row of spikes just inside the hexside.
void Drawing::Panjis() {
  svg_ << "<g class=\"covered\" fill=\"none\" stroke=\"" << StyleColor("ink")
       << "\" stroke-width=\"0.3\">\n";
  for (const t::Hex* h : b_.Hexes()) {
    if (!h->panji) continue;
    const Xy c = At(h->cell);
    for (t::Dir d : map::kAllDirs) {
      if (!h->panji->Covers(d)) continue;
      const auto [p, q] = Side(h->cell, d);
      std::ostringstream pts;
      constexpr int kTeeth = 12;
      for (int i = 0; i <= kTeeth; ++i) {
        const double f = 0.08 + 0.84 * i / kTeeth;
        const Xy on = {p.x + (q.x - p.x) * f, p.y + (q.y - p.y) * f};
        const double in = (i % 2 == 0) ? 0.5 : 1.6;  // mm toward the centre
        const double len = std::hypot(c.x - on.x, c.y - on.y);
        pts << (i ? " " : "") << Num(on.x + (c.x - on.x) / len * in) << ","
            << Num(on.y + (c.y - on.y) / len * in);
      }
      const GridPos n = map::Neighbor(h->cell, d);
      svg_ << "<polyline data-covered=\"" << Escape(b_.Name(h->cell)) << "-"
           << Escape(b_.At(n) ? b_.Name(n) : map::DirName(d)) << "\" points=\"" << pts.str()
           << "\"/>\n";
      Use("covered");
    }
  }
  svg_ << "</g>\n";
}

// Every counter and unit, by hex.
void Drawing::CollectItems() {
  for (const t::BoardUnit& u : b_.units()) {
    std::string text = u.side.empty() ? u.name : SideAbbrev(u.side) + " " + u.name;
    if (u.at.place != t::Place::kHex) text += std::string(" ") + t::Name(u.at.place);
    items_[u.at.hex].push_back({text, "unit",
                                u.name + ": " + (u.side.empty() ? "" : u.side + " ") +
                                    u.unit.ToString() + " at " + b_.Name(u.at),
                                u.name, b_.Name(u.at)});
    Use("unit");
  }
  for (const t::Hex* h : b_.Hexes()) {
    auto& v = items_[h->cell];
    if (h->panji) {
      v.push_back({std::string("Panji ") + h->panji->id() + (h->panji->hidden() ? " HIP" : ""),
                   "counter panji",
                   t::HipRecordOf(b_, h->cell) + (h->panji->hidden() ? " (hidden)" : ""), "", ""});
      Use("panji");
    }
    if (h->pier) {
      v.push_back({*h->pier == t::PierKind::kStone ? "stone pier" : "wooden pier", "counter",
                   "a pier (G13.7)", "", ""});
      Use("counter");
    }
    for (t::CounterType c : h->counters) {
      v.push_back({Words(t::Name(c)), "counter", Words(t::Name(c)) + " counter", "", ""});
      Use("counter");
    }
    if (h->bridge) v.push_back({"bridge", "counter", "a bridge Location", "", ""});
  }
}

void Drawing::HexTexts() {
  const std::string ink = StyleColor("ink");
  const std::string faint = StyleColor("faint");
  svg_ << "<g class=\"hex-texts\" text-anchor=\"middle\" fill=\"" << ink << "\">\n";
  for (const t::Hex* h : b_.Hexes()) {
    const Xy c = At(h->cell);
    const std::string name = b_.Name(h->cell);
    svg_ << Text(c.x, c.y - 5.3, 2.5, name,
                 "class=\"coord\" data-hex=\"" + Escape(name) + "\" font-weight=\"bold\"", 12);
    const HexLook look = LookOf(b_, *h);
    svg_ << Text(c.x, c.y + 6.0, kFont, look.text, "class=\"terrain\" fill=\"" + faint + "\"",
                 13.5);
    const int level = h->level;
    if (level != 0) {
      svg_ << Text(c.x, c.y + 8.4, kSmallFont, "Level " + std::to_string(level), "class=\"level\"",
                   10.5);
      Use("level");
    }
  }
  svg_ << "</g>\n";
  svg_ << "<g class=\"counters\" text-anchor=\"middle\">\n";
  for (const auto& [hex, list] : items_) {
    if (list.empty() || b_.At(hex) == nullptr) continue;
    const Xy c = At(hex);
    const std::size_t shown = list.size() > 2 ? 1 : list.size();
    for (std::size_t i = 0; i < shown; ++i) {
      const Item& it = list[i];
      std::string text = it.text;
      if (list.size() > 2) text += " +" + std::to_string(list.size() - 1);
      const double top = c.y - 3.8 + static_cast<double>(i) * (kBoxH + 0.3);
      const bool unit = it.cls == "unit";
      svg_ << "<g class=\"" << it.cls << "\" data-hex=\"" << Escape(b_.Name(hex)) << "\""
           << (unit ? " data-unit=\"" + Escape(it.unit) + "\" data-at=\"" + Escape(it.at) + "\""
                    : "")
           << "><title>" << Escape(it.title) << "</title><rect x=\"" << Num(c.x - kBoxW / 2)
           << "\" y=\"" << Num(top) << "\" width=\"" << Num(kBoxW) << "\" height=\"" << Num(kBoxH)
           << "\" rx=\"0.4\" fill=\"" << (unit ? "#ffffff" : StyleColor("background"))
           << "\" stroke=\"" << StyleColor("ink") << "\" stroke-width=\"" << (unit ? 0.3 : 0.2)
           << "\"" << (unit ? "" : " stroke-dasharray=\"0.8 0.4\"") << "/>"
           << Text(c.x, top + 2.55, kFont, text, "", kBoxW - 0.8) << "</g>\n";
    }
  }
  svg_ << "</g>\n";
}

void Drawing::Overlay(const BoardOverlay& o, const char* color_key) {
  const std::string color = StyleColor(o.alert ? "alert" : color_key);
  svg_ << "<g class=\"" << Escape(o.kind) << "\" data-verdict=\"" << (o.alert ? "no" : "yes")
       << "\">\n";
  for (GridPos hex : o.hexes) {
    if (b_.At(hex) == nullptr) continue;
    svg_ << "<polygon class=\"" << Escape(o.kind) << "-hex\" data-hex=\"" << Escape(b_.Name(hex))
         << "\" points=\"" << HexPoints(At(hex), 0.9) << "\" fill=\"none\" stroke=\"" << color
         << "\" stroke-width=\"0.5\"/>\n";
  }
  std::ostringstream pts;
  for (std::size_t i = 0; i < o.points.size(); ++i) {
    const Xy p = At(o.points[i].hex);
    pts << (i ? " " : "") << Num(p.x) << "," << Num(p.y);
  }
  // A white casing under the thread, so it reads over any fill.
  svg_ << "<polyline points=\"" << pts.str()
       << "\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"1.4\" stroke-linejoin=\"round\"/>\n"
       << "<polyline class=\"thread\" points=\"" << pts.str() << "\" fill=\"none\" stroke=\""
       << color << "\" stroke-width=\"0.7\" stroke-linejoin=\"round\""
       << (o.alert && o.kind == "los" ? " stroke-dasharray=\"2 1\"" : "") << "/>\n";
  for (const t::Position& p : o.points) {
    const Xy c = At(p.hex);
    svg_ << "<circle cx=\"" << Num(c.x) << "\" cy=\"" << Num(c.y) << "\" r=\"0.9\" fill=\"" << color
         << "\"/>\n";
  }
  svg_ << "</g>\n";
  Use(o.kind);
  if (o.kind == "los" && !o.hexes.empty()) Use("los-hex");
  if (o.alert) Use("blocked");
}

// Each mark as a tag on its hex, or on the middle of its hexside; tags on one spot stack.
void Drawing::Marks(const BoardOverlay& o) {
  std::map<std::pair<long, long>, int> stacked;
  svg_ << "<g class=\"" << Escape(o.kind) << "-marks\" text-anchor=\"middle\">\n";
  for (const BoardMark& m : o.marks) {
    if (m.where.empty()) continue;
    Xy at{0, 0};
    for (GridPos p : m.where) {
      const Xy c = At(p);
      at.x += c.x / static_cast<double>(m.where.size());
      at.y += c.y / static_cast<double>(m.where.size());
    }
    const auto spot = std::pair{std::lround(at.x * 10), std::lround(at.y * 10)};
    const int k = stacked[spot]++;
    const double w = std::min(kFlats - 2, TextWidth(m.label, kFont) + 1.2);
    // On a hex, below its counters (over its terrain's words if it must); on a hexside, across
    // its middle.
    const double first = m.where.size() != 1 ? -kBoxH / 2
                         : Rows(m.where[0]) == 0
                             ? -kBoxH / 2
                             : -3.8 + static_cast<double>(Rows(m.where[0])) * (kBoxH + 0.3);
    const double top = at.y + first + k * (kBoxH + 0.3);
    const std::string color =
        StyleColor(m.alert ? "alert" : (o.kind == "los" ? "selected" : "path"));
    std::string where;
    for (GridPos p : m.where) where += (where.empty() ? "" : "-") + b_.Name(p);
    svg_ << "<g class=\"mark\" data-where=\"" << Escape(where) << "\"><rect x=\""
         << Num(at.x - w / 2) << "\" y=\"" << Num(top) << "\" width=\"" << Num(w) << "\" height=\""
         << Num(kBoxH) << "\" rx=\"0.6\" fill=\"#ffffff\" stroke=\"" << color
         << "\" stroke-width=\"0.4\"/>"
         << Text(at.x, top + 2.55, kFont, m.label, m.alert ? "font-weight=\"bold\"" : "", w - 0.6)
         << "</g>\n";
  }
  svg_ << "</g>\n";
}

// A line of the answer, wrapped to the drawing's width; returns the y below it.
double Drawing::Wrapped(double y, const std::string& line, double font, std::string_view attrs,
                        double indent) {
  const auto per_line =
      static_cast<std::size_t>((width_ - 2 * kMargin - 4 - indent) / (kCharEm * font));
  std::string rest = line;
  bool first = true;
  while (!rest.empty()) {
    std::string part = rest;
    if (Chars(rest) > per_line) {
      std::size_t cut = rest.rfind(' ', per_line);
      if (cut == std::string::npos || cut == 0) cut = per_line;
      part = rest.substr(0, cut);
      rest = rest.substr(cut);
      while (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
    } else {
      rest.clear();
    }
    svg_ << Text(kMargin + indent + (first ? 0 : 4), y, font, part, attrs);
    y += font * 1.35;
    first = false;
  }
  return y;
}

double Drawing::Panel(double y, const BoardOverlay& o) {
  svg_ << "<g class=\"" << Escape(o.kind) << "-answer\">\n";
  y = Wrapped(y + 3.4, o.verdict, 3.2,
              std::string("class=\"verdict\" font-weight=\"bold\" fill=\"") +
                  StyleColor(o.alert ? "alert" : "ink") + "\"");
  for (const std::string& line : o.lines) {
    const std::size_t indent = std::min<std::size_t>(line.find_first_not_of(' '), 8);
    y = Wrapped(y, line.substr(indent), kPanelFont, "class=\"answer\"",
                static_cast<double>(indent) * 1.2);
  }
  svg_ << "</g>\n";
  return y + 2;
}

double Drawing::UnitsPanel(double y) {
  if (b_.units().empty()) return y;
  svg_ << "<g class=\"units\">\n";
  y = Wrapped(y + 3.4, "Units", 3.0, "font-weight=\"bold\"");
  std::string line;
  for (const t::BoardUnit& u : b_.units()) {
    std::string s = u.name + " (" +
                    (u.side.empty() ? "" : SideAbbrev(u.side) + ": " + u.side + " ") +
                    u.unit.ToString() + ") at " + b_.Name(u.at);
    if (u.entrenched) s += ", entrenched";
    if (u.crest) s += ", Crest status";
    line += (line.empty() ? "" : "; ") + s;
  }
  y = Wrapped(y, line, kPanelFont, "class=\"unit-list\"");
  svg_ << "</g>\n";
  return y + 2;
}

double Drawing::Legend(double y) {
  struct Entry {
    std::string key, label, swatch;
  };
  const std::string ink = StyleColor("ink");
  auto line = [](const std::string& attrs) {
    return "<line x1=\"0.5\" y1=\"2.5\" x2=\"9.5\" y2=\"2.5\" " + attrs + "/>";
  };
  std::vector<Entry> entries;
  for (const HexLook& look : legend_) {
    std::string sw = "<rect width=\"10\" height=\"5\" fill=\"" + look.fill + "\" stroke=\"" +
                     StyleColor("hexEdge") + "\" stroke-width=\"0.25\"/>";
    if (!look.pattern.empty())
      sw += "<rect width=\"10\" height=\"5\" fill=\"url(#" + look.pattern + ")\"/>";
    entries.push_back({look.key, look.label, sw});
  }
  const std::vector<Entry> fixed = {
      {"paddy-interior", "paddy interior: IN the paddy (G8.1)",
       "<rect x=\"1\" y=\"0.5\" width=\"8\" height=\"4\" fill=\"none\" stroke=\"" +
           StyleColor("faint") + "\" stroke-width=\"0.25\" stroke-dasharray=\"0.8 0.8\"/>"},
      {"bank", "bank hexside (G8.1)",
       line("stroke=\"" + StyleColor("causeway") + "\" stroke-width=\"1.1\"")},
      {"bank-breached", "breached bank hexside (G8.8)",
       line("stroke=\"" + StyleColor("causeway") +
            "\" stroke-width=\"1.1\" stroke-dasharray=\"1.5 1.2\"")},
      {"crest", "Beach-Hinterland hexside: Crest Line (G13.2)",
       line("stroke=\"" + StyleColor("road") + "\" stroke-width=\"0.9\"")},
      {"shore", "OCEAN-Hinterland hexside: Crest Line (G13.41)",
       line("stroke=\"" + StyleColor("road") +
            "\" stroke-width=\"0.9\" stroke-dasharray=\"2 0.8\"")},
      {"seawall", std::string("seawall hexside, ") + t::Name(b_.settings().seawall) + " (G13.6)",
       line("stroke=\"" + ink + "\" stroke-width=\"0.7\" stroke-dasharray=\"2.2 0.9\"")},
      {"seawall-breached", "breached seawall hexside (G13.624)",
       line("stroke=\"" + ink +
            "\" stroke-width=\"0.7\" stroke-dasharray=\"2.2 0.9\" stroke-opacity=\"0.5\"")},
      {"wall", "wall hexside", line("stroke=\"" + ink + "\" stroke-width=\"1.0\"")},
      {"hedge", "hedge hexside",
       line("stroke=\"" + StyleColor("supplied") +
            "\" stroke-width=\"1.0\" stroke-dasharray=\"0.9 0.5\"")},
      {"cliff", "cliff hexside (G13.24)",
       line("stroke=\"" + StyleColor("border") +
            "\" stroke-width=\"1.3\" stroke-dasharray=\"0.4 0.6\"")},
      {"road", "road across the hexside",
       line("stroke=\"" + StyleColor("road") + "\" stroke-width=\"0.5\"")},
      {"path-hexside", "path across the hexside",
       line("stroke=\"" + StyleColor("road") +
            "\" stroke-width=\"0.5\" stroke-dasharray=\"1 0.7\"")},
      {"grid-edge", "edge of a board or overlay, as the board file lays it (G13.1)",
       line("stroke=\"" + StyleColor("sheetEdge") + "\" stroke-width=\"0.6\"")},
      {"covered", "Covered hexside of a Panji counter (G9.3)",
       "<polyline points=\"0.5,1 1.5,3 2.5,1 3.5,3 4.5,1 5.5,3 6.5,1 7.5,3 8.5,1 9.5,3\" "
       "fill=\"none\" stroke=\"" +
           ink + "\" stroke-width=\"0.3\"/>"},
      {"panji", "Panji counter: ID letter; HIP if hidden (G9.11)",
       "<rect x=\"0.5\" y=\"0.5\" width=\"9\" height=\"4\" fill=\"" + StyleColor("background") +
           "\" stroke=\"" + ink + "\" stroke-width=\"0.2\" stroke-dasharray=\"0.8 0.4\"/>"},
      {"counter", "counter (dashed box): what it is, in words",
       "<rect x=\"0.5\" y=\"0.5\" width=\"9\" height=\"4\" fill=\"" + StyleColor("background") +
           "\" stroke=\"" + ink + "\" stroke-width=\"0.2\" stroke-dasharray=\"0.8 0.4\"/>"},
      {"unit", "unit (solid box): side, name, place (bank, beneath...)",
       "<rect x=\"0.5\" y=\"0.5\" width=\"9\" height=\"4\" fill=\"#ffffff\" stroke=\"" + ink +
           "\" stroke-width=\"0.3\"/>"},
      {"level", "Level N: the hex's level, where not 0", ""},
      {"los", "LOS thread, centre dot to centre dot",
       line("stroke=\"" + StyleColor("selected") + "\" stroke-width=\"0.7\"")},
      {"los-hex", "a hex the LOS crosses; its tag: what it adds",
       "<rect x=\"0.5\" y=\"0.5\" width=\"9\" height=\"4\" fill=\"none\" stroke=\"" +
           StyleColor("selected") + "\" stroke-width=\"0.5\"/>"},
      {"blocked", "no LOS / refused: red, dashed; tag \"blocks\"",
       line("stroke=\"" + StyleColor("alert") +
            "\" stroke-width=\"0.7\" stroke-dasharray=\"2 1\"")},
      {"path", "the unit's path; its tags: step number and cost",
       line("stroke=\"" + StyleColor("path") + "\" stroke-width=\"0.7\"")},
  };
  for (const Entry& e : fixed) {
    if (used_.contains(e.key)) entries.push_back(e);
  }
  svg_ << "<g class=\"legend\">\n";
  y = Wrapped(y + 3.4, "Legend", 3.0, "font-weight=\"bold\"");
  constexpr double kColumn = 94, kRow = 6.2;
  const int columns = std::max(1, static_cast<int>((width_ - 2 * kMargin) / kColumn));
  std::set<std::string> seen;
  int i = 0;
  for (const Entry& e : entries) {
    if (!seen.insert(e.key).second) continue;
    const double x = kMargin + (i % columns) * kColumn;
    const double ey = y + (i / columns) * kRow;
    svg_ << "<g class=\"legend-entry\" data-key=\"" << Escape(e.key)
         << "\"><g transform=\"translate(" << Num(x) << "," << Num(ey - 3.6) << ")\">" << e.swatch
         << "</g>" << Text(x + 12, ey, kPanelFont, e.label, "", kColumn - 14) << "</g>\n";
    ++i;
  }
  svg_ << "</g>\n";
  return y + ((i + columns - 1) / columns) * kRow + 2;
}

std::string Drawing::Draw() {
  Layout();
  CollectItems();
  Defs();
  Hexes();
  Hexsides();
  Panjis();
  if (req_.los) Overlay(*req_.los, "selected");
  if (req_.path) Overlay(*req_.path, "path");
  HexTexts();
  if (req_.los) Marks(*req_.los);
  if (req_.path) Marks(*req_.path);
  svg_ << "<g class=\"title\">\n"
       << Text(kMargin, kMargin + 4, 4.2, b_.name(), "font-weight=\"bold\"", width_ - 2 * kMargin);
  std::string sub = b_.file();
  if (const auto slash = sub.rfind('/'); slash != std::string::npos) sub = sub.substr(slash + 1);
  if (!req_.settings.empty()) sub += " · " + req_.settings;
  svg_ << Text(kMargin, kMargin + 9.5, kPanelFont, sub, "fill=\"" + StyleColor("faint") + "\"",
               width_ - 2 * kMargin)
       << "</g>\n";
  double y = map_bottom_ + 2;
  if (req_.los) y = Panel(y, *req_.los);
  if (req_.path) y = Panel(y, *req_.path);
  y = UnitsPanel(y);
  y = Legend(y);
  const double height = y + kMargin;
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Num(width_) << "mm\" height=\""
      << Num(height) << "mm\" viewBox=\"0 0 " << Num(width_) << " " << Num(height)
      << "\" font-family=\"sans-serif\">\n<title>" << Escape(b_.name()) << "</title>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"" << StyleColor("background") << "\"/>\n"
      << svg_.str() << "</svg>\n";
  return out.str();
}

}  // namespace

Result<std::string> RenderBoardSvg(const t::Board& b, const TacticalRenderRequest& req) {
  return Drawing(b, req).Draw();
}

}  // namespace opsim::query
