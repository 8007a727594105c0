// Units on the campaign map: ground units (sized in REs), air units at airbases, and naval
// units that move in groups. Plain value types, copied with the game state.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "opsim/map/types.h"
#include "opsim/ops/tables.h"

namespace opsim::ops {

// kReinforcement: not yet arrived (B16.1); its hex is where it will enter.
enum class UnitStatus : std::uint8_t { kOnMap, kEliminated, kExited, kReinforcement };
const char* UnitStatusName(UnitStatus s);

// B8: set for each unit of the phasing side in its initial phase.
enum class SupplyStatus : std::uint8_t { kSupplied, kOutOfSupply, kIsolated };
const char* SupplyStatusName(SupplyStatus s);  // "supplied", "out-of-supply", "isolated"

struct GroundUnit {
  std::string id;  // unique, stable across the game
  std::string name;
  Side side = Side::kAxis;
  std::string nationality;
  UnitType type{};  // an index into the game's RuleTables::unit_types
  int attack = 0;
  int defense = 0;
  int mp = 0;         // movement allowance
  int re_halves = 2;  // size in half REs: a division of 3 REs is 6
  map::HexRef hex;    // where it is while on the map
  UnitStatus status = UnitStatus::kOnMap;
  SupplyStatus supply = SupplyStatus::kSupplied;
  // 41.A.4.b.4: an air-dropped unit in a massively flooded hex carries a "+3 MP" marker.
  int extra_mp_marker = 0;
  // The player-turn serial in which it was air-dropped, or -1.
  std::int32_t dropped_in = -1;

  bool on_map() const { return status == UnitStatus::kOnMap; }
};
// Why no order may name a unit off the map: "r1 is eliminated", "r1 has not arrived (B16.1)".
std::string OffMapWhy(const GroundUnit& u);

enum class AirStatus : std::uint8_t { kBased, kEliminated };
const char* AirStatusName(AirStatus s);  // "based", "eliminated"
struct AirUnit {
  std::string id;
  std::string name;
  Side side = Side::kAxis;
  std::string nationality;
  map::HexRef base;  // an airbase or ice airfield hex
  AirStatus status = AirStatus::kBased;
};

enum class NavalKind : std::uint8_t { kTaskForce, kCarrierGroup, kTransport, kFlotilla };
const char* NavalKindName(NavalKind k);  // "tf", "cg", "transport", "flotilla"
std::optional<NavalKind> ParseNavalKind(std::string_view name);

struct NavalUnit {
  std::string id;
  std::string name;
  Side side = Side::kAllied;
  std::string nationality;
  NavalKind kind = NavalKind::kTransport;
  map::HexRef hex;
  std::uint8_t area = 0;  // which body of water of its hex
  bool at_sea = false;    // false: in port
  bool sunk = false;
};

}  // namespace opsim::ops
