// The turn-log file (issue 4, "Integrity and durability"), without the rules: what a new log
// looks like to the sqlite3 shell, the hash chain against edited, deleted, reordered and
// truncated rows, files it must refuse, and a busy, full, read-only or killed writer.
#include "opsim/db/turn_log.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <future>
#include <nlohmann/json.hpp>
#include <optional>

#include "db_test_util.h"
#include "opsim/core/sha256.h"
#include "opsim/db/snapshot.h"
#include "test_support.h"

namespace opsim {
namespace {

using db::TurnLog;
using test::Sql;
using test::SqlValue;

db::GameRecord Record() {
  db::GameRecord g;
  g.scenario_name = "tiny.json";
  g.scenario = R"({"opsim":"scenario","name":"tiny"})";
  g.seed = 7;
  g.start_hash = std::string(64, 'a');
  return g;
}

db::Snapshot SnapshotAfter(std::int32_t turn, std::size_t padding = 0) {
  ops::GameState s = test::HandBuiltState(nullptr);
  s.player_turn = turn;
  s.map.AddMarker(map::HexRef{9}, std::string(padding, 'x'));
  return db::Snapshot{turn, db::kSnapshotFormat, std::string(64, 'b'), db::SaveSnapshot(s)};
}

// A published log with `turns` player-turns of 2 rolls and 3 events each.
void MakeLog(const std::string& path, int turns) {
  auto log = TurnLog::Create(path, Record(), SnapshotAfter(0));
  ASSERT_TRUE(log) << log.error().to_string();
  ASSERT_TRUE(log->Publish());
  auto w = TurnLog::Open(path, TurnLog::Access::kWrite);
  ASSERT_TRUE(w) << w.error().to_string();
  for (int n = 1; n <= turns; ++n) {
    auto tx = w->Begin();
    ASSERT_TRUE(tx) << tx.error().to_string();
    ASSERT_TRUE(w->AppendTurn(test::HandBuiltTurn(n, 2, 3), SnapshotAfter(n)));
    ASSERT_TRUE(tx->Commit());
  }
}

// Rows per hand-built turn: header, 2 rolls, 3 events, 4 phase hashes, a snapshot.
constexpr int kRowsPerTurn = 11;

Result<db::ChainReport> Verify(const std::string& path) {
  auto log = TurnLog::Open(path, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  return log->VerifyChain();
}

void ExpectCorrupt(const Result<db::ChainReport>& r, const std::string& what,
                   const std::string& where) {
  ASSERT_FALSE(r) << "the chain check passed";
  EXPECT_EQ(r.error().code, ErrorCode::kCorruption);
  EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().to_string();
  EXPECT_NE(r.error().where.find(where), std::string::npos) << r.error().to_string();
}

TEST(TurnLog, ANewLogIsAnSqliteFileInWalModeThatNamesItself) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 0);
  EXPECT_EQ(SqlValue(path, "PRAGMA application_id"), std::to_string(db::kLogApplicationId));
  EXPECT_EQ(SqlValue(path, "PRAGMA user_version"), "2");
  EXPECT_EQ(SqlValue(path, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(SqlValue(path, "PRAGMA page_size"), "16384");  // docs/log-format.md, Durability
  EXPECT_EQ(SqlValue(path, "SELECT value FROM meta WHERE key = 'format'"), "opsim turn log");
  EXPECT_EQ(SqlValue(path, "SELECT scenario_sha256 FROM game"), Sha256Hex(Record().scenario));
  EXPECT_EQ(SqlValue(path, "SELECT seed FROM game"), "7");
  EXPECT_EQ(SqlValue(path, "SELECT count(*) FROM chain"), "2");
  // Nothing of the staging file is left beside it.
  int files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.dir())) ++files;
  EXPECT_EQ(files, 1);
}

TEST(TurnLog, CreateRefusesAFileThatExists) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  test::WriteFile(path, "precious");
  auto log = TurnLog::Create(path, Record(), SnapshotAfter(0));
  ASSERT_FALSE(log);
  EXPECT_EQ(log.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(test::ReadFile(path), "precious");
}

TEST(TurnLog, AppendedTurnsReadBackAsWritten) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 3);
  auto log = TurnLog::Open(path, TurnLog::Access::kRead);
  ASSERT_TRUE(log) << log.error().to_string();
  EXPECT_EQ(log->CountTurns().value_or(-1), 3);
  EXPECT_EQ(log->game().seed, 7u);
  EXPECT_EQ(log->game().scenario, Record().scenario);
  for (int n = 1; n <= 3; ++n) {
    auto t = log->ReadTurn(n);
    ASSERT_TRUE(t) << t.error().to_string();
    const db::LoggedTurn want = test::HandBuiltTurn(n, 2, 3);
    EXPECT_EQ(t->number, n);
    EXPECT_EQ(t->serial, want.serial);
    EXPECT_EQ(t->side, want.side);
    EXPECT_EQ(t->orders, want.orders);
    EXPECT_EQ(t->rolls, want.rolls);
    EXPECT_EQ(t->events, want.events);
    EXPECT_EQ(t->phases, want.phases);
    EXPECT_EQ(t->final_hash, want.final_hash);
    EXPECT_FALSE(t->logged_at.empty());
    auto snap = log->ReadSnapshot(n);
    ASSERT_TRUE(snap) << snap.error().to_string();
    EXPECT_EQ(snap->data, SnapshotAfter(n).data);
  }
  EXPECT_EQ(log->SnapshotTurns().value_or(std::vector<std::int32_t>{}),
            (std::vector<std::int32_t>{0, 1, 2, 3}));
  auto missing = log->ReadTurn(4);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kInvalidInput);

  auto chain = log->VerifyChain();
  ASSERT_TRUE(chain) << chain.error().to_string();
  EXPECT_EQ(chain->rows, 2 + 3 * kRowsPerTurn);
  EXPECT_EQ(chain->turns, 3);
  EXPECT_EQ(chain->snapshots, 4);
  EXPECT_EQ(chain->head, log->Meta().value()["head_hash"]);
}

