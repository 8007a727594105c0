// A player-turn played step by step into a turn log (libquery's query/steps.h; docs/rules.md B1.3):
// every step kept as it is taken, the player-turn logged as the script of its steps with the steps,
// replay --verify over both, and a session that reopens where the last one stopped.
#include "opsim/query/steps.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "db_test_util.h"
#include "opsim/core/fair_dice.h"
#include "opsim/core/sha256.h"
#include "opsim/db/game_log.h"
#include "opsim/query/play.h"
#include "test_support.h"

namespace opsim::db {
namespace {

namespace fs = std::filesystem;
using query::StepRecord;
using query::StepSession;

constexpr std::uint64_t kSeed = 1940;

std::string OrdersFile(int n) {
  static const char* kFiles[] = {"01-axis-may-i-1940.json", "02-allied-may-i-1940.json",
                                 "03-axis-may-ii-1940.json"};
  return opsim::test::BundledOrders(kFiles[n]);
}

struct StepLogTest : ::testing::Test {
  test::TempDir dir;
  std::string Path(const std::string& name) { return (fs::path(dir.dir()) / name).string(); }
  std::string NewLog(const std::string& name) {
    const std::string path = Path(name);
    auto scenario = JsonSource::FromFile(test::BundledPath("special-terrain"));
    EXPECT_TRUE(scenario);
    auto game = NewLoggedGame(path, *scenario, kSeed);
    EXPECT_TRUE(game) << game.error().to_string();
    return path;
  }
  // A new fair log (docs/dice.md) of game `id`, committed to `secrets`.
  std::string NewFairLog(const std::string& name, const std::string& id,
                         const FairSecrets& secrets) {
    const std::string path = Path(name);
    auto scenario = JsonSource::FromFile(test::BundledPath("special-terrain"));
    EXPECT_TRUE(scenario);
    auto game = NewFairLoggedGame(path, *scenario, id, KeyHex(ChainKey(secrets.axis, 0)),
                                  KeyHex(ChainKey(secrets.allied, 0)));
    EXPECT_TRUE(game) << game.error().to_string();
    return path;
  }
  // The steps an orders file scripts, at `game`'s position, each with its side.
  std::vector<ops::LoggedStep> StepsOf(const ops::Game& game, const std::string& file) {
    auto src = JsonSource::FromFile(file);
    EXPECT_TRUE(src);
    auto orders = ops::ParseOrders(*src, game.theater());
    EXPECT_TRUE(orders) << orders.error().to_string();
    auto turn = ops::StepTurn::Begin(game);
    EXPECT_TRUE(turn);
    auto st = ops::PlayScript(*turn, *orders);
    EXPECT_TRUE(st) << st.error().to_string();
    std::vector<ops::LoggedStep> out;
    for (const ops::Step& s : turn->steps()) {
      out.push_back({s.side, ops::StepToJson(s, game.theater()), ""});
    }
    return out;
  }
  static Result<StepRecord> Take(StepSession& session, const ops::LoggedStep& step) {
    auto src = JsonSource::FromText(step.step, "--action");
    if (!src) return std::unexpected(src.error());
    return session.Take(*src, step.side);
  }
};

// B1.3: the bundled orders played as steps into one log and as orders files into another: the
// same player-turns, the same state hashes; the step log replays and verifies.
TEST_F(StepLogTest, StepsAreLoggedAsTheirPlayerTurnAndVerify) {
  const std::string steps_log = NewLog("steps.sqlite");
  const std::string batch_log = NewLog("batch.sqlite");
  for (int n = 0; n < 3; ++n) {
    SCOPED_TRACE(OrdersFile(n));
    auto session = StepSession::Open(steps_log);
    ASSERT_TRUE(session) << session.error().to_string();
    EXPECT_EQ(session->number(), n + 1);
    const std::vector<ops::LoggedStep> steps = StepsOf(session->game(), OrdersFile(n));
    ASSERT_FALSE(steps.empty());
    std::optional<StepRecord> last;
    for (std::size_t k = 0; k < steps.size(); ++k) {
      auto record = Take(*session, steps[k]);
      ASSERT_TRUE(record) << steps[k].step << ": " << record.error().to_string();
      EXPECT_EQ(record->logged, k + 1 == steps.size());
      if (!record->logged) {
        EXPECT_EQ(query::StepsInPlay(steps_log)->value_or(0), k + 1);
      }
      last = *record;
    }
    ASSERT_TRUE(last && last->logged);
    EXPECT_EQ(query::StepsInPlay(steps_log)->value_or(0), 0u);
    auto orders = JsonSource::FromFile(OrdersFile(n));
    ASSERT_TRUE(orders);
    auto batch = query::PlayTurn(batch_log, *orders);
    ASSERT_TRUE(batch) << batch.error().to_string();
    EXPECT_EQ(last->played.final_hash, batch->final_hash);
    // The session goes on at the next player-turn.
    EXPECT_EQ(session->number(), n + 2);
  }
  ReplayOptions verify;
  verify.verify = true;
  auto replayed = ReplayLog(steps_log, verify);
  ASSERT_TRUE(replayed) << replayed.error().to_string();
  auto batch_replayed = ReplayLog(batch_log, verify);
  ASSERT_TRUE(batch_replayed);
  EXPECT_EQ(ops::StateHash(replayed->game.state), ops::StateHash(batch_replayed->game.state));
  // The log holds the steps with the script: the turn row's orders carry them.
  const std::string orders = test::SqlValue(steps_log, "SELECT orders FROM turn WHERE number = 1");
  EXPECT_NE(orders.find("\"steps\""), std::string::npos) << orders;
}

// B1.3: the player-turn in play is kept in the log as each step is taken: a new session (a new
// process) takes it up where it stood; an undo is kept too (B1.4).
TEST_F(StepLogTest, ASessionTakesUpThePlayerTurnInPlay) {
  const std::string log = NewLog("game.sqlite");
  std::vector<ops::LoggedStep> steps;
  std::string hash_after_two;
  {
    auto session = StepSession::Open(log);
    ASSERT_TRUE(session);
    steps = StepsOf(session->game(), OrdersFile(0));
    ASSERT_GT(steps.size(), 3u);
    ASSERT_TRUE(Take(*session, steps[0]));
    ASSERT_TRUE(Take(*session, steps[1]));
    hash_after_two = session->turn().hash();
    ASSERT_TRUE(Take(*session, steps[2]));
  }
  auto session = StepSession::Open(log);
  ASSERT_TRUE(session) << session.error().to_string();
  EXPECT_EQ(session->turn().steps().size(), 3u);
  // steps[2] is the first move of the movement phase: it may be taken back, in a new process.
  ASSERT_TRUE(session->turn().CanUndo());
  auto undone = session->Undo(Side::kAxis);
  ASSERT_TRUE(undone) << undone.error().to_string();
  EXPECT_EQ(session->turn().hash(), hash_after_two);
  EXPECT_EQ(query::StepsInPlay(log)->value_or(0), 2u);
  auto again = StepSession::Open(log);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->turn().hash(), hash_after_two);
  // An orders file is refused while a player-turn is in play (B1.3).
  auto orders = JsonSource::FromFile(OrdersFile(0));
  ASSERT_TRUE(orders);
  auto batch = query::PlayTurn(log, *orders);
  ASSERT_FALSE(batch);
  EXPECT_EQ(batch.error().rule, "B1.3");
}

// Two programs playing one log: a step taken by one refuses the other's stale session
// (kWrongTurn), which nothing was written for.
TEST_F(StepLogTest, AStaleSessionIsRefused) {
  const std::string log = NewLog("game.sqlite");
  auto first = StepSession::Open(log);
  auto second = StepSession::Open(log);
  ASSERT_TRUE(first && second);
  const std::vector<ops::LoggedStep> steps = StepsOf(first->game(), OrdersFile(0));
  ASSERT_TRUE(Take(*first, steps[0]));
  auto stale = Take(*second, steps[0]);
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().code, ErrorCode::kWrongTurn);
  EXPECT_EQ(query::StepsInPlay(log)->value_or(0), 1u);
  // The stale session is back where the log was when it read it; opened again, it goes on.
  EXPECT_EQ(second->turn().steps().size(), 0u);
}

