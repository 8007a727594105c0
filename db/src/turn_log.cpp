// TurnLog: the chain of a turn log, said once over any LogStore (log_store.h): each row's
// canonical content and hash, the links, the decoders' checks, CheckTail and VerifyChain.
#include "opsim/db/turn_log.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <deque>
#include <nlohmann/json.hpp>

#include "canonical_row.h"
#include "log_store.h"
#include "opsim/core/sha256.h"
#include "opsim/ops/calendar.h"

namespace opsim::db {

namespace {

using store::Row;
using store::Value;

const std::string kGenesis(64, '0');

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
const char* GameColumns(std::int32_t schema) {
  if (schema >= 3) {
    return "seq, scenario_name, scenario_sha256, scenario, seed, start_hash, rules_version, "
           "prev_hash, hash, dice, game_id, axis_commitment, allied_commitment";
  }
  return schema >= 2 ? "seq, scenario_name, scenario_sha256, scenario, seed, start_hash, "
                       "rules_version, prev_hash, hash, 'seeded', '', '', ''"
                     : "seq, scenario_name, scenario_sha256, scenario, seed, start_hash, 1, "
                       "prev_hash, hash, 'seeded', '', '', ''";
}
const char* GameInsertColumns(std::int32_t schema) {
  if (schema >= 3) return GameColumns(schema);
  return schema >= 2 ? "seq, scenario_name, scenario_sha256, scenario, seed, start_hash, "
                       "rules_version, prev_hash, hash"
                     : "seq, scenario_name, scenario_sha256, scenario, seed, start_hash, "
                       "prev_hash, hash";
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

// Appends `items` to `table` as rows of player-turn `turn`, each the next link of the chain,
// in one Insert. The columns are seq, turn and n, then the values `values` gives for an item
// (text it makes is kept in `kept`), then prev_hash and hash.
template <class T, class ContentFn, class ValuesFn>
Status AppendLinks(store::LogStore& store, const char* table, const char* columns,
                   std::int32_t turn, const std::vector<T>& items, ContentFn content,
                   ValuesFn values, std::int64_t& seq, std::string& prev) {
  if (items.empty()) return {};
  std::vector<Value> rows;
  std::deque<std::string> kept;  // the hashes and made text the rows point into, until written
  std::string_view last = prev;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto n = static_cast<std::int64_t>(i);
    const std::string& hash = kept.emplace_back(RowHash(last, content(++seq, turn, n, items[i])));
    rows.insert(rows.end(), {seq, std::int64_t{turn}, n});
    values(rows, items[i], kept);
    rows.insert(rows.end(), {last, std::string_view(hash)});
    last = hash;
  }
  if (auto s = store.Insert(table, columns, rows); !s) return s;
  prev = std::string(last);
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

GameRecord DecodeGame(const Row& st, ChainRow& row, std::int32_t schema) {
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

LoggedTurn DecodeTurn(const Row& st, ChainRow& row, std::int32_t schema) {
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

LoggedRoll DecodeRoll(const Row& st, ChainRow& row) {
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

LoggedEvent DecodeEvent(const Row& st, ChainRow& row, std::int32_t schema) {
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

LoggedPhase DecodePhase(const Row& st, ChainRow& row) {
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
void DecodeSnapshot(const Row& st, ChainRow& row, Snapshot& snap, std::string& data_sha256) {
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

// The single integer `q` selects (a count, a maximum).
Result<std::int64_t> QueryInt(const store::LogStore& store, const store::Select& q) {
  std::int64_t value = 0;
  auto s = store.Query(q, std::nullopt, [&value](const Row& r) {
    value = r.Int(0);
    return Status();
  });
  if (!s) return std::unexpected(s.error());
  return value;
}

// Calls `f` on the row `q` selects with `key` (a primary key: one row at most); false if none.
template <class F>
Result<bool> QueryOne(const store::LogStore& store, const store::Select& q,
                      std::optional<std::int64_t> key, F f) {
  bool found = false;
  auto s = store.Query(q, key, [&](const Row& r) {
    if (!found) f(r);
    found = true;
    return Status();
  });
  if (!s) return std::unexpected(s.error());
  return found;
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

bool IsStoreAddress(std::string_view address) {
  return address.starts_with("postgresql://") || address.starts_with("postgres://");
}

std::string ShownAddress(const std::string& address) {
  auto parsed = store::ParseLogAddress(address);
  return parsed ? parsed->shown : parsed.error().where;
}

TurnLog::TurnLog() = default;
TurnLog::TurnLog(TurnLog&&) noexcept = default;
TurnLog& TurnLog::operator=(TurnLog&&) noexcept = default;
TurnLog::~TurnLog() = default;  // an unpublished store removes what it wrote

TurnLog::Transaction::~Transaction() {
  if (log_ != nullptr && log_->in_transaction_) {
    log_->store_->Rollback();
    log_->in_transaction_ = false;
  }
}

Status TurnLog::Transaction::Commit() {
  TurnLog* log = std::exchange(log_, nullptr);
  if (log == nullptr || !log->in_transaction_) {
    return Fail(ErrorCode::kInternal, "commit outside a transaction");
  }
  log->in_transaction_ = false;
  return log->store_->Commit();
}

Result<TurnLog> TurnLog::Create(const std::string& address, const GameRecord& game,
                                const Snapshot& start) {
  return CreateIn(address, game, start,
                  game.dice == DiceKind::kFair ? kLogSchemaVersion : kSeededLogSchema);
}

Result<TurnLog> TurnLog::CreateIn(const std::string& address, const GameRecord& game,
                                  const Snapshot& start, std::int32_t schema) {
  if (game.seed > static_cast<std::uint64_t>(INT64_MAX)) {
    return Fail(ErrorCode::kInvalidInput, "the seed must be below 2^63", std::to_string(game.seed));
  }
  if (start.turn != 0) return Fail(ErrorCode::kInternal, "a new log starts with the snapshot at 0");
  auto parsed = store::ParseLogAddress(address);
  if (!parsed) return std::unexpected(parsed.error());
  auto made =
      parsed->postgres() ? store::CreatePgStore(*parsed) : store::CreateSqliteStore(parsed->path);
  if (!made) return std::unexpected(made.error());
  TurnLog log;
  log.store_ = std::move(*made);
  log.path_ = log.store_->where();
  if (auto s = log.store_->Begin(); !s) return std::unexpected(s.error());
  log.in_transaction_ = true;
  Transaction tx(&log);
  log.schema_ = schema;
  if (auto s = log.store_->CreateSchema(schema); !s) return std::unexpected(s.error());

  log.game_ = game;
  log.game_.scenario_sha256 = Sha256Hex(game.scenario);
  const std::string game_hash = RowHash(kGenesis, GameContent(log.game_, schema));
  std::vector<Value> row{std::int64_t{1},
                         std::string_view(log.game_.scenario_name),
                         std::string_view(log.game_.scenario_sha256),
                         std::string_view(log.game_.scenario),
                         static_cast<std::int64_t>(log.game_.seed),
                         std::string_view(log.game_.start_hash)};
  if (schema >= 2) row.emplace_back(std::int64_t{log.game_.rules_version});
  row.emplace_back(std::string_view(kGenesis));
  row.emplace_back(std::string_view(game_hash));
  if (schema >= 3) {
    row.insert(row.end(),
               {std::string_view(DiceKindName(log.game_.dice)), std::string_view(log.game_.game_id),
                std::string_view(log.game_.axis_commitment),
                std::string_view(log.game_.allied_commitment)});
  }
  if (auto s = log.store_->Insert("game", GameInsertColumns(schema), row); !s) {
    return std::unexpected(s.error());
  }

  // The snapshot at the start follows the game record.
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
  if (!store_) return Fail(ErrorCode::kInternal, "the log is already published");
  auto s = store_->Publish();
  if (s) store_.reset();
  return s;
}

Result<TurnLog> TurnLog::Open(const std::string& address, Access access) {
  auto parsed = store::ParseLogAddress(address);
  if (!parsed) return std::unexpected(parsed.error());
  auto opened = parsed->postgres() ? store::OpenPgStore(*parsed, access)
                                   : store::OpenSqliteStore(parsed->path, access);
  if (!opened) return std::unexpected(opened.error());
  TurnLog log;
  log.store_ = std::move(*opened);
  log.path_ = log.store_->where();
  log.schema_ = log.store_->schema();
  if (auto s = log.LoadGame(); !s) return std::unexpected(s.error());
  return log;
}

Status TurnLog::CheckTail() const {
  auto count = CountTurns();
  if (!count) return std::unexpected(count.error());
  ChainRow row;
  Snapshot snap;
  auto has = QueryOne(*store_, {"snapshot", kSnapshotColumns, "turn"}, *count, [&](const Row& r) {
    std::string data_sha;
    DecodeSnapshot(r, row, snap, data_sha);
  });
  if (!has) return std::unexpected(has.error());
  if (!*has) {
    return Fail(
        ErrorCode::kCorruption,
        "the log has no snapshot after its last player-turn (" + std::to_string(*count) + ")",
        path_);
  }
  if (auto s = CheckRow(path_, row); !s) return s;
  std::string before;
  auto linked = QueryOne(*store_, {"chain", "hash", "seq"}, row.seq - 1,
                         [&](const Row& r) { before = r.Text(0); });
  if (!linked) return std::unexpected(linked.error());
  if (!*linked || before != row.prev_hash) {
    return Corrupt(path_, row,
                   "the chain is broken here: the row does not follow the one before it (a row "
                   "was deleted, inserted or moved)");
  }
  // The snapshot must hold the state the last player-turn ended in (or the start).
  std::string ended = game_.start_hash;
  std::string what = "the game started";
  if (*count > 0) {
    ChainRow turn_row;
    LoggedTurn last;
    auto found = QueryOne(*store_, {"turn", TurnColumns(schema_), "number"}, *count,
                          [&](const Row& r) { last = DecodeTurn(r, turn_row, schema_); });
    if (!found) return std::unexpected(found.error());
    if (!*found) {
      return Fail(ErrorCode::kCorruption,
                  "player-turn " + std::to_string(*count) + " is missing from the log", path_);
    }
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
  ChainRow row;
  auto has = QueryOne(*store_, {"game", GameColumns(schema_)}, std::nullopt,
                      [&](const Row& r) { game_ = DecodeGame(r, row, schema_); });
  if (!has) return std::unexpected(has.error());
  if (!*has) return Fail(ErrorCode::kCorruption, "the log has no game record", path_);
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
  return store_->SetMeta(key, value);
}

Status TurnLog::DeleteMeta(std::string_view key) {
  return store_->DeleteMeta(key);
}

Result<std::map<std::string, std::string>> TurnLog::Meta() const {
  return store_->Meta();
}

Result<std::int32_t> TurnLog::CountTurns() const {
  auto n = QueryInt(*store_, {"turn", "coalesce(max(number), 0)"});
  if (!n) return std::unexpected(n.error());
  return static_cast<std::int32_t>(*n);
}

Status TurnLog::LoadHead() {
  std::int64_t seq = 0;
  for (const char* table : {"game", "turn", "roll", "event", "phase", "snapshot"}) {
    auto m = QueryInt(*store_, {table, "coalesce(max(seq), 0)"});
    if (!m) return std::unexpected(m.error());
    seq = std::max(seq, *m);
  }
  std::string hash;
  auto has =
      QueryOne(*store_, {"chain", "hash", "seq"}, seq, [&](const Row& r) { hash = r.Text(0); });
  if (!has) return std::unexpected(has.error());
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
  if (auto s = store_->Begin(); !s) return std::unexpected(s.error());
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
  const std::string hash = RowHash(prev, TurnContent(++seq, turn, schema));
  const std::string logged_at = turn.logged_at.empty() ? NowUtc() : turn.logged_at;
  std::vector<Value> row{std::int64_t{turn.number},         seq,
                         std::int64_t{turn.serial},         std::string_view(turn.side),
                         std::string_view(turn.date),       std::string_view(turn.orders),
                         std::string_view(turn.final_hash), std::string_view(logged_at)};
  if (schema >= 2) row.emplace_back(std::int64_t{turn.rules_version});
  row.insert(row.end(), {std::string_view(prev), std::string_view(hash)});
  if (schema >= 3) {
    row.insert(row.end(), {std::string_view(turn.axis_key), std::string_view(turn.allied_key),
                           std::string_view(turn.orders_hash), std::string_view(turn.reply_hash)});
  }
  if (auto s = store_->Insert("turn", TurnInsertColumns(schema), row); !s) return s;
  prev = hash;
  if (auto s = AppendLinks(
          *store_, "roll", kRollColumns, turn.number, turn.rolls, RollContent,
          [](std::vector<Value>& v, const LoggedRoll& r, std::deque<std::string>&) {
            v.insert(v.end(), {std::int64_t{r.value}, std::int64_t{r.sides},
                               std::int64_t{r.scripted ? 1 : 0}, std::string_view(r.purpose),
                               std::string_view(r.rule), std::string_view(r.decided)});
          },
          seq, prev);
      !s) {
    return s;
  }
  if (auto s = AppendLinks(
          *store_, "event", EventInsertColumns(schema), turn.number, turn.events,
          [schema](std::int64_t seq, std::int64_t turn, std::int64_t n, const LoggedEvent& e) {
            return EventContent(seq, turn, n, e, schema);
          },
          [schema](std::vector<Value>& v, const LoggedEvent& e, std::deque<std::string>& kept) {
            v.insert(v.end(), {std::string_view(e.kind), std::string_view(e.rule),
                               std::string_view(e.text)});
            if (schema >= 2) {
              for (std::string a :
                   {CanonicalArray(e.units), CanonicalArray(e.hexes), CanonicalArray(e.numbers)}) {
                v.emplace_back(std::string_view(kept.emplace_back(std::move(a))));
              }
            }
          },
          seq, prev);
      !s) {
    return s;
  }
  if (auto s = AppendLinks(
          *store_, "phase", kPhaseColumns, turn.number, turn.phases, PhaseContent,
          [](std::vector<Value>& v, const LoggedPhase& p, std::deque<std::string>&) {
            v.insert(v.end(), {std::string_view(p.phase), std::string_view(p.state_hash)});
          },
          seq, prev);
      !s) {
    return s;
  }
  return {};
}

Status TurnLog::AppendSnapshotRow(const Snapshot& after, std::int64_t& seq, std::string& prev) {
  const std::string data_sha = Sha256Hex(after.data);
  const std::string hash =
      RowHash(prev, SnapshotContent(++seq, after.turn, after.format, after.state_hash, data_sha,
                                    static_cast<std::int64_t>(after.data.size())));
  const Value row[] = {std::int64_t{after.turn},   seq,
                       std::int64_t{after.format}, std::string_view(after.state_hash),
                       std::string_view(data_sha), store::Bytes{after.data},
                       std::string_view(prev),     std::string_view(hash)};
  if (auto s = store_->Insert(
          "snapshot", "turn, seq, format, state_hash, data_sha256, data, prev_hash, hash", row);
      !s) {
    return s;
  }
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
  std::vector<ChainRow> rows(1);
  LoggedTurn turn;
  auto has = QueryOne(*store_, {"turn", TurnColumns(schema_), "number"}, number,
                      [&](const Row& r) { turn = DecodeTurn(r, rows[0], schema_); });
  if (!has) return std::unexpected(has.error());
  if (!*has) {
    return Fail(ErrorCode::kCorruption,
                "player-turn " + std::to_string(number) + " is missing from the log", path_);
  }

  auto read = [&](const char* table, const char* columns, auto decode, auto& into) -> Status {
    return store_->Query({table, columns, "turn", "seq"}, number, [&](const Row& r) {
      ChainRow row;
      into.push_back(decode(r, row));
      rows.push_back(std::move(row));
      return Status();
    });
  };
  if (auto s = read("roll", kRollColumns, DecodeRoll, turn.rolls); !s)
    return std::unexpected(s.error());
  const auto decode_event = [this](const Row& st, ChainRow& row) {
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
  std::string next_prev;
  auto follows = QueryOne(*store_, {"chain", "prev_hash", "seq"}, rows.back().seq + 1,
                          [&](const Row& r) { next_prev = r.Text(0); });
  if (!follows) return std::unexpected(follows.error());
  bool linked = *follows && next_prev == rows.back().hash;
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
  std::vector<std::int32_t> turns;
  auto s = store_->Query({"snapshot", "turn", nullptr, "turn"}, std::nullopt, [&](const Row& r) {
    turns.push_back(static_cast<std::int32_t>(r.Int(0)));
    return Status();
  });
  if (!s) return std::unexpected(s.error());
  return turns;
}

Result<Snapshot> TurnLog::ReadSnapshot(std::int32_t turn) const {
  ChainRow row;
  Snapshot snap;
  std::string data_sha;
  auto has = QueryOne(*store_, {"snapshot", std::string(kSnapshotColumns) + ", data", "turn"}, turn,
                      [&](const Row& r) {
                        DecodeSnapshot(r, row, snap, data_sha);
                        snap.data = r.Blob(8);
                      });
  if (!has) return std::unexpected(has.error());
  if (!*has) {
    return Fail(ErrorCode::kNotFound, "no snapshot after player-turn " + std::to_string(turn),
                path_);
  }
  if (Sha256Hex(snap.data) != data_sha) {
    return Corrupt(path_, row, "the snapshot's data does not match its SHA-256");
  }
  if (auto s = CheckRow(path_, row); !s) return std::unexpected(s.error());
  return snap;
}

Result<ChainReport> TurnLog::VerifyChain(const Progress& progress) const {
  std::vector<ChainRow> rows;
  ChainReport report;
  auto read_all = [&](const char* table, const std::string& columns, auto decode) -> Status {
    return store_->Query({table, columns}, std::nullopt, [&](const Row& r) {
      rows.emplace_back();
      decode(r, rows.back());
      return Status();
    });
  };
  const auto with_schema = [this](auto decode) {
    return [this, decode](const Row& st, ChainRow& row) { decode(st, row, schema_); };
  };
  if (auto s = read_all("game", GameColumns(schema_), with_schema(DecodeGame)); !s) {
    return std::unexpected(s.error());
  }
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
    auto total = QueryInt(*store_, {"snapshot", "count(*)"});
    if (!total) return std::unexpected(total.error());
    std::int64_t done = 0;
    auto s = store_->Query(
        {"snapshot", std::string(kSnapshotColumns) + ", data"}, std::nullopt, [&](const Row& r) {
          rows.emplace_back();
          Snapshot snap;
          std::string data_sha;
          DecodeSnapshot(r, rows.back(), snap, data_sha);
          if (Sha256Hex(r.Blob(8)) != data_sha) {
            rows.back().damage = "the snapshot's data does not match its SHA-256";
          }
          ++report.snapshots;
          if (progress) progress(++done, *total);
          return Status();
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

Result<ChainReport> TurnLog::Copy(const TurnLog& from, const std::string& to) {
  auto original = from.VerifyChain();
  if (!original) return std::unexpected(original.error());
  auto start = from.ReadSnapshot(0);
  if (!start) return std::unexpected(start.error());
  auto out = CreateIn(to, from.game(), *start, from.schema());
  if (!out) return std::unexpected(out.error());
  auto tx = out->Begin();
  if (!tx) return std::unexpected(tx.error());
  // Each player-turn as it was read, with the snapshot after it: the same content in the same
  // order makes the same seqs and hashes.
  for (std::int32_t n = 1; n <= original->turns; ++n) {
    auto turn = from.ReadTurn(n);
    if (!turn) return std::unexpected(turn.error());
    auto after = from.ReadSnapshot(n);
    if (!after) return std::unexpected(after.error());
    if (auto s = out->AppendTurn(*turn, *after); !s) return std::unexpected(s.error());
  }
  auto meta = from.Meta();
  if (!meta) return std::unexpected(meta.error());
  for (const auto& [key, value] : *meta) {
    if (key == "head_seq" || key == "head_hash") continue;  // the copy's own, checked below
    if (auto s = out->SetMeta(key, value); !s) return std::unexpected(s.error());
  }
  if (auto s = tx->Commit(); !s) return std::unexpected(s.error());
  auto copied = out->VerifyChain();
  if (!copied) return std::unexpected(copied.error());
  if (copied->head != original->head || copied->rows != original->rows) {
    return Fail(ErrorCode::kInternal,
                "the copy's chain ends in " + copied->head + " (row seq " +
                    std::to_string(copied->rows) + "), not in the original's " + original->head,
                out->path());
  }
  if (auto s = out->Publish(); !s) return std::unexpected(s.error());
  return copied;
}

}  // namespace opsim::db
