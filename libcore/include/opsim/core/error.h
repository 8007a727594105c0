// opsim::Error is the one error type every opsim layer returns.
//
// An Error carries what went wrong (a code the CLI maps to an exit code), a one-line message,
// where it happened (a file and line, a JSON path, or the offending token) and, when a game rule
// decided, that rule's id ("41.A.1", "G8.21"). Nothing throws across library boundaries: a
// fallible call returns Result<T> (std::expected<T, Error>) or Status.
#pragma once

#include <expected>
#include <string>

namespace opsim {

enum class ErrorCode {
  kInvalidInput,   // bad file, bad token, bad request: exit 2
  kNotFound,       // a named thing does not exist: exit 2
  kRuleViolation,  // a legal request the rules forbid (an illegal order): exit 3
  kCorruption,     // a file that is not what it claims, or a failed hash check: exit 4
  kIOError,        // the operating system refused: exit 5
  kBusy,           // a database is locked by someone else: exit 6
  kReadOnly,       // asked to write to a file that cannot be written: exit 7
  kUnsupported,    // a file from a newer version, or a feature not built in: exit 8
  kWrongTurn,      // a turn file for another game or player-turn, or a diverged log: exit 9
  kInternal,       // a bug in opsim: exit 70
};

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;  // what is wrong, one line
  std::string where;    // "file:line", "file: /json/path", or the token; may be empty
  std::string rule;     // the rule id that decided, if any

  // "where: message [rule]", the form the CLI prints on stderr.
  std::string to_string() const;
};

template <class T>
using Result = std::expected<T, Error>;
using Status = std::expected<void, Error>;

inline std::unexpected<Error> Fail(ErrorCode code, std::string message, std::string where = {},
                                   std::string rule = {}) {
  return std::unexpected<Error>(Error{code, std::move(message), std::move(where), std::move(rule)});
}

// The process exit code the CLI uses for an error of this code.
int ExitCodeFor(ErrorCode code);
const char* ErrorCodeName(ErrorCode code);

}  // namespace opsim
