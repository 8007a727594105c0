#include "opsim/ops/state_file.h"

#include <charconv>
#include <nlohmann/json.hpp>

#include "opsim/map/scenario.h"

namespace opsim::ops {

namespace {

using nlohmann::json;
using P = JsonSource::Pointer;

constexpr int kStateFormatVersion = 1;

const char* FloodKindKey(map::FloodKind k) {
  return map::FloodKindName(k);
}

json HexOrNull(const map::Theater& t, map::HexRef h) {
  return h.valid() ? json(t.HexName(h)) : json(nullptr);
}

class Reader {
 public:
  Reader(const JsonSource& src, const map::Theater& t) : src_(src), r_(src), t_(t) {}

  Result<LoadedState> Read() {
    auto id = Header();
    if (!id) return std::unexpected(id.error());
    LoadedState out;
    out.scenario = *id;
    GameState& g = out.state;
    g.map = map::MapState(t_);
    for (const char* key : {"hash", "game", "map", "units", "air", "naval"}) {
      if (auto s = r_.Require(P(), key); !s) return std::unexpected(s.error());
    }
    if (auto s = ReadGame(g); !s) return std::unexpected(s.error());
    if (auto s = ReadMap(g); !s) return std::unexpected(s.error());
    if (auto s = ReadUnits(g); !s) return std::unexpected(s.error());
    auto hash = r_.String(P("/hash"));
    if (!hash) return std::unexpected(hash.error());
    out.edited = *hash != StateHash(g);
    return out;
  }

  Result<ScenarioId> Header() {
    const P root;
    if (!src_.doc().is_object()) return src_.Bad(root, "a state file holds one JSON object");
    if (auto s = r_.OnlyKeys(
            root, {"opsim", "version", "scenario", "hash", "game", "map", "units", "air", "naval"});
        !s) {
      return std::unexpected(s.error());
    }
    if (auto v = r_.Header("state", kStateFormatVersion, "a saved state"); !v) {
      return std::unexpected(v.error());
    }
    if (auto s = r_.Require(root, "scenario"); !s) return std::unexpected(s.error());
    ScenarioId id;
    for (auto [key, out] : {std::pair{"name", &id.name}, std::pair{"path", &id.path},
                            std::pair{"sha256", &id.sha256}}) {
      if (auto s = r_.Require(P("/scenario"), key); !s) return std::unexpected(s.error());
      auto v = r_.String(P("/scenario") / key);
      if (!v) return std::unexpected(v.error());
      *out = *v;
    }
    return id;
  }

 private:
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

  Result<int> Int(const P& obj, const char* key, int lo, int hi) const {
    if (auto s = r_.Require(obj, key); !s) return std::unexpected(s.error());
    auto v = r_.Int(obj / key, lo, hi);
    if (!v) return std::unexpected(v.error());
    return static_cast<int>(*v);
  }

  Result<std::string> Str(const P& obj, const char* key) const {
    if (auto s = r_.Require(obj, key); !s) return std::unexpected(s.error());
    return r_.String(obj / key);
  }

  Result<Side> SideOf(const P& obj) const {
    auto v = Str(obj, "side");
    if (!v) return std::unexpected(v.error());
    auto s = ParseSide(*v);
    if (!s) return src_.Bad(obj / "side", "a side is axis or allied");
    return *s;
  }

  // A unit's "id", "name" and "nationality".
  Status Identity(const P& u, std::string& id, std::string& name, std::string& nationality) const {
    for (auto [key, out] :
         {std::pair{"id", &id}, std::pair{"name", &name}, std::pair{"nationality", &nationality}}) {
      auto v = Str(u, key);
      if (!v) return std::unexpected(v.error());
      *out = *v;
    }
    return {};
  }

  template <class E>
  Result<E> Enum(const P& obj, const char* key, int count, const char* (*name)(E)) const {
    auto v = Str(obj, key);
    if (!v) return std::unexpected(v.error());
    for (int i = 0; i < count; ++i) {
      if (*v == name(static_cast<E>(i))) return static_cast<E>(i);
    }
    return src_.Bad(obj / key, "unknown value '" + *v + "'");
  }

