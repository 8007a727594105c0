// How many games one client may create: at most `per_hour` in any hour, counted by address
// (docs/api.md, "Limits"). The games folder's own bound is the API's (ApiOptions::max_games).
//
// Threading: Take may be called from many threads at once.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace opsim::server {

class CreateQuota {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr Clock::duration kWindow = std::chrono::hours(1);

  explicit CreateQuota(int per_hour) : per_hour_(per_hour) {}

  // Counts one create by `client` at `now`; 0 if it is within the quota, else the seconds until
  // the oldest create counted leaves the window (nothing is counted then). Always 0 when
  // per_hour is 0 (no quota).
  int Take(const std::string& client, Clock::time_point now = Clock::now());

 private:
  // Past this many clients, those with nothing left in the window are forgotten.
  static constexpr std::size_t kMaxClients = 10000;

  const int per_hour_;
  std::mutex mu_;
  std::unordered_map<std::string, std::deque<Clock::time_point>>
      creates_;  // by client, oldest first
};

}  // namespace opsim::server
