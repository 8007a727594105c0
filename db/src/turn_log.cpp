#include "opsim/db/turn_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "canonical_row.h"
#include "opsim/core/files.h"
#include "opsim/core/sha256.h"
#include "opsim/ops/calendar.h"
#include "sqlite.h"

namespace opsim::db {

namespace {

using sql::Database;
using sql::Statement;

const std::string kGenesis(64, '0');

// PRAGMAs take no bound parameters, so the constants are spelled out here.
static_assert(kLogApplicationId == 1330664268 && kSeededLogSchema == 2 && kLogSchemaVersion == 3);
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

// The chained content of each row (canonical_row.h): every column but the hashes, the
// snapshot's data (its SHA-256 stands for it) and the wall-clock metadata, keys in byte order.
// Schema 1 had no rules versions and no event units, hexes or numbers.
std::string RowHash(std::string_view prev, std::string_view content) {
  Sha256 h;
  h.Update(prev);
  h.Update("\n");
  h.Update(content);
  return h.HexDigest();
}

std::string GameContent(const GameRecord& g, std::int32_t schema) {
  CanonicalRow row;
  if (schema >= 3) {
    row.Str("allied_commitment", g.allied_commitment)
        .Str("axis_commitment", g.axis_commitment)
        .Str("dice", DiceKindName(g.dice))
        .Str("game_id", g.game_id);
  }
  if (schema >= 2) row.Int("rules_version", g.rules_version);
  return row.Str("scenario_name", g.scenario_name)
      .Str("scenario_sha256", g.scenario_sha256)
      .Int("seed", static_cast<std::int64_t>(g.seed))
      .Int("seq", 1)
      .Str("start_hash", g.start_hash)
      .Str("table", "game")
      .Take();
}

std::string TurnContent(std::int64_t seq, const LoggedTurn& t, std::int32_t schema) {
  CanonicalRow row;
  if (schema >= 3) row.Str("allied_key", t.allied_key).Str("axis_key", t.axis_key);
  row.Str("date", t.date).Str("final_hash", t.final_hash).Int("number", t.number);
  row.Str("orders", t.orders);
  if (schema >= 3) row.Str("orders_hash", t.orders_hash).Str("reply_hash", t.reply_hash);
  if (schema >= 2) row.Int("rules_version", t.rules_version);
  return row.Int("seq", seq)
      .Int("serial", t.serial)
      .Str("side", t.side)
      .Str("table", "turn")
      .Take();
}

std::string RollContent(std::int64_t seq, std::int64_t turn, std::int64_t n, const LoggedRoll& r) {
  return CanonicalRow()
      .Str("decided", r.decided)
      .Int("n", n)
      .Str("purpose", r.purpose)
      .Str("rule", r.rule)
      .Bool("scripted", r.scripted)
      .Int("seq", seq)
      .Int("sides", r.sides)
      .Str("table", "roll")
      .Int("turn", turn)
      .Int("value", r.value)
      .Take();
}

std::string EventContent(std::int64_t seq, std::int64_t turn, std::int64_t n, const LoggedEvent& e,
                         std::int32_t schema) {
  CanonicalRow row;
  if (schema >= 2) row.Strings("hexes", e.hexes);
  row.Str("kind", e.kind).Int("n", n);
  if (schema >= 2) row.Ints("numbers", e.numbers);
  row.Str("rule", e.rule).Int("seq", seq).Str("table", "event").Str("text", e.text);
  row.Int("turn", turn);
  if (schema >= 2) row.Strings("units", e.units);
  return row.Take();
}

std::string PhaseContent(std::int64_t seq, std::int64_t turn, std::int64_t n,
                         const LoggedPhase& p) {
  return CanonicalRow()
      .Int("n", n)
      .Str("phase", p.phase)
      .Int("seq", seq)
      .Str("state_hash", p.state_hash)
      .Str("table", "phase")
      .Int("turn", turn)
      .Take();
}

std::string SnapshotContent(std::int64_t seq, std::int64_t turn, std::int64_t format,
                            const std::string& state_hash, const std::string& data_sha256,
                            std::int64_t bytes) {
  return CanonicalRow()
      .Int("bytes", bytes)
      .Str("data_sha256", data_sha256)
      .Int("format", format)
      .Int("seq", seq)
      .Str("state_hash", state_hash)
      .Str("table", "snapshot")
      .Int("turn", turn)
      .Take();
}

std::string NowUtc() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// A row as the chain sees it.
struct ChainRow {
  std::int64_t seq = 0;
  std::int64_t turn = 0;  // 0: the game and the starting snapshot
  bool header = false;    // a player-turn's first row (table turn)
  std::string what;       // "die roll 2 of player-turn 3", for messages
  std::string content;
  std::string prev_hash;
  std::string hash;
  std::string damage;  // set when the row's own data contradicts it (a snapshot's digest)
};

std::unexpected<Error> Corrupt(const std::string& path, const ChainRow& row, std::string message) {
  return Fail(ErrorCode::kCorruption, row.what + ": " + message,
              path + ": row seq " + std::to_string(row.seq));
}

// The columns each reader selects, in the order its decoder reads them, and each writer
// inserts. Schema 1 lacks some: its readers select what they stand for (rules version 1, no
// units, hexes or numbers), and its writers leave them out.
const char* GameSelect(std::int32_t schema) {
  if (schema >= 3) {
    return "SELECT seq, scenario_name, scenario_sha256, scenario, seed, start_hash, "
           "rules_version, prev_hash, hash, dice, game_id, axis_commitment, allied_commitment "
           "FROM game";
  }
  return schema >= 2 ? "SELECT seq, scenario_name, scenario_sha256, scenario, seed, start_hash, "
                       "rules_version, prev_hash, hash, 'seeded', '', '', '' FROM game"
                     : "SELECT seq, scenario_name, scenario_sha256, scenario, seed, start_hash, "
                       "1, prev_hash, hash, 'seeded', '', '', '' FROM game";
}
const char* TurnColumns(std::int32_t schema) {
  if (schema >= 3) {
    return "number, seq, serial, side, date, orders, final_hash, logged_at, rules_version, "
           "prev_hash, hash, axis_key, allied_key, orders_hash, reply_hash";
  }
  return schema >= 2 ? "number, seq, serial, side, date, orders, final_hash, logged_at, "
                       "rules_version, prev_hash, hash, '', '', '', ''"
                     : "number, seq, serial, side, date, orders, final_hash, logged_at, 1, "
                       "prev_hash, hash, '', '', '', ''";
}
const char* TurnInsertColumns(std::int32_t schema) {
  if (schema >= 3) return TurnColumns(schema);
  return schema >= 2 ? "number, seq, serial, side, date, orders, final_hash, logged_at, "
                       "rules_version, prev_hash, hash"
                     : "number, seq, serial, side, date, orders, final_hash, logged_at, "
                       "prev_hash, hash";
}
constexpr const char* kRollColumns =
    "seq, turn, n, value, sides, scripted, purpose, rule, decided, prev_hash, hash";
const char* EventColumns(std::int32_t schema) {
  return schema >= 2 ? "seq, turn, n, kind, rule, text, units, hexes, numbers, prev_hash, hash"
                     : "seq, turn, n, kind, rule, text, '[]', '[]', '[]', prev_hash, hash";
}
const char* EventInsertColumns(std::int32_t schema) {
  return schema >= 2 ? EventColumns(schema) : "seq, turn, n, kind, rule, text, prev_hash, hash";
}
constexpr const char* kPhaseColumns = "seq, turn, n, phase, state_hash, prev_hash, hash";
constexpr const char* kSnapshotColumns =
    "turn, seq, format, state_hash, data_sha256, length(data), prev_hash, hash";

// "INSERT INTO table (columns) VALUES (?, ...)", a parameter for each column.
std::string InsertSql(const char* table, const char* columns) {
  std::string sql = std::string("INSERT INTO ") + table + " (" + columns + ") VALUES (?";
  for (const char* c = columns; *c; ++c) {
    if (*c == ',') sql += ", ?";
  }
  return sql + ")";
}

// Appends `items` to `table` as rows of player-turn `turn`, each the next link of the chain.
// The columns are seq, turn and n, then those `bind` binds from parameter 4 on, then prev_hash
// and hash.
template <class T, class ContentFn, class BindFn>
Status AppendLinks(const Database& db, const char* table, const char* columns, std::int32_t turn,
                   const std::vector<T>& items, ContentFn content, BindFn bind, std::int64_t& seq,
                   std::string& prev) {
  auto st = db.Prepare(InsertSql(table, columns));
  if (!st) return std::unexpected(st.error());
  const int last = static_cast<int>(std::count(columns, columns + std::strlen(columns), ',')) + 1;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto n = static_cast<std::int64_t>(i);
    std::string hash = RowHash(prev, content(++seq, turn, n, items[i]));
    st->Bind(1, seq).Bind(2, turn).Bind(3, n);
    bind(*st, items[i]);
    st->Bind(last - 1, prev).Bind(last, hash);
    if (auto s = st->Run(); !s) return s;
    prev = std::move(hash);
  }
  return {};
}

std::string TurnName(std::int64_t turn) {
  return turn == 0 ? "the start" : "player-turn " + std::to_string(turn);
}

// An array column as CanonicalArray writes it; nullopt if it is not one (the row was edited).
template <class T>
std::optional<std::vector<T>> ReadArray(const std::string& text) {
  std::vector<T> out;
  if (text == "[]") return out;
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_array()) return std::nullopt;
  for (const auto& v : j) {
    if constexpr (std::is_same_v<T, std::string>) {
      if (!v.is_string()) return std::nullopt;
      out.push_back(v.template get<std::string>());
    } else {
      if (!v.is_number_integer()) return std::nullopt;
      out.push_back(v.template get<std::int64_t>());
    }
  }
  if (CanonicalArray(out) != text) return std::nullopt;
  return out;
}

