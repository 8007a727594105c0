#include <algorithm>

#include "opsim/ops/route.h"

namespace opsim::ops {

Result<Waypoint> ParseWaypoint(const map::Theater& t, std::string_view token,
                               const Waypoint* previous) {
  Waypoint w;
  if (token.find('/') != std::string_view::npos) {
    auto s = t.FindHexside(token);
    if (!s) return std::unexpected(s.error());
    w.river = *s;
    return w;
  }
  std::string_view hex = token;
  std::string_view area;
  if (auto hash = token.find('#'); hash != std::string_view::npos) {
    hex = token.substr(0, hash);
    area = token.substr(hash + 1);
  }
  std::string_view sheet;
  if (previous)
    sheet = t.SheetOf(previous->is_river() ? t.hexside(previous->river).a : previous->hex);
  auto h = t.FindHex(hex, sheet);
  if (!h) return std::unexpected(h.error());
  w.hex = *h;
  if (!area.empty()) {
    auto areas = t.WaterAreasOf(*h);
    auto it = std::find_if(areas.begin(), areas.end(),
                           [&](const map::WaterArea& a) { return a.name == area; });
    if (it == areas.end()) {
      std::string known;
      for (const auto& a : areas) {
        if (!a.name.empty()) {
          if (!known.empty()) known += ", ";
          known += a.name;
        }
      }
      return Fail(ErrorCode::kNotFound,
                  "hex " + t.HexName(*h) + " has no water area '" + std::string(area) + "'" +
                      (known.empty() ? std::string(" (it has no named areas)")
                                     : " (its areas: " + known + ")"),
                  std::string(token));
    }
    w.area = it->index;
    w.area_named = true;
  }
  return w;
}

std::string FormatWaypoint(const map::Theater& t, const Waypoint& w) {
  if (w.is_river()) return t.HexsideName(w.river);
  std::string out = t.HexName(w.hex);
  auto areas = t.WaterAreasOf(w.hex);
  if (areas.size() > 1 && w.area < areas.size() && !areas[w.area].name.empty()) {
    out += "#" + areas[w.area].name;
  }
  return out;
}

Result<std::vector<Waypoint>> ParseWaypoints(const map::Theater& t, std::string_view list) {
  std::vector<Waypoint> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    auto w =
        ParseWaypoint(t, list.substr(start, comma - start), out.empty() ? nullptr : &out.back());
    if (!w) return std::unexpected(w.error());
    out.push_back(*w);
    start = comma + 1;
  }
  return out;
}

Result<NavalGroup> ParseGroup(std::string_view composition, Side side) {
  NavalGroup g;
  g.side = side;
  std::size_t start = 0;
  while (start <= composition.size()) {
    std::size_t comma = composition.find(',', start);
    if (comma == std::string_view::npos) comma = composition.size();
    const std::string_view kind = composition.substr(start, comma - start);
    if (kind == "tf") {
      g.tf = true;
    } else if (kind == "cg") {
      g.cg = true;
    } else if (kind == "transport") {
      g.transport = true;
    } else if (kind == "flotilla") {
      g.flotilla = true;
    } else {
      return Fail(
          ErrorCode::kInvalidInput,
          "unknown naval unit '" + std::string(kind) + "' in a group (tf, cg, transport, flotilla)",
          std::string(composition));
    }
    start = comma + 1;
  }
  return g;
}

std::string GroupName(const NavalGroup& g) {
  std::string out;
  auto add = [&](bool has, const char* name) {
    if (has) {
      if (!out.empty()) out += ",";
      out += std::string(name);
    }
  };
  add(g.tf, "tf");
  add(g.cg, "cg");
  add(g.transport, "transport");
  add(g.flotilla, "flotilla");
  return out;
}

}  // namespace opsim::ops
