#include "opsim/tactical/coordinate.h"

#include <algorithm>
#include <cctype>

#include "opsim/core/enum_names.h"
#include "text.h"

namespace opsim::tactical {

namespace {

constexpr std::array<const char*, 6> kRoleNames = {"board", "overlay",  "beach",
                                                   "ocean", "effluent", "island"};

static_assert(kRoleNames.size() == static_cast<std::size_t>(GridRole::kIsland) + 1,
              "a name for each value");

}  // namespace

const char* GridRoleName(GridRole r) {
  return kRoleNames[static_cast<int>(r)];
}

std::optional<GridRole> ParseGridRole(std::string_view name) {
  return LookupName<GridRole>(kRoleNames, name);
}

std::string ColumnLetters(int index) {
  return std::string(static_cast<std::size_t>(index / 26 + 1), static_cast<char>('A' + index % 26));
}

std::optional<int> ColumnIndex(std::string_view letters) {
  if (letters.empty() || letters[0] < 'A' || letters[0] > 'Z') return std::nullopt;
  for (char c : letters) {
    if (c != letters[0]) return std::nullopt;
  }
  return static_cast<int>(letters.size() - 1) * 26 + (letters[0] - 'A');
}

CoordinateGrid CoordinateGrid::Lettered(std::string name, GridRole role, std::string prefix,
                                        int first_col, int last_col, int first_row, int last_row) {
  CoordinateGrid g;
  g.name_ = std::move(name);
  g.role_ = role;
  g.lettered_ = true;
  g.prefix_ = std::move(prefix);
  g.col_lo_ = first_col + 1;
  g.col_hi_ = last_col + 1;
  g.row_lo_ = first_row;
  g.row_hi_ = last_row;
  return g;
}

CoordinateGrid CoordinateGrid::Numbered(std::string name, GridRole role, int first, int per_row,
                                        int rows, int digits) {
  CoordinateGrid g;
  g.name_ = std::move(name);
  g.role_ = role;
  g.lettered_ = false;
  g.first_ = first;
  g.per_row_ = per_row;
  g.digits_ = digits;
  g.col_lo_ = 1;
  g.col_hi_ = per_row;
  g.row_lo_ = 0;
  g.row_hi_ = rows - 1;
  return g;
}

void CoordinateGrid::Place(GridPos local, GridPos global, int sixths) {
  sixths_ = sixths;
  origin_ = ToCube(global) - Rotate(ToCube(local), sixths);
}

std::optional<GridPos> CoordinateGrid::Parse(std::string_view token) const {
  if (!lettered_) {
    if (token.size() != static_cast<std::size_t>(digits_) || !AllDigits(token)) {
      return std::nullopt;
    }
    const int n = std::stoi(std::string(token));
    if (n < first_) return std::nullopt;
    return GridPos{(n - first_) % per_row_ + 1, (n - first_) / per_row_};
  }
  if (token.substr(0, prefix_.size()) != prefix_) return std::nullopt;
  token.remove_prefix(prefix_.size());
  std::size_t n = 0;
  while (n < token.size() && token[n] >= 'A' && token[n] <= 'Z') ++n;
  const auto col = ColumnIndex(token.substr(0, n));
  const std::string_view row = token.substr(n);
  if (!col || !AllDigits(row) || row.size() > 3) return std::nullopt;
  return GridPos{*col + 1, std::stoi(std::string(row))};
}

std::string CoordinateGrid::Name(GridPos local) const {
  if (lettered_) return prefix_ + ColumnLetters(local.col - 1) + std::to_string(local.row);
  std::string n = std::to_string(first_ + local.row * per_row_ + (local.col - 1));
  if (n.size() < static_cast<std::size_t>(digits_)) {
    n.insert(0, static_cast<std::size_t>(digits_) - n.size(), '0');
  }
  return n;
}

bool CoordinateGrid::Contains(GridPos local) const {
  return local.col >= col_lo_ && local.col <= col_hi_ && local.row >= row_lo_ &&
         local.row <= row_hi_ &&
         std::find(omitted_.begin(), omitted_.end(), local) == omitted_.end();
}

GridPos CoordinateGrid::ToGlobal(GridPos local) const {
  return FromCube(Rotate(ToCube(local), sixths_) + origin_);
}

GridPos CoordinateGrid::ToLocal(GridPos global) const {
  return FromCube(Rotate(ToCube(global) - origin_, -sixths_));
}

}  // namespace opsim::tactical
