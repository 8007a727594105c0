#include "opsim/ops/campaign.h"

#include "opsim/ops/route.h"

#include <cmath>

#include <set>
#include "opsim/core/echo.h"
#include "opsim/map/scenario.h"

namespace opsim::ops {

namespace {

using P = JsonSource::Pointer;

class CampaignReader {
 public:
  CampaignReader(const JsonSource& src, const map::Scenario& sc) : src_(src), r_(src), sc_(sc) {}

  Result<Campaign> Read(std::uint64_t seed) {
    const P at("/campaign");
    if (!r_.Has(P(), "campaign")) {
      return src_.Bad(P(), "this scenario has no \"campaign\" section: it is a map only");
    }
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    if (auto s = r_.OnlyKeys(
            at, {"start", "first", "rules", "nationalities", "srp", "relief-pool", "rail-capacity",
                 "netherlands-surrendered", "supply-sources", "units", "air", "naval", "victory"});
        !s) {
      return std::unexpected(s.error());
    }
    for (const char* key : {"start", "first", "nationalities"}) {
      if (auto s = r_.Require(at, key); !s) return std::unexpected(s.error());
    }
    Campaign c;
    auto start = r_.String(at / "start");
    if (!start) return std::unexpected(start.error());
    auto date = ParseGameDate(*start);
    if (!date) return src_.Bad(at / "start", date.error().message);
    c.start = *date;
    auto first = r_.String(at / "first");
    if (!first) return std::unexpected(first.error());
    auto first_side = ParseSide(*first);
    if (!first_side) return src_.Bad(at / "first", "the first side is axis or allied");
    c.first = *first_side;
    if (r_.Has(at, "rules")) {
      // A complete rules document, inline, so the scenario carries everything it needs.
      auto text = src_.doc()[at / "rules"].dump();
      auto rules_src = JsonSource::FromText(text, "rules");
      if (!rules_src) return std::unexpected(rules_src.error());
      auto tables = LoadRuleTables(*rules_src);
      if (!tables) return InRules(tables.error());
      c.tables = std::move(*tables);
    } else {
      c.tables = DefaultRuleTables();
    }
    if (auto s = ReadNationalities(c); !s) return std::unexpected(s.error());
    GameState& g = c.initial;
    g.start = c.start;
    g.first = c.first;
    g.map = sc_.state;
    g.seed = seed;
    g.dice = seed;
    for (std::size_t z = 0; z < sc_.theater.weather_zones().size(); ++z) {
      g.weather.push_back(g.map.frozen(z) ? Weather::kFrost : Weather::kClear);
      const char zone = sc_.theater.weather_zones()[z][0];
      if (!c.tables.weather.zones.count(zone)) {
        return src_.Bad(P("/sheets"), std::string("weather zone ") + zone +
                                          " has no weather table in the rules (B2)");
      }
    }
    if (r_.Has(at, "srp")) {
      if (auto s = r_.Object(at / "srp"); !s) return std::unexpected(s.error());
      for (const auto& [nation, value] : r_.At(at / "srp").items()) {
        if (!c.nationalities.count(nation)) {
          return src_.Bad(at / "srp" / nation, "no nationality '" + EchoToken(nation) + "'");
        }
        auto v = r_.Int(at / "srp" / nation, 0, 100000);
        if (!v) return std::unexpected(v.error());
        g.srp[nation] = static_cast<int>(*v);
      }
    }
    auto relief = r_.OptString(at, "relief-pool", "");
    if (!relief) return std::unexpected(relief.error());
    if (!relief->empty()) {
      auto it = c.nationalities.find(*relief);
      if (it == c.nationalities.end() || it->second != Side::kAllied) {
        return src_.Bad(at / "relief-pool",
                        "the relief pool must be an Allied nationality (41.A.4)");
      }
    }
    c.relief_pool = *relief;
    if (r_.Has(at, "rail-capacity")) {
      if (auto s = r_.OnlyKeys(at / "rail-capacity", {"axis", "allied"}); !s) {
        return std::unexpected(s.error());
      }
      for (Side side : {Side::kAxis, Side::kAllied}) {
        if (!r_.Has(at / "rail-capacity", SideName(side))) continue;
        auto v = r_.Int(at / "rail-capacity" / SideName(side), 0, 1000);
        if (!v) return std::unexpected(v.error());
        c.rail_capacity[static_cast<int>(side)] = static_cast<int>(*v);
      }
    }
    auto surrendered = r_.OptBool(at, "netherlands-surrendered", false);
    if (!surrendered) return std::unexpected(surrendered.error());
    g.netherlands_surrendered = *surrendered;
    if (r_.Has(at, "supply-sources")) {
      if (auto s = r_.OnlyKeys(at / "supply-sources", {"axis", "allied"}); !s) {
        return std::unexpected(s.error());
      }
      for (Side side : {Side::kAxis, Side::kAllied}) {
        const P list = at / "supply-sources" / SideName(side);
        if (!r_.Has(at / "supply-sources", SideName(side))) continue;
        auto st = r_.Each(list, [&](const P& item) -> Status {
          auto h = Hex(item);
          if (!h) return std::unexpected(h.error());
          if (sc_.theater.hex(*h).IsWater()) return src_.Bad(item, "a supply source is a land hex");
          c.supply_sources[static_cast<int>(side)].push_back(*h);
          return {};
        });
        if (!st) return std::unexpected(st.error());
      }
    }
    if (auto s = ReadUnits(c); !s) return std::unexpected(s.error());
    if (r_.Has(at, "victory")) {
      auto v = ReadVictory(c);
      if (!v) return std::unexpected(v.error());
      c.victory = std::move(*v);
    }
    return c;
  }

