// The options that say where a command's game comes from (--scenario, --state, --db, --at,
// --set, and --seed for a new game), and their translation into a query::Source.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "context.h"
#include "opsim/query/source.h"

namespace opsim::cli {

struct GameSource {
  std::string scenario;
  std::string state;
  std::string db;
  int at = -1;  // with --db: the state after this many logged player-turns
  std::uint64_t seed = 1;
  std::vector<std::string> sets;
};

// --scenario/--state/--db/--at/--set (and --seed when `seed`).
void AddGameSourceOptions(CLI::App* cmd, GameSource& src, bool seed = false);

// The game the options name, with its --set overrides, loaded for what `needs`; from a state
// file, it notes in `ctx` whether the file was edited by hand (the --json answer says so).
Result<query::LoadedGame> LoadGame(Context& ctx, const GameSource& src,
                                   query::Needs needs = query::Needs::kGame);

}  // namespace opsim::cli
