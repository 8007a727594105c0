#include "event_hub.h"

#include <vector>

namespace opsim::server {

// A subscription: forgets its listener when destroyed, if the hub is still there.
class EventHub::Listening final : public Subscription {
 public:
  Listening(std::weak_ptr<EventHub> hub, std::string id, std::uint64_t n)
      : hub_(std::move(hub)), id_(std::move(id)), n_(n) {}
  ~Listening() override {
    if (auto hub = hub_.lock()) hub->Forget(id_, n_);
  }

 private:
  std::weak_ptr<EventHub> hub_;
  std::string id_;
  std::uint64_t n_;
};

std::unique_ptr<Subscription> EventHub::Listen(const std::string& id, Api::Listener listener) {
  std::lock_guard lock(mu_);
  Listeners& ls = games_[id];
  const std::uint64_t n = ls.next++;
  ls.each.emplace(n, std::move(listener));
  return std::make_unique<Listening>(weak_from_this(), id, n);
}

void EventHub::Forget(const std::string& id, std::uint64_t n) {
  std::lock_guard lock(mu_);
  auto it = games_.find(id);
  if (it == games_.end()) return;
  it->second.each.erase(n);
  if (it->second.each.empty()) games_.erase(it);
}

bool EventHub::HasListeners(const std::string& id) {
  std::lock_guard lock(mu_);
  return games_.count(id) != 0;
}

void EventHub::Notify(const std::string& id, const std::string& event, const nlohmann::json& data,
                      const std::string& event_id) {
  std::vector<Api::Listener> call;
  {
    std::lock_guard lock(mu_);
    auto it = games_.find(id);
    if (it == games_.end()) return;
    for (const auto& [n, l] : it->second.each) call.push_back(l);
  }
  const std::string line = data.dump();
  for (const auto& l : call) l(event, line, event_id);
}

}  // namespace opsim::server
