#include "pg_pool.h"

#include <unistd.h>

#include <map>
#include <mutex>

namespace opsim::db::store {

namespace {

constexpr std::size_t kIdle = 8;  // idle connections kept a key

struct Pool {
  std::mutex mu;
  pid_t pid = getpid();
  std::map<std::string, std::vector<std::unique_ptr<pqxx::connection>>> idle;

  // Under mu: in a forked child, the parent's connections are forgotten, never closed (closing
  // one would end the parent's session on the socket they share).
  void ForgetIfForked() {
    if (pid == getpid()) return;
    for (auto& [key, conns] : idle) {
      for (auto& c : conns) (void)c.release();  // NOLINT(bugprone-unused-return-value)
    }
    idle.clear();
    pid = getpid();
  }
};

Pool& ThePool() {
  static Pool* pool = new Pool;  // never destroyed: connections may be given back at exit
  return *pool;
}

}  // namespace

PgConnection PgConnection::Take(const std::string& uri, const std::vector<std::string>& settings) {
  std::string key = uri;
  for (const std::string& s : settings) key += '\n' + s;
  Pool& pool = ThePool();
  {
    std::lock_guard lock(pool.mu);
    pool.ForgetIfForked();
    auto& conns = pool.idle[key];
    if (!conns.empty()) {
      auto c = std::move(conns.back());
      conns.pop_back();
      return PgConnection(std::move(key), std::move(c));
    }
  }
  auto conn = std::make_unique<pqxx::connection>(uri);
  {
    pqxx::nontransaction tx(*conn);
    for (const std::string& s : settings) tx.exec(s);
  }
  return PgConnection(std::move(key), std::move(conn));
}

void PgConnection::Give() {
  if (!conn_ || !conn_->is_open()) return;
  Pool& pool = ThePool();
  std::lock_guard lock(pool.mu);
  pool.ForgetIfForked();
  auto& conns = pool.idle[key_];
  if (conns.size() < kIdle) conns.push_back(std::move(conn_));
}

PgConnection::~PgConnection() {
  try {
    conn_.reset();
  } catch (...) {  // NOLINT(bugprone-empty-catch): closing cannot fail the holder
  }
}

}  // namespace opsim::db::store
