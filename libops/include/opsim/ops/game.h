// Game: plays a campaign's player-turns under opsim's base rules and Rule 41.
//
// A Game holds the static theater, campaign and tables, and the current GameState. Play()
// runs one player-turn from orders: the weather (first player-turn of a game turn), the
// initial phase (supply, Suez status, relief, thaws, flood expiry), movement, combat and
// exploitation. It is all or nothing: an illegal order refuses the whole player-turn with the
// rule that forbids it and leaves the state untouched. Every die roll, every result and every
// state hash (after each phase) is reported, so a log can replay and verify it.
//
// Not thread-safe, and neither are its copies among themselves: a copy has its own state, but
// shares the static parts (immutably) and the cache of ground routers. Sharing the cache is
// safe on one thread, since a router is keyed by everything in the state its costs read and is
// rebound to the asking copy's state on each use; two copies used on two threads at once race
// on it. A fork (Fork()) has its own router cache, so it may be used on another thread than
// the game it came from. Copies and forks that keep the state they were made with share what
// their probes worked out of it (the phasing side's supply, once per position, under a lock);
// and all share the enemy zones of control each position they reach works out (EnemyZoc).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "opsim/core/dice.h"
#include "opsim/map/scenario.h"
#include "opsim/ops/campaign.h"
#include "opsim/ops/game_state.h"
#include "opsim/ops/orders.h"

namespace opsim::ops {

// One thing that happened: who did what, and the rule that applied. `text` is for people; the
// rest is the event's content as data (its kind, rule, units, hexes and numbers), which replay
// compares, so that a build that words an event differently still verifies an older log.
struct Event {
  std::string kind;  // "weather", "supply", "move", "combat", "flood", "suez", "exit", ...
  RuleId rule;
  std::string text;                  // one readable line
  std::vector<std::string> units{};  // the units it is about, by id, in the order it names them
  std::vector<std::string> hexes{};  // the hexes it is about (SHEET:XXYY), in order
  // Its numbers, in order: strengths, MP costs (in half-MPs), SRPs, damage levels; a die
  // event's start with the die's sides and face.
  std::vector<std::int64_t> numbers{};
};

// B11.2: whether an air unit escaped from its lost airbase.
enum class AirEscape : std::uint8_t { kEscapes, kEliminated };
const char* AirEscapeName(AirEscape e);  // "escapes", "eliminated"

// What a roll decided, as a value of its table (none for a roll that decides nothing).
using RollOutcome = std::variant<std::monostate, Weather, FloodResult, CombatResult, AirEscape>;

// One die roll and what it decided.
struct DieRoll {
  int value = 0;
  int sides = 6;
  bool scripted = false;  // taken from the orders' dice, not the seeded dice
  std::string purpose;    // "weather zone E", "flood 16A:0922", "combat 16A:0922"
  RuleId rule;
  std::string decided;  // "snow", "S*", "DR"
  // Not logged: what opsim check's odds group rolls by.
  RollOutcome outcome{};  // `decided` as a value
  std::string against;    // what it was rolled against: "12 to 4, 3:1 shifted -1 (rough) to 2:1"
};

// The odds an attack is fought at (B7.2): the strengths, the column of the combat tables they
// make (RuleTables' combat columns, by index), the shift for terrain, a city and a major river,
// and the column shifted to; `text` as the combat roll says it ("12 to 4, column 3:1 shifted -1
// (rough) to 2:1").
struct CombatOdds {
  int attack = 0, defense = 0;
  int column = 0, shift = 0, shifted = 0;
  std::string text;
};

// What one attack came to, as data (its events say it in words): opsim odds counts these.
struct AttackOutcome {
  map::HexRef hex;
  std::optional<FloodResult> flood;    // the owner's flooding attempt (41.A.4), if any
  std::optional<CombatResult> result;  // none: called off or cancelled after the flood
};

// The state after one phase, and where the next phase's events and rolls begin (not logged:
// a replay reports them, so that a reader can tell which of a player-turn's events and dice
// are which phase's). The weather is the initial phase's; events said after the exploitation
// phase ended (the orders' dice that were not needed) are the exploitation phase's.
struct PhaseHash {
  Phase phase;
  std::string hash;
  std::size_t events = 0;  // the player-turn's events said by the end of this phase
  std::size_t rolls = 0;   // and its rolls
};

struct TurnResult {
  std::int32_t player_turn = 0;  // the serial just played
  Side side = Side::kAxis;
  GameDate date;
  std::vector<Event> events;
  std::vector<DieRoll> rolls;
  std::vector<AttackOutcome> attacks;  // in the order attacked
  std::vector<PhaseHash> hashes;       // after each phase, in order
  std::string final_hash;
};

// B8: one hex's supply for one side, and why.
struct SupplyTrace {
  SupplyStatus status = SupplyStatus::kSupplied;
  std::uint32_t cost = 0;         // half-MPs of the overland segment
  std::vector<map::HexRef> path;  // from the hex to the supply network
  map::HexRef network;            // where the path meets the road/rail net
  std::string why;                // for a unit that is not supplied
  std::vector<RuleId> rules;      // rules that shaped or stopped the trace
};

// A player-turn played for planning (opsim check), never with the game's dice: after the
// orders' own dice, its dice come from `dice`; when they run out the player-turn stops at the
// roll that needs one more (`needs`, its sides), so a caller can enumerate every die.
struct ProbeRun {
  std::vector<int> dice;
  // A dry run: an order the rules refuse (or that names what is not there) is recorded in
  // `refused`, its changes undone (but not its dice), and the player-turn goes on without it.
  bool go_on = false;
  int needs = 0;                  // out: 0 when the player-turn was played to its end
  std::vector<Error> refused;     // out, with go_on: in the order they were met
  std::size_t shared_events = 0;  // out: how many leading events came before any of `dice`
};

class RouterCache;
class ProbeSupply;
class ZoneCache;
class StepTurn;

class Game {
 public:
  // A new game at the campaign's start.
  Game(std::shared_ptr<const map::Theater> theater, std::shared_ptr<const Campaign> campaign);
  // A game at a given state (a saved state, a snapshot).
  Game(std::shared_ptr<const map::Theater> theater, std::shared_ptr<const Campaign> campaign,
       GameState state);
  // A copy with its own router cache, for another thread (see above).
  Game Fork() const;

