// Private to db/: what game_log.cpp and step_log.cpp share of a logged game's rebuilding.
#pragma once

#include <functional>
#include <memory>

#include "opsim/db/game_log.h"
#include "opsim/db/turn_log.h"
#include "opsim/ops/game.h"
#include "opsim/ops/steps.h"

namespace opsim::db {

// The static side of a logged game, built from the logged scenario and seed; BuildRules keeps the
// last few built (by the scenario's SHA-256, its name and the seed), so a game loaded again
// reuses them.
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

// Takes `steps` on `turn`, each as it was taken (`what` names them in errors: kCorruption);
// `taken`, if given, is told after each step how many are taken and what the last one did.
Status TakeAgain(ops::StepTurn& turn, const map::Theater& theater,
                 const std::vector<ops::LoggedStep>& steps, const std::string& what,
                 const std::function<void(std::size_t taken, const ops::StepOutcome&)>& taken = {});

// A player-turn played step by step (orders.steps): its steps, taken again from `before`, must
// play `batch`, the player-turn its script played (kCorruption saying which step, if not).
Status CheckSteps(const ops::Game& before, const ops::Orders& orders, const ops::TurnResult& batch);

}  // namespace opsim::db
