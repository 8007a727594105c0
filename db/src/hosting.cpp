// opsim/db/hosting.h: a log's stamp, a PostgreSQL store's games and secrets, and its changes.
#include "opsim/db/hosting.h"

#include <filesystem>
#include <pqxx/pqxx>

#include "log_store.h"
#include "pg_pool.h"

namespace opsim::db {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSecretsTable = R"sql(
CREATE TABLE IF NOT EXISTS opsim_secret (
  game TEXT PRIMARY KEY,
  doc TEXT NOT NULL,
  made TIMESTAMPTZ NOT NULL DEFAULT now()
);
REVOKE ALL ON opsim_secret FROM PUBLIC;
)sql";

// Runs `f` on a pooled connection to `uri`, turning a libpqxx exception into the opsim error
// (store::PgError); the connection goes back to the pool once `f` returns.
template <class F>
auto OnPooled(const std::string& uri, const std::string& shown, const std::string& doing, F f)
    -> Result<decltype(f(std::declval<pqxx::nontransaction&>()))> {
  try {
    auto conn = store::PgConnection::Take(uri, {});
    std::optional<pqxx::nontransaction> tx(std::in_place, *conn);
    auto out = f(*tx);
    tx.reset();
    conn.Give();
    return out;
  } catch (const std::exception& e) {
    return store::PgError(e, shown, doing);
  }
}

std::string FileStamp(const std::string& path) {
  std::error_code ec;
  const auto log = fs::last_write_time(path, ec);
  if (ec) return "";
  const auto wal = fs::last_write_time(path + "-wal", ec);
  const auto wal_time = ec ? 0 : wal.time_since_epoch().count();
  const auto wal_size = fs::file_size(path + "-wal", ec);
  return std::to_string(log.time_since_epoch().count()) + " " + std::to_string(wal_time) + " " +
         std::to_string(ec ? 0 : wal_size);
}

}  // namespace

Result<std::string> LogStamp(const std::string& address) {
  auto a = store::ParseLogAddress(address);
  if (!a) return std::unexpected(a.error());
  if (!a->postgres()) return FileStamp(a->path);
  return OnPooled(a->uri, a->shown, "reading the game's stamp", [&](pqxx::nontransaction& tx) {
    const auto r = tx.exec_params(
        "SELECT count(*), md5(coalesce(string_agg(key || '=' || md5(value), ',' ORDER BY key), "
        "'')) FROM opsim_meta WHERE game = $1",
        a->game);
    return r[0][0].as<std::int64_t>() == 0 ? std::string() : std::string(r[0][1].c_str());
  });
}

Result<PgGames> PgGames::Open(const std::string& uri) {
  if (!uri.starts_with("postgresql://") && !uri.starts_with("postgres://")) {
    return Fail(ErrorCode::kInvalidInput,
                "a store is a PostgreSQL URI: postgresql://[USER[:PASSWORD]@]HOST/DATABASE", uri);
  }
  const std::string shown = store::UriWithoutPassword(uri);
  if (uri.find('#') != std::string::npos) {
    return Fail(ErrorCode::kInvalidInput,
                "a store's address names no game (postgresql://HOST/DATABASE, no '#GAME')", shown);
  }
  if (auto s = store::MakePgTables(uri, {{"opsim_secret", kSecretsTable}}); !s) {
    return std::unexpected(s.error());
  }
  return PgGames(uri, shown);
}

Result<std::vector<std::string>> PgGames::Games() const {
  return OnPooled(uri_, shown_, "listing the games", [](pqxx::nontransaction& tx) {
    std::vector<std::string> games;
    for (const auto& row : tx.exec("SELECT game FROM opsim_log ORDER BY game")) {
      games.emplace_back(row[0].c_str());
    }
    return games;
  });
}

Result<bool> PgGames::Has(const std::string& game) const {
  return OnPooled(uri_, shown_, "looking for the game", [&](pqxx::nontransaction& tx) {
    return !tx.exec_params("SELECT 1 FROM opsim_log WHERE game = $1", game).empty();
  });
}

