// StepTurn: a player-turn played step by step (B1.3), as players play it at a table.
//
// A player-turn is a sequence of steps, each one action of one side, checked by the same rules
// code that plays an orders file (Game::Play) and applied at once: the initial phase's orders,
// each move, each attack (declared, then the defender's flooding attempt, 41.A.4, then the die,
// then the owner's retreats, B7.5, then the attacker's advance, B7.6), and "end the phase". The
// weather (B2.1) and the initial phase's automatic part (supply and the rest, B1.1) are played
// when the player-turn begins, so no die drawn later can make an order illegal. prompt() says
// whose decision the game waits for and what is open to him.
//
// A step of the phasing player's initial or movement orders can be taken back (B1.4) until a
// die is rolled, the other side decides, or the phase ends; undone, the position is exactly as
// it was (the same state hash). A refused step changes nothing.
//
// The steps taken are also an orders file (script()): played by Game::Play it gives the same
// state, dice and events, so an orders file is a script of steps (PlayScript).
//
// Not thread-safe. It shares the router cache of the Game it began from, as a copy of that game
// does (game.h): use it on that game's thread, or begin it from a fork.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "opsim/ops/game.h"

namespace opsim::ops {

enum class StepKind : std::uint8_t {
  kInitial,   // an initial-phase order (41.B, 41.A.3)
  kMove,      // a move of the movement or exploitation phase (B4, B5, B6, B11, B14)
  kAttack,    // an attack declared (B7.1)
  kFlood,     // the owner's answer to an announced attack: a flooding attempt, or none (41.A.4)
  kRetreat,   // where the owner's retreating stack goes, or the rules' choice (B7.5)
  kAdvance,   // which attackers advance into the emptied hex, perhaps none (B7.6)
  kEndPhase,  // the phasing player ends the phase (B1.3)
};
const char* StepKindName(StepKind k);  // "initial", "move", "attack", "flood", ...

struct Step {
  StepKind kind = StepKind::kEndPhase;
  Side side = Side::kAxis;                   // who took it (StepTurn::Take sets it)
  InitialOrder initial;                      // kInitial
  MoveOrder move;                            // kMove
  AttackOrder attack;                        // kAttack
  std::optional<Reaction> flood;             // kFlood: none when the owner does not try
  std::optional<RetreatPreference> retreat;  // kRetreat: none leaves it to the rules
  std::vector<std::string> advance;          // kAdvance: who advances (none: no one)
};

// What the game waits for.
enum class Waiting : std::uint8_t {
  kOrder,    // the phasing player's next order of the phase, or the phase's end
  kFlood,    // the owner of an attacked canal-intensive hex: flood it or not (41.A.4)
  kRetreat,  // the owner of a stack that must retreat: where to (B7.5)
  kAdvance,  // the attacker: who advances (B7.6)
  kOver,     // the player-turn is over
};
const char* WaitingName(Waiting w);  // "order", "flood", "retreat", "advance", "over"

struct Prompt {
  Waiting waiting = Waiting::kOrder;
  Side side = Side::kAxis;  // whose decision it is
  Phase phase = Phase::kInitial;
  map::HexRef hex;       // kFlood, kAdvance: the attacked hex; kRetreat: the retreating stack's
  map::HexRef attacked;  // kRetreat: the attacked hex
  std::string result;    // kRetreat, kAdvance: the attack's result ("DR")
  std::vector<ReactionKind> floods;     // kFlood: the attempts open to the owner
  std::vector<map::HexRef> retreat_to;  // kRetreat: where it may go, the rules' choice first
  std::vector<std::string> units;       // kFlood: the attackers; kRetreat: the stack;
                                        // kAdvance: who may advance
  std::string text;                     // the prompt in words
};

// What one step did: the events and rolls it added, as [from, to) ranges of result()'s.
struct StepOutcome {
  std::size_t events_from = 0, events_to = 0;
  std::size_t rolls_from = 0, rolls_to = 0;
};

// The dice of a fair player-turn played step by step (docs/dice.md, "Step by step"): the stream
// the dice of a step are drawn from, given the hash of the steps taken so far, that step
// included (StepDecisions). The weather's and the initial phase's are drawn before any step.
using StepDice = std::function<std::unique_ptr<DiceSource>(const std::string& decisions_hash)>;

// What an attack would be fought at if declared now (StepTurn::Preview).
struct AttackPreview {
  map::HexRef hex;                     // attacked
  std::vector<std::string> attackers;  // by id, in the order's order
  CombatOdds odds;                     // before any flood
  // The flooding attempts the owner may answer with (41.A.4): a flood makes the hex swamp for
  // the attack, which can change its shift; none when he has none.
  std::vector<ReactionKind> floods;
};

class StepTurn {
 public:
  // Begins the phasing side's player-turn of `game`: the weather at the start of a game turn
  // (B2.1), then the initial phase up to its orders. Its dice are `dice` (a fair game's keyed
  // dice), or `scripted` (the players' own dice, B10.1, as an orders file's) and then the
  // game's seeded dice.
  static Result<StepTurn> Begin(const Game& game, DiceSource* dice = nullptr,
                                std::vector<int> scripted = {});
  // Begins a fair game's player-turn whose every step draws its dice from its own stream of
  // `dice`, keyed by the steps so far: no side can know a die before the step that draws it is
  // taken, nor shop for one by ordering the steps otherwise. With `phases`, the state after
  // each phase goes there (as Game::Play's).
  static Result<StepTurn> BeginFair(const Game& game, StepDice dice,
                                    std::vector<GameState>* phases = nullptr);
  StepTurn(StepTurn&&) noexcept;
  StepTurn& operator=(StepTurn&&) noexcept;
  ~StepTurn();

