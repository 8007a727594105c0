#include "opsim/query/tactical.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <sstream>
#include <type_traits>

#include "opsim/core/dice.h"
#include "opsim/core/echo.h"
#include "opsim/core/rule_ids.h"
#include "opsim/query/source.h"
#include "opsim/tactical/attack.h"
#include "opsim/tactical/beach.h"
#include "opsim/tactical/beach_dyo.h"
#include "opsim/tactical/board_file.h"
#include "opsim/tactical/los.h"
#include "opsim/tactical/movement.h"
#include "opsim/tactical/panji.h"
#include "opsim/tactical/samurai.h"

namespace opsim::query {

namespace {

using nlohmann::json;
using P = JsonSource::Pointer;
namespace t = opsim::tactical;

std::unexpected<Error> Bad(std::string message, std::string where = {}, std::string rule = {}) {
  return Fail(ErrorCode::kInvalidInput, std::move(message), std::move(where), std::move(rule));
}

template <class E, class Parse>
Result<E> ParseOpt(const std::string& value, const char* option, Parse parse,
                   const std::string& names) {
  const std::optional<E> v = parse(value);
  if (!v)
    return Bad("--" + std::string(option) + " '" + EchoToken(value) + "': expected " + names,
               EchoToken(value));
  return *v;
}

// Sets `field` from an option's text, if the option was given.
template <class E, class Parse>
Status SetEnum(const std::string& value, const char* option, Parse parse, const std::string& names,
               E& field) {
  if (value.empty()) return {};
  auto v = ParseOpt<E>(value, option, parse, names);
  if (!v) return std::unexpected(v.error());
  field = *v;
  return {};
}

// Applies the overrides; a DYO paddy dr is returned for the report.
Result<std::optional<t::PaddyStateRoll>> Apply(const BoardSettings& a, t::Board& b) {
  t::Settings& s = b.mutable_settings();
  std::optional<t::PaddyStateRoll> roll;
  if (!a.ec.empty()) {
    auto v = ParseOpt<t::Ec>(a.ec, "ec", t::ParseEc, t::EcNames());
    if (!v) return std::unexpected(v.error());
    s.ec = *v;
  }
  if (a.paddy == "dyo") {
    if (!a.seed)
      return Bad("--paddy dyo rolls the paddy state: give --seed", "--paddy", rules::kG8_1);
    Dice dice(*a.seed);
    roll = t::RollPaddyState(dice, s.ec);
    s.paddy = roll->state;
  } else if (!a.paddy.empty()) {
    auto v = ParseOpt<t::PaddyState>(a.paddy, "paddy", t::ParsePaddyState,
                                     t::PaddyStateNames() + "|dyo");
    if (!v) return std::unexpected(v.error());
    s.paddy = *v;
  }
  for (Status st : {SetEnum(a.slope, "slope", t::ParseSlope, t::SlopeNames(), s.slope),
                    SetEnum(a.tide, "tide", t::ParseTide, t::TideNames(), s.tide),
                    SetEnum(a.reef, "reef", t::ParseReef, t::ReefNames(), s.reef),
                    SetEnum(a.water, "water", t::ParseWater, t::WaterNames(), s.water),
                    SetEnum(a.seawall, "seawall", t::ParseSeawall, t::SeawallNames(), s.seawall)}) {
    if (!st) return std::unexpected(st.error());
  }
  s.heavy_surf = s.heavy_surf || a.surf;
  s.pto = s.pto || a.pto;
  s.coral_soil = s.coral_soil || a.coral_soil;
  s.night = s.night || a.night;
  s.frozen = s.frozen || a.frozen;
  return roll;
}

json SettingsJson(const t::Settings& s) {
  return {
      {"paddy", t::Name(s.paddy)}, {"ec", t::Name(s.ec)},           {"slope", t::Name(s.slope)},
      {"tide", t::Name(s.tide)},   {"reef", t::Name(s.reef)},       {"heavy_surf", s.heavy_surf},
      {"water", t::Name(s.water)}, {"seawall", t::Name(s.seawall)}, {"pto", s.pto},
      {"frozen", s.frozen}};
}

std::string SettingsText(const t::Settings& s) {
  std::string out = std::string("paddy ") + t::Name(s.paddy) + ", EC " + t::Name(s.ec);
  if (s.slope != t::Slope::kUnset) out += std::string(", slope ") + t::Name(s.slope);
  if (s.seawall != t::Seawall::kNone) out += std::string(", ") + t::Name(s.seawall) + " seawall";
  if (s.heavy_surf) out += ", Heavy Surf";
  if (s.pto) out += ", PTO Terrain";
  return out;
}

json PaddyRollJson(const t::PaddyStateRoll& r) {
  return {{"rule", rules::kG8_1.id},
          {"dr", r.dr},
          {"drm", r.drm},
          {"final", r.final_dr},
          {"state", t::Name(r.state)}};
}

std::string PaddyRollText(const t::PaddyStateRoll& r) {
  return "paddy state dr " + std::to_string(r.dr) + (r.drm >= 0 ? " +" : " ") +
         std::to_string(r.drm) + " = " + std::to_string(r.final_dr) + ": " + t::Name(r.state) +
         " [G8.1]\n";
}

// The board a source names, loaded: by name among the bundled boards only (names_only), else a
// bundled board's name or a file (ResolveBoard), or parsed from its text.
Result<t::Board> LoadSource(const BoardSource& source) {
  if (source.text) return t::ParseBoard(*source.text, source.file_name);
  if (source.name.empty()) return Bad("--board is required");
  const std::string dir = TacticalBoardDir();
  auto path = source.names_only ? FindBundled(source.name, t::ListBoards(dir), "board")
                                : t::ResolveBoard(source.name, dir);
  if (!path) return std::unexpected(path.error());
  return t::LoadBoard(*path);
}

std::string Mf(const t::Cost& c, const t::Unit& u) {
  return c.ToString() + (u.infantry() || u.kind() == t::UnitKind::kCavalry ? " MF" : " MP");
}

// The lines of an answer's text, for the drawing's panel.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// A path's positions, at most kMaxPathSteps (`option` names it in the error).
Result<std::vector<std::string>> PathSteps(const std::string& path, const char* option) {
  std::vector<std::string> steps = t::SplitPath(path);
  if (steps.size() > kMaxPathSteps) {
    return Bad(std::string("--") + option + " has " + std::to_string(steps.size()) +
                   " positions: at most " + std::to_string(kMaxPathSteps),
               std::string("--") + option);
  }
  return steps;
}

// ---- los -------------------------------------------------------------------------------------

// A LOS end: a board unit by name, or a position.
Result<t::LosEnd> ResolveEnd(const t::Board& b, const LosEndRequest& a, const char* which) {
  if (a.at.empty())
    return Bad(std::string("--") + which +
               " is required (a position such as oL3:bank, or a unit's name)");
  t::LosEnd e;
  if (const t::BoardUnit* u = b.FindUnit(a.at)) {
    e = t::EndOf(*u);
  } else {
    auto pos = b.FindPosition(a.at);
    if (!pos) return std::unexpected(pos.error());
    e.at = *pos;
    e.unit = t::Unit(t::UnitKind::kInfantry);
  }
  if (!a.unit.empty()) {
    auto k = ParseOpt<t::UnitKind>(a.unit, "unit", t::ParseUnitKind, t::UnitKindNames());
    if (!k) return std::unexpected(k.error());
    e.unit = t::Unit(*k);
  }
  e.entrenched = e.entrenched || a.entrenched;
  e.crest = e.crest || a.crest;
  e.occupied = !a.empty;
  e.level_offset += a.level;
  if (e.crest) {
    if (auto s = t::MayGainCrestStatus(b, e.at, e.unit); !s) return std::unexpected(s.error());
  }
  return e;
}

json FactorsJson(const std::vector<t::LosFactor>& v) {
  json out = json::array();
  for (const auto& f : v) out.push_back({{"rule", f.rule}, {"what", f.what}, {"amount", f.amount}});
  return out;
}

void FactorsText(std::ostringstream& text, const char* title, const std::vector<t::LosFactor>& v) {
  for (const auto& f : v) {
    text << "  " << title << " [" << f.rule << "] " << f.what;
    if (f.amount != 0) text << ": " << (f.amount > 0 ? "+" : "") << f.amount;
    text << "\n";
  }
}

Result<TacticalAnswer> AnswerSamuraiLos(const t::Board& b, const LosRequest& a) {
  auto from = b.Find(a.from.at);
  if (!from) return std::unexpected(from.error());
  auto to = b.Find(a.to.at);
  if (!to) return std::unexpected(to.error());
  const t::SamuraiLos los = t::CheckSamuraiLos(b, *from, *to);
  json hexes = json::array();
  std::ostringstream text;
  text << "LOS " << b.Name(*from) << " -> " << b.Name(*to) << " on " << b.name() << ": "
       << (los.clear ? "clear" : "blocked") << "\n";
  for (const std::string& h : los.hexes) {
    const auto ruling = t::LosRuling(b.At(*b.Find(h))->terrain);
    hexes.push_back({{"hex", h}, {"rule", ruling.rule}, {"ruling", ruling.text}});
    text << "  " << h << " [" << ruling.rule << "] " << ruling.text << "\n";
  }
  json doc = {{"command", "los"},      {"board", b.name()}, {"ruleset", "samurai"},
              {"from", b.Name(*from)}, {"to", b.Name(*to)}, {"los", los.clear},
              {"hexes", hexes}};
  TacticalAnswer answer;
  BoardOverlay& drawn = answer.overlay;
  drawn.kind = "los";
  drawn.points = {t::Position{*from}, t::Position{*to}};
  drawn.hexes = t::TraceLos(*from, *to).hexes;
  drawn.verdict = "LOS " + b.Name(*from) + " -> " + b.Name(*to) + ": clear";
  if (!los.clear) {
    doc["blocked"] = {{"rule", los.rule}, {"what", los.reason}};
    text << "  blocked [" << los.rule << "] " << los.reason << "\n";
    drawn.alert = true;
    drawn.verdict = "LOS " + b.Name(*from) + " -> " + b.Name(*to) + ": blocked [" + los.rule +
                    "] " + los.reason;
  }
  for (const std::string& h : los.hexes) {
    const t::GridPos hex = *b.Find(h);
    if (t::Info(b.At(hex)->terrain).obstacle) drawn.marks.push_back({{hex}, "blocks", true});
  }
  answer.doc = std::move(doc);
  answer.text = text.str();
  drawn.lines = Lines(answer.text);
  return answer;
}

// ---- samurai ---------------------------------------------------------------------------------

Status CheckModels(int models) {
  if (models < 1 || models > kMaxModels) {
    return Bad("--models must be from 1 to " + std::to_string(kMaxModels) + ", not " +
                   std::to_string(models),
               std::to_string(models), rules::kSamLT_1);
  }
  return {};
}

json LossTestJson(const t::LossTest& lt) {
  return {{"rule", rules::kSamLT_1.id},
          {"rolls", lt.rolls},
          {"safe", lt.safe},
          {"casualties", lt.casualties},
          {"fortitude_test", lt.fortitude_test}};
}

std::string LossTestText(const t::LossTest& lt) {
  std::string rolls;
  for (int r : lt.rolls) rolls += (rolls.empty() ? "" : " ") + std::to_string(r);
  std::string out = "Loss Test: d20 per model: " + rolls + " [SAM-LT.1]\n  " +
                    std::to_string(lt.safe) + " safe (1-10), " + std::to_string(lt.casualties) +
                    " casualties (11+); Defense Value has no effect [SAM-LT.2]\n";
  if (lt.fortitude_test)
    out += "  casualties: the unit must make a Fortitude Test (Intermediate Rules) [SAM-LT.3]\n";
  return out;
}

// A samurai path hex: a terrain name (TERRAIN or TERRAIN@LEVEL) or, with a board, a hex.
Result<std::vector<t::SamuraiHex>> SamuraiPath(const SamuraiMoveRequest& a) {
  std::vector<t::SamuraiHex> out;
  std::optional<t::Board> board;
  std::vector<map::GridPos> enemies;
  if (a.board.given()) {
    auto b = LoadSource(a.board);
    if (!b) return std::unexpected(b.error());
    if (b->ruleset() != t::Ruleset::kSamurai)
      return Bad("board '" + b->name() + "' is not a samurai-era board", a.board.name);
    board = std::move(*b);
    for (const std::string& e : t::SplitPath(a.enemy)) {
      auto c = board->Find(e);
      if (!c) return std::unexpected(c.error());
      enemies.push_back(*c);
    }
  } else if (!a.enemy.empty()) {
    return Bad("--enemy names hexes of a --board");
  }
  auto steps = PathSteps(a.path, "path");
  if (!steps) return std::unexpected(steps.error());
  std::optional<map::GridPos> prev;
  for (const std::string& token : *steps) {
    t::SamuraiHex h;
    h.name = token;
    if (board) {
      auto c = board->Find(token);
      if (!c) return std::unexpected(c.error());
      if (prev && !map::DirectionTo(*prev, *c)) {
        return Bad("path step '" + EchoToken(token) + "' is not adjacent to " + board->Name(*prev),
                   EchoToken(token));
      }
      prev = *c;
      h.terrain = board->At(*c)->terrain;
      h.level = board->At(*c)->level;
      for (map::GridPos e : enemies)
        h.enemy_adjacent = h.enemy_adjacent || map::DirectionTo(*c, e).has_value();
    } else {
      const auto at = token.find('@');
      const std::string name = token.substr(0, at);
      const auto terrain = t::ParseTerrain(name, t::Ruleset::kSamurai);
      if (!terrain) {
        return Bad("path step '" + EchoToken(token) +
                       "': not a samurai-era terrain (plains, light-woods, heavy-woods, "
                       "rice-fields, river, ford, bridge, ravine, rocky-ground, village; add "
                       "@LEVEL for a hill)",
                   EchoToken(token));
      }
      h.terrain = *terrain;
      if (at != std::string::npos) {
        const std::string level = token.substr(at + 1);
        if (level.size() != 1 || level.find_first_not_of("0123456789") != std::string::npos) {
          return Bad("path step '" + EchoToken(token) +
                         "': the level after '@' is a number from 0 to 9, as a board's levels",
                     EchoToken(token));
        }
        h.level = std::stoi(level);
      }
    }
    out.push_back(h);
  }
  if (out.empty()) return Bad("--path is required: the start hex, then each hex entered");
  return out;
}

// ---- the request body ------------------------------------------------------------------------

// The keys every command's body takes, then each command's own (docs/api.md).
const std::vector<std::string>& BoardKeys() {
  static const std::vector<std::string> keys = {
      "board", "board_text", "board_file_name", "paddy",   "ec",   "slope",
      "tide",  "reef",       "water",           "seawall", "surf", "pto",
      "night", "coral_soil", "frozen",          "seed"};
  return keys;
}
const std::vector<std::string>& EndKeys() {
  static const std::vector<std::string> keys = {
      "attack",     "from_unit", "to_unit",    "from_entrenched", "to_entrenched",
      "from_crest", "to_crest",  "from_level", "to_level",        "empty_target"};
  return keys;
}
const std::vector<std::string>& MoveKeys() {
  static const std::vector<std::string> keys = {"path",         "unit",
                                                "flags",        "allowance",
                                                "double_time",  "assault_movement",
                                                "low_crawl",    "armored_assault",
                                                "phase",        "transport",
                                                "transport_at", "printed_mp",
                                                "morale",       "stack"};
  return keys;
}

// Reads a body's members, each typed and located, into the request's fields.
class BodyReader {
 public:
  explicit BodyReader(const JsonSource& body) : body_(body), r_(body) {}

