#include "opsim/tactical/samurai.h"

#include <algorithm>

#include "opsim/core/enum_names.h"
#include "opsim/core/rule_ids.h"
#include "opsim/tactical/los_trace.h"

namespace opsim::tactical {

namespace {

constexpr std::array<const char*, 3> kUnits = {"infantry", "cavalry", "ninja"};
constexpr std::array<const char*, 5> kOrders = {"march", "run", "assault", "move-and-fire",
                                                "ambush"};

// Per terrain: its name and the statements that rule it (empty: none).
struct SamuraiTerrainRules {
  Terrain terrain;
  const char* name;
  RuleId los;        // "... block(s) Line of Sight" or not
  RuleId no_run;     // "No unit can execute the Run order into or through"
  RuleId reduced;    // Assault / Move and Fire reduced to 1 (infantry) or 2 (cavalry) hexes
  RuleId no_ambush;  // "You cannot issue the Ambush order to any unit that is in"
};
constexpr std::array<SamuraiTerrainRules, 10> kRules = {{
    {Terrain::kPlains, "plains", rules::kSamPL_1, {}, {}, rules::kSamPL_2},
    {Terrain::kLightWoods, "light woods", rules::kSamLW_1, rules::kSamLW_2, rules::kSamLW_3, {}},
    {Terrain::kHeavyWoods, "heavy woods", rules::kSamHW_1, {}, {}, {}},
    {Terrain::kRiceFields, "rice fields", rules::kSamRF_1, rules::kSamRF_2, rules::kSamRF_3,
     rules::kSamRF_4},
    {Terrain::kSamuraiRiver, "river", rules::kSamRV_1, {}, {}, {}},
    {Terrain::kFord, "ford", rules::kSamFD_1, rules::kSamFD_3, rules::kSamFD_4, rules::kSamFD_5},
    {Terrain::kBridge, "bridge", rules::kSamBR_1, rules::kSamBR_2, rules::kSamBR_3,
     rules::kSamBR_4},
    {Terrain::kRavine, "ravine", rules::kSamRA_1, {}, {}, {}},
    {Terrain::kRockyGround, "rocky ground", rules::kSamRG_1, rules::kSamRG_2, rules::kSamRG_3,
     rules::kSamRG_4},
    {Terrain::kVillage, "village", rules::kSamVI_1, {}, {}, {}},
}};

const SamuraiTerrainRules& RulesOf(Terrain t) {
  for (const auto& r : kRules) {
    if (r.terrain == t) return r;
  }
  return kRules[0];
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
      return {true, rules::kSamLW_4};
    case Terrain::kHeavyWoods:
      if (unit == SamuraiUnit::kCavalry) return {false, rules::kSamHW_4};
      return {true, rules::kSamHW_4};
    case Terrain::kVillage:
      return {true, rules::kSamVI_2};
    default:
      break;
  }
  if (!r.no_ambush.empty()) return {false, r.no_ambush};
  return {false, rules::kSamIntro_2};
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
      refuse(1, rules::kSamIntro_2,
             "an Ambush order is executed where the unit stands: it does not move");
    return r;
  }
  if (start.terrain == Terrain::kSamuraiRiver) {
    if (order != Order::kMarch) {
      refuse(0, rules::kSamRV_5,
             "a unit in a river hex moves out of it only with the March order (it may not run)");
      return r;
    }
    r.limit = std::min(r.limit, cavalry ? 2 : 1);
    limit_rule = rules::kSamRV_5;
    note(rules::kSamRV_5, std::string("leaving the river with a March order: ") +
                              (cavalry ? "cavalry up to 2 hexes" : "infantry 1 hex"));
  }
  if (start.terrain == Terrain::kRavine && !cavalry && order == Order::kAssault) {
    r.limit = std::min(r.limit, 1);
    limit_rule = rules::kSamRA_4;
    note(rules::kSamRA_4,
         "an infantry unit in a ravine hex executing an Assault order may only move 1 hex");
  }
  for (std::size_t i = 1; i < path.size(); ++i) {
    const SamuraiHex& hex = path[i];
    const SamuraiTerrainRules& t = RulesOf(hex.terrain);
    const std::string where = hex.name + " (" + t.name + ")";
    if (hex.terrain == Terrain::kHeavyWoods) {
      if (cavalry) {
        refuse(i, rules::kSamHW_3,
               "cavalry units cannot move into or through a heavy woods hex " + where);
        return r;
      }
      if (order == Order::kAssault || order == Order::kRun) {
        {
          refuse(i, rules::kSamHW_2,
                 std::string("no unit can execute ") + Name(order) +
                     " into or through heavy woods " + where);
          return r;
        }
      }
    }
    if (hex.terrain == Terrain::kRavine) {
      if (cavalry) {
        refuse(i, rules::kSamRA_2,
               "cavalry units cannot move into or through a ravine hex " + where);
        return r;
      }
      if (order == Order::kRun) {
        refuse(i, rules::kSamRA_3,
               "infantry units cannot Run into or through a ravine hex " + where);
        return r;
      }
    }
    if (order == Order::kRun && !t.no_run.empty()) {
      {
        refuse(i, t.no_run,
               std::string("no unit can execute the Run order into or through ") + where);
        return r;
      }
    }
    if (hex.terrain == Terrain::kRockyGround && cavalry && hex.level > path[i - 1].level) {
      {
        refuse(i, rules::kSamRG_5,
               "cavalry cannot move up the slope into rocky ground on a hill " + where);
        return r;
      }
    }
    if ((order == Order::kAssault || order == Order::kMoveAndFire) && !t.reduced.empty()) {
      const int cap = cavalry ? 2 : 1;
      if (cap < r.limit) {
        r.limit = cap;
        limit_rule = t.reduced;
      }
      note(t.reduced,
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
      note(rules::kSamRV_2, "any unit may attempt to cross a river, but must make a Loss Test");
      note(rules::kSamRV_3, "the Loss Test is made immediately on entering " + where);
      if (unit != SamuraiUnit::kNinja) {
        if (i != 1) {
          {
            refuse(i, rules::kSamRV_4,
                   "a unit other than a Ninja spends its entire turn entering a river hex, "
                   "which it may enter only from an adjacent hex: it must start next to " +
                       where);
            return r;
          }
        }
        if (i + 1 < path.size()) {
          {
            refuse(i + 1, rules::kSamRV_4,
                   "a unit other than a Ninja spends its entire turn entering a river hex: "
                   "it moves no further this turn");
            return r;
          }
        }
      } else {
        note(rules::kSamRV_4, "a Ninja need not spend its entire turn entering the river");
      }
      if (hex.enemy_adjacent) {
        r.melee = true;
        note(rules::kSamRV_6,
             std::string(
                 "it entered a hex adjacent to an enemy: it must enter melee after the Loss Test") +
                 (order == Order::kAssault ? ", without any benefit of the Assault order" : ""));
      }
    }
    if (hex.terrain == Terrain::kFord)
      note(rules::kSamFD_2, "crossing the river at a ford: no Loss Test");
  }
  return r;
}

SamuraiNote LosRuling(Terrain t) {
  const SamuraiTerrainRules& r = RulesOf(t);
  const bool blocks = Info(t).obstacle;
  return {r.los, std::string(r.name) + (blocks ? " blocks LOS" : " does not block LOS")};
}

SamuraiLos CheckSamuraiLos(const Board& b, GridPos from, GridPos to) {
  SamuraiLos r;
  if (from == to) return r;
  const LosTrace t = TraceLos(from, to);
  for (GridPos hex : t.Intervening()) r.hexes.push_back(b.Name(hex));
  for (GridPos end : {from, to}) {
    if (b.At(end)->terrain == Terrain::kRavine && map::Distance(from, to) > 1) {
      r.clear = false;
      r.rule = rules::kSamRA_5;
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
