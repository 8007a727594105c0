// Naval movement: opsim's base rules (B6) and Rule 41's naval clauses: 41.B Suez, 41.C
// Corinth, 41.D the Shatt al Arab-Tigris, 41.E.1 Kerch, 41.E.4 the Sivash, 41.E.5 the Sea of
// Azov. (41.A.1's causeway example is in tests/map/water_test.cpp.)
#include <gtest/gtest.h>

#include "opsim/ops/route.h"
#include "test_support.h"

namespace opsim::ops {
namespace {

struct Sea {
  const map::Theater& t = opsim::test::Bundled("special-terrain").theater;
  map::MapState state = opsim::test::Bundled("special-terrain").state;

  map::HexRef Hex(const char* token) const {
    auto h = t.FindHex(token);
    EXPECT_TRUE(h) << token;
    return *h;
  }
  RuleContext Ctx() const { return RuleContext{t, state, DefaultRuleTables()}; }
  RouteAnswer Route(const char* group, Side side, const char* from, const char* to) const {
    auto g = ParseGroup(group, side);
    EXPECT_TRUE(g);
    NavalRouter router(Ctx(), *g);
    return router.Route(*ParseWaypoint(t, from), *ParseWaypoint(t, to));
  }
  PathVerdict Check(const char* group, Side side, const char* path) const {
    auto g = ParseGroup(group, side);
    EXPECT_TRUE(g);
    auto p = ParseWaypoints(t, path);
    EXPECT_TRUE(p) << path;
    return NavalRouter(Ctx(), *g).Check(*p);
  }
  const map::Waterway& Waterway(const std::string& name) const {
    for (const map::Waterway& w : t.waterways()) {
      if (w.name == name) return w;
    }
    ADD_FAILURE() << "no waterway " << name;
    return t.waterways().front();
  }
};

// Hexes after the first of a path may drop the sheet of the hex before them, as orders files
// say; the first hex keeps its sheet.
TEST(Waypoints, LaterHexesMayDropTheSheet) {
  const Sea s;
  auto full = ParseWaypoints(s.t, "16A:0827,16A:0826,16A:0825");
  auto short_form = ParseWaypoints(s.t, "16A:0827,0826,0825");
  ASSERT_TRUE(full);
  ASSERT_TRUE(short_form) << short_form.error().to_string();
  ASSERT_EQ(short_form->size(), full->size());
  for (std::size_t i = 0; i < full->size(); ++i) EXPECT_EQ((*short_form)[i].hex, (*full)[i].hex);
  auto named = ParseWaypoints(s.t, "16A:0827#veere,0826");
  ASSERT_TRUE(named) << named.error().to_string();
  EXPECT_EQ((*named)[1].hex, s.Hex("16A:0826"));
  auto first = ParseWaypoints(s.t, "0827,16A:0826");
  ASSERT_FALSE(first);
  EXPECT_NE(first.error().message.find("sheet"), std::string::npos) << first.error().message;
}

bool Refused(const RouteAnswer& a, const char* rule) {
  for (RuleId r : a.blocked_by) {
    if (r.id == rule) return true;
  }
  return false;
}

bool PathUses(const map::Theater& t, const RouteAnswer& a, const map::Waterway& way) {
  for (const Waypoint& w : a.path) {
    if (w.is_river() && t.WaterwayOf(w.river) == &way) return true;
  }
  return false;
}

// B6.1: a naval group moves only through continuous water.
TEST(BaseNaval, NoWaterNoNode) {
  Sea s;
  const RouteAnswer a = s.Route("transport", Side::kAllied, "16A:1122", "16A:0826");
  EXPECT_FALSE(a.reachable);
  ASSERT_EQ(a.blocked_by.size(), 1u);
  EXPECT_EQ(a.blocked_by[0].id, "B6.1");
  const PathVerdict v = s.Check("transport", Side::kAllied, "16A:0826,16A:0925");
  EXPECT_FALSE(v.legal);
}

// 41.B: Allied naval groups may move along Allied-owned hexsides of the open Suez Canal.
TEST(Rule41B, AlliedGroupsUseTheOpenCanal) {
  Sea s;
  const RouteAnswer a = s.Route("tf,cg", Side::kAllied, "19A:3010", "19A:4022");
  ASSERT_TRUE(a.reachable) << a.reason;
  EXPECT_TRUE(PathUses(s.t, a, s.Waterway("Suez Canal")));
  const PathVerdict v = NavalRouter(s.Ctx(), *ParseGroup("tf,cg", Side::kAllied)).Check(a.path);
  EXPECT_TRUE(v.legal) << v.reason;
  EXPECT_EQ(v.cost, a.cost);
}

// 41.B Note: Axis naval groups may never move along the Suez Canal, even if all of it is
// Axis-owned.
TEST(Rule41B, AxisGroupsNeverUseTheCanal) {
  Sea s;
  for (const map::HexRef h : [&] {
         std::vector<map::HexRef> out;
         for (map::HexsideRef side : s.Waterway("Suez Canal").hexsides) {
           out.push_back(s.t.hexside(side).a);
           out.push_back(s.t.hexside(side).b);
         }
         return out;
       }()) {
    s.state.SetOwner(s.t, h, Owner::kAxis);
  }
  const RouteAnswer a = s.Route("transport", Side::kAxis, "19A:3010", "19A:4022");
  EXPECT_FALSE(a.reachable);
  EXPECT_TRUE(Refused(a, "41.B"));
}

// 41.B: temporarily or permanently closed, the canal is shut to the Allies too.
TEST(Rule41B, ClosedCanal) {
  Sea s;
  for (auto status : {map::CanalStatus::kTemporarilyClosed, map::CanalStatus::kPermanentlyClosed}) {
    s.state.SetSuez(status);
    const RouteAnswer a = s.Route("transport", Side::kAllied, "19A:3010", "19A:4022");
    EXPECT_FALSE(a.reachable);
    EXPECT_TRUE(Refused(a, "41.B"));
  }
}

// 41.B: a side owns a canal hexside if it owns both hexes beside it or was the last to do so.
TEST(Rule41B, HexsideOwnershipIsBothHexesOrTheLastToHoldBoth) {
  Sea s;
  const map::HexsideRef side = s.Waterway("Suez Canal").hexsides[4];
  const map::HexRef a = s.t.hexside(side).a;
  const map::HexRef b = s.t.hexside(side).b;
  EXPECT_EQ(s.state.hexside_owner(side), Owner::kAllied);
  s.state.SetOwner(s.t, a, Owner::kAxis);  // one bank: the Allies were last to own both
  EXPECT_EQ(s.state.hexside_owner(side), Owner::kAllied);
  EXPECT_TRUE(s.Route("transport", Side::kAllied, "19A:3010", "19A:4022").reachable);
  s.state.SetOwner(s.t, b, Owner::kAxis);  // both banks
  EXPECT_EQ(s.state.hexside_owner(side), Owner::kAxis);
  const RouteAnswer blocked = s.Route("transport", Side::kAllied, "19A:3010", "19A:4022");
  EXPECT_FALSE(blocked.reachable);
  EXPECT_TRUE(Refused(blocked, "41.B"));
  s.state.SetOwner(s.t, a, Owner::kAllied);  // retaken on one bank only: still Axis
  EXPECT_EQ(s.state.hexside_owner(side), Owner::kAxis);
}

// 41.C: a group with no TFs or CGs of the side owning both 0813 and 0814 may use the canal.
TEST(Rule41C, CorinthCanal) {
  Sea s;
  const char* through = "15B:0714,15B:0813/0814,15B:0914";
  const PathVerdict ok = s.Check("transport", Side::kAllied, through);
  EXPECT_TRUE(ok.legal) << ok.reason;
  EXPECT_EQ(ok.cost, 1u);
  const PathVerdict tf = s.Check("tf,transport", Side::kAllied, through);
  EXPECT_FALSE(tf.legal);
  EXPECT_EQ(tf.blocked_by.at(0).id, "41.C");
  // A TF goes round the Peloponnese instead.
  const RouteAnswer around = s.Route("tf", Side::kAllied, "15B:0714", "15B:0914");
  ASSERT_TRUE(around.reachable);
  EXPECT_GT(around.cost, 10u);
  EXPECT_FALSE(PathUses(s.t, around, s.Waterway("Corinth Canal")));
  // Lose one of the two hexes and the canal is shut.
  s.state.SetOwner(s.t, s.Hex("15B:0813"), Owner::kAxis);
  const PathVerdict lost = s.Check("transport", Side::kAllied, through);
  EXPECT_FALSE(lost.legal);
  EXPECT_EQ(lost.blocked_by.at(0).id, "41.C");
  EXPECT_FALSE(s.Check("transport", Side::kAxis, through).legal);
  s.state.SetOwner(s.t, s.Hex("15B:0814"), Owner::kAxis);
  EXPECT_TRUE(s.Check("transport", Side::kAxis, through).legal);
}

// 41.D: groups without TFs or CGs move along the Shatt al Arab-Tigris between the coast and
// the inland ports, no further upriver than 22A:3219/3220.
TEST(Rule41D, TransportsReachEveryInlandPort) {
  Sea s;
  for (const char* port : {"22A:4410", "22A:4311", "22A:4313", "22A:3219"}) {
    const RouteAnswer a = s.Route("transport", Side::kAllied, "22A:4806", port);
    EXPECT_TRUE(a.reachable) << port << ": " << a.reason;
  }
  const PathVerdict limit = s.Check("transport", Side::kAllied, "22A:3219,22A:3219/3220,22A:3219");
  EXPECT_TRUE(limit.legal) << limit.reason;
}

TEST(Rule41D, NoTaskForcesOrCarriers) {
  Sea s;
  const RouteAnswer a = s.Route("tf", Side::kAllied, "22A:4806", "22A:4313");
  EXPECT_FALSE(a.reachable);
  EXPECT_TRUE(Refused(a, "41.D"));
}

TEST(Rule41D, NoFurtherUpriverThanKut) {
  Sea s;
  const map::Waterway& above = s.Waterway("Tigris above Kut-al-Imara");
  const RouteAnswer a = s.Route("transport", Side::kAllied, "22A:4806", "22A:2919");  // Baghdad
  EXPECT_FALSE(a.reachable);
  EXPECT_TRUE(Refused(a, "41.D"));
  const std::string path = "22A:3219," + s.t.HexsideName(above.hexsides.front());
  const PathVerdict v = s.Check("transport", Side::kAllied, path.c_str());
  EXPECT_FALSE(v.legal);
  EXPECT_EQ(v.blocked_by.at(0).id, "41.D");
}

TEST(Rule41D, NeverAlongTheBranchesOrTheLakes) {
  Sea s;
  for (const char* branch : {"Karun", "Euphrates", "Hammar Lake"}) {
    const map::Waterway& way = s.Waterway(branch);
    EXPECT_TRUE(way.closed) << branch;
    // From the Shatt hexside it meets, onto the branch.
    bool tried = false;
    for (map::HexsideRef side : way.hexsides) {
      auto node = s.t.RiverNode(side);
      ASSERT_TRUE(node);
      const auto& g = s.t.naval_graph();
      for (auto e : boost::make_iterator_range(boost::out_edges(*node, g))) {
        const auto target = boost::target(e, g);
        if (!s.t.IsRiverNode(target)) continue;
        const map::Waterway* from = s.t.WaterwayOf(s.t.RiverHexside(target));
        if (from == nullptr || from->name != "Shatt al Arab-Tigris") continue;
        const std::string path =
            s.t.HexsideName(s.t.RiverHexside(target)) + "," + s.t.HexsideName(side);
        const PathVerdict v = s.Check("transport", Side::kAllied, path.c_str());
        EXPECT_FALSE(v.legal) << path;
        EXPECT_EQ(v.blocked_by.at(0).id, "41.D") << path;
        tried = true;
      }
    }
    // The branches meet the Shatt; the Hammar lake touches neither it nor a port.
    if (std::string(branch) != "Hammar Lake") {
      EXPECT_TRUE(tried) << branch;
    }
  }
}

// 41.E.1: naval units may not move through the Kerch Straits while the enemy owns both strait
// hexes, but may move to them.
TEST(Rule41E1, KerchStraits) {
  Sea s;
  const char* through = "4A:3425,4A:3525,4A:3625";
  EXPECT_TRUE(s.Check("transport", Side::kAllied, through).legal);  // one strait hex is Axis
  s.state.SetOwner(s.t, s.Hex("4A:3525"), Owner::kAxis);
  s.state.SetOwner(s.t, s.Hex("4A:3526"), Owner::kAxis);
  const PathVerdict v = s.Check("transport", Side::kAllied, through);
  EXPECT_FALSE(v.legal);
  EXPECT_EQ(v.failed_step, 2);
  EXPECT_EQ(v.blocked_by.at(0).id, "41.E.1");
  // Into the straits (to land troops, say) is allowed, and back out the same side.
  EXPECT_TRUE(s.Check("transport", Side::kAllied, "4A:3425,4A:3525").legal);
  EXPECT_TRUE(s.Check("transport", Side::kAllied, "4A:3425,4A:3525,4A:3526,4A:3425").legal);
  EXPECT_FALSE(s.Check("transport", Side::kAllied, "4A:3425,4A:3525,4A:3526,4A:3625").legal);
  const RouteAnswer a = s.Route("transport", Side::kAllied, "4A:3025", "4A:3725");
  EXPECT_FALSE(a.reachable);
  EXPECT_TRUE(Refused(a, "41.E.1"));
  // The Axis, owning them, passes.
  EXPECT_TRUE(s.Check("transport", Side::kAxis, through).legal);
}

// 41.E.4: naval units may not enter any hex of the Sivash line, 4A:2929 through 4A:3240.
TEST(Rule41E4, Sivash) {
  Sea s;
  for (const char* path : {"4A:2829,4A:2929", "4A:3140,4A:3240"}) {
    const PathVerdict v = s.Check("flotilla", Side::kAllied, path);
    EXPECT_FALSE(v.legal) << path;
    EXPECT_EQ(v.blocked_by.at(0).id, "41.E.4") << path;
  }
}

// 41.E.5: a river flotilla may enter any all-sea hex in the Sea of Azov (B6.4: elsewhere it
// keeps off all-sea hexes).
TEST(Rule41E5, FlotillasInTheSeaOfAzov) {
  Sea s;
  const RouteAnswer azov = s.Route("flotilla", Side::kAllied, "4A:2621", "4A:3025");
  ASSERT_TRUE(azov.reachable) << azov.reason;
  EXPECT_TRUE(PathUses(s.t, azov, s.Waterway("Don")));
  const RouteAnswer black = s.Route("flotilla", Side::kAllied, "4A:2621", "4A:3725");
  EXPECT_FALSE(black.reachable);
  EXPECT_TRUE(Refused(black, "B6.4"));
  // Transports go anywhere at sea.
  EXPECT_TRUE(s.Route("transport", Side::kAllied, "4A:3025", "4A:3725").reachable);
}

}  // namespace
}  // namespace opsim::ops
