// Logged games (issue 4, "Done when"): a multi-turn game replays to identical hashes in this
// process and in a new one; one changed die roll fails --verify at that roll; a writer killed
// mid-turn leaves a log that passes integrity_check and replays; a branch from turn T
// reproduces turns up to T; bad files and bad orders are refused and nothing logged is lost;
// snapshots this build cannot read are replayed around.
#include "opsim/db/game_log.h"
#include "opsim/query/play.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>

#include "db_test_util.h"
#include "opsim/db/snapshot.h"
#include "opsim/ops/orders.h"
#include "test_support.h"

namespace opsim {
namespace {

using test::DumpLog;
using test::RunCli;
using test::SqlValue;

// A game of the bundled campaign in a fresh log.
class LoggedGameTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.Path("game.sqlite");
    auto src = JsonSource::FromFile(test::BundledPath("special-terrain"));
    ASSERT_TRUE(src) << src.error().to_string();
    auto game = db::NewLoggedGame(path_, *src, 1);
    ASSERT_TRUE(game) << game.error().to_string();
    theater_ = game->theater;
    campaign_ = game->campaign;
    plain_.emplace(theater_, campaign_);
    hashes_.push_back(ops::StateHash(game->state));
  }

  // The phasing side's orders with nothing in them: the weather and supply still happen.
  JsonSource QuietOrders(const ops::GameState& s) const {
    ops::Orders o;
    o.side = s.phasing();
    o.turn = s.date();
    return *JsonSource::FromText(ops::OrdersToJson(o, *theater_), "quiet.json");
  }
  JsonSource QuietOrders() const { return QuietOrders(plain_->state()); }

  // Plays `orders` into the log, and into a game kept without a log, and checks they agree.
  void Play(const JsonSource& orders) {
    auto logged = query::PlayTurn(path_, orders);
    ASSERT_TRUE(logged) << logged.error().to_string();
    auto parsed = ops::ParseOrders(orders, *theater_);
    ASSERT_TRUE(parsed);
    auto plain = plain_->Play(*parsed);
    ASSERT_TRUE(plain) << plain.error().to_string();
    EXPECT_EQ(logged->final_hash, plain->final_hash);
    EXPECT_EQ(logged->final_hash, plain_->hash());
    hashes_.push_back(logged->final_hash);
  }

  // The bundled player-turns that play at seed 1, then quiet ones, to `turns` in all.
  void PlayGame(int turns) {
    for (const char* f : {"01-axis-may-i-1940.json", "02-allied-may-i-1940.json"}) {
      if (static_cast<int>(hashes_.size()) > turns) return;
      auto src = JsonSource::FromFile(test::BundledOrders(f));
      ASSERT_TRUE(src) << src.error().to_string();
      ASSERT_NO_FATAL_FAILURE(Play(*src));
    }
    while (static_cast<int>(hashes_.size()) <= turns) ASSERT_NO_FATAL_FAILURE(Play(QuietOrders()));
  }

  // The log written afresh to `to` through the log's own API, with each player-turn and snapshot
  // edited on the way: what someone who rebuilds the whole chain can make.
  void Rewrite(const std::string& to, const std::function<void(db::LoggedTurn&)>& edit_turn,
               const std::function<void(db::Snapshot&)>& edit_snapshot) {
    auto log = db::TurnLog::Open(path_, db::TurnLog::Access::kRead);
    ASSERT_TRUE(log) << log.error().to_string();
    auto start = log->ReadSnapshot(0);
    ASSERT_TRUE(start);
    edit_snapshot(*start);
    auto out = db::TurnLog::Create(to, log->game(), *start);
    ASSERT_TRUE(out) << out.error().to_string();
    auto tx = out->Begin();
    ASSERT_TRUE(tx);
    for (int n = 1; n <= log->CountTurns().value_or(0); ++n) {
      auto turn = log->ReadTurn(n);
      auto snap = log->ReadSnapshot(n);
      ASSERT_TRUE(turn && snap);
      edit_turn(*turn);
      edit_snapshot(*snap);
      ASSERT_TRUE(out->AppendTurn(*turn, *snap));
    }
    ASSERT_TRUE(tx->Commit());
    ASSERT_TRUE(out->Publish());
  }

  test::TempDir dir_;
  std::string path_;
  std::shared_ptr<const map::Theater> theater_;
  std::shared_ptr<const ops::Campaign> campaign_;
  std::optional<ops::Game> plain_;   // the same game, played without a log
  std::vector<std::string> hashes_;  // the state hash after 0, 1, 2... player-turns
};

TEST_F(LoggedGameTest, AMultiTurnGameReplaysToIdenticalHashesInThisProcess) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(8));
  db::ReplayOptions options;
  options.verify = true;
  std::vector<std::int64_t> progress;
  options.progress = [&](std::int64_t done, std::int64_t total) {
    EXPECT_EQ(total, 8);
    progress.push_back(done);
  };
  auto r = db::ReplayLog(path_, options);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->game.turns_played, 8);
  EXPECT_EQ(ops::StateHash(r->game.state), hashes_[8]);
  EXPECT_GE(r->rolls, 4 * 6) << "a weather roll per zone each game turn at least";
  EXPECT_GT(r->events, 0);
  EXPECT_EQ(r->hashes, 1 + 8 * 5) << "the start, then four phases and the end of each turn";
  EXPECT_EQ(r->snapshots_loaded, 9);
  EXPECT_EQ(r->snapshots_unreadable, 0);
  ASSERT_TRUE(r->chain);
  EXPECT_EQ(r->chain->turns, 8);
  EXPECT_EQ(progress, (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));

  // Every turn boundary, from its snapshot and by replay from the start.
  for (std::int32_t at = 0; at <= 8; ++at) {
    auto g = db::LoadLoggedGame(path_, at);
    ASSERT_TRUE(g) << g.error().to_string();
    EXPECT_EQ(g->turns_played, at);
    EXPECT_EQ(ops::StateHash(g->state), hashes_[at]) << "at " << at;
    db::ReplayOptions to;
    to.to = at;
    auto upto = db::ReplayLog(path_, to);
    ASSERT_TRUE(upto) << upto.error().to_string();
    EXPECT_EQ(ops::StateHash(upto->game.state), hashes_[at]) << "at " << at;
  }
  auto beyond = db::LoadLoggedGame(path_, 9);
  ASSERT_FALSE(beyond);
  EXPECT_EQ(beyond.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(beyond.error().message.find("the log holds 8 player-turns (0 to 8)"),
            std::string::npos);
}