GameRecord DecodeGame(const Statement& st, ChainRow& row, std::int32_t schema) {
  GameRecord g;
  row.seq = st.Int(0);
  g.scenario_name = st.Text(1);
  g.scenario_sha256 = st.Text(2);
  g.scenario = st.Text(3);
  g.seed = static_cast<std::uint64_t>(st.Int(4));
  g.start_hash = st.Text(5);
  const std::int64_t rules_version = st.Int(6);
  g.rules_version = static_cast<std::int32_t>(rules_version);
  row.prev_hash = st.Text(7);
  row.hash = st.Text(8);
  const std::string dice = st.Text(9);
  g.dice = dice == "fair" ? DiceKind::kFair : DiceKind::kSeeded;
  g.game_id = st.Text(10);
  g.axis_commitment = st.Text(11);
  g.allied_commitment = st.Text(12);
  row.what = "the game record";
  // The content names seq 1 whatever the row says, so a moved game row fails its link.
  row.content = row.seq == 1 && g.rules_version == rules_version && dice == DiceKindName(g.dice)
                    ? GameContent(g, schema)
                    : "";
  return g;
}

LoggedTurn DecodeTurn(const Statement& st, ChainRow& row, std::int32_t schema) {
  LoggedTurn t;
  const std::int64_t number = st.Int(0);
  row.seq = st.Int(1);
  const std::int64_t serial = st.Int(2);
  t.number = static_cast<std::int32_t>(number);
  t.serial = static_cast<std::int32_t>(serial);
  t.side = st.Text(3);
  t.date = st.Text(4);
  t.orders = st.Text(5);
  t.final_hash = st.Text(6);
  t.logged_at = st.Text(7);
  const std::int64_t rules_version = st.Int(8);
  t.rules_version = static_cast<std::int32_t>(rules_version);
  t.schema = schema;
  t.seq = row.seq;
  row.prev_hash = st.Text(9);
  row.hash = st.Text(10);
  t.axis_key = st.Text(11);
  t.allied_key = st.Text(12);
  t.orders_hash = st.Text(13);
  t.reply_hash = st.Text(14);
  row.turn = number;
  row.header = true;
  row.what = "player-turn " + std::to_string(number) + " (" + t.side + ", " + t.date + ")";
  // Values that do not survive the narrowing were not written by opsim.
  row.content = (t.number == number && t.serial == serial && t.rules_version == rules_version)
                    ? TurnContent(row.seq, t, schema)
                    : "";
  return t;
}

