#include "opsim/tactical/board_file.h"

#include <algorithm>
#include <filesystem>

#include "opsim/core/echo.h"
#include "opsim/core/json_source.h"
#include "opsim/core/rule_ids.h"

namespace opsim::tactical {

namespace {

using Pointer = JsonSource::Pointer;

// "J-M" / "CC-FF" / "J" for letters; "1-5" / "7" for rows.
struct Range {
  int lo = 0;
  int hi = 0;
};

class BoardReader {
 public:
  explicit BoardReader(const JsonSource& src) : src_(src), r_(src) {}

  Result<Board> Read() {
    const Pointer root;
    if (auto s = r_.Object(root); !s) return std::unexpected(s.error());
    if (auto s = r_.OnlyKeys(root, {"format", "version", "name", "ruleset", "settings", "grids",
                                    "hexes", "hexsides", "counters", "units", "entry_area"});
        !s) {
      return std::unexpected(s.error());
    }
    if (auto s = ReadHeader(); !s) return std::unexpected(s.error());
    if (auto s = ReadSettings(); !s) return std::unexpected(s.error());
    if (auto s = ReadGrids(); !s) return std::unexpected(s.error());
    if (auto s = ReadHexes(); !s) return std::unexpected(s.error());
    if (auto s = ReadHexsides(); !s) return std::unexpected(s.error());
    if (auto s = ReadCounters(); !s) return std::unexpected(s.error());
    if (auto s = ReadUnits(); !s) return std::unexpected(s.error());
    if (auto s = ReadEntryArea(); !s) return std::unexpected(s.error());
    return std::move(board_);
  }

 private:
  std::unexpected<Error> Bad(const Pointer& at, std::string message, std::string rule = {}) const {
    Error e = src_.Bad(at, std::move(message)).error();
    e.rule = std::move(rule);
    return std::unexpected(std::move(e));
  }

  template <class E, class Parse>
  Result<E> Enum(const Pointer& at, Parse parse, const std::string& names) const {
    auto s = r_.String(at);
    if (!s) return std::unexpected(s.error());
    const std::optional<E> v = parse(*s);
    if (!v) return Bad(at, "unknown value '" + *s + "' (expected " + names + ")");
    return *v;
  }

  // Reads the optional boolean members `fields` of the object at `at`.
  Status Bools(const Pointer& at,
               std::initializer_list<std::pair<const char*, bool*>> fields) const {
    for (auto [key, field] : fields) {
      auto v = r_.OptBool(at, key, *field);
      if (!v) return std::unexpected(v.error());
      *field = *v;
    }
    return {};
  }

  Result<GridPos> HexAt(const Pointer& at) const {
    auto s = r_.String(at);
    if (!s) return std::unexpected(s.error());
    auto cell = board_.Find(*s);
    if (!cell) return Bad(at, cell.error().message, cell.error().rule);
    return *cell;
  }

  Status ReadHeader() {
    const Pointer root;
    if (auto s = r_.Require(root, "format"); !s) return s;
    auto format = r_.String(Pointer("/format"));
    if (!format) return std::unexpected(format.error());
    if (*format != kBoardFormat) {
      return Bad(Pointer("/format"), "not a tactical board: format is '" + *format +
                                         "', expected '" + kBoardFormat + "'");
    }
    if (r_.Has(root, "version")) {
      auto v = r_.Int(Pointer("/version"), 1, 1000);
      if (!v) return std::unexpected(v.error());
      if (*v > kBoardVersion) {
        return std::unexpected(Error{ErrorCode::kUnsupported,
                                     "board format version " + std::to_string(*v) +
                                         " is newer than this opsim reads (" +
                                         std::to_string(kBoardVersion) + ")",
                                     src_.Where(Pointer("/version")),
                                     {}});
      }
    }
    auto name = r_.OptString(root, "name", src_.name());
    if (!name) return std::unexpected(name.error());
    Ruleset rs = Ruleset::kAsl;
    if (r_.Has(root, "ruleset")) {
      auto v = Enum<Ruleset>(Pointer("/ruleset"), ParseRuleset, "asl|samurai");
      if (!v) return std::unexpected(v.error());
      rs = *v;
    }
    board_.SetIdentity(*name, src_.name(), rs);
    return {};
  }

