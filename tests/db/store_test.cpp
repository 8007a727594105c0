// The turn log over both stores (issue 21): the same tests on an SQLite file and on a game in
// PostgreSQL (the throwaway cluster scripts/pg.sh starts as a ctest fixture, whose URI is in
// the file $OPSIM_TEST_PG_URI_FILE); then PostgreSQL's own: log addresses, two writers on one
// game, an edited row, a killed writer, a newer store; and every fixture log moved into the store
// and out again (`opsim import`, `opsim export`) with its hashes unchanged.
//
// A PostgreSQL test fails, never skips, when the cluster is not up.
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <pqxx/pqxx>
#include <thread>

#include "db_test_util.h"
#include "log_store.h"
#include "opsim/core/fair_dice.h"
#include "opsim/db/game_log.h"
#include "opsim/db/hosting.h"
#include "opsim/db/snapshot.h"
#include "opsim/db/turn_log.h"
#include "opsim/query/play.h"
#include "opsim/query/steps.h"
#include "pg_test.h"
#include "test_support.h"

namespace opsim {
namespace {

using db::TurnLog;

using test::PgUri;

// A game id no other test run uses: `name`, this process and a counter.
std::string UniqueGame(const std::string& name) {
  static std::atomic<int> n{0};
  return name + "-" + std::to_string(::getpid()) + "-" + std::to_string(n++);
}

// Runs SQL on the test cluster, with `game` as $1: statements parted by "; ", one by one.
void PgExec(const std::string& sql, const std::string& game) {
  pqxx::connection c(PgUri());
  pqxx::nontransaction tx(c);
  for (std::size_t from = 0; from < sql.size();) {
    const std::size_t end = std::min(sql.find("; ", from), sql.size());
    tx.exec_params(sql.substr(from, end - from), game);
    from = end + 2;
  }
}

db::GameRecord Record() {
  db::GameRecord g;
  g.scenario_name = "tiny.json";
  g.scenario = R"({"opsim":"scenario","name":"tiny"})";
  g.seed = 7;
  g.start_hash = std::string(64, 'a');
  return g;
}

// The snapshot after `turn` hand-built player-turns, naming the state the last one ended in.
db::Snapshot SnapshotAfter(std::int32_t turn) {
  ops::GameState s = test::HandBuiltState(nullptr);
  s.player_turn = turn;
  const std::string hash =
      turn == 0 ? Record().start_hash : test::HandBuiltTurn(turn, 2, 3).final_hash;
  return db::Snapshot{turn, db::kSnapshotFormat, hash, db::SaveSnapshot(s)};
}

Status AppendOne(TurnLog& log, std::int32_t number) {
  auto tx = log.Begin();
  if (!tx) return std::unexpected(tx.error());
  if (auto s = log.AppendTurn(test::HandBuiltTurn(number, 2, 3), SnapshotAfter(number)); !s) {
    return s;
  }
  return tx->Commit();
}

// Rows per hand-built turn: header, 2 rolls, 3 events, 4 phase hashes, a snapshot.
constexpr int kRowsPerTurn = 11;

Result<db::ChainReport> Verify(const std::string& address) {
  auto log = TurnLog::Open(address, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  return log->VerifyChain();
}

// The same tests on either store: GetParam() is "sqlite" or "postgres".
class BothStores : public ::testing::TestWithParam<std::string> {
 protected:
  // A new log's address in the store under test.
  std::string Address(const std::string& name) {
    if (GetParam() == "sqlite") return dir_.Path(name + ".sqlite");
    return PgUri() + "#" + UniqueGame(name);
  }
  // A published log with `turns` hand-built player-turns.
  std::string MakeLog(const std::string& name, int turns) {
    const std::string address = Address(name);
    auto log = TurnLog::Create(address, Record(), SnapshotAfter(0));
    EXPECT_TRUE(log) << log.error().to_string();
    if (!log) return address;
    EXPECT_TRUE(log->Publish());
    auto w = TurnLog::Open(address, TurnLog::Access::kWrite);
    EXPECT_TRUE(w) << w.error().to_string();
    for (int n = 1; w && n <= turns; ++n) {
      auto s = AppendOne(*w, n);
      EXPECT_TRUE(s) << s.error().to_string();
    }
    return address;
  }
  // Runs `sql` on the log at `address` as someone with the store's own tools could: on the
  // file (sqlite3), or on the game's rows ($1 its id) in PostgreSQL (psql).
  void Tamper(const std::string& address, const std::string& sqlite_sql,
              const std::string& pg_sql) {
    if (GetParam() == "sqlite") {
      EXPECT_EQ(test::Sql(address, sqlite_sql), "");
    } else {
      PgExec(pg_sql, address.substr(address.rfind('#') + 1));
    }
  }
  test::TempDir dir_;
};

INSTANTIATE_TEST_SUITE_P(Store, BothStores, ::testing::Values("sqlite", "postgres"));

TEST_P(BothStores, AppendedTurnsReadBackAsWrittenAndVerify) {
  const std::string address = MakeLog("read-back", 3);
  auto log = TurnLog::Open(address, TurnLog::Access::kRead);
  ASSERT_TRUE(log) << log.error().to_string();
  EXPECT_EQ(log->schema(), db::kSeededLogSchema);
  EXPECT_EQ(log->CountTurns().value_or(-1), 3);
  EXPECT_EQ(log->game().seed, 7u);
  EXPECT_EQ(log->game().scenario, Record().scenario);
  for (int n = 1; n <= 3; ++n) {
    auto t = log->ReadTurn(n);
    ASSERT_TRUE(t) << t.error().to_string();
    const db::LoggedTurn want = test::HandBuiltTurn(n, 2, 3);
    EXPECT_EQ(t->orders, want.orders);
    EXPECT_EQ(t->rolls, want.rolls);
    EXPECT_EQ(t->events, want.events);
    EXPECT_EQ(t->phases, want.phases);
    auto snap = log->ReadSnapshot(n);
    ASSERT_TRUE(snap) << snap.error().to_string();
    EXPECT_EQ(snap->data, SnapshotAfter(n).data);
  }
  EXPECT_EQ(log->SnapshotTurns().value_or(std::vector<std::int32_t>{}),
            (std::vector<std::int32_t>{0, 1, 2, 3}));
  ASSERT_TRUE(log->CheckTail());
  auto chain = log->VerifyChain();
  ASSERT_TRUE(chain) << chain.error().to_string();
  EXPECT_EQ(chain->rows, 2 + 3 * kRowsPerTurn);
  EXPECT_EQ(chain->turns, 3);
  EXPECT_EQ(chain->head, log->Meta().value()["head_hash"]);
}

// The same rows make the same chain in either store: the head does not depend on the store.
TEST_P(BothStores, TheChainsHeadIsTheSameInEitherStore) {
  test::TempDir other;
  const std::string file = other.Path("reference.sqlite");
  {
    auto log = TurnLog::Create(file, Record(), SnapshotAfter(0));
    ASSERT_TRUE(log && log->Publish());
    auto w = TurnLog::Open(file, TurnLog::Access::kWrite);
    ASSERT_TRUE(w);
    for (int n = 1; n <= 2; ++n) {
      db::LoggedTurn t = test::HandBuiltTurn(n, 2, 3);
      auto tx = w->Begin();
      ASSERT_TRUE(tx);
      ASSERT_TRUE(w->AppendTurn(t, SnapshotAfter(n)));
      ASSERT_TRUE(tx->Commit());
    }
  }
  const std::string address = MakeLog("same-head", 2);
  auto here = Verify(address);
  auto there = Verify(file);
  ASSERT_TRUE(here && there);
  EXPECT_EQ(here->head, there->head);
}

TEST_P(BothStores, CreateRefusesALogThatExists) {
  const std::string address = MakeLog("exists", 1);
  auto again = TurnLog::Create(address, Record(), SnapshotAfter(0));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::kInvalidInput) << again.error().to_string();
  auto chain = Verify(address);
  ASSERT_TRUE(chain) << chain.error().to_string();
  EXPECT_EQ(chain->turns, 1);
}

TEST_P(BothStores, AnUnpublishedLogLeavesNothing) {
  const std::string address = Address("unpublished");
  {
    auto log = TurnLog::Create(address, Record(), SnapshotAfter(0));
    ASSERT_TRUE(log) << log.error().to_string();
  }
  auto opened = TurnLog::Open(address, TurnLog::Access::kRead);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.error().code, ErrorCode::kNotFound) << opened.error().to_string();
}

TEST_P(BothStores, AppendRefusesAPlayerTurnThatIsNotTheNext) {
  const std::string address = MakeLog("next", 1);
  auto w = TurnLog::Open(address, TurnLog::Access::kWrite);
  ASSERT_TRUE(w);
  EXPECT_FALSE(AppendOne(*w, 3));
  EXPECT_FALSE(AppendOne(*w, 1));
  auto chain = Verify(address);
  ASSERT_TRUE(chain) << chain.error().to_string();
  EXPECT_EQ(chain->turns, 1);
}

// The chain finds an edited event and a deleted die roll in either store, and names the row.
TEST_P(BothStores, EditedAndDeletedRowsAreFoundAndNamed) {
  const std::string edited = MakeLog("edited-event", 2);
  // Event 1 of player-turn 2: seq 2 + 11 (turn 1) + 1 (its header) + 2 (its rolls) + 1.
  Tamper(edited, "UPDATE event SET units = '[\"u9\"]' WHERE seq = 17",
         "UPDATE opsim_event SET units = '[\"u9\"]' WHERE game = $1 AND seq = 17");
  auto chain = Verify(edited);
  ASSERT_FALSE(chain);
  EXPECT_EQ(chain.error().code, ErrorCode::kCorruption);
  EXPECT_NE(chain.error().message.find("event 1 of player-turn 2"), std::string::npos)
      << chain.error().to_string();
  EXPECT_NE(chain.error().where.find("row seq 17"), std::string::npos);

  const std::string deleted = MakeLog("deleted-roll", 2);
  Tamper(deleted, "DELETE FROM roll WHERE seq = 16",
         "DELETE FROM opsim_roll WHERE game = $1 AND seq = 16");
  auto gap = Verify(deleted);
  ASSERT_FALSE(gap);
  EXPECT_EQ(gap.error().code, ErrorCode::kCorruption);
  EXPECT_NE(gap.error().message.find("row seq 16 is missing"), std::string::npos)
      << gap.error().to_string();
  // Reading that player-turn finds it too.
  auto log = TurnLog::Open(deleted, TurnLog::Access::kRead);
  ASSERT_TRUE(log);
  auto turn = log->ReadTurn(2);
  ASSERT_FALSE(turn);
  EXPECT_EQ(turn.error().code, ErrorCode::kCorruption);
}

// Rows cut from the end, and a snapshot's data overwritten: the chain check finds both, and a
// writer refuses to append to the cut log.
TEST_P(BothStores, RowsCutFromTheEndAndAnEditedSnapshotAreFound) {
  const std::string cut = MakeLog("cut", 3);
  Tamper(cut, "DELETE FROM snapshot WHERE turn = 3; DELETE FROM phase WHERE turn = 3",
         "DELETE FROM opsim_snapshot WHERE game = $1 AND turn = 3; "
         "DELETE FROM opsim_phase WHERE game = $1 AND turn = 3");
  auto r = Verify(cut);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kCorruption);
  EXPECT_NE(r.error().message.find("rows were removed from its end"), std::string::npos)
      << r.error().to_string();
  auto w = TurnLog::Open(cut, TurnLog::Access::kWrite);
  ASSERT_TRUE(w);
  auto tx = w->Begin();
  ASSERT_FALSE(tx);
  EXPECT_EQ(tx.error().code, ErrorCode::kCorruption);

