#include "opsim/ops/tables.h"

#include "opsim/core/echo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace opsim::ops {

extern const char* const kBaseRulesJson;

namespace {

using P = JsonSource::Pointer;

constexpr std::array<const char*, kCrossingKinds> kCombatHexsideNames = {"minor-river",
                                                                         "major-river", "canal"};

class TablesReader {
 public:
  explicit TablesReader(const JsonSource& src) : src_(src), r_(src) {}

  Result<RuleTables> Read() {
    RuleTables t;
    const P root;
    if (!src_.doc().is_object()) return src_.Bad(root, "a rules file holds one JSON object");
    if (auto s =
            r_.OnlyKeys(root, {"opsim", "version", "name", "notes", "movement", "naval", "stacking",
                               "zones-of-control", "overrun", "rail", "exploitation", "combat",
                               "supply", "flooding", "air", "ports", "weather", "units"});
        !s) {
      return std::unexpected(s.error());
    }
    if (auto v = r_.Header("rules", 1, "a rules file"); !v) return std::unexpected(v.error());
    auto name = r_.OptString(root, "name", "rules");
    if (!name) return std::unexpected(name.error());
    t.name = *name;
    for (const char* key :
         {"movement", "naval", "stacking", "zones-of-control", "overrun", "rail", "exploitation",
          "combat", "supply", "flooding", "air", "ports", "weather"}) {
      if (auto s = r_.Require(root, key); !s) return std::unexpected(s.error());
    }
    for (auto step : {&TablesReader::ReadMovement, &TablesReader::ReadUnits,
                      &TablesReader::ReadNaval, &TablesReader::ReadSmall, &TablesReader::ReadCombat,
                      &TablesReader::ReadFlooding, &TablesReader::ReadWeather}) {
      if (auto s = (this->*step)(t); !s) return std::unexpected(s.error());
    }
    return t;
  }

 private:
  // A cost in MP, in steps of 1/2, or null for prohibited when `allow_null`.
  Result<Half> Mp(const P& at, bool allow_null) const {
    const auto& j = r_.At(at);
    if (j.is_null() && allow_null) return kProhibited;
    if (!j.is_number()) return src_.Bad(at, "expected a number of MP");
    auto halves = Steps(at, 2, 120, "an MP cost runs from 0 to 60 in steps of 1/2");
    if (!halves) return std::unexpected(halves.error());
    return static_cast<Half>(*halves);
  }

  // A number from 0 in steps of 1/`per`, at most `most` steps, as its count of steps; else
  // `range`, which says what is allowed.
  Result<int> Steps(const P& at, int per, int most, const char* range) const {
    const auto& j = r_.At(at);
    const double steps = j.is_number() ? j.get<double>() * per : -1;
    if (steps < 0 || steps > most || std::floor(steps) != steps) return src_.Bad(at, range);
    return static_cast<int>(steps);
  }

  Status PerClass(const P& at, ClassCosts& out, bool allow_null) const {
    const auto& j = r_.At(at);
    if (j.is_null() && allow_null) {
      out.fill(kProhibited);
      return {};
    }
    if (!j.is_array() || j.size() != classes_.size()) {
      std::string names;
      for (const std::string& c : classes_) names += (names.empty() ? "" : ", ") + c;
      return src_.Bad(at, "expected one cost per class: [" + names + "]");
    }
    for (std::size_t i = 0; i < classes_.size(); ++i) {
      auto v = Mp(at / i, false);
      if (!v) return std::unexpected(v.error());
      out[i] = *v;
    }
    return {};
  }

  // B4.1: the movement classes, each a distinct name; the base rules' three when absent.
  Status ReadClasses(MovementTables& m) {
    const P at = P("/movement") / "classes";
    if (!r_.Has(P("/movement"), "classes")) {
      classes_ = DefaultRuleTables().movement.classes;
    } else {
      auto list = r_.Array(at);
      if (!list) return std::unexpected(list.error());
      if ((*list)->empty() || (*list)->size() > kMaxMoveClasses) {
        return src_.Bad(at, "from 1 to " + std::to_string(kMaxMoveClasses) + " movement classes");
      }
      for (std::size_t i = 0; i < (*list)->size(); ++i) {
        auto name = r_.String(at / i);
        if (!name) return std::unexpected(name.error());
        if (!IsTypeName(*name)) {
          return src_.Bad(at / i, "a class is named in lower-case letters, digits and '-'");
        }
        if (std::find(classes_.begin(), classes_.end(), *name) != classes_.end()) {
          return src_.Bad(at / i, "class '" + *name + "' is named twice");
        }
        classes_.push_back(*name);
      }
    }
    m.classes = classes_;
    return {};
  }

