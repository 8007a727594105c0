// G13.9 DYO: the beach procedure, G13.91 to G13.99, as a seeded run on the G13.23 board: every
// roll is opsim::Dice's, in a fixed order, so the same seed gives the same run.
#include <gtest/gtest.h>

#include <set>

#include "opsim/core/dice.h"
#include "opsim/core/rule_ids.h"
#include "opsim/tactical/beach.h"
#include "opsim/tactical/beach_dyo.h"
#include "tactical_test_util.h"

namespace opsim::tactical {
namespace {

using test::Cli;

DyoOptions Pto(std::uint64_t seed, Tide tide = Tide::kLow) {
  DyoOptions o;
  o.seed = seed;
  o.allied_vs_japanese = true;
  o.year = 1944;
  o.tide = tide;
  return o;
}

DyoReport Dyo(const DyoOptions& o, Water water = Water::kOcean) {
  Board b = test::Illustration("g13_23");
  b.mutable_settings().water = water;
  auto r = RunBeachDyo(b, o);
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().to_string());
  return r.value_or(DyoReport{});
}

// The procedure worked out by hand from the same dice, in the same order.
struct Expected {
  bool reef;
  Slope slope;
  int high, low;
  bool surf;
};
Expected ByHand(std::uint64_t seed, bool reef_dr, bool non_us, bool ocean) {
  Dice d(seed);
  Expected e{};
  if (reef_dr) e.reef = d.Roll(6) - (non_us ? 1 : 0) >= 5;
  const int slope = d.Roll(6) - (e.reef ? 1 : 0);
  e.slope = slope <= 2 ? Slope::kSlight : slope <= 4 ? Slope::kModerate : Slope::kSteep;
  if (e.slope == Slope::kSteep) {
    e.high = 1;
    e.low = 2;
  } else {
    const int by = e.slope == Slope::kSlight ? 2 : 3;
    const int colored = d.Roll(6), white = d.Roll(6);
    e.high = (colored + by - 1) / by;
    e.low = e.high + (white + by - 1) / by;
  }
  if (ocean) e.surf = d.Roll(6) == 6;
  return e;
}

// G13.91-.98: each roll, its drm and its result, for many seeds; every Slope turns up.
TEST(G13, Rule13_9_DyoRollsInOrder) {
  std::set<Slope> slopes;
  int reefs = 0, surfs = 0;
  for (std::uint64_t seed = 1; seed <= 80; ++seed) {
    const DyoReport r = Dyo(Pto(seed));
    const Expected e = ByHand(seed, true, false, true);
    EXPECT_EQ(r.reef, e.reef) << seed;
    EXPECT_EQ(r.slope, e.slope) << seed;
    EXPECT_EQ(r.high_tide_width, e.high) << seed;
    EXPECT_EQ(r.low_tide_width, e.low) << seed;
    EXPECT_EQ(r.width, e.low) << seed;  // Low Tide declared
    EXPECT_EQ(r.heavy_surf, e.surf) << seed;
    EXPECT_EQ(r.board.settings().slope, e.slope);
    EXPECT_EQ(r.board.settings().heavy_surf, e.surf);
    slopes.insert(r.slope);
    reefs += r.reef;
    surfs += r.heavy_surf;
  }
  EXPECT_EQ(slopes.size(), 3u);
  EXPECT_GT(reefs, 0);
  EXPECT_GT(surfs, 0);
}

// G13.91-.99: the steps come in the rules' order, one per rule.
TEST(G13, Rule13_9_StepsInOrder) {
  const DyoReport r = Dyo(Pto(3));
  std::vector<std::string> rules;
  for (const DyoStep& s : r.steps) {
    if (rules.empty() || rules.back() != s.rule) rules.push_back(s.rule);
  }
  EXPECT_EQ(rules, (std::vector<std::string>{rules::kG13_91, rules::kG13_92, rules::kG13_93,
                                             rules::kG13_94, rules::kG13_95, rules::kG13_96,
                                             rules::kG13_97, rules::kG13_98, rules::kG13_99}));
  for (const DyoStep& s : r.steps) {
    if (s.rule == rules::kG13_94.id) {
      EXPECT_NE(s.text.find("2 BPV"), std::string::npos);
    } else if (s.rule == rules::kG13_95.id) {
      EXPECT_NE(s.text.find("Low-Tide"), std::string::npos);
    }
  }
}

// G13.91: a reef dr only Allied-vs-Japanese, in 1943-44, with OCEAN as Ocean; -1 if the amphibious
// side is wholly non-U.S.; the reef lies beside the entry area (see G13.91 EX).
TEST(G13, Rule13_91_ReefDr) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    DyoOptions no = Pto(seed);
    no.year = 1942;
    EXPECT_FALSE(Dyo(no).reef);
    EXPECT_TRUE(Dyo(no).steps[0].dice.empty());
    DyoOptions not_pto = Pto(seed);
    not_pto.allied_vs_japanese = false;
    EXPECT_TRUE(Dyo(not_pto).steps[0].dice.empty());
    DyoOptions british = Pto(seed);
    british.wholly_non_us = true;
    const DyoReport r = Dyo(british);
    EXPECT_EQ(r.steps[0].drm, -1);
    EXPECT_EQ(r.reef, ByHand(seed, true, true, true).reef);
    EXPECT_EQ(Dyo(Pto(seed), Water::kLake).reef, false);
  }
}

