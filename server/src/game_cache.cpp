#include "game_cache.h"

#include <atomic>

#include "opsim/db/hosting.h"
#include "opsim/query/log.h"
#include "opsim/query/view.h"
#include "store.h"

namespace opsim::server {

using nlohmann::json;

namespace {

// About how many bytes a cached answer holds. A loaded game: its theater and state, from what
// issue 22 measured of games kept loaded with their answers: 300 of the bundled one (3,000
// hexes) took 242 MB, about 270 bytes a hex; 16 of the 100,000-hex one 1.19 GB, about 740.
constexpr std::size_t kBytesPerHex = 500;
constexpr std::size_t kBytesPerGame = 64 * 1024;
std::size_t BytesOf(const query::LoadedGame& g) {
  return LoadedBytes(g);
}
std::size_t BytesOf(const std::string& text) {
  return text.size();
}
std::size_t BytesOf(const json& doc) {
  return doc.dump().size();
}

}  // namespace

LogStamp StampOf(const std::string& address) {
  static std::atomic<std::uint64_t> unreadable{0};
  auto stamp = db::LogStamp(address);
  return stamp ? *stamp : "unreadable " + std::to_string(++unreadable);
}

std::size_t LoadedBytes(const query::LoadedGame& g) {
  return kBytesPerGame + (g.theater ? g.theater->hex_count() * kBytesPerHex : 0);
}

std::shared_ptr<std::recursive_mutex> GameCache::LoadLock(const std::string& id) {
  std::lock_guard lock(mu_);
  auto& m = load_locks_[id];
  if (!m) m = std::make_shared<std::recursive_mutex>();
  return m;
}

template <class T, class Slot, class Load>
Result<std::shared_ptr<const T>> GameCache::Cached(const std::string& id, const std::string& path,
                                                   Slot slot, Load load, bool fresh) {
  const LogStamp now = StampOf(path);
  std::shared_ptr<const T> stale;  // what the log held before it changed
  const auto warm = [&]() -> std::shared_ptr<const T> {
    std::lock_guard lock(mu_);
    auto it = warm_.find(id);
    if (it == warm_.end() || !slot(it->second)) return nullptr;
    it->second.used = ++clock_;
    if (it->second.stamp == now) return slot(it->second);
    stale = slot(it->second);
    return nullptr;
  };
  if (auto hit = warm()) return hit;
  // One load at a time per game. After a player-turn the readers who find the log changed do not
  // each load it, nor hold a thread waiting: while another thread loads the new state, the last
  // one answers (the turn's writer loads it before anyone hears of it).
  auto loading = LoadLock(id);
  std::unique_lock one(*loading, std::defer_lock);
  if (!one.try_lock()) {
    if (stale && !fresh) return stale;
    one.lock();
  }
  if (auto hit = warm()) return hit;
  Result<T> made = load();
  if (!made) return std::unexpected(made.error());
  auto shared = std::make_shared<const T>(std::move(*made));
  const std::size_t bytes = BytesOf(*shared);
  std::lock_guard lock(mu_);
  Warm& w = warm_[id];
  if (!(w.stamp == now)) {
    bytes_ -= w.bytes;
    w = Warm{};
    w.stamp = now;
  }
  auto& held = slot(w);
  if (held) {
    w.bytes -= BytesOf(*held);
    bytes_ -= BytesOf(*held);
  }
  held = shared;
  w.bytes += bytes;
  bytes_ += bytes;
  w.used = ++clock_;
  Trim(id, {});
  return shared;
}

void GameCache::Trim(const std::string& keep_game, const std::string& keep_theater) {
  while (cache_bytes_ > 0 && bytes_ > cache_bytes_) {
    auto game = warm_.end();
    for (auto it = warm_.begin(); it != warm_.end(); ++it) {
      if (it->first != keep_game && (game == warm_.end() || it->second.used < game->second.used)) {
        game = it;
      }
    }
    auto theater = theaters_.end();
    for (auto it = theaters_.begin(); it != theaters_.end(); ++it) {
      if (it->first != keep_theater &&
          (theater == theaters_.end() || it->second.used < theater->second.used)) {
        theater = it;
      }
    }
    const bool games = game != warm_.end(), theaters = theater != theaters_.end();
    if (!games && !theaters) return;
    if (games && (!theaters || game->second.used < theater->second.used)) {
      bytes_ -= game->second.bytes;
      warm_.erase(game);
    } else {
      bytes_ -= theater->second.body->size() + theater->second.compact->size();
      theaters_.erase(theater);
    }
  }
}

Result<std::shared_ptr<const query::LoadedGame>> GameCache::Latest(const std::string& id,
                                                                   const std::string& path,
                                                                   bool fresh) {
  const auto slot = [](Warm & w) -> auto& {
    return w.game;
  };
  return Cached<query::LoadedGame>(
      id, path, slot,
      [&path]() {
        query::Source src;
        src.db = path;
        return query::Load(src);
      },
      fresh);
}

Result<std::shared_ptr<const json>> GameCache::Status(const std::string& id,
                                                      const std::string& path) {
  const auto slot = [](Warm & w) -> auto& {
    return w.status;
  };
  return Cached<json>(id, path, slot, [&path]() -> Result<json> {
    auto status = query::AnswerStatus(path, std::nullopt);
    if (!status) return std::unexpected(status.error());
    json doc = query::ToJson(*status);
    doc.erase("db");  // the server's path: the game is its id
    return doc;
  });
}

Result<std::shared_ptr<const std::string>> GameCache::Answer(const std::string& id,
                                                             const std::string& path, Of of,
                                                             const std::string& key,
                                                             const Make& make) {
  const auto slot = [ of, &key ](Warm & w) -> auto& {
    return of == Of::kPosition ? w.positions[key] : w.logs[key];
  };
  return Cached<std::string>(id, path, slot, make);
}

std::shared_ptr<const std::string> GameCache::KeptTheater(const std::string& sha,
                                                          TheaterForm form) {
  std::lock_guard lock(mu_);
  auto it = theaters_.find(sha);
  if (it == theaters_.end()) return nullptr;
  it->second.used = ++clock_;
  return form == TheaterForm::kCompact ? it->second.compact : it->second.body;
}

std::shared_ptr<const std::string> GameCache::Theater(const std::string& sha, const map::Theater& t,
                                                      TheaterForm form) {
  if (auto kept = KeptTheater(sha, form)) return kept;
  // Both forms at once: a new game makes them when it is created (api.cpp), so that the
  // browser's first view, which asks for the compact one, finds it made.
  WarmTheater made_now{std::make_shared<const std::string>(query::TheaterJson(t).dump()),
                       std::make_shared<const std::string>(query::TheaterCompactJson(t).dump()), 0};
  std::lock_guard lock(mu_);
  auto [it, made] = theaters_.try_emplace(sha, std::move(made_now));
  it->second.used = ++clock_;
  if (made) {
    bytes_ += it->second.body->size() + it->second.compact->size();
    Trim({}, sha);
  }
  return form == TheaterForm::kCompact ? it->second.compact : it->second.body;
}

Result<std::shared_ptr<const json>> GameCache::Summary(const std::string& id,
                                                       const std::string& path) {
  const LogStamp now = StampOf(path);
  {
    std::lock_guard lock(mu_);
    if (auto it = summaries_.find(id); it != summaries_.end() && it->second.first == now) {
      return it->second.second;
    }
  }
  auto read = ReadSummary(path);
  if (!read) return std::unexpected(read.error());
  auto shared = std::make_shared<const json>(std::move(*read));
  std::lock_guard lock(mu_);
  summaries_[id] = {now, shared};
  return shared;
}

}  // namespace opsim::server
