// StepTurn (steps.h): a player-turn as a state machine over Turn's pieces, the same pieces
// Game::Play runs in a row. The machine's own state is the phase, the attack under way and
// which of its parts are done, and the undo stack.
#include "opsim/ops/steps.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "opsim/core/echo.h"
#include "opsim/core/sha256.h"
#include "router_cache.h"
#include "supply.h"
#include "turn.h"

namespace opsim::ops {

const char* StepKindName(StepKind k) {
  switch (k) {
    case StepKind::kInitial:
      return "initial";
    case StepKind::kMove:
      return "move";
    case StepKind::kAttack:
      return "attack";
    case StepKind::kFlood:
      return "flood";
    case StepKind::kRetreat:
      return "retreat";
    case StepKind::kAdvance:
      return "advance";
    case StepKind::kEndPhase:
      return "end-phase";
  }
  return "?";
}

const char* WaitingName(Waiting w) {
  switch (w) {
    case Waiting::kOrder:
      return "order";
    case Waiting::kFlood:
      return "flood";
    case Waiting::kRetreat:
      return "retreat";
    case Waiting::kAdvance:
      return "advance";
    case Waiting::kOver:
      return "over";
  }
  return "?";
}

namespace {

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// The attack under way and how far it has gone.
struct AttackUnderWay {
  Turn::Declared declared;
  bool flood_asked = false;           // the owner has answered the announcement
  bool resolved = false;              // the die is rolled
  bool retreats_listed = false;       // `retreats` holds the stacks still to decide
  std::vector<map::HexRef> retreats;  // stacks whose owner has a choice, in order
  bool applied = false;               // losses and retreats are done
};

}  // namespace

struct StepTurn::Impl {
  // What a step can be taken back to.
  struct Saved {
    Turn::Undo mark;
    std::size_t steps, initial, movement, exploitation;
    Prompt prompt;
  };

  // A fair game's dice, step by step: each step re-points the relay the Turn draws from.
  struct Relay final : DiceSource {
    std::unique_ptr<DiceSource> stream;
    std::uint64_t Next() override { return stream->Next(); }
  };

  Impl(std::shared_ptr<const map::Theater> t, std::shared_ptr<const Campaign> c,
       std::shared_ptr<RouterCache> r, const GameState& state, DiceSource* dice,
       std::vector<int> scripted, StepDice fair)
      : theater(std::move(t)),
        campaign(std::move(c)),
        routers(std::move(r)),
        fair_dice(std::move(fair)),
        script(ScriptOf(state, std::move(scripted))),
        turn(*theater, *campaign, state, script, *routers, fair_dice ? &relay : dice) {}

  static Orders ScriptOf(const GameState& s, std::vector<int> dice) {
    Orders o;
    o.dice = std::move(dice);
    o.side = s.phasing();
    o.turn = s.date();
    o.source = "steps";
    return o;
  }

  std::shared_ptr<const map::Theater> theater;
  std::shared_ptr<const Campaign> campaign;
  std::shared_ptr<RouterCache> routers;
  StepDice fair_dice;  // a fair game's, or none
  Relay relay;         // what the Turn draws from when fair_dice
  Orders script;       // before `turn`, which reads it
  Turn turn;
  std::vector<Step> steps;
  Prompt prompt;
  std::optional<AttackUnderWay> attack;
  std::vector<Saved> undo;

  Side phasing() const { return script.side; }
  // A new prompt: `waiting` for `side`, at `hex`, in the combat phase.
  static Prompt Ask(Waiting waiting, Side side, map::HexRef hex) {
    Prompt p;
    p.waiting = waiting;
    p.side = side;
    p.phase = Phase::kCombat;
    p.hex = hex;
    return p;
  }
  std::string Name(map::HexRef h) const { return theater->HexName(h); }

  // B7.5: the script lists one retreat preference per retreat of a stack, in the order they
  // come (RetreatPreferenceFor): `h`'s entry leaving the choice to the rules, and how many `h`
  // has.
  void ListRetreat(map::HexRef h, const std::string& where = "") {
    script.retreats.push_back(RetreatPreference{h, {}, where});
  }
  std::size_t Listed(map::HexRef h) const {
    return static_cast<std::size_t>(
        std::count_if(script.retreats.begin(), script.retreats.end(),
                      [h](const RetreatPreference& r) { return r.hex == h; }));
  }

