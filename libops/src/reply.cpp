#include "opsim/ops/reply.h"

#include <algorithm>

#include "opsim/core/rule_ids.h"

namespace opsim::ops {

Status RetreatsForOwnStacks(const Game& game, const Orders& orders, Side defender,
                            const std::string& where) {
  const GameState& s = game.state();
  for (const RetreatPreference& p : orders.retreats) {
    const bool held = std::any_of(s.units.begin(), s.units.end(), [&](const GroundUnit& u) {
      return u.on_map() && u.side == defender && u.hex == p.hex;
    });
    if (!held) {
      return Fail(ErrorCode::kInvalidInput,
                  "a retreat preference for " + game.theater().HexName(p.hex) + ", where the " +
                      SideName(defender) +
                      " player has no unit: a reply gives preferences for the defender's own "
                      "stacks (B7.5)",
                  where, std::string(rules::kB7_5.id));
    }
  }
  return {};
}

Status ReplyFloodsAnswerAttacks(const Game& game, const Orders& orders) {
  for (const Reaction& r : orders.reactions) {
    const RuleId rule = r.kind == ReactionKind::kFlood ? rules::k41A4a : rules::k41A4b;
    auto attack = std::find_if(orders.combat.begin(), orders.combat.end(),
                               [&r](const AttackOrder& a) { return a.hex == r.hex; });
    if (attack == orders.combat.end()) {
      return Fail(ErrorCode::kRuleViolation,
                  "the owner floods a canal-intensive hex only when enemy units attack it; " +
                      game.theater().HexName(r.hex) +
                      " is not attacked in the orders this reply answers",
                  r.where, std::string(rule.id));
    }
    Orders alone = orders;
    alone.combat = {*attack};
    alone.reactions = {r};
    alone.exploitation.clear();
    ProbeRun run;
    run.go_on = true;
    auto played = game.Probe(alone, run);
    if (!played) return std::unexpected(played.error());
    // The first refusal of the attempt or of its attack says which of them the rules refused.
    for (const Error& e : run.refused) {
      if (e.where == r.where) return std::unexpected(e);
      if (e.where == attack->where) break;
    }
  }
  return {};
}

Status LegalBeforeDice(const Game& game, const Orders& orders) {
  if (game.state().player_turn % 2 == 0) return {};
  ProbeRun run;
  if (auto played = game.Probe(orders, run); !played) return std::unexpected(played.error());
  return {};
}

}  // namespace opsim::ops
