#include "opsim/core/hex.h"

#include <cstdlib>

#include "opsim/core/echo.h"

namespace opsim::map {

namespace {

constexpr std::array<const char*, kDirCount> kDirNames = {"N", "NE", "SE", "S", "SW", "NW"};

bool IsSheetChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

std::unexpected<Error> BadHex(std::string_view token, std::string_view why) {
  return Fail(ErrorCode::kInvalidInput,
              "bad hex '" + EchoToken(token) + "': " + std::string(why) +
                  " (a hex is written SHEET:XXYY, e.g. 16A:0827)",
              EchoToken(token));
}

}  // namespace

const char* DirName(Dir d) {
  return kDirNames[static_cast<int>(d)];
}

std::optional<Dir> ParseDir(std::string_view name) {
  for (Dir d : kAllDirs) {
    if (name == DirName(d)) return d;
  }
  return std::nullopt;
}

GridPos Neighbor(GridPos p, Dir d) {
  const bool even = (p.col & 1) == 0;
  switch (d) {
    case Dir::kN:
      return {p.col, p.row - 1};
    case Dir::kS:
      return {p.col, p.row + 1};
    case Dir::kNE:
      return {p.col + 1, even ? p.row : p.row - 1};
    case Dir::kSE:
      return {p.col + 1, even ? p.row + 1 : p.row};
    case Dir::kSW:
      return {p.col - 1, even ? p.row + 1 : p.row};
    case Dir::kNW:
      return {p.col - 1, even ? p.row : p.row - 1};
  }
  return p;
}

std::optional<Dir> DirectionTo(GridPos a, GridPos b) {
  for (Dir d : kAllDirs) {
    if (Neighbor(a, d) == b) return d;
  }
  return std::nullopt;
}

int Distance(GridPos a, GridPos b) {
  // Convert "even columns low" offset coordinates to cube coordinates.
  auto cube = [](GridPos p, int& x, int& y, int& z) {
    x = p.col;
    z = p.row - (p.col + (p.col & 1)) / 2;
    y = -x - z;
  };
  int ax, ay, az, bx, by, bz;
  cube(a, ax, ay, az);
  cube(b, bx, by, bz);
  return (std::abs(ax - bx) + std::abs(ay - by) + std::abs(az - bz)) / 2;
}

Result<HexName> ParseHexName(std::string_view token, std::string_view default_sheet) {
  if (token.empty()) return BadHex(token, "empty");
  std::string_view sheet = default_sheet;
  std::string_view digits = token;
  if (auto colon = token.find(':'); colon != std::string_view::npos) {
    sheet = token.substr(0, colon);
    digits = token.substr(colon + 1);
    if (sheet.empty()) return BadHex(token, "no sheet before ':'");
    for (char c : sheet) {
      if (!IsSheetChar(c)) return BadHex(token, "the sheet may hold only letters and digits");
    }
  } else if (sheet.empty()) {
    return BadHex(token, "no sheet");
  }
  if (digits.size() != 4) return BadHex(token, "XXYY must be exactly four digits");
  for (char c : digits) {
    if (c < '0' || c > '9') return BadHex(token, "XXYY must be exactly four digits");
  }
  HexName h;
  h.sheet = std::string(sheet);
  h.col = (digits[0] - '0') * 10 + (digits[1] - '0');
  h.row = (digits[2] - '0') * 10 + (digits[3] - '0');
  return h;
}

std::string FormatHexName(std::string_view sheet, int col, int row) {
  std::string out(sheet);
  out += ':';
  out += static_cast<char>('0' + col / 10 % 10);
  out += static_cast<char>('0' + col % 10);
  out += static_cast<char>('0' + row / 10 % 10);
  out += static_cast<char>('0' + row % 10);
  return out;
}

Result<std::array<HexName, 2>> ParseHexsideName(std::string_view token) {
  auto slash = token.find('/');
  if (slash == std::string_view::npos || token.find('/', slash + 1) != std::string_view::npos) {
    return Fail(ErrorCode::kInvalidInput,
                "bad hexside '" + EchoToken(token) +
                    "': a hexside is written SHEET:XXYY/XXYY, e.g. 16A:0827/0727",
                EchoToken(token));
  }
  auto a = ParseHexName(token.substr(0, slash));
  if (!a) return std::unexpected(a.error());
  auto b = ParseHexName(token.substr(slash + 1), a->sheet);
  if (!b) return std::unexpected(b.error());
  return std::array<HexName, 2>{*a, *b};
}

}  // namespace opsim::map
