// The turn log: a campaign's every player-turn in an SQLite file (docs/log-format.md).
//
// These calls join the log file (turn_log.h) to the rules: they start a logged game, append a
// played player-turn (libquery's door plays it: opsim/query/play.h), rebuild the game at any
// logged turn, replay and verify a whole log, and branch a new log from a logged turn. The log
// stores the scenario's text, the seed, the canonical orders, every die roll, event and phase hash,
// and a snapshot at each turn boundary; a game is rebuilt from the nearest readable snapshot and
// the logged orders, and every replayed player-turn must reproduce what was logged, or the call
// fails with kCorruption. Every call that opens a log checks its tail first (TurnLog::CheckTail);
// one that appends checks it again under the write lock: a log whose last snapshot is not the state
// its last player-turn ended in is refused (kCorruption), never answered from or appended to.
//
// What must be reproduced: the orders must read, and the dice (value, sides, scripted, rule)
// and the state hashes must be the log's. Events compare by content (kind, rule, units, hexes,
// numbers; kind and rule in a schema-1 log), never by text. A player-turn played at another
// rules version (ops::kRulesVersion) may differ in its events' content and have events added or
// missing; those, the events' text and the dice's purpose and decision are differences that
// ReplayLog reports, not tampering. At this build's rules version an event's content must match.
//
// "After N player-turns" (`--at N`) counts logged player-turns: 0 is the start, and N is the
// state once the Nth logged player-turn has been played.
//
// Threading: each call opens its own connection, so calls may run on different threads or in
// different processes; writers to one file take turns (kBusy after the busy timeout).
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/core/fair_dice.h"
#include "opsim/core/json_source.h"
#include "opsim/db/turn_log.h"
#include "opsim/ops/game.h"
#include "opsim/ops/steps.h"

