// What a server that hosts games needs of where their logs are (docs/deploy.md): whether a
// log changed since it was read, without opening it; and, for a PostgreSQL store, its games,
// the server's secrets for each, and the changes other servers commit.
//
// It promises:
// - Stamp() changes whenever a log is written: every write (a player-turn, a step, orders kept
//   pending) changes the log's metadata, and a PostgreSQL stamp is a digest of it, so two equal
//   stamps are two reads of the same log.
// - Secrets are readable only by the role that made the table (the server's): PUBLIC is
//   refused it.
// - Every statement binds its values; errors never show a password.
// Threading: the functions and PgGames are safe from any thread (each call takes a pooled
// connection); a PgListener is used from one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "opsim/core/error.h"

namespace opsim::db {

// The log at `address` (a path, or postgresql://...#GAME) as it stands: for a file, its and its
// WAL's times and the WAL's size; for a game in PostgreSQL, a digest of its metadata (its
// head's seq and hash, steps in play, orders pending). "" for a log that is not there.
Result<std::string> LogStamp(const std::string& address);

// The games of a PostgreSQL store, and the secrets a server keeps for those it created.
class PgGames {
 public:
  // `uri`: the store's PostgreSQL URI (no '#GAME'). Makes the opsim_ tables if absent, and the
  // secrets table, which PUBLIC may not read.
  static Result<PgGames> Open(const std::string& uri);

  // The store as messages show it (no password).
  const std::string& shown() const { return shown_; }
  // A game's log address (TurnLog::Open takes it).
  std::string Address(const std::string& game) const { return uri_ + "#" + game; }

  // The games whose logs are published, sorted.
  Result<std::vector<std::string>> Games() const;
  Result<bool> Has(const std::string& game) const;
  // The secrets document kept for a game; none for a game not made by a server.
  Result<std::optional<std::string>> Secrets(const std::string& game) const;
  // Keeps a new game's secrets (kInvalidInput if it has some).
  Status PutSecrets(const std::string& game, const std::string& doc) const;
  Status DropSecrets(const std::string& game) const;
  // Removes the secrets of games that never appeared, kept over an hour ago: a server stopped
  // while it made a game (secrets first, log last). Never a game being made now.
  Status Sweep() const;

 private:
  PgGames(std::string uri, std::string shown) : uri_(std::move(uri)), shown_(std::move(shown)) {}
  std::string uri_, shown_;
};

// The changes committed to a PostgreSQL store's games, by any process (LISTEN opsim_log): each
// write transaction notifies its game and its head's seq as it commits.
class PgListener {
 public:
  static Result<std::unique_ptr<PgListener>> Open(const std::string& uri);
  ~PgListener();
  PgListener(const PgListener&) = delete;
  PgListener& operator=(const PgListener&) = delete;

  // The connection's socket, to wait on for reading (-1 once lost).
  int socket() const;
  // The changes heard since the last call, without waiting: {game, head seq}. kIOError once
  // the connection is lost (Open another).
  Result<std::vector<std::pair<std::string, std::int64_t>>> Take();

 private:
  struct State;  // the connection and what it heard
  PgListener();
  std::unique_ptr<State> state_;
};

}  // namespace opsim::db
