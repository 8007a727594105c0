#include "query_bodies.h"

#include <limits>
#include <nlohmann/json.hpp>
#include <utility>

#include "answers.h"

namespace opsim::server {

namespace {

using nlohmann::json;
using P = JsonSource::Pointer;

}  // namespace

Result<RouteBody> ReadRouteBody(const JsonSource& body) {
  JsonReader r(body);
  if (auto s = r.OnlyKeys(
          P(), {"mode", "side", "from", "to", "path", "unit", "group", "exploitation", "at"});
      !s) {
    return std::unexpected(s.error());
  }
  RouteBody out;
  query::RouteRequest& rr = out.request;
  auto mode = r.OptString(P(), "mode", "ground");
  if (!mode) return std::unexpected(mode.error());
  if (*mode != "ground" && *mode != "naval") {
    return body.Bad(P("/mode"), "the mode is ground or naval");
  }
  rr.mode = *mode == "naval" ? query::RouteMode::kNaval : query::RouteMode::kGround;
  auto side = OptSide(r);
  if (!side) return std::unexpected(side.error());
  if (*side) rr.side = **side;
  for (const auto& [key, field] : {std::pair{"from", &rr.from}, std::pair{"to", &rr.to},
                                   std::pair{"unit", &rr.unit}, std::pair{"group", &rr.group}}) {
    auto v = OptString(r, key);
    if (!v) return std::unexpected(v.error());
    if (*v) *field = **v;
  }
  if (r.Has(P(), "path")) {
    if (auto s = r.Each(P("/path"),
                        [&](const P& at) -> Status {
                          auto hex = r.String(at);
                          if (!hex) return std::unexpected(hex.error());
                          rr.path += (rr.path.empty() ? "" : ",") + *hex;
                          return {};
                        });
        !s) {
      return std::unexpected(s.error());
    }
  }
  if (rr.path.empty() && (rr.from.empty() || rr.to.empty())) {
    return body.Bad(P(), "give \"from\" and \"to\" (find a route) or \"path\" (check one)");
  }
  auto exploitation = r.OptBool(P(), "exploitation", false);
  if (!exploitation) return std::unexpected(exploitation.error());
  rr.exploitation = *exploitation;
  auto at = OptAt(r);
  if (!at) return std::unexpected(at.error());
  out.at = *at;
  return out;
}

Result<ReachBody> ReadReachBody(const JsonSource& body) {
  JsonReader r(body);
  if (auto s = r.OnlyKeys(
          P(), {"units", "hex", "side", "exploitation", "rail", "to", "max_cost", "at", "in_play"});
      !s) {
    return std::unexpected(s.error());
  }
  ReachBody out;
  query::ReachRequest& rr = out.request;
  if (r.Has(P(), "units")) {
    if (auto s = r.Each(P("/units"),
                        [&](const P& at) -> Status {
                          auto unit = r.String(at);
                          if (!unit) return std::unexpected(unit.error());
                          rr.units.push_back(*unit);
                          return {};
                        });
        !s) {
      return std::unexpected(s.error());
    }
  }
  for (const auto& [key, field] : {std::pair{"hex", &rr.hex}, std::pair{"to", &rr.to}}) {
    auto v = OptString(r, key);
    if (!v) return std::unexpected(v.error());
    if (*v) *field = **v;
  }
  if (rr.units.empty() == rr.hex.empty()) {
    return body.Bad(P(), "give \"units\" (the stack's ids) or \"hex\" (every unit there)");
  }
  auto side = OptSide(r);
  if (!side) return std::unexpected(side.error());
  rr.side = *side;
  for (const auto& [key, field] :
       {std::pair{"exploitation", &rr.exploitation}, std::pair{"rail", &rr.rail}}) {
    auto v = r.OptBool(P(), key, false);
    if (!v) return std::unexpected(v.error());
    *field = *v;
  }
  if (r.Has(P(), "max_cost")) {
    const json& cost = r.At(P("/max_cost"));
    if (!cost.is_number() || cost.get<double>() < 0) {
      return body.Bad(P("/max_cost"), "the cost is a number, 0 or more");
    }
    rr.max_cost = cost.get<double>();
  }
  auto at = OptAt(r);
  if (!at) return std::unexpected(at.error());
  out.at = *at;
  auto in_play = r.OptBool(P(), "in_play", false);
  if (!in_play) return std::unexpected(in_play.error());
  if (*in_play && *at) return body.Bad(P("/in_play"), "the position in play is not at a turn");
  out.in_play = *in_play;
  return out;
}

Result<CheckBody> ReadCheckBody(const JsonSource& body) {
  JsonReader r(body);
  if (auto s = r.OnlyKeys(P(), {"action", "orders", "side", "at"}); !s) {
    return std::unexpected(s.error());
  }
  if (r.Has(P(), "action") == r.Has(P(), "orders")) {
    return body.Bad(P(), "give \"action\" (one order) or \"orders\" (an orders file)");
  }
  CheckBody out;
  auto side = OptSide(r);
  if (!side) return std::unexpected(side.error());
  out.side = *side;
  auto at = OptAt(r);
  if (!at) return std::unexpected(at.error());
  out.at = *at;
  if (r.Has(P(), "orders")) {
    auto orders = Member(body, "orders");
    if (!orders) return std::unexpected(orders.error());
    out.orders.emplace(std::move(*orders));
    return out;
  }
  auto action = r.Object(P("/action"));
  if (!action) return std::unexpected(action.error());
  out.action = (*action)->dump();
  return out;
}

Result<OddsBody> ReadOddsBody(const JsonSource& body) {
  JsonReader r(body);
  if (auto s = r.OnlyKeys(P(), {"orders", "runs", "seed", "at"}); !s) {
    return std::unexpected(s.error());
  }
  for (const char* key : {"orders", "runs"}) {
    if (auto s = r.Require(P(), key); !s) return std::unexpected(s.error());
  }
  query::OddsRequest request;
  auto runs = r.Int(P("/runs"), 1, kMaxServerOddsRuns);
  if (!runs) return std::unexpected(runs.error());
  request.runs = static_cast<std::uint64_t>(*runs);
  if (r.Has(P(), "seed")) {
    auto seed = r.Int(P("/seed"), 0, std::numeric_limits<std::int64_t>::max());
    if (!seed) return std::unexpected(seed.error());
    request.seed = static_cast<std::uint64_t>(*seed);
  }
  auto orders = Member(body, "orders");
  if (!orders) return std::unexpected(orders.error());
  auto at = OptAt(r);
  if (!at) return std::unexpected(at.error());
  return OddsBody{request, std::move(*orders), *at};
}

}  // namespace opsim::server
