// The small value types every part of opsim speaks in: hexes, hexsides, sides, terrain (rule ids:
// opsim/core/rule_ids.h).
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string_view>

#include "opsim/core/rule_ids.h"

namespace opsim {

enum class Side : std::uint8_t { kAxis = 0, kAllied = 1 };
inline constexpr Side Enemy(Side s) {
  return s == Side::kAxis ? Side::kAllied : Side::kAxis;
}
const char* SideName(Side s);  // "axis", "allied"
std::optional<Side> ParseSide(std::string_view name);

// Who owns a hex or hexside: a side, or nobody yet.
enum class Owner : std::uint8_t { kAxis = 0, kAllied = 1, kNone = 2 };
inline constexpr Owner OwnerOf(Side s) {
  return static_cast<Owner>(s);
}
const char* OwnerName(Owner o);  // "axis", "allied", "none"

}  // namespace opsim

namespace opsim::map {

// A hex of a theater: the index of its graph vertex.
struct HexRef {
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::uint32_t v = kNone;
  bool valid() const { return v != kNone; }
  friend auto operator<=>(HexRef, HexRef) = default;
};

// A hexside of a theater: an index into its hexside table (each hexside is two graph edges).
struct HexsideRef {
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::uint32_t v = kNone;
  bool valid() const { return v != kNone; }
  friend auto operator<=>(HexsideRef, HexsideRef) = default;
};

// The terrain of a hex. All-sea and lake hexes hold no land; the others are land hexes, which
// may also touch water (Coast).
enum class Terrain : std::uint8_t {
  kClear,
  kRough,
  kForest,
  kSwamp,
  kMountain,
  kCanalIntensive,
  kProhibited,
  kAllSea,
  kLake,
};
inline constexpr int kTerrainCount = 9;
const char* TerrainName(Terrain t);  // "clear", "canal-intensive", "all-sea", ...
std::optional<Terrain> ParseTerrain(std::string_view name);

// The water a land hex holds besides its land.
enum class Coast : std::uint8_t { kNone, kPartialSea, kPartialLake };
inline constexpr int kCoastCount = 3;
const char* CoastName(Coast c);  // "none", "partial-sea", "partial-lake"

enum class CityKind : std::uint8_t { kNone, kDot, kPartialMajor, kFullMajor };
inline constexpr int kCityKindCount = 4;
const char* CityKindName(CityKind c);  // "none", "dot", "partial-hex-major", "full-hex-major"
std::optional<CityKind> ParseCityKind(std::string_view name);

enum class PortSize : std::uint8_t { kNone, kMinor, kStandard, kMajor, kGreat };
inline constexpr int kPortSizeCount = 5;
const char* PortSizeName(PortSize p);  // "none", "minor", "standard", "major", "great"
std::optional<PortSize> ParsePortSize(std::string_view name);

// The water on a hexside. All-sea and lake hexsides stop ground units (unless a rule says
// otherwise); sea hexsides, all or partial, carry naval movement.
enum class HexsideWater : std::uint8_t { kNone, kPartialSea, kAllSea, kLake };
inline constexpr int kHexsideWaterCount = 4;
const char* HexsideWaterName(HexsideWater w);  // "none", "partial-sea", "all-sea", "lake"
inline constexpr bool IsSea(HexsideWater w) {
  return w == HexsideWater::kPartialSea || w == HexsideWater::kAllSea;
}

// Features drawn on a hexside, as bits.
enum HexsideFeature : std::uint16_t {
  kMajorRiver = 1u << 0,
  kMinorRiver = 1u << 1,
  kCanal = 1u << 2,
  kRoad = 1u << 3,
  kRailroad = 1u << 4,
  kRailFerry = 1u << 5,
  kNarrowStraits = 1u << 6,
  kBorder = 1u << 7,
  // Derived, never written in a file: a road or railroad crossing an all-sea or lake hexside
  // (41.A.1).
  kCauseway = 1u << 8,
};
inline constexpr int kHexsideFeatureCount = 9;
const char* HexsideFeatureName(HexsideFeature f);  // "major-river", "rail-ferry", ...
std::optional<HexsideFeature> ParseHexsideFeature(std::string_view name);

}  // namespace opsim::map
