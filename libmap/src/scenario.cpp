#include "opsim/map/scenario.h"

#include <malloc.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "opsim/core/bundled.h"
#include "opsim/core/echo.h"
#include "theater_builder.h"

namespace opsim::map {

namespace {

using P = JsonSource::Pointer;

std::optional<Terrain> TerrainFromCode(char c) {
  switch (c) {
    case 'c':
      return Terrain::kClear;
    case 'r':
      return Terrain::kRough;
    case 'f':
      return Terrain::kForest;
    case 's':
      return Terrain::kSwamp;
    case 'm':
      return Terrain::kMountain;
    case 'k':
      return Terrain::kCanalIntensive;
    case 'x':
      return Terrain::kProhibited;
    case '~':
      return Terrain::kAllSea;
    case '=':
      return Terrain::kLake;
    default:
      return std::nullopt;
  }
}

class Reader {
 public:
  explicit Reader(const JsonSource& src) : src_(src), r_(src) {}

  Result<Theater> Read() {
    if (auto s = ReadHeader(); !s) return std::unexpected(s.error());
    for (auto step : {&Reader::ReadSheets, &Reader::ReadPlaces, &Reader::ReadHexsides,
                      &Reader::ReadWaterAreas, &Reader::ReadWaterways, &Reader::ReadRailFerries,
                      &Reader::ReadAreas, &Reader::ReadExits}) {
      if (auto s = (this->*step)(); !s) return std::unexpected(s.error());
    }
    auto theater = b_->Finish();
    if (!theater) {
      Error e = theater.error();
      e.where = src_.name();
      return std::unexpected(e);
    }
    return theater;
  }

  // The "state" section, read against the finished theater.
  Result<MapState> ReadState(const Theater& theater) {
    view_ = &theater;
    MapState state(theater);
    const P at("/state");
    if (!r_.Has(P(), "state")) return state;
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    if (auto s = r_.OnlyKeys(at, {"control", "frozen-zones", "suez"}); !s) {
      return std::unexpected(s.error());
    }
    if (r_.Has(at, "control")) {
      if (auto s = r_.OnlyKeys(at / "control", {"axis", "allied"}); !s) {
        return std::unexpected(s.error());
      }
      for (Side side : {Side::kAxis, Side::kAllied}) {
        if (!r_.Has(at / "control", SideName(side))) continue;
        auto hexes = HexList(at / "control" / SideName(side));
        if (!hexes) return std::unexpected(hexes.error());
        for (HexRef h : *hexes) {
          if (state.owner(h) != Owner::kNone) {
            return src_.Bad(at / "control" / SideName(side),
                            theater.HexName(h) + " is given to both sides");
          }
          state.SetOwner(theater, h, OwnerOf(side));
        }
      }
    }
    if (r_.Has(at, "frozen-zones")) {
      auto st = r_.Each(at / "frozen-zones", [&](const P& item) -> Status {
        auto zone = r_.String(item);
        if (!zone) return std::unexpected(zone.error());
        const auto& zones = theater.weather_zones();
        auto it = std::find(zones.begin(), zones.end(), *zone);
        if (it == zones.end()) return src_.Bad(item, "no weather zone '" + *zone + "' on the map");
        state.SetFrozen(static_cast<std::size_t>(it - zones.begin()), true);
        return {};
      });
      if (!st) return std::unexpected(st.error());
    }
    if (r_.Has(at, "suez")) {
      auto status = r_.String(at / "suez");
      if (!status) return std::unexpected(status.error());
      auto parsed = ParseCanalStatus(*status);
      if (!parsed) {
        return src_.Bad(at / "suez",
                        "the Suez Canal is open, temporarily-closed or permanently-closed (41.B)");
      }
      state.SetSuez(*parsed);
    }
    return state;
  }

 private:
  // --- tokens -------------------------------------------------------------------------------

  // Re-homes an error about a token at the token's place in the file.
  std::unexpected<Error> At(const P& at, const Error& e) const {
    return src_.Bad(at, e.message + (e.rule.empty() ? "" : " [" + e.rule + "]"));
  }

