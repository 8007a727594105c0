#include "opsim/tactical/panji_counter.h"
#include "opsim/core/rule_ids.h"

#include <array>
#include <bit>

namespace opsim::tactical {

namespace {

// The order a pattern spreads from the top hexside: top, clockwise, counter-clockwise, ...
constexpr std::array<int, 6> kSpread = {0, 1, -1, 2, -2, 3};

std::string BoardPrefix(std::string_view hex) {
  std::size_t n = 0;
  while (n < hex.size() && !(hex[n] >= 'A' && hex[n] <= 'Z')) ++n;
  return std::string(hex.substr(0, n));
}

std::string Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

int PanjiCounter::PrintedCovered(char id) {
  return id >= 'A' && id <= 'F' ? id - 'A' + 1 : 0;
}

std::optional<PanjiCounter> PanjiCounter::Make(char id, Dir top, bool hidden) {
  const int n = PrintedCovered(id);
  if (n == 0) return std::nullopt;
  std::uint8_t mask = 0;
  for (int i = 0; i < n; ++i) mask |= 1U << static_cast<int>(map::Rotate(top, kSpread[i]));
  return PanjiCounter(id, top, hidden, mask);
}

int PanjiCounter::covered_count() const {
  return std::popcount(covered_);
}

bool PanjiCounter::Uncover(Dir d) {
  if (!Covers(d)) return false;
  covered_ &= static_cast<std::uint8_t>(~(1U << static_cast<int>(d)));
  return true;
}

Result<HipRecord> ParseHipRecord(std::string_view text) {
  const std::string where(text);
  auto bad = [&](const std::string& why) {
    return Fail(ErrorCode::kInvalidInput,
                "bad panji HIP record: " + why +
                    " (write it as in G9.11 EX: \"Panji A: 37EE7-EE8\", the setup hex first)",
                where, rules::kG9_11);
  };
  std::string_view s = text;
  if (s.substr(0, 6) != "Panji ") return bad("it must start with \"Panji \"");
  s.remove_prefix(6);
  if (s.size() < 2 || s[1] != ':') return bad("expected an ID letter and ':' after \"Panji\"");
  HipRecord rec;
  rec.id = s[0];
  if (PanjiCounter::PrintedCovered(rec.id) == 0) return bad("ID letter must be A to F");
  s.remove_prefix(2);
  const std::string body = Trim(s);
  const auto dash = body.find('-');
  if (dash == std::string::npos) return bad("expected HEX-HEX, the hexside the top faces");
  rec.hex = Trim(std::string_view(body).substr(0, dash));
  rec.facing = Trim(std::string_view(body).substr(dash + 1));
  if (rec.hex.empty() || rec.facing.empty()) return bad("expected HEX-HEX");
  if (BoardPrefix(rec.facing).empty()) rec.facing = BoardPrefix(rec.hex) + rec.facing;
  return rec;
}

}  // namespace opsim::tactical