TEST_F(LoggedGameTest, AMultiTurnGameReplaysToIdenticalHashesInANewProcess) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(6));
  const test::ProcessRun r = test::RunOpsim({"replay", "--db", path_, "--verify", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "") << "quiet when stderr is not a terminal";
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["turns"], 6);
  EXPECT_EQ(j["state_hash"], hashes_[6]);
  EXPECT_EQ(j["verified"], true);
  EXPECT_EQ(j["snapshots"]["loaded"], 7);
  for (int at : {0, 3, 5}) {
    const test::ProcessRun s =
        test::RunOpsim({"status", "--db", path_, "--at", std::to_string(at), "--json"});
    ASSERT_EQ(s.code, 0) << s.err;
    EXPECT_EQ(nlohmann::json::parse(s.out)["state_hash"], hashes_[at]) << "at " << at;
  }
}

TEST_F(LoggedGameTest, ALongReplayShowsProgressOnATerminalOnly) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(4));
  const test::ProcessRun tty = test::RunOpsim({"replay", "--db", path_}, /*tty=*/true);
  ASSERT_EQ(tty.code, 0) << tty.err;
  EXPECT_NE(tty.err.find("replaying player-turn 4 of 4"), std::string::npos) << tty.err;
  const test::ProcessRun pipe = test::RunOpsim({"replay", "--db", path_});
  ASSERT_EQ(pipe.code, 0) << pipe.err;
  EXPECT_EQ(pipe.err, "");
  EXPECT_EQ(pipe.out, tty.out);
}

// The first die roll of player-turn `turn` in the log: its seq, n and value.
struct RollRow {
  std::string seq, n, value, purpose;
};
RollRow FirstRoll(const std::string& path, int turn) {
  const std::string where = " FROM roll WHERE turn = " + std::to_string(turn) + " ORDER BY seq";
  return {SqlValue(path, "SELECT seq" + where), SqlValue(path, "SELECT n" + where),
          SqlValue(path, "SELECT value" + where), SqlValue(path, "SELECT purpose" + where)};
}

TEST_F(LoggedGameTest, ChangingOneLoggedDieRollFailsVerifyAtThatRoll) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(5));
  const RollRow roll = FirstRoll(path_, 3);
  ASSERT_FALSE(roll.seq.empty());
  const int changed = std::stoi(roll.value) % 6 + 1;
  ASSERT_EQ(test::Sql(path_, "UPDATE roll SET value = " + std::to_string(changed) +
                                 " WHERE seq = " + roll.seq),
            "");
  const auto r = RunCli({"replay", "--db", path_, "--verify"});
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(
      r.err.find("row seq " + roll.seq + ": die roll " + std::to_string(std::stoi(roll.n) + 1) +
                 " of player-turn 3 ('" + roll.purpose + "')"),
      std::string::npos)
      << r.err;
  const auto j = RunCli({"replay", "--db", path_, "--verify", "--json"}).json();
  EXPECT_EQ(j["error"]["code"], ErrorCodeName(ErrorCode::kCorruption));
}

// A logged row rewritten to hold a number no double holds, or a unit named twice, is a
// tampered log for every reader: an answer (exit 4), never an abort.
TEST_F(LoggedGameTest, RewrittenOrdersRowIsRefusedNotAborted) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(2));
  for (const std::string& edit :
       {std::string(R"(replace(orders, '"version":1', '"version":1,"dice":[1e400]'))"),
        std::string(R"(replace(orders, '["de-18a","de-9pz"]', '["de-18a","de-18a"]'))")}) {
    test::TempDir copy;
    const std::string path = copy.Path("game.sqlite");
    std::filesystem::copy_file(path_, path);
    const std::string seq = SqlValue(path, "SELECT min(seq) FROM turn");
    const std::string orders = "SELECT orders FROM turn WHERE seq = " + seq;
    ASSERT_EQ(test::Sql(path, "UPDATE turn SET orders = " + edit + " WHERE seq = " + seq), "");
    ASSERT_NE(SqlValue(path, orders), SqlValue(path_, orders)) << edit;
    const auto r = RunCli({"replay", "--db", path, "--verify"});
    EXPECT_EQ(r.code, 4) << edit << "\n" << r.err;
    EXPECT_NE(r.err.find("row seq " + seq), std::string::npos) << r.err;
  }
}

// A forger who rewrites the whole chain after changing a roll: the chain holds, the replay
// does not.
TEST_F(LoggedGameTest, AForgedRollWithARebuiltChainFailsTheReplayAtThatRoll) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(5));
  const std::string forged = dir_.Path("forged.sqlite");
  ASSERT_NO_FATAL_FAILURE(Rewrite(
      forged,
      [](db::LoggedTurn& t) {
        if (t.number == 3) t.rolls[0].value = t.rolls[0].value % 6 + 1;
      },
      [](db::Snapshot&) {}));
  auto log = db::TurnLog::Open(forged, db::TurnLog::Access::kRead);
  ASSERT_TRUE(log);
  EXPECT_TRUE(log->VerifyChain()) << "the forger rebuilt the chain";
  const RollRow roll = FirstRoll(forged, 3);
  const auto r = RunCli({"replay", "--db", forged, "--verify"});
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(
      r.err.find("player-turn 3 (" + SqlValue(forged, "SELECT side FROM turn WHERE number = 3") +
                 ", " + SqlValue(forged, "SELECT date FROM turn WHERE number = 3") +
                 "): die roll 1 ('" + roll.purpose + "'): the log says " + roll.value),
      std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("the replay rolled"), std::string::npos) << r.err;
}

TEST_F(LoggedGameTest, AWriterKilledMidTurnLeavesALogThatPassesIntegrityCheckAndReplays) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(3));
  const std::string before = DumpLog(path_);
  const JsonSource next = QuietOrders();
  {
    test::Child writer(
        [&](const std::function<void()>& ready) { (void)query::PlayTurn(path_, next, ready); });
    ASSERT_TRUE(writer.ready()) << "the child did not reach the end of its transaction";
    const int status = writer.Kill();
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  }
  EXPECT_EQ(SqlValue(path_, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(DumpLog(path_), before);
  db::ReplayOptions options;
  options.verify = true;
  auto r = db::ReplayLog(path_, options);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->game.turns_played, 3);
  EXPECT_EQ(ops::StateHash(r->game.state), hashes_[3]);
  // The interrupted player-turn is played again, and comes out as it would have.
  ASSERT_NO_FATAL_FAILURE(Play(next));
  EXPECT_TRUE(db::ReplayLog(path_, options));
}