LoggedRoll DecodeRoll(const Statement& st, ChainRow& row) {
  LoggedRoll r;
  row.seq = st.Int(0);
  row.turn = st.Int(1);
  const std::int64_t n = st.Int(2);
  const std::int64_t value = st.Int(3);
  const std::int64_t sides = st.Int(4);
  r.value = static_cast<int>(value);
  r.sides = static_cast<int>(sides);
  r.scripted = st.Int(5) != 0;
  r.purpose = st.Text(6);
  r.rule = st.Text(7);
  r.decided = st.Text(8);
  row.prev_hash = st.Text(9);
  row.hash = st.Text(10);
  row.what =
      "die roll " + std::to_string(n + 1) + " of " + TurnName(row.turn) + " ('" + r.purpose + "')";
  row.content = (r.value == value && r.sides == sides && st.Int(5) == (r.scripted ? 1 : 0))
                    ? RollContent(row.seq, row.turn, n, r)
                    : "";
  return r;
}

LoggedEvent DecodeEvent(const Statement& st, ChainRow& row, std::int32_t schema) {
  LoggedEvent e;
  row.seq = st.Int(0);
  row.turn = st.Int(1);
  const std::int64_t n = st.Int(2);
  e.kind = st.Text(3);
  e.rule = st.Text(4);
  e.text = st.Text(5);
  auto units = ReadArray<std::string>(st.Text(6));
  auto hexes = ReadArray<std::string>(st.Text(7));
  auto numbers = ReadArray<std::int64_t>(st.Text(8));
  row.prev_hash = st.Text(9);
  row.hash = st.Text(10);
  row.what = "event " + std::to_string(n + 1) + " of " + TurnName(row.turn) + " (" + e.kind + ")";
  if (!units || !hexes || !numbers) return e;  // no content: the row fails its own check
  e.units = std::move(*units);
  e.hexes = std::move(*hexes);
  e.numbers = std::move(*numbers);
  row.content = EventContent(row.seq, row.turn, n, e, schema);
  return e;
}

LoggedPhase DecodePhase(const Statement& st, ChainRow& row) {
  LoggedPhase p;
  row.seq = st.Int(0);
  row.turn = st.Int(1);
  const std::int64_t n = st.Int(2);
  p.phase = st.Text(3);
  p.state_hash = st.Text(4);
  row.prev_hash = st.Text(5);
  row.hash = st.Text(6);
  row.what = "the state hash after the " + p.phase + " phase of " + TurnName(row.turn);
  row.content = PhaseContent(row.seq, row.turn, n, p);
  return p;
}

// Reads a snapshot row's columns (without its data) into `snap` and `row`.
void DecodeSnapshot(const Statement& st, ChainRow& row, Snapshot& snap, std::string& data_sha256) {
  row.turn = st.Int(0);
  row.seq = st.Int(1);
  const std::int64_t format = st.Int(2);
  snap.turn = static_cast<std::int32_t>(row.turn);
  snap.format = static_cast<int>(format);
  snap.state_hash = st.Text(3);
  data_sha256 = st.Text(4);
  row.prev_hash = st.Text(6);
  row.hash = st.Text(7);
  row.what = "the snapshot after " +
             (row.turn == 0 ? std::string("0 player-turns (the start)") : TurnName(row.turn));
  row.content = snap.format == format ? SnapshotContent(row.seq, row.turn, format, snap.state_hash,
                                                        data_sha256, st.Int(5))
                                      : "";
}

// A row's own check: its hash covers its link and its content.
bool SelfConsistent(const ChainRow& row) {
  return row.damage.empty() && !row.content.empty() &&
         RowHash(row.prev_hash, row.content) == row.hash;
}

Status CheckRow(const std::string& path, const ChainRow& row) {
  if (!row.damage.empty()) return Corrupt(path, row, row.damage);
  if (!SelfConsistent(row)) {
    return Corrupt(path, row,
                   "the row was changed after it was logged (its hash does not match its "
                   "content)");
  }
  return {};
}

// Runs `st` to the end, calling `each` on every row.
template <class F>
Status ForEachRow(Statement& st, F each) {
  for (;;) {
    auto row = st.Step();
    if (!row) return std::unexpected(row.error());
    if (!*row) return {};
    if (auto s = each(st); !s) return s;
  }
}

// Whether this process may write `path` (a file, or a folder's entries). access() also says no
// for a read-only mount and an immutable file, which root's permission bits do not.
bool Writable(const std::string& path) {
  return ::access(path.c_str(), W_OK) == 0;
}

}  // namespace

const char* DiceKindName(DiceKind kind) {
  return kind == DiceKind::kFair ? "fair" : "seeded";
}

LoggedEvent ToLoggedEvent(const ops::Event& e) {
  return {e.kind, std::string(e.rule.id), e.text, e.units, e.hexes, e.numbers};
}

LoggedTurn ToLoggedTurn(std::int32_t number, std::string orders_json, const ops::TurnResult& r) {
  LoggedTurn t;
  t.number = number;
  t.serial = r.player_turn;
  t.side = SideName(r.side);
  t.date = ops::FormatGameDate(r.date);
  t.orders = std::move(orders_json);
  for (const ops::DieRoll& d : r.rolls) {
    t.rolls.push_back({d.value, d.sides, d.scripted, d.purpose, std::string(d.rule.id), d.decided});
  }
  for (const ops::Event& e : r.events) t.events.push_back(ToLoggedEvent(e));
  for (const ops::PhaseHash& p : r.hashes) t.phases.push_back({ops::PhaseName(p.phase), p.hash});
  t.final_hash = r.final_hash;
  return t;
}