  void AskForOrders(Phase phase) {
    prompt = Prompt{};
    prompt.phase = phase;
    prompt.side = phasing();
    const std::string who = SideName(phasing());
    switch (phase) {
      case Phase::kInitial:
        prompt.text =
            who + " initial phase: give initial orders (Suez, ice airfields), or end the phase";
        break;
      case Phase::kMovement:
        prompt.text = who + " movement phase: move, or end the phase";
        break;
      case Phase::kCombat:
        prompt.text = who + " combat phase: declare an attack, or end the phase";
        break;
      case Phase::kExploitation:
        prompt.text =
            who + " exploitation phase: move motorized units that did not attack, or end the phase";
        break;
    }
  }

  // Plays the attack under way as far as it goes without a decision, then asks for it.
  Status Continue() {
    AttackUnderWay& a = *attack;
    Turn::Declared& d = a.declared;
    const Side owner = Enemy(phasing());
    if (!a.flood_asked) {
      a.flood_asked = true;
      std::vector<ReactionKind> open = turn.FloodChoices(d.order.hex);
      if (!open.empty()) {
        prompt = Ask(Waiting::kFlood, owner, d.order.hex);
        prompt.floods = std::move(open);
        prompt.units = d.attackers;
        prompt.text = std::string(SideName(owner)) + ": " + Join(d.attackers) + " attack " +
                      Name(d.order.hex) + ": try to flood it, or not (41.A.4)";
        return {};
      }
    }
    if (!a.resolved) {
      a.resolved = true;
      if (auto st = turn.Resolve(d); !st) return st;
      if (!d.result) return Done();  // called off or cancelled by the flood (41.A.4)
    }
    if (!a.retreats_listed) {
      a.retreats_listed = true;
      for (map::HexRef h : turn.Retreating(d)) {
        if (turn.RetreatChoices(d, h).size() > 1) {
          a.retreats.push_back(h);
        } else {
          ListRetreat(h);  // forced: nothing to ask, but the script lists each retreat (B7.5)
        }
      }
    }
    if (!a.retreats.empty()) {
      const map::HexRef h = a.retreats.front();
      const CombatTables& crt = campaign->tables.combat;
      const Side who = crt.code(*d.result).defender_retreat > 0 ? owner : phasing();
      prompt = Ask(Waiting::kRetreat, who, h);
      prompt.attacked = d.order.hex;
      prompt.result = campaign->tables.combat.name(*d.result);
      prompt.retreat_to = turn.RetreatChoices(d, h);
      for (const GroundUnit& u : turn.state().units) {
        if (u.on_map() && u.hex == h && u.side == who) prompt.units.push_back(u.id);
      }
      std::string to;
      for (map::HexRef t : prompt.retreat_to) to += (to.empty() ? "" : ", ") + Name(t);
      prompt.text = std::string(SideName(who)) + ": " + crt.name(*d.result) + " at " +
                    Name(d.order.hex) + ": " + Join(prompt.units) + " retreat from " + Name(h) +
                    ": choose where (" + to + "), or leave it to the rules (B7.5)";
      return {};
    }
    if (!a.applied) {
      a.applied = true;
      turn.ApplyResult(d);
      std::vector<std::string> may = turn.MayAdvance(d);
      if (!may.empty()) {
        prompt = Ask(Waiting::kAdvance, phasing(), d.order.hex);
        prompt.attacked = d.order.hex;
        prompt.result = campaign->tables.combat.name(*d.result);
        prompt.units = std::move(may);
        prompt.text = std::string(SideName(phasing())) + ": " + Name(d.order.hex) +
                      " is empty: choose who advances into it (" + Join(prompt.units) +
                      "), or no one (B7.6)";
        return {};
      }
    }
    return Done();
  }

  Status Done() {
    attack.reset();
    AskForOrders(Phase::kCombat);
    return {};
  }

