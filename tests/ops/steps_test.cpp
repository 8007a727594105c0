// A player-turn played step by step (B1.3, B1.4, B7.7; docs/rules.md): each step kind, whose
// decision the game waits for, refusals, undo to the exact state, and the proof that an orders
// file played as the steps it scripts is the same player-turn as played in a batch.
#include "opsim/ops/steps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "campaign_support.h"
#include "opsim/map/generate.h"
#include "opsim/ops/synthetic.h"
#include "test_support.h"

namespace opsim::ops {
namespace {

using nlohmann::json;
using test::Camp;
using test::Fields;
using test::Said;

// `text` as a step at `turn`'s prompt.
Step StepOf(const StepTurn& turn, const map::Theater& t, const json& text) {
  auto src = JsonSource::FromText(text.dump(), "--action");
  EXPECT_TRUE(src) << src.error().to_string();
  auto step = ParseStep(*src, t, turn.prompt());
  EXPECT_TRUE(step) << step.error().to_string();
  return step ? *step : Step{};
}

// Takes `text` as `by`'s step; fails the test if refused.
void Take(StepTurn& turn, const map::Theater& t, Side by, const json& text) {
  auto out = turn.Take(StepOf(turn, t, text), by);
  ASSERT_TRUE(out) << text.dump() << ": " << out.error().to_string();
}

const json kEnd = {{"end-phase", true}};

// Two games are the same player-turn: state, every phase's hash, every roll and every event.
void ExpectSameTurn(const TurnResult& batch, const TurnResult& steps) {
  EXPECT_EQ(batch.final_hash, steps.final_hash);
  ASSERT_EQ(batch.hashes.size(), steps.hashes.size());
  for (std::size_t i = 0; i < batch.hashes.size(); ++i) {
    EXPECT_EQ(batch.hashes[i].hash, steps.hashes[i].hash) << PhaseName(batch.hashes[i].phase);
    EXPECT_EQ(batch.hashes[i].events, steps.hashes[i].events);
    EXPECT_EQ(batch.hashes[i].rolls, steps.hashes[i].rolls);
  }
  ASSERT_EQ(batch.rolls.size(), steps.rolls.size());
  for (std::size_t i = 0; i < batch.rolls.size(); ++i) {
    EXPECT_EQ(batch.rolls[i].value, steps.rolls[i].value) << batch.rolls[i].purpose;
    EXPECT_EQ(batch.rolls[i].purpose, steps.rolls[i].purpose);
    EXPECT_EQ(batch.rolls[i].decided, steps.rolls[i].decided);
    EXPECT_EQ(batch.rolls[i].against, steps.rolls[i].against);
  }
  ASSERT_EQ(batch.events.size(), steps.events.size()) << test::AllEvents(steps);
  for (std::size_t i = 0; i < batch.events.size(); ++i) {
    EXPECT_EQ(batch.events[i].text, steps.events[i].text);
    EXPECT_EQ(batch.events[i].rule, steps.events[i].rule);
    EXPECT_EQ(batch.events[i].units, steps.events[i].units);
    EXPECT_EQ(batch.events[i].hexes, steps.events[i].hexes);
    EXPECT_EQ(batch.events[i].numbers, steps.events[i].numbers);
  }
}

// Plays `orders` on `batch` by Game::Play and on `stepped` as the script of steps it is; both
// games move on.
void PlayBoth(Game& batch, Game& stepped, const Orders& orders) {
  auto played = batch.Play(orders);
  ASSERT_TRUE(played) << played.error().to_string();
  auto turn = StepTurn::Begin(stepped, nullptr, orders.dice);
  ASSERT_TRUE(turn) << turn.error().to_string();
  auto st = PlayScript(*turn, orders);
  ASSERT_TRUE(st) << st.error().to_string();
  ASSERT_TRUE(turn->over());
  ExpectSameTurn(*played, turn->result());
  ASSERT_TRUE(turn->Finish(stepped));
  EXPECT_EQ(batch.hash(), stepped.hash());
  // The script of the steps is itself an orders file that plays the same player-turn.
  auto src = JsonSource::FromText(OrdersToJson(turn->script(), batch.theater()), "script");
  ASSERT_TRUE(src);
  auto script = ParseOrders(*src, batch.theater());
  ASSERT_TRUE(script) << script.error().to_string();
}

// B1.3: every bundled orders file, played as steps, is the player-turn its batch is: the same
// dice, events and hashes after every phase (the behaviour signature's bundled games: the
// test-bed and the campaign).
TEST(B1_3, TheBundledOrdersPlayedAsStepsAreTheBatch) {
  for (const auto& [name, turns] : {std::pair<std::string, int>{"special-terrain", 6},
                                    std::pair<std::string, int>{"low-countries-1940", 6}}) {
    SCOPED_TRACE(name);
    Camp c(opsim::test::ReadFile(opsim::test::BundledPath(name)), 1940);
    Game batch = c.AsGame();
    Game stepped = c.AsGame();
    std::vector<std::string> files;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::string(OPSIM_SCENARIO_DIR "/orders/") + name)) {
      files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    int played = 0;
    for (const std::string& file : files) {
      auto src = JsonSource::FromFile(file);
      ASSERT_TRUE(src) << file;
      auto orders = ParseOrders(*src, batch.theater());
      ASSERT_TRUE(orders) << orders.error().to_string();
      SCOPED_TRACE(file);
      PlayBoth(batch, stepped, *orders);
      ++played;
    }
    EXPECT_EQ(played, turns);
  }
}

// B1.3: a synthetic campaign (combat, retreats, advances and supply at some scale), eight
// player-turns, as steps and as batches.
TEST(B1_3, ASyntheticCampaignPlayedAsStepsIsTheBatch) {
  auto text = AddSyntheticCampaign(map::GenerateTheater({.hexes = 4000, .seed = 3}), 300, 3);
  ASSERT_TRUE(text);
  Camp c(*text, 11);
  Game batch = c.AsGame();
  Game stepped = c.AsGame();
  for (int i = 0; i < 8; ++i) {
    SCOPED_TRACE("player-turn " + std::to_string(i));
    PlayBoth(batch, stepped, SyntheticOrders(batch, 5));
  }
}

// Property (B1.3, B7.5, B7.6, B1.4): random decisions at every prompt (retreats among the legal
// hexes or the rules' choice, any subset of the attackers advancing, moves taken back and
// given again) always leave a player-turn whose script, played in a batch, reaches the same
// state: a log of steps always replays and verifies.
TEST(B1_3, RandomStepsAlwaysReplayAsTheirScript) {
  auto text = AddSyntheticCampaign(map::GenerateTheater({.hexes = 4000, .seed = 5}), 300, 5);
  ASSERT_TRUE(text);
  Camp c(*text, 13);
  Game game = c.AsGame();
  std::mt19937_64 rng(42);
  int retreats = 0, advances = 0, undos = 0;
  for (int i = 0; i < 8; ++i) {
    SCOPED_TRACE("player-turn " + std::to_string(i));
    const Orders orders = SyntheticOrders(game, 7 + i);
    auto turn = StepTurn::Begin(game);
    ASSERT_TRUE(turn) << turn.error().to_string();
    const Side mover = game.state().phasing();
    ASSERT_TRUE(turn->Take(Step{}, mover));  // no initial orders
    for (const MoveOrder& m : orders.movement) {
      Step s;
      s.kind = StepKind::kMove;
      s.move = m;
      if (!turn->Take(s, mover)) continue;  // an earlier random choice may bar it
      if (rng() % 4 == 0) {
        const std::string before = turn->hash();
        ASSERT_TRUE(turn->Undo(mover));
        ASSERT_TRUE(turn->Take(s, mover));
        EXPECT_EQ(turn->hash(), before);
        ++undos;
      }
    }
    ASSERT_TRUE(turn->Take(Step{}, mover));
    for (const AttackOrder& a : orders.combat) {
      Step s;
      s.kind = StepKind::kAttack;
      s.attack = a;
      if (!turn->Take(s, mover)) continue;
      while (turn->prompt().waiting != Waiting::kOrder) {
        const Prompt& p = turn->prompt();
        Step d;
        if (p.waiting == Waiting::kRetreat) {
          d.kind = StepKind::kRetreat;
          const std::size_t k = rng() % (p.retreat_to.size() + 1);
          if (k < p.retreat_to.size()) {
            d.retreat.emplace();
            d.retreat->hex = p.hex;
            d.retreat->prefer = {p.retreat_to[k]};
          }
          ++retreats;
        } else if (p.waiting == Waiting::kAdvance) {
          d.kind = StepKind::kAdvance;
          for (const std::string& id : p.units) {
            if (rng() % 2) d.advance.push_back(id);
          }
          auto out = turn->Take(d, p.side);
          if (!out)
            d.advance.clear();  // too many for stacking: no one
          else {
            ++advances;
            continue;
          }
        } else {
          d.kind = StepKind::kFlood;
        }
        ASSERT_TRUE(turn->Take(d, p.side)) << p.text;
      }
    }
    ASSERT_TRUE(turn->Take(Step{}, mover));
    ASSERT_TRUE(turn->Take(Step{}, mover));
    ASSERT_TRUE(turn->over());
    // The script, played in a batch with the same dice, is the same player-turn.
    Game batch = game;
    auto src = JsonSource::FromText(OrdersToJson(turn->script(), game.theater()), "script");
    ASSERT_TRUE(src);
    auto script = ParseOrders(*src, game.theater());
    ASSERT_TRUE(script) << script.error().to_string();
    auto played = batch.Play(*script);
    ASSERT_TRUE(played) << played.error().to_string();
    ExpectSameTurn(*played, turn->result());
    ASSERT_TRUE(turn->Finish(game));
    EXPECT_EQ(game.hash(), batch.hash());
  }
  EXPECT_GT(retreats, 0);
  EXPECT_GT(advances, 0);
  EXPECT_GT(undos, 0);
}

// A fight on open fields: the Axis stack at 1:0405 attacks 1:0505. Dice: weather, then combat.
struct StepFight {
  Camp c = Fields();
  StepFight(int attack, int defense) {
    c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), attack, 2, 4, 2, "1:0405");
    c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, defense, 4, 2, "1:0505");
    c.Own("1:0505", Side::kAllied);
  }
  // The player-turn begun, at its combat phase.
  StepTurn AtCombat(int die) {
    game = std::make_unique<Game>(c.AsGame());
    auto turn = StepTurn::Begin(*game, nullptr, {1, die});
    EXPECT_TRUE(turn) << turn.error().to_string();
    Take(*turn, c.t(), Side::kAxis, kEnd);
    Take(*turn, c.t(), Side::kAxis, kEnd);
    EXPECT_EQ(turn->prompt().phase, Phase::kCombat);
    return std::move(*turn);
  }
  std::unique_ptr<Game> game;
};

