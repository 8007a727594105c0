// EchoToken: a user's token as an error message may echo it.
//
// Every error that quotes what the user wrote (a hex, a unit id, a sheet name, a JSON key) passes
// it through EchoToken, so that neither a 1 MB name nor a terminal's escape sequence reaches the
// terminal whole. Pure; safe from any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace opsim {

// At most this many characters of a token are echoed.
inline constexpr std::size_t kEchoMax = 64;

// `token` with control characters written \xNN, cut after kEchoMax characters (UTF-8 characters,
// not bytes) with "…" after them.
std::string EchoToken(std::string_view token);

}  // namespace opsim
