// RuleTables: opsim's base rules as data (docs/rules.md explains each table).
//
// The defaults are compiled in from libops/data/base-rules.json; a scenario or a --rules file
// may supply its own, read with the same located errors as every opsim file. Costs are held
// in half movement points (Half), the unit every movement computation uses. Immutable once
// loaded; safe to share between threads.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"
#include "opsim/map/types.h"

namespace opsim::ops {

// How a ground unit pays for terrain (B4.1): an index into MovementTables::classes, which a
// rules file names (`movement.classes`; the base rules' are foot, cavalry and motorized).
enum class MoveClass : std::uint8_t {};
inline constexpr int kMaxMoveClasses = 4;

// Movement points in halves: 2 is one MP.
using Half = std::uint16_t;
inline constexpr Half kProhibited = 0xFFFF;
inline double ToMp(std::uint32_t halves) {
  return halves / 2.0;
}

// A cost by movement class; the slots past the rules' classes are unused.
using ClassCosts = std::array<Half, kMaxMoveClasses>;

struct MovementTables {
  std::vector<std::string> classes;  // by MoveClass: "foot", "cavalry", "motorized"
  // B4.1: per hex entered, by terrain and class; the extra row is a frozen lake hex (B4.6).
  std::array<ClassCosts, map::kTerrainCount> terrain{};
  ClassCosts frozen_lake{};
  // B4.2 / B4.6: per hexside crossed, added to the hex's cost.
  ClassCosts minor_river{};
  ClassCosts major_river{};
  ClassCosts canal{};
  ClassCosts frozen_minor_river{};
  ClassCosts frozen_major_river{};
  ClassCosts frozen_lake_hexside{};
  Half road = 1;                      // B4.3: per hex along a road
  Half engineer_river_reduction = 2;  // B4.7

  const std::string& ClassName(MoveClass c) const { return classes[static_cast<int>(c)]; }
};

// B3.1: a unit type, an index into RuleTables::unit_types, which a rules file defines
// (`units.types`; the base rules' ten are infantry to artillery).
enum class UnitType : std::uint8_t {};
inline constexpr int kMaxUnitTypes = 64;

// What a unit type implies, each flag read by the rule named beside it.
struct UnitTypeRules {
  std::string name;           // "infantry", as scenarios and state files write it
  MoveClass cls{};            // B4.1: the costs it pays
  bool motorized = false;     // B7.8: it may move in the exploitation phase
  bool engineer = false;      // B4.7: its stack crosses rivers more cheaply
  bool construction = false;  // B14.2: it may build a bridge
  bool airborne = false;      // B11.3: it may be air-dropped
};

struct NavalTables {
  std::uint16_t sea_hex = 1;           // B6.2: per hex entered
  std::uint16_t riverine_hexside = 1;  // per riverine hexside entered
  std::uint16_t leave_waterway = 0;    // stepping off a waterway into a port or sea hex
  int allowance = 30;                  // B6.5: steps per player-turn
  int landing_res = 3;                 // B12: REs a group may carry and land
};

// B7.3: a result of the combat results table, defined by its effects (`combat.codes`). The
// base rules' AE, AR, EX, DR and DE are five such codes; a rules file may define its own.
struct CombatResultCode {
  std::string name;  // "DR", as the table and every event write it
  // Losses, in percent of the side's strength (attack for the attackers, defense for the
  // defenders): 100 eliminates every unit; less eliminates units weakest first until at least
  // that share is lost.
  int attacker_loss = 0, defender_loss = 0;
  // EX: the defenders are eliminated and the attackers lose at least their defense strength.
  bool exchange = false;
  // Hexes each surviving unit of the side retreats (B7.5); at most one side retreats.
  int attacker_retreat = 0, defender_retreat = 0;
};

// The hexsides the terrain effects chart may name in combat: the crossings of B4.2.
enum class CombatHexside : std::uint8_t { kMinorRiver, kMajorRiver, kCanal };
inline constexpr int kCrossingKinds = 3;
const char* CombatHexsideName(CombatHexside h);  // "minor-river", "major-river", "canal"

// A result of one attack: an index into CombatTables::codes.
struct CombatResult {
  std::uint8_t code = 0;
  friend bool operator==(CombatResult, CombatResult) = default;
};

// How the attackers' and defenders' strengths pick a column (B7.2).
enum class CrtKind : std::uint8_t {
  kOdds,          // "3:1": the ratio of attack to defense reaches the column's
  kDifferential,  // "+3": attack minus defense reaches the column's
};

// A multiplier table with every entry x1 (4 quarters).
template <std::size_t N>
constexpr std::array<int, N> TimesOne() {
  std::array<int, N> a{};
  a.fill(4);
  return a;
}

struct CombatTables {
  CrtKind kind = CrtKind::kOdds;
  int die = 6;                                     // faces of the die that picks the row
  std::vector<std::string> columns;                // "1:3" .. "9:1", or "-2" .. "+6"
  std::vector<int> column_attack, column_defense;  // odds: 2 and 1; differential: +2 and 0
  std::vector<CombatResultCode> codes;             // by CombatResult::code
  std::vector<std::vector<CombatResult>> results;  // [die 1..die][column]
  // The terrain effects chart's combat columns (B7.2). Shifts move the column; multipliers, in
  // quarters (4 is x1), scale strengths before they are totalled.
  std::array<int, map::kTerrainCount> terrain_shift{};
  std::array<int, 4> city_shift{};  // by CityKind
  // By the hexside every attacker attacks across (only the kinds of Crossing: minor river, major
  // river, canal): applied when all attackers cross that kind.
  std::array<int, kCrossingKinds> hexside_shift{};
  std::array<int, map::kTerrainCount> defense_multiplier = TimesOne<map::kTerrainCount>();
  std::array<int, kCrossingKinds> attack_multiplier = TimesOne<kCrossingKinds>();
  int out_of_supply_attack_divisor = 2;
  int overrun_odds = 10;  // B4.9
  int overrun_extra_mp = 2;

