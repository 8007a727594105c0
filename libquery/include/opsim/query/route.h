// `opsim route`: a ground or naval route between two waypoints, or the check of a given path,
// under a loaded game's map state, tables and player-turn.
//
// A ground route in a game stops at enemy zones of control and goes around enemy units (B4.8).
// Each answer keeps the rules' own verdict (ops::RouteAnswer or ops::PathVerdict) and its
// waypoints by name. AnswerRoute borrows its ground router from the LoadedGame's WarmCache
// (built on the first call for that side, unit kind and phase): calls on one LoadedGame may run
// on different threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "opsim/ops/route.h"
#include "opsim/query/source.h"

namespace opsim::query {

enum class RouteMode : std::uint8_t { kGround, kNaval };

struct RouteRequest {
  RouteMode mode = RouteMode::kGround;
  Side side = Side::kAllied;
  std::string from, to;             // find a route, or
  std::string path;                 // check this one: waypoints, comma-separated
  std::string unit = "infantry";    // ground: ops::ParseUnitKind
  std::string group = "transport";  // naval: ops::ParseGroup
  bool exploitation = false;        // 41.A.4.a: a partially flooded hex counts as swamp
  bool checks_path() const { return !path.empty(); }
};

struct RouteAnswer {
  RouteRequest request;
  ops::RouteAnswer found;              // when the request asked for a route
  ops::PathVerdict verdict;            // when it gave a path, or the route found, step by step
  std::vector<std::string> waypoints;  // the route found or the path checked, by name
};

// kInvalidInput for waypoints that do not parse, or a path that is not one at all.
Result<RouteAnswer> AnswerRoute(const LoadedGame& g, const RouteRequest& request);

// A cost as the answers give it: MPs on the ground (halves shown as .5), steps at sea.
nlohmann::json CostJson(RouteMode mode, std::uint32_t cost);
// {reachable, path, cost, blocked_by[, reason]} or {legal, cost, blocked_by, steps[,
// failed_step, reason]}.
nlohmann::json ToJson(const RouteAnswer& a);

}  // namespace opsim::query