  Result<HexRef> Hex(const P& at, std::string_view token, std::string_view sheet = {}) const {
    auto h = view().FindHex(token, sheet);
    if (!h) return At(at, h.error());
    return *h;
  }

  // "A/B", or a chain "A-B-C" naming each hexside crossed (later hexes may omit the sheet).
  Result<std::vector<HexsideRef>> Hexsides(const P& at) const {
    auto token = r_.String(at);
    if (!token) return std::unexpected(token.error());
    std::vector<HexsideRef> out;
    if (token->find('/') != std::string::npos) {
      auto s = view().FindHexside(*token);
      if (!s) return At(at, s.error());
      out.push_back(*s);
      return out;
    }
    auto hexes = Chain(at, *token);
    if (!hexes) return std::unexpected(hexes.error());
    if (hexes->size() < 2) {
      return src_.Bad(at,
                      "'" + EchoToken(*token) + "' names no hexside: write A/B or a chain A-B-C");
    }
    for (std::size_t i = 0; i + 1 < hexes->size(); ++i) {
      HexsideRef s = view().HexsideBetween((*hexes)[i], (*hexes)[i + 1]);
      if (!s.valid()) {
        return src_.Bad(at, "in '" + *token + "', " + view().HexName((*hexes)[i]) + " and " +
                                view().HexName((*hexes)[i + 1]) + " are not adjacent");
      }
      out.push_back(s);
    }
    return out;
  }

  Result<std::vector<HexRef>> Chain(const P& at, std::string_view token) const {
    std::vector<HexRef> out;
    std::string sheet;
    std::size_t start = 0;
    while (start <= token.size()) {
      std::size_t dash = token.find('-', start);
      if (dash == std::string_view::npos) dash = token.size();
      auto h = Hex(at, token.substr(start, dash - start), sheet);
      if (!h) return std::unexpected(h.error());
      sheet = view().sheets()[view().hex(*h).sheet].name;
      out.push_back(*h);
      start = dash + 1;
    }
    return out;
  }

  // "A", or a block "A..B" (every hex of A's sheet from A's column and row to B's).
  Result<std::vector<HexRef>> Hexes(const P& at) const {
    auto token = r_.String(at);
    if (!token) return std::unexpected(token.error());
    const auto dots = token->find("..");
    if (dots == std::string::npos) {
      auto h = Hex(at, *token);
      if (!h) return std::unexpected(h.error());
      return std::vector<HexRef>{*h};
    }
    auto first = ParseHexName(token->substr(0, dots));
    if (!first) return At(at, first.error());
    auto last = ParseHexName(token->substr(dots + 2), first->sheet);
    if (!last) return At(at, last.error());
    if (last->sheet != first->sheet || last->col < first->col || last->row < first->row) {
      return src_.Bad(at, "block '" + *token +
                              "' must run from its north-west hex to its south-east hex on one "
                              "sheet");
    }
    std::vector<HexRef> out;
    for (int col = first->col; col <= last->col; ++col) {
      for (int row = first->row; row <= last->row; ++row) {
        auto h = Hex(at, FormatHexName(first->sheet, col, row));
        if (!h) return std::unexpected(h.error());
        out.push_back(*h);
      }
    }
    return out;
  }

  template <class F>
  Status EachHexside(const P& at, F f) const {
    return r_.Each(at, [&](const P& item) -> Status {
      auto sides = Hexsides(item);
      if (!sides) return std::unexpected(sides.error());
      for (HexsideRef s : *sides) {
        if (auto st = f(item, s); !st) return st;
      }
      return {};
    });
  }

  Result<std::vector<HexRef>> HexList(const P& at) const {
    std::vector<HexRef> out;
    auto st = r_.Each(at, [&](const P& item) -> Status {
      auto hexes = Hexes(item);
      if (!hexes) return std::unexpected(hexes.error());
      out.insert(out.end(), hexes->begin(), hexes->end());
      return {};
    });
    if (!st) return std::unexpected(st.error());
    return out;
  }