  const std::string zeroed = MakeLog("zeroed", 2);
  Tamper(zeroed, "UPDATE snapshot SET data = zeroblob(length(data)) WHERE turn = 1",
         "UPDATE opsim_snapshot SET data = decode(repeat('00', length(data)), 'hex') "
         "WHERE game = $1 AND turn = 1");
  auto z = Verify(zeroed);
  ASSERT_FALSE(z);
  EXPECT_NE(z.error().message.find("does not match its SHA-256"), std::string::npos)
      << z.error().to_string();
  auto log = TurnLog::Open(zeroed, TurnLog::Access::kRead);
  ASSERT_TRUE(log);
  EXPECT_FALSE(log->ReadSnapshot(1));
  EXPECT_TRUE(log->ReadSnapshot(2));
}

// A game in a fresh log: the bundled orders played into it, replayed and verified; then a
// player-turn played step by step.
TEST_P(BothStores, ALoggedGamePlaysReplaysAndVerifies) {
  const std::string address = Address("game");
  auto scenario = JsonSource::FromFile(test::BundledPath("special-terrain"));
  ASSERT_TRUE(scenario);
  auto game = db::NewLoggedGame(address, *scenario, 1940);
  ASSERT_TRUE(game) << game.error().to_string();
  for (const char* f : {"01-axis-may-i-1940.json", "02-allied-may-i-1940.json"}) {
    auto orders = JsonSource::FromFile(test::BundledOrders(f));
    ASSERT_TRUE(orders);
    auto played = query::PlayTurn(address, *orders);
    ASSERT_TRUE(played) << f << ": " << played.error().to_string();
  }
  // The third by steps: its script's steps, each taken into the log.
  {
    auto session = query::StepSession::Open(address);
    ASSERT_TRUE(session) << session.error().to_string();
    auto src = JsonSource::FromFile(test::BundledOrders("03-axis-may-ii-1940.json"));
    ASSERT_TRUE(src);
    auto orders = ops::ParseOrders(*src, session->theater());
    ASSERT_TRUE(orders);
    auto turn = ops::StepTurn::Begin(session->game());
    ASSERT_TRUE(turn);
    ASSERT_TRUE(ops::PlayScript(*turn, *orders));
    bool logged = false;
    for (const ops::Step& s : turn->steps()) {
      auto step = JsonSource::FromText(ops::StepToJson(s, session->theater()), "--action");
      ASSERT_TRUE(step);
      auto record = session->Take(*step, s.side);
      ASSERT_TRUE(record) << record.error().to_string();
      logged = record->logged;
    }
    EXPECT_TRUE(logged);
  }
  db::ReplayOptions verify;
  verify.verify = true;
  auto replayed = db::ReplayLog(address, verify);
  ASSERT_TRUE(replayed) << replayed.error().to_string();
  EXPECT_EQ(replayed->game.turns_played, 3);
  ASSERT_TRUE(replayed->chain);
  EXPECT_EQ(replayed->chain->turns, 3);
}

