#include "opsim/core/bundled.h"

#include <filesystem>

#include "opsim/core/echo.h"

namespace opsim {

Result<std::string> ResolveBundled(std::string_view name_or_path,
                                   const std::vector<BundledFile>& bundled, std::string_view kind) {
  const std::string arg(name_or_path);
  std::error_code ec;
  if (std::filesystem::is_regular_file(arg, ec)) return arg;
  for (const BundledFile& f : bundled) {
    if (f.name == arg) return f.path;
  }
  std::string known;
  for (const BundledFile& f : bundled) known += (known.empty() ? "" : ", ") + f.name;
  const std::string k(kind);
  return Fail(ErrorCode::kNotFound,
              "no " + k + " file or bundled " + k + " named '" + EchoToken(arg) +
                  "' (bundled: " + (known.empty() ? "none" : known) + ")",
              EchoToken(arg));
}

}  // namespace opsim