  // --- sections -----------------------------------------------------------------------------

  Status ReadHeader() {
    const P root;
    if (!src_.doc().is_object()) return src_.Bad(root, "a scenario file holds one JSON object");
    if (auto s = r_.OnlyKeys(root, {"opsim", "version", "name", "title", "notes", "sheets",
                                    "places", "hexsides", "water-areas", "waterways",
                                    "rail-ferries", "areas", "exits", "state", "campaign"});
        !s) {
      return s;
    }
    if (auto v = r_.Header("scenario", kScenarioFormatVersion, "a scenario"); !v) {
      return std::unexpected(v.error());
    }
    if (auto s = r_.Require(root, "name"); !s) return s;
    auto name = r_.String(P("/name"));
    if (!name) return std::unexpected(name.error());
    if (name->empty()) return src_.Bad(P("/name"), "the name may not be empty");
    auto title = r_.OptString(root, "title", *name);
    if (!title) return std::unexpected(title.error());
    std::vector<std::string> notes;
    if (r_.Has(root, "notes")) {
      auto st = r_.Each(P("/notes"), [&](const P& item) -> Status {
        auto note = r_.String(item);
        if (!note) return std::unexpected(note.error());
        notes.push_back(*note);
        return {};
      });
      if (!st) return st;
    }
    b_.emplace(*name, *title, std::move(notes));
    view_ = &b_->view();
    return {};
  }

