#include "opsim/ops/game_state.h"

#include <array>

#include "opsim/core/sha256.h"

namespace opsim::ops {

namespace {

// Little-endian fixed-width integers and length-prefixed strings: the same bytes on every
// machine.
class Encoder {
 public:
  void U8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void U32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) U8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void I32(std::int32_t v) { U32(static_cast<std::uint32_t>(v)); }
  void U64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) U8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void Bool(bool v) { U8(v ? 1 : 0); }
  void Str(std::string_view s) {
    U32(static_cast<std::uint32_t>(s.size()));
    out_.append(s);
  }
  void Bytes(const std::vector<std::uint8_t>& v) {
    U32(static_cast<std::uint32_t>(v.size()));
    out_.append(v.begin(), v.end());
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

constexpr std::array<const char*, 4> kWeatherNames = {"clear", "mud", "frost", "snow"};

template <class T, class F>
T* Find(std::vector<T>& v, std::string_view id, F key) {
  for (T& x : v) {
    if (key(x) == id) return &x;
  }
  return nullptr;
}

}  // namespace

const char* WeatherName(Weather w) {
  return kWeatherNames[static_cast<int>(w)];
}

GroundUnit* GameState::FindUnit(std::string_view id) {
  return Find(units, id, [](const GroundUnit& u) -> const std::string& { return u.id; });
}
const GroundUnit* GameState::FindUnit(std::string_view id) const {
  return const_cast<GameState*>(this)->FindUnit(id);
}
AirUnit* GameState::FindAir(std::string_view id) {
  return Find(air, id, [](const AirUnit& u) -> const std::string& { return u.id; });
}
NavalUnit* GameState::FindNaval(std::string_view id) {
  return Find(naval, id, [](const NavalUnit& u) -> const std::string& { return u.id; });
}

std::string CanonicalBytes(const GameState& s) {
  Encoder e;
  e.Str("opsim-state-1");
  e.I32(s.start.year);
  e.I32(s.start.month);
  e.I32(s.start.half);
  e.U8(static_cast<std::uint8_t>(s.first));
  e.I32(s.player_turn);
  const map::MapState& m = s.map;
  e.Bytes(m.owners());
  e.Bytes(m.hexside_owners());
  e.U32(static_cast<std::uint32_t>(m.frozen_zones().size()));
  for (bool f : m.frozen_zones()) e.Bool(f);
  e.U8(static_cast<std::uint8_t>(m.suez()));
  e.U32(static_cast<std::uint32_t>(m.floods().size()));
  for (const auto& [hex, f] : m.floods()) {
    e.U32(hex);
    e.U8(static_cast<std::uint8_t>(f.kind));
    e.I32(f.from);
    e.I32(f.until);
  }
  for (const auto* damage : {&m.airbase_damage(), &m.port_damage()}) {
    e.U32(static_cast<std::uint32_t>(damage->size()));
    for (const auto& [hex, level] : *damage) {
      e.U32(hex);
      e.U8(level);
    }
  }
  e.U32(static_cast<std::uint32_t>(m.ice_airfields().size()));
  for (const auto& [hex, present] : m.ice_airfields()) {
    e.U32(hex);
    e.Bool(present);
  }
  e.U32(static_cast<std::uint32_t>(m.destroyed_bridges().size()));
  for (std::uint32_t side : m.destroyed_bridges()) e.U32(side);
  e.U32(static_cast<std::uint32_t>(m.markers().size()));
  for (const auto& [hex, list] : m.markers()) {
    e.U32(hex);
    e.U32(static_cast<std::uint32_t>(list.size()));
    for (const std::string& marker : list) e.Str(marker);
  }
  e.U32(static_cast<std::uint32_t>(s.units.size()));
  for (const GroundUnit& u : s.units) {
    e.Str(u.id);
    e.Str(u.name);
    e.U8(static_cast<std::uint8_t>(u.side));
    e.Str(u.nationality);
    e.U8(static_cast<std::uint8_t>(u.type));
    e.I32(u.attack);
    e.I32(u.defense);
    e.I32(u.mp);
    e.I32(u.re_halves);
    e.U32(u.hex.v);
    e.U8(static_cast<std::uint8_t>(u.status));
    e.U8(static_cast<std::uint8_t>(u.supply));
    e.I32(u.extra_mp_marker);
    e.I32(u.dropped_in);
  }
  e.U32(static_cast<std::uint32_t>(s.air.size()));
  for (const AirUnit& a : s.air) {
    e.Str(a.id);
    e.Str(a.name);
    e.U8(static_cast<std::uint8_t>(a.side));
    e.Str(a.nationality);
    e.U32(a.base.v);
    e.U8(static_cast<std::uint8_t>(a.status));
  }
  e.U32(static_cast<std::uint32_t>(s.naval.size()));
  for (const NavalUnit& n : s.naval) {
    e.Str(n.id);
    e.Str(n.name);
    e.U8(static_cast<std::uint8_t>(n.side));
    e.Str(n.nationality);
    e.U8(static_cast<std::uint8_t>(n.kind));
    e.U32(n.hex.v);
    e.U8(n.area);
    e.Bool(n.at_sea);
    e.Bool(n.sunk);
  }
  for (const auto* pools : {&s.srp, &s.exit_totals}) {
    e.U32(static_cast<std::uint32_t>(pools->size()));
    for (const auto& [key, value] : *pools) {
      e.Str(key);
      e.I32(value);
    }
  }
  e.U32(static_cast<std::uint32_t>(s.weather.size()));
  for (Weather w : s.weather) e.U8(static_cast<std::uint8_t>(w));
  e.Bool(s.netherlands_surrendered);
  e.U64(s.seed);
  e.U64(s.dice);
  return e.Take();
}

std::string StateHash(const GameState& s) {
  return Sha256Hex(CanonicalBytes(s));
}

}  // namespace opsim::ops
