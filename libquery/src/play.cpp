#include "opsim/query/play.h"

#include <sstream>

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

json PlayStatusJson(const db::StepSession& session) {
  const ops::StepTurn& turn = session.turn();
  return {{"player_turn", session.number()},
          {"date", ops::FormatGameDate(turn.result().date)},
          {"side", SideName(turn.result().side)},
          {"steps", turn.steps().size()},
          {"prompt", ToJson(turn.prompt(), session.theater())},
          {"can_undo", turn.CanUndo()},
          {"state_hash", turn.hash()}};
}

json PlayJson(const db::StepSession& session) {
  const ops::TurnResult& r = session.turn().result();
  json j = PlayStatusJson(session);
  j["events"] = EventsJson(r, 0, r.events.size());
  j["rolls"] = RollsJson(r, 0, r.rolls.size());
  return j;
}

LoadedGame PositionInPlay(const db::StepSession& session) {
  LoadedGame g;
  g.theater = session.shared_theater();
  g.campaign = session.campaign();
  g.state = session.turn().state();
  g.map = g.state->map;
  g.scenario.name = session.scenario_name();
  return g;
}

json ToJson(const db::StepRecord& r, const db::StepSession& session) {
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

Result<NewHosted> NewHostedGame(const std::string& address, const JsonSource& scenario,
                                const std::string& game_id, const std::string& axis_commitment,
                                const std::string& allied_commitment) {
  auto game = db::NewFairLoggedGame(address, scenario, game_id, axis_commitment, allied_commitment);
  if (!game) return std::unexpected(game.error());
  return NewHosted{std::move(*game), Sha256Hex(scenario.text())};
}

Result<ops::TurnResult> PlayTurn(const std::string& address, const JsonSource& orders) {
  return db::PlayLoggedTurn(address, orders);
}

Result<json> SubmitOrders(const LoadedGame& game, const std::string& address,
                          const JsonSource& orders) {
  auto dry = AnswerDryRun(game, orders);
  if (!dry) return std::unexpected(dry.error());
  if (!dry->legal()) return std::unexpected(dry->problems.front().first);
  return db::pbem::HostMove(address, orders);
}

Result<db::pbem::Played> ReplyToOrders(const std::string& address, const db::FairSecrets& secrets,
                                       const JsonSource& reply) {
  return db::pbem::HostResolve(address, secrets.axis, secrets.allied, reply);
}

Result<db::StepSession> OpenSteps(const std::string& address, const db::FairSecrets* secrets,
                                  bool write) {
  return db::StepSession::Open(
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
  return db::pbem::Pending(address);
}

Result<std::optional<std::size_t>> StepsInPlay(const std::string& address) {
  return db::PendingSteps(address);
}

}  // namespace opsim::query
