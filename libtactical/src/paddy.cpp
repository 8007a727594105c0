#include "opsim/tactical/paddy.h"

#include "opsim/core/rule_ids.h"
#include "opsim/tactical/cot.h"
#include "text.h"

namespace opsim::tactical {

namespace {

PaddyState State(const Board& b) {
  return b.settings().paddy;
}

}  // namespace

bool IsPaddy(const Board& b, GridPos hex) {
  const Hex* h = b.At(hex);
  return h != nullptr && h->terrain == Terrain::kPaddy;
}

bool IsBankHexside(const Board& b, const Hexside& h) {
  const Hex* x = b.At(h.first());
  const Hex* y = b.At(h.second());
  const bool px = x != nullptr && x->terrain == Terrain::kPaddy;
  const bool py = y != nullptr && y->terrain == Terrain::kPaddy;
  if (!px && !py) return false;
  return !(px && py && x->field == y->field);
}

int PaddyStateDrm(Ec ec) {
  switch (ec) {
    case Ec::kVeryDry:
    case Ec::kDry:
      return -2;
    case Ec::kModerate:
      return -1;
    case Ec::kWet:
    case Ec::kOvercast:
    case Ec::kMud:
      return 2;
    case Ec::kSnow:
      return 0;
  }
  return 0;
}

PaddyState PaddyStateFor(int final_dr) {
  if (final_dr <= 2) return PaddyState::kInSeason;
  if (final_dr <= 4) return PaddyState::kDrained;
  return PaddyState::kIrrigated;
}

PaddyStateRoll RollPaddyState(Dice& dice, Ec ec) {
  PaddyStateRoll r;
  r.dr = dice.Roll(6);
  r.drm = PaddyStateDrm(ec);
  r.final_dr = r.dr + r.drm;
  r.state = PaddyStateFor(r.final_dr);
  return r;
}

Status MayBeIn(const Board& b, const Unit& u, GridPos hex, bool via_open) {
  const PaddyState state = State(b);
  const std::string where = b.Name(hex);
  if (state == PaddyState::kIrrigated) {
    if (u.kind() == UnitKind::kCavalry && u.Has(UnitFlag::kGalloping)) {
      return Refuse(
          "Galloping/Charging Cavalry are not allowed IN an Irrigated paddy (" + where + ")",
          rules::kG8_12);
    }
    if (u.kind() == UnitKind::kCycle || u.Has(UnitFlag::kPushingMotorcycle)) {
      return Refuse("no Pushed/Ridden motorcycle is allowed IN an Irrigated paddy (" + where + ")",
                    rules::kG8_12);
    }
    if (u.kind() == UnitKind::kBicycle) {
      return Refuse("no ridden bicycle is allowed IN an Irrigated paddy (" + where + ")",
                    rules::kG8_12);
    }
    if (u.Has(UnitFlag::kManhandlingGun) && !u.Has(UnitFlag::kAnimalPacked)) {
      return Refuse(
          "an unhooked non-vehicular Gun (not dm or Animal-Packed) is not allowed IN an "
          "Irrigated paddy (" +
              where + ")",
          rules::kG8_12);
    }
  }
  const bool allowed = u.kind() == UnitKind::kInfantry || u.kind() == UnitKind::kCavalry ||
                       u.kind() == UnitKind::kCycle || u.kind() == UnitKind::kFullyTracked;
  if (allowed) return {};
  if (via_open && state != PaddyState::kIrrigated) return {};  // G8.8: all unit types
  if (u.kind() == UnitKind::kBicycle) {
    return Refuse("Infantry riding bicycles may not enter INTO a paddy (" + where + ")",
                  rules::kG8_2);
  }
  return Refuse(std::string("only Infantry, Cavalry, Cycle Riders and fully-tracked vehicles may "
                            "enter INTO a paddy across an unbreached bank hexside; a ") +
                    Name(u.kind()) + " may not (" + where + ")",
                via_open ? rules::kG8_8 : rules::kG8_2);
}

Status MayCrossBank(const Board& b, const Unit& u, GridPos paddy, bool onto_bank_or_road) {
  if (u.kind() == UnitKind::kBicycle && onto_bank_or_road) return {};
  if (auto s = MayBeIn(b, u, paddy, false); !s) {
    return Refuse(std::string("only units allowed INTO a paddy may cross a bank hexside; ") +
                      s.error().message,
                  rules::kG8_21);
  }
  return {};
}

Status MayBeOnBank(const Board& b, const Unit& u, GridPos hex) {
  const Hex* h = b.At(hex);
  if (h->panji || h->Has(CounterType::kWire)) {
    return Refuse(
        "the use of a Bank counter is NA in a paddy hex that contains a Wire or Panji "
        "counter (" +
            b.Name(hex) + ")",
        rules::kG8_7);
  }
  if (u.kind() == UnitKind::kCavalry && u.Has(UnitFlag::kGalloping)) {
    return Refuse("Cavalry may not Gallop/Charge onto or off a Bank counter", rules::kG8_2112);
  }
  const bool infantry = u.kind() == UnitKind::kInfantry || u.kind() == UnitKind::kBicycle;
  if (infantry && (u.Has(UnitFlag::kManhandlingGun) || u.Has(UnitFlag::kManhandlingBoat))) {
    return Refuse("Infantry Manhandling a Gun or boat may not be above a Bank counter",
                  rules::kG8_21);
  }
  if (infantry || u.kind() == UnitKind::kCavalry || u.kind() == UnitKind::kCycle) return {};
  return Refuse(
      std::string("only Infantry, Cavalry and Cycle Riders may be above a Bank counter; a ") +
          Name(u.kind()) + " may not",
      rules::kG8_21);
}

std::optional<Cost> PaddyInCot(const Board& b, const Unit& u, GridPos hex) {
  const PaddyState state = State(b);
  if (state != PaddyState::kIrrigated && b.At(hex)->Has(CounterType::kShellholes)) {
    return ShellholeCot(u);
  }
  switch (state) {
    case PaddyState::kDrained:
      return OpenGroundCot(u);
    case PaddyState::kIrrigated:
      return (OpenGroundCot(u) + MudExtra(u)) * 2;
    case PaddyState::kInSeason:
      return GrainCot(u);
    case PaddyState::kUnset:
      break;
  }
  return std::nullopt;
}

bool MudAt(const Board& b, const Position& p) {
  if (!IsPaddy(b, p.hex)) return false;
  if (b.settings().ec == Ec::kMud) return true;
  return State(b) == PaddyState::kIrrigated && p.place != Place::kBank;
}

bool InteriorIsGrain(const Board& b, GridPos hex) {
  return IsPaddy(b, hex) && State(b) == PaddyState::kInSeason &&
         !b.At(hex)->Has(CounterType::kShellholes);
}

bool OnBankForAttacks(const Board& b, const Position& p, const Unit& u) {
  if (p.place == Place::kBank) return true;
  return u.infantry() && IsPaddy(b, p.hex) && p.place == Place::kAbove;
}

Result<Cost> BreachCost(const Board& b, const Unit& u, const Hexside& h, int printed_mp) {
  if (!(u.kind() == UnitKind::kFullyTracked && u.Has(UnitFlag::kDozer)) ||
      u.Has(UnitFlag::kImmobilized)) {
    return Refuse("only a Mobile dozer may breach a bank hexside", rules::kG8_8);
  }
  if (!IsBankHexside(b, h)) return Refuse(b.Name(h) + " is not a bank hexside", rules::kG8_8);
  if (State(b) != PaddyState::kDrained && State(b) != PaddyState::kInSeason) {
    return Refuse("only a bank hexside of a Drained or In-Season paddy may be breached",
                  rules::kG8_8);
  }
  if (b.Features(h).breached) return Refuse(b.Name(h) + " is already breached", rules::kG8_8);
  return Cost::Points((printed_mp + 3) / 4);
}

PaddyLanding LandInPaddy(const Board& b, GridPos hex, bool five_eighths_parachute,
                         std::optional<Hexside> glider_across) {
  PaddyLanding l;
  l.at = {hex, Place::kHex};
  l.nmc = five_eighths_parachute && State(b) == PaddyState::kIrrigated;
  l.crash_drm = glider_across && IsBankHexside(b, *glider_across) ? 1 : 0;
  return l;
}

Status CheckPaddySetup(const Board& b) {
  const bool irrigated = State(b) == PaddyState::kIrrigated;
  auto bad = [&](GridPos hex, std::string message, std::string rule) {
    return Fail(ErrorCode::kInvalidInput, std::move(message), b.file() + ": " + b.Name(hex),
                std::move(rule));
  };
  for (const Hex* h : b.Hexes()) {
    if (h->terrain != Terrain::kPaddy || !irrigated) continue;
    for (CounterType t : h->counters) {
      if (t == CounterType::kShellholes) {
        return bad(h->cell, "shellholes can occur only IN Drained/In-Season paddies",
                   rules::kG8_72);
      }
      if (IsFortification(t) && t != CounterType::kWire && t != CounterType::kMines) {
        return bad(h->cell,
                   std::string("no Fortification but minefields/wire or panjis may be set up in an "
                               "Irrigated paddy hex, and this holds a ") +
                       Name(t),
                   rules::kG8_7);
      }
    }
    if (h->subterranean) {
      return bad(h->cell, "no subterranean passage may exist in an Irrigated paddy hex",
                 rules::kG8_73);
    }
  }
  for (const BoardUnit& u : b.units()) {
    const Hex& h = *b.At(u.at.hex);
    if (u.at.place == Place::kBank && (h.panji || h.Has(CounterType::kWire))) {
      return bad(
          u.at.hex,
          u.name + ": the use of a Bank counter is NA in a paddy hex with a Wire or Panji counter",
          rules::kG8_7);
    }
  }
  return {};
}

Status MayBurn(const Board& b, GridPos hex) {
  if (IsPaddy(b, hex) && State(b) != PaddyState::kInSeason) {
    return Refuse("no Terrain Flame/Blaze can occur in a Drained or Irrigated paddy hex (" +
                      b.Name(hex) + ")",
                  rules::kG8_6);
  }
  return {};
}

bool DirectlyAttachedSpread(const Board& b, const Hexside& h) {
  const bool both_in_season = InteriorIsGrain(b, h.first()) && InteriorIsGrain(b, h.second());
  return !(both_in_season && IsBankHexside(b, h));
}

}  // namespace opsim::tactical
