// StepSession (step_log.h): the player-turn in play kept in the log's metadata, step by step,
// and logged as a player-turn of orders and steps when it ends.
#include "opsim/db/step_log.h"

#include <nlohmann/json.hpp>

#include "logged.h"
#include "opsim/db/game_log.h"

namespace opsim::db {

namespace {

using nlohmann::json;

constexpr const char* kPendingKey = "steps_pending";

Result<std::optional<std::string>> PendingText(const TurnLog& log) {
  auto meta = log.Meta();
  if (!meta) return std::unexpected(meta.error());
  const auto it = meta->find(kPendingKey);
  if (it == meta->end()) return std::optional<std::string>{};
  return std::optional<std::string>{it->second};
}

// Takes the steps of `orders` (or of `pending`) again on `turn`, each as it was taken.
Status TakeAgain(ops::StepTurn& turn, const map::Theater& theater,
                 const std::vector<ops::LoggedStep>& steps, const std::string& what) {
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const std::string where = what + ", step " + std::to_string(k + 1);
    auto src = JsonSource::FromText(steps[k].step, where);
    if (!src) return std::unexpected(src.error());
    auto step = ops::ParseStep(*src, theater, turn.prompt());
    if (!step) {
      return Fail(ErrorCode::kCorruption, "it does not read: " + step.error().message, where);
    }
    if (auto out = turn.Take(*step, steps[k].side, where); !out) {
      return Fail(ErrorCode::kCorruption, "it is refused: " + out.error().to_string(), where);
    }
  }
  return {};
}

}  // namespace

Status CheckSteps(const ops::Game& before, const ops::Orders& orders,
                  const ops::TurnResult& batch) {
  auto turn = ops::StepTurn::Begin(before);
  if (!turn) return std::unexpected(turn.error());
  if (auto st = TakeAgain(*turn, before.theater(), orders.steps, "the logged steps"); !st) {
    return Fail(ErrorCode::kCorruption, st.error().where + ": " + st.error().message);
  }
  if (!turn->over()) {
    return Fail(ErrorCode::kCorruption,
                "the logged steps stop before the player-turn's end: " + turn->prompt().text);
  }
  if (turn->result().final_hash != batch.final_hash) {
    return Fail(ErrorCode::kCorruption, "the logged steps end in state " +
                                            turn->result().final_hash + ", their script in " +
                                            batch.final_hash);
  }
  return {};
}

struct StepSession::Impl {
  TurnLog log;
  Rules rules;
  ops::Game game;  // where the player-turn in play began
  std::int32_t number = 0;
  std::optional<ops::StepTurn> turn;
  std::vector<ops::LoggedStep> steps;  // taken so far, as the metadata keeps them
  std::optional<std::string> pending;  // the metadata as this session last read or wrote it

  Impl(TurnLog l, Rules r, ops::Game g)
      : log(std::move(l)), rules(std::move(r)), game(std::move(g)) {}

  std::string PendingJson() const {
    json list = json::array();
    for (const ops::LoggedStep& s : steps) {
      list.push_back({{"side", SideName(s.side)}, {"step", json::parse(s.step)}});
    }
    return json{{"number", number}, {"start", game.hash()}, {"steps", list}}.dump();
  }

  Status Begin() {
    auto begun = ops::StepTurn::Begin(game);
    if (!begun) return std::unexpected(begun.error());
    turn.emplace(std::move(*begun));
    return {};
  }

  // Back to what the log holds: the player-turn begun again and its recorded steps taken.
  Status Rebuild() {
    if (auto st = Begin(); !st) return st;
    return TakeAgain(*turn, *rules.theater, steps, log.path() + ": " + kPendingKey);
  }

  // Writes the player-turn in play (or logs it, once over) in one transaction, if the log is
  // still as this session read it.
  Result<StepRecord> Commit(const ops::StepOutcome& outcome) {
    auto tx = log.Begin();
    if (!tx) return std::unexpected(tx.error());
    auto count = log.CountTurns();
    if (!count) return std::unexpected(count.error());
    auto now = PendingText(log);
    if (!now) return std::unexpected(now.error());
    if (*count != number - 1 || *now != pending) {
      return Fail(ErrorCode::kWrongTurn,
                  "the game moved on since it was read (a step or player-turn was played by "
                  "another program): read it again",
                  log.path());
    }
    StepRecord record;
    record.number = number;
    record.steps = steps.size();
    record.outcome = outcome;
    record.played = turn->result();
    std::optional<std::string> written;
    ops::Game after = game;
    if (turn->over()) {
      ops::Orders script = turn->script();
      script.steps = steps;
      script.source = "the steps of player-turn " + std::to_string(number);
      auto played = PlayAndAppend(after, script, log, number);
      if (!played) return std::unexpected(played.error());
      if (played->final_hash != turn->result().final_hash) {
        return Fail(ErrorCode::kInternal,
                    "the script of the steps does not play the player-turn they played; nothing "
                    "was logged",
                    log.path());
      }
      if (auto st = log.DeleteMeta(kPendingKey); !st) return std::unexpected(st.error());
      record.played = std::move(*played);
      record.logged = true;
    } else {
      written = PendingJson();
      if (auto st = log.SetMeta(kPendingKey, *written); !st) return std::unexpected(st.error());
    }
    if (auto st = tx->Commit(); !st) return std::unexpected(st.error());
    pending = written;
    if (record.logged) {
      game = std::move(after);
      ++number;
      steps.clear();
      if (auto st = Begin(); !st) return std::unexpected(st.error());
    }
    return record;
  }
};

