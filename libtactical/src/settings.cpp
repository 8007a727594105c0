#include "opsim/tactical/settings.h"

#include "opsim/core/enum_names.h"

namespace opsim::tactical {

namespace {

constexpr std::array<const char*, 4> kPaddy = {"unset", "drained", "irrigated", "in-season"};
constexpr std::array<const char*, 7> kEc = {"very-dry", "dry", "moderate", "wet",
                                            "overcast", "mud", "snow"};
constexpr std::array<const char*, 4> kSlope = {"unset", "slight", "moderate", "steep"};
constexpr std::array<const char*, 2> kTide = {"high", "low"};
constexpr std::array<const char*, 3> kReef = {"none", "exposed", "submerged"};
constexpr std::array<const char*, 3> kWater = {"ocean", "lake", "river"};
constexpr std::array<const char*, 3> kSeawall = {"none", "low", "high"};

static_assert(kPaddy.size() == static_cast<std::size_t>(PaddyState::kInSeason) + 1,
              "a name for each value");
static_assert(kEc.size() == static_cast<std::size_t>(Ec::kSnow) + 1, "a name for each value");
static_assert(kSlope.size() == static_cast<std::size_t>(Slope::kSteep) + 1,
              "a name for each value");
static_assert(kTide.size() == static_cast<std::size_t>(Tide::kLow) + 1, "a name for each value");
static_assert(kReef.size() == static_cast<std::size_t>(Reef::kSubmerged) + 1,
              "a name for each value");
static_assert(kWater.size() == static_cast<std::size_t>(Water::kRiver) + 1,
              "a name for each value");
static_assert(kSeawall.size() == static_cast<std::size_t>(Seawall::kHigh) + 1,
              "a name for each value");

}  // namespace

const char* Name(PaddyState s) {
  return kPaddy[static_cast<std::size_t>(s)];
}
const char* Name(Ec e) {
  return kEc[static_cast<std::size_t>(e)];
}
const char* Name(Slope s) {
  return kSlope[static_cast<std::size_t>(s)];
}
const char* Name(Tide t) {
  return kTide[static_cast<std::size_t>(t)];
}
const char* Name(Reef r) {
  return kReef[static_cast<std::size_t>(r)];
}
const char* Name(Water w) {
  return kWater[static_cast<std::size_t>(w)];
}
const char* Name(Seawall s) {
  return kSeawall[static_cast<std::size_t>(s)];
}

std::optional<PaddyState> ParsePaddyState(std::string_view s) {
  return LookupName<PaddyState>(kPaddy, s, 1);
}
std::optional<Ec> ParseEc(std::string_view s) {
  return LookupName<Ec>(kEc, s);
}
std::optional<Slope> ParseSlope(std::string_view s) {
  return LookupName<Slope>(kSlope, s, 1);
}
std::optional<Tide> ParseTide(std::string_view s) {
  return LookupName<Tide>(kTide, s);
}
std::optional<Reef> ParseReef(std::string_view s) {
  return LookupName<Reef>(kReef, s);
}
std::optional<Water> ParseWater(std::string_view s) {
  return LookupName<Water>(kWater, s);
}
std::optional<Seawall> ParseSeawall(std::string_view s) {
  return LookupName<Seawall>(kSeawall, s);
}

std::string PaddyStateNames() {
  return JoinNames(kPaddy, 1);
}
std::string EcNames() {
  return JoinNames(kEc);
}
std::string SlopeNames() {
  return JoinNames(kSlope, 1);
}
std::string TideNames() {
  return JoinNames(kTide);
}
std::string ReefNames() {
  return JoinNames(kReef);
}
std::string WaterNames() {
  return JoinNames(kWater);
}
std::string SeawallNames() {
  return JoinNames(kSeawall);
}

}  // namespace opsim::tactical