// B7.7, B7.5, B7.6: an attack is resolved when declared; on a DR the defender chooses where his
// stack retreats among the legal hexes (the engine's choice first), then the attacker chooses
// who advances.
TEST(B7_7, AnAttackIsResolvedThenTheOwnerRetreatsThenTheAttackerAdvances) {
  StepFight f(8, 2);
  StepTurn turn = f.AtCombat(1);  // 4:1, die 1: DR
  Take(turn, f.c.t(), Side::kAxis, {{"attack", "1:0505"}, {"units", {"ax"}}});
  ASSERT_EQ(turn.result().attacks.size(), 1u);
  ASSERT_TRUE(turn.result().attacks[0].result);
  EXPECT_STREQ(f.game->tables().combat.name(*turn.result().attacks[0].result), "DR");
  EXPECT_TRUE(Said(turn.result(), "combat", "B7.2", "column 4:1 to 4:1: DR"));
  // The game waits for the Allied player's retreat of his stack in 1:0505.
  const Prompt& p = turn.prompt();
  ASSERT_EQ(p.waiting, Waiting::kRetreat);
  EXPECT_EQ(p.side, Side::kAllied);
  EXPECT_EQ(p.hex, f.c.Hex("1:0505"));
  EXPECT_EQ(p.units, std::vector<std::string>{"su"});
  // 1:0504, 1:0604 and 1:0605 are the farthest from the attacker (base_rules_test B7_5).
  ASSERT_EQ(p.retreat_to.size(), 3u);
  EXPECT_NE(p.text.find("B7.5"), std::string::npos) << p.text;
  const map::HexRef engine = p.retreat_to.front();
  const map::HexRef chosen = p.retreat_to.back();
  ASSERT_NE(engine, chosen);
  // Not the Axis player's decision (B1.3).
  auto wrong =
      turn.Take(StepOf(turn, f.c.t(), {{"hex", "1:0505"}, {"prefer", json::array()}}), Side::kAxis);
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().rule, "B1.3");
  Take(turn, f.c.t(), Side::kAllied, {{"hex", "1:0505"}, {"prefer", {f.c.t().HexName(chosen)}}});
  EXPECT_EQ(turn.state().FindUnit("su")->hex, chosen);
  // The attacker's advance.
  ASSERT_EQ(turn.prompt().waiting, Waiting::kAdvance);
  EXPECT_EQ(turn.prompt().side, Side::kAxis);
  EXPECT_EQ(turn.prompt().units, std::vector<std::string>{"ax"});
  Take(turn, f.c.t(), Side::kAxis, {{"advance", {"ax"}}});
  EXPECT_EQ(turn.state().FindUnit("ax")->hex, f.c.Hex("1:0505"));
  EXPECT_TRUE(Said(turn.result(), "advance", "B7.6", "ax advances into 1:0505"));
  EXPECT_EQ(turn.prompt().waiting, Waiting::kOrder);
  // The script says who advanced.
  ASSERT_EQ(turn.script().combat.size(), 1u);
  EXPECT_EQ(turn.script().combat[0].advance_units, std::vector<std::string>{"ax"});
}

