// Tactical benchmarks: LOS (G8.4, G13.2x) and a movement path on large generated boards. The
// figures are in the Tactical section of docs/performance.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "opsim/tactical/board_file.h"
#include "opsim/tactical/los.h"
#include "opsim/tactical/movement.h"

namespace opsim::tactical {
namespace {

// A deterministic stream for the generated terrain and the LOS pairs.
struct Lcg {
  std::uint64_t s;
  std::uint32_t Next() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(s >> 33);
  }
};

constexpr int kColumns = 52;  // A-ZZ, ASL's lettering
constexpr int kLandRows = 200;

std::string Column(int c) {
  const char letter = static_cast<char>('A' + c % 26);
  return c < 26 ? std::string(1, letter) : std::string(2, letter);
}

// 52 x `rows` hexes: 15% woods, 5% buildings, 10% grain, the rest Open Ground; with `beach`, a
// four-row Beach overlay and a 60-row OCEAN overlay below it, Slightly Sloped.
Board Generate(int rows, bool beach) {
  Lcg rng{7};
  std::string hexes;
  for (int c = 0; c < kColumns; ++c) {
    for (int r = 1; r <= rows; ++r) {
      const std::uint32_t roll = rng.Next() % 100;
      const char* t = roll < 15 ? "woods" : roll < 20 ? "building" : roll < 30 ? "grain" : nullptr;
      if (t == nullptr) continue;
      if (!hexes.empty()) hexes += ",";
      hexes += "\"" + Column(c) + std::to_string(r) + "\": {\"terrain\": \"" + t + "\"}";
    }
  }
  std::string grids =
      R"({"name": "board", "letters": {"prefix": "", "columns": "A-ZZ", "rows": "1-)" +
      std::to_string(rows) + "\"}}";
  if (beach) {
    grids +=
        R"(, {"name": "Beach overlay", "role": "beach", "numbers": {"first": 101, "per_row": 52,
                 "rows": 4}, "place": {"hex": "101", "on": "A)" +
        std::to_string(rows + 1) +
        R"("}}, {"name": "OC1", "role": "ocean", "numbers": {"first": 1001,
                 "per_row": 52, "rows": 60}, "place": {"hex": "1001", "on": "A)" +
        std::to_string(rows + 5) + "\"}}";
  }
  const std::string text = R"({"format": "opsim-tactical-board", "version": 1, "name": "bench",
      "settings": {"slope": "slight"}, "grids": [)" +
                           grids + "], \"hexes\": {" + hexes + "}}";
  auto b = ParseBoard(text, "bench");
  if (!b) throw std::runtime_error(b.error().to_string());
  return std::move(*b);
}

const Board& LandBoard() {
  static const Board b = Generate(kLandRows, false);
  return b;
}

const Board& BeachBoard() {
  static const Board b = Generate(60, true);
  return b;
}

LosEnd At(GridPos g) {
  LosEnd e;
  e.at = {g, Place::kHex};
  e.unit = Unit(UnitKind::kInfantry);
  return e;
}

// Pairs of hexes `range` apart (± a few), chosen from the board's hexes with a fixed seed.
std::vector<std::pair<LosEnd, LosEnd>> Pairs(const Board& b, int range, bool to_sea) {
  const std::vector<const Hex*> all = b.Hexes();
  std::vector<const Hex*> land, sea;
  for (const Hex* h : all) (h->terrain == Terrain::kOcean ? sea : land).push_back(h);
  Lcg rng{11};
  std::vector<std::pair<LosEnd, LosEnd>> out;
  while (out.size() < 256) {
    const Hex* a = land[rng.Next() % land.size()];
    const std::vector<const Hex*>& pool = to_sea ? sea : land;
    const Hex* z = pool[rng.Next() % pool.size()];
    const int d = map::Distance(a->cell, z->cell);
    if (d < range - 3 || d > range + 3) continue;
    out.push_back({At(a->cell), At(z->cell)});
  }
  return out;
}

void RunLos(benchmark::State& state, const Board& b, bool to_sea) {
  const auto pairs = Pairs(b, static_cast<int>(state.range(0)), to_sea);
  std::size_t i = 0;
  int clear = 0;
  for (auto _ : state) {
    const auto& [from, to] = pairs[i++ % pairs.size()];
    const LosResult r = CheckLos(b, from, to);
    clear += r.clear;
    benchmark::DoNotOptimize(r);
  }
  state.counters["hexes"] = static_cast<double>(b.Hexes().size());
  state.counters["clear%"] = 100.0 * clear / static_cast<double>(state.iterations());
}

// LOS between land hexes of a 52 x 200 board (10,400 hexes), at the range given.
void BM_TacticalLosLand(benchmark::State& state) {
  RunLos(state, LandBoard(), false);
}
BENCHMARK(BM_TacticalLosLand)->Arg(5)->Arg(20)->Arg(60);

// LOS from the Hinterland to OCEAN hexes across a Beach (G13.2x levels, G13.4 depth): 52 x 60
// board hexes, 208 Beach and 3,120 OCEAN hexes.
void BM_TacticalLosToSea(benchmark::State& state) {
  RunLos(state, BeachBoard(), true);
}
BENCHMARK(BM_TacticalLosToSea)->Arg(10)->Arg(30);

// A 40-hex Infantry move across the land board (COT, hexsides, every step's rules).
void BM_TacticalMove(benchmark::State& state) {
  const Board& b = LandBoard();
  std::vector<std::string> path;
  for (int r = 1; r <= 41; ++r) path.push_back("B" + std::to_string(r));
  MoveOptions o;
  o.unit = Unit(UnitKind::kInfantry);
  for (auto _ : state) {
    auto r = EvaluateMove(b, o, path);
    if (!r) state.SkipWithError(r.error().to_string().c_str());
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_TacticalMove);

}  // namespace
}  // namespace opsim::tactical