TEST_F(LoggedGameTest, ABranchFromTurnTReproducesTurnsUpToT) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(6));
  const std::string what_if = dir_.Path("what-if.sqlite");
  const auto r = RunCli({"branch", "--db", path_, "--at", "3", "--out", what_if, "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["state_hash"], hashes_[3]);

  // Row for row, the branch's chain is the source's up to the end of player-turn 3.
  const std::string last = SqlValue(path_, "SELECT seq FROM snapshot WHERE turn = 3");
  const std::string rows =
      "SELECT group_concat(seq || ':' || hash, ',') FROM (SELECT seq, hash "
      "FROM chain WHERE seq <= " +
      last + " ORDER BY seq)";
  EXPECT_EQ(SqlValue(what_if, rows), SqlValue(path_, rows));
  EXPECT_EQ(SqlValue(what_if, "SELECT count(*) FROM chain"), last);
  EXPECT_EQ(SqlValue(what_if, "SELECT value FROM meta WHERE key = 'branched_at'"), "3");

  for (std::int32_t at = 0; at <= 3; ++at) {
    auto g = db::LoadLoggedGame(what_if, at);
    ASSERT_TRUE(g) << g.error().to_string();
    EXPECT_EQ(ops::StateHash(g->state), hashes_[at]);
  }
  db::ReplayOptions verify;
  verify.verify = true;
  ASSERT_TRUE(db::ReplayLog(what_if, verify));

  // The branch goes its own way; the source is left as it was.
  const std::string source = DumpLog(path_);
  auto g = db::LoadLoggedGame(what_if, std::nullopt);
  ASSERT_TRUE(g);
  auto played = query::PlayTurn(what_if, QuietOrders(g->state));
  ASSERT_TRUE(played) << played.error().to_string();
  EXPECT_EQ(DumpLog(path_), source);
  auto branch = db::ReplayLog(what_if, verify);
  ASSERT_TRUE(branch) << branch.error().to_string();
  EXPECT_EQ(branch->game.turns_played, 4);

  // From the start, and past the end.
  const std::string zero = dir_.Path("zero.sqlite");
  ASSERT_EQ(RunCli({"branch", "--db", path_, "--at", "0", "--out", zero}).code, 0);
  EXPECT_EQ(ops::StateHash(db::LoadLoggedGame(zero, std::nullopt)->state), hashes_[0]);
  const auto past = RunCli({"branch", "--db", path_, "--at", "7", "--out", dir_.Path("x.sqlite")});
  EXPECT_EQ(past.code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir_.Path("x.sqlite")));
}

TEST_F(LoggedGameTest, OrdersForTheWrongSideOrTurnWriteNothing) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(2));
  const std::string before = DumpLog(path_);
  ops::GameState s = plain_->state();
  ops::Orders wrong_side;
  wrong_side.side = Enemy(s.phasing());
  wrong_side.turn = s.date();
  ops::Orders wrong_turn;
  wrong_turn.side = s.phasing();
  wrong_turn.turn = ops::AddTurns(s.date(), 1);
  for (const ops::Orders& o : {wrong_side, wrong_turn}) {
    auto src = JsonSource::FromText(ops::OrdersToJson(o, *theater_), "wrong.json");
    ASSERT_TRUE(src);
    auto r = query::PlayTurn(path_, *src);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput) << r.error().to_string();
    EXPECT_EQ(DumpLog(path_), before);
  }
  // Through the command line too: exit 2, and the log as it was.
  const std::string file = dir_.Path("wrong.json");
  test::WriteFile(file, ops::OrdersToJson(wrong_side, *theater_));
  const auto cli = RunCli({"turn", "--db", path_, "--orders", file});
  EXPECT_EQ(cli.code, 2) << cli.err;
  EXPECT_EQ(DumpLog(path_), before);
  ASSERT_NO_FATAL_FAILURE(Play(QuietOrders()));
}

TEST_F(LoggedGameTest, ABusyLogExits6AndLosesNothing) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(2));
  const std::string before = DumpLog(path_);
  const std::string orders = dir_.Path("quiet.json");
  test::WriteFile(orders, QuietOrders().text());
  ::setenv("OPSIM_DB_BUSY_TIMEOUT_MS", "100", 1);
  {
    test::Child holder([&](const std::function<void()>& ready) {
      auto log = db::TurnLog::Open(path_, db::TurnLog::Access::kWrite);
      if (!log) return;
      auto tx = log->Begin();
      if (tx) ready();
    });
    ASSERT_TRUE(holder.ready());
    const auto r = RunCli({"turn", "--db", path_, "--orders", orders});
    EXPECT_EQ(r.code, 6) << r.err;
    EXPECT_NE(r.err.find("locked by another process"), std::string::npos) << r.err;
    // Queries still read it.
    EXPECT_EQ(RunCli({"status", "--db", path_}).code, 0);
  }
  ::unsetenv("OPSIM_DB_BUSY_TIMEOUT_MS");
  EXPECT_EQ(DumpLog(path_), before);
  EXPECT_EQ(RunCli({"turn", "--db", path_, "--orders", orders}).code, 0);
}

// In a child: the log copied onto a tmpfs with room for it and its WAL index but not for a
// player-turn, in a mount namespace of its own. Where mounting is not permitted, the child's
// file size limit stands in for the full disk.
TEST_F(LoggedGameTest, AFullDiskExits5AndLosesNothing) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(2));
  const std::string orders = dir_.Path("quiet.json");
  test::WriteFile(orders, QuietOrders().text());
  const std::string disk = dir_.Path("disk");
  std::filesystem::create_directory(disk);
  const std::string said = test::InChild([&] {
    std::string log = path_;
    std::string why = "the file reached this process's size limit";
    const auto pages = std::filesystem::file_size(path_) / 4096 + 1 + 8 + 2;
    const std::string size = "size=" + std::to_string(pages * 4096);
    if (::unshare(CLONE_NEWNS) == 0 &&
        ::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
        ::mount("tmpfs", disk.c_str(), "tmpfs", 0, size.c_str()) == 0) {
      log = disk + "/game.sqlite";
      std::filesystem::copy_file(path_, log);
      why = "the disk is full";
    } else {
      ::signal(SIGXFSZ, SIG_IGN);
      const rlimit lim{32768, 32768};  // room for the WAL index, not for the turn in the WAL
      ::setrlimit(RLIMIT_FSIZE, &lim);
    }
    const std::string before = DumpLog(log);
    const auto r = RunCli({"turn", "--db", log, "--orders", orders});
    db::ReplayOptions verify;
    verify.verify = true;
    auto replay = db::ReplayLog(log, verify);
    return std::to_string(r.code) + "|" + (r.err.find(why) != std::string::npos ? "said" : r.err) +
           "|" + SqlValue(log, "PRAGMA integrity_check") + "|" +
           (DumpLog(log) == before ? "same" : "changed") + "|" +
           (replay ? std::to_string(replay->game.turns_played) : replay.error().to_string());
  });
  EXPECT_EQ(said, "5|said|ok|same|2");
}