  const Prompt& prompt() const;
  bool over() const { return prompt().waiting == Waiting::kOver; }
  // Takes `step` for side `by`, or refuses it (the rule that forbids it; kInvalidInput for a
  // step of the wrong kind or side, B1.3) and changes nothing. `where` locates it in errors.
  Result<StepOutcome> Take(const Step& step, Side by, const std::string& where = "");
  // The odds `attack` would be fought at if `by` declared it now (B7.2), before the owner's
  // answer and the die; refused as Take would refuse it. Nothing is declared, drawn or changed.
  Result<AttackPreview> Preview(const AttackOrder& attack, Side by);
  // B1.4: whether the last step may be taken back, and taking it back; only the phasing side
  // (`by`) takes his own steps back (kRuleViolation for the other).
  bool CanUndo() const;
  Status Undo(Side by);

  // The position now (once over, the next player-turn's, as Game::Play leaves it).
  const GameState& state() const;
  std::string hash() const;
  // What happened so far: events, rolls, attacks, a hash after each phase ended; once over,
  // final_hash too. A roll's `against` and outcome are kept, as Game::Play's.
  const TurnResult& result() const;
  const std::vector<Step>& steps() const;  // the steps taken, undone ones gone
  const Orders& script() const;            // the steps as an orders file
  // Once over: `game` goes on from where the player-turn ended. Refused before.
  Status Finish(Game& game) const;

 private:
  struct Impl;
  explicit StepTurn(std::unique_ptr<Impl> impl);
  static Result<StepTurn> Start(std::unique_ptr<Impl> impl);  // the weather, the initial phase
  std::unique_ptr<Impl> impl_;
};

// The canonical JSON of a step (the log's) and back: an order in the orders file's syntax
// (docs/orders-format.md), or {"flood": HEX}, {"massive-flood": HEX}, {"flood": false},
// {"retreat": HEX, "prefer": [HEX...]}, {"retreat": HEX} (the rules' choice), {"advance": [IDS]},
// {"end-phase": true}. Parsing resolves hexes against the theater and places errors as the
// orders file's; `phase` tells a move of the exploitation phase from the movement phase's.
Result<Step> ParseStep(const JsonSource& src, const map::Theater& theater, const Prompt& prompt);
std::string StepToJson(const Step& step, const map::Theater& theater);

// The hash the dice of a fair game's step are keyed by (StepDice): lower-case hex SHA-256 of
// "opsim step dice 1\n" followed, for each of `steps` (those taken so far, then the one being
// taken), by its side's name, "\n", its JSON (StepToJson) and "\n".
std::string StepDecisions(const std::vector<Step>& steps, const map::Theater& theater);

// Plays `orders` as the script of steps it is (B1.3): its orders in turn, each attack's answer
// from its reactions, retreat preferences and advance, then the phase's end. Refused as
// Game::Play refuses the orders (but for a reaction that answers no attack, which the steps
// never ask for). Used to prove a batch and its steps the same.
Status PlayScript(StepTurn& turn, const Orders& orders);

// Takes logged `steps` on `turn` again, each as it was taken (`what` names them in errors:
// kCorruption if one does not read or is refused); `taken`, if given, is told after each step
// how many are taken and what the last one did.
Status TakeAgain(StepTurn& turn, const map::Theater& theater, const std::vector<LoggedStep>& steps,
                 const std::string& what,
                 const std::function<void(std::size_t taken, const StepOutcome&)>& taken = {});

// A player-turn played step by step (orders.steps): its steps, taken again from `before`, must
// play `batch`, the player-turn its script played (kCorruption saying which step, if not).
Status CheckSteps(const Game& before, const Orders& orders, const TurnResult& batch);

}  // namespace opsim::ops