  // 1 to 24 characters of a-z, 0-9 and '-': a unit type's or a class's name.
  static bool IsTypeName(std::string_view name) {
    return !name.empty() && name.size() <= 24 &&
           name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
  }

  Status ReadMovement(RuleTables& t) {
    MovementTables& m = t.movement;
    const P at("/movement");
    if (auto s =
            r_.OnlyKeys(at, {"classes", "terrain", "hexside", "road", "engineer-river-reduction"});
        !s) {
      return s;
    }
    if (auto s = ReadClasses(m); !s) return s;
    for (const char* key : {"terrain", "hexside", "road", "engineer-river-reduction"}) {
      if (auto s = r_.Require(at, key); !s) return s;
    }
    for (int t = 0; t < map::kTerrainCount; ++t) {
      const std::string key = map::TerrainName(static_cast<map::Terrain>(t));
      if (auto s = r_.Require(at / "terrain", key); !s) return s;
      if (auto s = PerClass(at / "terrain" / key, m.terrain[t], true); !s) return s;
    }
    if (auto s = r_.Require(at / "terrain", "frozen-lake"); !s) return s;
    if (auto s = PerClass(at / "terrain" / "frozen-lake", m.frozen_lake, false); !s) return s;
    const P hs = at / "hexside";
    if (auto s = r_.OnlyKeys(hs, {"minor-river", "major-river", "canal", "frozen-minor-river",
                                  "frozen-major-river", "frozen-lake"});
        !s) {
      return s;
    }
    struct Row {
      const char* key;
      ClassCosts* out;
    };
    for (Row row : {Row{"minor-river", &m.minor_river}, Row{"major-river", &m.major_river},
                    Row{"canal", &m.canal}, Row{"frozen-minor-river", &m.frozen_minor_river},
                    Row{"frozen-major-river", &m.frozen_major_river},
                    Row{"frozen-lake", &m.frozen_lake_hexside}}) {
      if (auto s = r_.Require(hs, row.key); !s) return s;
      if (auto s = PerClass(hs / row.key, *row.out, false); !s) return s;
    }
    auto road = Mp(at / "road", false);
    if (!road) return std::unexpected(road.error());
    if (*road == 0) return src_.Bad(at / "road", "a road hex costs more than nothing");
    m.road = *road;
    auto eng = Mp(at / "engineer-river-reduction", false);
    if (!eng) return std::unexpected(eng.error());
    m.engineer_river_reduction = *eng;
    return {};
  }

  // B3.1: the unit types, each with its class and the flags the rules read; the base rules'
  // ten when absent (then every class they name must be one of movement.classes).
  Status ReadUnits(RuleTables& t) {
    if (!r_.Has(P(), "units")) {
      for (UnitTypeRules type : DefaultRuleTables().unit_types) {
        const std::string& cls = DefaultRuleTables().movement.ClassName(type.cls);
        auto it = std::find(classes_.begin(), classes_.end(), cls);
        if (it == classes_.end()) {
          return src_.Bad(P(), "give units.types: the base rules' " + type.name + " moves as " +
                                   cls + ", which movement.classes does not name");
        }
        type.cls = static_cast<MoveClass>(it - classes_.begin());
        t.unit_types.push_back(std::move(type));
      }
      return {};
    }
    const P at = P("/units");
    if (auto s = OnlyKeysOf(at, {"types"}); !s) return s;
    if (auto s = r_.Require(at, "types"); !s) return s;
    auto list = r_.Array(at / "types");
    if (!list) return std::unexpected(list.error());
    if ((*list)->empty() || (*list)->size() > kMaxUnitTypes) {
      return src_.Bad(at / "types", "from 1 to " + std::to_string(kMaxUnitTypes) + " unit types");
    }
    for (std::size_t i = 0; i < (*list)->size(); ++i) {
      const P here = at / "types" / i;
      if (auto s = OnlyKeysOf(
              here, {"type", "class", "motorized", "engineer", "construction", "airborne"});
          !s) {
        return s;
      }
      UnitTypeRules type;
      for (const char* key : {"type", "class"}) {
        if (auto s = r_.Require(here, key); !s) return s;
      }
      auto name = r_.String(here / "type");
      if (!name) return std::unexpected(name.error());
      if (!IsTypeName(*name)) {
        return src_.Bad(here / "type",
                        "a unit type is named in lower-case letters, digits and '-'");
      }
      if (t.FindType(*name)) {
        return src_.Bad(here / "type", "unit type '" + *name + "' is defined twice");
      }
      type.name = *name;
      auto cls = r_.String(here / "class");
      if (!cls) return std::unexpected(cls.error());
      auto it = std::find(classes_.begin(), classes_.end(), *cls);
      if (it == classes_.end()) {
        return src_.Bad(here / "class", "'" + EchoToken(*cls) + "' is not one of movement.classes");
      }
      type.cls = static_cast<MoveClass>(it - classes_.begin());
      for (auto [key, out] :
           {std::pair{"motorized", &type.motorized}, std::pair{"engineer", &type.engineer},
            std::pair{"construction", &type.construction}, std::pair{"airborne", &type.airborne}}) {
        auto v = r_.OptBool(here, key, false);
        if (!v) return std::unexpected(v.error());
        *out = *v;
      }
      t.unit_types.push_back(std::move(type));
    }
    return {};
  }

