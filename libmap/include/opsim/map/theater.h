// Theater: the static model of a campaign map, built once from a scenario file.
//
// Hexes are the vertices and hexsides the edges of a Boost compressed-sparse-row graph (each
// hexside is two directed edges whose property is the hexside's id). Everything here is
// immutable after loading: dynamic state (owners, frozen zones, floods, canal status, damage,
// markers) lives beside it in MapState, and rules filter or weight edges instead of rebuilding.
// The theater also holds the naval view: the water areas inside each hex (a causeway can split a
// hex's water, 41.A.1) and the riverine hexsides along which canal and river movement runs.
// A const Theater is safe to share between threads.
#pragma once

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/range/iterator_range.hpp>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/core/hex.h"
#include "opsim/map/types.h"

namespace opsim::map {

struct HexInfo {
  std::uint64_t areas = 0;  // bit i set: the hex is in areas()[i]
  Terrain terrain = Terrain::kClear;
  Coast coast = Coast::kNone;
  CityKind city = CityKind::kNone;
  PortSize port = PortSize::kNone;
  bool inland_port = false;
  bool airbase = false;
  std::uint8_t zone = 0;   // index into weather_zones()
  std::uint8_t sheet = 0;  // index into sheets()
  std::uint8_t col = 0;    // XX on its sheet
  std::uint8_t row = 0;    // YY on its sheet

  bool IsWater() const { return terrain == Terrain::kAllSea || terrain == Terrain::kLake; }
  bool HasSea() const { return terrain == Terrain::kAllSea || coast == Coast::kPartialSea; }
  bool HasLake() const { return terrain == Terrain::kLake || coast == Coast::kPartialLake; }
  bool IsPartialLake() const { return coast == Coast::kPartialLake; }
};

struct HexsideInfo {
  HexRef a;  // the two hexes; a has the lower id
  HexRef b;
  Dir dir_from_a = Dir::kN;
  HexsideWater water = HexsideWater::kNone;
  std::uint16_t features = 0;  // HexsideFeature bits
  std::uint8_t waterway = 0;   // 0: none; otherwise waterways()[waterway - 1]

  bool Has(HexsideFeature f) const { return (features & f) != 0; }
  // A bridge: a road or railroad over a river or canal, or a causeway (41.A.1).
  bool IsBridge() const {
    return Has(kCauseway) || ((features & (kRoad | kRailroad)) != 0 &&
                              (features & (kMajorRiver | kMinorRiver | kCanal)) != 0);
  }
  HexRef Other(HexRef h) const { return h == a ? b : a; }
};

struct Sheet {
  std::string name;
  int cols = 0;       // the printed sheet runs 01..cols
  int rows = 0;       // and 01..rows
  GridPos origin;     // global position of the sheet's (00,00)
  int first_col = 0;  // the part of the sheet this theater holds
  int first_row = 0;
  int last_col = -1;
  int last_row = -1;
  std::vector<std::uint32_t> cells;  // (col-first_col) + (row-first_row)*width -> hex, or kNone