  Status OnlyKeys(const std::vector<std::string>& keys) const {
    for (const auto& [key, value] : body_.doc().items()) {
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
      std::string known;
      for (const std::string& k : keys) known += (known.empty() ? "" : ", ") + k;
      return body_.Bad(P("/" + key),
                       "unknown key '" + EchoToken(key) + "' (expected one of: " + known + ")");
    }
    return {};
  }
  Status Str(const char* key, std::string& out) const {
    if (!r_.Has(P(), key)) return {};
    auto v = r_.String(P(std::string("/") + key));
    if (!v) return std::unexpected(v.error());
    out = std::move(*v);
    return {};
  }
  Status Bool(const char* key, bool& out) const {
    auto v = r_.OptBool(P(), key, out);
    if (!v) return std::unexpected(v.error());
    out = *v;
    return {};
  }
  // `out` is an int or an optional number; lo and hi are within its type.
  template <class T>
  Status Int(const char* key, std::int64_t lo, std::int64_t hi, T& out) const {
    if (!r_.Has(P(), key)) return {};
    auto v = r_.Int(P(std::string("/") + key), lo, hi);
    if (!v) return std::unexpected(v.error());
    if constexpr (std::is_same_v<T, int>) {
      out = static_cast<int>(*v);
    } else {
      out = static_cast<typename T::value_type>(*v);
    }
    return {};
  }
  Status Strings(const char* key, std::vector<std::string>& out) const {
    if (!r_.Has(P(), key)) return {};
    return r_.Each(P(std::string("/") + key), [&](const P& at) -> Status {
      auto v = r_.String(at);
      if (!v) return std::unexpected(v.error());
      out.push_back(std::move(*v));
      return {};
    });
  }
  const JsonSource& body() const { return body_; }