  Status ReadNaval(RuleTables& t) {
    NavalTables& n = t.naval;
    const P at("/naval");
    if (auto s = r_.OnlyKeys(
            at, {"sea-hex", "riverine-hexside", "leave-waterway", "allowance", "landing-res"});
        !s) {
      return s;
    }
    struct Row {
      const char* key;
      std::uint16_t* out;
      std::int64_t min;
    };
    for (Row row : {Row{"sea-hex", &n.sea_hex, 1}, Row{"riverine-hexside", &n.riverine_hexside, 1},
                    Row{"leave-waterway", &n.leave_waterway, 0}}) {
      if (auto s = r_.Require(at, row.key); !s) return s;
      auto v = r_.Int(at / row.key, row.min, 100);
      if (!v) return std::unexpected(v.error());
      *row.out = static_cast<std::uint16_t>(*v);
    }
    if (auto s = IntField(at, "allowance", 1, 1000, n.allowance); !s) return s;
    return IntField(at, "landing-res", 0, 100, n.landing_res);
  }

  Status IntField(const P& obj, const char* key, int lo, int hi, int& out) const {
    if (auto s = r_.Require(obj, key); !s) return s;
    auto v = r_.Int(obj / key, lo, hi);
    if (!v) return std::unexpected(v.error());
    out = static_cast<int>(*v);
    return {};
  }

  // The one- and two-number sections.
  Status ReadSmall(RuleTables& t) {
    struct Field {
      const char* section;
      const char* key;
      int lo, hi;
      int* out;
    };
    int stacking_res = 3;
    const Field fields[] = {
        {"stacking", "res-per-hex", 1, 100, &stacking_res},
        {"overrun", "odds", 2, 100, &t.combat.overrun_odds},
        {"overrun", "extra-mp", 0, 60, &t.combat.overrun_extra_mp},
        {"rail", "hexes", 1, 1000, &t.rail_hexes},
        {"exploitation", "mp-divisor", 1, 10, &t.exploitation_divisor},
        {"supply", "overland-mp", 0, 60, &t.supply_overland_mp},
        {"air", "escape-range", 0, 1000, &t.air_escape_range},
        {"air", "escape-die", 2, 100, &t.air_escape_die},
        {"air", "escape-succeeds-on-or-below", 0, 100, &t.air_escape_max_roll},
        {"air", "drop-range", 0, 1000, &t.air_drop_range},
        {"air", "airbase-max-damage", 1, 100, &t.airbase_max_damage},
    };
    for (const char* section : {"stacking", "overrun", "rail", "exploitation", "supply"}) {
      std::vector<std::string_view> keys;
      for (const Field& f : fields) {
        if (std::string_view(f.section) == section) keys.push_back(f.key);
      }
      if (auto s = OnlyKeysOf(P("/" + std::string(section)), keys); !s) return s;
    }
    if (auto s = OnlyKeysOf(P("/air"), {"escape-range", "escape-die", "escape-succeeds-on-or-below",
                                        "drop-range", "airbase-max-damage"});
        !s) {
      return s;
    }
    for (const Field& f : fields) {
      if (auto s = IntField(P("/" + std::string(f.section)), f.key, f.lo, f.hi, *f.out); !s) {
        return s;
      }
    }
    t.stacking_halves = stacking_res * 2;
    const P zoc("/zones-of-control");
    if (auto s = OnlyKeysOf(zoc, {"exerted-by-attack-zero"}); !s) return s;
    if (auto s = r_.Require(zoc, "exerted-by-attack-zero"); !s) return s;
    auto zero = r_.OptBool(zoc, "exerted-by-attack-zero", false);
    if (!zero) return std::unexpected(zero.error());
    t.zoc_from_zero_attack = *zero;
    const P ports("/ports/max-damage");
    if (auto s = OnlyKeysOf(P("/ports"), {"max-damage"}); !s) return s;
    for (int p = 1; p <= 4; ++p) {
      const char* name = map::PortSizeName(static_cast<map::PortSize>(p));
      if (auto s = IntField(ports, name, 1, 100, t.port_max_damage[p]); !s) return s;
    }
    return {};
  }

