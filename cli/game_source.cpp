#include "game_source.h"

namespace opsim::cli {

void AddGameSourceOptions(CLI::App* cmd, GameSource& src, SourceFor use) {
  auto* scenario = cmd->add_option("--scenario", src.scenario,
                                   "a bundled scenario's name, or a scenario file: a new game");
  auto* state =
      cmd->add_option("--state", src.state,
                      "a saved state file (opsim turn --out), for solo play: anyone holding it can "
                      "foresee its dice (two players keep a turn log with fair dice, "
                      "docs/pbem.md)");
  auto* db = cmd->add_option("--db", src.db, "a turn log (opsim new)");
  if (use == SourceFor::kQuery) {
    cmd->add_option("--at", src.at, "with --db: the state after this many logged player-turns")
        ->check(InRange(0, kMaxPlayerTurns));
  }
  auto* set = cmd->add_option(
      "--set", src.sets,
      "what-if overrides, repeatable: owner:HEX=axis|allied|none, suez=STATUS, "
      "frozen:ZONE=true|false, flood:HEX=none|partial|prohibited|massive, "
      "ice-airfield:HEX=true|false, bridge:HEXSIDE=destroyed|intact, "
      "netherlands-surrendered=true|false, unit:ID=HEX (a ground, air or naval unit)");
  if (use == SourceFor::kPlay) {
    set->group(kNotWithDb);
    cmd->add_option("--seed", src.seed, "the dice's seed for a new game (--scenario)")
        ->check(kSeedRange)
        ->default_val(1)
        ->group(kNotWithDb);
  }
  scenario->excludes(state)->excludes(db);
  state->excludes(db);
}

Result<query::LoadedGame> LoadGame(Context& ctx, const GameSource& src, query::Needs needs) {
  query::Source source{src.scenario, src.state, src.db, std::nullopt, src.seed, src.sets, {}, {}};
  if (src.at >= 0) source.at = src.at;
  if (!src.phase.empty()) {
    auto phase = ops::ParsePhase(src.phase);
    if (!phase) {
      Error e = phase.error();
      e.where = "--phase";
      return std::unexpected(e);
    }
    source.phase = *phase;
  }
  if (src.step >= 0) source.step = static_cast<std::size_t>(src.step);
  auto g = query::Load(source, needs);
  if (g && !src.state.empty()) ctx.state_edited = g->state_edited;
  return g;
}

}  // namespace opsim::cli