namespace opsim::db {

// A game rebuilt from a log.
struct LoggedGame {
  std::shared_ptr<const map::Theater> theater;
  std::shared_ptr<const ops::Campaign> campaign;
  ops::GameState state;
  std::string scenario_name;
  std::string scenario_sha256;     // of the scenario's text, as the log's game record keeps it
  std::int32_t turns_played = 0;   // player-turns in the log up to `state`
  std::int32_t turns_logged = 0;   // player-turns in the log
  std::int32_t rules_version = 0;  // of the build that started the log (GameRecord)
  DiceKind dice = DiceKind::kSeeded;
  std::string game_id;  // a fair game's
};

// Both players' dice secrets of a fair game (the last keys of their chains, docs/dice.md).
struct FairSecrets {
  Key axis;
  Key allied;
};

// Starts a new log at `db_path` (which must not exist) for `scenario` and `seed` (below 2^63).
Result<LoggedGame> NewLoggedGame(const std::string& db_path, const JsonSource& scenario,
                                 std::uint64_t seed);

// Starts a new fair log (schema 3, docs/dice.md) at `db_path` for `scenario`, with the game's id
// and both players' commitments (hex); both players' logs of a game start identical.
Result<LoggedGame> NewFairLoggedGame(const std::string& db_path, const JsonSource& scenario,
                                     const std::string& game_id, const std::string& axis_commitment,
                                     const std::string& allied_commitment);

// A fair player-turn's revealed keys and the hashes of what each player decided (hex).
struct FairTurn {
  std::string axis_key;
  std::string allied_key;
  std::string orders_hash;  // Sha256Hex of Decisions::orders
  std::string reply_hash;   // Sha256Hex of Decisions::reply
};
// Canonical orders (CanonicalOrders) split into what the mover decided and what the defender
// decided: his reply, the keys `reactions` and `retreats`. Both compact JSON objects, keys
// sorted. Pure; thread-safe.
struct Decisions {
  std::string orders;
  std::string reply;
};
Decisions SplitDecisions(const std::string& canonical_orders);
// The orders keys that are the defender's reply: flood attempts (41.A.4), retreat preferences
// (B7.5). A reply where he decided nothing is "{}".
inline constexpr const char* kReplyKeys[] = {"reactions", "retreats"};
// The keys of a fair game's player-turns checked so far: the axis player's, the allied player's.
using CheckedKeys = std::array<std::optional<KnownKey>, 2>;
// Both players' keys for fair player-turn `number` of `game` (the axis player's, then the
// allied player's), once each is checked against its player's commitment (kCorruption names the
// key that does not match). With `checked`, kept across a replay's player-turns, each key is
// hashed down only to the one checked before it.
Result<std::array<Key, 2>> FairKeysFor(const GameRecord& game, std::int32_t number,
                                       const FairTurn& turn, CheckedKeys* checked = nullptr);
// The dice of fair player-turn `number` of `game` played from orders (FairKeysFor's keys, over
// the hash of both players' decisions).
Result<KeyedDice> FairDiceFor(const GameRecord& game, std::int32_t number, const FairTurn& turn,
                              CheckedKeys* checked = nullptr);
// The dice of fair player-turn `number` of game `game_id` played step by step: each step's from
// both keys over the hash of the steps so far (ops::StepDecisions; docs/dice.md).
ops::StepDice FairStepDice(const std::array<Key, 2>& keys, const std::string& game_id,
                           std::int32_t number);

// The game after `at` logged player-turns (all of them when absent), from the nearest
// snapshot and the logged orders and dice.
Result<LoggedGame> LoadLoggedGame(const std::string& db_path, std::optional<std::int32_t> at);

// Logged player-turn `number` (from 1) phase by phase: the game after the player-turns before
// it (as LoadLoggedGame), then that player-turn replayed with its logged orders and dice and
// checked as ReplayLog checks it, every phase's state hash included (kCorruption if any
// differs from the log).
struct LoggedPhases {
  LoggedGame game;                     // after the player-turn
  ops::TurnResult replayed;            // its hashes say where each phase's events and rolls end
  std::vector<ops::GameState> states;  // after each phase, as Game::Play's `phases`
};
Result<LoggedPhases> LoadLoggedPhases(const std::string& db_path, std::int32_t number);
// Logged player-turn `number` (from 1) step by step (B1.3): checked whole as LoadLoggedPhases
// checks it, then taken again from where it began, one step at a time, with the dice it was
// played with. A player-turn played from orders is taken as the steps its orders are the script
// of (ops::PlayScript). `taken` (0 to the number of steps, else kInvalidInput) says after how
// many steps `game` stands: 0 is the player-turn begun (its weather rolled and its initial
// phase's automatic part played), every step is the player-turn's end.
struct LoggedSteps {
  LoggedGame game;  // after the first `taken` steps (turns_played: `number` once all are taken)
  std::size_t taken = 0;
  bool by_steps = false;                   // played step by step; else from orders, as their script
  std::vector<ops::LoggedStep> steps;      // every step of the player-turn, in order
  std::vector<ops::StepOutcome> outcomes;  // what each step added to `result`'s events and rolls
  ops::TurnResult result;                  // the whole player-turn as its steps played it
  ops::Prompt prompt;                      // what the game waited for after `taken` steps
};
Result<LoggedSteps> LoadLoggedSteps(const std::string& db_path, std::int32_t number,
                                    std::size_t taken);
// Logged player-turns `first` to `last` (from 1) replayed and checked as LoadLoggedPhases checks
// one, in one pass and without the states: each one's result (its hashes say where each
// phase's events and rolls end).
Result<std::vector<ops::TurnResult>> ReplayLoggedTurns(const std::string& db_path,
                                                       std::int32_t first, std::int32_t last);

// The orders as the log stores them: their canonical JSON (ops::OrdersToJson), checked to read
// back as the same orders, which replay needs (kInternal if not: such orders must not be
// logged). Pure; thread-safe.
Result<std::string> CanonicalOrders(const ops::Orders& orders, const map::Theater& theater);

// A player-turn played and logged on a log that is already open (libquery's PlayTurn and step
// play; programs that keep one open and play many player-turns): plays the phasing side's
// player-turn from `orders` on `game` and appends it to `log` as player-turn `number`, inside
// `log`'s open transaction (the caller commits). The canonical orders are made and checked on a
// second thread while the rules play, and the snapshot is made on it while the player-turn's rows
// are written. On error nothing is appended, but `game` may have played the turn. With `fair` (a
// fair game), the player-turn is played with FairDiceFor's dice and logged with its keys and
// hashes.
Result<ops::TurnResult> PlayAndAppend(ops::Game& game, const ops::Orders& orders, TurnLog& log,
                                      std::int32_t number, const FairTurn* fair = nullptr);

// --- A log already open, for the door that plays on one (libquery's step play) ---------------

// The static side of a logged game, built from the logged scenario and seed. The last few built
// are kept (by the scenario's SHA-256, its name and the seed), so a game loaded again, or a new
// log's first load, reuses them; games share them (immutable once built).
struct Rules {
  std::shared_ptr<const map::Theater> theater;
  std::shared_ptr<const ops::Campaign> campaign;
};
Result<Rules> BuildRules(const TurnLog& log);

// The game after `target` logged player-turns: from the newest snapshot this build can read at
// or before it (else from the start), then the logged player-turns after that, each checked.
Result<ops::Game> GameAt(const TurnLog& log, const Rules& rules, std::int32_t target);

// Appends a player-turn already played (`played`, ending in `after`; `canonical`, its canonical
// orders) to `log` as player-turn `number`, inside its open transaction; a fair one with its
// keys and hashes. The snapshot is made while the rows are written.
Status AppendPlayed(TurnLog& log, std::int32_t number, std::string canonical,
                    const ops::TurnResult& played, const ops::GameState& after,
                    const FairTurn* fair);

struct ReplayOptions {
  std::optional<std::int32_t> to;  // stop after this many player-turns; all when absent
  bool verify = false;             // also check the hash chain and every snapshot
  Progress progress;               // (player-turns replayed, player-turns to replay)
};

// A way a replayed player-turn differs from its log that is not tampering (see above).
struct ReplayDifference {
  std::int32_t turn = 0;  // the logged player-turn
  std::int64_t seq = 0;   // the logged row; 0 for an event only the replay has
  std::string what;       // "event 4 (combat)", "die roll 2 ('weather in zone A')"
  std::string change;     // "wording", "content", "added", "missing"
  std::string logged;     // as the log has it ("" when added)
  std::string replayed;   // as this build has it ("" when missing)
};

struct ReplayReport {
  LoggedGame game;                            // the game after the last player-turn replayed
  std::int64_t rolls = 0;                     // die rolls matched
  std::int64_t events = 0;                    // events matched
  std::int64_t hashes = 0;                    // phase and turn state hashes matched
  std::optional<ChainReport> chain;           // with verify
  std::int32_t snapshots_loaded = 0;          // with verify: read and equal to the replayed state
  std::int32_t snapshots_unreadable = 0;      // with verify: a format this build cannot read (their
                                              // state hashes still matched)
  std::vector<ReplayDifference> differences;  // in the order replayed
};

// Rebuilds the game from the start from the logged orders and dice, and checks that every
// player-turn reproduces its logged rolls, events and state hashes. kCorruption names the
// first row that differs (as above) or breaks the chain; the differences that are not
// tampering are in the report.
Result<ReplayReport> ReplayLog(const std::string& db_path, const ReplayOptions& options);

struct BranchReport {
  std::int32_t turns = 0;  // player-turns copied
  std::string head;        // the new log's last row hash (equal to the source's at that turn)
  std::string state_hash;  // the state it starts from
  ops::GameState state;
};

// Starts a new log at `out_path` holding the source's game and its first `at` player-turns,
// each replayed and checked before it is written; play continues from there. The new log is
// this build's: its schema, its rules version, and the events as this build replayed them.
Result<BranchReport> BranchLog(const std::string& db_path, std::int32_t at,
                               const std::string& out_path, const Progress& progress = {});

}  // namespace opsim::db
