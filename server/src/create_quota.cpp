#include "create_quota.h"

#include <algorithm>
#include <iterator>

namespace opsim::server {

int CreateQuota::Take(const std::string& client, Clock::time_point now) {
  if (per_hour_ <= 0) return 0;
  std::lock_guard lock(mu_);
  const auto expire = [now](std::deque<Clock::time_point>& times) {
    while (!times.empty() && now - times.front() >= kWindow) times.pop_front();
    return times.empty();
  };
  if (creates_.size() > kMaxClients) {
    for (auto it = creates_.begin(); it != creates_.end();) {
      it = expire(it->second) ? creates_.erase(it) : std::next(it);
    }
  }
  std::deque<Clock::time_point>& times = creates_[client];
  expire(times);
  if (times.size() < static_cast<std::size_t>(per_hour_)) {
    times.push_back(now);
    return 0;
  }
  const auto wait = std::chrono::ceil<std::chrono::seconds>(times.front() + kWindow - now);
  return std::max(1, static_cast<int>(wait.count()));
}

}  // namespace opsim::server
