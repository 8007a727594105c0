#include "opsim/ops/state_file.h"

#include <algorithm>
#include <charconv>
#include <concepts>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <type_traits>

#include "opsim/core/echo.h"
#include "opsim/core/enum_names.h"
#include "opsim/core/sha256.h"
#include "opsim/map/scenario.h"

namespace opsim::ops {

namespace {

using nlohmann::json;
using P = JsonSource::Pointer;

// Version 2 added "content-sha256"; version 1 files load as before, judged by their state hash.
constexpr int kStateFormatVersion = 2;
constexpr const char* kContentHashKey = "content-sha256";

// The SHA-256 of a state document's canonical text (compact, keys sorted) without its own
// content hash: formatting and key order do not change it, any value does.
std::string ContentHash(json doc) {
  doc.erase(kContentHashKey);
  return Sha256Hex(doc.dump());
}

// A type with a field list (ForEachField): written as an object of its fields.
template <class T>
concept Record = requires(T& t) {
  ForEachField(t, [](const Field&, auto&) {});
};

template <class T>
concept HexMap = std::same_as<typename T::key_type, std::uint32_t> && requires {
  typename T::mapped_type;
};
template <class T>
concept HexRecords = HexMap<T> && Record<typename T::mapped_type>;

// "map" and the lists of units are sections of the file; every other field of the state sits in
// "game".
enum class Section { kGame, kMap, kRecords };
template <class T>
constexpr Section SectionOf() {
  if constexpr (std::is_same_v<T, map::MapState>) return Section::kMap;
  if constexpr (requires { typename T::value_type; }) {
    if constexpr (Record<typename T::value_type>) return Section::kRecords;
  }
  return Section::kGame;
}

// The enums a state holds: their names (EnumCount, in game_state.h, says how many each has). A
// unit type is named by the game's rules instead.
const char* Name(Side v) {
  return SideName(v);
}
const char* Name(Weather v) {
  return WeatherName(v);
}
const char* Name(map::CanalStatus v) {
  return map::CanalStatusName(v);
}
const char* Name(map::FloodKind v) {
  return map::FloodKindName(v);
}
const char* Name(UnitStatus v) {
  return UnitStatusName(v);
}
const char* Name(SupplyStatus v) {
  return SupplyStatusName(v);
}
const char* Name(AirStatus v) {
  return AirStatusName(v);
}
const char* Name(NavalKind v) {
  return NavalKindName(v);
}
// The range an integer field may take in a state file, by its name.
std::pair<int, int> IntRange(std::string_view name) {
  if (name == "player-turn" || name == "from" || name == "until") return {0, 1000000};
  if (name == "dropped-in") return {-1, 1000000};
  if (name == "area") return {0, 5};
  if (name == "re-halves") return {1, 40};  // 0.5 to 20 REs, as a scenario's units
  return {0, 1000};                         // a unit's strengths, allowance and marker
}

// The scenario a state file names: {"name", "path", "sha256"}, each a string.
Result<ScenarioId> ReadScenarioId(const JsonReader& r) {
  const P root;
  if (!r.src().doc().is_object() || !r.Has(root, "scenario")) {
    return r.src().Bad(root, "not an opsim state file: it names no scenario");
  }
  if (auto s = r.Object(P("/scenario")); !s) return std::unexpected(s.error());
  ScenarioId id;
  for (auto [key, out] : {std::pair{"name", &id.name}, std::pair{"path", &id.path},
                          std::pair{"sha256", &id.sha256}}) {
    if (auto s = r.Require(P("/scenario"), key); !s) return std::unexpected(s.error());
    auto v = r.String(P("/scenario") / key);
    if (!v) return std::unexpected(v.error());
    *out = *v;
  }
  return id;
}

class Writer {
 public:
  Writer(const map::Theater& t, const RuleTables& rules) : t_(t), rules_(rules) {}