  Status OnlyKeysOf(const P& at, const std::vector<std::string_view>& keys) const {
    if (auto o = r_.Object(at); !o) return std::unexpected(o.error());
    for (const auto& [key, value] : r_.At(at).items()) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        return src_.Bad(at / key, "unknown key '" + key + "'");
      }
    }
    return {};
  }

  // B7.2: the columns, rising left to right: "3:1" (odds) or "+3" (differential).
  Status ReadColumns(CombatTables& c) const {
    const P at = P("/combat") / "columns";
    auto cols = r_.Array(at);
    if (!cols) return std::unexpected(cols.error());
    if ((*cols)->empty()) return src_.Bad(at, "the CRT needs columns");
    for (std::size_t i = 0; i < (*cols)->size(); ++i) {
      auto col = r_.String(at / i);
      if (!col) return std::unexpected(col.error());
      int a = 0, d = 0, used = 0;
      if (c.kind == CrtKind::kOdds) {
        if (std::sscanf(col->c_str(), "%d:%d%n", &a, &d, &used) != 2 || a < 1 || d < 1 ||
            used != static_cast<int>(col->size())) {
          return src_.Bad(at / i, "a column of an odds CRT is written like \"3:1\"");
        }
        if (!c.columns.empty() && a * c.column_defense.back() <= c.column_attack.back() * d) {
          return src_.Bad(at / i, "columns must rise in odds from left to right");
        }
      } else {
        if (std::sscanf(col->c_str(), "%d%n", &a, &used) != 1 || a < -99 || a > 99 ||
            used != static_cast<int>(col->size()) || (a > 0 && (*col)[0] != '+')) {
          return src_.Bad(at / i,
                          "a column of a differential CRT is written like \"-2\", \"0\" or \"+3\"");
        }
        if (!c.columns.empty() && a <= c.column_attack.back()) {
          return src_.Bad(at / i, "columns must rise from left to right");
        }
      }
      c.columns.push_back(*col);
      c.column_attack.push_back(a);
      c.column_defense.push_back(d);
    }
    return {};
  }

  // B7.3: each result code and its effects, in the designer's order.
  Status ReadCodes(CombatTables& c) const {
    const P at = P("/combat") / "codes";
    auto codes = r_.Array(at);
    if (!codes) return std::unexpected(codes.error());
    if ((*codes)->empty()) return src_.Bad(at, "the CRT needs result codes");
    if ((*codes)->size() > 64) return src_.Bad(at, "at most 64 result codes");
    for (std::size_t i = 0; i < (*codes)->size(); ++i) {
      const P here = at / i;
      if (auto s = OnlyKeysOf(here, {"code", "attacker-loss", "defender-loss", "exchange",
                                     "attacker-retreat", "defender-retreat"});
          !s) {
        return s;
      }
      if (auto s = r_.Require(here, "code"); !s) return s;
      auto name = r_.String(here / "code");
      if (!name) return std::unexpected(name.error());
      if (name->empty() || name->size() > 8) {
        return src_.Bad(here / "code", "a result code is 1 to 8 characters");
      }
      for (const CombatResultCode& other : c.codes) {
        if (other.name == *name) {
          return src_.Bad(here / "code", "result code '" + EchoToken(*name) + "' is defined twice");
        }
      }
      CombatResultCode code;
      code.name = *name;
      for (auto [key, out] : {std::pair{"attacker-loss", &code.attacker_loss},
                              std::pair{"defender-loss", &code.defender_loss}}) {
        if (!r_.Has(here, key)) continue;
        const auto& j = r_.At(here / key);
        const double share = j.is_number() ? j.get<double>() * 100 : -1;
        if (share < 0 || share > 100 || std::abs(share - std::round(share)) > 1e-6) {
          return src_.Bad(here / key,
                          "a loss is a share of the strength from 0 to 1, in hundredths");
        }
        *out = static_cast<int>(std::lround(share));
      }
      auto exchange = r_.OptBool(here, "exchange", false);
      if (!exchange) return std::unexpected(exchange.error());
      code.exchange = *exchange;
      for (auto [key, out] : {std::pair{"attacker-retreat", &code.attacker_retreat},
                              std::pair{"defender-retreat", &code.defender_retreat}}) {
        if (!r_.Has(here, key)) continue;
        if (auto s = IntField(here, key, 0, 6, *out); !s) return s;
      }
      if (code.exchange && (code.attacker_loss > 0 || code.defender_loss > 0)) {
        return src_.Bad(here, "an exchange sets both sides' losses; give no other loss with it");
      }
      if (code.attacker_retreat > 0 && code.defender_retreat > 0) {
        return src_.Bad(here, "only one side retreats in a result");
      }
      c.codes.push_back(std::move(code));
    }
    return {};
  }

  static std::string CodeNames(const CombatTables& c) {
    std::string out;
    for (const CombatResultCode& code : c.codes) out += (out.empty() ? "" : " ") + code.name;
    return out;
  }

  Status ReadCombat(RuleTables& t) {
    CombatTables& c = t.combat;
    const P at("/combat");
    if (auto s = OnlyKeysOf(at, {"kind", "die", "columns", "codes", "results", "terrain-shift",
                                 "city-shift", "hexside-shift", "defense-multiplier",
                                 "attack-multiplier", "out-of-supply-attack-divisor"});
        !s) {
      return s;
    }
    for (const char* key : {"columns", "results", "terrain-shift", "city-shift"}) {
      if (auto s = r_.Require(at, key); !s) return s;
    }
    auto kind = r_.OptString(at, "kind", "odds");
    if (!kind) return std::unexpected(kind.error());
    if (*kind != "odds" && *kind != "differential") {
      return src_.Bad(at / "kind", "a CRT's kind is \"odds\" or \"differential\"");
    }
    c.kind = *kind == "odds" ? CrtKind::kOdds : CrtKind::kDifferential;
    if (r_.Has(at, "die")) {
      if (auto s = IntField(at, "die", 2, 20, c.die); !s) return s;
    }
    if (auto s = ReadColumns(c); !s) return s;
    if (r_.Has(at, "codes")) {
      if (auto s = ReadCodes(c); !s) return s;
    } else {
      c.codes = DefaultRuleTables().combat.codes;  // the base rules' AE, AR, EX, DR and DE
    }
    auto rows = r_.Array(at / "results");
    if (!rows) return std::unexpected(rows.error());
    if ((*rows)->size() != static_cast<std::size_t>(c.die)) {
      return src_.Bad(at / "results",
                      "one row per face of the die (" + std::to_string(c.die) + ")");
    }
    for (std::size_t r = 0; r < (*rows)->size(); ++r) {
      auto row = r_.Array(at / "results" / r);
      if (!row) return std::unexpected(row.error());
      if ((*row)->size() != c.columns.size()) {
        return src_.Bad(at / "results" / r, "one result per column");
      }
      std::vector<CombatResult> out;
      for (std::size_t k = 0; k < c.columns.size(); ++k) {
        auto res = r_.String(at / "results" / r / k);
        if (!res) return std::unexpected(res.error());
        const auto code = std::find_if(c.codes.begin(), c.codes.end(),
                                       [&](const CombatResultCode& x) { return x.name == *res; });
        if (code == c.codes.end()) {
          return src_.Bad(at / "results" / r / k,
                          "'" + EchoToken(*res) + "' is not a code of " +
                              (r_.Has(at, "codes") ? "combat.codes" : "the base rules") + " (" +
                              CodeNames(c) + ")");
        }
        out.push_back(CombatResult{static_cast<std::uint8_t>(code - c.codes.begin())});
      }
      c.results.push_back(std::move(out));
    }
    for (int tr = 0; tr < map::kTerrainCount; ++tr) {
      const char* name = map::TerrainName(static_cast<map::Terrain>(tr));
      if (auto s = IntField(at / "terrain-shift", name, -10, 10, c.terrain_shift[tr]); !s) return s;
    }
    for (int ck = 1; ck <= 3; ++ck) {
      const char* name = map::CityKindName(static_cast<map::CityKind>(ck));
      if (auto s = IntField(at / "city-shift", name, -10, 10, c.city_shift[ck]); !s) return s;
    }
    if (auto s = ReadCombatEffects(c); !s) return s;
    return IntField(at, "out-of-supply-attack-divisor", 1, 10, c.out_of_supply_attack_divisor);
  }

  // The terrain effects chart's combat part beyond the terrain and city shifts: optional objects
  // naming some terrains or hexsides; each one unnamed shifts by 0 and multiplies by 1.
  Status ReadCombatEffects(CombatTables& c) const {
    const P at("/combat");
    std::vector<std::string_view> terrains, hexsides;
    for (int tr = 0; tr < map::kTerrainCount; ++tr) {
      terrains.push_back(map::TerrainName(static_cast<map::Terrain>(tr)));
    }
    for (const char* h : kCombatHexsideNames) hexsides.push_back(h);
    c.defense_multiplier.fill(4);
    c.attack_multiplier.fill(4);
    c.hexside_shift.fill(0);
    struct Table {
      const char* key;
      const std::vector<std::string_view>* names;
      int* out;
      bool multiplier;
    };
    for (Table tb : {Table{"hexside-shift", &hexsides, c.hexside_shift.data(), false},
                     Table{"defense-multiplier", &terrains, c.defense_multiplier.data(), true},
                     Table{"attack-multiplier", &hexsides, c.attack_multiplier.data(), true}}) {
      if (!r_.Has(at, tb.key)) continue;
      if (auto s = OnlyKeysOf(at / tb.key, *tb.names); !s) return s;
      for (std::size_t i = 0; i < tb.names->size(); ++i) {
        const std::string key((*tb.names)[i]);
        if (!r_.Has(at / tb.key, key.c_str())) continue;
        if (!tb.multiplier) {
          if (auto s = IntField(at / tb.key, key.c_str(), -10, 10, tb.out[i]); !s) return s;
          continue;
        }
        auto quarters =
            Steps(at / tb.key / key, 4, 32, "a multiplier runs from 0 to 8 in steps of 1/4");
        if (!quarters) return std::unexpected(quarters.error());
        tb.out[i] = *quarters;
      }
    }
    return {};
  }

  Status ReadFlooding(RuleTables& t) {
    FloodTables& f = t.flooding;
    const P at("/flooding");
    if (auto s = OnlyKeysOf(at, {"die", "results", "netherlands-modifier",
                                 "failure-attack-modifier", "great-success-player-turns",
                                 "relief-srp", "massive-relief-srp", "monthly-relief-srp"});
        !s) {
      return s;
    }
    if (auto s = IntField(at, "die", 2, 100, f.die); !s) return s;
    if (auto s = r_.Require(at, "results"); !s) return s;
    auto res = r_.Array(at / "results");
    if (!res) return std::unexpected(res.error());
    if ((*res)->empty()) return src_.Bad(at / "results", "the flooding table needs results");
    for (std::size_t i = 0; i < (*res)->size(); ++i) {
      auto r = r_.String(at / "results" / i);
      if (!r) return std::unexpected(r.error());
      bool found = false;
      for (int v = 0; v < 4; ++v) {
        if (*r == FloodResultName(static_cast<FloodResult>(v))) {
          f.results.push_back(static_cast<FloodResult>(v));
          found = true;
        }
      }
      if (!found)
        return src_.Bad(at / "results" / i, "a flooding result is F*, F, S or S* (41.A.4.a)");
    }
    struct Field {
      const char* key;
      int lo, hi;
      int* out;
    };
    for (Field fl : {Field{"netherlands-modifier", -10, 10, &f.netherlands_modifier},
                     Field{"failure-attack-modifier", -10, 10, &f.failure_attack_modifier},
                     Field{"great-success-player-turns", 0, 100, &f.great_success_player_turns},
                     Field{"relief-srp", 0, 100, &f.relief_srp},
                     Field{"massive-relief-srp", 0, 100, &f.massive_relief_srp},
                     Field{"monthly-relief-srp", 0, 100, &f.monthly_relief_srp}}) {
      if (auto s = IntField(at, fl.key, fl.lo, fl.hi, *fl.out); !s) return s;
    }
    return {};
  }

  Status ReadWeather(RuleTables& t) {
    const P at("/weather");
    if (auto s = OnlyKeysOf(at, {"freezes", "codes", "zones"}); !s) return s;
    if (auto s = r_.Require(at, "freezes"); !s) return s;
    auto freezes = r_.Array(at / "freezes");
    if (!freezes) return std::unexpected(freezes.error());
    t.weather.frost_freezes = t.weather.snow_freezes = false;
    for (std::size_t i = 0; i < (*freezes)->size(); ++i) {
      auto w = r_.String(at / "freezes" / i);
      if (!w) return std::unexpected(w.error());
      if (*w == "frost") {
        t.weather.frost_freezes = true;
      } else if (*w == "snow") {
        t.weather.snow_freezes = true;
      } else {
        return src_.Bad(at / "freezes" / i, "only frost and snow can freeze water");
      }
    }
    if (auto s = r_.Require(at, "zones"); !s) return s;
    if (auto o = r_.Object(at / "zones"); !o) return std::unexpected(o.error());
    for (const auto& [zone, months] : r_.At(at / "zones").items()) {
      const P z = at / "zones" / zone;
      if (zone.size() != 1 || zone[0] < 'A' || zone[0] > 'Z') {
        return src_.Bad(z, "a weather zone is one capital letter");
      }
      auto arr = r_.Array(z);
      if (!arr) return std::unexpected(arr.error());
      if ((*arr)->size() != 12) return src_.Bad(z, "one entry per month, January first");
      std::array<std::string, 12> table;
      for (std::size_t m = 0; m < 12; ++m) {
        auto faces = r_.String(z / m);
        if (!faces) return std::unexpected(faces.error());
        if (faces->size() != 6 || faces->find_first_not_of("CMFS") != std::string::npos) {
          return src_.Bad(z / m,
                          "six letters, one per face of a d6: C clear, M mud, F frost, "
                          "S snow");
        }
        table[m] = *faces;
      }
      t.weather.zones[zone[0]] = table;
    }
    return {};
  }

  const JsonSource& src_;
  JsonReader r_;
  std::vector<std::string> classes_;  // movement.classes, once read
};

}  // namespace

