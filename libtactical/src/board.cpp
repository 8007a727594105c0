#include "opsim/tactical/board.h"

#include <algorithm>

#include "opsim/core/echo.h"
#include "opsim/core/enum_names.h"
#include "opsim/core/rule_ids.h"
#include "text.h"

namespace opsim::tactical {

namespace {

constexpr std::array kCounters = {
    "wire",  "mines", "roadblock", "trench", "foxhole",        "shellholes", "blaze",
    "smoke", "wreck", "afv",       "rubble", "beach-obstacle", "tunnel",     "trip-flare"};

static_assert(kCounters.size() == static_cast<std::size_t>(CounterType::kCount),
              "a name for every counter");

std::unexpected<Error> BadHex(std::string_view token, const std::string& why,
                              std::string rule = {}) {
  return Fail(ErrorCode::kInvalidInput, "hex '" + EchoToken(token) + "': " + why, EchoToken(token),
              std::move(rule));
}

}  // namespace

const char* Name(CounterType t) {
  return kCounters[static_cast<std::size_t>(t)];
}
bool IsFortification(CounterType t) {
  switch (t) {
    case CounterType::kWire:
    case CounterType::kMines:
    case CounterType::kRoadblock:
    case CounterType::kTrench:
    case CounterType::kFoxhole:
    case CounterType::kTunnel:
    case CounterType::kBeachObstacle:
      return true;
    default:
      return false;
  }
}
std::optional<CounterType> ParseCounterType(std::string_view s) {
  return LookupName<CounterType>(kCounters, s);
}
std::string CounterTypeNames() {
  return JoinNames(kCounters) + "|panji|pier";
}

bool Hex::Has(CounterType t) const {
  return std::find(counters.begin(), counters.end(), t) != counters.end();
}

void Board::SetIdentity(std::string name, std::string file, Ruleset ruleset) {
  name_ = std::move(name);
  file_ = std::move(file);
  ruleset_ = ruleset;
}

Status Board::AddGrid(CoordinateGrid grid, Terrain terrain, int level) {
  if (grids_.size() >= kMaxGrids) {
    return Fail(ErrorCode::kInvalidInput,
                "a board holds at most " + std::to_string(kMaxGrids) + " grids");
  }
  // Grow the box to hold the new grid, keeping the hexes already there.
  GridPos lo = origin_;
  GridPos hi{origin_.col + box_cols_ - 1, origin_.row + box_rows_ - 1};
  bool any = count_ > 0;
  grid.ForEach([&](GridPos local) {
    const GridPos c = grid.ToGlobal(local);
    if (!any) {
      lo = hi = c;
      any = true;
    }
    lo = {std::min(lo.col, c.col), std::min(lo.row, c.row)};
    hi = {std::max(hi.col, c.col), std::max(hi.row, c.row)};
  });
  const std::size_t index = grids_.size();
  grids_.push_back(std::move(grid));
  const CoordinateGrid& g = grids_.back();
  if (!any) return {};
  const std::int64_t cols = std::int64_t{hi.col} - lo.col + 1;
  const std::int64_t rows = std::int64_t{hi.row} - lo.row + 1;
  if (cols * rows > static_cast<std::int64_t>(kMaxBoardCells)) {
    grids_.pop_back();
    return Fail(ErrorCode::kInvalidInput, "placed there, the grids span " + std::to_string(cols) +
                                              " columns by " + std::to_string(rows) +
                                              " rows: a board spans at most " +
                                              std::to_string(kMaxBoardCells) + " hex positions");
  }
  if (lo.col != origin_.col || lo.row != origin_.row || cols != box_cols_ || rows != box_rows_) {
    std::vector<Hex> cells(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows));
    std::vector<std::uint8_t> present(cells.size(), 0);
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      if (!present_[i]) continue;
      const GridPos c = cells_[i].cell;
      const std::size_t j =
          static_cast<std::size_t>(c.col - lo.col) * static_cast<std::size_t>(rows) +
          static_cast<std::size_t>(c.row - lo.row);
      cells[j] = std::move(cells_[i]);
      present[j] = 1;
    }
    cells_ = std::move(cells);
    present_ = std::move(present);
    origin_ = lo;
    box_cols_ = static_cast<int>(cols);
    box_rows_ = static_cast<int>(rows);
  }
  g.ForEach([&](GridPos local) {
    const GridPos cell = g.ToGlobal(local);
    Hex h;
    h.cell = cell;
    h.grid = index;
    h.terrain = terrain;
    h.level = level;
    h.field = g.Name(local);
    const std::size_t i = *IndexOf(cell);
    if (!present_[i]) ++count_;
    cells_[i] = std::move(h);
    present_[i] = 1;
  });
  return {};
}

std::optional<std::size_t> Board::IndexOf(GridPos cell) const {
  const int c = cell.col - origin_.col;
  const int r = cell.row - origin_.row;
  if (c < 0 || r < 0 || c >= box_cols_ || r >= box_rows_) return std::nullopt;
  return static_cast<std::size_t>(c) * static_cast<std::size_t>(box_rows_) +
         static_cast<std::size_t>(r);
}

