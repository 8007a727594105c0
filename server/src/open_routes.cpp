// server/src/open_routes.h: the routes with no game.
#include "open_routes.h"

#include <map>

#include "answers.h"
#include "opsim/core/echo.h"
#include "opsim/core/files.h"
#include "opsim/map/scenario.h"
#include "opsim/map/scenario_layout.h"
#include "opsim/query/scenario.h"
#include "opsim/query/source.h"
#include "opsim/query/tactical.h"

namespace opsim::server {

namespace {

using nlohmann::json;

// What the workshop's answers call the scenario it sent (docs/api.md, "Scenarios").
constexpr const char* kScenarioBodyName = "scenario";

// `opsim tactical boards --json` without each board's "path" (the server's folder).
Response TacticalBoards() {
  auto a = query::AnswerTacticalBoards();
  if (!a) return FromError(a.error());
  for (json& board : a->doc["boards"]) board.erase("path");
  return JsonResponse(200, a->doc);
}

}  // namespace

Response Scenarios() {
  json list = json::array();
  for (const map::BundledScenario& s : map::ListScenarios(query::ScenarioDir())) {
    list.push_back({{"name", s.name}, {"title", s.title}});
  }
  return JsonResponse(200, {{"scenarios", list}});
}

// The tactical module (docs/api.md, "The tactical module"): no game, no token; the CLI's
// `opsim tactical ... --json` answers, from the same libquery calls. A malformed body is 400;
// what the board or the rules refuse 422 (an unknown board 404), with the CLI's message.
Response Tactical(const Request& req, const std::string& what) {
  if (what == "boards") return req.method == "GET" ? TacticalBoards() : WrongMethod(req, "GET");
  static const std::map<std::string, query::TacticalCommand> kCommands = {
      {"los", query::TacticalCommand::kLos},
      {"move", query::TacticalCommand::kMove},
      {"render", query::TacticalCommand::kRender}};
  const auto it = kCommands.find(what);
  if (it == kCommands.end()) return ErrorResponse(404, "not-found", "no such path", req.path);
  if (req.method != "POST") return WrongMethod(req, "POST");
  auto body = Body(req);
  if (!body) return FromError(body.error());
  auto request = query::ParseTacticalRequest(*body, it->second);
  if (!request) return FromError(request.error());
  // What the CLI refuses (its exit 2 or 3) is 422 here: the body was well-formed.
  const auto refused = [](const Error& e) {
    return ErrorResponse(e.code == ErrorCode::kNotFound ? 404 : 422, ErrorCodeName(e.code),
                         e.message, e.where, e.rule);
  };
  auto board = query::OpenTacticalBoard(request->board, request->settings);
  if (!board) return refused(board.error());
  switch (it->second) {
    case query::TacticalCommand::kLos: {
      auto a = query::AnswerTacticalLos(*board, request->los);
      return a ? JsonResponse(200, a->doc) : refused(a.error());
    }
    case query::TacticalCommand::kMove: {
      auto a = query::AnswerTacticalMove(*board, request->move);
      return a ? JsonResponse(200, a->doc) : refused(a.error());
    }
    case query::TacticalCommand::kRender: {
      auto a = query::AnswerTacticalRender(*board, *request);
      if (!a) return refused(a.error());
      json doc = std::move(a->doc);
      doc["svg"] = std::move(a->svg);
      return JsonResponse(200, doc);
    }
  }
  return ErrorResponse(404, "not-found", "no such path", req.path);
}

// GET /api/scenarios/{name}: a bundled scenario's file as it is on disk. The name is one the
// list gives, never a path.
Response ScenarioFile(const Request& req) {
  const std::string prefix = "/api/scenarios/";
  const std::string name = req.path.starts_with(prefix) ? req.path.substr(prefix.size()) : "";
  if (name.empty() || name.find_first_of("/\\.") != std::string::npos) {
    return ErrorResponse(400, "invalid-input",
                         "a scenario is named as GET /api/scenarios lists it, not by a path",
                         EchoToken(name));
  }
  for (const map::BundledScenario& s : map::ListScenarios(query::ScenarioDir())) {
    if (s.name != name) continue;
    auto text = ReadInputFile(s.path, kMaxScenarioBytes);
    if (!text) return FromError(text.error());
    Response r;
    r.body = std::move(*text);
    return r;
  }
  return ErrorResponse(
      404, "not-found",
      "no bundled scenario " + EchoToken(name) + " (GET /api/scenarios lists them)",
      EchoToken(name));
}

// The workshop (docs/api.md, "Scenarios (the workshop)"): no game, no token. check's and
// format's body is a scenario file's text: check answers 200 whether the scenario loads or not
// (as `opsim scenario check --json`); format needs only a JSON object. panels' body is the
// sheets' windows, its answer each one's panel (query::SheetPanels).
Response Workshop(const Request& req, const std::string& what) {
  if (what != "check" && what != "format" && what != "panels") {
    return ErrorResponse(404, "not-found", "no such path", req.path);
  }
  if (req.method != "POST") return WrongMethod(req, "POST");
  if (what == "panels") {
    auto body = Body(req);
    auto panels =
        body ? query::AnswerSheetPanels(*body) : Result<json>(std::unexpected(body.error()));
    return panels ? JsonResponse(200, *panels) : FromError(panels.error());
  }
  if (what == "check") {
    return JsonResponse(200, query::CheckScenarioText(req.body, kScenarioBodyName).doc);
  }
  auto src = JsonSource::FromText(req.body, kScenarioBodyName);
  auto text = src ? map::FormatScenario(*src) : Result<std::string>(std::unexpected(src.error()));
  if (!text) {
    return JsonResponse(
        400,
        {{"error", query::LocatedError(text.error(), src ? &*src : nullptr, kScenarioBodyName)}});
  }
  return JsonResponse(200, {{"text", std::move(*text)}});
}

}  // namespace opsim::server
