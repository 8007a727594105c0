#include "opsim/tactical/samurai.h"

#include <algorithm>

#include "enum_names.h"
#include "opsim/tactical/los_trace.h"

namespace opsim::tactical {

namespace {

constexpr std::array<const char*, 3> kUnits = {"infantry", "cavalry", "ninja"};
constexpr std::array<const char*, 5> kOrders = {"march", "run", "assault", "move-and-fire",
                                                "ambush"};

// Per terrain: its section code, and the statement numbers of its rules (0: none).
struct SamuraiTerrainRules {
  Terrain terrain;
  const char* code;
  const char* name;
  int no_run;     // "No unit can execute the Run order into or through"
  int reduced;    // Assault / Move and Fire reduced to 1 (infantry) or 2 (cavalry) hexes
  int no_ambush;  // "You cannot issue the Ambush order to any unit that is in"
};
constexpr std::array<SamuraiTerrainRules, 10> kRules = {{
    {Terrain::kPlains, "PL", "plains", 0, 0, 2},
    {Terrain::kLightWoods, "LW", "light woods", 2, 3, 0},
    {Terrain::kHeavyWoods, "HW", "heavy woods", 0, 0, 0},
    {Terrain::kRiceFields, "RF", "rice fields", 2, 3, 4},
    {Terrain::kSamuraiRiver, "RV", "river", 0, 0, 0},
    {Terrain::kFord, "FD", "ford", 3, 4, 5},
    {Terrain::kBridge, "BR", "bridge", 2, 3, 4},
    {Terrain::kRavine, "RA", "ravine", 0, 0, 0},
    {Terrain::kRockyGround, "RG", "rocky ground", 2, 3, 4},
    {Terrain::kVillage, "VI", "village", 0, 0, 0},
}};

const SamuraiTerrainRules& RulesOf(Terrain t) {
  for (const auto& r : kRules) {
    if (r.terrain == t) return r;
  }
  return kRules[0];
}

std::string Id(const char* code, int n) {
  return std::string("SAM-") + code + "." + std::to_string(n);
}

static_assert(kUnits.size() == static_cast<std::size_t>(SamuraiUnit::kNinja) + 1,
              "a name for each value");
static_assert(kOrders.size() == static_cast<std::size_t>(Order::kAmbush) + 1,
              "a name for each value");

}  // namespace

const char* Name(SamuraiUnit u) {
  return kUnits[static_cast<std::size_t>(u)];
}
const char* Name(Order o) {
  return kOrders[static_cast<std::size_t>(o)];
}
std::optional<SamuraiUnit> ParseSamuraiUnit(std::string_view s) {
  return LookupName<SamuraiUnit>(kUnits, s);
}
std::optional<Order> ParseOrder(std::string_view s) {
  return LookupName<Order>(kOrders, s);
}
std::string OrderNames() {
  return JoinNames(kOrders);
}

int BaseAllowance(SamuraiUnit u, Order o) {
  const bool cavalry = u == SamuraiUnit::kCavalry;
  switch (o) {
    case Order::kMarch:
      return cavalry ? 4 : 2;
    case Order::kRun:
      return cavalry ? 6 : 3;
    case Order::kAssault:
      return cavalry ? 4 : 2;
    case Order::kMoveAndFire:
      return cavalry ? 2 : 1;
    case Order::kAmbush:
      return 0;
  }
  return 0;
}

AmbushRuling MayAmbush(SamuraiUnit unit, Terrain terrain) {
  const SamuraiTerrainRules& r = RulesOf(terrain);
  switch (terrain) {
    case Terrain::kLightWoods:
      return {true, Id("LW", 4)};
    case Terrain::kHeavyWoods:
      if (unit == SamuraiUnit::kCavalry) return {false, Id("HW", 4)};
      return {true, Id("HW", 4)};
    case Terrain::kVillage:
      return {true, Id("VI", 2)};
    default:
      break;
  }
  if (r.no_ambush) return {false, Id(r.code, r.no_ambush)};
  return {false, "SAM-INTRO.2"};
}

SamuraiMoveReport EvaluateSamuraiMove(SamuraiUnit unit, Order order, std::optional<int> allowance,
                                      const std::vector<SamuraiHex>& path) {
  SamuraiMoveReport r;
  const bool cavalry = unit == SamuraiUnit::kCavalry;
  r.allowance = allowance.value_or(BaseAllowance(unit, order));
  r.limit = r.allowance;
  std::string limit_rule = "opsim allowance";
  auto refuse = [&](std::size_t step, std::string rule, std::string text) {
    if (!r.refusal) {
      r.refusal = SamuraiNote{std::move(rule), std::move(text)};
      r.refused_step = step;
    }
  };
  auto note = [&](std::string rule, std::string text) {
    r.notes.push_back({std::move(rule), std::move(text)});
  };
  if (path.empty()) return r;
  const SamuraiHex& start = path[0];

  if (order == Order::kAmbush) {
    const AmbushRuling a = MayAmbush(unit, start.terrain);
    if (!a.allowed) {
      refuse(0, a.rule,
             std::string("a ") + Name(unit) + " in " + RulesOf(start.terrain).name +
                 " may not execute an Ambush order");
    } else {
      note(a.rule, std::string("a ") + Name(unit) + " in " + RulesOf(start.terrain).name +
                       " may execute an Ambush order");
    }
    if (path.size() > 1)
      refuse(1, "SAM-INTRO.2",
             "an Ambush order is executed where the unit stands: it does not move");
    return r;
  }
  if (start.terrain == Terrain::kSamuraiRiver) {
    if (order != Order::kMarch) {
      refuse(0, Id("RV", 5),
             "a unit in a river hex moves out of it only with the March order (it may not run)");
      return r;
    }
    r.limit = std::min(r.limit, cavalry ? 2 : 1);
    limit_rule = Id("RV", 5);
    note(Id("RV", 5), std::string("leaving the river with a March order: ") +
                          (cavalry ? "cavalry up to 2 hexes" : "infantry 1 hex"));
  }
  if (start.terrain == Terrain::kRavine && !cavalry && order == Order::kAssault) {
    r.limit = std::min(r.limit, 1);
    limit_rule = Id("RA", 4);
    note(Id("RA", 4),
         "an infantry unit in a ravine hex executing an Assault order may only move 1 hex");
  }
  for (std::size_t i = 1; i < path.size(); ++i) {
    const SamuraiHex& hex = path[i];
    const SamuraiTerrainRules& t = RulesOf(hex.terrain);
    const std::string where = hex.name + " (" + t.name + ")";
    if (hex.terrain == Terrain::kHeavyWoods) {
      if (cavalry) {
        refuse(i, Id("HW", 3),
               "cavalry units cannot move into or through a heavy woods hex " + where);
        return r;
      }
      if (order == Order::kAssault || order == Order::kRun) {
        {
          refuse(i, Id("HW", 2),
                 std::string("no unit can execute ") + Name(order) +
                     " into or through heavy woods " + where);
          return r;
        }
      }
    }
    if (hex.terrain == Terrain::kRavine) {
      if (cavalry) {
        refuse(i, Id("RA", 2), "cavalry units cannot move into or through a ravine hex " + where);
        return r;
      }
      if (order == Order::kRun) {
        refuse(i, Id("RA", 3), "infantry units cannot Run into or through a ravine hex " + where);
        return r;
      }
    }
    if (order == Order::kRun && t.no_run) {
      {
        refuse(i, Id(t.code, t.no_run),
               std::string("no unit can execute the Run order into or through ") + where);
        return r;
      }
    }
    if (hex.terrain == Terrain::kRockyGround && cavalry && hex.level > path[i - 1].level) {
      {
        refuse(i, Id("RG", 5),
               "cavalry cannot move up the slope into rocky ground on a hill " + where);
        return r;
      }
    }
    if ((order == Order::kAssault || order == Order::kMoveAndFire) && t.reduced) {
      const int cap = cavalry ? 2 : 1;
      if (cap < r.limit) {
        r.limit = cap;
        limit_rule = Id(t.code, t.reduced);
      }
      note(Id(t.code, t.reduced),
           std::string(Name(order)) + " into " + where + ": " +
               (cavalry ? "cavalry may only move up to 2 hexes" : "infantry may only move 1 hex") +
               " (SAM-INTRO.3: applied when entering)");
    }
    if (static_cast<int>(i) > r.limit) {
      {
        refuse(i, limit_rule,
               "hex " + std::to_string(i) + " of the move, " + where + ", is beyond the " +
                   std::to_string(r.limit) + " hex(es) the unit may move");
        return r;
      }
    }
    if (hex.terrain == Terrain::kSamuraiRiver) {
      r.loss_test = true;
      note(Id("RV", 2), "any unit may attempt to cross a river, but must make a Loss Test");
      note(Id("RV", 3), "the Loss Test is made immediately on entering " + where);
      if (unit != SamuraiUnit::kNinja) {
        if (i != 1) {
          {
            refuse(i, Id("RV", 4),
                   "a unit other than a Ninja spends its entire turn entering a river hex, "
                   "which it may enter only from an adjacent hex: it must start next to " +
                       where);
            return r;
          }
        }
        if (i + 1 < path.size()) {
          {
            refuse(i + 1, Id("RV", 4),
                   "a unit other than a Ninja spends its entire turn entering a river hex: "
                   "it moves no further this turn");
            return r;
          }
        }
      } else {
        note(Id("RV", 4), "a Ninja need not spend its entire turn entering the river");
      }
      if (hex.enemy_adjacent) {
        r.melee = true;
        note(Id("RV", 6),
             std::string(
                 "it entered a hex adjacent to an enemy: it must enter melee after the Loss Test") +
                 (order == Order::kAssault ? ", without any benefit of the Assault order" : ""));
      }
    }
    if (hex.terrain == Terrain::kFord)
      note(Id("FD", 2), "crossing the river at a ford: no Loss Test");
  }
  return r;
}

SamuraiNote LosRuling(Terrain t) {
  const SamuraiTerrainRules& r = RulesOf(t);
  const bool blocks = Info(t).obstacle;
  return {Id(r.code, 1), std::string(r.name) + (blocks ? " blocks LOS" : " does not block LOS")};
}

SamuraiLos CheckSamuraiLos(const Board& b, GridPos from, GridPos to) {
  SamuraiLos r;
  if (from == to) return r;
  const LosTrace t = TraceLos(from, to);
  for (GridPos hex : t.Intervening()) r.hexes.push_back(b.Name(hex));
  for (GridPos end : {from, to}) {
    if (b.At(end)->terrain == Terrain::kRavine && map::Distance(from, to) > 1) {
      r.clear = false;
      r.rule = Id("RA", 5);
      r.reason = "a unit in ravine " + b.Name(end) + " sees, and is seen by, adjacent hexes only";
      return r;
    }
  }
  auto blocked_by = [&](GridPos hex, const std::string& how) {
    const Terrain terrain = b.At(hex)->terrain;
    if (!Info(terrain).obstacle) return false;
    r.clear = false;
    r.rule = LosRuling(terrain).rule;
    r.reason = b.Name(hex) + " (" + RulesOf(terrain).name + ")" + how + " blocks LOS";
    return true;
  };
  for (GridPos hex : t.Intervening()) {
    if (blocked_by(hex, "")) return r;
  }
  for (const Hexside& h : t.along) {
    if (blocked_by(h.first(), ", along whose hexside the LOS runs,") ||
        blocked_by(h.second(), ", along whose hexside the LOS runs,")) {
      return r;
    }
  }
  return r;
}

LossTest RollLossTest(Dice& dice, int models) {
  LossTest t;
  for (int i = 0; i < models; ++i) {
    const int roll = dice.Roll(20);
    t.rolls.push_back(roll);
    if (roll <= 10) {
      ++t.safe;
    } else {
      ++t.casualties;
    }
  }
  t.fortitude_test = t.casualties > 0;
  return t;
}

}  // namespace opsim::tactical