// G13.92: -1 to the Slope dr if a reef exists; <= 2 Slight, 3-4 Moderate, >= 5 Steep.
TEST(G13, Rule13_92_SlopeDr) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const DyoReport r = Dyo(Pto(seed));
    const DyoStep& s = *std::find_if(r.steps.begin(), r.steps.end(),
                                     [](const DyoStep& x) { return x.rule == rules::kG13_92.id; });
    EXPECT_EQ(s.drm, r.reef ? -1 : 0);
    const int f = *s.final_roll;
    EXPECT_EQ(r.slope, f <= 2 ? Slope::kSlight : f <= 4 ? Slope::kModerate : Slope::kSteep);
  }
}

// G13.93: Steep: 1 and 2 hexes; otherwise the colored dr / 2 (Slight) or / 3 (Moderate), FRU, is
// the High-Tide width, and the white dr / the same, FRU, added gives the Low-Tide width.
TEST(G13, Rule13_93_Widths) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const DyoReport r = Dyo(Pto(seed));
    const DyoStep& s = *std::find_if(r.steps.begin(), r.steps.end(),
                                     [](const DyoStep& x) { return x.rule == rules::kG13_93.id; });
    if (r.slope == Slope::kSteep) {
      EXPECT_TRUE(s.dice.empty());
      EXPECT_EQ(r.high_tide_width, 1);
      EXPECT_EQ(r.low_tide_width, 2);
      continue;
    }
    ASSERT_EQ(s.dice.size(), 2u);
    const int by = r.slope == Slope::kSlight ? 2 : 3;
    EXPECT_EQ(r.high_tide_width, (s.dice[0] + by - 1) / by);
    EXPECT_EQ(r.low_tide_width, r.high_tide_width + (s.dice[1] + by - 1) / by);
  }
}

// G13.97: the amphibious player declares the Tide (Lake/River: always High); it picks the width,
// and a reef is Submerged at High Tide, Exposed at Low.
TEST(G13, Rule13_97_Tide) {
  Board b = test::Illustration("g13_23");
  DyoOptions undeclared = Pto(1);
  undeclared.tide.reset();
  auto missing = RunBeachDyo(b, undeclared);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().rule, rules::kG13_97.id);
  EXPECT_EQ(Dyo(undeclared, Water::kRiver).tide, Tide::kHigh);
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const DyoReport high = Dyo(Pto(seed, Tide::kHigh));
    const DyoReport low = Dyo(Pto(seed, Tide::kLow));
    EXPECT_EQ(high.width, high.high_tide_width);
    EXPECT_EQ(low.width, low.low_tide_width);
    if (high.reef) {
      EXPECT_EQ(high.board.settings().reef, Reef::kSubmerged);
      EXPECT_EQ(low.board.settings().reef, Reef::kExposed);
      EXPECT_TRUE(IsExposedReef(low.board, test::Hex(low.board, "1020")));
      EXPECT_EQ(OceanDepth(high.board, test::Hex(high.board, "1020")), Depth::kShallow);
    }
  }
  auto doc = Cli({"beach-dyo", "--board", test::BoardPath("g13_23"), "--seed", "1"}, 2);
  EXPECT_EQ(doc["error"]["rule"], rules::kG13_97.id);
}

// G13.98: Heavy Surf if the Original Surf dr is a 6; no dr unless OCEAN is Ocean.
TEST(G13, Rule13_98_Surf) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const DyoReport r = Dyo(Pto(seed));
    const DyoStep& s = *std::find_if(r.steps.begin(), r.steps.end(),
                                     [](const DyoStep& x) { return x.rule == rules::kG13_98.id; });
    ASSERT_EQ(s.dice.size(), 1u);
    EXPECT_EQ(r.heavy_surf, s.dice[0] == 6);
    const DyoReport lake = Dyo(Pto(seed), Water::kLake);
    EXPECT_FALSE(lake.heavy_surf);
  }
}

// The CLI runs the same procedure: every roll shown, the same for the same seed, and the
// resulting shallow hexes those of the resulting board.
TEST(G13, Rule13_9_DyoThroughTheCli) {
  for (std::uint64_t seed : {1ULL, 7ULL, 2024ULL}) {
    const std::vector<std::string> args = {
        "beach-dyo", "--board", test::BoardPath("g13_23"), "--seed", std::to_string(seed),
        "--tide",    "low",     "--allied-vs-japanese"};
    const nlohmann::json a = Cli(args);
    const nlohmann::json b = Cli(args);
    EXPECT_EQ(a.dump(), b.dump());
    const DyoReport r = Dyo(Pto(seed));
    EXPECT_EQ(a["slope"], Name(r.slope));
    EXPECT_EQ(a["reef"], r.reef);
    EXPECT_EQ(a["heavy_surf"], r.heavy_surf);
    EXPECT_EQ(a["width"], r.width);
    ASSERT_EQ(a["steps"].size(), r.steps.size());
    for (std::size_t i = 0; i < r.steps.size(); ++i) {
      EXPECT_EQ(a["steps"][i]["rule"], r.steps[i].rule);
      if (!r.steps[i].dice.empty()) {
        EXPECT_EQ(a["steps"][i]["dice"], r.steps[i].dice);
      }
    }
    std::size_t shallow = 0;
    for (const Hex* h : r.board.Hexes()) {
      shallow += IsOcean(r.board, h->cell) && OceanDepth(r.board, h->cell) == Depth::kShallow;
    }
    EXPECT_EQ(a["shallow"].size(), shallow);
  }
  auto text = opsim::test::RunCli({"tactical", "beach-dyo", "--board", test::BoardPath("g13_23"),
                                   "--seed", "7", "--tide", "low"});
  EXPECT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("[G13.92]"), std::string::npos);
}

}  // namespace
}  // namespace opsim::tactical