  json Game(const GameState& s) const {
    json doc = json::object();
    json game = json::object();
    ForEachField(s, [&](const Field& f, const auto& field) {
      using T = std::remove_cvref_t<decltype(field)>;
      const std::string key(f.name);
      if constexpr (SectionOf<T>() == Section::kMap) {
        doc[key] = Map(field);
      } else if constexpr (SectionOf<T>() == Section::kRecords) {
        doc[key] = Value(field);
      } else {
        game[key] = Value(field);
      }
    });
    doc["game"] = game;
    return doc;
  }

 private:
  template <class T>
  json Value(const T& v) const {
    if constexpr (std::is_same_v<T, UnitType>) {
      return rules_.type(v).name;
    } else if constexpr (std::is_enum_v<T>) {
      return Name(v);
    } else if constexpr (std::is_same_v<T, std::uint64_t>) {
      return std::to_string(v);  // beyond what a JSON number holds exactly
    } else if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string>) {
      return v;
    } else if constexpr (std::is_same_v<T, GameDate>) {
      return FormatGameDate(v);
    } else if constexpr (std::is_same_v<T, map::HexRef>) {
      return v.valid() ? json(t_.HexName(v)) : json(nullptr);
    } else if constexpr (std::is_same_v<T, std::map<std::string, int>>) {
      return v;
    } else if constexpr (std::is_same_v<T, std::vector<Weather>>) {
      json out = json::object();
      for (std::size_t z = 0; z < v.size() && z < t_.weather_zones().size(); ++z) {
        out[t_.weather_zones()[z]] = Name(v[z]);
      }
      return out;
    } else if constexpr (std::is_same_v<T, std::vector<bool>>) {  // by weather zone
      json out = json::array();
      for (std::size_t z = 0; z < v.size() && z < t_.weather_zones().size(); ++z) {
        if (v[z]) out.push_back(t_.weather_zones()[z]);
      }
      return out;
    } else if constexpr (std::is_same_v<T, std::set<std::uint32_t>>) {  // by hexside
      json out = json::array();
      for (std::uint32_t side : v) out.push_back(t_.HexsideName(map::HexsideRef{side}));
      return out;
    } else if constexpr (std::is_same_v<T, std::map<std::uint32_t, bool>>) {  // hexes present
      json out = json::array();
      for (const auto& [hex, present] : v) out.push_back(t_.HexName(map::HexRef{hex}));
      return out;
    } else if constexpr (HexRecords<T>) {  // each with its hex
      json out = json::array();
      for (const auto& [hex, x] : v) {
        json item = Value(x);
        item["hex"] = t_.HexName(map::HexRef{hex});
        out.push_back(std::move(item));
      }
      return out;
    } else if constexpr (HexMap<T>) {
      json out = json::object();
      for (const auto& [hex, x] : v) out[t_.HexName(map::HexRef{hex})] = Value(x);
      return out;
    } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      return v;
    } else if constexpr (requires { typename T::value_type; }) {  // a list of records
      json out = json::array();
      for (const auto& x : v) out.push_back(Value(x));
      return out;
    } else {
      json out = json::object();
      ForEachField(
          v, [&](const Field& f, const auto& field) { out[std::string(f.name)] = Value(field); });
      return out;
    }
  }

  json Map(const map::MapState& m) const {
    json out = json::object();
    ForEachField(m, [&](const Field& f, const auto& field) {
      using T = std::remove_cvref_t<decltype(field)>;
      const std::string key(f.name);
      if constexpr (std::is_same_v<T, std::vector<std::uint8_t>>) {
        out[key] = key == "control" ? Control(m) : HexsideOwners(m);
      } else {
        out[key] = Value(field);
      }
    });
    return out;
  }

  // The hexes each side owns.
  json Control(const map::MapState& m) const {
    json control = {{"axis", json::array()}, {"allied", json::array()}};
    for (std::uint32_t v = 0; v < t_.hex_count(); ++v) {
      const Owner o = m.owner(map::HexRef{v});
      if (o != Owner::kNone) control[OwnerName(o)].push_back(t_.HexName(map::HexRef{v}));
    }
    return control;
  }

