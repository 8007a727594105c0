// Writing output files so that a reader never sees half of one.
#pragma once

#include <string>
#include <string_view>

#include "opsim/core/error.h"

namespace opsim {

// Writes `contents` to a temporary file beside `path`, flushes it, then renames it over `path`.
// On any failure `path` is left as it was and the temporary file is removed.
Status WriteFileAtomically(const std::string& path, std::string_view contents);

// Creates `path` readable and writable by its owner alone (0600) and writes `contents`, for a
// secret. Refuses (kInvalidInput) if `path` exists, even as a symbolic link: a secret is never
// overwritten, nor written through a link. A failed write removes the file.
Status CreatePrivateFile(const std::string& path, std::string_view contents);

}  // namespace opsim