  HexRef At(int col, int row) const;
};

// What a named area means to the rules; kNone is a plain named region.
enum class AreaRole : std::uint8_t {
  kNone,
  kNetherlands,     // 41.A.4
  kEgyptianDelta,   // 41.B
  kGreaterGermany,  // 41.F
  kIran,            // 41.F
  kSeaOfAzov,       // 41.E.5, 41.E.1
  kBalticIslands,   // 41.E.2
  kEstonia,         // 41.E.2
  kKerchStraits,    // 41.E.1
  kSivash,          // 41.E.4
  kVuoksa,          // 41.E.6
};
const char* AreaRoleName(AreaRole r);  // "netherlands", "sea-of-azov", ...
std::optional<AreaRole> ParseAreaRole(std::string_view name);

struct Area {
  std::string name;
  AreaRole role = AreaRole::kNone;
  std::vector<HexRef> hexes;  // sorted
};

// The rule that governs a named waterway.
enum class WaterwayRule : std::uint8_t {
  kNone,        // a plain named river or channel
  kSuez,        // 41.B
  kCorinth,     // 41.C
  kShatt,       // 41.D
  kKerch,       // 41.E.1
  kKronshtadt,  // 41.E.3
  kVuoksa,      // 41.E.6
};
RuleId WaterwayRuleId(WaterwayRule r);  // "41.B", ...; empty for kNone
std::optional<WaterwayRule> ParseWaterwayRule(std::string_view id);

// A named line of hexsides. Navigable waterways carry riverine naval movement along their
// hexsides. Closed ones are rivers and lakes a rule shuts to riverine movement (41.D's Karun,
// Euphrates, ...): they stay on the naval view so that a refusal can name that rule. The others
// are named so that rules can point at them (the Kerch hexside, the Vuoksa).
struct Waterway {
  std::string name;
  WaterwayRule rule = WaterwayRule::kNone;
  bool navigable = false;
  bool closed = false;
  std::string note;  // why it is closed, for a refusal; may be empty
  std::vector<HexsideRef> hexsides;
  bool riverine() const { return navigable || closed; }
};

// 41.A.2: a rail ferry line, from one land terminal across water to another.
struct RailFerry {
  std::string name;
  std::vector<HexRef> line;  // terminal, the water hexes crossed, terminal
  HexRef from() const { return line.front(); }
  HexRef to() const { return line.back(); }
};

enum class MapEdge : std::uint8_t { kNorth, kEast, kSouth, kWest };
const char* MapEdgeName(MapEdge e);  // "north", ...
std::optional<MapEdge> ParseMapEdge(std::string_view name);

// 41.F: hexes on a map edge where one side's units may exit, and the total they count toward.
struct ExitEdge {
  std::string name;
  Side side = Side::kAllied;
  MapEdge edge = MapEdge::kWest;
  std::string total;  // the running total the exiting units' attack strengths go to
  std::vector<HexRef> hexes;
};

struct Place {
  HexRef hex;
  std::string name;
};

// One body of water inside a hex. A hex holds one per separate body; each lists the hexside
// directions it touches. A hex with a port but no sea (an inland port) has one area touching
// nothing: it is reached along riverine hexsides only.
struct WaterArea {
  HexRef hex;
  std::uint8_t index = 0;  // 0 is the hex's main area (where its port is)
  std::uint8_t sides = 0;  // bit d: touches the hexside in direction d
  bool port_only = false;
  HexsideRef split_by;  // the causeway that separates this area from the hex's others
  std::string name;     // empty for the default area
  bool Touches(Dir d) const { return (sides >> static_cast<int>(d)) & 1u; }
};

// The naval view: nodes are water areas (first) and riverine hexsides (after them).
enum class NavalEdgeKind : std::uint8_t {
  kSea,     // area to area across a sea hexside
  kRiver,   // riverine hexside to the next one along the same waterway
  kAccess,  // a hex's water (or port) onto a riverine hexside it touches
  kLeave,   // a riverine hexside into a hex that touches it
};
struct NavalEdgeProps {
  std::uint32_t hexside = HexsideRef::kNone;  // crossed (kSea) or entered/left (river edges)
  NavalEdgeKind kind = NavalEdgeKind::kSea;
};

// The ground graph's edge property: the hexside the edge crosses.
struct HexsideEdge {
  std::uint32_t hexside = HexsideRef::kNone;
};

class Theater {
 public:
  using Graph =
      boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, HexsideEdge,
                                         boost::no_property, std::uint32_t, std::uint32_t>;
  using NavalGraph =
      boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, NavalEdgeProps,
                                         boost::no_property, std::uint32_t, std::uint32_t>;

  const std::string& name() const { return name_; }
  const std::string& title() const { return title_; }
  const std::vector<std::string>& notes() const { return notes_; }

  // The ground topology: vertex = HexRef::v; each edge's property names its hexside.
  const Graph& graph() const { return graph_; }
  std::size_t hex_count() const { return hexes_.size(); }
  std::size_t hexside_count() const { return hexsides_.size(); }

  const HexInfo& hex(HexRef h) const { return hexes_[h.v]; }
  const HexsideInfo& hexside(HexsideRef s) const { return hexsides_[s.v]; }
  std::span<const HexInfo> hexes() const { return hexes_; }
  std::span<const HexsideInfo> hexsides() const { return hexsides_; }

