// `opsim tactical ...`'s answers (docs/tactical.md), which `opsim serve` sends too (docs/api.md,
// "The tactical module"): a board opened from a bundled name, a file or an uploaded text, with
// the scenario settings applied; then a LOS, a move, a drawing, a panji set-up, the DYO beach
// procedure, a samurai-era move or a Loss Test, each as its JSON (what --json prints), its text
// and, for a LOS or a move, what a drawing of it shows. The rules are libtactical's; nothing
// here decides one. The CLI fills the requests from its options, the server from a JSON body
// (ParseTacticalRequest), so both ask and answer alike. Errors are the CLI's: kInvalidInput
// naming the option ("--paddy 'x': expected ...") and the rule where one refuses, kNotFound for
// an unknown board. Thread-safe: nothing is shared between calls.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"
#include "opsim/query/tactical_render.h"
#include "opsim/tactical/board.h"
#include "opsim/tactical/paddy.h"

namespace opsim::query {

// The bundled boards' folder: scenarios/tactical/ beside the bundled scenarios (ScenarioDir).
std::string TacticalBoardDir();

// Where a board comes from: a bundled board's name (`--board g8_2108`), a file (the CLI's
// `--board` only), or a board file's text (the server's "board_text", named `file_name` in
// errors: "mine.json:12: ...").
struct BoardSource {
  std::string name;
  bool names_only = false;  // a bundled board's name, never a file (the server)
  std::optional<std::string> text;
  std::string file_name = "board.json";
  bool given() const { return !name.empty() || text.has_value(); }
};

// The scenario settings every board command may override (--paddy, --ec, ...); --seed rolls a
// DYO paddy state, the Panji MC and the Swamping DR.
struct BoardSettings {
  std::string paddy, ec, slope, tide, reef, water, seawall;
  bool surf = false, pto = false, coral_soil = false, night = false, frozen = false;
  std::optional<std::uint64_t> seed;
};

// One end of a LOS: a board unit's name or a position (HEX[:PLACE]), and what stands there.
struct LosEndRequest {
  std::string at, unit;
  bool entrenched = false, crest = false, empty = false;
  int level = 0;  // levels above its hex, -9 to 9
};

struct LosRequest {
  std::string attack = "small-arms";
  LosEndRequest from, to;
};

// A moving unit and its path (`tactical move`, `tactical render --path`).
struct MoveRequest {
  std::string path;  // the start position, then steps, comma-separated (tactical::SplitPath)
  std::string unit = "infantry", phase = "movement", transport = "horse", transport_at;
  std::vector<std::string> flags;
  std::optional<int> allowance, printed_mp;
  bool double_time = false, assault_movement = false, low_crawl = false, armored_assault = false;
  int morale = 7;
  int stack = 1;  // 1 to kMaxStack
};

// --stack: the units moving together; a stack holds far fewer (A5.1).
inline constexpr int kMaxStack = 100;
// A path's positions, start included: a unit's move is a few dozen steps; this bounds what one
// question costs (and its answer's size).
inline constexpr std::size_t kMaxPathSteps = 1000;

// One question about a board: los (its two ends), move (its path), or render (a drawing, with
// `los_ends` "FIRER,TARGET" and the move's path, each optional).
struct TacticalRequest {
  BoardSource board;
  BoardSettings settings;
  LosRequest los;
  MoveRequest move;
  std::string los_ends;
};

enum class TacticalCommand : std::uint8_t { kLos, kMove, kRender };

// A request body (docs/api.md): one flat JSON object whose keys are the CLI options' names with
// '-' written '_' ("board" or "board_text" with "board_file_name", the settings, then the
// command's own). kInvalidInput, located in the body, for an unknown key, a value of the wrong
// type or outside the CLI option's range, a board name that could be a path ('/' or '.'), or a
// board given twice or not at all. What the board or the rules refuse is left to the answer.
Result<TacticalRequest> ParseTacticalRequest(const JsonSource& body, TacticalCommand command);

// A board opened for questions: loaded, its settings applied, its set-up checked.
struct OpenedBoard {
  tactical::Board board;
  std::optional<tactical::PaddyStateRoll> roll;  // a DYO paddy state (--paddy dyo)
  std::optional<std::uint64_t> seed;
};

// Loads the board, applies the settings, and checks that its set-up is legal (G8.7, G9.1,
// G13.1...); `check_panjis` false leaves the panjis to panji-setup, which answers with their
// problems instead of refusing the board.
Result<OpenedBoard> OpenTacticalBoard(const BoardSource& source, const BoardSettings& settings,
                                      bool check_panjis = true);

// An answer: its JSON, its text, and what a drawing of it shows (for a LOS or a move).
struct TacticalAnswer {
  nlohmann::json doc;
  std::string text;
  BoardOverlay overlay;
};

Result<TacticalAnswer> AnswerTacticalLos(const OpenedBoard& b, const LosRequest& request);
Result<TacticalAnswer> AnswerTacticalMove(const OpenedBoard& b, const MoveRequest& request);

// A drawing (RenderBoardSvg) with the LOS and the path the request asks for: `doc` holds
// "board" and the "los" and "move" answers drawn; `text` their verdicts, a line each.
struct TacticalDrawing {
  nlohmann::json doc;
  std::string text;
  std::string svg;
};
Result<TacticalDrawing> AnswerTacticalRender(const OpenedBoard& b, const TacticalRequest& request);

// The bundled boards, each with its size, grids and units (and "path", its file).
Result<TacticalAnswer> AnswerTacticalBoards();

struct PanjiSetupRequest {
  std::optional<int> ob;         // Covered hexsides the OB allots (G9.1)
  std::vector<std::string> hip;  // hidden Panji counters' HIP records (G9.11)
};
// Opened with check_panjis false.
Result<TacticalAnswer> AnswerPanjiSetup(OpenedBoard b, const PanjiSetupRequest& request);

struct BeachDyoRequest {
  BoardSource board;
  BoardSettings settings;
  std::optional<std::uint64_t> seed;  // required
  bool allied_vs_japanese = false, non_us = false;
  int year = 1944;
};
Result<TacticalAnswer> AnswerBeachDyo(const BeachDyoRequest& request);

// --models: one d20 each (SAM-LT.1), so a count is bounded: 2,000,000,000 took 8 GB.
inline constexpr int kMaxModels = 1000;

struct SamuraiMoveRequest {
  std::string unit, order, path, enemy;
  BoardSource board;  // none: the path names terrains
  std::optional<int> allowance, models;
  std::optional<std::uint64_t> seed;
};
Result<TacticalAnswer> AnswerSamuraiMove(const SamuraiMoveRequest& request);

struct LossTestRequest {
  std::optional<int> models;
  std::optional<std::uint64_t> seed;
};
Result<TacticalAnswer> AnswerLossTest(const LossTestRequest& request);

}  // namespace opsim::query