  const CombatResultCode& code(CombatResult r) const { return codes[r.code]; }
  const char* name(CombatResult r) const { return codes[r.code].name.c_str(); }
  // The column a strength of `attack` against `defense` reaches, or -1 below the first.
  int Column(int attack, int defense) const;
};

// 41.A.4: the flooding success table (results by modified roll) and its numbers.
enum class FloodResult : std::uint8_t { kCompleteFailure, kFailure, kSuccess, kGreatSuccess };
const char* FloodResultName(FloodResult r);  // "F*", "F", "S", "S*"

struct FloodTables {
  int die = 6;
  std::vector<FloodResult> results;  // index: modified roll - 1, clamped to the table
  int netherlands_modifier = 2;
  int failure_attack_modifier = -1;
  int great_success_player_turns = 4;
  int relief_srp = 3;
  int massive_relief_srp = 7;
  int monthly_relief_srp = 1;
};

struct WeatherTables {
  // By zone letter, then month (0..11), then die face (0..5): 'C', 'M', 'F' or 'S'.
  std::map<char, std::array<std::string, 12>> zones;
  bool frost_freezes = true;
  bool snow_freezes = true;
};

struct RuleTables {
  std::string name;
  MovementTables movement;
  NavalTables naval;
  CombatTables combat;
  FloodTables flooding;
  WeatherTables weather;
  int stacking_halves = 6;            // B3.2: REs per hex, in half REs
  bool zoc_from_zero_attack = false;  // B4.8: do units with no attack strength exert a ZOC
  int supply_overland_mp = 7;         // B8.2
  int rail_hexes = 20;                // B5.1
  int exploitation_divisor = 2;       // B7.8
  int air_escape_range = 10;          // B11.2
  int air_escape_die = 6;
  int air_escape_max_roll = 4;
  int air_drop_range = 10;                // B11.3
  int airbase_max_damage = 3;             // 41.A.4.b.3
  std::array<int, 5> port_max_damage{};   // by PortSize
  std::vector<UnitTypeRules> unit_types;  // by UnitType

  const UnitTypeRules& type(UnitType t) const { return unit_types[static_cast<int>(t)]; }
  std::optional<UnitType> FindType(std::string_view name) const;
  std::string TypeNames() const;  // "infantry, mountain, ...", for an error
};

// The compiled-in defaults.
const RuleTables& DefaultRuleTables();
Result<RuleTables> LoadRuleTables(const JsonSource& src);

}  // namespace opsim::ops