 private:
  const JsonSource& body_;
  JsonReader r_;
};

Status ReadBoard(const BodyReader& in, TacticalRequest& req) {
  const bool named = in.body().doc().contains("board");
  const bool text = in.body().doc().contains("board_text");
  if (named == text) {
    return in.body().Bad(P(),
                         "give \"board\" (a bundled board's name) or \"board_text\" (a "
                         "board file's text), not both");
  }
  if (named) {
    if (auto s = in.Str("board", req.board.name); !s) return s;
    req.board.names_only = true;
    if (req.board.name.empty() || req.board.name.find_first_of("/\\.") != std::string::npos) {
      return in.body().Bad(P("/board"),
                           "a bundled board's name (GET /api/tactical/boards), "
                           "never a path: '" +
                               EchoToken(req.board.name) + "'");
    }
  } else {
    req.board.text.emplace();
    if (auto s = in.Str("board_text", *req.board.text); !s) return s;
  }
  if (in.body().doc().contains("board_file_name")) {
    if (!text) return in.body().Bad(P("/board_file_name"), "names a \"board_text\"");
    if (auto s = in.Str("board_file_name", req.board.file_name); !s) return s;
    const std::string& n = req.board.file_name;
    if (n.empty() || n.size() > 255 || n.find('/') != std::string::npos ||
        std::any_of(n.begin(), n.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; })) {
      return in.body().Bad(P("/board_file_name"),
                           "a file's name: 1 to 255 characters, no '/' or control characters");
    }
  }
  BoardSettings& s = req.settings;
  for (const auto& [key, out] :
       {std::pair{"paddy", &s.paddy}, std::pair{"ec", &s.ec}, std::pair{"slope", &s.slope},
        std::pair{"tide", &s.tide}, std::pair{"reef", &s.reef}, std::pair{"water", &s.water},
        std::pair{"seawall", &s.seawall}}) {
    if (auto st = in.Str(key, *out); !st) return st;
  }
  for (const auto& [key, out] : {std::pair{"surf", &s.surf}, std::pair{"pto", &s.pto},
                                 std::pair{"coral_soil", &s.coral_soil},
                                 std::pair{"night", &s.night}, std::pair{"frozen", &s.frozen}}) {
    if (auto st = in.Bool(key, *out); !st) return st;
  }
  return in.Int("seed", 0, std::numeric_limits<std::int64_t>::max(), s.seed);
}

Status ReadEnds(const BodyReader& in, LosRequest& los) {
  if (auto s = in.Str("attack", los.attack); !s) return s;
  for (const auto& [which, end] : {std::pair{"from", &los.from}, std::pair{"to", &los.to}}) {
    const std::string w = which;
    if (auto s = in.Str((w + "_unit").c_str(), end->unit); !s) return s;
    if (auto s = in.Bool((w + "_entrenched").c_str(), end->entrenched); !s) return s;
    if (auto s = in.Bool((w + "_crest").c_str(), end->crest); !s) return s;
    if (auto s = in.Int((w + "_level").c_str(), -9, 9, end->level); !s) return s;
  }
  return in.Bool("empty_target", los.to.empty);
}

Status ReadMove(const BodyReader& in, MoveRequest& m) {
  for (const auto& [key, out] :
       {std::pair{"path", &m.path}, std::pair{"unit", &m.unit}, std::pair{"phase", &m.phase},
        std::pair{"transport", &m.transport}, std::pair{"transport_at", &m.transport_at}}) {
    if (auto s = in.Str(key, *out); !s) return s;
  }
  if (auto s = in.Strings("flags", m.flags); !s) return s;
  for (const auto& [key, out] :
       {std::pair{"double_time", &m.double_time},
        std::pair{"assault_movement", &m.assault_movement}, std::pair{"low_crawl", &m.low_crawl},
        std::pair{"armored_assault", &m.armored_assault}}) {
    if (auto s = in.Bool(key, *out); !s) return s;
  }
  if (auto s = in.Int("allowance", 0, 100, m.allowance); !s) return s;
  if (auto s = in.Int("printed_mp", 0, 100, m.printed_mp); !s) return s;
  if (auto s = in.Int("morale", 0, 20, m.morale); !s) return s;
  return in.Int("stack", 1, kMaxStack, m.stack);
}

}  // namespace

