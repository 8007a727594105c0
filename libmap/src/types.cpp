#include <array>

#include "opsim/core/enum_names.h"
#include "opsim/map/theater.h"
#include "opsim/map/types.h"

namespace opsim {

namespace {

// The names of each enum, indexed by its value (opsim/core/enum_names.h looks them up).
constexpr std::array<const char*, 2> kSideNames = {"axis", "allied"};
constexpr std::array<const char*, 3> kOwnerNames = {"axis", "allied", "none"};

}  // namespace

const char* SideName(Side s) {
  return kSideNames[static_cast<int>(s)];
}
std::optional<Side> ParseSide(std::string_view name) {
  return LookupName<Side>(kSideNames, name);
}
const char* OwnerName(Owner o) {
  return kOwnerNames[static_cast<int>(o)];
}

namespace map {

namespace {

constexpr std::array<const char*, kTerrainCount> kTerrainNames = {
    "clear",           "rough",      "forest",  "swamp", "mountain",
    "canal-intensive", "prohibited", "all-sea", "lake"};
constexpr std::array<const char*, kCoastCount> kCoastNames = {"none", "partial-sea",
                                                              "partial-lake"};
constexpr std::array<const char*, kCityKindCount> kCityNames = {"none", "dot", "partial-hex-major",
                                                                "full-hex-major"};
constexpr std::array<const char*, kPortSizeCount> kPortNames = {"none", "minor", "standard",
                                                                "major", "great"};
constexpr std::array<const char*, kHexsideWaterCount> kHexsideWaterNames = {"none", "partial-sea",
                                                                            "all-sea", "lake"};
constexpr std::array<const char*, kHexsideFeatureCount> kFeatureNames = {
    "major-river", "minor-river",    "canal",  "road",    "railroad",
    "rail-ferry",  "narrow-straits", "border", "causeway"};
constexpr std::array<const char*, 11> kAreaRoleNames = {
    "none",           "netherlands", "egyptian-delta", "greater-germany", "iran",  "sea-of-azov",
    "baltic-islands", "estonia",     "kerch-straits",  "sivash",          "vuoksa"};
// By WaterwayRule; the first is kNone.
constexpr std::array<RuleId, 7> kWaterwayRules = {
    RuleId{}, rules::k41B, rules::k41C, rules::k41D, rules::k41E1, rules::k41E3, rules::k41E6};
constexpr std::array<const char*, 4> kMapEdgeNames = {"north", "east", "south", "west"};

}  // namespace

const char* TerrainName(Terrain t) {
  return kTerrainNames[static_cast<int>(t)];
}
std::optional<Terrain> ParseTerrain(std::string_view name) {
  return LookupName<Terrain>(kTerrainNames, name);
}
const char* CoastName(Coast c) {
  return kCoastNames[static_cast<int>(c)];
}
const char* CityKindName(CityKind c) {
  return kCityNames[static_cast<int>(c)];
}
std::optional<CityKind> ParseCityKind(std::string_view name) {
  return LookupName<CityKind>(kCityNames, name);
}
const char* PortSizeName(PortSize p) {
  return kPortNames[static_cast<int>(p)];
}
std::optional<PortSize> ParsePortSize(std::string_view name) {
  return LookupName<PortSize>(kPortNames, name);
}
const char* HexsideWaterName(HexsideWater w) {
  return kHexsideWaterNames[static_cast<int>(w)];
}

const char* HexsideFeatureName(HexsideFeature f) {
  for (int i = 0; i < kHexsideFeatureCount; ++i) {
    if (f == (1u << i)) return kFeatureNames[i];
  }
  return "?";
}
std::optional<HexsideFeature> ParseHexsideFeature(std::string_view name) {
  for (int i = 0; i < kHexsideFeatureCount; ++i) {
    if (name == kFeatureNames[i]) return static_cast<HexsideFeature>(1u << i);
  }
  return std::nullopt;
}

const char* AreaRoleName(AreaRole r) {
  return kAreaRoleNames[static_cast<int>(r)];
}
std::optional<AreaRole> ParseAreaRole(std::string_view name) {
  return LookupName<AreaRole>(kAreaRoleNames, name);
}
RuleId WaterwayRuleId(WaterwayRule r) {
  return kWaterwayRules[static_cast<int>(r)];
}
std::optional<WaterwayRule> ParseWaterwayRule(std::string_view id) {
  if (id.empty()) return std::nullopt;
  for (std::size_t i = 1; i < kWaterwayRules.size(); ++i) {
    if (kWaterwayRules[i].id == id) return static_cast<WaterwayRule>(i);
  }
  return std::nullopt;
}
const char* MapEdgeName(MapEdge e) {
  return kMapEdgeNames[static_cast<int>(e)];
}
std::optional<MapEdge> ParseMapEdge(std::string_view name) {
  return LookupName<MapEdge>(kMapEdgeNames, name);
}

}  // namespace map
}  // namespace opsim
