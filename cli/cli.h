// The opsim command line, as a library so tests can run it in-process.
//
// Run() parses argv, runs one command and returns the process exit code: 0 when the command
// answered (a "no route" is an answer), otherwise ExitCodeFor() of the error, whose one-line
// message goes to `err`. With --json every command prints exactly one JSON object on `out`,
// errors included. Run() is not thread-safe (it sets the process-wide spdlog level).
#pragma once

#include <iosfwd>

namespace opsim::cli {

int Run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace opsim::cli
