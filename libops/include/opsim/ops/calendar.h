// The game calendar: two game turns a month ("Jan I 1942", "Jan II 1942"), each made of the
// first side's player-turn and then the second side's.
//
// A game turn is numbered from 0 at the scenario's start; a player-turn's serial number is
// 2 × game turn + 0 for the first side, + 1 for the second. Floods and markers expire against
// these serials. Pure value types; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "opsim/core/error.h"

namespace opsim::ops {

// A calendar date at game-turn resolution.
struct GameDate {
  int year = 1939;
  int month = 1;  // 1..12
  int half = 1;   // 1 (I) or 2 (II)
  friend auto operator<=>(const GameDate&, const GameDate&) = default;
};

// "Jan I 1942" <-> GameDate.
Result<GameDate> ParseGameDate(std::string_view text);
std::string FormatGameDate(const GameDate& d);
// The date `turns` game turns after `start`.
GameDate AddTurns(const GameDate& start, int turns);
const char* MonthName(int month);  // "Jan"

enum class Phase : std::uint8_t { kInitial, kMovement, kCombat, kExploitation };
const char* PhaseName(Phase p);  // "initial", ...
// "movement" -> Phase; kInvalidInput names the four phases.
Result<Phase> ParsePhase(std::string_view text);

}  // namespace opsim::ops
