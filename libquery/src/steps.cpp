// StepSession (steps.h): the player-turn in play kept in the log's metadata, step by step,
// and logged as a player-turn of orders and steps when it ends.
#include "opsim/query/steps.h"

#include <nlohmann/json.hpp>

#include "opsim/core/sha256.h"
#include "opsim/db/game_log.h"

namespace opsim::query {

using db::FairSecrets;
using db::kOrdersPendingMeta;
using db::kStepsPendingMeta;
using db::TurnLog;

namespace {

using nlohmann::json;

Result<std::optional<std::string>> PendingText(const TurnLog& log) {
  auto meta = log.Meta();
  if (!meta) return std::unexpected(meta.error());
  const auto it = meta->find(kStepsPendingMeta);
  if (it == meta->end()) return std::optional<std::string>{};
  return std::optional<std::string>{it->second};
}

// Refuses to play player-turn `number` step by step while orders for it are pending (a fair
// game's kOrdersPendingMeta): it is played from them.
Status NoOrdersPending(const TurnLog& log, std::int32_t number) {
  auto meta = log.Meta();
  if (!meta) return std::unexpected(meta.error());
  const auto it = meta->find(kOrdersPendingMeta);
  if (it == meta->end()) return {};
  const json p = json::parse(it->second, nullptr, false);
  if (p.is_object() && p.contains("number") && p["number"] != number) return {};
  return Fail(ErrorCode::kWrongTurn,
              "orders for player-turn " + std::to_string(number) +
                  " are pending, awaiting the defender's reply: it is played from them, not step "
                  "by step",
              log.path(), std::string(rules::kB1_3.id));
}

}  // namespace

struct StepSession::Impl {
  TurnLog log;
  db::Rules rules;
  ops::Game game;  // where the player-turn in play began
  std::int32_t number = 0;
  std::optional<ops::StepTurn> turn;
  std::vector<ops::LoggedStep> steps;  // taken so far, as the metadata keeps them
  std::optional<std::string> pending;  // the metadata as this session last read or wrote it

  std::optional<FairSecrets> secrets;  // a fair game's

  Impl(TurnLog l, db::Rules r, ops::Game g)
      : log(std::move(l)), rules(std::move(r)), game(std::move(g)) {}

  // Both players' keys for this player-turn (a fair game's).
  std::array<Key, 2> Keys() const {
    return {ChainKey(secrets->axis, number), ChainKey(secrets->allied, number)};
  }

  std::string PendingJson() const {
    json list = json::array();
    for (const ops::LoggedStep& s : steps) {
      list.push_back({{"side", SideName(s.side)}, {"step", json::parse(s.step)}});
    }
    return json{{"number", number}, {"start", game.hash()}, {"steps", list}}.dump();
  }

  Status Begin() {
    if (secrets && number > kKeyChainLength) {
      return Fail(ErrorCode::kUnsupported,
                  "a fair game has keys for " + std::to_string(kKeyChainLength) +
                      " player-turns, and all are played",
                  log.path());
    }
    auto begun = secrets ? ops::StepTurn::BeginFair(
                               game, db::FairStepDice(Keys(), log.game().game_id, number))
                         : ops::StepTurn::Begin(game);
    if (!begun) return std::unexpected(begun.error());
    turn.emplace(std::move(*begun));
    return {};
  }

  // Back to what the log holds: the player-turn begun again and its recorded steps taken.
  Status Rebuild() {
    if (auto st = Begin(); !st) return st;
    return ops::TakeAgain(*turn, *rules.theater, steps, log.path() + ": " + kStepsPendingMeta);
  }