  Status ReadGame(GameState& g) const {
    const P at("/game");
    auto start = Str(at, "start");
    if (!start) return std::unexpected(start.error());
    auto date = ParseGameDate(*start);
    if (!date) return src_.Bad(at / "start", date.error().message);
    g.start = *date;
    auto first = Str(at, "first");
    if (!first) return std::unexpected(first.error());
    auto side = ParseSide(*first);
    if (!side) return src_.Bad(at / "first", "a side is axis or allied");
    g.first = *side;
    auto pt = Int(at, "player-turn", 0, 1000000);
    if (!pt) return std::unexpected(pt.error());
    g.player_turn = *pt;
    auto seed = U64(at / "seed");
    if (!seed) return std::unexpected(seed.error());
    g.seed = *seed;
    auto dice = U64(at / "dice");
    if (!dice) return std::unexpected(dice.error());
    g.dice = *dice;
    auto nl = r_.OptBool(at, "netherlands-surrendered", false);
    if (!nl) return std::unexpected(nl.error());
    g.netherlands_surrendered = *nl;
    g.weather.assign(t_.weather_zones().size(), Weather::kClear);
    if (auto s = r_.Object(at / "weather"); !s) return std::unexpected(s.error());
    for (const auto& [zone, value] : r_.At(at / "weather").items()) {
      const auto& zones = t_.weather_zones();
      auto it = std::find(zones.begin(), zones.end(), zone);
      if (it == zones.end()) return src_.Bad(at / "weather" / zone, "no weather zone " + zone);
      auto w = Enum<Weather>(at / "weather", zone.c_str(), 4, &WeatherName);
      if (!w) return std::unexpected(w.error());
      g.weather[it - zones.begin()] = *w;
    }
    for (auto [key, pools] : {std::pair{"srp", &g.srp}, std::pair{"exit-totals", &g.exit_totals}}) {
      if (auto s = r_.Object(at / key); !s) return std::unexpected(s.error());
      for (const auto& [name, value] : r_.At(at / key).items()) {
        auto v = r_.Int(at / key / name, -1000000, 1000000);
        if (!v) return std::unexpected(v.error());
        (*pools)[name] = static_cast<int>(*v);
      }
    }
    return {};
  }

