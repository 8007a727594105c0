#include "sqlite.h"

#include <sys/resource.h>
#include <sys/statvfs.h>

#include <cctype>
#include <charconv>
#include <cstdlib>

#include "opsim/core/files.h"

namespace opsim::db::sql {

namespace {

constexpr int kDefaultBusyMs = 5000;

constexpr int kMaxBusyMs = 3600000;  // an hour

// Why a write found no room, if it did: this process may not grow files further (ulimit -f),
// or the file system is full. SQLite reports a short write as SQLITE_FULL, and a refused one
// (EFBIG, ENOSPC) as an I/O error; `full` is the former.
std::string NoRoom(const std::string& path, bool full) {
  rlimit lim{};
  if (::getrlimit(RLIMIT_FSIZE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY) {
    return "the file reached this process's size limit (ulimit -f)";
  }
  struct statvfs fs {};
  constexpr unsigned long long kLow = 1 << 20;
  if (full || (::statvfs(FolderOf(path).c_str(), &fs) == 0 &&
               static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize < kLow)) {
    return "the disk is full";
  }
  return "";
}

// `path` as an SQLite URI filename: every byte but the unreserved ones and '/' percent-encoded.
std::string FileUri(const std::string& path, const char* query) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file:";
  for (const unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 0xf];
    }
  }
  return uri + "?" + query;
}

}  // namespace

// A bad value is refused, not replaced by the default: a user who set it expects it to hold.
Result<int> BusyTimeoutMs() {
  const char* env = std::getenv("OPSIM_DB_BUSY_TIMEOUT_MS");
  if (env == nullptr || *env == '\0') return kDefaultBusyMs;
  int ms = 0;
  const std::string_view s(env);
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), ms);
  if (ec != std::errc() || end != s.data() + s.size() || ms < 0 || ms > kMaxBusyMs) {
    constexpr std::size_t kShown = 32;
    const std::string shown =
        s.size() > kShown ? std::string(s.substr(0, kShown)) + "…" : std::string(s);
    return Fail(ErrorCode::kInvalidInput,
                "$OPSIM_DB_BUSY_TIMEOUT_MS is '" + shown +
                    "': it must be a whole number of milliseconds from 0 to " +
                    std::to_string(kMaxBusyMs) + " (unset, the default is " +
                    std::to_string(kDefaultBusyMs) + ")",
                "OPSIM_DB_BUSY_TIMEOUT_MS");
  }
  return ms;
}

Statement& Statement::Bind(int i, std::int64_t v) {
  sqlite3_bind_int64(stmt_.get(), i, v);
  return *this;
}

Statement& Statement::Bind(int i, std::string_view text) {
  sqlite3_bind_text64(stmt_.get(), i, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  return *this;
}

Statement& Statement::BindBlob(int i, std::string_view bytes) {
  sqlite3_bind_blob64(stmt_.get(), i, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
  return *this;
}

Result<bool> Statement::Step() {
  const int rc = sqlite3_step(stmt_.get());
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return std::unexpected(db_->ErrorFor(rc, "running a statement"));
}

Status Statement::Run() {
  for (;;) {
    auto row = Step();
    if (!row) return std::unexpected(row.error());
    if (!*row) break;
  }
  Reset();
  return {};
}

void Statement::Reset() {
  sqlite3_reset(stmt_.get());
  sqlite3_clear_bindings(stmt_.get());
}

std::int64_t Statement::Int(int col) const {
  return sqlite3_column_int64(stmt_.get(), col);
}

std::string Statement::Text(int col) const {
  const auto* p = sqlite3_column_text(stmt_.get(), col);
  const int n = sqlite3_column_bytes(stmt_.get(), col);
  return p == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(p), n);
}

std::string Statement::Blob(int col) const {
  const void* p = sqlite3_column_blob(stmt_.get(), col);
  const int n = sqlite3_column_bytes(stmt_.get(), col);
  return p == nullptr ? std::string() : std::string(static_cast<const char*>(p), n);
}

Result<Database> Database::Open(const std::string& path, Mode mode) {
  Database d;
  d.path_ = path;
  auto busy_ms = BusyTimeoutMs();
  if (!busy_ms) return std::unexpected(busy_ms.error());
  d.busy_ms_ = *busy_ms;
  int flags = SQLITE_OPEN_NOMUTEX;
  std::string name = path;
  switch (mode) {
    case Mode::kRead:
      flags |= SQLITE_OPEN_READONLY;
      break;
    case Mode::kImmutable:
      flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
      name = FileUri(path, "immutable=1");
      break;
    case Mode::kWrite:
      flags |= SQLITE_OPEN_READWRITE;
      break;
    case Mode::kCreate:
      flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
      break;
  }
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(name.c_str(), &raw, flags, nullptr);
  d.db_.reset(raw);
  if (rc != SQLITE_OK) return std::unexpected(d.ErrorFor(rc, "opening it"));
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, d.busy_ms_);
  return d;
}