  // Only hexsides whose owner is not simply that of both their hexes (41.B: the last to own
  // both).
  json HexsideOwners(const map::MapState& m) const {
    json sides = {{"axis", json::array()}, {"allied", json::array()}, {"none", json::array()}};
    for (std::uint32_t i = 0; i < t_.hexside_count(); ++i) {
      const map::HexsideInfo& info = t_.hexside(map::HexsideRef{i});
      const Owner a = m.owner(info.a), b = m.owner(info.b);
      const Owner derived = a == b ? a : Owner::kNone;
      const Owner actual = m.hexside_owner(map::HexsideRef{i});
      if (actual != derived) sides[OwnerName(actual)].push_back(t_.HexsideName(map::HexsideRef{i}));
    }
    return sides;
  }

  const map::Theater& t_;
  const RuleTables& rules_;
};

class StateReader {
 public:
  StateReader(const JsonSource& src, const map::Theater& t, const RuleTables& rules)
      : src_(src), r_(src), t_(t), rules_(rules) {}

  Result<LoadedState> Read() {
    auto id = Header();
    if (!id) return std::unexpected(id.error());
    if (version_ >= 2) {
      if (auto s = r_.Require(P(), kContentHashKey); !s) return std::unexpected(s.error());
    }
    LoadedState out;
    out.scenario = *id;
    GameState& g = out.state;
    g.map = map::MapState(t_);
    if (id->name != t_.name()) {
      return src_.Bad(P("/scenario/name"),
                      "this state is for the scenario '" + id->name + "', not '" + t_.name() + "'");
    }
    for (const char* key : {"hash", "game", "map", "units", "air", "naval"}) {
      if (auto s = r_.Require(P(), key); !s) return std::unexpected(s.error());
    }
    for (const char* key : {"/game", "/map"}) {
      if (auto s = r_.Object(P(key)); !s) return std::unexpected(s.error());
    }
    for (Section section : {Section::kGame, Section::kMap, Section::kRecords}) {
      if (auto s = ReadSection(g, section); !s) return std::unexpected(s.error());
    }
    if (auto s = UniqueIds(g); !s) return std::unexpected(s.error());
    auto hash = r_.String(P("/hash"));
    if (!hash) return std::unexpected(hash.error());
    out.edited = *hash != StateHash(g);
    if (r_.Has(P(), kContentHashKey)) {
      auto content = r_.String(P("/" + std::string(kContentHashKey)));
      if (!content) return std::unexpected(content.error());
      out.edited = out.edited || *content != ContentHash(src_.doc());
    }
    return out;
  }

  Result<ScenarioId> Header() {
    const P root;
    if (!src_.doc().is_object()) return src_.Bad(root, "a state file holds one JSON object");
    if (auto s = r_.OnlyKeys(root, {"opsim", "version", "scenario", "hash", kContentHashKey, "game",
                                    "map", "units", "air", "naval"});
        !s) {
      return std::unexpected(s.error());
    }
    auto version = r_.Header("state", kStateFormatVersion, "a saved state");
    if (!version) return std::unexpected(version.error());
    version_ = *version;
    return ReadScenarioId(r_);
  }

 private:
  // The fields of one section of the file, in the order of the state's field list.
  Status ReadSection(GameState& g, Section section) const {
    Status status;
    ForEachField(g, [&](const Field& f, auto& field) {
      using T = std::remove_cvref_t<decltype(field)>;
      if (!status || SectionOf<T>() != section) return;
      if constexpr (SectionOf<T>() == Section::kMap) {
        status = ReadMap(field);
      } else if constexpr (SectionOf<T>() == Section::kRecords) {
        status = r_.Each(P("/" + std::string(f.name)), [&](const P& item) -> Status {
          typename T::value_type record;
          if (auto s = ReadRecord(item, record); !s) return s;
          field.push_back(std::move(record));
          return {};
        });
      } else {
        status = ReadValue(P("/game"), f.name, field);
      }
    });
    return status;
  }