  Status ReadSheets() {
    if (auto s = r_.Require(P(), "sheets"); !s) return s;
    const P sheets("/sheets");
    auto arr = r_.Array(sheets);
    if (!arr) return std::unexpected(arr.error());
    if ((*arr)->empty()) return src_.Bad(sheets, "a theater needs at least one sheet");
    if ((*arr)->size() > kMaxSheets) {
      return src_.Bad(sheets,
                      "a theater may hold at most " + std::to_string(kMaxSheets) + " sheets");
    }
    struct Rect {
      int c0, r0, c1, r1;
    };
    std::vector<Rect> rects;
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
      const P at = sheets / i;
      if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
      if (auto s = r_.OnlyKeys(
              at, {"name", "size", "origin", "first", "terrain", "coast", "zone", "zones"});
          !s) {
        return s;
      }
      for (const char* key : {"name", "size", "origin", "first", "terrain", "zone"}) {
        if (auto s = r_.Require(at, key); !s) return s;
      }
      Sheet sheet;
      auto name = r_.String(at / "name");
      if (!name) return std::unexpected(name.error());
      if (name->empty() || !std::all_of(name->begin(), name->end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0;
          })) {
        return src_.Bad(at / "name", "a sheet name is letters and digits, like 16A");
      }
      for (const Sheet& other : view().sheets()) {
        if (other.name == *name) return src_.Bad(at / "name", "sheet " + *name + " twice");
      }
      sheet.name = *name;
      auto size = r_.IntPair(at / "size", 1, 99);
      if (!size) return std::unexpected(size.error());
      sheet.cols = size->first;
      sheet.rows = size->second;
      auto origin = r_.IntPair(at / "origin", 0, kMaxOrigin);
      if (!origin) return std::unexpected(origin.error());
      if (origin->first % 2 != 0) {
        return src_.Bad(at / "origin",
                        "a sheet's origin column must be even, so that its even columns stay "
                        "the low ones on the global grid");
      }
      sheet.origin = {origin->first, origin->second};
      auto first = r_.IntPair(at / "first", 1, 99);
      if (!first) return std::unexpected(first.error());
      auto terrain = r_.Array(at / "terrain");
      if (!terrain) return std::unexpected(terrain.error());
      if ((*terrain)->empty()) return src_.Bad(at / "terrain", "no rows");
      std::vector<std::string> rows;
      for (std::size_t k = 0; k < (*terrain)->size(); ++k) {
        auto row = r_.String(at / "terrain" / k);
        if (!row) return std::unexpected(row.error());
        rows.push_back(*row);
      }
      const int width = static_cast<int>(rows[0].size());
      const int height = static_cast<int>(rows.size());
      sheet.first_col = first->first;
      sheet.first_row = first->second;
      sheet.last_col = first->first + width - 1;
      sheet.last_row = first->second + height - 1;
      if (width == 0 || sheet.last_col > sheet.cols || sheet.last_row > sheet.rows) {
        return src_.Bad(at / "terrain", "the terrain grid (" + std::to_string(width) + "x" +
                                            std::to_string(height) + " from " +
                                            FormatHexName(*name, first->first, first->second) +
                                            ") does not fit on the sheet");
      }
      auto layer = [&](const char* key) -> Result<std::vector<std::string>> {
        std::vector<std::string> out;
        if (!r_.Has(at, key)) return out;
        auto a = r_.Array(at / key);
        if (!a) return std::unexpected(a.error());
        if (static_cast<int>((*a)->size()) != height) {
          return src_.Bad(at / key, std::string("the ") + key + " grid must have " +
                                        std::to_string(height) + " rows, like the terrain");
        }
        for (std::size_t k = 0; k < (*a)->size(); ++k) {
          auto row = r_.String(at / key / k);
          if (!row) return std::unexpected(row.error());
          out.push_back(*row);
        }
        return out;
      };
      auto coast = layer("coast");
      if (!coast) return std::unexpected(coast.error());
      auto zones = layer("zones");
      if (!zones) return std::unexpected(zones.error());
      auto zone = r_.String(at / "zone");
      if (!zone) return std::unexpected(zone.error());
      if (zone->size() != 1 || *zone < "A" || *zone > "Z") {
        return src_.Bad(at / "zone", "a weather zone is one capital letter");
      }
      const Rect rect{sheet.origin.col + sheet.first_col, sheet.origin.row + sheet.first_row,
                      sheet.origin.col + sheet.last_col, sheet.origin.row + sheet.last_row};
      for (std::size_t k = 0; k < rects.size(); ++k) {
        const Rect& o = rects[k];
        if (rect.c0 <= o.c1 && o.c0 <= rect.c1 && rect.r0 <= o.r1 && o.r0 <= rect.r1) {
          return src_.Bad(at / "origin", "sheet " + *name + " overlaps sheet " +
                                             view().sheets()[k].name + " on the global grid");
        }
      }
      rects.push_back(rect);
      const std::size_t index = b_->AddSheet(std::move(sheet));
      for (int y = 0; y < height; ++y) {
        const std::string& row = rows[y];
        const P row_at = at / "terrain" / static_cast<std::size_t>(y);
        if (static_cast<int>(row.size()) != width) {
          return src_.Bad(row_at, "row has " + std::to_string(row.size()) +
                                      " hexes; the first row has " + std::to_string(width));
        }
        for (int x = 0; x < width; ++x) {
          const char c = row[x];
          if (c == '.') continue;
          auto t = TerrainFromCode(c);
          if (!t) {
            return src_.Bad(row_at, "column " + std::to_string(x + 1) + ": unknown terrain code '" +
                                        std::string(1, c) + "' (codes: c r f s m k x ~ = .)");
          }
          HexInfo info;
          info.terrain = *t;
          if (!coast->empty()) {
            const std::string& crow = (*coast)[y];
            const P coast_at = at / "coast" / static_cast<std::size_t>(y);
            if (static_cast<int>(crow.size()) != width) {
              return src_.Bad(coast_at, "the coast row must be as long as the terrain row");
            }
            const char cc = crow[x];
            if (cc == 's' || cc == 'l') {
              if (info.IsWater()) {
                return src_.Bad(coast_at, "column " + std::to_string(x + 1) +
                                              ": an all-sea or lake hex has no coast");
              }
              info.coast = cc == 's' ? Coast::kPartialSea : Coast::kPartialLake;
            } else if (cc != '.') {
              return src_.Bad(coast_at, "column " + std::to_string(x + 1) +
                                            ": unknown coast code '" + std::string(1, cc) +
                                            "' (codes: s partial sea, l partial lake, . none)");
            }
          }
          std::string zone_name = *zone;
          if (!zones->empty()) {
            const std::string& zrow = (*zones)[y];
            const P zone_at = at / "zones" / static_cast<std::size_t>(y);
            if (static_cast<int>(zrow.size()) != width) {
              return src_.Bad(zone_at, "the zones row must be as long as the terrain row");
            }
            if (zrow[x] != '.') {
              if (zrow[x] < 'A' || zrow[x] > 'Z') {
                return src_.Bad(zone_at, "column " + std::to_string(x + 1) +
                                             ": a weather zone is one capital letter, or '.'");
              }
              zone_name = std::string(1, zrow[x]);
            }
          }
          info.zone = static_cast<std::uint8_t>(b_->AddZone(zone_name));
          b_->AddHex(index, first->first + x, first->second + y, info);
        }
      }
    }
    b_->BuildTopology();
    return {};
  }