// B11.3 at the table: the drop onto enemy units is made before any attack is declared; its
// attack, declared in the combat phase, must include it.
TEST(B11_3, AnAirAssaultIsPlayedStepByStep) {
  Camp c = Fields();
  c.Add("fj", Side::kAxis, opsim::test::BaseType("airborne"), 4, 2, 4, 2, "1:0902");
  c.Add("gd", Side::kAxis, opsim::test::BaseType("infantry"), 1, 1, 4, 2, "1:1402");
  c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 1, 4, 2, "1:1403");
  Game game = c.AsGame();
  // The weather, then a 1 at 4:1 (gd, cut off behind the front, attacks at half: 0): DR.
  auto turn = StepTurn::Begin(game, nullptr, {1, 1});
  ASSERT_TRUE(turn) << turn.error().to_string();
  Take(*turn, c.t(), Side::kAxis, kEnd);
  Take(*turn, c.t(), Side::kAxis, {{"air-drop", "fj"}, {"hex", "1:1403"}});
  EXPECT_TRUE(Said(turn->result(), "air-drop", "B11.3", "fj drops onto the enemy units at 1:1403"));
  Take(*turn, c.t(), Side::kAxis, kEnd);
  ASSERT_EQ(turn->prompt().phase, Phase::kCombat);
  auto without =
      turn->Take(StepOf(*turn, c.t(), {{"attack", "1:1403"}, {"units", {"gd"}}}), Side::kAxis);
  ASSERT_FALSE(without);
  EXPECT_EQ(without.error().rule, "B11.3");
  Take(*turn, c.t(), Side::kAxis, {{"attack", "1:1403"}, {"units", {"fj", "gd"}}});
  EXPECT_TRUE(
      Said(turn->result(), "combat", "B7.2", "fj, gd attack 1:1403: 4 to 1, column 4:1 to 4:1: DR"))
      << test::AllEvents(turn->result());
  if (turn->prompt().waiting == Waiting::kRetreat) {  // the rules' choice of hex
    Take(*turn, c.t(), Side::kAllied, {{"hex", "1:1403"}, {"prefer", json::array()}});
  }
  if (turn->prompt().waiting == Waiting::kAdvance) {
    Take(*turn, c.t(), Side::kAxis, {{"advance", json::array()}});
  }
  EXPECT_EQ(turn->prompt().waiting, Waiting::kOrder);
  EXPECT_EQ(turn->state().FindUnit("fj")->hex, c.Hex("1:1403"));
  EXPECT_NE(turn->state().FindUnit("su")->hex, c.Hex("1:1403"));
}

