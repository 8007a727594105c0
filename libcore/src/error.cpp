#include "opsim/core/error.h"

#include "opsim/core/error_json.h"

namespace opsim {

std::string Error::to_string() const {
  std::string out;
  if (!where.empty()) out += where + ": ";
  out += message;
  if (!rule.empty()) out += " [" + rule + "]";
  return out;
}

int ExitCodeFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidInput:
    case ErrorCode::kNotFound:
      return 2;
    case ErrorCode::kRuleViolation:
      return 3;
    case ErrorCode::kCorruption:
      return 4;
    case ErrorCode::kIOError:
      return 5;
    case ErrorCode::kBusy:
      return 6;
    case ErrorCode::kReadOnly:
      return 7;
    case ErrorCode::kUnsupported:
      return 8;
    case ErrorCode::kWrongTurn:
      return 9;
    case ErrorCode::kInternal:
      return 70;
  }
  return 70;
}

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidInput:
      return "invalid-input";
    case ErrorCode::kNotFound:
      return "not-found";
    case ErrorCode::kRuleViolation:
      return "rule-violation";
    case ErrorCode::kCorruption:
      return "corruption";
    case ErrorCode::kIOError:
      return "io-error";
    case ErrorCode::kBusy:
      return "busy";
    case ErrorCode::kReadOnly:
      return "read-only";
    case ErrorCode::kUnsupported:
      return "unsupported";
    case ErrorCode::kWrongTurn:
      return "wrong-turn";
    case ErrorCode::kInternal:
      return "internal";
  }
  return "internal";
}

}  // namespace opsim

namespace opsim {

nlohmann::json ErrorJson(std::string_view code, std::string_view message, std::string_view where,
                         std::string_view rule) {
  return {{"code", code}, {"message", message}, {"where", where}, {"rule", rule}};
}

nlohmann::json ErrorJson(const Error& e) {
  return ErrorJson(ErrorCodeName(e.code), e.message, e.where, e.rule);
}

}  // namespace opsim