  Status EndPhase() {
    const Phase phase = prompt.phase;
    switch (phase) {
      case Phase::kInitial:
        turn.EndPhase(Phase::kInitial);
        turn.StartMovement();
        AskForOrders(Phase::kMovement);
        break;
      case Phase::kMovement:
        turn.EndPhase(Phase::kMovement);
        AskForOrders(Phase::kCombat);
        break;
      case Phase::kCombat:
        if (auto st = turn.EndCombat(); !st) return st;
        turn.EndPhase(Phase::kCombat);
        turn.StartMovement();
        AskForOrders(Phase::kExploitation);
        break;
      case Phase::kExploitation:
        turn.EndPlayerTurn();
        turn.EndPhase(Phase::kExploitation);
        turn.Finish();
        prompt = Prompt{};
        prompt.waiting = Waiting::kOver;
        prompt.phase = Phase::kExploitation;
        prompt.side = Enemy(phasing());
        prompt.text = "the " + std::string(SideName(phasing())) + " player-turn is over";
        break;
    }
    return {};
  }

  std::unexpected<Error> Refuse(RuleId rule, std::string message, const std::string& where) const {
    return Fail(ErrorCode::kRuleViolation, std::move(message), where, std::string(rule.id));
  }

  // Whether `step` is one the game waits for, from `by`.
  Status Expected(const Step& step, Side by, const std::string& where) const {
    if (prompt.waiting == Waiting::kOver) {
      return Refuse(rules::kB1_3, "the player-turn is over", where);
    }
    if (by != prompt.side) {
      return Refuse(rules::kB1_3,
                    "the game waits for the " + std::string(SideName(prompt.side)) +
                        " player: " + prompt.text,
                    where);
    }
    bool fits = false;
    switch (prompt.waiting) {
      case Waiting::kOrder:
        fits = step.kind == StepKind::kEndPhase ||
               (step.kind == StepKind::kInitial && prompt.phase == Phase::kInitial) ||
               (step.kind == StepKind::kMove &&
                (prompt.phase == Phase::kMovement || prompt.phase == Phase::kExploitation)) ||
               (step.kind == StepKind::kAttack && prompt.phase == Phase::kCombat);
        break;
      case Waiting::kFlood:
        fits = step.kind == StepKind::kFlood;
        break;
      case Waiting::kRetreat:
        fits = step.kind == StepKind::kRetreat;
        break;
      case Waiting::kAdvance:
        fits = step.kind == StepKind::kAdvance;
        break;
      case Waiting::kOver:
        break;
    }
    if (!fits) {
      return Refuse(rules::kB1_3,
                    std::string("a ") + StepKindName(step.kind) +
                        " step is not what the game waits for: " + prompt.text,
                    where);
    }
    return {};
  }

  // Applies an expected step; on error the caller restores the position.
  Status Apply(const Step& step, const std::string& where) {
    switch (step.kind) {
      case StepKind::kInitial: {
        script.initial.push_back(step.initial);
        script.initial.back().where = where;
        return turn.InitialStep(script.initial.back());
      }
      case StepKind::kMove: {
        const bool exploitation = prompt.phase == Phase::kExploitation;
        auto& list = exploitation ? script.exploitation : script.movement;
        list.push_back(step.move);
        list.back().where = where;
        return turn.Move(list.back(), exploitation);
      }
      case StepKind::kAttack: {
        script.combat.push_back(step.attack);
        AttackOrder& order = script.combat.back();
        order.where = where;
        order.advance = true;
        order.advance_units.reset();
        auto declared = turn.Declare(order);
        if (!declared) return std::unexpected(declared.error());
        attack.emplace();
        attack->declared = std::move(*declared);
        return Continue();
      }
      case StepKind::kFlood: {
        if (step.flood) {
          if (step.flood->hex != prompt.hex) {
            return Refuse(
                rules::k41A4a,
                "the attack announced is on " + Name(prompt.hex) + ", not " + Name(step.flood->hex),
                where);
          }
          script.reactions.push_back(*step.flood);
          script.reactions.back().where = where;
        }
        auto st = Continue();
        // A massive flood's retreats (41.A.4.b) took theirs too.
        const map::HexRef h = attack ? attack->declared.order.hex : prompt.hex;
        while (Listed(h) < turn.RetreatsTaken(h)) ListRetreat(h, where);
        return st;
      }
      case StepKind::kRetreat: {
        if (step.retreat) {
          if (step.retreat->hex != prompt.hex) {
            return Refuse(rules::kB7_5,
                          "the stack to retreat stands in " + Name(prompt.hex) + ", not " +
                              Name(step.retreat->hex),
                          where);
          }
          script.retreats.push_back(*step.retreat);
          script.retreats.back().where = where;
        } else {
          ListRetreat(prompt.hex, where);  // the rules' choice
        }
        attack->retreats.erase(attack->retreats.begin());
        return Continue();
      }
      case StepKind::kAdvance: {
        if (auto st = turn.MayAdvanceThese(attack->declared, step.advance, where); !st) return st;
        // The attack's line in the script says who advanced (B7.6): it is the last.
        AttackOrder& order = script.combat.back();
        order.advance = !step.advance.empty();
        if (order.advance) order.advance_units = step.advance;
        turn.Advance(attack->declared, step.advance);
        return Done();
      }
      case StepKind::kEndPhase:
        return EndPhase();
    }
    return {};
  }