 private:
  Result<map::HexRef> Hex(const P& at) const { return map::ReadHex(r_, at, sc_.theater); }

  // B15: the objectives, their points, and the levels of victory, in order.
  Result<Victory> ReadVictory(const Campaign& c) const {
    const P at = P("/campaign") / "victory";
    Victory v;
    if (auto s = r_.OnlyKeys(at, {"end", "objectives", "levels"}); !s) {
      return std::unexpected(s.error());
    }
    for (const char* key : {"end", "objectives", "levels"}) {
      if (auto s = r_.Require(at, key); !s) return std::unexpected(s.error());
    }
    auto end = r_.String(at / "end");
    if (!end) return std::unexpected(end.error());
    auto date = ParseGameDate(*end);
    if (!date) return src_.Bad(at / "end", date.error().message);
    if (*date < c.start) return src_.Bad(at / "end", "the game ends before it starts");
    v.end = *date;
    auto st = r_.Each(at / "objectives", [&](const P& item) -> Status {
      if (auto s = r_.OnlyKeys(item, {"hex", "name", "points"}); !s) return s;
      for (const char* key : {"hex", "name", "points"}) {
        if (auto s = r_.Require(item, key); !s) return s;
      }
      Objective o;
      auto h = Hex(item / "hex");
      if (!h) return std::unexpected(h.error());
      if (sc_.theater.hex(*h).IsWater()) return src_.Bad(item / "hex", "an objective is land");
      for (const Objective& other : v.objectives) {
        if (other.hex == *h) return src_.Bad(item / "hex", "this hex is already an objective");
      }
      auto name = r_.String(item / "name");
      if (!name) return std::unexpected(name.error());
      auto points = r_.Int(item / "points", 1, 1000);
      if (!points) return std::unexpected(points.error());
      v.objectives.push_back({*h, *name, static_cast<int>(*points)});
      return {};
    });
    if (!st) return std::unexpected(st.error());
    if (v.objectives.empty()) return src_.Bad(at / "objectives", "victory needs an objective");
    st = r_.Each(at / "levels", [&](const P& item) -> Status {
      if (auto s = r_.OnlyKeys(item, {"side", "points", "result"}); !s) return s;
      for (const char* key : {"side", "points", "result"}) {
        if (auto s = r_.Require(item, key); !s) return s;
      }
      auto side = r_.String(item / "side");
      if (!side) return std::unexpected(side.error());
      auto parsed = ParseSide(*side);
      if (!parsed) return src_.Bad(item / "side", "a side is axis or allied");
      auto points = r_.Int(item / "points", 0, 1000000);
      if (!points) return std::unexpected(points.error());
      auto result = r_.String(item / "result");
      if (!result) return std::unexpected(result.error());
      v.levels.push_back({*parsed, static_cast<int>(*points), *result});
      return {};
    });
    if (!st) return std::unexpected(st.error());
    if (v.levels.empty() || v.levels.back().points != 0) {
      return src_.Bad(at / "levels",
                      "the last level needs 0 points, so that every total has a result");
    }
    return v;
  }

  // A rules error, moved from the inline document ("rules:1: /combat/...") to the scenario's own
  // line of the same place, so the designer finds it at file:line.
  std::unexpected<Error> InRules(const Error& e) const {
    const P rules = P("/campaign") / "rules";
    const auto path = e.where.find(": /");
    if (e.where.rfind("rules:", 0) != 0 || path == std::string::npos) {
      return src_.Bad(rules, e.to_string());
    }
    try {
      Error located = src_.Bad(rules / P(e.where.substr(path + 2)), e.message).error();
      located.code = e.code;
      located.rule = e.rule;
      return std::unexpected(std::move(located));
    } catch (const nlohmann::json::exception&) {
      return src_.Bad(rules, e.to_string());
    }
  }