// docs/log-format.md, "The hash chain": hash = SHA-256(prev_hash + "\n" + content), content
// the row's compact JSON with sorted keys. Written out here by hand, so that the code cannot
// drift from the document.
TEST(TurnLog, RowHashesAreTheDocumentedFormula) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 1);
  auto hash_of = [&](int seq) {
    return SqlValue(path, "SELECT hash FROM chain WHERE seq = " + std::to_string(seq));
  };
  const std::string game =
      "{\"rules_version\":" + std::to_string(ops::kRulesVersion) +
      ",\"scenario_name\":\"tiny.json\",\"scenario_sha256\":\"" + Sha256Hex(Record().scenario) +
      "\",\"seed\":7,\"seq\":1,\"start_hash\":\"" + std::string(64, 'a') + "\",\"table\":\"game\"}";
  EXPECT_EQ(hash_of(1), Sha256Hex(std::string(64, '0') + "\n" + game));
  const db::Snapshot start = SnapshotAfter(0);
  const std::string snapshot = "{\"bytes\":" + std::to_string(start.data.size()) +
                               ",\"data_sha256\":\"" + Sha256Hex(start.data) +
                               "\",\"format\":" + std::to_string(db::kSnapshotFormat) +
                               ",\"seq\":2,\"state_hash\":\"" + std::string(64, 'b') +
                               "\",\"table\":\"snapshot\",\"turn\":0}";
  EXPECT_EQ(hash_of(2), Sha256Hex(hash_of(1) + "\n" + snapshot));
  const db::LoggedTurn t = test::HandBuiltTurn(1, 2, 3);
  const std::string turn = "{\"date\":\"Jan I 1942\",\"final_hash\":\"" + t.final_hash +
                           "\",\"number\":1,\"orders\":" + nlohmann::json(t.orders).dump() +
                           ",\"rules_version\":" + std::to_string(ops::kRulesVersion) +
                           ",\"seq\":3,\"serial\":0,\"side\":\"axis\",\"table\":\"turn\"}";
  EXPECT_EQ(hash_of(3), Sha256Hex(hash_of(2) + "\n" + turn));
  const std::string roll =
      "{\"decided\":\"AR\",\"n\":0,\"purpose\":\"combat 16A:0920\",\"rule\":\"B7.2\","
      "\"scripted\":true,\"seq\":4,\"sides\":6,\"table\":\"roll\",\"turn\":1,\"value\":2}";
  EXPECT_EQ(hash_of(4), Sha256Hex(hash_of(3) + "\n" + roll));
  const std::string event =
      "{\"hexes\":[\"16A:0920\",\"16A:0921\"],\"kind\":\"move\",\"n\":0,\"numbers\":[0,-1],"
      "\"rule\":\"B4.1\",\"seq\":6,\"table\":\"event\",\"text\":\"unit 0 moves\",\"turn\":1,"
      "\"units\":[\"u0\"]}";
  EXPECT_EQ(SqlValue(path, "SELECT units || hexes || numbers FROM event WHERE seq = 6"),
            "[\"u0\"][\"16A:0920\",\"16A:0921\"][0,-1]");
  EXPECT_EQ(hash_of(6), Sha256Hex(hash_of(5) + "\n" + event));
  const std::string phase = "{\"n\":0,\"phase\":\"initial\",\"seq\":9,\"state_hash\":\"" +
                            t.phases[0].state_hash + "\",\"table\":\"phase\",\"turn\":1}";
  EXPECT_EQ(hash_of(9), Sha256Hex(hash_of(8) + "\n" + phase));
}

