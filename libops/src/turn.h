// Turn: the working copy of one player-turn, shared by the phase files (weather, initial,
// movement, combat) and by the Rule 41 clauses' files in rule41/, which define the members
// marked with their clause. It owns the state being changed, the dice, and what is reported;
// Game keeps the result only if every phase succeeds. Not thread-safe; private to libops.
#pragma once

#include <array>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "opsim/core/dice.h"
#include "opsim/core/rule_ids.h"
#include "opsim/ops/game.h"
#include "router_cache.h"
#include "zones_of_control.h"

namespace opsim::ops {

class Turn {
 public:
  // `keyed`: a fair game's dice, used instead of the scripted and seeded ones (may be null).
  Turn(const map::Theater& theater, const Campaign& campaign, GameState state, const Orders& orders,
       RouterCache& routers, DiceSource* keyed);

  // What an event names, as data (Event::units, hexes, numbers): each Say states the unit ids,
  // hexes and numbers its text names, in the text's order, so that replay can compare them.
  struct Units : std::vector<std::string> {
    using vector::vector;
  };
  struct Hexes : std::vector<map::HexRef> {
    using vector::vector;
  };
  struct Numbers : std::vector<std::int64_t> {
    using vector::vector;
  };
  // The Rule 41 notes of one step of a move, with the hexes the step joins.
  struct StepNotes {
    Hexes hexes;
    std::vector<Note> notes;
  };
  // What an order may change, to undo it in a dry run (and a step, StepTurn).
  struct Undo {
    GameState s;
    std::array<std::vector<int>, 2> res;
    std::set<std::string> moved, attacked;
    std::set<std::uint32_t> attacked_hexes;
    int rail_used_halves;
    std::map<std::size_t, int> ferry_used_halves;
    std::map<std::uint32_t, std::size_t> retreats_taken;
    std::size_t events;
    std::size_t attacks;
  };
  Undo Mark() const;
  void Restore(Undo undo);

  // The phases, in order; each returns an error that refuses the whole player-turn.
  Status Weather();
  Status Initial();
  Status Movement(bool exploitation);
  Status Combat();
  void EndPhase(Phase phase);

  // --- the phases' pieces, which the batch above and StepTurn (steps.cpp) both play ----------
  // The initial phase before its orders: expired floods, the surrender, Suez, supply, relief.
  Status InitialStart();
  Status InitialStep(const InitialOrder& o);           // one initial order: 41.B, 41.A.3
  void StartMovement() { moved_.clear(); }             // a unit moves once a phase (B4.10)
  Status Move(const MoveOrder& m, bool exploitation);  // one order of movement or exploitation
  // An attack in four parts (B7.7): declared (checked, its units and hex marked as attacking
  // and attacked), resolved (the owner's flood answer, 41.A.4, then the die), its result applied
  // (losses and retreats, B7.3 and B7.5), and the advance (B7.6). Between the parts the owner
  // decides: his flood attempt before Resolve (orders_.reactions), his retreats before
  // ApplyResult (orders_.retreats), the attacker his advance.
  struct Declared {
    AttackOrder order;
    std::vector<std::string> attackers;  // by id, in the order's order
    std::vector<StepNotes> crossings;    // the Rule 41 clauses that shaped each attacker's hexside
    // Each attacker's hexside as the terrain effects chart names it (B7.2), in the attackers'
    // order: none from within the hex (B11.3) or across a hexside the chart does not name.
    std::vector<std::optional<CombatHexside>> across;
    std::optional<CombatResult> result;  // once resolved: none when it did not go on
  };
  // B7.1: checks an attack as declaring it would, recording nothing (a preview's).
  Result<Declared> Weigh(const AttackOrder& a);
  // Weighs the attack and records it declared: its hex and attackers attack no more.
  Result<Declared> Declare(const AttackOrder& a);
  // B7.2: the odds a declared attack is fought at, its hex counted as swamp after a flood
  // (41.A.4).
  CombatOdds Odds(const Declared& d, bool swamp);
  Status Resolve(Declared& d);
  void ApplyResult(const Declared& d);
  // The flooding attempts the owner of an attacked hex may make (41.A.4), none when none.
  std::vector<ReactionKind> FloodChoices(map::HexRef h) const;
  // The hexes whose units retreat under the result, in the order they retreat (first unit).
  std::vector<map::HexRef> Retreating(const Declared& d);
  // B7.5: how many retreat preferences `h`'s stacks have taken this player-turn
  // (RetreatPreferenceFor).
  std::size_t RetreatsTaken(map::HexRef h) const {
    const auto it = retreats_taken_.find(h.v);
    return it == retreats_taken_.end() ? 0 : it->second;
  }
  // B7.5: where the first unit retreating from `h` may go, the engine's choice first; the
  // other hexes are those as far from the attackers (the tie a preference breaks).
  std::vector<map::HexRef> RetreatChoices(const Declared& d, map::HexRef h);
  // B7.6: the surviving attackers that may advance into the emptied hex (none: no advance).
  std::vector<std::string> MayAdvance(const Declared& d);
  // Refuses (B7.6) a chosen advance that names a unit that may not advance.
  Status MayAdvanceThese(const Declared& d, const std::vector<std::string>& units,
                         const std::string& where);
  // `units`, of MayAdvance's, advance in the attack's order as stacking allows.
  void Advance(const Declared& d, const std::vector<std::string>& units);
  Status EndCombat();  // 41.A.4: floods answer attacks; B11.3: uncleared assaults are lost
  const Orders& orders() const { return orders_; }
  void EndPlayerTurn();  // what lasts only this player-turn ends (before the last hash)
  void Finish();

