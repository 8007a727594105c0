#include "opsim/db/game_log.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <future>
#include <list>
#include <mutex>
#include <nlohmann/json.hpp>

#include "opsim/core/sha256.h"
#include "opsim/db/snapshot.h"
#include "opsim/map/scenario.h"
#include "opsim/ops/campaign.h"
#include "opsim/ops/orders.h"
#include "opsim/ops/rules_version.h"

namespace opsim::db {

namespace {

// Work done beside the rules (canonical orders, snapshots). Both policies: where no thread can be
// started, the work runs when it is waited for.
constexpr auto kBeside = std::launch::async | std::launch::deferred;

// The dice of a fair player-turn played from orders: both keys over both decisions' hashes.
KeyedDice DecidedDice(const std::array<Key, 2>& keys, const std::string& game_id,
                      std::int32_t number, const std::string& orders_hash,
                      const std::string& reply_hash) {
  return KeyedDice(keys[0], keys[1], game_id, number, Sha256Hex(orders_hash + "\n" + reply_hash));
}

Result<Rules> BuildRules(const JsonSource& src, std::uint64_t seed) {
  auto loaded = map::LoadScenario(src);
  if (!loaded) return std::unexpected(loaded.error());
  // The theater stays where it was loaded: the campaign may point into it.
  auto scenario = std::make_shared<map::Scenario>(std::move(*loaded));
  auto campaign = ops::LoadCampaign(src, *scenario, seed);
  if (!campaign) return std::unexpected(campaign.error());
  return Rules{std::shared_ptr<const map::Theater>(scenario, &scenario->theater),
               std::make_shared<const ops::Campaign>(std::move(*campaign))};
}

}  // namespace

namespace {

// The rules built from the logs' scenarios lately, so that a process that loads one game again
// and again (the server, at every write and every stale read) parses and builds its scenario once.
// Keyed by what the build depends on: the scenario's text (by its SHA-256, the game record's,
// which TurnLog checked against the text when it opened the log), its name (errors cite it) and
// the seed. The theater and campaign are immutable once built, so games share them. At most
// kKeptRules entries, the least recently used dropped first; a 100,000-hex theater with 2,000
// units holds about 25 MiB (242 bytes a hex, docs/performance.md).
class RulesCache {
 public:
  static constexpr std::size_t kKeptRules = 8;

  Result<Rules> Get(const GameRecord& game) {
    std::string key = Key(game);
    {
      std::lock_guard lock(mu_);
      for (auto it = kept_.begin(); it != kept_.end(); ++it) {
        if (it->first == key) {
          kept_.splice(kept_.begin(), kept_, it);
          return it->second;
        }
      }
    }
    // Built outside the lock: two threads may both build one scenario; the second keeps its own.
    auto src = JsonSource::FromText(game.scenario, game.scenario_name);
    auto rules = src ? BuildRules(*src, game.seed) : std::unexpected(src.error());
    if (!rules) return rules;
    Keep(std::move(key), *rules);
    return rules;
  }

  // Keeps the rules a new log's game was just built with, under its record's key.
  void Keep(const GameRecord& game, const Rules& rules) { Keep(Key(game), rules); }

 private:
  static std::string Key(const GameRecord& game) {
    return game.scenario_sha256 + "|" + std::to_string(game.seed) + "|" + game.scenario_name;
  }
  void Keep(std::string key, const Rules& rules) {
    std::lock_guard lock(mu_);
    std::erase_if(kept_, [&](const auto& k) { return k.first == key; });  // kept once
    kept_.emplace_front(std::move(key), rules);
    if (kept_.size() > kKeptRules) kept_.pop_back();
  }