// A refused step is not kept; a player-turn in play that does not begin where the log ends, or
// does not read, refuses the log (kCorruption) rather than guessing.
TEST_F(StepLogTest, RefusedStepsAndBadRecordsChangeNothing) {
  const std::string log = NewLog("game.sqlite");
  auto session = StepSession::Open(log);
  ASSERT_TRUE(session);
  auto src = JsonSource::FromText(R"({"units": ["de-18a"], "path": ["16A:1322", "16A:1222"]})",
                                  "--action");
  ASSERT_TRUE(src);
  auto early = session->Take(*src, Side::kAxis);  // a move in the initial phase
  ASSERT_FALSE(early);
  EXPECT_EQ(early.error().rule, "B1.3");
  EXPECT_EQ(query::StepsInPlay(log)->value_or(0), 0u);
  auto end = JsonSource::FromText(R"({"end-phase": true})", "--action");
  ASSERT_TRUE(end);
  ASSERT_TRUE(session->Take(*end, Side::kAxis));
  test::Sql(log,
            "UPDATE meta SET value = replace(value, '\"number\":1', '\"number\":7') "
            "WHERE key = 'steps_pending'");
  const std::string moved_dump = test::DumpLog(log);
  auto moved = StepSession::Open(log);
  ASSERT_FALSE(moved);
  EXPECT_EQ(moved.error().code, ErrorCode::kCorruption);
  EXPECT_TRUE(test::DumpLog(log) == moved_dump) << "a refused log is left as it was";
  test::Sql(log, "UPDATE meta SET value = 'not json' WHERE key = 'steps_pending'");
  const std::string garbled_dump = test::DumpLog(log);
  auto garbled = StepSession::Open(log);
  ASSERT_FALSE(garbled);
  EXPECT_EQ(garbled.error().code, ErrorCode::kCorruption);
  EXPECT_TRUE(test::DumpLog(log) == garbled_dump) << "a refused log is left as it was";
}

