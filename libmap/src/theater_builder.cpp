#include "theater_builder.h"

#include <algorithm>
#include <set>

namespace opsim::map {

namespace {

std::uint8_t Bit(Dir d) {
  return static_cast<std::uint8_t>(1u << static_cast<int>(d));
}

}  // namespace

TheaterBuilder::TheaterBuilder(std::string name, std::string title,
                               std::vector<std::string> notes) {
  t_.name_ = std::move(name);
  t_.title_ = std::move(title);
  t_.notes_ = std::move(notes);
}

std::size_t TheaterBuilder::AddSheet(Sheet sheet) {
  const int width = sheet.last_col - sheet.first_col + 1;
  const int height = sheet.last_row - sheet.first_row + 1;
  sheet.cells.assign(static_cast<std::size_t>(std::max(0, width * height)), HexRef::kNone);
  t_.sheets_.push_back(std::move(sheet));
  return t_.sheets_.size() - 1;
}

HexRef TheaterBuilder::AddHex(std::size_t sheet, int col, int row, HexInfo info) {
  Sheet& s = t_.sheets_[sheet];
  info.sheet = static_cast<std::uint8_t>(sheet);
  info.col = static_cast<std::uint8_t>(col);
  info.row = static_cast<std::uint8_t>(row);
  HexRef h{static_cast<std::uint32_t>(t_.hexes_.size())};
  t_.hexes_.push_back(info);
  const int width = s.last_col - s.first_col + 1;
  s.cells[(col - s.first_col) + (row - s.first_row) * width] = h.v;
  return h;
}

std::size_t TheaterBuilder::AddZone(std::string name) {
  for (std::size_t i = 0; i < t_.zones_.size(); ++i) {
    if (t_.zones_[i] == name) return i;
  }
  t_.zones_.push_back(std::move(name));
  return t_.zones_.size() - 1;
}

void TheaterBuilder::BuildTopology() {
  const std::size_t n = t_.hexes_.size();
  t_.side_by_dir_.assign(n * kDirCount, HexsideRef::kNone);
  // Hexsides are numbered as each hex meets its higher-numbered neighbours.
  for (std::uint32_t v = 0; v < n; ++v) {
    const HexRef h{v};
    const GridPos p = t_.Pos(h);
    const Sheet& own = t_.sheets_[t_.hexes_[v].sheet];
    for (Dir d : kAllDirs) {
      const GridPos q = Neighbor(p, d);
      HexRef u = own.At(q.col - own.origin.col, q.row - own.origin.row);
      if (!u.valid()) u = t_.AtPos(q);
      if (!u.valid() || u.v < v) continue;
      HexsideInfo side;
      side.a = h;
      side.b = u;
      side.dir_from_a = d;
      const auto id = static_cast<std::uint32_t>(t_.hexsides_.size());
      t_.hexsides_.push_back(side);
      t_.side_by_dir_[v * kDirCount + static_cast<int>(d)] = id;
      t_.side_by_dir_[u.v * kDirCount + static_cast<int>(Opposite(d))] = id;
    }
  }
  // Both directions of every hexside, sorted by source as the CSR constructor wants.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  std::vector<HexsideEdge> props;
  edges.reserve(t_.hexsides_.size() * 2);
  props.reserve(t_.hexsides_.size() * 2);
  for (std::uint32_t v = 0; v < n; ++v) {
    for (int d = 0; d < kDirCount; ++d) {
      const std::uint32_t s = t_.side_by_dir_[v * kDirCount + d];
      if (s == HexsideRef::kNone) continue;
      edges.emplace_back(v, t_.hexsides_[s].Other(HexRef{v}).v);
      props.push_back(HexsideEdge{s});
    }
  }
  t_.graph_ = Theater::Graph(boost::edges_are_sorted, edges.begin(), edges.end(), props.begin(),
                             static_cast<std::uint32_t>(n));
  water_explicit_.assign(t_.hexsides_.size(), false);
  explicit_areas_.assign(n, {});
}

void TheaterBuilder::SetWater(HexsideRef s, HexsideWater w) {
  t_.hexsides_[s.v].water = w;
  water_explicit_[s.v] = true;
}

void TheaterBuilder::AddPlace(Place place) {
  t_.places_.push_back(std::move(place));
}

Status TheaterBuilder::AddArea(Area area) {
  if (t_.areas_.size() >= 64) {
    return Fail(ErrorCode::kInvalidInput, "a theater may hold at most 64 areas");
  }
  if (area.role != AreaRole::kNone && t_.AreaWithRole(area.role) >= 0) {
    return Fail(ErrorCode::kInvalidInput, std::string("a second area with role '") +
                                              AreaRoleName(area.role) +
                                              "'; each role belongs to one area");
  }
  if (area.role == AreaRole::kVuoksa) {
    // 41.E.6: the lakes never freeze, so neither do their shores' partial-lake hexes, which then
    // bear no ice airfield (41.A.3). The area takes them in whether the scenario lists them or not.
    std::vector<HexRef> shores;
    for (HexRef lake : area.hexes) {
      if (t_.hex(lake).terrain != Terrain::kLake) continue;
      for (Dir d : kAllDirs) {
        const HexRef shore = t_.NeighborAt(lake, d);
        if (shore.valid() && t_.hex(shore).IsPartialLake()) shores.push_back(shore);
      }
    }
    area.hexes.insert(area.hexes.end(), shores.begin(), shores.end());
  }
  std::sort(area.hexes.begin(), area.hexes.end());
  area.hexes.erase(std::unique(area.hexes.begin(), area.hexes.end()), area.hexes.end());
  const std::uint64_t bit = std::uint64_t{1} << t_.areas_.size();
  for (HexRef h : area.hexes) t_.hexes_[h.v].areas |= bit;
  t_.areas_.push_back(std::move(area));
  return {};
}

Status TheaterBuilder::AddWaterway(Waterway waterway) {
  if (t_.waterways_.size() >= 255) {
    return Fail(ErrorCode::kInvalidInput, "a theater may hold at most 255 waterways");
  }
  if (auto s = CheckWaterway(waterway); !s) return s;
  const auto index = static_cast<std::uint8_t>(t_.waterways_.size() + 1);
  for (HexsideRef s : waterway.hexsides) {
    HexsideInfo& side = t_.hexsides_[s.v];
    if (side.waterway != 0 && side.waterway != index) {
      return Fail(ErrorCode::kInvalidInput, "hexside " + t_.HexsideName(s) +
                                                " is already on waterway '" +
                                                t_.waterways_[side.waterway - 1].name + "'");
    }
    side.waterway = index;
  }
  t_.waterways_.push_back(std::move(waterway));
  return {};
}

Status TheaterBuilder::AddRailFerry(RailFerry ferry) {
  if (ferry.line.size() < 2) {
    return Fail(ErrorCode::kInvalidInput, "a rail ferry line needs at least two hexes");
  }
  for (HexRef end : {ferry.from(), ferry.to()}) {
    if (t_.hexes_[end.v].IsWater()) {
      return Fail(ErrorCode::kInvalidInput,
                  "rail ferry terminal " + t_.HexName(end) + " must be a land hex (41.A.2)");
    }
  }
  for (std::size_t i = 0; i + 1 < ferry.line.size(); ++i) {
    HexsideRef s = t_.HexsideBetween(ferry.line[i], ferry.line[i + 1]);
    if (!s.valid()) {
      return Fail(ErrorCode::kInvalidInput, "rail ferry hexes " + t_.HexName(ferry.line[i]) +
                                                " and " + t_.HexName(ferry.line[i + 1]) +
                                                " are not adjacent");
    }
    t_.hexsides_[s.v].features |= kRailFerry;
  }
  t_.rail_ferries_.push_back(std::move(ferry));
  return {};
}

Status TheaterBuilder::AddExit(ExitEdge exit) {
  for (HexRef h : exit.hexes) {
    const GridPos p = t_.Pos(h);
    bool on_edge = false;
    auto off = [&](Dir d) { return !t_.AtPos(Neighbor(p, d)).valid(); };
    switch (exit.edge) {
      case MapEdge::kNorth:
        on_edge = off(Dir::kN);
        break;
      case MapEdge::kSouth:
        on_edge = off(Dir::kS);
        break;
      case MapEdge::kEast:
        on_edge = off(Dir::kNE) || off(Dir::kSE);
        break;
      case MapEdge::kWest:
        on_edge = off(Dir::kNW) || off(Dir::kSW);
        break;
    }
    if (!on_edge) {
      return Fail(ErrorCode::kInvalidInput, "exit hex " + t_.HexName(h) + " is not on the " +
                                                MapEdgeName(exit.edge) + " edge of the map");
    }
  }
  t_.exits_.push_back(std::move(exit));
  return {};
}

Status TheaterBuilder::SetWaterAreas(HexRef h, std::vector<WaterArea> areas) {
  if (!t_.hexes_[h.v].HasSea()) {
    return Fail(ErrorCode::kInvalidInput,
                "hex " + t_.HexName(h) + " holds no sea, so it has no water areas");
  }
  if (areas.empty() || areas.size() > 6) {
    return Fail(ErrorCode::kInvalidInput, "a hex holds one to six water areas");
  }
  std::uint8_t sea_sides = 0;
  for (Dir d : kAllDirs) {
    HexsideRef s = t_.HexsideAt(h, d);
    if (s.valid() && IsSea(t_.hexsides_[s.v].water)) sea_sides |= Bit(d);
  }
  std::uint8_t covered = 0;
  for (std::size_t i = 0; i < areas.size(); ++i) {
    WaterArea& a = areas[i];
    a.hex = h;
    a.index = static_cast<std::uint8_t>(i);
    for (Dir d : kAllDirs) {
      if (a.Touches(d) && !(sea_sides & Bit(d))) {
        return Fail(ErrorCode::kInvalidInput, "water area '" + a.name + "' of " + t_.HexName(h) +
                                                  " touches the " + DirName(d) +
                                                  " hexside, which holds no sea");
      }
    }
    if (a.split_by.valid()) {
      const HexsideInfo& cut = t_.hexsides_[a.split_by.v];
      if (cut.a != h && cut.b != h) {
        return Fail(ErrorCode::kInvalidInput, "split-by hexside " + t_.HexsideName(a.split_by) +
                                                  " is not a hexside of " + t_.HexName(h));
      }
      if (!cut.Has(kCauseway)) {
        return Fail(ErrorCode::kInvalidInput,
                    "split-by hexside " + t_.HexsideName(a.split_by) +
                        " is not a causeway: only a causeway splits a hex's water (41.A.1)");
      }
    }
    covered |= a.sides;
  }
  for (Dir d : kAllDirs) {
    if ((sea_sides & Bit(d)) && !(covered & Bit(d))) {
      return Fail(ErrorCode::kInvalidInput, std::string("the water areas of ") + t_.HexName(h) +
                                                " leave its sea hexside " + DirName(d) + " (" +
                                                t_.HexsideName(t_.HexsideAt(h, d)) + ") untouched");
    }
  }
  explicit_areas_[h.v] = std::move(areas);
  return {};
}

void TheaterBuilder::FinishHexsides() {
  for (std::size_t i = 0; i < t_.hexsides_.size(); ++i) {
    HexsideInfo& s = t_.hexsides_[i];
    const HexInfo& a = t_.hexes_[s.a.v];
    const HexInfo& b = t_.hexes_[s.b.v];
    if (!water_explicit_[i]) {
      if (a.terrain == Terrain::kAllSea || b.terrain == Terrain::kAllSea) {
        s.water = HexsideWater::kAllSea;
      } else if (a.terrain == Terrain::kLake || b.terrain == Terrain::kLake) {
        s.water = HexsideWater::kLake;
      } else if (a.coast == Coast::kPartialSea && b.coast == Coast::kPartialSea) {
        // Two coastal hexes share a partly-watered hexside only where open water reaches one
        // of its ends; otherwise the coast turns away and the hexside is dry land.
        const auto ends = TouchingHexes(HexsideRef{static_cast<std::uint32_t>(i)});
        const bool open = (ends[2].valid() && t_.hexes_[ends[2].v].terrain == Terrain::kAllSea) ||
                          (ends[3].valid() && t_.hexes_[ends[3].v].terrain == Terrain::kAllSea);
        s.water = open ? HexsideWater::kPartialSea : HexsideWater::kNone;
      } else {
        s.water = HexsideWater::kNone;
      }
    }
    // 41.A.1: roads and rail lines which cross sea or lake hexsides are causeways.
    const bool crosses_water = s.water == HexsideWater::kAllSea || s.water == HexsideWater::kLake;
    if (crosses_water && (s.features & (kRoad | kRailroad)) != 0) s.features |= kCauseway;
  }
}

std::array<HexRef, 4> TheaterBuilder::TouchingHexes(HexsideRef s) const {
  const HexsideInfo& side = t_.hexsides_[s.v];
  const GridPos p = t_.Pos(side.a);
  return {side.a, side.b, t_.AtPos(Neighbor(p, Rotate(side.dir_from_a, -1))),
          t_.AtPos(Neighbor(p, Rotate(side.dir_from_a, 1)))};
}

Status TheaterBuilder::CheckWaterway(const Waterway& way) const {
  if (way.hexsides.empty()) {
    return Fail(ErrorCode::kInvalidInput, "waterway '" + way.name + "' has no hexsides");
  }
  if (way.navigable && way.closed) {
    return Fail(ErrorCode::kInvalidInput,
                "waterway '" + way.name + "' cannot be both navigable and closed");
  }
  if (!way.navigable) return {};
  for (HexsideRef s : way.hexsides) {
    if (!t_.hexsides_[s.v].Has(kMajorRiver) && !t_.hexsides_[s.v].Has(kMinorRiver) &&
        !t_.hexsides_[s.v].Has(kCanal) && !IsSea(t_.hexsides_[s.v].water)) {
      return Fail(ErrorCode::kInvalidInput, "navigable waterway '" + way.name +
                                                "' runs along hexside " + t_.HexsideName(s) +
                                                ", which has no river, canal or sea");
    }
  }
  // Navigable hexsides must form one line: each reachable from the first corner to corner.
  std::set<std::uint32_t> members;
  for (HexsideRef s : way.hexsides) members.insert(s.v);
  std::set<std::uint32_t> seen = {way.hexsides.front().v};
  std::vector<std::uint32_t> todo = {way.hexsides.front().v};
  while (!todo.empty()) {
    const HexsideRef s{todo.back()};
    todo.pop_back();
    const auto touch = TouchingHexes(s);
    const HexsideInfo& side = t_.hexsides_[s.v];
    for (HexRef c : {touch[2], touch[3]}) {
      if (!c.valid()) continue;
      for (HexRef end : {side.a, side.b}) {
        HexsideRef next = t_.HexsideBetween(end, c);
        if (next.valid() && members.count(next.v) && seen.insert(next.v).second) {
          todo.push_back(next.v);
        }
      }
    }
  }
  if (seen.size() != members.size()) {
    for (HexsideRef s : way.hexsides) {
      if (!seen.count(s.v)) {
        return Fail(ErrorCode::kInvalidInput,
                    "navigable waterway '" + way.name + "' is broken: hexside " +
                        t_.HexsideName(s) + " does not join the line from " +
                        t_.HexsideName(way.hexsides.front()) + " corner to corner");
      }
    }
  }
  return {};
}

void TheaterBuilder::BuildNavalGraph() {
  const std::size_t n = t_.hexes_.size();
  t_.water_areas_.clear();
  t_.area_first_.assign(n + 1, 0);
  for (std::uint32_t v = 0; v < n; ++v) {
    t_.area_first_[v] = static_cast<std::uint32_t>(t_.water_areas_.size());
    const HexRef h{v};
    const HexInfo& info = t_.hexes_[v];
    if (!explicit_areas_[v].empty()) {
      for (WaterArea& a : explicit_areas_[v]) t_.water_areas_.push_back(std::move(a));
    } else if (info.HasSea()) {
      WaterArea a;
      a.hex = h;
      for (Dir d : kAllDirs) {
        HexsideRef s = t_.HexsideAt(h, d);
        if (s.valid() && IsSea(t_.hexsides_[s.v].water)) a.sides |= Bit(d);
      }
      t_.water_areas_.push_back(a);
    } else if (info.port != PortSize::kNone) {
      WaterArea a;
      a.hex = h;
      a.port_only = true;
      t_.water_areas_.push_back(a);
    }
  }
  t_.area_first_[n] = static_cast<std::uint32_t>(t_.water_areas_.size());
  explicit_areas_.clear();

  t_.river_sides_.clear();
  for (const Waterway& way : t_.waterways_) {
    if (!way.riverine()) continue;
    t_.river_sides_.insert(t_.river_sides_.end(), way.hexsides.begin(), way.hexsides.end());
  }
  std::sort(t_.river_sides_.begin(), t_.river_sides_.end());
  t_.river_sides_.erase(std::unique(t_.river_sides_.begin(), t_.river_sides_.end()),
                        t_.river_sides_.end());

  struct E {
    std::uint32_t from, to;
    NavalEdgeProps props;
  };
  std::vector<E> edges;
  const auto area_count = static_cast<std::uint32_t>(t_.water_areas_.size());
  for (std::uint32_t node = 0; node < area_count; ++node) {
    const WaterArea& a = t_.water_areas_[node];
    for (Dir d : kAllDirs) {
      if (!a.Touches(d)) continue;
      const HexsideRef s = t_.HexsideAt(a.hex, d);
      const HexRef other = t_.hexsides_[s.v].Other(a.hex);
      for (std::uint32_t m = t_.area_first_[other.v]; m < t_.area_first_[other.v + 1]; ++m) {
        if (t_.water_areas_[m].Touches(Opposite(d))) {
          edges.push_back({node, m, {s.v, NavalEdgeKind::kSea}});
        }
      }
    }
  }
  for (std::size_t i = 0; i < t_.river_sides_.size(); ++i) {
    const HexsideRef s = t_.river_sides_[i];
    const auto node = static_cast<std::uint32_t>(area_count + i);
    const HexsideInfo& side = t_.hexsides_[s.v];
    const auto touch = TouchingHexes(s);
    // Along the water: riverine hexsides that meet this one at a corner, on any waterway (a
    // junction joins two; the rules judge whether the next one may be entered).
    for (HexRef c : {touch[2], touch[3]}) {
      if (!c.valid()) continue;
      for (HexRef end : {side.a, side.b}) {
        const HexsideRef next = t_.HexsideBetween(end, c);
        if (!next.valid()) continue;
        if (auto m = t_.RiverNode(next)) {
          edges.push_back({node, *m, {next.v, NavalEdgeKind::kRiver}});
        }
      }
    }
    // On and off: the water (or port) of each hex that touches it.
    for (int k = 0; k < 4; ++k) {
      const HexRef h = touch[k];
      if (!h.valid()) continue;
      std::uint8_t toward = 0;  // the hexside directions of h that face the waterway
      if (k < 2) {
        toward = Bit(t_.DirFrom(s, h));
      } else {
        for (HexRef end : {side.a, side.b}) {
          HexsideRef e = t_.HexsideBetween(h, end);
          if (e.valid()) toward |= Bit(t_.DirFrom(e, h));
        }
      }
      const bool has_port = t_.hexes_[h.v].port != PortSize::kNone;
      for (std::uint32_t m = t_.area_first_[h.v]; m < t_.area_first_[h.v + 1]; ++m) {
        const WaterArea& a = t_.water_areas_[m];
        if (a.port_only || (has_port && a.index == 0) || (a.sides & toward) != 0) {
          edges.push_back({m, node, {s.v, NavalEdgeKind::kAccess}});
          edges.push_back({node, m, {s.v, NavalEdgeKind::kLeave}});
        }
      }
    }
  }
  std::stable_sort(edges.begin(), edges.end(),
                   [](const E& x, const E& y) { return x.from < y.from; });
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  std::vector<NavalEdgeProps> props;
  pairs.reserve(edges.size());
  props.reserve(edges.size());
  for (const E& e : edges) {
    pairs.emplace_back(e.from, e.to);
    props.push_back(e.props);
  }
  t_.naval_graph_ =
      Theater::NavalGraph(boost::edges_are_sorted, pairs.begin(), pairs.end(), props.begin(),
                          static_cast<std::uint32_t>(area_count + t_.river_sides_.size()));
}

Result<Theater> TheaterBuilder::Finish() {
  BuildNavalGraph();
  std::sort(t_.places_.begin(), t_.places_.end(),
            [](const Place& x, const Place& y) { return x.hex < y.hex; });
  // The per-hex and per-hexside tables grew by push_back: give back what doubling reserved
  // (about a third of a large theater's memory).
  t_.hexes_.shrink_to_fit();
  t_.hexsides_.shrink_to_fit();
  t_.water_areas_.shrink_to_fit();
  t_.area_first_.shrink_to_fit();
  t_.river_sides_.shrink_to_fit();
  t_.places_.shrink_to_fit();
  return std::move(t_);
}

}  // namespace opsim::map