// B7.2: before declaring an attack the attacker may weigh its odds: the column it would be
// fought at, as the combat roll then says it, with nothing declared, drawn or changed; an
// attack the rules refuse is refused alike, and only the phasing player weighs one (B1.3).
TEST(B7_2, AnAttacksOddsAreWeighedBeforeItIsDeclared) {
  StepFight f(8, 2);
  StepTurn turn = f.AtCombat(1);
  const std::string before = turn.hash();
  const std::size_t rolls = turn.result().rolls.size();
  const Step attack = StepOf(turn, f.c.t(), {{"attack", "1:0505"}, {"units", {"ax"}}});
  auto weighed = turn.Preview(attack.attack, Side::kAxis);
  ASSERT_TRUE(weighed) << weighed.error().to_string();
  EXPECT_EQ(weighed->hex, f.c.Hex("1:0505"));
  EXPECT_EQ(weighed->attackers, std::vector<std::string>{"ax"});
  EXPECT_EQ(weighed->odds.attack, 8);
  EXPECT_EQ(weighed->odds.defense, 2);
  EXPECT_EQ(weighed->odds.shift, 0);
  EXPECT_EQ(weighed->odds.text, "8 to 2, column 4:1 to 4:1");
  EXPECT_TRUE(weighed->floods.empty());
  EXPECT_EQ(turn.hash(), before);
  EXPECT_EQ(turn.result().rolls.size(), rolls);
  EXPECT_FALSE(turn.script().combat.size());
  // Not the Allied player's to weigh, nor an attack on an empty hex.
  auto allied = turn.Preview(attack.attack, Side::kAllied);
  ASSERT_FALSE(allied);
  EXPECT_EQ(allied.error().rule, "B1.3");
  AttackOrder empty = attack.attack;
  empty.hex = f.c.Hex("1:0604");
  auto none = turn.Preview(empty, Side::kAxis);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().rule, "B7.1");
  // Declared, it is fought at the odds weighed.
  Take(turn, f.c.t(), Side::kAxis, {{"attack", "1:0505"}, {"units", {"ax"}}});
  ASSERT_GT(turn.result().rolls.size(), rolls);
  EXPECT_EQ(turn.result().rolls.back().against, weighed->odds.text);
  // Once declared, the hex is attacked (B7.1): weighing it again is refused as declaring it is.
  Take(turn, f.c.t(), Side::kAllied, {{"hex", "1:0505"}, {"prefer", json::array()}});
  Take(turn, f.c.t(), Side::kAxis, {{"advance", json::array()}});
  auto again = turn.Preview(attack.attack, Side::kAxis);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().rule, "B7.1");
}

