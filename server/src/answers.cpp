// server/src/answers.h: reading a request and writing its answer, for every route.
#include "answers.h"

#include <charconv>

#include "opsim/core/error_json.h"

namespace opsim::server {

namespace {
using nlohmann::json;
using P = JsonSource::Pointer;
}  // namespace

Response JsonResponse(int status, const json& doc) {
  Response r;
  r.status = status;
  // Errors echo the request's path, ids and hexes, which may be any bytes: what is not UTF-8
  // is sent as U+FFFD (dump would throw).
  r.body = doc.dump(-1, ' ', false, json::error_handler_t::replace);
  return r;
}

Response ErrorResponse(int status, std::string_view code, const std::string& message,
                       const std::string& where, const std::string& rule) {
  return JsonResponse(status, {{"error", ErrorJson(code, message, where, rule)}});
}

int StatusFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidInput:
    case ErrorCode::kUnsupported:  // a body (or a log) of a newer format than this server reads
      return 400;
    case ErrorCode::kNotFound:
      return 404;
    case ErrorCode::kRuleViolation:
      return 422;
    case ErrorCode::kWrongTurn:
      return 409;
    case ErrorCode::kBusy:
      return 503;
    default:
      return 500;
  }
}

Response FromError(const Error& e) {
  return JsonResponse(StatusFor(e.code), {{"error", ErrorJson(e)}});
}

std::vector<std::string> QueryAll(const Request& req, std::string_view name) {
  std::vector<std::string> out;
  for (const auto& [k, v] : req.query) {
    if (k == name) out.push_back(v);
  }
  return out;
}
std::optional<std::string> QueryOne(const Request& req, std::string_view name) {
  auto all = QueryAll(req, name);
  if (all.empty()) return std::nullopt;
  return all.back();
}

Result<std::optional<std::int32_t>> QueryInt(const Request& req, std::string_view name,
                                             std::int64_t lo, std::int64_t hi) {
  auto text = QueryOne(req, name);
  if (!text) return std::optional<std::int32_t>();
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || end != text->data() + text->size() || v < lo || v > hi) {
    return Fail(ErrorCode::kInvalidInput,
                "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi),
                "?" + std::string(name));
  }
  return std::optional<std::int32_t>(static_cast<std::int32_t>(v));
}

Result<Side> SideIn(std::string_view text, const std::string& where) {
  auto side = ParseSide(text);
  if (!side) return Fail(ErrorCode::kInvalidInput, "the side is axis or allied", where);
  return *side;
}

Result<query::PositionOptions> PositionOptionsIn(const Request& req) {
  query::PositionOptions options;
  for (const auto& [key, sides] :
       {std::pair{"supply", &options.supply}, std::pair{"zoc", &options.zoc}}) {
    bool asked[2] = {false, false};
    for (const std::string& text : QueryAll(req, key)) {
      auto side = SideIn(text, "?" + std::string(key));
      if (!side) return std::unexpected(side.error());
      asked[*side == Side::kAxis ? 0 : 1] = true;
    }
    if (asked[0]) sides->push_back(Side::kAxis);
    if (asked[1]) sides->push_back(Side::kAllied);
  }
  return options;
}

bool IsWorkshopPath(std::string_view path) {
  return path.starts_with("/api/scenario/");
}

Result<JsonSource> Body(const Request& req) {
  auto src = JsonSource::FromText(req.body, kBodyName);
  if (!src) return src;
  if (!src->doc().is_object()) return src->Bad(P(), "the body is one JSON object");
  return src;
}

Result<std::optional<std::string>> OptString(const JsonReader& r, const std::string& key) {
  if (!r.Has(P(), key)) return std::optional<std::string>();
  auto v = r.String(P("/" + key));
  if (!v) return std::unexpected(v.error());
  return std::optional<std::string>(*v);
}
Result<std::optional<Side>> OptSide(const JsonReader& r) {
  auto text = OptString(r, "side");
  if (!text) return std::unexpected(text.error());
  if (!*text) return std::optional<Side>();
  auto side = ParseSide(**text);
  if (!side) return r.src().Bad(P("/side"), "the side is axis or allied");
  return std::optional<Side>(*side);
}
Result<std::optional<std::int32_t>> OptAt(const JsonReader& r) {
  if (!r.Has(P(), "at")) return std::optional<std::int32_t>();
  auto v = r.Int(P("/at"), 0, kMaxAt);
  if (!v) return std::unexpected(v.error());
  return std::optional<std::int32_t>(static_cast<std::int32_t>(*v));
}
Result<JsonSource> Member(const JsonSource& body, const std::string& key) {
  JsonReader r(body);
  auto obj = r.Object(P("/" + key));
  if (!obj) return std::unexpected(obj.error());
  return JsonSource::FromText((*obj)->dump(2), std::string(kBodyName) + " /" + key);
}

Response WrongMethod(const Request& req, const char* allowed) {
  return ErrorResponse(405, "method-not-allowed", std::string("allowed: ") + allowed,
                       req.method + " " + req.path);
}

}  // namespace opsim::server
