#include "fair_seat.h"

#include <utility>

#include "opsim/core/sha256.h"
#include "opsim/ops/orders.h"
#include "opsim/ops/reply.h"

namespace opsim::query::fair {

using db::DiceKind;
using db::kOrdersPendingMeta;
using db::kStepsPendingMeta;
using db::TurnLog;
using nlohmann::json;
using P = JsonSource::Pointer;

namespace {

// Whether a pending player-turn has every field, of its type, that the steps read.
bool PendingReads(const json& p) {
  const auto text = [&p](const char* k) { return p.contains(k) && p[k].is_string(); };
  if (!p.is_object() || !p.contains("number") || !p["number"].is_number_integer() ||
      !text("stage") || !text("side") || !text("orders") || !text("orders_hash")) {
    return false;
  }
  if (p["stage"] == "moved") return true;
  return p["stage"] == "replied" && text("reply") && text("reply_hash") &&
         json::parse(p["reply"].get<std::string>(), nullptr, false).is_object();
}

}  // namespace

Result<std::optional<json>> ReadPending(const std::map<std::string, std::string>& meta,
                                        const std::string& where) {
  const auto it = meta.find(kOrdersPendingMeta);
  if (it == meta.end()) return std::optional<json>();
  json p = json::parse(it->second, nullptr, false);
  if (!PendingReads(p)) {
    return Fail(ErrorCode::kCorruption, "the pending player-turn does not read",
                where + ": meta " + kOrdersPendingMeta);
  }
  return std::optional<json>(std::move(p));
}

Status OpenSeat(const std::string& address, Seat& seat) {
  auto log = TurnLog::Open(address, TurnLog::Access::kWrite);
  if (!log) return std::unexpected(log.error());
  if (log->game().dice != DiceKind::kFair) {
    return Fail(ErrorCode::kInvalidInput,
                "not a fair game: this log's dice are seeded (start a fair game with `opsim pbem "
                "start`)",
                address);
  }
  seat.log = std::make_unique<TurnLog>(std::move(*log));
  return {};
}

Status Sit(Seat& seat, const std::string& address) {
  auto tx = seat.log->Begin();
  if (!tx) return std::unexpected(tx.error());
  seat.tx.emplace(std::move(*tx));
  if (auto s = seat.log->CheckTail(); !s) return std::unexpected(s.error());
  auto count = seat.log->CountTurns();
  if (!count) return std::unexpected(count.error());
  seat.number = *count + 1;
  auto meta = seat.log->Meta();
  if (!meta) return std::unexpected(meta.error());
  seat.head = (*meta)["head_hash"];
  if (meta->count(kStepsPendingMeta)) {
    return Fail(ErrorCode::kWrongTurn,
                "player-turn " + std::to_string(seat.number) +
                    " is in play step by step (docs/rules.md B1.3): it is finished by its steps, "
                    "not by orders",
                address, std::string(rules::kB1_3.id));
  }
  auto pending = ReadPending(*meta, address);
  if (!pending) return std::unexpected(pending.error());
  if (*pending && (**pending)["number"] == seat.number) seat.pending = std::move(**pending);
  if (seat.number > kKeyChainLength) {
    return Fail(
        ErrorCode::kInvalidInput,
        "a fair game has keys for " + std::to_string(kKeyChainLength) + " player-turns, all played",
        address);
  }
  // From the log this seat holds, inside its transaction: not opened a second time.
  auto rules = db::BuildRules(*seat.log);
  if (!rules) return std::unexpected(rules.error());
  auto game = db::GameAt(*seat.log, *rules, *count);
  if (!game) return std::unexpected(game.error());
  seat.game.emplace(std::move(*game));
  return {};
}

Result<Answered> Answer(const ops::Game& game, const std::string& orders, const json& reply,
                        Side defender, const std::string& name, const std::string& retreats_where) {
  json merged = json::parse(orders, nullptr, false);
  if (!merged.is_object()) return Fail(ErrorCode::kInvalidInput, "the orders are not JSON", name);
  for (const auto& [k, v] : reply.items()) merged[k] = v;
  auto src = JsonSource::FromText(merged.dump(2), name);
  if (!src) return std::unexpected(src.error());
  auto parsed = ops::ParseOrders(*src, game.theater());
  if (!parsed) return std::unexpected(parsed.error());
  if (auto s = ops::RetreatsForOwnStacks(game, *parsed, defender, retreats_where); !s) {
    return std::unexpected(s.error());
  }
  auto canonical = db::CanonicalOrders(*parsed, game.theater());
  if (!canonical) return std::unexpected(canonical.error());
  return Answered{std::move(*parsed), db::SplitDecisions(*canonical)};
}

json Attacks(const ops::Orders& o, const map::Theater& t) {
  json out = json::array();
  for (const ops::AttackOrder& a : o.combat) {
    out.push_back({{"hex", t.HexName(a.hex)},
                   {"units", a.units},
                   {"canal_intensive", t.hex(a.hex).terrain == map::Terrain::kCanalIntensive},
                   {"if-flooded", a.call_off_if_flooded ? "call-off" : "attack"}});
  }
  return out;
}

Result<MoverOrders> CheckMoverOrders(const ops::Game& game, const JsonSource& orders) {
  const ops::GameState& s = game.state();
  auto parsed = ops::ParseOrders(orders, game.theater());
  if (!parsed) return std::unexpected(parsed.error());
  if (parsed->side != s.phasing() || parsed->turn != s.date()) {
    return Fail(ErrorCode::kInvalidInput,
                "these are " + std::string(SideName(parsed->side)) + " orders for " +
                    ops::FormatGameDate(parsed->turn) + ", but the game stands at " +
                    ops::FormatGameDate(s.date()) + ", " + SideName(s.phasing()) + " player-turn",
                orders.name());
  }
  if (!parsed->dice.empty()) {
    return orders.Bad(P("/dice"),
                      "a fair game's dice come from both players' keys: the orders may carry no "
                      "dice");
  }
  auto canonical = db::CanonicalOrders(*parsed, game.theater());
  if (!canonical) return std::unexpected(canonical.error());
  db::Decisions d = db::SplitDecisions(*canonical);
  if (d.reply != "{}") {
    return Fail(ErrorCode::kInvalidInput,
                "flood attempts (reactions) and retreat preferences (retreats) are the "
                "defender's reply (`opsim pbem reply`), not the mover's orders",
                orders.name());
  }
  return MoverOrders{std::move(*parsed), std::move(d.orders)};
}

Result<json> PendOrders(Seat& seat, const JsonSource& orders) {
  const ops::Game& game = *seat.game;
  const ops::GameState& s = game.state();
  auto checked = CheckMoverOrders(game, orders);
  if (!checked) return std::unexpected(checked.error());
  if (auto st = ops::LegalBeforeDice(game, checked->parsed); !st) {
    return std::unexpected(st.error());
  }
  const std::string hash = Sha256Hex(checked->canonical);
  if (seat.pending && (*seat.pending)["orders_hash"] != hash) {
    return Fail(ErrorCode::kInvalidInput,
                "your orders for player-turn " + std::to_string(seat.number) +
                    " were already sent (orders hash " +
                    (*seat.pending)["orders_hash"].get<std::string>() +
                    "); once sent, a player-turn's orders are fixed",
                orders.name());
  }
  // The attacks ride along so that the defender, asking where the game stands, sees what he
  // replies to (docs/api.md: a game's status).
  const json attacks = Attacks(checked->parsed, game.theater());
  const json pending = {{"stage", "moved"},
                        {"number", seat.number},
                        {"side", SideName(s.phasing())},
                        {"orders", checked->canonical},
                        {"orders_hash", hash},
                        {"attacks", attacks}};
  if (auto st = seat.log->SetMeta(kOrdersPendingMeta, pending.dump()); !st) {
    return std::unexpected(st.error());
  }
  return json{{"game", seat.log->game().game_id},
              {"number", seat.number},
              {"side", SideName(s.phasing())},
              {"date", ops::FormatGameDate(s.date())},
              {"head", seat.head},
              {"orders", json::parse(checked->canonical)},
              {"orders_hash", hash},
              {"attacks", attacks}};
}

Result<Logged> PlayPending(Seat& seat, const ops::Orders& orders, const db::FairTurn& fair) {
  auto played = db::PlayAndAppend(*seat.game, orders, *seat.log, seat.number, &fair);
  if (!played) return std::unexpected(played.error());
  if (auto s = seat.log->DeleteMeta(kOrdersPendingMeta); !s) return std::unexpected(s.error());
  auto meta = seat.log->Meta();
  if (!meta) return std::unexpected(meta.error());
  return Logged{std::move(*played), (*meta)["head_hash"]};
}

}  // namespace opsim::query::fair
