#include "opsim/query/play.h"

#include <sstream>

#include "fair_seat.h"
#include "opsim/core/sha256.h"
#include "opsim/db/turn_log.h"
#include "opsim/query/check.h"
#include "opsim/query/log.h"

namespace opsim::query {

using nlohmann::json;

namespace {

json Hexes(const std::vector<map::HexRef>& hexes, const map::Theater& t) {
  json out = json::array();
  for (map::HexRef h : hexes) out.push_back(t.HexName(h));
  return out;
}

// The player-turn's events and rolls in [from, to), each roll with the odds it was rolled at.
json EventsJson(const ops::TurnResult& r, std::size_t from, std::size_t to) {
  json events = json::array();
  for (std::size_t i = from; i < to; ++i) events.push_back(ToJson(r.events[i]));
  return events;
}
json RollsJson(const ops::TurnResult& r, std::size_t from, std::size_t to) {
  json rolls = json::array();
  for (std::size_t i = from; i < to; ++i) {
    json roll = ToJson(r.rolls[i]);
    roll["against"] = r.rolls[i].against;  // the odds it was rolled at, for the table
    rolls.push_back(std::move(roll));
  }
  return rolls;
}

// The flooding attempts open to an owner (41.A.4), by name.
json FloodsJson(const std::vector<ops::ReactionKind>& kinds) {
  json floods = json::array();
  for (ops::ReactionKind k : kinds) {
    floods.push_back(k == ops::ReactionKind::kFlood ? "flood" : "massive-flood");
  }
  return floods;
}

}  // namespace

json ToJson(const ops::Prompt& p, const map::Theater& t) {
  json j = {{"waiting", ops::WaitingName(p.waiting)},
            {"side", SideName(p.side)},
            {"phase", ops::PhaseName(p.phase)},
            {"text", p.text}};
  if (p.hex.valid()) j["hex"] = t.HexName(p.hex);
  if (p.attacked.valid()) j["attacked"] = t.HexName(p.attacked);
  if (!p.result.empty()) j["result"] = p.result;
  if (p.waiting == ops::Waiting::kFlood) j["floods"] = FloodsJson(p.floods);
  if (p.waiting == ops::Waiting::kRetreat) j["retreat_to"] = Hexes(p.retreat_to, t);
  if (!p.units.empty()) j["units"] = p.units;
  return j;
}

json PlayStatusJson(const StepSession& session) {
  const ops::StepTurn& turn = session.turn();
  return {{"player_turn", session.number()},
          {"date", ops::FormatGameDate(turn.result().date)},
          {"side", SideName(turn.result().side)},
          {"steps", turn.steps().size()},
          {"prompt", ToJson(turn.prompt(), session.theater())},
          {"can_undo", turn.CanUndo()},
          {"state_hash", turn.hash()}};
}

json PlayJson(const StepSession& session) {
  const ops::TurnResult& r = session.turn().result();
  json j = PlayStatusJson(session);
  j["events"] = EventsJson(r, 0, r.events.size());
  j["rolls"] = RollsJson(r, 0, r.rolls.size());
  return j;
}

LoadedGame PositionInPlay(const StepSession& session) {
  LoadedGame g;
  g.theater = session.shared_theater();
  g.campaign = session.campaign();
  g.state = session.turn().state();
  g.map = g.state->map;
  g.scenario.name = session.scenario_name();
  return g;
}

json ToJson(const StepRecord& r, const StepSession& session) {
  const ops::StepOutcome& o = r.outcome;
  json j = PlayStatusJson(session);
  j["step"] = {{"player_turn", r.number},
               {"steps", r.steps},
               {"events", EventsJson(r.played, o.events_from, o.events_to)},
               {"rolls", RollsJson(r.played, o.rolls_from, o.rolls_to)},
               {"logged", r.logged}};
  if (r.logged) j["step"]["final_hash"] = r.played.final_hash;
  return j;
}

json ToJson(const ops::AttackPreview& p, const map::Theater& t, const ops::RuleTables& tables) {
  const auto& columns = tables.combat.columns;
  return {{"hex", t.HexName(p.hex)},
          {"attackers", p.attackers},
          {"attack", p.odds.attack},
          {"defense", p.odds.defense},
          {"column", columns[static_cast<std::size_t>(p.odds.column)]},
          {"shift", p.odds.shift},
          {"odds", columns[static_cast<std::size_t>(p.odds.shifted)]},
          {"text", p.odds.text},
          {"floods", FloodsJson(p.floods)},
          {"rule", rules::kB7_2.id}};
}

std::string PreviewText(const json& p) {
  std::string text = "an attack on " + p["hex"].get<std::string>() + " would be fought at " +
                     p["odds"].get<std::string>() + ": " + p["text"].get<std::string>() + " [" +
                     p["rule"].get<std::string>() + "]\n";
  if (!p["floods"].empty()) {
    text += "  its owner may answer with a flooding attempt first (41.A.4), which can change it\n";
  }
  return text;
}

std::string StepText(const json& a) {
  std::ostringstream out;
  if (a.contains("step")) {
    const json& s = a["step"];
    for (const json& e : s["events"]) {
      out << "  " << e["kind"].get<std::string>() << ": " << e["text"].get<std::string>();
      if (e.contains("rule")) out << " [" << e["rule"].get<std::string>() << "]";
      out << "\n";
    }
    if (s["logged"] == true) {
      out << "player-turn " << s["player_turn"] << " is over and logged: state "
          << s["final_hash"].get<std::string>().substr(0, 16) << "\n";
    }
  }
  out << "player-turn " << a["player_turn"] << " (" << a["date"].get<std::string>() << ", "
      << a["side"].get<std::string>() << "), " << a["steps"]
      << " steps: " << a["prompt"]["text"].get<std::string>() << "\n";
  if (a["can_undo"] == true) out << "  the last step can be taken back (--undo)\n";
  return out.str();
}

// --- The door -------------------------------------------------------------------------------

Result<db::LoggedGame> NewGame(const std::string& address, const JsonSource& scenario,
                               std::uint64_t seed) {
  return db::NewLoggedGame(address, scenario, seed);
}

Result<db::LoggedGame> NewHostedGame(const std::string& address, const JsonSource& scenario,
                                     const std::string& game_id, const std::string& axis_commitment,
                                     const std::string& allied_commitment) {
  return db::NewFairLoggedGame(address, scenario, game_id, axis_commitment, allied_commitment);
}

Result<ops::TurnResult> PlayTurn(const std::string& address, const JsonSource& orders,
                                 const std::function<void()>& before_commit) {
  auto log = db::TurnLog::Open(address, db::TurnLog::Access::kWrite);
  if (!log) return std::unexpected(log.error());
  if (log->game().dice == db::DiceKind::kFair) {
    return Fail(ErrorCode::kInvalidInput,
                "a fair game is played between two logs with `opsim pbem` (docs/pbem.md), not "
                "with `opsim turn`",
                address);
  }
  auto rules = db::BuildRules(*log);
  if (!rules) return std::unexpected(rules.error());
  const map::Theater& theater = *rules->theater;

  auto tx = log->Begin();
  if (!tx) return std::unexpected(tx.error());
  auto meta = log->Meta();
  if (!meta) return std::unexpected(meta.error());
  if (meta->count(db::kStepsPendingMeta)) {
    return Fail(ErrorCode::kInvalidInput,
                "a player-turn is in play step by step (`opsim play --db`, docs/rules.md B1.3): "
                "finish it before playing an orders file",
                address, std::string(rules::kB1_3.id));
  }
  auto count = log->CountTurns();
  if (!count) return std::unexpected(count.error());
  auto game = db::GameAt(*log, *rules, *count);
  if (!game && game.error().code == ErrorCode::kCorruption) {
    Error e = game.error();
    e.message += "; nothing was logged: run `opsim replay --verify` to check the whole log";
    return std::unexpected(e);
  }
  if (!game) return std::unexpected(game.error());

  auto parsed = ops::ParseOrders(orders, theater);
  if (!parsed) return std::unexpected(parsed.error());
  auto result = db::PlayAndAppend(*game, *parsed, *log, *count + 1);
  if (!result) return std::unexpected(result.error());
  if (before_commit) before_commit();
  if (auto s = tx->Commit(); !s) return std::unexpected(s.error());
  return result;
}

Result<json> SubmitOrders(const LoadedGame& game, const std::string& address,
                          const JsonSource& orders) {
  auto dry = AnswerDryRun(game, orders);
  if (!dry) return std::unexpected(dry.error());
  if (!dry->legal()) return std::unexpected(dry->problems.front().first);
  fair::Seat seat;
  if (auto s = fair::OpenSeat(address, seat); !s) return std::unexpected(s.error());
  if (auto s = fair::Sit(seat, address); !s) return std::unexpected(s.error());
  if (seat.pending) {
    return Fail(ErrorCode::kWrongTurn,
                "orders for player-turn " + std::to_string(seat.number) +
                    " are already pending: they await the defender's reply",
                address);
  }
  auto turn = fair::PendOrders(seat, orders);
  if (!turn) return std::unexpected(turn.error());
  if (auto s = seat.tx->Commit(); !s) return std::unexpected(s.error());
  turn->erase("orders");
  turn->erase("head");
  return turn;
}

Result<mail::Played> ReplyToOrders(const std::string& address, const db::FairSecrets& secrets,
                                   const JsonSource& reply) {
  fair::Seat seat;
  if (auto s = fair::OpenSeat(address, seat); !s) return std::unexpected(s.error());
  if (auto s = fair::Sit(seat, address); !s) return std::unexpected(s.error());
  if (!seat.pending || seat.pending->value("stage", "") != "moved") {
    return Fail(ErrorCode::kWrongTurn,
                "no orders await a reply for player-turn " + std::to_string(seat.number), address);
  }
  JsonReader r(reply);
  if (auto o = r.Object(JsonSource::Pointer()); !o) return std::unexpected(o.error());
  if (auto s = r.OnlyKeys(JsonSource::Pointer(), {db::kReplyKeys[0], db::kReplyKeys[1]}); !s) {
    return std::unexpected(s.error());
  }
  const json& pending = *seat.pending;
  const Side mover = seat.game->state().phasing();
  auto merged = fair::Answer(*seat.game, pending["orders"], reply.doc(), Enemy(mover), reply.name(),
                             reply.Where(JsonSource::Pointer("/retreats")));
  if (!merged) return std::unexpected(merged.error());
  db::FairTurn keys;
  keys.axis_key = KeyHex(ChainKey(secrets.axis, seat.number));
  keys.allied_key = KeyHex(ChainKey(secrets.allied, seat.number));
  keys.orders_hash = pending["orders_hash"];
  keys.reply_hash = Sha256Hex(merged->decisions.reply);
  auto played = fair::PlayPending(seat, merged->orders, keys);
  if (!played) return std::unexpected(played.error());
  if (auto s = seat.tx->Commit(); !s) return std::unexpected(s.error());
  return mail::Played{json{{"game", seat.log->game().game_id},
                           {"number", seat.number},
                           {"head", played->head},
                           {"final_hash", played->turn.final_hash}},
                      std::move(played->turn)};
}

Result<StepSession> OpenSteps(const std::string& address, const db::FairSecrets* secrets,
                              bool write) {
  return StepSession::Open(
      address, write ? db::TurnLog::Access::kWrite : db::TurnLog::Access::kRead, secrets);
}

Result<db::BranchReport> BranchGame(const std::string& address, std::int32_t at,
                                    const std::string& out, const db::Progress& progress) {
  return db::BranchLog(address, at, out, progress);
}

Result<CopiedGame> CopyGame(const std::string& from, const std::string& to) {
  auto source = db::TurnLog::Open(from, db::TurnLog::Access::kRead);
  if (!source) return std::unexpected(source.error());
  auto copied = db::TurnLog::Copy(*source, to);
  if (!copied) return std::unexpected(copied.error());
  return CopiedGame{source->path(), db::ShownAddress(to), source->schema(), std::move(*copied)};
}

json ToJson(const CopiedGame& c) {
  return {{"from", c.from},        {"to", c.to},
          {"schema", c.schema},    {"turns", c.copied.turns},
          {"rows", c.copied.rows}, {"snapshots", c.copied.snapshots},
          {"head", c.copied.head}};
}

Result<std::optional<json>> PendingOrders(const std::string& address) {
  auto log = db::TurnLog::Open(address, db::TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  return PendingOrders(*log);
}

Result<std::optional<json>> PendingOrders(const db::TurnLog& log) {
  auto meta = log.Meta();
  if (!meta) return std::unexpected(meta.error());
  auto pending = fair::ReadPending(*meta, log.path());
  if (!pending) return std::unexpected(pending.error());
  if (!*pending) return std::optional<json>();
  const json& p = **pending;
  const std::string n = p["number"].dump();
  const std::string side = p["side"];
  json out = {{"stage", p["stage"]},
              {"number", p["number"]},
              {"side", side},
              {"orders_hash", p["orders_hash"]}};
  out["text"] =
      out["stage"] == "moved"
          ? "player-turn " + n + " (" + side + "): orders sent, awaiting the defender's reply"
          : "player-turn " + n + " (" + side +
                "): reply sent (its key revealed), awaiting the mover's result";
  if (p.contains("attacks") && p["attacks"].is_array()) out["attacks"] = p["attacks"];
  return std::optional<json>(std::move(out));
}

}  // namespace opsim::query
