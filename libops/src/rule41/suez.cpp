// 41.B The Suez Canal: only Allied naval groups move along it, along Allied-owned hexsides
// (B9.2: owning both hexes, or the last to own both), while it is open. Its status: open,
// temporarily closed by the Allies while an Axis unit in regular supply stands in the Egyptian
// Delta, reopened once every hexside is Allied-owned, and closed for good once one is Axis-owned.
#include "../notes.h"
#include "../supply.h"
#include "../turn.h"
#include "opsim/core/rule_ids.h"

namespace opsim::ops {

Status Turn::SuezStatus(const InitialOrder* order) {
  const map::Waterway* canal = t_.FindWaterway(map::WaterwayRule::kSuez);
  if (order == nullptr) {
    if (canal == nullptr || s_.map.suez() == map::CanalStatus::kPermanentlyClosed) return {};
    for (map::HexsideRef side : canal->hexsides) {
      if (s_.map.hexside_owner(side) == Owner::kAxis) {
        s_.map.SetSuez(map::CanalStatus::kPermanentlyClosed);
        Say("suez", rules::k41B,
            "the Suez Canal is permanently closed: hexside " + t_.HexsideName(side) +
                " is Axis-owned",
            {}, {t_.hexside(side).a, t_.hexside(side).b}, {});
        return {};
      }
    }
    return {};
  }
  if (canal == nullptr) return Refuse(rules::k41B, "this map has no Suez Canal", order->where);
  if (side_ != Side::kAllied) {
    return Refuse(rules::k41B, "only the Allied player closes or reopens the Suez Canal",
                  order->where);
  }
  if (order->kind == InitialKind::kCloseSuez) {
    if (s_.map.suez() != map::CanalStatus::kOpen) {
      return Refuse(rules::k41B,
                    std::string("only an open canal can be closed; it is ") +
                        map::CanalStatusName(s_.map.suez()),
                    order->where);
    }
    // At least one Axis unit in regular supply (B8) anywhere in the Egyptian Delta.
    const RuleContext ctx = Ctx(false);
    GroundMover foot;
    foot.side = Side::kAxis;
    GroundRouter& router = routers_.Get(ctx, foot, GroundRouter::Arcs::kInbound);
    const SupplyNet net = SupplyNetwork(t_, s_, c_, Side::kAxis, ctx);
    const auto& cost = SupplyCosts(router, net);
    const GroundUnit* found = nullptr;
    for (const GroundUnit& u : s_.units) {
      if (u.on_map() && u.side == Side::kAxis && t_.InRole(u.hex, map::AreaRole::kEgyptianDelta) &&
          SupplyFromCost(cost[u.hex.v], tables_) == SupplyStatus::kSupplied) {
        found = &u;
        break;
      }
    }
    if (found == nullptr) {
      return Refuse(rules::k41B,
                    "the canal may be closed only while an Axis unit in regular supply is in "
                    "the Egyptian Delta",
                    order->where);
    }
    s_.map.SetSuez(map::CanalStatus::kTemporarilyClosed);
    Say("suez", rules::k41B,
        "the Allies temporarily close the Suez Canal (" + found->name + " stands in supply at " +
            Name(found->hex) + ")",
        {found->id}, {found->hex}, {});
    return {};
  }
  if (s_.map.suez() != map::CanalStatus::kTemporarilyClosed) {
    return Refuse(rules::k41B,
                  std::string("only a temporarily closed canal can be reopened; it is ") +
                      map::CanalStatusName(s_.map.suez()),
                  order->where);
  }
  for (map::HexsideRef side : canal->hexsides) {
    if (s_.map.hexside_owner(side) != Owner::kAllied) {
      return Refuse(rules::k41B,
                    "the canal reopens only when all its hexsides are Allied-owned; " +
                        t_.HexsideName(side) + " is not",
                    order->where);
    }
  }
  s_.map.SetSuez(map::CanalStatus::kOpen);
  Say("suez", rules::k41B, "the Allies reopen the Suez Canal", {}, {}, {});
  return {};
}

RuleId NavalRouter::SuezStep(map::HexsideRef side, const map::Waterway& way,
                             std::vector<Note>* notes) const {
  const map::Theater& t = ctx_.theater;
  RuleId refused;
  if (group_.side != Side::kAllied) {
    refused = rules::k41B;
    AddNote(notes, refused, [&]() -> std::string {
      return "Axis naval groups may never move along the Suez Canal";
    });
  } else if (ctx_.state.suez() != map::CanalStatus::kOpen) {
    refused = rules::k41B;
    AddNote(notes, refused, [&]() -> std::string {
      return std::string("the Suez Canal is ") + map::CanalStatusName(ctx_.state.suez());
    });
  } else if (ctx_.state.hexside_owner(side) != Owner::kAllied) {
    refused = rules::k41B;
    AddNote(notes, refused, [&]() -> std::string {
      return "Suez Canal hexside " + t.HexsideName(side) + " is not Allied-owned";
    });
  } else {
    AddNote(notes, rules::k41B,
            [&]() -> std::string { return Along(t, side, way) + ": Allied-owned, canal open"; });
  }
  return refused;
}

}  // namespace opsim::ops