// tests/db/fixtures/log-schema1.sqlite was written by `opsim new --scenario special-terrain
// --seed 1940` and three `opsim turn --db` runs (orders 01 to 03) of the build before the row
// text was written without nlohmann::json: every row's hash must still match, so logs already
// written keep verifying.
TEST(TurnLog, ALogWrittenByAnEarlierBuildStillVerifies) {
  test::TempDir dir;
  const std::string path = dir.Path("old.sqlite");
  std::filesystem::copy_file(OPSIM_DB_FIXTURES "/log-schema1.sqlite", path);
  auto log = TurnLog::Open(path, TurnLog::Access::kRead);
  ASSERT_TRUE(log) << log.error().to_string();
  auto chain = log->VerifyChain();
  ASSERT_TRUE(chain) << chain.error().to_string();
  EXPECT_EQ(chain->rows, 89);
  EXPECT_EQ(chain->turns, 3);
  EXPECT_EQ(chain->head, "4ba04fddce25b84e2bf7f2754fbb56c210bfbbcfaa00a8516bd12a6db64b5a45");
  for (std::int32_t n = 1; n <= 3; ++n) {
    auto turn = log->ReadTurn(n);
    ASSERT_TRUE(turn) << turn.error().to_string();
    EXPECT_FALSE(turn->events.empty());
  }
}

// Values are bound, never spliced into SQL: text that is SQL, quotes and all, is stored as text.
TEST(TurnLog, TextThatLooksLikeSqlIsStoredAsText) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 0);
  auto log = TurnLog::Open(path, TurnLog::Access::kWrite);
  ASSERT_TRUE(log) << log.error().to_string();
  db::LoggedTurn t = test::HandBuiltTurn(1, 1, 1);
  const std::string sql = "x'); DROP TABLE turn; -- \" \\ ' é \n\t";
  t.rolls[0].purpose = sql;
  t.events[0].text = sql;
  t.orders = nlohmann::json{{"side", "axis"}, {"note", sql}}.dump();
  {
    auto tx = log->Begin();
    ASSERT_TRUE(tx);
    ASSERT_TRUE(log->AppendTurn(t, SnapshotAfter(1)));
    ASSERT_TRUE(tx->Commit());
  }
  auto back = log->ReadTurn(1);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->rolls[0].purpose, sql);
  EXPECT_EQ(back->events[0].text, sql);
  EXPECT_EQ(back->orders, t.orders);
  EXPECT_EQ(SqlValue(path, "SELECT count(*) FROM turn"), "1");
  EXPECT_TRUE(log->VerifyChain());
}

