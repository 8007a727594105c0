// `opsim tactical ...`: the tactical terrain module's commands (issue 5).
//
//   move          what a unit pays along a path, step by step, and whether it may (G8, G9, G13)
//   los           LOS, Hindrances and TEM between two positions (G8.3-.5, G13.2, G13.62, G13.7)
//   panji-setup   whether a panji set-up is legal (G9.1, G9.11, G9.12, G9.3)
//   beach-dyo     the DYO beach procedure, G13.91-.99, every roll shown
//   samurai-move  orders and terrain of the samurai-era game
//   loss-test     the samurai-era river Loss Test
//   boards        the bundled boards (scenarios/tactical/), which --board takes by name
//   render        a board as SVG, with a LOS thread or a path and its answer drawn on it
// Every charge, refusal and explanation names its rule; --json prints one JSON object.
#include <filesystem>
#include <memory>
#include <sstream>

#include "context.h"
#include "opsim/core/dice.h"
#include "opsim/core/echo.h"
#include "opsim/core/files.h"
#include "opsim/core/rule_ids.h"
#include "opsim/query/source.h"
#include "opsim/tactical/attack.h"
#include "opsim/tactical/beach.h"
#include "opsim/tactical/beach_dyo.h"
#include "opsim/tactical/board_file.h"
#include "opsim/tactical/los.h"
#include "opsim/tactical/movement.h"
#include "opsim/tactical/paddy.h"
#include "opsim/tactical/panji.h"
#include "opsim/tactical/samurai.h"
#include "svg.h"
#include "tactical_render.h"

namespace opsim::cli {

namespace {

using nlohmann::json;
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

// The scenario settings every board command may override.
struct SettingsArgs {
  std::string paddy, ec, slope, tide, reef, water, seawall;
  bool surf = false, pto = false, coral_soil = false, night = false, frozen = false;
  std::optional<std::uint64_t> seed;

  void Add(CLI::App* cmd) {
    cmd->add_option("--paddy", paddy,
                    "Paddy state by SSR: " + t::PaddyStateNames() +
                        ", or 'dyo' to roll it (G8.1; needs --seed)");
    cmd->add_option("--ec", ec, "Environmental Conditions: " + t::EcNames());
    cmd->add_option("--slope", slope, "Slope of the Beach: " + t::SlopeNames() + " (G13.2)");
    cmd->add_option("--tide", tide, "Tide: " + t::TideNames() + " (G13.97)");
    cmd->add_option("--reef", reef, "Reef: " + t::ReefNames() + " (G13.431)");
    cmd->add_option("--water", water, "What OCEAN represents: " + t::WaterNames() + " (G13.12)");
    cmd->add_option("--seawall", seawall, "Seawall SSR: " + t::SeawallNames() + " (G13.6)");
    cmd->add_flag("--surf", surf, "Heavy Surf is in effect (G13.44)");
    cmd->add_flag("--pto", pto, "PTO Terrain is in effect (G.1; panjis need it, G9.1)");
    cmd->add_flag("--coral-soil", coral_soil, "Coral Soil is in effect (G13.82)");
    cmd->add_flag("--night", night, "a night scenario (G13.4212, G13.83)");
    cmd->add_flag("--frozen", frozen, "OCEAN is frozen: B21.6 applies, not modelled (G13.494)");
  }

