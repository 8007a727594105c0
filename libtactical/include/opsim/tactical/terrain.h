// Terrain: what fills a hex, with the numbers the rules cite from other chapters.
//
// G8, G9 and G13 lean on costs and modifiers defined in ASL chapters A, B, E and F, which these
// texts do not hold. Where the examples imply a number it is used (grain 1½ MF, G8.2108 EX;
// Open Ground 4 MP for a truck, G8.8 EX; sand 2/1 MF and 3/2 MP, G13.3 EX); every other number
// is a choice, listed in docs/tactical.md. The samurai-era terrain types live here too; a board
// declares which rule set its terrain names belong to. Pure data; thread-safe.
#pragma once

#include <optional>
#include <string_view>

#include "opsim/tactical/cost.h"

namespace opsim::tactical {

enum class Ruleset { kAsl, kSamurai };
const char* RulesetName(Ruleset r);
std::optional<Ruleset> ParseRuleset(std::string_view name);

enum class Terrain {
  // ASL
  kOpenGround,
  kGrain,
  kWoods,
  kLightJungle,
  kDenseJungle,
  kBuilding,
  kRubble,
  kMarsh,
  kSwamp,
  kRunway,
  kCrag,
  kRiver,  // a mapboard river: a Water Obstacle (B21), OCEAN only as G13.12 says
  kPaddy,  // G8: Drained, Irrigated or In-Season per the scenario
  kBeach,  // G13: sand, Hard or Soft (G13.3)
  kOcean,  // G13: "OCEAN" = Ocean, Lake or River as the scenario says (G13.12)
  // Samurai-era game
  kPlains,
  kLightWoods,
  kHeavyWoods,
  kRiceFields,
  kSamuraiRiver,
  kFord,
  kBridge,
  kRavine,
  kRockyGround,
  kVillage,
};

struct TerrainInfo {
  const char* name;
  Ruleset ruleset;
  // Infantry (and Cavalry) MF to enter; nullopt where no number applies (Water Obstacles, and
  // terrain whose cost a G rule computes: paddy, beach, OCEAN).
  std::optional<Cost> infantry;
  std::optional<Cost> fully_tracked;  // MP; nullopt: may not enter
  std::optional<Cost> truck;          // MP; nullopt: may not enter
  int tem;                            // vs Direct Fire
  bool obstacle;                      // a one-level LOS obstacle
  bool inherent;                      // Inherent Terrain (B.6): fills the whole hex
  int hindrance;                      // LOS Hindrance per hex
  bool bypassable;                    // an obstacle a unit may Bypass
  bool open_ground;
  bool water_obstacle;
};

const TerrainInfo& Info(Terrain t);
const char* TerrainName(Terrain t);
std::optional<Terrain> ParseTerrain(std::string_view name, Ruleset ruleset);

}  // namespace opsim::tactical
