#include "opsim/tactical/position.h"

#include "opsim/core/enum_names.h"

namespace opsim::tactical {

namespace {

constexpr std::array<const char*, 7> kPlaces = {"in",   "bank",   "above",  "beneath",
                                                "pier", "trench", "foxhole"};

static_assert(kPlaces.size() == static_cast<std::size_t>(Place::kFoxhole) + 1,
              "a name for each value");

}  // namespace

const char* Name(Place p) {
  return kPlaces[static_cast<std::size_t>(p)];
}

std::optional<Place> ParsePlace(std::string_view s) {
  if (s == "wading") return Place::kHex;
  return LookupName<Place>(kPlaces, s);
}

std::string PlaceNames() {
  return JoinNames(kPlaces) + "|wading";
}

std::optional<PositionToken> SplitPositionToken(std::string_view token) {
  const auto colon = token.find(':');
  if (colon == std::string_view::npos) return PositionToken{std::string(token), std::nullopt};
  const auto place = ParsePlace(token.substr(colon + 1));
  if (!place) return std::nullopt;
  return PositionToken{std::string(token.substr(0, colon)), place};
}

}  // namespace opsim::tactical