  Status ReadSettings() {
    const Pointer at("/settings");
    if (!r_.Has(Pointer(), "settings")) return {};
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    if (auto s = r_.OnlyKeys(at, {"paddy", "ec", "slope", "tide", "reef", "heavy_surf", "water",
                                  "seawall", "pto", "coral_soil", "night", "frozen"});
        !s) {
      return s;
    }
    Settings& st = board_.mutable_settings();
    Status ok;
    auto read = [&](const char* key, auto parse, const std::string& names, auto& field) {
      if (!ok || !r_.Has(at, key)) return;
      using E = std::remove_reference_t<decltype(field)>;
      auto v = Enum<E>(at / key, parse, names);
      if (!v) {
        ok = std::unexpected(v.error());
      } else {
        field = *v;
      }
    };
    read("paddy", ParsePaddyState, PaddyStateNames(), st.paddy);
    read("ec", ParseEc, EcNames(), st.ec);
    read("slope", ParseSlope, SlopeNames(), st.slope);
    read("tide", ParseTide, TideNames(), st.tide);
    read("reef", ParseReef, ReefNames(), st.reef);
    read("water", ParseWater, WaterNames(), st.water);
    read("seawall", ParseSeawall, SeawallNames(), st.seawall);
    if (!ok) return ok;
    if (auto s = Bools(at, {{"heavy_surf", &st.heavy_surf},
                            {"pto", &st.pto},
                            {"coral_soil", &st.coral_soil},
                            {"night", &st.night},
                            {"frozen", &st.frozen}});
        !s)
      return s;
    return {};
  }

  Result<Range> ReadRange(const Pointer& at, bool letters) const {
    auto s = r_.String(at);
    if (!s) return std::unexpected(s.error());
    const std::string text = *s;
    const auto dash = text.find('-');
    const std::string a = text.substr(0, dash);
    const std::string b = dash == std::string::npos ? a : text.substr(dash + 1);
    auto one = [&](const std::string& t) -> std::optional<int> {
      if (letters) return ColumnIndex(t);
      if (t.empty() || t.size() > 3 || t.find_first_not_of("0123456789") != std::string::npos) {
        return std::nullopt;
      }
      return std::stoi(t);
    };
    const auto lo = one(a);
    const auto hi = one(b);
    if (!lo || !hi || *lo > *hi) {
      return Bad(at,
                 std::string("bad range '") + text + "' (expected " +
                     (letters ? "column letters like \"J-M\" or \"CC-FF\"" : "rows like \"1-10\"") +
                     ")");
    }
    return Range{*lo, *hi};
  }

  Status ReadGrids() {
    const Pointer at("/grids");
    if (auto s = r_.Require(Pointer(), "grids"); !s) return s;
    auto arr = r_.Array(at);
    if (!arr) return std::unexpected(arr.error());
    if ((*arr)->empty()) return Bad(at, "a board needs at least one grid");
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
      if (auto s = ReadGrid(at / i); !s) return s;
    }
    return {};
  }