// The commands that take --db take either address: new, turn, status, log, branch, replay.
TEST_P(BothStores, TheCommandsTakeEitherAddress) {
  const std::string game = Address("cli");
  const std::string branch = Address("cli-branch");
  const std::string orders = test::BundledOrders("01-axis-may-i-1940.json");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"new", "--scenario", "special-terrain", "--db", game, "--seed", "1940"},
           {"turn", "--db", game, "--orders", orders},
           {"status", "--db", game},
           {"log", "--db", game, "--turn", "1"},
           {"branch", "--db", game, "--at", "1", "--out", branch},
           {"replay", "--verify", "--db", branch}}) {
    const auto run = test::RunOpsim(args);
    EXPECT_EQ(run.code, 0) << args[0] << ": " << run.err;
  }
  auto chain = Verify(branch);
  ASSERT_TRUE(chain) << chain.error().to_string();
  EXPECT_EQ(chain->turns, 1);
  EXPECT_EQ(chain->head, Verify(game).value_or(db::ChainReport{}).head);
}

// A hosted fair game (schema 3; query/play.h): the axis orders pending, the allied reply resolving
// them with both keys, the log verifying.
TEST_P(BothStores, AHostedFairGameMovesResolvesAndVerifies) {
  const Key axis = *NewSecret();
  const Key allied = *NewSecret();
  auto scenario = JsonSource::FromFile(test::BundledPath("special-terrain"));
  ASSERT_TRUE(scenario);
  const std::string address = Address("hosted");
  auto g = db::NewFairLoggedGame(address, *scenario, "g1", KeyHex(ChainKey(axis, 0)),
                                 KeyHex(ChainKey(allied, 0)));
  ASSERT_TRUE(g) << g.error().to_string();
  nlohmann::json orders = nlohmann::json::parse(test::ReadFile(
      std::string(OPSIM_SCENARIO_DIR) + "/orders/special-terrain/01-axis-may-i-1940.json"));
  const std::string reply = nlohmann::json{{"reactions", orders["reactions"]}}.dump();
  orders.erase("reactions");
  auto moved = test::SubmitHosted(address, *JsonSource::FromText(orders.dump(), "orders"));
  ASSERT_TRUE(moved) << moved.error().to_string();
  auto played =
      query::ReplyToOrders(address, {axis, allied}, *JsonSource::FromText(reply, "reply"));
  ASSERT_TRUE(played) << played.error().to_string();
  auto log = TurnLog::Open(address, TurnLog::Access::kRead);
  ASSERT_TRUE(log);
  EXPECT_EQ(log->schema(), db::kLogSchemaVersion);
  auto turn = log->ReadTurn(1);
  ASSERT_TRUE(turn) << turn.error().to_string();
  EXPECT_EQ(turn->axis_key, KeyHex(ChainKey(axis, 1)));
  db::ReplayOptions verify;
  verify.verify = true;
  auto replay = db::ReplayLog(address, verify);
  EXPECT_TRUE(replay) << replay.error().to_string();
}

