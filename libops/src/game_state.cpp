#include "opsim/ops/game_state.h"

#include <array>
#include <type_traits>

#include "opsim/core/sha256.h"

namespace opsim::ops {

namespace {

// Little-endian fixed-width integers and length-prefixed strings: the same bytes on every
// machine. Put() gives each field its form by type.
class Encoder {
 public:
  void U8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void U32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) U8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void U64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) U8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void Str(std::string_view s) {
    U32(static_cast<std::uint32_t>(s.size()));
    out_.append(s);
  }

  template <class T>
  void Put(const T& v) {
    if constexpr (std::is_enum_v<T>) {
      static_assert(sizeof(T) == 1);
      U8(static_cast<std::uint8_t>(v));
    } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::uint8_t>) {
      U8(static_cast<std::uint8_t>(v));
    } else if constexpr (std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t>) {
      U32(static_cast<std::uint32_t>(v));
    } else if constexpr (std::is_same_v<T, std::uint64_t>) {
      U64(v);
    } else if constexpr (std::is_same_v<T, std::string>) {
      Str(v);
    } else if constexpr (std::is_same_v<T, map::HexRef>) {
      U32(v.v);
    } else if constexpr (std::is_same_v<T, std::vector<std::uint8_t>>) {
      // The by-hex and by-hexside arrays: 400 KB on a large map, so appended whole.
      U32(static_cast<std::uint32_t>(v.size()));
      out_.append(v.begin(), v.end());
    } else if constexpr (requires { typename T::mapped_type; }) {
      U32(static_cast<std::uint32_t>(v.size()));
      for (const auto& [key, value] : v) {
        Put(key);
        Put(value);
      }
    } else if constexpr (requires { typename T::value_type; }) {
      U32(static_cast<std::uint32_t>(v.size()));
      for (const auto& x : v) Put(static_cast<const typename T::value_type&>(x));
    } else {
      ForEachField(v, [this](const Field&, const auto& field) { Put(field); });
    }
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
  e.Put(s);
  return e.Take();
}

std::string StateHash(const GameState& s) {
  return Sha256Hex(CanonicalBytes(s));
}

}  // namespace opsim::ops
