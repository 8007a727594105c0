#include "opsim/map/state.h"

#include <algorithm>
#include <array>

namespace opsim::map {

namespace {

constexpr std::array<const char*, 3> kCanalNames = {"open", "temporarily-closed",
                                                    "permanently-closed"};
constexpr std::array<const char*, 3> kFloodNames = {"partial", "prohibited", "massive"};

template <class M>
std::uint8_t Level(const M& m, HexRef h) {
  auto it = m.find(h.v);
  return it == m.end() ? 0 : it->second;
}

}  // namespace

const char* CanalStatusName(CanalStatus s) {
  return kCanalNames[static_cast<int>(s)];
}
std::optional<CanalStatus> ParseCanalStatus(std::string_view name) {
  for (std::size_t i = 0; i < kCanalNames.size(); ++i) {
    if (name == kCanalNames[i]) return static_cast<CanalStatus>(i);
  }
  return std::nullopt;
}
const char* FloodKindName(FloodKind k) {
  return kFloodNames[static_cast<int>(k)];
}

MapState::MapState(const Theater& theater)
    : owner_(theater.hex_count(), static_cast<std::uint8_t>(Owner::kNone)),
      side_owner_(theater.hexside_count(), static_cast<std::uint8_t>(Owner::kNone)),
      frozen_(theater.weather_zones().size(), false) {}

void MapState::SetOwner(const Theater& theater, HexRef h, Owner o) {
  owner_[h.v] = static_cast<std::uint8_t>(o);
  if (o == Owner::kNone) return;
  for (Dir d : kAllDirs) {
    HexsideRef s = theater.HexsideAt(h, d);
    if (!s.valid()) continue;
    if (owner(theater.hexside(s).Other(h)) == o) side_owner_[s.v] = static_cast<std::uint8_t>(o);
  }
}

const Flood* MapState::flood(HexRef h) const {
  auto it = floods_.find(h.v);
  return it == floods_.end() ? nullptr : &it->second;
}

std::uint8_t MapState::airbase_damage(HexRef h) const {
  return Level(airbase_damage_, h);
}
std::uint8_t MapState::port_damage(HexRef h) const {
  return Level(port_damage_, h);
}

void MapState::SetAirbaseDamage(HexRef h, std::uint8_t level) {
  if (level == 0) {
    airbase_damage_.erase(h.v);
  } else {
    airbase_damage_[h.v] = level;
  }
}

void MapState::SetPortDamage(HexRef h, std::uint8_t level) {
  if (level == 0) {
    port_damage_.erase(h.v);
  } else {
    port_damage_[h.v] = level;
  }
}

void MapState::SetIceAirfield(HexRef h, bool present) {
  if (present) {
    ice_airfields_[h.v] = true;
  } else {
    ice_airfields_.erase(h.v);
  }
}

void MapState::SetBridgeDestroyed(HexsideRef s, bool destroyed) {
  if (destroyed) {
    destroyed_bridges_.insert(s.v);
  } else {
    destroyed_bridges_.erase(s.v);
  }
}

void MapState::AddMarker(HexRef h, std::string marker) {
  auto& list = markers_[h.v];
  if (std::find(list.begin(), list.end(), marker) == list.end()) list.push_back(std::move(marker));
}

bool MapState::HasMarker(HexRef h, std::string_view marker) const {
  auto it = markers_.find(h.v);
  return it != markers_.end() &&
         std::find(it->second.begin(), it->second.end(), marker) != it->second.end();
}

void MapState::RemoveMarker(HexRef h, std::string_view marker) {
  auto it = markers_.find(h.v);
  if (it == markers_.end()) return;
  std::erase(it->second, marker);
  if (it->second.empty()) markers_.erase(it);
}

}  // namespace opsim::map