// docs/dice.md, "Step by step": in a fair game each step draws its dice from its own stream,
// keyed by every step taken so far and by itself (StepDecisions); the weather, drawn as the
// player-turn begins, from the stream of no step. So a die is unknown until the step that draws
// it is taken, and the same step after other steps draws other dice.
TEST(B10_1, AFairGamesStepsEachDrawFromTheStreamOfTheStepsSoFar) {
  // Stream k (the k-th asked for) gives the word k for every die: a d6 shows k mod 6 + 1.
  struct Word final : DiceSource {
    std::uint64_t word;
    explicit Word(std::uint64_t w) : word(w) {}
    std::uint64_t Next() override { return word; }
  };
  std::vector<std::string> asked;
  const StepDice dice = [&asked](const std::string& decisions) -> std::unique_ptr<DiceSource> {
    asked.push_back(decisions);
    return std::make_unique<Word>(asked.size() - 1);
  };
  StepFight f(8, 2);  // 4:1
  Game game = f.c.AsGame();
  std::vector<GameState> phases;
  auto turn = StepTurn::BeginFair(game, dice, &phases);
  ASSERT_TRUE(turn) << turn.error().to_string();
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0], StepDecisions({}, f.c.t()));
  ASSERT_EQ(turn->result().rolls.size(), 1u);  // the weather: stream 0, a 1
  EXPECT_EQ(turn->result().rolls[0].value, 1);
  Take(*turn, f.c.t(), Side::kAxis, kEnd);
  Take(*turn, f.c.t(), Side::kAxis, kEnd);
  EXPECT_EQ(turn->result().rolls.size(), 1u);  // no step drew a die yet
  Take(*turn, f.c.t(), Side::kAxis, {{"attack", "1:0505"}, {"units", {"ax"}}});
  // Each step asked for the stream of the steps so far, itself included.
  ASSERT_EQ(asked.size(), 4u);
  for (std::size_t k = 1; k < asked.size(); ++k) {
    const std::vector<Step> so_far(turn->steps().begin(), turn->steps().begin() + k);
    EXPECT_EQ(asked[k], StepDecisions(so_far, f.c.t())) << k;
    EXPECT_NE(asked[k], asked[k - 1]);
  }
  // The attack's die is stream 3's: a 4.
  ASSERT_EQ(turn->result().rolls.size(), 2u);
  EXPECT_EQ(turn->result().rolls[1].value, 4);
  ASSERT_EQ(turn->result().attacks.size(), 1u);
  EXPECT_TRUE(Said(turn->result(), "combat", "B7.2", "column 4:1 to 4:1:"));
  // The same step by the other side, or after other steps, is keyed otherwise.
  std::vector<Step> other = turn->steps();
  other.back().side = Side::kAllied;
  EXPECT_NE(StepDecisions(other, f.c.t()), asked[3]);
  EXPECT_NE(StepDecisions({turn->steps().back()}, f.c.t()), asked[3]);
  // The phases kept as the batch keeps them: the initial and the movement phase's so far.
  EXPECT_EQ(phases.size(), 2u);
  EXPECT_FALSE(StepTurn::BeginFair(game, nullptr));
}

// B7.5, B1.3: two stacks retreat from the same hex in one player-turn (two attacks from
// 1:0405, each an AR), each where its owner chose. The script lists 1:0405's preferences once
// per retreat, in order (a forced or left-to-the-rules retreat as an empty list), so it reads
// back and, played in a batch, is the same player-turn. (Before, it listed the hex twice, which
// the orders reader refused: the player-turn could not be logged.)
TEST(B7_5, TwoRetreatsFromOneHexAreEachTheirOwnersChoice) {
  Camp c = Fields();
  c.Add("ax1", Side::kAxis, opsim::test::BaseType("infantry"), 4, 2, 4, 2, "1:0405");
  c.Add("ax2", Side::kAxis, opsim::test::BaseType("infantry"), 4, 2, 4, 2, "1:0405");
  c.Add("su1", Side::kAllied, opsim::test::BaseType("infantry"), 1, 4, 4, 2, "1:0505");
  c.Add("su2", Side::kAllied, opsim::test::BaseType("infantry"), 1, 4, 4, 2, "1:0404");
  c.Own("1:0505", Side::kAllied);
  c.Own("1:0404", Side::kAllied);
  Game game = c.AsGame();
  auto begun = StepTurn::Begin(game, nullptr, {1, 1, 1});  // weather, then two 1:1 ARs
  ASSERT_TRUE(begun) << begun.error().to_string();
  StepTurn& turn = *begun;
  Take(turn, c.t(), Side::kAxis, kEnd);
  Take(turn, c.t(), Side::kAxis, kEnd);
  std::vector<map::HexRef> went;
  for (const char* target : {"1:0505", "1:0404"}) {
    const std::string unit = went.empty() ? "ax1" : "ax2";
    Take(turn, c.t(), Side::kAxis, {{"attack", target}, {"units", {unit}}});
    ASSERT_EQ(turn.prompt().waiting, Waiting::kRetreat) << turn.prompt().text;
    ASSERT_EQ(turn.prompt().hex, c.Hex("1:0405"));
    ASSERT_GT(turn.prompt().retreat_to.size(), 1u);
    // The first retreat takes the rules' last choice, the second leaves it to the rules.
    const map::HexRef to =
        went.empty() ? turn.prompt().retreat_to.back() : turn.prompt().retreat_to.front();
    Take(turn, c.t(), Side::kAxis,
         went.empty() ? json{{"hex", "1:0405"}, {"prefer", {c.t().HexName(to)}}}
                      : json{{"hex", "1:0405"}, {"prefer", json::array()}});
    EXPECT_EQ(turn.state().FindUnit(unit)->hex, to);
    went.push_back(to);
    while (turn.prompt().waiting == Waiting::kAdvance) {
      Take(turn, c.t(), Side::kAxis, {{"advance", json::array()}});
    }
  }
  ASSERT_NE(went[0], went[1]);
  Take(turn, c.t(), Side::kAxis, kEnd);
  Take(turn, c.t(), Side::kAxis, kEnd);
  ASSERT_TRUE(turn.over());
  // The script: 1:0405 listed twice, the second leaving it to the rules; it reads back.
  const json script = json::parse(OrdersToJson(turn.script(), c.t()));
  ASSERT_EQ(script["retreats"].size(), 2u) << script.dump();
  EXPECT_EQ(script["retreats"][0]["prefer"], json::array({c.t().HexName(went[0])}));
  EXPECT_EQ(script["retreats"][1]["prefer"], json::array());
  auto src = JsonSource::FromText(script.dump(), "script");
  ASSERT_TRUE(src);
  auto orders = ParseOrders(*src, c.t());
  ASSERT_TRUE(orders) << orders.error().to_string();
  Game batch = game;
  auto played = batch.Play(*orders);
  ASSERT_TRUE(played) << played.error().to_string();
  ExpectSameTurn(*played, turn.result());
  EXPECT_EQ(batch.state().FindUnit("ax1")->hex, went[0]);
  EXPECT_EQ(batch.state().FindUnit("ax2")->hex, went[1]);
}