Status Database::Exec(const char* sql) const {
  const int rc = sqlite3_exec(db_.get(), sql, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return std::unexpected(ErrorFor(rc, sql));
  return {};
}

Result<Statement> Database::Prepare(std::string_view sql) const {
  sqlite3_stmt* s = nullptr;
  const int rc =
      sqlite3_prepare_v3(db_.get(), sql.data(), static_cast<int>(sql.size()), 0, &s, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(s);
    return std::unexpected(ErrorFor(rc, sql));
  }
  return Statement(s, this);
}

Result<std::int64_t> Database::QueryInt(const char* sql) const {
  auto st = Prepare(sql);
  if (!st) return std::unexpected(st.error());
  auto row = st->Step();
  if (!row) return std::unexpected(row.error());
  if (!*row) return Fail(ErrorCode::kInternal, std::string("no row from ") + sql, path_);
  return st->Int(0);
}

bool Database::read_only() const {
  return sqlite3_db_readonly(db_.get(), "main") == 1;
}

Error Database::ErrorFor(int rc, std::string_view doing) const {
  const std::string detail = db_ ? sqlite3_errmsg(db_.get()) : sqlite3_errstr(rc);
  const std::string context = " (while " + std::string(doing) + ": " + detail + ")";
  if ((rc & 0xff) == SQLITE_FULL || rc == SQLITE_IOERR_WRITE) {
    const std::string room = NoRoom(path_, (rc & 0xff) == SQLITE_FULL);
    if (!room.empty()) {
      return Error{
          ErrorCode::kIOError,
          room + "; nothing of this change was written, and the log is as it was" + context,
          path_,
          {}};
    }
  }
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Error{ErrorCode::kBusy,
                   "the log is locked by another process (waited " + std::to_string(busy_ms_) +
                       " ms); try again when it has finished" + context,
                   path_,
                   {}};
    case SQLITE_READONLY:
      return Error{ErrorCode::kReadOnly,
                   "the log cannot be written: the file or its folder is read-only" + context,
                   path_,
                   {}};
    case SQLITE_NOTADB:
      return Error{ErrorCode::kCorruption,
                   "not an opsim turn log: the file is not an SQLite database",
                   path_,
                   {}};
    case SQLITE_CORRUPT:
      return Error{ErrorCode::kCorruption, "the SQLite file is damaged" + context, path_, {}};
    case SQLITE_CANTOPEN:
      return Error{ErrorCode::kIOError, "cannot open the log" + context, path_, {}};
    case SQLITE_IOERR:
    case SQLITE_PERM:
      return Error{ErrorCode::kIOError, "the operating system refused" + context, path_, {}};
    case SQLITE_ERROR:
    case SQLITE_SCHEMA:
    case SQLITE_CONSTRAINT:
    case SQLITE_MISMATCH:
      // Our statements are fixed, so on a file that passed the identity check this means its
      // tables are not the ones opsim wrote.
      return Error{ErrorCode::kCorruption,
                   "the log does not have the tables and rows opsim wrote" + context,
                   path_,
                   {}};
    default:
      return Error{ErrorCode::kInternal, "SQLite failed" + context, path_, {}};
  }
}

}  // namespace opsim::db::sql