  std::mutex mu_;
  std::list<std::pair<std::string, Rules>> kept_;  // most recently used first
};

RulesCache& KeptRules() {
  static RulesCache cache;
  return cache;
}

}  // namespace

Result<Rules> BuildRules(const TurnLog& log) {
  auto rules = KeptRules().Get(log.game());
  if (!rules) {
    Error e = rules.error();
    e.message = "the log's scenario does not load in this build: " + e.message;
    return std::unexpected(e);
  }
  return rules;
}

namespace {

// The number of player-turns `at` asks for (all of them when absent), if the log holds them.
Result<std::int32_t> Target(const TurnLog& log, std::optional<std::int32_t> at) {
  auto count = log.CountTurns();
  if (!count) return std::unexpected(count.error());
  const std::int32_t target = at.value_or(*count);
  if (target < 0 || target > *count) {
    return Fail(ErrorCode::kInvalidInput,
                "no state after " + std::to_string(target) + " player-turns: the log holds " +
                    std::to_string(*count) + " player-turns (0 to " + std::to_string(*count) + ")",
                log.path());
  }
  return target;
}

// The game at its start as this build rebuilds it from the logged scenario and seed, which must
// be the start the log recorded.
Result<ops::Game> StartOf(const TurnLog& log, const Rules& rules) {
  ops::Game game(rules.theater, rules.campaign);
  if (game.hash() != log.game().start_hash) {
    return Fail(ErrorCode::kCorruption,
                "this build does not rebuild the logged start from the scenario and seed (the "
                "log has state hash " +
                    log.game().start_hash + ", this build " + game.hash() + ")",
                log.path() + ": game");
  }
  return game;
}

std::string RollText(const LoggedRoll& r) {
  return std::to_string(r.value) + " on d" + std::to_string(r.sides) +
         (r.scripted ? " (from the orders)" : "") + " -> " + r.decided + " [" + r.rule + "]";
}

std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::string EventText(const LoggedEvent& e) {
  std::string text = "[" + e.kind + "] " + e.text + " [" + e.rule + "]";
  std::vector<std::string> numbers;
  for (std::int64_t n : e.numbers) numbers.push_back(std::to_string(n));
  for (const auto& [name, items] :
       {std::pair<const char*, const std::vector<std::string>&>{"units", e.units},
        {"hexes", e.hexes},
        {"numbers", numbers}}) {
    if (!items.empty()) text += std::string(" ") + name + " " + Joined(items);
  }
  return text;
}

std::string Count(std::size_t n, const char* what) {
  return std::to_string(n) + " " + what;
}

// A difference that is tampering: the row it was found at, and what differs.
struct Tampered {
  std::int64_t seq = 0;
  std::string message;
};

// Two events are the same event when their content is: kind and rule, and units, hexes and
// numbers where the log kept them (schema 2 on).
bool SameEvent(const LoggedEvent& a, const LoggedEvent& b, bool with_content) {
  return a.kind == b.kind && a.rule == b.rule &&
         (!with_content || (a.units == b.units && a.hexes == b.hexes && a.numbers == b.numbers));
}

// The logged and replayed events lined up: a pair of indices, or one of them absent (-1) for an
// event only one side has. The longest run of the same events in order is matched; between two
// matches, the events each side has alone are paired in order (a changed event), and what is
// left over was added or is missing.
std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> LineUp(const std::vector<LoggedEvent>& a,
                                                              const std::vector<LoggedEvent>& b,
                                                              bool with_content) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> out;
  const auto index = [](std::size_t i) { return static_cast<std::ptrdiff_t>(i); };
  bool same = n == m;
  for (std::size_t i = 0; same && i < n; ++i) same = SameEvent(a[i], b[i], with_content);
  if (same) {
    for (std::size_t i = 0; i < n; ++i) out.emplace_back(index(i), index(i));
    return out;
  }
  // lcs[i * (m + 1) + j]: the longest common run of a[i..] and b[j..].
  std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      lcs[i * (m + 1) + j] = SameEvent(a[i], b[j], with_content)
                                 ? lcs[(i + 1) * (m + 1) + j + 1] + 1
                                 : std::max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
    }
  }
  std::vector<std::size_t> only_a, only_b;
  const auto flush = [&] {
    const std::size_t paired = std::min(only_a.size(), only_b.size());
    for (std::size_t k = 0; k < paired; ++k) out.emplace_back(index(only_a[k]), index(only_b[k]));
    for (std::size_t k = paired; k < only_a.size(); ++k) out.emplace_back(index(only_a[k]), -1);
    for (std::size_t k = paired; k < only_b.size(); ++k) out.emplace_back(-1, index(only_b[k]));
    only_a.clear();
    only_b.clear();
  };
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && SameEvent(a[i], b[j], with_content)) {
      flush();
      out.emplace_back(index(i++), index(j++));
    } else if (j == m || (i < n && lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1])) {
      only_a.push_back(i++);
    } else {
      only_b.push_back(j++);
    }
  }
  flush();
  return out;
}