  Status ReadNationalities(Campaign& c) const {
    const P at("/campaign/nationalities");
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    for (const auto& [nation, side] : r_.At(at).items()) {
      auto name = r_.String(at / nation);
      if (!name) return std::unexpected(name.error());
      auto parsed = ParseSide(*name);
      if (!parsed) return src_.Bad(at / nation, "a nationality fights for axis or allied");
      c.nationalities[nation] = *parsed;
    }
    return {};
  }

  Result<Side> Nationality(const Campaign& c, const P& unit) const {
    if (auto s = r_.Require(unit, "nationality"); !s) return std::unexpected(s.error());
    auto nation = r_.String(unit / "nationality");
    if (!nation) return std::unexpected(nation.error());
    auto it = c.nationalities.find(*nation);
    if (it == c.nationalities.end()) {
      return src_.Bad(unit / "nationality",
                      "no nationality '" + EchoToken(*nation) + "' in /campaign/nationalities");
    }
    return it->second;
  }

  Status Id(const P& unit, std::string& id, std::string& name) {
    if (auto s = r_.Require(unit, "id"); !s) return s;
    auto v = r_.String(unit / "id");
    if (!v) return std::unexpected(v.error());
    if (v->empty()) return src_.Bad(unit / "id", "a unit id may not be empty");
    if (!ids_.insert(*v).second)
      return src_.Bad(unit / "id", "unit id '" + EchoToken(*v) + "' twice");
    id = *v;
    auto n = r_.OptString(unit, "name", *v);
    if (!n) return std::unexpected(n.error());
    name = *n;
    return {};
  }