std::string TacticalBoardDir() {
  return (std::filesystem::path(ScenarioDir()) / "tactical").string();
}

Result<TacticalRequest> ParseTacticalRequest(const JsonSource& body, TacticalCommand command) {
  const BodyReader in(body);
  std::vector<std::string> keys = BoardKeys();
  const bool los = command != TacticalCommand::kMove;
  const bool move = command != TacticalCommand::kLos;
  if (command == TacticalCommand::kLos) keys.insert(keys.end(), {"from", "to"});
  if (command == TacticalCommand::kRender) keys.push_back("los");
  if (los) keys.insert(keys.end(), EndKeys().begin(), EndKeys().end());
  if (move) keys.insert(keys.end(), MoveKeys().begin(), MoveKeys().end());
  if (auto s = in.OnlyKeys(keys); !s) return std::unexpected(s.error());
  TacticalRequest req;
  if (auto s = ReadBoard(in, req); !s) return std::unexpected(s.error());
  if (los) {
    if (auto s = ReadEnds(in, req.los); !s) return std::unexpected(s.error());
  }
  if (command == TacticalCommand::kLos) {
    if (auto s = in.Str("from", req.los.from.at); !s) return std::unexpected(s.error());
    if (auto s = in.Str("to", req.los.to.at); !s) return std::unexpected(s.error());
  }
  if (command == TacticalCommand::kRender) {
    if (auto s = in.Str("los", req.los_ends); !s) return std::unexpected(s.error());
  }
  if (move) {
    if (auto s = ReadMove(in, req.move); !s) return std::unexpected(s.error());
  }
  return req;
}

Result<OpenedBoard> OpenTacticalBoard(const BoardSource& source, const BoardSettings& settings,
                                      bool check_panjis) {
  auto b = LoadSource(source);
  if (!b) return std::unexpected(b.error());
  auto roll = Apply(settings, *b);
  if (!roll) return std::unexpected(roll.error());
  if (b->ruleset() == t::Ruleset::kAsl) {
    if (auto s = t::CheckBeachSetup(*b); !s) return std::unexpected(s.error());
    if (auto s = t::CheckPaddySetup(*b); !s) return std::unexpected(s.error());
    if (check_panjis) {
      if (auto s = t::CheckPanjiBoardSetup(*b); !s) return std::unexpected(s.error());
    }
  }
  return OpenedBoard{std::move(*b), *roll, settings.seed};
}

