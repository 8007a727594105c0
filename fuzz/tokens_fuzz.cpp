// Hex, hexside and waypoint tokens, and the other short tokens the CLI reads (--path, --set,
// --group, dates, tactical coordinates and positions, HIP records), and a turn log's address
// (--db: a path, or postgresql://...#GAME), as messages show it: never with its password.
#include <array>
#include <cstdio>
#include <cstdlib>

#include "fuzz_support.h"
#include "opsim/core/hex.h"
#include "opsim/db/turn_log.h"
#include "opsim/ops/calendar.h"
#include "opsim/ops/route.h"
#include "opsim/tactical/board_file.h"
#include "opsim/tactical/panji_counter.h"

namespace {

using opsim::tactical::Board;

// The bundled tactical boards: each numbers its hexes its own way.
const std::vector<Board>& Boards() {
  static const std::vector<Board> boards = [] {
    std::vector<Board> out;
    for (const char* name : {"g8_2108", "g9_3", "g13_23", "g13_62", "samurai"}) {
      auto b = opsim::tactical::LoadBoard(std::string(OPSIM_SCENARIO_DIR) + "/tactical/" + name +
                                          ".json");
      if (!b) {
        std::fprintf(stderr, "fuzz: %s\n", b.error().to_string().c_str());
        std::abort();
      }
      out.push_back(std::move(*b));
    }
    return out;
  }();
  return boards;
}

// A log address as messages show it (db::ShownAddress): a password given once in the input, in
// the URI's user part, is not in what is shown. A password with a '*' is left out: the mask's
// "***" and the text beside it can spell it again ("u:**@h@h/d" is shown "u:***@h/d", which
// holds "**@h") without a character of it shown.
void ShownAddress(std::string_view address) {
  const std::string text(address);
  const std::string shown = opsim::db::ShownAddress(text);
  if (!text.starts_with("postgresql://") && !text.starts_with("postgres://")) return;
  const std::size_t start = text.find("://") + 3;
  const std::size_t end = std::min(text.find_first_of("/?#", start), text.size());
  std::string password;
  if (const std::size_t at = text.rfind('@', end); at != std::string::npos && at >= start) {
    if (const std::size_t colon = text.find(':', start); colon < at) {
      password = text.substr(colon + 1, at - colon - 1);
    }
  }
  if (password.size() < 4 || password.contains('*') ||
      text.find(password) != text.rfind(password)) {
    return;
  }
  if (shown.find(password) != std::string::npos) {
    std::fprintf(stderr, "fuzz: the password is shown: %s\n", shown.c_str());
    std::abort();
  }
}

}  // namespace

// The first byte picks the reader; the rest is the token.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opsim;
  if (size == 0) return 0;
  const auto& t = *fuzz::BundledGame().theater;
  const std::string_view token = fuzz::AsText(data + 1, size - 1);
  switch (data[0] % 13) {
    case 0:
      (void)map::ParseHexName(token);
      break;
    case 1:
      (void)map::ParseHexName(token, "16A");
      break;
    case 2:
      (void)map::ParseHexsideName(token);
      break;
    case 3:
      (void)t.FindHex(token);
      break;
    case 4:
      (void)t.FindHexside(token);
      break;
    case 5: {
      auto first = ops::ParseWaypoint(t, token);
      if (first) (void)ops::ParseWaypoint(t, token, &*first);
      break;
    }
    case 6:
      (void)ops::ParseWaypoints(t, token);
      break;
    case 7:
      (void)query::ParseOverride(t, token);
      break;
    case 8:
      (void)ops::ParseGroup(token, Side::kAxis);
      (void)ops::ParseUnitKind(ops::DefaultRuleTables(), token, Side::kAllied);
      break;
    case 9:
      (void)ops::ParseGameDate(token);
      break;
    case 10:
      (void)tactical::ParseHipRecord(token);
      break;
    case 12:
      ShownAddress(token);
      break;
    default:
      for (const Board& b : Boards()) {
        (void)b.Find(token);
        (void)b.FindPosition(token);
      }
      break;
  }
  return 0;
}
