#include "cli.h"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <new>

#include "context.h"
#include "opsim/core/echo.h"
#include "opsim/core/error_json.h"

namespace opsim::cli {

namespace {

// CLI11 quotes what the user typed whole ("The following arguments were not expected: ..."):
// each word passes through EchoToken, and the message stops after a few lines' worth.
std::string EchoParseError(std::string_view what) {
  constexpr std::size_t kMax = 4 * kEchoMax;
  std::string out;
  for (std::size_t at = 0; at <= what.size();) {
    const std::size_t space = std::min(what.find(' ', at), what.size());
    if (at > 0) out += ' ';
    out += EchoToken(what.substr(at, space - at));
    if (out.size() > kMax) return out + " …";
    at = space + 1;
  }
  return out;
}

}  // namespace

void Emit(Context& ctx, const nlohmann::json& doc, const std::string& text) {
  if (ctx.json && ctx.state_edited) {
    nlohmann::json flagged = doc;
    flagged["state_edited"] = *ctx.state_edited;
    ctx.out << flagged.dump() << '\n';
  } else if (ctx.json) {
    ctx.out << doc.dump() << '\n';
  } else {
    ctx.out << text;
    if (!text.empty() && text.back() != '\n') ctx.out << '\n';
  }
}

int Report(Context& ctx, const Error& error) {
  ctx.err << "opsim: error: " << error.to_string() << '\n';
  if (ctx.json) {
    ctx.out << nlohmann::json{{"error", ErrorJson(error)}}.dump() << '\n';
  }
  ctx.exit_code = ExitCodeFor(error.code);
  return ctx.exit_code;
}

int Run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  Context ctx{out, err};
  CLI::App app{
      "opsim: an operational-scale map simulator for Europa-style WWII campaigns.\n"
      "Every query takes --json and then prints one JSON object on stdout.\n"
      "Exit codes: 0 answered (a \"no route\" is an answer), 2 bad input, 3 an order the rules "
      "forbid,\n4 a corrupt or tampered file, 5 an I/O error, 6 a busy database, 7 a read-only "
      "file,\n8 a file from a newer opsim, 9 a turn file for another game or player-turn, or a "
      "diverged log,\n70 an internal error: out of memory, or a bug in opsim (the message says "
      "what "
      "escaped).",
      "opsim"};
  app.set_version_flag("--version", "opsim 0.1.0");
  app.require_subcommand(1);
  app.fallthrough();
  app.add_flag("--json", ctx.json, "Print one JSON object on stdout");
  app.add_flag("-v,--verbose", ctx.verbosity, "More log output on stderr (-vv for debug)");

  AddMapCommands(app, ctx);
  AddLogCommands(app, ctx);
  AddGameCommands(app, ctx);
  AddTacticalCommands(app, ctx);
  AddReachCommands(app, ctx);
  AddOddsCommands(app, ctx);
  AddPbemCommands(app, ctx);
  AddServeCommands(app, ctx);
  AddViewCommands(app, ctx);
  AddPlayCommands(app, ctx);
  AddScenarioCommands(app, ctx);
  AddStoreCommands(app, ctx);

  // Logging: quiet by default (warnings only), to `err`, so stdout stays clean for --json.
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(err);
  auto logger = std::make_shared<spdlog::logger>("opsim", sink);
  logger->set_pattern("opsim: %l: %v");
  spdlog::set_default_logger(logger);
  app.parse_complete_callback([&ctx] {
    spdlog::set_level(ctx.verbosity >= 2   ? spdlog::level::debug
                      : ctx.verbosity == 1 ? spdlog::level::info
                                           : spdlog::level::warn);
  });

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    out << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp& e) {
    out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion& e) {
    out << e.what() << '\n';
    return 0;
  } catch (const CLI::ParseError& e) {
    // CLI11 reports its own help for the subcommand that failed.
    if (e.get_exit_code() == 0) return 0;
    return Report(ctx, Error{ErrorCode::kInvalidInput, EchoParseError(e.what()), {}, {}});
  } catch (const std::bad_alloc&) {
    return Report(ctx, Error{ErrorCode::kInternal,
                             "out of memory: the command needs more than this process may have",
                             {},
                             {}});
  } catch (const std::exception& e) {
    // The last resort: what a reader should have refused becomes one line and exit 70.
    return Report(ctx, Error{ErrorCode::kInternal,
                             std::string("internal error (a bug in opsim): ") + e.what(),
                             {},
                             {}});
  }
  return ctx.exit_code;
}

}  // namespace opsim::cli