TEST_F(LoggedGameTest, AReadOnlyLogExits7ButCanBeQueried) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(2));
  const std::string before = DumpLog(path_);
  const std::string orders = dir_.Path("quiet.json");
  test::WriteFile(orders, QuietOrders().text());
  test::MakeWorldWritable(dir_.dir());
  ::chmod(orders.c_str(), 0644);
  ASSERT_EQ(::chmod(path_.c_str(), 0444), 0);
  const std::string said = test::InChild([&] {
    if (!test::DropRoot()) return std::string("cannot drop root");
    const auto turn = RunCli({"turn", "--db", path_, "--orders", orders});
    const auto status = RunCli({"status", "--db", path_, "--at", "1", "--json"});
    return std::to_string(turn.code) + " " + std::to_string(status.code) + " " + turn.err;
  });
  EXPECT_EQ(said.substr(0, 4), "7 0 ") << said;
  EXPECT_NE(said.find("the log cannot be written"), std::string::npos) << said;
  EXPECT_EQ(DumpLog(path_), before);
}

// Issue 10, item 9: a log whose file and folder are read-only (an archived copy) could not be
// read: status, log, supply and replay --verify exited 7, as SQLite could not make the log's
// -shm beside it. Readers now read it, and write nothing there; `new` in such a folder exits 7
// (read-only), not 5. Run as a user other than root, to whom permission bits apply.
TEST_F(LoggedGameTest, ALogInAReadOnlyFolderIsReadByEveryReaderAndNewThereExits7) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(2));
  const std::string archive = dir_.Path("archive");
  ASSERT_TRUE(std::filesystem::create_directory(archive));
  const std::string log = archive + "/game.sqlite";
  std::filesystem::copy_file(path_, log);
  test::MakeWorldWritable(dir_.dir());
  ASSERT_EQ(::chmod(log.c_str(), 0444), 0);
  ASSERT_EQ(::chmod(archive.c_str(), 0555), 0);
  const std::string said = test::InChild([&] {
    if (!test::DropRoot()) return std::string("cannot drop root");
    std::string out;
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"status", "--db", log},
             {"log", "--db", log, "--turn", "1"},
             {"supply", "--db", log, "--at", "1", "--side", "allied", "--all"},
             {"route", "--db", log, "--at", "1", "--mode", "naval", "--side", "allied", "--path",
              "16A:0827,16A:0826"},
             {"replay", "--db", log, "--verify"},
             {"branch", "--db", log, "--at", "1", "--out", dir_.Path("copy.sqlite")},
             {"new", "--scenario", "special-terrain", "--db", archive + "/new.sqlite", "--seed",
              "1"}}) {
      const auto r = RunCli(args);
      out += args[0] + " " + std::to_string(r.code) + (r.code == 0 ? "" : " " + r.err) + "\n";
    }
    return out;
  });
  EXPECT_NE(said.find("status 0\nlog 0\nsupply 0\nroute 0\nreplay 0\nbranch 0\nnew 7 "),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("its folder is read-only"), std::string::npos) << said;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(archive)) {
    files.push_back(e.path().filename().string());
  }
  EXPECT_EQ(files, std::vector<std::string>{"game.sqlite"});
  ASSERT_EQ(::chmod(archive.c_str(), 0755), 0);
  EXPECT_EQ(DumpLog(log), DumpLog(path_));
}

// Issue 10: a reader's read-only connection cannot remove the -wal and -shm files SQLite makes
// beside a log, so `branch` (and every reader) left an empty -wal and a -shm behind.
TEST_F(LoggedGameTest, BranchAndTheReadersLeaveNoWalOrShmFiles) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(2));
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"branch", "--db", path_, "--at", "1", "--out", dir_.Path("what-if.sqlite")},
           {"status", "--db", path_},
           {"log", "--db", path_},
           {"replay", "--db", path_, "--verify"},
           {"status", "--db", dir_.Path("what-if.sqlite")}}) {
    ASSERT_EQ(RunCli(args).code, 0) << args[0];
  }
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir_.dir())) {
    files.push_back(e.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"game.sqlite", "what-if.sqlite"}));
}

// Issue 10, item 11: the last snapshot swapped for an older one, its row's hash and the head
// rewritten to match. `status` reported the older state as current, and `turn --db` appended a
// player-turn whose serial went backwards. The tail check (the last snapshot names the state
// the last player-turn ended in) refuses the log, and nothing is appended.
TEST_F(LoggedGameTest, ALastSnapshotSwappedForAnOlderOneIsRefusedByStatusAndTurn) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(3));
  db::Snapshot older;
  {
    auto log = db::TurnLog::Open(path_, db::TurnLog::Access::kRead);
    ASSERT_TRUE(log);
    auto snap = log->ReadSnapshot(1);
    ASSERT_TRUE(snap);
    older = *snap;
  }
  const std::string swapped = dir_.Path("swapped.sqlite");
  ASSERT_NO_FATAL_FAILURE(Rewrite(
      swapped, [](db::LoggedTurn&) {},
      [&](db::Snapshot& s) {
        if (s.turn != 3) return;
        s.format = older.format;
        s.state_hash = older.state_hash;
        s.data = older.data;
      }));
  const std::string seq = SqlValue(swapped, "SELECT seq FROM snapshot WHERE turn = 3");
  const std::string orders = dir_.Path("quiet.json");
  test::WriteFile(orders, QuietOrders().text());
  const std::string before = DumpLog(swapped);
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"status", "--db", swapped},
                                             {"log", "--db", swapped},
                                             {"turn", "--db", swapped, "--orders", orders}}) {
    const auto r = RunCli(args);
    EXPECT_EQ(r.code, 4) << args[0] << ": " << r.out;
    EXPECT_NE(r.err.find("row seq " + seq), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the snapshot after player-turn 3: it names state " + hashes_[1] +
                         ", but player-turn 3 ("),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("ended in state " + hashes_[3]), std::string::npos) << r.err;
  }
  EXPECT_NE(RunCli({"turn", "--db", swapped, "--orders", orders})
                .err.find("nothing was logged: run `opsim replay --verify`"),
            std::string::npos);
  EXPECT_EQ(DumpLog(swapped), before);
}

