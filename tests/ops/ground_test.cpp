// Ground movement under opsim's base rules (B4) and Rule 41's ground clauses: 41.A.1 causeways,
// 41.A.2 rail ferries, 41.A.4 floods, 41.E.1 Kerch, 41.E.2 the Baltic Islands, 41.E.3
// Kronshtadt, 41.E.6 the Vuoksa. Costs are in half-MPs (2 = 1 MP).
#include <gtest/gtest.h>

#include "opsim/ops/route.h"
#include "test_support.h"

namespace opsim::ops {
namespace {

struct World {
  const map::Theater& t = opsim::test::Bundled("special-terrain").theater;
  map::MapState state = opsim::test::Bundled("special-terrain").state;
  std::int32_t turn = 0;
  bool exploitation = false;

  map::HexRef Hex(const char* token) const {
    auto h = t.FindHex(token);
    EXPECT_TRUE(h) << token;
    return *h;
  }
  RuleContext Ctx() const {
    RuleContext c{t, state, DefaultRuleTables()};
    c.player_turn = turn;
    c.exploitation = exploitation;
    return c;
  }
  // The verdict on a path of hexes for a mover.
  PathVerdict Check(const char* unit, Side side, std::vector<const char*> hexes,
                    int res = 1) const {
    auto mover = ParseUnitKind(DefaultRuleTables(), unit, side);
    EXPECT_TRUE(mover);
    mover->res = res;
    std::vector<map::HexRef> path;
    for (const char* h : hexes) path.push_back(Hex(h));
    return GroundRouter(Ctx(), *mover).Check(path);
  }
  void Freeze(const char* hex) { state.SetFrozen(t.hex(Hex(hex)).zone, true); }
};

std::string Rules(const PathVerdict& v) {
  std::string out;
  for (const auto& step : v.notes) {
    for (const Note& n : step) out += std::string(n.rule.id) + " ";
  }
  return out;
}

// B4.1 + B4.3: along a road, a hex costs half an MP whatever its terrain.
TEST(BaseMovement, RoadHexCostsHalfAnMp) {
  World w;
  const PathVerdict v = w.Check("infantry", Side::kAllied, {"16A:0422", "16A:0421"});
  ASSERT_TRUE(v.legal) << v.reason;
  EXPECT_EQ(v.cost, 1u);
  EXPECT_NE(Rules(v).find("B4.3"), std::string::npos);
}

// B4.1: canal-intensive terrain costs 2 MP on foot, 3 motorized; B4.2: a major river adds 2
// (3 motorized); B4.7: engineers take 1 MP off a river crossing.
TEST(BaseMovement, MajorRiverAndEngineers) {
  World w;
  EXPECT_EQ(w.Check("infantry", Side::kAllied, {"16A:0623", "16A:0624"}).cost, 8u);
  EXPECT_EQ(w.Check("armor", Side::kAllied, {"16A:0623", "16A:0624"}).cost, 12u);
  const PathVerdict eng = w.Check("engineer", Side::kAllied, {"16A:0623", "16A:0624"});
  EXPECT_EQ(eng.cost, 6u);
  EXPECT_NE(Rules(eng).find("B4.7"), std::string::npos);
}

// B4.4, B4.5: no ground unit enters an all-sea hex or crosses a plain all-sea hexside.
TEST(BaseMovement, SeaStopsGroundUnits) {
  World w;
  const PathVerdict sea = w.Check("infantry", Side::kAllied, {"16A:0827", "16A:0826"});
  EXPECT_FALSE(sea.legal);
  ASSERT_EQ(sea.blocked_by.size(), 1u);
  EXPECT_EQ(sea.blocked_by[0].id, "B4.4");
  // Sassnitz to Stralsund's neighbour: an all-sea hexside with no causeway.
  const PathVerdict strait = w.Check("infantry", Side::kAxis, {"9A:1004", "9A:0905"});
  EXPECT_FALSE(strait.legal);
  EXPECT_EQ(strait.blocked_by.at(0).id, "B4.5");
}

// 41.A.1: ground units treat a causeway hexside as a major river hexside for all movement.
TEST(Rule41A1, CausewayIsCrossedAsAMajorRiver) {
  World w;
  const PathVerdict v = w.Check("infantry", Side::kAllied, {"16A:0827", "16A:0727"});
  ASSERT_TRUE(v.legal) << v.reason;
  // Along the causeway's road (1/2 MP) plus the major river crossing (2 MP): no bridge.
  EXPECT_EQ(v.cost, 5u);
  EXPECT_NE(Rules(v).find("41.A.1"), std::string::npos);
  EXPECT_EQ(w.Check("armor", Side::kAllied, {"16A:0827", "16A:0727"}).cost, 7u);
  // The Rugendamm and the Vainatamm are causeways too.
  EXPECT_TRUE(w.Check("infantry", Side::kAxis, {"9A:0905", "9A:0904"}).legal);
  EXPECT_TRUE(w.Check("infantry", Side::kAllied, {"1A:3726", "1A:3626"}).legal);
}

// 41.A.2: up to 3 REs move the whole length of a rail ferry as if crossing one major river
// hexside; engineers cannot reduce it.
TEST(Rule41A2, RailFerryIsOneMajorRiverCrossing) {
  World w;
  const PathVerdict v = w.Check("infantry", Side::kAxis, {"9A:1004", "9A:1001"}, 3);
  ASSERT_TRUE(v.legal) << v.reason;
  EXPECT_EQ(v.cost, 6u);  // Trelleborg's clear hex (1) + one major river (2)
  EXPECT_NE(Rules(v).find("41.A.2"), std::string::npos);
  const PathVerdict eng = w.Check("engineer", Side::kAxis, {"9A:1004", "9A:1001"});
  EXPECT_EQ(eng.cost, 6u);  // no engineer reduction
  const PathVerdict big = w.Check("infantry", Side::kAxis, {"9A:1004", "9A:1001"}, 4);
  EXPECT_FALSE(big.legal);
  EXPECT_EQ(big.blocked_by.at(0).id, "41.A.2");
  // The water hexes of the ferry line are not land: the ferry is the only way.
  EXPECT_FALSE(w.Check("infantry", Side::kAxis, {"9A:1004", "9A:1003"}).legal);
}

TEST(Rule41A2, SearchUsesTheFerry) {
  World w;
  auto mover = ParseUnitKind(DefaultRuleTables(), "infantry", Side::kAxis);
  GroundRouter router(w.Ctx(), *mover);
  const RouteAnswer a = router.Route(w.Hex("9A:0905"), w.Hex("9A:1001"));
  ASSERT_TRUE(a.reachable) << a.reason;
  ASSERT_GE(a.path.size(), 2u);
  EXPECT_EQ(w.t.HexName(a.path[a.path.size() - 2].hex), "9A:1004");
}

// 41.A.4.a S*: a success in its own player-turn, then prohibited terrain for the next two
// turns; 41.A.4.b: prohibited for this player-turn and the next, then swamp for good; a partial
// flood is swamp in exploitation.
TEST(Rule41A4, FloodedHexes) {
  World w;
  w.turn = 10;
  w.state.SetFlood(w.Hex("16A:0922"), {map::FloodKind::kProhibited, 10, 14});
  PathVerdict v = w.Check("infantry", Side::kAxis, {"16A:1022", "16A:0922"});
  EXPECT_TRUE(v.legal) << v.reason;  // the player-turn of the flood: not yet prohibited
  w.turn = 11;
  v = w.Check("infantry", Side::kAxis, {"16A:1022", "16A:0922"});
  EXPECT_FALSE(v.legal);
  EXPECT_EQ(v.blocked_by.at(0).id, "41.A.4.a");
  w.state.SetFlood(w.Hex("16A:0623"), {map::FloodKind::kMassive, 10, 11});
  v = w.Check("infantry", Side::kAllied, {"16A:0523", "16A:0623"});
  EXPECT_FALSE(v.legal);
  EXPECT_EQ(v.blocked_by.at(0).id, "41.A.4.b");
  w.turn = 12;
  v = w.Check("infantry", Side::kAllied, {"16A:0723", "16A:0623"});
  ASSERT_TRUE(v.legal) << v.reason;
  EXPECT_EQ(v.cost, 6u);  // swamp, 3 MP
  EXPECT_NE(Rules(v).find("41.A.4.b"), std::string::npos);
  w.state.SetFlood(w.Hex("16A:1122"), {map::FloodKind::kPartial, 12, 12});
  EXPECT_EQ(w.Check("infantry", Side::kAxis, {"16A:1222", "16A:1122"}).cost, 4u);
  w.exploitation = true;
  EXPECT_EQ(w.Check("infantry", Side::kAxis, {"16A:1222", "16A:1122"}).cost, 6u);
}

// 41.E.1: ground units move across the Kerch hexside as if it were a major river.
TEST(Rule41E1, KerchIsCrossedAsAMajorRiver) {
  World w;
  const PathVerdict v = w.Check("infantry", Side::kAxis, {"4A:3526", "4A:3525"});
  ASSERT_TRUE(v.legal) << v.reason;
  EXPECT_EQ(v.cost, 6u);
  EXPECT_NE(Rules(v).find("41.E.1"), std::string::npos);
}

// 41.E.2: sea hexsides between the islands, and between them and Estonia's coast, are major
// river hexsides for movement.
TEST(Rule41E2, BalticIslandSeaHexsidesAreMajorRivers) {
  World w;
  const PathVerdict to_muhu = w.Check("infantry", Side::kAxis, {"1A:3826", "1A:3726"});
  ASSERT_TRUE(to_muhu.legal) << to_muhu.reason;
  EXPECT_EQ(to_muhu.cost, 6u);
  EXPECT_NE(Rules(to_muhu).find("41.E.2"), std::string::npos);
  // Saaremaa to Hiiumaa across the strait between them.
  const PathVerdict between = w.Check("infantry", Side::kAxis, {"1A:3625", "1A:3624"});
  ASSERT_TRUE(between.legal) << between.reason;
  EXPECT_NE(Rules(between).find("41.E.2"), std::string::npos);
}

// 41.E.3: the Soviet player may treat the all-sea hexside between Kronshtadt and Leningrad's
// north-west hex as a major river while he owns both hexes.
TEST(Rule41E3, KronshtadtHexsideOnlyForTheSovietOwningBoth) {
  World w;
  const PathVerdict soviet = w.Check("infantry", Side::kAllied, {"2A:0933", "2A:0832"});
  ASSERT_TRUE(soviet.legal) << soviet.reason;
  EXPECT_EQ(soviet.cost, 6u);
  EXPECT_NE(Rules(soviet).find("41.E.3"), std::string::npos);
  const PathVerdict axis = w.Check("infantry", Side::kAxis, {"2A:0933", "2A:0832"});
  EXPECT_FALSE(axis.legal);
  EXPECT_EQ(axis.blocked_by.at(0).id, "41.E.3");
  w.state.SetOwner(w.t, w.Hex("2A:0832"), Owner::kAxis);
  const PathVerdict lost = w.Check("infantry", Side::kAllied, {"2A:0933", "2A:0832"});
  EXPECT_FALSE(lost.legal);
  EXPECT_EQ(lost.blocked_by.at(0).id, "41.E.3");
  // Kronshtadt's coastal portion is reached by land from 0833 whoever owns it.
  EXPECT_TRUE(w.Check("infantry", Side::kAxis, {"2A:0833", "2A:0832"}).legal);
}

// B4.6: in a frozen zone minor rivers cost nothing and lakes bear ground units; 41.E.6: the
// Vuoksa and its two lakes stay open water for ground units all game.
TEST(Rule41E6, VuoksaNeverFreezes) {
  World w;
  auto vuoksa = w.t.FindHexside("35:4317/4316");
  ASSERT_TRUE(vuoksa);
  // Thawed: an ordinary minor river and the Vuoksa both cost 1 MP to cross (4317 is forest).
  EXPECT_EQ(w.Check("infantry", Side::kAllied, {"35:3918", "35:3919"}).cost, 4u);
  EXPECT_EQ(w.Check("infantry", Side::kAllied, {"35:4316", "35:4317"}).cost, 6u);
  EXPECT_FALSE(w.Check("infantry", Side::kAllied, {"35:4011", "35:4012"}).legal);
  w.Freeze("35:4316");
  EXPECT_EQ(w.Check("infantry", Side::kAllied, {"35:3918", "35:3919"}).cost, 2u);
  const PathVerdict v = w.Check("infantry", Side::kAllied, {"35:4316", "35:4317"});
  EXPECT_EQ(v.cost, 6u);
  EXPECT_NE(Rules(v).find("41.E.6"), std::string::npos);
  // Saimaa freezes; the Vuoksa lakes do not.
  const PathVerdict saimaa = w.Check("infantry", Side::kAllied, {"35:4015", "35:4014"});
  EXPECT_TRUE(saimaa.legal) << saimaa.reason;
  const PathVerdict lake = w.Check("infantry", Side::kAllied, {"35:4419", "35:4420"});
  EXPECT_FALSE(lake.legal);
  EXPECT_EQ(lake.blocked_by.at(0).id, "41.E.6");
}

// Searches and checks agree: every route found is accepted by the path check at its cost,
// and whole-map costs match point-to-point routes.
TEST(GroundRouterTest, SearchAndCheckAgree) {
  World w;
  for (const char* kind : {"infantry", "armor", "engineer"}) {
    auto mover = ParseUnitKind(DefaultRuleTables(), kind, Side::kAllied);
    GroundRouter router(w.Ctx(), *mover);
    const map::HexRef from = w.Hex("16A:0620");
    const std::vector<std::uint32_t> costs = router.CostsFrom(from);
    for (const char* to : {"16A:0827", "16A:0727", "16A:1430", "16A:0417", "16A:1122"}) {
      const RouteAnswer a = router.Route(from, w.Hex(to));
      ASSERT_TRUE(a.reachable) << kind << " to " << to << ": " << a.reason;
      EXPECT_EQ(a.cost, costs[w.Hex(to).v]) << kind << " to " << to;
      std::vector<map::HexRef> hexes;
      for (const Waypoint& p : a.path) hexes.push_back(p.hex);
      const PathVerdict v = router.Check(hexes);
      EXPECT_TRUE(v.legal) << v.reason;
      EXPECT_EQ(v.cost, a.cost) << kind << " to " << to;
    }
  }
}

TEST(GroundRouterTest, UnreachableNamesTheRulesThatStoodInTheWay) {
  World w;
  auto mover = ParseUnitKind(DefaultRuleTables(), "infantry", Side::kAxis);
  GroundRouter router(w.Ctx(), *mover);
  // Kronshtadt to Leningrad for the Axis: only by the 41.E.3 hexside... or by land via 0833.
  const RouteAnswer land = router.Route(w.Hex("2A:0832"), w.Hex("2A:0933"));
  EXPECT_TRUE(land.reachable);
  // Gotland-like isolation: Walcheren's only land link is the causeway; the sea cannot be
  // walked, so a unit on the Hague coast cannot reach a sea hex.
  const RouteAnswer sea = router.Route(w.Hex("16A:0422"), w.Hex("16A:0222"));
  EXPECT_FALSE(sea.reachable);
  ASSERT_FALSE(sea.blocked_by.empty());
  EXPECT_EQ(sea.blocked_by[0].id, "B4.4");
}

}  // namespace
}  // namespace opsim::ops