// docs/dice.md, "Step by step": a fair game whose both secrets are at hand (a hosted game's
// server) is played step by step, each step drawing its dice from both players' keys and the
// steps so far. Each player-turn is logged with both keys revealed and the hashes of both
// players' decisions, and replay --verify takes its steps again with the same dice.
TEST_F(StepLogTest, AFairGameIsPlayedStepByStepWithItsSecretsAndVerifies) {
  FairSecrets secrets;
  secrets.axis.fill(0x11);
  secrets.allied.fill(0x22);
  const std::string log = NewFairLog("fair.sqlite", "g-fair", secrets);
  // Without its secrets, or with another game's, a fair log is not played by steps.
  auto bare = StepSession::Open(log);
  ASSERT_FALSE(bare);
  EXPECT_EQ(bare.error().code, ErrorCode::kUnsupported);
  FairSecrets swapped{secrets.allied, secrets.axis};
  auto wrong = StepSession::Open(log, TurnLog::Access::kWrite, &swapped);
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().code, ErrorCode::kInvalidInput);
  std::int64_t rolls = 0;
  // Two player-turns: the bundled orders after them were written for the seeded game's dice.
  for (int n = 0; n < 2; ++n) {
    SCOPED_TRACE(OrdersFile(n));
    auto session = StepSession::Open(log, TurnLog::Access::kWrite, &secrets);
    ASSERT_TRUE(session) << session.error().to_string();
    const std::int32_t number = session->number();
    ASSERT_EQ(number, n + 1);
    // The steps the orders file scripts under this player-turn's fair dice.
    const std::array<Key, 2> keys = {ChainKey(secrets.axis, number),
                                     ChainKey(secrets.allied, number)};
    auto script = ops::StepTurn::BeginFair(session->game(), FairStepDice(keys, "g-fair", number));
    ASSERT_TRUE(script) << script.error().to_string();
    auto src = JsonSource::FromFile(OrdersFile(n));
    ASSERT_TRUE(src);
    auto orders = ops::ParseOrders(*src, session->theater());
    ASSERT_TRUE(orders);
    auto scripted = ops::PlayScript(*script, *orders);
    ASSERT_TRUE(scripted) << scripted.error().to_string();
    // A new process takes the player-turn up half-way with the same dice.
    const std::size_t half = script->steps().size() / 2;
    for (std::size_t k = 0; k < script->steps().size(); ++k) {
      if (k == half) {
        session = StepSession::Open(log, TurnLog::Access::kWrite, &secrets);
        ASSERT_TRUE(session) << session.error().to_string();
        EXPECT_EQ(session->turn().hash(), [&] {
          auto partial =
              ops::StepTurn::BeginFair(session->game(), FairStepDice(keys, "g-fair", number));
          for (std::size_t j = 0; j < half; ++j) {
            EXPECT_TRUE(partial->Take(script->steps()[j], script->steps()[j].side));
          }
          return partial->hash();
        }());
      }
      const ops::Step& step = script->steps()[k];
      auto record = Take(*session, {step.side, ops::StepToJson(step, session->theater()), ""});
      ASSERT_TRUE(record) << record.error().to_string();
      EXPECT_EQ(record->logged, k + 1 == script->steps().size());
      if (record->logged) {
        EXPECT_EQ(record->played.final_hash, script->result().final_hash);
      }
    }
    rolls += static_cast<std::int64_t>(script->result().rolls.size());
    // The turn row reveals both keys for the player-turn and hashes both players' decisions.
    auto opened = TurnLog::Open(log, TurnLog::Access::kRead);
    ASSERT_TRUE(opened);
    auto row = opened->ReadTurn(number);
    ASSERT_TRUE(row) << row.error().to_string();
    EXPECT_EQ(row->axis_key, KeyHex(keys[0]));
    EXPECT_EQ(row->allied_key, KeyHex(keys[1]));
    const Decisions d = SplitDecisions(row->orders);
    EXPECT_EQ(row->orders_hash, Sha256Hex(d.orders));
    EXPECT_EQ(row->reply_hash, Sha256Hex(d.reply));
    EXPECT_NE(row->orders.find("\"steps\""), std::string::npos);
    EXPECT_EQ(row->final_hash, script->result().final_hash);
  }
  EXPECT_GT(rolls, 3);  // the weather and some combat
  ReplayOptions verify;
  verify.verify = true;
  auto report = ReplayLog(log, verify);
  ASSERT_TRUE(report) << report.error().to_string();
  EXPECT_EQ(report->rolls, rolls);
  EXPECT_TRUE(report->differences.empty());
  auto phases = LoadLoggedPhases(log, 1);
  ASSERT_TRUE(phases) << phases.error().to_string();
  EXPECT_EQ(phases->states.size(), phases->replayed.hashes.size());
  // A logged step changed fails the replay.
  test::Sql(log,
            "UPDATE turn SET orders = replace(orders, '\"end-phase\":true', "
            "'\"end-phase\":false') WHERE number = 1");
  EXPECT_FALSE(ReplayLog(log, {}));
}

