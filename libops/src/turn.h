// Turn: the working copy of one player-turn, shared by the phase files (weather, initial,
// movement, combat). It owns the state being changed, the dice, and what is reported; Game
// keeps the result only if every phase succeeds. Private to libops.
#pragma once

#include <array>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "opsim/core/dice.h"
#include "opsim/core/rule_ids.h"
#include "opsim/ops/game.h"
#include "router_cache.h"

namespace opsim::ops {

class Turn {
 public:
  Turn(const map::Theater& theater, const Campaign& campaign, GameState state, const Orders& orders,
       RouterCache& routers);

  // The phases, in order; each returns an error that refuses the whole player-turn.
  Status Weather();
  Status Initial();
  Status Movement(bool exploitation);
  Status Combat();
  void EndPhase(Phase phase);
  void EndPlayerTurn();  // what lasts only this player-turn ends (before the last hash)
  void Finish();

  GameState& state() { return s_; }
  TurnResult& result() { return result_; }

 private:
  // --- reporting and dice --------------------------------------------------------------------
  void Say(std::string kind, RuleId rule, std::string text);
  // After a move: one event for each Rule 41 clause that decided a step of it, so that the
  // turn's record names the special rule behind the cost or the route (41.A.1, 41.A.2, ...).
  void SayRule41(const std::string& kind, const std::string& who, const std::vector<Note>& notes);
  std::unexpected<Error> Refuse(RuleId rule, std::string message, const std::string& where);
  // A die roll: the orders' dice first, then the seeded dice. Returns the face, or an error
  // when a scripted die cannot be such a roll.
  Result<int> Roll(int sides, std::string purpose, RuleId rule);
  // Records what the last roll decided, as a roll and as an event.
  void Decided(std::string what);

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
  void Enter(GroundUnit& u, map::HexRef h);  // moves a unit and takes the hex (B9.1)
  // B9.1: `side` gains a hex its units stand in, unless enemy units share it.
  void Gain(map::HexRef h, Side side);
  void Eliminate(GroundUnit& u, RuleId rule, const std::string& why);
  // B7.5: retreats a unit one hex away from `from`; eliminates it if it cannot.
  void Retreat(GroundUnit& u, const std::vector<map::HexRef>& from, RuleId rule);
  // B11.2: an air unit's attempt to escape from a lost airbase.
  Status AirEscape(AirUnit& a, RuleId why);
  bool IceAirfieldAllowed(map::HexRef h) const;
  bool FrozenLakeHex(map::HexRef h) const;

  // --- phases' pieces ------------------------------------------------------------------------
  Status Supply();
  Status SuezStatus(const InitialOrder* order);
  void Relief();
  Status GroundMove(const MoveOrder& m, bool exploitation);
  Status RailMove(const MoveOrder& m);
  Status NavalMove(const MoveOrder& m);
  Status AirMove(const MoveOrder& m);
  Status BridgeWork(const MoveOrder& m);
  Status Attack(const AttackOrder& a);
  // 41.A.4: the owner's attempt to flood an attacked hex: returns the attack die modifier and
  // whether the attack is called off or cancelled.
  struct FloodOutcome {
    bool flooded = false;
    bool massive = false;
    int attack_modifier = 0;
  };
  Result<FloodOutcome> Flood(const AttackOrder& a, const Reaction& r);
  Status MassiveFloodEffects(map::HexRef h);
  void PayRelief(int srp, const std::string& why, RuleId rule);

  const map::Theater& t_;
  const Campaign& c_;
  RouterCache& routers_;
  const RuleTables& tables_;
  const Orders& orders_;
  GameState s_;
  Side side_;
  std::int32_t serial_;
  TurnResult result_;
  std::deque<int> scripted_;
  Dice dice_;
  std::set<std::string> moved_, attacked_;
  std::set<std::uint32_t> attacked_hexes_;
  std::array<std::vector<int>, 2> res_;           // half REs by side, then hex
  std::array<std::vector<std::uint8_t>, 2> zoc_;  // EnemyZoc, by side
  std::array<bool, 2> zoc_fresh_{};
  int rail_used_halves_ = 0;
  std::map<std::size_t, int> ferry_used_halves_;  // by rail ferry
};

}  // namespace opsim::ops