  Status ReadPlaces() {
    if (!r_.Has(P(), "places")) return {};
    return r_.Each(P("/places"), [&](const P& at) -> Status {
      if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
      if (auto s = r_.OnlyKeys(at, {"hex", "name", "city", "port", "inland", "airbase"}); !s) {
        return s;
      }
      if (auto s = r_.Require(at, "hex"); !s) return s;
      auto token = r_.String(at / "hex");
      if (!token) return std::unexpected(token.error());
      auto h = Hex(at / "hex", *token);
      if (!h) return std::unexpected(h.error());
      HexInfo& info = b_->hex(*h);
      auto name = r_.OptString(at, "name", "");
      if (!name) return std::unexpected(name.error());
      auto city = r_.OptString(at, "city", "none");
      if (!city) return std::unexpected(city.error());
      auto kind = ParseCityKind(*city);
      if (!kind) {
        return src_.Bad(at / "city",
                        "unknown city '" + *city + "' (dot, partial-hex-major, full-hex-major)");
      }
      if (*kind != CityKind::kNone && info.IsWater()) {
        return src_.Bad(at / "city", "a city needs land, and " + *token + " has none");
      }
      info.city = *kind;
      auto port = r_.OptString(at, "port", "none");
      if (!port) return std::unexpected(port.error());
      auto size = ParsePortSize(*port);
      if (!size) {
        return src_.Bad(at / "port",
                        "unknown port '" + *port + "' (minor, standard, major, great)");
      }
      auto inland = r_.OptBool(at, "inland", false);
      if (!inland) return std::unexpected(inland.error());
      if (*size != PortSize::kNone) {
        if (info.IsWater()) return src_.Bad(at / "port", "a port needs land");
        if (*inland && info.HasSea()) {
          return src_.Bad(at / "inland",
                          "an inland port stands on a river, away from the sea, "
                          "but " +
                              *token + " has a sea coast");
        }
        if (!*inland && !info.HasSea()) {
          return src_.Bad(at / "port", *token + " has no sea coast: mark the port inland");
        }
      } else if (*inland) {
        return src_.Bad(at / "inland", "inland applies to a port, and this place has none");
      }
      info.port = *size;
      info.inland_port = *inland;
      auto airbase = r_.OptBool(at, "airbase", false);
      if (!airbase) return std::unexpected(airbase.error());
      if (*airbase && info.IsWater()) return src_.Bad(at / "airbase", "an airbase needs land");
      info.airbase = *airbase;
      if (!name->empty()) b_->AddPlace(Place{*h, *name});
      return {};
    });
  }