  template <class T>
  Status ReadRecord(const P& at, T& record) const {
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    Status status;
    ForEachField(record, [&](const Field& f, auto& field) {
      if (!status) return;
      // Only a ground unit is ever off the map, with no hex.
      status = ReadValue(at, f.name, field, std::is_same_v<T, GroundUnit>);
    });
    if (!status) return status;
    if constexpr (std::is_same_v<T, GroundUnit>) {
      if (record.on_map() && !record.hex.valid()) {
        return src_.Bad(at / "hex", "a unit on the map stands in a hex");
      }
    }
    return {};
  }

  // Unit ids are unique across ground, air and naval units, as in a scenario.
  Status UniqueIds(const GameState& g) const {
    std::set<std::string> ids;
    Status status;
    auto check = [&](const char* section, const auto& list) {
      for (std::size_t i = 0; status && i < list.size(); ++i) {
        if (!ids.insert(list[i].id).second) {
          status = src_.Bad(P("/" + std::string(section)) / i / "id",
                            "unit id '" + list[i].id + "' twice");
        }
      }
    };
    check("units", g.units);
    check("air", g.air);
    check("naval", g.naval);
    return status;
  }

  // Reads obj's `name` into v, in the form v's type has in a state file.
  template <class T>
  Status ReadValue(const P& obj, std::string_view name, T& v, bool nullable = false) const {
    const std::string key(name);
    if constexpr (!std::is_same_v<T, bool>) {  // only flags may be left out, as false
      if (auto s = r_.Require(obj, key); !s) return s;
    }
    if constexpr (std::is_same_v<T, bool>) {
      auto b = r_.OptBool(obj, key, false);
      if (!b) return std::unexpected(b.error());
      v = *b;
    } else if constexpr (std::is_same_v<T, std::uint64_t>) {
      auto n = U64(obj / key);
      if (!n) return std::unexpected(n.error());
      v = *n;
    } else if constexpr (std::is_integral_v<T>) {
      auto [lo, hi] = IntRange(name);
      auto n = r_.Int(obj / key, lo, hi);
      if (!n) return std::unexpected(n.error());
      v = static_cast<T>(*n);
    } else if constexpr (std::is_enum_v<T>) {
      auto e = Enum<T>(obj, key);
      if (!e) return std::unexpected(e.error());
      v = *e;
    } else if constexpr (std::is_same_v<T, std::string>) {
      auto text = Str(obj, key.c_str());
      if (!text) return std::unexpected(text.error());
      v = std::move(*text);
    } else if constexpr (std::is_same_v<T, GameDate>) {
      auto text = Str(obj, key.c_str());
      if (!text) return std::unexpected(text.error());
      auto date = ParseGameDate(*text);
      if (!date) return src_.Bad(obj / key, date.error().message);
      v = *date;
    } else if constexpr (std::is_same_v<T, map::HexRef>) {
      auto h = Hex(obj / key, nullable);
      if (!h) return std::unexpected(h.error());
      v = *h;
    } else if constexpr (std::is_same_v<T, std::map<std::string, int>>) {
      if (auto s = r_.Object(obj / key); !s) return std::unexpected(s.error());
      for (const auto& [entry, value] : r_.At(obj / key).items()) {
        auto n = r_.Int(obj / key / entry, 0, 1000000);  // SRPs and exited strength
        if (!n) return std::unexpected(n.error());
        v[entry] = static_cast<int>(*n);
      }
    } else if constexpr (std::is_same_v<T, std::vector<Weather>>) {
      v.assign(t_.weather_zones().size(), Weather::kClear);
      if (auto s = r_.Object(obj / key); !s) return std::unexpected(s.error());
      for (const auto& [zone, value] : r_.At(obj / key).items()) {
        auto z = Zone(obj / key / zone, zone);
        if (!z) return std::unexpected(z.error());
        auto w = Enum<Weather>(obj / key, zone);
        if (!w) return std::unexpected(w.error());
        v[*z] = *w;
      }
    } else {
      static_assert(Record<T>, "a field with no form in state files");
      return ReadRecord(obj / key, v);
    }
    return {};
  }

