#include "opsim/tactical/activity.h"

#include "opsim/core/enum_names.h"
#include "opsim/core/rule_ids.h"
#include "opsim/tactical/beach.h"
#include "opsim/tactical/paddy.h"
#include "text.h"

namespace opsim::tactical {

namespace {

constexpr std::array<const char*, 27> kActivities = {"recover",
                                                     "scrounge",
                                                     "transfer",
                                                     "set-dc",
                                                     "place-dc",
                                                     "throw-dc",
                                                     "guard-prisoner",
                                                     "voluntary-ti",
                                                     "entrench",
                                                     "clearance",
                                                     "search",
                                                     "pack",
                                                     "cc-withdraw-onto",
                                                     "advance-off",
                                                     "concealment-dr",
                                                     "fire-sw",
                                                     "dismantle",
                                                     "limber",
                                                     "repair",
                                                     "change-vca",
                                                     "interdict",
                                                     "direct-fire",
                                                     "multi-hex-fire-group",
                                                     "place-smoke",
                                                     "place-white-smoke",
                                                     "bore-sight",
                                                     "close-combat"};

bool IrrigatedIn(const Board& b, const Position& at) {
  return IsPaddy(b, at.hex) && b.settings().paddy == PaddyState::kIrrigated &&
         at.place != Place::kBank;
}

// G8.211: above a Bank counter.
Status OnBank(Activity a, std::optional<Position> other) {
  switch (a) {
    case Activity::kRecover:
    case Activity::kScrounge:
      return Refuse("a unit above a Bank counter may not Recover/Scrounge anything IN the paddy",
                    rules::kG8_211);
    case Activity::kTransfer:
      return Refuse("a unit above a Bank counter may not participate in Transfer", rules::kG8_211);
    case Activity::kSetDc:
      return Refuse("a unit above a Bank counter may not Set a DC", rules::kG8_211);
    case Activity::kGuardPrisoner:
      if (other && other->place != Place::kBank) {
        return Refuse("a unit above a Bank counter may not Guard a prisoner IN the paddy",
                      rules::kG8_211);
      }
      return {};
    case Activity::kVoluntaryTi:
    case Activity::kEntrench:
    case Activity::kClearance:
    case Activity::kSearch:
    case Activity::kPack:
      return Refuse(
          std::string("a unit above a Bank counter may not voluntarily become TI, so it may "
                      "not ") +
              Name(a),
          rules::kG8_211);
    case Activity::kCcWithdrawOnto:
      return Refuse("CC Withdrawal onto a Bank counter is NA", rules::kG8_211);
    default:
      return {};
  }
}

// G9.21, G9.48, G9.52-.56, G9.71: above a Panji counter.
Status AbovePanji(const Unit& u, Activity a, std::optional<Position> other) {
  switch (a) {
    case Activity::kSearch:
      return Refuse("a unit above a Panji counter may not Search", rules::kG9_48);
    case Activity::kRecover:
    case Activity::kTransfer:
    case Activity::kDismantle:
    case Activity::kRepair:
      return Refuse(std::string("Infantry above a Panji counter may not ") + Name(a) + " a SW/Gun",
                    rules::kG9_52);
    case Activity::kChangeVca:
      if (u.vehicle())
        return Refuse("a vehicle above a Panji counter may not change its VCA", rules::kG9_52);
      return {};
    case Activity::kScrounge:
      if (u.vehicle())
        return Refuse("a vehicle above a Panji counter cannot be Scrounged", rules::kG9_52);
      return {};
    case Activity::kEntrench:
      return Refuse("Infantry above a Panji counter may not make/direct an Entrenching Attempt",
                    rules::kG9_55);
    case Activity::kGuardPrisoner:
      if (other && other->place != Place::kAbove) {
        return Refuse("Infantry above a Panji counter may not Guard an Unarmed unit beneath it",
                      rules::kG9_56);
      }
      return {};
    case Activity::kClearance:
      return Refuse("no unit above a Panji counter may attempt, direct or assist in Clearance",
                    rules::kG9_71);
    case Activity::kSetDc:
    case Activity::kPlaceDc:
    case Activity::kThrowDc:
      return Refuse("Infantry above a Panji counter may not Place, Throw or Set a DC",
                    rules::kG9_211);
    case Activity::kInterdict:
      return Refuse("Infantry above a Panji counter may not Interdict", rules::kG9_21);
    case Activity::kAdvanceOff:
    case Activity::kCcWithdrawOnto:
      return Refuse("Infantry may not advance/Withdraw-from-CC off of a Panji counter",
                    rules::kG9_5);
    case Activity::kConcealmentDr:
      return Refuse(
          "a unit above a Panji counter may not make a concealment dr while in the LOS of "
          "an unbroken enemy ground unit",
          rules::kG9_53);
    default:
      return {};
  }
}

// G13.421-.4212: Wading Infantry/Cavalry.
Status Wading(const Board& b, Activity a) {
  switch (a) {
    case Activity::kFireSw:
    case Activity::kDismantle:
    case Activity::kPack:
    case Activity::kLimber:
      return Refuse(std::string("Infantry in shallow OCEAN may not ") + Name(a) +
                        " a SW/non-vehicular Gun (only a LMG may fire)",
                    rules::kG13_4211);
    case Activity::kConcealmentDr:
      if (!b.settings().night) {
        return Refuse(
            "Infantry in shallow OCEAN may not make a Concealment dr in a daytime scenario",
            rules::kG13_4212);
      }
      return {};
    case Activity::kDirectFire:
      return Refuse("a Wading SMC may neither direct nor modify any type of attack",
                    rules::kG13_421);
    case Activity::kMultiHexFireGroup:
      return Refuse("Wading Infantry/Cavalry may not form a multi-hex Fire Group", rules::kG13_421);
    case Activity::kCloseCombat:
      return Refuse("CC attacks are NA in non-frozen OCEAN Locations", rules::kG13_495);
    default:
      return {};
  }
}

static_assert(kActivities.size() == static_cast<std::size_t>(Activity::kCloseCombat) + 1,
              "a name for each value");

}  // namespace

const char* Name(Activity a) {
  return kActivities[static_cast<std::size_t>(a)];
}

Status CheckActivity(const Board& b, const Position& at, const Unit& u, Activity a,
                     std::optional<Position> other) {
  const Hex& h = *b.At(at.hex);
  if (at.place == Place::kBank) {
    if (auto s = OnBank(a, other); !s) return s;
  }
  if (at.place == Place::kAbove && h.panji) {
    if (auto s = AbovePanji(u, a, other); !s) return s;
  }
  if (at.place == Place::kBeneath && h.panji && a == Activity::kGuardPrisoner && other &&
      other->place == Place::kAbove) {
    return Refuse("Infantry beneath a Panji counter may not Guard an Unarmed unit above it",
                  rules::kG9_56);
  }
  if (IsWading(b, at, u) && (u.infantry() || u.kind() == UnitKind::kCavalry)) {
    if (auto s = Wading(b, a); !s) return s;
  }
  if (IsOcean(b, at.hex) && !IsRubbleLand(b, at.hex)) {
    if (a == Activity::kPlaceSmoke || a == Activity::kPlaceWhiteSmoke) {
      return Refuse(
          "SMOKE from grenades/ordnance/dispensers may not be placed in an OCEAN Location",
          rules::kG13_47);
    }
    if (a == Activity::kBoreSight && OceanDepth(b, at.hex) == Depth::kDeep) {
      return Refuse("an OCEAN hex may be Bore Sighted only if it is shallow", rules::kG13_45);
    }
    if (a == Activity::kCloseCombat && !b.settings().frozen)
      return Refuse("CC attacks are NA in non-frozen OCEAN Locations", rules::kG13_495);
  }
  if (a == Activity::kPlaceWhiteSmoke && IsPaddy(b, at.hex) &&
      b.settings().paddy == PaddyState::kIrrigated) {
    return Refuse("a white SMOKE counter may not be placed in an Irrigated paddy hex",
                  rules::kG8_12);
  }
  if (a == Activity::kEntrench && IsEffluent(b, at.hex)) {
    return Refuse("Entrenchments are NA in an Effluent hex", rules::kG13_14);
  }
  return {};
}

DroppedItem DropItem(const Board& b, const Position& at, bool gun, bool animal_packed,
                     bool horse_or_boat) {
  const Hex& h = *b.At(at.hex);
  if (at.place == Place::kAbove && h.panji) return {at, false, rules::kG9_52};
  if (at.place == Place::kBank) {
    if (gun || animal_packed) return {at, false, rules::kG8_213};
    const bool irrigated = b.settings().paddy == PaddyState::kIrrigated;
    return {{at.hex, Place::kHex}, irrigated, irrigated ? rules::kG8_12 : rules::kG8_213};
  }
  if (IrrigatedIn(b, at) && !horse_or_boat && !animal_packed) return {at, true, rules::kG8_12};
  if (IsOcean(b, at.hex) && at.place != Place::kPier && OceanDepth(b, at.hex) == Depth::kShallow) {
    return {at, true, rules::kG13_4211};
  }
  return {at, false, ""};
}

int BogDrm(const Board& b, const Position& at) {
  if (IrrigatedIn(b, at)) return 3;
  if (IsBeach(b, at.hex) && IsHardSand(b, at.hex)) return -1;
  return 0;
}

int EntrenchingDrm(const Board& b) {
  return b.settings().coral_soil ? 2 : 0;
}

bool ManhandlingBoatDoubled(const Board& b, const Position& at) {
  return !IrrigatedIn(b, at);
}

bool RestrictedFieldOfFire(const Board& b, const Position& at, int sw_pp) {
  return sw_pp >= 3 && IrrigatedIn(b, at);
}

}  // namespace opsim::tactical
