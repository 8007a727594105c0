// Playing a game: the one door through which the CLI and the server write to a game, and the
// answers of a player-turn played step by step (docs/rules.md B1.3) that `opsim play` prints and
// the game API sends, one JSON for both (docs/api.md, "Steps").
//
// The door: a new game, a player-turn played whole, a step (through the session OpenSteps
// gives), a hosted game's orders and reply, and whole logs branched or copied; the by-mail
// exchange is mail.h's. Each write is one transaction of the turn log (db/): all of it is
// logged, or none. The rules are libops'; the log decides nothing but whether it may take the
// write (its head, its pending state, its keys). The CLI and the server's routes include no db/
// header: what they write, and what stands between the writes (pending orders, steps in play),
// is asked here.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "opsim/core/fair_dice.h"
#include "opsim/db/game_log.h"
#include "opsim/query/mail.h"
#include "opsim/query/source.h"
#include "opsim/query/steps.h"

namespace opsim::query {

// --- The door -------------------------------------------------------------------------------

// A new seeded game logged at `address`, which must not exist (`opsim new`).
Result<db::LoggedGame> NewGame(const std::string& address, const JsonSource& scenario,
                               std::uint64_t seed);
// A new hosted game at `address`: a fair log (docs/dice.md) with both players' commitments, the
// secrets behind them kept by the server. The game carries its scenario's SHA-256, for the
// server's caches (the theater's ETag).
Result<db::LoggedGame> NewHostedGame(const std::string& address, const JsonSource& scenario,
                                     const std::string& game_id, const std::string& axis_commitment,
                                     const std::string& allied_commitment);

// The phasing side's player-turn played whole from `orders` and logged (`opsim turn --db`), in
// one transaction: all of it is logged, or none. A fair game is refused (it is played by mail or
// hosted), and so are orders while a player-turn is in play step by step (B1.3). `before_commit`,
// if given, is called inside the transaction once every row is written (for tests that
// interrupt a player-turn, and for tools that watch one).
Result<ops::TurnResult> PlayTurn(const std::string& address, const JsonSource& orders,
                                 const std::function<void()>& before_commit = {});

// A hosted game's mover's orders (POST .../orders): checked on `game`, the game as the log stands
// (the server's warm copy), as `opsim turn` would play them, so that a refused order is refused
// with its rule; then checked again under the log's lock and made pending (kWrongTurn when
// orders are already pending). Answers {"game", "number", ...} as docs/api.md shows.
Result<nlohmann::json> SubmitOrders(const LoadedGame& game, const std::string& address,
                                    const JsonSource& orders);
// A hosted game's defender's reply (POST .../reply): the player-turn played with both players'
// keys and logged (kWrongTurn when no orders are pending). Answers as docs/api.md shows.
Result<mail::Played> ReplyToOrders(const std::string& address, const db::FairSecrets& secrets,
                                   const JsonSource& reply);

// A game's step session at its head, the player-turn in play taken up again: written through
// when `secrets` are given for a fair game or the game is seeded, else only looked at
// (StepSession::Open).
Result<StepSession> OpenSteps(const std::string& address, const db::FairSecrets* secrets,
                              bool write);

// What stands between a game's writes: a fair game's pending orders or reply ({"stage",
// "number", "side", "orders_hash", "text", "attacks"}); the steps taken of a player-turn in
// play are steps.h's StepsInPlay.
Result<std::optional<nlohmann::json>> PendingOrders(const std::string& address);
// The same, of a log already open (the games list reads its summary from one).
Result<std::optional<nlohmann::json>> PendingOrders(const db::TurnLog& log);

// Whole logs, row by row. BranchGame: a new log at `out` holding the game at `address` and its
// first `at` player-turns, each replayed and checked before it is written (`opsim branch`;
// db::BranchLog). CopyGame: the log at `from` copied to a new log at `to`, every row as it is
// (the same seq, hashes and log schema), its chain checked on both ends and the copy's head the
// original's (`opsim export`, `import`; nothing of the rules is read).
Result<db::BranchReport> BranchGame(const std::string& address, std::int32_t at,
                                    const std::string& out, const db::Progress& progress = {});
struct CopiedGame {
  std::string from, to;  // as messages show them (ShownAddress)
  std::int32_t schema = 0;
  db::ChainReport copied;
};
Result<CopiedGame> CopyGame(const std::string& from, const std::string& to);
// {"from", "to", "schema", "turns", "rows", "snapshots", "head"}.
nlohmann::json ToJson(const CopiedGame& c);

// --- Step play's answers ----------------------------------------------------------------------

// What the game waits for: {"waiting", "side", "phase", "text"}, and by what it waits for:
// "hex", "attacked", "result", "floods", "retreat_to" (the rules' choice first), "units".
nlohmann::json ToJson(const ops::Prompt& p, const map::Theater& t);

// A step's answer: the player-turn and its step count, the events and rolls this step added
// (with their rules, units, hexes and numbers), what the game waits for now (the next
// player-turn's once this one is logged), whether the last step may be taken back, the state
// hash; with "logged": true when the step ended the player-turn, now in the log.
nlohmann::json ToJson(const StepRecord& r, const StepSession& session);

// Where a player-turn in play stands: its number, steps, prompt, undo and state hash.
nlohmann::json PlayStatusJson(const StepSession& session);
// The same with everything the player-turn did so far, "events" and "rolls" as a step's: for a
// table that joins the player-turn late.
nlohmann::json PlayJson(const StepSession& session);
// The position in play, for the position queries (view.h PositionJson).
LoadedGame PositionInPlay(const StepSession& session);

// The odds an attack would be fought at (StepSession::Preview): "hex", "attackers",
// "attack" and "defense" (strengths), "column", "shift" and "odds" (the column shifted to), "text"
// (as the combat roll says it), "floods" (the owner's attempts open to him, 41.A.4) and "rule".
nlohmann::json ToJson(const ops::AttackPreview& p, const map::Theater& t,
                      const ops::RuleTables& tables);
std::string PreviewText(const nlohmann::json& preview);

// The text the CLI prints for a step's answer and for where a player-turn stands.
std::string StepText(const nlohmann::json& answer);

}  // namespace opsim::query
