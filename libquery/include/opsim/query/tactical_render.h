// Drawing a tactical board as SVG (`opsim tactical render`, docs/tactical.md): every hex with its
// printed coordinate, terrain and level; paddy interiors and banks; beach zones (Hard and Soft
// Sand, shallow and deep OCEAN, reefs), Crest Lines and seawalls; Panji counters with their
// Covered hexsides; other counters and the board's units as text; the grids where the board file
// lays them; a legend. On top, a LOS thread or a path, with what each hex contributed and the
// answer in words, as `tactical los` and `tactical move` print it: the drawing decides no rule,
// the caller passes the answers in (opsim/query/tactical.h). Colours are web/palette.json's; none
// is the only signal. For a page to click: each hex's polygon and texts carry data-hex (its
// coordinate as --from and --path take it, "oM5", "37EE7") and each unit drawn data-unit (its
// board name).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/tactical/board.h"

namespace opsim::query {

// A label on the drawing: on a hex, or on the hexside between two hexes.
struct BoardMark {
  std::vector<tactical::GridPos> where;  // one hex, or a hexside's two hexes
  std::string label;                     // short: "Hindrance +1", "blocks", "1: 2½ MF"
  bool alert = false;                    // what blocks, or a refused step
};

// A LOS thread (two points) or a unit's path (its steps' positions), and its answer.
struct BoardOverlay {
  std::string kind;  // "los" or "path": the SVG class
  std::vector<tactical::Position> points;
  std::vector<tactical::GridPos> hexes;  // hexes to outline: those the LOS crosses
  std::vector<BoardMark> marks;
  bool alert = false;              // the LOS is blocked, the path illegal
  std::string verdict;             // one line: "LOS clear: Hindrance +1 [G8.4]"
  std::vector<std::string> lines;  // the answer as the command prints it, rule by rule
};

struct TacticalRenderRequest {
  std::optional<BoardOverlay> los;
  std::optional<BoardOverlay> path;
  std::string settings;  // the settings in words, for the title
};

// The whole board at its natural print size (a hex 18 mm across its flats); every text is 6 pt
// or more at that size, which the drawing's width and height say in mm.
Result<std::string> RenderBoardSvg(const tactical::Board& b, const TacticalRenderRequest& req);

}  // namespace opsim::query
