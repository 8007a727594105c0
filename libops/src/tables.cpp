#include "opsim/ops/tables.h"

#include <cmath>

namespace opsim::ops {

extern const char* const kBaseRulesJson;

namespace {

using P = JsonSource::Pointer;

constexpr std::array<const char*, kMoveClassCount> kClassNames = {"foot", "cavalry", "motorized"};

class Reader {
 public:
  explicit Reader(const JsonSource& src) : src_(src), r_(src) {}

  Result<RuleTables> Read() {
    RuleTables t;
    const P root;
    if (!src_.doc().is_object()) return src_.Bad(root, "a rules file holds one JSON object");
    if (auto s = r_.OnlyKeys(root, {"opsim", "version", "name", "notes", "movement", "naval"});
        !s) {
      return std::unexpected(s.error());
    }
    auto kind = r_.String(P("/opsim"));
    if (!kind || *kind != "rules") return src_.Bad(P("/opsim"), "this is not an opsim rules file");
    auto version = r_.Int(P("/version"), 1, 1000000);
    if (!version) return std::unexpected(version.error());
    if (*version > 1) {
      return Fail(ErrorCode::kUnsupported,
                  "rules format version " + std::to_string(*version) + " is newer than this opsim",
                  src_.Where(P("/version")));
    }
    auto name = r_.OptString(root, "name", "rules");
    if (!name) return std::unexpected(name.error());
    t.name = *name;
    for (const char* key : {"movement", "naval"}) {
      if (auto s = r_.Require(root, key); !s) return std::unexpected(s.error());
    }
    if (auto s = ReadMovement(t.movement); !s) return std::unexpected(s.error());
    if (auto s = ReadNaval(t.naval); !s) return std::unexpected(s.error());
    return t;
  }

 private:
  // A cost in MP, in steps of 1/2, or null for prohibited when `allow_null`.
  Result<Half> Mp(const P& at, bool allow_null) const {
    const auto& j = r_.At(at);
    if (j.is_null() && allow_null) return kProhibited;
    if (!j.is_number()) return src_.Bad(at, "expected a number of MP");
    const double halves = j.get<double>() * 2;
    if (halves < 0 || halves > 120 || std::floor(halves) != halves) {
      return src_.Bad(at, "an MP cost runs from 0 to 60 in steps of 1/2");
    }
    return static_cast<Half>(halves);
  }

  Status PerClass(const P& at, std::array<Half, kMoveClassCount>& out, bool allow_null) const {
    const auto& j = r_.At(at);
    if (j.is_null() && allow_null) {
      out.fill(kProhibited);
      return {};
    }
    if (!j.is_array() || j.size() != kMoveClassCount) {
      return src_.Bad(at, "expected one cost per class: [foot, cavalry, motorized]");
    }
    for (std::size_t i = 0; i < kMoveClassCount; ++i) {
      auto v = Mp(at / i, false);
      if (!v) return std::unexpected(v.error());
      out[i] = *v;
    }
    return {};
  }

  Status ReadMovement(MovementTables& m) const {
    const P at("/movement");
    if (auto s =
            r_.OnlyKeys(at, {"classes", "terrain", "hexside", "road", "engineer-river-reduction"});
        !s) {
      return s;
    }
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
      std::array<Half, kMoveClassCount>* out;
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

  Status ReadNaval(NavalTables& n) const {
    const P at("/naval");
    if (auto s = r_.OnlyKeys(at, {"sea-hex", "riverine-hexside", "leave-waterway"}); !s) return s;
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
    return {};
  }

  const JsonSource& src_;
  JsonReader r_;
};

}  // namespace

const char* MoveClassName(MoveClass c) {
  return kClassNames[static_cast<int>(c)];
}

Result<RuleTables> LoadRuleTables(const JsonSource& src) {
  return Reader(src).Read();
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