  Saved Save() const {
    return Saved{turn.Mark(),
                 steps.size(),
                 script.initial.size(),
                 script.movement.size(),
                 script.exploitation.size(),
                 prompt};
  }
};

StepTurn::StepTurn(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
StepTurn::StepTurn(StepTurn&&) noexcept = default;
StepTurn& StepTurn::operator=(StepTurn&&) noexcept = default;
StepTurn::~StepTurn() = default;

Result<StepTurn> StepTurn::Begin(const Game& game, DiceSource* dice, std::vector<int> scripted) {
  if (dice != nullptr && !scripted.empty()) {
    return Fail(ErrorCode::kInvalidInput,
                "a fair game's dice come from both players' keys: no dice may be scripted", "",
                std::string(rules::kB10_1.id));
  }
  return Start(std::make_unique<Impl>(game.theater_, game.campaign_, game.routers_, game.state_,
                                      dice, std::move(scripted), nullptr));
}

Result<StepTurn> StepTurn::BeginFair(const Game& game, StepDice dice,
                                     std::vector<GameState>* phases) {
  if (!dice) {
    return Fail(ErrorCode::kInvalidInput, "a fair player-turn needs its dice", "",
                std::string(rules::kB10_1.id));
  }
  auto impl = std::make_unique<Impl>(game.theater_, game.campaign_, game.routers_, game.state_,
                                     nullptr, std::vector<int>{}, std::move(dice));
  if (phases != nullptr) phases->clear();
  impl->turn.KeepPhases(phases);
  impl->relay.stream = impl->fair_dice(StepDecisions({}, *impl->theater));
  return Start(std::move(impl));
}

Result<StepTurn> StepTurn::Start(std::unique_ptr<Impl> impl) {
  if (auto st = impl->turn.Weather(); !st) return std::unexpected(st.error());
  if (auto st = impl->turn.InitialStart(); !st) return std::unexpected(st.error());
  impl->AskForOrders(Phase::kInitial);
  return StepTurn(std::move(impl));
}

const Prompt& StepTurn::prompt() const {
  return impl_->prompt;
}
const GameState& StepTurn::state() const {
  return impl_->turn.state();
}
std::string StepTurn::hash() const {
  return StateHash(impl_->turn.state());
}
const TurnResult& StepTurn::result() const {
  return impl_->turn.result();
}
const std::vector<Step>& StepTurn::steps() const {
  return impl_->steps;
}
const Orders& StepTurn::script() const {
  return impl_->script;
}

Result<StepOutcome> StepTurn::Take(const Step& step, Side by, const std::string& where) {
  Impl& m = *impl_;
  if (auto st = m.Expected(step, by, where); !st) return std::unexpected(st.error());
  const TurnResult& r = m.turn.result();
  StepOutcome out{r.events.size(), 0, r.rolls.size(), 0};
  Impl::Saved saved = m.Save();
  if (m.fair_dice) {  // this step's dice: keyed by every step so far and by this one
    m.steps.push_back(step);
    m.steps.back().side = by;
    m.relay.stream = m.fair_dice(StepDecisions(m.steps, *m.theater));
    m.steps.pop_back();
  }
  const std::optional<AttackUnderWay> attack = m.attack;
  const Orders script = m.script;
  if (auto st = m.Apply(step, where); !st) {
    // Refused: the position, the script and the prompt are as they were. A die it drew stays
    // drawn (the seeded dice do not go back, nor do keyed ones): no step is a re-roll.
    m.turn.Restore(std::move(saved.mark));
    m.script = script;
    m.attack = attack;
    m.prompt = saved.prompt;
    return std::unexpected(st.error());
  }
  m.steps.push_back(step);
  m.steps.back().side = by;
  out.events_to = r.events.size();
  out.rolls_to = r.rolls.size();
  // B1.4: the phasing player's initial orders and moves may be taken back until a die is
  // rolled, the other side decides, or the phase ends.
  const bool undoable = (step.kind == StepKind::kInitial || step.kind == StepKind::kMove) &&
                        out.rolls_to == out.rolls_from;
  if (undoable) {
    m.undo.push_back(std::move(saved));
  } else {
    m.undo.clear();
  }
  return out;
}

Result<AttackPreview> StepTurn::Preview(const AttackOrder& attack, Side by) {
  Impl& m = *impl_;
  Step step;
  step.kind = StepKind::kAttack;
  if (auto st = m.Expected(step, by, attack.where); !st) return std::unexpected(st.error());
  auto d = m.turn.Weigh(attack);
  if (!d) return std::unexpected(d.error());
  return AttackPreview{attack.hex, d->attackers, m.turn.Odds(*d, false),
                       m.turn.FloodChoices(attack.hex)};
}

bool StepTurn::CanUndo() const {
  return !impl_->undo.empty();
}

Status StepTurn::Undo(Side by) {
  Impl& m = *impl_;
  if (by != m.phasing()) {
    return Fail(ErrorCode::kRuleViolation,
                std::string("only the ") + SideName(m.phasing()) +
                    " player takes his steps back: it is his player-turn",
                "", std::string(rules::kB1_4.id));
  }
  if (m.undo.empty()) {
    return Fail(ErrorCode::kRuleViolation,
                m.steps.empty() ? "no step has been taken this player-turn"
                                : "the last step cannot be taken back: a die was rolled, the other "
                                  "side decided, or the phase ended since",
                "", std::string(rules::kB1_4.id));
  }
  Impl::Saved saved = std::move(m.undo.back());
  m.undo.pop_back();
  m.turn.Restore(std::move(saved.mark));
  m.steps.resize(saved.steps);
  m.script.initial.resize(saved.initial);
  m.script.movement.resize(saved.movement);
  m.script.exploitation.resize(saved.exploitation);
  m.prompt = std::move(saved.prompt);
  return {};
}

Status StepTurn::Finish(Game& game) const {
  if (!over()) {
    return Fail(ErrorCode::kRuleViolation, "the player-turn is not over: " + prompt().text, "",
                std::string(rules::kB1_3.id));
  }
  game.state_ = impl_->turn.state();
  game.probe_supply_ = std::make_shared<ProbeSupply>();
  return {};
}

Result<Step> ParseStep(const JsonSource& src, const map::Theater& theater, const Prompt& prompt) {
  using P = JsonSource::Pointer;
  const P root;
  const JsonReader r(src);
  const nlohmann::json& doc = src.doc();
  if (!doc.is_object()) return src.Bad(root, "a step is one JSON object");
  Step step;
  auto one = [&](OrderSection section) -> Result<Orders> {
    return ParseOrder(src, theater, section);
  };
  if (r.Has(root, "end-phase")) {
    if (auto st = r.OnlyKeys(root, {"end-phase"}); !st) return std::unexpected(st.error());
    if (doc["end-phase"] != true) return src.Bad(P("/end-phase"), "write {\"end-phase\": true}");
    step.kind = StepKind::kEndPhase;
    return step;
  }
  if (r.Has(root, "flood") || r.Has(root, "massive-flood")) {
    step.kind = StepKind::kFlood;
    if (r.Has(root, "flood") && doc["flood"] == false) {
      if (auto st = r.OnlyKeys(root, {"flood"}); !st) return std::unexpected(st.error());
      return step;  // the owner does not try (41.A.4)
    }
    auto o = one(OrderSection::kReaction);
    if (!o) return std::unexpected(o.error());
    step.flood = o->reactions.front();
    return step;
  }
  if (r.Has(root, "prefer")) {
    step.kind = StepKind::kRetreat;
    if (doc["prefer"].is_array() && doc["prefer"].empty()) {
      if (auto st = r.OnlyKeys(root, {"hex", "prefer"}); !st) return std::unexpected(st.error());
      return step;  // the rules' choice (B7.5)
    }
    auto o = one(OrderSection::kRetreat);
    if (!o) return std::unexpected(o.error());
    step.retreat = o->retreats.front();
    return step;
  }
  if (r.Has(root, "advance") && !r.Has(root, "attack")) {
    step.kind = StepKind::kAdvance;
    if (auto st = r.OnlyKeys(root, {"advance"}); !st) return std::unexpected(st.error());
    auto st = r.Each(P("/advance"), [&](const P& at) -> Status {
      auto id = r.String(at);
      if (!id) return std::unexpected(id.error());
      if (std::find(step.advance.begin(), step.advance.end(), *id) != step.advance.end()) {
        return src.Bad(at, "unit '" + EchoToken(*id) + "' is named twice");
      }
      step.advance.push_back(*id);
      return {};
    });
    if (!st) return std::unexpected(st.error());
    return step;
  }
  if (r.Has(root, "attack")) {
    step.kind = StepKind::kAttack;
    auto o = one(OrderSection::kCombat);
    if (!o) return std::unexpected(o.error());
    step.attack = o->combat.front();
    return step;
  }
  if (r.Has(root, "suez") || r.Has(root, "ice-airfield")) {
    step.kind = StepKind::kInitial;
    auto o = one(OrderSection::kInitial);
    if (!o) return std::unexpected(o.error());
    step.initial = o->initial.front();
    return step;
  }
  step.kind = StepKind::kMove;
  const bool exploitation = prompt.phase == Phase::kExploitation;
  auto o = one(exploitation ? OrderSection::kExploitation : OrderSection::kMovement);
  if (!o) return std::unexpected(o.error());
  step.move = (exploitation ? o->exploitation : o->movement).front();
  return step;
}

std::string StepToJson(const Step& step, const map::Theater& theater) {
  using nlohmann::json;
  Orders o;
  const char* section = nullptr;
  json j;
  switch (step.kind) {
    case StepKind::kInitial:
      o.initial.push_back(step.initial);
      section = "initial";
      break;
    case StepKind::kMove:
      o.movement.push_back(step.move);
      section = "movement";
      break;
    case StepKind::kAttack:
      o.combat.push_back(step.attack);
      section = "combat";
      break;
    case StepKind::kFlood:
      if (!step.flood) return json{{"flood", false}}.dump();
      o.reactions.push_back(*step.flood);
      section = "reactions";
      break;
    case StepKind::kRetreat:
      if (!step.retreat) return json{{"prefer", json::array()}}.dump();
      o.retreats.push_back(*step.retreat);
      section = "retreats";
      break;
    case StepKind::kAdvance:
      return json{{"advance", step.advance}}.dump();
    case StepKind::kEndPhase:
      return json{{"end-phase", true}}.dump();
  }
  return json::parse(OrdersToJson(o, theater))[section][0].dump();
}

std::string StepDecisions(const std::vector<Step>& steps, const map::Theater& theater) {
  std::string text = "opsim step dice 1\n";
  for (const Step& step : steps) {
    text += SideName(step.side);
    text += '\n';
    text += StepToJson(step, theater);
    text += '\n';
  }
  return Sha256Hex(text);
}

Status PlayScript(StepTurn& turn, const Orders& orders) {
  auto take = [&](const Step& s, Side by, const std::string& where) -> Status {
    auto out = turn.Take(s, by, where);
    if (!out) return std::unexpected(out.error());
    return {};
  };
  const Side mover = orders.side;
  Step end;
  // The moves of the phase the player-turn is in: movement or exploitation.
  auto moves = [&](const std::vector<MoveOrder>& list) -> Status {
    for (const MoveOrder& o : list) {
      Step s;
      s.kind = StepKind::kMove;
      s.move = o;
      if (auto st = take(s, mover, o.where); !st) return st;
    }
    return {};
  };
  for (const InitialOrder& o : orders.initial) {
    Step s;
    s.kind = StepKind::kInitial;
    s.initial = o;
    if (auto st = take(s, mover, o.where); !st) return st;
  }
  if (auto st = take(end, mover, orders.source); !st) return st;
  if (auto st = moves(orders.movement); !st) return st;
  if (auto st = take(end, mover, orders.source); !st) return st;
  for (const AttackOrder& a : orders.combat) {
    Step s;
    s.kind = StepKind::kAttack;
    s.attack = a;
    if (auto st = take(s, mover, a.where); !st) return st;
    while (turn.prompt().waiting != Waiting::kOrder) {
      const Prompt& p = turn.prompt();
      Step d;
      switch (p.waiting) {
        case Waiting::kFlood:
          d.kind = StepKind::kFlood;
          for (const Reaction& r : orders.reactions) {
            if (r.hex == p.hex) d.flood = r;
          }
          break;
        case Waiting::kRetreat: {
          d.kind = StepKind::kRetreat;
          // This retreat's entry, counting those the script lists already for the hex.
          const auto& listed = turn.script().retreats;
          const auto k = static_cast<std::size_t>(
              std::count_if(listed.begin(), listed.end(),
                            [&p](const RetreatPreference& r) { return r.hex == p.hex; }));
          const RetreatPreference* r = RetreatPreferenceFor(orders.retreats, p.hex, k);
          if (r != nullptr && !r->prefer.empty()) d.retreat = *r;
          break;
        }
        case Waiting::kAdvance:
          d.kind = StepKind::kAdvance;
          d.advance = a.advance_units ? *a.advance_units
                      : a.advance     ? p.units
                                      : std::vector<std::string>{};
          break;
        default:
          return Fail(ErrorCode::kInternal, "an attack waits for an order");
      }
      if (auto st = take(d, p.side, a.where); !st) return st;
    }
  }
  if (auto st = take(end, mover, orders.source); !st) return st;
  if (auto st = moves(orders.exploitation); !st) return st;
  return take(end, mover, orders.source);
}

Status TakeAgain(StepTurn& turn, const map::Theater& theater, const std::vector<LoggedStep>& steps,
                 const std::string& what,
                 const std::function<void(std::size_t, const StepOutcome&)>& taken) {
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const std::string where = what + ", step " + std::to_string(k + 1);
    auto src = JsonSource::FromText(steps[k].step, where);
    if (!src) return std::unexpected(src.error());
    auto step = ParseStep(*src, theater, turn.prompt());
    if (!step) {
      return Fail(ErrorCode::kCorruption, "it does not read: " + step.error().message, where);
    }
    auto out = turn.Take(*step, steps[k].side, where);
    if (!out) {
      return Fail(ErrorCode::kCorruption, "it is refused: " + out.error().to_string(), where);
    }
    if (taken) taken(k + 1, *out);
  }
  return {};
}

Status CheckSteps(const Game& before, const Orders& orders, const TurnResult& batch) {
  auto turn = StepTurn::Begin(before);
  if (!turn) return std::unexpected(turn.error());
  if (auto st = TakeAgain(*turn, before.theater(), orders.steps, "the logged steps"); !st) {
    return Fail(ErrorCode::kCorruption, st.error().where + ": " + st.error().message);
  }
  if (!turn->over()) {
    return Fail(ErrorCode::kCorruption,
                "the logged steps stop before the player-turn's end: " + turn->prompt().text);
  }
  if (turn->result().final_hash != batch.final_hash) {
    return Fail(ErrorCode::kCorruption, "the logged steps end in state " +
                                            turn->result().final_hash + ", their script in " +
                                            batch.final_hash);
  }
  return {};
}

}  // namespace opsim::ops
