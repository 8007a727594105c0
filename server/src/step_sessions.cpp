// server/src/step_sessions.h: the player-turns in play kept between requests.
#include "step_sessions.h"

#include <algorithm>

namespace opsim::server {

Result<std::shared_ptr<query::StepSession>> StepSessions::Of(
    const std::string& id, const std::string& address, const std::optional<Secrets>& secrets) {
  const LogStamp now = StampOf(address);
  {
    std::lock_guard lock(mu_);
    auto it = play_.find(id);
    if (it != play_.end()) {
      if (it->second.stamp == now) {
        it->second.used = ++clock_;
        return it->second.session;
      }
      play_.erase(it);  // another writer moved the game on
    }
  }
  std::optional<db::FairSecrets> fair;
  if (secrets) fair = db::FairSecrets{secrets->axis_secret, secrets->allied_secret};
  auto opened = query::OpenSteps(address, fair ? &*fair : nullptr, secrets.has_value());
  if (!opened) return std::unexpected(opened.error());
  auto session = std::make_shared<query::StepSession>(std::move(*opened));
  std::lock_guard lock(mu_);
  if (play_.size() >= kMax) {
    auto oldest = std::min_element(play_.begin(), play_.end(), [](const auto& a, const auto& b) {
      return a.second.used < b.second.used;
    });
    play_.erase(oldest);
  }
  play_[id] = InPlay{session, now, ++clock_};
  return session;
}

void StepSessions::Wrote(const std::string& id, const LogStamp& stamp) {
  std::lock_guard lock(mu_);
  if (auto it = play_.find(id); it != play_.end()) it->second.stamp = stamp;
}

void StepSessions::Forget(const std::string& id) {
  std::lock_guard lock(mu_);
  play_.erase(id);
}

}  // namespace opsim::server