  Status ReadGrid(const Pointer& at) {
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    if (auto s = r_.OnlyKeys(
            at, {"name", "role", "letters", "numbers", "terrain", "level", "place", "omit"});
        !s) {
      return s;
    }
    GridRole role = GridRole::kBoard;
    if (r_.Has(at, "role")) {
      auto v =
          Enum<GridRole>(at / "role", ParseGridRole, "board|overlay|beach|ocean|effluent|island");
      if (!v) return std::unexpected(v.error());
      role = *v;
    }
    auto name = r_.OptString(at, "name", GridRoleName(role));
    if (!name) return std::unexpected(name.error());
    const bool letters = r_.Has(at, "letters");
    if (letters == r_.Has(at, "numbers")) {
      return Bad(at,
                 "a grid is written either with \"letters\" (like oL3) or \"numbers\" (like 1001)");
    }
    std::optional<CoordinateGrid> grid;
    if (letters) {
      const Pointer l = at / "letters";
      if (auto s = r_.OnlyKeys(l, {"prefix", "columns", "rows"}); !s) return s;
      auto prefix = r_.OptString(l, "prefix", "");
      if (!prefix) return std::unexpected(prefix.error());
      if (prefix->find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != std::string::npos &&
          prefix->find_first_not_of("0123456789") != std::string::npos) {
        return Bad(l / "prefix",
                   "a prefix is a board number (\"37\") or lower-case letters (\"o\")");
      }
      for (const auto& g : board_.grids()) {
        if (g.lettered() && g.prefix() == *prefix) {
          return Bad(l / "prefix",
                     "two grids both write their hexes with prefix '" + *prefix + "'");
        }
      }
      if (auto s = r_.Require(l, "columns"); !s) return s;
      if (auto s = r_.Require(l, "rows"); !s) return s;
      auto cols = ReadRange(l / "columns", true);
      if (!cols) return std::unexpected(cols.error());
      auto rows = ReadRange(l / "rows", false);
      if (!rows) return std::unexpected(rows.error());
      grid = CoordinateGrid::Lettered(*name, role, *prefix, cols->lo, cols->hi, rows->lo, rows->hi);
    } else {
      const Pointer n = at / "numbers";
      if (auto s = r_.OnlyKeys(n, {"first", "per_row", "rows"}); !s) return s;
      for (const char* key : {"first", "per_row", "rows"}) {
        if (auto s = r_.Require(n, key); !s) return s;
      }
      auto first = r_.Int(n / "first", 1, 9999);
      if (!first) return std::unexpected(first.error());
      auto per_row = r_.Int(n / "per_row", 1, 99);
      if (!per_row) return std::unexpected(per_row.error());
      auto rows = r_.Int(n / "rows", 1, 99);
      if (!rows) return std::unexpected(rows.error());
      const int digits = static_cast<int>(std::to_string(*first).size());
      const std::int64_t last = *first + *per_row * *rows - 1;
      if (std::to_string(last).size() != static_cast<std::size_t>(digits)) {
        return Bad(n, "hexes " + std::to_string(*first) + " to " + std::to_string(last) +
                          " do not all have " + std::to_string(digits) + " digits");
      }
      grid = CoordinateGrid::Numbered(*name, role, static_cast<int>(*first),
                                      static_cast<int>(*per_row), static_cast<int>(*rows), digits);
    }
    if (grid->extent() > kMaxBoardCells) {
      return Bad(at, "the grid spans " + std::to_string(grid->extent()) +
                         " hexes: a board spans at most " + std::to_string(kMaxBoardCells));
    }
    if (r_.Has(at, "place")) {
      if (auto s = PlaceGrid(at / "place", *grid); !s) return s;
    }
    if (r_.Has(at, "omit")) {
      auto omit = r_.Array(at / "omit");
      if (!omit) return std::unexpected(omit.error());
      for (std::size_t i = 0; i < (*omit)->size(); ++i) {
        auto token = r_.String(at / "omit" / i);
        if (!token) return std::unexpected(token.error());
        const auto local = grid->Parse(*token);
        if (!local || !grid->Contains(*local)) {
          return Bad(at / "omit" / i, "'" + EchoToken(*token) + "' is not a hex of this grid");
        }
        grid->Omit(*local);
      }
    }
    const Ruleset rs = board_.ruleset();
    Terrain terrain = rs == Ruleset::kSamurai ? Terrain::kPlains : Terrain::kOpenGround;
    int level = 0;
    if (role == GridRole::kBeach || role == GridRole::kEffluent) terrain = Terrain::kBeach;
    if (role == GridRole::kOcean) terrain = Terrain::kOcean;
    if (role == GridRole::kBeach || role == GridRole::kEffluent || role == GridRole::kOcean)
      level = -1;
    if (r_.Has(at, "terrain")) {
      auto t = ReadTerrain(at / "terrain");
      if (!t) return std::unexpected(t.error());
      terrain = *t;
    }
    if (r_.Has(at, "level")) {
      auto v = r_.Int(at / "level", -9, 9);
      if (!v) return std::unexpected(v.error());
      level = static_cast<int>(*v);
    }
    if (auto s = board_.AddGrid(std::move(*grid), terrain, level); !s)
      return Bad(at, s.error().message);
    return {};
  }