  Status ReadUnits(Campaign& c) {
    const P at("/campaign");
    GameState& g = c.initial;
    std::map<std::pair<std::uint32_t, int>, int> stacks;  // (hex, side) -> half REs
    if (r_.Has(at, "units")) {
      auto st = r_.Each(at / "units", [&](const P& u) -> Status {
        if (auto s = r_.OnlyKeys(u, {"id", "name", "nationality", "type", "attack", "defense", "mp",
                                     "re", "hex", "arrives"});
            !s) {
          return s;
        }
        for (const char* key : {"type", "attack", "defense", "mp", "re", "hex"}) {
          if (auto s = r_.Require(u, key); !s) return s;
        }
        GroundUnit unit;
        if (auto s = Id(u, unit.id, unit.name); !s) return s;
        auto side = Nationality(c, u);
        if (!side) return std::unexpected(side.error());
        unit.side = *side;
        unit.nationality = r_.At(u / "nationality").get<std::string>();
        auto type = r_.String(u / "type");
        if (!type) return std::unexpected(type.error());
        auto parsed = c.tables.FindType(*type);
        if (!parsed) {
          return src_.Bad(u / "type", "unknown unit type '" + EchoToken(*type) + "' (" +
                                          c.tables.TypeNames() + ")");
        }
        unit.type = *parsed;
        for (auto [key, out] : {std::pair{"attack", &unit.attack},
                                std::pair{"defense", &unit.defense}, std::pair{"mp", &unit.mp}}) {
          auto v = r_.Int(u / key, 0, 100);
          if (!v) return std::unexpected(v.error());
          *out = static_cast<int>(*v);
        }
        const auto& re = r_.At(u / "re");
        const double halves = re.is_number() ? re.get<double>() * 2 : -1;
        if (halves < 1 || halves > 40 || std::floor(halves) != halves) {
          return src_.Bad(u / "re", "a unit's size runs from 0.5 to 20 REs, in halves");
        }
        unit.re_halves = static_cast<int>(halves);
        auto h = Hex(u / "hex");
        if (!h) return std::unexpected(h.error());
        if (sc_.theater.hex(*h).IsWater() ||
            sc_.theater.hex(*h).terrain == map::Terrain::kProhibited) {
          return src_.Bad(u / "hex", "a ground unit starts on land it may stand on (B4.4)");
        }
        unit.hex = *h;
        if (r_.Has(u, "arrives")) {  // B16.1: a reinforcement, entering at its hex
          auto text = r_.String(u / "arrives");
          if (!text) return std::unexpected(text.error());
          auto date = ParseGameDate(*text);
          if (!date) return src_.Bad(u / "arrives", date.error().message);
          if (*date <= c.start) {
            return src_.Bad(u / "arrives",
                            "a reinforcement arrives after the start (B16.1); a unit there at "
                            "the start gives no arrives");
          }
          c.arrivals[unit.id] = *date;
          unit.status = UnitStatus::kReinforcement;
          g.units.push_back(std::move(unit));
          return {};
        }
        int& stack = stacks[{h->v, static_cast<int>(unit.side)}];
        stack += unit.re_halves;
        if (stack > c.tables.stacking_halves) {
          return src_.Bad(u / "hex", "more than " + std::to_string(c.tables.stacking_halves / 2) +
                                         " REs in " + sc_.theater.HexName(*h) + " (B3.2)");
        }
        g.units.push_back(std::move(unit));
        return {};
      });
      if (!st) return st;
    }
    if (r_.Has(at, "air")) {
      auto st = r_.Each(at / "air", [&](const P& u) -> Status {
        if (auto s = r_.OnlyKeys(u, {"id", "name", "nationality", "hex"}); !s) return s;
        if (auto s = r_.Require(u, "hex"); !s) return s;
        AirUnit unit;
        if (auto s = Id(u, unit.id, unit.name); !s) return s;
        auto side = Nationality(c, u);
        if (!side) return std::unexpected(side.error());
        unit.side = *side;
        unit.nationality = r_.At(u / "nationality").get<std::string>();
        auto h = Hex(u / "hex");
        if (!h) return std::unexpected(h.error());
        if (!sc_.theater.hex(*h).airbase) {
          return src_.Bad(u / "hex", sc_.theater.HexName(*h) + " has no airbase (B11.1)");
        }
        unit.base = *h;
        g.air.push_back(std::move(unit));
        return {};
      });
      if (!st) return st;
    }
    if (r_.Has(at, "naval")) {
      auto st = r_.Each(at / "naval", [&](const P& u) -> Status {
        if (auto s = r_.OnlyKeys(u, {"id", "name", "nationality", "kind", "hex", "at-sea"}); !s) {
          return s;
        }
        for (const char* key : {"kind", "hex"}) {
          if (auto s = r_.Require(u, key); !s) return s;
        }
        NavalUnit unit;
        if (auto s = Id(u, unit.id, unit.name); !s) return s;
        auto side = Nationality(c, u);
        if (!side) return std::unexpected(side.error());
        unit.side = *side;
        unit.nationality = r_.At(u / "nationality").get<std::string>();
        auto kind = r_.String(u / "kind");
        if (!kind) return std::unexpected(kind.error());
        auto parsed = ParseNavalKind(*kind);
        if (!parsed) return src_.Bad(u / "kind", "a naval unit is a tf, cg, transport or flotilla");
        unit.kind = *parsed;
        auto token = r_.String(u / "hex");
        if (!token) return std::unexpected(token.error());
        auto w = ParseWaypoint(sc_.theater, *token);
        if (!w) return src_.Bad(u / "hex", w.error().message);
        if (w->is_river() || sc_.theater.WaterAreasOf(w->hex).empty()) {
          return src_.Bad(u / "hex", "a naval unit starts in a port or at sea (B6.1)");
        }
        unit.hex = w->hex;
        unit.area = w->area;
        auto at_sea = r_.OptBool(u, "at-sea", sc_.theater.hex(w->hex).port == map::PortSize::kNone);
        if (!at_sea) return std::unexpected(at_sea.error());
        unit.at_sea = *at_sea || sc_.theater.hex(w->hex).port == map::PortSize::kNone;
        g.naval.push_back(std::move(unit));
        return {};
      });
      if (!st) return st;
    }
    return {};
  }

  const JsonSource& src_;
  JsonReader r_;
  const map::Scenario& sc_;
  std::set<std::string> ids_;
};

}  // namespace

Result<Campaign> LoadCampaign(const JsonSource& src, const map::Scenario& scenario,
                              std::uint64_t seed) {
  return CampaignReader(src, scenario).Read(seed);
}

std::array<int, 2> VictoryPoints(const Victory& v, const GameState& state) {
  std::array<int, 2> points{};
  for (const Objective& o : v.objectives) {
    const Owner owner = state.map.owner(o.hex);
    if (owner == Owner::kAxis) points[static_cast<int>(Side::kAxis)] += o.points;
    if (owner == Owner::kAllied) points[static_cast<int>(Side::kAllied)] += o.points;
  }
  return points;
}

const VictoryLevel& VictoryStanding(const Victory& v, const std::array<int, 2>& points) {
  for (const VictoryLevel& l : v.levels) {
    if (points[static_cast<int>(l.side)] >= l.points) return l;
  }
  return v.levels.back();  // read with 0 points: never reached
}

bool GameOver(const Victory& v, const GameState& state) {
  return v.end < state.date();
}

}  // namespace opsim::ops
