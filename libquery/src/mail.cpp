#include "opsim/query/mail.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>

#include "fair_seat.h"
#include "opsim/core/fair_dice.h"
#include "opsim/core/files.h"
#include "opsim/core/sha256.h"
#include "opsim/db/game_log.h"
#include "opsim/map/scenario.h"
#include "opsim/ops/reply.h"

namespace opsim::query::mail {

namespace {

using db::TurnLog;
using nlohmann::json;
using P = JsonSource::Pointer;

constexpr int kFileVersion = 1;

// An exchange file's header and required string fields, with located errors.
Result<std::map<std::string, std::string>> ReadStrings(const JsonSource& src, std::string_view kind,
                                                       std::string_view what,
                                                       std::initializer_list<const char*> keys) {
  if (!src.doc().is_object()) return src.Bad(P(), std::string(what) + " holds one JSON object");
  JsonReader r(src);
  if (auto v = r.Header(kind, kFileVersion, what); !v) return std::unexpected(v.error());
  std::map<std::string, std::string> out;
  for (const char* key : keys) {
    if (auto s = r.Require(P(), key); !s) return std::unexpected(s.error());
    auto v = r.String(P("/" + std::string(key)));
    if (!v) return std::unexpected(v.error());
    out[key] = *v;
  }
  return out;
}

Result<Side> ReadSide(const JsonSource& src, const std::string& text) {
  auto side = ParseSide(text);
  if (!side) return src.Bad(P("/side"), "the side is axis or allied");
  return *side;
}

Result<std::int32_t> ReadNumber(const JsonSource& src) {
  JsonReader r(src);
  if (auto s = r.Require(P(), "number"); !s) return std::unexpected(s.error());
  auto n = r.Int(P("/number"), 1, kKeyChainLength);
  if (!n) return std::unexpected(n.error());
  return static_cast<std::int32_t>(*n);
}

// A player's key file: his side of one game, and his secret.
struct PlayerKey {
  std::string game_id;
  Side side = Side::kAxis;
  Key secret{};
  std::string commitment;  // hex K[0]
};

Result<PlayerKey> ReadKey(const std::string& path) {
  auto src = JsonSource::FromFile(path);
  if (!src) return std::unexpected(src.error());
  auto f = ReadStrings(*src, "pbem-key", "a key file", {"game", "side", "secret"});
  if (!f) return std::unexpected(f.error());
  PlayerKey k;
  k.game_id = (*f)["game"];
  auto side = ReadSide(*src, (*f)["side"]);
  if (!side) return std::unexpected(side.error());
  k.side = *side;
  auto secret = KeyFromHex((*f)["secret"]);
  if (!secret) return src->Bad(P("/secret"), "the secret is 64 lower-case hex digits");
  k.secret = *secret;
  k.commitment = KeyHex(ChainKey(k.secret, 0));
  return k;
}

// A new secret in a new key file (0600, never overwritten).
Result<PlayerKey> MakeKey(const std::string& path, const std::string& game_id, Side side) {
  auto secret = NewSecret();
  if (!secret) return std::unexpected(secret.error());
  const json doc = {{"opsim", "pbem-key"},
                    {"version", kFileVersion},
                    {"game", game_id},
                    {"side", SideName(side)},
                    {"secret", KeyHex(*secret)}};
  if (auto s = CreatePrivateFile(path, doc.dump(2) + "\n"); !s) return std::unexpected(s.error());
  return PlayerKey{game_id, side, *secret, KeyHex(ChainKey(*secret, 0))};
}

// Whether two paths name one file: one path once resolved (links, "..", a file yet to be made),
// or, both existing, one inode (a hard link).
bool SameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec)) return true;
  const std::filesystem::path pa = std::filesystem::weakly_canonical(a, ec);
  if (ec) return false;
  const std::filesystem::path pb = std::filesystem::weakly_canonical(b, ec);
  return !ec && pa == pb;
}

