// Campaign: the static side of a campaign, read from a scenario's "campaign" section
// (docs/scenario-format.md, "Campaign"): the start date and who moves first, nationalities,
// supply sources, rail capacity, the SRP pools and every unit's starting position.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"
#include "opsim/map/scenario.h"
#include "opsim/ops/game_state.h"
#include "opsim/ops/tables.h"

namespace opsim::ops {

struct Campaign {
  GameDate start;
  Side first = Side::kAxis;
  std::map<std::string, Side> nationalities;
  // 41.A.4: the Allied pool that pays disaster relief.
  std::string relief_pool;
  std::array<int, 2> rail_capacity{};                      // REs per player-turn, by side
  std::array<std::vector<map::HexRef>, 2> supply_sources;  // by side (B8)
  RuleTables tables;  // the scenario's rules file, or the built-in ones
  // The state at the start: the scenario's map state with the units placed.
  GameState initial;
};

// Reads the campaign section (all or nothing, with located errors); `seed` seeds the dice.
Result<Campaign> LoadCampaign(const JsonSource& src, const map::Scenario& scenario,
                              std::uint64_t seed);

}  // namespace opsim::ops
