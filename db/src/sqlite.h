// A thin RAII layer over the SQLite C API, returning opsim::Error instead of result codes.
//
// Only the turn log uses it. Every statement is prepared once and takes bound parameters; no SQL
// is ever assembled from values. Errors name the file and what was being done, and map SQLite's
// codes onto opsim's (busy, full disk, read-only, not a database...). Not thread-safe: one
// Database per thread.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "opsim/core/error.h"

namespace opsim::db::sql {

// $OPSIM_DB_BUSY_TIMEOUT_MS (default 5000): how long a writer waits for another's write lock
// (SQLite's busy timeout, PostgreSQL's lock timeout); kInvalidInput for a value that is not one.
Result<int> BusyTimeoutMs();

class Statement {
 public:
  Statement() = default;

  // Parameters are numbered from 1, as in SQLite.
  Statement& Bind(int i, std::int64_t v);
  Statement& Bind(int i, std::string_view text);
  Statement& BindBlob(int i, std::string_view bytes);

  // Steps once: true with a row to read, false when done.
  Result<bool> Step();
  // Steps to the end, for statements that return no rows.
  Status Run();
  // Ready to bind and run again.
  void Reset();

  std::int64_t Int(int col) const;
  std::string Text(int col) const;
  std::string Blob(int col) const;

 private:
  friend class Database;
  struct Finalize {
    void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
  };
  Statement(sqlite3_stmt* s, const class Database* db) : stmt_(s), db_(db) {}
  std::unique_ptr<sqlite3_stmt, Finalize> stmt_;
  const Database* db_ = nullptr;
};

class Database {
 public:
  // kImmutable reads a file that nothing can change while it is open (SQLite's `immutable=1`:
  // no locks, no -wal or -shm), such as one in a folder no one may write.
  enum class Mode { kRead, kImmutable, kWrite, kCreate };

  // Opens `path`; only kCreate creates a file. The busy timeout comes from
  // $OPSIM_DB_BUSY_TIMEOUT_MS (default 5000 ms).
  static Result<Database> Open(const std::string& path, Mode mode);

  // Runs fixed SQL (schema, pragmas, BEGIN/COMMIT) that takes no values.
  Status Exec(const char* sql) const;
  Result<Statement> Prepare(std::string_view sql) const;
  // A one-row, one-column integer query, such as a pragma.
  Result<std::int64_t> QueryInt(const char* sql) const;

  bool read_only() const;
  const std::string& path() const { return path_; }

  // The opsim error for SQLite result code `rc`, saying what we were `doing`.
  Error ErrorFor(int rc, std::string_view doing) const;

 private:
  struct Close {
    void operator()(sqlite3* d) const { sqlite3_close_v2(d); }
  };
  std::unique_ptr<sqlite3, Close> db_;
  std::string path_;
  int busy_ms_ = 0;
};

}  // namespace opsim::db::sql