// A step that makes a key file refuses, before it makes anything, an --out or a --db that is
// the key file: the step's own writes would replace the secret it just made.
Status DistinctFromKey(const std::string& key_path, const std::string& db_path,
                       const std::string& out) {
  for (const auto& [path, option] : {std::pair{&out, "--out"}, std::pair{&db_path, "--db"}}) {
    if (SameFile(*path, key_path)) {
      return Fail(ErrorCode::kInvalidInput,
                  std::string(option) +
                      " is the key file: the key file holds your secret and is never overwritten "
                      "(name another file)",
                  *path);
    }
  }
  return {};
}

// A pbem file replaces only another pbem file, unless `force`; never a key file (WriteOutputFile
// refuses a secret, even with `force`). Each step checks its --out (CheckOut) before it changes
// its log or makes a key, so that a refused --out leaves everything as it was.
const OutputKind kPbemFile{"an opsim pbem file",
                           [](std::string_view t) { return IsOpsimFile(t, "pbem-"); }};
Status CheckOut(const std::string& path, bool force) {
  return CheckOutputFile(path, kPbemFile, force);
}
Status WriteJson(const std::string& path, const json& doc, bool force) {
  return WriteOutputFile(path, doc.dump(2) + "\n", kPbemFile, force);
}

const std::string& CommitmentOf(const db::GameRecord& g, Side side) {
  return side == Side::kAxis ? g.axis_commitment : g.allied_commitment;
}

// A player's seat at his own log: the fair log's seat and his key.
struct Seat : fair::Seat {
  PlayerKey key;
};

// Opens the log and the key file, checks that they belong together, and sits (fair::Sit).
Result<std::unique_ptr<Seat>> TakeSeat(const std::string& db_path, const std::string& key_path) {
  auto seat = std::make_unique<Seat>();
  if (auto s = fair::OpenSeat(db_path, *seat); !s) return std::unexpected(s.error());
  const TurnLog& log = *seat->log;
  auto key = ReadKey(key_path);
  if (!key) return std::unexpected(key.error());
  if (key->game_id != log.game().game_id) {
    return Fail(
        ErrorCode::kWrongTurn,
        "the key file is for game " + key->game_id + ", the log holds game " + log.game().game_id,
        key_path);
  }
  if (key->commitment != CommitmentOf(log.game(), key->side)) {
    return Fail(ErrorCode::kCorruption,
                std::string("the key file's secret does not match the ") + SideName(key->side) +
                    " player's commitment in the log",
                key_path);
  }
  seat->key = std::move(*key);
  if (auto s = fair::Sit(*seat, db_path); !s) return std::unexpected(s.error());
  return seat;
}

// Checks that an exchange file belongs to this game, this player-turn and this log's head.
Status SameTurn(const JsonSource& src, const Seat& seat, const std::string& game,
                std::int32_t number, const std::string& head) {
  if (game != seat.log->game().game_id) {
    return Fail(
        ErrorCode::kWrongTurn,
        "this file is for game " + game + ", the log holds game " + seat.log->game().game_id,
        src.Where(P("/game")));
  }
  if (number < seat.number) {
    return Fail(ErrorCode::kWrongTurn,
                "an old file: player-turn " + std::to_string(number) +
                    " is already logged (the log stands before player-turn " +
                    std::to_string(seat.number) + ")",
                src.Where(P("/number")));
  }
  if (number > seat.number) {
    return Fail(ErrorCode::kWrongTurn,
                "this file is for player-turn " + std::to_string(number) +
                    ", but the log stands before player-turn " + std::to_string(seat.number) +
                    " (a file is missing)",
                src.Where(P("/number")));
  }
  if (head != seat.head) {
    return Fail(
        ErrorCode::kWrongTurn,
        "the logs diverged: this file extends head " + head + ", the log's head is " + seat.head,
        src.Where(P("/head")));
  }
  return {};
}