// The seq of a row of player-turn `turn`: its header is at 3 + (turn - 1) * kRowsPerTurn.
std::int64_t RowOf(int turn, int offset) {
  return 3 + (turn - 1) * kRowsPerTurn + offset;
}

// AppendTurn with a snapshot still being made: the rows go in first, then the snapshot, and a
// snapshot of another turn is refused with nothing of the player-turn kept.
TEST(TurnLog, ASnapshotMadeBesideTheRowsFollowsThemAndMustBeTheTurns) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 0);
  auto log = TurnLog::Open(path, TurnLog::Access::kWrite);
  ASSERT_TRUE(log) << log.error().to_string();
  {
    auto tx = log->Begin();
    ASSERT_TRUE(tx);
    auto wrong = std::async(std::launch::async, [] { return SnapshotAfter(2); });
    auto s = log->AppendTurn(test::HandBuiltTurn(1, 2, 3), std::move(wrong));
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, ErrorCode::kInternal);
  }  // rolled back
  EXPECT_EQ(SqlValue(path, "SELECT count(*) FROM turn"), "0");
  {
    auto tx = log->Begin();
    ASSERT_TRUE(tx);
    auto right = std::async(std::launch::async, [] { return SnapshotAfter(1); });
    ASSERT_TRUE(log->AppendTurn(test::HandBuiltTurn(1, 2, 3), std::move(right)));
    ASSERT_TRUE(tx->Commit());
  }
  auto chain = log->VerifyChain();
  ASSERT_TRUE(chain) << chain.error().to_string();
  EXPECT_EQ(chain->rows, 2 + kRowsPerTurn);
  EXPECT_EQ(SqlValue(path, "SELECT seq FROM snapshot WHERE turn = 1"),
            std::to_string(RowOf(1, kRowsPerTurn - 1)));
}

TEST(TurnLog, AnEditedDieRollIsFoundAndNamed) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 3);
  const std::int64_t seq = RowOf(2, 2);  // the second roll of player-turn 2
  ASSERT_EQ(Sql(path, "UPDATE roll SET value = 6 - value WHERE seq = " + std::to_string(seq)), "");
  ExpectCorrupt(Verify(path), "die roll 2 of player-turn 2", "row seq " + std::to_string(seq));
  auto log = TurnLog::Open(path, TurnLog::Access::kRead);
  ASSERT_TRUE(log);
  EXPECT_TRUE(log->ReadTurn(1));
  auto t = log->ReadTurn(2);
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().message.find("changed after it was logged"), std::string::npos);
}

// Schema 2 chains each event's units, hexes and numbers: an edited one is found, and so is an
// array that is not written the canonical way the log writes it.
TEST(TurnLog, AnEditedEventContentIsFound) {
  for (const char* edit : {R"(units = '["u9"]')", "numbers = '[0, -1]'", "hexes = 'x'"}) {
    test::TempDir dir;
    const std::string path = dir.Path("game.sqlite");
    MakeLog(path, 2);
    const std::string seq =
        SqlValue(path, "SELECT seq FROM event WHERE turn = 2 ORDER BY seq LIMIT 1");
    ASSERT_EQ(Sql(path, "UPDATE event SET " + std::string(edit) + " WHERE seq = " + seq), "");
    ExpectCorrupt(Verify(path), "event 1 of player-turn 2 (move): the row was changed",
                  "row seq " + seq);
  }
}

