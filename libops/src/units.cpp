#include "opsim/ops/units.h"

#include <array>

namespace opsim::ops {

namespace {

constexpr std::array<const char*, 4> kStatusNames = {"on-map", "eliminated", "exited",
                                                     "reinforcement"};
constexpr std::array<const char*, 3> kSupplyNames = {"supplied", "out-of-supply", "isolated"};
constexpr std::array<const char*, 2> kAirStatusNames = {"based", "eliminated"};
constexpr std::array<const char*, 4> kNavalNames = {"tf", "cg", "transport", "flotilla"};

}  // namespace

const char* UnitStatusName(UnitStatus s) {
  return kStatusNames[static_cast<int>(s)];
}
std::string OffMapWhy(const GroundUnit& u) {
  return u.name + (u.status == UnitStatus::kReinforcement
                       ? " has not arrived (B16.1)"
                       : " is " + std::string(UnitStatusName(u.status)));
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