// Compares a replayed player-turn with its log, in the order the rules decided: who and when,
// the dice, the events, the state after each phase. Returns the first difference that is
// tampering, and adds those that are not to `reported` (see game_log.h).
std::optional<Tampered> Compare(const LoggedTurn& logged, const LoggedTurn& replay,
                                std::vector<ReplayDifference>& reported) {
  if (logged.serial != replay.serial || logged.side != replay.side || logged.date != replay.date) {
    return Tampered{logged.seq, "the log has the " + logged.side + " player-turn of " +
                                    logged.date + ", the replay played the " + replay.side +
                                    " player-turn of " + replay.date};
  }
  const auto report = [&](std::int64_t seq, std::string what, std::string change, std::string was,
                          std::string is) {
    reported.push_back(
        {logged.number, seq, std::move(what), std::move(change), std::move(was), std::move(is)});
  };
  std::int64_t seq = logged.seq;
  for (std::size_t i = 0; i < std::min(logged.rolls.size(), replay.rolls.size()); ++i) {
    const LoggedRoll& was = logged.rolls[i];
    const LoggedRoll& is = replay.rolls[i];
    const std::string what = "die roll " + std::to_string(i + 1) + " ('" + was.purpose + "')";
    if (was.value != is.value || was.sides != is.sides || was.scripted != is.scripted ||
        was.rule != is.rule) {
      return Tampered{seq + 1 + static_cast<std::int64_t>(i),
                      what + ": the log says " + RollText(was) + ", the replay rolled " +
                          RollText(is) + " for '" + is.purpose + "'"};
    }
    if (was.purpose != is.purpose || was.decided != is.decided) {
      report(seq + 1 + static_cast<std::int64_t>(i), what, "wording",
             "'" + was.purpose + "': " + RollText(was), "'" + is.purpose + "': " + RollText(is));
    }
  }
  if (logged.rolls.size() != replay.rolls.size()) {
    return Tampered{seq, "the log has " + Count(logged.rolls.size(), "die rolls") +
                             ", the replay rolled " + std::to_string(replay.rolls.size())};
  }
  seq += 1 + static_cast<std::int64_t>(logged.rolls.size());
  const bool same_rules = logged.rules_version == ops::kRulesVersion;
  const std::string versions = " (the log and this build are both at rules version " +
                               std::to_string(ops::kRulesVersion) + ")";
  for (const auto& [i, j] : LineUp(logged.events, replay.events, logged.schema >= 2)) {
    const LoggedEvent* was = i >= 0 ? &logged.events[static_cast<std::size_t>(i)] : nullptr;
    const LoggedEvent* is = j >= 0 ? &replay.events[static_cast<std::size_t>(j)] : nullptr;
    const std::int64_t row = was ? seq + i : 0;
    const std::string what =
        was ? "event " + std::to_string(i + 1) + " (" + was->kind + ")"
            : "replayed event " + std::to_string(j + 1) + " (" + is->kind + ")";
    if (was && is && SameEvent(*was, *is, logged.schema >= 2)) {
      if (was->text != is->text) report(row, what, "wording", was->text, is->text);
      continue;
    }
    const std::string change = !was ? "added" : !is ? "missing" : "content";
    if (same_rules) {
      return Tampered{was ? row : logged.seq,
                      !was
                          ? "the replay has an event the log does not: " + EventText(*is) + versions
                      : !is ? what + ": the log says " + EventText(*was) +
                                  ", the replay has no such event" + versions
                            : what + ": the log says " + EventText(*was) + ", the replay says " +
                                  EventText(*is) + versions};
    }
    report(row, what, change, was ? EventText(*was) : "", is ? EventText(*is) : "");
  }
  seq += static_cast<std::int64_t>(logged.events.size());
  for (std::size_t i = 0; i < std::min(logged.phases.size(), replay.phases.size()); ++i) {
    if (logged.phases[i] != replay.phases[i]) {
      return Tampered{seq + static_cast<std::int64_t>(i),
                      "the state after the " + logged.phases[i].phase +
                          " phase: the log has hash " + logged.phases[i].state_hash +
                          ", the replay reached " + replay.phases[i].state_hash + " after the " +
                          replay.phases[i].phase + " phase"};
    }
  }
  if (logged.phases.size() != replay.phases.size()) {
    return Tampered{logged.seq, "the log has " + Count(logged.phases.size(), "phase hashes") +
                                    ", the replay has " + std::to_string(replay.phases.size())};
  }
  if (logged.final_hash != replay.final_hash) {
    return Tampered{logged.seq, "the final state: the log has hash " + logged.final_hash +
                                    ", the replay reached " + replay.final_hash};
  }
  return std::nullopt;
}

std::string TurnTitle(const LoggedTurn& t) {
  return "player-turn " + std::to_string(t.number) + " (" + t.side + ", " + t.date + ")";
}

Error Refusal(const TurnLog& log, const LoggedTurn& logged, std::int64_t seq,
              const std::string& why) {
  return Error{ErrorCode::kCorruption, TurnTitle(logged) + ": " + why,
               log.path() + ": row seq " + std::to_string(seq), ""};
}

// What a logged player-turn was played from: its orders, read, and for a fair game the keys
// its dice come from, each decision checked against its logged hash and each key against its
// player's commitment (kCorruption naming the row).
struct TurnInputs {
  ops::Orders orders;
  bool fair = false;
  std::array<Key, 2> keys{};
};

Result<TurnInputs> InputsOf(const map::Theater& theater, const LoggedTurn& logged,
                            const TurnLog& log, CheckedKeys& checked) {
  auto refuse = [&](const std::string& why) {
    return std::unexpected(Refusal(log, logged, logged.seq, why));
  };
  auto src = JsonSource::FromText(logged.orders, "orders of " + TurnTitle(logged));
  if (!src) return refuse("the logged orders are not JSON: " + src.error().to_string());
  auto orders = ops::ParseOrders(*src, theater);
  if (!orders) return refuse("the logged orders do not read: " + orders.error().to_string());
  TurnInputs in{std::move(*orders), log.game().dice == DiceKind::kFair, {}};
  if (in.fair) {
    const Decisions d = SplitDecisions(logged.orders);
    if (Sha256Hex(d.orders) != logged.orders_hash) {
      return refuse("the mover's orders do not match their logged hash " + logged.orders_hash +
                    ": they were changed after the reveal");
    }
    if (Sha256Hex(d.reply) != logged.reply_hash) {
      return refuse("the defender's reply does not match its logged hash " + logged.reply_hash +
                    ": it was changed after the reveal");
    }
    auto keys = FairKeysFor(
        log.game(), logged.number,
        {logged.axis_key, logged.allied_key, logged.orders_hash, logged.reply_hash}, &checked);
    if (!keys) return refuse(keys.error().message);
    in.keys = *keys;
  }
  return in;
}

// The dice a fair player-turn of orders was played with: both keys over both decisions' hashes.
KeyedDice BatchDice(const TurnInputs& in, const LoggedTurn& logged, const TurnLog& log) {
  return DecidedDice(in.keys, log.game().game_id, logged.number, logged.orders_hash,
                     logged.reply_hash);
}