TEST(TurnLog, ADeletedRowIsFound) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 3);
  const std::int64_t seq = RowOf(2, 3);  // the first event of player-turn 2
  ASSERT_EQ(Sql(path, "DELETE FROM event WHERE seq = " + std::to_string(seq)), "");
  ExpectCorrupt(Verify(path), "is missing", "row seq " + std::to_string(seq));
  auto log = TurnLog::Open(path, TurnLog::Access::kRead);
  ASSERT_TRUE(log);
  EXPECT_FALSE(log->ReadTurn(2));
}

TEST(TurnLog, ReorderedRowsAreFound) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 3);
  const std::int64_t a = RowOf(1, 3), b = RowOf(1, 4);  // two events of player-turn 1
  ASSERT_EQ(Sql(path, "UPDATE event SET seq = -1 WHERE seq = " + std::to_string(a) +
                          "; UPDATE event SET seq = " + std::to_string(a) +
                          " WHERE seq = " + std::to_string(b) +
                          "; UPDATE event SET seq = " + std::to_string(b) + " WHERE seq = -1"),
            "");
  ExpectCorrupt(Verify(path), "event", "row seq " + std::to_string(a));
}

TEST(TurnLog, AnEditedSnapshotOrScenarioIsFound) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 2);
  ASSERT_EQ(Sql(path, "UPDATE snapshot SET data = zeroblob(length(data)) WHERE turn = 1"), "");
  ExpectCorrupt(Verify(path), "does not match its SHA-256",
                "row seq " + std::to_string(RowOf(1, 10)));
  {
    auto log = TurnLog::Open(path, TurnLog::Access::kRead);
    ASSERT_TRUE(log);
    EXPECT_FALSE(log->ReadSnapshot(1));
    EXPECT_TRUE(log->ReadSnapshot(2));
  }
  ASSERT_EQ(Sql(path, "UPDATE game SET scenario = scenario || ' '"), "");
  auto log = TurnLog::Open(path, TurnLog::Access::kRead);
  ASSERT_FALSE(log);
  EXPECT_EQ(log.error().code, ErrorCode::kCorruption);
  EXPECT_NE(log.error().message.find("scenario text does not match"), std::string::npos);
}

TEST(TurnLog, FilesThatAreNotOpsimLogsAreRefusedUntouched) {
  test::TempDir dir;
  const std::string text = dir.Path("notes.txt");
  test::WriteFile(text, std::string(4096, 'n'));
  const std::string empty = dir.Path("empty.sqlite");
  test::WriteFile(empty, "");
  const std::string other = dir.Path("other.sqlite");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE recipes (name TEXT)", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  for (const auto& [path, why] :
       {std::pair<std::string, std::string>{text, "not an SQLite database"},
        {empty, "the file is empty"},
        {other, "an SQLite database of another kind"}}) {
    const std::string before = test::ReadFile(path);
    for (auto access : {TurnLog::Access::kRead, TurnLog::Access::kWrite}) {
      auto log = TurnLog::Open(path, access);
      ASSERT_FALSE(log) << path;
      EXPECT_EQ(log.error().code, ErrorCode::kCorruption) << path;
      EXPECT_NE(log.error().message.find("not an opsim turn log"), std::string::npos) << path;
      EXPECT_NE(log.error().message.find(why), std::string::npos) << log.error().message;
    }
    EXPECT_EQ(test::ReadFile(path), before) << path;
  }
  auto none = TurnLog::Open(dir.Path("absent.sqlite"), TurnLog::Access::kRead);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ErrorCode::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(dir.Path("absent.sqlite")));
}