  const map::Theater& theater() const { return *theater_; }
  const Campaign& campaign() const { return *campaign_; }
  const RuleTables& tables() const { return campaign_->tables; }
  const GameState& state() const { return state_; }
  std::string hash() const { return StateHash(state_); }
  // Restarts the seeded dice from an opsim::Dice state: opsim odds gives each run its own.
  void SetDice(std::uint64_t dice) { state_.dice = dice; }

  // Plays the phasing side's player-turn. On error (kRuleViolation with the rule, or
  // kInvalidInput for orders of the wrong side or turn) the state is unchanged. Its dice are the
  // orders' scripted dice, then the state's seeded dice; or, given `dice` (a fair game's keyed
  // dice, docs/dice.md), `dice` alone: the orders may then carry no dice, and the seeded state is
  // neither used nor changed. Given `phases`, it is also given the state after each phase, in
  // the order of TurnResult::hashes (each hashes to its PhaseHash); copies are costly on a big
  // theater, so only when asked. The exploitation phase's state is the one the player-turn
  // ends in, but for the player-turn counter, which moves on after it.
  Result<TurnResult> Play(const Orders& orders, DiceSource* dice = nullptr,
                          std::vector<GameState>* phases = nullptr);
  // Plays the phasing side's player-turn as Play() would, but with `run`'s dice and the
  // present weather (the first player-turn of a game turn does not roll it), and keeps
  // nothing: the state, and its dice, are neither read for dice nor changed, nor hashed (no
  // hashes, no final_hash). Stopped for a die, it returns the player-turn so far.
  Result<TurnResult> Probe(const Orders& orders, ProbeRun& run) const;

  // B8: the supply of every hex for a side, and of one hex with its trace.
  std::vector<SupplyStatus> SupplyMap(Side side) const;
  SupplyTrace SupplyAt(Side side, map::HexRef hex) const;

  // A context for route queries at this state.
  RuleContext Context(bool exploitation = false) const;
  // B4.8: the hexes an enemy of `side` controls (its zones of control), by hex. Worked out once
  // for each position and side that asks, and shared with this game's copies and forks and the
  // player-turns and probes they play (libops zones_of_control.h, ZoneCache).
  std::vector<std::uint8_t> EnemyZoc(Side side) const;

 private:
  friend class StepTurn;  // a player-turn played step by step begins from, and ends in, a game
  // The player-turn from `orders` on a copy of the state, returned in `after`.
  Result<TurnResult> Run(const Orders& orders, ProbeRun* probe, DiceSource* dice,
                         std::vector<GameState>* phases, GameState& after) const;

  std::shared_ptr<const map::Theater> theater_;
  std::shared_ptr<const Campaign> campaign_;
  GameState state_;
  // Ground routers whose costs outlive a state; shared by copies of this game.
  std::shared_ptr<RouterCache> routers_;
  // What probes work out of state_ alone; a new one whenever Play() changes it.
  std::shared_ptr<ProbeSupply> probe_supply_;
  // Enemy zones of control by exactly what they are worked out from, so never stale: shared by
  // copies and forks, and kept across Play().
  std::shared_ptr<ZoneCache> zones_;
};

}  // namespace opsim::ops