Result<TacticalAnswer> AnswerTacticalMove(const OpenedBoard& opened, const MoveRequest& a) {
  const t::Board& b = opened.board;
  const std::optional<t::PaddyStateRoll>& roll = opened.roll;
  t::MoveOptions o;
  auto kind = ParseOpt<t::UnitKind>(a.unit, "unit", t::ParseUnitKind, t::UnitKindNames());
  if (!kind) return std::unexpected(kind.error());
  o.unit = t::Unit(*kind);
  for (const std::string& f : a.flags) {
    auto flag = ParseOpt<t::UnitFlag>(f, "flag", t::ParseUnitFlag, t::UnitFlagNames());
    if (!flag) return std::unexpected(flag.error());
    o.unit.Set(*flag);
  }
  auto phase = ParseOpt<t::Phase>(a.phase, "phase", t::ParsePhase, "movement|advance|rout");
  if (!phase) return std::unexpected(phase.error());
  o.phase = *phase;
  auto transport = ParseOpt<t::Transport>(a.transport, "transport", t::ParseTransport,
                                          "horse|bicycle|motorcycle|vehicle");
  if (!transport) return std::unexpected(transport.error());
  o.transport = *transport;
  if (!a.transport_at.empty()) {
    auto at = ParseOpt<t::Place>(a.transport_at, "transport-at", t::ParsePlace, t::PlaceNames());
    if (!at) return std::unexpected(at.error());
    o.transport_at = *at;
  }
  if (a.allowance) o.allowance = t::Cost::Points(*a.allowance);
  o.printed_mp = a.printed_mp;
  o.double_time = a.double_time;
  o.assault_movement = a.assault_movement;
  o.low_crawl = a.low_crawl;
  o.armored_assault = a.armored_assault;
  o.seed = opened.seed;
  o.morale = a.morale;
  if (a.stack < 1 || a.stack > kMaxStack) {
    return Bad("--stack must be from 1 to " + std::to_string(kMaxStack) + ", not " +
                   std::to_string(a.stack),
               std::to_string(a.stack), rules::kG9_43);
  }
  o.stack = a.stack;
  if (a.path.empty()) return Bad("--path is required (e.g. --path oM5,oM4,oM3)");
  auto steps = PathSteps(a.path, "path");
  if (!steps) return std::unexpected(steps.error());
  auto report = t::EvaluateMove(b, o, *steps);
  if (!report) return std::unexpected(report.error());

  TacticalAnswer answer;
  BoardOverlay& drawn = answer.overlay;
  drawn.kind = "path";
  json steps_json = json::array();
  std::ostringstream text;
  text << "move on " << b.name() << " (" << SettingsText(b.settings()) << "): " << o.unit.ToString()
       << "\n";
  if (roll) text << "  " << PaddyRollText(*roll);
  for (std::size_t i = 0; i < report->steps.size(); ++i) {
    const t::StepReport& s = report->steps[i];
    json charges = json::array();
    for (const auto& c : s.charges) {
      charges.push_back({{"cost", c.cost.value()},
                         {"cost_text", c.cost.ToString()},
                         {"rule", c.rule},
                         {"what", c.what}});
    }
    json notes = json::array();
    for (const auto& n : s.notes) notes.push_back({{"rule", n.rule}, {"text", n.text}});
    json step = {{"step", s.token},
                 {"from", b.Name(s.from)},
                 {"to", b.Name(s.to)},
                 {"cost", s.total().value()},
                 {"cost_text", s.total().ToString()},
                 {"charges", charges},
                 {"notes", notes}};
    if (s.refusal) step["refusal"] = {{"rule", s.refusal->rule}, {"message", s.refusal->message}};
    steps_json.push_back(step);
    text << "  " << (i == 0 ? "start " : "") << s.token;
    if (i > 0) text << ": " << Mf(s.total(), o.unit);
    text << "\n";
    for (const auto& c : s.charges)
      text << "      " << c.cost.ToString() << "  [" << c.rule << "] " << c.what << "\n";
    for (const auto& n : s.notes) text << "      note [" << n.rule << "] " << n.text << "\n";
    if (s.refusal)
      text << "      REFUSED [" << s.refusal->rule << "] " << s.refusal->message << "\n";
    drawn.points.push_back(s.to);
    std::string label = i == 0 ? "start" : std::to_string(i) + ": " + Mf(s.total(), o.unit);
    if (s.refusal) label = std::to_string(i) + ": refused";
    drawn.marks.push_back({{s.to.hex}, label, s.refusal.has_value()});
  }
  const bool mf = o.unit.infantry() || o.unit.kind() == t::UnitKind::kCavalry;
  json doc = {{"command", "move"},
              {"board", b.name()},
              {"settings", SettingsJson(b.settings())},
              {"unit", o.unit.ToString()},
              {"unit_after", report->unit},
              {"points", mf ? "MF" : "MP"},
              {"legal", report->legal()},
              {"total", report->total().value()},
              {"total_text", report->total().ToString()},
              {"cx", report->cx},
              {"steps", steps_json}};
  if (roll) doc["paddy_dr"] = PaddyRollJson(*roll);
  if (const t::Refusal* r = report->refusal()) {
    doc["refusal"] = {{"rule", r->rule}, {"message", r->message}};
    text << "illegal: [" << r->rule << "] " << r->message << "\n";
    drawn.verdict = "path of " + o.unit.ToString() + ": illegal [" + r->rule + "] " + r->message;
    drawn.alert = true;
  } else {
    text << "legal: " << Mf(report->total(), o.unit) << " in total" << (report->cx ? ", CX" : "")
         << "\n";
    drawn.verdict = "path of " + o.unit.ToString() + ": legal, " + Mf(report->total(), o.unit) +
                    " in total" + (report->cx ? ", CX" : "");
  }
  if (report->unit != o.unit.ToString()) text << "unit after: " << report->unit << "\n";
  answer.doc = std::move(doc);
  answer.text = text.str();
  drawn.lines = Lines(answer.text);
  return answer;
}