// B7.6: the attacker may advance no one, and may not name a unit that did not attack.
TEST(B7_6, TheAttackerChoosesWhoAdvances) {
  StepFight f(8, 2);
  f.c.Add("other", Side::kAxis, opsim::test::BaseType("infantry"), 1, 1, 4, 2, "1:0404");
  StepTurn turn = f.AtCombat(1);
  Take(turn, f.c.t(), Side::kAxis, {{"attack", "1:0505"}, {"units", {"ax"}}});
  Take(turn, f.c.t(), Side::kAllied, {{"prefer", json::array()}});  // the rules' choice
  ASSERT_EQ(turn.prompt().waiting, Waiting::kAdvance);
  auto stranger = turn.Take(StepOf(turn, f.c.t(), {{"advance", {"other"}}}), Side::kAxis);
  ASSERT_FALSE(stranger);
  EXPECT_EQ(stranger.error().rule, "B7.6");
  Take(turn, f.c.t(), Side::kAxis, {{"advance", json::array()}});
  EXPECT_EQ(turn.state().FindUnit("ax")->hex, f.c.Hex("1:0405"));
  EXPECT_FALSE(turn.script().combat[0].advance);
}

// B7.5: a stack with one hex open to it has nothing to choose: the game does not wait.
TEST(B7_5, AForcedRetreatIsNotAsked) {
  StepFight f(8, 2);
  // Allied units fill 1:0504 and 1:0604 to the stacking limit: 1:0605 alone is open.
  f.c.Add("full1", Side::kAllied, opsim::test::BaseType("infantry"), 1, 1, 4, 6, "1:0504");
  f.c.Add("full2", Side::kAllied, opsim::test::BaseType("infantry"), 1, 1, 4, 6, "1:0604");
  StepTurn turn = f.AtCombat(1);
  Take(turn, f.c.t(), Side::kAxis, {{"attack", "1:0505"}, {"units", {"ax"}}});
  EXPECT_EQ(turn.state().FindUnit("su")->hex, f.c.Hex("1:0605"));
  EXPECT_EQ(turn.prompt().waiting, Waiting::kAdvance);
}

