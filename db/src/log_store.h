// LogStore: where a turn log's rows are kept, beneath TurnLog (private to db/).
//
// TurnLog says the chain once: each row's canonical content and hash, the links, the checks of
// CheckTail and VerifyChain, the decoders. A LogStore only keeps rows: an SQLite file
// (sqlite_store.cpp, the embedded default, unchanged on disk) or one game in a PostgreSQL
// database (pg_store.cpp). Both are SQL, so a store is asked in the log's own table and column
// names (docs/log-format.md); the PostgreSQL store keeps every game's rows in its opsim_ tables,
// each row with its game's id.
//
// It promises:
// - Every statement is fixed text made from the constant table and column names TurnLog passes;
//   every value is a bound parameter.
// - Begin() takes the log's one write lock (SQLite: BEGIN IMMEDIATE; PostgreSQL: a transaction
//   holding the game's advisory lock), kBusy past the busy timeout.
// - A new log (Create*) is invisible until Publish(); one destroyed unpublished leaves nothing.
// - Errors carry where() (a path, or the address without its password), never a password.
// Threading: one store is one connection; use it from one thread at a time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <expected>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/db/turn_log.h"

namespace opsim::db::store {

// Bytes bound as a blob (SQLite BLOB, PostgreSQL bytea), not as text.
struct Bytes {
  std::string_view data;
};
using Value = std::variant<std::int64_t, std::string_view, Bytes>;

// A result row, its columns numbered from 0 in the order the select names them.
class Row {
 public:
  virtual ~Row() = default;
  virtual std::int64_t Int(int col) const = 0;
  virtual std::string Text(int col) const = 0;
  virtual std::string Blob(int col) const = 0;
};
using RowFn = std::function<Status(const Row&)>;

// SELECT columns FROM table [WHERE key = ?] [ORDER BY order]; the table is one of the log's
// (game, turn, roll, event, phase, snapshot) or its chain view.
struct Select {
  const char* table = nullptr;
  std::string columns;
  const char* key = nullptr;
  const char* order = nullptr;
};

// How many columns a column list names.
inline std::size_t ColumnCount(std::string_view columns) {
  return static_cast<std::size_t>(std::count(columns.begin(), columns.end(), ',')) + 1;
}

class LogStore {
 public:
  virtual ~LogStore() = default;

  // The log in messages: its path, or its address with no password.
  virtual const std::string& where() const = 0;
  // The schema of the log's rows (1 to 3).
  virtual std::int32_t schema() const = 0;
  // A new log's tables in `schema`, inside its first transaction.
  virtual Status CreateSchema(std::int32_t schema) = 0;

  virtual Status Begin() = 0;
  virtual Status Commit() = 0;
  virtual void Rollback() = 0;

  // Calls `each` on every row `q` selects; `key` is the value its key column must have.
  virtual Status Query(const Select& q, std::optional<std::int64_t> key,
                       const RowFn& each) const = 0;
  // INSERT INTO table (columns) VALUES (...), (...): `values` holds one or more rows, a value
  // for each column, row after row.
  virtual Status Insert(const char* table, const char* columns, std::span<const Value> values) = 0;

  virtual Result<std::map<std::string, std::string>> Meta() const = 0;
  virtual Status SetMeta(std::string_view key, std::string_view value) = 0;
  virtual Status DeleteMeta(std::string_view key) = 0;

  // Makes a new log appear (and closes it).
  virtual Status Publish() = 0;
};

// A log address (docs/log-format.md, "Addresses"): a file path, or a PostgreSQL connection URI
// and a game id, `postgresql://...#GAME`.
struct LogAddress {
  std::string path;   // a file's path; empty for PostgreSQL
  std::string uri;    // the URI libpq is given, without the fragment
  std::string game;   // the game's id in the store
  std::string shown;  // the address without its password, for messages
  bool postgres() const { return !uri.empty(); }
};
// kInvalidInput for a PostgreSQL address with no game id or a bad one, before connecting.
Result<LogAddress> ParseLogAddress(const std::string& address);

// The SQLite file (sqlite_store.cpp).
Result<std::unique_ptr<LogStore>> CreateSqliteStore(const std::string& path);
Result<std::unique_ptr<LogStore>> OpenSqliteStore(const std::string& path, TurnLog::Access access);
// One game in PostgreSQL (pg_store.cpp).
Result<std::unique_ptr<LogStore>> CreatePgStore(const LogAddress& address);
Result<std::unique_ptr<LogStore>> OpenPgStore(const LogAddress& address, TurnLog::Access access);
// A table beside a PostgreSQL store's own: its name and the statements that make it.
struct PgTable {
  std::string name;
  const char* ddl;
};
// A PostgreSQL store's opsim_ tables, and `more`, each made if absent under one advisory lock,
// so that servers starting at once never make one twice (a store made by a newer opsim is
// refused).
Status MakePgTables(const std::string& uri, const std::vector<PgTable>& more = {});
// A PostgreSQL URI as messages show it: its password as ***.
std::string UriWithoutPassword(std::string uri);
// The opsim error for a libpqxx exception while `doing` something at `where` (an address as
// messages show it): unreachable or lost kIOError, a lock or serialization wait kBusy, a game's
// row another writer inserted first kWrongTurn, a game another writer made first kInvalidInput,
// a write on a reader's session kReadOnly; anything else kIOError, PostgreSQL's words quoted.
std::unexpected<Error> PgError(const std::exception& e, const std::string& where,
                               const std::string& doing);

}  // namespace opsim::db::store
