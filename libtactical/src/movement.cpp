#include "opsim/tactical/movement.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "opsim/core/dice.h"
#include "opsim/core/enum_names.h"
#include "opsim/core/rule_ids.h"
#include "opsim/tactical/activity.h"
#include "opsim/tactical/beach.h"
#include "opsim/tactical/cot.h"
#include "opsim/tactical/paddy.h"
#include "opsim/tactical/panji.h"

namespace opsim::tactical {

namespace {

constexpr std::array<const char*, 3> kPhases = {"movement", "advance", "rout"};
constexpr std::array<const char*, 4> kTransports = {"horse", "bicycle", "motorcycle", "vehicle"};

std::unexpected<Error> BadStep(std::string_view token, const std::string& why) {
  return Fail(ErrorCode::kInvalidInput, "path step '" + std::string(token) + "': " + why,
              std::string(token));
}

bool Vehicle(const Unit& u) {
  return u.vehicle() || u.kind() == UnitKind::kCycle;
}

// The whole evaluation: the unit as it is now, and where.
struct Walk {
  const Board& b;
  const MoveOptions& o;
  Unit unit;
  Position pos;
  Cost spent;
  std::optional<Dice> dice;
  std::set<Hexside> breached;   // bank hexsides breached during this move (G8.8)
  std::optional<Note> stopped;  // why the unit can move no further
  bool cx = false;
  bool surf_rolled = false;  // G13.441: one Swamping DR and dr per MPh
};

// One step under evaluation.
class Step {
 public:
  Step(Walk& w, StepReport& r) : w_(w), r_(r) {}

  void Charge(Cost c, std::string rule, std::string what) {
    r_.charges.push_back({c, std::move(rule), std::move(what)});
  }
  void Note(std::string rule, std::string text) {
    r_.notes.push_back({std::move(rule), std::move(text)});
  }
  void Refuse(std::string rule, std::string message) {
    if (!r_.refusal) r_.refusal = Refusal{std::move(rule), std::move(message)};
  }
  // Turns a failed Status into a refusal; true if it failed.
  bool Refused(const Status& s) {
    if (s) return false;
    Refuse(s.error().rule, s.error().message);
    return true;
  }
  bool refused() const { return r_.refusal.has_value(); }
  void Stop(std::string rule, std::string why) {
    Note(rule, why);
    w_.stopped = tactical::Note{std::move(rule), std::move(why)};
  }
  // This step's charges may exceed the allowance (G8.2111).
  void Forced() { forced_ = true; }
  bool forced() const { return forced_; }
  Cost total() const { return r_.total(); }