// Every fixture log (schemas 1, 2 and 3) into the store under test and back to a file: the same
// rows, the same head as the original's, and the copy replays and verifies.
TEST_P(BothStores, EveryFixtureLogMovesWithItsHashesUnchanged) {
  for (const char* name : {"log-schema1.sqlite", "log-schema2.sqlite", "log-schema3-fair.sqlite"}) {
    SCOPED_TRACE(name);
    const std::string fixture = std::string(OPSIM_DB_FIXTURES) + "/" + name;
    const std::string head = test::SqlValue(fixture,
                                            "SELECT value FROM meta WHERE key = "
                                            "'head_hash'");
    const std::string schema = test::SqlValue(fixture, "PRAGMA user_version");
    const std::string stored = Address(std::string("fixture-") + schema);
    auto imported = test::RunOpsim({"--json", "import", "--db", fixture, "--into", stored});
    ASSERT_EQ(imported.code, 0) << imported.err;
    const auto doc = nlohmann::json::parse(imported.out);
    EXPECT_EQ(doc["head"], head);
    EXPECT_EQ(doc["schema"], std::stoi(schema));

    const std::string back = dir_.Path(std::string("back-") + name);
    auto exported = test::RunOpsim({"--json", "export", "--db", stored, "--out", back});
    ASSERT_EQ(exported.code, 0) << exported.err;
    EXPECT_EQ(nlohmann::json::parse(exported.out)["head"], head);
    EXPECT_EQ(test::SqlValue(back, "PRAGMA user_version"), schema);
    EXPECT_EQ(test::DumpLog(back), test::DumpLog(fixture));
    auto replayed = test::RunOpsim({"replay", "--verify", "--db", back});
    EXPECT_EQ(replayed.code, 0) << replayed.err;
    auto in_store = test::RunOpsim({"--json", "replay", "--verify", "--db", stored});
    EXPECT_EQ(in_store.code, 0) << in_store.err;
  }
}

// PostgreSQL's own.

TEST(PgStore, AnAddressNamesAValidGameOrIsRefusedBeforeConnecting) {
  // No server is there: a refusal before connecting is kInvalidInput, not kIOError.
  for (const char* bad :
       {"postgresql:///opsim?host=/nonexistent", "postgresql:///opsim#", "postgres:///opsim#Game",
        "postgresql:///opsim#-game", "postgresql:///opsim#a_b", "postgresql:///opsim#g/1"}) {
    auto log = TurnLog::Open(bad, TurnLog::Access::kRead);
    ASSERT_FALSE(log) << bad;
    EXPECT_EQ(log.error().code, ErrorCode::kInvalidInput) << bad << ": " << log.error().to_string();
  }
  auto long_id =
      TurnLog::Open("postgresql:///opsim#" + std::string(65, 'a'), TurnLog::Access::kRead);
  ASSERT_FALSE(long_id);
  EXPECT_EQ(long_id.error().code, ErrorCode::kInvalidInput);
}

// A unique constraint PostgreSQL enforces says who came first only when it is a game's: each
// violation below is a real one, from the test cluster, mapped by store::PgError.
TEST(PgStore, AUniqueViolationIsNamedByTheConstraintThatRefusedIt) {
  const auto violation = [](const std::string& sql, const std::string& game) {
    try {
      PgExec(sql, game);
    } catch (const pqxx::unique_violation& e) {
      return db::store::PgError(e, "the store", "writing").error();
    }
    ADD_FAILURE() << "no unique violation: " << sql;
    return Error{};
  };
  ASSERT_TRUE(db::store::MakePgTables(PgUri()));
  const std::string game = UniqueGame("unique");
  PgExec(
      "INSERT INTO opsim_log (game, schema) VALUES ($1, 3); "
      "INSERT INTO opsim_seq (game, seq) VALUES ($1, 1)",
      game);
  const Error row = violation("INSERT INTO opsim_seq (game, seq) VALUES ($1, 1)", game);
  EXPECT_EQ(row.code, ErrorCode::kWrongTurn) << row.to_string();
  EXPECT_NE(row.message.find("another writer appended to the game first"), std::string::npos);
  const Error made = violation("INSERT INTO opsim_log (game, schema) VALUES ($1, 3)", game);
  EXPECT_EQ(made.code, ErrorCode::kInvalidInput) << made.to_string();
  EXPECT_NE(made.message.find("the game already exists in the store"), std::string::npos);
  // Not a game's: PostgreSQL refused, in its own words, and no writer is blamed.
  Error other;
  {
    pqxx::connection c(PgUri());
    pqxx::nontransaction tx(c);
    tx.exec("CREATE TEMP TABLE t (k TEXT PRIMARY KEY)");
    tx.exec("INSERT INTO t VALUES ('a')");
    try {
      tx.exec("INSERT INTO t VALUES ('a')");
      ADD_FAILURE() << "no unique violation on t";
    } catch (const pqxx::unique_violation& e) {
      other = db::store::PgError(e, "the store", "writing").error();
    }
  }
  EXPECT_EQ(other.code, ErrorCode::kIOError) << other.to_string();
  EXPECT_EQ(other.message.find("another writer"), std::string::npos) << other.message;
  EXPECT_NE(other.message.find("\"t_pkey\""), std::string::npos) << other.message;
  PgExec("DELETE FROM opsim_seq WHERE game = $1; DELETE FROM opsim_log WHERE game = $1", game);
}