  Status ReadMap(GameState& g) const {
    const P at("/map");
    map::MapState& m = g.map;
    for (Side side : {Side::kAxis, Side::kAllied}) {
      const P list = at / "control" / SideName(side);
      if (!r_.Has(at / "control", SideName(side))) continue;
      auto st = r_.Each(list, [&](const P& item) -> Status {
        auto h = Hex(item);
        if (!h) return std::unexpected(h.error());
        m.SetOwner(t_, *h, OwnerOf(side));
        return {};
      });
      if (!st) return st;
    }
    for (Owner o : {Owner::kAxis, Owner::kAllied, Owner::kNone}) {
      if (!r_.Has(at / "hexside-owners", OwnerName(o))) continue;
      auto st = r_.Each(at / "hexside-owners" / OwnerName(o), [&](const P& item) -> Status {
        auto token = r_.String(item);
        if (!token) return std::unexpected(token.error());
        auto s = t_.FindHexside(*token);
        if (!s) return src_.Bad(item, s.error().message);
        m.SetHexsideOwner(*s, o);
        return {};
      });
      if (!st) return st;
    }
    auto frozen = r_.Each(at / "frozen-zones", [&](const P& item) -> Status {
      auto zone = r_.String(item);
      if (!zone) return std::unexpected(zone.error());
      const auto& zones = t_.weather_zones();
      auto it = std::find(zones.begin(), zones.end(), *zone);
      if (it == zones.end()) return src_.Bad(item, "no weather zone " + *zone);
      m.SetFrozen(static_cast<std::size_t>(it - zones.begin()), true);
      return {};
    });
    if (!frozen) return frozen;
    auto suez = Str(at, "suez");
    if (!suez) return std::unexpected(suez.error());
    auto status = map::ParseCanalStatus(*suez);
    if (!status) return src_.Bad(at / "suez", "unknown canal status '" + *suez + "'");
    m.SetSuez(*status);
    auto floods = r_.Each(at / "floods", [&](const P& item) -> Status {
      auto h = Hex(item / "hex");
      if (!h) return std::unexpected(h.error());
      auto kind = Enum<map::FloodKind>(item, "kind", 3, &FloodKindKey);
      if (!kind) return std::unexpected(kind.error());
      auto from = Int(item, "from", 0, 1000000);
      if (!from) return std::unexpected(from.error());
      auto until = Int(item, "until", 0, 1000000);
      if (!until) return std::unexpected(until.error());
      m.SetFlood(*h, map::Flood{*kind, *from, *until});
      return {};
    });
    if (!floods) return floods;
    for (auto [key, set] : {std::pair{"airbase-damage", &map::MapState::SetAirbaseDamage},
                            std::pair{"port-damage", &map::MapState::SetPortDamage}}) {
      if (auto s = r_.Object(at / key); !s) return std::unexpected(s.error());
      for (const auto& [hex, value] : r_.At(at / key).items()) {
        auto h = t_.FindHex(hex);
        if (!h) return src_.Bad(at / key / hex, h.error().message);
        auto v = r_.Int(at / key / hex, 1, 255);
        if (!v) return std::unexpected(v.error());
        (m.*set)(*h, static_cast<std::uint8_t>(*v));
      }
    }
    auto ice = r_.Each(at / "ice-airfields", [&](const P& item) -> Status {
      auto h = Hex(item);
      if (!h) return std::unexpected(h.error());
      m.SetIceAirfield(*h, true);
      return {};
    });
    if (!ice) return ice;
    auto bridges = r_.Each(at / "destroyed-bridges", [&](const P& item) -> Status {
      auto token = r_.String(item);
      if (!token) return std::unexpected(token.error());
      auto side = t_.FindHexside(*token);
      if (!side) return src_.Bad(item, side.error().message);
      m.SetBridgeDestroyed(*side, true);
      return {};
    });
    if (!bridges) return bridges;
    if (auto s = r_.Object(at / "markers"); !s) return std::unexpected(s.error());
    for (const auto& [hex, list] : r_.At(at / "markers").items()) {
      auto h = t_.FindHex(hex);
      if (!h) return src_.Bad(at / "markers" / hex, h.error().message);
      auto st = r_.Each(at / "markers" / hex, [&](const P& item) -> Status {
        auto marker = r_.String(item);
        if (!marker) return std::unexpected(marker.error());
        m.AddMarker(*h, *marker);
        return {};
      });
      if (!st) return st;
    }
    return {};
  }

