// 41.E.1 Kerch Straits: ground units move, overrun and trace supply across 4A:3525/3526 as
// across a major river, but never attack across it; naval units may enter either strait hex,
// but pass through them between the Sea of Azov and the Black Sea only while the enemy does
// not own both.
#include <algorithm>

#include "../notes.h"
#include "../turn.h"
#include "opsim/core/rule_ids.h"
#include "rule41.h"

namespace opsim::ops {

bool rule41::KerchHexside(const map::Theater& t, map::HexsideRef side) {
  const map::Waterway* w = t.WaterwayOf(side);
  return w && w->rule == map::WaterwayRule::kKerch;
}

bool rule41::KerchCrossing(const RuleContext& ctx, map::HexsideRef side, const std::string& name,
                           CrossingVerdict& v, std::vector<Note>* notes) {
  if (!KerchHexside(ctx.theater, side)) return false;
  v.crossing = Crossing::kMajor;
  v.rule = rules::k41E1;
  AddNote(notes, rules::k41E1, [&]() -> std::string {
    return name + ": the Kerch Straits are crossed as a major river";
  });
  return true;
}

bool rule41::EnemyHoldsStraits(const RuleContext& ctx, Side side) {
  const map::Theater& t = ctx.theater;
  const int straits = t.AreaWithRole(map::AreaRole::kKerchStraits);
  if (straits < 0 || t.areas()[straits].hexes.empty()) return false;
  return std::all_of(t.areas()[straits].hexes.begin(), t.areas()[straits].hexes.end(),
                     [&](map::HexRef h) { return ctx.state.owner(h) == OwnerOf(Enemy(side)); });
}

Status Turn::KerchAttack(map::HexsideRef side, const std::string& where) {
  if (!rule41::KerchHexside(t_, side)) return {};
  return Refuse(rules::k41E1,
                "no attack across the Kerch Straits hexside " + t_.HexsideName(side) +
                    " (units may move and overrun "
                    "across it, not attack)",
                where);
}

namespace {

// The marker a naval unit in the straits carries: "kerch-from-azov:ID", "kerch-from-black-sea:ID".
std::string StraitsMarker(NavalRouter::Tag tag, const std::string& id) {
  return std::string(tag == NavalRouter::kFromAzov ? "kerch-from-azov:" : "kerch-from-black-sea:") +
         id;
}

}  // namespace

NavalRouter::Tag Turn::StraitsEntry(const NavalUnit& n) const {
  for (NavalRouter::Tag tag : {NavalRouter::kFromAzov, NavalRouter::kFromBlackSea}) {
    if (s_.map.HasMarker(n.hex, StraitsMarker(tag, n.id))) return tag;
  }
  return NavalRouter::kNoTag;
}

void Turn::MarkStraitsEntry(const NavalUnit& n, map::HexRef from, NavalRouter::Tag tag) {
  for (NavalRouter::Tag old : {NavalRouter::kFromAzov, NavalRouter::kFromBlackSea}) {
    s_.map.RemoveMarker(from, StraitsMarker(old, n.id));
  }
  if (tag != NavalRouter::kNoTag) s_.map.AddMarker(n.hex, StraitsMarker(tag, n.id));
}

NavalRouter::Move NavalRouter::KerchStep(map::HexRef from_hex, map::HexRef to_hex, Tag tag, Move mv,
                                         std::vector<Note>* notes) const {
  // A group carries, while in the straits, the sea it entered them from.
  if (StraitsHex(to_hex)) {
    if (StraitsHex(from_hex)) {
      mv.tag = tag;
    } else if (from_hex.valid()) {
      mv.tag = AzovHex(from_hex) ? kFromAzov : kFromBlackSea;
    }
    return mv;
  }
  if (StraitsHex(from_hex) && tag != kNoTag && straits_enemy_ && to_hex.valid()) {
    const Tag exit = AzovHex(to_hex) ? kFromAzov : kFromBlackSea;
    if (exit != tag) {
      mv.cost = kUnreachable;
      mv.blocked = rules::k41E1;
      AddNote(notes, rules::k41E1, [&]() -> std::string {
        return "the enemy owns both Kerch Straits hexes: no passage between the Sea of "
               "Azov and the Black Sea (a group may still move into the strait hexes)";
      });
      return mv;
    }
  }
  mv.tag = kNoTag;
  return mv;
}

}  // namespace opsim::ops