db::FairTurn FairOf(Side mover, const std::string& mover_key, const std::string& defender_key,
                    const std::string& orders_hash, const std::string& reply_hash) {
  db::FairTurn f;
  f.axis_key = mover == Side::kAxis ? mover_key : defender_key;
  f.allied_key = mover == Side::kAxis ? defender_key : mover_key;
  f.orders_hash = orders_hash;
  f.reply_hash = reply_hash;
  return f;
}

// Checks a revealed key of `side` for player-turn `number` against the log's commitment.
Status CheckKey(const JsonSource& src, const db::GameRecord& g, Side side, std::int32_t number,
                const std::string& hex) {
  auto key = KeyFromHex(hex);
  auto commitment = KeyFromHex(CommitmentOf(g, side));
  if (!key || !commitment || !KeyMatches(*key, number, *commitment)) {
    return Fail(ErrorCode::kCorruption,
                std::string("the ") + SideName(side) + " key for player-turn " +
                    std::to_string(number) + " does not match the " + SideName(side) +
                    " player's commitment",
                src.Where(P("/key")));
  }
  return {};
}

}  // namespace

Result<std::string> KeyPathFor(const std::string& db_path, const std::string& key) {
  if (!key.empty()) return key;
  if (db::IsStoreAddress(db_path)) {
    return Fail(ErrorCode::kInvalidInput,
                "a log in PostgreSQL has no folder beside it for your key file: name one with "
                "--key (and keep it private)",
                db::ShownAddress(db_path));
  }
  return db_path + ".key";
}

Result<json> Start(const JsonSource& scenario, Side side, const std::string& db_path,
                   const std::string& key_path, const std::string& out, bool force) {
  if (auto loaded = map::LoadScenario(scenario); !loaded) return std::unexpected(loaded.error());
  std::error_code ec;
  if (!db::IsStoreAddress(db_path) && std::filesystem::exists(db_path, ec)) {
    return Fail(ErrorCode::kInvalidInput,
                "the file already exists; a new game needs a new log (it is made at `pbem "
                "accept`)",
                db_path);
  }
  if (auto s = DistinctFromKey(key_path, db_path, out); !s) return std::unexpected(s.error());
  if (auto s = CheckOut(out, force); !s) return std::unexpected(s.error());
  auto id = NewGameId();
  if (!id) return std::unexpected(id.error());
  const std::string game_id = *id;
  auto key = MakeKey(key_path, game_id, side);
  if (!key) return std::unexpected(key.error());
  const std::string name = std::filesystem::path(scenario.name()).filename().string();
  const json invitation = {
      {"opsim", "pbem-invitation"}, {"version", kFileVersion},       {"game", game_id},
      {"side", SideName(side)},     {"commitment", key->commitment}, {"scenario_name", name},
      {"scenario", scenario.text()}};
  if (auto s = WriteJson(out, invitation, force); !s) return std::unexpected(s.error());
  return json{{"file", out},
              {"game", game_id},
              {"side", SideName(side)},
              {"key", key_path},
              {"commitment", key->commitment},
              {"scenario", name}};
}