// A table's many rows go in by COPY (pg_store.cpp), each row a line of tab-parted text: every
// character comes back as it went in, the ones COPY's text gives a meaning among them (a tab, a
// line's end, a backslash, and \N, its NULL), and each row's seq is claimed as an INSERT's.
TEST(PgStore, ManyRowsGoInByCopyAndComeBackAsTheyWent) {
  ASSERT_TRUE(db::store::MakePgTables(PgUri()));
  const std::string game = UniqueGame("copy");
  auto address = db::store::ParseLogAddress(PgUri() + "#" + game);
  ASSERT_TRUE(address) << address.error().to_string();
  auto store = db::store::CreatePgStore(*address);
  ASSERT_TRUE(store) << store.error().to_string();
  ASSERT_TRUE((*store)->Begin());
  ASSERT_TRUE((*store)->CreateSchema(3));
  const std::vector<std::string> texts = {"a\ttab", "a\nline", "back\\slash",  "\\N",
                                          "\\.",    "",        "é ü 16A:0827", "\r\n\t\\"};
  constexpr std::int64_t kRows = 40;  // more than kCopyRows
  std::vector<std::string> phase(kRows);
  std::vector<db::store::Value> values;
  for (std::int64_t i = 0; i < kRows; ++i) {
    phase[i] = texts[i % texts.size()] + std::to_string(i);
    values.insert(values.end(),
                  {i + 2, std::int64_t{1}, i, std::string_view(phase[i]),
                   std::string_view(phase[i]), std::string_view("p"), std::string_view("h")});
  }
  ASSERT_TRUE(
      (*store)->Insert("phase", "seq, turn, n, phase, state_hash, prev_hash, hash", values));
  ASSERT_TRUE((*store)->Commit());
  ASSERT_TRUE((*store)->Publish());  // a new game's rows commit when it is published
  {
    pqxx::connection c(PgUri());
    pqxx::nontransaction tx(c);
    const pqxx::result rows = tx.exec_params(
        "SELECT seq, n, phase, state_hash FROM opsim_phase WHERE game = $1 ORDER BY seq", game);
    ASSERT_EQ(rows.size(), static_cast<std::size_t>(kRows));
    for (std::int64_t i = 0; i < kRows; ++i) {
      const pqxx::row r = rows[static_cast<pqxx::result::size_type>(i)];
      EXPECT_EQ(r[0].as<std::int64_t>(), i + 2);
      EXPECT_EQ(r[1].as<std::int64_t>(), i);
      EXPECT_FALSE(r[2].is_null()) << i;
      EXPECT_EQ(r[2].as<std::string>(), phase[i]) << i;
      EXPECT_EQ(r[3].as<std::string>(), phase[i]) << i;
    }
    EXPECT_EQ(tx.exec_params("SELECT count(*) FROM opsim_seq WHERE game = $1", game)[0][0]
                  .as<std::int64_t>(),
              kRows);
  }
  PgExec(
      "DELETE FROM opsim_phase WHERE game = $1; DELETE FROM opsim_seq WHERE game = $1; "
      "DELETE FROM opsim_log WHERE game = $1",
      game);
}

TEST(PgStore, AnUnreachableServerIsAnIoErrorThatShowsNoPassword) {
  auto log =
      TurnLog::Open("postgresql://someone:sekrit1@/opsim?host=/nonexistent&password=sekrit2#g1",
                    TurnLog::Access::kRead);
  ASSERT_FALSE(log);
  EXPECT_EQ(log.error().code, ErrorCode::kIOError) << log.error().to_string();
  const std::string said = log.error().to_string();
  EXPECT_EQ(said.find("sekrit"), std::string::npos) << said;
  EXPECT_NE(said.find("postgresql://someone:***@/opsim"), std::string::npos) << said;
}

// A log branched from a PostgreSQL game names its source without the password the address held.
TEST(PgStore, ABranchKeepsNoPasswordOfItsSource) {
  const std::string address = PgUri() + "&password=sekrit3#" + UniqueGame("branched");
  auto scenario = JsonSource::FromFile(test::BundledPath("special-terrain"));
  ASSERT_TRUE(scenario);
  ASSERT_TRUE(db::NewLoggedGame(address, *scenario, 1940));
  test::TempDir dir;
  const std::string out = dir.Path("branch.sqlite");
  auto branched = db::BranchLog(address, 0, out);
  ASSERT_TRUE(branched) << branched.error().to_string();
  auto log = TurnLog::Open(out, TurnLog::Access::kRead);
  ASSERT_TRUE(log);
  auto meta = log->Meta();
  ASSERT_TRUE(meta);
  const std::string from = (*meta)["branched_from"];
  EXPECT_EQ(from.find("sekrit"), std::string::npos) << from;
  EXPECT_NE(from.find("password=***"), std::string::npos) << from;
}

