// What every command shares: the output streams, --json, the exit code, and how results and
// errors are printed. Each command group lives in its own file and registers itself through
// one Add*Commands() function declared here.
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "opsim/core/error.h"

namespace opsim::cli {

struct Context {
  std::ostream& out;
  std::ostream& err;
  bool json = false;
  int verbosity = 0;
  int exit_code = 0;
  // Set when the command's game came from a state file: whether it was edited by hand.
  std::optional<bool> state_edited = std::nullopt;
};

// Prints a command's answer: `doc` as one JSON line with --json (with "state_edited" when the
// game came from a state file), otherwise `text`.
void Emit(Context& ctx, const nlohmann::json& doc, const std::string& text);
// Prints an error (one line on stderr, and {"error":...} on stdout with --json) and sets the
// exit code. Returns that code.
int Report(Context& ctx, const Error& error);

// Runs `body` (returning Status) as a subcommand's callback, turning an Error into Report().
template <class F>
void Bind(CLI::App* cmd, Context& ctx, F body) {
  cmd->callback([&ctx, body]() {
    Status s = body();
    if (!s) Report(ctx, s.error());
  });
}

// Every --seed: 0 to 2^63 - 1 (a turn log keeps it as SQLite's signed integer). Checked on the
// text with from_chars: CLI11's own conversions saturate (2^64 and up become 2^64 - 1) and an
// unsigned option wraps "-1".
inline const CLI::Validator kSeedRange(
    [](std::string& text) -> std::string {
      std::int64_t v = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size() || v < 0) {
        return "a seed is a whole number from 0 to 9223372036854775807";
      }
      return {};
    },
    "SEED");

// --force, for a command that writes --out: replace a file of another kind there (never a link,
// a folder or a device; opsim/core/files.h).
inline void AddForceOption(CLI::App* cmd, bool& force) {
  cmd->add_flag("--force", force,
                "replace --out even if it holds another kind of file (never a link, a folder or "
                "a device)");
}

void AddMapCommands(CLI::App& app, Context& ctx);       // scenarios, map, route, render, generate
void AddLogCommands(CLI::App& app, Context& ctx);       // new, status, log, replay, branch
void AddGameCommands(CLI::App& app, Context& ctx);      // turn, check, supply
void AddTacticalCommands(CLI::App& app, Context& ctx);  // tactical ...
void AddReachCommands(CLI::App& app, Context& ctx);     // reach
void AddOddsCommands(CLI::App& app, Context& ctx);      // odds
void AddPbemCommands(CLI::App& app, Context& ctx);      // pbem start|join|accept|move|...

}  // namespace opsim::cli