  Status ReadHexsides() {
    const P at("/hexsides");
    if (!r_.Has(P(), "hexsides")) {
      b_->FinishHexsides();
      return {};
    }
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    for (const auto& [key, value] : src_.doc()[at].items()) {
      const P list = at / key;
      if (auto feature = ParseHexsideFeature(key)) {
        if (*feature == kCauseway) {
          return src_.Bad(list,
                          "causeways are not listed: a road or railroad that crosses an all-sea "
                          "or lake hexside is a causeway (41.A.1)");
        }
        if (*feature == kRailFerry) {
          return src_.Bad(list, "rail ferry lines are listed under \"rail-ferries\" (41.A.2)");
        }
        auto st = EachHexside(list, [&](const P& item, HexsideRef s) -> Status {
          const HexsideInfo& side = b_->hexside(s);
          if ((*feature == kRoad || *feature == kRailroad) &&
              (view().hex(side.a).IsWater() || view().hex(side.b).IsWater())) {
            return src_.Bad(item, key + " hexside " + view().HexsideName(s) +
                                      " runs into an all-sea or lake hex; roads and rail join "
                                      "land hexes (across water hexsides they are causeways)");
          }
          b_->hexside(s).features |= *feature;
          return {};
        });
        if (!st) return st;
        continue;
      }
      std::optional<HexsideWater> water;
      if (key == "all-sea") water = HexsideWater::kAllSea;
      if (key == "partial-sea") water = HexsideWater::kPartialSea;
      if (key == "lake") water = HexsideWater::kLake;
      if (key == "no-water") water = HexsideWater::kNone;
      if (!water) {
        return src_.Bad(list, "unknown hexside kind '" + key +
                                  "' (major-river, minor-river, canal, road, railroad, "
                                  "narrow-straits, border, all-sea, partial-sea, lake, no-water)");
      }
      auto st = EachHexside(list, [&](const P& item, HexsideRef s) -> Status {
        const HexsideInfo& side = b_->hexside(s);
        const HexInfo& a = view().hex(side.a);
        const HexInfo& b = view().hex(side.b);
        const bool sea = *water == HexsideWater::kAllSea || *water == HexsideWater::kPartialSea;
        if ((sea && !(a.HasSea() && b.HasSea())) ||
            (*water == HexsideWater::kLake && !(a.HasLake() && b.HasLake()))) {
          return src_.Bad(item, "hexside " + view().HexsideName(s) + " cannot be " + key +
                                    ": both of its hexes must hold that water");
        }
        b_->SetWater(s, *water);
        return {};
      });
      if (!st) return st;
    }
    b_->FinishHexsides();
    return {};
  }

  Status ReadWaterAreas() {
    if (!r_.Has(P(), "water-areas")) return {};
    return r_.Each(P("/water-areas"), [&](const P& at) -> Status {
      if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
      if (auto s = r_.OnlyKeys(at, {"hex", "areas", "split-by"}); !s) return s;
      if (auto s = r_.Require(at, "hex"); !s) return s;
      if (auto s = r_.Require(at, "areas"); !s) return s;
      auto token = r_.String(at / "hex");
      if (!token) return std::unexpected(token.error());
      auto h = Hex(at / "hex", *token);
      if (!h) return std::unexpected(h.error());
      HexsideRef split;
      if (r_.Has(at, "split-by")) {
        auto sides = Hexsides(at / "split-by");
        if (!sides) return std::unexpected(sides.error());
        if (sides->size() != 1) return src_.Bad(at / "split-by", "name one hexside");
        split = sides->front();
      }
      std::vector<WaterArea> areas;
      auto st = r_.Each(at / "areas", [&](const P& item) -> Status {
        if (auto s = r_.OnlyKeys(item, {"name", "sides"}); !s) return s;
        if (auto s = r_.Require(item, "name"); !s) return s;
        if (auto s = r_.Require(item, "sides"); !s) return s;
        WaterArea area;
        auto name = r_.String(item / "name");
        if (!name) return std::unexpected(name.error());
        area.name = *name;
        area.split_by = split;
        auto dirs = r_.Each(item / "sides", [&](const P& d_at) -> Status {
          auto d = r_.String(d_at);
          if (!d) return std::unexpected(d.error());
          auto dir = ParseDir(*d);
          if (!dir) return src_.Bad(d_at, "unknown direction '" + *d + "' (N NE SE S SW NW)");
          area.sides |= static_cast<std::uint8_t>(1u << static_cast<int>(*dir));
          return {};
        });
        if (!dirs) return dirs;
        areas.push_back(std::move(area));
        return {};
      });
      if (!st) return st;
      if (auto s = b_->SetWaterAreas(*h, std::move(areas)); !s) return At(at, s.error());
      return {};
    });
  }

