#include "opsim/ops/calendar.h"

#include <array>
#include <charconv>

#include "opsim/core/echo.h"

namespace opsim::ops {

namespace {

constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
constexpr std::array<const char*, 4> kPhases = {"initial", "movement", "combat", "exploitation"};

}  // namespace

const char* MonthName(int month) {
  return kMonths[(month - 1) % 12];
}
const char* PhaseName(Phase p) {
  return kPhases[static_cast<int>(p)];
}

Result<Phase> ParsePhase(std::string_view text) {
  for (std::size_t i = 0; i < kPhases.size(); ++i) {
    if (text == kPhases[i]) return static_cast<Phase>(i);
  }
  return Fail(ErrorCode::kInvalidInput,
              "unknown phase '" + EchoToken(text) +
                  "': the phases are initial, movement, combat and exploitation");
}

Result<GameDate> ParseGameDate(std::string_view text) {
  auto bad = [&] {
    return Fail(ErrorCode::kInvalidInput,
                "bad game turn '" + std::string(text) + "' (write it like \"Jan I 1942\")",
                std::string(text));
  };
  const auto sp1 = text.find(' ');
  if (sp1 == std::string_view::npos) return bad();
  const auto sp2 = text.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos) return bad();
  const std::string_view month = text.substr(0, sp1);
  const std::string_view half = text.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string_view year = text.substr(sp2 + 1);
  GameDate d;
  d.month = 0;
  for (int m = 0; m < 12; ++m) {
    if (month == kMonths[m]) d.month = m + 1;
  }
  if (d.month == 0) return bad();
  if (half == "I") {
    d.half = 1;
  } else if (half == "II") {
    d.half = 2;
  } else {
    return bad();
  }
  auto [end, ec] = std::from_chars(year.data(), year.data() + year.size(), d.year);
  if (ec != std::errc() || end != year.data() + year.size() || d.year < 1900 || d.year > 2100) {
    return bad();
  }
  return d;
}

std::string FormatGameDate(const GameDate& d) {
  return std::string(MonthName(d.month)) + (d.half == 1 ? " I " : " II ") + std::to_string(d.year);
}

GameDate AddTurns(const GameDate& start, int turns) {
  int index = (start.year * 12 + (start.month - 1)) * 2 + (start.half - 1) + turns;
  GameDate d;
  d.half = index % 2 + 1;
  index /= 2;
  d.month = index % 12 + 1;
  d.year = index / 12;
  return d;
}

}  // namespace opsim::ops
