#include "opsim/tactical/terrain.h"

#include <array>

namespace opsim::tactical {

namespace {

constexpr Ruleset A = Ruleset::kAsl;
constexpr Ruleset S = Ruleset::kSamurai;
constexpr std::optional<Cost> kNo = std::nullopt;
constexpr std::optional<Cost> P(int points) {
  return Cost::Points(points);
}
constexpr std::optional<Cost> H(int halves) {
  return Cost::Halves(halves);
}

// name, ruleset, infantry MF, fully-tracked MP, truck MP, TEM, obstacle, inherent, hindrance,
// bypassable, Open Ground, Water Obstacle
constexpr std::array<TerrainInfo, 25> kTerrain = {{
    {"open", A, P(1), P(1), P(4), 0, false, false, 0, false, true, false},
    {"grain", A, H(3), P(1), P(4), 0, false, true, 1, false, false, false},
    {"woods", A, P(2), P(2), kNo, 1, true, false, 0, true, false, false},
    {"light-jungle", A, P(2), P(2), kNo, 1, true, false, 0, true, false, false},
    {"dense-jungle", A, P(3), P(4), kNo, 1, true, true, 0, true, false, false},
    {"building", A, P(2), kNo, kNo, 2, true, false, 0, true, false, false},
    {"rubble", A, P(3), P(4), kNo, 2, true, false, 0, false, false, false},
    {"marsh", A, P(2), kNo, kNo, 0, false, false, 0, false, true, false},
    {"swamp", A, P(2), kNo, kNo, 0, false, false, 0, false, false, false},
    {"runway", A, P(1), P(1), P(4), 0, false, false, 0, false, true, false},
    {"crag", A, P(2), kNo, kNo, 1, false, false, 0, false, false, false},
    {"river", A, kNo, kNo, kNo, 0, false, false, 0, false, true, true},
    {"paddy", A, kNo, kNo, kNo, 0, false, false, 0, false, true, false},
    {"beach", A, kNo, kNo, kNo, 0, false, false, 0, false, true, false},
    {"ocean", A, kNo, kNo, kNo, 0, false, false, 0, false, true, false},
    {"plains", S, P(1), kNo, kNo, 0, false, false, 0, false, true, false},
    {"light-woods", S, P(1), kNo, kNo, 0, true, true, 0, false, false, false},
    {"heavy-woods", S, P(1), kNo, kNo, 0, true, true, 0, false, false, false},
    {"rice-fields", S, P(1), kNo, kNo, 0, false, false, 0, false, true, false},
    {"river", S, P(1), kNo, kNo, 0, false, false, 0, false, true, true},
    {"ford", S, P(1), kNo, kNo, 0, false, false, 0, false, true, false},
    {"bridge", S, P(1), kNo, kNo, 0, false, false, 0, false, true, false},
    {"ravine", S, P(1), kNo, kNo, 0, false, false, 0, false, false, false},
    {"rocky-ground", S, P(1), kNo, kNo, 0, false, false, 0, false, true, false},
    {"village", S, P(1), kNo, kNo, 0, true, true, 0, false, false, false},
}};

}  // namespace

const char* RulesetName(Ruleset r) {
  return r == Ruleset::kAsl ? "asl" : "samurai";
}

std::optional<Ruleset> ParseRuleset(std::string_view name) {
  if (name == "asl") return Ruleset::kAsl;
  if (name == "samurai") return Ruleset::kSamurai;
  return std::nullopt;
}

const TerrainInfo& Info(Terrain t) {
  return kTerrain[static_cast<std::size_t>(t)];
}

const char* TerrainName(Terrain t) {
  return Info(t).name;
}

std::optional<Terrain> ParseTerrain(std::string_view name, Ruleset ruleset) {
  for (std::size_t i = 0; i < kTerrain.size(); ++i) {
    if (kTerrain[i].ruleset == ruleset && name == kTerrain[i].name) {
      return static_cast<Terrain>(i);
    }
  }
  return std::nullopt;
}

}  // namespace opsim::tactical
