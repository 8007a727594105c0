// web/palette.json, embedded at build time: the colours and counter symbols that `opsim render`
// and the browser (web/js/style.js) share, so that a printed position and the table agree.
#pragma once

namespace opsim::query {
extern const char* const kPaletteJson;
}  // namespace opsim::query
