// A player-turn played step by step into a turn log (docs/rules.md B1.3; docs/log-format.md,
// "A player-turn played step by step").
//
// A StepSession holds a seeded log open at its head: the game where the last logged player-turn
// left it, and the player-turn in play (ops::StepTurn). The steps taken so far are kept in the
// log's metadata (`steps_pending`), rewritten in one transaction with every step and every
// undo, so no step is lost and a new process goes on where the last one stopped. When the last
// step of a player-turn is taken, the player-turn is logged as one player-turn in the same
// transaction: its orders are the script of its steps, with the steps themselves, and replay
// --verify checks both. The next player-turn then begins.
//
// A fair log is played where both players' dice secrets are kept (a hosted game's server): each
// step's dice come from both players' keys for the player-turn and the steps so far (docs/dice.md,
// "Step by step"), and the logged player-turn reveals both keys as a resolved one does. Without
// the secrets a fair log is refused (kUnsupported): a game by mail is played from orders files
// (docs/pbem.md). An orders file (`opsim turn --db`) is refused while a player-turn is in play.
//
// Not thread-safe. Each step is written under the log's write lock, after checking that the
// log is as this session read it: a step another process took in between refuses this one
// (kWrongTurn), and the session must be opened again.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "opsim/core/error.h"
#include "opsim/core/fair_dice.h"
#include "opsim/core/json_source.h"
#include "opsim/db/game_log.h"
#include "opsim/db/turn_log.h"
#include "opsim/ops/steps.h"

namespace opsim::query {

// What a step (or an undo) did.
struct StepRecord {
  std::int32_t number = 0;   // the logged player-turn its steps belong to, from 1
  std::size_t steps = 0;     // the steps that player-turn holds now
  ops::StepOutcome outcome;  // what it added to that player-turn's result (none for an undo)
  ops::TurnResult played;    // that player-turn's result so far (all of it once logged)
  bool logged = false;       // the step ended the player-turn, which is now logged as `number`
};

class StepSession {
 public:
  // Opens `db_path` at its head, with the player-turn in play taken up again. A session opened
  // kRead answers where it stands, and refuses to take a step. A fair log needs `secrets`, its
  // players' (kInvalidInput if they are not this game's); a seeded one takes none.
  static Result<StepSession> Open(const std::string& db_path,
                                  db::TurnLog::Access access = db::TurnLog::Access::kWrite,
                                  const db::FairSecrets* secrets = nullptr);
  StepSession(StepSession&&) noexcept;
  StepSession& operator=(StepSession&&) noexcept;
  ~StepSession();

  const ops::StepTurn& turn() const;  // the player-turn in play
  std::int32_t number() const;        // its number once logged (logged player-turns + 1)
  const ops::Game& game() const;      // where it began
  const map::Theater& theater() const;
  std::shared_ptr<const map::Theater> shared_theater() const;
  std::shared_ptr<const ops::Campaign> campaign() const;
  const std::string& scenario_name() const;  // as the log names it

  // Whether the player-turn is begun: its record of steps is in the log (perhaps with none). A
  // fair game's player-turn that is begun is played by steps (B1.3): its weather is drawn, and
  // orders for it are refused.
  bool begun() const;
  // Begins the player-turn (writes its record, with no step), if it is not begun.
  Status Start();
  // Reads `step` (ops::ParseStep) and takes it for `by`; a refused step changes nothing.
  Result<StepRecord> Take(const JsonSource& step, Side by);
  // B1.4: takes back `by`'s last step, if it may be.
  Result<StepRecord> Undo(Side by);
  // Reads `step`, an attack (kInvalidInput for another kind), and says the odds it would be
  // fought at if `by` declared it now (ops::StepTurn::Preview). Nothing is taken or written;
  // kWrongTurn before the player-turn is begun.
  Result<ops::AttackPreview> Preview(const JsonSource& step, Side by);

 private:
  struct Impl;
  explicit StepSession(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// How many steps the player-turn in play at `address` has taken (perhaps 0, once begun), or
// none when no player-turn is in play. Reads the metadata only.
Result<std::optional<std::size_t>> StepsInPlay(const std::string& address);

}  // namespace opsim::query
