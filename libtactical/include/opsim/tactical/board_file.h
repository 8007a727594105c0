// Board files: a tactical board as JSON (format "opsim-tactical-board", version 1).
//
// The format is documented in docs/tactical.md. Loading is all or nothing: the first problem
// found is returned as one Error naming the file, the line and JSON path, and what is wrong, and
// no Board is produced. Structural rules are checked here (one Panji counter per hex, G9.1; a
// hexside joins adjacent hexes; every named hex exists and is not covered by an overlay, G13.1;
// at most kMaxGrids grids spanning kMaxBoardCells hex positions, board.h);
// whether a set-up is legal under the scenario's settings (which the CLI may override) is
// checked after loading by CheckBeachSetup, CheckPaddySetup and CheckPanjiBoardSetup (beach.h,
// paddy.h, panji.h). Thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "opsim/core/bundled.h"
#include "opsim/core/error.h"
#include "opsim/tactical/board.h"

namespace opsim::tactical {

inline constexpr const char* kBoardFormat = "opsim-tactical-board";
inline constexpr int kBoardVersion = 1;

Result<Board> LoadBoard(const std::string& path);
// A board file's text (an upload: docs/api.md), read as LoadBoard reads the file; `name` stands
// in for the file name in errors.
Result<Board> ParseBoard(std::string text, std::string name);

// The boards shipped in `dir` (*.json files whose "format" is kBoardFormat), sorted by name: a
// board's name is its file's stem ("g8_2108"), its title the file's "name".
std::vector<BundledFile> ListBoards(const std::string& dir);
// `--board` takes a board file's path or a bundled board's name (ResolveBundled).
Result<std::string> ResolveBoard(std::string_view name_or_path, const std::string& dir);

}  // namespace opsim::tactical
