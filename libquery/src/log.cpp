#include "opsim/query/log.h"

#include "opsim/core/rule_ids.h"
#include "opsim/ops/calendar.h"
#include "opsim/ops/campaign.h"
#include "opsim/query/view.h"

namespace opsim::query {

namespace {

using nlohmann::json;

// B15.1: where the game stands against its victory conditions.
json VictoryJson(const ops::Victory& v, const ops::GameState& s, const map::Theater& t) {
  const std::array<int, 2> points = ops::VictoryPoints(v, s);
  const ops::VictoryLevel& standing = ops::VictoryStanding(v, points);
  json objectives = json::array();
  for (const ops::Objective& o : v.objectives) {
    const Owner owner = s.map.owner(o.hex);
    objectives.push_back(
        {{"hex", t.HexName(o.hex)},
         {"name", o.name},
         {"points", o.points},
         {"owner", owner == Owner::kNone ? json(nullptr) : json(OwnerName(owner))}});
  }
  return {{"end", ops::FormatGameDate(v.end)},
          {"over", ops::GameOver(v, s)},
          {"points",
           {{"axis", points[static_cast<int>(Side::kAxis)]},
            {"allied", points[static_cast<int>(Side::kAllied)]}}},
          {"result", standing.result},
          {"rule", rules::kB15_1.id},
          {"objectives", objectives}};
}

json StatusJson(const db::LoggedGame& g) {
  const ops::GameState& s = g.state;
  const map::Theater& t = *g.theater;
  json out_of_supply = json::array();
  json units;
  for (const char* side : {"axis", "allied"}) {
    units[side] = {{"on_map", 0}, {"eliminated", 0}, {"exited", 0}, {"reinforcements", 0}};
  }
  for (const ops::GroundUnit& u : s.units) {
    const char* status = u.status == ops::UnitStatus::kOnMap        ? "on_map"
                         : u.status == ops::UnitStatus::kEliminated ? "eliminated"
                         : u.status == ops::UnitStatus::kExited     ? "exited"
                                                                    : "reinforcements";
    units[SideName(u.side)][status] = units[SideName(u.side)][status].get<int>() + 1;
    if (u.on_map() && u.supply != ops::SupplyStatus::kSupplied) {
      out_of_supply.push_back({{"id", u.id},
                               {"name", u.name},
                               {"side", SideName(u.side)},
                               {"hex", t.HexName(u.hex)},
                               {"supply", ops::SupplyStatusName(u.supply)}});
    }
  }
  nlohmann::json doc = {{"scenario", g.scenario_name},
                        {"turns_played", g.turns_played},
                        {"turns_logged", g.turns_logged},
                        {"rules_version", g.rules_version},
                        {"dice", db::DiceKindName(g.dice)},
                        {"next", NextJson(s)},
                        {"units", units},
                        {"out_of_supply", out_of_supply},
                        {"state_hash", ops::StateHash(s)}};
  doc.update(MapStateJson(t, s));
  if (g.campaign && g.campaign->victory) doc["victory"] = VictoryJson(*g.campaign->victory, s, t);
  if (g.dice == db::DiceKind::kFair) doc["game_id"] = g.game_id;
  return doc;
}

}  // namespace

json NextJson(const ops::GameState& s) {
  return {{"date", ops::FormatGameDate(s.date())},
          {"game_turn", s.game_turn()},
          {"phasing", SideName(s.phasing())},
          {"phase", ops::PhaseName(ops::Phase::kInitial)}};
}

Result<StatusAnswer> AnswerStatus(const std::string& db_path, std::optional<std::int32_t> at) {
  auto game = db::LoadLoggedGame(db_path, at);
  if (!game) return std::unexpected(game.error());
  return StatusAnswer{db_path, std::move(*game)};
}

json ToJson(const StatusAnswer& a) {
  json doc = StatusJson(a.game);
  doc["db"] = a.db;
  return doc;
}

Result<LogAnswer> AnswerLog(const std::string& db_path, std::optional<std::int32_t> turn,
                            bool phases, bool steps) {
  if (steps && !turn) {
    return Fail(ErrorCode::kInvalidInput,
                "steps are told for one player-turn at a time: say which (--turn N)", db_path);
  }
  auto log = db::TurnLog::Open(db_path, db::TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  if (auto s = log->CheckTail(); !s) return std::unexpected(s.error());
  auto count = log->CountTurns();
  if (!count) return std::unexpected(count.error());
  LogAnswer a{db_path, log->game().scenario_name, log->game().seed, *count, {}, {}, {}};
  const std::int32_t first = turn.value_or(1), last = turn.value_or(*count);
  for (std::int32_t n = first; n <= last; ++n) {
    auto logged = log->ReadTurn(n);
    if (!logged) return std::unexpected(logged.error());
    a.turns.push_back(std::move(*logged));
  }
  if (phases && !a.turns.empty()) {
    auto replayed = db::ReplayLoggedTurns(db_path, first, last);
    if (!replayed) return std::unexpected(replayed.error());
    for (std::size_t i = 0; i < replayed->size(); ++i) {
      ops::TurnResult& r = (*replayed)[i];
      a.phases.push_back({std::move(r.hashes), r.events.size() == a.turns[i].events.size()});
    }
  }
  if (steps && !a.turns.empty()) {
    auto taken = db::LoadLoggedSteps(db_path, *turn, 0);
    if (!taken) return std::unexpected(taken.error());
    a.steps = std::move(*taken);
  }
  return a;
}

json ToJson(const db::LoggedEvent& e) {
  json event = {{"kind", e.kind}, {"rule", e.rule}, {"text", e.text}};
  // The event's content, as replay compares it.
  if (!e.units.empty()) event["units"] = e.units;
  if (!e.hexes.empty()) event["hexes"] = e.hexes;
  if (!e.numbers.empty()) event["numbers"] = e.numbers;
  return event;
}

json ToJson(const ops::Event& e) {
  return ToJson(db::ToLoggedEvent(e));
}

json ToJson(const db::LoggedRoll& r) {
  return {{"value", r.value},     {"sides", r.sides}, {"scripted", r.scripted},
          {"purpose", r.purpose}, {"rule", r.rule},   {"decided", r.decided}};
}

json ToJson(const ops::DieRoll& d) {
  return ToJson(
      db::LoggedRoll{d.value, d.sides, d.scripted, d.purpose, std::string(d.rule.id), d.decided});
}

json ToJson(const db::LoggedTurn& t) {
  json rolls = json::array();
  for (const db::LoggedRoll& r : t.rolls) rolls.push_back(ToJson(r));
  json events = json::array();
  for (const db::LoggedEvent& e : t.events) events.push_back(ToJson(e));
  json phases = json::array();
  for (const db::LoggedPhase& p : t.phases) {
    phases.push_back({{"phase", p.phase}, {"state_hash", p.state_hash}});
  }
  return {{"number", t.number},
          {"serial", t.serial},
          {"side", t.side},
          {"date", t.date},
          {"orders", json::parse(t.orders, nullptr, false)},
          {"rolls", rolls},
          {"events", events},
          {"phases", phases},
          {"final_hash", t.final_hash},
          {"logged_at", t.logged_at}};
}

json ToJson(const ops::TurnResult& r) {
  json j = ToJson(db::ToLoggedTurn(0, "{}", r));
  for (const char* only_logged : {"number", "orders", "logged_at"}) j.erase(only_logged);
  return j;
}

json ToJson(const LogAnswer& a) {
  json turns = json::array();
  for (std::size_t i = 0; i < a.turns.size(); ++i) {
    const db::LoggedTurn& t = a.turns[i];
    json turn = ToJson(t);
    if (i < a.phases.size()) {
      const std::vector<ops::PhaseHash>& ends = a.phases[i].ends;
      std::size_t event = 0, roll = 0;
      for (std::size_t k = 0; k < ends.size() && k < turn["phases"].size(); ++k) {
        // The last phase also has what was said after it ended (game.h's PhaseHash).
        const bool last = k + 1 == ends.size();
        const std::size_t event_end = last ? t.events.size() : ends[k].events;
        const std::size_t roll_end = last ? t.rolls.size() : ends[k].rolls;
        json& p = turn["phases"][k];
        if (a.phases[i].same_events) p["events"] = {event, event_end};
        p["rolls"] = {roll, roll_end};
        event = event_end;
        roll = roll_end;
      }
    }
    if (a.steps && a.steps->result.player_turn == a.turns[i].serial) {
      const db::LoggedSteps& st = *a.steps;
      // The step play's events are the log's unless the rules version changed their wording.
      const bool same_events = st.result.events.size() == t.events.size();
      auto ranges = [&](json& j, std::size_t events_from, std::size_t events_to,
                        std::size_t rolls_from, std::size_t rolls_to) {
        if (same_events) j["events"] = {events_from, events_to};
        j["rolls"] = {rolls_from, rolls_to};
      };
      json list = json::array();
      for (std::size_t k = 0; k < st.steps.size() && k < st.outcomes.size(); ++k) {
        const ops::StepOutcome& o = st.outcomes[k];
        json step = {{"number", k + 1},
                     {"side", SideName(st.steps[k].side)},
                     {"step", json::parse(st.steps[k].step, nullptr, false)}};
        ranges(step, o.events_from, o.events_to, o.rolls_from, o.rolls_to);
        list.push_back(std::move(step));
      }
      json begun = json::object();
      const ops::StepOutcome first = st.outcomes.empty() ? ops::StepOutcome{} : st.outcomes[0];
      ranges(begun, 0, st.outcomes.empty() ? st.result.events.size() : first.events_from, 0,
             st.outcomes.empty() ? st.result.rolls.size() : first.rolls_from);
      turn["played_by"] = st.by_steps ? "steps" : "orders";
      turn["begun"] = std::move(begun);
      turn["steps"] = std::move(list);
    }
    turns.push_back(std::move(turn));
  }
  return {{"db", a.db},
          {"scenario", a.scenario},
          {"seed", a.seed},
          {"turns_logged", a.turns_logged},
          {"turns", turns}};
}

Result<db::ReplayReport> ReplayGame(const std::string& db_path, const db::ReplayOptions& options) {
  return db::ReplayLog(db_path, options);
}

std::string ShownAddress(const std::string& address) {
  return db::ShownAddress(address);
}

Result<std::string> ScenarioSha256(const std::string& db_path) {
  auto log = db::TurnLog::Open(db_path, db::TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  return log->game().scenario_sha256;
}

Result<json> AnswerDice(const std::string& db_path) {
  auto log = db::TurnLog::Open(db_path, db::TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  const db::GameRecord& record = log->game();
  if (record.dice != db::DiceKind::kFair) return json{{"dice", "seeded"}, {"seed", record.seed}};
  auto count = log->CountTurns();
  if (!count) return std::unexpected(count.error());
  json turns = json::array();
  for (std::int32_t n = 1; n <= *count; ++n) {
    auto t = log->ReadTurn(n);
    if (!t) return std::unexpected(t.error());
    turns.push_back({{"number", t->number},
                     {"side", t->side},
                     {"axis_key", t->axis_key},
                     {"allied_key", t->allied_key},
                     {"orders_hash", t->orders_hash},
                     {"reply_hash", t->reply_hash}});
  }
  return json{{"dice", "fair"},
              {"game_id", record.game_id},
              {"axis_commitment", record.axis_commitment},
              {"allied_commitment", record.allied_commitment},
              {"turns", std::move(turns)}};
}

}  // namespace opsim::query
