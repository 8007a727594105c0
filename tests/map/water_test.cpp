// Water connectivity inside hexes: the naval view of the theater. A causeway splits a hex's
// water (41.A.1), so a naval unit in 16A:0827 cannot go 0827-0826-0825.
#include <gtest/gtest.h>

#include "opsim/ops/route.h"
#include "test_support.h"

namespace opsim {
namespace {

using map::Dir;

const map::Scenario& St() {
  return test::Bundled("special-terrain");
}

map::HexRef Hex(const char* token) {
  auto h = St().theater.FindHex(token);
  EXPECT_TRUE(h) << token;
  return *h;
}

TEST(WaterAreas, TheCausewaySplits0827IntoTwoBodiesOfWater) {
  const map::Theater& t = St().theater;
  auto areas = t.WaterAreasOf(Hex("16A:0827"));
  ASSERT_EQ(areas.size(), 2u);
  EXPECT_EQ(areas[0].name, "scheldt");
  EXPECT_EQ(areas[1].name, "veere");
  EXPECT_FALSE(areas[0].Touches(Dir::kN));  // the Western Scheldt does not reach 0826
  EXPECT_TRUE(areas[1].Touches(Dir::kN));
  // Both touch the causeway hexside: it is the line that splits them.
  EXPECT_TRUE(areas[0].Touches(Dir::kNW));
  EXPECT_TRUE(areas[1].Touches(Dir::kNW));
  EXPECT_EQ(t.HexsideName(areas[0].split_by), "16A:0727/0827");
}

TEST(WaterAreas, OpenSeaHexHasOneAreaTouchingEverySide) {
  const map::Theater& t = St().theater;
  auto areas = t.WaterAreasOf(Hex("16A:0826"));
  ASSERT_EQ(areas.size(), 1u);
  for (Dir d : map::kAllDirs) EXPECT_TRUE(areas[0].Touches(d)) << map::DirName(d);
}

TEST(WaterAreas, LandLockedHexHasNone) {
  EXPECT_TRUE(St().theater.WaterAreasOf(Hex("16A:1122")).empty());
}

TEST(WaterAreas, InlandPortIsReachedOnlyAlongItsRiver) {
  auto areas = St().theater.WaterAreasOf(Hex("22A:4313"));  // Basra
  ASSERT_EQ(areas.size(), 1u);
  EXPECT_TRUE(areas[0].port_only);
  EXPECT_EQ(areas[0].sides, 0);
}

TEST(WaterAreas, CorinthIsthmusKeepsTheGulfsApart) {
  for (const char* h : {"15B:0813", "15B:0814"}) {
    auto areas = St().theater.WaterAreasOf(Hex(h));
    ASSERT_EQ(areas.size(), 2u) << h;
    EXPECT_EQ(areas[0].name, "gulf-of-corinth");
    EXPECT_EQ(areas[1].name, "saronic");
    EXPECT_EQ(areas[0].sides & areas[1].sides, 0) << h;
  }
}

TEST(NavalView, SeaEdgesJoinOnlyAreasThatFaceEachOther) {
  const map::Theater& t = St().theater;
  const auto& g = t.naval_graph();
  const std::uint32_t scheldt = t.AreaNode(Hex("16A:0827"), 0);
  const std::uint32_t veere = t.AreaNode(Hex("16A:0827"), 1);
  const std::uint32_t north = t.AreaNode(Hex("16A:0826"), 0);
  auto joined = [&](std::uint32_t from, std::uint32_t to) {
    for (auto e : boost::make_iterator_range(boost::out_edges(from, g))) {
      if (boost::target(e, g) == to) return true;
    }
    return false;
  };
  EXPECT_TRUE(joined(veere, north));
  EXPECT_TRUE(joined(north, veere));
  EXPECT_FALSE(joined(scheldt, north));
  EXPECT_FALSE(joined(north, scheldt));
}

// 41.A.1 EX: a naval unit in 16A:0827 cannot move 16A:0827-0826-0825.
TEST(Rule41A1, Example_NavalUnitIn0827CannotMove0826_0825) {
  const auto& sc = St();
  ops::RuleContext ctx{sc.theater, sc.state, ops::DefaultRuleTables()};
  ops::NavalRouter router(ctx, *ops::ParseGroup("transport", Side::kAllied));
  auto path = ops::ParseWaypoints(sc.theater, "16A:0827,16A:0826,16A:0825");
  ASSERT_TRUE(path);
  const ops::PathVerdict v = router.Check(*path);
  EXPECT_FALSE(v.legal);
  EXPECT_EQ(v.failed_step, 1);
  ASSERT_EQ(v.blocked_by.size(), 1u);
  EXPECT_EQ(v.blocked_by[0].id, "41.A.1");
  EXPECT_NE(v.reason.find("causeway"), std::string::npos) << v.reason;
}

// 41.A.1: causeways block all-sea routes: the causeway hexside itself cannot be crossed.
TEST(Rule41A1, CausewayHexsideBlocksNavalMovement) {
  const auto& sc = St();
  ops::RuleContext ctx{sc.theater, sc.state, ops::DefaultRuleTables()};
  ops::NavalRouter router(ctx, *ops::ParseGroup("tf", Side::kAllied));
  auto path = ops::ParseWaypoints(sc.theater, "16A:0827#veere,16A:0727");
  ASSERT_TRUE(path);
  const ops::PathVerdict v = router.Check(*path);
  EXPECT_FALSE(v.legal);
  ASSERT_EQ(v.blocked_by.size(), 1u);
  EXPECT_EQ(v.blocked_by[0].id, "41.A.1");
}

TEST(Rule41A1, TheOtherBodyOfWaterStillReaches0825) {
  const auto& sc = St();
  ops::RuleContext ctx{sc.theater, sc.state, ops::DefaultRuleTables()};
  ops::NavalRouter router(ctx, *ops::ParseGroup("transport", Side::kAllied));
  auto path = ops::ParseWaypoints(sc.theater, "16A:0827#veere,16A:0826,16A:0825");
  ASSERT_TRUE(path);
  const ops::PathVerdict v = router.Check(*path);
  EXPECT_TRUE(v.legal) << v.reason;
  EXPECT_EQ(v.cost, 2u);
}

TEST(Rule41A1, RouteFrom0827GoesAroundWalcheren) {
  const auto& sc = St();
  ops::RuleContext ctx{sc.theater, sc.state, ops::DefaultRuleTables()};
  ops::NavalRouter router(ctx, *ops::ParseGroup("transport", Side::kAllied));
  auto from = ops::ParseWaypoint(sc.theater, "16A:0827");
  auto to = ops::ParseWaypoint(sc.theater, "16A:0825");
  const ops::RouteAnswer a = router.Route(*from, *to);
  ASSERT_TRUE(a.reachable);
  EXPECT_GT(a.cost, 2u);  // not the blocked 0827-0826-0825
  ASSERT_GE(a.path.size(), 2u);
  EXPECT_NE(ops::FormatWaypoint(sc.theater, a.path[1]), "16A:0826");
  // Whatever the search found, the path check accepts at the same cost.
  const ops::PathVerdict v = router.Check(a.path);
  EXPECT_TRUE(v.legal) << v.reason;
  EXPECT_EQ(v.cost, a.cost);
}

}  // namespace
}  // namespace opsim
