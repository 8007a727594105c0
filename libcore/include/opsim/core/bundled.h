// Bundled files found by name: the scenarios and tactical boards opsim ships, so that
// `--scenario special-terrain` and `--board g8_2108` need no path.
//
// What makes a file one of a kind (a scenario, a board) and what its name is belong to the
// loader of that kind (map::ListScenarios, tactical::ListBoards); this is how a name or a path
// given on the command line is turned into a file, the one home of that rule. Thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "opsim/core/error.h"

namespace opsim {

struct BundledFile {
  std::string name;   // what a user types: "special-terrain", "g8_2108"
  std::string title;  // what it is
  std::string path;
};

// `name_or_path` as a user gave it: an existing regular file is itself; otherwise the bundled
// file of that name. Neither is kNotFound (exit 2), naming `kind` ("scenario", "board") and every
// bundled name: "no board file or bundled board named 'x' (bundled: g13_23, g8_2108)".
Result<std::string> ResolveBundled(std::string_view name_or_path,
                                   const std::vector<BundledFile>& bundled, std::string_view kind);
// The bundled file named `name`, never a file of that path (a server is given names only):
// "no bundled board named 'x' (bundled: g13_23, g8_2108)", kNotFound.
Result<std::string> FindBundled(std::string_view name, const std::vector<BundledFile>& bundled,
                                std::string_view kind);

}  // namespace opsim