Result<json> Join(const JsonSource& invitation, const std::string& db_path,
                  const std::string& key_path, const std::string& out, bool force) {
  auto f = ReadStrings(invitation, "pbem-invitation", "an invitation",
                       {"game", "side", "commitment", "scenario_name", "scenario"});
  if (!f) return std::unexpected(f.error());
  auto theirs = ReadSide(invitation, (*f)["side"]);
  if (!theirs) return std::unexpected(theirs.error());
  if (!KeyFromHex((*f)["commitment"])) {
    return invitation.Bad(P("/commitment"), "a commitment is 64 lower-case hex digits");
  }
  std::error_code ec;
  if (!db::IsStoreAddress(db_path) && std::filesystem::exists(db_path, ec)) {
    return Fail(ErrorCode::kInvalidInput,
                "the file already exists; a new game needs a new file (remove it, or choose "
                "another name)",
                db_path);
  }
  if (auto s = DistinctFromKey(key_path, db_path, out); !s) return std::unexpected(s.error());
  if (auto s = CheckOut(out, force); !s) return std::unexpected(s.error());
  const Side mine = Enemy(*theirs);
  auto key = MakeKey(key_path, (*f)["game"], mine);
  if (!key) return std::unexpected(key.error());
  auto scenario = JsonSource::FromText((*f)["scenario"], (*f)["scenario_name"]);
  auto game =
      scenario ? db::NewFairLoggedGame(db_path, *scenario, (*f)["game"],
                                       mine == Side::kAxis ? key->commitment : (*f)["commitment"],
                                       mine == Side::kAxis ? (*f)["commitment"] : key->commitment)
               : std::unexpected(scenario.error());
  if (!game) {
    std::filesystem::remove(key_path, ec);  // unused: no log holds its commitment
    return std::unexpected(game.error());
  }
  auto log = TurnLog::Open(db_path, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  auto meta = log->Meta();
  if (!meta) return std::unexpected(meta.error());
  const json acceptance = {{"opsim", "pbem-acceptance"},    {"version", kFileVersion},
                           {"game", (*f)["game"]},          {"side", SideName(mine)},
                           {"commitment", key->commitment}, {"head", (*meta)["head_hash"]}};
  if (auto s = WriteJson(out, acceptance, force); !s) return std::unexpected(s.error());
  return json{{"file", out},          {"db", db_path},          {"key", key_path},
              {"game", (*f)["game"]}, {"side", SideName(mine)}, {"head", (*meta)["head_hash"]}};
}

Result<json> Accept(const JsonSource& invitation, const JsonSource& acceptance,
                    const std::string& db_path, const std::string& key_path) {
  auto inv = ReadStrings(invitation, "pbem-invitation", "an invitation",
                         {"game", "side", "commitment", "scenario_name", "scenario"});
  if (!inv) return std::unexpected(inv.error());
  auto acc = ReadStrings(acceptance, "pbem-acceptance", "an acceptance",
                         {"game", "side", "commitment", "head"});
  if (!acc) return std::unexpected(acc.error());
  auto key = ReadKey(key_path);
  if (!key) return std::unexpected(key.error());
  if ((*acc)["game"] != (*inv)["game"] || key->game_id != (*inv)["game"]) {
    return Fail(ErrorCode::kWrongTurn,
                "the acceptance is for game " + (*acc)["game"] + ", the invitation for game " +
                    (*inv)["game"] + ", the key file for game " + key->game_id,
                acceptance.Where(P("/game")));
  }
  if (key->commitment != (*inv)["commitment"] || SideName(key->side) != (*inv)["side"]) {
    return Fail(ErrorCode::kCorruption, "the key file is not the one this invitation was made with",
                key_path);
  }
  auto theirs = ReadSide(acceptance, (*acc)["side"]);
  if (!theirs) return std::unexpected(theirs.error());
  if (*theirs == key->side) {
    return acceptance.Bad(P("/side"), "both players cannot play the same side");
  }
  if (!KeyFromHex((*acc)["commitment"])) {
    return acceptance.Bad(P("/commitment"), "a commitment is 64 lower-case hex digits");
  }
  auto scenario = JsonSource::FromText((*inv)["scenario"], (*inv)["scenario_name"]);
  if (!scenario) return std::unexpected(scenario.error());
  const bool axis = key->side == Side::kAxis;
  auto game = db::NewFairLoggedGame(db_path, *scenario, key->game_id,
                                    axis ? key->commitment : (*acc)["commitment"],
                                    axis ? (*acc)["commitment"] : key->commitment);
  if (!game) return std::unexpected(game.error());
  auto log = TurnLog::Open(db_path, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  auto meta = log->Meta();
  if (!meta) return std::unexpected(meta.error());
  if ((*meta)["head_hash"] != (*acc)["head"]) {
    return Fail(ErrorCode::kWrongTurn,
                "the two logs do not start alike: this log's head is " + (*meta)["head_hash"] +
                    ", the acceptance names " + (*acc)["head"],
                acceptance.Where(P("/head")));
  }
  return json{{"db", db_path},
              {"game", key->game_id},
              {"side", SideName(key->side)},
              {"head", (*meta)["head_hash"]},
              {"next", SideName(game->state.phasing())}};
}

Result<json> Move(const std::string& db_path, const std::string& key_path, const JsonSource& orders,
                  const std::string& out, bool force) {
  auto taken = TakeSeat(db_path, key_path);
  if (!taken) return std::unexpected(taken.error());
  Seat& seat = **taken;
  const ops::Game& game = *seat.game;
  const ops::GameState& s = game.state();
  if (s.phasing() != seat.key.side) {
    return Fail(ErrorCode::kInvalidInput,
                std::string("it is the ") + SideName(s.phasing()) + " player-turn: the " +
                    SideName(s.phasing()) + " player moves, and you play " +
                    SideName(seat.key.side),
                db_path);
  }
  auto turn = fair::PendOrders(seat, orders);
  if (!turn) return std::unexpected(turn.error());
  if (auto st = CheckOut(out, force); !st) return std::unexpected(st.error());
  if (auto st = seat.tx->Commit(); !st) return std::unexpected(st.error());
  (*turn)["opsim"] = "pbem-turn";
  (*turn)["version"] = kFileVersion;
  if (auto st = WriteJson(out, *turn, force); !st) return std::unexpected(st.error());
  return json{{"file", out},
              {"game", (*turn)["game"]},
              {"number", seat.number},
              {"side", (*turn)["side"]},
              {"date", (*turn)["date"]},
              {"orders_hash", (*turn)["orders_hash"]},
              {"attacks", (*turn)["attacks"]}};
}

Result<json> Reply(const std::string& db_path, const std::string& key_path, const JsonSource& turn,
                   const JsonSource* reply, const std::string& out, bool force) {
  auto taken = TakeSeat(db_path, key_path);
  if (!taken) return std::unexpected(taken.error());
  Seat& seat = **taken;
  auto f = ReadStrings(turn, "pbem-turn", "a turn file", {"game", "side", "head", "orders_hash"});
  if (!f) return std::unexpected(f.error());
  auto number = ReadNumber(turn);
  if (!number) return std::unexpected(number.error());
  if (auto s = SameTurn(turn, seat, (*f)["game"], *number, (*f)["head"]); !s) {
    return std::unexpected(s.error());
  }
  JsonReader r(turn);
  if (auto s = r.Require(P(), "orders"); !s) return std::unexpected(s.error());
  if (auto o = r.Object(P("/orders")); !o) return std::unexpected(o.error());
  const std::string mover = r.At(P("/orders")).dump();
  if (Sha256Hex(mover) != (*f)["orders_hash"]) {
    return Fail(ErrorCode::kCorruption,
                "the turn file's orders do not match their hash (the file was changed)",
                turn.Where(P("/orders_hash")));
  }
  const ops::Game& game = *seat.game;
  const Side phasing = game.state().phasing();
  if (phasing == seat.key.side || (*f)["side"] != SideName(phasing)) {
    return Fail(ErrorCode::kInvalidInput,
                std::string("it is the ") + SideName(phasing) +
                    " player-turn: the other player replies to it, and you play " +
                    SideName(seat.key.side),
                turn.Where(P("/side")));
  }
  // Every check the mover's `opsim` made on his orders is made again here, before the reply
  // is fixed and the key revealed: a turn file edited by hand (dice, another player-turn's
  // orders, orders the rules refuse before any die) is refused, as it would be at `resolve`.
  auto orders = JsonSource::FromText(r.At(P("/orders")).dump(2), turn.name() + " /orders");
  if (!orders) return std::unexpected(orders.error());
  auto checked = fair::CheckMoverOrders(game, *orders);
  if (!checked) return std::unexpected(checked.error());
  if (checked->canonical != mover) {
    return Fail(ErrorCode::kCorruption,
                "the turn file's orders are not in the canonical form opsim writes (the file was "
                "made by hand)",
                turn.Where(P("/orders")));
  }
  json answer = json::object();
  if (reply != nullptr) {
    JsonReader rr(*reply);
    if (!reply->doc().is_object()) {
      return reply->Bad(P(),
                        "a reply holds one JSON object: {\"reactions\": [...], "
                        "\"retreats\": [...]}");
    }
    if (auto s = rr.OnlyKeys(P(), {db::kReplyKeys[0], db::kReplyKeys[1]}); !s) {
      return std::unexpected(s.error());
    }
    answer = reply->doc();
  }
  const std::string name = reply ? reply->name() : turn.name();
  auto merged = fair::Answer(game, mover, answer, seat.key.side, name, name);
  if (!merged) return std::unexpected(merged.error());
  if (auto s = ops::ReplyFloodsAnswerAttacks(game, merged->orders); !s) {
    return std::unexpected(s.error());
  }
  if (auto s = ops::LegalBeforeDice(game, merged->orders); !s) return std::unexpected(s.error());
  const db::Decisions& d = merged->decisions;
  const std::string reply_hash = Sha256Hex(d.reply);
  if (seat.pending && seat.pending->value("stage", "") == "replied") {
    const std::string sent = (*seat.pending)["orders_hash"];
    if (sent != (*f)["orders_hash"]) {
      return Fail(ErrorCode::kCorruption,
                  "a second, different turn file for player-turn " + std::to_string(*number) +
                      ": the mover changed his orders after sending them (you replied to orders "
                      "hash " +
                      sent + ", this file has " + (*f)["orders_hash"] + ")",
                  turn.Where(P("/orders_hash")));
    }
    if ((*seat.pending)["reply_hash"] != reply_hash) {
      return Fail(ErrorCode::kInvalidInput,
                  "your reply to player-turn " + std::to_string(*number) +
                      " was already sent; once sent, a reply is fixed",
                  reply ? reply->name() : turn.name());
    }
  }
  const json pending = {{"stage", "replied"},
                        {"number", *number},
                        {"side", SideName(phasing)},
                        {"orders", d.orders},
                        {"orders_hash", (*f)["orders_hash"]},
                        {"reply", d.reply},
                        {"reply_hash", reply_hash}};
  if (auto s = seat.log->SetMeta(db::kOrdersPendingMeta, pending.dump()); !s) {
    return std::unexpected(s.error());
  }
  if (auto s = CheckOut(out, force); !s) return std::unexpected(s.error());
  if (auto s = seat.tx->Commit(); !s) return std::unexpected(s.error());
  const json file = {{"opsim", "pbem-reply"},
                     {"version", kFileVersion},
                     {"game", (*f)["game"]},
                     {"number", *number},
                     {"side", SideName(seat.key.side)},
                     {"head", seat.head},
                     {"orders_hash", (*f)["orders_hash"]},
                     {"reply", json::parse(d.reply)},
                     {"reply_hash", reply_hash},
                     {"key", KeyHex(ChainKey(seat.key.secret, *number))}};
  if (auto s = WriteJson(out, file, force); !s) return std::unexpected(s.error());
  return json{{"file", out},
              {"game", (*f)["game"]},
              {"number", *number},
              {"side", SideName(seat.key.side)},
              {"date", ops::FormatGameDate(game.state().date())},
              {"attacks", fair::Attacks(merged->orders, game.theater())},
              {"reply", file["reply"]},
              {"reply_hash", reply_hash}};
}

Result<Played> Resolve(const std::string& db_path, const std::string& key_path,
                       const JsonSource& reply, const std::string& out, bool force) {
  auto taken = TakeSeat(db_path, key_path);
  if (!taken) return std::unexpected(taken.error());
  Seat& seat = **taken;
  auto f = ReadStrings(reply, "pbem-reply", "a reply file",
                       {"game", "side", "head", "orders_hash", "reply_hash", "key"});
  if (!f) return std::unexpected(f.error());
  auto number = ReadNumber(reply);
  if (!number) return std::unexpected(number.error());
  if (auto s = SameTurn(reply, seat, (*f)["game"], *number, (*f)["head"]); !s) {
    return std::unexpected(s.error());
  }
  if (!seat.pending || seat.pending->value("stage", "") != "moved") {
    return Fail(ErrorCode::kInvalidInput,
                "no orders of yours await a reply for player-turn " + std::to_string(seat.number) +
                    " (send them with `opsim pbem move`)",
                db_path);
  }
  const json& pending = *seat.pending;
  if (pending["orders_hash"] != (*f)["orders_hash"]) {
    return Fail(ErrorCode::kCorruption,
                "the reply answers other orders (hash " + (*f)["orders_hash"] +
                    ") than those you sent for player-turn " + std::to_string(*number) + " (hash " +
                    pending["orders_hash"].get<std::string>() + ")",
                reply.Where(P("/orders_hash")));
  }
  JsonReader r(reply);
  if (auto s = r.Require(P(), "reply"); !s) return std::unexpected(s.error());
  if (auto o = r.Object(P("/reply")); !o) return std::unexpected(o.error());
  const std::string answer = r.At(P("/reply")).dump();
  if (Sha256Hex(answer) != (*f)["reply_hash"]) {
    return Fail(ErrorCode::kCorruption, "the reply does not match its hash (the file was changed)",
                reply.Where(P("/reply_hash")));
  }
  const Side defender = Enemy(seat.key.side);
  if ((*f)["side"] != SideName(defender)) {
    return reply.Bad(P("/side"),
                     std::string("the reply must come from the ") + SideName(defender) + " player");
  }
  if (auto s = CheckKey(reply, seat.log->game(), defender, *number, (*f)["key"]); !s) {
    return std::unexpected(s.error());
  }
  auto merged = fair::Answer(*seat.game, pending["orders"], r.At(P("/reply")), defender,
                             reply.name(), reply.Where(P("/reply/retreats")));
  if (!merged) return std::unexpected(merged.error());
  if (merged->decisions.reply != answer) {
    return Fail(ErrorCode::kCorruption,
                "the reply is not in the canonical form opsim writes (the file was made by hand)",
                reply.Where(P("/reply")));
  }
  const std::string my_key = KeyHex(ChainKey(seat.key.secret, *number));
  const db::FairTurn fair =
      FairOf(seat.key.side, my_key, (*f)["key"], (*f)["orders_hash"], (*f)["reply_hash"]);
  auto played = fair::PlayPending(seat, merged->orders, fair);
  if (!played) return std::unexpected(played.error());
  const json result = {{"opsim", "pbem-result"},
                       {"version", kFileVersion},
                       {"game", (*f)["game"]},
                       {"number", *number},
                       {"side", SideName(seat.key.side)},
                       {"before", seat.head},
                       {"orders_hash", (*f)["orders_hash"]},
                       {"reply_hash", (*f)["reply_hash"]},
                       {"key", my_key},
                       {"head", played->head},
                       {"final_hash", played->turn.final_hash}};
  // The result file first: a log that holds the player-turn always has its file.
  if (auto s = WriteJson(out, result, force); !s) return std::unexpected(s.error());
  if (auto s = seat.tx->Commit(); !s) return std::unexpected(s.error());
  return Played{json{{"file", out},
                     {"game", (*f)["game"]},
                     {"number", *number},
                     {"head", played->head},
                     {"final_hash", played->turn.final_hash}},
                std::move(played->turn)};
}

Result<Played> Apply(const std::string& db_path, const std::string& key_path,
                     const JsonSource& result) {
  auto taken = TakeSeat(db_path, key_path);
  if (!taken) return std::unexpected(taken.error());
  Seat& seat = **taken;
  auto f = ReadStrings(
      result, "pbem-result", "a result file",
      {"game", "side", "before", "orders_hash", "reply_hash", "key", "head", "final_hash"});
  if (!f) return std::unexpected(f.error());
  auto number = ReadNumber(result);
  if (!number) return std::unexpected(number.error());
  if (auto s = SameTurn(result, seat, (*f)["game"], *number, (*f)["before"]); !s) {
    Error e = s.error();
    if (e.where == result.Where(P("/head"))) e.where = result.Where(P("/before"));
    return std::unexpected(e);
  }
  if (!seat.pending || seat.pending->value("stage", "") != "replied") {
    return Fail(ErrorCode::kInvalidInput,
                "no reply of yours awaits a result for player-turn " + std::to_string(seat.number) +
                    " (reply with `opsim pbem reply`)",
                db_path);
  }
  const json& pending = *seat.pending;
  if (pending["orders_hash"] != (*f)["orders_hash"]) {
    return Fail(ErrorCode::kCorruption,
                "the result is for other orders (hash " + (*f)["orders_hash"] +
                    ") than those you replied to (hash " +
                    pending["orders_hash"].get<std::string>() + ")",
                result.Where(P("/orders_hash")));
  }
  if (pending["reply_hash"] != (*f)["reply_hash"]) {
    return Fail(ErrorCode::kCorruption,
                "the result is for another reply (hash " + (*f)["reply_hash"] +
                    ") than the one you sent (hash " + pending["reply_hash"].get<std::string>() +
                    ")",
                result.Where(P("/reply_hash")));
  }
  const Side mover = Enemy(seat.key.side);
  if ((*f)["side"] != SideName(mover)) {
    return result.Bad(P("/side"),
                      std::string("the result must come from the ") + SideName(mover) + " player");
  }
  if (auto s = CheckKey(result, seat.log->game(), mover, *number, (*f)["key"]); !s) {
    return std::unexpected(s.error());
  }
  auto merged = fair::Answer(*seat.game, pending["orders"],
                             json::parse(pending["reply"].get<std::string>(), nullptr, false),
                             seat.key.side, result.name(), result.name());
  if (!merged) return std::unexpected(merged.error());
  const db::FairTurn fair = FairOf(mover, (*f)["key"], KeyHex(ChainKey(seat.key.secret, *number)),
                                   (*f)["orders_hash"], (*f)["reply_hash"]);
  auto played = fair::PlayPending(seat, merged->orders, fair);
  if (!played) return std::unexpected(played.error());
  if (played->turn.final_hash != (*f)["final_hash"]) {
    return Fail(ErrorCode::kCorruption,
                "the result's final state hash " + (*f)["final_hash"] +
                    " is not the state the player-turn ends in here, " + played->turn.final_hash +
                    ": the file was changed (nothing was logged)",
                result.Where(P("/final_hash")));
  }
  if (played->head != (*f)["head"]) {
    return Fail(ErrorCode::kCorruption,
                "the player-turn played here ends the log at head " + played->head +
                    ", the mover's log at " + (*f)["head"] +
                    ": the logs diverged (nothing "
                    "was logged)",
                result.Where(P("/head")));
  }
  if (auto s = seat.tx->Commit(); !s) return std::unexpected(s.error());
  return Played{json{{"game", (*f)["game"]},
                     {"number", *number},
                     {"head", played->head},
                     {"final_hash", played->turn.final_hash}},
                std::move(played->turn)};
}

}  // namespace opsim::query::mail