// Issue 10, item 10: the last snapshot rewritten (its digest and row hash too) so that its hex
// owner runs add up to 3,000,000,000 hexes: `status` used 8.8 GB for 24 s. Now it exits 4 at
// once, naming the snapshot and the length.
TEST_F(LoggedGameTest, ASnapshotClaimingBillionsOfHexesIsRefusedBeforeAllocating) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(2));
  const std::uint64_t hexes = theater_->hex_count();
  const std::string forged = dir_.Path("forged.sqlite");
  bool found = false;
  ASSERT_NO_FATAL_FAILURE(Rewrite(
      forged, [](db::LoggedTurn&) {},
      [&](db::Snapshot& s) {
        if (s.turn != 2) return;
        // The hex array: its length, its run count k, k values, k lengths (4 bytes each).
        const std::size_t at = s.data.find(std::string(reinterpret_cast<const char*>(&hexes), 8));
        if (at == std::string::npos) return;
        std::uint64_t k = 0;
        std::memcpy(&k, s.data.data() + at + 8, 8);
        const std::size_t first = at + 8 + 8 + k + 8;
        std::uint32_t run = 0;
        std::memcpy(&run, s.data.data() + first, 4);
        const std::uint64_t claimed = 3'000'000'000;
        run += static_cast<std::uint32_t>(claimed - hexes);
        std::memcpy(s.data.data() + at, &claimed, 8);
        std::memcpy(s.data.data() + first, &run, 4);
        found = true;
      }));
  ASSERT_TRUE(found);
  const auto r = RunCli({"status", "--db", forged});
  EXPECT_EQ(r.code, 4) << r.out;
  EXPECT_NE(r.err.find("the snapshot after 2 player-turns does not read"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("the hex owner array ('control') claims 3000000000 entries; the theater "
                       "holds " +
                       std::to_string(hexes)),
            std::string::npos)
      << r.err;
}

TEST_F(LoggedGameTest, FilesThatAreNotLogsOrAreFromANewerSchemaAreRefusedByEveryCommand) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(1));
  const std::string text = dir_.Path("notes.sqlite");
  test::WriteFile(text, "Dear diary, today I did not write an SQLite file.\n");
  const std::string newer = dir_.Path("newer.sqlite");
  std::filesystem::copy_file(path_, newer);
  ASSERT_EQ(test::Sql(newer, "PRAGMA user_version = 9"), "");
  const std::string orders = dir_.Path("quiet.json");
  test::WriteFile(orders, QuietOrders().text());
  for (const auto& [file, code] : {std::pair<std::string, int>{text, 4}, {newer, 8}}) {
    const std::string before = test::ReadFile(file);
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"status", "--db", file},
             {"log", "--db", file},
             {"replay", "--db", file, "--verify"},
             {"branch", "--db", file, "--at", "0", "--out", dir_.Path("b.sqlite")},
             {"turn", "--db", file, "--orders", orders}}) {
      const auto r = RunCli(args);
      EXPECT_EQ(r.code, code) << args[0] << " " << file << ": " << r.err;
      EXPECT_NE(r.err.find(code == 4 ? "not an opsim turn log" : "newer opsim"), std::string::npos)
          << r.err;
    }
    EXPECT_EQ(test::ReadFile(file), before);
  }
  EXPECT_FALSE(std::filesystem::exists(dir_.Path("b.sqlite")));
  const auto none = RunCli({"status", "--db", dir_.Path("none.sqlite")});
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("no such turn log"), std::string::npos);
}

TEST_F(LoggedGameTest, SnapshotsInAFormatThisBuildCannotReadAreReplayedAround) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(4));
  // The same log, as if every snapshot were written in a format before this build's oldest.
  const std::string old = dir_.Path("old.sqlite");
  ASSERT_NO_FATAL_FAILURE(Rewrite(
      old, [](db::LoggedTurn&) {},
      [](db::Snapshot& s) { s.format = db::kOldestSnapshotFormat - 1; }));
  const auto r = RunCli({"status", "--db", old, "--at", "3", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["state_hash"], hashes_[3]);
  EXPECT_NE(r.err.find("the snapshot after 3 player-turns cannot be read by this build (snapshot "
                       "format 0 is older than this build reads (formats 1 to 3))"),
            std::string::npos)
      << r.err;
  db::ReplayOptions verify;
  verify.verify = true;
  auto replay = db::ReplayLog(old, verify);
  ASSERT_TRUE(replay) << replay.error().to_string();
  EXPECT_EQ(replay->snapshots_unreadable, 5);
  EXPECT_EQ(replay->snapshots_loaded, 0);
}

