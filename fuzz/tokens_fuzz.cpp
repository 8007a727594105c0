// Hex, hexside and waypoint tokens, and the other short tokens the CLI reads (--path, --set,
// --group, dates, tactical coordinates and positions, HIP records).
#include <array>
#include <cstdio>
#include <cstdlib>

#include "fuzz_support.h"
#include "opsim/core/hex.h"
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

}  // namespace

// The first byte picks the reader; the rest is the token.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opsim;
  if (size == 0) return 0;
  const auto& t = *fuzz::BundledGame().theater;
  const std::string_view token = fuzz::AsText(data + 1, size - 1);
  switch (data[0] % 12) {
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
    default:
      for (const Board& b : Boards()) {
        (void)b.Find(token);
        (void)b.FindPosition(token);
      }
      break;
  }
  return 0;
}
