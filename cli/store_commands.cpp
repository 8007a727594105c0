// `opsim export` and `opsim import`: a game moved between an SQLite turn log and a PostgreSQL
// store (docs/log-format.md, "PostgreSQL"; docs/deploy.md). Every row is copied as it is, with
// the same seq, hashes and schema; the chain is checked before and after, and the copy's head
// must be the original's. Nothing here reads the rules: the copy is the log's, not the game's.
#include "context.h"
#include "opsim/query/play.h"

namespace opsim::cli {

namespace {

// Copies the log at `from` to a new log at `to`, and says so as `verb` ("exported").
Status CopyLog(Context& ctx, const std::string& from, const std::string& to, const char* verb) {
  auto copied = query::CopyGame(from, to);
  if (!copied) return std::unexpected(copied.error());
  Emit(ctx, query::ToJson(*copied),
       std::string(verb) + " " + std::to_string(copied->copied.turns) + " player-turns (" +
           std::to_string(copied->copied.rows) + " rows, log schema " +
           std::to_string(copied->schema) + ") of " + copied->from + " to " + copied->to +
           "\n  the hash chain verified on both ends; head " + copied->copied.head);
  return {};
}

void AddExportCommand(CLI::App& app, Context& ctx) {
  struct Options {
    std::string db, out;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "export",
      "Write a game kept in PostgreSQL (--db postgresql://...#GAME) to a new turn-log file: "
      "every row as it is (the same seq, hashes and log schema) and its metadata, so that "
      "`opsim replay --verify --db FILE` passes. The chain is checked in the store and in the "
      "file; the head hash is printed. Exits 4 if the game's chain is broken.");
  cmd->add_option("--db", o->db, "the game: postgresql://...#GAME (or any turn log)")->required();
  cmd->add_option("--out", o->out, "the new turn-log file; it must not exist yet")->required();
  Bind(cmd, ctx, [&ctx, o]() { return CopyLog(ctx, o->db, o->out, "exported"); });
}

void AddImportCommand(CLI::App& app, Context& ctx) {
  struct Options {
    std::string db, into;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "import",
      "Put a turn-log file into a PostgreSQL store as game GAME (--into postgresql://...#GAME): "
      "every row as it is (the same seq, hashes and log schema, 1 to 3) and its metadata, in "
      "one transaction. The chain is checked in the file and in the store; the head hash is "
      "printed. Refused if the store holds GAME already; exits 4 if the file's chain is "
      "broken.");
  cmd->add_option("--db", o->db, "the turn-log file to import")->required();
  cmd->add_option("--into", o->into, "the game to make: postgresql://...#GAME")->required();
  Bind(cmd, ctx, [&ctx, o]() { return CopyLog(ctx, o->db, o->into, "imported"); });
}

}  // namespace

void AddStoreCommands(CLI::App& app, Context& ctx) {
  AddExportCommand(app, ctx);
  AddImportCommand(app, ctx);
}

}  // namespace opsim::cli