TEST(TurnLog, ALogFromANewerSchemaIsRefusedUntouched) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 1);
  ASSERT_EQ(Sql(path, "PRAGMA user_version = 4"), "");
  const std::string before = test::DumpLog(path);
  for (auto access : {TurnLog::Access::kRead, TurnLog::Access::kWrite}) {
    auto log = TurnLog::Open(path, access);
    ASSERT_FALSE(log);
    EXPECT_EQ(log.error().code, ErrorCode::kUnsupported);
    EXPECT_EQ(ExitCodeFor(log.error().code), 8);
    EXPECT_NE(
        log.error().message.find("newer opsim (log schema 4; this build reads schemas 1 to 3)"),
        std::string::npos)
        << log.error().message;
  }
  EXPECT_EQ(test::DumpLog(path), before);
}

// Sets an environment variable for one test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A bad busy timeout is an error naming the variable, not the default nor a wrapped number.
TEST(TurnLog, AnInvalidBusyTimeoutIsRefusedByName) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 1);
  for (const char* bad : {"-1", "abc", "200ms", "4294967496", "3600001"}) {
    SCOPED_TRACE(bad);
    ScopedEnv timeout("OPSIM_DB_BUSY_TIMEOUT_MS", bad);
    auto log = TurnLog::Open(path, TurnLog::Access::kRead);
    ASSERT_FALSE(log);
    EXPECT_EQ(log.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(log.error().message.find("$OPSIM_DB_BUSY_TIMEOUT_MS is '" + std::string(bad) + "'"),
              std::string::npos)
        << log.error().message;
  }
  ScopedEnv timeout("OPSIM_DB_BUSY_TIMEOUT_MS", "0");
  EXPECT_TRUE(TurnLog::Open(path, TurnLog::Access::kRead));
}

TEST(TurnLog, AWriterWaitsForAnotherProcessThenSaysBusy) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 1);
  const std::string before = test::DumpLog(path);
  ScopedEnv timeout("OPSIM_DB_BUSY_TIMEOUT_MS", "200");
  {
    test::Child holder([&](const std::function<void()>& ready) {
      auto log = TurnLog::Open(path, TurnLog::Access::kWrite);
      if (!log) return;
      auto tx = log->Begin();
      if (!tx) return;
      ready();
    });
    ASSERT_TRUE(holder.ready());
    auto log = TurnLog::Open(path, TurnLog::Access::kWrite);
    ASSERT_TRUE(log) << log.error().to_string();
    auto tx = log->Begin();
    ASSERT_FALSE(tx);
    EXPECT_EQ(tx.error().code, ErrorCode::kBusy);
    EXPECT_EQ(ExitCodeFor(tx.error().code), 6);
    EXPECT_NE(tx.error().message.find("locked by another process (waited 200 ms)"),
              std::string::npos)
        << tx.error().message;
    // Readers are not blocked by a writer in WAL mode.
    auto reader = TurnLog::Open(path, TurnLog::Access::kRead);
    ASSERT_TRUE(reader) << reader.error().to_string();
    EXPECT_TRUE(reader->ReadTurn(1));
  }
  EXPECT_EQ(test::DumpLog(path), before);
  auto log = TurnLog::Open(path, TurnLog::Access::kWrite);
  ASSERT_TRUE(log);
  EXPECT_TRUE(log->Begin());
}