Result<TacticalAnswer> AnswerTacticalLos(const OpenedBoard& opened, const LosRequest& a) {
  const t::Board& b = opened.board;
  const std::optional<t::PaddyStateRoll>& roll = opened.roll;
  if (b.ruleset() == t::Ruleset::kSamurai) return AnswerSamuraiLos(b, a);
  auto from = ResolveEnd(b, a.from, "from");
  if (!from) return std::unexpected(from.error());
  auto to = ResolveEnd(b, a.to, "to");
  if (!to) return std::unexpected(to.error());
  auto attack =
      ParseOpt<t::AttackType>(a.attack, "attack", t::ParseAttackType, t::AttackTypeNames());
  if (!attack) return std::unexpected(attack.error());
  const t::LosResult los = t::CheckLos(b, *from, *to);
  const t::AttackEffects fx = t::EvaluateAttack(b, *from, *to, *attack, los);

  json path = json::array();
  for (auto c : los.trace.hexes) path.push_back(b.Name(c));
  json along = json::array();
  for (const auto& h : los.trace.along) along.push_back(b.Name(h));
  json refusals = json::array();
  for (const auto& r : fx.refusals) refusals.push_back(r);
  json doc = {
      {"command", "los"},
      {"board", b.name()},
      {"settings", SettingsJson(b.settings())},
      {"from",
       {{"at", b.Name(from->at)}, {"level", los.from_level}, {"unit", from->unit.ToString()}}},
      {"to", {{"at", b.Name(to->at)}, {"level", los.to_level}, {"unit", to->unit.ToString()}}},
      {"los", los.clear},
      {"path", path},
      {"along", along},
      {"hindrance", los.hindrance},
      {"hindrances", FactorsJson(los.hindrances)},
      {"attack", t::Name(*attack)},
      {"tem", fx.tem},
      {"tem_items", FactorsJson(fx.tem_items)},
      {"open_ground", fx.open_ground},
      {"hd", fx.hd},
      {"wall_advantage", fx.wall_advantage},
      {"height_advantage", fx.height_advantage},
      {"entrenched", fx.entrenched},
      {"fp", FactorsJson(fx.fp)},
      {"drm", FactorsJson(fx.drm)},
      {"notes", FactorsJson(fx.notes)},
      {"refusals", refusals}};
  if (roll) doc["paddy_dr"] = PaddyRollJson(*roll);
  std::ostringstream text;
  text << "LOS " << b.Name(from->at) << " (Level " << los.from_level << ") -> " << b.Name(to->at)
       << " (Level " << los.to_level << ") on " << b.name() << " (" << SettingsText(b.settings())
       << ")\n";
  if (roll) text << "  " << PaddyRollText(*roll);
  TacticalAnswer answer;
  BoardOverlay& drawn = answer.overlay;
  drawn.kind = "los";
  drawn.points = {from->at, to->at};
  drawn.hexes = los.trace.hexes;
  const std::string ends = "LOS " + b.Name(from->at) + " -> " + b.Name(to->at);
  if (los.blocked) {
    doc["blocked"] = {{"rule", los.blocked->rule}, {"what", los.blocked->what}};
    text << "  no LOS: [" << los.blocked->rule << "] " << los.blocked->what << "\n";
    drawn.alert = true;
    drawn.verdict = ends + ": no LOS [" + los.blocked->rule + "] " + los.blocked->what;
    drawn.marks.push_back({los.blocked->where, "blocks", true});
  } else {
    drawn.verdict = ends + ": clear, Hindrance +" + std::to_string(los.hindrance) + "; vs " +
                    t::Name(*attack) + ", TEM " + (fx.tem >= 0 ? "+" : "") + std::to_string(fx.tem);
    for (const t::LosFactor& f : los.hindrances) {
      if (!f.where.empty())
        drawn.marks.push_back({f.where, "Hindrance " + std::string(f.amount >= 0 ? "+" : "") +
                                            std::to_string(f.amount)});
    }
    drawn.marks.push_back(
        {{to->at.hex}, "TEM " + std::string(fx.tem >= 0 ? "+" : "") + std::to_string(fx.tem)});
    text << "  LOS clear; Hindrance +" << los.hindrance << "\n";
    FactorsText(text, "hindrance", los.hindrances);
    text << "  vs " << t::Name(*attack) << ": TEM " << (fx.tem >= 0 ? "+" : "") << fx.tem
         << (fx.open_ground ? " (Open Ground)" : "") << (fx.hd ? ", HD" : "")
         << (fx.wall_advantage ? ", Wall Advantage" : "") << (fx.entrenched ? ", entrenched" : "")
         << "\n";
    FactorsText(text, "tem", fx.tem_items);
    FactorsText(text, "fp", fx.fp);
    FactorsText(text, "drm", fx.drm);
    FactorsText(text, "note", fx.notes);
    for (const auto& r : fx.refusals) text << "  REFUSED " << r << "\n";
  }
  answer.doc = std::move(doc);
  answer.text = text.str();
  drawn.lines = Lines(answer.text);
  return answer;
}

