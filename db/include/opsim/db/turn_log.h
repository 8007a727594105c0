// TurnLog: the turn log of one game (docs/log-format.md): an SQLite file, or the game's rows in
// a PostgreSQL store. Every layer reads and writes a log through it, addressed by a string: a
// file's path, or `postgresql://...#GAME` (docs/log-format.md, "Addresses").
//
// TurnLog knows the log, not the rules. It writes and reads the game record (the scenario's
// text and hash, the seed, the rules version), each player-turn's canonical orders, rules
// version, die rolls, events and phase hashes, and a state snapshot at every turn boundary, and it
// checks the hash chain that links each row to the one before, so that an edited, deleted or
// reordered row is found.
//
// It promises:
// - A file that is not an opsim log, or is from a newer schema, is refused before anything in
//   it is read or changed (kCorruption, kUnsupported).
// - It reads schemas 1 to 3, and writes a log in the schema it was created in: a new seeded
//   log in schema 2, a new fair log in schema 3 (its dice kind, commitments and revealed keys),
//   a player-turn appended to a schema-1 log in schema 1.
// - A new log appears whole or not at all; an appended player-turn is one transaction (in WAL
//   mode, for a file), so a crash or a kill leaves the log as it was before that turn.
// - One writer at a time: a file's write lock, or in PostgreSQL a transaction holding the
//   game's advisory lock, so that two servers on one store never both append.
// - Every SQL statement is fixed text with bound parameters.
// - A reader writes nothing and leaves no -wal or -shm file it made; it reads a log whose file
//   and folder are read-only.
// - Errors: kBusy when another process holds the write lock past the busy timeout
//   ($OPSIM_DB_BUSY_TIMEOUT_MS, default 5000), kIOError for a full disk or a PostgreSQL server
//   that cannot be reached, kReadOnly for a file that cannot be written, kCorruption for a row
//   whose hash does not match, kWrongTurn when another writer appended the same player-turn.
// Threading: a TurnLog is one connection (SQLite or PostgreSQL); use it from one thread at a
// time. Any number of processes may read a log while one process appends to it.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/ops/game.h"
#include "opsim/ops/rules_version.h"