// Begins logged player-turn `logged` step by step from `before`, with the dice it was played
// with: a fair one's steps draw from their own streams (FairStepDice), a fair batch's from both
// decisions (BatchDice, kept in `keyed` for the turn's life), a seeded one's from the game's
// dice after the orders' own.
Result<ops::StepTurn> BeginAgain(const ops::Game& before, const LoggedTurn& logged,
                                 const TurnInputs& in, const TurnLog& log,
                                 std::optional<KeyedDice>& keyed,
                                 std::vector<ops::GameState>* phases = nullptr) {
  if (in.fair && !in.orders.steps.empty()) {
    return ops::StepTurn::BeginFair(
        before, FairStepDice(in.keys, log.game().game_id, logged.number), phases);
  }
  if (in.fair) {
    keyed.emplace(BatchDice(in, logged, log));
    return ops::StepTurn::Begin(before, &*keyed);
  }
  return ops::StepTurn::Begin(before, nullptr, in.orders.dice);
}

// Plays a logged player-turn again and checks that it reproduces the log; the differences that
// are not tampering go to `reported`. A fair player-turn's decisions must match their logged
// hashes, and its keys the players' commitments; its dice are derived from them again. Given
// `phases`, the state after each phase goes there (Game::Play).
Result<ops::TurnResult> ReplayTurn(ops::Game& game, const LoggedTurn& logged, const TurnLog& log,
                                   CheckedKeys& checked, std::vector<ReplayDifference>& reported,
                                   std::vector<ops::GameState>* phases = nullptr) {
  auto refuse = [&](std::int64_t seq, const std::string& why) {
    return std::unexpected(Refusal(log, logged, seq, why));
  };
  auto inputs = InputsOf(game.theater(), logged, log, checked);
  if (!inputs) return std::unexpected(inputs.error());
  const ops::Orders* orders = &inputs->orders;
  const bool fair = inputs->fair;
  Result<ops::TurnResult> result;
  if (fair && !orders->steps.empty()) {
    // A fair player-turn played step by step drew each step's dice from the steps before it
    // (docs/dice.md): its steps are taken again, and its orders must be their script.
    std::optional<KeyedDice> unused;
    auto turn = BeginAgain(game, logged, *inputs, log, unused, phases);
    if (!turn) return refuse(logged.seq, "the replay refuses it: " + turn.error().to_string());
    if (auto st = ops::TakeAgain(*turn, game.theater(), orders->steps, "the logged steps"); !st) {
      return refuse(logged.seq, st.error().where + ": " + st.error().message);
    }
    if (!turn->over()) {
      return refuse(logged.seq,
                    "the logged steps stop before the player-turn's end: " + turn->prompt().text);
    }
    ops::Orders script = turn->script();
    script.steps = orders->steps;
    auto canonical = CanonicalOrders(script, game.theater());
    if (!canonical || *canonical != logged.orders) {
      return refuse(logged.seq, "the logged orders are not the script of the logged steps");
    }
    if (auto st = turn->Finish(game); !st) return refuse(logged.seq, st.error().message);
    result = turn->result();
  } else {
    std::optional<KeyedDice> keyed;
    if (fair) keyed.emplace(BatchDice(*inputs, logged, log));
    // A seeded player-turn played step by step is checked step by step too, from where it
    // began: its script plays the same player-turn.
    std::optional<ops::Game> before;
    if (!orders->steps.empty()) before.emplace(game);
    result = game.Play(*orders, keyed ? &*keyed : nullptr, phases);
    if (!result) {
      return refuse(logged.seq,
                    "the replay refuses the logged orders: " + result.error().to_string());
    }
    if (before) {
      if (auto st = ops::CheckSteps(*before, *orders, *result); !st) {
        return refuse(logged.seq, st.error().message);
      }
    }
  }
  if (auto diff = Compare(logged, ToLoggedTurn(logged.number, logged.orders, *result), reported)) {
    return refuse(diff->seq, diff->message);
  }
  return result;
}

}  // namespace

Result<ops::Game> GameAt(const TurnLog& log, const Rules& rules, std::int32_t target) {
  if (auto s = log.CheckTail(); !s) return std::unexpected(s.error());
  auto turns = log.SnapshotTurns();
  if (!turns) return std::unexpected(turns.error());
  std::optional<ops::Game> game;
  std::int32_t from = 0;
  for (auto it = turns->rbegin(); it != turns->rend() && !game; ++it) {
    if (*it > target) continue;
    auto snap = log.ReadSnapshot(*it);
    if (!snap) return std::unexpected(snap.error());
    auto state = LoadSnapshot(snap->data, snap->format, *rules.theater, rules.campaign->tables);
    if (!state && state.error().code == ErrorCode::kUnsupported) {
      spdlog::warn(
          "{}: the snapshot after {} player-turns cannot be read by this build ({}); "
          "rebuilding from an earlier one",
          log.path(), *it, state.error().message);
      continue;
    }
    if (!state) {
      return Fail(ErrorCode::kCorruption,
                  "the snapshot after " + std::to_string(*it) +
                      " player-turns does not read: " + state.error().message,
                  log.path());
    }
    if (ops::StateHash(*state) != snap->state_hash) {
      return Fail(ErrorCode::kCorruption,
                  "the snapshot after " + std::to_string(*it) +
                      " player-turns does not hold the state its hash names",
                  log.path());
    }
    game.emplace(rules.theater, rules.campaign, std::move(*state));
    from = *it;
  }
  if (!game) {
    auto start = StartOf(log, rules);
    if (!start) return std::unexpected(start.error());
    game.emplace(std::move(*start));
  }
  // Differences that are not tampering are `opsim replay`'s to report.
  std::vector<ReplayDifference> unreported;
  CheckedKeys checked;
  for (std::int32_t n = from + 1; n <= target; ++n) {
    auto logged = log.ReadTurn(n);
    if (!logged) return std::unexpected(logged.error());
    if (auto r = ReplayTurn(*game, *logged, log, checked, unreported); !r) {
      return std::unexpected(r.error());
    }
  }
  return std::move(*game);
}