  Status PlaceGrid(const Pointer& at, CoordinateGrid& grid) {
    if (auto s = r_.OnlyKeys(at, {"hex", "on", "turn"}); !s) return s;
    for (const char* key : {"hex", "on"}) {
      if (auto s = r_.Require(at, key); !s) return s;
    }
    auto hex = r_.String(at / "hex");
    if (!hex) return std::unexpected(hex.error());
    const auto local = grid.Parse(*hex);
    if (!local)
      return Bad(at / "hex", "'" + EchoToken(*hex) + "' is not written in this grid's numbering");
    auto on = r_.String(at / "on");
    if (!on) return std::unexpected(on.error());
    std::optional<GridPos> global;
    for (const auto& g : board_.grids()) {
      if (auto l = g.Parse(*on)) {
        global = g.ToGlobal(*l);
        break;
      }
    }
    if (!global)
      return Bad(at / "on",
                 "'" + EchoToken(*on) + "' is not written in the numbering of any grid below");
    int turn = 0;
    if (r_.Has(at, "turn")) {
      auto t = r_.Int(at / "turn", 0, 300);
      if (!t) return std::unexpected(t.error());
      if (*t % 60 != 0) return Bad(at / "turn", "an overlay turns in steps of 60 degrees");
      turn = static_cast<int>(*t / 60);
    }
    grid.Place(*local, *global, turn);
    return {};
  }

  Result<Terrain> ReadTerrain(const Pointer& at) const {
    auto s = r_.String(at);
    if (!s) return std::unexpected(s.error());
    const auto t = ParseTerrain(*s, board_.ruleset());
    if (!t) {
      return Bad(at,
                 "unknown " + std::string(RulesetName(board_.ruleset())) + " terrain '" + *s + "'");
    }
    return *t;
  }

  Status ReadHexes() {
    const Pointer at("/hexes");
    if (!r_.Has(Pointer(), "hexes")) return {};
    auto obj = r_.Object(at);
    if (!obj) return std::unexpected(obj.error());
    for (const auto& [key, value] : (*obj)->items()) {
      const Pointer h = at / key;
      auto cell = board_.Find(key);
      if (!cell) return Bad(h, cell.error().message, cell.error().rule);
      if (auto s = r_.Object(h); !s) return std::unexpected(s.error());
      if (auto s = r_.OnlyKeys(
              h, {"terrain", "level", "field", "road", "reef", "subterranean", "bridge"});
          !s) {
        return s;
      }
      Hex& hex = *board_.MutableAt(*cell);
      if (r_.Has(h, "terrain")) {
        auto t = ReadTerrain(h / "terrain");
        if (!t) return std::unexpected(t.error());
        hex.terrain = *t;
      }
      if (r_.Has(h, "level")) {
        auto v = r_.Int(h / "level", -9, 9);
        if (!v) return std::unexpected(v.error());
        hex.level = static_cast<int>(*v);
      }
      auto field = r_.OptString(h, "field", hex.field);
      if (!field) return std::unexpected(field.error());
      hex.field = *field;
      if (r_.Has(h, "road")) {
        auto road = Enum<Road>(
            h / "road",
            [](std::string_view s) -> std::optional<Road> {
              if (s == "dirt") return Road::kDirt;
              if (s == "paved") return Road::kPaved;
              return std::nullopt;
            },
            "dirt|paved");
        if (!road) return std::unexpected(road.error());
        hex.road = *road;
      }
      if (auto s = Bools(
              h,
              {{"reef", &hex.reef}, {"subterranean", &hex.subterranean}, {"bridge", &hex.bridge}});
          !s)
        return s;
    }
    return {};
  }

