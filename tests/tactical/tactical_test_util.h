// Helpers the tactical tests share: the rules' illustration boards, moves, LOS ends, and the CLI
// run in-process with --json.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opsim/tactical/board.h"
#include "opsim/tactical/los.h"
#include "opsim/tactical/movement.h"
#include "test_support.h"

namespace opsim::tactical::test {

// scenarios/tactical/<name>.json
std::string BoardPath(const std::string& name);
// An illustration board, with its settings overridden by `settings` (mutated before return);
// the test fails if it does not load.
Board Illustration(const std::string& name);
// The G8.2108 board with the paddies in `state` and EC `ec`.
Board Paddies(PaddyState state, Ec ec = Ec::kModerate);
// A G13 board (g13_23 or g13_62) with the beach's Slope set.
Board Beach(Slope slope, const std::string& name = "g13_23");

// A board file; the test fails if it does not load.
Board LoadFile(const std::string& path);
// Does a step of a move carry a note citing `rule`?
bool HasNote(const StepReport& s, const std::string& rule);

// The position a token names on `b`; the test fails if it does not.
Position At(const Board& b, const std::string& token);
GridPos Hex(const Board& b, const std::string& token);
// A LOS end: a board unit by name, or a position with an Infantry unit.
LosEnd End(const Board& b, const std::string& unit_or_position);
// Evaluates a comma-separated path; the test fails if the request is not understood.
MoveReport Move(const Board& b, const MoveOptions& o, const std::string& path);
MoveOptions Infantry();
// The MF/MP of each step after the start, as numbers (2.5 for 2½).
std::vector<double> StepCosts(const MoveReport& r);

// tests/tactical/boards/<name>.json: small boards for single rules.
std::string FixturePath(const std::string& name);

// A board file (`base`, a path) with `patch` merged in (objects merged, arrays appended), written
// to a scratch directory for CLI tests: {"hexsides": [{"hexes": "oL2-oL3", "breached": true}]}.
class TempBoard {
 public:
  TempBoard(const std::string& base, const std::string& patch);
  const std::string& path() const { return path_; }

 private:
  opsim::test::TempDir dir_;
  std::string path_;
};

// `opsim tactical <args> --json`, run in-process: the one JSON object it prints. The test fails
// unless the exit code is `code`.
nlohmann::json Cli(const std::vector<std::string>& args, int code = 0);
// The "cost" of each step after the start in a `move --json` document.
std::vector<double> CliStepCosts(const nlohmann::json& doc);

}  // namespace opsim::tactical::test
