// Position: where a unit is, down to its place within a hex.
//
// A hex may hold more than one place a unit can be: IN a paddy or above its Bank counter
// (G8.1), above or beneath a Panji counter (G9.4), on a pier or beneath it (G13.7), in a trench
// or foxhole. A Position is a hex plus such a place; kHex means "the hex itself" (a hex with one
// place, or a paddy's interior). Written `oL3`, `oL3:bank`, `37EE7:above`, `433:pier`.
// Value type; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "opsim/tactical/geometry.h"

namespace opsim::tactical {

enum class Place {
  kHex,      // the hex (a paddy's interior: "IN"; a shallow OCEAN hex: Wading)
  kBank,     // above the Bank counter (G8.21)
  kAbove,    // above the Panji counter (G9.4)
  kBeneath,  // beneath the Panji counter (G9.45), or beneath a pier (G13.73)
  kPier,     // on the pier (G13.7)
  kTrench,   // in a Trench counter
  kFoxhole,  // in a Foxhole counter
};

const char* Name(Place p);
// "in" and "wading" are accepted as spellings of kHex.
std::optional<Place> ParsePlace(std::string_view s);
std::string PlaceNames();

struct Position {
  GridPos hex;
  Place place = Place::kHex;
  friend bool operator==(const Position&, const Position&) = default;
};

// Splits "oL3:bank" into its hex token and place; nullopt for an unknown place.
struct PositionToken {
  std::string hex;
  std::optional<Place> place;  // absent when the token names no place
};
std::optional<PositionToken> SplitPositionToken(std::string_view token);

}  // namespace opsim::tactical