Result<TacticalDrawing> AnswerTacticalRender(const OpenedBoard& opened, const TacticalRequest& a) {
  const t::Board& b = opened.board;
  TacticalRenderRequest req;
  req.settings = b.ruleset() == t::Ruleset::kAsl ? SettingsText(b.settings()) : "samurai-era";
  TacticalDrawing out;
  out.doc = {{"board", b.name()}};
  if (!a.los_ends.empty()) {
    const auto comma = a.los_ends.find(',');
    if (comma == std::string::npos || a.los_ends.find(',', comma + 1) != std::string::npos) {
      return Bad("--los '" + EchoToken(a.los_ends) +
                     "': expected the firer and the target, each a board unit's name or a "
                     "position, e.g. --los A,oK5",
                 EchoToken(a.los_ends));
    }
    LosRequest l = a.los;
    l.from.at = a.los_ends.substr(0, comma);
    l.to.at = a.los_ends.substr(comma + 1);
    auto answer = AnswerTacticalLos(opened, l);
    if (!answer) return std::unexpected(answer.error());
    out.doc["los"] = answer->doc;
    out.text += answer->overlay.verdict + "\n";
    req.los = std::move(answer->overlay);
  }
  if (!a.move.path.empty()) {
    if (b.ruleset() != t::Ruleset::kAsl)
      return Bad("--path draws an ASL unit's move; a samurai-era board's is samurai-move's");
    auto answer = AnswerTacticalMove(opened, a.move);
    if (!answer) return std::unexpected(answer.error());
    out.doc["move"] = answer->doc;
    out.text += answer->overlay.verdict + "\n";
    req.path = std::move(answer->overlay);
  }
  auto svg = RenderBoardSvg(b, req);
  if (!svg) return std::unexpected(svg.error());
  out.svg = std::move(*svg);
  return out;
}

Result<TacticalAnswer> AnswerTacticalBoards() {
  json list = json::array();
  std::ostringstream text;
  for (const BundledFile& f : t::ListBoards(TacticalBoardDir())) {
    auto b = t::LoadBoard(f.path);
    if (!b) return std::unexpected(b.error());
    int c0 = 0, c1 = -1, r0 = 0, r1 = -1;
    std::vector<int> per_grid(b->grids().size(), 0);
    for (const t::Hex* h : b->Hexes()) {
      if (c1 < c0) c0 = c1 = h->cell.col, r0 = r1 = h->cell.row;
      c0 = std::min(c0, h->cell.col), c1 = std::max(c1, h->cell.col);
      r0 = std::min(r0, h->cell.row), r1 = std::max(r1, h->cell.row);
      ++per_grid[h->grid];
    }
    json grids = json::array();
    std::string grid_text;
    for (std::size_t i = 0; i < b->grids().size(); ++i) {
      const t::CoordinateGrid& g = b->grids()[i];
      grids.push_back(
          {{"name", g.name()}, {"role", t::GridRoleName(g.role())}, {"hexes", per_grid[i]}});
      grid_text += (grid_text.empty() ? "" : ", ") + g.name() + " (" + t::GridRoleName(g.role()) +
                   ", " + std::to_string(per_grid[i]) + ")";
    }
    const int hexes = static_cast<int>(b->Hexes().size());
    list.push_back({{"name", f.name},
                    {"title", f.title},
                    {"path", f.path},
                    {"ruleset", t::RulesetName(b->ruleset())},
                    {"hexes", hexes},
                    {"columns", c1 - c0 + 1},
                    {"rows", r1 - r0 + 1},
                    {"grids", grids},
                    {"units", b->units().size()}});
    text << f.name << "\t" << f.title << "\n  " << hexes << " hexes, " << c1 - c0 + 1
         << " columns by " << r1 - r0 + 1 << " rows: " << grid_text << "; " << b->units().size()
         << " units\n";
  }
  TacticalAnswer answer;
  answer.doc = {{"command", "boards"}, {"boards", list}};
  answer.text = text.str();
  return answer;
}

Result<TacticalAnswer> AnswerPanjiSetup(OpenedBoard opened, const PanjiSetupRequest& a) {
  t::Board& b = opened.board;
  std::vector<t::PanjiProblem> extra;
  for (const std::string& text : a.hip) {
    auto rec = t::ParseHipRecord(text);
    if (!rec) return std::unexpected(rec.error());
    auto hex = b.Find(rec->hex);
    if (!hex) return std::unexpected(hex.error());
    auto facing = b.Find(rec->facing);
    if (!facing) return std::unexpected(facing.error());
    const auto dir = map::DirectionTo(*hex, *facing);
    if (!dir)
      return Bad("'" + EchoToken(text) + "': the top must face a hexside of the setup hex",
                 EchoToken(text), rules::kG9_11);
    t::Hex& h = *b.MutableAt(*hex);
    if (h.panji) {
      extra.push_back({rules::kG9_1,
                       "'" + EchoToken(text) + "': " + rec->hex +
                           " already holds a Panji counter (at most one per hex)",
                       rec->hex});
      continue;
    }
    h.panji = t::PanjiCounter::Make(rec->id, *dir, true);
  }
  t::PanjiSetupReport r = t::CheckPanjiSetup(b, a.ob);
  r.problems.insert(r.problems.begin(), extra.begin(), extra.end());
  json panjis = json::array();
  std::ostringstream text;
  text << "panji set-up on " << b.name() << ": " << (r.legal() ? "legal" : "illegal") << "\n";
  for (const auto& p : r.panjis) {
    panjis.push_back({{"hex", p.hex},
                      {"id", std::string(1, p.id)},
                      {"hidden", p.hidden},
                      {"hip", p.hip},
                      {"covered", p.covered}});
    text << "  " << p.hip << (p.hidden ? " (hidden)" : "") << ": Covered hexsides";
    for (const auto& c : p.covered) text << " " << c;
    text << " [G9.3]\n";
  }
  text << "  Covered hexsides in all: " << r.covered_total;
  if (r.ob_limit) text << " of " << *r.ob_limit << " allotted";
  text << " [G9.1]\n";
  json problems = json::array();
  for (const auto& p : r.problems) {
    problems.push_back({{"rule", p.rule}, {"message", p.message}});
    text << "  PROBLEM [" << p.rule << "] " << p.message << "\n";
  }
  json doc = {{"command", "panji-setup"},
              {"board", b.name()},
              {"legal", r.legal()},
              {"panjis", panjis},
              {"covered_total", r.covered_total},
              {"problems", problems}};
  doc["ob_limit"] = r.ob_limit ? json(*r.ob_limit) : json(nullptr);
  TacticalAnswer answer;
  answer.doc = std::move(doc);
  answer.text = text.str();
  return answer;
}