const char* CombatHexsideName(CombatHexside h) {
  return kCombatHexsideNames[static_cast<int>(h)];
}

std::optional<UnitType> RuleTables::FindType(std::string_view name) const {
  for (std::size_t i = 0; i < unit_types.size(); ++i) {
    if (unit_types[i].name == name) return static_cast<UnitType>(i);
  }
  return std::nullopt;
}

std::string RuleTables::TypeNames() const {
  std::string out;
  for (const UnitTypeRules& u : unit_types) out += (out.empty() ? "" : ", ") + u.name;
  return out;
}

int CombatTables::Column(int attack, int defense) const {
  int column = -1;
  for (std::size_t k = 0; k < columns.size(); ++k) {
    const bool reached = kind == CrtKind::kOdds
                             ? attack * column_defense[k] >= defense * column_attack[k]
                             : attack - defense >= column_attack[k];
    if (reached) column = static_cast<int>(k);
  }
  return column;
}

const char* FloodResultName(FloodResult r) {
  static constexpr std::array<const char*, 4> kNames = {"F*", "F", "S", "S*"};
  return kNames[static_cast<int>(r)];
}

Result<RuleTables> LoadRuleTables(const JsonSource& src) {
  return TablesReader(src).Read();
}

const RuleTables& DefaultRuleTables() {
  static const RuleTables tables = [] {
    auto src = JsonSource::FromText(kBaseRulesJson, "libops/data/base-rules.json");
    auto t = src ? LoadRuleTables(*src) : Result<RuleTables>(std::unexpected(src.error()));
    // The compiled-in file is checked by the tests; a broken one is a build defect.
    if (!t) throw std::logic_error("built-in rules: " + t.error().to_string());
    return *t;
  }();
  return tables;
}

}  // namespace opsim::ops
