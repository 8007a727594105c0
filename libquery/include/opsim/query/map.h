// `opsim map`: a theater's summary, or one hex as a game sees it.
//
// The answers are read from a LoadedGame and encoded as the JSON the CLI's --json prints.
// Pure functions of their arguments; thread-safe.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "opsim/query/source.h"

namespace opsim::query {

// The theater itself is the answer to a summary: sheets, terrain counts, areas, waterways, rail
// ferries (41.A.2), exits (41.F), weather zones.
nlohmann::json SummaryJson(const map::Theater& t);

// One hex: its terrain, hexsides and water areas (41.A.1) under the game's map state, and in a
// game also its units, flood (41.A.4) and ice airfield (41.A.3).
struct HexAnswer {
  map::HexRef hex;
  bool in_game = false;                // the game has a campaign: the fields below apply
  std::vector<ops::GroundUnit> units;  // on the map in the hex
  std::optional<map::Flood> flood;
  // How the flood makes the hex count now, as movement, combat and exploitation see it
  // (41.A.4): "prohibited", "swamp", or the hex's own terrain; the clause's note says why.
  std::string flood_counts_as;
  ops::Note flood_note;
  bool ice_airfield = false;
};
Result<HexAnswer> AnswerHex(const LoadedGame& g, std::string_view hex);
nlohmann::json ToJson(const LoadedGame& g, const HexAnswer& a);

}  // namespace opsim::query
