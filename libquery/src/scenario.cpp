#include "opsim/query/scenario.h"

#include <array>
#include <cctype>
#include <charconv>
#include <vector>

#include "opsim/core/error_json.h"
#include "opsim/core/hex.h"
#include "opsim/map/scenario.h"
#include "opsim/map/types.h"
#include "opsim/query/view.h"

namespace opsim::query {

namespace {

using nlohmann::json;

// "NAME:LINE: /path" or "NAME:LINE:COLUMN" (JsonSource's forms): the line and the pointer.
struct Spot {
  std::optional<std::size_t> line;
  std::optional<std::string> path;
};

Spot SpotOf(const std::string& where, const std::string& name) {
  Spot spot;
  if (name.empty() || !where.starts_with(name + ":")) return spot;
  const char* at = where.data() + name.size() + 1;
  const char* end = where.data() + where.size();
  std::size_t line = 0;
  const auto [past, ec] = std::from_chars(at, end, line);
  if (ec != std::errc() || past == at) return spot;
  spot.line = line;
  const std::string_view rest(past, static_cast<std::size_t>(end - past));
  if (rest.starts_with(": /")) spot.path = rest == ": /" ? "" : std::string(rest.substr(2));
  return spot;
}

// The hex token in a hex, waypoint or block token (16A:0827, 16A:0827#veere, 16A:0520..0924).
std::optional<std::string> HexToken(std::string_view token) {
  token = token.substr(0, std::min(token.find('#'), token.find("..")));
  if (!map::ParseHexName(token)) return std::nullopt;
  return std::string(token);
}

// The hex tokens (SHEET:XXYY) a message names, in order.
std::vector<std::string> HexesNamed(std::string_view message) {
  std::vector<std::string> out;
  for (std::size_t colon = message.find(':'); colon != std::string_view::npos;
       colon = message.find(':', colon + 1)) {
    std::size_t start = colon;
    while (start > 0 && std::isalnum(static_cast<unsigned char>(message[start - 1]))) --start;
    std::size_t end = colon + 1;
    while (end < message.size() && std::isdigit(static_cast<unsigned char>(message[end]))) ++end;
    const std::string_view token = message.substr(start, end - start);
    if (end - colon == 5 && start < colon && map::ParseHexName(token)) out.emplace_back(token);
  }
  return out;
}

// The cell a grid error names: /sheets/N/terrain/R with "column C: ..." is the sheet's hex at
// first + (C - 1, R).
std::optional<std::string> GridHex(const json& doc, const json::json_pointer& at,
                                   const std::string& message) {
  if (at.empty()) return std::nullopt;
  const json::json_pointer grid = at.parent_pointer();
  if (grid.empty() || grid.parent_pointer().empty()) return std::nullopt;
  const std::string kind = grid.back();
  const json::json_pointer sheet = grid.parent_pointer().parent_pointer();
  if ((kind != "terrain" && kind != "coast" && kind != "zones") || sheet.empty() ||
      sheet.back() != "sheets" || !message.starts_with("column ")) {
    return std::nullopt;
  }
  const json& s = doc[grid.parent_pointer()];
  const json& first = s.contains("first") ? s["first"] : json();
  if (!s.contains("name") || !s["name"].is_string() || !first.is_array() || first.size() != 2 ||
      !first[0].is_number_integer() || !first[1].is_number_integer()) {
    return std::nullopt;
  }
  int column = 0, row = 0;
  const std::string& c = message;
  if (std::from_chars(c.data() + 7, c.data() + c.size(), column).ec != std::errc()) {
    return std::nullopt;
  }
  const std::string& r = at.back();
  if (std::from_chars(r.data(), r.data() + r.size(), row).ec != std::errc()) return std::nullopt;
  const std::int64_t col = first[0].get<std::int64_t>() + column - 1;
  const std::int64_t hex_row = first[1].get<std::int64_t>() + row;
  if (col < 0 || col > 99 || hex_row < 0 || hex_row > 99) return std::nullopt;
  return map::FormatHexName(s["name"].get<std::string>(), static_cast<int>(col),
                            static_cast<int>(hex_row));
}

void Locate(const json& doc, const std::string& path, const std::string& message, json& out) {
  const json::json_pointer at(path);
  if (!doc.contains(at)) return;
  const json& value = doc[at];
  if (value.is_string()) {
    const std::string& token = value.get_ref<const std::string&>();
    if (token.find('/') != std::string::npos) {
      if (map::ParseHexsideName(token)) out["hexside"] = token;
      return;
    }
    // A chain or a block: the hexes the message names past the token it may echo ("in
    // '16A:0420-0520-0622', 16A:0520 and 16A:0622 are not adjacent": the hexside between them;
    // "hex 16A:0531 is not on the theater": that hex), else its first hex.
    const bool several = token.find('-') != token.npos || token.find("..") != token.npos;
    const std::size_t echo = message.find("'" + token + "'");
    const std::vector<std::string> named =
        several ? HexesNamed(std::string_view(message).substr(
                      echo == std::string::npos ? 0 : echo + token.size() + 2))
                : std::vector<std::string>();
    if (named.size() >= 2 && message.find("not adjacent") != std::string::npos) {
      const std::string& a = named[0];
      const std::string& b = named[1];
      const std::size_t colon = a.find(':');
      const bool same_sheet = b.compare(0, colon + 1, a, 0, colon + 1) == 0;
      out["hexside"] = a + "/" + (same_sheet ? b.substr(colon + 1) : b);
      return;
    }
    if (!named.empty()) {
      out["hex"] = named.front();
      return;
    }
    if (auto hex = HexToken(token.substr(0, token.find('-')))) {
      out["hex"] = *hex;
      return;
    }
  }
  if (auto hex = GridHex(doc, at, message)) {
    out["hex"] = *hex;
    return;
  }
  // The nearest object holding a "hex": a unit, a place, a water area.
  for (json::json_pointer p = at;; p = p.parent_pointer()) {
    const json& v = doc[p];
    if (v.is_object() && v.contains("hex") && v["hex"].is_string()) {
      if (auto hex = HexToken(v["hex"].get<std::string>())) out["hex"] = *hex;
      return;
    }
    if (p.empty()) break;
  }
  // A list's error (an exit's hexes, a waterway's hexsides): the hex the message names ("exit hex
  // 9A:0520 is not on the west edge"), else the list's first hex or hexside.
  if (const std::vector<std::string> named = HexesNamed(message); !named.empty()) {
    out["hex"] = named.front();
    return;
  }
  if (value.is_array() && !value.empty() && value.front().is_string()) {
    const std::string& first = value.front().get_ref<const std::string&>();
    if (first.find('/') != std::string::npos) {
      if (map::ParseHexsideName(first)) out["hexside"] = first;
    } else if (auto hex = HexToken(first.substr(0, first.find_first_of("-.")))) {
      out["hex"] = *hex;
    }
  }
}

ScenarioCheck Checked(const Result<JsonSource>& src, const std::string& name) {
  ScenarioCheck c;
  Result<LoadedGame> g =
      src ? LoadScenarioSource(*src, Needs::kGame) : std::unexpected(src.error());
  if (!g) {
    c.error = g.error();
    c.doc = {{"ok", false}, {"error", LocatedError(g.error(), src ? &*src : nullptr, name)}};
    return c;
  }
  c.doc = {{"ok", true}, {"stats", ScenarioStats(*g)}};
  return c;
}

}  // namespace

json LocatedError(const Error& e, const JsonSource* src, const std::string& name) {
  json out = ErrorJson(e);
  for (const char* key : {"line", "path", "hex", "hexside"}) out[key] = nullptr;
  const Spot spot = SpotOf(e.where, name);
  if (spot.line) out["line"] = *spot.line;
  if (spot.path) {
    out["path"] = *spot.path;
    // The loaders' pointers are well-formed; should one not be, the error is just not placed.
    try {
      if (src) Locate(src->doc(), *spot.path, e.message, out);
    } catch (const json::exception&) {
      out["hex"] = out["hexside"] = nullptr;
    }
  }
  return out;
}

ScenarioCheck CheckScenarioText(std::string text, const std::string& name) {
  return Checked(JsonSource::FromText(std::move(text), name), name);
}

ScenarioCheck CheckScenarioFile(const std::string& path) {
  return Checked(JsonSource::FromFile(path, kMaxScenarioBytes), path);
}

Result<json> AnswerSheetPanels(const JsonSource& body) {
  using P = JsonSource::Pointer;
  const JsonReader r(body);
  if (auto s = r.Object(P()); !s) return std::unexpected(s.error());
  if (auto s = r.OnlyKeys(P(), {"sheets"}); !s) return std::unexpected(s.error());
  if (auto s = r.Require(P(), "sheets"); !s) return std::unexpected(s.error());
  const P list("/sheets");
  auto sheets = r.Array(list);
  if (!sheets) return std::unexpected(sheets.error());
  if ((*sheets)->empty()) return body.Bad(list, "a theater needs at least one sheet");
  if ((*sheets)->size() > map::kMaxSheets) {
    return body.Bad(list,
                    "a theater may hold at most " + std::to_string(map::kMaxSheets) + " sheets");
  }
  std::vector<std::array<int, 4>> windows;
  auto each = r.Each(list, [&](const P& at) -> Status {
    if (auto s = r.Object(at); !s) return std::unexpected(s.error());
    if (auto s = r.OnlyKeys(at, {"name", "origin", "first", "last"}); !s) return s;
    for (const char* key : {"name", "origin", "first", "last"}) {
      if (auto s = r.Require(at, key); !s) return s;
    }
    if (auto name = r.String(at / "name"); !name) return std::unexpected(name.error());
    auto origin = r.IntPair(at / "origin", 0, map::kMaxOrigin);
    if (!origin) return std::unexpected(origin.error());
    auto first = r.IntPair(at / "first", -map::kMaxOrigin, map::kMaxOrigin);
    if (!first) return std::unexpected(first.error());
    auto last = r.IntPair(at / "last", -map::kMaxOrigin, map::kMaxOrigin);
    if (!last) return std::unexpected(last.error());
    if (last->first < first->first || last->second < first->second) {
      return body.Bad(at / "last", "before \"first\": a window holds at least one column and row");
    }
    map::Sheet sheet;
    sheet.origin = {origin->first, origin->second};
    sheet.first_col = first->first;
    sheet.first_row = first->second;
    sheet.last_col = last->first;
    sheet.last_row = last->second;
    windows.push_back(SheetWindow(sheet));
    return {};
  });
  if (!each) return std::unexpected(each.error());
  return json{{"panels", SheetPanels(windows)}};
}

json ScenarioStats(const LoadedGame& g) {
  const map::Theater& t = *g.theater;
  std::size_t land = 0, sea = 0, lake = 0, airbases = 0;
  json cities = {{"dot", 0}, {"partial-hex-major", 0}, {"full-hex-major", 0}};
  json ports = {{"minor", 0}, {"standard", 0}, {"major", 0}, {"great", 0}};
  for (const map::HexInfo& h : t.hexes()) {
    if (h.terrain == map::Terrain::kAllSea) {
      ++sea;
    } else if (h.terrain == map::Terrain::kLake) {
      ++lake;
    } else {
      ++land;
    }
    if (h.city != map::CityKind::kNone) {
      cities[map::CityKindName(h.city)] = cities[map::CityKindName(h.city)].get<int>() + 1;
    }
    if (h.port != map::PortSize::kNone) {
      ports[map::PortSizeName(h.port)] = ports[map::PortSizeName(h.port)].get<int>() + 1;
    }
    if (h.airbase) ++airbases;
  }
  std::array<std::size_t, map::kHexsideFeatureCount> features{};
  std::array<std::size_t, 4> water{};
  for (const map::HexsideInfo& s : t.hexsides()) {
    for (int i = 0; i < map::kHexsideFeatureCount; ++i) {
      if (s.features & (1u << i)) ++features[static_cast<std::size_t>(i)];
    }
    ++water[static_cast<std::size_t>(s.water)];
  }
  json by_feature = json::object();
  for (int i = 0; i < map::kHexsideFeatureCount; ++i) {
    by_feature[map::HexsideFeatureName(static_cast<map::HexsideFeature>(1u << i))] =
        features[static_cast<std::size_t>(i)];
  }
  json by_water = json::object();
  for (const auto w :
       {map::HexsideWater::kAllSea, map::HexsideWater::kPartialSea, map::HexsideWater::kLake}) {
    by_water[map::HexsideWaterName(w)] = water[static_cast<std::size_t>(w)];
  }
  json sheets = json::array();
  for (const map::Sheet& s : t.sheets()) sheets.push_back(s.name);
  json doc = {
      {"name", t.name()},
      {"title", t.title()},
      {"sheets", sheets},
      {"hexes", {{"total", t.hex_count()}, {"land", land}, {"sea", sea}, {"lake", lake}}},
      {"hexsides", {{"total", t.hexside_count()}, {"features", by_feature}, {"water", by_water}}},
      {"places",
       {{"named", t.places().size()},
        {"cities", cities},
        {"ports", ports},
        {"airbases", airbases}}},
      {"areas", t.areas().size()},
      {"waterways", t.waterways().size()},
      {"rail_ferries", t.rail_ferries().size()},
      {"exits", t.exits().size()},
      {"campaign", g.state.has_value()},
      {"units", nullptr}};
  if (g.state) {
    json units = json::object();
    for (const Side side : {Side::kAxis, Side::kAllied}) {
      const auto count = [side](const auto& list) {
        return std::count_if(list.begin(), list.end(),
                             [side](const auto& u) { return u.side == side; });
      };
      units[SideName(side)] = {{"ground", count(g.state->units)},
                               {"air", count(g.state->air)},
                               {"naval", count(g.state->naval)}};
    }
    doc["units"] = units;
  }
  return doc;
}

}  // namespace opsim::query
