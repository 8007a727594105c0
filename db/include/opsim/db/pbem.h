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
// Each call opens its own connection; the exchange files are written atomically.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "opsim/core/error.h"
#include "opsim/core/fair_dice.h"
#include "opsim/core/json_source.h"
#include "opsim/ops/game.h"

namespace opsim::db::pbem {

// The key file beside a log when none is named: the log's path and ".key".
std::string DefaultKeyPath(const std::string& db_path);

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

// A hosted game (docs/api.md): one server holds both players' secrets and plays both seats on
// one fair log. HostMove checks the mover's orders and makes them pending, as Move does (no turn
// file; kWrongTurn when orders are already pending, even the same ones). HostResolve takes the
// defender's reply (`reply` holds at most "reactions" and "retreats"), plays the player-turn with
// both players' keys for it and logs it, as Resolve does (kWrongTurn when no orders are
// pending). Each answers {"game", "number", ...} as docs/api.md shows.
Result<nlohmann::json> HostMove(const std::string& db_path, const JsonSource& orders);
Result<Played> HostResolve(const std::string& db_path, const Key& axis_secret,
                           const Key& allied_secret, const JsonSource& reply);

// A fair log's pending player-turn, if any: {"stage": "moved" or "replied", "number", "side",
// "orders_hash", "text", "attacks"} ("attacks" as Move answers them; absent in a log whose
// orders were pended before opsim kept them).
Result<std::optional<nlohmann::json>> Pending(const std::string& db_path);

}  // namespace opsim::db::pbem