// A hosted fair game's player-turn is played one way: orders and a reply (query/play.h), or steps.
// Neither is taken while the other is under way (B1.3).
TEST_F(StepLogTest, AFairPlayerTurnIsPlayedByOrdersOrBySteps) {
  FairSecrets secrets;
  secrets.axis.fill(0x33);
  secrets.allied.fill(0x44);
  const std::string log = NewFairLog("fair.sqlite", "g2", secrets);
  auto session = StepSession::Open(log, TurnLog::Access::kWrite, &secrets);
  ASSERT_TRUE(session) << session.error().to_string();
  auto end = JsonSource::FromText(R"({"end-phase": true})", "--action");
  ASSERT_TRUE(end);
  ASSERT_TRUE(session->Take(*end, Side::kAxis));
  // The mover's part of the first bundled orders (the flood attempt is the defender's reply).
  nlohmann::json mover = nlohmann::json::parse(test::ReadFile(OrdersFile(0)));
  mover.erase("reactions");
  auto orders = JsonSource::FromText(mover.dump(), "orders");
  ASSERT_TRUE(orders);
  auto moved = test::SubmitHosted(log, *orders);
  ASSERT_FALSE(moved);
  EXPECT_EQ(moved.error().rule, "B1.3");
  EXPECT_EQ(query::StepsInPlay(log)->value_or(0), 1u);
  // Orders pending first: no step is taken.
  const std::string other = NewFairLog("other.sqlite", "g3", secrets);
  auto fresh = StepSession::Open(other, TurnLog::Access::kWrite, &secrets);
  ASSERT_TRUE(fresh);
  auto pending = test::SubmitHosted(other, *orders);
  ASSERT_TRUE(pending) << pending.error().to_string();
  ASSERT_FALSE(fresh->Take(*end, Side::kAxis));
  EXPECT_EQ(query::StepsInPlay(other)->value_or(0), 0u);
  auto late = StepSession::Open(other, TurnLog::Access::kWrite, &secrets);
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().rule, "B1.3");
  // Played from orders and a reply, the player-turn is taken again as their script's steps,
  // with the dice both decisions drew: it ends where the log says.
  auto reply = JsonSource::FromText("{}", "reply");
  ASSERT_TRUE(reply);
  auto played = query::ReplyToOrders(other, secrets, *reply);
  ASSERT_TRUE(played) << played.error().to_string();
  auto row = TurnLog::Open(other, TurnLog::Access::kRead)->ReadTurn(1);
  ASSERT_TRUE(row);
  auto script = LoadLoggedSteps(other, 1, 0);
  ASSERT_TRUE(script) << script.error().to_string();
  EXPECT_FALSE(script->by_steps);
  ASSERT_FALSE(script->steps.empty());
  EXPECT_EQ(script->result.final_hash, row->final_hash);
  EXPECT_EQ(script->result.rolls.size(), row->rolls.size());
  auto end_of_it = LoadLoggedSteps(other, 1, script->steps.size());
  ASSERT_TRUE(end_of_it);
  EXPECT_EQ(ops::StateHash(end_of_it->game.state), row->final_hash);
}

