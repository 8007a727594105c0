// COT: what it costs a unit to enter terrain, by the kind of unit.
//
// Infantry and Cavalry pay MF; Cycle Riders and bicyclists pay MP at three times the Infantry
// MF (the ratio G8.2101/G8.2102 and the G8.2108 EX show for banks and Open Ground); vehicles pay
// MP. Fixed by the examples: grain 1½ MF (G8.2108 EX), Open Ground mud ½ MF more (G8.5 EX), a
// truck's Open Ground 4 MP (G8.8 EX), sand 2/1 MF and 3/2 MP (G13.3 EX), a shallow stream 2 MP
// fully-tracked and 6 MP for a truck (G13.422 EX). The rest are choices (docs/tactical.md).
// nullopt means the unit may not enter. Pure; thread-safe.
#pragma once

#include <optional>

#include "opsim/tactical/cost.h"
#include "opsim/tactical/terrain.h"
#include "opsim/tactical/unit.h"

namespace opsim::tactical {

// The COT of ordinary terrain (not paddy, Beach or OCEAN, whose COT the G rules compute).
std::optional<Cost> TerrainCot(Terrain t, const Unit& u);
Cost OpenGroundCot(const Unit& u);
Cost GrainCot(const Unit& u);
// The extra cost of entering Open Ground in mud (E3.64).
Cost MudExtra(const Unit& u);
// One MF, or three MP for a cycle (G8.2101-.2107).
Cost BankCost(const Unit& u);
// Sand (F7 as G13.3 adapts it).
std::optional<Cost> SandCot(const Unit& u, bool hard);
// A shallow stream, as a Wading unit is treated (G13.42, G13.422 EX).
std::optional<Cost> ShallowStreamCot(const Unit& u);
// Shellholes IN a paddy (G8.72 EX: two MF).
std::optional<Cost> ShellholeCot(const Unit& u);

}  // namespace opsim::tactical