Result<GridPos> Board::Find(std::string_view token) const {
  std::optional<std::size_t> match;
  std::optional<GridPos> local;
  auto try_token = [&](std::string_view t) {
    for (std::size_t i = 0; i < grids_.size(); ++i) {
      const auto l = grids_[i].Parse(t);
      if (!l) continue;
      // Prefer a grid that holds the hex over one that merely writes hexes this way.
      if (!match || (!grids_[*match].Contains(*local) && grids_[i].Contains(*l))) {
        match = i;
        local = l;
      }
    }
  };
  try_token(token);
  if (!match && !token.empty() && token[0] >= 'A' && token[0] <= 'Z') {
    // "EE7" for "37EE7" when one numbered mapboard is the only one that could be meant.
    std::optional<std::size_t> only;
    int count = 0;
    for (std::size_t i = 0; i < grids_.size(); ++i) {
      if (grids_[i].lettered() && AllDigits(grids_[i].prefix())) {
        only = i;
        ++count;
      }
    }
    if (count == 1) try_token(grids_[*only].prefix() + std::string(token));
  }
  if (!match) {
    std::string known;
    for (const auto& g : grids_) {
      if (!known.empty()) known += ", ";
      std::optional<GridPos> first;
      g.ForEach([&](GridPos l) {
        if (!first) first = l;
      });
      known += first ? g.Name(*first) : g.name();
    }
    return BadHex(token, "no grid of board '" + name_ +
                             "' writes hexes this way (its hexes look like " + known + ")");
  }
  const CoordinateGrid& g = grids_[*match];
  if (!g.Contains(*local)) return BadHex(token, "not a hex of " + g.name() + " (off its edge)");
  const GridPos cell = g.ToGlobal(*local);
  const Hex* h = At(cell);
  if (h == nullptr) return BadHex(token, "not on board '" + name_ + "'");
  if (h->grid != *match) {
    return BadHex(token,
                  "covered by " + std::string(GridRoleName(grids_[h->grid].role())) +
                      "-overlay hex " + Name(cell) +
                      "; an overlay hex is always called by its own printed coordinate",
                  rules::kG13_1);
  }
  return cell;
}

Result<Position> Board::FindPosition(std::string_view token) const {
  const auto parts = SplitPositionToken(token);
  if (!parts) {
    return Fail(ErrorCode::kInvalidInput,
                "bad position '" + std::string(token) + "': the place after ':' must be one of " +
                    PlaceNames(),
                std::string(token));
  }
  auto cell = Find(parts->hex);
  if (!cell) return std::unexpected(cell.error());
  const Hex& h = *At(*cell);
  const Place place = parts->place.value_or(Place::kHex);
  auto no_place = [&](const std::string& why, const std::string& rule) {
    return Fail(ErrorCode::kInvalidInput,
                "position '" + std::string(token) + "': " + Name(*cell) + " " + why,
                std::string(token), rule);
  };
  switch (place) {
    case Place::kHex:
      break;
    case Place::kBank:
      if (h.terrain != Terrain::kPaddy)
        return no_place("is not a paddy hex: it has no banks", rules::kG8_21);
      break;
    case Place::kAbove:
      if (!h.panji) return no_place("holds no Panji counter to be above", rules::kG9_4);
      break;
    case Place::kBeneath:
      if (!h.panji && !h.pier)
        return no_place("holds no Panji or Pier counter to be beneath", rules::kG9_45);
      break;
    case Place::kPier:
      if (!h.pier) return no_place("holds no Pier counter", rules::kG13_7);
      break;
    case Place::kTrench:
      if (!h.Has(CounterType::kTrench)) return no_place("holds no Trench counter", rules::kG8_71);
      break;
    case Place::kFoxhole:
      if (!h.Has(CounterType::kFoxhole)) return no_place("holds no Foxhole counter", rules::kG9_55);
      break;
  }
  return Position{*cell, place};
}

std::string Board::Name(GridPos cell) const {
  const Hex* h = At(cell);
  if (h == nullptr) return "(" + std::to_string(cell.col) + "," + std::to_string(cell.row) + ")";
  const CoordinateGrid& g = grids_[h->grid];
  return g.Name(g.ToLocal(cell));
}

std::string Board::Name(const Position& p) const {
  if (p.place == Place::kHex) return Name(p.hex);
  return Name(p.hex) + ":" + tactical::Name(p.place);
}

std::string Board::Name(const Hexside& h) const {
  return Name(h.first()) + "-" + Name(h.second());
}

const Hex* Board::At(GridPos cell) const {
  const auto i = IndexOf(cell);
  return i && present_[*i] ? &cells_[*i] : nullptr;
}

Hex* Board::MutableAt(GridPos cell) {
  const auto i = IndexOf(cell);
  return i && present_[*i] ? &cells_[*i] : nullptr;
}

std::vector<const Hex*> Board::Hexes() const {
  std::vector<const Hex*> out;
  out.reserve(count_);
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    if (present_[i]) out.push_back(&cells_[i]);
  }
  return out;
}

HexsideFeatures Board::Features(const Hexside& h) const {
  const auto it = hexsides_.find(h);
  return it == hexsides_.end() ? HexsideFeatures{} : it->second;
}

const BoardUnit* Board::FindUnit(std::string_view name) const {
  for (const auto& u : units_) {
    if (u.name == name) return &u;
  }
  return nullptr;
}

}  // namespace opsim::tactical
