// Queries on a turn log (docs/log-format.md): `opsim status` (where a logged game stands) and
// `opsim log` (its logged player-turns, every roll and event with its rule).
//
// Each call opens the log for reading on its own connection (see opsim/db/game_log.h), so calls
// may run on different threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "opsim/db/game_log.h"

namespace opsim::query {

// Where a game stands: the next player-turn to play, {date, game_turn, phasing, phase}.
nlohmann::json NextJson(const ops::GameState& s);

struct StatusAnswer {
  std::string db;
  db::LoggedGame game;  // after `at` logged player-turns, or all of them (and how many there are)
};
Result<StatusAnswer> AnswerStatus(const std::string& db_path, std::optional<std::int32_t> at);
// The weather, the Suez Canal (41.B), floods (41.A.4), ice airfields (41.A.3), markers, SRP
// pools and exit totals (41.F), unit counts, units out of supply (B8) and the state hash.
nlohmann::json ToJson(const StatusAnswer& a);

struct LogAnswer {
  std::string db;
  std::string scenario;
  std::uint64_t seed = 0;
  std::int32_t turns_logged = 0;
  std::vector<db::LoggedTurn> turns;  // the one asked for, or all of them
  // With `phases`, by turn: each phase as the turn's replay ended it (db::ReplayLoggedTurns), and
  // whether the replay said as many events as the log holds (a log from another rules version
  // may not).
  struct TurnPhases {
    std::vector<ops::PhaseHash> ends;
    bool same_events = true;
  };
  std::vector<TurnPhases> phases;
  // With `steps`: the one player-turn asked for, taken again step by step (db::LoadLoggedSteps).
  std::optional<db::LoggedSteps> steps;
};
// `turn` numbers from 1; absent: every logged player-turn. `phases` also replays each player-turn
// (checked as `opsim replay` checks it) to tell which of its events and rolls each phase's are.
// `steps` (which needs `turn`, else kInvalidInput) also takes that player-turn again step by
// step to tell which of them each step's are.
Result<LogAnswer> AnswerLog(const std::string& db_path, std::optional<std::int32_t> turn,
                            bool phases = false, bool steps = false);
// A logged player-turn: {"number", "serial", "side", "date", "orders", "rolls", "events",
// "phases" ({"phase", "state_hash"}), "final_hash", "logged_at"}.
nlohmann::json ToJson(const db::LoggedTurn& t);
// A player-turn just played (`opsim turn --json`), in the same names: the logged player-turn's
// keys without "number", "orders" and "logged_at", which only the log has.
nlohmann::json ToJson(const ops::TurnResult& r);
// One event, the same in every answer (`opsim log`, `opsim turn`, `opsim check`, the API):
// {"kind", "rule", "text"} and its content as data (docs/rules.md), "units", "hexes" and
// "numbers", each when it has any (a schema-1 log's events have none).
nlohmann::json ToJson(const db::LoggedEvent& e);
nlohmann::json ToJson(const ops::Event& e);
// A die roll as `opsim turn`, `opsim play` and the log say it: value, sides, scripted, purpose,
// rule, decided.
nlohmann::json ToJson(const db::LoggedRoll& r);
nlohmann::json ToJson(const ops::DieRoll& d);
// With phases, each turn's "phases" entries also give "events" and "rolls": [from, to), the
// indices of that phase's in the turn's lists ("events" only with same_events). With steps, the
// turn gains "played_by" ("steps" or "orders": then its steps are its orders' script), "begun"
// (the events and rolls before the first step) and "steps": each {"number", "side", "step" (its
// JSON), "events", "rolls"}, the ranges as the phases'.
nlohmann::json ToJson(const LogAnswer& a);

// `opsim replay`: the game rebuilt from its log's orders and dice, every roll, event and state
// hash checked (db::ReplayLog: kCorruption at the first row that differs; the differences that
// are not tampering in the report).
Result<db::ReplayReport> ReplayGame(const std::string& db_path, const db::ReplayOptions& options);

// A log's address as messages show it: a PostgreSQL URI without its password, a path as it is.
std::string ShownAddress(const std::string& address);

// The SHA-256 of the scenario a log plays (hex): what its theater's ETag is made of.
Result<std::string> ScenarioSha256(const std::string& db_path);

// A game's dice (docs/dice.md): {"dice": "seeded", "seed"}, or for a fair game {"dice": "fair",
// "game_id", "axis_commitment", "allied_commitment", "turns"}, each logged player-turn's
// {"number", "side", "axis_key", "allied_key", "orders_hash", "reply_hash"}: what anyone may
// check the rolls against.
Result<nlohmann::json> AnswerDice(const std::string& db_path);

}  // namespace opsim::query