  GameState& state() { return s_; }
  TurnResult& result() { return result_; }
  // A probe (Game::Probe): its dice instead of the game's, the present weather, and with
  // go_on a refused order undone and recorded rather than refusing the player-turn; `supply`
  // holds the initial phase's supply shared by the position's probes (supply.h).
  void SetProbe(ProbeRun* run, ProbeSupply* supply) {
    probe_ = run;
    probe_supply_ = supply;
  }
  // The game's enemy zones of control, shared with its other player-turns, probes and queries
  // (zones_of_control.h); null: each worked out here.
  void ShareZones(ZoneCache* zones) { shared_zones_ = zones; }
  // Game::Play's `phases`: EndPhase adds a copy of the state to it (may be null).
  void KeepPhases(std::vector<GameState>* phases) { phases_ = phases; }

 private:
  // --- reporting and dice --------------------------------------------------------------------
  void Say(std::string kind, RuleId rule, std::string text, Units units, Hexes hexes,
           Numbers numbers);
  // After a move: one event for each Rule 41 clause that decided a step of it, so that the
  // turn's record names the special rule behind the cost or the route (41.A.1, 41.A.2, ...).
  // The event names the movers and the hexes of the first step the clause decided.
  void SayRule41(const std::string& kind, const std::string& who, const Units& units,
                 const std::vector<StepNotes>& steps);
  std::unexpected<Error> Refuse(RuleId rule, std::string message, const std::string& where);
  // A die roll: the keyed dice if any, else the orders' dice first, then the seeded dice (or a
  // probe's own). Returns the face, or an error when a scripted die cannot be such a roll or a
  // probe has no die left.
  Result<int> Roll(int sides, std::string purpose, RuleId rule);
  // Records what the last roll decided, as a roll and as an event whose numbers are the die's
  // sides and face, then `numbers`.
  void Decided(std::string what, RollOutcome outcome, Units units, Hexes hexes, Numbers numbers);
  // One order: its status; or, in a probe's dry run (go_on), a refusal recorded and undone; or,
  // in a fair game once a die is drawn (docs/dice.md: a drawn die is never drawn again), a
  // refusal said as an event and undone, and the player-turn goes on without the order.
  template <class F>
  Status Attempt(F&& order) {
    const bool go_on =
        probe_ != nullptr ? probe_->go_on : keyed_ != nullptr && !result_.rolls.empty();
    if (!go_on) return order();
    Undo undo = Mark();
    Status st = order();
    if (st || (probe_ != nullptr && probe_->needs != 0) ||
        (st.error().code != ErrorCode::kRuleViolation &&
         st.error().code != ErrorCode::kInvalidInput)) {
      return st;
    }
    Restore(std::move(undo));
    if (probe_ != nullptr) {
      probe_->refused.push_back(st.error());
    } else {
      RefusedInPlay(st.error());
    }
    return {};
  }
  // An order of a fair game that the dice made illegal: an event naming its rule.
  void RefusedInPlay(const Error& e);

