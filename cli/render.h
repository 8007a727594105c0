// Drawing a theater as SVG: terrain, coasts, hexsides, places, labels, counters, and a route on
// top; as one file at its natural print size (a hex 16 mm across), or split into printed pages.
// The colours and counter symbols are web/palette.json's, the browser's own.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "opsim/map/state.h"
#include "opsim/map/theater.h"

namespace opsim::cli {

// A counter: what it says on its face, so that side and strength are read as text, not colour.
enum class UnitKind : std::uint8_t { kGround, kAir, kNaval };
struct RenderUnit {
  map::HexRef hex;
  std::string label;  // the unit's id
  Side side;
  UnitKind kind = UnitKind::kGround;
  std::string strength;     // "6-5-4 3RE" for ground, "air", or the naval kind ("tf")
  std::string name;         // the full name, as the counter's tooltip
  std::string nationality;  // its colour (web/palette.json), else its side's
  std::string symbol;       // the palette's symbol: the ground unit's type, "air" or "naval"
};

struct RenderRequest {
  std::string sheet;               // only this sheet, if set
  std::vector<std::string> route;  // waypoint tokens (hexes or hexsides) to draw as a line
  std::vector<RenderUnit> units;   // unit counters to draw; those sharing a hex form a stack
  // On demand: each unit's hex with its B8 status name ("out-of-supply"), as `opsim supply`
  // answers for `supply_side`.
  std::string supply_side;
  std::vector<std::pair<map::HexRef, std::string>> supply;
  // On demand: by hex, 1 where `zoc_side`'s units exert a zone of control (B4.8).
  std::string zoc_side;
  std::vector<std::uint8_t> zoc;
};

// Sheets that join on the global grid are drawn together; separate groups are stacked. Every
// text is 6 pt or more at the drawing's natural size, which its width and height say in mm.
Result<std::string> RenderSvg(const map::Theater& t, const map::MapState& state,
                              const RenderRequest& req);

// The same drawing at the same scale, cut into pages of a paper size (10 mm margins, a hex's
// overlap between neighbouring pages, pages holding no hex left out), each page an SVG of its
// own; the legend is the last page.
enum class PageSize : std::uint8_t { kA4, kLetter };
const char* PageSizeName(PageSize p);  // "a4", "letter"
Result<std::vector<std::string>> RenderPages(const map::Theater& t, const map::MapState& state,
                                             const RenderRequest& req, PageSize size);

}  // namespace opsim::cli