TEST_F(LoggedGameTest, EveryCommandAnswersOneJsonObject) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(2));
  const auto status = RunCli({"status", "--db", path_, "--json"});
  ASSERT_EQ(status.code, 0) << status.err;
  const auto s = status.json();
  EXPECT_EQ(s["turns_played"], 2);
  EXPECT_EQ(s["next"]["phasing"], SideName(plain_->state().phasing()));
  EXPECT_EQ(s["next"]["date"], ops::FormatGameDate(plain_->state().date()));
  EXPECT_EQ(s["suez"], map::CanalStatusName(plain_->state().map.suez()));
  for (const char* key : {"floods", "ice_airfields", "srp", "exit_totals", "out_of_supply"}) {
    EXPECT_TRUE(s.contains(key)) << key;
  }
  EXPECT_EQ(s["srp"], nlohmann::json(plain_->state().srp));

  const auto log = RunCli({"log", "--db", path_, "--turn", "1", "--json"});
  ASSERT_EQ(log.code, 0) << log.err;
  const auto l = log.json();
  ASSERT_EQ(l["turns"].size(), 1u);
  const auto& t = l["turns"][0];
  EXPECT_EQ(t["number"], 1);
  EXPECT_EQ(t["orders"]["side"], "axis");
  EXPECT_EQ(t["rolls"].size(),
            std::stoul(SqlValue(path_, "SELECT count(*) FROM roll WHERE turn = 1")));
  EXPECT_EQ(t["final_hash"], hashes_[1]);
  const auto text = RunCli({"log", "--db", path_});
  ASSERT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("player-turn 2: "), std::string::npos);
  const std::string purpose = SqlValue(path_, "SELECT purpose FROM roll WHERE turn = 1");
  EXPECT_NE(text.out.find("1. " + purpose + ": rolled "), std::string::npos) << text.out;

  const auto fresh = RunCli({"new", "--scenario", "special-terrain", "--db",
                             dir_.Path("fresh.sqlite"), "--seed", "99", "--json"});
  ASSERT_EQ(fresh.code, 0) << fresh.err;
  EXPECT_EQ(fresh.json()["seed"], 99);
  EXPECT_EQ(SqlValue(dir_.Path("fresh.sqlite"), "SELECT seed FROM game"), "99");

  for (const char* cmd : {"new", "status", "log", "replay", "branch"}) {
    const auto help = RunCli({cmd, "--help"});
    EXPECT_EQ(help.code, 0) << cmd;
    EXPECT_NE(help.out.find("--db"), std::string::npos) << cmd << ": " << help.out;
  }
}

// Issue 22: `opsim turn --json` gave each event its kind, rule and text only, `opsim log --json`
// also its content as data (units, hexes, numbers: docs/rules.md). One encoder now: the same
// player-turn's events are the same in both answers, played from a state file or from the log.
TEST_F(LoggedGameTest, TurnAndLogGiveAPlayerTurnsEventsAlike) {
  const std::string orders = test::BundledOrders("01-axis-may-i-1940.json");
  const auto played = RunCli({"turn", "--db", path_, "--orders", orders, "--json"});
  ASSERT_EQ(played.code, 0) << played.err;
  const auto solo = RunCli({"turn", "--scenario", "special-terrain", "--seed", "1", "--orders",
                            orders, "--out", dir_.Path("t1.json"), "--json"});
  ASSERT_EQ(solo.code, 0) << solo.err;
  const auto log = RunCli({"log", "--db", path_, "--turn", "1", "--json"});
  ASSERT_EQ(log.code, 0) << log.err;
  const nlohmann::json events = log.json()["turns"][0]["events"];
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(played.json()["events"], events);
  EXPECT_EQ(solo.json()["events"], events);
  // Their content is there: a move names its units and hexes, a die roll its sides and face.
  const auto has = [&events](const char* kind, const char* key) {
    return std::any_of(events.begin(), events.end(), [&](const nlohmann::json& e) {
      return e["kind"] == kind && e.contains(key) && !e[key].empty();
    });
  };
  EXPECT_TRUE(has("move", "units")) << events.dump();
  EXPECT_TRUE(has("move", "hexes")) << events.dump();
  EXPECT_TRUE(has("die", "numbers")) << events.dump();
}

TEST_F(LoggedGameTest, NewRefusesAnExistingFileAndAnOutOfRangeSeed) {
  const std::string before = DumpLog(path_);
  const auto again = RunCli({"new", "--scenario", "special-terrain", "--db", path_});
  EXPECT_EQ(again.code, 2);
  EXPECT_NE(again.err.find("already exists"), std::string::npos) << again.err;
  EXPECT_EQ(DumpLog(path_), before);
  const auto seed = RunCli({"new", "--scenario", "special-terrain", "--db", dir_.Path("s.sqlite"),
                            "--seed", "9223372036854775808"});
  EXPECT_EQ(seed.code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir_.Path("s.sqlite")));
}

// Replay across rules versions (docs/log-format.md, "What replay checks"): the log as a build of
// an older rules version wrote it, its chain rebuilt the way that build wrote it. Every event of
// player-turn 1 has other content, player-turn 2 has an event this build does not make and a die
// roll worded otherwise, player-turn 3 lacks its last event, player-turn 4 words an event
// otherwise: all reported, none fatal.
TEST_F(LoggedGameTest, AnOlderRulesVersionsEventsAndWordingAreReportedNotFatal) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(4));
  const std::string old = dir_.Path("old-rules.sqlite");
  std::size_t turn1_events = 0;
  ASSERT_NO_FATAL_FAILURE(Rewrite(
      old,
      [&](db::LoggedTurn& t) {
        t.rules_version = ops::kRulesVersion - 1;
        ASSERT_FALSE(t.events.empty()) << "player-turn " << t.number;
        if (t.number == 1) {
          for (db::LoggedEvent& e : t.events) e.numbers.push_back(99);
          turn1_events = t.events.size();
        } else if (t.number == 2) {
          t.events.insert(
              t.events.begin(),
              db::LoggedEvent{"retired", "B1.1", "an event no longer made", {}, {}, {}});
          ASSERT_FALSE(t.rolls.empty());
          t.rolls[0].purpose += ", as it was worded";
        } else if (t.number == 3) {
          t.events.pop_back();
        } else {
          t.events[0].text += ", as it was worded";
        }
      },
      [](db::Snapshot&) {}));
  db::ReplayOptions verify;
  verify.verify = true;
  auto r = db::ReplayLog(old, verify);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(ops::StateHash(r->game.state), hashes_[4]);
  std::map<std::string, int> seen;  // "turn change" -> how many
  for (const db::ReplayDifference& d : r->differences) {
    ++seen[std::to_string(d.turn) + " " + d.change];
  }
  EXPECT_EQ(seen["1 content"], static_cast<int>(turn1_events));
  EXPECT_EQ(seen["2 missing"], 1);
  EXPECT_EQ(seen["2 wording"], 1) << "the die roll's purpose";
  EXPECT_EQ(seen["3 added"], 1);
  EXPECT_EQ(seen["4 wording"], 1);
  EXPECT_EQ(seen.size(), 5u);
  // Each names its logged row.
  const std::string first_event =
      SqlValue(old, "SELECT seq FROM event WHERE turn = 4 ORDER BY seq LIMIT 1");
  const auto wording = std::find_if(r->differences.begin(), r->differences.end(),
                                    [](const db::ReplayDifference& d) { return d.turn == 4; });
  ASSERT_NE(wording, r->differences.end());
  EXPECT_EQ(std::to_string(wording->seq), first_event);
  EXPECT_NE(wording->logged.find(", as it was worded"), std::string::npos) << wording->logged;

  // Through the command line: exit 0, the differences in the text and in --json.
  const auto text = RunCli({"replay", "--db", old, "--verify"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("player-turn 4, event 1 ("), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("(row seq " + first_event + "): wording"), std::string::npos) << text.out;
  const auto json = RunCli({"replay", "--db", old, "--verify", "--json"});
  ASSERT_EQ(json.code, 0) << json.err;
  const auto j = json.json();
  EXPECT_EQ(j["differences"].size(), r->differences.size());
  EXPECT_EQ(j["build_rules_version"], ops::kRulesVersion);
  // A branch of it is this build's log, and matches it.
  const std::string branch = dir_.Path("branch.sqlite");
  ASSERT_EQ(RunCli({"branch", "--db", old, "--at", "4", "--out", branch}).code, 0);
  auto again = db::ReplayLog(branch, verify);
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_TRUE(again->differences.empty());
  EXPECT_EQ(again->game.rules_version, ops::kRulesVersion);
}