  Status ReadMap(map::MapState& m) const {
    const P at("/map");
    Status status;
    ForEachField(m, [&](const Field& f, auto& field) {
      using T = std::remove_cvref_t<decltype(field)>;
      if (!status) return;
      const std::string key(f.name);
      if (status = r_.Require(at, key); !status) return;
      if constexpr (std::is_same_v<T, std::vector<std::uint8_t>>) {
        status = key == "control" ? ReadControl(m, at / key) : ReadHexsideOwners(m, at / key);
      } else if constexpr (std::is_same_v<T, std::vector<bool>>) {  // by weather zone
        status = r_.Each(at / key, [&](const P& item) -> Status {
          auto name = r_.String(item);
          if (!name) return std::unexpected(name.error());
          auto z = Zone(item, *name);
          if (!z) return std::unexpected(z.error());
          field.at(*z) = true;
          return {};
        });
      } else if constexpr (std::is_same_v<T, std::set<std::uint32_t>>) {  // by hexside
        status = r_.Each(at / key, [&](const P& item) -> Status {
          auto token = r_.String(item);
          if (!token) return std::unexpected(token.error());
          auto side = t_.FindHexside(*token);
          if (!side) return src_.Bad(item, side.error().message);
          field.insert(side->v);
          return {};
        });
      } else if constexpr (std::is_same_v<T, std::map<std::uint32_t, bool>>) {  // hexes present
        status = r_.Each(at / key, [&](const P& item) -> Status {
          auto h = Hex(item);
          if (!h) return std::unexpected(h.error());
          field[h->v] = true;
          return {};
        });
      } else if constexpr (HexRecords<T>) {  // each with its hex
        status = r_.Each(at / key, [&](const P& item) -> Status {
          if (auto s = r_.Object(item); !s) return std::unexpected(s.error());
          if (auto s = r_.Require(item, "hex"); !s) return s;
          auto h = Hex(item / "hex");
          if (!h) return std::unexpected(h.error());
          typename T::mapped_type record;
          if (auto s = ReadRecord(item, record); !s) return s;
          field[h->v] = record;
          return {};
        });
      } else if constexpr (HexMap<T>) {
        status = ReadByHex(at / key, [&](const P& item, map::HexRef h) -> Status {
          if constexpr (std::is_same_v<typename T::mapped_type, std::uint8_t>) {  // a level
            auto level = r_.Int(item, 1, 255);
            if (!level) return std::unexpected(level.error());
            field[h.v] = static_cast<std::uint8_t>(*level);
            return {};
          } else {  // markers, each once
            return r_.Each(item, [&](const P& entry) -> Status {
              auto marker = r_.String(entry);
              if (!marker) return std::unexpected(marker.error());
              m.AddMarker(h, *marker);
              return {};
            });
          }
        });
      } else {
        status = ReadValue(at, f.name, field);
      }
    });
    return status;
  }

  Status ReadControl(map::MapState& m, const P& at) const {
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    if (auto s = r_.OnlyKeys(at, {"axis", "allied"}); !s) return s;
    for (Side side : {Side::kAxis, Side::kAllied}) {
      if (!r_.Has(at, SideName(side))) continue;
      auto st = r_.Each(at / SideName(side), [&](const P& item) -> Status {
        auto h = Hex(item);
        if (!h) return std::unexpected(h.error());
        if (m.owner(*h) != Owner::kNone) {
          return src_.Bad(
              item, t_.HexName(*h) + (m.owner(*h) == OwnerOf(side) ? " is listed twice"
                                                                   : " is given to both sides"));
        }
        m.SetOwner(t_, *h, OwnerOf(side));
        return {};
      });
      if (!st) return st;
    }
    return {};
  }

