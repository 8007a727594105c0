// The rules version: which edition of the rules' outcomes and explanations this build plays.
//
// A turn log records the version that played each player-turn (docs/log-format.md). Replay
// holds a player-turn played at this build's version to its logged events exactly, and only
// reports the events of one played at another version, so that rewording an event does not make
// older logs look tampered with. Raise it whenever the rules' outcomes or their explanations
// change: an event's kind, rule, units, hexes, numbers or text, or what a die roll says it was
// for or decided. A plain constant; thread-safe.
#pragma once

#include <cstdint>

namespace opsim::ops {

// 1: logs written before the version was recorded (their events are text, kind and rule only).
// 2: events carry their units, hexes and numbers.
// 3: an attack across a hexside Rule 41 makes a major river cites the clause (41.A.1, 41.E.2,
//    41.E.3); an exit says its MP cost (41.F).
inline constexpr std::int32_t kRulesVersion = 4;

}  // namespace opsim::ops
