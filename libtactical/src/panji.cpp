#include "opsim/tactical/panji.h"

#include <algorithm>

#include "opsim/core/rule_ids.h"
#include "opsim/tactical/paddy.h"
#include "text.h"

namespace opsim::tactical {

namespace {

// "37DD7-CC8": the neighbour written without the board number the first hex already gives.
std::string ShortHexside(const Board& b, GridPos hex, Dir d) {
  const std::string first = b.Name(hex);
  std::string second = b.Name(map::Neighbor(hex, d));
  std::size_t n = 0;
  while (n < first.size() && first[n] >= '0' && first[n] <= '9') ++n;
  if (n > 0 && second.compare(0, n, first, 0, n) == 0) second.erase(0, n);
  return first + "-" + second;
}

std::vector<Dir> CoveredDirs(const PanjiCounter& p) {
  std::vector<Dir> out;
  for (Dir d : map::kAllDirs) {
    if (p.Covers(d)) out.push_back(d);
  }
  return out;
}

Dir TakeRandom(std::vector<Dir>& from, Dice& dice) {
  const auto i = static_cast<std::size_t>(dice.Roll(static_cast<int>(from.size())) - 1);
  const Dir d = from[i];
  from.erase(from.begin() + static_cast<std::ptrdiff_t>(i));
  return d;
}

}  // namespace

bool IsCovered(const Board& b, GridPos hex, const Hexside& h) {
  const Hex* x = b.At(hex);
  if (x == nullptr || !x->panji || !h.Touches(hex)) return false;
  // G9.731: a Covered paddy hexside breached by a dozer (G8.8) is a non-Covered hexside.
  if (b.Features(h).breached && IsBankHexside(b, h)) return false;
  return x->panji->Covers(*map::DirectionTo(hex, h.Other(hex)));
}

std::string HipRecordOf(const Board& b, GridPos hex) {
  const PanjiCounter& p = *b.At(hex)->panji;
  return std::string("Panji ") + p.id() + ": " + ShortHexside(b, hex, p.top());
}

PanjiSetupReport CheckPanjiSetup(const Board& b, std::optional<int> ob_covered) {
  PanjiSetupReport r;
  r.ob_limit = ob_covered;
  auto problem = [&](std::string rule, std::string message, std::string hex = {}) {
    r.problems.push_back({std::move(rule), std::move(message), std::move(hex)});
  };
  bool any = false;
  for (const Hex* h : b.Hexes()) {
    if (!h->panji) continue;
    any = true;
    const PanjiCounter& p = *h->panji;
    const std::string name = b.Name(h->cell);
    PanjiSetupEntry e{name, p.id(), p.hidden(), HipRecordOf(b, h->cell), {}};
    for (Dir d : CoveredDirs(p)) e.covered.push_back(ShortHexside(b, h->cell, d));
    r.covered_total += p.covered_count();
    const TerrainInfo& info = Info(h->terrain);
    const bool banned = h->terrain == Terrain::kBuilding || h->terrain == Terrain::kRubble ||
                        h->terrain == Terrain::kMarsh || h->terrain == Terrain::kSwamp ||
                        h->terrain == Terrain::kRunway || h->terrain == Terrain::kCrag ||
                        h->road == Road::kPaved || info.water_obstacle ||
                        h->terrain == Terrain::kOcean;
    if (banned) {
      problem(rules::kG9_1,
              "Panji " + std::string(1, p.id()) + " in " + name + ": panjis may not be set up in " +
                  (h->road == Road::kPaved ? std::string("paved road") : info.name),
              name);
    } else if (h->Has(CounterType::kRubble)) {
      // A Rubble counter makes its hex rubble (as in OCEAN, G13.493).
      problem(rules::kG9_1,
              "Panji " + std::string(1, p.id()) + " in " + name +
                  ": panjis may not be set up in rubble (the hex holds a Rubble counter)",
              name);
    }
    for (CounterType t : {CounterType::kWire, CounterType::kMines, CounterType::kRoadblock}) {
      if (h->Has(t)) {
        problem(rules::kG9_1,
                "Panji " + std::string(1, p.id()) + " in " + name +
                    ": panjis may not be set up in a hex with " + Name(t),
                name);
      }
    }
    if (h->bridge) {
      for (Dir d : CoveredDirs(p)) {
        if (!b.Features(Hexside::Of(h->cell, d)).road) {
          problem(rules::kG9_1,
                  "Panji " + std::string(1, p.id()) + " in bridge Location " + name +
                      ": only road hexsides may be Covered, and " + ShortHexside(b, h->cell, d) +
                      " is not one",
                  name);
        }
      }
    }
    r.panjis.push_back(std::move(e));
  }
  if (any && !b.settings().pto) {
    problem(rules::kG9_1, "panjis may be set up only in a scenario that uses PTO Terrain (G.1)");
  }
  for (const BoardUnit& u : b.units()) {
    const Hex* h = b.At(u.at.hex);
    if (u.at.place == Place::kBank && h->panji) {
      problem(rules::kG8_7,
              u.name + ": the use of a Bank counter is NA in a paddy hex with a Panji counter",
              b.Name(u.at.hex));
    }
    if (u.at.place == Place::kAbove) {
      if (auto s = MaySetUpAbove(u.unit, false); !s) {
        problem(s.error().rule, u.name + ": " + s.error().message, b.Name(u.at.hex));
      }
    }
  }
  if (ob_covered && r.covered_total > *ob_covered) {
    problem(rules::kG9_1, "the Panji counters have " + std::to_string(r.covered_total) +
                              " Covered hexsides, more than the OB allots (" +
                              std::to_string(*ob_covered) + ")");
  }
  return r;
}

Status CheckPanjiBoardSetup(const Board& b) {
  const PanjiSetupReport r = CheckPanjiSetup(b, std::nullopt);
  if (r.legal()) return {};
  const PanjiProblem& p = r.problems.front();
  return Fail(ErrorCode::kInvalidInput, p.message,
              p.hex.empty() ? b.file() : b.file() + ": " + p.hex, p.rule);
}

PanjiMc ResolvePanjiMc(int die1, int die2, int drm, int morale, bool pin_immune) {
  PanjiMc mc;
  mc.dice[0] = die1;
  mc.dice[1] = die2;
  mc.drm = drm;
  mc.morale = morale;
  mc.final_dr = die1 + die2 + drm;
  mc.passed = mc.final_dr <= morale;
  mc.pinned = mc.final_dr == morale && !pin_immune;
  mc.casualty_reduction = die1 == die2 && die1 + die2 < 12;
  mc.casualty_mc = die1 + die2 == 12;
  if (!mc.passed) mc.sequence.push_back("Replacement (if applicable)");
  if (mc.casualty_reduction) mc.sequence.push_back("Casualty Reduction (Original Doubles < 12)");
  if (mc.casualty_mc) mc.sequence.push_back("Casualty MC (Original 12; A10.31)");
  if (!mc.passed) mc.sequence.push_back("broken (Panji MC failed)");
  if (mc.pinned) mc.sequence.push_back("pinned (Final DR equals morale)");
  return mc;
}

PanjiMc RollPanjiMc(Dice& dice, int drm, int morale, bool pin_immune) {
  const int a = dice.Roll(6);
  const int b = dice.Roll(6);
  return ResolvePanjiMc(a, b, drm, morale, pin_immune);
}

Status MaySetUpAbove(const Unit& u, bool non_vehicular_gun) {
  if (non_vehicular_gun)
    return Refuse("a non-vehicular Gun may not set up above a Panji counter", rules::kG9_12);
  if (auto s = MayChangeAboveBeneath(u); !s) {
    return Refuse(
        "a unit not allowed to move from above to beneath a Panji counter may not set up "
        "above one (" +
            s.error().message + ")",
        rules::kG9_12);
  }
  return {};
}

Status MayChangeAboveBeneath(const Unit& u) {
  if (u.full_tracked_afv_or_dozer()) return {};
  if (u.kind() == UnitKind::kInfantry && !u.manhandling()) return {};
  if (u.kind() == UnitKind::kCavalry) return {};
  return Refuse(
      std::string("only Mobile fully-tracked AFV/dozers, Infantry not Manhandling, \"led\" "
                  "horses and Cavalry may change between beneath and above a Panji "
                  "counter, not ") +
          u.ToString(),
      rules::kG9_5);
}

Status MayExitAcrossCovered(const Unit& u) {
  if (auto s = MayChangeAboveBeneath(u); !s) {
    return Refuse(
        std::string("only Mobile fully-tracked AFV/dozers, Infantry not Manhandling, "
                    "\"led\" horses and Cavalry may exit across a Covered hexside, not ") +
            u.ToString(),
        rules::kG9_6);
  }
  return {};
}

Status MayBypassAlong(const Board& b, GridPos hex, const Hexside& along) {
  const Hex* h = b.At(hex);
  if (h == nullptr || !h->panji) return {};
  const Dir d = *map::DirectionTo(hex, along.Other(hex));
  if (h->panji->Covers(d)) {
    return Refuse("Bypass in panji Location " + b.Name(hex) + " along " + ShortHexside(b, hex, d) +
                      " is NA: it is a Covered hexside",
                  rules::kG9_46);
  }
  for (int turn : {-1, 1}) {
    const Dir n = map::Rotate(d, turn);
    if (h->panji->Covers(n)) {
      return Refuse("Bypass in panji Location " + b.Name(hex) + " along " +
                        ShortHexside(b, hex, d) + " is NA: it touches Covered hexside " +
                        ShortHexside(b, hex, n),
                    rules::kG9_46);
    }
  }
  return {};
}

ParachutePlacement PlaceParachute(int dr, const PanjiCounter& p, bool broken, bool half_inch) {
  ParachutePlacement r;
  r.dr = dr;
  r.drm = (broken || half_inch ? 1 : 0) + (p.covered_count() + 1) / 2;
  r.final_dr = dr + r.drm;
  r.above = r.final_dr >= 6;
  return r;
}

int GliderCrashDrm(const Board& b, GridPos hex, const Hexside& avenue) {
  return IsCovered(b, hex, avenue) ? 1 : 0;
}

bool SearchRisksCasualties(const Board& b, GridPos searcher, GridPos searched) {
  const auto side = Hexside::Between(searcher, searched);
  if (!side) return false;
  return IsCovered(b, searched, *side) || IsCovered(b, searcher, *side);
}

Status ClearCoveredHexside(PanjiCounter& p, Dir d) {
  if (!p.Uncover(d)) return Refuse("that hexside is not a Covered hexside", rules::kG9_71);
  return {};
}

std::vector<Dir> ApplyHeKia(PanjiCounter& p, int kia, bool indirect, std::optional<Dir> dc_across,
                            const std::vector<Dir>& chosen, Dice& dice) {
  std::vector<Dir> changed;
  std::vector<Dir> left = CoveredDirs(p);
  auto take = [&](Dir d) {
    p.Uncover(d);
    changed.push_back(d);
    if (auto it = std::find(left.begin(), left.end(), d); it != left.end()) left.erase(it);
  };
  if (dc_across && p.Covers(*dc_across) && kia > 0) take(*dc_across);
  for (Dir d : chosen) {
    if (static_cast<int>(changed.size()) >= kia || indirect) break;
    if (p.Covers(d)) take(d);
  }
  while (static_cast<int>(changed.size()) < kia && !left.empty()) {
    take(indirect ? TakeRandom(left, dice) : left.front());
  }
  return changed;
}

Result<int> AfvClearanceCost(const Unit& u, bool beneath, bool stopped, bool reverse_or_vbm,
                             int printed_mp) {
  if (!u.full_tracked_afv_or_dozer()) {
    return Refuse("only a fully-tracked AFV/dozer may clear a Covered hexside", rules::kG9_73);
  }
  if (!beneath) return Refuse("the AFV/dozer must be beneath the Panji counter", rules::kG9_73);
  if (stopped || reverse_or_vbm) {
    return Refuse("the AFV/dozer may not be Stopped, nor use Reverse movement or VBM",
                  rules::kG9_73);
  }
  return (printed_mp + 3) / 4;
}

std::vector<std::string> RemovePanjiIfEliminated(Board& b, GridPos hex, bool shellholes_created) {
  Hex* h = b.MutableAt(hex);
  if (h == nullptr || !h->panji) return {};
  if (shellholes_created && !h->Has(CounterType::kShellholes)) {
    h->counters.push_back(CounterType::kShellholes);
  }
  if (!shellholes_created && h->panji->covered_count() > 0) return {};
  h->panji.reset();
  std::vector<std::string> placed;
  for (BoardUnit& u : b.mutable_units()) {
    if (u.at.hex == hex && (u.at.place == Place::kAbove || u.at.place == Place::kBeneath)) {
      u.at.place = Place::kHex;
      placed.push_back(u.name);
    }
  }
  return placed;
}

PanjiBombardment BombardPanji(PanjiCounter& p, Dice& dice) {
  PanjiBombardment r;
  r.dice[0] = dice.Roll(6);
  r.dice[1] = dice.Roll(6);
  r.failed_by = std::max(0, r.dice[0] + r.dice[1] - 8);
  std::vector<Dir> left = CoveredDirs(p);
  for (int i = 0; i < r.failed_by && !left.empty(); ++i) {
    const Dir d = TakeRandom(left, dice);
    p.Uncover(d);
    r.uncovered.push_back(d);
  }
  return r;
}

}  // namespace opsim::tactical