TEST(PgStore, AGameNotInTheStoreIsNotFound) {
  auto log = TurnLog::Open(PgUri() + "#" + UniqueGame("absent"), TurnLog::Access::kRead);
  ASSERT_FALSE(log);
  EXPECT_EQ(log.error().code, ErrorCode::kNotFound) << log.error().to_string();
}

// Two writers append the same next player-turn at once: exactly one wins, the other is told,
// and the chain verifies.
TEST(PgStore, TwoWritersOfOneGameNeverBothAppend) {
  const std::string address = PgUri() + "#" + UniqueGame("race");
  {
    auto log = TurnLog::Create(address, Record(), SnapshotAfter(0));
    ASSERT_TRUE(log && log->Publish());
  }
  for (int round = 1; round <= 5; ++round) {
    std::atomic<int> won{0}, lost{0};
    std::string why;
    auto writer = [&] {
      auto w = TurnLog::Open(address, TurnLog::Access::kWrite);
      if (!w) return;
      if (auto s = AppendOne(*w, round); s) {
        ++won;
      } else {
        why = s.error().to_string();
        ++lost;
      }
    };
    std::thread a(writer), b(writer);
    a.join();
    b.join();
    EXPECT_EQ(won.load(), 1) << "round " << round;
    EXPECT_EQ(lost.load(), 1) << "round " << round;
    EXPECT_NE(why.find("player-turn " + std::to_string(round)), std::string::npos) << why;
  }
  auto chain = Verify(address);
  ASSERT_TRUE(chain) << chain.error().to_string();
  EXPECT_EQ(chain->turns, 5);
}

// A seq another writer took first (one that wrote without the game's lock) is a unique
// violation: kWrongTurn, and nothing of the player-turn is written.
TEST(PgStore, ASeqTakenByAnotherWriterIsWrongTurnAndWritesNothing) {
  const std::string game = UniqueGame("taken");
  const std::string address = PgUri() + "#" + game;
  {
    auto log = TurnLog::Create(address, Record(), SnapshotAfter(0));
    ASSERT_TRUE(log && log->Publish());
  }
  PgExec("INSERT INTO opsim_seq (game, seq) VALUES ($1, 5)", game);
  auto w = TurnLog::Open(address, TurnLog::Access::kWrite);
  ASSERT_TRUE(w);
  auto s = AppendOne(*w, 1);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kWrongTurn) << s.error().to_string();
  auto chain = Verify(address);
  ASSERT_TRUE(chain) << chain.error().to_string();
  EXPECT_EQ(chain->turns, 0);
}

// A writer that holds the game past the busy timeout makes the other kBusy.
TEST(PgStore, AWriterWaitsForTheOtherThenSaysBusy) {
  const std::string address = PgUri() + "#" + UniqueGame("busy");
  {
    auto log = TurnLog::Create(address, Record(), SnapshotAfter(0));
    ASSERT_TRUE(log && log->Publish());
  }
  auto holder = TurnLog::Open(address, TurnLog::Access::kWrite);
  ASSERT_TRUE(holder);
  auto held = holder->Begin();
  ASSERT_TRUE(held);
  ::setenv("OPSIM_DB_BUSY_TIMEOUT_MS", "200", 1);
  auto other = TurnLog::Open(address, TurnLog::Access::kWrite);
  ::unsetenv("OPSIM_DB_BUSY_TIMEOUT_MS");
  ASSERT_TRUE(other);
  auto tx = other->Begin();
  ASSERT_FALSE(tx);
  EXPECT_EQ(tx.error().code, ErrorCode::kBusy) << tx.error().to_string();
  // Another game is not held.
  const std::string free = PgUri() + "#" + UniqueGame("free");
  auto log = TurnLog::Create(free, Record(), SnapshotAfter(0));
  ASSERT_TRUE(log) << log.error().to_string();
  ASSERT_TRUE(log->Publish());
}

TEST(PgStore, AnEditedRowIsFoundAndNamed) {
  test::TempDir dir;
  const std::string game = UniqueGame("edited");
  const std::string address = PgUri() + "#" + game;
  {
    auto log = TurnLog::Create(address, Record(), SnapshotAfter(0));
    ASSERT_TRUE(log && log->Publish());
    auto w = TurnLog::Open(address, TurnLog::Access::kWrite);
    ASSERT_TRUE(w);
    ASSERT_TRUE(AppendOne(*w, 1));
    ASSERT_TRUE(AppendOne(*w, 2));
  }
  // The second die roll of player-turn 2: seq 2 + 11 (turn 1) + 1 (its header) + 2.
  PgExec("UPDATE opsim_roll SET value = value % 6 + 1 WHERE game = $1 AND seq = 16", game);
  auto chain = Verify(address);
  ASSERT_FALSE(chain);
  EXPECT_EQ(chain.error().code, ErrorCode::kCorruption);
  EXPECT_NE(chain.error().message.find("die roll 2 of player-turn 2"), std::string::npos)
      << chain.error().to_string();
  EXPECT_NE(chain.error().where.find("row seq 16"), std::string::npos) << chain.error().to_string();
  EXPECT_EQ(chain.error().where.find(PgUri()), 0u) << chain.error().to_string();
}