// B1.4: a move is taken back to the exact position; after a die, the other side's decision or
// the phase's end, nothing is.
TEST(B1_4, UndoReturnsTheExactPositionUntilSomethingIsRevealed) {
  Camp c = Fields();
  c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 8, 2, 4, 2, "1:0303");
  c.Add("ax2", Side::kAxis, opsim::test::BaseType("infantry"), 8, 2, 4, 2, "1:0203");
  c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1:0505");
  c.Own("1:0505", Side::kAllied);
  Game game = c.AsGame();
  auto begun = StepTurn::Begin(game, nullptr, {1, 1});
  ASSERT_TRUE(begun);
  StepTurn& turn = *begun;
  EXPECT_FALSE(turn.CanUndo());
  auto none = turn.Undo(Side::kAxis);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().rule, "B1.4");
  Take(turn, c.t(), Side::kAxis, kEnd);
  const std::string before = turn.hash();
  const std::size_t events = turn.result().events.size();
  Take(turn, c.t(), Side::kAxis, {{"units", {"ax"}}, {"path", {"1:0303", "1:0304"}}});
  const std::string after_one = turn.hash();
  Take(turn, c.t(), Side::kAxis, {{"units", {"ax2"}}, {"path", {"1:0203", "1:0204"}}});
  EXPECT_FALSE(turn.Take(StepOf(turn, c.t(), {{"units", {"ax"}}, {"path", {"1:0304", "1:0404"}}}),
                         Side::kAxis))
      << "a unit moves once a phase (B4.10)";
  EXPECT_NE(turn.hash(), before);
  ASSERT_TRUE(turn.CanUndo());
  auto theirs = turn.Undo(Side::kAllied);  // not the other side's to take back
  ASSERT_FALSE(theirs);
  EXPECT_EQ(theirs.error().rule, "B1.4");
  EXPECT_NE(turn.hash(), after_one);
  ASSERT_TRUE(turn.Undo(Side::kAxis));
  EXPECT_EQ(turn.hash(), after_one);
  EXPECT_EQ(turn.state().FindUnit("ax2")->hex, c.Hex("1:0203"));
  EXPECT_EQ(turn.state().FindUnit("ax")->hex, c.Hex("1:0304"));
  ASSERT_TRUE(turn.Undo(Side::kAxis));
  EXPECT_EQ(turn.hash(), before);
  EXPECT_EQ(turn.result().events.size(), events);
  EXPECT_TRUE(turn.steps().size() == 1);  // the end of the initial phase
  EXPECT_TRUE(turn.script().movement.empty());
  // Moved again (now it may: its move was taken back), then the phase ends: not undoable.
  Take(turn, c.t(), Side::kAxis, {{"units", {"ax"}}, {"path", {"1:0303", "1:0304", "1:0404"}}});
  EXPECT_TRUE(turn.CanUndo());
  Take(turn, c.t(), Side::kAxis, kEnd);
  EXPECT_FALSE(turn.CanUndo());
  // An attack rolls a die: not undoable.
  Take(turn, c.t(), Side::kAxis, {{"attack", "1:0505"}, {"units", {"ax"}}});
  EXPECT_FALSE(turn.CanUndo());
}

// B1.3: a refused step changes nothing; a step the game does not wait for is refused.
TEST(B1_3, ARefusedStepChangesNothing) {
  Camp c = Fields();
  c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 8, 2, 4, 2, "1:0303");
  Game game = c.AsGame();
  auto begun = StepTurn::Begin(game, nullptr, {1});
  ASSERT_TRUE(begun);
  StepTurn& turn = *begun;
  // A move in the initial phase.
  auto early = turn.Take(StepOf(turn, c.t(), {{"units", {"ax"}}, {"path", {"1:0303", "1:0304"}}}),
                         Side::kAxis);
  ASSERT_FALSE(early);
  EXPECT_EQ(early.error().rule, "B1.3");
  // The other side's step.
  auto allied = turn.Take(StepOf(turn, c.t(), kEnd), Side::kAllied);
  ASSERT_FALSE(allied);
  EXPECT_EQ(allied.error().rule, "B1.3");
  Take(turn, c.t(), Side::kAxis, kEnd);
  // A move beyond the allowance goes part way before it is refused: all of it is undone.
  const std::string before = turn.hash();
  const std::size_t events = turn.result().events.size();
  auto far = turn.Take(
      StepOf(turn, c.t(),
             {{"units", {"ax"}},
              {"path", {"1:0303", "1:0403", "1:0503", "1:0603", "1:0703", "1:0803", "1:0903"}}}),
      Side::kAxis);
  ASSERT_FALSE(far);
  EXPECT_EQ(far.error().rule, "B4.10");
  EXPECT_EQ(turn.hash(), before);
  EXPECT_EQ(turn.result().events.size(), events);
  EXPECT_TRUE(turn.script().movement.empty());
  EXPECT_FALSE(turn.CanUndo());
}

// B1.3: the player-turn ends in the state Game::Play ends in, and the game goes on from it.
TEST(B1_3, FinishedTheGameGoesOn) {
  Camp c = Fields();
  c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 8, 2, 4, 2, "1:0303");
  Game game = c.AsGame();
  auto begun = StepTurn::Begin(game, nullptr, {1});
  ASSERT_TRUE(begun);
  StepTurn& turn = *begun;
  EXPECT_FALSE(turn.Finish(game));
  for (int i = 0; i < 4; ++i) Take(turn, c.t(), Side::kAxis, kEnd);
  ASSERT_TRUE(turn.over());
  EXPECT_EQ(turn.prompt().side, Side::kAllied);
  EXPECT_EQ(turn.result().hashes.size(), 4u);
  ASSERT_TRUE(turn.Finish(game));
  EXPECT_EQ(game.state().player_turn, 1);
  EXPECT_EQ(game.hash(), turn.result().final_hash);
  EXPECT_EQ(game.state().phasing(), Side::kAllied);
}

