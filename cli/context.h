// What every command shares: the output streams, --json, the exit code, and how results and
// errors are printed. Each command group lives in its own file and registers itself through
// one Add*Commands() function declared here.
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>

#include "opsim/core/echo.h"
#include "opsim/core/error.h"
#include "opsim/core/files.h"

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

// Every number option's range (cli/README.md lists them). Checked on the text with from_chars:
// CLI11's own conversions saturate (2^64 and up become 2^64 - 1), wrap "-1" in an unsigned option
// and print a range as 300-digit doubles. The error names the option (CLI11 prefixes it), the
// range and the value, cut short.
template <class T>
CLI::Validator InRange(T lo, T hi) {
  std::ostringstream range;
  range << lo << " to " << hi;
  return CLI::Validator(
      [lo, hi, range = range.str()](std::string& text) -> std::string {
        T v{};
        const char* end = text.data() + text.size();
        const auto [at, ec] = std::from_chars(text.data(), end, v);
        if (ec == std::errc() && at == end && v >= lo && v <= hi) return {};
        return std::string("must be ") + (std::is_integral_v<T> ? "a whole number" : "a number") +
               " from " + range + ", not " + EchoToken(text);
      },
      range.str());
}

// `percent` with `decimals` decimals and a '%' ("12.5%"), rounded as printf rounds: the one
// percentage format of the commands' text (check gives whole percents, odds one decimal).
inline std::string Percent(double percent, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f%%", decimals, percent);
  return buf;
}

// Every --seed: 0 to 2^63 - 1 (a turn log keeps it as SQLite's signed integer).
inline const CLI::Validator kSeedRange =
    InRange<std::int64_t>(0, std::numeric_limits<std::int64_t>::max()).description("SEED");

// --at, --to and --turn count a log's player-turns: at most a million (a campaign has hundreds).
inline constexpr int kMaxPlayerTurns = 1'000'000;

// --force, for a command that writes --out: replace a file of another kind there (never a link,
// a folder or a device; opsim/core/files.h).
inline CLI::Option* AddForceOption(CLI::App* cmd, bool& force) {
  return cmd->add_flag(
      "--force", force,
      "replace --out even if it holds another kind of file (never a link, a folder or "
      "a device)");
}

// An opsim scenario, the kind of --out that `generate` and `scenario format` write.
inline const OutputKind kScenarioOutput{
    "an opsim scenario", [](std::string_view t) { return IsOpsimFile(t, "scenario"); }};

// --side, axis or allied (checked, so ParseSide of it never fails), with the command's `help`;
// with a `fallback` it defaults to that side, else it stays empty unless given.
inline CLI::Option* AddSideOption(CLI::App* cmd, std::string& side, const std::string& help,
                                  const char* fallback = nullptr) {
  CLI::Option* option =
      cmd->add_option("--side", side, help)->check(CLI::IsMember({"allied", "axis"}));
  return fallback ? option->default_val(fallback) : option;
}

void AddMapCommands(CLI::App& app, Context& ctx);       // scenarios, map, route, render, generate
void AddLogCommands(CLI::App& app, Context& ctx);       // new, status, log, replay, branch
void AddGameCommands(CLI::App& app, Context& ctx);      // turn, check, supply
void AddTacticalCommands(CLI::App& app, Context& ctx);  // tactical ...
void AddReachCommands(CLI::App& app, Context& ctx);     // reach
void AddOddsCommands(CLI::App& app, Context& ctx);      // odds
void AddPbemCommands(CLI::App& app, Context& ctx);      // pbem start|join|accept|move|...
void AddServeCommands(CLI::App& app, Context& ctx);     // serve
void AddViewCommands(CLI::App& app, Context& ctx);      // theater, position
void AddPlayCommands(CLI::App& app, Context& ctx);      // play
void AddScenarioCommands(CLI::App& app, Context& ctx);  // scenario check|format|stats
void AddStoreCommands(CLI::App& app, Context& ctx);     // export, import

}  // namespace opsim::cli
