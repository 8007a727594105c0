// Board: a tactical board as a scenario sets it up: hexes, hexsides, counters, units, settings.
//
// A board stacks coordinate grids (a mapboard, then overlays on it; G13.1), so every hex has one
// printed coordinate, the one of the topmost grid that covers it; a covered hex cannot be named.
// Each hex has a terrain, a level, and the counters in it; hexsides carry walls, hedges, cliffs,
// breaches and the like; paddy banks are not stored but follow from paddy fields (G8.1: a bank
// hexside is one a paddy field's interior does not cross). Board is data: the rules that read it
// live in paddy.h, panji.h, beach.h, movement.h and los.h. A loaded Board is immutable in use;
// the mutators exist for loaders and for tests that vary an illustration. Thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/tactical/coordinate.h"
#include "opsim/tactical/panji_counter.h"
#include "opsim/tactical/position.h"
#include "opsim/tactical/settings.h"
#include "opsim/tactical/terrain.h"
#include "opsim/tactical/unit.h"

namespace opsim::tactical {

enum class Road { kNone, kDirt, kPaved };

// Counters other than Panji and Pier, which carry more than their presence.
enum class CounterType {
  kWire,
  kMines,
  kRoadblock,
  kTrench,
  kFoxhole,
  kShellholes,
  kBlaze,
  kSmoke,
  kWreck,
  kAfv,
  kRubble,
  kBeachObstacle,
  kTunnel,
  kTripFlare,  // G.8; set off in a panji Location only as G9.121 says
  kCount
};
const char* Name(CounterType t);
// Whether the counter is a Fortification, for the set-up rules that name them (G8.7, G13.5):
// wire, mines, roadblocks, trenches, foxholes, tunnels and Beach Obstacles (G14.5). Panjis are
// one too (G9.1) but are not a CounterType. These texts never call a trip flare (G.8) one.
bool IsFortification(CounterType t);
std::optional<CounterType> ParseCounterType(std::string_view s);
std::string CounterTypeNames();

enum class PierKind { kWooden, kStone };

struct Hex {
  GridPos cell;
  std::size_t grid = 0;  // index into Board::grids()
  Terrain terrain = Terrain::kOpenGround;
  int level = 0;
  std::string field;  // the paddy field a paddy hex belongs to (G8.1); default: its own name
  Road road = Road::kNone;
  bool reef = false;          // an Ocean hex of the reef (G13.43)
  bool subterranean = false;  // a subterranean passage exists here (G8.73)
  bool bridge = false;        // a bridge Location (G9.1)
  std::optional<PanjiCounter> panji;
  std::optional<PierKind> pier;
  std::vector<CounterType> counters;
  // Wrecks and AFV counters above the Panji counter (G9.2).
  bool wreck_above_panji = false;

  bool Has(CounterType t) const;
};

struct HexsideFeatures {
  bool breached = false;  // a breached bank (G8.8) or low seawall (G13.624)
  bool wall = false;
  bool hedge = false;
  bool cliff = false;
  bool seawall = false;  // designated a seawall hexside (G13.6); its kind is Settings::seawall
  bool road = false;     // a road crosses it (G9.1 bridges, G9.43)
  bool path = false;
  bool depression = false;
  bool trailbreak = false;
  bool fascine = false;  // an AVRE's fascine lies against it (G13.625)
};

// A unit an illustration places on the board, so an example can name it ("squad A").
struct BoardUnit {
  std::string name;
  std::string side;
  Unit unit;
  Position at;
  bool entrenched = false;
  bool crest = false;    // in Crest status (G13.23)
  int level_offset = 0;  // above the ground level of its hex (an upper building level, say)
};

// What one board may hold, so that no board file (or uploaded board text: docs/api.md) costs
// more than a second or some tens of MB to load, trace and draw: its grids, and the hex positions
// of the box that holds them all as placed (cells_ below). 20,000 is some sixty ASL mapboards;
// the benchmark's 52 x 200 board is 10,400. A 100,000-hex board took 3.6 s and 214 MB to draw.
inline constexpr std::size_t kMaxGrids = 100;
inline constexpr std::size_t kMaxBoardCells = 20'000;

class Board {
 public:
  Board() = default;

  const std::string& name() const { return name_; }
  const std::string& file() const { return file_; }
  Ruleset ruleset() const { return ruleset_; }
  const Settings& settings() const { return settings_; }
  Settings& mutable_settings() { return settings_; }
  const std::vector<CoordinateGrid>& grids() const { return grids_; }
  const std::vector<BoardUnit>& units() const { return units_; }
  // Whether any seawall hexside was designated explicitly (otherwise a seawall SSR designates
  // every Beach-Hinterland hexside; G13.6).
  bool seawalls_designated() const { return seawalls_designated_; }
  // The amphibious side's entry/exit area, if the board names one (G13.91).
  const std::vector<GridPos>& entry_area() const { return entry_area_; }

  // The hex a printed coordinate names; an error names the token and what is wrong (unknown
  // coordinate, off the grid, or covered by an overlay hex).
  Result<GridPos> Find(std::string_view token) const;
  // "oL3:bank" -> Position; the place must exist in that hex.
  Result<Position> FindPosition(std::string_view token) const;
  std::string Name(GridPos cell) const;
  std::string Name(const Position& p) const;
  std::string Name(const Hexside& h) const;  // "oL3-oM3"
  const Hex* At(GridPos cell) const;
  Hex* MutableAt(GridPos cell);
  // Every hex, in a fixed order.
  std::vector<const Hex*> Hexes() const;

  HexsideFeatures Features(const Hexside& h) const;
  HexsideFeatures& MutableFeatures(const Hexside& h) { return hexsides_[h]; }
  const std::map<Hexside, HexsideFeatures>& hexsides() const { return hexsides_; }

  const BoardUnit* FindUnit(std::string_view name) const;

  // Loader interface.
  void SetIdentity(std::string name, std::string file, Ruleset ruleset);
  // Adds a grid on top of those already there; its hexes take `terrain` and `level`.
  // kInvalidInput, and nothing added, past kMaxGrids or if the board would then span more than
  // kMaxBoardCells (the reader refuses a grid whose own extent does first).
  Status AddGrid(CoordinateGrid grid, Terrain terrain, int level);
  void AddUnit(BoardUnit u) { units_.push_back(std::move(u)); }
  std::vector<BoardUnit>& mutable_units() { return units_; }
  void SetEntryArea(std::vector<GridPos> area) { entry_area_ = std::move(area); }
  void MarkSeawallsDesignated() { seawalls_designated_ = true; }

 private:
  std::string name_;
  std::string file_;
  Ruleset ruleset_ = Ruleset::kAsl;
  Settings settings_;
  std::vector<CoordinateGrid> grids_;
  // The hexes in a dense box, column by column (the order Hexes() gives): At() is an index, not
  // a search, since LOS and movement ask for hexes constantly (docs/performance.md, Tactical).
  GridPos origin_{0, 0};
  int box_cols_ = 0;
  int box_rows_ = 0;
  std::vector<Hex> cells_;
  std::vector<std::uint8_t> present_;
  std::size_t count_ = 0;
  std::optional<std::size_t> IndexOf(GridPos cell) const;
  std::map<Hexside, HexsideFeatures> hexsides_;
  std::vector<BoardUnit> units_;
  std::vector<GridPos> entry_area_;
  bool seawalls_designated_ = false;
};

}  // namespace opsim::tactical