  // --- the board -----------------------------------------------------------------------------
  RuleContext Ctx(bool exploitation) const;
  std::string Name(map::HexRef h) const { return t_.HexName(h); }
  GroundUnit* Unit(const std::string& id, const std::string& where, Status* error);
  std::vector<GroundUnit*> UnitsAt(map::HexRef h, Side side);
  int ResAt(map::HexRef h, Side side) const { return res_[static_cast<int>(side)][h.v]; }
  bool Occupied(map::HexRef h, Side side) const { return ResAt(h, side) > 0; }
  // Hexes in a zone of control of `side`'s enemies (B4.8), kept until an enemy unit moves.
  const std::vector<std::uint8_t>& EnemyZoc(Side side);
  // Every change of a unit's hex or status goes through these, to keep the counts above.
  void Place(GroundUnit& u, map::HexRef h);
  void Remove(GroundUnit& u, UnitStatus status);
  // B16.1: a reinforcement comes onto the map at its hex.
  void Arrive(GroundUnit& u);
  void Enter(GroundUnit& u, map::HexRef h);  // moves a unit and takes the hex (B9.1)
  // B9.1: `side` gains a hex its units stand in, unless enemy units share it.
  void Gain(map::HexRef h, Side side);
  // `hexes` and `numbers` are those that `why` names.
  void Eliminate(GroundUnit& u, RuleId rule, const std::string& why, Hexes hexes, Numbers numbers);
  // B7.5: retreats a unit one hex away from `from` (the attackers' hexes), into the first of
  // its stack's preferred hexes that B7.5 allows, else the engine's choice; eliminates it if
  // it cannot retreat.
  // Moves `hexes` hexes away from `from` (B7.5), or is eliminated where it cannot.
  void Retreat(GroundUnit& u, const std::vector<map::HexRef>& from, RuleId rule, int hexes = 1);
  // Eliminates `percent` of the units' strength (attack or defense), weakest first (B7.3).
  void Lose(const std::vector<GroundUnit*>& units, int percent, bool attacking,
            const std::string& why, map::HexRef hex);
  // Eliminates units, weakest first, until at least `due` strength is lost (B7.3).
  void LoseAtLeast(const std::vector<GroundUnit*>& units, int due, bool attacking,
                   const std::string& why, map::HexRef hex);
  // B7.5: the rule (and why) that bars `u` from retreating across `e`, or nullopt.
  std::optional<Note> RetreatBar(const GroundUnit& u, map::HexsideRef e);
  // B7.5: the hexes `u` may retreat into that are farthest from `from`, lowest first (the
  // first is the engine's choice); none when it cannot retreat.
  std::vector<map::HexRef> Farthest(const GroundUnit& u, const std::vector<map::HexRef>& from);
  // B7.5: the preferences each stack retreating from `hexes` now takes (RetreatPreferenceFor),
  // for PreferredRetreat until the retreats are done.
  void TakeRetreatPreferences(const std::vector<map::HexRef>& hexes);
  // The first of `u`'s preferred hexes (the preference its stack took) that it may enter and
  // that is as far from the attackers as `farthest` (the engine's choice), saying why each one
  // before it is refused; invalid when none is, or it has none.
  map::HexRef PreferredRetreat(const GroundUnit& u, const std::vector<map::HexRef>& from,
                               map::HexRef farthest);
  // B11.2: an air unit's attempt to escape from a lost airbase.
  Status AirEscape(AirUnit& a, RuleId why);

  // --- phases' pieces ------------------------------------------------------------------------
  Status Supply();
  Status GroundMove(const MoveOrder& m, bool exploitation);
  Status RailMove(const MoveOrder& m);
  Status NavalMove(const MoveOrder& m);
  Status AirMove(const MoveOrder& m);
  Status BridgeWork(const MoveOrder& m);
  Status Attack(const AttackOrder& a);  // the four parts of an attack, in a row
  std::vector<GroundUnit*> Attackers(const Declared& d);
  // 41.A.4: why the owner of `h` may not make this attempt, or nothing.
  Status MayFlood(map::HexRef h, ReactionKind kind, const std::string& where) const;

  // A ground move's stack, and the half-MPs each of its units has spent (B4.10).
  struct MovingStack {
    std::vector<GroundUnit*> units;
    std::vector<int> spent;
    int halves = 0;         // its size, in half REs
    bool engineer = false;  // B4.7
    bool exploitation = false;
  };
  Result<MovingStack> GatherStack(const MoveOrder& m, bool exploitation);
  // Spends unit k's MPs entering `at`; refused past its allowance (B4.10, B7.8).
  Status Pay(MovingStack& stack, std::size_t k, std::uint32_t halves, map::HexRef at,
             const std::string& where);
  // The step into m.path[i]: zones of control, the step's cost, an overrun; then it enters.
  Status GroundStep(MovingStack& stack, const MoveOrder& m, std::size_t i, const RuleContext& ctx,
                    std::vector<StepNotes>& special);
  Status Overrun(MovingStack& stack, map::HexRef to, const std::vector<GroundUnit*>& defenders,
                 const std::string& where);
  void SayGroundMove(const MovingStack& stack, const MoveOrder& m,
                     const std::vector<StepNotes>& special);

