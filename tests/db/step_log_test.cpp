// A player-turn played step by step into a turn log (db/step_log.h; docs/rules.md B1.3): every
// step kept as it is taken, the player-turn logged as the script of its steps with the steps,
// replay --verify over both, and a session that reopens where the last one stopped.
#include "opsim/db/step_log.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "db_test_util.h"
#include "opsim/db/game_log.h"
#include "test_support.h"

namespace opsim::db {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kSeed = 1940;

std::string OrdersFile(int n) {
  static const char* kFiles[] = {"01-axis-may-i-1940.json", "02-allied-may-i-1940.json",
                                 "03-axis-may-ii-1940.json"};
  return std::string(OPSIM_SCENARIO_DIR) + "/orders/special-terrain/" + kFiles[n];
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
        EXPECT_EQ(*PendingSteps(steps_log), k + 1);
      }
      last = *record;
    }
    ASSERT_TRUE(last && last->logged);
    EXPECT_EQ(*PendingSteps(steps_log), 0u);
    auto orders = JsonSource::FromFile(OrdersFile(n));
    ASSERT_TRUE(orders);
    auto batch = PlayLoggedTurn(batch_log, *orders);
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
  auto undone = session->Undo();
  ASSERT_TRUE(undone) << undone.error().to_string();
  EXPECT_EQ(session->turn().hash(), hash_after_two);
  EXPECT_EQ(*PendingSteps(log), 2u);
  auto again = StepSession::Open(log);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->turn().hash(), hash_after_two);
  // An orders file is refused while a player-turn is in play (B1.3).
  auto orders = JsonSource::FromFile(OrdersFile(0));
  ASSERT_TRUE(orders);
  auto batch = PlayLoggedTurn(log, *orders);
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
  EXPECT_EQ(*PendingSteps(log), 1u);
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
  EXPECT_EQ(*PendingSteps(log), 0u);
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

}  // namespace
}  // namespace opsim::db
