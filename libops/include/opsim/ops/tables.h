// RuleTables: opsim's base rules as data (docs/rules.md explains each table).
//
// The defaults are compiled in from libops/data/base-rules.json; a scenario or a --rules file
// may supply its own, read with the same located errors as every opsim file. Costs are held
// in half movement points (Half), the unit every movement computation uses. Immutable once
// loaded; safe to share between threads.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "opsim/error.h"
#include "opsim/map/json_source.h"
#include "opsim/map/types.h"

namespace opsim::ops {

// How a ground unit pays for terrain (B4.1).
enum class MoveClass : std::uint8_t { kFoot, kCavalry, kMotorized };
inline constexpr int kMoveClassCount = 3;
const char* MoveClassName(MoveClass c);

// Movement points in halves: 2 is one MP.
using Half = std::uint16_t;
inline constexpr Half kProhibited = 0xFFFF;
inline double ToMp(std::uint32_t halves) {
  return halves / 2.0;
}

struct MovementTables {
  // B4.1: per hex entered, by terrain and class; the extra row is a frozen lake hex (B4.6).
  std::array<std::array<Half, kMoveClassCount>, map::kTerrainCount> terrain{};
  std::array<Half, kMoveClassCount> frozen_lake{};
  // B4.2 / B4.6: per hexside crossed, added to the hex's cost.
  std::array<Half, kMoveClassCount> minor_river{};
  std::array<Half, kMoveClassCount> major_river{};
  std::array<Half, kMoveClassCount> canal{};
  std::array<Half, kMoveClassCount> frozen_minor_river{};
  std::array<Half, kMoveClassCount> frozen_major_river{};
  std::array<Half, kMoveClassCount> frozen_lake_hexside{};
  Half road = 1;                      // B4.3: per hex along a road
  Half engineer_river_reduction = 2;  // B4.7
};

struct NavalTables {
  std::uint16_t sea_hex = 1;           // B6.2: per hex entered
  std::uint16_t riverine_hexside = 1;  // per riverine hexside entered
  std::uint16_t leave_waterway = 0;    // stepping off a waterway into a port or sea hex
};

struct RuleTables {
  std::string name;
  MovementTables movement;
  NavalTables naval;
};

// The compiled-in defaults.
const RuleTables& DefaultRuleTables();
Result<RuleTables> LoadRuleTables(const JsonSource& src);

}  // namespace opsim::ops