  // Applies the overrides; a DYO paddy dr is returned for the report.
  Result<std::optional<t::PaddyStateRoll>> Apply(t::Board& b) const {
    t::Settings& s = b.mutable_settings();
    std::optional<t::PaddyStateRoll> roll;
    if (!ec.empty()) {
      auto v = ParseOpt<t::Ec>(ec, "ec", t::ParseEc, t::EcNames());
      if (!v) return std::unexpected(v.error());
      s.ec = *v;
    }
    if (paddy == "dyo") {
      if (!seed)
        return Bad("--paddy dyo rolls the paddy state: give --seed", "--paddy", rules::kG8_1);
      Dice dice(*seed);
      roll = t::RollPaddyState(dice, s.ec);
      s.paddy = roll->state;
    } else if (!paddy.empty()) {
      auto v = ParseOpt<t::PaddyState>(paddy, "paddy", t::ParsePaddyState,
                                       t::PaddyStateNames() + "|dyo");
      if (!v) return std::unexpected(v.error());
      s.paddy = *v;
    }
    for (Status st : {SetEnum(slope, "slope", t::ParseSlope, t::SlopeNames(), s.slope),
                      SetEnum(tide, "tide", t::ParseTide, t::TideNames(), s.tide),
                      SetEnum(reef, "reef", t::ParseReef, t::ReefNames(), s.reef),
                      SetEnum(water, "water", t::ParseWater, t::WaterNames(), s.water),
                      SetEnum(seawall, "seawall", t::ParseSeawall, t::SeawallNames(), s.seawall)}) {
      if (!st) return std::unexpected(st.error());
    }
    s.heavy_surf = s.heavy_surf || surf;
    s.pto = s.pto || pto;
    s.coral_soil = s.coral_soil || coral_soil;
    s.night = s.night || night;
    s.frozen = s.frozen || frozen;
    return roll;
  }
};

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

// The bundled boards' folder: scenarios/tactical/ beside the bundled scenarios.
std::string BoardDir() {
  return (std::filesystem::path(query::ScenarioDir()) / "tactical").string();
}

constexpr const char* kBoardHelp =
    "Board: a bundled board's name (opsim tactical boards), or a board file (JSON)";

// `--board`: a bundled board's name or a board file, loaded.
Result<t::Board> LoadNamedBoard(const std::string& name_or_path) {
  if (name_or_path.empty()) return Bad("--board is required");
  auto path = t::ResolveBoard(name_or_path, BoardDir());
  if (!path) return std::unexpected(path.error());
  return t::LoadBoard(*path);
}

// Loads a board, applies the settings, and checks that its set-up is legal. panji-setup
// (`check_panjis` false) answers with the board's panji problems instead of refusing it.
Result<t::Board> OpenBoard(const std::string& path, const SettingsArgs& args,
                           std::optional<t::PaddyStateRoll>* roll, bool check_panjis = true) {
  auto b = LoadNamedBoard(path);
  if (!b) return std::unexpected(b.error());
  auto r = args.Apply(*b);
  if (!r) return std::unexpected(r.error());
  if (roll) *roll = *r;
  if (b->ruleset() == t::Ruleset::kAsl) {
    if (auto s = t::CheckBeachSetup(*b); !s) return std::unexpected(s.error());
    if (auto s = t::CheckPaddySetup(*b); !s) return std::unexpected(s.error());
    if (check_panjis) {
      if (auto s = t::CheckPanjiBoardSetup(*b); !s) return std::unexpected(s.error());
    }
  }
  return b;
}

std::string Mf(const t::Cost& c, const t::Unit& u) {
  return c.ToString() + (u.infantry() || u.kind() == t::UnitKind::kCavalry ? " MF" : " MP");
}

// ---- move ------------------------------------------------------------------------------------

struct MoveArgs {
  SettingsArgs settings;
  std::string board, unit = "infantry", path, phase = "movement", transport = "horse", transport_at;
  std::vector<std::string> flags;
  std::optional<int> allowance, printed_mp;
  bool double_time = false, assault = false, low_crawl = false, armored = false;
  int morale = 7;
  int stack = 1;
};

// --stack: the units moving together; a stack holds far fewer (A5.1).
constexpr int kMaxStack = 100;

// An answer: its JSON, its text, and what a drawing of it shows.
struct Answer {
  json doc;
  std::string text;
  BoardOverlay overlay;
};

// The lines of an answer's text, for the drawing's panel.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

Result<Answer> AnswerMove(const t::Board& b, const MoveArgs& a,
                          const std::optional<t::PaddyStateRoll>& roll) {
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
  o.assault_movement = a.assault;
  o.low_crawl = a.low_crawl;
  o.armored_assault = a.armored;
  o.seed = a.settings.seed;
  o.morale = a.morale;
  if (a.stack < 1 || a.stack > kMaxStack) {
    return Bad("--stack must be from 1 to " + std::to_string(kMaxStack) + ", not " +
                   std::to_string(a.stack),
               std::to_string(a.stack), rules::kG9_43);
  }
  o.stack = a.stack;
  if (a.path.empty()) return Bad("--path is required (e.g. --path oM5,oM4,oM3)");
  auto report = t::EvaluateMove(b, o, t::SplitPath(a.path));
  if (!report) return std::unexpected(report.error());

  Answer answer;
  BoardOverlay& drawn = answer.overlay;
  drawn.kind = "path";
  json steps = json::array();
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
    steps.push_back(step);
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
              {"steps", steps}};
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

Status RunMove(Context& ctx, const MoveArgs& a) {
  std::optional<t::PaddyStateRoll> roll;
  auto board = OpenBoard(a.board, a.settings, &roll);
  if (!board) return std::unexpected(board.error());
  auto answer = AnswerMove(*board, a, roll);
  if (!answer) return std::unexpected(answer.error());
  Emit(ctx, answer->doc, answer->text);
  return {};
}

// ---- los -------------------------------------------------------------------------------------

struct EndArgs {
  std::string at, unit;
  bool entrenched = false, crest = false, empty = false;
  int level = 0;
};

struct LosArgs {
  SettingsArgs settings;
  std::string board, attack = "small-arms";
  EndArgs from, to;
};

// A LOS end: a board unit by name, or a position.
Result<t::LosEnd> ResolveEnd(const t::Board& b, const EndArgs& a, const char* which) {
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

Result<Answer> AnswerSamuraiLos(const t::Board& b, const LosArgs& a) {
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
  Answer answer;
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

Result<Answer> AnswerLos(const t::Board& b, const LosArgs& a,
                         const std::optional<t::PaddyStateRoll>& roll) {
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
  Answer answer;
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

Status RunLos(Context& ctx, const LosArgs& a) {
  std::optional<t::PaddyStateRoll> roll;
  auto board = OpenBoard(a.board, a.settings, &roll);
  if (!board) return std::unexpected(board.error());
  auto answer = AnswerLos(*board, a, roll);
  if (!answer) return std::unexpected(answer.error());
  Emit(ctx, answer->doc, answer->text);
  return {};
}

// ---- panji-setup -----------------------------------------------------------------------------

struct PanjiArgs {
  SettingsArgs settings;
  std::string board;
  std::optional<int> ob;
  std::vector<std::string> hip;
};

Status RunPanjiSetup(Context& ctx, const PanjiArgs& a) {
  auto board = OpenBoard(a.board, a.settings, nullptr, false);
  if (!board) return std::unexpected(board.error());
  t::Board& b = *board;
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
  Emit(ctx, doc, text.str());
  return {};
}

// ---- beach-dyo -------------------------------------------------------------------------------

struct DyoArgs {
  SettingsArgs settings;
  std::string board;
  std::optional<std::uint64_t> seed;
  bool allied_vs_japanese = false, non_us = false;
  int year = 1944;
};

Status RunBeachDyo(Context& ctx, const DyoArgs& a) {
  if (!a.seed) return Bad("--seed is required: the DYO procedure is a seeded run");
  auto board = LoadNamedBoard(a.board);
  if (!board) return std::unexpected(board.error());
  if (auto r = a.settings.Apply(*board); !r) return std::unexpected(r.error());
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
  json doc = {{"command", "beach-dyo"},
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
  Emit(ctx, doc, text.str());
  return {};
}

// ---- samurai ---------------------------------------------------------------------------------

struct SamuraiArgs {
  std::string unit, order, path, board, enemy;
  std::optional<int> allowance, models;
  std::optional<std::uint64_t> seed;
};

// --models: one d20 each (SAM-LT.1), so a count is bounded: 2,000,000,000 took 8 GB.
constexpr int kMaxModels = 1000;

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

// A samurai path hex: a terrain name (TERRAIN or TERRAIN@LEVEL) or, with --board, a hex.
Result<std::vector<t::SamuraiHex>> SamuraiPath(const SamuraiArgs& a) {
  std::vector<t::SamuraiHex> out;
  std::optional<t::Board> board;
  std::vector<map::GridPos> enemies;
  if (!a.board.empty()) {
    auto b = LoadNamedBoard(a.board);
    if (!b) return std::unexpected(b.error());
    if (b->ruleset() != t::Ruleset::kSamurai)
      return Bad("board '" + b->name() + "' is not a samurai-era board", a.board);
    board = std::move(*b);
    for (const std::string& e : t::SplitPath(a.enemy)) {
      auto c = board->Find(e);
      if (!c) return std::unexpected(c.error());
      enemies.push_back(*c);
    }
  } else if (!a.enemy.empty()) {
    return Bad("--enemy names hexes of a --board");
  }
  std::optional<map::GridPos> prev;
  for (const std::string& token : t::SplitPath(a.path)) {
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

Status RunSamuraiMove(Context& ctx, const SamuraiArgs& a) {
  if (a.models) {
    if (auto s = CheckModels(*a.models); !s) return s;
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
  Emit(ctx, doc, text.str());
  return {};
}

struct LossArgs {
  std::optional<int> models;
  std::optional<std::uint64_t> seed;
};

Status RunLossTest(Context& ctx, const LossArgs& a) {
  if (!a.models) return Bad("--models is required: how many models the unit has");
  if (!a.seed) return Bad("--seed is required: the Loss Test is a seeded roll");
  if (auto s = CheckModels(*a.models); !s) return s;
  Dice dice(*a.seed);
  const t::LossTest lt = t::RollLossTest(dice, *a.models);
  json doc = LossTestJson(lt);
  doc["command"] = "loss-test";
  doc["models"] = *a.models;
  doc["seed"] = *a.seed;
  Emit(ctx, doc, LossTestText(lt));
  return {};
}

// ---- boards ----------------------------------------------------------------------------------

Status RunBoards(Context& ctx) {
  json list = json::array();
  std::ostringstream text;
  for (const BundledFile& f : t::ListBoards(BoardDir())) {
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
  Emit(ctx, {{"command", "boards"}, {"boards", list}}, text.str());
  return {};
}

// ---- render ----------------------------------------------------------------------------------

struct RenderArgs {
  MoveArgs move;  // --board, the settings, and --path with its unit
  LosArgs ends;   // --los's attack and what stands at its ends
  std::string los, out;
  bool force = false;
};

Status RunRender(Context& ctx, const RenderArgs& a) {
  std::optional<t::PaddyStateRoll> roll;
  auto board = OpenBoard(a.move.board, a.move.settings, &roll);
  if (!board) return std::unexpected(board.error());
  const t::Board& b = *board;
  TacticalRenderRequest req;
  req.settings = b.ruleset() == t::Ruleset::kAsl ? SettingsText(b.settings()) : "samurai-era";
  json doc = {{"command", "render"}, {"board", b.name()}, {"out", a.out}};
  std::string text;
  if (!a.los.empty()) {
    const auto comma = a.los.find(',');
    if (comma == std::string::npos || a.los.find(',', comma + 1) != std::string::npos) {
      return Bad("--los '" + EchoToken(a.los) +
                     "': expected the firer and the target, each a board unit's name or a "
                     "position, e.g. --los A,oK5",
                 EchoToken(a.los));
    }
    LosArgs l = a.ends;
    l.from.at = a.los.substr(0, comma);
    l.to.at = a.los.substr(comma + 1);
    auto answer = AnswerLos(b, l, roll);
    if (!answer) return std::unexpected(answer.error());
    doc["los"] = answer->doc;
    text += answer->overlay.verdict + "\n";
    req.los = std::move(answer->overlay);
  }
  if (!a.move.path.empty()) {
    if (b.ruleset() != t::Ruleset::kAsl)
      return Bad("--path draws an ASL unit's move; a samurai-era board's is samurai-move's");
    auto answer = AnswerMove(b, a.move, roll);
    if (!answer) return std::unexpected(answer.error());
    doc["move"] = answer->doc;
    text += answer->overlay.verdict + "\n";
    req.path = std::move(answer->overlay);
  }
  auto svg = RenderBoardSvg(b, req);
  if (!svg) return std::unexpected(svg.error());
  if (auto s = WriteOutputFile(a.out, *svg, SvgFile(), a.force); !s) return s;
  doc["bytes"] = svg->size();
  Emit(ctx, doc, "wrote " + a.out + ": " + b.name() + "\n" + text);
  return {};
}

// The options of a moving unit, `tactical move`'s and `tactical render --path`'s.
void AddUnitOptions(CLI::App* m, MoveArgs* move) {
  m->add_option("--unit", move->unit, "Unit kind: " + t::UnitKindNames())->capture_default_str();
  m->add_option("--flag", move->flags, "Unit circumstance, repeatable: " + t::UnitFlagNames());
  m->add_option("--allowance", move->allowance, "MF/MP allowance to check the total against (A4.1)")
      ->check(InRange(0, 100));
  m->add_flag("--double-time", move->double_time, "Double Time: +2 MF and CX (A4.5)");
  m->add_flag("--assault-movement", move->assault, "Assault Movement (no Panji MC; G9.41)");
  m->add_flag("--low-crawl", move->low_crawl, "Low Crawl (G8.2111, G9.41)");
  m->add_flag("--armored-assault", move->armored, "Armored Assault (G9.41)");
  m->add_option("--phase", move->phase, "movement|advance|rout")->capture_default_str();
  m->add_option("--transport", move->transport,
                "What +mount mounts: horse|bicycle|motorcycle|vehicle")
      ->capture_default_str();
  m->add_option("--transport-at", move->transport_at,
                "Where that transport is (in, bank, above, beneath)");
  m->add_option("--printed-mp", move->printed_mp,
                "The vehicle's printed MP allotment (G8.8 breach, G13.625 fascine)")
      ->check(InRange(0, 100));
  m->add_option("--seed", move->settings.seed,
                "Seed for the Panji MC, Swamping DR and a DYO paddy dr")
      ->check(kSeedRange);
  m->add_option("--morale", move->morale, "Morale for the Panji MC (G9.31)")
      ->check(InRange(0, 20))
      ->capture_default_str();
  m->add_option("--stack", move->stack,
                "Units moving together as one stack, 1 to 100: who takes the Panji MC (G9.43)")
      ->capture_default_str();
  move->settings.Add(m);
}

// The options of a LOS's two ends and its attack, `tactical los`'s and `tactical render --los`'s.
void AddLosOptions(CLI::App* l, LosArgs* los) {
  l->add_option("--attack", los->attack, "Attack: " + t::AttackTypeNames())->capture_default_str();
  l->add_option("--from-unit", los->from.unit,
                "Firer's unit kind (default: the board unit's, or infantry)");
  l->add_option("--to-unit", los->to.unit, "Target's unit kind");
  l->add_flag("--from-entrenched", los->from.entrenched, "The firer is entrenched");
  l->add_flag("--to-entrenched", los->to.entrenched, "The target is entrenched");
  l->add_flag("--from-crest", los->from.crest, "The firer is in Crest status (G13.23)");
  l->add_flag("--to-crest", los->to.crest, "The target is in Crest status (G13.23)");
  l->add_option("--from-level", los->from.level,
                "Levels the firer stands above its hex (e.g. a building level)")
      ->check(InRange(-9, 9));
  l->add_option("--to-level", los->to.level, "Levels the target stands above its hex")
      ->check(InRange(-9, 9));
  l->add_flag("--empty-target", los->to.empty, "Fire at an empty hex (G8.3)");
}

}  // namespace

void AddTacticalCommands(CLI::App& app, Context& ctx) {
  CLI::App* tac = app.add_subcommand("tactical",
                                     "The tactical terrain module: ASL G8 rice paddies, G9 panjis "
                                     "and G13 beaches, and the terrain of a "
                                     "samurai-era game. Board files: docs/tactical.md; the rules' "
                                     "illustrations: scenarios/tactical/.");
  tac->require_subcommand(1);

  auto move = std::make_shared<MoveArgs>();
  CLI::App* m = tac->add_subcommand(
      "move", "What a unit pays to move along a path, step by step, and whether it may");
  m->add_option("--board", move->board, kBoardHelp)->required();
  m->add_option(
       "--path", move->path,
       "Comma-separated: the start position, then steps. HEX[:PLACE] (places: " + t::PlaceNames() +
           "), HEX~NEIGHBOR to Bypass HEX along that hexside, HEX@N to expend N MF entering, "
           "+mount +dismount +bailout +pinned +broken +melee +disband +breach:HEX +search:HEX")
      ->required();
  AddUnitOptions(m, move.get());
  m->footer(
      "Examples:\n"
      "  opsim tactical move --board g8_2108 --paddy in-season --path "
      "oL3:bank,oM3\n"
      "  opsim tactical move --board g9_3 --pto --double-time --allowance "
      "4 \\\n"
      "      --path 37EE8,DD7,DD7:beneath,CC8\n"
      "Exit 0 with \"legal\": false when a rule forbids a step; exit 2 for a path opsim cannot "
      "read.");
  Bind(m, ctx, [&ctx, move] { return RunMove(ctx, *move); });

  auto los = std::make_shared<LosArgs>();
  CLI::App* l = tac->add_subcommand(
      "los", "LOS between two positions: blocked or not, the Hindrances and the TEM, with reasons");
  l->add_option("--board", los->board, kBoardHelp)->required();
  l->add_option("--from", los->from.at, "Firer: a board unit's name or a position (HEX[:PLACE])")
      ->required();
  l->add_option("--to", los->to.at, "Target: a board unit's name or a position")->required();
  AddLosOptions(l, los.get());
  l->add_option("--seed", los->settings.seed, "Seed for a DYO paddy dr")->check(kSeedRange);
  los->settings.Add(l);
  l->footer(
      "Examples:\n"
      "  opsim tactical los --board g8_2108 --paddy in-season --from A "
      "--to C\n"
      "  opsim tactical los --board g13_23 --slope steep --from 4-4-8 --to "
      "'LC E'");
  Bind(l, ctx, [&ctx, los] { return RunLos(ctx, *los); });

  auto panji = std::make_shared<PanjiArgs>();
  CLI::App* p =
      tac->add_subcommand("panji-setup", "Is this panji set-up legal? (G9.1, G9.11, G9.12, G9.3)");
  p->add_option("--board", panji->board, kBoardHelp)->required();
  p->add_option("--ob", panji->ob, "Covered hexsides the OB allots (G9.1)")
      ->check(InRange(0, 1000));
  p->add_option(
      "--hip", panji->hip,
      "Add a hidden Panji counter from its HIP record, e.g. \"Panji A: 37EE7-EE8\" (G9.11)");
  panji->settings.Add(p);
  p->footer("Example:\n  opsim tactical panji-setup --board g9_3 --pto --ob 4");
  Bind(p, ctx, [&ctx, panji] { return RunPanjiSetup(ctx, *panji); });

  auto dyo = std::make_shared<DyoArgs>();
  CLI::App* d = tac->add_subcommand("beach-dyo",
                                    "The whole DYO beach procedure, G13.91-.99, every roll shown");
  d->add_option("--board", dyo->board, std::string(kBoardHelp) + ", with Beach and OCEAN overlays")
      ->required();
  d->add_option("--seed", dyo->seed, "Seed: the same seed gives the same run anywhere")
      ->check(kSeedRange)
      ->required();
  d->add_flag("--allied-vs-japanese", dyo->allied_vs_japanese,
              "An Allied-vs-Japanese scenario (G13.91)");
  d->add_option("--year", dyo->year, "The scenario's year (G13.91: a reef dr only in 1943-44)")
      ->check(InRange(1900, 2100))
      ->capture_default_str();
  d->add_flag("--non-us", dyo->non_us, "The amphibious side is wholly non-U.S. (G13.91 -1 drm)");
  dyo->settings.Add(d);
  d->footer(
      "Example:\n  opsim tactical beach-dyo --board g13_23 --seed 7 --tide "
      "low "
      "--allied-vs-japanese --year 1944");
  Bind(d, ctx, [&ctx, dyo] { return RunBeachDyo(ctx, *dyo); });

  auto sam = std::make_shared<SamuraiArgs>();
  CLI::App* s = tac->add_subcommand(
      "samurai-move", "Samurai-era game: may this unit execute this order along this path?");
  s->add_option("--unit", sam->unit, "infantry|cavalry|ninja")->required();
  s->add_option("--order", sam->order, t::OrderNames())->required();
  s->add_option(
       "--path", sam->path,
       "Comma-separated, start first: terrain names (plains, light-woods, heavy-woods, "
       "rice-fields, river, "
       "ford, bridge, ravine, rocky-ground, village; TERRAIN@LEVEL on a hill), or hexes of --board")
      ->required();
  s->add_option("--board", sam->board,
                "A samurai-era board (a bundled board's name or a file); the path then names its "
                "hexes");
  s->add_option("--enemy", sam->enemy,
                "Comma-separated hexes of --board holding enemy units (SAM-RV.6)");
  s->add_option("--allowance", sam->allowance, "Hexes the order allows (default: docs/tactical.md)")
      ->check(InRange(0, 100));
  s->add_option("--models", sam->models,
                "Models in the unit, 1 to 1000, to roll the Loss Test on entering a river");
  s->add_option("--seed", sam->seed, "Seed for that Loss Test")->check(kSeedRange);
  s->footer(
      "Example:\n  opsim tactical samurai-move --unit infantry --order assault --path "
      "plains,light-woods");
  Bind(s, ctx, [&ctx, sam] { return RunSamuraiMove(ctx, *sam); });

  CLI::App* bl = tac->add_subcommand(
      "boards", "The bundled boards (scenarios/tactical/), which every --board takes by name");
  bl->footer("Example:\n  opsim tactical boards");
  Bind(bl, ctx, [&ctx] { return RunBoards(ctx); });

  auto render = std::make_shared<RenderArgs>();
  CLI::App* r = tac->add_subcommand(
      "render",
      "Draw a board as SVG: hexes, terrain, levels, banks, beach zones, counters, units, a "
      "legend; with --los a LOS thread, with --path a unit's path, each with its answer");
  r->add_option("--board", render->move.board, kBoardHelp)->required();
  r->add_option("--out", render->out, "The SVG file to write")->required();
  AddForceOption(r, render->force);
  r->add_option("--los", render->los,
                "Draw the LOS between two positions or board units, FIRER,TARGET: as tactical "
                "los --from FIRER --to TARGET answers, with the options below");
  r->add_option("--path", render->move.path,
                "Draw a unit's path, each step's cost and rule: as tactical move --path answers, "
                "with the options below");
  AddUnitOptions(r, &render->move);
  AddLosOptions(r, &render->ends);
  r->footer(
      "Examples:\n"
      "  opsim tactical render --board g8_2108 --paddy in-season --los A,D --out g8.svg\n"
      "  opsim tactical render --board g9_3 --pto --path 37EE8,37DD7 --out g9.svg\n"
      "--out is written whole or not at all, and replaces only an SVG drawing unless --force "
      "(docs/output-files.md).");
  Bind(r, ctx, [&ctx, render] { return RunRender(ctx, *render); });

  auto loss = std::make_shared<LossArgs>();
  CLI::App* lt = tac->add_subcommand(
      "loss-test", "The river Loss Test: one d20 per model, 1-10 safe, 11+ a casualty");
  lt->add_option("--models", loss->models, "Models in the unit, 1 to 1000")->required();
  lt->add_option("--seed", loss->seed, "Seed: the same seed gives the same rolls anywhere")
      ->check(kSeedRange)
      ->required();
  lt->footer("Example:\n  opsim tactical loss-test --models 6 --seed 42");
  Bind(lt, ctx, [&ctx, loss] { return RunLossTest(ctx, *loss); });
}

}  // namespace opsim::cli
