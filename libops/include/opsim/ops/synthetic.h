// Synthetic campaigns, for benchmarks and tests at scale: units spread over a generated theater
// (see opsim/map/generate.h), and orders for any player-turn that the rules accept.
#pragma once

#include <cstdint>
#include <string>

#include "opsim/core/error.h"
#include "opsim/ops/game.h"

namespace opsim::ops {

// The scenario text with a "campaign" section added: `units` ground units, half a side each,
// the Axis in the west and the Allies in the east, with supply sources at their cities.
Result<std::string> AddSyntheticCampaign(const std::string& scenario_text, int units,
                                         std::uint64_t seed);

// Legal orders for the phasing side at the game's current state: most units step to a
// neighbouring hex, and units facing the enemy attack where they can. Deterministic for a seed.
Orders SyntheticOrders(const Game& game, std::uint64_t seed);

}  // namespace opsim::ops
