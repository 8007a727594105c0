// MapState: the dynamic state of a theater, kept beside the static Theater.
//
// Flat arrays indexed by hex, hexside and weather zone, cheap to copy and to change each turn:
// who owns each hex (and each hexside, which a side owns if it owns both hexes or was the last
// to do so), which weather zones are frozen, flooded hexes, the Suez Canal's status, airbase and
// port damage, ice airfields, destroyed bridges and markers. It does not hold units; the campaign
// state does. Not thread-safe for writing; copies are independent.
//
// ForEachField lists its fields once, for the state hash, the snapshot, the state file and the
// tests that change each field in turn: a field missing from it is missing from all of them.
#pragma once

#include <concepts>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "opsim/map/theater.h"

namespace opsim::map {

// 41.B: the Suez Canal is open, temporarily closed, or permanently closed.
enum class CanalStatus : std::uint8_t { kOpen, kTemporarilyClosed, kPermanentlyClosed };
const char* CanalStatusName(CanalStatus s);  // "open", "temporarily-closed", ...
std::optional<CanalStatus> ParseCanalStatus(std::string_view name);

// How a flooded hex counts (41.A.4). Expiry is in player-turn serial numbers (see Calendar).
enum class FloodKind : std::uint8_t {
  kPartial,     // 41.A.4.a S: swamp for combat and exploitation, this player-turn only
  kProhibited,  // 41.A.4.a S*: prohibited terrain for the next two turns
  kMassive,     // 41.A.4.b: prohibited this player-turn and the next, then swamp for good
};
const char* FloodKindName(FloodKind k);

// One entry of a field list: the field's name (its key in state files) and the snapshot class
// version that added it (a snapshot keeps each version's new fields after the older ones).
struct Field {
  std::string_view name;
  unsigned since = 1;
};

// A field list takes its object const or not: `Self` is T or const T.
template <class Self, class T>
concept FieldsOf = std::same_as<std::remove_const_t<Self>, T>;

struct Flood {
  FloodKind kind = FloodKind::kPartial;
  std::int32_t from = 0;   // the player-turn it was flooded in
  std::int32_t until = 0;  // the last player-turn it is prohibited (kPartial: swamp) in

  friend bool operator==(const Flood&, const Flood&) = default;
};

// Calls visit(Field, field) for each field of a Flood, in order.
template <FieldsOf<Flood> Self, class Visit>
void ForEachField(Self& f, Visit&& visit) {
  visit(Field{"kind"}, f.kind);
  visit(Field{"from"}, f.from);
  visit(Field{"until"}, f.until);
}

class MapState {
 public:
  MapState() = default;
  explicit MapState(const Theater& theater);

  Owner owner(HexRef h) const { return static_cast<Owner>(owner_[h.v]); }
  // Sets a hex's owner and updates the owners of its hexsides.
  void SetOwner(const Theater& theater, HexRef h, Owner o);
  // 41.B: a side owns a hexside if it owns both hexes, or was the last to do so.
  Owner hexside_owner(HexsideRef s) const { return static_cast<Owner>(side_owner_[s.v]); }
  // Restores a hexside's owner as saved (SetOwner keeps it up to date in play).
  void SetHexsideOwner(HexsideRef s, Owner o) { side_owner_[s.v] = static_cast<std::uint8_t>(o); }

  bool frozen(std::size_t zone) const { return zone < frozen_.size() && frozen_[zone]; }
  void SetFrozen(std::size_t zone, bool frozen) { frozen_.at(zone) = frozen; }
  bool HexFrozen(const Theater& theater, HexRef h) const { return frozen(theater.hex(h).zone); }

  CanalStatus suez() const { return suez_; }
  void SetSuez(CanalStatus s) { suez_ = s; }

  const std::map<std::uint32_t, Flood>& floods() const { return floods_; }
  const Flood* flood(HexRef h) const;
  void SetFlood(HexRef h, Flood f) { floods_[h.v] = f; }
  void ClearFlood(HexRef h) { floods_.erase(h.v); }