// A writer killed inside its transaction (its connection gone) leaves the game as it was, and
// the next writer gets the lock.
TEST(PgStore, AWriterKilledMidTransactionLeavesNothingHalfWritten) {
  const std::string address = PgUri() + "#" + UniqueGame("killed");
  {
    auto log = TurnLog::Create(address, Record(), SnapshotAfter(0));
    ASSERT_TRUE(log && log->Publish());
  }
  {
    test::Child child([&](const std::function<void()>& ready) {
      auto w = TurnLog::Open(address, TurnLog::Access::kWrite);
      if (!w) return;
      auto tx = w->Begin();
      if (!tx) return;
      if (!w->AppendTurn(test::HandBuiltTurn(1, 2, 3), SnapshotAfter(1))) return;
      ready();  // the rows are written, not committed
    });
    ASSERT_TRUE(child.ready());
    child.Kill();
  }
  auto w = TurnLog::Open(address, TurnLog::Access::kWrite);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->CountTurns().value_or(-1), 0);
  auto s = AppendOne(*w, 1);
  ASSERT_TRUE(s) << s.error().to_string();
  auto chain = Verify(address);
  ASSERT_TRUE(chain) << chain.error().to_string();
  EXPECT_EQ(chain->rows, 2 + kRowsPerTurn);
}

// A database of its own, dropped at the end, for a test that must see all of a store.
class OwnDatabase {
 public:
  explicit OwnDatabase(const std::string& name)
      : name_(name + "_" + std::to_string(::getpid())), uri_(PgUri()) {
    Run("CREATE DATABASE " + name_);
    uri_.replace(uri_.find("/opsim?"), 7, "/" + name_ + "?");
  }
  ~OwnDatabase() { Run("DROP DATABASE " + name_ + " WITH (FORCE)"); }
  const std::string& uri() const { return uri_; }
  static void Run(const std::string& sql) {
    pqxx::connection c(PgUri());
    pqxx::nontransaction tx(c);
    tx.exec(sql);
  }

 private:
  std::string name_, uri_;
};

// A store made by a newer opsim is refused, as a log of a newer schema is.
TEST(PgStore, ANewerStoreIsRefused) {
  OwnDatabase db("opsim_newer");
  {
    auto log = TurnLog::Create(db.uri() + "#g1", Record(), SnapshotAfter(0));
    ASSERT_TRUE(log && log->Publish());
    pqxx::connection c(db.uri());
    pqxx::nontransaction tx(c);
    tx.exec("UPDATE opsim_store SET value = '2' WHERE key = 'schema'");
  }
  auto log = TurnLog::Open(db.uri() + "#g1", TurnLog::Access::kRead);
  ASSERT_FALSE(log);
  EXPECT_EQ(log.error().code, ErrorCode::kUnsupported) << log.error().to_string();
}

// --- a server's view of the store (db/hosting.h, issue 21) --------------------------------------

// A stamp tells a server whether a log changed since it read it: every write changes it (a
// player-turn, or a step in play, which only rewrites the metadata); reading does not.
TEST_P(BothStores, ALogsStampChangesWithEveryWriteAndOnlyThen) {
  const std::string address = Address("stamp");
  EXPECT_EQ(db::LogStamp(address).value_or("error"), "");  // not there
  {
    auto log = TurnLog::Create(address, Record(), SnapshotAfter(0));
    ASSERT_TRUE(log && log->Publish());
  }
  auto made = db::LogStamp(address);
  ASSERT_TRUE(made) << made.error().to_string();
  EXPECT_NE(*made, "");
  {
    auto r = TurnLog::Open(address, TurnLog::Access::kRead);
    ASSERT_TRUE(r && r->CountTurns());
  }
  EXPECT_EQ(db::LogStamp(address).value_or(""), *made);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));  // a file's time moves on
  auto w = TurnLog::Open(address, TurnLog::Access::kWrite);
  ASSERT_TRUE(w);
  ASSERT_TRUE(AppendOne(*w, 1));
  const std::string played = db::LogStamp(address).value_or("");
  EXPECT_NE(played, *made);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  {
    auto tx = w->Begin();
    ASSERT_TRUE(tx);
    ASSERT_TRUE(w->SetMeta("steps_pending", R"({"steps": []})"));
    ASSERT_TRUE(tx->Commit());
  }
  EXPECT_NE(db::LogStamp(address).value_or(""), played);
}

TEST(PgHosting, AStoreListsItsPublishedGamesAndKeepsTheirSecrets) {
  OwnDatabase db("opsim_hosting");
  auto games = db::PgGames::Open(db.uri());
  ASSERT_TRUE(games) << games.error().to_string();
  EXPECT_EQ(games->Games().value_or(std::vector<std::string>{"error"}).size(), 0u);
  for (const char* id : {"g-b", "g-a"}) {
    auto log = TurnLog::Create(games->Address(id), Record(), SnapshotAfter(0));
    ASSERT_TRUE(log && log->Publish());
  }
  auto making = TurnLog::Create(games->Address("g-c"), Record(), SnapshotAfter(0));
  ASSERT_TRUE(making);  // not published: no one sees it
  EXPECT_EQ(games->Games().value_or(std::vector<std::string>{}),
            (std::vector<std::string>{"g-a", "g-b"}));
  EXPECT_TRUE(games->Has("g-a").value_or(false));
  EXPECT_FALSE(games->Has("g-c").value_or(true));

  EXPECT_FALSE(games->Secrets("g-a").value_or("error"));
  ASSERT_TRUE(games->PutSecrets("g-a", "the secrets"));
  auto again = games->PutSecrets("g-a", "others");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(games->Secrets("g-a").value_or(std::nullopt).value_or(""), "the secrets");

  // Sweeping: secrets whose game never came, once over an hour old; never a game's.
  ASSERT_TRUE(games->PutSecrets("g-never", "orphan"));
  ASSERT_TRUE(games->Sweep());
  EXPECT_TRUE(games->Secrets("g-never").value_or(std::nullopt));
  {
    pqxx::connection c(db.uri());
    pqxx::nontransaction tx(c);
    tx.exec("UPDATE opsim_secret SET made = now() - interval '2 hours'");
    // PUBLIC (any other role) may not read them.
    const std::string role = "opsim_nobody_" + std::to_string(::getpid());
    tx.exec("CREATE ROLE " + role);
    EXPECT_FALSE(
        tx.exec("SELECT has_table_privilege('" + role + "', 'opsim_secret', 'SELECT')")[0][0]
            .as<bool>());
    tx.exec("DROP ROLE " + role);
  }
  ASSERT_TRUE(games->Sweep());
  EXPECT_FALSE(games->Secrets("g-never").value_or(std::nullopt));
  EXPECT_TRUE(games->Secrets("g-a").value_or(std::nullopt));
  ASSERT_TRUE(games->DropSecrets("g-a"));
  EXPECT_FALSE(games->Secrets("g-a").value_or(std::nullopt));
}

