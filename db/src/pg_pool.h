// PostgreSQL connections kept open for reuse (private to db/): a connect costs about 16 ms on
// a Unix socket (docs/performance.md), a statement on an open one a fraction of a millisecond.
//
// It promises:
// - A connection is given back only clean: its holder saw no error on it and left no
//   transaction open (the holder says so); anything else is closed.
// - Connections are pooled by their URI and their session settings (`settings`, statements run
//   once when the connection is made), so a connection taken is as a new one would be.
// - At most kIdle idle connections a key stay open.
// - A process forked from one with idle connections never uses or closes them (both would
//   speak on one socket): the child makes its own.
// Threading: thread-safe.
#pragma once

#include <memory>
#include <pqxx/pqxx>
#include <string>
#include <vector>

namespace opsim::db::store {

class PgConnection {
 public:
  // Takes an idle connection to `uri` with these session settings, or makes one (and runs
  // the settings on it). Throws libpqxx's exceptions.
  static PgConnection Take(const std::string& uri, const std::vector<std::string>& settings);
  PgConnection(PgConnection&&) noexcept = default;
  PgConnection& operator=(PgConnection&&) noexcept = default;
  ~PgConnection();  // closes it: Give() back what is clean

  pqxx::connection& operator*() const { return *conn_; }
  pqxx::connection* operator->() const { return conn_.get(); }
  // Gives the connection back to the pool, for one its holder knows to be clean.
  void Give();

 private:
  PgConnection(std::string key, std::unique_ptr<pqxx::connection> conn)
      : key_(std::move(key)), conn_(std::move(conn)) {}
  std::string key_;
  std::unique_ptr<pqxx::connection> conn_;
};

}  // namespace opsim::db::store
