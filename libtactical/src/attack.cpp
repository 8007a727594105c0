#include "opsim/tactical/attack.h"

#include <algorithm>

#include "opsim/core/enum_names.h"
#include "opsim/core/rule_ids.h"
#include "opsim/tactical/beach.h"
#include "opsim/tactical/paddy.h"

namespace opsim::tactical {

namespace {

constexpr std::array<const char*, 10> kAttacks = {
    "small-arms", "direct-he", "vehicle-target", "indirect-he", "flamethrower",
    "set-dc",     "thrown-dc", "placed-dc",      "aerial",      "close-combat"};

// A refusal as attack.h writes it: "G8.212: why".
std::string Refusal(RuleId rule, const std::string& why) {
  return std::string(rule.id) + ": " + why;
}

bool IsHe(AttackType a) {
  return a == AttackType::kDirectHe || a == AttackType::kIndirectHe;
}
bool IsDc(AttackType a) {
  return a == AttackType::kSetDc || a == AttackType::kThrownDc || a == AttackType::kPlacedDc;
}
bool IsOrdnance(AttackType a) {
  return a == AttackType::kDirectHe || a == AttackType::kVehicleTarget;
}

bool Deir(const Board& b, GridPos hex) {
  return b.settings().slope == Slope::kModerate && (IsBeach(b, hex) || IsOcean(b, hex));
}

// The Infantry weapons G8.212 and G9.21 allow above a Bank or Panji counter.
bool BankWeapon(AttackType a) {
  return a == AttackType::kSmallArms || a == AttackType::kFlameThrower ||
         a == AttackType::kThrownDc || a == AttackType::kCloseCombat;
}

struct Cover {
  int tem = 0;
  std::string rule;
  std::string what;
};

// The hedge-like cover of the hexsides the LOS enters the target's hex by (G8.3, B9.3, G13.62).
Cover HexsideCover(const Board& b, const LosEnd& target, AttackType attack, const LosResult& los,
                   bool firer_higher, bool target_on_bank, AttackEffects& e) {
  Cover best;
  const bool indirect = attack == AttackType::kIndirectHe;
  const bool no_hedge = indirect || attack == AttackType::kFlameThrower ||
                        attack == AttackType::kSetDc || attack == AttackType::kAerial;
  for (const Hexside& h : los.trace.entry) {
    const HexsideFeatures f = b.Features(h);
    if (IsSeawallHexside(b, h) && b.settings().seawall == Seawall::kLow) {
      if (IsHinterland(b, target.at.hex)) {
        if (!target.entrenched) e.wall_advantage = true;
        if (indirect && best.tem < 1) {
          best = {1, rules::kG13_623,
                  "low seawall " + b.Name(h) + ": +1 wall TEM vs Indirect Fire (B9.34)"};
        }
      } else if (!no_hedge || indirect) {
        const int tem = indirect ? 1 : 2;
        if (tem > best.tem)
          best = {tem, rules::kG13_62, "low seawall " + b.Name(h) + " (a wall, B9)"};
      }
      continue;
    }
    if (IsBankHexside(b, h)) {
      std::string why;
      if (indirect) why = "not vs Indirect Fire (B9.34)";
      if (why.empty() && no_hedge) why = "not vs a FT, Set DC or aircraft";
      if (why.empty() && firer_higher) why = "the firer is higher than the target";
      if (why.empty() && target.at.place == Place::kBank)
        why = "the target is above a Bank counter";
      if (why.empty() && target_on_bank) {
        e.tem_items.push_back({rules::kG8_7,
                               "above a Wire/Panji counter in a paddy, Infantry claim no "
                               "bank-hexside TEM (bank hexside " +
                                   b.Name(h) + ")",
                               0});
        continue;
      }
      if (why.empty() && target.occupied && !target.unit.infantry())
        why = "the target is not Infantry";
      if (!why.empty()) {
        e.tem_items.push_back(
            {rules::kG8_3, "bank hexside " + b.Name(h) + ": no TEM (" + why + ")", 0});
      } else if (best.tem < 1) {
        best = {1, rules::kG8_3, "bank hexside " + b.Name(h) + ", treated as a hedge"};
      }
      continue;
    }
    if (f.wall) {
      const int tem = indirect ? 1 : 2;
      if (!firer_higher && tem > best.tem && attack != AttackType::kAerial) {
        best = {tem, indirect ? rules::kAslB9_34 : rules::kAslB9_3, "wall hexside " + b.Name(h)};
      }
    } else if (f.hedge && !no_hedge && !firer_higher && best.tem < 1) {
      best = {1, rules::kAslB9_3, "hedge hexside " + b.Name(h)};
    }
  }
  return best;
}

static_assert(kAttacks.size() == static_cast<std::size_t>(AttackType::kCloseCombat) + 1,
              "a name for each value");

}  // namespace

const char* Name(AttackType a) {
  return kAttacks[static_cast<std::size_t>(a)];
}
std::optional<AttackType> ParseAttackType(std::string_view s) {
  return LookupName<AttackType>(kAttacks, s);
}
std::string AttackTypeNames() {
  return JoinNames(kAttacks);
}

namespace {

// What the firer's position does to the attack: G8.212, G9.21, G13.421, G13.495, G13.445.
void FirerEffects(const Board& b, const LosEnd& firer, GridPos th, AttackType attack,
                  AttackEffects& e) {
  const bool cc = attack == AttackType::kCloseCombat;
  const Hex& fh = *b.At(firer.at.hex);
  const bool firer_on_bank = OnBankForAttacks(b, firer.at, firer.unit) && !fh.panji;
  const bool firer_above_panji = firer.at.place == Place::kAbove && fh.panji.has_value();
  if (firer_on_bank && firer.unit.infantry()) {
    const bool wire_or_panji = firer.at.place != Place::kBank;
    if (!BankWeapon(attack) || (wire_or_panji && attack == AttackType::kThrownDc)) {
      e.refusals.push_back(Refusal(
          rules::kG8_212, std::string("above a Bank counter Infantry may use only Inherent "
                                      "FP/SW, LMG, LATW (not a 20mm ATR), FT and Thrown DC") +
                              (wire_or_panji ? " (Thrown DC NA above Wire/Panji; G8.7)" : "") +
                              ", not " + Name(attack)));
    } else if (!cc && attack != AttackType::kThrownDc) {
      e.fp.push_back(
          {rules::kG8_212, "the firer is above a Bank counter: treated as Area Fire (halved)", 0});
    }
    if (cc) e.drm.push_back({rules::kG8_212, "CC attack by a unit above a Bank counter", 1});
    e.notes.push_back(
        {rules::kG8_212, "its Ambush dr (A11.4) gets +2 while above the Bank counter", 2});
  }
  if (firer_above_panji && firer.unit.infantry()) {
    if (IsDc(attack)) {
      e.refusals.push_back(Refusal(
          rules::kG9_211, "Infantry above a Panji counter may not Place, Throw or Set a DC"));
    } else if (!BankWeapon(attack)) {
      e.refusals.push_back(
          Refusal(rules::kG9_21, std::string("above a Panji counter Infantry may use only Inherent "
                                             "FP/SW, LMG, LATW (not a 20mm ATR) and FT, not ") +
                                     Name(attack)));
    }
    e.drm.push_back(
        {rules::kG9_21, "the attacker is above a Panji counter (+1 per attack, CC included)", 1});
    e.notes.push_back({rules::kG9_21,
                       "above a Panji counter it may not Interdict, and its Ambush dr gets +1", 1});
  } else if (firer_above_panji && firer.unit.kind() == UnitKind::kCavalry) {
    e.drm.push_back({rules::kG9_21, "the attacker is above a Panji counter (+1 per attack)", 1});
  }
  const bool firer_wading = IsWading(b, firer.at, firer.unit) &&
                            (firer.unit.infantry() || firer.unit.kind() == UnitKind::kCavalry);
  if (firer_wading) {
    if (cc) {
      e.refusals.push_back(
          Refusal(rules::kG13_495, "CC attacks are NA in non-frozen OCEAN Locations"));
    } else if (attack != AttackType::kSmallArms) {
      e.refusals.push_back(
          Refusal(rules::kG13_4211,
                  std::string("Wading Infantry may fire no SW but a LMG, not ") + Name(attack)));
    } else {
      e.fp.push_back({rules::kG13_421,
                      "Wading firer: Small Arms/LMG halved as Area Fire; no multi-hex "
                      "Fire Group; a Wading SMC may not direct or modify it",
                      0});
    }
  }
  if (cc && IsOcean(b, th) && !IsRubbleLand(b, th) && !b.settings().frozen && !firer_wading) {
    e.refusals.push_back(
        Refusal(rules::kG13_495, "CC attacks are NA in non-frozen OCEAN Locations"));
  }
  const bool surf = HeavySurfIn(b, firer.at.hex) || HeavySurfIn(b, th);
  if (surf && attack != AttackType::kIndirectHe && attack != AttackType::kAerial && !cc) {
    e.drm.push_back({rules::kG13_445,
                     std::string("Heavy Surf: an attack from/vs an Ocean Location (+1 ") +
                         (IsOrdnance(attack) ? "TH" : "IFT") + " DRM)",
                     1});
  }
}

// The target's TEM, from its terrain, the hexside it is seen across and its entrenchment; whether
// it is in Open Ground, HD or may claim Height Advantage.
void TargetCover(const Board& b, const LosEnd& firer, const LosEnd& target, AttackType attack,
                 const LosResult& los, bool target_on_bank, AttackEffects& e) {
  const GridPos th = target.at.hex;
  const Hex& h = *b.At(th);
  const bool firer_higher = attack == AttackType::kAerial || los.from_level > los.to_level;
  const bool above_wire_panji = target.at.place == Place::kAbove && IsPaddy(b, th);
  Cover terrain;
  if (target.at.place == Place::kPier) {
    e.open_ground = true;
    e.tem_items.push_back({rules::kG13_72, "a pier Location is Open Ground with a 0 TEM", 0});
  } else if (IsPaddy(b, th)) {
    const bool grain =
        InteriorIsGrain(b, th) && target.at.place != Place::kBank && !above_wire_panji;
    e.open_ground = !grain;
    e.tem_items.push_back(
        {target.at.place == Place::kBank ? rules::kG8_3 : (grain ? rules::kG8_13 : rules::kG8_11),
         target.at.place == Place::kBank ? "a Bank counter is Open Ground, even In-Season"
         : grain                         ? "the interior of an In-Season paddy is grain"
                 : "the interior of a Drained/Irrigated paddy is Open Ground",
         0});
  } else if (IsBeach(b, th) || IsOcean(b, th)) {
    e.open_ground = true;
  } else {
    terrain = {Info(h.terrain).tem, "B Terrain Chart", std::string(TerrainName(h.terrain))};
    e.open_ground = Info(h.terrain).open_ground;
  }
  if (h.Has(CounterType::kWreck) || h.Has(CounterType::kAfv)) {
    if (target.at.place == Place::kBank) {
      e.tem_items.push_back(
          {rules::kG8_31, "above a Bank counter it cannot claim the AFV/wreck's TEM", 0});
    } else if (h.wreck_above_panji) {
      e.tem_items.push_back(
          {rules::kG9_2, "an AFV/wreck above a Panji counter provides no TEM", 0});
    } else if (terrain.tem < 1) {
      terrain = {1, rules::kAslA6, "the AFV/wreck in " + b.Name(th)};
      e.open_ground = false;
    }
  }
  Cover cover = HexsideCover(b, target, attack, los, firer_higher, target_on_bank, e);
  if (los.stone_pier_cover) {
    cover = {2, rules::kG13_711,
             "a stone pier stands between it and a large vehicle: directly behind a stone wall"};
    e.hd = true;
  }
  const bool firer_in_water =
      firer.at.place != Place::kPier && (IsOcean(b, firer.at.hex) || IsBeach(b, firer.at.hex));
  if (target.at.place == Place::kPier && firer_in_water && map::Distance(firer.at.hex, th) == 1 &&
      !firer.unit.Has(UnitFlag::kLargeTarget)) {
    e.height_advantage = true;
    e.notes.push_back(
        {rules::kG13_72,
         "on the pier it may claim Height Advantage (B10.31) vs this adjacent unit in the "
         "water/Beach",
         0});
  }
  if (above_wire_panji && target.unit.infantry() && cover.rule == rules::kG8_3.id) {
    e.tem_items.push_back(
        {rules::kG8_7, "above a Wire/Panji counter in a paddy it claims no bank-hexside TEM", 0});
    cover = {};
  }
  if (cover.tem > 0) e.open_ground = false;
  if (Deir(b, th) && attack != AttackType::kIndirectHe && attack != AttackType::kAerial) {
    for (const Hexside& side : los.trace.entry) {
      if (IsBeachHinterland(b, side) && cover.tem < 1) {
        cover = {1, rules::kG13_22,
                 "deir TEM: the LOS enters " + b.Name(th) + " across Lip hexside " + b.Name(side)};
      }
    }
  }
  if (Deir(b, th) && (target.unit.vehicle() || target.unit.watercraft()) &&
      !Deir(b, firer.at.hex)) {
    for (const auto* list : {&los.trace.crossed, &los.trace.along, &los.trace.entry}) {
      for (const Hexside& side : *list) {
        if (IsBeachHinterland(b, side) && !side.Touches(firer.at.hex)) e.hd = true;
      }
    }
    if (e.hd)
      e.tem_items.push_back(
          {rules::kG13_22, "HD: the LOS crosses the deir's Lip away from the firer's hex", 0});
  }
  e.entrenched = target.entrenched || los.to_at_crest;
  if (los.to_at_crest) {
    e.tem_items.push_back(
        {rules::kG13_23, "in Crest status and seen across its Crest hexside: it appears entrenched",
         0});
  }
  Cover dug;
  if (e.entrenched && attack != AttackType::kAerial) {
    const bool soft = IsBeach(b, th) && !IsHardSand(b, th);
    dug = {soft ? 1 : 2, soft ? rules::kAslF7_42 : rules::kAslB27,
           soft ? "entrenched in Soft Sand (Foxhole TEM halved)" : "entrenched (Foxhole TEM)"};
    e.open_ground = false;
  }
  for (const Cover* c : {&terrain, &cover, &dug}) {
    if (c->tem > e.tem) e.tem = c->tem;
  }
  for (const Cover* c : {&terrain, &cover, &dug}) {
    if (c->tem > 0)
      e.tem_items.push_back(
          {c->rule, c->what + (c->tem == e.tem ? "" : " (not cumulative)"), c->tem});
  }
  if (MudAt(b, target.at)) {
    e.tem += 1;
    e.tem_items.push_back({rules::kG8_5, "mud (E3.62), cumulative", 1});
  }
}

// FP modifications for the target's hex: G8.12, G13.421, G13.3.
void TargetFp(const Board& b, const LosEnd& target, AttackType attack, AttackEffects& e) {
  const GridPos th = target.at.hex;
  if (IsPaddy(b, th) && b.settings().paddy == PaddyState::kIrrigated &&
      (IsHe(attack) || IsDc(attack))) {
    e.fp.push_back({rules::kG8_12, "DC/ordnance/OBA HE vs an Irrigated paddy hex: FP halved", 0});
  }
  const bool target_wading = IsWading(b, target.at, target.unit) &&
                             (target.unit.infantry() || target.unit.kind() == UnitKind::kCavalry);
  if (target_wading && (IsHe(attack) || IsDc(attack))) {
    e.fp.push_back(
        {rules::kG13_421, "HE/DC vs Wading Infantry/Cavalry: FP halved, in addition", 0});
  }
  if (IsBeach(b, th) && IsHe(attack) && !target.unit.vehicle()) {
    if (IsHardSand(b, th)) {
      e.fp.push_back(
          {rules::kG13_3, "ordnance/OBA vs an unarmored target in Hard Sand: FP not halved", 0});
    } else {
      e.fp.push_back(
          {rules::kAslF7_4, "ordnance/OBA vs an unarmored target in Soft Sand: FP halved", 0});
    }
  }
}

// DRMs for the target's position: G8.212, G8.2111, G9.21, G13.422.
void TargetDrms(const Board& b, const LosEnd& target, AttackType attack, bool target_on_bank,
                AttackEffects& e) {
  const Hex& h = *b.At(target.at.hex);
  const bool cc = attack == AttackType::kCloseCombat;
  if (target_on_bank && target.unit.infantry()) {
    if (cc) e.drm.push_back({rules::kG8_212, "CC attack vs a unit above a Bank counter", -1});
    e.notes.push_back({rules::kG8_2111,
                       "above a Bank counter the target is subject to Hazardous Movement "
                       "penalties (A4.62)",
                       0});
  }
  if (target.at.place == Place::kAbove && h.panji && cc) {
    e.drm.push_back({rules::kG9_21, "CC attack vs a unit above a Panji counter", -1});
  }
  if (IsOrdnance(attack) && IsWading(b, target.at, target.unit) && target.unit.vehicle()) {
    e.drm.push_back({rules::kG13_422, "ordnance TH vs a Wading vehicle (Target-Based)", 2});
  }
}

}  // namespace

AttackEffects EvaluateAttack(const Board& b, const LosEnd& firer, const LosEnd& target,
                             AttackType attack, const LosResult& los) {
  AttackEffects e;
  const bool target_on_bank =
      OnBankForAttacks(b, target.at, target.unit) && target.at.place != Place::kHex;
  FirerEffects(b, firer, target.at.hex, attack, e);
  TargetCover(b, firer, target, attack, los, target_on_bank, e);
  TargetFp(b, target, attack, e);
  TargetDrms(b, target, attack, target_on_bank, e);
  return e;
}

}  // namespace opsim::tactical