 private:
  Walk& w_;
  StepReport& r_;
  bool forced_ = false;
};

// In a panji Location a unit is beneath unless it says above; in a pier hex a unit not on the
// pier is beneath it.
Position Normalize(const Board& b, Position p) {
  const Hex* h = b.At(p.hex);
  if (p.place == Place::kHex && (h->panji || h->pier)) p.place = Place::kBeneath;
  return p;
}

// IsCovered, counting the bank hexsides breached during this move (G9.731).
bool Covered(const Walk& w, GridPos hex, const Hexside& side) {
  return IsCovered(w.b, hex, side) && !w.breached.contains(side);
}

bool OnPanjiFloor(Place p) {
  return p == Place::kBeneath || p == Place::kTrench || p == Place::kFoxhole;
}

// G8.2111: forced INTO the paddy from above a Bank counter.
void ForcedInto(Walk& w, Step& s, const std::string& cause) {
  s.Forced();
  s.Charge(PaddyInCot(w.b, w.unit, w.pos.hex).value_or(Cost()), rules::kG8_2111,
           "forced INTO " + w.b.Name(w.pos.hex) + " (" + cause +
               "): the IN-hex COT, even beyond its remaining MF; it does not become CX");
  s.Note(rules::kG8_2111,
         "no longer above the Bank counter, so no longer subject to Hazardous Movement");
  w.pos.place = Place::kHex;
}

// A Panji MC (G9.31), rolled if a seed was given.
void PanjiMcNote(Walk& w, Step& s, const std::string& why) {
  s.Note(rules::kG9_41, why + ": it takes a Panji MC (G9.31) now, before Defensive First Fire");
  if (!w.dice) return;
  const PanjiMc mc = RollPanjiMc(*w.dice, 0, w.o.morale, false);
  std::string text = "Panji MC: DR " + std::to_string(mc.dice[0]) + "+" +
                     std::to_string(mc.dice[1]) + " vs morale " + std::to_string(mc.morale) + ": " +
                     (mc.passed ? "passed" : "failed");
  for (const auto& r : mc.sequence) text += "; " + r;
  s.Note(rules::kG9_31, text);
  // The outcome is the unit's state from here on, so the answer's unit shows it.
  if (mc.casualty_reduction) w.unit.Set(UnitFlag::kReduced);
  if (!mc.passed) {
    w.unit.Set(UnitFlag::kBroken);
    s.Stop(rules::kG9_31, "broken by the Panji MC: its MPh ends");
  } else if (mc.pinned) {
    w.unit.Set(UnitFlag::kPinned);
    s.Stop(rules::kG9_31, "pinned by the Panji MC: its MPh ends");
  }
}

// G9.43: which of a stack's units take the Panji MC. A stack (not berserk, not routing) that
// crossed a road/path/Depression/TB hexside has one unit, chosen at random by the ATTACKER, take
// it and the others a normal PTC; otherwise G9.41 has each unit take its own.
void StackPanjiMc(Walk& w, Step& s, const Hexside* crossed) {
  const int n = w.o.stack;
  if (n <= 1) return;
  const HexsideFeatures f = crossed ? w.b.Features(*crossed) : HexsideFeatures{};
  const bool lane = f.road || f.path || f.depression || f.trailbreak;
  if (w.unit.Has(UnitFlag::kBerserk)) {
    s.Note(rules::kG9_43,
           "a berserk/Human-Wave/Banzai stack: G9.41, not G9.43, applies: each of its " +
               std::to_string(n) + " units takes a Panji MC");
  } else if (w.o.phase == Phase::kRout) {
    s.Note(rules::kG9_43, "a routing stack: G9.41 applies: each of its " + std::to_string(n) +
                              " units takes a Panji MC");
  } else if (!lane) {
    s.Note(rules::kG9_41,
           "the stack did not cross a road/path/Depression/TB hexside: each of its " +
               std::to_string(n) + " units takes a Panji MC");
  } else {
    std::string who = "one unit chosen at random by the ATTACKER";
    if (w.dice)
      who = "unit " + std::to_string(w.dice->Roll(n)) + " of the stack (random selection)";
    s.Note(rules::kG9_43,
           "a stack of " + std::to_string(n) + " crossed a road/path/Depression/TB hexside: " +
               who + " takes the Panji MC; then the other " + std::to_string(n - 1) +
               " take a normal PTC (leadership may modify it), before Defensive First Fire");
  }
}

// Infantry placed above a Panji counter (G9.41-.44): the MC and its exemptions. `crossed`: the
// hexside entered across, if it entered (G9.43).
void InfantryAbovePanji(Walk& w, Step& s, const PanjiCounter& p, const std::string& here,
                        const Hexside* crossed) {
  Unit& u = w.unit;
  if (u.manhandling()) {
    s.Note(rules::kG9_411, "the Manhandled item is eliminated on entering");
    u.Set(UnitFlag::kManhandlingGun, false)
        .Set(UnitFlag::kManhandlingBoat, false)
        .Set(UnitFlag::kManhandlingMotorcycle, false);
  }
  if (u.Has(UnitFlag::kColumn)) {
    s.Note(rules::kG9_44, p.hidden()
                              ? "the Column Disbands automatically after Defensive First Fire"
                              : "the Column may opt to Disband (E11.53)");
  }
  if (w.o.assault_movement) {
    s.Note(rules::kG9_41, "no Panji MC: it is using Assault Movement");
  } else if (w.o.armored_assault) {
    s.Note(rules::kG9_41, "no Panji MC: it is using Armored Assault (D9.31)");
  } else if (w.o.low_crawl) {
    s.Note(rules::kG9_41, "no Panji MC: it is using Low Crawl");
  } else if (w.o.phase == Phase::kAdvance) {
    s.Note(rules::kG9_41, "no Panji MC: a normal advance (not vs Difficult Terrain)");
  } else {
    StackPanjiMc(w, s, crossed);
    PanjiMcNote(w, s, "it is above the Panji counter in " + here);
  }
}

// G9.54: Infantry that cross any Covered hexside in a MPh cannot claim road bonus in it.
void RoadBonusLost(Step& s) {
  s.Note(rules::kG9_54, "it cannot claim road bonus this MPh (it crossed a Covered hexside)");
}

// What happens as a unit is placed above a Panji counter on entering (G9.4-.44, G9.422).
void EnterAbovePanji(Walk& w, Step& s, const Hex& y, Cost entry_cost, const Hexside& side) {
  const PanjiCounter& p = *y.panji;
  const std::string here = w.b.Name(y.cell);
  if (p.hidden()) {
    s.Note(rules::kG9_4, "hidden Panji " + std::string(1, p.id()) + " in " + here + " is revealed");
  }
  s.Note(rules::kG9_53,
         "above a Panji counter it is engaged in a concealment-loss activity and may not "
         "make a concealment dr in the LOS of an unbroken enemy ground unit");
  Unit& u = w.unit;
  if (u.infantry()) RoadBonusLost(s);
  if (u.kind() == UnitKind::kCavalry || u.kind() == UnitKind::kBicycle) {
    const bool horse = u.kind() == UnitKind::kCavalry;
    if (horse && !u.Has(UnitFlag::kGalloping) && entry_cost >= Cost::Points(11)) {
      s.Note(rules::kG9_422, "the horse expended eleven MF to enter, so it is not eliminated");
      return;
    }
    s.Note(rules::kG9_422, std::string("the ridden ") + (horse ? "horse" : "bicycle") +
                               " is eliminated; its Rider(s) Bail Out");
    u = Unit(UnitKind::kInfantry);
    s.Note(rules::kG9_423, "the Riders are treated as entering Infantry");
  } else if (u.kind() == UnitKind::kCycle) {
    s.Note(rules::kG9_42, "the Ridden motorcycle is eliminated; its Rider(s) Bail Out");
    u = Unit(UnitKind::kInfantry);
    s.Note(rules::kG9_423, "the Riders are treated as entering Infantry");
  } else if (u.vehicle()) {
    if (u.full_tracked_afv_or_dozer()) {
      s.Note(rules::kG9_42,
             "a fully-tracked AFV/dozer is not harmed; after Defensive First Fire it may "
             "expend an extra MP to move beneath (G9.5); it may not change VCA above "
             "(G9.52)");
      return;
    }
    if (u.Has(UnitFlag::kTowingGun)) s.Note(rules::kG9_421, "the towed Gun is eliminated");
    u.Set(UnitFlag::kImmobilized);
    s.Stop(rules::kG9_42, "the vehicle is immobilized by the panjis");
    return;
  }
  if (u.infantry()) InfantryAbovePanji(w, s, p, here, &side);
}

// G13.42-.447: a unit entering shallow OCEAN.
void EnterWater(Walk& w, Step& s, GridPos to) {
  const Board& b = w.b;
  Unit& u = w.unit;
  if (!IsWading(b, {to, Place::kHex}, u)) return;
  const bool surf = HeavySurfIn(b, to);
  if (!u.vehicle()) {
    if (surf && (u.infantry() || u.kind() == UnitKind::kCavalry)) {
      w.cx = true;
      s.Note(rules::kG13_447,
             "Heavy Surf: it becomes CX on entering shallow Ocean and stays CX until on "
             "land or aboard a Watercraft");
    }
    return;
  }
  const bool proofed = u.Has(UnitFlag::kWaterproofed) || u.kind() == UnitKind::kAmphibian;
  s.Charge(Cost::Points(proofed ? 1 : 2), rules::kG13_422,
           proofed ? "Wading COT of a Waterproofed vehicle (one land MP)"
                   : "Wading COT of a non-Waterproofed vehicle (two land MP)");
  if (surf && !proofed) {
    u.Set(UnitFlag::kImmobilized);
    s.Stop(rules::kG13_441,
           "a non-Waterproofed Wading vehicle entering shallow Ocean in Heavy Surf is "
           "immediately immobilized (no G13.4222 DR)");
    return;
  }
  if (surf) {
    if (w.surf_rolled) return;
    w.surf_rolled = true;
    s.Note(rules::kG13_441,
           "Heavy Surf: the opponent makes one Secret Swamping DR and dr for this MPh");
    if (!w.dice) return;
    const SurfSwampingRoll r = RollSurfSwamping(*w.dice);
    s.Note(rules::kG13_441,
           "Swamping DR " + std::to_string(r.dice[0]) + "+" + std::to_string(r.dice[1]) + ", dr " +
               std::to_string(r.dr) +
               (r.swamped ? ": an Original 12, immobilized in shallow Ocean" : ": no effect"));
    if (r.swamped) {
      u.Set(UnitFlag::kImmobilized);
      s.Stop(rules::kG13_441, "swamped: immobilized");
    }
    return;
  }
  if (proofed) {
    s.Note(rules::kG13_4221, "a Waterproofed vehicle is exempt from Swamping");
    return;
  }
  const int drm = SwampingDrm(b, to);
  s.Note(rules::kG13_4222, "the opponent makes a Swamping DR, +" + std::to_string(drm) +
                               " DRM (range " + std::to_string(RangeToLand(b, to)) +
                               " to the nearest land hex); a Final DR >= 12 immobilizes");
  if (!w.dice) return;
  const SwampingRoll r = RollSwamping(*w.dice, drm);
  s.Note(rules::kG13_4222, "Swamping DR " + std::to_string(r.dice[0]) + "+" +
                               std::to_string(r.dice[1]) + " +" + std::to_string(drm) + " = " +
                               std::to_string(r.final_dr) +
                               (r.immobilized ? ": immobilized" : ": no effect"));
  if (r.immobilized) {
    u.Set(UnitFlag::kImmobilized);
    s.Stop(rules::kG13_4222, "swamped: immobilized");
  }
}

// The COT of the hex (or pier) entered; charged on `s` with its rule. False if refused.
bool ChargeCot(Walk& w, Step& s, GridPos from, GridPos to, Place q) {
  const Board& b = w.b;
  const Hex& y = *b.At(to);
  const Unit& u = w.unit;
  const std::string name = b.Name(to);
  std::optional<Cost> cot;
  std::string rule = "COT";
  std::string what;
  if (q == Place::kPier) {
    cot = TerrainCot(Terrain::kRunway, u);
    rule = rules::kG13_7;
    what = "COT of the pier Location (a paved road)";
  } else if (IsPaddy(b, to)) {
    cot = PaddyInCot(b, u, to);
    const PaddyState st = b.settings().paddy;
    const bool shellholes = y.Has(CounterType::kShellholes) && st != PaddyState::kIrrigated;
    rule = shellholes ? rules::kG8_72 : rules::kG8_2;
    what = shellholes                   ? "enter the interior and its shellholes together"
           : st == PaddyState::kDrained ? "IN-hex COT of a Drained paddy (Open Ground)"
           : st == PaddyState::kIrrigated
               ? "IN-hex COT of an Irrigated paddy (twice Open Ground mud)"
               : "IN-hex COT of an In-Season paddy (grain)";
  } else if (IsBeach(b, to)) {
    const bool hard = IsHardSand(b, to);
    cot = SandCot(u, hard);
    rule = rules::kG13_3;
    what = std::string("COT of ") + (hard ? "Hard" : "Soft") + " Sand";
  } else if (IsRubbleLand(b, to)) {
    cot = TerrainCot(Terrain::kRubble, u);
    rule = rules::kG13_493;
    what = "COT of rubble: a shallow-OCEAN Location with a Rubble counter is rubble land";
  } else if (IsExposedReef(b, to)) {
    cot = TerrainCot(Terrain::kOpenGround, u);
    rule = rules::kG13_431;
    what = "COT of an Exposed-reef hex: Level -1 Hammada land (F3), Open Ground";
  } else if (IsOcean(b, to)) {
    if (OceanDepth(b, to) == Depth::kDeep) {
      s.Refuse(rules::kG13_4, "deep OCEAN (" + name + ") is a Water Obstacle");
      return false;
    }
    cot = ShallowStreamCot(u);
    if (!cot) {
      s.Refuse(rules::kG13_422, "a motorcycle being Ridden cannot enter a shallow-OCEAN Location");
      return false;
    }
    rule = rules::kG13_42;
    what = "Wading in shallow OCEAN, treated as a shallow stream";
  } else if (y.terrain == Terrain::kRiver) {
    s.Refuse(rules::kG13_12,
             name +
                 " is a river hex no OCEAN-overlay hexside touches: Chapter B River "
                 "rules (Fording) apply, which opsim does not model");
    return false;
  } else {
    cot = TerrainCot(y.terrain, u);
    what = std::string("COT of ") + TerrainName(y.terrain);
  }
  if (!cot) {
    s.Refuse(rule == "COT" ? "B Terrain Chart" : rule,
             "a " + u.ToString() + " may not enter " + name + " (" + TerrainName(y.terrain) + ")");
    return false;
  }
  s.Charge(*cot, rule, what);
  // Crest Lines: steep Beach-Hinterland hexsides (G13.23), onto a pier (G13.73), hills.
  const Hexside side = *Hexside::Between(from, to);
  const bool across_bh = IsBeachHinterland(b, side);
  const int lx = w.pos.place == Place::kPier ? 0 : TerrainLevel(b, from, across_bh);
  const int ly = q == Place::kPier ? 0 : TerrainLevel(b, to, across_bh);
  if (ly > lx) {
    s.Charge(*cot,
             q == Place::kPier       ? rules::kG13_73
             : IsOceanShore(b, side) ? rules::kG13_41
                                     : rules::kG13_23,
             "crossing a Crest Line to a higher elevation doubles the COT");
  }
  // E3.64 mud; NA on an Exposed reef (G13.431).
  const bool plain_og = Info(y.terrain).open_ground && !IsPaddy(b, to) && !IsBeach(b, to) &&
                        !IsOcean(b, to) && !IsExposedReef(b, to) && q != Place::kPier;
  if (b.settings().ec == Ec::kMud && plain_og) {
    s.Charge(MudExtra(u), rules::kAslE3_64, "EC are Mud: Open Ground mud");
  }
  if (IsPaddy(b, to) && b.settings().ec == Ec::kMud &&
      b.settings().paddy != PaddyState::kIrrigated) {
    s.Charge(MudExtra(u), rules::kG8_5, "EC mud (E3.64)");
  }
  if (IsBeach(b, to) && u.vehicle()) {
    s.Note(rules::kG13_32,
           std::string("subject to Sand Bog (F7.31)") +
               (IsHardSand(b, to) ? "; a -1 DRM applies in Hard Sand (F7.31)" : ""));
  }
  return true;
}

// Where the unit lands in `to`, given what was asked (G9.4, G9.45, G13.73); nullopt if refused.
std::optional<Place> PlaceOnEntry(Walk& w, Step& s, GridPos to, const Hexside& side,
                                  std::optional<Place> asked, bool trench_move) {
  const Board& b = w.b;
  const Hex& y = *b.At(to);
  const Unit& u = w.unit;
  const std::string name = b.Name(to);
  if (y.panji) {
    const bool covered = Covered(w, to, side) && !trench_move && !u.Has(UnitFlag::kDummy);
    const Place placed = covered ? Place::kAbove : Place::kBeneath;
    if (trench_move) return Place::kTrench;
    if (asked == Place::kFoxhole) {
      s.Refuse(rules::kG9_55,
               "a Foxhole in a panji Location can be entered only from beneath the "
               "Panji counter: enter " +
                   name + " first");
      return std::nullopt;
    }
    if (asked == Place::kBank) {
      s.Refused(MayBeOnBank(b, u, to));
      return std::nullopt;
    }
    if (asked && *asked != placed) {
      s.Refuse(covered ? rules::kG9_4 : rules::kG9_45,
               "entering " + name + " across " + (covered ? "Covered" : "non-Covered") +
                   " hexside " + b.Name(side) + " places the unit " + Name(placed) +
                   " the Panji counter" +
                   (covered ? "; going beneath then costs 1 MF (G9.5)" : ""));
      return std::nullopt;
    }
    return placed;
  }
  Place q = asked.value_or(Place::kHex);
  if (y.pier && q == Place::kHex) q = Place::kBeneath;
  if (q == Place::kBeneath && y.pier) {
    if (*y.pier == PierKind::kStone) {
      s.Refuse(rules::kG13_73, "no unit may set up/enter beneath a stone pier (" + name + ")");
      return std::nullopt;
    }
    const bool deep = IsOcean(b, to) && OceanDepth(b, to) == Depth::kDeep;
    if (u.kind() != UnitKind::kInfantry || deep) {
      s.Refuse(rules::kG13_73,
               "only Infantry (and boats) may enter beneath a wooden pier, and Infantry not "
               "in deep water");
      return std::nullopt;
    }
  }
  return q;
}

// G13.6x: crossing a seawall hexside.
bool CrossSeawall(Walk& w, Step& s, const Hexside& side, GridPos to) {
  const Board& b = w.b;
  if (!IsSeawallHexside(b, side)) return true;
  const Unit& u = w.unit;
  const HexsideFeatures f = b.Features(side);
  if (b.settings().seawall == Seawall::kHigh) {
    if (!u.Has(UnitFlag::kCommando)) {
      s.Refuse(rules::kG13_61, "a high seawall is a one-level cliff: only Commandos may Climb it");
      return false;
    }
    s.Stop(rules::kG13_61,
           "the Commando Climbs the high seawall; opsim ends its MPh there (the MF cost of "
           "a Climb is not in these texts)");
    return true;
  }
  if (f.breached) {
    s.Note(rules::kG13_624, "the Breached seawall is treated as Open Ground for movement");
    return true;
  }
  if (Vehicle(u)) {
    if (!f.fascine || u.kind() != UnitKind::kFullyTracked || u.Has(UnitFlag::kImmobilized)) {
      s.Refuse(rules::kG13_621,
               "vehicles may cross a low seawall only where it is Breached (G13.624) or "
               "where a fascine lies against it (G13.625)");
      return false;
    }
    if (!w.o.printed_mp) {
      s.Refuse(rules::kG13_625,
               "crossing a fascine costs 25% of the printed MP allotment: give "
               "--printed-mp");
      return false;
    }
    s.Charge(Cost::Points((*w.o.printed_mp + 3) / 4), rules::kG13_625,
             "crossing the fascine: 25% (FRU) of the printed MP allotment");
    return true;
  }
  if (IsBeach(b, to)) {
    s.Note(rules::kG13_621,
           "crossing a low seawall from its Hinterland to its Beach side costs no extra MF");
  } else {
    s.Charge(BankCost(u), rules::kG13_62, "crossing a low seawall (treated as a wall, B9)");
  }
  return true;
}

// G8: crossing into, out of or between paddies. Returns false if refused; sets `onto_bank_done`
// when the step's whole cost is the Bank counter's (no IN-hex COT follows).
bool CrossPaddy(Walk& w, Step& s, GridPos to, const Hexside& side, Place q, bool trench_move,
                bool& onto_bank_done) {
  const Board& b = w.b;
  const Unit& u = w.unit;
  const GridPos from = w.pos.hex;
  const bool px = IsPaddy(b, from);
  const bool py = IsPaddy(b, to);
  if (!px && !py) return true;
  const std::string name = b.Name(to);
  const bool bank_side = IsBankHexside(b, side);
  const bool breached = b.Features(side).breached || w.breached.contains(side);
  const bool from_bank = w.pos.place == Place::kBank;
  if (trench_move && bank_side) {
    s.Note(rules::kG8_71,
           "moving directly from one Trench counter into another: the bank hexside costs nothing");
    return !py || !s.Refused(MayBeIn(b, u, to, true));
  }
  if (py && q == Place::kBank) {
    if (s.Refused(MayBeOnBank(b, u, to))) return false;
    if (w.o.low_crawl) {
      s.Refuse(rules::kG8_2111, "Low Crawl onto a Bank counter is NA");
      return false;
    }
    if (!bank_side) {
      s.Refuse(from_bank ? rules::kG8_2105 : rules::kG8_2101,
               b.Name(side) +
                   " is not a bank hexside; a unit enters directly onto a Bank counter only "
                   "across a bank hexside: enter INTO " +
                   name + " first, then onto its bank (G8.2104)");
      return false;
    }
    if (s.Refused(MayCrossBank(b, u, to, true))) return false;
    if (from_bank) {
      s.Charge(BankCost(u), rules::kG8_2105,
               "from a Bank counter onto the Bank counter in " + name);
    } else {
      s.Charge(BankCost(u), rules::kG8_2101, "cross bank hexside " + b.Name(side));
      s.Charge(BankCost(u), rules::kG8_2101, "enter onto the Bank counter in " + name);
    }
    if (b.settings().ec == Ec::kMud) {
      s.Charge(MudExtra(u), rules::kG8_5,
               "EC mud: entering onto a Bank counter while changing hexes");
    }
    s.Note(rules::kG8_2111,
           "above a Bank counter: subject to Hazardous Movement (it cannot gain \"?\"), "
           "not cumulative with another Hazardous Movement activity");
    onto_bank_done = true;
    return true;
  }
  if (py) {
    if (s.Refused(MayBeIn(b, u, to, !bank_side || breached))) return false;
    if (!bank_side) {
      if (from_bank) {
        s.Refuse(rules::kG8_2106,
                 "from a Bank counter a unit enters INTO an adjacent paddy only across a "
                 "bank hexside, and " +
                     b.Name(side) + " is not one");
        return false;
      }
      return true;
    }
    if (breached && !from_bank) {
      s.Note(rules::kG8_8,
             b.Name(side) + " is breached: entering INTO costs no MF to cross it (B9.541)");
      return true;
    }
    s.Charge(BankCost(u), from_bank ? rules::kG8_2106 : rules::kG8_2102,
             "cross bank hexside " + b.Name(side) +
                 (breached ? " (breached, but it is exiting off a Bank counter; G8.8)" : ""));
    if (u.kind() == UnitKind::kFullyTracked && !breached) {
      s.Note(rules::kG8_2121,
             "the AFV is subject to Underbelly Hits as it crosses an unbreached bank "
             "hexside");
    }
    return true;
  }
  // Leaving a paddy for a non-paddy hex: always across a bank hexside.
  const bool onto_road = b.At(to)->road != Road::kNone;
  if (breached && !from_bank) {
    s.Note(rules::kG8_8, b.Name(side) + " is breached: no MF to cross it (B9.541)");
    return true;
  }
  if (s.Refused(MayCrossBank(b, u, from, onto_road))) return false;
  s.Charge(BankCost(u), from_bank ? rules::kG8_2107 : rules::kG8_2103,
           "cross bank hexside " + b.Name(side));
  if (u.kind() == UnitKind::kFullyTracked && !breached) {
    s.Note(rules::kG8_2121,
           "the AFV is subject to Underbelly Hits as it crosses an unbreached bank hexside");
  }
  return true;
}

// G9.121: in a panji Location with no jungle, a trip flare (G.8) is set off only by entry or a
// Search across a Covered hexside, or by MF/MP expended while entering or remaining above the
// Panji counter. `qualifies`: this entry, Search or expenditure is such a one.
void TripFlare(Step& s, const Board& b, const Hex& h, bool qualifies, const std::string& how) {
  if (!h.Has(CounterType::kTripFlare)) return;
  const bool jungle = h.terrain == Terrain::kLightJungle || h.terrain == Terrain::kDenseJungle;
  if (!h.panji || jungle) {
    s.Note("G.8", "the trip flare in " + b.Name(h.cell) + " may be set off in the normal manner");
    return;
  }
  s.Note(rules::kG9_121, how +
                             (qualifies ? ": it may set off the trip flare in "
                                        : ": it cannot set off the trip flare in ") +
                             b.Name(h.cell));
}

// G8.2122 (with G8.7): mines occupy both the interior and the banks of a paddy hex, and attack
// a unit entering it in the normal manner whether it is IN the paddy or on its Bank counter.
void PaddyMines(Step& s, const Board& b, const Hex& h, Place q) {
  if (!h.Has(CounterType::kMines) || !IsPaddy(b, h.cell)) return;
  s.Note(rules::kG8_2122, std::string("the mines in ") + b.Name(h.cell) +
                              " attack it in the normal manner" +
                              (q == Place::kBank ? ", though it is on the Bank counter"
                                                 : ", whether it is IN the paddy or on its banks"));
}

// A step into an adjacent hex.
void MoveToHex(Walk& w, Step& s, GridPos to, std::optional<Place> asked,
               std::optional<Cost> careful) {
  const Board& b = w.b;
  const GridPos from = w.pos.hex;
  const Place p = w.pos.place;
  const Hexside side = *Hexside::Between(from, to);
  const HexsideFeatures f = b.Features(side);
  const Hex& x = *b.At(from);
  const Hex& y = *b.At(to);
  Unit& u = w.unit;
  const bool trench_move = p == Place::kTrench && asked == Place::kTrench;

  // Leaving the hex.
  if (p == Place::kAbove) {
    s.Refuse(rules::kG9_6,
             "a unit above a Panji counter may not directly exit its hex: it must first "
             "move beneath it (G9.5)");
    return;
  }
  if (x.panji && OnPanjiFloor(p) && Covered(w, from, side) && !trench_move) {
    if (s.Refused(MayExitAcrossCovered(u))) return;
    s.Charge(Cost::Points(1), rules::kG9_6,
             "cross Covered hexside " + b.Name(side) + " of the Panji counter in " + b.Name(from));
    if (u.infantry()) RoadBonusLost(s);
  }
  const bool pier_barred =
      Vehicle(u) || u.kind() == UnitKind::kCavalry || u.Has(UnitFlag::kManhandlingGun);
  const bool water_or_beach_to = IsOcean(b, to) || IsBeach(b, to);
  if (p == Place::kPier && asked != Place::kPier && water_or_beach_to && pier_barred) {
    s.Refuse(rules::kG13_73,
             "no Gun, vehicle or Horse counter may be moved from a pier Location directly "
             "into a water or Beach hex");
    return;
  }
  if (w.o.phase == Phase::kRout && u.Has(UnitFlag::kBroken) && IsWading(b, {to, Place::kHex}, u)) {
    s.Refuse(rules::kG13_421,
             "broken Infantry may rout into shallow OCEAN only to avoid Failure-to-Rout "
             "elimination, or to load onto a LC/amphibian in a Seaborne Evacuation");
    return;
  }

  // Where it will be.
  const auto placed = PlaceOnEntry(w, s, to, side, asked, trench_move);
  if (!placed) return;
  const Place q = *placed;
  const bool from_water = IsOcean(b, from) || IsBeach(b, from);
  if (q == Place::kPier && from_water && p != Place::kPier && pier_barred) {
    s.Refuse(rules::kG13_73,
             "no Gun, vehicle or Horse counter may be moved to a pier Location directly "
             "from a water or Beach hex");
    return;
  }
  if (y.panji && q == Place::kAbove && u.kind() == UnitKind::kCavalry &&
      u.Has(UnitFlag::kGalloping) && !y.panji->hidden()) {
    s.Refuse(rules::kG9_422,
             "Cavalry may Gallop/Charge neither onto nor off of a non-hidden Panji counter");
    return;
  }

  if (y.Has(CounterType::kBlaze)) {
    s.Refuse(rules::kAslB25, b.Name(to) + " holds a Blaze: no unit may enter it");
    return;
  }

  // The hexside.
  if (f.cliff) {
    s.Refuse(rules::kG13_24, b.Name(side) +
                                 " is a cliff hexside: crossing it means Climbing (B11), which "
                                 "opsim does not model");
    return;
  }
  if (!CrossSeawall(w, s, side, to)) return;
  if ((f.wall || f.hedge) && !IsSeawallHexside(b, side)) {
    s.Charge(BankCost(u), rules::kG9_4,
             std::string("cross a ") + (f.wall ? "wall" : "hedge") + " hexside");
  }
  bool onto_bank_done = false;
  if (!CrossPaddy(w, s, to, side, q, trench_move, onto_bank_done)) return;

  // The hex.
  if (!onto_bank_done && !ChargeCot(w, s, from, to, q)) return;
  if (careful && *careful > s.total()) {
    s.Charge(Cost::Halves(careful->halves() - s.total().halves()), rules::kG9_422,
             "MF deliberately expended to enter");
  }
  const Cost entry = s.total();
  w.pos = {to, q};
  if (y.panji && q == Place::kAbove) {
    EnterAbovePanji(w, s, y, entry, side);
  } else if (y.panji) {
    s.Note(
        rules::kG9_45,
        trench_move
            ? "entering within a trench: placed beneath the Panji counter, no Panji MC"
            : "entering across a non-Covered hexside: placed directly beneath the Panji counter");
  }
  TripFlare(s, b, y, q == Place::kAbove,
            q == Place::kAbove ? "entering across a Covered hexside, above the Panji counter"
                               : "entering across a non-Covered hexside");
  PaddyMines(s, b, y, q);
  if (IsOcean(b, to) && q != Place::kPier) EnterWater(w, s, to);
  if (IsOcean(b, from) && p != Place::kPier && u.vehicle() && IsWading(b, {from, p}, u)) {
    if (IsOceanShore(b, side)) {
      s.Note(rules::kG13_4223,
             "a Wading vehicle exiting shallow OCEAN across an OCEAN-Hinterland hexside is "
             "subject to Bog (B20.46)");
    }
  }
  if (p == Place::kPier && q != Place::kPier)
    s.Note(rules::kG13_733, "it may carry its possessed SW");
}

// A change of place within the hex; an error if the hex offers no such change.
Status ChangePlace(Walk& w, Step& s, Place q, std::string_view token) {
  const Board& b = w.b;
  const Place p = w.pos.place;
  const GridPos hex = w.pos.hex;
  const Hex& h = *b.At(hex);
  Unit& u = w.unit;
  const std::string name = b.Name(hex);
  if (p == q) return BadStep(token, "the unit is already " + b.Name(w.pos));
  if (IsPaddy(b, hex) && p == Place::kHex && q == Place::kBank) {
    if (s.Refused(MayBeOnBank(b, u, hex))) return {};
    if (w.o.low_crawl) {
      s.Refuse(rules::kG8_2111, "Low Crawl onto a Bank counter is NA");
      return {};
    }
    s.Charge(BankCost(u), rules::kG8_2104,
             "from IN " + name + " onto its Bank counter (no mud MF; E3.64)");
    s.Note(rules::kG8_2111,
           "above a Bank counter: subject to Hazardous Movement (it cannot gain \"?\")");
  } else if (IsPaddy(b, hex) && p == Place::kBank && q == Place::kHex) {
    if (s.Refused(MayBeIn(b, u, hex, false))) return {};
    s.Charge(PaddyInCot(b, u, hex).value_or(Cost()), rules::kG8_2108,
             "from its Bank counter INTO " + name + ": the IN-hex COT (no mud MF; E3.64)");
  } else if (h.panji && (p == Place::kAbove || p == Place::kBeneath) &&
             (q == Place::kAbove || q == Place::kBeneath)) {
    if (s.Refused(MayChangeAboveBeneath(u))) return {};
    if (w.o.phase == Phase::kAdvance && q == Place::kBeneath) {
      s.Refuse(rules::kG9_41,
               "during the APh a unit may not go beneath the Panji counter it entered above");
      return {};
    }
    if (w.o.phase == Phase::kAdvance) {
      s.Refuse(rules::kG9_5, "Infantry may not advance off a Panji counter");
      return {};
    }
    s.Charge(Cost::Points(1), rules::kG9_5,
             std::string("from ") + Name(p) + " to " + Name(q) +
                 " the Panji counter, a separate expenditure");
    TripFlare(s, b, h, true,
              std::string("expending MF/MP while ") +
                  (q == Place::kAbove ? "entering" : "remaining") + " above the Panji counter");
    if (q == Place::kAbove) {
      s.Note(rules::kG9_5, "no Panji MC or other panji-caused penalty ensues from going above");
    }
  } else if ((q == Place::kFoxhole || q == Place::kTrench) &&
             (p == Place::kHex || p == Place::kBeneath)) {
    s.Charge(Cost::Points(1), h.panji ? rules::kG9_55 : rules::kAslB27,
             std::string("enter the ") + Name(q) + (h.panji ? " beneath the Panji counter" : ""));
  } else if ((q == Place::kFoxhole || q == Place::kTrench) && p == Place::kAbove) {
    s.Refuse(rules::kG9_55,
             "Fortifications in a panji Location are beneath the Panji counter and can be "
             "entered only from beneath it");
    return {};
  } else if ((p == Place::kFoxhole || p == Place::kTrench) &&
             (q == Place::kHex || q == Place::kBeneath)) {
    s.Charge(
        Cost(), h.panji ? rules::kG9_55 : rules::kAslB27,
        std::string("leave the ") + Name(p) + (h.panji ? " to beneath the Panji counter" : ""));
  } else if (h.pier && (p == Place::kPier || q == Place::kPier)) {
    if (q == Place::kPier && (Vehicle(u) || u.kind() == UnitKind::kCavalry)) {
      s.Refuse(rules::kG13_73,
               "no vehicle or Horse counter may be moved to a pier Location directly from "
               "the water or Beach of its hex");
      return {};
    }
    const Cost road = Cost::Points(1);
    if (q == Place::kPier) {
      s.Charge(road, rules::kG13_7, "COT of the pier Location (a paved road)");
      s.Charge(road, rules::kG13_73,
               "changing elevation onto the pier: as crossing a hill Crest Line");
    } else {
      s.Charge(IsBeach(b, hex) ? SandCot(u, IsHardSand(b, hex)).value_or(Cost())
                               : ShallowStreamCot(u).value_or(Cost()),
               rules::kG13_73, "down from the pier into its hex");
    }
  } else {
    return BadStep(token, std::string("there is no move from ") + Name(p) + " to " + Name(q) +
                              " within " + name);
  }
  w.pos.place = q;
  return {};
}

// Bypass `hex` along its hexside with `other` (G9.46, G13.81).
void Bypass(Walk& w, Step& s, GridPos hex, GridPos other) {
  const Board& b = w.b;
  const Hexside along = *Hexside::Between(hex, other);
  Unit& u = w.unit;
  auto overlay = [&](GridPos c) {
    const GridRole r = b.grids()[b.At(c)->grid].role();
    return r == GridRole::kBeach || r == GridRole::kOcean || r == GridRole::kEffluent;
  };
  if (w.pos.place == Place::kAbove) {
    s.Refuse(rules::kG9_6,
             "a unit above a Panji counter may not directly exit its hex: it must first "
             "move beneath it (G9.5)");
    return;
  }
  if (overlay(hex) || overlay(other)) {
    s.Refuse(rules::kG13_81,
             "Bypass along a Beach/OCEAN overlay hexside (" + b.Name(along) + ") is NA");
    return;
  }
  if (!Info(b.At(hex)->terrain).bypassable) {
    s.Refuse(rules::kAslA4_3, std::string("Bypass is movement around obstacle terrain, and ") +
                                  b.Name(hex) + " is " + TerrainName(b.At(hex)->terrain));
    return;
  }
  const Cost cost = OpenGroundCot(u);
  if (auto blocked = MayBypassAlong(b, hex, along); !blocked) {
    const Hex& h = *b.At(hex);
    s.Charge(cost, rules::kG9_46,
             "the attempted Bypass, expended in its present position " + b.Name(w.pos));
    if (u.vehicle()) s.Charge(Cost::Points(1), rules::kG9_46, "a Stop MP (D2.3)");
    s.Note(rules::kG9_46,
           blocked.error().message + "; the unit is blocked from entering " + b.Name(hex) +
               " (immune to TPBF/Snap Shot from, and mines in, it) and its MPh goes on");
    if (h.panji->hidden()) s.Note(rules::kG9_46, "the hidden Panji counter is revealed");
    return;
  }
  s.Charge(cost, rules::kG9_46, "Bypass " + b.Name(hex) + " along hexside " + b.Name(along));
  const bool panji = b.At(hex)->panji.has_value();
  w.pos = {hex, panji ? Place::kBeneath : Place::kHex};
  if (panji) s.Note(rules::kG9_46, "entering by Bypass: placed directly beneath the Panji counter");
}

// +mount, +dismount, +bailout (G8.2112, G9.423, G9.51).
void MountOrDismount(Walk& w, Step& s, std::string_view action) {
  const Board& b = w.b;
  Unit& u = w.unit;
  const bool paddy = IsPaddy(b, w.pos.hex);
  const bool panji = b.At(w.pos.hex)->panji.has_value();
  if (action == "mount") {
    if (u.kind() != UnitKind::kInfantry) {
      s.Refuse(rules::kG8_2112, "only Personnel (here, Infantry) mount a horse, cycle or vehicle");
      return;
    }
    const Place at = w.o.transport_at.value_or(w.pos.place);
    if (at != w.pos.place) {
      const std::string rule = panji ? rules::kG9_51 : rules::kG8_2112;
      s.Refuse(rule, std::string("the transport is ") + Name(at) + ", the unit " +
                         Name(w.pos.place) +
                         (panji ? ": in a panji Location both must be above, or both beneath, the "
                                  "Panji counter"
                          : paddy ? ": Personnel mount transport above a Bank counter only from "
                                    "above it, and transport IN a paddy only from IN it"
                                  : ": they must be in the same place"));
      return;
    }
    s.Charge(Cost::Points(1), rules::kG8_2112, "mount (the normal one MF)");
    switch (w.o.transport) {
      case Transport::kHorse:
        u = Unit(UnitKind::kCavalry);
        break;
      case Transport::kBicycle:
        u = Unit(UnitKind::kBicycle);
        break;
      case Transport::kMotorcycle:
        u = Unit(UnitKind::kCycle);
        break;
      case Transport::kVehicle:
        s.Stop(rules::kG8_2112, "now a Passenger: the vehicle moves it");
        break;
    }
    return;
  }
  if (u.kind() != UnitKind::kCavalry && u.kind() != UnitKind::kCycle &&
      u.kind() != UnitKind::kBicycle) {
    s.Refuse(rules::kG8_2112, std::string("a ") + Name(u.kind()) + " has nothing to " +
                                  std::string(action) + " from");
    return;
  }
  const bool motorcycle = u.kind() == UnitKind::kCycle;
  const bool cycle = motorcycle || u.kind() == UnitKind::kBicycle;
  u = Unit(UnitKind::kInfantry);
  if (action == "dismount") {
    s.Charge(Cost::Points(1), rules::kG8_2112, "dismount (the normal one MF)");
    if (w.pos.place == Place::kBank) {
      s.Note(rules::kG8_2112, "it disembarks only onto the Bank counter its transport is above");
    }
    if (panji && w.pos.place == Place::kAbove) {
      s.Note(rules::kG9_423, "PRC disembarking from transport above a Panji counter do so onto it");
      InfantryAbovePanji(w, s, *b.At(w.pos.hex)->panji, b.Name(w.pos.hex), nullptr);
    }
    return;
  }
  // bailout
  if (w.pos.place == Place::kBank) {
    w.pos.place = Place::kHex;
    s.Note(rules::kG8_2112, "Bailing Out, it goes directly INTO the hex");
    if (cycle) {
      s.Note(rules::kG8_2112,
             b.settings().paddy == PaddyState::kIrrigated
                 ? "the surviving cycle would be placed IN the Irrigated paddy, so it is "
                   "eliminated (G8.12)"
                 : "each surviving cycle is placed IN the hex as well");
    }
  } else {
    s.Note(rules::kG8_2112, "it Bails Out where it is");
  }
}

// +search:HEX: Searching an adjacent Location (G8.211, G9.48); its MF cost (A12.15) is not in
// these texts and is not charged.
void Search(Walk& w, Step& s, GridPos searched) {
  const Board& b = w.b;
  if (s.Refused(CheckActivity(b, w.pos, w.unit, Activity::kSearch))) return;
  const Hexside side = *Hexside::Between(w.pos.hex, searched);
  if (SearchRisksCasualties(b, w.pos.hex, searched)) {
    s.Note(rules::kG9_48, "Searching " + b.Name(searched) + " across Covered hexside " +
                              b.Name(side) +
                              ": the Searcher can suffer Casualty Reduction (A12.154)");
  } else {
    s.Note(rules::kG9_48, "no Covered hexside lies between: the Search risks no panji casualties");
  }
  const Hex& h = *b.At(searched);
  TripFlare(s, b, h, IsCovered(b, searched, side),
            "Searching across a " +
                std::string(IsCovered(b, searched, side) ? "Covered" : "non-Covered") +
                " hexside of its Panji counter");
  if (h.panji && h.panji->hidden()) {
    s.Note(rules::kG9_48, "the hidden Panji counter in " + b.Name(searched) + " is revealed");
  }
}

Result<Cost> ParseCareful(std::string_view digits, std::string_view token) {
  int n = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || ptr != digits.data() + digits.size() || n < 1 || n > 99) {
    return BadStep(token, "after '@' give the MF deliberately expended to enter, e.g. 37EE7@11");
  }
  return Cost::Points(n);
}

// A whole token: a position, a Bypass or an action.
Status Apply(Walk& w, Step& s, std::string_view token) {
  const Board& b = w.b;
  if (!token.empty() && token[0] == '+') {
    const std::string_view action = token.substr(1);
    if (action == "mount" || action == "dismount" || action == "bailout") {
      MountOrDismount(w, s, action);
    } else if (action == "pinned" || action == "broken" || action == "melee" ||
               action == "disband") {
      if (w.pos.place == Place::kBank && w.unit.infantry()) ForcedInto(w, s, std::string(action));
      if (action == "broken" && w.pos.place == Place::kHex && IsPaddy(b, w.pos.hex)) {
        s.Note(rules::kG8_2111,
               "unless pinned, it is subject to the -1 FFNAM DRM until its MPh ends");
      }
      if (action == "pinned") w.unit.Set(UnitFlag::kPinned);
      if (action == "broken") w.unit.Set(UnitFlag::kBroken);
      if (action != "disband") s.Stop(rules::kG8_2111, std::string(action) + ": its MPh ends");
    } else if (action.substr(0, 7) == "breach:") {
      auto other = b.Find(action.substr(7));
      if (!other) return std::unexpected(other.error());
      const auto side = Hexside::Between(w.pos.hex, *other);
      if (!side) return BadStep(token, "the breached hexside must be one of the unit's hex");
      if (!w.o.printed_mp)
        return BadStep(token, "breaching costs ¼ of the printed MP: give --printed-mp");
      auto cost = BreachCost(b, w.unit, *side, *w.o.printed_mp);
      if (!cost) {
        s.Refuse(cost.error().rule, cost.error().message);
      } else {
        s.Charge(*cost, rules::kG8_8,
                 "breach bank hexside " + b.Name(*side) + ": ¼ (FRU) of its printed MP");
        for (GridPos hex : {w.pos.hex, *other}) {
          if (IsCovered(b, hex, *side)) {
            s.Note(rules::kG9_731, b.Name(*side) + ", a Covered hexside of the Panji counter in " +
                                       b.Name(hex) + ", becomes a non-Covered hexside");
          }
        }
        w.breached.insert(*side);
      }
    } else if (action.substr(0, 7) == "search:") {
      auto other = b.Find(action.substr(7));
      if (!other) return std::unexpected(other.error());
      if (!map::DirectionTo(w.pos.hex, *other)) {
        return BadStep(token, "a unit Searches an adjacent Location");
      }
      Search(w, s, *other);
    } else {
      return BadStep(token,
                     "unknown action (expected +mount, +dismount, +bailout, +pinned, +broken, "
                     "+melee, +disband, +breach:HEX or +search:HEX)");
    }
    return {};
  }
  if (const auto tilde = token.find('~'); tilde != std::string_view::npos) {
    auto hex = b.Find(token.substr(0, tilde));
    if (!hex) return std::unexpected(hex.error());
    auto other = b.Find(token.substr(tilde + 1));
    if (!other) return std::unexpected(other.error());
    if (!map::DirectionTo(*hex, *other)) return BadStep(token, "the two hexes are not adjacent");
    const GridPos at = w.pos.hex;
    bool reaches = at == *other;
    for (Dir d : map::kAllDirs) {
      const auto hexes = HexesAtCorner({*hex, d});
      if ((hexes[1] == *other || hexes[2] == *other) && (hexes[1] == at || hexes[2] == at)) {
        reaches = true;
      }
    }
    if (at == *hex || !reaches) {
      return BadStep(token, "the unit in " + b.Name(at) + " does not touch that hexside");
    }
    Bypass(w, s, *hex, *other);
    return {};
  }
  std::string_view pos_token = token;
  std::optional<Cost> careful;
  if (const auto at = token.find('@'); at != std::string_view::npos) {
    auto c = ParseCareful(token.substr(at + 1), token);
    if (!c) return std::unexpected(c.error());
    careful = *c;
    pos_token = token.substr(0, at);
  }
  const auto parts = SplitPositionToken(pos_token);
  auto target = b.FindPosition(pos_token);
  if (!target) return std::unexpected(target.error());
  if (target->hex == w.pos.hex) return ChangePlace(w, s, Normalize(b, *target).place, token);
  if (!map::DirectionTo(w.pos.hex, target->hex)) {
    return BadStep(token, b.Name(target->hex) + " is not adjacent to " + b.Name(w.pos.hex));
  }
  if (b.settings().frozen && IsOcean(b, target->hex)) {
    return Fail(ErrorCode::kUnsupported,
                "OCEAN is frozen: B21.6 (ice) applies (G13.494), which these texts do not hold",
                std::string(token), rules::kG13_494);
  }
  MoveToHex(w, s, target->hex, parts->place, careful);
  return {};
}

// May the unit start where the path says (set up there)?
void CheckStart(Walk& w, Step& s) {
  const Board& b = w.b;
  const Position& p = w.pos;
  const Unit& u = w.unit;
  if (IsPaddy(b, p.hex)) {
    if (p.place == Place::kBank) {
      s.Refused(MayBeOnBank(b, u, p.hex));
    } else if (p.place == Place::kHex) {
      s.Refused(MayBeIn(b, u, p.hex, false));
    }
  }
  if (p.place == Place::kAbove) s.Refused(MaySetUpAbove(u, false));
  if (u.Has(UnitFlag::kPinned)) s.Stop(rules::kG8_2111, "pinned: its MPh has ended");
  if (IsOcean(b, p.hex) && p.place != Place::kPier && OceanDepth(b, p.hex) == Depth::kDeep) {
    s.Refuse(rules::kG13_4, "deep OCEAN (" + b.Name(p.hex) + ") is a Water Obstacle");
  }
}

static_assert(kPhases.size() == static_cast<std::size_t>(Phase::kRout) + 1,
              "a name for each value");
static_assert(kTransports.size() == static_cast<std::size_t>(Transport::kVehicle) + 1,
              "a name for each value");

}  // namespace

