// What the engine queries' request bodies hold (docs/api.md, "Queries"): each body read into
// libquery's typed request, with the position it asks about (`at`).
//
// It promises: nothing here reads a game or throws; a member that is unknown, missing, out of
// range or of the wrong type is kInvalidInput naming where it is ("request body: /mode"), as
// answers.h reads every body. The routes (api.cpp) admit the request, load the game at `at`
// and ask libquery.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"
#include "opsim/query/odds.h"
#include "opsim/query/reach.h"
#include "opsim/query/route.h"

namespace opsim::server {

// The most runs one odds request may ask for: about 0.3 s on the bundled game, 15 s on the
// 100,000-hex one (one thread).
constexpr std::uint64_t kMaxServerOddsRuns = 1'000;

// POST .../route: {"mode", "side", "from", "to" | "path", "unit", "group", "exploitation", "at"}.
struct RouteBody {
  query::RouteRequest request;
  std::optional<std::int32_t> at;
};
Result<RouteBody> ReadRouteBody(const JsonSource& body);

// POST .../reach: {"units" | "hex", "side", "exploitation", "rail", "to", "max_cost", "at",
// "in_play"}; "in_play" (the position of a player-turn in play) with no "at".
struct ReachBody {
  query::ReachRequest request;
  std::optional<std::int32_t> at;
  bool in_play = false;
};
Result<ReachBody> ReadReachBody(const JsonSource& body);

// POST .../check: {"action" (one order) | "orders" (an orders file), "side", "at"}.
struct CheckBody {
  std::optional<std::string> action;  // the order's JSON text
  std::optional<JsonSource> orders;
  std::optional<Side> side;
  std::optional<std::int32_t> at;
};
Result<CheckBody> ReadCheckBody(const JsonSource& body);

// POST .../odds: {"orders", "runs" (1 to kMaxServerOddsRuns), "seed", "at"}.
struct OddsBody {
  query::OddsRequest request;
  JsonSource orders;
  std::optional<std::int32_t> at;
};
Result<OddsBody> ReadOddsBody(const JsonSource& body);

}  // namespace opsim::server
