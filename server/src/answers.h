// What every route of the game API shares: reading a request (its query, its body's members,
// with errors located as the CLI locates a file's) and writing its answer (a JSON body; an error
// as {"error": {"code", "message", "where", "rule"}}, its HTTP status from its code).
//
// It promises: nothing here throws; a value out of range or of the wrong type is kInvalidInput
// naming where it was ("?at", "request body: /side"); an answer's JSON is always sent, bytes that
// are not UTF-8 as U+FFFD.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"
#include "opsim/query/view.h"
#include "opsim/server/api.h"

namespace opsim::server {

// The largest player-turn or step number a query takes (?at, ?turn, ?step, "at").
constexpr std::int64_t kMaxAt = 1'000'000;
// What errors call a request's body.
constexpr const char* kBodyName = "request body";

// --- answers ---
Response JsonResponse(int status, const nlohmann::json& doc);
Response ErrorResponse(int status, std::string_view code, const std::string& message,
                       const std::string& where = {}, const std::string& rule = {});
// 400 for bad input or a newer format, 404, 422 for what the rules refuse, 409 for the wrong
// player-turn, 503 busy, else 500.
int StatusFor(ErrorCode code);
Response FromError(const Error& e);
// 405 naming the methods allowed.
Response WrongMethod(const Request& req, const char* allowed);

// --- the query ---
// The query's values for `name`, in order; the last one.
std::vector<std::string> QueryAll(const Request& req, std::string_view name);
std::optional<std::string> QueryOne(const Request& req, std::string_view name);
// A whole number in [lo, hi], absent if not given.
Result<std::optional<std::int32_t>> QueryInt(const Request& req, std::string_view name,
                                             std::int64_t lo, std::int64_t hi);
Result<Side> SideIn(std::string_view text, const std::string& where);
// A position query's ?supply and ?zoc, each side once, in one order: a query naming a side a
// thousand times costs one supply trace, and shares the cached answer of naming it once.
Result<query::PositionOptions> PositionOptionsIn(const Request& req);

// --- the body ---
// The workshop's endpoints, whose bodies are scenarios (docs/api.md, "Scenarios").
bool IsWorkshopPath(std::string_view path);
// A request body's JSON object, with the CLI's file-style errors.
Result<JsonSource> Body(const Request& req);
// An optional member of the body, typed, with located errors.
Result<std::optional<std::string>> OptString(const JsonReader& r, const std::string& key);
Result<std::optional<Side>> OptSide(const JsonReader& r);
Result<std::optional<std::int32_t>> OptAt(const JsonReader& r);
// A member that is a JSON object, as its own source (named after the body and the member).
Result<JsonSource> Member(const JsonSource& body, const std::string& key);

}  // namespace opsim::server
