// GameState: everything about a campaign that changes during play, as one copyable value.
//
// The map's dynamic state, every unit, the SRP pools and 41.F exit totals, the weather, the
// dice and where the game stands (the next player-turn to play). The static parts (theater,
// campaign, rule tables) live in Game. StateHash() is the game's signature: a SHA-256 over a
// canonical, platform-independent encoding, identical on every machine for the same state.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "opsim/map/state.h"
#include "opsim/ops/calendar.h"
#include "opsim/ops/units.h"

namespace opsim::ops {

// B2: one weather zone's weather this game turn.
enum class Weather : std::uint8_t { kClear, kMud, kFrost, kSnow };
const char* WeatherName(Weather w);  // "clear", "mud", "frost", "snow"

struct GameState {
  GameDate start;                // the scenario's first game turn
  Side first = Side::kAxis;      // who moves first in each game turn
  std::int32_t player_turn = 0;  // serial of the next player-turn to play
  map::MapState map;
  std::vector<GroundUnit> units;
  std::vector<AirUnit> air;
  std::vector<NavalUnit> naval;
  std::map<std::string, int> srp;          // pools, by nationality
  std::map<std::string, int> exit_totals;  // 41.F: printed attack strength exited, by total
  std::vector<Weather> weather;            // by weather zone
  bool netherlands_surrendered = false;
  std::uint64_t seed = 0;  // the game's seed
  std::uint64_t dice = 0;  // the seeded dice's state (opsim::Dice)

  // The side whose player-turn `serial` is.
  Side PhasingAt(std::int32_t serial) const { return serial % 2 == 0 ? first : Enemy(first); }
  Side phasing() const { return PhasingAt(player_turn); }
  GameDate date() const { return AddTurns(start, player_turn / 2); }
  int game_turn() const { return player_turn / 2; }

  GroundUnit* FindUnit(std::string_view id);
  const GroundUnit* FindUnit(std::string_view id) const;
  AirUnit* FindAir(std::string_view id);
  NavalUnit* FindNaval(std::string_view id);

  friend bool operator==(const GameState&, const GameState&) = default;
};

// Every field that can change, in a fixed order, as little-endian fixed-width integers and
// length-prefixed strings: the bytes behind StateHash().
std::string CanonicalBytes(const GameState& s);
// SHA-256 of CanonicalBytes, in hex.
std::string StateHash(const GameState& s);

}  // namespace opsim::ops