TEST(TurnLog, AWriteThatFindsNoRoomLosesNothingAlreadyLogged) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 2);
  const std::string before = test::DumpLog(path);
  const auto size = std::filesystem::file_size(path);
  const std::string said = test::InChild([&] {
    ::signal(SIGXFSZ, SIG_IGN);
    // No file may grow past 64 KiB beyond the log's size: the next write runs out of room.
    const rlimit lim{size + 65536, size + 65536};
    ::setrlimit(RLIMIT_FSIZE, &lim);
    auto log = TurnLog::Open(path, TurnLog::Access::kWrite);
    if (!log) return "open: " + log.error().to_string();
    auto tx = log->Begin();
    if (!tx) return "begin: " + tx.error().to_string();
    Status s = log->AppendTurn(test::HandBuiltTurn(3, 2, 3), SnapshotAfter(3, 4 << 20));
    if (s) s = tx->Commit();
    return s ? std::string("committed")
             : std::string(ErrorCodeName(s.error().code)) + ": " + s.error().message;
  });
  EXPECT_NE(said.find(ErrorCodeName(ErrorCode::kIOError)), std::string::npos) << said;
  EXPECT_NE(said.find("the file reached this process's size limit (ulimit -f)"), std::string::npos)
      << said;
  EXPECT_EQ(SqlValue(path, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(test::DumpLog(path), before);
  auto chain = Verify(path);
  ASSERT_TRUE(chain) << chain.error().to_string();
  EXPECT_EQ(chain->turns, 2);
}

TEST(TurnLog, AReadOnlyFileIsReadButNotWritten) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 1);
  const std::string before = test::DumpLog(path);
  test::MakeWorldWritable(dir.dir());
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  const std::string said = test::InChild([&] {
    if (!test::DropRoot()) return std::string("cannot drop root");
    std::string out;
    auto w = TurnLog::Open(path, TurnLog::Access::kWrite);
    out += w ? "write: opened"
             : "write: " + std::string(ErrorCodeName(w.error().code)) + ": " + w.error().message;
    auto r = TurnLog::Open(path, TurnLog::Access::kRead);
    out += r && r->ReadTurn(1) ? "\nread: ok" : "\nread: failed";
    return out;
  });
  EXPECT_NE(said.find("write: " + std::string(ErrorCodeName(ErrorCode::kReadOnly)) +
                      ": the log cannot be written"),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("read: ok"), std::string::npos) << said;
  EXPECT_EQ(test::DumpLog(path), before);
}

TEST(TurnLog, AWriterKilledInsideItsTransactionLeavesTheLogAsItWas) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  MakeLog(path, 2);
  const std::string before = test::DumpLog(path);
  {
    // A 16 MiB snapshot spills out of SQLite's page cache into the WAL before the commit.
    test::Child writer([&](const std::function<void()>& ready) {
      auto log = TurnLog::Open(path, TurnLog::Access::kWrite);
      if (!log) return;
      auto tx = log->Begin();
      if (!tx) return;
      if (!log->AppendTurn(test::HandBuiltTurn(3, 2, 3), SnapshotAfter(3, 16 << 20))) return;
      ready();
    });
    ASSERT_TRUE(writer.ready());
    EXPECT_GT(std::filesystem::file_size(path + "-wal"), 8u << 20) << "nothing reached the WAL";
    const int status = writer.Kill();
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  }
  EXPECT_EQ(SqlValue(path, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(test::DumpLog(path), before);
  auto chain = Verify(path);
  ASSERT_TRUE(chain) << chain.error().to_string();
  EXPECT_EQ(chain->turns, 2);
  // And the next writer carries on.
  auto log = TurnLog::Open(path, TurnLog::Access::kWrite);
  ASSERT_TRUE(log);
  auto tx = log->Begin();
  ASSERT_TRUE(tx) << tx.error().to_string();
  ASSERT_TRUE(log->AppendTurn(test::HandBuiltTurn(3, 2, 3), SnapshotAfter(3)));
  ASSERT_TRUE(tx->Commit());
  EXPECT_EQ(Verify(path).value_or(db::ChainReport{}).turns, 3);
}

TEST(TurnLog, ANewLogKilledBeforeItIsPublishedLeavesNoFile) {
  test::TempDir dir;
  const std::string path = dir.Path("game.sqlite");
  {
    test::Child maker([&](const std::function<void()>& ready) {
      auto log = TurnLog::Create(path, Record(), SnapshotAfter(0));
      if (!log) return;
      ready();
    });
    ASSERT_TRUE(maker.ready());
    maker.Kill();
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  MakeLog(path, 1);
  EXPECT_TRUE(Verify(path));
}

}  // namespace
}  // namespace opsim