namespace {

Snapshot SnapshotOf(const ops::GameState& state, std::int32_t turn, std::string state_hash) {
  return Snapshot{turn, kSnapshotFormat, std::move(state_hash), SaveSnapshot(state)};
}

// With --verify: the snapshot after `turn` must name the replayed state, and hold it if this
// build can read it.
Status CheckSnapshot(const TurnLog& log, std::int32_t turn, const ops::Game& game,
                     ReplayReport& report) {
  auto snap = log.ReadSnapshot(turn);
  if (!snap) {
    Error e = snap.error();
    e.code = ErrorCode::kCorruption;
    return std::unexpected(e);
  }
  const std::string what = "the snapshot after " + std::to_string(turn) + " player-turns";
  if (snap->state_hash != game.hash()) {
    return Fail(ErrorCode::kCorruption,
                what + " names state " + snap->state_hash + ", the replay reached " + game.hash(),
                log.path());
  }
  auto state = LoadSnapshot(snap->data, snap->format, game.theater(), game.tables());
  if (!state && state.error().code == ErrorCode::kUnsupported) {
    ++report.snapshots_unreadable;
    return {};
  }
  if (!state) {
    return Fail(ErrorCode::kCorruption, what + " does not read: " + state.error().message,
                log.path());
  }
  // Equal states serialize to equal bytes. GameState's defaulted operator== cannot be used: the
  // units and floods it holds have no operator== of their own, so it does not compile.
  if (SaveSnapshot(*state) != SaveSnapshot(game.state())) {
    return Fail(ErrorCode::kCorruption, what + " holds a state other than the replayed one",
                log.path());
  }
  ++report.snapshots_loaded;
  return {};
}

// What a caller is given of a log's game at `state`, after `played` of its `logged` player-turns.
LoggedGame LoggedGameOf(const TurnLog& log, const Rules& rules, ops::GameState state,
                        std::int32_t played, std::int32_t logged) {
  return LoggedGame{rules.theater,
                    rules.campaign,
                    std::move(state),
                    log.game().scenario_name,
                    log.game().scenario_sha256,
                    played,
                    logged,
                    log.game().rules_version,
                    log.game().dice,
                    log.game().game_id};
}

// A new log of `record`'s game at `db_path`; `record` names the scenario and its dice.
Result<LoggedGame> NewLog(const std::string& db_path, const JsonSource& scenario,
                          GameRecord record) {
  if (record.seed > static_cast<std::uint64_t>(INT64_MAX)) {
    return Fail(ErrorCode::kInvalidInput, "the seed must be below 2^63",
                std::to_string(record.seed));
  }
  auto rules = BuildRules(scenario, record.seed);
  if (!rules) return std::unexpected(rules.error());
  ops::Game game(rules->theater, rules->campaign);
  record.scenario_name = std::filesystem::path(scenario.name()).filename().string();
  record.scenario = scenario.text();
  record.start_hash = game.hash();
  record.rules_version = ops::kRulesVersion;
  auto log = TurnLog::Create(db_path, record, SnapshotOf(game.state(), 0, game.hash()));
  if (!log) return std::unexpected(log.error());
  if (auto s = log->Publish(); !s) return std::unexpected(s.error());
  // The game is loaded again soon (a server readies it for its players): it finds these rules.
  KeptRules().Keep(log->game(), *rules);
  return LoggedGameOf(*log, *rules, game.state(), 0, 0);
}

}  // namespace

Result<LoggedGame> NewLoggedGame(const std::string& db_path, const JsonSource& scenario,
                                 std::uint64_t seed) {
  GameRecord record;
  record.seed = seed;
  return NewLog(db_path, scenario, std::move(record));
}

Result<LoggedGame> NewFairLoggedGame(const std::string& db_path, const JsonSource& scenario,
                                     const std::string& game_id, const std::string& axis_commitment,
                                     const std::string& allied_commitment) {
  GameRecord record;
  record.dice = DiceKind::kFair;
  record.game_id = game_id;
  record.axis_commitment = axis_commitment;
  record.allied_commitment = allied_commitment;
  return NewLog(db_path, scenario, std::move(record));
}