  Status ReadWaterways() {
    if (!r_.Has(P(), "waterways")) return {};
    return r_.Each(P("/waterways"), [&](const P& at) -> Status {
      if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
      if (auto s = r_.OnlyKeys(at, {"name", "rule", "navigable", "closed", "note", "hexsides"});
          !s) {
        return s;
      }
      if (auto s = r_.Require(at, "name"); !s) return s;
      if (auto s = r_.Require(at, "hexsides"); !s) return s;
      Waterway way;
      auto name = r_.String(at / "name");
      if (!name) return std::unexpected(name.error());
      way.name = *name;
      if (r_.Has(at, "rule")) {
        auto rule = r_.String(at / "rule");
        if (!rule) return std::unexpected(rule.error());
        auto parsed = ParseWaterwayRule(*rule);
        if (!parsed) {
          return src_.Bad(at / "rule", "no waterway rule '" + *rule +
                                           "' (41.B, 41.C, 41.D, 41.E.1, 41.E.3, 41.E.6)");
        }
        way.rule = *parsed;
      }
      auto navigable = r_.OptBool(at, "navigable", false);
      if (!navigable) return std::unexpected(navigable.error());
      way.navigable = *navigable;
      auto closed = r_.OptBool(at, "closed", false);
      if (!closed) return std::unexpected(closed.error());
      way.closed = *closed;
      auto note = r_.OptString(at, "note", "");
      if (!note) return std::unexpected(note.error());
      way.note = *note;
      auto st = EachHexside(at / "hexsides", [&](const P&, HexsideRef s) -> Status {
        way.hexsides.push_back(s);
        return {};
      });
      if (!st) return st;
      if (auto s = b_->AddWaterway(std::move(way)); !s) return At(at, s.error());
      return {};
    });
  }

  Status ReadRailFerries() {
    if (!r_.Has(P(), "rail-ferries")) return {};
    return r_.Each(P("/rail-ferries"), [&](const P& at) -> Status {
      if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
      if (auto s = r_.OnlyKeys(at, {"name", "line"}); !s) return s;
      if (auto s = r_.Require(at, "line"); !s) return s;
      RailFerry ferry;
      auto name = r_.OptString(at, "name", "");
      if (!name) return std::unexpected(name.error());
      ferry.name = *name;
      auto line = r_.String(at / "line");
      if (!line) return std::unexpected(line.error());
      auto hexes = Chain(at / "line", *line);
      if (!hexes) return std::unexpected(hexes.error());
      ferry.line = std::move(*hexes);
      if (auto s = b_->AddRailFerry(std::move(ferry)); !s) return At(at / "line", s.error());
      return {};
    });
  }

  Status ReadAreas() {
    if (!r_.Has(P(), "areas")) return {};
    return r_.Each(P("/areas"), [&](const P& at) -> Status {
      if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
      if (auto s = r_.OnlyKeys(at, {"name", "role", "hexes"}); !s) return s;
      if (auto s = r_.Require(at, "name"); !s) return s;
      if (auto s = r_.Require(at, "hexes"); !s) return s;
      Area area;
      auto name = r_.String(at / "name");
      if (!name) return std::unexpected(name.error());
      area.name = *name;
      auto role = r_.OptString(at, "role", "none");
      if (!role) return std::unexpected(role.error());
      auto parsed = ParseAreaRole(*role);
      if (!parsed) return src_.Bad(at / "role", "unknown area role '" + *role + "'");
      area.role = *parsed;
      auto hexes = HexList(at / "hexes");
      if (!hexes) return std::unexpected(hexes.error());
      area.hexes = std::move(*hexes);
      if (auto s = b_->AddArea(std::move(area)); !s) return At(at, s.error());
      return {};
    });
  }

