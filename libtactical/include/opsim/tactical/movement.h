// Movement: what a unit pays, step by step, to move along a path, and whether it may.
//
// A path is a list of tokens. The first is where the unit starts; each later one is a step:
//   HEX[:PLACE]   move to that position: into an adjacent hex, or to another place in the same
//                 hex (oL3 -> oL3:bank is G8.2104, 37EE7:above -> 37EE7:beneath is G9.5);
//   HEX~NEIGHBOR  Bypass HEX along its hexside with NEIGHBOR (G9.46);
//   +ACTION       mount, dismount, bailout (G8.2112), pinned, broken, melee, disband (G8.2111),
//                 breach:HEX (a dozer breaches that bank hexside, G8.8), search:HEX (G9.48).
// Each step yields charges (MF or MP, each naming its rule), notes (a Panji MC to take, a
// Swamping DR, a Panji counter revealed...) and possibly a refusal: the rule that forbids it.
// A refused step ends the evaluation; a path with no refusal is legal. Requests that cannot be
// understood (a bad token, an unknown hex, a step to a hex that is not adjacent, a place that
// is not in the hex) are errors, not refusals. Dice are rolled (Panji MC, Swamping) only when a
// seed is given, through opsim::Dice. Thread-safe: EvaluateMove reads the board and writes
// only its result.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/tactical/board.h"
#include "opsim/tactical/cost.h"
#include "opsim/tactical/position.h"
#include "opsim/tactical/unit.h"

namespace opsim::tactical {

enum class Phase { kMovement, kAdvance, kRout };
const char* Name(Phase p);
std::optional<Phase> ParsePhase(std::string_view s);

// What a unit mounts with +mount, and where it waits (G8.2112, G9.51).
enum class Transport { kHorse, kBicycle, kMotorcycle, kVehicle };
std::optional<Transport> ParseTransport(std::string_view s);

struct MoveOptions {
  Unit unit;
  Phase phase = Phase::kMovement;
  std::optional<Cost> allowance;  // MF/MP; when absent the total is not checked
  bool double_time = false;       // +2 MF, CX (A4.5)
  bool assault_movement = false;
  bool low_crawl = false;
  bool armored_assault = false;
  Transport transport = Transport::kHorse;
  std::optional<Place> transport_at;  // default: where the unit is
  std::optional<int> printed_mp;      // a vehicle's printed MP allotment (G8.8, G13.625)
  std::optional<std::uint64_t> seed;  // roll the Panji MC / Swamping DR with this seed
  int morale = 7;                     // for the Panji MC (G9.31)
  int stack = 1;                      // units moving together as one stack (G9.43)
};

struct Charge {
  Cost cost;
  std::string rule;
  std::string what;
};

struct Note {
  std::string rule;
  std::string text;
};

struct Refusal {
  std::string rule;
  std::string message;
};

struct StepReport {
  std::string token;
  Position from;
  Position to;
  std::vector<Charge> charges;
  std::vector<Note> notes;
  std::optional<Refusal> refusal;

  Cost total() const;
};

struct MoveReport {
  std::vector<StepReport> steps;  // steps[0] is the start
  std::string unit;               // the unit as it ends (a dismounted rider is Infantry)
  bool cx = false;
  bool legal() const;
  Cost total() const;
  const Refusal* refusal() const;
};

// Splits a comma-separated path ("oM5,oM4, oM3") into its tokens, dropping spaces.
std::vector<std::string> SplitPath(std::string_view path);

Result<MoveReport> EvaluateMove(const Board& board, const MoveOptions& options,
                                const std::vector<std::string>& path);

}  // namespace opsim::tactical
