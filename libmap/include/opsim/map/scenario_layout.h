// The scenario file's layout for humans: what `opsim scenario format` writes and the workshop
// saves (docs/scenario-format.md, "Layout").
//
// It promises: the text reads back to the same JSON values, key order kept, except that runs of
// consecutive `road` and `railroad` hexsides that form a hex-to-hex path are written as one chain
// (`16A:0420-0520-0620`), which names the same hexsides (both lists are sets of features), so
// the file loads to the same theater and state; the same input always gives the same bytes, and
// formatting a formatted file changes nothing. It needs only a JSON object: a scenario with rule
// errors (a work in progress) is laid out too, its tokens kept as they are where they do not
// parse. Pure functions, safe on any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/core/json_source.h"

namespace opsim::map {

// Lines are kept to this many columns where the values allow.
inline constexpr std::size_t kLayoutWidth = 100;

// The laid-out text of `src` (a JSON object), ending in a newline; kInvalidInput, located at
// its first character, when it is not an object.
Result<std::string> FormatScenario(const JsonSource& src);

// A road or railroad list's tokens with its runs of hexsides joined into chains, other tokens
// kept: "16A:0420/0520", "16A:0520/0620" become "16A:0420-0520-0620". A chain drops each hex's
// sheet where it is the previous hex's ("16A:0420-16A:0520" is "16A:0420-0520"); a lone hexside
// that joins nothing stays as written.
std::vector<std::string> ChainHexsides(const std::vector<std::string>& tokens);

}  // namespace opsim::map
