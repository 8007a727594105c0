// Enums spelled through their names: the one lookup every layer uses for the names its files and
// answers read (a side, a terrain, a tactical unit's state), so that a name is matched alike
// everywhere. Header-only; pure.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace opsim {

// The enumerator of E whose name is `s`, among the `count` enumerators 0..count-1 that
// `name_of(E)` spells, skipping the first `from` (placeholders like "unset").
template <class E, class NameOf>
std::optional<E> LookupName(std::string_view s, std::size_t count, NameOf name_of,
                            std::size_t from = 0) {
  for (std::size_t i = from; i < count; ++i) {
    if (s == name_of(static_cast<E>(i))) return static_cast<E>(i);
  }
  return std::nullopt;
}
// The same, with the names in a table, one per enumerator.
template <class E, std::size_t N>
std::optional<E> LookupName(const std::array<const char*, N>& names, std::string_view s,
                            std::size_t from = 0) {
  return LookupName<E>(
      s, N, [&names](E e) { return names[static_cast<std::size_t>(e)]; }, from);
}

// "a|b|c", for --help and error messages.
template <std::size_t N>
std::string JoinNames(const std::array<const char*, N>& names, std::size_t from = 0) {
  std::string out;
  for (std::size_t i = from; i < N; ++i) {
    if (!out.empty()) out += '|';
    out += names[i];
  }
  return out;
}

}  // namespace opsim
