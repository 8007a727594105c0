// The PBEM exchange (docs/pbem.md): a fair game (docs/dice.md) played between two players'
// own logs, who trade only small JSON files.
//
// Setting up: Start (the first player: a key file and an invitation holding the scenario and
// his commitment), Join (the second: his key file, his log, an acceptance with his commitment),
// Accept (the first makes his log; both logs now start alike). Each player-turn then: Move (the
// mover's orders become pending in his log; a turn file), Reply (the defender checks the turn
// file against his log, fixes his reply as pending and reveals his key; a reply file), Resolve
// (the mover checks the reply and its key, reveals his own key, plays and logs the player-turn;
// a result file), Apply (the defender checks the result against his pending reply, plays the
// same player-turn with the same dice, and checks that both logs now have the same head).
//
// It promises: each step changes its log in one transaction, or not at all; a player's secret
// is only in his key file (created 0600, never overwritten), never in a log or an exchange
// file; the pending state (outside the hash chain, meta key `pbem_pending`) is cleared when the
// player-turn is logged. Errors: kWrongTurn for a file of another game or player-turn, or a log
// that diverged; kCorruption for a file that does not match its hashes, the pending orders or
// reply, or a key that does not match its commitment; kInvalidInput for a step out of order.
// Each call opens its own connection; the exchange files are written atomically. The log
// (db/) only stores: what each step checks and plays is decided here and in libops, with what a
// hosted game's orders and reply share (src/fair_seat.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"
#include "opsim/ops/game.h"

namespace opsim::query::mail {

// The key file: `key` when named, else beside the log, its path and ".key". A log in PostgreSQL
// has no folder to hold one: its key file must be named (kInvalidInput).
Result<std::string> KeyPathFor(const std::string& db_path, const std::string& key);

// Each step returns what it did, as the JSON the CLI prints; a written file is at "file". `out`
// replaces only another pbem file unless `force` (WriteOutputFile: never a key file, a link, a
// folder or a device), and is checked before anything is changed: a refused `out` changes
// nothing. Start and Join refuse an `out` or `db_path` that is the key file.
Result<nlohmann::json> Start(const JsonSource& scenario, Side side, const std::string& db_path,
                             const std::string& key_path, const std::string& out, bool force);
Result<nlohmann::json> Join(const JsonSource& invitation, const std::string& db_path,
                            const std::string& key_path, const std::string& out, bool force);
Result<nlohmann::json> Accept(const JsonSource& invitation, const JsonSource& acceptance,
                              const std::string& db_path, const std::string& key_path);
Result<nlohmann::json> Move(const std::string& db_path, const std::string& key_path,
                            const JsonSource& orders, const std::string& out, bool force);
// `reply` holds only the orders keys "reactions" and "retreats"; none: no reply. Before the reply
// is fixed, the turn file's orders get every check Move makes (kInvalidInput; kRuleViolation for
// what the rules refuse before the first die), and each flood attempt is checked against the
// attacks they announce (kRuleViolation, 41.A.4).
Result<nlohmann::json> Reply(const std::string& db_path, const std::string& key_path,
                             const JsonSource& turn, const JsonSource* reply,
                             const std::string& out, bool force);

struct Played {
  nlohmann::json doc;
  ops::TurnResult turn;
};
Result<Played> Resolve(const std::string& db_path, const std::string& key_path,
                       const JsonSource& reply, const std::string& out, bool force);
// Apply logs the player-turn only if it ends in the result's final_hash and head (kCorruption).
Result<Played> Apply(const std::string& db_path, const std::string& key_path,
                     const JsonSource& result);

}  // namespace opsim::query::mail
