// Settings: the scenario-wide conditions the tactical rules read.
//
// Each comes from an SSR (or, where the rules give one, a DYO roll): the paddy state (G8.1),
// Environmental Conditions, the Slope of the Beach (G13.2), the Tide and the reef (G13.43,
// G13.97), Heavy Surf (G13.44), whether OCEAN is Ocean, Lake or River (G13.12), seawalls
// (G13.6), PTO Terrain (G.1, which panjis need; G9.1), Coral Soil (G13.82) and night. A board
// file may set them and the CLI may override them. Value type; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace opsim::tactical {

enum class PaddyState { kUnset, kDrained, kIrrigated, kInSeason };
enum class Ec { kVeryDry, kDry, kModerate, kWet, kOvercast, kMud, kSnow };
enum class Slope { kUnset, kSlight, kModerate, kSteep };
enum class Tide { kHigh, kLow };
enum class Reef { kNone, kExposed, kSubmerged };
enum class Water { kOcean, kLake, kRiver };
enum class Seawall { kNone, kLow, kHigh };

struct Settings {
  PaddyState paddy = PaddyState::kUnset;
  Ec ec = Ec::kModerate;
  Slope slope = Slope::kUnset;
  Tide tide = Tide::kHigh;
  Reef reef = Reef::kNone;
  bool heavy_surf = false;
  Water water = Water::kOcean;
  Seawall seawall = Seawall::kNone;
  bool pto = false;
  bool coral_soil = false;
  bool night = false;
  bool frozen = false;  // OCEAN is frozen: B21.6 applies (G13.494)
};

const char* Name(PaddyState s);
const char* Name(Ec e);
const char* Name(Slope s);
const char* Name(Tide t);
const char* Name(Reef r);
const char* Name(Water w);
const char* Name(Seawall s);

std::optional<PaddyState> ParsePaddyState(std::string_view s);
std::optional<Ec> ParseEc(std::string_view s);
std::optional<Slope> ParseSlope(std::string_view s);
std::optional<Tide> ParseTide(std::string_view s);
std::optional<Reef> ParseReef(std::string_view s);
std::optional<Water> ParseWater(std::string_view s);
std::optional<Seawall> ParseSeawall(std::string_view s);

// The accepted spellings, for error messages and --help ("drained|irrigated|in-season").
std::string PaddyStateNames();
std::string EcNames();
std::string SlopeNames();
std::string TideNames();
std::string ReefNames();
std::string WaterNames();
std::string SeawallNames();

}  // namespace opsim::tactical