// B1.3: a logged player-turn is taken again step by step: after k of its steps the position is
// the one its players saw after k steps, step 0 is the player-turn begun (its weather rolled) and
// the last step its end; each step's events and rolls are told apart. One played from orders is
// taken as the steps its orders are the script of.
TEST_F(StepLogTest, ALoggedPlayerTurnIsTakenAgainStepByStep) {
  const std::string steps_log = NewLog("steps.sqlite");
  const std::string batch_log = NewLog("batch.sqlite");
  auto session = StepSession::Open(steps_log);
  ASSERT_TRUE(session) << session.error().to_string();
  const std::vector<ops::LoggedStep> steps = StepsOf(session->game(), OrdersFile(0));
  ASSERT_GT(steps.size(), 3u);
  // What the players saw: the hash and the prompt after each step.
  std::vector<std::string> hashes = {session->turn().hash()};
  std::vector<std::string> prompts = {session->turn().prompt().text};
  for (const ops::LoggedStep& step : steps) {
    auto record = Take(*session, step);
    ASSERT_TRUE(record) << step.step << ": " << record.error().to_string();
    hashes.push_back(record->logged ? record->played.final_hash : session->turn().hash());
    prompts.push_back(record->logged ? "" : session->turn().prompt().text);
  }
  auto orders = JsonSource::FromFile(OrdersFile(0));
  ASSERT_TRUE(orders);
  auto batch = query::PlayTurn(batch_log, *orders);
  ASSERT_TRUE(batch) << batch.error().to_string();
  for (const std::string& log : {steps_log, batch_log}) {
    SCOPED_TRACE(log);
    for (std::size_t k = 0; k <= steps.size(); ++k) {
      SCOPED_TRACE("step " + std::to_string(k));
      auto at = LoadLoggedSteps(log, 1, k);
      ASSERT_TRUE(at) << at.error().to_string();
      EXPECT_EQ(at->by_steps, log == steps_log);
      ASSERT_EQ(at->steps.size(), steps.size());
      for (std::size_t j = 0; j < steps.size(); ++j) {
        EXPECT_EQ(at->steps[j].step, steps[j].step);
        EXPECT_EQ(at->steps[j].side, steps[j].side);
      }
      EXPECT_EQ(ops::StateHash(at->game.state), hashes[k]);
      if (k < steps.size()) {
        EXPECT_EQ(at->prompt.text, prompts[k]);
      }
      EXPECT_EQ(at->game.turns_played, k == steps.size() ? 1 : 0);
      EXPECT_EQ(at->result.final_hash, batch->final_hash);
      // Each step's events and rolls follow the last one's, and the steps end with the turn's.
      ASSERT_EQ(at->outcomes.size(), steps.size());
      for (std::size_t j = 1; j < at->outcomes.size(); ++j) {
        EXPECT_EQ(at->outcomes[j].events_from, at->outcomes[j - 1].events_to);
        EXPECT_EQ(at->outcomes[j].rolls_from, at->outcomes[j - 1].rolls_to);
      }
      EXPECT_EQ(at->outcomes.back().events_to, at->result.events.size());
      EXPECT_EQ(at->outcomes.back().rolls_to, at->result.rolls.size());
      EXPECT_EQ(at->result.rolls.size(), batch->rolls.size());
    }
    // The weather is rolled before the first step (B2.1).
    auto begun = LoadLoggedSteps(log, 1, 0);
    ASSERT_TRUE(begun);
    EXPECT_GT(begun->outcomes.front().rolls_from, 0u);
    auto beyond = LoadLoggedSteps(log, 1, steps.size() + 1);
    ASSERT_FALSE(beyond);
    EXPECT_EQ(beyond.error().code, ErrorCode::kInvalidInput);
    auto unlogged = LoadLoggedSteps(log, 2, 0);
    ASSERT_FALSE(unlogged);
    EXPECT_EQ(unlogged.error().code, ErrorCode::kInvalidInput);
  }
  // A changed step is refused as the replay refuses it.
  test::Sql(steps_log,
            "UPDATE turn SET orders = replace(orders, '\"end-phase\":true', "
            "'\"end-phase\":false') WHERE number = 1");
  auto changed = LoadLoggedSteps(steps_log, 1, 1);
  ASSERT_FALSE(changed);
  EXPECT_EQ(changed.error().code, ErrorCode::kCorruption);
}

}  // namespace
}  // namespace opsim::db