  Result<Hexside> ReadHexsideName(const Pointer& at) const {
    auto s = r_.String(at);
    if (!s) return std::unexpected(s.error());
    const auto dash = s->find('-');
    if (dash == std::string::npos) return Bad(at, "a hexside is written HEX-HEX, like oL2-oL3");
    auto a = board_.Find(s->substr(0, dash));
    if (!a) return Bad(at, a.error().message, a.error().rule);
    auto b = board_.Find(s->substr(dash + 1));
    if (!b) return Bad(at, b.error().message, b.error().rule);
    const auto side = Hexside::Between(*a, *b);
    if (!side)
      return Bad(at, "'" + EchoToken(*s) + "' is not a hexside: the two hexes are not adjacent");
    return *side;
  }

  Status ReadHexsides() {
    const Pointer at("/hexsides");
    if (!r_.Has(Pointer(), "hexsides")) return {};
    auto arr = r_.Array(at);
    if (!arr) return std::unexpected(arr.error());
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
      const Pointer e = at / i;
      if (auto s = r_.Object(e); !s) return std::unexpected(s.error());
      if (auto s = r_.OnlyKeys(e, {"hexes", "breached", "wall", "hedge", "cliff", "seawall", "road",
                                   "path", "depression", "trailbreak", "fascine"});
          !s) {
        return s;
      }
      if (auto s = r_.Require(e, "hexes"); !s) return s;
      auto side = ReadHexsideName(e / "hexes");
      if (!side) return std::unexpected(side.error());
      HexsideFeatures& f = board_.MutableFeatures(*side);
      if (auto s = Bools(e, {{"breached", &f.breached},
                             {"wall", &f.wall},
                             {"hedge", &f.hedge},
                             {"cliff", &f.cliff},
                             {"seawall", &f.seawall},
                             {"road", &f.road},
                             {"path", &f.path},
                             {"depression", &f.depression},
                             {"trailbreak", &f.trailbreak},
                             {"fascine", &f.fascine}});
          !s)
        return s;
      if (f.seawall) board_.MarkSeawallsDesignated();
    }
    return {};
  }

