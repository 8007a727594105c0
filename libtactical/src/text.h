// Private to opsim_tactical: the refusal every rule gives, and a token's digits.
#pragma once

#include <string>
#include <string_view>

#include "opsim/core/error.h"

namespace opsim::tactical {

// What a rule answers when it forbids a legal request (exit 3), citing the rule.
inline std::unexpected<Error> Refuse(std::string message, std::string rule) {
  return Fail(ErrorCode::kRuleViolation, std::move(message), {}, std::move(rule));
}

// Is `s` one or more of the digits 0-9?
inline bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace opsim::tactical
