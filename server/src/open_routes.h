// The game API's routes that need no game and no token (docs/api.md): the bundled scenarios'
// list and files, the workshop's check and format of a scenario and its sheets' panels, and the
// tactical module.
// Each answers what the CLI's --json prints for the same question, from the same libquery call.
//
// It promises: no route here reads or writes a game, or any file but the bundled scenarios' and
// boards' (a scenario is named as the list names it, never by a path); a malformed body is 400,
// what the board or the rules refuse 422 (an unknown board or scenario 404).
#pragma once

#include <string>

#include "opsim/server/api.h"

namespace opsim::server {

// GET /api/scenarios: the bundled scenarios' names and titles.
Response Scenarios();
// GET /api/scenarios/{name}: a bundled scenario's file as it is on disk.
Response ScenarioFile(const Request& req);
// POST /api/scenario/{check|format|panels}: the workshop's.
Response Workshop(const Request& req, const std::string& what);
// /api/tactical/{boards|los|move|render}.
Response Tactical(const Request& req, const std::string& what);

}  // namespace opsim::server