  Status ReadCounters() {
    const Pointer at("/counters");
    if (!r_.Has(Pointer(), "counters")) return {};
    auto arr = r_.Array(at);
    if (!arr) return std::unexpected(arr.error());
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
      if (auto s = ReadCounter(at / i); !s) return s;
    }
    return {};
  }

  Status ReadCounter(const Pointer& e) {
    if (auto s = r_.Object(e); !s) return std::unexpected(s.error());
    if (auto s = r_.Require(e, "type"); !s) return s;
    auto type = r_.String(e / "type");
    if (!type) return std::unexpected(type.error());
    if (*type == "panji") {
      if (auto s = r_.OnlyKeys(e, {"type", "hip", "hidden"}); !s) return s;
      if (auto s = r_.Require(e, "hip"); !s) return s;
      auto text = r_.String(e / "hip");
      if (!text) return std::unexpected(text.error());
      auto rec = ParseHipRecord(*text);
      if (!rec) return Bad(e / "hip", rec.error().message, rec.error().rule);
      auto hex = board_.Find(rec->hex);
      if (!hex) return Bad(e / "hip", hex.error().message, hex.error().rule);
      auto facing = board_.Find(rec->facing);
      if (!facing) return Bad(e / "hip", facing.error().message, facing.error().rule);
      const auto dir = map::DirectionTo(*hex, *facing);
      if (!dir)
        return Bad(e / "hip", "the top must face a hexside of the setup hex", rules::kG9_11);
      auto hidden = r_.OptBool(e, "hidden", false);
      if (!hidden) return std::unexpected(hidden.error());
      Hex& h = *board_.MutableAt(*hex);
      if (h.panji)
        return Bad(e, "a second Panji counter in " + rec->hex + ": at most one per hex",
                   rules::kG9_1);
      h.panji = PanjiCounter::Make(rec->id, *dir, *hidden);
      return {};
    }
    if (*type == "pier") {
      if (auto s = r_.OnlyKeys(e, {"type", "hex", "kind"}); !s) return s;
      for (const char* key : {"hex", "kind"}) {
        if (auto s = r_.Require(e, key); !s) return s;
      }
      auto hex = HexAt(e / "hex");
      if (!hex) return std::unexpected(hex.error());
      auto kind = Enum<PierKind>(
          e / "kind",
          [](std::string_view s) -> std::optional<PierKind> {
            if (s == "wooden") return PierKind::kWooden;
            if (s == "stone") return PierKind::kStone;
            return std::nullopt;
          },
          "wooden|stone");
      if (!kind) return std::unexpected(kind.error());
      Hex& h = *board_.MutableAt(*hex);
      if (h.pier) return Bad(e, "a second Pier counter in one hex");
      h.pier = *kind;
      return {};
    }
    if (auto s = r_.OnlyKeys(e, {"type", "hex", "above_panji"}); !s) return s;
    auto t = Enum<CounterType>(e / "type", ParseCounterType, CounterTypeNames());
    if (!t) return std::unexpected(t.error());
    if (auto s = r_.Require(e, "hex"); !s) return s;
    auto hex = HexAt(e / "hex");
    if (!hex) return std::unexpected(hex.error());
    Hex& h = *board_.MutableAt(*hex);
    h.counters.push_back(*t);
    auto above = r_.OptBool(e, "above_panji", false);
    if (!above) return std::unexpected(above.error());
    if (*above) {
      if (*t != CounterType::kWreck && *t != CounterType::kAfv) {
        return Bad(e / "above_panji", "only a wreck or an AFV can stand above a Panji counter",
                   rules::kG9_2);
      }
      if (!h.panji)
        return Bad(e / "above_panji", "no Panji counter in that hex (list it first)", rules::kG9_2);
      h.wreck_above_panji = true;
    }
    return {};
  }

  Status ReadUnits() {
    const Pointer at("/units");
    if (!r_.Has(Pointer(), "units")) return {};
    auto arr = r_.Array(at);
    if (!arr) return std::unexpected(arr.error());
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
      const Pointer e = at / i;
      if (auto s = r_.Object(e); !s) return std::unexpected(s.error());
      if (auto s = r_.OnlyKeys(
              e, {"name", "side", "kind", "flags", "at", "entrenched", "crest", "level"});
          !s) {
        return s;
      }
      for (const char* key : {"name", "kind", "at"}) {
        if (auto s = r_.Require(e, key); !s) return s;
      }
      BoardUnit u;
      auto name = r_.String(e / "name");
      if (!name) return std::unexpected(name.error());
      if (board_.FindUnit(*name)) return Bad(e / "name", "two units are named '" + *name + "'");
      u.name = *name;
      auto side = r_.OptString(e, "side", "");
      if (!side) return std::unexpected(side.error());
      u.side = *side;
      auto kind = Enum<UnitKind>(e / "kind", ParseUnitKind, UnitKindNames());
      if (!kind) return std::unexpected(kind.error());
      u.unit = Unit(*kind);
      if (r_.Has(e, "flags")) {
        auto flags = r_.Array(e / "flags");
        if (!flags) return std::unexpected(flags.error());
        for (std::size_t k = 0; k < (*flags)->size(); ++k) {
          auto f = Enum<UnitFlag>(e / "flags" / k, ParseUnitFlag, UnitFlagNames());
          if (!f) return std::unexpected(f.error());
          u.unit.Set(*f);
        }
      }
      auto where = r_.String(e / "at");
      if (!where) return std::unexpected(where.error());
      auto pos = board_.FindPosition(*where);
      if (!pos) return Bad(e / "at", pos.error().message, pos.error().rule);
      u.at = *pos;
      if (auto s = Bools(e, {{"entrenched", &u.entrenched}, {"crest", &u.crest}}); !s) return s;
      if (r_.Has(e, "level")) {
        auto v = r_.Int(e / "level", -9, 9);
        if (!v) return std::unexpected(v.error());
        u.level_offset = static_cast<int>(*v);
      }
      board_.AddUnit(std::move(u));
    }
    return {};
  }

  Status ReadEntryArea() {
    const Pointer at("/entry_area");
    if (!r_.Has(Pointer(), "entry_area")) return {};
    auto arr = r_.Array(at);
    if (!arr) return std::unexpected(arr.error());
    std::vector<GridPos> area;
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
      auto s = r_.String(at / i);
      if (!s) return std::unexpected(s.error());
      const auto dash = s->find('-');
      if (dash == std::string::npos) {
        auto cell = HexAt(at / i);
        if (!cell) return std::unexpected(cell.error());
        area.push_back(*cell);
        continue;
      }
      // A run of numbered hexes, "1001-1013".
      const std::string a = s->substr(0, dash);
      const std::string b = s->substr(dash + 1);
      // Numbered hexes have at most 4 digits (a grid's "first" is below 10000).
      if (a.empty() || a.size() > 4 || a.size() != b.size() ||
          a.find_first_not_of("0123456789") != std::string::npos ||
          b.find_first_not_of("0123456789") != std::string::npos || std::stoi(a) > std::stoi(b)) {
        return Bad(at / i,
                   "a run of hexes is written FIRST-LAST with numbered hexes, like 1001-1013");
      }
      for (int n = std::stoi(a); n <= std::stoi(b); ++n) {
        std::string token = std::to_string(n);
        token.insert(0, a.size() - token.size(), '0');
        auto cell = board_.Find(token);
        if (!cell) return Bad(at / i, cell.error().message, cell.error().rule);
        area.push_back(*cell);
      }
    }
    board_.SetEntryArea(std::move(area));
    return {};
  }

  const JsonSource& src_;
  JsonReader r_;
  Board board_;
};

}  // namespace

Result<Board> ParseBoard(std::string text, std::string name) {
  auto src = JsonSource::FromText(std::move(text), std::move(name));
  if (!src) return std::unexpected(src.error());
  return BoardReader(*src).Read();
}

Result<Board> LoadBoard(const std::string& path) {
  auto src = JsonSource::FromFile(path, kMaxBoardBytes);
  if (!src) return std::unexpected(src.error());
  return BoardReader(*src).Read();
}

std::vector<BundledFile> ListBoards(const std::string& dir) {
  std::vector<BundledFile> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    auto src = JsonSource::FromFile(entry.path().string(), kMaxBoardBytes);
    if (!src || !src->doc().is_object() || src->doc().value("format", "") != kBoardFormat) continue;
    const std::string name = entry.path().stem().string();
    out.push_back({name, src->doc().value("name", name), entry.path().string()});
  }
  std::sort(out.begin(), out.end(),
            [](const BundledFile& a, const BundledFile& b) { return a.name < b.name; });
  return out;
}

Result<std::string> ResolveBoard(std::string_view name_or_path, const std::string& dir) {
  return ResolveBundled(name_or_path, ListBoards(dir), "board");
}

}  // namespace opsim::tactical