  Status ReadHexsideOwners(map::MapState& m, const P& at) const {
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    if (auto s = r_.OnlyKeys(at, {"axis", "allied", "none"}); !s) return s;
    for (Owner o : {Owner::kAxis, Owner::kAllied, Owner::kNone}) {
      if (!r_.Has(at, OwnerName(o))) continue;
      auto st = r_.Each(at / OwnerName(o), [&](const P& item) -> Status {
        auto token = r_.String(item);
        if (!token) return std::unexpected(token.error());
        auto s = t_.FindHexside(*token);
        if (!s) return src_.Bad(item, s.error().message);
        m.SetHexsideOwner(*s, o);
        return {};
      });
      if (!st) return st;
    }
    return {};
  }

  // Calls f(pointer, hex) for each entry of the object at `at`, keyed by hex.
  template <class F>
  Status ReadByHex(const P& at, F f) const {
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    for (const auto& [hex, value] : r_.At(at).items()) {
      auto h = t_.FindHex(hex);
      if (!h) return src_.Bad(at / hex, h.error().message);
      if (auto s = f(at / hex, *h); !s) return s;
    }
    return {};
  }

  Result<std::size_t> Zone(const P& at, const std::string& name) const {
    const auto& zones = t_.weather_zones();
    auto it = std::find(zones.begin(), zones.end(), name);
    if (it == zones.end()) {
      return src_.Bad(at, "the scenario '" + t_.name() + "' has no weather zone " + name +
                              ": is this state from another scenario?");
    }
    return static_cast<std::size_t>(it - zones.begin());
  }

  Result<map::HexRef> Hex(const P& at, bool nullable = false) const {
    if (nullable && r_.At(at).is_null()) return map::HexRef{};
    return map::ReadHex(r_, at, t_);
  }

  Result<std::uint64_t> U64(const P& at) const {
    auto text = r_.String(at);
    if (!text) return std::unexpected(text.error());
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
    if (ec != std::errc() || end != text->data() + text->size()) {
      return src_.Bad(at, "expected a decimal number in a string");
    }
    return v;
  }

  Result<std::string> Str(const P& obj, const char* key) const { return r_.String(obj / key); }

  template <class E>
  Result<E> Enum(const P& obj, const std::string& key) const {
    auto v = Str(obj, key.c_str());
    if (!v) return std::unexpected(v.error());
    if constexpr (std::is_same_v<E, UnitType>) {
      if (auto type = rules_.FindType(*v)) return *type;
      return src_.Bad(obj / key,
                      "unknown unit type '" + EchoToken(*v) + "' (" + rules_.TypeNames() + ")");
    } else {
      if (auto e = LookupName<E>(*v, EnumCount(E{}), [](E x) { return Name(x); })) return *e;
      if constexpr (std::is_same_v<E, Side>) {
        return src_.Bad(obj / key, "a side is axis or allied");
      } else if constexpr (std::is_same_v<E, map::CanalStatus>) {
        return src_.Bad(obj / key, "unknown canal status '" + *v + "'");
      } else {
        return src_.Bad(obj / key, "unknown value '" + *v + "'");
      }
    }
  }

  const JsonSource& src_;
  JsonReader r_;
  const map::Theater& t_;
  const RuleTables& rules_;
  int version_ = 0;
};

}  // namespace

std::string StateToJson(const GameState& s, const map::Theater& t, const RuleTables& rules,
                        const ScenarioId& scenario) {
  json doc = Writer(t, rules).Game(s);
  doc["opsim"] = "state";
  doc["version"] = kStateFormatVersion;
  doc["scenario"] = {{"name", scenario.name}, {"path", scenario.path}, {"sha256", scenario.sha256}};
  doc["hash"] = StateHash(s);
  doc[kContentHashKey] = ContentHash(doc);
  return doc.dump(1) + "\n";
}

Result<ScenarioId> ReadStateScenario(const JsonSource& src) {
  return ReadScenarioId(JsonReader(src));
}

Result<LoadedState> StateFromJson(const JsonSource& src, const map::Theater& t,
                                  const RuleTables& rules) {
  return StateReader(src, t, rules).Read();
}

}  // namespace opsim::ops
