// Where a query's game comes from, loaded once: a scenario (a new game), a saved state file, or
// a turn log at a logged turn; then the what-if overrides (`--set`) applied to it.
//
// Load() parses the scenario once and builds the campaign only when the query needs it (a
// theater summary does not). Every query in opsim::query answers against the LoadedGame it
// returns, which is immutable once loaded: queries on it may run on different threads. What
// they build from it and may reuse (ground routers with their barriers, planning games with
// their router caches) it keeps warm in a WarmCache, lent to one query at a time. Errors are
// opsim::Error, as everywhere.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"
#include "opsim/map/state.h"
#include "opsim/ops/campaign.h"
#include "opsim/ops/game.h"
#include "opsim/ops/state_file.h"
#include "opsim/ops/steps.h"

namespace opsim::query {

// The bundled scenarios' folder: $OPSIM_SCENARIO_DIR, else the source tree's scenarios/.
std::string ScenarioDir();

// One what-if override, `--set KEY=VALUE`, resolved against a theater.
struct Override {
  enum class Kind : std::uint8_t {
    kOwner,                   // owner:HEX=axis|allied|none
    kSuez,                    // suez=open|temporarily-closed|permanently-closed (41.B)
    kFrozen,                  // frozen:ZONE=true|false
    kFlood,                   // flood:HEX=none|partial|prohibited|massive (41.A.4)
    kBridge,                  // bridge:HEXSIDE=destroyed|intact
    kIceAirfield,             // ice-airfield:HEX=true|false (41.A.3)
    kNetherlandsSurrendered,  // netherlands-surrendered=true|false
    kUnit,                    // unit:ID=HEX
  };
  Kind kind = Kind::kOwner;
  map::HexRef hex;          // owner, flood, ice airfield; kUnit: where the unit is put
  std::uint8_t area = 0;    // kUnit: a naval unit's water area of that hex (HEX#AREA)
  bool area_named = false;  // kUnit: HEX#AREA, which only a naval unit may be given
  map::HexsideRef hexside;  // bridge
  std::size_t zone = 0;     // frozen: the weather zone's index
  std::string unit;         // kUnit: the unit's id
  Owner owner = Owner::kNone;
  map::CanalStatus suez = map::CanalStatus::kOpen;
  std::optional<map::FloodKind> flood;  // none: the flood is cleared
  bool flag = false;                    // frozen, destroyed, ice airfield, surrendered
  std::string text;                     // as given, for errors
};
// "owner:16A:0727=axis", "suez=temporarily-closed", ...; kInvalidInput names the forms, and an
// unknown hex, hexside or zone is the theater's error.
Result<Override> ParseOverride(const map::Theater& t, std::string_view text);
// Whether the override changes units or the campaign's state (unit:, netherlands-surrendered),
// so that the game must be loaded whole.
bool OverrideNeedsCampaign(std::string_view text);

struct Source {
  std::string scenario;                // a bundled scenario's name or a scenario file: a new game
  std::string state;                   // a saved state file
  std::string db;                      // a turn log
  std::optional<std::int32_t> at;      // with db: the state after this many logged player-turns
  std::uint64_t seed = 1;              // a new game's dice
  std::vector<std::string> overrides;  // `--set` texts, parsed and applied in order
  // With db and at (from 1): the state after this phase of logged player-turn `at`, replayed
  // and checked against the log (db::LoadLoggedPhases).
  std::optional<ops::Phase> phase;
  // With db and at (from 1), not with phase: the state after this many steps of logged
  // player-turn `at`, taken again (db::LoadLoggedSteps); 0 is the player-turn begun.
  std::optional<std::size_t> step;
};

// Where a state taken again step by step stands in its player-turn (Source::step).
struct StepPlace {
  std::int32_t number = 0;  // the logged player-turn
  std::size_t taken = 0, steps = 0;
  bool by_steps = false;                // played step by step, not from orders
  std::optional<ops::LoggedStep> last;  // the last step taken (none at 0)
  ops::Prompt prompt;                   // what the game waited for then
};

class Warm;  // libquery/src/warm.h

// What queries keep between calls on one LoadedGame, built on first use: thread-safe, since
// each object in it is lent to one query at a time. A copy starts empty, and so does a
// LoadedGame an override changes (ApplyOverride); code that changes a LoadedGame's state or map
// itself assigns it a new WarmCache.
class WarmCache {
 public:
  WarmCache();
  ~WarmCache();
  WarmCache(const WarmCache&);
  WarmCache& operator=(const WarmCache&);
  WarmCache(WarmCache&& other);
  WarmCache& operator=(WarmCache&& other);
  Warm& get() const { return *warm_; }

 private:
  std::unique_ptr<Warm> warm_;
};

struct LoadedGame {
  std::shared_ptr<const map::Theater> theater;
  std::shared_ptr<const ops::Campaign> campaign;  // null for a map only, or when not needed
  std::optional<ops::GameState> state;            // present with a campaign
  map::MapState map;                              // what map queries read
  ops::ScenarioId scenario;   // name, path and SHA-256 for a scenario or state file; name for a log
  bool state_edited = false;  // a state file whose saved hashes no longer match (state_file.h)
  // Source::phase: the phase the state stands after; the player-turn it ends is then still the
  // state's own (player_turn()), except after the exploitation phase, which ends it.
  std::optional<ops::Phase> phase;
  std::optional<StepPlace> step;  // Source::step
  WarmCache warm;

  const ops::RuleTables& tables() const;
  std::int32_t player_turn() const { return state ? state->player_turn : 0; }
};

// What a query reads: the theater and its map state only, or the whole game.
enum class Needs : std::uint8_t { kTheater, kGame };

Result<LoadedGame> Load(const Source& source, Needs needs = Needs::kGame);
// A scenario already read (a file, or a request body: `src.name()` stands for its path), loaded
// as Load() loads Source::scenario: the theater, and the campaign when `needs` asks and the file
// has one. `opsim scenario check` and the workshop's check are this.
Result<LoadedGame> LoadScenarioSource(const JsonSource& src, Needs needs = Needs::kGame,
                                      std::uint64_t seed = 1);
// Applies one override to `g` (its state and map); the flood lengths come from its rule tables.
Status ApplyOverride(LoadedGame& g, const Override& o);
// The game to play or ask: kInvalidInput for a map-only scenario.
Result<ops::Game> GameOf(const LoadedGame& g);

}  // namespace opsim::query
