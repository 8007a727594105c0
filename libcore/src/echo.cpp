#include "opsim/core/echo.h"

namespace opsim {

std::string EchoToken(std::string_view token) {
  std::string out;
  std::size_t chars = 0;
  for (const char c : token) {
    const auto byte = static_cast<unsigned char>(c);
    const bool continuation = (byte & 0xC0) == 0x80;  // a UTF-8 character's later bytes
    if (!continuation && chars++ == kEchoMax) return out + "…";
    if (byte < 0x20 || byte == 0x7F) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace opsim
