// Warm: what queries on one LoadedGame build and may reuse, kept between calls (source.h,
// WarmCache). Each object is lent to one query at a time and put back when it is done, so that
// threads asking at once never share one; a pool grows to as many as were asked for at once,
// and keeps at most kIdlePerKey of each. Thread-safe. Private to libquery.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "opsim/ops/game.h"
#include "opsim/ops/route.h"
#include "opsim/query/source.h"

namespace opsim::query {

template <class T>
class Pool {
 public:
  // An idle object built for `key`, or null: the caller builds one.
  std::unique_ptr<T> Take(const std::string& key) {
    std::lock_guard lock(mutex_);
    auto it = idle_.find(key);
    if (it == idle_.end() || it->second.empty()) return nullptr;
    std::unique_ptr<T> p = std::move(it->second.back());
    it->second.pop_back();
    return p;
  }
  void Put(const std::string& key, std::unique_ptr<T> p) {
    std::lock_guard lock(mutex_);
    std::vector<std::unique_ptr<T>>& idle = idle_[key];
    if (idle.size() < kIdlePerKey) idle.push_back(std::move(p));
  }

 private:
  // Two: a router of the 100,000-hex theater is about 4 MB, and two threads seldom ask the
  // same side, unit kind and phase at once.
  static constexpr std::size_t kIdlePerKey = 2;
  std::mutex mutex_;
  std::map<std::string, std::vector<std::unique_ptr<T>>> idle_;
};

// An object taken from a pool (or just built), put back when the lease ends.
template <class T>
class Lease {
 public:
  Lease(Pool<T>& pool, std::string key, std::unique_ptr<T> p)
      : pool_(pool), key_(std::move(key)), p_(std::move(p)) {}
  Lease(Lease&& other) noexcept
      : pool_(other.pool_), key_(std::move(other.key_)), p_(std::move(other.p_)) {}
  Lease& operator=(Lease&&) = delete;
  ~Lease() {
    if (p_) pool_.Put(key_, std::move(p_));
  }
  T& operator*() const { return *p_; }
  T* operator->() const { return p_.get(); }

 private:
  Pool<T>& pool_;
  std::string key_;
  std::unique_ptr<T> p_;
};

class Warm {
 public:
  // Ground routers with a side's barriers, by side, unit kind and phase (route.cpp).
  Pool<ops::GroundRouter> routers;
  // Games as a side plans them, each with its router cache, by side (check.cpp): forks of one
  // planning game per side, so that they share what their probes work out once per position.
  Pool<ops::Game> games;
  // The planning game of `key` (made by `make` the first time), to fork: never played.
  template <class Make>
  Result<ops::Game> Fork(const std::string& key, Make&& make) {
    std::lock_guard lock(planning_mutex_);
    auto it = planning_.find(key);
    if (it == planning_.end()) {
      Result<ops::Game> made = make();
      if (!made) return made;
      it = planning_.emplace(key, std::move(*made)).first;
    }
    return it->second.Fork();
  }

 private:
  std::mutex planning_mutex_;
  std::map<std::string, ops::Game> planning_;
};

// The game as `side` plans it (check.h, reach.h): the present position at that side's next
// player-turn (none: the phasing side's), lent from `g`'s warm pool. A game kept there keeps the
// ground routers its probes built, and shares with the other forks of its planning game the
// phasing side's supply and the enemy zones of control worked out at its position, which the
// next check or reach of the same position reuses.
Result<Lease<ops::Game>> LeasePlanningGame(const LoadedGame& g, std::optional<Side> side);

}  // namespace opsim::query
