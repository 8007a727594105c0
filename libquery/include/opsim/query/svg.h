// What the SVG drawings share (`render`, the theater; `tactical render`, a tactical board): the
// palette the browser uses too (web/palette.json), text escaped for XML, and the kind of file an
// SVG `--out` may replace (docs/output-files.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "opsim/core/files.h"

namespace opsim::query {

// web/palette.json, parsed once.
const nlohmann::json& Palette();
// The palette's "style" colour `key` ("ink", "alert", "path").
std::string StyleColor(const char* key);
// `s` with &, <, > and " escaped, for a text node or an attribute.
std::string Escape(std::string_view s);
// An SVG drawing: what `--out` of a drawing command replaces without --force.
const OutputKind& SvgFile();

}  // namespace opsim::query
