// 41.F Exiting the map: a supplied unit leaves from an exit hex of its side (the scenario's
// `exits`), paying that hex's MP cost on top of reaching it; its printed attack strength adds to
// the running total its edge names.
#include <algorithm>

#include "../notes.h"
#include "../turn.h"
#include "opsim/core/rule_ids.h"

namespace opsim::ops {

Status Turn::ExitMap(MovingStack& stack, map::HexRef end, const RuleContext& ctx,
                     const std::string& where) {
  const map::ExitEdge* edge = nullptr;
  for (const map::ExitEdge& e : t_.exits()) {
    if (e.side == side_ && std::find(e.hexes.begin(), e.hexes.end(), end) != e.hexes.end()) {
      edge = &e;
    }
  }
  if (edge == nullptr) {
    return Refuse(rules::k41F,
                  Name(end) + " is not on a map edge where " + SideName(side_) + " units may exit",
                  where);
  }
  for (std::size_t k = 0; k < stack.units.size(); ++k) {
    GroundUnit& u = *stack.units[k];
    if (u.supply != SupplyStatus::kSupplied) {
      return Refuse(rules::k41F,
                    u.name + " is " + SupplyStatusName(u.supply) +
                        ": only unisolated, supplied units may exit the map",
                    where);
    }
    GroundMover mover;
    mover.side = side_;
    mover.cls = tables_.type(u.type).cls;
    const StepVerdict cost = EvaluateGroundHex(ctx, mover, end, nullptr);
    if (auto st = Pay(stack, k, cost.cost, end, where); !st) return st;
    Remove(u, UnitStatus::kExited);
    s_.exit_totals[edge->total] += u.attack;
    Say("exit", rules::k41F,
        u.name + " exits the map from " + Name(end) + " (" + edge->name + ") for " +
            Halves(static_cast<int>(cost.cost)) + " MP: " + std::to_string(u.attack) +
            " attack strength to the '" + edge->total + "' total, now " +
            std::to_string(s_.exit_totals[edge->total]),
        {u.id}, {end}, {static_cast<int>(cost.cost), u.attack, s_.exit_totals[edge->total]});
  }
  return {};
}

}  // namespace opsim::ops
