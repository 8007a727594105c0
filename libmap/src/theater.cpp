#include "opsim/map/theater.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "opsim/core/echo.h"

namespace opsim::map {

namespace {

// Edits (insertions, deletions, substitutions) from `a` to `b`.
std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// What an unknown sheet name is told: every sheet of a small theater; of a big one (a generated
// theater has up to 250), how many and the ten names nearest the one asked for.
std::string KnownSheets(const std::vector<Sheet>& sheets, std::string_view asked) {
  constexpr std::size_t kListed = 10;
  std::vector<std::pair<std::size_t, std::size_t>> order;  // (edits, index)
  for (std::size_t i = 0; i < sheets.size(); ++i) {
    // A sheet name is a few letters: a longer one asked for is cut, not compared whole.
    order.emplace_back(
        sheets.size() <= kListed ? 0 : EditDistance(asked.substr(0, 16), sheets[i].name), i);
  }
  std::stable_sort(order.begin(), order.end());
  std::string text = sheets.size() <= kListed
                         ? ""
                         : std::to_string(sheets.size()) + " sheets; the nearest names: ";
  for (std::size_t k = 0; k < order.size() && k < kListed; ++k) {
    text += (k ? ", " : "") + sheets[order[k].second].name;
  }
  return text;
}

}  // namespace

HexRef Sheet::At(int col, int row) const {
  if (col < first_col || col > last_col || row < first_row || row > last_row) return {};
  const int width = last_col - first_col + 1;
  return HexRef{cells[(col - first_col) + (row - first_row) * width]};
}

HexRef Theater::NeighborAt(HexRef h, Dir d) const {
  HexsideRef s = HexsideAt(h, d);
  if (!s.valid()) return {};
  return hexsides_[s.v].Other(h);
}

HexsideRef Theater::HexsideBetween(HexRef a, HexRef b) const {
  for (Dir d : kAllDirs) {
    HexsideRef s = HexsideAt(a, d);
    if (s.valid() && hexsides_[s.v].Other(a) == b) return s;
  }
  return {};
}

Dir Theater::DirFrom(HexsideRef s, HexRef h) const {
  const HexsideInfo& info = hexsides_[s.v];
  return h == info.a ? info.dir_from_a : Opposite(info.dir_from_a);
}

GridPos Theater::Pos(HexRef h) const {
  const HexInfo& info = hexes_[h.v];
  const Sheet& sheet = sheets_[info.sheet];
  return {sheet.origin.col + info.col, sheet.origin.row + info.row};
}

HexRef Theater::AtPos(GridPos p) const {
  for (const Sheet& sheet : sheets_) {
    HexRef h = sheet.At(p.col - sheet.origin.col, p.row - sheet.origin.row);
    if (h.valid()) return h;
  }
  return {};
}

Result<HexRef> Theater::FindHex(std::string_view token, std::string_view default_sheet) const {
  auto name = ParseHexName(token, default_sheet);
  if (!name) return std::unexpected(name.error());
  const std::string where = EchoToken(token);
  for (const Sheet& sheet : sheets_) {
    if (sheet.name != name->sheet) continue;
    if (name->col < 1 || name->col > sheet.cols || name->row < 1 || name->row > sheet.rows) {
      return Fail(ErrorCode::kNotFound,
                  "hex " + FormatHexName(*name) + " is off map sheet " + sheet.name +
                      ", which runs " + FormatHexName(sheet.name, 1, 1) + " to " +
                      FormatHexName(sheet.name, sheet.cols, sheet.rows),
                  where);
    }
    HexRef h = sheet.At(name->col, name->row);
    if (!h.valid()) {
      return Fail(ErrorCode::kNotFound,
                  "hex " + FormatHexName(*name) + " is not on the theater '" + name_ + "'", where);
    }
    return h;
  }
  return Fail(ErrorCode::kNotFound,
              "unknown map sheet '" + EchoToken(name->sheet) + "' (this theater has " +
                  KnownSheets(sheets_, name->sheet) + ")",
              where);
}

Result<HexsideRef> Theater::FindHexside(std::string_view token) const {
  auto names = ParseHexsideName(token);
  if (!names) return std::unexpected(names.error());
  auto a = FindHex(FormatHexName((*names)[0]));
  if (!a) return std::unexpected(Error{a.error().code, a.error().message, std::string(token), {}});
  auto b = FindHex(FormatHexName((*names)[1]));
  if (!b) return std::unexpected(Error{b.error().code, b.error().message, std::string(token), {}});
  HexsideRef s = HexsideBetween(*a, *b);
  if (!s.valid()) {
    return Fail(ErrorCode::kInvalidInput,
                "hexes " + HexName(*a) + " and " + HexName(*b) +
                    " are not adjacent, so they share no hexside",
                std::string(token));
  }
  return s;
}

std::string Theater::HexName(HexRef h) const {
  const HexInfo& info = hexes_[h.v];
  return FormatHexName(sheets_[info.sheet].name, info.col, info.row);
}

std::string Theater::HexsideName(HexsideRef s) const {
  const HexsideInfo& info = hexsides_[s.v];
  const HexInfo& a = hexes_[info.a.v];
  const HexInfo& b = hexes_[info.b.v];
  std::string out = HexName(info.a) + "/";
  if (a.sheet == b.sheet) {
    out += HexName(info.b).substr(sheets_[b.sheet].name.size() + 1);
  } else {
    out += HexName(info.b);
  }
  return out;
}

int Theater::AreaWithRole(AreaRole role) const {
  for (std::size_t i = 0; i < areas_.size(); ++i) {
    if (areas_[i].role == role) return static_cast<int>(i);
  }
  return -1;
}

bool Theater::InRole(HexRef h, AreaRole role) const {
  for (std::size_t i = 0; i < areas_.size(); ++i) {
    if (areas_[i].role == role && InArea(h, i)) return true;
  }
  return false;
}

std::string_view Theater::PlaceName(HexRef h) const {
  auto it = std::lower_bound(places_.begin(), places_.end(), h,
                             [](const Place& p, HexRef x) { return p.hex < x; });
  if (it == places_.end() || it->hex != h) return {};
  return it->name;
}

std::vector<std::size_t> Theater::RailFerriesAt(HexRef h) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < rail_ferries_.size(); ++i) {
    if (rail_ferries_[i].from() == h || rail_ferries_[i].to() == h) out.push_back(i);
  }
  return out;
}

std::span<const WaterArea> Theater::WaterAreasOf(HexRef h) const {
  return std::span<const WaterArea>(water_areas_.data() + area_first_[h.v],
                                    area_first_[h.v + 1] - area_first_[h.v]);
}

std::optional<std::uint32_t> Theater::RiverNode(HexsideRef s) const {
  auto it = std::lower_bound(river_sides_.begin(), river_sides_.end(), s);
  if (it == river_sides_.end() || *it != s) return std::nullopt;
  return static_cast<std::uint32_t>(water_areas_.size() + (it - river_sides_.begin()));
}

}  // namespace opsim::map
