// TheaterBuilder assembles a Theater: the scenario reader and tests feed it sheets, hexes and
// features, then Finish() derives what the file does not spell out (hexside water, causeways,
// the naval view) and checks what must hold across sections. Private to libmap.
#pragma once

#include <optional>
#include <vector>

#include "opsim/map/theater.h"

namespace opsim::map {

class TheaterBuilder {
 public:
  TheaterBuilder(std::string name, std::string title, std::vector<std::string> notes);

  // Sheets first, then hexes, then BuildTopology(), then everything else.
  std::size_t AddSheet(Sheet sheet);  // cells are filled by AddHex
  HexRef AddHex(std::size_t sheet, int col, int row, HexInfo info);
  std::size_t AddZone(std::string name);
  // Links neighbours (across sheet joins too), numbers the hexsides and builds the graph.
  void BuildTopology();

  const Theater& view() const { return t_; }
  HexInfo& hex(HexRef h) { return t_.hexes_[h.v]; }
  HexsideInfo& hexside(HexsideRef s) { return t_.hexsides_[s.v]; }
  // Marks a hexside's water explicitly; FinishHexsides() keeps it instead of deriving it.
  void SetWater(HexsideRef s, HexsideWater w);
  // After every hexside feature and water override: derives the rest of the hexside water and
  // the causeways (41.A.1). Water areas and waterways come after it.
  void FinishHexsides();

  void AddPlace(Place place);
  // Errors carry no location; the caller adds it.
  Status AddArea(Area area);
  Status AddWaterway(Waterway waterway);
  Status AddRailFerry(RailFerry ferry);
  Status AddExit(ExitEdge exit);
  // Overrides the default single water area of a hex.
  Status SetWaterAreas(HexRef h, std::vector<WaterArea> areas);

  // Builds the naval view. The builder is spent afterwards.
  Result<Theater> Finish();

 private:
  Status CheckWaterway(const Waterway& way) const;
  void BuildNavalGraph();
  // The hexes that touch hexside s: its two hexes and the two at its ends (each may be none).
  std::array<HexRef, 4> TouchingHexes(HexsideRef s) const;

  Theater t_;
  std::vector<bool> water_explicit_;
  std::vector<std::vector<WaterArea>> explicit_areas_;  // by hex; empty: default
};

}  // namespace opsim::map
