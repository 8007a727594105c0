#include "opsim/ops/units.h"

#include <array>

namespace opsim::ops {

namespace {

constexpr std::array<const char*, 10> kTypeNames = {
    "infantry",   "mountain", "airborne", "cavalry",      "motorized",
    "mechanized", "armor",    "engineer", "construction", "artillery"};
constexpr std::array<const char*, 3> kStatusNames = {"on-map", "eliminated", "exited"};
constexpr std::array<const char*, 3> kSupplyNames = {"supplied", "out-of-supply", "isolated"};
constexpr std::array<const char*, 2> kAirStatusNames = {"based", "eliminated"};
constexpr std::array<const char*, 4> kNavalNames = {"tf", "cg", "transport", "flotilla"};

}  // namespace

const char* UnitTypeName(UnitType t) {
  return kTypeNames[static_cast<int>(t)];
}
std::optional<UnitType> ParseUnitType(std::string_view name) {
  for (std::size_t i = 0; i < kTypeNames.size(); ++i) {
    if (name == kTypeNames[i]) return static_cast<UnitType>(i);
  }
  return std::nullopt;
}

UnitTraits TraitsOf(UnitType t) {
  UnitTraits u;
  switch (t) {
    case UnitType::kInfantry:
    case UnitType::kMountain:
    case UnitType::kArtillery:
      break;
    case UnitType::kAirborne:
      u.airborne = true;
      break;
    case UnitType::kCavalry:
      u.cls = MoveClass::kCavalry;
      u.cavalry = true;
      break;
    case UnitType::kMotorized:
    case UnitType::kMechanized:
      u.cls = MoveClass::kMotorized;
      u.motorized = true;
      break;
    case UnitType::kArmor:
      u.cls = MoveClass::kMotorized;
      u.motorized = true;
      u.armor = true;
      break;
    case UnitType::kEngineer:
      u.engineer = true;
      u.construction = true;
      break;
    case UnitType::kConstruction:
      u.construction = true;
      break;
  }
  return u;
}

const char* UnitStatusName(UnitStatus s) {
  return kStatusNames[static_cast<int>(s)];
}
const char* SupplyStatusName(SupplyStatus s) {
  return kSupplyNames[static_cast<int>(s)];
}
const char* AirStatusName(AirStatus s) {
  return kAirStatusNames[static_cast<int>(s)];
}
const char* NavalKindName(NavalKind k) {
  return kNavalNames[static_cast<int>(k)];
}
std::optional<NavalKind> ParseNavalKind(std::string_view name) {
  for (std::size_t i = 0; i < kNavalNames.size(); ++i) {
    if (name == kNavalNames[i]) return static_cast<NavalKind>(i);
  }
  return std::nullopt;
}

}  // namespace opsim::ops
