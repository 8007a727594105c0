// `opsim scenario check|stats` and the workshop's /api/scenario/check (docs/scenario-format.md,
// docs/api.md): a scenario file checked exactly as `opsim new` and `opsim map` load it (the same
// LoadScenarioSource: the theater, then the campaign), its error located for an editor to show
// (the line, the JSON pointer, and the hex or hexside it is about), and what it holds counted.
//
// It promises: no input crashes it or throws; an answer is the same for a file and for the same
// text sent as a request body, apart from the name in "where". The layout (`format`) is libmap's
// (opsim/map/scenario_layout.h). Pure functions, safe on any thread.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"
#include "opsim/query/source.h"

namespace opsim::query {

struct ScenarioCheck {
  std::optional<Error> error;  // none: the scenario loads (theater and campaign)
  // {"ok": true, "stats": ScenarioStats} or {"ok": false, "error": LocatedError}
  nlohmann::json doc;
};

// `text` (a scenario file's; `name` stands for the file in errors) checked.
ScenarioCheck CheckScenarioText(std::string text, const std::string& name);
// The file at `path` read (within the scenario size limit) and checked; an unreadable file is
// an error like any other.
ScenarioCheck CheckScenarioFile(const std::string& path);

// The error's JSON: code, message, where, rule, and where it is for an editor: "line" (1-based),
// "path" (the JSON pointer, "" for the whole file) and "hex" or "hexside" (the token the error
// is about: a unit's or a place's hex, a hexside token, a terrain grid cell's hex worked out
// from its sheet, row and column); each null when unknown. `src` is the document the error is
// in, if it parsed.
nlohmann::json LocatedError(const Error& e, const JsonSource* src, const std::string& name);

// The workshop's /api/scenario/panels (docs/api.md): `body` is {"sheets": [{"name", "origin",
// "first", "last"}, ...]}, a theater's sheets as TheaterJson gives them (docs/views.md) without
// their panels: 1 to map::kMaxSheets of them, each a name and integer pairs (an origin from 0 to
// map::kMaxOrigin, a window's ends within that of 0 either way, `last` not before `first`), so
// that a scenario that does not load yet still has its panels. The answer is {"panels": [...]},
// each sheet's SheetPanels number in the order sent; a malformed body is kInvalidInput located at
// its value.
Result<nlohmann::json> AnswerSheetPanels(const JsonSource& body);

// What a loaded scenario holds: sheets, hexes (land, sea, lake), hexsides by feature and by
// water, places by kind, areas, waterways, rail ferries, exits, and units by side and kind
// (with a campaign).
nlohmann::json ScenarioStats(const LoadedGame& g);

}  // namespace opsim::query