// Servers starting at once on a fresh store each make its tables if absent: one makes them,
// the others wait and find them (two at once once failed on opsim_secret's type name).
TEST(PgHosting, ServersStartingAtOnceOnAFreshStoreAllOpenIt) {
  for (int round = 0; round < 4; ++round) {
    OwnDatabase db("opsim_start" + std::to_string(round));
    constexpr int kServers = 6;
    std::atomic<int> ready = 0;
    std::vector<std::string> errors(kServers);
    std::vector<std::thread> servers;
    for (int i = 0; i < kServers; ++i) {
      servers.emplace_back([&, i] {
        ++ready;
        while (ready < kServers) std::this_thread::yield();
        auto games = db::PgGames::Open(db.uri());
        if (!games) errors[i] = games.error().to_string();
      });
    }
    for (auto& t : servers) t.join();
    for (int i = 0; i < kServers; ++i) EXPECT_EQ(errors[i], "") << "round " << round;
  }
}

// A store's address is a PostgreSQL URI naming no game: anything else is refused before
// connecting.
TEST(PgHosting, AStoreAddressIsAPostgresUriNamingNoGame) {
  for (const std::string& address :
       {PgUri() + "#g1", std::string("games/"), std::string("host=/tmp dbname=opsim")}) {
    auto games = db::PgGames::Open(address);
    ASSERT_FALSE(games) << address;
    EXPECT_EQ(games.error().code, ErrorCode::kInvalidInput) << games.error().to_string();
  }
}

// What a listener hears of `game`: the head seqs, waiting up to `wait` for `want` of them.
std::vector<std::int64_t> Hear(db::PgListener& l, const std::string& game, std::size_t want,
                               std::chrono::milliseconds wait) {
  std::vector<std::int64_t> heard;
  const auto end = std::chrono::steady_clock::now() + wait;
  while (heard.size() < want && std::chrono::steady_clock::now() < end) {
    pollfd p{l.socket(), POLLIN, 0};
    ::poll(&p, 1, 50);
    auto got = l.Take();
    EXPECT_TRUE(got) << got.error().to_string();
    if (!got) break;
    for (const auto& [g, seq] : *got) {  // other tests' games are heard too, on this cluster
      if (g == game) heard.push_back(seq);
    }
  }
  return heard;
}

TEST(PgHosting, AListenerHearsEachCommitWithItsGameAndHead) {
  auto listener = db::PgListener::Open(PgUri());
  ASSERT_TRUE(listener) << listener.error().to_string();
  const std::string game = UniqueGame("heard");
  const std::string address = PgUri() + "#" + game;
  {
    auto log = TurnLog::Create(address, Record(), SnapshotAfter(0));
    ASSERT_TRUE(log && log->Publish());
  }
  auto w = TurnLog::Open(address, TurnLog::Access::kWrite);
  ASSERT_TRUE(w);
  ASSERT_TRUE(AppendOne(*w, 1));
  // The game's row and the start's snapshot; then a player-turn's rows.
  EXPECT_EQ(Hear(**listener, game, 2, std::chrono::seconds(10)),
            (std::vector<std::int64_t>{2, 2 + kRowsPerTurn}));
  // Nothing more, nor of a read.
  ASSERT_TRUE(TurnLog::Open(address, TurnLog::Access::kRead));
  EXPECT_EQ(Hear(**listener, game, 1, std::chrono::milliseconds(300)).size(), 0u);
}

// A log opened and closed ten times in a row uses one connection, kept open between them.
TEST(PgHosting, ConnectionsAreKeptForTheNextLog) {
  const std::string app = "opsim_pool_" + std::to_string(::getpid());
  const std::string uri = PgUri() + "&application_name=" + app;
  const std::string address = uri + "#" + UniqueGame("pooled");
  {
    auto log = TurnLog::Create(address, Record(), SnapshotAfter(0));
    ASSERT_TRUE(log && log->Publish());
  }
  for (int i = 0; i < 10; ++i) {
    auto log = TurnLog::Open(address, TurnLog::Access::kWrite);
    ASSERT_TRUE(log && log->CountTurns());
  }
  pqxx::connection c(PgUri());
  pqxx::nontransaction tx(c);
  EXPECT_EQ(tx.exec("SELECT count(*) FROM pg_stat_activity WHERE application_name = " +
                    tx.quote(app))[0][0]
                .as<int>(),
            1);
}

}  // namespace
}  // namespace opsim
