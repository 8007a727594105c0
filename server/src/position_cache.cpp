#include "position_cache.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "opsim/core/sha256.h"
#include "opsim/db/turn_log.h"

namespace opsim::server {

namespace {

// "at 3", "at 3, movement", "at 3, step 7": a position as the log lines name it.
std::string PositionName(const PositionKey& key) {
  std::string name = "at " + std::to_string(key.at);
  if (key.phase) name += std::string(", ") + ops::PhaseName(*key.phase);
  if (key.step) name += ", step " + std::to_string(*key.step);
  return name;
}

}  // namespace

Result<std::string> LogIdentity(const std::string& path) {
  auto log = db::TurnLog::Open(path, db::TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  auto meta = log->Meta();
  if (!meta) return std::unexpected(meta.error());
  const db::GameRecord& g = log->game();
  const auto created = meta->find("created_at");
  return g.start_hash + "|" + g.scenario_sha256 + "|" + std::to_string(g.seed) + "|" + g.game_id +
         "|" + g.axis_commitment + "|" + g.allied_commitment + "|" +
         (created == meta->end() ? std::string() : created->second);
}

std::string PositionEtag(const PositionKey& key, const std::string& what) {
  return "\"" +
         Sha256Hex(key.game + "\n" + key.log + "\n" + PositionName(key) + "\n" + what)
             .substr(0, 32) +
         "\"";
}

PositionCache::PositionCache(std::size_t max_entries, std::size_t max_bytes, SizeOf size_of)
    : max_entries_(max_entries), max_bytes_(max_bytes), size_of_(std::move(size_of)) {}

Result<std::shared_ptr<const query::LoadedGame>> PositionCache::Game(const PositionKey& key,
                                                                     const Load& load) {
  std::promise<Loaded> promise;
  std::shared_future<Loaded> loading;
  std::uint64_t serial = 0;
  {
    std::lock_guard lock(mu_);
    if (auto it = entries_.find(key); it != entries_.end()) {
      used_.splice(used_.begin(), used_, it->second.used);
      ++counts_.hits;
      loading = it->second.game;
    } else {
      serial = ++serial_;
      used_.push_front(key);
      entries_.emplace(key, Entry{promise.get_future().share(), {}, 0, used_.begin(), serial});
    }
  }
  if (serial == 0) return loading.get();
  // This request loads it; any other asking meanwhile waits on the entry's future. Should the
  // load throw (a bug: the API answers 500), the entry goes and its waiters get the exception.
  const auto drop = [&] {
    std::lock_guard lock(mu_);
    auto it = entries_.find(key);
    if (it == entries_.end() || it->second.serial != serial) return;
    used_.erase(it->second.used);
    entries_.erase(it);
  };
  std::optional<Result<query::LoadedGame>> attempt;
  try {
    attempt.emplace(load());
  } catch (...) {
    promise.set_exception(std::current_exception());
    drop();
    throw;
  }
  Result<query::LoadedGame>& made = *attempt;
  Loaded out = made ? Loaded(std::make_shared<const query::LoadedGame>(std::move(*made)))
                    : Loaded(std::unexpected(made.error()));
  promise.set_value(out);
  if (!out) {
    drop();
    return out;
  }
  const std::size_t bytes = size_of_(**out);
  std::lock_guard lock(mu_);
  ++counts_.loads;
  spdlog::debug("serve: position {} {}: loaded", key.game, PositionName(key));
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.serial != serial) return out;  // dropped meanwhile
  it->second.bytes += bytes;
  bytes_ += bytes;
  Trim(key);
  return out;
}

Result<std::shared_ptr<const std::string>> PositionCache::Answer(const PositionKey& key,
                                                                 const std::string& what,
                                                                 const Load& load,
                                                                 const Make& make) {
  auto game = Game(key, load);
  if (!game) return std::unexpected(game.error());
  {
    std::lock_guard lock(mu_);
    if (auto it = entries_.find(key); it != entries_.end()) {
      if (auto a = it->second.answers.find(what); a != it->second.answers.end()) return a->second;
    }
  }
  auto made = make(**game);
  if (!made) return std::unexpected(made.error());
  auto body = std::make_shared<const std::string>(std::move(*made));
  std::lock_guard lock(mu_);
  ++counts_.made;
  spdlog::debug("serve: position {} {}: answer '{}' made", key.game, PositionName(key), what);
  auto it = entries_.find(key);
  if (it == entries_.end()) return body;
  auto [a, added] = it->second.answers.try_emplace(what, body);
  if (added) {
    it->second.bytes += body->size();
    bytes_ += body->size();
    Trim(key);
  }
  return a->second;
}

PositionCache::Counts PositionCache::counts() const {
  std::lock_guard lock(mu_);
  Counts c = counts_;
  c.entries = entries_.size();
  c.bytes = bytes_;
  return c;
}

void PositionCache::Trim(const PositionKey& keep) {
  while ((entries_.size() > max_entries_ || bytes_ > max_bytes_) && entries_.size() > 1) {
    auto last = std::prev(used_.end());
    if (*last == keep) {
      if (last == used_.begin()) return;
      --last;
    }
    auto it = entries_.find(*last);
    bytes_ -= it->second.bytes;
    spdlog::debug("serve: position {} {}: dropped", it->first.game, PositionName(it->first));
    entries_.erase(it);
    used_.erase(last);
  }
}

}  // namespace opsim::server
