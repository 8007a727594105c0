// 41.A.2 Rail ferries: up to 3 REs a player-turn ride a ferry line from one terminal to the
// other, at the cost of entering the far terminal plus one major river hexside that engineers
// cannot reduce, using no rail capacity.
#include "../notes.h"
#include "../turn.h"
#include "opsim/core/rule_ids.h"
#include "rule41.h"

namespace opsim::ops {

const map::RailFerry* rule41::FerryBetween(const map::Theater& t, map::HexRef a, map::HexRef b,
                                           std::size_t* index) {
  for (std::size_t i = 0; i < t.rail_ferries().size(); ++i) {
    const map::RailFerry& f = t.rail_ferries()[i];
    if ((f.from() == a && f.to() == b) || (f.to() == a && f.from() == b)) {
      if (index) *index = i;
      return &f;
    }
  }
  return nullptr;
}

StepVerdict EvaluateFerryStep(const RuleContext& ctx, const GroundMover& mover,
                              const map::RailFerry& ferry, map::HexRef from,
                              std::vector<Note>* notes) {
  const map::HexRef to = ferry.from() == from ? ferry.to() : ferry.from();
  if (mover.res > 3) {
    return Blocked(rules::k41A2, notes, [&]() -> std::string {
      return "a rail ferry carries up to 3 REs; this move has " + std::to_string(mover.res);
    });
  }
  StepVerdict hex = EvaluateGroundHex(ctx, mover, to, notes);
  if (!hex.blocked.empty()) return hex;
  const std::uint32_t river = ctx.tables.movement.major_river[static_cast<int>(mover.cls)];
  AddNote(notes, rules::k41A2, [&]() -> std::string {
    return "rail ferry " + ferry.name + ": its whole length as one major river hexside, " +
           Mp(river) + " (engineers cannot reduce it; no rail capacity used)";
  });
  StepVerdict v;
  v.cost = hex.cost + river;
  return v;
}

Status Turn::RideFerry(std::size_t index, int halves, const std::string& where) {
  // docs/rules.md: the 3 REs are counted per ferry line and player-turn.
  const map::RailFerry& ferry = t_.rail_ferries()[index];
  int& used = ferry_used_halves_[index];
  if (used + halves > 6) {
    return Refuse(rules::k41A2,
                  "the " + ferry.name + " rail ferry moves up to 3 REs a player-turn; " +
                      Halves(used) + " have used it and " + Halves(halves) + " more ask",
                  where);
  }
  used += halves;
  return {};
}

}  // namespace opsim::ops
