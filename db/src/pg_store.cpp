// One game's turn log in a PostgreSQL database, as a LogStore (log_store.h), over libpqxx; and
// the parsing of a log address (docs/log-format.md, "Addresses" and "PostgreSQL").
//
// Every game of a store shares its opsim_ tables; each row carries its game's id. The first
// writer makes the tables (inside a transaction holding an advisory lock, so that two servers
// starting together do not race) and a store schema version that a newer store is refused by.
// Each game keeps its log schema (1 to 3): its rows are exactly the file's, so a game moves
// between a file and a store with every hash unchanged. `(game, seq)` is unique across a game's
// whole chain (opsim_seq, claimed by a trigger on every chained table).
//
// One writer per game, enforced by the database: a write transaction takes
// pg_advisory_xact_lock on the game before it reads the head; TurnLog then refuses a player-turn
// that is not the next, and a unique violation (a writer that got there first) is kWrongTurn.
// A reader's session is read-only. Errors never show the URI's password.
#include <pqxx/pqxx>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "log_store.h"
#include "opsim/core/sha256.h"
#include "pg_pool.h"
#include "sqlite.h"

namespace opsim::db::store {

namespace {

// The store's own schema (the opsim_ tables), not a game's log schema.
constexpr int kStoreSchema = 1;

// The parameters of one INSERT, well under PostgreSQL's limit of 65535.
constexpr std::size_t kMaxParameters = 30000;
// From this many rows without a blob, a table's rows go in by COPY (docs/performance.md): a
// bundled player-turn's events (about 20) among them.
constexpr std::size_t kCopyRows = 16;

// COPY's lines, a row each, with the game first. libpqxx 6.4's stream_to writes a row from a
// tuple only (std::array of its fields here), so a row's width is a template parameter: one
// function for each width up to the widest chained table's (11 columns).
template <std::size_t W>
void CopyRows(pqxx::stream_to& copy, const std::string& game, std::span<const Value> values) {
  std::array<std::string, W + 1> row;
  row[0] = game;
  for (std::size_t at = 0; at < values.size(); at += W) {
    for (std::size_t k = 0; k < W; ++k) {
      const Value& v = values[at + k];
      const auto* i = std::get_if<std::int64_t>(&v);
      row[k + 1] = i != nullptr ? std::to_string(*i) : std::string(std::get<std::string_view>(v));
    }
    copy << row;
  }
}
using CopyRowsFn = void (*)(pqxx::stream_to&, const std::string&, std::span<const Value>);
template <std::size_t... W>
constexpr std::array<CopyRowsFn, sizeof...(W)> CopyRowsFns(std::index_sequence<W...>) {
  return {&CopyRows<W + 1>...};
}
constexpr auto kCopyRowsOf = CopyRowsFns(std::make_index_sequence<12>());

constexpr const char* kTables = R"sql(
CREATE TABLE IF NOT EXISTS opsim_store (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS opsim_log (
  game TEXT PRIMARY KEY,
  schema INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS opsim_meta (
  game TEXT NOT NULL REFERENCES opsim_log (game),
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (game, key)
);
CREATE TABLE IF NOT EXISTS opsim_seq (
  game TEXT NOT NULL REFERENCES opsim_log (game),
  seq BIGINT NOT NULL,
  PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS opsim_game (
  game TEXT PRIMARY KEY REFERENCES opsim_log (game),
  seq BIGINT NOT NULL CHECK (seq = 1),
  scenario_name TEXT NOT NULL,
  scenario_sha256 TEXT NOT NULL,
  scenario TEXT NOT NULL,
  seed BIGINT NOT NULL,
  start_hash TEXT NOT NULL,
  rules_version BIGINT NOT NULL DEFAULT 1,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  dice TEXT NOT NULL DEFAULT 'seeded',
  game_id TEXT NOT NULL DEFAULT '',
  axis_commitment TEXT NOT NULL DEFAULT '',
  allied_commitment TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS opsim_turn (
  game TEXT NOT NULL REFERENCES opsim_log (game),
  number BIGINT NOT NULL,
  seq BIGINT NOT NULL,
  serial BIGINT NOT NULL,
  side TEXT NOT NULL,
  date TEXT NOT NULL,
  orders TEXT NOT NULL,
  final_hash TEXT NOT NULL,
  logged_at TEXT NOT NULL,
  rules_version BIGINT NOT NULL DEFAULT 1,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  axis_key TEXT NOT NULL DEFAULT '',
  allied_key TEXT NOT NULL DEFAULT '',
  orders_hash TEXT NOT NULL DEFAULT '',
  reply_hash TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (game, number),
  UNIQUE (game, seq)
);
CREATE TABLE IF NOT EXISTS opsim_roll (
  game TEXT NOT NULL REFERENCES opsim_log (game),
  seq BIGINT NOT NULL,
  turn BIGINT NOT NULL,
  n BIGINT NOT NULL,
  value BIGINT NOT NULL,
  sides BIGINT NOT NULL,
  scripted BIGINT NOT NULL,
  purpose TEXT NOT NULL,
  rule TEXT NOT NULL,
  decided TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS opsim_roll_by_turn ON opsim_roll (game, turn, n);
CREATE TABLE IF NOT EXISTS opsim_event (
  game TEXT NOT NULL REFERENCES opsim_log (game),
  seq BIGINT NOT NULL,
  turn BIGINT NOT NULL,
  n BIGINT NOT NULL,
  kind TEXT NOT NULL,
  rule TEXT NOT NULL,
  text TEXT NOT NULL,
  units TEXT NOT NULL DEFAULT '[]',
  hexes TEXT NOT NULL DEFAULT '[]',
  numbers TEXT NOT NULL DEFAULT '[]',
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS opsim_event_by_turn ON opsim_event (game, turn, n);
CREATE TABLE IF NOT EXISTS opsim_phase (
  game TEXT NOT NULL REFERENCES opsim_log (game),
  seq BIGINT NOT NULL,
  turn BIGINT NOT NULL,
  n BIGINT NOT NULL,
  phase TEXT NOT NULL,
  state_hash TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS opsim_phase_by_turn ON opsim_phase (game, turn, n);
CREATE TABLE IF NOT EXISTS opsim_snapshot (
  game TEXT NOT NULL REFERENCES opsim_log (game),
  turn BIGINT NOT NULL,
  seq BIGINT NOT NULL,
  format BIGINT NOT NULL,
  state_hash TEXT NOT NULL,
  data_sha256 TEXT NOT NULL,
  data BYTEA NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (game, turn),
  UNIQUE (game, seq)
);
CREATE OR REPLACE VIEW opsim_chain (game, seq, tbl, turn, prev_hash, hash) AS
  SELECT game, seq, 'game', 0::BIGINT, prev_hash, hash FROM opsim_game
  UNION ALL SELECT game, seq, 'turn', number, prev_hash, hash FROM opsim_turn
  UNION ALL SELECT game, seq, 'roll', turn, prev_hash, hash FROM opsim_roll
  UNION ALL SELECT game, seq, 'event', turn, prev_hash, hash FROM opsim_event
  UNION ALL SELECT game, seq, 'phase', turn, prev_hash, hash FROM opsim_phase
  UNION ALL SELECT game, seq, 'snapshot', turn, prev_hash, hash FROM opsim_snapshot;
CREATE OR REPLACE FUNCTION opsim_claim_seq() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO opsim_seq (game, seq) SELECT game, seq FROM added;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER opsim_game_seq AFTER INSERT ON opsim_game
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION opsim_claim_seq();
CREATE OR REPLACE TRIGGER opsim_turn_seq AFTER INSERT ON opsim_turn
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION opsim_claim_seq();
CREATE OR REPLACE TRIGGER opsim_roll_seq AFTER INSERT ON opsim_roll
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION opsim_claim_seq();
CREATE OR REPLACE TRIGGER opsim_event_seq AFTER INSERT ON opsim_event
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION opsim_claim_seq();
CREATE OR REPLACE TRIGGER opsim_phase_seq AFTER INSERT ON opsim_phase
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION opsim_claim_seq();
CREATE OR REPLACE TRIGGER opsim_snapshot_seq AFTER INSERT ON opsim_snapshot
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION opsim_claim_seq();
INSERT INTO opsim_store (key, value) VALUES ('schema', '1') ON CONFLICT (key) DO NOTHING;
)sql";

// The advisory lock that makes the tables: any fixed key no game's can be mistaken for in
// practice ("OPSIMTBL").
constexpr std::int64_t kTablesLock = 0x4F5053494D54424C;

// A game's advisory lock key: the first 8 bytes of the SHA-256 of its id. Stable across servers,
// builds and restarts (std::hash is none of these), and spread over all 64 bits; two ids that
// collide only make their games wait for each other, never both write one.
std::int64_t GameLockKey(const std::string& game) {
  Sha256 h;
  h.Update("opsim game ");
  h.Update(game);
  const auto d = h.Digest();
  std::uint64_t key = 0;
  for (int i = 0; i < 8; ++i) key = (key << 8) | d[static_cast<std::size_t>(i)];
  return static_cast<std::int64_t>(key);
}

// The first line of a libpq or server message.
std::string FirstLine(const char* what) {
  std::string s(what);
  if (auto nl = s.find('\n'); nl != std::string::npos) s.resize(nl);
  return s;
}

// The name in double quotes after `lead` in a server message ("" if none).
std::string QuotedAfter(const std::string& what, std::string_view lead) {
  const std::size_t at = what.find(lead);
  if (at == std::string::npos || what.size() <= at + lead.size() || what[at + lead.size()] != '"') {
    return "";
  }
  const std::size_t from = at + lead.size() + 1;
  const std::size_t to = what.find('"', from);
  return to == std::string::npos ? "" : what.substr(from, to - from);
}

}  // namespace

std::unexpected<Error> PgError(const std::exception& e, const std::string& where,
                               const std::string& doing) {
  const std::string what = FirstLine(e.what());
  if (dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr ||
      dynamic_cast<const pqxx::in_doubt_error*>(&e) != nullptr) {
    return Fail(ErrorCode::kIOError,
                "the PostgreSQL server could not be reached while " + doing + ": " + what, where);
  }
  if (dynamic_cast<const pqxx::transaction_rollback*>(&e) != nullptr) {
    return Fail(ErrorCode::kBusy, "another writer holds the game while " + doing + ": " + what,
                where);
  }
  if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e)) {
    const std::string& state = sql->sqlstate();
    // lock_not_available (the lock timeout), serialization failure, deadlock, statement timeout.
    if (state == "55P03" || state == "40001" || state == "40P01" || state == "57014") {
      return Fail(ErrorCode::kBusy,
                  "another writer holds the game past the busy timeout ($OPSIM_DB_BUSY_TIMEOUT_MS) "
                  "while " +
                      doing + ": " + what,
                  where);
    }
    if (state == "23505") {
      // Which unique constraint says which writer came first: a game's own rows (another writer
      // appended first), the game itself (another made it at the same moment), or anything
      // else, such as PostgreSQL's catalog (then PostgreSQL refused, below).
      const std::string constraint = QuotedAfter(what, "unique constraint ");
      if (constraint == "opsim_log_pkey" || constraint == "opsim_game_pkey") {
        return Fail(ErrorCode::kInvalidInput,
                    "the game already exists in the store: another writer made it first (" + what +
                        "); nothing was written",
                    where);
      }
      if (constraint.starts_with("opsim_")) {
        return Fail(ErrorCode::kWrongTurn,
                    "another writer appended to the game first (" + what + "); nothing was written",
                    where);
      }
    }
    if (state == "25006") {
      return Fail(ErrorCode::kReadOnly, "the game was opened to read: " + what, where);
    }
    if (state.rfind("08", 0) == 0) {
      return Fail(ErrorCode::kIOError,
                  "the connection to PostgreSQL failed while " + doing + ": " + what, where);
    }
  }
  return Fail(ErrorCode::kIOError, "PostgreSQL refused " + doing + ": " + what, where);
}

namespace {

class PgRow final : public Row {
 public:
  explicit PgRow(const pqxx::row& r) : r_(r) {}
  std::int64_t Int(int col) const override { return r_[col].as<std::int64_t>(); }
  std::string Text(int col) const override { return std::string(r_[col].c_str(), r_[col].size()); }
  std::string Blob(int col) const override { return pqxx::binarystring(r_[col]).str(); }

 private:
  const pqxx::row& r_;
};

class PgStore final : public LogStore {
 public:
  explicit PgStore(const LogAddress& address)
      : game_(address.game), where_(address.shown), lock_key_(GameLockKey(address.game)) {}
  ~PgStore() override {
    // A clean connection goes back to the pool; one with a transaction open (an unpublished
    // game, an unfinished append) is closed, which rolls it back.
    try {
      tx_.reset();
      if (conn_ && !failed_ && !open_ && !unpublished_) conn_->Give();
      conn_.reset();
    } catch (...) {  // NOLINT(bugprone-empty-catch): closing cannot fail the caller
    }
  }

  // Connects (pg_pool.h), with the busy timeout as PostgreSQL's lock timeout; a reader's
  // session writes nothing.
  Status Connect(const std::string& uri, bool read_only) {
    auto busy = sql::BusyTimeoutMs();
    if (!busy) return std::unexpected(busy.error());
    // PostgreSQL reads a lock timeout of 0 as none: 1 ms is the nearest to SQLite's 0.
    std::vector<std::string> settings{"SELECT set_config('lock_timeout', '" +
                                      std::to_string(std::max(*busy, 1)) + "ms', false)"};
    if (read_only) settings.emplace_back("SET default_transaction_read_only = on");
    return Try("connecting", [&] {
      conn_.emplace(PgConnection::Take(uri, settings));
      tx_ = std::make_unique<pqxx::nontransaction>(**conn_);
    });
  }

  // Makes the opsim_ tables if absent, once, however many servers start at once. Only where
  // there are none: replacing the view or a trigger would wait for every writer of every game,
  // and deadlock with a reader of the view. Whether they are there is read from pg_class with
  // the statement's snapshot, after the lock: to_regclass answers from the session's cache of
  // names, which taking an advisory lock does not refresh, so a process that had looked before
  // another made the tables would still find none, and make them again under its readers.
  Status MakeTables() { return MakeTable("opsim_store", kTables); }

  // Runs `ddl` if the table `name` is absent, under the tables' advisory lock (see MakeTables).
  Status MakeTable(const std::string& name, const char* ddl) {
    const auto absent = [&] {
      return tx_->exec_params(
                    "SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "
                    "ON n.oid = c.relnamespace WHERE c.relname = $1 AND "
                    "n.nspname = current_schema()",
                    name)[0][0]
                 .as<int>() == 0;
    };
    auto s = Try("making the " + name + " table", [&] {
      if (!absent()) return;
      tx_->exec("BEGIN");
      tx_->exec_params("SELECT pg_advisory_xact_lock($1)", kTablesLock);
      if (absent()) tx_->exec(ddl);
      tx_->exec("COMMIT");
    });
    if (!s) Rollback();
    return s;
  }

  // The store's schema (refused if newer), then the game's log schema: kNotFound if the store
  // or the game is not there and `must_exist`.
  Status ReadSchemas(bool must_exist) {
    bool tables = false;
    std::optional<std::int32_t> store_schema, log_schema;
    auto s = Try("reading the store's schema", [&] {
      tables = !tx_->exec("SELECT to_regclass('opsim_store')")[0][0].is_null();
      if (!tables) return;
      auto r = tx_->exec("SELECT value FROM opsim_store WHERE key = 'schema'");
      if (!r.empty()) store_schema = std::stoi(r[0][0].c_str());
      auto g = tx_->exec_params("SELECT schema FROM opsim_log WHERE game = $1", game_);
      if (!g.empty()) log_schema = g[0][0].as<std::int32_t>();
    });
    if (!s) return s;
    if (store_schema && *store_schema > kStoreSchema) {
      return Fail(ErrorCode::kUnsupported,
                  "the store was made by a newer opsim (store schema " +
                      std::to_string(*store_schema) + "; this build knows " +
                      std::to_string(kStoreSchema) + "); upgrade opsim to use it",
                  where_);
    }
    if (must_exist && !log_schema) {
      return Fail(
          ErrorCode::kNotFound,
          tables ? "no such game in the store" : "no such game: the database holds no opsim store",
          where_);
    }
    if (log_schema && (*log_schema > kLogSchemaVersion || *log_schema < kOldestLogSchema)) {
      return Fail(ErrorCode::kUnsupported,
                  "the game's log schema is " + std::to_string(*log_schema) +
                      "; this build reads schemas " + std::to_string(kOldestLogSchema) + " to " +
                      std::to_string(kLogSchemaVersion),
                  where_);
    }
    if (log_schema) schema_ = *log_schema;
    return {};
  }

  void set_creating() { unpublished_ = true; }

  const std::string& where() const override { return where_; }
  std::int32_t schema() const override { return schema_; }

  Status CreateSchema(std::int32_t schema) override {
    bool exists = false;
    auto s = Try("creating the game", [&] {
      exists = !tx_->exec_params("SELECT 1 FROM opsim_log WHERE game = $1", game_).empty();
      if (!exists) {
        tx_->exec_params("INSERT INTO opsim_log (game, schema) VALUES ($1, $2)", game_, schema);
      }
    });
    if (!s) return s;
    if (exists) {
      return Fail(ErrorCode::kInvalidInput,
                  "the game already exists in the store; a new game needs a new id", where_);
    }
    schema_ = schema;
    return {};
  }

  // The outer transaction holds the game's lock; inside a new game's (which Publish commits),
  // a savepoint stands for it.
  Status Begin() override {
    if (open_ && unpublished_ && !nested_) {
      nested_ = true;
      return Try("starting a write", [&] { tx_->exec("SAVEPOINT opsim_write"); });
    }
    if (open_) return Fail(ErrorCode::kInternal, "a transaction is already open", where_);
    auto s = Try("taking the game's write lock", [&] {
      tx_->exec("BEGIN");
      open_ = true;
      tx_->exec_params("SELECT pg_advisory_xact_lock($1)", lock_key_);
    });
    if (!s) Rollback();
    return s;
  }
  Status Commit() override {
    if (nested_) {
      nested_ = false;
      return Try("committing", [&] { tx_->exec("RELEASE SAVEPOINT opsim_write"); });
    }
    if (unpublished_) return {};  // Publish() commits the new game
    open_ = false;
    // The servers listening hear of the change once it commits (docs/log-format.md,
    // "PostgreSQL"): the game and its head's seq.
    auto s = Try("committing", [&] {
      tx_->exec_params(
          "SELECT pg_notify('opsim_log', $1 || ' ' || coalesce((SELECT value FROM opsim_meta "
          "WHERE game = $1 AND key = 'head_seq'), '0'))",
          game_);
      tx_->exec("COMMIT");
    });
    if (!s) Rollback();
    return s;
  }
  void Rollback() override {
    try {
      if (nested_) {
        nested_ = false;
        tx_->exec("ROLLBACK TO SAVEPOINT opsim_write");
        return;
      }
      open_ = false;
      tx_->exec("ROLLBACK");
    } catch (const std::exception&) {  // a broken link rolls back; it is not reused
      failed_ = true;
    }
  }

  Status Query(const Select& q, std::optional<std::int64_t> key, const RowFn& each) const override {
    std::string sql = "SELECT " + q.columns + " FROM opsim_" + q.table + " WHERE game = $1";
    if (q.key != nullptr) sql += std::string(" AND ") + q.key + " = $2";
    if (q.order != nullptr) sql += std::string(" ORDER BY ") + q.order;
    Status out;
    auto s = Try("reading the log", [&] {
      const pqxx::result r =
          key ? tx_->exec_params(sql, game_, *key) : tx_->exec_params(sql, game_);
      for (const auto& row : r) {
        out = each(PgRow(row));
        if (!out) return;
      }
    });
    if (!s) return s;
    return out;
  }

  // The rows in as few statements as PostgreSQL's 65535 parameters allow: a round trip each,
  // where a statement a row made a player-turn of 800 rows ten times slower
  // (docs/performance.md). Many rows without a blob (a player-turn's events and rolls) go in by
  // COPY instead, which the server reads a line at a time, with no statement to parse or
  // parameters to bind; the statement-level trigger that claims their seq fires on it as on an
  // INSERT.
  Status Insert(const char* table, const char* columns, std::span<const Value> values) override {
    const std::size_t width = ColumnCount(columns);
    const auto blob = [](const Value& v) { return std::holds_alternative<Bytes>(v); };
    if (width <= kCopyRowsOf.size() && values.size() >= kCopyRows * width &&
        std::ranges::none_of(values, blob)) {
      return Copy(table, columns, width, values);
    }
    const std::size_t batch = std::max<std::size_t>(1, kMaxParameters / width) * width;
    for (std::size_t from = 0; from < values.size(); from += batch) {
      const std::size_t n = std::min(batch, values.size() - from);
      if (auto s = InsertRows(table, columns, width, values.subspan(from, n)); !s) return s;
    }
    return {};
  }

  // The rows by COPY: `width` at most kCopyRowsOf's size.
  Status Copy(const char* table, std::string_view columns, std::size_t width,
              std::span<const Value> values) {
    std::vector<std::string> names{"game"};
    for (std::size_t from = 0; from <= columns.size();) {
      const std::size_t comma = std::min(columns.find(',', from), columns.size());
      std::string_view name = columns.substr(from, comma - from);
      while (name.starts_with(' ')) name.remove_prefix(1);
      names.emplace_back(name);
      from = comma + 1;
    }
    return Try(std::string("writing to ") + table, [&] {
      pqxx::stream_to copy(*tx_, std::string("opsim_") + table, names);
      kCopyRowsOf[width - 1](copy, game_, values);
      copy.complete();
    });
  }

  Status InsertRows(const char* table, const char* columns, std::size_t width,
                    std::span<const Value> values) {
    std::string sql =
        std::string("INSERT INTO opsim_") + table + " (game, " + columns + ") VALUES ";
    for (std::size_t i = 0; i < values.size(); ++i) {
      sql += i % width != 0 ? ", $" : i == 0 ? "($1, $" : "), ($1, $";
      sql += std::to_string(i + 2);
    }
    sql += ")";
    // Text parameters, but for one blob at most (a snapshot's data), sent as binary.
    std::vector<std::string> before{game_}, after;
    std::optional<pqxx::binarystring> blob;
    for (const Value& v : values) {
      std::vector<std::string>& into = blob ? after : before;
      if (const auto* i = std::get_if<std::int64_t>(&v)) {
        into.push_back(std::to_string(*i));
      } else if (const auto* t = std::get_if<std::string_view>(&v)) {
        into.emplace_back(*t);
      } else if (!blob) {
        const std::string_view b = std::get<Bytes>(v).data;
        blob.emplace(b.data(), b.size());
      } else {
        return Fail(ErrorCode::kInternal, "one blob a statement", where_);
      }
    }
    return Try(std::string("writing to ") + table, [&] {
      if (blob) {
        tx_->exec_params(sql, pqxx::prepare::make_dynamic_params(before), *blob,
                         pqxx::prepare::make_dynamic_params(after));
      } else {
        tx_->exec_params(sql, pqxx::prepare::make_dynamic_params(before));
      }
    });
  }

  Result<std::map<std::string, std::string>> Meta() const override {
    std::map<std::string, std::string> meta;
    auto s = Try("reading the metadata", [&] {
      for (const auto& row :
           tx_->exec_params("SELECT key, value FROM opsim_meta WHERE game = $1", game_)) {
        meta[row[0].c_str()] = row[1].c_str();
      }
    });
    if (!s) return std::unexpected(s.error());
    return meta;
  }
  Status SetMeta(std::string_view key, std::string_view value) override {
    return Try("writing the metadata", [&] {
      tx_->exec_params(
          "INSERT INTO opsim_meta (game, key, value) VALUES ($1, $2, $3) "
          "ON CONFLICT (game, key) DO UPDATE SET value = EXCLUDED.value",
          game_, std::string(key), std::string(value));
    });
  }
  Status DeleteMeta(std::string_view key) override {
    return Try("writing the metadata", [&] {
      tx_->exec_params("DELETE FROM opsim_meta WHERE game = $1 AND key = $2", game_,
                       std::string(key));
    });
  }

  Status Publish() override {
    if (!unpublished_) return Fail(ErrorCode::kInternal, "the log is already published", where_);
    unpublished_ = false;
    return Commit();
  }

 private:
  // Runs `f`, turning a libpqxx exception into an opsim error.
  template <class F>
  Status Try(const std::string& doing, F f) const {
    try {
      f();
      return {};
    } catch (const std::exception& e) {
      failed_ = true;
      return PgError(e, where_, doing);
    }
  }

  std::string game_;
  std::string where_;
  std::int64_t lock_key_;
  std::int32_t schema_ = kLogSchemaVersion;
  std::optional<PgConnection> conn_;
  std::unique_ptr<pqxx::nontransaction> tx_;  // statements, and our own BEGIN and COMMIT
  mutable bool failed_ = false;               // a statement failed: the connection is not reused
  bool open_ = false;                         // a transaction is open
  bool nested_ = false;                       // and a savepoint inside it
  bool unpublished_ = false;                  // a new game, until Publish()
};

bool ValidGameId(std::string_view id) {
  if (id.empty() || id.size() > 64 || id[0] == '-') return false;
  for (char c : id) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

}  // namespace

// `uri` without its password: user:***@ in the authority, password=*** in the query.
std::string UriWithoutPassword(std::string uri) {
  const std::size_t scheme = uri.find("://");
  const std::size_t start = scheme + 3;
  const std::size_t end = std::min(uri.find_first_of("/?", start), uri.size());
  if (const std::size_t at = uri.rfind('@', end); at != std::string::npos && at >= start) {
    if (const std::size_t colon = uri.find(':', start); colon < at) {
      uri.replace(colon + 1, at - colon - 1, "***");
    }
  }
  for (std::size_t q = uri.find('?'); q != std::string::npos; q = uri.find('&', q + 1)) {
    if (uri.compare(q + 1, 9, "password=") == 0) {
      const std::size_t from = q + 10;
      const std::size_t to = std::min(uri.find('&', from), uri.size());
      uri.replace(from, to - from, "***");
    }
  }
  return uri;
}

Result<LogAddress> ParseLogAddress(const std::string& address) {
  LogAddress a;
  if (!IsStoreAddress(address)) {
    a.path = address;
    a.shown = address;
    return a;
  }
  const std::size_t hash = address.rfind('#');
  a.uri = address.substr(0, hash);
  a.shown = UriWithoutPassword(a.uri);
  if (hash == std::string::npos) {
    return Fail(ErrorCode::kInvalidInput,
                "a PostgreSQL log address names its game after '#' (postgresql://...#GAME)",
                a.shown);
  }
  a.game = address.substr(hash + 1);
  a.shown += "#" + a.game;
  if (!ValidGameId(a.game)) {
    return Fail(ErrorCode::kInvalidInput,
                "the game id after '#' must be 1 to 64 of a-z, 0-9 and '-', not starting with "
                "'-'",
                a.shown);
  }
  return a;
}

Result<std::unique_ptr<LogStore>> CreatePgStore(const LogAddress& address) {
  auto store = std::make_unique<PgStore>(address);
  if (auto s = store->Connect(address.uri, false); !s) return std::unexpected(s.error());
  if (auto s = store->MakeTables(); !s) return std::unexpected(s.error());
  if (auto s = store->ReadSchemas(false); !s) return std::unexpected(s.error());
  store->set_creating();
  return store;
}

Status MakePgTables(const std::string& uri, const std::vector<PgTable>& more) {
  LogAddress store;
  store.uri = uri;
  store.shown = UriWithoutPassword(uri);
  PgStore tables(store);
  if (auto s = tables.Connect(uri, false); !s) return s;
  if (auto s = tables.MakeTables(); !s) return s;
  for (const auto& t : more) {
    if (auto s = tables.MakeTable(t.name, t.ddl); !s) return s;
  }
  return tables.ReadSchemas(false);
}

Result<std::unique_ptr<LogStore>> OpenPgStore(const LogAddress& address, TurnLog::Access access) {
  auto store = std::make_unique<PgStore>(address);
  if (auto s = store->Connect(address.uri, access == TurnLog::Access::kRead); !s) {
    return std::unexpected(s.error());
  }
  if (auto s = store->ReadSchemas(true); !s) return std::unexpected(s.error());
  return store;
}

}  // namespace opsim::db::store