StepSession::StepSession(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
StepSession::StepSession(StepSession&&) noexcept = default;
StepSession& StepSession::operator=(StepSession&&) noexcept = default;
StepSession::~StepSession() = default;

Result<StepSession> StepSession::Open(const std::string& db_path, TurnLog::Access access) {
  auto log = TurnLog::Open(db_path, access);
  if (!log) return std::unexpected(log.error());
  if (log->game().dice == DiceKind::kFair) {
    return Fail(ErrorCode::kUnsupported,
                "a fair game is played between two logs with `opsim pbem` (docs/pbem.md); this "
                "build plays steps of seeded games only",
                db_path);
  }
  auto rules = BuildRules(*log);
  if (!rules) return std::unexpected(rules.error());
  auto count = log->CountTurns();
  if (!count) return std::unexpected(count.error());
  auto game = GameAt(*log, *rules, *count);
  if (!game) return std::unexpected(game.error());
  auto pending = PendingText(*log);
  if (!pending) return std::unexpected(pending.error());
  auto impl = std::make_unique<Impl>(std::move(*log), std::move(*rules), std::move(*game));
  impl->number = *count + 1;
  impl->pending = *pending;
  if (*pending) {
    auto bad = [&](const std::string& why) {
      return Fail(ErrorCode::kCorruption,
                  "the player-turn in play (" + std::string(kPendingKey) + ") " + why, db_path);
    };
    const json j = json::parse(**pending, nullptr, false);
    if (!j.is_object() || !j.contains("number") || !j.contains("start") || !j.contains("steps") ||
        !j["steps"].is_array()) {
      return bad("does not read");
    }
    if (j["number"] != impl->number || j["start"] != impl->game.hash()) {
      return bad("does not begin where the log ends");
    }
    for (const json& s : j["steps"]) {
      if (!s.is_object() || !s.contains("side") || !s.contains("step") || !s["side"].is_string() ||
          !s["step"].is_object()) {
        return bad("holds a step that does not read");
      }
      auto side = ParseSide(s["side"].get<std::string>());
      if (!side) return bad("holds a step of no side");
      impl->steps.push_back(ops::LoggedStep{*side, s["step"].dump(), ""});
    }
  }
  if (auto st = impl->Rebuild(); !st) return std::unexpected(st.error());
  return StepSession(std::move(impl));
}

const ops::StepTurn& StepSession::turn() const {
  return *impl_->turn;
}
std::int32_t StepSession::number() const {
  return impl_->number;
}
const ops::Game& StepSession::game() const {
  return impl_->game;
}
const map::Theater& StepSession::theater() const {
  return *impl_->rules.theater;
}

Result<StepRecord> StepSession::Take(const JsonSource& src, Side by) {
  Impl& m = *impl_;
  auto step = ops::ParseStep(src, *m.rules.theater, m.turn->prompt());
  if (!step) return std::unexpected(step.error());
  auto out = m.turn->Take(*step, by, src.name());
  if (!out) return std::unexpected(out.error());
  m.steps.push_back(ops::LoggedStep{by, ops::StepToJson(*step, *m.rules.theater), ""});
  auto record = m.Commit(*out);
  if (!record) {
    m.steps.pop_back();
    if (auto st = m.Rebuild(); !st) return std::unexpected(st.error());
  }
  return record;
}

Result<StepRecord> StepSession::Undo() {
  Impl& m = *impl_;
  if (auto st = m.turn->Undo(); !st) return std::unexpected(st.error());
  const ops::LoggedStep undone = m.steps.back();
  m.steps.pop_back();
  auto record = m.Commit({});
  if (!record) {
    m.steps.push_back(undone);
    if (auto st = m.Rebuild(); !st) return std::unexpected(st.error());
  }
  return record;
}

Result<std::size_t> PendingSteps(const std::string& db_path) {
  auto log = TurnLog::Open(db_path, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  auto text = PendingText(*log);
  if (!text) return std::unexpected(text.error());
  if (!*text) return std::size_t{0};
  const json j = json::parse(**text, nullptr, false);
  if (!j.is_object() || !j.contains("steps") || !j["steps"].is_array()) {
    return Fail(ErrorCode::kCorruption,
                "the player-turn in play (" + std::string(kPendingKey) + ") does not read",
                db_path);
  }
  return j["steps"].size();
}

}  // namespace opsim::db