  Status ReadUnits(GameState& g) const {
    auto units = r_.Each(P("/units"), [&](const P& u) -> Status {
      GroundUnit unit;
      if (auto s = Identity(u, unit.id, unit.name, unit.nationality); !s) return s;
      auto side = SideOf(u);
      if (!side) return std::unexpected(side.error());
      unit.side = *side;
      auto type = Enum<UnitType>(u, "type", 10, &UnitTypeName);
      if (!type) return std::unexpected(type.error());
      unit.type = *type;
      for (auto [key, out] :
           {std::pair{"attack", &unit.attack}, std::pair{"defense", &unit.defense},
            std::pair{"mp", &unit.mp}, std::pair{"re-halves", &unit.re_halves},
            std::pair{"extra-mp-marker", &unit.extra_mp_marker}}) {
        auto v = Int(u, key, 0, 1000);
        if (!v) return std::unexpected(v.error());
        *out = *v;
      }
      auto dropped = Int(u, "dropped-in", -1, 1000000);
      if (!dropped) return std::unexpected(dropped.error());
      unit.dropped_in = *dropped;
      auto hex = Hex(u / "hex", true);
      if (!hex) return std::unexpected(hex.error());
      unit.hex = *hex;
      auto status = Enum<UnitStatus>(u, "status", 3, &UnitStatusName);
      if (!status) return std::unexpected(status.error());
      unit.status = *status;
      auto supply = Enum<SupplyStatus>(u, "supply", 3, &SupplyStatusName);
      if (!supply) return std::unexpected(supply.error());
      unit.supply = *supply;
      g.units.push_back(std::move(unit));
      return {};
    });
    if (!units) return units;
    auto air = r_.Each(P("/air"), [&](const P& u) -> Status {
      AirUnit unit;
      if (auto s = Identity(u, unit.id, unit.name, unit.nationality); !s) return s;
      auto side = SideOf(u);
      if (!side) return std::unexpected(side.error());
      unit.side = *side;
      auto base = Hex(u / "base");
      if (!base) return std::unexpected(base.error());
      unit.base = *base;
      auto status = Enum<AirStatus>(u, "status", 2, &AirStatusName);
      if (!status) return std::unexpected(status.error());
      unit.status = *status;
      g.air.push_back(std::move(unit));
      return {};
    });
    if (!air) return air;
    return r_.Each(P("/naval"), [&](const P& u) -> Status {
      NavalUnit unit;
      if (auto s = Identity(u, unit.id, unit.name, unit.nationality); !s) return s;
      auto side = SideOf(u);
      if (!side) return std::unexpected(side.error());
      unit.side = *side;
      auto kind = Enum<NavalKind>(u, "kind", 4, &NavalKindName);
      if (!kind) return std::unexpected(kind.error());
      unit.kind = *kind;
      auto hex = Hex(u / "hex");
      if (!hex) return std::unexpected(hex.error());
      unit.hex = *hex;
      auto area = Int(u, "area", 0, 5);
      if (!area) return std::unexpected(area.error());
      unit.area = static_cast<std::uint8_t>(*area);
      auto at_sea = r_.OptBool(u, "at-sea", false);
      auto sunk = r_.OptBool(u, "sunk", false);
      if (!at_sea || !sunk) return std::unexpected(!at_sea ? at_sea.error() : sunk.error());
      unit.at_sea = *at_sea;
      unit.sunk = *sunk;
      g.naval.push_back(std::move(unit));
      return {};
    });
  }