// At this build's rules version an event's content must be the replay's; its text need not.
TEST_F(LoggedGameTest, AtTheSameRulesVersionAnEventsContentMustMatchButNotItsText) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(4));
  const std::string content = dir_.Path("content.sqlite");
  ASSERT_NO_FATAL_FAILURE(Rewrite(
      content,
      [](db::LoggedTurn& t) {
        if (t.number == 3) t.events[0].hexes.push_back("16A:0827");
      },
      [](db::Snapshot&) {}));
  const std::string seq =
      SqlValue(content, "SELECT seq FROM event WHERE turn = 3 ORDER BY seq LIMIT 1");
  const auto r = RunCli({"replay", "--db", content, "--verify"});
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.err.find("row seq " + seq + ": player-turn 3 ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("event 1 ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("16A:0827"), std::string::npos) << r.err;
  EXPECT_EQ(RunCli({"replay", "--db", content, "--json"}).json()["error"]["code"],
            ErrorCodeName(ErrorCode::kCorruption));
  // The same game, as --at and branch see it.
  EXPECT_EQ(RunCli({"status", "--db", content, "--at", "3"}).code, 0) << "from a snapshot";
  EXPECT_EQ(RunCli({"branch", "--db", content, "--at", "3", "--out", dir_.Path("b.sqlite")}).code,
            4);

  const std::string text = dir_.Path("text.sqlite");
  ASSERT_NO_FATAL_FAILURE(Rewrite(
      text,
      [](db::LoggedTurn& t) {
        if (t.number == 3) t.events[0].text = "reworded";
      },
      [](db::Snapshot&) {}));
  const auto ok = RunCli({"replay", "--db", text, "--verify", "--json"});
  ASSERT_EQ(ok.code, 0) << ok.err;
  const auto j = ok.json();
  ASSERT_EQ(j["differences"].size(), 1u);
  EXPECT_EQ(j["differences"][0]["change"], "wording");
  EXPECT_EQ(j["differences"][0]["seq"], std::stoll(seq));
  EXPECT_EQ(j["differences"][0]["logged"], "reworded");
}

// Whatever the rules version, a die, the orders or a state hash that differs is tampering.
TEST_F(LoggedGameTest, ADieOrdersOrStateHashThatDiffersFailsAtAnyRulesVersion) {
  ASSERT_NO_FATAL_FAILURE(PlayGame(4));
  const std::vector<std::pair<std::string, std::function<void(db::LoggedTurn&)>>> edits = {
      {"die", [](db::LoggedTurn& t) { t.rolls[0].value = t.rolls[0].value % 6 + 1; }},
      {"sides", [](db::LoggedTurn& t) { t.rolls[0].sides = 10; }},
      {"orders", [](db::LoggedTurn& t) { t.orders = "{}"; }},
      {"phase", [](db::LoggedTurn& t) { t.phases[1].state_hash = std::string(64, 'f'); }},
      {"final", [](db::LoggedTurn& t) { t.final_hash = std::string(64, 'f'); }},
  };
  for (const auto& [name, edit] : edits) {
    const std::string forged = dir_.Path(name + ".sqlite");
    ASSERT_NO_FATAL_FAILURE(Rewrite(
        forged,
        [&](db::LoggedTurn& t) {
          t.rules_version = ops::kRulesVersion - 1;
          if (t.number == 3) edit(t);
        },
        [](db::Snapshot&) {}));
    const auto r = RunCli({"replay", "--db", forged, "--verify", "--json"});
    EXPECT_EQ(r.code, 4) << name << ": " << r.out;
    const auto j = r.json();
    EXPECT_EQ(j["error"]["code"], ErrorCodeName(ErrorCode::kCorruption)) << name;
    EXPECT_NE(j["error"]["where"].get<std::string>().find("row seq "), std::string::npos) << name;
    EXPECT_NE(j["error"]["message"].get<std::string>().find("player-turn 3 ("), std::string::npos)
        << name << ": " << j["error"]["message"];
  }
}

// tests/db/fixtures: logs written by earlier builds, in every schema, keep verifying; a schema-1
// log reads as rules version 1 and the schema-2 fixture as the rules version 2 it was written
// at; a schema-1 log takes a new player-turn (in schema 1), and verifies after it.
TEST_F(LoggedGameTest, EveryFixtureLogVerifiesAndASchema1LogTakesANewTurn) {
  for (const char* name :
       {"log-schema1.sqlite", "log-schema1-bundled.sqlite", "log-schema2.sqlite"}) {
    const std::string copy = dir_.Path(name);
    std::filesystem::copy_file(std::string(OPSIM_DB_FIXTURES) + "/" + name, copy);
    const auto r = RunCli({"replay", "--db", copy, "--verify", "--json"});
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    const int schema = std::stoi(SqlValue(copy, "PRAGMA user_version"));
    EXPECT_EQ(r.json()["rules_version"], schema == 1 ? 1 : 2) << name;
    EXPECT_EQ(r.json()["build_rules_version"], ops::kRulesVersion) << name;
  }
  const std::string old = dir_.Path("log-schema1.sqlite");
  const auto status = RunCli({"status", "--db", old});
  ASSERT_EQ(status.code, 0) << status.err;
  EXPECT_NE(status.out.find("rules version 1 (this build plays " +
                            std::to_string(ops::kRulesVersion) + ")"),
            std::string::npos)
      << status.out;
  EXPECT_EQ(RunCli({"status", "--db", old, "--json"}).json()["rules_version"], 1);

  auto g = db::LoadLoggedGame(old, std::nullopt);
  ASSERT_TRUE(g) << g.error().to_string();
  ops::Orders quiet;
  quiet.side = g->state.phasing();
  quiet.turn = g->state.date();
  const std::string orders = dir_.Path("quiet.json");
  test::WriteFile(orders, ops::OrdersToJson(quiet, *g->theater));
  const auto turn = RunCli({"turn", "--db", old, "--orders", orders});
  ASSERT_EQ(turn.code, 0) << turn.err;
  EXPECT_EQ(SqlValue(old, "PRAGMA user_version"), "1");
  db::ReplayOptions verify;
  verify.verify = true;
  auto r = db::ReplayLog(old, verify);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->game.turns_played, g->turns_played + 1);
  EXPECT_EQ(r->game.rules_version, 1);
  EXPECT_EQ(RunCli({"replay", "--db", old, "--verify"}).code, 0);
}