  // Writes the player-turn in play (or logs it, once over) in one transaction, if the log is
  // still as this session read it.
  Result<StepRecord> Commit(const ops::StepOutcome& outcome) {
    auto tx = log.Begin();
    if (!tx) return std::unexpected(tx.error());
    auto count = log.CountTurns();
    if (!count) return std::unexpected(count.error());
    if (auto st = NoOrdersPending(log, number); !st) return std::unexpected(st.error());
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
      if (secrets) {
        // Its dice came step by step: the player-turn the steps played is logged as it is, with
        // both keys revealed, and replay takes its steps again (a script would roll otherwise).
        auto canonical = db::CanonicalOrders(script, *rules.theater);
        if (!canonical) return std::unexpected(canonical.error());
        const db::Decisions d = db::SplitDecisions(*canonical);
        const std::array<Key, 2> keys = Keys();
        const db::FairTurn fair{KeyHex(keys[0]), KeyHex(keys[1]), Sha256Hex(d.orders),
                                Sha256Hex(d.reply)};
        if (auto st = db::AppendPlayed(log, number, std::move(*canonical), turn->result(),
                                       turn->state(), &fair);
            !st) {
          return std::unexpected(st.error());
        }
        if (auto st = turn->Finish(after); !st) return std::unexpected(st.error());
      } else {
        auto played = db::PlayAndAppend(after, script, log, number);
        if (!played) return std::unexpected(played.error());
        if (played->final_hash != turn->result().final_hash) {
          return Fail(ErrorCode::kInternal,
                      "the script of the steps does not play the player-turn they played; "
                      "nothing was logged",
                      log.path());
        }
        record.played = std::move(*played);
      }
      if (auto st = log.DeleteMeta(kStepsPendingMeta); !st) return std::unexpected(st.error());
      record.logged = true;
    } else {
      written = PendingJson();
      if (auto st = log.SetMeta(kStepsPendingMeta, *written); !st)
        return std::unexpected(st.error());
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

Result<StepSession> StepSession::Open(const std::string& db_path, TurnLog::Access access,
                                      const FairSecrets* secrets) {
  auto log = TurnLog::Open(db_path, access);
  if (!log) return std::unexpected(log.error());
  const db::GameRecord& record = log->game();
  if (record.dice == db::DiceKind::kFair) {
    if (secrets == nullptr) {
      return Fail(ErrorCode::kUnsupported,
                  "a fair game is played step by step only where both players' dice secrets are "
                  "kept (its server); by mail it is played from orders files with `opsim pbem` "
                  "(docs/pbem.md)",
                  db_path);
    }
    if (KeyHex(ChainKey(secrets->axis, 0)) != record.axis_commitment ||
        KeyHex(ChainKey(secrets->allied, 0)) != record.allied_commitment) {
      return Fail(ErrorCode::kInvalidInput,
                  "the dice secrets given are not this game's (they do not match its "
                  "commitments)",
                  db_path);
    }
  } else if (secrets != nullptr) {
    return Fail(ErrorCode::kInvalidInput, "a seeded game has no dice secrets", db_path);
  }
  auto rules = db::BuildRules(*log);
  if (!rules) return std::unexpected(rules.error());
  auto count = log->CountTurns();
  if (!count) return std::unexpected(count.error());
  auto game = db::GameAt(*log, *rules, *count);
  if (!game) return std::unexpected(game.error());
  if (auto st = NoOrdersPending(*log, *count + 1); !st) return std::unexpected(st.error());
  auto pending = PendingText(*log);
  if (!pending) return std::unexpected(pending.error());
  auto impl = std::make_unique<Impl>(std::move(*log), std::move(*rules), std::move(*game));
  impl->number = *count + 1;
  impl->pending = *pending;
  if (secrets != nullptr) impl->secrets = *secrets;
  if (*pending) {
    auto bad = [&](const std::string& why) {
      return Fail(ErrorCode::kCorruption,
                  "the player-turn in play (" + std::string(kStepsPendingMeta) + ") " + why,
                  db_path);
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
std::shared_ptr<const map::Theater> StepSession::shared_theater() const {
  return impl_->rules.theater;
}
std::shared_ptr<const ops::Campaign> StepSession::campaign() const {
  return impl_->rules.campaign;
}
const std::string& StepSession::scenario_name() const {
  return impl_->log.game().scenario_name;
}

bool StepSession::begun() const {
  return impl_->pending.has_value();
}

Status StepSession::Start() {
  if (begun()) return {};
  auto record = impl_->Commit({});
  if (!record) return std::unexpected(record.error());
  return {};
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

Result<ops::AttackPreview> StepSession::Preview(const JsonSource& src, Side by) {
  Impl& m = *impl_;
  if (!begun()) {
    return Fail(ErrorCode::kWrongTurn,
                "the player-turn is not begun: no attack is weighed before its combat phase",
                src.name(), std::string(rules::kB1_3.id));
  }
  auto step = ops::ParseStep(src, *m.rules.theater, m.turn->prompt());
  if (!step) return std::unexpected(step.error());
  if (step->kind != ops::StepKind::kAttack) {
    return Fail(ErrorCode::kInvalidInput,
                std::string("the odds are weighed for an attack, not a ") +
                    ops::StepKindName(step->kind) + " step",
                src.name());
  }
  return m.turn->Preview(step->attack, by);
}

Result<StepRecord> StepSession::Undo(Side by) {
  Impl& m = *impl_;
  if (auto st = m.turn->Undo(by); !st) return std::unexpected(st.error());
  const ops::LoggedStep undone = m.steps.back();
  m.steps.pop_back();
  auto record = m.Commit({});
  if (!record) {
    m.steps.push_back(undone);
    if (auto st = m.Rebuild(); !st) return std::unexpected(st.error());
  }
  return record;
}

Result<std::optional<std::size_t>> StepsInPlay(const std::string& address) {
  auto log = TurnLog::Open(address, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  auto text = PendingText(*log);
  if (!text) return std::unexpected(text.error());
  if (!*text) return std::optional<std::size_t>();
  const json j = json::parse(**text, nullptr, false);
  if (!j.is_object() || !j.contains("steps") || !j["steps"].is_array()) {
    return Fail(ErrorCode::kCorruption,
                "the player-turn in play (" + std::string(kStepsPendingMeta) + ") does not read",
                address);
  }
  return std::optional<std::size_t>(j["steps"].size());
}

}  // namespace opsim::query