  const JsonSource& src_;
  JsonReader r_;
  const map::Theater& t_;
};

}  // namespace

std::string StateToJson(const GameState& s, const map::Theater& t, const ScenarioId& scenario) {
  json game = {{"start", FormatGameDate(s.start)},
               {"first", SideName(s.first)},
               {"player-turn", s.player_turn},
               {"seed", std::to_string(s.seed)},
               {"dice", std::to_string(s.dice)},
               {"netherlands-surrendered", s.netherlands_surrendered},
               {"srp", s.srp},
               {"exit-totals", s.exit_totals}};
  json weather = json::object();
  for (std::size_t z = 0; z < s.weather.size() && z < t.weather_zones().size(); ++z) {
    weather[t.weather_zones()[z]] = WeatherName(s.weather[z]);
  }
  game["weather"] = weather;
  const map::MapState& m = s.map;
  json control = {{"axis", json::array()}, {"allied", json::array()}};
  for (std::uint32_t v = 0; v < t.hex_count(); ++v) {
    const Owner o = m.owner(map::HexRef{v});
    if (o != Owner::kNone) control[OwnerName(o)].push_back(t.HexName(map::HexRef{v}));
  }
  // Only hexsides whose owner is not simply that of both their hexes (41.B: the last to own both).
  json sides = {{"axis", json::array()}, {"allied", json::array()}, {"none", json::array()}};
  for (std::uint32_t i = 0; i < t.hexside_count(); ++i) {
    const map::HexsideInfo& info = t.hexside(map::HexsideRef{i});
    const Owner a = m.owner(info.a), b = m.owner(info.b);
    const Owner derived = a == b ? a : Owner::kNone;
    const Owner actual = m.hexside_owner(map::HexsideRef{i});
    if (actual != derived) sides[OwnerName(actual)].push_back(t.HexsideName(map::HexsideRef{i}));
  }
  json frozen = json::array();
  for (std::size_t z = 0; z < t.weather_zones().size(); ++z) {
    if (m.frozen(z)) frozen.push_back(t.weather_zones()[z]);
  }
  json floods = json::array();
  for (const auto& [hex, f] : m.floods()) {
    floods.push_back({{"hex", t.HexName(map::HexRef{hex})},
                      {"kind", map::FloodKindName(f.kind)},
                      {"from", f.from},
                      {"until", f.until}});
  }
  auto levels = [&](const std::map<std::uint32_t, std::uint8_t>& d) {
    json out = json::object();
    for (const auto& [hex, level] : d) out[t.HexName(map::HexRef{hex})] = level;
    return out;
  };
  json ice = json::array();
  for (const auto& [hex, present] : m.ice_airfields()) ice.push_back(t.HexName(map::HexRef{hex}));
  json markers = json::object();
  for (const auto& [hex, list] : m.markers()) markers[t.HexName(map::HexRef{hex})] = list;
  json bridges = json::array();
  for (std::uint32_t side : m.destroyed_bridges()) {
    bridges.push_back(t.HexsideName(map::HexsideRef{side}));
  }
  json map_doc = {{"control", control},
                  {"hexside-owners", sides},
                  {"frozen-zones", frozen},
                  {"suez", map::CanalStatusName(m.suez())},
                  {"floods", floods},
                  {"airbase-damage", levels(m.airbase_damage())},
                  {"port-damage", levels(m.port_damage())},
                  {"ice-airfields", ice},
                  {"destroyed-bridges", bridges},
                  {"markers", markers}};
  json units = json::array();
  for (const GroundUnit& u : s.units) {
    units.push_back({{"id", u.id},
                     {"name", u.name},
                     {"side", SideName(u.side)},
                     {"nationality", u.nationality},
                     {"type", UnitTypeName(u.type)},
                     {"attack", u.attack},
                     {"defense", u.defense},
                     {"mp", u.mp},
                     {"re-halves", u.re_halves},
                     {"hex", HexOrNull(t, u.hex)},
                     {"status", UnitStatusName(u.status)},
                     {"supply", SupplyStatusName(u.supply)},
                     {"extra-mp-marker", u.extra_mp_marker},
                     {"dropped-in", u.dropped_in}});
  }
  json air = json::array();
  for (const AirUnit& a : s.air) {
    air.push_back({{"id", a.id},
                   {"name", a.name},
                   {"side", SideName(a.side)},
                   {"nationality", a.nationality},
                   {"base", t.HexName(a.base)},
                   {"status", AirStatusName(a.status)}});
  }
  json naval = json::array();
  for (const NavalUnit& n : s.naval) {
    naval.push_back({{"id", n.id},
                     {"name", n.name},
                     {"side", SideName(n.side)},
                     {"nationality", n.nationality},
                     {"kind", NavalKindName(n.kind)},
                     {"hex", t.HexName(n.hex)},
                     {"area", n.area},
                     {"at-sea", n.at_sea},
                     {"sunk", n.sunk}});
  }
  json doc = {
      {"opsim", "state"},
      {"version", kStateFormatVersion},
      {"scenario", {{"name", scenario.name}, {"path", scenario.path}, {"sha256", scenario.sha256}}},
      {"hash", StateHash(s)},
      {"game", game},
      {"map", map_doc},
      {"units", units},
      {"air", air},
      {"naval", naval}};
  return doc.dump(1) + "\n";
}

Result<ScenarioId> ReadStateScenario(const JsonSource& src) {
  JsonReader r(src);
  if (!src.doc().is_object() || !r.Has(P(), "scenario")) {
    return src.Bad(P(), "not an opsim state file: it names no scenario");
  }
  ScenarioId id;
  for (auto [key, out] : {std::pair{"name", &id.name}, std::pair{"path", &id.path},
                          std::pair{"sha256", &id.sha256}}) {
    auto v = r.String(P("/scenario") / key);
    if (!v) return std::unexpected(v.error());
    *out = *v;
  }
  return id;
}

Result<LoadedState> StateFromJson(const JsonSource& src, const map::Theater& t) {
  return Reader(src, t).Read();
}

}  // namespace opsim::ops
