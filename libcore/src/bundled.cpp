#include "opsim/core/bundled.h"

#include <filesystem>

#include "opsim/core/echo.h"

namespace opsim {

namespace {

// The bundled file named `name`; else kNotFound naming every bundled name (and, when `files`,
// that no file of that name exists either).
Result<std::string> Find(const std::string& name, const std::vector<BundledFile>& bundled,
                         std::string_view kind, bool files) {
  for (const BundledFile& f : bundled) {
    if (f.name == name) return f.path;
  }
  std::string known;
  for (const BundledFile& f : bundled) known += (known.empty() ? "" : ", ") + f.name;
  const std::string k(kind);
  return Fail(ErrorCode::kNotFound,
              "no " + (files ? k + " file or " : std::string()) + "bundled " + k + " named '" +
                  EchoToken(name) + "' (bundled: " + (known.empty() ? "none" : known) + ")",
              EchoToken(name));
}

}  // namespace

Result<std::string> ResolveBundled(std::string_view name_or_path,
                                   const std::vector<BundledFile>& bundled, std::string_view kind) {
  const std::string arg(name_or_path);
  std::error_code ec;
  if (std::filesystem::is_regular_file(arg, ec)) return arg;
  return Find(arg, bundled, kind, true);
}

Result<std::string> FindBundled(std::string_view name, const std::vector<BundledFile>& bundled,
                                std::string_view kind) {
  return Find(std::string(name), bundled, kind, false);
}

}  // namespace opsim