Result<TacticalAnswer> AnswerBeachDyo(const BeachDyoRequest& a) {
  if (!a.seed) return Bad("--seed is required: the DYO procedure is a seeded run");
  auto board = LoadSource(a.board);
  if (!board) return std::unexpected(board.error());
  if (auto r = Apply(a.settings, *board); !r) return std::unexpected(r.error());
  t::DyoOptions o;
  o.seed = *a.seed;
  o.allied_vs_japanese = a.allied_vs_japanese;
  o.year = a.year;
  o.wholly_non_us = a.non_us;
  if (!a.settings.tide.empty()) o.tide = board->settings().tide;  // declared (G13.97)
  auto r = t::RunBeachDyo(*board, o);
  if (!r) return std::unexpected(r.error());
  const t::Board& b = r->board;
  json steps = json::array();
  std::ostringstream text;
  text << "DYO beach procedure on " << b.name() << ", seed " << *a.seed << "\n";
  for (const auto& s : r->steps) {
    json step = {{"rule", s.rule}, {"text", s.text}};
    if (!s.dice.empty()) step["dice"] = s.dice;
    if (s.drm != 0) step["drm"] = s.drm;
    if (s.final_roll) step["final"] = *s.final_roll;
    steps.push_back(step);
    text << "  [" << s.rule << "] " << s.text << "\n";
  }
  json reef = json::array();
  for (auto c : r->reef_hexes) reef.push_back(b.Name(c));
  json shallow = json::array();
  int deep = 0;
  for (const t::Hex* h : b.Hexes()) {
    if (!t::IsOcean(b, h->cell)) continue;
    if (t::OceanDepth(b, h->cell) == t::Depth::kShallow) {
      shallow.push_back(b.Name(h->cell));
    } else {
      ++deep;
    }
  }
  text << "  result: slope " << t::Name(r->slope) << ", width " << r->width << " (High Tide "
       << r->high_tide_width << ", Low Tide " << r->low_tide_width << "), Tide " << t::Name(r->tide)
       << ", reef " << (r->reef ? t::Name(b.settings().reef) : "none") << ", "
       << (r->heavy_surf ? "Heavy Surf" : "no Heavy Surf") << "; " << shallow.size()
       << " shallow and " << deep << " deep OCEAN hexes [G13.4]\n";
  TacticalAnswer answer;
  answer.doc = {{"command", "beach-dyo"},
                {"board", b.name()},
                {"seed", *a.seed},
                {"steps", steps},
                {"reef", r->reef},
                {"reef_state", t::Name(b.settings().reef)},
                {"reef_hexes", reef},
                {"slope", t::Name(r->slope)},
                {"high_tide_width", r->high_tide_width},
                {"low_tide_width", r->low_tide_width},
                {"tide", t::Name(r->tide)},
                {"width", r->width},
                {"heavy_surf", r->heavy_surf},
                {"shallow", shallow},
                {"deep_count", deep}};
  answer.text = text.str();
  return answer;
}

Result<TacticalAnswer> AnswerSamuraiMove(const SamuraiMoveRequest& a) {
  if (a.models) {
    if (auto s = CheckModels(*a.models); !s) return std::unexpected(s.error());
  }
  auto unit =
      ParseOpt<t::SamuraiUnit>(a.unit, "unit", t::ParseSamuraiUnit, "infantry|cavalry|ninja");
  if (!unit) return std::unexpected(unit.error());
  auto order = ParseOpt<t::Order>(a.order, "order", t::ParseOrder, t::OrderNames());
  if (!order) return std::unexpected(order.error());
  auto path = SamuraiPath(a);
  if (!path) return std::unexpected(path.error());
  const t::SamuraiMoveReport r = t::EvaluateSamuraiMove(*unit, *order, a.allowance, *path);
  json steps = json::array();
  for (const auto& h : *path) {
    steps.push_back({{"hex", h.name}, {"terrain", t::TerrainName(h.terrain)}, {"level", h.level}});
  }
  json notes = json::array();
  std::ostringstream text;
  text << t::Name(*unit) << ", order " << t::Name(*order) << ": "
       << (r.legal() ? "legal" : "illegal") << " (allows " << r.allowance << " hex(es), " << r.limit
       << " after reductions)\n";
  for (const auto& n : r.notes) {
    notes.push_back({{"rule", n.rule}, {"text", n.text}});
    text << "  [" << n.rule << "] " << n.text << "\n";
  }
  json doc = {{"command", "samurai-move"},
              {"unit", t::Name(*unit)},
              {"order", t::Name(*order)},
              {"legal", r.legal()},
              {"allowance", r.allowance},
              {"limit", r.limit},
              {"path", steps},
              {"notes", notes},
              {"loss_test", r.loss_test},
              {"melee", r.melee}};
  if (r.refusal) {
    doc["refusal"] = {
        {"rule", r.refusal->rule}, {"message", r.refusal->text}, {"step", *r.refused_step}};
    text << "  REFUSED at step " << *r.refused_step << " [" << r.refusal->rule << "] "
         << r.refusal->text << "\n";
  }
  if (r.loss_test && r.legal() && a.seed && a.models) {
    Dice dice(*a.seed);
    const t::LossTest lt = t::RollLossTest(dice, *a.models);
    doc["loss_test_roll"] = LossTestJson(lt);
    text << "  " << LossTestText(lt);
  }
  TacticalAnswer answer;
  answer.doc = std::move(doc);
  answer.text = text.str();
  return answer;
}

Result<TacticalAnswer> AnswerLossTest(const LossTestRequest& a) {
  if (!a.models) return Bad("--models is required: how many models the unit has");
  if (!a.seed) return Bad("--seed is required: the Loss Test is a seeded roll");
  if (auto s = CheckModels(*a.models); !s) return std::unexpected(s.error());
  Dice dice(*a.seed);
  const t::LossTest lt = t::RollLossTest(dice, *a.models);
  TacticalAnswer answer;
  answer.doc = LossTestJson(lt);
  answer.doc["command"] = "loss-test";
  answer.doc["models"] = *a.models;
  answer.doc["seed"] = *a.seed;
  answer.text = LossTestText(lt);
  return answer;
}

}  // namespace opsim::query