const char* Name(Phase p) {
  return kPhases[static_cast<std::size_t>(p)];
}
std::optional<Phase> ParsePhase(std::string_view s) {
  return LookupName<Phase>(kPhases, s);
}
std::optional<Transport> ParseTransport(std::string_view s) {
  return LookupName<Transport>(kTransports, s);
}

std::vector<std::string> SplitPath(std::string_view path) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : path) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur.push_back(c);
    }
  }
  if (!cur.empty() || !out.empty()) out.push_back(cur);
  return out;
}

Cost StepReport::total() const {
  Cost t;
  for (const Charge& c : charges) t += c.cost;
  return t;
}

bool MoveReport::legal() const {
  return refusal() == nullptr;
}

Cost MoveReport::total() const {
  Cost t;
  for (const StepReport& s : steps) t += s.total();
  return t;
}

const Refusal* MoveReport::refusal() const {
  for (const StepReport& s : steps) {
    if (s.refusal) return &*s.refusal;
  }
  return nullptr;
}

Result<MoveReport> EvaluateMove(const Board& board, const MoveOptions& options,
                                const std::vector<std::string>& path) {
  if (path.empty())
    return Fail(ErrorCode::kInvalidInput, "a path needs at least its start position");
  if (board.ruleset() != Ruleset::kAsl) {
    return Fail(ErrorCode::kInvalidInput,
                "board '" + board.name() + "' uses the samurai-era rules: use samurai-move");
  }
  const Unit& u = options.unit;
  if (u.kind() == UnitKind::kBoat || u.kind() == UnitKind::kLandingCraft) {
    return Fail(ErrorCode::kUnsupported,
                "opsim does not model boat or landing-craft movement (E5, G12, G14)");
  }
  const auto hexes = board.Hexes();
  const bool has_paddy = std::any_of(hexes.begin(), hexes.end(),
                                     [](const Hex* h) { return h->terrain == Terrain::kPaddy; });
  if (has_paddy && board.settings().paddy == PaddyState::kUnset) {
    return Fail(ErrorCode::kInvalidInput,
                "the board has paddies but no paddy state: set it by SSR (--paddy) or DYO", {},
                rules::kG8_1);
  }
  auto start = board.FindPosition(path[0]);
  if (!start) return std::unexpected(start.error());

  Walk w{board, options, u, Normalize(board, *start), Cost(), std::nullopt, {}, std::nullopt};
  if (options.seed) w.dice.emplace(*options.seed);
  MoveReport report;
  report.steps.push_back({path[0], w.pos, w.pos, {}, {}, std::nullopt});
  {
    Step s(w, report.steps.back());
    CheckStart(w, s);
    if (options.double_time && u.infantry()) {
      w.cx = true;
      s.Note(rules::kAslA4_5, "Double Time: +2 MF, and the unit becomes CX");
    }
    if (s.refused()) {
      report.unit = w.unit.ToString();
      return report;
    }
  }
  for (std::size_t i = 1; i < path.size(); ++i) {
    report.steps.push_back({path[i], w.pos, w.pos, {}, {}, std::nullopt});
    Step s(w, report.steps.back());
    if (w.stopped) {
      s.Refuse(w.stopped->rule, "the unit can move no further: " + w.stopped->text);
      break;
    }
    if (auto st = Apply(w, s, path[i]); !st) return std::unexpected(st.error());
    report.steps.back().to = w.pos;
    if (s.refused()) break;
    w.spent += s.total();
    if (options.allowance && !s.forced()) {
      Cost limit = *options.allowance;
      if (options.double_time && u.infantry()) limit += Cost::Points(2);
      Cost regular;
      for (const StepReport& r : report.steps) regular += r.total();
      if (regular > limit) {
        s.Refuse(rules::kAslA4_1, "this step brings the total to " + regular.ToString() +
                                      ", beyond the unit's " + limit.ToString() +
                                      (u.infantry() ? " MF" : " MP") +
                                      (options.double_time ? " (with Double Time)" : ""));
        break;
      }
    }
  }
  report.unit = w.unit.ToString();
  report.cx = w.cx;
  return report;
}

}  // namespace opsim::tactical