  Status ReadExits() {
    if (!r_.Has(P(), "exits")) return {};
    return r_.Each(P("/exits"), [&](const P& at) -> Status {
      if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
      if (auto s = r_.OnlyKeys(at, {"name", "side", "edge", "total", "hexes"}); !s) return s;
      for (const char* key : {"side", "edge", "total", "hexes"}) {
        if (auto s = r_.Require(at, key); !s) return s;
      }
      ExitEdge exit;
      auto name = r_.OptString(at, "name", "");
      if (!name) return std::unexpected(name.error());
      exit.name = *name;
      auto side = r_.String(at / "side");
      if (!side) return std::unexpected(side.error());
      auto parsed_side = ParseSide(*side);
      if (!parsed_side) return src_.Bad(at / "side", "a side is axis or allied");
      exit.side = *parsed_side;
      auto edge = r_.String(at / "edge");
      if (!edge) return std::unexpected(edge.error());
      auto parsed_edge = ParseMapEdge(*edge);
      if (!parsed_edge) return src_.Bad(at / "edge", "an edge is north, east, south or west");
      exit.edge = *parsed_edge;
      auto total = r_.String(at / "total");
      if (!total) return std::unexpected(total.error());
      exit.total = *total;
      auto hexes = HexList(at / "hexes");
      if (!hexes) return std::unexpected(hexes.error());
      exit.hexes = std::move(*hexes);
      if (auto s = b_->AddExit(std::move(exit)); !s) return At(at / "hexes", s.error());
      return {};
    });
  }

  // The theater tokens resolve against: the one being built, then the finished one.
  const Theater& view() const { return *view_; }

  const JsonSource& src_;
  JsonReader r_;
  std::optional<TheaterBuilder> b_;
  const Theater* view_ = nullptr;
};

}  // namespace

Result<HexRef> ReadHex(const JsonReader& r, const JsonSource::Pointer& at, const Theater& t) {
  auto token = r.String(at);
  if (!token) return std::unexpected(token.error());
  auto h = t.FindHex(*token);
  if (!h) return r.src().Bad(at, h.error().message);
  return *h;
}

Result<Scenario> LoadScenario(const JsonSource& src) {
  Reader reader(src);
  auto theater = reader.Read();
  if (!theater) return std::unexpected(theater.error());
  auto state = reader.ReadState(*theater);
  if (!state) return std::unexpected(state.error());
  return Scenario{std::move(*theater), std::move(*state)};
}

Result<Scenario> LoadScenarioFile(const std::string& path) {
  Result<Scenario> sc = [&]() -> Result<Scenario> {
    auto src = JsonSource::FromFile(path);
    if (!src) return std::unexpected(src.error());
    return LoadScenario(*src);
  }();
  // The parsed document is gone: give its pages back, so a loaded theater costs what it holds.
  ::malloc_trim(0);
  return sc;
}

std::vector<BundledScenario> ListScenarios(const std::string& dir) {
  std::vector<BundledScenario> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    auto src = JsonSource::FromFile(entry.path().string());
    if (!src || !src->doc().is_object() || src->doc().value("opsim", "") != "scenario") continue;
    BundledScenario s;
    s.name = src->doc().value("name", entry.path().stem().string());
    s.title = src->doc().value("title", s.name);
    s.path = entry.path().string();
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end(),
            [](const BundledScenario& a, const BundledScenario& b) { return a.name < b.name; });
  return out;
}

Result<std::string> ResolveScenario(std::string_view name_or_path, const std::string& dir) {
  std::vector<BundledFile> bundled;
  for (BundledScenario& s : ListScenarios(dir))
    bundled.push_back({std::move(s.name), std::move(s.title), std::move(s.path)});
  return ResolveBundled(name_or_path, bundled, "scenario");
}

}  // namespace opsim::map
