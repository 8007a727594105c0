// Private to opsim_tactical: enums spelled through a table of names, one per enumerator.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace opsim::tactical {

// The enumerator whose name is `s`, skipping the first `from` names (placeholders like "unset").
template <class E, std::size_t N>
std::optional<E> LookupName(const std::array<const char*, N>& names, std::string_view s,
                            std::size_t from = 0) {
  for (std::size_t i = from; i < N; ++i) {
    if (s == names[i]) return static_cast<E>(i);
  }
  return std::nullopt;
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

}  // namespace opsim::tactical