// 41.A.4: when a canal-intensive hex he owns is attacked, the owner is asked whether to flood
// it before the attack's die; his attempt rolls first.

TEST(Rule41A4, TheOwnerIsAskedToFloodAnAttackedHex) {
  Camp c = test::Polder(1);
  Game game = c.AsGame();
  auto begun = StepTurn::Begin(game, nullptr, {1, 4, 6});  // weather, flood, combat
  ASSERT_TRUE(begun);
  StepTurn& turn = *begun;
  Take(turn, c.t(), Side::kAxis, kEnd);
  Take(turn, c.t(), Side::kAxis, kEnd);
  const std::size_t rolls = turn.result().rolls.size();
  Take(turn, c.t(), Side::kAxis, {{"attack", "1:0403"}, {"units", {"de-a"}}});
  const Prompt& p = turn.prompt();
  ASSERT_EQ(p.waiting, Waiting::kFlood);
  EXPECT_EQ(p.side, Side::kAllied);
  EXPECT_EQ(p.hex, c.Hex("1:0403"));
  EXPECT_EQ(p.floods, std::vector<ReactionKind>{ReactionKind::kFlood});  // no surrender yet
  EXPECT_EQ(p.units, std::vector<std::string>{"de-a"});
  EXPECT_EQ(turn.result().rolls.size(), rolls) << "no die before the owner's answer";
  // A flood of another hex is refused.
  auto other = turn.Take(StepOf(turn, c.t(), {{"flood", "1:0402"}}), Side::kAllied);
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().rule, "41.A.4.a");
  Take(turn, c.t(), Side::kAllied, {{"flood", "1:0403"}});
  ASSERT_EQ(turn.result().rolls.size(), rolls + 2);
  EXPECT_NE(turn.result().rolls[rolls].purpose.find("flooding of 1:0403"), std::string::npos);
  ASSERT_EQ(turn.result().attacks.size(), 1u);
  EXPECT_TRUE(turn.result().attacks[0].flood.has_value());
  ASSERT_EQ(turn.script().reactions.size(), 1u);
}

// The JSON of every step kind reads back as the same step.
TEST(B1_3, StepsRoundTripThroughTheirJson) {
  Camp c = Fields();
  Game game = c.AsGame();
  auto begun = StepTurn::Begin(game, nullptr, {1});
  ASSERT_TRUE(begun);
  Prompt movement = begun->prompt();
  movement.phase = Phase::kMovement;
  for (const json& text : std::vector<json>{
           kEnd,
           {{"suez", "close"}},
           {{"units", {"ax"}}, {"path", {"1:0303", "1:0304"}}},
           {{"attack", "1:0505"}, {"units", {"ax"}}, {"if-flooded", "attack"}, {"advance", true}},
           {{"flood", "1:0505"}},
           {{"flood", false}},
           {{"hex", "1:0505"}, {"prefer", {"1:0604"}}},
           {{"prefer", json::array()}},
           {{"advance", {"ax", "ax2"}}},
           {{"advance", json::array()}},
       }) {
    auto src = JsonSource::FromText(text.dump(), "step");
    ASSERT_TRUE(src);
    auto step = ParseStep(*src, c.t(), movement);
    ASSERT_TRUE(step) << text.dump() << ": " << step.error().to_string();
    const std::string canonical = StepToJson(*step, c.t());
    auto again_src = JsonSource::FromText(canonical, "step");
    ASSERT_TRUE(again_src);
    auto again = ParseStep(*again_src, c.t(), movement);
    ASSERT_TRUE(again) << canonical;
    EXPECT_EQ(StepToJson(*again, c.t()), canonical);
    EXPECT_EQ(again->kind, step->kind) << canonical;
  }
  // Mistakes name the place and what is wrong.
  for (const auto& [text, says] : std::vector<std::pair<std::string, std::string>>{
           {"[1]", "object"},
           {R"({"end-phase": false})", "end-phase"},
           {R"({"advance": ["a", "a"]})", "named twice"},
           {R"({"hex": "1:0505", "prefer": ["1:0507"]})", "is not next to"},
           {R"({"units": ["ax"], "path": ["1:9999"]})", "1:9999"},
       }) {
    // A top level that is not an object is refused as the text is read (JsonSource).
    auto src = JsonSource::FromText(text, "step");
    auto step = src ? ParseStep(*src, c.t(), movement) : std::unexpected(src.error());
    ASSERT_FALSE(step) << text;
    EXPECT_NE(step.error().to_string().find(says), std::string::npos) << step.error().to_string();
  }
}

}  // namespace
}  // namespace opsim::ops