  // Damage levels (0: none); "damaged to the maximum" is the level the rules say.
  std::uint8_t airbase_damage(HexRef h) const;
  std::uint8_t port_damage(HexRef h) const;
  void SetAirbaseDamage(HexRef h, std::uint8_t level);
  void SetPortDamage(HexRef h, std::uint8_t level);
  const std::map<std::uint32_t, std::uint8_t>& airbase_damage() const { return airbase_damage_; }
  const std::map<std::uint32_t, std::uint8_t>& port_damage() const { return port_damage_; }

  // 41.A.3: temporary airfields on frozen partial-lake hexes.
  bool ice_airfield(HexRef h) const { return ice_airfields_.count(h.v) != 0; }
  void SetIceAirfield(HexRef h, bool present);
  const std::map<std::uint32_t, bool>& ice_airfields() const { return ice_airfields_; }

  // Bridges destroyed (B14; a causeway counts as a bridge, 41.A.1), by hexside.
  bool bridge_destroyed(HexsideRef s) const { return destroyed_bridges_.count(s.v) != 0; }
  void SetBridgeDestroyed(HexsideRef s, bool destroyed);
  const std::set<std::uint32_t>& destroyed_bridges() const { return destroyed_bridges_; }

  // Free-form markers placed on hexes ("massively-flooded", ...).
  const std::map<std::uint32_t, std::vector<std::string>>& markers() const { return markers_; }
  void AddMarker(HexRef h, std::string marker);
  bool HasMarker(HexRef h, std::string_view marker) const;
  // Takes a marker off (a hex left with none has no entry, as if it never had one).
  void RemoveMarker(HexRef h, std::string_view marker);

  // The raw arrays, for hashing and serialization.
  const std::vector<std::uint8_t>& owners() const { return owner_; }
  const std::vector<std::uint8_t>& hexside_owners() const { return side_owner_; }
  const std::vector<bool>& frozen_zones() const { return frozen_; }

  friend bool operator==(const MapState&, const MapState&) = default;

  // Calls visit(Field, field) for each field, in the order of the state hash's bytes. By-hex
  // maps and sets are keyed by HexRef::v, destroyed bridges by HexsideRef::v. A mutable MapState
  // is visited by decoders and tests only: the rules go through the setters, which keep the
  // hexside owners in step with the hexes'.
  template <FieldsOf<MapState> Self, class Visit>
  friend void ForEachField(Self& s, Visit&& visit) {
    visit(Field{"control"}, s.owner_);
    visit(Field{"hexside-owners"}, s.side_owner_);
    visit(Field{"frozen-zones"}, s.frozen_);
    visit(Field{"suez"}, s.suez_);
    visit(Field{"floods"}, s.floods_);
    visit(Field{"airbase-damage"}, s.airbase_damage_);
    visit(Field{"port-damage"}, s.port_damage_);
    visit(Field{"ice-airfields"}, s.ice_airfields_);
    visit(Field{"destroyed-bridges", 2}, s.destroyed_bridges_);
    visit(Field{"markers"}, s.markers_);
  }

 private:
  std::vector<std::uint8_t> owner_;       // by hex: Owner
  std::vector<std::uint8_t> side_owner_;  // by hexside: Owner
  std::vector<bool> frozen_;              // by weather zone
  CanalStatus suez_ = CanalStatus::kOpen;
  std::map<std::uint32_t, Flood> floods_;
  std::map<std::uint32_t, std::uint8_t> airbase_damage_;
  std::map<std::uint32_t, std::uint8_t> port_damage_;
  std::map<std::uint32_t, bool> ice_airfields_;
  std::map<std::uint32_t, std::vector<std::string>> markers_;
  std::set<std::uint32_t> destroyed_bridges_;
};

}  // namespace opsim::map