TurnLog::TurnLog() = default;
TurnLog::TurnLog(TurnLog&&) noexcept = default;
TurnLog& TurnLog::operator=(TurnLog&&) noexcept = default;

TurnLog::~TurnLog() {
  if (staging_path_.empty()) return;
  db_.reset();
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
    std::remove((staging_path_ + suffix).c_str());
  }
}

TurnLog::Transaction::~Transaction() {
  if (log_ != nullptr && log_->in_transaction_) {
    (void)log_->db_->Exec("ROLLBACK");
    log_->in_transaction_ = false;
  }
}

Status TurnLog::Transaction::Commit() {
  TurnLog* log = std::exchange(log_, nullptr);
  if (log == nullptr || !log->in_transaction_) {
    return Fail(ErrorCode::kInternal, "commit outside a transaction");
  }
  log->in_transaction_ = false;
  if (auto s = log->db_->Exec("COMMIT"); !s) {
    (void)log->db_->Exec("ROLLBACK");
    return s;
  }
  return {};
}

Result<TurnLog> TurnLog::Create(const std::string& path, const GameRecord& game,
                                const Snapshot& start) {
  if (game.seed > static_cast<std::uint64_t>(INT64_MAX)) {
    return Fail(ErrorCode::kInvalidInput, "the seed must be below 2^63", std::to_string(game.seed));
  }
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
  TurnLog log;
  log.path_ = path;
  log.staging_path_ = PartialPath(path);
  auto db = Database::Open(log.staging_path_, Database::Mode::kCreate);
  if (!db) return std::unexpected(db.error());
  log.db_ = std::make_unique<Database>(std::move(*db));
  // A rollback journal while the file is private; Publish() turns on WAL. Pages of 16 KiB make
  // a player-turn's commit fewer writes (docs/log-format.md).
  if (auto s = log.db_->Exec(
          "PRAGMA page_size = 16384; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL");
      !s) {
    return std::unexpected(s.error());
  }
  if (auto s = log.db_->Exec("BEGIN IMMEDIATE"); !s) return std::unexpected(s.error());
  log.in_transaction_ = true;
  Transaction tx(&log);
  const bool fair = game.dice == DiceKind::kFair;
  log.schema_ = fair ? kLogSchemaVersion : kSeededLogSchema;
  if (auto s = log.db_->Exec(kSchema); !s) return std::unexpected(s.error());
  if (auto s = log.db_->Exec(fair ? kFairSchema : kSeededSchema); !s) {
    return std::unexpected(s.error());
  }

  log.game_ = game;
  log.game_.scenario_sha256 = Sha256Hex(game.scenario);
  const std::string game_hash = RowHash(kGenesis, GameContent(log.game_, log.schema_));
  auto ins = log.db_->Prepare(
      fair ? "INSERT INTO game (seq, scenario_name, scenario_sha256, scenario, seed, start_hash, "
             "rules_version, prev_hash, hash, dice, game_id, axis_commitment, "
             "allied_commitment) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
           : "INSERT INTO game (seq, scenario_name, scenario_sha256, scenario, seed, start_hash, "
             "rules_version, prev_hash, hash) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!ins) return std::unexpected(ins.error());
  if (fair) {
    ins->Bind(9, DiceKindName(log.game_.dice))
        .Bind(10, log.game_.game_id)
        .Bind(11, log.game_.axis_commitment)
        .Bind(12, log.game_.allied_commitment);
  }
  ins->Bind(1, log.game_.scenario_name)
      .Bind(2, log.game_.scenario_sha256)
      .Bind(3, log.game_.scenario)
      .Bind(4, static_cast<std::int64_t>(log.game_.seed))
      .Bind(5, log.game_.start_hash)
      .Bind(6, log.game_.rules_version)
      .Bind(7, kGenesis)
      .Bind(8, game_hash);
  if (auto s = ins->Run(); !s) return std::unexpected(s.error());

  // The snapshot at the start follows the game record.
  if (start.turn != 0) return Fail(ErrorCode::kInternal, "a new log starts with the snapshot at 0");
  std::int64_t seq = 1;
  std::string prev = game_hash;
  if (auto s = log.AppendSnapshotRow(start, seq, prev); !s) return std::unexpected(s.error());
  if (auto s = log.SetHead(seq, prev); !s) return std::unexpected(s.error());

  for (auto [key, value] : {std::pair<const char*, std::string>{"format", "opsim turn log"},
                            {"schema", std::to_string(log.schema_)},
                            {"created_by", "opsim " OPSIM_VERSION},
                            {"created_at", NowUtc()}}) {
    if (auto s = log.SetMeta(key, value); !s) return std::unexpected(s.error());
  }
  if (auto s = tx.Commit(); !s) return std::unexpected(s.error());
  return log;
}

Status TurnLog::Publish() {
  if (staging_path_.empty()) return Fail(ErrorCode::kInternal, "the log is already published");
  if (auto s = db_->Exec("PRAGMA journal_mode = WAL"); !s) return s;
  db_.reset();  // closes the file; nothing is left in a journal or a WAL
  std::error_code ec;
  if (std::filesystem::exists(staging_path_ + "-wal", ec)) {
    return Fail(ErrorCode::kIOError, "could not finish writing the new log", staging_path_);
  }
  // Moved into place in one step, never over a file that appeared meanwhile: a process killed
  // at any point leaves the log whole or only its partial file (which RemoveStalePartials
  // sweeps). A file system without RENAME_NOREPLACE: a link, then the partial name removed.
  bool linked = false;
  int err = 0;
  if (::renameat2(AT_FDCWD, staging_path_.c_str(), AT_FDCWD, path_.c_str(), RENAME_NOREPLACE) !=
      0) {
    err = errno;
    if (err == EINVAL || err == ENOSYS) {
      linked = ::link(staging_path_.c_str(), path_.c_str()) == 0;
      err = linked ? 0 : errno;
    }
  }
  if (err != 0) {
    if (err == EEXIST) {
      return Fail(ErrorCode::kInvalidInput,
                  "the file appeared while the new log was being written; it was left alone",
                  path_);
    }
    return Fail(err == EROFS || err == EACCES ? ErrorCode::kReadOnly : ErrorCode::kIOError,
                std::string("cannot create the log: ") + std::strerror(err), path_);
  }
  if (linked) std::remove(staging_path_.c_str());
  staging_path_.clear();
  // The log is in place: a folder that cannot be flushed does not undo that.
  (void)SyncFolderOf(path_);
  return {};
}

Result<TurnLog> TurnLog::Open(const std::string& path, Access access) {
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
  if (access == Access::kWrite) {
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
  TurnLog log;
  log.path_ = path;
  auto db = Database::Open(path, mode);
  if (!db) return std::unexpected(db.error());
  log.db_ = std::make_unique<Database>(std::move(*db));
  if (access == Access::kRead && mode == Database::Mode::kWrite) {
    if (auto s = log.db_->Exec("PRAGMA query_only = ON"); !s) return std::unexpected(s.error());
  }

  // Who the file is, before anything else is read or changed.
  auto app = log.db_->QueryInt("PRAGMA application_id");
  if (!app) return std::unexpected(app.error());
  if (*app != kLogApplicationId) {
    return Fail(ErrorCode::kCorruption,
                st.st_size == 0 ? std::string("not an opsim turn log: the file is empty")
                                : "not an opsim turn log: an SQLite database of another kind "
                                  "(application_id " +
                                      std::to_string(*app) + ")",
                path);
  }
  auto schema = log.db_->QueryInt("PRAGMA user_version");
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
  log.schema_ = static_cast<std::int32_t>(*schema);
  if (access == Access::kWrite) {
    if (log.db_->read_only()) {
      return Fail(ErrorCode::kReadOnly,
                  "the log cannot be written: the file or its folder is read-only; nothing was "
                  "changed",
                  path);
    }
    if (auto s = log.db_->Exec("PRAGMA synchronous = FULL"); !s) return std::unexpected(s.error());
  }
  if (auto s = log.LoadGame(); !s) return std::unexpected(s.error());
  return log;
}

Status TurnLog::CheckTail() const {
  auto count = CountTurns();
  if (!count) return std::unexpected(count.error());
  auto st =
      db_->Prepare("SELECT " + std::string(kSnapshotColumns) + " FROM snapshot WHERE turn = ?");
  if (!st) return std::unexpected(st.error());
  st->Bind(1, *count);
  auto has = st->Step();
  if (!has) return std::unexpected(has.error());
  if (!*has) {
    return Fail(
        ErrorCode::kCorruption,
        "the log has no snapshot after its last player-turn (" + std::to_string(*count) + ")",
        path_);
  }
  ChainRow row;
  Snapshot snap;
  std::string data_sha;
  DecodeSnapshot(*st, row, snap, data_sha);
  if (auto s = CheckRow(path_, row); !s) return s;
  auto before = db_->Prepare("SELECT hash FROM chain WHERE seq = ?");
  if (!before) return std::unexpected(before.error());
  before->Bind(1, row.seq - 1);
  auto linked = before->Step();
  if (!linked) return std::unexpected(linked.error());
  if (!*linked || before->Text(0) != row.prev_hash) {
    return Corrupt(path_, row,
                   "the chain is broken here: the row does not follow the one before it (a row "
                   "was deleted, inserted or moved)");
  }
  // The snapshot must hold the state the last player-turn ended in (or the start).
  std::string ended = game_.start_hash;
  std::string what = "the game started";
  if (*count > 0) {
    auto t =
        db_->Prepare("SELECT " + std::string(TurnColumns(schema_)) + " FROM turn WHERE number = ?");
    if (!t) return std::unexpected(t.error());
    t->Bind(1, *count);
    auto found = t->Step();
    if (!found) return std::unexpected(found.error());
    if (!*found) {
      return Fail(ErrorCode::kCorruption,
                  "player-turn " + std::to_string(*count) + " is missing from the log", path_);
    }
    ChainRow turn_row;
    const LoggedTurn last = DecodeTurn(*t, turn_row, schema_);
    if (auto s = CheckRow(path_, turn_row); !s) return s;
    ended = last.final_hash;
    what = turn_row.what + " ended";
  }
  if (snap.state_hash != ended) {
    return Corrupt(path_, row,
                   "it names state " + snap.state_hash + ", but " + what + " in state " + ended +
                       ": the snapshot is not the one logged after it");
  }
  if (in_transaction_ && (row.seq != head_seq_ || row.hash != head_hash_)) {
    return Corrupt(path_, row, "the log's last row is not this snapshot");
  }
  return {};
}

Status TurnLog::LoadGame() {
  auto st = db_->Prepare(GameSelect(schema_));
  if (!st) return std::unexpected(st.error());
  auto has = st->Step();
  if (!has) return std::unexpected(has.error());
  if (!*has) return Fail(ErrorCode::kCorruption, "the log has no game record", path_);
  ChainRow row;
  game_ = DecodeGame(*st, row, schema_);
  if (row.prev_hash != kGenesis) {
    return Corrupt(path_, row, "the chain does not start here (its prev_hash is not zero)");
  }
  if (auto s = CheckRow(path_, row); !s) return s;
  if (Sha256Hex(game_.scenario) != game_.scenario_sha256) {
    return Corrupt(path_, row, "the scenario text does not match its SHA-256");
  }
  return {};
}

Status TurnLog::SetMeta(std::string_view key, std::string_view value) {
  auto st = db_->Prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
  if (!st) return std::unexpected(st.error());
  st->Bind(1, key).Bind(2, value);
  return st->Run();
}

Status TurnLog::DeleteMeta(std::string_view key) {
  auto st = db_->Prepare("DELETE FROM meta WHERE key = ?");
  if (!st) return std::unexpected(st.error());
  st->Bind(1, key);
  return st->Run();
}

Result<std::map<std::string, std::string>> TurnLog::Meta() const {
  auto st = db_->Prepare("SELECT key, value FROM meta ORDER BY key");
  if (!st) return std::unexpected(st.error());
  std::map<std::string, std::string> meta;
  auto s = ForEachRow(*st, [&](const Statement& r) -> Status {
    meta[r.Text(0)] = r.Text(1);
    return {};
  });
  if (!s) return std::unexpected(s.error());
  return meta;
}

Result<std::int32_t> TurnLog::CountTurns() const {
  auto n = db_->QueryInt("SELECT coalesce(max(number), 0) FROM turn");
  if (!n) return std::unexpected(n.error());
  return static_cast<std::int32_t>(*n);
}

Status TurnLog::LoadHead() {
  std::int64_t seq = 0;
  for (const char* q :
       {"SELECT coalesce(max(seq), 0) FROM game", "SELECT coalesce(max(seq), 0) FROM turn",
        "SELECT coalesce(max(seq), 0) FROM roll", "SELECT coalesce(max(seq), 0) FROM event",
        "SELECT coalesce(max(seq), 0) FROM phase", "SELECT coalesce(max(seq), 0) FROM snapshot"}) {
    auto m = db_->QueryInt(q);
    if (!m) return std::unexpected(m.error());
    seq = std::max(seq, *m);
  }
  auto st = db_->Prepare("SELECT hash FROM chain WHERE seq = ?");
  if (!st) return std::unexpected(st.error());
  st->Bind(1, seq);
  auto has = st->Step();
  if (!has) return std::unexpected(has.error());
  const std::string hash = *has ? st->Text(0) : std::string();
  auto meta = Meta();
  if (!meta) return std::unexpected(meta.error());
  if ((*meta)["head_seq"] != std::to_string(seq) || (*meta)["head_hash"] != hash) {
    return Fail(ErrorCode::kCorruption,
                "the log's last row is not the one it recorded (rows were added or removed "
                "at its end); run `opsim replay --verify`",
                path_);
  }
  head_seq_ = seq;
  head_hash_ = hash;
  return {};
}

Result<TurnLog::Transaction> TurnLog::Begin() {
  if (in_transaction_) return Fail(ErrorCode::kInternal, "a transaction is already open");
  if (auto s = db_->Exec("BEGIN IMMEDIATE"); !s) return std::unexpected(s.error());
  in_transaction_ = true;
  Transaction tx(this);
  if (auto s = LoadHead(); !s) return std::unexpected(s.error());
  return tx;
}

Status TurnLog::AppendTurn(const LoggedTurn& turn, const Snapshot& after) {
  return AppendTurnThen(turn, [&after]() -> const Snapshot& { return after; });
}

Status TurnLog::AppendTurn(const LoggedTurn& turn, std::future<Snapshot> after) {
  Snapshot made;
  return AppendTurnThen(turn, [&]() -> const Snapshot& {
    made = after.get();
    return made;
  });
}

Status TurnLog::AppendTurnThen(const LoggedTurn& turn,
                               const std::function<const Snapshot&()>& after) {
  if (!in_transaction_) return Fail(ErrorCode::kInternal, "AppendTurn outside a transaction");
  auto count = CountTurns();
  if (!count) return std::unexpected(count.error());
  if (turn.number != *count + 1) {
    return Fail(ErrorCode::kInternal, "player-turn " + std::to_string(turn.number) +
                                          " appended after " + std::to_string(*count));
  }
  // Each row gets the next seq and a hash over the previous row's hash and its content.
  std::int64_t seq = head_seq_;
  std::string prev = head_hash_;
  if (auto s = AppendTurnRows(turn, seq, prev); !s) return s;
  const Snapshot& snapshot = after();
  if (snapshot.turn != turn.number) {
    return Fail(ErrorCode::kInternal, "the snapshot after player-turn " +
                                          std::to_string(snapshot.turn) + " appended with " +
                                          std::to_string(turn.number));
  }
  if (auto s = AppendSnapshotRow(snapshot, seq, prev); !s) return s;
  return SetHead(seq, prev);
}

Status TurnLog::AppendTurnRows(const LoggedTurn& turn, std::int64_t& seq, std::string& prev) {
  // A schema-1 log keeps its schema: the player-turn's rules version and its events' content
  // are not written (docs/log-format.md).
  const std::int32_t schema = schema_;
  auto st = db_->Prepare(InsertSql("turn", TurnInsertColumns(schema)));
  if (!st) return std::unexpected(st.error());
  const std::string hash = RowHash(prev, TurnContent(++seq, turn, schema));
  st->Bind(1, turn.number)
      .Bind(2, seq)
      .Bind(3, turn.serial)
      .Bind(4, turn.side)
      .Bind(5, turn.date)
      .Bind(6, turn.orders)
      .Bind(7, turn.final_hash)
      .Bind(8, turn.logged_at.empty() ? NowUtc() : turn.logged_at);
  const int last = schema >= 2 ? 11 : 10;
  if (schema >= 2) st->Bind(9, turn.rules_version);
  st->Bind(last - 1, prev).Bind(last, hash);
  if (schema >= 3) {
    st->Bind(12, turn.axis_key)
        .Bind(13, turn.allied_key)
        .Bind(14, turn.orders_hash)
        .Bind(15, turn.reply_hash);
  }
  if (auto s = st->Run(); !s) return s;
  prev = hash;
  if (auto s = AppendLinks(
          *db_, "roll", kRollColumns, turn.number, turn.rolls, RollContent,
          [](Statement& st, const LoggedRoll& r) {
            st.Bind(4, r.value)
                .Bind(5, r.sides)
                .Bind(6, r.scripted ? 1 : 0)
                .Bind(7, r.purpose)
                .Bind(8, r.rule)
                .Bind(9, r.decided);
          },
          seq, prev);
      !s) {
    return s;
  }
  if (auto s = AppendLinks(
          *db_, "event", EventInsertColumns(schema), turn.number, turn.events,
          [schema](std::int64_t seq, std::int64_t turn, std::int64_t n, const LoggedEvent& e) {
            return EventContent(seq, turn, n, e, schema);
          },
          [schema](Statement& st, const LoggedEvent& e) {
            st.Bind(4, e.kind).Bind(5, e.rule).Bind(6, e.text);
            if (schema >= 2) {
              st.Bind(7, CanonicalArray(e.units))
                  .Bind(8, CanonicalArray(e.hexes))
                  .Bind(9, CanonicalArray(e.numbers));
            }
          },
          seq, prev);
      !s) {
    return s;
  }
  if (auto s = AppendLinks(
          *db_, "phase", kPhaseColumns, turn.number, turn.phases, PhaseContent,
          [](Statement& st, const LoggedPhase& p) { st.Bind(4, p.phase).Bind(5, p.state_hash); },
          seq, prev);
      !s) {
    return s;
  }
  return {};
}

Status TurnLog::AppendSnapshotRow(const Snapshot& after, std::int64_t& seq, std::string& prev) {
  auto st = db_->Prepare(
      "INSERT INTO snapshot (turn, seq, format, state_hash, data_sha256, data, prev_hash, "
      "hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  if (!st) return std::unexpected(st.error());
  const std::string data_sha = Sha256Hex(after.data);
  const std::string hash =
      RowHash(prev, SnapshotContent(++seq, after.turn, after.format, after.state_hash, data_sha,
                                    static_cast<std::int64_t>(after.data.size())));
  st->Bind(1, after.turn)
      .Bind(2, seq)
      .Bind(3, after.format)
      .Bind(4, after.state_hash)
      .Bind(5, data_sha)
      .BindBlob(6, after.data)
      .Bind(7, prev)
      .Bind(8, hash);
  if (auto s = st->Run(); !s) return s;
  prev = hash;
  return {};
}

Status TurnLog::SetHead(std::int64_t seq, const std::string& hash) {
  if (auto s = SetMeta("head_seq", std::to_string(seq)); !s) return s;
  if (auto s = SetMeta("head_hash", hash); !s) return s;
  head_seq_ = seq;
  head_hash_ = hash;
  return {};
}

Result<LoggedTurn> TurnLog::ReadTurn(std::int32_t number) const {
  auto count = CountTurns();
  if (!count) return std::unexpected(count.error());
  if (number < 1 || number > *count) {
    return Fail(ErrorCode::kInvalidInput,
                "no player-turn " + std::to_string(number) + ": the log holds " +
                    std::to_string(*count) + " (numbered from 1)",
                path_);
  }
  auto head =
      db_->Prepare("SELECT " + std::string(TurnColumns(schema_)) + " FROM turn WHERE number = ?");
  if (!head) return std::unexpected(head.error());
  head->Bind(1, number);
  auto has = head->Step();
  if (!has) return std::unexpected(has.error());
  if (!*has) {
    return Fail(ErrorCode::kCorruption,
                "player-turn " + std::to_string(number) + " is missing from the log", path_);
  }
  std::vector<ChainRow> rows(1);
  LoggedTurn turn = DecodeTurn(*head, rows[0], schema_);

  auto read = [&](const char* table, const char* columns, auto decode, auto& into) -> Status {
    auto st = db_->Prepare("SELECT " + std::string(columns) + " FROM " + table +
                           " WHERE turn = ? ORDER BY seq");
    if (!st) return std::unexpected(st.error());
    st->Bind(1, number);
    return ForEachRow(*st, [&](const Statement& r) -> Status {
      ChainRow row;
      into.push_back(decode(r, row));
      rows.push_back(std::move(row));
      return {};
    });
  };
  if (auto s = read("roll", kRollColumns, DecodeRoll, turn.rolls); !s)
    return std::unexpected(s.error());
  const auto decode_event = [this](const Statement& st, ChainRow& row) {
    return DecodeEvent(st, row, schema_);
  };
  if (auto s = read("event", EventColumns(schema_), decode_event, turn.events); !s) {
    return std::unexpected(s.error());
  }
  if (auto s = read("phase", kPhaseColumns, DecodePhase, turn.phases); !s) {
    return std::unexpected(s.error());
  }
  // The rows of one player-turn follow each other: header, rolls, events, phases.
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (auto s = CheckRow(path_, rows[i]); !s) return std::unexpected(s.error());
    if (i == 0) continue;
    if (rows[i].seq != rows[0].seq + static_cast<std::int64_t>(i) ||
        rows[i].prev_hash != rows[i - 1].hash) {
      return Corrupt(path_, rows[i],
                     "the chain is broken here: the row does not follow the one before it (a "
                     "row was deleted, inserted or moved)");
    }
  }
  // The row after the last one must link to it, or the last one must be the log's end.
  auto next = db_->Prepare("SELECT prev_hash FROM chain WHERE seq = ?");
  if (!next) return std::unexpected(next.error());
  next->Bind(1, rows.back().seq + 1);
  auto follows = next->Step();
  if (!follows) return std::unexpected(follows.error());
  bool linked = *follows && next->Text(0) == rows.back().hash;
  if (!*follows) {
    auto meta = Meta();
    if (!meta) return std::unexpected(meta.error());
    linked = (*meta)["head_seq"] == std::to_string(rows.back().seq);
  }
  if (!linked) {
    return Corrupt(path_, rows.back(),
                   "the chain is broken after this row (the row that followed it was deleted or "
                   "changed)");
  }
  return turn;
}

Result<std::vector<std::int32_t>> TurnLog::SnapshotTurns() const {
  auto st = db_->Prepare("SELECT turn FROM snapshot ORDER BY turn");
  if (!st) return std::unexpected(st.error());
  std::vector<std::int32_t> turns;
  auto s = ForEachRow(*st, [&](const Statement& r) -> Status {
    turns.push_back(static_cast<std::int32_t>(r.Int(0)));
    return {};
  });
  if (!s) return std::unexpected(s.error());
  return turns;
}

Result<Snapshot> TurnLog::ReadSnapshot(std::int32_t turn) const {
  auto st = db_->Prepare("SELECT " + std::string(kSnapshotColumns) +
                         ", data FROM snapshot WHERE turn = ?");
  if (!st) return std::unexpected(st.error());
  st->Bind(1, turn);
  auto has = st->Step();
  if (!has) return std::unexpected(has.error());
  if (!*has) {
    return Fail(ErrorCode::kNotFound, "no snapshot after player-turn " + std::to_string(turn),
                path_);
  }
  ChainRow row;
  Snapshot snap;
  std::string data_sha;
  DecodeSnapshot(*st, row, snap, data_sha);
  snap.data = st->Blob(8);
  if (Sha256Hex(snap.data) != data_sha) {
    return Corrupt(path_, row, "the snapshot's data does not match its SHA-256");
  }
  if (auto s = CheckRow(path_, row); !s) return std::unexpected(s.error());
  return snap;
}

Result<ChainReport> TurnLog::VerifyChain(const Progress& progress) const {
  std::vector<ChainRow> rows;
  ChainReport report;
  {
    auto st = db_->Prepare(GameSelect(schema_));
    if (!st) return std::unexpected(st.error());
    auto s = ForEachRow(*st, [&](const Statement& r) -> Status {
      rows.emplace_back();
      DecodeGame(r, rows.back(), schema_);
      return {};
    });
    if (!s) return std::unexpected(s.error());
  }
  auto read_all = [&](const char* table, const char* columns, auto decode) -> Status {
    auto st = db_->Prepare("SELECT " + std::string(columns) + " FROM " + table);
    if (!st) return std::unexpected(st.error());
    return ForEachRow(*st, [&](const Statement& r) -> Status {
      rows.emplace_back();
      decode(r, rows.back());
      return {};
    });
  };
  const auto with_schema = [this](auto decode) {
    return [this, decode](const Statement& st, ChainRow& row) { decode(st, row, schema_); };
  };
  if (auto s = read_all("turn", TurnColumns(schema_), with_schema(DecodeTurn)); !s) {
    return std::unexpected(s.error());
  }
  if (auto s = read_all("roll", kRollColumns, DecodeRoll); !s) return std::unexpected(s.error());
  if (auto s = read_all("event", EventColumns(schema_), with_schema(DecodeEvent)); !s) {
    return std::unexpected(s.error());
  }
  if (auto s = read_all("phase", kPhaseColumns, DecodePhase); !s) {
    return std::unexpected(s.error());
  }
  {
    // Snapshots carry their data: each digest is checked as it streams past.
    auto total = db_->QueryInt("SELECT count(*) FROM snapshot");
    if (!total) return std::unexpected(total.error());
    auto st = db_->Prepare("SELECT " + std::string(kSnapshotColumns) + ", data FROM snapshot");
    if (!st) return std::unexpected(st.error());
    std::int64_t done = 0;
    auto s = ForEachRow(*st, [&](const Statement& r) -> Status {
      rows.emplace_back();
      Snapshot snap;
      std::string data_sha;
      DecodeSnapshot(r, rows.back(), snap, data_sha);
      if (Sha256Hex(r.Blob(8)) != data_sha) {
        rows.back().damage = "the snapshot's data does not match its SHA-256";
      }
      ++report.snapshots;
      if (progress) progress(++done, *total);
      return {};
    });
    if (!s) return std::unexpected(s.error());
  }
  std::sort(rows.begin(), rows.end(),
            [](const ChainRow& a, const ChainRow& b) { return a.seq < b.seq; });

  std::string prev = kGenesis;
  std::int64_t turn = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ChainRow& row = rows[i];
    const auto expected = static_cast<std::int64_t>(i) + 1;
    if (row.seq != expected) {
      return Fail(ErrorCode::kCorruption,
                  row.seq > expected
                      ? "row seq " + std::to_string(expected) + " is missing: it was deleted"
                      : row.what + ": its seq " + std::to_string(row.seq) + " is used twice",
                  path_ + ": row seq " + std::to_string(expected));
    }
    if (row.prev_hash != prev) {
      return Corrupt(path_, row,
                     "the chain is broken here: the row does not follow the one before it (a "
                     "row was deleted, inserted or moved)");
    }
    if (auto s = CheckRow(path_, row); !s) return std::unexpected(s.error());
    // Each player-turn's rows come after its header and before the next one.
    if (row.header) {
      if (row.turn != turn + 1) {
        return Corrupt(path_, row, "player-turn " + std::to_string(turn + 1) + " was expected");
      }
      turn = row.turn;
    } else if (row.turn != turn) {
      return Corrupt(path_, row, "the row stands among the rows of " + TurnName(turn));
    }
    prev = row.hash;
  }
  auto meta = Meta();
  if (!meta) return std::unexpected(meta.error());
  const std::int64_t last = static_cast<std::int64_t>(rows.size());
  if ((*meta)["head_seq"] != std::to_string(last) || (*meta)["head_hash"] != prev) {
    return Fail(ErrorCode::kCorruption,
                "the log ends at row seq " + std::to_string(last) +
                    ", but it recorded its last "
                    "row as seq " +
                    (*meta)["head_seq"] + ": rows were removed from its end",
                path_ + ": meta head_seq");
  }
  report.rows = last;
  report.turns = static_cast<std::int32_t>(turn);
  report.head = prev;
  return report;
}

}  // namespace opsim::db