namespace opsim::db {

namespace store {
class LogStore;
}

// PRAGMA application_id of every opsim log ("OPSL"), and PRAGMA user_version: the newest schema
// this build reads and writes (3: fair dice), the schema of a new seeded log (2: rules versions,
// and each event's units, hexes and numbers), and the oldest schema it reads.
inline constexpr std::int32_t kLogApplicationId = 0x4F50534C;
inline constexpr std::int32_t kLogSchemaVersion = 3;
inline constexpr std::int32_t kSeededLogSchema = 2;
inline constexpr std::int32_t kOldestLogSchema = 1;

// How a game's dice are drawn (docs/dice.md): from the seed, which anyone holding the log can
// foresee, or from both players' keys (schema 3).
enum class DiceKind : std::uint8_t { kSeeded, kFair };
const char* DiceKindName(DiceKind kind);

// The game a log holds, written once when the log is created.
struct GameRecord {
  std::string scenario_name;
  std::string scenario;         // the scenario file's full text
  std::string scenario_sha256;  // hex SHA-256 of `scenario`
  std::uint64_t seed = 0;       // below 2^63, so that it reads plainly in SQL
  std::string start_hash;       // ops::StateHash of the state at the start
  // The rules version of the build that started the log (1 in a schema-1 log).
  std::int32_t rules_version = ops::kRulesVersion;
  // Fair games only (schema 3): the game's id and each player's commitment (hex, K[0] of his
  // key chain, opsim/core/fair_dice.h). A fair game's seed is 0 and unused.
  DiceKind dice = DiceKind::kSeeded;
  std::string game_id;
  std::string axis_commitment;
  std::string allied_commitment;
};

struct LoggedRoll {
  int value = 0;
  int sides = 6;
  bool scripted = false;
  std::string purpose;
  std::string rule;
  std::string decided;
  friend bool operator==(const LoggedRoll&, const LoggedRoll&) = default;
};

// An event (ops::Event). Its content is kind, rule, units, hexes and numbers; the text is for
// people. A schema-1 log kept no units, hexes or numbers.
struct LoggedEvent {
  std::string kind;
  std::string rule;
  std::string text;
  std::vector<std::string> units;
  std::vector<std::string> hexes;
  std::vector<std::int64_t> numbers;
  friend bool operator==(const LoggedEvent&, const LoggedEvent&) = default;
};

struct LoggedPhase {
  std::string phase;       // "initial", "movement", "combat", "exploitation"
  std::string state_hash;  // after that phase
  friend bool operator==(const LoggedPhase&, const LoggedPhase&) = default;
};

// One logged player-turn.
struct LoggedTurn {
  std::int32_t number = 0;  // 1 for the first player-turn of the log; --at N is after turn N
  std::int32_t serial = 0;  // the engine's player-turn serial (ops::TurnResult::player_turn)
  std::string side;         // "axis", "allied"
  std::string date;         // "Jan I 1942"
  std::string orders;       // canonical JSON, ops::OrdersToJson
  std::vector<LoggedRoll> rolls;
  std::vector<LoggedEvent> events;
  std::vector<LoggedPhase> phases;
  std::string final_hash;  // the state hash after the player-turn
  std::string logged_at;   // UTC wall-clock time; metadata outside the hash chain
  // The rules version of the build that played it (1 in a schema-1 log, which did not say).
  std::int32_t rules_version = ops::kRulesVersion;
  // A fair game's player-turn (schema 3): both players' revealed keys for it (hex), and the
  // SHA-256 of the mover's orders and of the defender's reply (docs/dice.md); empty otherwise.
  std::string axis_key;
  std::string allied_key;
  std::string orders_hash;
  std::string reply_hash;
  // As read from a log: the schema of its rows, and the seq of its first row (its rolls,
  // events and phase hashes follow it in order). 0 for a player-turn not read from a log.
  std::int32_t schema = 0;
  std::int64_t seq = 0;
};

// What a player-turn's result looks like in the log; and one of its events.
LoggedTurn ToLoggedTurn(std::int32_t number, std::string orders_json, const ops::TurnResult& r);
LoggedEvent ToLoggedEvent(const ops::Event& e);

// A serialized game state at a turn boundary (see snapshot.h).
struct Snapshot {
  std::int32_t turn = 0;  // the state after `turn` logged player-turns; 0 is the start
  int format = 0;         // the snapshot format it was written in
  std::string state_hash;
  std::string data;
};

// What a full check of the chain saw.
struct ChainReport {
  std::int64_t rows = 0;
  std::int32_t turns = 0;
  std::int32_t snapshots = 0;
  std::string head;  // the hash of the last row
};

// Called with (rows done, rows in all) during long checks.
using Progress = std::function<void(std::int64_t, std::int64_t)>;

// `address` as messages show it: a PostgreSQL URI without its password; a path as it is.
std::string ShownAddress(const std::string& address);
// Whether `address` names a game in PostgreSQL (postgresql:// or postgres://), not a file.
bool IsStoreAddress(std::string_view address);

// The metadata of a player-turn under way (docs/log-format.md), outside the chain: a fair game's
// orders or reply pending (the exchange: libquery's mail.h and play.h), and a player-turn in play
// step by step (libquery's steps.h). Each is removed in the transaction that logs its player-turn.
inline constexpr const char* kOrdersPendingMeta = "pbem_pending";
inline constexpr const char* kStepsPendingMeta = "steps_pending";

class TurnLog {
 public:
  enum class Access { kRead, kWrite };

  // Starts a new log at `address`. A file is written beside its path and becomes it at
  // Publish(); a PostgreSQL game is written in one transaction that Publish() commits; so an
  // interrupted start leaves nothing behind. Refuses if the file or the game exists.
  static Result<TurnLog> Create(const std::string& address, const GameRecord& game,
                                const Snapshot& start);
  // Opens an existing log, after checking that it is one this build understands. kRead changes
  // nothing and reads a file on read-only media; kWrite refuses a file or folder it may not
  // write (kReadOnly).
  static Result<TurnLog> Open(const std::string& address, Access access);
  // Copies the whole of `from` into a new log at `to` (`opsim export` and `import`): every row
  // as it is, with the same seq, hashes and schema, and the metadata. The chain is checked
  // before and after; the copy's head must be the original's (its report is returned).
  static Result<ChainReport> Copy(const TurnLog& from, const std::string& to);

