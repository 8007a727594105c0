// The defender's reply to a player-turn, judged before any die (docs/pbem.md, docs/api.md): what
// the non-phasing player decides in the mover's player-turn (his flood attempts, 41.A.4; his
// retreat preferences, B7.5), and the player-turn as far as the rules judge it before the first
// die. A fair game's exchange (db/src/pbem.cpp) asks these before an order or a reply is fixed
// and a key revealed, so that what the rules refuse is refused then, not once the dice fall.
//
// Each call plays nothing: it reads the game, or probes it (Game::Probe), and changes nothing.
// Errors: kInvalidInput or kRuleViolation at the order's `where`, citing the rule.
#pragma once

#include <string>

#include "opsim/core/error.h"
#include "opsim/ops/game.h"
#include "opsim/ops/orders.h"

namespace opsim::ops {

// B7.5: the orders' retreat preferences are the defender's, for his own stacks. One for a hex
// where he has no unit would steer the mover's retreat on an AR, which is the mover's to choose
// (in a fair game, the engine's: docs/pbem.md). kInvalidInput at `where`.
Status RetreatsForOwnStacks(const Game& game, const Orders& orders, Side defender,
                            const std::string& where);

// 41.A.4: each flood attempt answers an attack the orders announce, on a hex the rules let the
// defender flood. That a hex is attacked is judged on the orders; whether it may be flooded
// (canal-intensive, the defender's, a massive flood's conditions), by the rules themselves: each
// attempt is played on a probe against its attack alone, up to its die, and a refusal located at
// the attempt is the reply's. An attempt the probe cannot reach before a die (its attack refused
// first: in the present weather, its units' moves refused) is left for the player-turn to judge.
Status ReplyFloodsAnswerAttacks(const Game& game, const Orders& orders);

// The player-turn as far as the rules can judge it before any die: played on a probe up to its
// first die, so that an order they refuse there (kRuleViolation, with the rule) is refused before
// anything is fixed. When the weather is rolled (the first player-turn of a game turn, B2.1)
// every order is judged after a die, in a weather no one knows yet: nothing is judged here.
Status LegalBeforeDice(const Game& game, const Orders& orders);

}  // namespace opsim::ops