Result<std::optional<std::string>> PgGames::Secrets(const std::string& game) const {
  return OnPooled(uri_, shown_, "reading the game's secrets", [&](pqxx::nontransaction& tx) {
    const auto r = tx.exec_params("SELECT doc FROM opsim_secret WHERE game = $1", game);
    return r.empty() ? std::optional<std::string>() : std::optional<std::string>(r[0][0].c_str());
  });
}

Status PgGames::PutSecrets(const std::string& game, const std::string& doc) const {
  auto put = OnPooled(uri_, shown_, "keeping the game's secrets", [&](pqxx::nontransaction& tx) {
    return tx
        .exec_params(
            "INSERT INTO opsim_secret (game, doc) VALUES ($1, $2) ON CONFLICT (game) DO NOTHING",
            game, doc)
        .affected_rows();
  });
  if (!put) return std::unexpected(put.error());
  if (*put == 0) {
    return Fail(ErrorCode::kInvalidInput, "the game's secrets exist already", shown_ + "#" + game);
  }
  return {};
}

Status PgGames::DropSecrets(const std::string& game) const {
  auto dropped =
      OnPooled(uri_, shown_, "removing the game's secrets", [&](pqxx::nontransaction& tx) {
        tx.exec_params("DELETE FROM opsim_secret WHERE game = $1", game);
        return true;
      });
  if (!dropped) return std::unexpected(dropped.error());
  return {};
}

Status PgGames::Sweep() const {
  auto swept = OnPooled(uri_, shown_, "sweeping the secrets", [](pqxx::nontransaction& tx) {
    tx.exec(
        "DELETE FROM opsim_secret s WHERE made < now() - interval '1 hour' AND NOT EXISTS "
        "(SELECT 1 FROM opsim_log l WHERE l.game = s.game)");
    return true;
  });
  if (!swept) return std::unexpected(swept.error());
  return {};
}

namespace {

// Keeps each "GAME SEQ" heard on channel opsim_log; anything else is not ours, and not kept.
class Receiver final : public pqxx::notification_receiver {
 public:
  Receiver(pqxx::connection& c, std::vector<std::pair<std::string, std::int64_t>>& heard)
      : pqxx::notification_receiver(c, "opsim_log"), heard_(heard) {}
  void operator()(const std::string& payload, int) override {
    const std::size_t space = payload.find(' ');
    if (space == std::string::npos) return;
    try {
      heard_.emplace_back(payload.substr(0, space), std::stoll(payload.substr(space + 1)));
    } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): not a seq, not ours
    }
  }

 private:
  std::vector<std::pair<std::string, std::int64_t>>& heard_;
};

}  // namespace

struct PgListener::State {
  std::string shown;
  std::vector<std::pair<std::string, std::int64_t>> heard;
  std::unique_ptr<pqxx::connection> conn;
  std::unique_ptr<Receiver> receiver;
  ~State() {
    try {
      receiver.reset();
      conn.reset();
    } catch (...) {  // NOLINT(bugprone-empty-catch): closing cannot fail the caller
    }
  }
};

PgListener::PgListener() : state_(std::make_unique<State>()) {}
PgListener::~PgListener() = default;

Result<std::unique_ptr<PgListener>> PgListener::Open(const std::string& uri) {
  std::unique_ptr<PgListener> l(new PgListener);
  State& s = *l->state_;
  s.shown = store::UriWithoutPassword(uri);
  try {
    s.conn = std::make_unique<pqxx::connection>(uri);
    s.receiver = std::make_unique<Receiver>(*s.conn, s.heard);  // LISTEN opsim_log
  } catch (const std::exception& e) {
    return store::PgError(e, s.shown, "listening to the store");
  }
  return l;
}

int PgListener::socket() const {
  return state_->conn ? state_->conn->sock() : -1;
}

Result<std::vector<std::pair<std::string, std::int64_t>>> PgListener::Take() {
  try {
    state_->conn->get_notifs();
  } catch (const std::exception& e) {
    return store::PgError(e, state_->shown, "hearing the store's notifications");
  }
  return std::exchange(state_->heard, {});
}

}  // namespace opsim::db
