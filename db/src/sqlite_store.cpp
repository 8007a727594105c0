// The SQLite file as a LogStore (log_store.h): the embedded default, one game per file, the file
// on disk as docs/log-format.md describes it.
//
// What is a file's only lives here: a new log is written under a partial name and renamed into
// place by Publish() (never over a file); a reader on read-only media opens it immutable; a
// reader where it may write opens it query-only, so that SQLite removes the -wal and -shm again.
// Statements are prepared once per connection and kept.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unordered_map>

#include "log_store.h"
#include "opsim/core/files.h"
#include "sqlite.h"

namespace opsim::db::store {

namespace {

using sql::Database;
using sql::Statement;

// PRAGMAs take no bound parameters, so the constants are spelled out here.
static_assert(kLogApplicationId == 1330664268 && kSeededLogSchema == 2 && kLogSchemaVersion == 3);
// The tables of schema 1; schema 2 added the rules versions and each event's units, hexes and
// numbers (kSchema2Columns); schema 3 the fair game's columns (kFairColumns).
constexpr const char* kSchema = R"sql(
PRAGMA application_id = 1330664268;
CREATE TABLE meta (
  key TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE game (
  seq INTEGER PRIMARY KEY CHECK (seq = 1),
  scenario_name TEXT NOT NULL,
  scenario_sha256 TEXT NOT NULL,
  scenario TEXT NOT NULL,
  seed INTEGER NOT NULL,
  start_hash TEXT NOT NULL,
  rules_version INTEGER NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE TABLE turn (
  number INTEGER PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  serial INTEGER NOT NULL,
  side TEXT NOT NULL,
  date TEXT NOT NULL,
  orders TEXT NOT NULL,
  final_hash TEXT NOT NULL,
  logged_at TEXT NOT NULL,
  rules_version INTEGER NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE TABLE roll (
  seq INTEGER PRIMARY KEY,
  turn INTEGER NOT NULL,
  n INTEGER NOT NULL,
  value INTEGER NOT NULL,
  sides INTEGER NOT NULL,
  scripted INTEGER NOT NULL,
  purpose TEXT NOT NULL,
  rule TEXT NOT NULL,
  decided TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX roll_by_turn ON roll (turn, n);
CREATE TABLE event (
  seq INTEGER PRIMARY KEY,
  turn INTEGER NOT NULL,
  n INTEGER NOT NULL,
  kind TEXT NOT NULL,
  rule TEXT NOT NULL,
  text TEXT NOT NULL,
  units TEXT NOT NULL,
  hexes TEXT NOT NULL,
  numbers TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX event_by_turn ON event (turn, n);
CREATE TABLE phase (
  seq INTEGER PRIMARY KEY,
  turn INTEGER NOT NULL,
  n INTEGER NOT NULL,
  phase TEXT NOT NULL,
  state_hash TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX phase_by_turn ON phase (turn, n);
CREATE TABLE snapshot (
  turn INTEGER PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  format INTEGER NOT NULL,
  state_hash TEXT NOT NULL,
  data_sha256 TEXT NOT NULL,
  data BLOB NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE VIEW chain (seq, tbl, turn, prev_hash, hash) AS
  SELECT seq, 'game', 0, prev_hash, hash FROM game
  UNION ALL SELECT seq, 'turn', number, prev_hash, hash FROM turn
  UNION ALL SELECT seq, 'roll', turn, prev_hash, hash FROM roll
  UNION ALL SELECT seq, 'event', turn, prev_hash, hash FROM event
  UNION ALL SELECT seq, 'phase', turn, prev_hash, hash FROM phase
  UNION ALL SELECT seq, 'snapshot', turn, prev_hash, hash FROM snapshot;
)sql";
constexpr const char* kSeededSchema = "PRAGMA user_version = 2;";
// Schema 3 (a fair game): the dice kind and commitments in the game record, the revealed keys
// and the decisions' hashes in each player-turn.
constexpr const char* kFairSchema = R"sql(
PRAGMA user_version = 3;
ALTER TABLE game ADD COLUMN dice TEXT NOT NULL DEFAULT 'seeded';
ALTER TABLE game ADD COLUMN game_id TEXT NOT NULL DEFAULT '';
ALTER TABLE game ADD COLUMN axis_commitment TEXT NOT NULL DEFAULT '';
ALTER TABLE game ADD COLUMN allied_commitment TEXT NOT NULL DEFAULT '';
ALTER TABLE turn ADD COLUMN axis_key TEXT NOT NULL DEFAULT '';
ALTER TABLE turn ADD COLUMN allied_key TEXT NOT NULL DEFAULT '';
ALTER TABLE turn ADD COLUMN orders_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE turn ADD COLUMN reply_hash TEXT NOT NULL DEFAULT '';
)sql";
// Schema 1 (only ever written by a copy of a schema-1 log, `opsim export`): the tables had no
// rules versions and no event units, hexes or numbers.
constexpr const char* kSchema1 = R"sql(
PRAGMA user_version = 1;
ALTER TABLE game DROP COLUMN rules_version;
ALTER TABLE turn DROP COLUMN rules_version;
ALTER TABLE event DROP COLUMN units;
ALTER TABLE event DROP COLUMN hexes;
ALTER TABLE event DROP COLUMN numbers;
)sql";

// Whether this process may write `path` (a file, or a folder's entries). access() also says no
// for a read-only mount and an immutable file, which root's permission bits do not.
bool Writable(const std::string& path) {
  return ::access(path.c_str(), W_OK) == 0;
}

class SqliteRow final : public Row {
 public:
  explicit SqliteRow(const Statement& st) : st_(st) {}
  std::int64_t Int(int col) const override { return st_.Int(col); }
  std::string Text(int col) const override { return st_.Text(col); }
  std::string Blob(int col) const override { return st_.Blob(col); }

 private:
  const Statement& st_;
};

class SqliteStore final : public LogStore {
 public:
  SqliteStore(Database db, std::int32_t schema, std::string staging)
      : db_(std::move(db)), schema_(schema), staging_(std::move(staging)) {}
  ~SqliteStore() override {
    if (staging_.empty()) return;
    statements_.clear();
    db_ = {};
    for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
      std::remove((staging_ + suffix).c_str());
    }
  }

  void set_where(std::string where) { where_ = std::move(where); }
  const std::string& where() const override { return where_; }
  std::int32_t schema() const override { return schema_; }

  Status CreateSchema(std::int32_t schema) override {
    if (auto s = db_.Exec(kSchema); !s) return s;
    schema_ = schema;
    return db_.Exec(schema >= 3 ? kFairSchema : schema == 2 ? kSeededSchema : kSchema1);
  }

  Status Begin() override { return db_.Exec("BEGIN IMMEDIATE"); }
  Status Commit() override {
    if (auto s = db_.Exec("COMMIT"); !s) {
      Rollback();
      return s;
    }
    return {};
  }
  void Rollback() override { (void)db_.Exec("ROLLBACK"); }

  Status Query(const Select& q, std::optional<std::int64_t> key, const RowFn& each) const override {
    std::string sql = "SELECT " + q.columns + " FROM " + q.table;
    if (q.key != nullptr) sql += std::string(" WHERE ") + q.key + " = ?";
    if (q.order != nullptr) sql += std::string(" ORDER BY ") + q.order;
    auto st = Prepared(sql);
    if (!st) return std::unexpected(st.error());
    Statement& s = **st;
    if (key) s.Bind(1, *key);
    const SqliteRow row(s);
    for (;;) {
      auto has = s.Step();
      Status out;
      if (!has) {
        out = std::unexpected(has.error());
      } else if (*has) {
        out = each(row);
        if (out) continue;
      }
      s.Reset();
      return out;
    }
  }

  // One prepared single-row statement, run for each row.
  Status Insert(const char* table, const char* columns, std::span<const Value> values) override {
    const std::size_t width = ColumnCount(columns);
    std::string sql = std::string("INSERT INTO ") + table + " (" + columns + ") VALUES (?";
    for (std::size_t i = 1; i < width; ++i) sql += ", ?";
    auto st = Prepared(sql + ")");
    if (!st) return std::unexpected(st.error());
    Statement& s = **st;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const int n = static_cast<int>(i % width) + 1;
      if (const auto* v = std::get_if<std::int64_t>(&values[i])) {
        s.Bind(n, *v);
      } else if (const auto* t = std::get_if<std::string_view>(&values[i])) {
        s.Bind(n, *t);
      } else {
        s.BindBlob(n, std::get<Bytes>(values[i]).data);
      }
      if (static_cast<std::size_t>(n) < width) continue;
      if (auto done = RunOnce(s); !done) return done;
    }
    return {};
  }

  Result<std::map<std::string, std::string>> Meta() const override {
    std::map<std::string, std::string> meta;
    auto s = Query({"meta", "key, value", nullptr, "key"}, std::nullopt, [&](const Row& r) {
      meta[r.Text(0)] = r.Text(1);
      return Status();
    });
    if (!s) return std::unexpected(s.error());
    return meta;
  }
  Status SetMeta(std::string_view key, std::string_view value) override {
    auto st = Prepared("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
    if (!st) return std::unexpected(st.error());
    (*st)->Bind(1, key).Bind(2, value);
    return RunOnce(**st);
  }
  Status DeleteMeta(std::string_view key) override {
    auto st = Prepared("DELETE FROM meta WHERE key = ?");
    if (!st) return std::unexpected(st.error());
    (*st)->Bind(1, key);
    return RunOnce(**st);
  }

  Status Publish() override;

  Database& db() { return db_; }

 private:
  // Runs a kept statement to its end, and resets it even after an error.
  static Status RunOnce(Statement& st) {
    auto done = st.Run();
    st.Reset();
    return done;
  }

  // The statement for `sql`, prepared on first use and kept; it is reset after each use.
  Result<Statement*> Prepared(const std::string& sql) const {
    auto it = statements_.find(sql);
    if (it == statements_.end()) {
      auto st = db_.Prepare(sql);
      if (!st) return std::unexpected(st.error());
      it = statements_.emplace(sql, std::move(*st)).first;
    }
    return &it->second;
  }

  Database db_;
  mutable std::unordered_map<std::string, Statement> statements_;  // after db_: closed first
  std::string where_;
  std::int32_t schema_ = kLogSchemaVersion;
  std::string staging_;  // a new log's file until Publish()
};

Status SqliteStore::Publish() {
  if (staging_.empty()) return Fail(ErrorCode::kInternal, "the log is already published");
  if (auto s = db_.Exec("PRAGMA journal_mode = WAL"); !s) return s;
  statements_.clear();
  db_ = {};  // closes the file; nothing is left in a journal or a WAL
  std::error_code ec;
  if (std::filesystem::exists(staging_ + "-wal", ec)) {
    return Fail(ErrorCode::kIOError, "could not finish writing the new log", staging_);
  }
  // Moved into place in one step, never over a file that appeared meanwhile: a process killed
  // at any point leaves the log whole or only its partial file (which RemoveStalePartials
  // sweeps). A file system without RENAME_NOREPLACE: a link, then the partial name removed.
  bool linked = false;
  int err = 0;
  if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, where_.c_str(), RENAME_NOREPLACE) != 0) {
    err = errno;
    if (err == EINVAL || err == ENOSYS) {
      linked = ::link(staging_.c_str(), where_.c_str()) == 0;
      err = linked ? 0 : errno;
    }
  }
  if (err != 0) {
    if (err == EEXIST) {
      return Fail(ErrorCode::kInvalidInput,
                  "the file appeared while the new log was being written; it was left alone",
                  where_);
    }
    return Fail(err == EROFS || err == EACCES ? ErrorCode::kReadOnly : ErrorCode::kIOError,
                std::string("cannot create the log: ") + std::strerror(err), where_);
  }
  if (linked) std::remove(staging_.c_str());
  staging_.clear();
  // The log is in place: a folder that cannot be flushed does not undo that.
  (void)SyncFolderOf(where_);
  return {};
}

}  // namespace

Result<std::unique_ptr<LogStore>> CreateSqliteStore(const std::string& path) {
  // What a process killed while making this log left beside it (and this one's own leftovers).
  RemoveStalePartials(path);
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    return Fail(ErrorCode::kInvalidInput,
                "the file already exists; a new game needs a new file (remove it, or choose "
                "another name)",
                path);
  }
  if (!Writable(FolderOf(path))) {
    return Fail(ErrorCode::kReadOnly,
                "cannot create the log: its folder is read-only; nothing was written", path);
  }
  const std::string staging = PartialPath(path);
  auto db = Database::Open(staging, Database::Mode::kCreate);
  if (!db) return std::unexpected(db.error());
  auto store = std::make_unique<SqliteStore>(std::move(*db), kLogSchemaVersion, staging);
  store->set_where(path);
  // A rollback journal while the file is private; Publish() turns on WAL. Pages of 16 KiB make
  // a player-turn's commit fewer writes (docs/log-format.md).
  if (auto s = store->db().Exec(
          "PRAGMA page_size = 16384; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL");
      !s) {
    return std::unexpected(s.error());
  }
  return store;
}

Result<std::unique_ptr<LogStore>> OpenSqliteStore(const std::string& path, TurnLog::Access access) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Fail(ErrorCode::kNotFound, "no such turn log", path);
    return Fail(ErrorCode::kIOError, std::string("cannot open the log: ") + std::strerror(errno),
                path);
  }
  if (!S_ISREG(st.st_mode)) return Fail(ErrorCode::kInvalidInput, "not a file", path);

  // SQLite keeps a WAL log's -wal and -shm files beside it. A writer must be able to make them;
  // a reader opens the log read-write but query-only where it may write it, so that SQLite,
  // the last to close it, removes them again; read-only where it may not, but may make them;
  // and immutable where it can make neither and none is there, since no writer can then append
  // to the log either (docs/log-format.md, "Read-only logs").
  const bool folder_writable = Writable(FolderOf(path));
  Database::Mode mode = Database::Mode::kWrite;
  if (access == TurnLog::Access::kWrite) {
    if (!folder_writable || !Writable(path)) {
      return Fail(ErrorCode::kReadOnly,
                  std::string("the log cannot be written: ") +
                      (folder_writable ? "the file" : "its folder") +
                      " is read-only; nothing was changed",
                  path);
    }
  } else if (!folder_writable) {
    // A -wal or a hot -journal holds what the file alone does not: SQLite must read it.
    std::error_code ec;
    const bool beside = std::filesystem::exists(path + "-wal", ec) ||
                        std::filesystem::exists(path + "-journal", ec);
    mode = beside ? Database::Mode::kRead : Database::Mode::kImmutable;
  } else if (!Writable(path)) {
    mode = Database::Mode::kRead;
  }
  auto db = Database::Open(path, mode);
  if (!db) return std::unexpected(db.error());
  if (access == TurnLog::Access::kRead && mode == Database::Mode::kWrite) {
    if (auto s = db->Exec("PRAGMA query_only = ON"); !s) return std::unexpected(s.error());
  }

  // Who the file is, before anything else is read or changed.
  auto app = db->QueryInt("PRAGMA application_id");
  if (!app) return std::unexpected(app.error());
  if (*app != kLogApplicationId) {
    return Fail(ErrorCode::kCorruption,
                st.st_size == 0 ? std::string("not an opsim turn log: the file is empty")
                                : "not an opsim turn log: an SQLite database of another kind "
                                  "(application_id " +
                                      std::to_string(*app) + ")",
                path);
  }
  auto schema = db->QueryInt("PRAGMA user_version");
  if (!schema) return std::unexpected(schema.error());
  if (*schema > kLogSchemaVersion) {
    return Fail(ErrorCode::kUnsupported,
                "the log was written by a newer opsim (log schema " + std::to_string(*schema) +
                    "; this build reads schemas " + std::to_string(kOldestLogSchema) + " to " +
                    std::to_string(kLogSchemaVersion) + "); upgrade opsim to read it",
                path);
  }
  if (*schema < kOldestLogSchema) {
    return Fail(ErrorCode::kCorruption, "an unfinished opsim turn log (log schema 0)", path);
  }
  if (access == TurnLog::Access::kWrite) {
    if (db->read_only()) {
      return Fail(ErrorCode::kReadOnly,
                  "the log cannot be written: the file or its folder is read-only; nothing was "
                  "changed",
                  path);
    }
    if (auto s = db->Exec("PRAGMA synchronous = FULL"); !s) return std::unexpected(s.error());
  }
  auto store =
      std::make_unique<SqliteStore>(std::move(*db), static_cast<std::int32_t>(*schema), "");
  store->set_where(path);
  return store;
}

}  // namespace opsim::db::store
