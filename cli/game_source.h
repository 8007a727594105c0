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
  std::string phase;  // `opsim position --phase`: with --db and --at, that phase's state
  int step = -1;      // `opsim position --step`: with --db and --at, the state after that step
};

// What the options are for: a query, or playing a turn (`opsim turn`), which offers --seed for a
// new game and, since a logged game is played as it stands, neither --at nor --set with --db:
// its help lists --set, --seed (and the command's own --out) under "Not with --db".
enum class SourceFor { kQuery, kPlay };
inline constexpr const char* kNotWithDb = "Not with --db";

// --scenario/--state/--db/--set, --at for a query, --seed to play.
void AddGameSourceOptions(CLI::App* cmd, GameSource& src, SourceFor use = SourceFor::kQuery);

// The game the options name, with its --set overrides, loaded for what `needs`; from a state
// file, it notes in `ctx` whether the file was edited by hand (the --json answer says so).
Result<query::LoadedGame> LoadGame(Context& ctx, const GameSource& src,
                                   query::Needs needs = query::Needs::kGame);

}  // namespace opsim::cli