Decisions SplitDecisions(const std::string& canonical_orders) {
  nlohmann::json orders = nlohmann::json::parse(canonical_orders, nullptr, false);
  nlohmann::json reply = nlohmann::json::object();
  if (!orders.is_object()) return {canonical_orders, reply.dump()};
  for (const char* key : kReplyKeys) {
    if (!orders.contains(key)) continue;
    reply[key] = std::move(orders[key]);
    orders.erase(key);
  }
  return {orders.dump(), reply.dump()};
}

Result<std::array<Key, 2>> FairKeysFor(const GameRecord& game, std::int32_t number,
                                       const FairTurn& turn, CheckedKeys* checked) {
  if (number < 1 || number > kKeyChainLength) {
    return Fail(ErrorCode::kCorruption, "a fair game has keys for player-turns 1 to " +
                                            std::to_string(kKeyChainLength) + ", not " +
                                            std::to_string(number));
  }
  std::array<Key, 2> keys;
  const std::pair<const std::string*, const std::string*> sides[2] = {
      {&turn.axis_key, &game.axis_commitment}, {&turn.allied_key, &game.allied_commitment}};
  for (int i = 0; i < 2; ++i) {
    const char* side = i == 0 ? "axis" : "allied";
    auto key = KeyFromHex(*sides[i].first);
    auto commitment = KeyFromHex(*sides[i].second);
    const bool matches = key && commitment &&
                         (checked ? KeyMatches(*key, number, *commitment, (*checked)[i])
                                  : KeyMatches(*key, number, *commitment));
    if (!matches) {
      return Fail(ErrorCode::kCorruption, std::string("the ") + side + " key for player-turn " +
                                              std::to_string(number) + " does not match the " +
                                              side + " player's commitment");
    }
    keys[i] = *key;
  }
  return keys;
}

Result<KeyedDice> FairDiceFor(const GameRecord& game, std::int32_t number, const FairTurn& turn,
                              CheckedKeys* checked) {
  auto keys = FairKeysFor(game, number, turn, checked);
  if (!keys) return std::unexpected(keys.error());
  return DecidedDice(*keys, game.game_id, number, turn.orders_hash, turn.reply_hash);
}

ops::StepDice FairStepDice(const std::array<Key, 2>& keys, const std::string& game_id,
                           std::int32_t number) {
  return [keys, game_id, number](const std::string& decisions) -> std::unique_ptr<DiceSource> {
    return std::make_unique<KeyedDice>(keys[0], keys[1], game_id, number, decisions);
  };
}