  // The hexside of h in direction d, or none at the edge of the theater.
  HexsideRef HexsideAt(HexRef h, Dir d) const {
    return HexsideRef{side_by_dir_[h.v * kDirCount + static_cast<int>(d)]};
  }
  HexRef NeighborAt(HexRef h, Dir d) const;
  // The hexside between two hexes, if they are adjacent.
  HexsideRef HexsideBetween(HexRef a, HexRef b) const;
  // The direction of hexside s as seen from h (h must be one of its hexes).
  Dir DirFrom(HexsideRef s, HexRef h) const;
  GridPos Pos(HexRef h) const;
  HexRef AtPos(GridPos p) const;

  // Resolves a token against this theater, with one clear error naming the token: a bad
  // token, an unknown sheet, a hex off its sheet, a hex not on this theater, a hexside whose
  // hexes are not adjacent.
  Result<HexRef> FindHex(std::string_view token, std::string_view default_sheet = {}) const;
  Result<HexsideRef> FindHexside(std::string_view token) const;
  std::string HexName(HexRef h) const;
  // The name of h's sheet: the sheet a later hex of a path or list may drop.
  const std::string& SheetOf(HexRef h) const { return sheets_[hexes_[h.v].sheet].name; }
  std::string HexsideName(HexsideRef s) const;

  const std::vector<Sheet>& sheets() const { return sheets_; }
  const std::vector<Area>& areas() const { return areas_; }
  const std::vector<Waterway>& waterways() const { return waterways_; }
  // The waterway a rule governs (the Suez Canal for kSuez), or null on a theater without one.
  const Waterway* FindWaterway(WaterwayRule rule) const {
    for (const Waterway& w : waterways_) {
      if (w.rule == rule) return &w;
    }
    return nullptr;
  }
  const std::vector<RailFerry>& rail_ferries() const { return rail_ferries_; }
  const std::vector<ExitEdge>& exits() const { return exits_; }
  const std::vector<Place>& places() const { return places_; }
  const std::vector<std::string>& weather_zones() const { return zones_; }

  bool InArea(HexRef h, std::size_t area) const { return (hexes_[h.v].areas >> area) & 1u; }
  // The first area with this role, or -1.
  int AreaWithRole(AreaRole role) const;
  bool InRole(HexRef h, AreaRole role) const;
  const Waterway* WaterwayOf(HexsideRef s) const {
    std::uint8_t w = hexsides_[s.v].waterway;
    return w == 0 ? nullptr : &waterways_[w - 1];
  }
  // The place name of a hex ("Basra"), or empty.
  std::string_view PlaceName(HexRef h) const;
  // Rail ferries that start or end at h.
  std::vector<std::size_t> RailFerriesAt(HexRef h) const;

  // The naval view.
  const NavalGraph& naval_graph() const { return naval_graph_; }
  std::size_t water_area_count() const { return water_areas_.size(); }
  const WaterArea& water_area(std::uint32_t node) const { return water_areas_[node]; }
  std::span<const WaterArea> WaterAreasOf(HexRef h) const;
  // Node ids of the naval graph: an area's node is its index; a riverine hexside's node follows.
  std::uint32_t AreaNode(HexRef h, std::size_t index) const { return area_first_[h.v] + index; }
  bool IsRiverNode(std::uint32_t node) const { return node >= water_areas_.size(); }
  HexsideRef RiverHexside(std::uint32_t node) const {
    return river_sides_[node - water_areas_.size()];
  }
  // The node of a riverine hexside, or none if it is on no navigable or closed waterway.
  std::optional<std::uint32_t> RiverNode(HexsideRef s) const;

 private:
  friend class TheaterBuilder;

  std::string name_;
  std::string title_;
  std::vector<std::string> notes_;
  Graph graph_;
  std::vector<HexInfo> hexes_;
  std::vector<HexsideInfo> hexsides_;
  std::vector<std::uint32_t> side_by_dir_;  // hex * 6 + dir -> hexside
  std::vector<Sheet> sheets_;
  std::vector<Area> areas_;
  std::vector<Waterway> waterways_;
  std::vector<RailFerry> rail_ferries_;
  std::vector<ExitEdge> exits_;
  std::vector<Place> places_;  // sorted by hex
  std::vector<std::string> zones_;

  std::vector<WaterArea> water_areas_;     // grouped by hex, in hex order
  std::vector<std::uint32_t> area_first_;  // hex -> its first area (size hex_count + 1)
  std::vector<HexsideRef> river_sides_;    // river node - area count -> hexside, sorted
  NavalGraph naval_graph_;
};

}  // namespace opsim::map
