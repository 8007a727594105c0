// Writing output files so that a reader never sees half of one.
#pragma once

#include <string>
#include <string_view>

#include "opsim/core/error.h"

namespace opsim {

// Writes `contents` to a temporary file beside `path`, flushes it, then renames it over `path`.
// On any failure `path` is left as it was and the temporary file is removed.
Status WriteFileAtomically(const std::string& path, std::string_view contents);

}  // namespace opsim
