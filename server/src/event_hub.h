// The event hub: who listens to which game's changes, and the delivery of each change to them
// (docs/api.md, "Events": `GET /api/games/{id}/events`, sent by the HTTP layer as Server-Sent
// Events).
//
// It promises: a listener hears every event notified for its game from when Listen returns until
// its Subscription is destroyed, in the order each notifying thread sent them; a Subscription may
// outlive the hub (it then forgets nothing). It knows nothing of tokens or games: the API admits a
// listener first, and notifies after its write commits.
// Threading: thread-safe. A listener is called on the notifying thread, outside the hub's lock,
// so it may take its own locks (the HTTP layer queues the event for its connection).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "opsim/server/api.h"

namespace opsim::server {

class EventHub : public std::enable_shared_from_this<EventHub> {
 public:
  // Subscribes `listener` to game `id`'s events.
  std::unique_ptr<Subscription> Listen(const std::string& id, Api::Listener listener);
  // Tells each of game `id`'s listeners: `event` ("pending", "turn", "step") with `data`, sent as
  // one line of JSON, and its id `event_id` (the log's stamp after the change).
  void Notify(const std::string& id, const std::string& event, const nlohmann::json& data,
              const std::string& event_id);
  // Whether game `id` has a listener now.
  bool HasListeners(const std::string& id);

 private:
  class Listening;
  void Forget(const std::string& id, std::uint64_t n);

  struct Listeners {
    std::uint64_t next = 1;
    std::map<std::uint64_t, Api::Listener> each;
  };
  std::mutex mu_;
  std::map<std::string, Listeners> games_;  // only games with a listener
};

}  // namespace opsim::server