Result<LoggedGame> LoadLoggedGame(const std::string& db_path, std::optional<std::int32_t> at) {
  auto log = TurnLog::Open(db_path, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  auto target = Target(*log, at);
  if (!target) return std::unexpected(target.error());
  auto rules = BuildRules(*log);
  if (!rules) return std::unexpected(rules.error());
  auto game = GameAt(*log, *rules, *target);
  if (!game) return std::unexpected(game.error());
  auto logged = log->CountTurns();
  if (!logged) return std::unexpected(logged.error());
  return LoggedGameOf(*log, *rules, game->state(), *target, *logged);
}

namespace {

// Logged player-turns `first` to `last` (1 <= first <= last <= the count, else kInvalidInput)
// replayed from the game after the ones before them (GameAt) and checked as ReplayLog checks
// them; their results go to `results`, with `states` the last one's state after each phase, and
// with `before` the game before `first`.
Result<ops::Game> ReplayLoggedRange(const TurnLog& log, const Rules& rules, std::int32_t first,
                                    std::int32_t last, std::vector<ops::TurnResult>& results,
                                    std::vector<ops::GameState>* states,
                                    std::optional<ops::Game>* before = nullptr) {
  auto count = log.CountTurns();
  if (!count) return std::unexpected(count.error());
  for (const std::int32_t number : {first, last}) {
    if (number < 1 || number > *count) {
      return Fail(ErrorCode::kInvalidInput,
                  "no logged player-turn " + std::to_string(number) + ": the log holds " +
                      std::to_string(*count) + " player-turns (1 to " + std::to_string(*count) +
                      ")",
                  log.path());
    }
  }
  auto game = GameAt(log, rules, first - 1);
  if (!game) return std::unexpected(game.error());
  if (before != nullptr) before->emplace(*game);
  std::vector<ReplayDifference> unreported;  // `opsim replay`'s to report
  CheckedKeys checked;
  for (std::int32_t n = first; n <= last; ++n) {
    auto logged = log.ReadTurn(n);
    if (!logged) return std::unexpected(logged.error());
    auto replayed =
        ReplayTurn(*game, *logged, log, checked, unreported, n == last ? states : nullptr);
    if (!replayed) return std::unexpected(replayed.error());
    results.push_back(std::move(*replayed));
  }
  return game;
}

}  // namespace

Result<LoggedPhases> LoadLoggedPhases(const std::string& db_path, std::int32_t number) {
  auto log = TurnLog::Open(db_path, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  auto rules = BuildRules(*log);
  if (!rules) return std::unexpected(rules.error());
  LoggedPhases out;
  std::vector<ops::TurnResult> replayed;
  auto game = ReplayLoggedRange(*log, *rules, number, number, replayed, &out.states);
  if (!game) return std::unexpected(game.error());
  auto count = log->CountTurns();
  if (!count) return std::unexpected(count.error());
  out.replayed = std::move(replayed.front());
  out.game = LoggedGameOf(*log, *rules, game->state(), number, *count);
  return out;
}

Result<LoggedSteps> LoadLoggedSteps(const std::string& db_path, std::int32_t number,
                                    std::size_t taken) {
  auto log = TurnLog::Open(db_path, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  auto rules = BuildRules(*log);
  if (!rules) return std::unexpected(rules.error());
  std::vector<ops::TurnResult> replayed;
  std::optional<ops::Game> before;
  auto after = ReplayLoggedRange(*log, *rules, number, number, replayed, nullptr, &before);
  if (!after) return std::unexpected(after.error());
  auto count = log->CountTurns();
  if (!count) return std::unexpected(count.error());
  // Checked whole above: from here on a refusal is this build's, not the log's.
  auto logged = log->ReadTurn(number);
  if (!logged) return std::unexpected(logged.error());
  CheckedKeys checked;
  auto inputs = InputsOf(*rules->theater, *logged, *log, checked);
  if (!inputs) return std::unexpected(inputs.error());
  const map::Theater& theater = *rules->theater;
  const std::string title = TurnTitle(*logged);
  auto unlike = [&](const std::string& why) {
    return Fail(ErrorCode::kUnsupported, title + ", played from orders, " + why,
                log->path() + ": row seq " + std::to_string(logged->seq));
  };
  LoggedSteps out;
  out.by_steps = !inputs->orders.steps.empty();
  out.steps = inputs->orders.steps;
  std::optional<KeyedDice> keyed;
  if (!out.by_steps) {
    auto turn = BeginAgain(*before, *logged, *inputs, *log, keyed);
    if (!turn) return unlike("does not begin as steps: " + turn.error().to_string());
    if (auto st = ops::PlayScript(*turn, inputs->orders); !st) {
      return unlike("is not taken as steps: " + st.error().to_string());
    }
    for (const ops::Step& s : turn->steps()) {
      out.steps.push_back({s.side, ops::StepToJson(s, theater), ""});
    }
  }
  if (taken > out.steps.size()) {
    return Fail(ErrorCode::kInvalidInput,
                "step " + std::to_string(taken) + " of " + title + ": it has " +
                    std::to_string(out.steps.size()) + " steps (0 is its beginning, before any)",
                db_path);
  }
  auto turn = BeginAgain(*before, *logged, *inputs, *log, keyed);
  if (!turn) return std::unexpected(turn.error());
  out.taken = taken;
  std::optional<ops::GameState> state;
  auto keep = [&](std::size_t k) {
    if (k != taken) return;
    state = turn->state();
    out.prompt = turn->prompt();
  };
  keep(0);
  auto st = ops::TakeAgain(*turn, theater, out.steps, title,
                           [&](std::size_t k, const ops::StepOutcome& o) {
                             out.outcomes.push_back(o);
                             keep(k);
                           });
  if (!st) return std::unexpected(st.error());
  if (turn->result().final_hash != replayed.front().final_hash) {
    return unlike("ends in state " + turn->result().final_hash + " as steps, " +
                  replayed.front().final_hash + " as logged");
  }
  out.result = turn->result();
  const std::int32_t played = taken == out.steps.size() ? number : number - 1;
  out.game = LoggedGameOf(*log, *rules, std::move(*state), played, *count);
  return out;
}

Result<std::vector<ops::TurnResult>> ReplayLoggedTurns(const std::string& db_path,
                                                       std::int32_t first, std::int32_t last) {
  auto log = TurnLog::Open(db_path, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  auto rules = BuildRules(*log);
  if (!rules) return std::unexpected(rules.error());
  std::vector<ops::TurnResult> replayed;
  auto game = ReplayLoggedRange(*log, *rules, first, last, replayed, nullptr);
  if (!game) return std::unexpected(game.error());
  return replayed;
}

Result<std::string> CanonicalOrders(const ops::Orders& orders, const map::Theater& theater) {
  std::string canonical = ops::OrdersToJson(orders, theater);
  auto again = JsonSource::FromText(canonical, "canonical orders");
  auto reparsed = again ? ops::ParseOrders(*again, theater) : std::unexpected(again.error());
  if (!reparsed || ops::OrdersToJson(*reparsed, theater) != canonical) {
    return Fail(ErrorCode::kInternal,
                "the canonical orders do not read back as the same orders; nothing was logged",
                orders.source);
  }
  return canonical;
}

Result<ops::TurnResult> PlayAndAppend(ops::Game& game, const ops::Orders& orders, TurnLog& log,
                                      std::int32_t number, const FairTurn* fair) {
  std::optional<KeyedDice> keyed;
  if (fair != nullptr) {
    auto dice = FairDiceFor(log.game(), number, *fair);
    if (!dice) return std::unexpected(dice.error());
    keyed.emplace(*dice);
  }
  // The orders and theater are only read, on both threads; the game is the rules' alone.
  auto canonical =
      std::async(kBeside, CanonicalOrders, std::cref(orders), std::cref(game.theater()));
  auto result = game.Play(orders, keyed ? &*keyed : nullptr);
  if (!result) return std::unexpected(result.error());
  auto text = canonical.get();
  if (!text) return std::unexpected(text.error());
  if (auto st = AppendPlayed(log, number, std::move(*text), *result, game.state(), fair); !st) {
    return std::unexpected(st.error());
  }
  return result;
}

Status AppendPlayed(TurnLog& log, std::int32_t number, std::string canonical,
                    const ops::TurnResult& played, const ops::GameState& after,
                    const FairTurn* fair) {
  // From here the state is only read: the snapshot is made while the rows are written.
  auto snapshot = std::async(kBeside, [&after, number, hash = played.final_hash] {
    return SnapshotOf(after, number, hash);
  });
  LoggedTurn turn = ToLoggedTurn(number, std::move(canonical), played);
  if (fair != nullptr) {
    turn.axis_key = fair->axis_key;
    turn.allied_key = fair->allied_key;
    turn.orders_hash = fair->orders_hash;
    turn.reply_hash = fair->reply_hash;
  }
  return log.AppendTurn(turn, std::move(snapshot));
}

Result<ReplayReport> ReplayLog(const std::string& db_path, const ReplayOptions& options) {
  auto log = TurnLog::Open(db_path, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  if (auto s = log->CheckTail(); !s) return std::unexpected(s.error());
  ReplayReport report;
  if (options.verify) {
    auto chain = log->VerifyChain();
    if (!chain) return std::unexpected(chain.error());
    report.chain = *chain;
  }
  auto to = Target(*log, options.to);
  if (!to) return std::unexpected(to.error());
  auto rules = BuildRules(*log);
  if (!rules) return std::unexpected(rules.error());
  auto start = StartOf(*log, *rules);
  if (!start) return std::unexpected(start.error());
  ops::Game& game = *start;
  ++report.hashes;
  if (options.verify) {
    if (auto s = CheckSnapshot(*log, 0, game, report); !s) return std::unexpected(s.error());
  }
  CheckedKeys checked;
  for (std::int32_t n = 1; n <= *to; ++n) {
    auto logged = log->ReadTurn(n);
    if (!logged) return std::unexpected(logged.error());
    auto result = ReplayTurn(game, *logged, *log, checked, report.differences);
    if (!result) return std::unexpected(result.error());
    report.rolls += static_cast<std::int64_t>(logged->rolls.size());
    report.events += static_cast<std::int64_t>(logged->events.size());
    report.hashes += static_cast<std::int64_t>(logged->phases.size()) + 1;
    if (options.verify) {
      if (auto s = CheckSnapshot(*log, n, game, report); !s) return std::unexpected(s.error());
    }
    if (options.progress) options.progress(n, *to);
  }
  auto logged = log->CountTurns();
  if (!logged) return std::unexpected(logged.error());
  report.game = LoggedGameOf(*log, *rules, game.state(), *to, *logged);
  return report;
}

Result<BranchReport> BranchLog(const std::string& db_path, std::int32_t at,
                               const std::string& out_path, const Progress& progress) {
  auto log = TurnLog::Open(db_path, TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  if (auto s = log->CheckTail(); !s) return std::unexpected(s.error());
  if (auto chain = log->VerifyChain(); !chain) return std::unexpected(chain.error());
  if (auto target = Target(*log, at); !target) return std::unexpected(target.error());
  auto rules = BuildRules(*log);
  if (!rules) return std::unexpected(rules.error());
  auto start = StartOf(*log, *rules);
  if (!start) return std::unexpected(start.error());
  ops::Game& game = *start;
  GameRecord record = log->game();
  record.rules_version = ops::kRulesVersion;
  auto out = TurnLog::Create(out_path, record, SnapshotOf(game.state(), 0, game.hash()));
  if (!out) return std::unexpected(out.error());
  auto tx = out->Begin();
  if (!tx) return std::unexpected(tx.error());
  std::vector<ReplayDifference> unreported;  // the copy holds this build's events
  CheckedKeys checked;
  for (std::int32_t n = 1; n <= at; ++n) {
    auto logged = log->ReadTurn(n);
    if (!logged) return std::unexpected(logged.error());
    auto result = ReplayTurn(game, *logged, *log, checked, unreported);
    if (!result) return std::unexpected(result.error());
    LoggedTurn turn = ToLoggedTurn(n, logged->orders, *result);
    turn.logged_at = logged->logged_at;
    turn.axis_key = logged->axis_key;
    turn.allied_key = logged->allied_key;
    turn.orders_hash = logged->orders_hash;
    turn.reply_hash = logged->reply_hash;
    if (auto s = out->AppendTurn(turn, SnapshotOf(game.state(), n, result->final_hash)); !s) {
      return std::unexpected(s.error());
    }
    if (progress) progress(n, at);
  }
  // The source as messages show it: a PostgreSQL address keeps no password in the new log.
  for (auto [key, value] : {std::pair<const char*, std::string>{"branched_from", log->path()},
                            {"branched_at", std::to_string(at)}}) {
    if (auto s = out->SetMeta(key, value); !s) return std::unexpected(s.error());
  }
  auto meta = out->Meta();
  if (!meta) return std::unexpected(meta.error());
  if (auto s = tx->Commit(); !s) return std::unexpected(s.error());
  if (auto s = out->Publish(); !s) return std::unexpected(s.error());
  return BranchReport{at, (*meta)["head_hash"], game.hash(), game.state()};
}

}  // namespace opsim::db
