// Drawing a theater as SVG: terrain, coasts, hexsides, places, labels, and a route on top.
#pragma once

#include <string>
#include <vector>

#include "opsim/map/state.h"
#include "opsim/map/theater.h"

namespace opsim::cli {

struct RenderUnit {
  map::HexRef hex;
  std::string label;
  Side side;
};

struct RenderRequest {
  std::string sheet;               // only this sheet, if set
  std::vector<std::string> route;  // waypoint tokens (hexes or hexsides) to draw as a line
  std::vector<RenderUnit> units;   // unit counters to draw
};

// Sheets that join on the global grid are drawn together; separate groups are stacked.
Result<std::string> RenderSvg(const map::Theater& t, const map::MapState& state,
                              const RenderRequest& req);

}  // namespace opsim::cli
