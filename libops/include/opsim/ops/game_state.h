// GameState: everything about a campaign that changes during play, as one copyable value.
//
// The map's dynamic state, every unit, the SRP pools and 41.F exit totals, the weather, the
// dice and where the game stands (the next player-turn to play). The static parts (theater,
// campaign, rule tables) live in Game. StateHash() is the game's signature: a SHA-256 over a
// canonical, platform-independent encoding, identical on every machine for the same state.
//
// ForEachField lists the fields of GameState, its units and its date once (MapState's is in
// map/state.h). The state hash, the snapshot (db/) and the state file are all made from that
// list, choosing each field's form by its type, so a new field reaches all three or none compiles.
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
  // The calendar's fields (first, start, player_turn) of the state at player-turn `serial`, which
  // is `phasing`'s on `date`: the inverse of PhasingAt and date(), for a reader that knows a
  // player-turn but not the campaign (a log's turn row). Nothing else is set.
  static GameState CalendarAt(std::int32_t serial, Side phasing, const GameDate& date) {
    GameState s;
    s.first = serial % 2 == 0 ? phasing : Enemy(phasing);
    s.start = AddTurns(date, -(serial / 2));
    s.player_turn = serial;
    return s;
  }
  Side phasing() const { return PhasingAt(player_turn); }
  GameDate date() const { return AddTurns(start, player_turn / 2); }
  int game_turn() const { return player_turn / 2; }

  GroundUnit* FindUnit(std::string_view id);
  const GroundUnit* FindUnit(std::string_view id) const;
  AirUnit* FindAir(std::string_view id);
  NavalUnit* FindNaval(std::string_view id);

  friend bool operator==(const GameState&, const GameState&) = default;
};

using map::Field;
using map::FieldsOf;

// How many values each enum a state holds has (0 to the count less one): what a state file or a
// snapshot may give it.
constexpr int EnumCount(Side) {
  return 2;
}
constexpr int EnumCount(Weather) {
  return 4;
}
constexpr int EnumCount(map::CanalStatus) {
  return 3;
}
constexpr int EnumCount(map::FloodKind) {
  return 3;
}
// A unit type is an index into the rules' types: at most this many; the state file and the
// snapshot also check it against the game's rules.
constexpr int EnumCount(UnitType) {
  return kMaxUnitTypes;
}
constexpr int EnumCount(UnitStatus) {
  return 4;
}
constexpr int EnumCount(SupplyStatus) {
  return 3;
}
constexpr int EnumCount(AirStatus) {
  return 2;
}
constexpr int EnumCount(NavalKind) {
  return 4;
}

// Each calls visit(Field, field) for each field, in the order of the state hash's bytes.
template <FieldsOf<GameDate> Self, class Visit>
void ForEachField(Self& d, Visit&& visit) {
  visit(Field{"year"}, d.year);
  visit(Field{"month"}, d.month);
  visit(Field{"half"}, d.half);
}

template <FieldsOf<GroundUnit> Self, class Visit>
void ForEachField(Self& u, Visit&& visit) {
  visit(Field{"id"}, u.id);
  visit(Field{"name"}, u.name);
  visit(Field{"side"}, u.side);
  visit(Field{"nationality"}, u.nationality);
  visit(Field{"type"}, u.type);
  visit(Field{"attack"}, u.attack);
  visit(Field{"defense"}, u.defense);
  visit(Field{"mp"}, u.mp);
  visit(Field{"re-halves"}, u.re_halves);
  visit(Field{"hex"}, u.hex);
  visit(Field{"status"}, u.status);
  visit(Field{"supply"}, u.supply);
  visit(Field{"extra-mp-marker"}, u.extra_mp_marker);
  visit(Field{"dropped-in"}, u.dropped_in);
}

template <FieldsOf<AirUnit> Self, class Visit>
void ForEachField(Self& u, Visit&& visit) {
  visit(Field{"id"}, u.id);
  visit(Field{"name"}, u.name);
  visit(Field{"side"}, u.side);
  visit(Field{"nationality"}, u.nationality);
  visit(Field{"base"}, u.base);
  visit(Field{"status"}, u.status);
}

template <FieldsOf<NavalUnit> Self, class Visit>
void ForEachField(Self& u, Visit&& visit) {
  visit(Field{"id"}, u.id);
  visit(Field{"name"}, u.name);
  visit(Field{"side"}, u.side);
  visit(Field{"nationality"}, u.nationality);
  visit(Field{"kind"}, u.kind);
  visit(Field{"hex"}, u.hex);
  visit(Field{"area"}, u.area);
  visit(Field{"at-sea"}, u.at_sea);
  visit(Field{"sunk"}, u.sunk);
}

// In a state file, "map", "units", "air" and "naval" are sections of their own and the rest
// sits in "game".
template <FieldsOf<GameState> Self, class Visit>
void ForEachField(Self& s, Visit&& visit) {
  visit(Field{"start"}, s.start);
  visit(Field{"first"}, s.first);
  visit(Field{"player-turn"}, s.player_turn);
  visit(Field{"map"}, s.map);
  visit(Field{"units"}, s.units);
  visit(Field{"air"}, s.air);
  visit(Field{"naval"}, s.naval);
  visit(Field{"srp"}, s.srp);
  visit(Field{"exit-totals"}, s.exit_totals);
  visit(Field{"weather"}, s.weather);
  visit(Field{"netherlands-surrendered"}, s.netherlands_surrendered);
  visit(Field{"seed"}, s.seed);
  visit(Field{"dice"}, s.dice);
}

// Every field of ForEachField, in its order, as little-endian fixed-width integers (enums and
// bools one byte), length-prefixed strings and size-prefixed containers: the bytes behind
// StateHash().
std::string CanonicalBytes(const GameState& s);
// SHA-256 of CanonicalBytes, in hex.
std::string StateHash(const GameState& s);

}  // namespace opsim::ops
