// A fair game's player-turn written to its log (docs/dice.md): what the game by mail (mail.cpp)
// and a hosted game's orders and reply (play.cpp) share, said once.
//
// A Seat is the log opened for writing inside one transaction (rolled back unless committed),
// read once its lock is held: where the log stands, what is pending in it (meta
// db::kOrdersPendingMeta, outside the hash chain), and the game as it stands. The mover's orders
// are checked as the rules check them (libops) before anything is fixed (PendOrders); the orders
// and the defender's reply become one player-turn (Answer), played and logged in one place
// (PlayPending). Nothing here commits: the caller does, once everything it writes is written.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"
#include "opsim/db/game_log.h"
#include "opsim/db/turn_log.h"
#include "opsim/ops/game.h"

namespace opsim::query::fair {

struct Seat {
  std::unique_ptr<db::TurnLog> log;  // on the heap: the transaction points to it
  std::optional<db::TurnLog::Transaction> tx;
  std::string head;
  std::int32_t number = 0;                // the player-turn to come
  std::optional<nlohmann::json> pending;  // the pending player-turn, if it is this one's
  std::optional<ops::Game> game;          // as the log stands, read once the lock is held
};

// Opens the fair log at `address` for writing into `seat` (kInvalidInput for a seeded log).
Status OpenSeat(const std::string& address, Seat& seat);
// Takes the seat's write lock and reads where the log stands, what is pending in it and the game
// as it stands. kWrongTurn while a player-turn is in play step by step (B1.3); kCorruption for
// a pending player-turn that does not read; kInvalidInput once every key has been used.
Status Sit(Seat& seat, const std::string& address);

// The pending player-turn in a log's metadata (db::kOrdersPendingMeta, of the log at `where`),
// if any. The metadata is outside the chain: one without every field, of its type, that the steps
// read is refused (kCorruption), never thrown on.
Result<std::optional<nlohmann::json>> ReadPending(const std::map<std::string, std::string>& meta,
                                                  const std::string& where);

// The mover's orders and the defender's reply as the player-turn will play them: one orders
// text, parsed (errors name `name`); its retreat preferences the defender's own (B7.5, reported at
// `retreats_where`); in the canonical form the log stores, split into both players' decisions.
struct Answered {
  ops::Orders orders;
  db::Decisions decisions;
};
Result<Answered> Answer(const ops::Game& game, const std::string& orders,
                        const nlohmann::json& reply, Side defender, const std::string& name,
                        const std::string& retreats_where);

// The attacks orders announce, as the defender is shown them: [{"hex", "units",
// "canal_intensive", "if-flooded"}].
nlohmann::json Attacks(const ops::Orders& o, const map::Theater& t);

// The mover's orders, checked before anything is fixed: for the player-turn due (side and
// date), with no dice (a fair game's come from both keys) and no reply (flood attempts and
// retreat preferences are the defender's). `canonical` is what their hash is of
// (Decisions::orders).
struct MoverOrders {
  ops::Orders parsed;
  std::string canonical;
};
Result<MoverOrders> CheckMoverOrders(const ops::Game& game, const JsonSource& orders);

// Checks the mover's orders for the seat's player-turn (CheckMoverOrders, then what the rules
// refuse before the first die) and makes them its pending orders. The same orders again are
// allowed (a resent turn file), other orders are not. Returns the turn file's fields but its
// header: {"game", "number", "side", "date", "head", "orders", "orders_hash", "attacks"}.
Result<nlohmann::json> PendOrders(Seat& seat, const JsonSource& orders);

// Plays the seat's player-turn from `orders` with `fair`'s keys, logs it and clears what was
// pending: the player-turn played, and the log's head after it.
struct Logged {
  ops::TurnResult turn;
  std::string head;
};
Result<Logged> PlayPending(Seat& seat, const ops::Orders& orders, const db::FairTurn& fair);

}  // namespace opsim::query::fair