// Replay checked fair player-turn n's keys by hashing each n times down to its commitment: 8.4
// million hashes for a game of 4,096 player-turns. Checked in order, each key is hashed down to
// the one before it. The answers are KeyMatches': a key of another player-turn, of another chain,
// or the other player's is refused, with the same message, and what follows still checks.
TEST(FairDiceFor, KeysCheckedInOrderGiveTheSameAnswersOverAWholeChain) {
  Key axis{}, allied{};
  axis.fill(3);
  allied.fill(4);
  db::GameRecord game;
  game.dice = db::DiceKind::kFair;
  game.game_id = "g";
  game.axis_commitment = KeyHex(ChainKey(axis, 0));
  game.allied_commitment = KeyHex(ChainKey(allied, 0));
  auto turn = [&](const Key& a, const Key& b) {
    return db::FairTurn{KeyHex(a), KeyHex(b), "o", "r"};
  };
  // Both keys from the top of each chain down, as replay sees them from the first player-turn up.
  std::vector<Key> axis_keys(kKeyChainLength + 1), allied_keys(kKeyChainLength + 1);
  axis_keys[kKeyChainLength] = axis;
  allied_keys[kKeyChainLength] = allied;
  for (int i = kKeyChainLength; i > 0; --i) {
    axis_keys[i - 1] = ChainKey(axis_keys[i], kKeyChainLength - 1);
    allied_keys[i - 1] = ChainKey(allied_keys[i], kKeyChainLength - 1);
  }
  ASSERT_EQ(KeyHex(axis_keys[0]), game.axis_commitment);
  db::CheckedKeys checked;
  const std::map<int, std::pair<Key, Key>> wrong = {
      {1, {axis_keys[2], allied_keys[1]}},        // a key of a later player-turn
      {7, {axis_keys[7], allied_keys[6]}},        // one of an earlier player-turn
      {100, {allied_keys[100], axis_keys[100]}},  // each the other player's
      {kKeyChainLength, {axis_keys[kKeyChainLength], ChainKey(axis, 0)}}};
  for (int n = 1; n <= kKeyChainLength; ++n) {
    if (auto w = wrong.find(n); w != wrong.end()) {
      const db::FairTurn bad = turn(w->second.first, w->second.second);
      auto once = db::FairDiceFor(game, n, bad);
      auto in_order = db::FairDiceFor(game, n, bad, &checked);
      ASSERT_FALSE(once) << n;
      ASSERT_FALSE(in_order) << n;
      EXPECT_EQ(in_order.error().code, ErrorCode::kCorruption);
      EXPECT_EQ(in_order.error().message, once.error().message) << n;
    }
    auto dice = db::FairDiceFor(game, n, turn(axis_keys[n], allied_keys[n]), &checked);
    ASSERT_TRUE(dice) << n << ": " << dice.error().message;
    if (n % 512 == 1) {  // each alone costs n hashes: a few suffice
      auto alone = db::FairDiceFor(game, n, turn(axis_keys[n], allied_keys[n]));
      ASSERT_TRUE(alone);
      EXPECT_EQ(dice->Next(), alone->Next()) << n;
    }
  }
  // Back to an earlier player-turn (a branch replayed again): checked from the commitment.
  EXPECT_TRUE(db::FairDiceFor(game, 5, turn(axis_keys[5], allied_keys[5]), &checked));
  EXPECT_FALSE(db::FairDiceFor(game, 5, turn(axis_keys[4], allied_keys[5]), &checked));
  EXPECT_FALSE(db::FairDiceFor(game, kKeyChainLength + 1, turn(axis, allied), &checked));
}

}  // namespace
}  // namespace opsim

namespace opsim {
namespace {

// A process that loads one game again and again (the server, at every write) builds its
// scenario's theater and campaign once: every load of a log, and every log of the same scenario
// text, name and seed, shares them (db::BuildRules); another seed builds its own.
TEST(LoggedRules, ALogLoadedAgainSharesTheRulesBuiltFromItsScenario) {
  test::TempDir dir;
  auto src = JsonSource::FromFile(test::BundledPath("special-terrain"));
  ASSERT_TRUE(src);
  const std::string a = dir.Path("a.sqlite"), b = dir.Path("b.sqlite"), c = dir.Path("c.sqlite");
  ASSERT_TRUE(db::NewLoggedGame(a, *src, 7));
  ASSERT_TRUE(db::NewLoggedGame(b, *src, 7));
  ASSERT_TRUE(db::NewLoggedGame(c, *src, 8));
  auto first = db::LoadLoggedGame(a, std::nullopt);
  auto again = db::LoadLoggedGame(a, std::nullopt);
  auto other_log = db::LoadLoggedGame(b, std::nullopt);
  auto other_seed = db::LoadLoggedGame(c, std::nullopt);
  ASSERT_TRUE(first && again && other_log && other_seed);
  EXPECT_EQ(first->theater.get(), again->theater.get());
  EXPECT_EQ(first->campaign.get(), again->campaign.get());
  EXPECT_EQ(first->theater.get(), other_log->theater.get());
  EXPECT_NE(first->campaign.get(), other_seed->campaign.get());
  EXPECT_EQ(ops::StateHash(first->state), ops::StateHash(again->state));
}

}  // namespace
}  // namespace opsim
