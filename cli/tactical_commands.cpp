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
// Every charge, refusal and explanation names its rule; --json prints one JSON object. The
// answers are libquery's (opsim/query/tactical.h), which `opsim serve` sends too: this file
// fills their requests from the options and prints them.
#include <memory>

#include "context.h"
#include "opsim/core/files.h"
#include "opsim/query/svg.h"
#include "opsim/query/tactical.h"
#include "opsim/tactical/attack.h"
#include "opsim/tactical/movement.h"
#include "opsim/tactical/samurai.h"
#include "opsim/tactical/settings.h"

namespace opsim::cli {

namespace {

using nlohmann::json;
namespace t = opsim::tactical;

// The scenario settings every board command may override.
void AddSettingsOptions(CLI::App* cmd, query::BoardSettings& s) {
  cmd->add_option(
      "--paddy", s.paddy,
      "Paddy state by SSR: " + t::PaddyStateNames() + ", or 'dyo' to roll it (G8.1; needs --seed)");
  cmd->add_option("--ec", s.ec, "Environmental Conditions: " + t::EcNames());
  cmd->add_option("--slope", s.slope, "Slope of the Beach: " + t::SlopeNames() + " (G13.2)");
  cmd->add_option("--tide", s.tide, "Tide: " + t::TideNames() + " (G13.97)");
  cmd->add_option("--reef", s.reef, "Reef: " + t::ReefNames() + " (G13.431)");
  cmd->add_option("--water", s.water, "What OCEAN represents: " + t::WaterNames() + " (G13.12)");
  cmd->add_option("--seawall", s.seawall, "Seawall SSR: " + t::SeawallNames() + " (G13.6)");
  cmd->add_flag("--surf", s.surf, "Heavy Surf is in effect (G13.44)");
  cmd->add_flag("--pto", s.pto, "PTO Terrain is in effect (G.1; panjis need it, G9.1)");
  cmd->add_flag("--coral-soil", s.coral_soil, "Coral Soil is in effect (G13.82)");
  cmd->add_flag("--night", s.night, "a night scenario (G13.4212, G13.83)");
  cmd->add_flag("--frozen", s.frozen, "OCEAN is frozen: B21.6 applies, not modelled (G13.494)");
}

constexpr const char* kBoardHelp =
    "Board: a bundled board's name (opsim tactical boards), or a board file (JSON)";

// Prints an answer, or returns its error.
Status Print(Context& ctx, const Result<query::TacticalAnswer>& answer) {
  if (!answer) return std::unexpected(answer.error());
  Emit(ctx, answer->doc, answer->text);
  return {};
}

Status RunMove(Context& ctx, const query::TacticalRequest& a) {
  auto board = query::OpenTacticalBoard(a.board, a.settings);
  if (!board) return std::unexpected(board.error());
  return Print(ctx, query::AnswerTacticalMove(*board, a.move));
}

Status RunLos(Context& ctx, const query::TacticalRequest& a) {
  auto board = query::OpenTacticalBoard(a.board, a.settings);
  if (!board) return std::unexpected(board.error());
  return Print(ctx, query::AnswerTacticalLos(*board, a.los));
}

struct PanjiArgs {
  query::BoardSource board;
  query::BoardSettings settings;
  query::PanjiSetupRequest request;
};

Status RunPanjiSetup(Context& ctx, const PanjiArgs& a) {
  auto board = query::OpenTacticalBoard(a.board, a.settings, false);
  if (!board) return std::unexpected(board.error());
  return Print(ctx, query::AnswerPanjiSetup(std::move(*board), a.request));
}

struct RenderArgs {
  query::TacticalRequest request;
  std::string out;
  bool force = false;
};

Status RunRender(Context& ctx, const RenderArgs& a) {
  auto board = query::OpenTacticalBoard(a.request.board, a.request.settings);
  if (!board) return std::unexpected(board.error());
  auto drawing = query::AnswerTacticalRender(*board, a.request);
  if (!drawing) return std::unexpected(drawing.error());
  if (auto s = WriteOutputFile(a.out, drawing->svg, query::SvgFile(), a.force); !s) return s;
  json doc = drawing->doc;
  doc["command"] = "render";
  doc["out"] = a.out;
  doc["bytes"] = drawing->svg.size();
  Emit(ctx, doc, "wrote " + a.out + ": " + board->board.name() + "\n" + drawing->text);
  return {};
}

// The options of a moving unit, `tactical move`'s and `tactical render --path`'s.
void AddUnitOptions(CLI::App* m, query::MoveRequest* move, query::BoardSettings* settings) {
  m->add_option("--unit", move->unit, "Unit kind: " + t::UnitKindNames())->capture_default_str();
  m->add_option("--flag", move->flags, "Unit circumstance, repeatable: " + t::UnitFlagNames());
  m->add_option("--allowance", move->allowance, "MF/MP allowance to check the total against (A4.1)")
      ->check(InRange(0, 100));
  m->add_flag("--double-time", move->double_time, "Double Time: +2 MF and CX (A4.5)");
  m->add_flag("--assault-movement", move->assault_movement,
              "Assault Movement (no Panji MC; G9.41)");
  m->add_flag("--low-crawl", move->low_crawl, "Low Crawl (G8.2111, G9.41)");
  m->add_flag("--armored-assault", move->armored_assault, "Armored Assault (G9.41)");
  m->add_option("--phase", move->phase, "movement|advance|rout")->capture_default_str();
  m->add_option("--transport", move->transport,
                "What +mount mounts: horse|bicycle|motorcycle|vehicle")
      ->capture_default_str();
  m->add_option("--transport-at", move->transport_at,
                "Where that transport is (in, bank, above, beneath)");
  m->add_option("--printed-mp", move->printed_mp,
                "The vehicle's printed MP allotment (G8.8 breach, G13.625 fascine)")
      ->check(InRange(0, 100));
  m->add_option("--seed", settings->seed, "Seed for the Panji MC, Swamping DR and a DYO paddy dr")
      ->check(kSeedRange);
  m->add_option("--morale", move->morale, "Morale for the Panji MC (G9.31)")
      ->check(InRange(0, 20))
      ->capture_default_str();
  m->add_option("--stack", move->stack,
                "Units moving together as one stack, 1 to 100: who takes the Panji MC (G9.43)")
      ->capture_default_str();
  AddSettingsOptions(m, *settings);
}

// The options of a LOS's two ends and its attack, `tactical los`'s and `tactical render --los`'s.
void AddLosOptions(CLI::App* l, query::LosRequest* los) {
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

  auto move = std::make_shared<query::TacticalRequest>();
  CLI::App* m = tac->add_subcommand(
      "move", "What a unit pays to move along a path, step by step, and whether it may");
  m->add_option("--board", move->board.name, kBoardHelp)->required();
  m->add_option(
       "--path", move->move.path,
       "Comma-separated: the start position, then steps. HEX[:PLACE] (places: " + t::PlaceNames() +
           "), HEX~NEIGHBOR to Bypass HEX along that hexside, HEX@N to expend N MF entering, "
           "+mount +dismount +bailout +pinned +broken +melee +disband +breach:HEX +search:HEX")
      ->required();
  AddUnitOptions(m, &move->move, &move->settings);
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

  auto los = std::make_shared<query::TacticalRequest>();
  CLI::App* l = tac->add_subcommand(
      "los", "LOS between two positions: blocked or not, the Hindrances and the TEM, with reasons");
  l->add_option("--board", los->board.name, kBoardHelp)->required();
  l->add_option("--from", los->los.from.at,
                "Firer: a board unit's name or a position (HEX[:PLACE])")
      ->required();
  l->add_option("--to", los->los.to.at, "Target: a board unit's name or a position")->required();
  AddLosOptions(l, &los->los);
  l->add_option("--seed", los->settings.seed, "Seed for a DYO paddy dr")->check(kSeedRange);
  AddSettingsOptions(l, los->settings);
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
  p->add_option("--board", panji->board.name, kBoardHelp)->required();
  p->add_option("--ob", panji->request.ob, "Covered hexsides the OB allots (G9.1)")
      ->check(InRange(0, 1000));
  p->add_option(
      "--hip", panji->request.hip,
      "Add a hidden Panji counter from its HIP record, e.g. \"Panji A: 37EE7-EE8\" (G9.11)");
  AddSettingsOptions(p, panji->settings);
  p->footer("Example:\n  opsim tactical panji-setup --board g9_3 --pto --ob 4");
  Bind(p, ctx, [&ctx, panji] { return RunPanjiSetup(ctx, *panji); });

  auto dyo = std::make_shared<query::BeachDyoRequest>();
  CLI::App* d = tac->add_subcommand("beach-dyo",
                                    "The whole DYO beach procedure, G13.91-.99, every roll shown");
  d->add_option("--board", dyo->board.name,
                std::string(kBoardHelp) + ", with Beach and OCEAN overlays")
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
  AddSettingsOptions(d, dyo->settings);
  d->footer(
      "Example:\n  opsim tactical beach-dyo --board g13_23 --seed 7 --tide "
      "low "
      "--allied-vs-japanese --year 1944");
  Bind(d, ctx, [&ctx, dyo] { return Print(ctx, query::AnswerBeachDyo(*dyo)); });

  auto sam = std::make_shared<query::SamuraiMoveRequest>();
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
  s->add_option("--board", sam->board.name,
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
  Bind(s, ctx, [&ctx, sam] { return Print(ctx, query::AnswerSamuraiMove(*sam)); });

  CLI::App* bl = tac->add_subcommand(
      "boards", "The bundled boards (scenarios/tactical/), which every --board takes by name");
  bl->footer("Example:\n  opsim tactical boards");
  Bind(bl, ctx, [&ctx] { return Print(ctx, query::AnswerTacticalBoards()); });

  auto render = std::make_shared<RenderArgs>();
  CLI::App* r = tac->add_subcommand(
      "render",
      "Draw a board as SVG: hexes, terrain, levels, banks, beach zones, counters, units, a "
      "legend; with --los a LOS thread, with --path a unit's path, each with its answer");
  r->add_option("--board", render->request.board.name, kBoardHelp)->required();
  r->add_option("--out", render->out, "The SVG file to write")->required();
  AddForceOption(r, render->force);
  r->add_option("--los", render->request.los_ends,
                "Draw the LOS between two positions or board units, FIRER,TARGET: as tactical "
                "los --from FIRER --to TARGET answers, with the options below");
  r->add_option("--path", render->request.move.path,
                "Draw a unit's path, each step's cost and rule: as tactical move --path answers, "
                "with the options below");
  AddUnitOptions(r, &render->request.move, &render->request.settings);
  AddLosOptions(r, &render->request.los);
  r->footer(
      "Examples:\n"
      "  opsim tactical render --board g8_2108 --paddy in-season --los A,D --out g8.svg\n"
      "  opsim tactical render --board g9_3 --pto --path 37EE8,37DD7 --out g9.svg\n"
      "--out is written whole or not at all, and replaces only an SVG drawing unless --force "
      "(docs/output-files.md).");
  Bind(r, ctx, [&ctx, render] { return RunRender(ctx, *render); });

  auto loss = std::make_shared<query::LossTestRequest>();
  CLI::App* lt = tac->add_subcommand(
      "loss-test", "The river Loss Test: one d20 per model, 1-10 safe, 11+ a casualty");
  lt->add_option("--models", loss->models, "Models in the unit, 1 to 1000")->required();
  lt->add_option("--seed", loss->seed, "Seed: the same seed gives the same rolls anywhere")
      ->check(kSeedRange)
      ->required();
  lt->footer("Example:\n  opsim tactical loss-test --models 6 --seed 42");
  Bind(lt, ctx, [&ctx, loss] { return Print(ctx, query::AnswerLossTest(*loss)); });
}

}  // namespace opsim::cli