  TurnLog(TurnLog&&) noexcept;
  TurnLog& operator=(TurnLog&&) noexcept;
  ~TurnLog();  // an unpublished new log is removed

  // Makes a log from Create() appear at its address (a file must not exist yet; a PostgreSQL
  // game's transaction commits). The TurnLog is closed afterwards.
  Status Publish();

  // Its address as messages show it (a PostgreSQL URI without its password).
  const std::string& path() const { return path_; }
  const GameRecord& game() const { return game_; }
  // The schema the log is in (a file's PRAGMA user_version), its new rows' schema too.
  std::int32_t schema() const { return schema_; }
  // The player-turns logged, read from the log now.
  Result<std::int32_t> CountTurns() const;
  // The metadata outside the chain: format, schema, created_at, head_seq, head_hash, ...
  Result<std::map<std::string, std::string>> Meta() const;
  // Sets or removes one metadata value (docs/log-format.md lists the keys); inside a
  // transaction, it is part of it.
  Status SetMeta(std::string_view key, std::string_view value);
  Status DeleteMeta(std::string_view key);

  // A write transaction (BEGIN IMMEDIATE): rolled back unless committed.
  class Transaction {
   public:
    Transaction(Transaction&& o) noexcept : log_(o.log_) { o.log_ = nullptr; }
    Transaction& operator=(Transaction&&) = delete;
    ~Transaction();
    Status Commit();

   private:
    friend class TurnLog;
    explicit Transaction(TurnLog* log) : log_(log) {}
    TurnLog* log_;
  };
  // Checks the chain's tail: the snapshot after the last player-turn, its row and its link to
  // the row before it, and that it names the state that player-turn ended in (or the start);
  // inside a transaction, also that it is the log's last row. Reads a few rows, never the
  // chain. kCorruption names the snapshot. The game layer calls it on every log it opens
  // (game_log.h), and under the write lock before it appends.
  Status CheckTail() const;
  // Takes the write lock; kBusy if another process keeps it past the busy timeout.
  Result<Transaction> Begin();
  // Appends player-turn `turn.number` (the next one) and the snapshot after it; only inside a
  // transaction.
  Status AppendTurn(const LoggedTurn& turn, const Snapshot& after);
  // The same, with the snapshot still being made (on another thread): it is waited for once
  // the player-turn's rows are written, so that the two overlap.
  Status AppendTurn(const LoggedTurn& turn, std::future<Snapshot> after);

  // A logged player-turn, 1..CountTurns(). Each row's own hash and the links between them are
  // checked; kCorruption names the first row that fails.
  Result<LoggedTurn> ReadTurn(std::int32_t number) const;
  // The turns that have a snapshot, ascending.
  Result<std::vector<std::int32_t>> SnapshotTurns() const;
  // The snapshot after `turn` player-turns, with its row hash and data digest checked.
  Result<Snapshot> ReadSnapshot(std::int32_t turn) const;

  // Checks the whole chain: every row's hash, every link, no gaps, the head the file records,
  // the scenario's digest and every snapshot's digest. kCorruption names the first bad row.
  Result<ChainReport> VerifyChain(const Progress& progress = {}) const;

 private:
  TurnLog();
  static Result<TurnLog> CreateIn(const std::string& address, const GameRecord& game,
                                  const Snapshot& start, std::int32_t schema);
  Status LoadGame();
  Status LoadHead();
  // AppendTurn's work: the player-turn's rows, then the snapshot `after` gives (called once the
  // rows are written), each the next link, then the new head.
  Status AppendTurnThen(const LoggedTurn& turn, const std::function<const Snapshot&()>& after);
  // Its parts.
  Status AppendTurnRows(const LoggedTurn& turn, std::int64_t& seq, std::string& prev);
  Status AppendSnapshotRow(const Snapshot& after, std::int64_t& seq, std::string& prev);
  Status SetHead(std::int64_t seq, const std::string& hash);

  std::unique_ptr<store::LogStore> store_;
  std::string path_;  // where the log is (or will be, once published), as messages show it
  GameRecord game_;
  std::int32_t schema_ = kLogSchemaVersion;
  // The chain's head while writing.
  std::int64_t head_seq_ = 0;
  std::string head_hash_;
  bool in_transaction_ = false;
};

}  // namespace opsim::db