  // --- Rule 41, each defined in its clause's file in rule41/ ----------------------------------
  // 41.A.2 (rail_ferries.cpp): a ride on rail ferry `index`, within its 3 REs a player-turn.
  Status RideFerry(std::size_t index, int halves, const std::string& where);
  // 41.A.3 (ice_airfields.cpp).
  bool FrozenLakeHex(map::HexRef h) const;
  Status BuildIceAirfield(const InitialOrder& o);
  Status ThawIceAirfields();
  // 41.A.4 (flooding.cpp): the owner's answer to an announced attack: whether the attack goes
  // on, the die modifier, and whether the hex is swamp for it.
  struct FloodAnswer {
    bool attack = true;
    int modifier = 0;
    bool swamp = false;
    std::optional<FloodResult> flood;  // the attempt's result, if the owner tried
  };
  Result<FloodAnswer> AnswerAttack(const AttackOrder& a);
  // One flooding attempt: returns the attack die modifier and whether the hex was flooded.
  struct FloodOutcome {
    FloodResult result = FloodResult::kCompleteFailure;
    bool flooded = false;
    bool massive = false;
    int attack_modifier = 0;
  };
  Result<FloodOutcome> Flood(const AttackOrder& a, const Reaction& r);
  Status MassiveFloodEffects(map::HexRef h);
  Status FloodsAnswerAttacks();  // every reaction answers an attack
  void ExpireFloods();           // in the initial phase
  void RecedeFloods();           // at the end of the player-turn
  Status PayFloodMarkers(MovingStack& stack, map::HexRef start, const std::string& where);
  void Relief();
  void Reinforcements();  // B16.1
  // Disaster relief for `flood` ("the flood", "the massive flood") at `h`.
  void PayRelief(int srp, const std::string& flood, map::HexRef h, RuleId rule);
  // 41.B (suez.cpp): the automatic permanent closure (no order), or an order to close or reopen.
  Status SuezStatus(const InitialOrder* order);
  // 41.E.1 (kerch.cpp): no attack across the Kerch hexside.
  Status KerchAttack(map::HexsideRef side, const std::string& where);
  // 41.E.1 (kerch.cpp): the sea a naval unit in the straits entered them from, which a marker
  // on its hex keeps from one move to the next; and the marker's update when it moves.
  NavalRouter::Tag StraitsEntry(const NavalUnit& n) const;
  void MarkStraitsEntry(const NavalUnit& n, map::HexRef from, NavalRouter::Tag tag);
  // 41.F (exits.cpp): the stack leaves the map from `end`.
  Status ExitMap(MovingStack& stack, map::HexRef end, const RuleContext& ctx,
                 const std::string& where);

  const map::Theater& t_;
  const Campaign& c_;
  RouterCache& routers_;
  const RuleTables& tables_;
  const Orders& orders_;
  // B7.5: of the orders' retreat preferences, how many each hex's stacks have taken this
  // player-turn (one per retreat from it); and the ones the attack being applied takes, by the
  // hex each retreating stack leaves (ApplyResult, for PreferredRetreat).
  std::map<std::uint32_t, std::size_t> retreats_taken_;
  std::map<std::uint32_t, const RetreatPreference*> retreat_prefs_;
  GameState s_;
  Side side_;
  std::int32_t serial_;
  TurnResult result_;
  std::deque<int> scripted_;
  Dice dice_;
  DiceSource* keyed_;
  std::set<std::string> moved_, attacked_;
  std::set<std::uint32_t> attacked_hexes_;
  std::array<std::vector<int>, 2> res_;  // half REs by side, then hex
  std::array<std::shared_ptr<const std::vector<std::uint8_t>>, 2> zoc_;  // EnemyZoc, by side
  ZoneCache* shared_zones_ = nullptr;
  std::array<bool, 2> zoc_fresh_{};
  int rail_used_halves_ = 0;
  std::map<std::size_t, int> ferry_used_halves_;  // by rail ferry
  ProbeRun* probe_ = nullptr;
  ProbeSupply* probe_supply_ = nullptr;
  std::vector<GameState>* phases_ = nullptr;
  std::size_t probe_drawn_ = 0;  // how many of probe_->dice were rolled
};

}  // namespace opsim::ops
