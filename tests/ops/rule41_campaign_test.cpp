// Rule 41 in play: every clause that acts during a player-turn, through the campaign engine,
// each test named after its clause. (Routing-only clauses are in ground_test and naval_test.)
#include <gtest/gtest.h>

#include "campaign_support.h"

namespace opsim::ops {
namespace {

using nlohmann::json;
using test::Camp;
using test::Said;

// --- 41.A.1 ---------------------------------------------------------------------------------

// 41.A.1: ground units treat a causeway as a major river hexside for combat.
TEST(Rule41A1, AttackAcrossACausewayIsAcrossAMajorRiver) {
  Camp c;
  c.ClearUnits();
  c.At(1);  // the Allied player-turn of May I 1940
  c.Own("16A:0727", Side::kAllied);
  c.Own("16A:0827", Side::kAxis);
  c.Add("al-1", Side::kAllied, opsim::test::BaseType("infantry"), 6, 4, 4, 2, "16A:0727");
  c.Add("ax-1", Side::kAxis, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "16A:0827");
  auto r = c.Play({{"combat", json::array({{{"attack", "16A:0827"}, {"units", {"al-1"}}}})}}, {6});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", "B7.2", "across a major river")) << test::AllEvents(*r);
  // The explanation cites the clause that made the hexside a major river, not the CRT alone.
  EXPECT_TRUE(Said(*r, "combat", "41.A.1")) << test::AllEvents(*r);
}

// 41.A.1: causeways count as bridges for construction and destruction (B14).
TEST(Rule41A1, CausewaysAreDestroyedAndRebuiltAsBridges) {
  Camp c;
  c.ClearUnits();
  c.At(1);
  c.Add("eng", Side::kAllied, opsim::test::BaseType("engineer"), 1, 1, 4, 1, "16A:0827");
  c.Add("inf", Side::kAllied, opsim::test::BaseType("infantry"), 2, 2, 4, 1, "16A:0827");
  auto r =
      c.Play({{"movement", json::array({{{"destroy-bridge", "16A:0827/0727"}, {"unit", "eng"}}})}});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "bridge", "41.A.1", "destroys the causeway")) << test::AllEvents(*r);
  EXPECT_TRUE(c.state.map.bridge_destroyed(c.Hexside("16A:0827/0727")));
  // With the causeway down, nothing crosses to Walcheren.
  c.At(3);
  auto blocked = c.Play(
      {{"movement", json::array({{{"units", {"inf"}}, {"path", {"16A:0827", "16A:0727"}}}})}});
  ASSERT_FALSE(blocked);
  EXPECT_EQ(blocked.error().rule, "41.A.1");
  // Any unit destroys; only construction units build.
  auto not_builder =
      c.Play({{"movement", json::array({{{"build-bridge", "16A:0827/0727"}, {"unit", "inf"}}})}});
  ASSERT_FALSE(not_builder);
  EXPECT_EQ(not_builder.error().rule, "B14.2");
  auto built =
      c.Play({{"movement", json::array({{{"build-bridge", "16A:0827/0727"}, {"unit", "eng"}}})}});
  ASSERT_TRUE(built) << built.error().to_string();
  EXPECT_FALSE(c.state.map.bridge_destroyed(c.Hexside("16A:0827/0727")));
  c.At(5);
  EXPECT_TRUE(c.Play(
      {{"movement", json::array({{{"units", {"inf"}}, {"path", {"16A:0827", "16A:0727"}}}})}}));
}

// --- 41.A.2 ---------------------------------------------------------------------------------

// 41.A.2: up to 3 REs move the length of a rail ferry; it uses no rail capacity.
TEST(Rule41A2, ThreeREsAPlayerTurnAndNoRailCapacity) {
  Camp c;
  c.ClearUnits();
  c.At(2);  // Axis, May II 1940
  c.Add("a", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 4, "9A:1004");
  c.Add("b", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 4, "9A:1004");
  c.Add("r", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 6, "9A:0610");
  auto too_many =
      c.Play({{"movement", json::array({{{"units", {"a"}}, {"path", {"9A:1004", "9A:1001"}}},
                                        {{"units", {"b"}}, {"path", {"9A:1004", "9A:1001"}}}})}},
             c.Weather());
  ASSERT_FALSE(too_many);
  EXPECT_EQ(too_many.error().rule, "41.A.2");
  auto ok = c.Play(
      {{"movement", json::array({{{"units", {"a"}}, {"path", {"9A:1004", "9A:1001"}}},
                                 {{"rail", {"r"}}, {"path", {"9A:0610", "9A:0611", "9A:0612"}}}})}},
      c.Weather());
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_TRUE(Said(*ok, "move", "B4.10", "1004-1001 (3 MP)")) << test::AllEvents(*ok);
  // The 3-RE rail move finds all 6 REs of rail capacity free: the ferry used none.
  EXPECT_TRUE(Said(*ok, "rail", "B5.1", "3 of 6 REs of rail capacity used"))
      << test::AllEvents(*ok);
}

// --- 41.A.3 ---------------------------------------------------------------------------------

// 41.A.3: ice airfields on frozen partial-lake hexes, built by any unit at no SMP cost.
TEST(Rule41A3, IceAirfieldOnlyOnAFrozenPartialLake) {
  Camp c;
  c.ClearUnits();
  c.At(1);
  c.Add("inf", Side::kAllied, opsim::test::BaseType("infantry"), 2, 2, 4, 2, "2A:1231");
  c.Add("dry", Side::kAllied, opsim::test::BaseType("infantry"), 2, 2, 4, 2, "2A:0933");
  const json build = {{"initial", json::array({{{"ice-airfield", "2A:1231"}, {"unit", "inf"}}})}};
  auto thawed = c.Play(build);
  ASSERT_FALSE(thawed);
  EXPECT_EQ(thawed.error().rule, "41.A.3");
  c.state.map.SetFrozen(c.t().hex(c.Hex("2A:1231")).zone, true);
  auto land = c.Play({{"initial", json::array({{{"ice-airfield", "2A:0933"}, {"unit", "dry"}}})}});
  ASSERT_FALSE(land);
  EXPECT_EQ(land.error().rule, "41.A.3");
  auto ok = c.Play(build);  // an infantry unit: every unit counts as a construction unit
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_TRUE(c.state.map.ice_airfield(c.Hex("2A:1231")));
  EXPECT_TRUE(Said(*ok, "ice-airfield", "41.A.3", "no SMP cost")) << test::AllEvents(*ok);
}

// 41.A.3 with 41.E.6: the Vuoksa lakes never freeze, so no ice airfield stands on the partial-lake
// hexes of their shores, even in a frozen zone, as no ground unit stands on their ice.
TEST(Rule41A3, NoIceAirfieldOnTheVuoksaLakes) {
  Camp c;
  c.ClearUnits();
  c.At(1);
  for (const char* shore : {"35:4419", "35:4724"}) {
    c.Add(std::string("inf-") + shore, Side::kAllied, opsim::test::BaseType("infantry"), 2, 2, 4, 2,
          shore);
    ASSERT_TRUE(c.t().hex(c.Hex(shore)).IsPartialLake()) << shore;
    c.state.map.SetFrozen(c.t().hex(c.Hex(shore)).zone, true);
    auto r =
        c.Play({{"initial",
                 json::array({{{"ice-airfield", shore}, {"unit", std::string("inf-") + shore}}})}});
    ASSERT_FALSE(r) << shore;
    EXPECT_EQ(r.error().rule, "41.A.3") << shore;
    EXPECT_NE(r.error().message.find("never freezes (41.E.6)"), std::string::npos) << shore;
    EXPECT_FALSE(c.state.map.ice_airfield(c.Hex(shore))) << shore;
  }
}

// 41.A.3: when the lake thaws the ice airfield goes, and its air units must try to escape.
TEST(Rule41A3, ThawRemovesTheAirfieldAndAirUnitsEscape) {
  Camp c;
  c.ClearUnits();
  c.At(2);  // the Axis player-turn of May II: the weather is rolled
  const std::size_t zone = c.t().hex(c.Hex("2A:1231")).zone;
  c.state.map.SetFrozen(zone, true);
  c.state.map.SetIceAirfield(c.Hex("2A:1231"), true);
  AirUnit vvs;
  vvs.id = "vvs";
  vvs.name = "VVS";
  vvs.side = Side::kAllied;
  vvs.base = c.Hex("2A:1231");
  c.state.air.push_back(vvs);
  auto r = c.Play({}, c.Weather(1));  // May: a 1 is clear weather everywhere
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_FALSE(c.state.map.frozen(zone));
  EXPECT_FALSE(c.state.map.ice_airfield(c.Hex("2A:1231")));
  EXPECT_TRUE(Said(*r, "ice-airfield", "41.A.3", "ice airfield is removed")) << test::AllEvents(*r);
  // No Soviet airbase lies within reach, so the escape fails at once.
  EXPECT_EQ(c.state.air.back().status, AirStatus::kEliminated);
  EXPECT_TRUE(Said(*r, "air", "B11.2", "eliminated")) << test::AllEvents(*r);
}

// --- 41.A.4.a -------------------------------------------------------------------------------

// 41.A.4.a.2: the success table's die gets +2 in the Netherlands.
TEST(Rule41A4a, NetherlandsModifier) {
  Camp c = test::Polder(1);
  c.At(0);
  auto r = c.Play({{"combat", json::array({{{"attack", "1:0403"}, {"units", {"de-a"}}},
                                           {{"attack", "1:0603"}, {"units", {"de-b"}}}})},
                   {"reactions", json::array({{{"flood", "1:0403"}}, {{"flood", "1:0603"}}})}},
                  {1, /*flood 0403*/ 2, /*combat*/ 6, /*flood 0603*/ 2, /*combat*/ 6});
  ASSERT_TRUE(r) << r.error().to_string();
  // A 2 in the Netherlands is a 4: F. Outside, it stays a 2: F*.
  EXPECT_TRUE(Said(*r, "flood", "41.A.4.a", "side fails to flood 1:0403 (F)"))
      << test::AllEvents(*r);
  EXPECT_TRUE(Said(*r, "flood", "41.A.4.a", "side fails to flood 1:0603 (F*)"))
      << test::AllEvents(*r);
}

// 41.A.4.a: F fails and the attack suffers -1 to its die roll. 12 to 2 is 6:1, shifted to 5:1
// for canal-intensive terrain, where a 3 is DE but a 2 only DR.
TEST(Rule41A4a, FailureCostsTheAttackOne) {
  Camp c = test::Polder(1);
  c.At(0);
  auto r = c.Play({{"combat", json::array({{{"attack", "1:0403"}, {"units", {"de-a"}}}})},
                   {"reactions", json::array({{{"flood", "1:0403"}}})}},
                  {1, 2, 3});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "die", "B7.2", "rolled 3 (the players' die): DR at 5:1 (die -1)"))
      << test::AllEvents(*r);
  EXPECT_EQ(c.Unit("nl-a").status, UnitStatus::kOnMap);  // retreated, not eliminated
}

// 41.A.4.a.2-3: success floods the hex (swamp for combat); the attacker may call off, and
// the units so allocated may not attack elsewhere.
TEST(Rule41A4a, SuccessAndCallingOff) {
  Camp c = test::Polder(1);
  c.At(0);
  auto r = c.Play(
      {{"combat",
        json::array({{{"attack", "1:0403"}, {"units", {"de-a"}}, {"if-flooded", "call-off"}}})},
       {"reactions", json::array({{{"flood", "1:0403"}}})}},
      {1, 3});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "flood", "41.A.4.a", "is flooded (S)")) << test::AllEvents(*r);
  EXPECT_TRUE(Said(*r, "combat", "41.A.4.a", "called off")) << test::AllEvents(*r);
  EXPECT_EQ(c.Unit("nl-a").status, UnitStatus::kOnMap);
  // Called off, the same unit may not then attack a different hex.
  Camp d = test::Polder(1);
  d.At(0);
  d.Unit("de-a").hex = d.Hex("1:0502");
  d.Add("nl-c", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 3, 2, "1:0402");
  auto again =
      d.Play({{"combat",
               json::array({{{"attack", "1:0403"}, {"units", {"de-a"}}, {"if-flooded", "call-off"}},
                            {{"attack", "1:0402"}, {"units", {"de-a"}}}})},
              {"reactions", json::array({{{"flood", "1:0403"}}})}},
             {1, 3});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().rule, "B7.1");
}

// 41.A.4.a: S counts the hex as swamp for combat (the swamp shift); the flood lasts the
// player-turn only.
TEST(Rule41A4a, FloodedHexIsSwampForThisPlayerTurn) {
  Camp c = test::Polder(1);
  c.At(0);
  auto r = c.Play({{"combat", json::array({{{"attack", "1:0403"}, {"units", {"de-a"}}}})},
                   {"reactions", json::array({{{"flood", "1:0403"}}})}},
                  {1, 3, 6});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", "B7.2", "shifted -1 (swamp)")) << test::AllEvents(*r);
  EXPECT_EQ(c.state.map.flood(c.Hex("1:0403")), nullptr);
  EXPECT_TRUE(Said(*r, "flood", "41.A.4.a", "recedes with the player-turn")) << test::AllEvents(*r);
}

// 41.A.4.a S*: the hex is prohibited terrain for the next two turns.
TEST(Rule41A4a, GreatSuccessProhibitsTheHex) {
  Camp c = test::Polder(1);
  c.At(0);
  auto r = c.Play({{"combat", json::array({{{"attack", "1:0403"}, {"units", {"de-a"}}}})},
                   {"reactions", json::array({{{"flood", "1:0403"}}})}},
                  {1, 6, 6});
  ASSERT_TRUE(r) << r.error().to_string();
  const map::Flood* f = c.state.map.flood(c.Hex("1:0403"));
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->kind, map::FloodKind::kProhibited);
  EXPECT_EQ(f->until, 4);  // player-turns 1 to 4: two game turns
  // Next player-turn no one may enter it.
  c.Add("nl-d", Side::kAllied, opsim::test::BaseType("infantry"), 1, 1, 3, 1, "1:0303");
  auto enter =
      c.Play({{"movement", json::array({{{"units", {"nl-d"}}, {"path", {"1:0303", "1:0403"}}}})}});
  ASSERT_FALSE(enter);
  EXPECT_EQ(enter.error().rule, "41.A.4.a");
}

// 41.A.4.a: only the owner floods, only a canal-intensive hex, only when it is attacked.
TEST(Rule41A4a, WhoMayFloodWhat) {
  Camp c = test::Polder(1);
  c.At(0);
  auto not_attacked = c.Play({{"reactions", json::array({{{"flood", "1:0303"}}})}}, {1});
  ASSERT_FALSE(not_attacked);
  EXPECT_EQ(not_attacked.error().rule, "41.A.4.a");
  Camp d;  // special-terrain: 16A:1122's owner is the Allies
  d.ClearUnits();
  d.At(1);
  d.Own("16A:1122", Side::kAxis);
  d.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 1, 1, 4, 2, "16A:1122");
  d.Add("al", Side::kAllied, opsim::test::BaseType("infantry"), 5, 5, 4, 2, "16A:1022");
  d.state.map.SetOwner(d.t(), d.Hex("16A:1022"), Owner::kAllied);
  // The Axis owns it now: the reaction is theirs, and this one is made in their name.
  auto ok = d.Play({{"combat", json::array({{{"attack", "16A:1122"}, {"units", {"al"}}}})},
                    {"reactions", json::array({{{"flood", "16A:1122"}}})}},
                   {1, 1});
  EXPECT_TRUE(ok) << ok.error().to_string();
}

// 41.A.4.a.4: after the Netherlands surrenders, a flood costs the Allies 3 SRPs if the hex has
// a dot city or (in the Netherlands) touches a dot or major city there.
TEST(Rule41A4a, DisasterReliefAfterTheSurrender) {
  auto relief_for = [](const std::string& hex, bool surrendered) {
    Camp c;
    c.ClearUnits();
    c.At(0);  // the Axis attacks; the Allies flood
    c.state.netherlands_surrendered = surrendered;
    c.Add("nl", Side::kAllied, opsim::test::BaseType("infantry"), 1, 1, 3, 2, hex);
    const map::HexRef h = c.Hex(hex);
    map::HexRef from;
    for (map::Dir d : map::kAllDirs) {
      const map::HexRef n = c.t().NeighborAt(h, d);
      if (n.valid() && !c.t().hex(n).IsWater()) from = n;
    }
    c.state.map.SetOwner(c.t(), from, Owner::kAxis);
    c.Add("de", Side::kAxis, opsim::test::BaseType("infantry"), 1, 1, 4, 2, c.t().HexName(from));
    const int before = c.state.srp["british"];
    auto r =
        c.Play({{"combat",
                 json::array({{{"attack", hex}, {"units", {"de"}}, {"if-flooded", "call-off"}}})},
                {"reactions", json::array({{{"flood", hex}}})}},
               [&] {
                 auto dice = c.Weather();
                 dice.push_back(5);  // +2: S
                 return dice;
               }());
    EXPECT_TRUE(r) << r.error().to_string();
    return before - c.state.srp["british"];
  };
  EXPECT_EQ(relief_for("16A:0822", true), 3);   // Utrecht, a dot city
  EXPECT_EQ(relief_for("16A:0623", true), 3);   // next to Rotterdam
  EXPECT_EQ(relief_for("16A:1122", true), 0);   // no city in or next to it
  EXPECT_EQ(relief_for("16A:0822", false), 0);  // before the surrender
}

// --- 41.A.4.b -------------------------------------------------------------------------------

// A massive flooding attempt by the Axis on a hex the Allies attack, after the surrender.
Result<TurnResult> MassiveFlood(Camp& c, const std::string& hex, std::vector<int> dice,
                                bool surrendered = true) {
  c.At(1);
  c.state.netherlands_surrendered = surrendered;
  const map::HexRef h = c.Hex(hex);
  c.state.map.SetOwner(c.t(), h, Owner::kAxis);
  if (c.state.FindUnit("de-def") == nullptr) {
    c.Add("de-def", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 2, hex);
  }
  map::HexRef from;
  for (map::Dir d : map::kAllDirs) {
    const map::HexRef n = c.t().NeighborAt(h, d);
    if (n.valid() && !c.t().hex(n).IsWater() && !from.valid()) from = n;
  }
  c.state.map.SetOwner(c.t(), from, Owner::kAllied);
  if (c.state.FindUnit("al-att") == nullptr) {
    c.Add("al-att", Side::kAllied, opsim::test::BaseType("infantry"), 8, 8, 4, 2,
          c.t().HexName(from));
  }
  return c.Play({{"combat", json::array({{{"attack", hex}, {"units", {"al-att"}}}})},
                 {"reactions", json::array({{{"massive-flood", hex}}})}},
                dice);
}

// 41.A.4.b EX: the Axis could massively flood 16A:0623 and 0922, but not 16A:1122 or 0417.
TEST(Rule41A4b, Example_0623And0922ButNot1122Or0417) {
  for (const char* hex : {"16A:0623", "16A:0922"}) {
    Camp c;
    c.ClearUnits();
    auto r = MassiveFlood(c, hex, {5});
    ASSERT_TRUE(r) << hex << ": " << r.error().to_string();
    const map::Flood* f = c.state.map.flood(c.Hex(hex));
    ASSERT_NE(f, nullptr) << hex;
    EXPECT_EQ(f->kind, map::FloodKind::kMassive) << hex;
  }
  for (const char* hex : {"16A:1122", "16A:0417"}) {
    Camp c;
    c.ClearUnits();
    auto r = MassiveFlood(c, hex, {5});
    ASSERT_FALSE(r) << hex;
    EXPECT_EQ(r.error().rule, "41.A.4.b") << hex;
    EXPECT_NE(r.error().message.find("coastal or have a river or canal hexside"), std::string::npos)
        << r.error().message;
  }
}

// 41.A.4.b: only after the Netherlands surrenders; only the Axis.
TEST(Rule41A4b, OnlyTheAxisAndOnlyAfterTheSurrender) {
  Camp before;
  before.ClearUnits();
  auto r = MassiveFlood(before, "16A:0623", {5}, false);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "41.A.4.b");
  // The Allies, defending against an Axis attack, may not massively flood.
  Camp c;
  c.ClearUnits();
  c.At(0);
  c.state.netherlands_surrendered = true;
  c.Add("nl", Side::kAllied, opsim::test::BaseType("infantry"), 1, 1, 3, 2, "16A:0623");
  c.Own("16A:0723", Side::kAxis);
  c.Add("de", Side::kAxis, opsim::test::BaseType("infantry"), 5, 5, 4, 2, "16A:0723");
  auto allied = c.Play({{"combat", json::array({{{"attack", "16A:0623"}, {"units", {"de"}}}})},
                        {"reactions", json::array({{{"massive-flood", "16A:0623"}}})}},
                       [&] {
                         auto d = c.Weather();
                         d.push_back(5);
                         return d;
                       }());
  ASSERT_FALSE(allied);
  EXPECT_EQ(allied.error().rule, "41.A.4.b");
  EXPECT_NE(allied.error().message.find("only the Axis"), std::string::npos);
}

// 41.A.4.b.1-5 and the marker: prohibited now and next player-turn, then swamp for good; Axis
// units retreat, air units escape, ships put to sea, airbase and port wrecked; the attack is
// cancelled; air-dropped units get +3 MP; 7 SRPs at once, 1 in later Allied initial phases.
TEST(Rule41A4b, EffectsOfAMassiveFlood) {
  Camp c;
  c.ClearUnits();
  c.At(1);
  c.state.netherlands_surrendered = true;
  const map::HexRef h = c.Hex("16A:0624");  // Rotterdam: a major port
  c.Own("16A:0624", Side::kAxis);
  c.Own("16A:0524", Side::kAxis);
  // The Axis ship in port must put to sea.
  NavalUnit ship;
  ship.id = "de-ship";
  ship.name = "Kriegsmarine tugs";
  ship.side = Side::kAxis;
  ship.kind = NavalKind::kTransport;
  ship.hex = h;
  c.state.naval.push_back(ship);
  c.Add("de-def", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 2, "16A:0624");
  // A friendly unit in 16A:0524 opens a retreat into al-att's zone of control.
  c.Add("de-west", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 2, "16A:0524");
  c.Add("al-att", Side::kAllied, opsim::test::BaseType("infantry"), 8, 8, 4, 2, "16A:0623");
  c.Add("al-para", Side::kAllied, opsim::test::BaseType("airborne"), 2, 2, 8, 1,
        "16A:0620");  // Amsterdam
  const int srp = c.state.srp["british"];
  auto r =
      c.Play({{"movement", json::array({{{"air-drop", "al-para"}, {"hex", "16A:0624"}}})},
              {"combat", json::array({{{"attack", "16A:0624"}, {"units", {"al-att", "al-para"}}}})},
              {"reactions", json::array({{{"massive-flood", "16A:0624"}}})}},
             {5});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "air-drop", "B11.3", "drops onto the enemy units at 16A:0624"))
      << test::AllEvents(*r);
  EXPECT_TRUE(Said(*r, "combat", "41.A.4.b", "cancelled")) << test::AllEvents(*r);
  EXPECT_EQ(c.Unit("de-def").hex, c.Hex("16A:0524"));  // 41.A.4.b.2: retreated as on a DR
  EXPECT_TRUE(Said(*r, "retreat", "41.A.4.b", "16A:0624 to 16A:0524")) << test::AllEvents(*r);
  EXPECT_TRUE(c.state.naval.back().at_sea);
  EXPECT_EQ(c.state.map.port_damage(h), 3);  // a major port's maximum
  // 41.A.4.b.4: the air-dropped unit still occupies the hex, with a +3 MP marker.
  EXPECT_EQ(c.Unit("al-para").hex, h);
  EXPECT_EQ(c.Unit("al-para").status, UnitStatus::kOnMap);
  EXPECT_EQ(c.Unit("al-para").extra_mp_marker, 3);
  EXPECT_EQ(c.state.map.owner(h), Owner::kAllied);
  EXPECT_EQ(c.Unit("al-att").hex, c.Hex("16A:0623"));  // no advance into prohibited terrain
  EXPECT_EQ(c.state.srp["british"], srp - 7);
  EXPECT_TRUE(c.state.map.HasMarker(h, "massively-flooded"));
  const map::Flood* f = c.state.map.flood(h);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->from, 1);
  EXPECT_EQ(f->until, 2);
  // The Axis player-turn after: still prohibited.
  auto axis = c.Play({}, c.Weather());
  ASSERT_TRUE(axis);
  GroundMover foot;
  RuleContext at2{c.t(), c.state.map, c.campaign().tables};
  at2.player_turn = 2;
  EXPECT_EQ(EvaluateGroundHex(at2, foot, h, nullptr).blocked.id, "41.A.4.b");
  // The next Allied player-turn: swamp, and 1 SRP of relief in its initial phase.
  auto allied = c.Play({});
  ASSERT_TRUE(allied);
  EXPECT_TRUE(Said(*allied, "relief", "41.A.4.b", "1 SRP")) << test::AllEvents(*allied);
  EXPECT_EQ(c.state.srp["british"], srp - 8);
  RuleContext at3{c.t(), c.state.map, c.campaign().tables};
  at3.player_turn = 3;
  const StepVerdict swamp = EvaluateGroundHex(at3, foot, h, nullptr);
  EXPECT_TRUE(swamp.blocked.empty());
  EXPECT_EQ(swamp.cost, 6u);
  // The +3 MP marker is paid on the unit's next move.
  c.At(5);
  auto move = c.Play(
      {{"movement", json::array({{{"units", {"al-para"}}, {"path", {"16A:0624", "16A:0623"}}}})}});
  ASSERT_TRUE(move) << move.error().to_string();
  EXPECT_TRUE(Said(*move, "move", "41.A.4.b", "+3 MP marker")) << test::AllEvents(*move);
  EXPECT_EQ(c.Unit("al-para").extra_mp_marker, 0);
}

// 41.A.4.b.2: Axis air units at an airbase in the hex must attempt to escape (B11.2).
TEST(Rule41A4b, AirUnitsEscapeOrAreLost) {
  for (int die : {2, 6}) {
    Camp c;
    c.ClearUnits();
    AirUnit kg;
    kg.id = "kg";
    kg.name = "KG 4";
    kg.side = Side::kAxis;
    kg.base = c.Hex("16A:0620");  // Amsterdam's airbase
    c.state.air = {kg};
    auto r = MassiveFlood(c, "16A:0620", {5, die});
    ASSERT_TRUE(r) << r.error().to_string();
    const AirUnit& after = c.state.air.front();
    if (die <= 4) {
      EXPECT_EQ(after.status, AirStatus::kBased);
      EXPECT_EQ(after.base, c.Hex("16A:1321"));  // Wesel, the nearest Axis airbase
    } else {
      EXPECT_EQ(after.status, AirStatus::kEliminated);
    }
    EXPECT_EQ(c.state.map.airbase_damage(c.Hex("16A:0620")), 3);
  }
}

// --- 41.B -----------------------------------------------------------------------------------

// 41.B.1: the Allies may close the open canal while an Axis unit in regular supply is in the
// Egyptian Delta.
TEST(Rule41B, TemporaryClosure) {
  Camp c;
  c.At(1);
  auto r = c.Play({{"initial", json::array({{{"suez", "close"}}})}});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(c.state.map.suez(), map::CanalStatus::kTemporarilyClosed);
  Camp none;
  none.At(1);
  none.Unit("it-10a").hex = none.Hex("19A:2417");  // out of the Delta
  auto refused = none.Play({{"initial", json::array({{{"suez", "close"}}})}});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().rule, "41.B");
  EXPECT_NE(refused.error().message.find("Egyptian Delta"), std::string::npos);
  // Only the Allied player closes it.
  Camp axis;
  axis.At(0);
  auto by_axis = axis.Play({{"initial", json::array({{{"suez", "close"}}})}}, axis.Weather());
  ASSERT_FALSE(by_axis);
  EXPECT_EQ(by_axis.error().rule, "41.B");
}

// 41.B.2: reopened in an Allied initial phase when every canal hexside is Allied-owned.
TEST(Rule41B, Reopening) {
  Camp c;
  c.At(1);
  c.state.map.SetSuez(map::CanalStatus::kTemporarilyClosed);
  auto r = c.Play({{"initial", json::array({{{"suez", "reopen"}}})}});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(c.state.map.suez(), map::CanalStatus::kOpen);
  Camp open;
  open.At(1);
  auto not_closed = open.Play({{"initial", json::array({{{"suez", "reopen"}}})}});
  ASSERT_FALSE(not_closed);
  EXPECT_EQ(not_closed.error().rule, "41.B");
}

// 41.B.3: permanently closed at the start of the first initial phase, of either side, in which
// a canal hexside is Axis-owned.
TEST(Rule41B, PermanentClosure) {
  for (std::int32_t serial : {0, 1}) {
    Camp c;
    c.At(serial);
    c.state.map.SetSuez(map::CanalStatus::kTemporarilyClosed);
    const map::Waterway* canal = c.t().FindWaterway(map::WaterwayRule::kSuez);
    ASSERT_NE(canal, nullptr);
    const map::HexsideInfo& side = c.t().hexside(canal->hexsides[5]);
    c.state.map.SetOwner(c.t(), side.a, Owner::kAxis);
    c.state.map.SetOwner(c.t(), side.b, Owner::kAxis);
    auto r = c.Play(
        serial == 1 ? json{{"initial", json::array({{{"suez", "reopen"}}})}} : json::object(),
        serial == 0 ? c.Weather() : std::vector<int>{});
    if (serial == 1) {
      // The closure comes first, so the reopening finds a permanently closed canal.
      ASSERT_FALSE(r);
      EXPECT_EQ(r.error().rule, "41.B");
      EXPECT_NE(r.error().message.find("permanently-closed"), std::string::npos);
    } else {
      ASSERT_TRUE(r) << r.error().to_string();
      EXPECT_EQ(c.state.map.suez(), map::CanalStatus::kPermanentlyClosed);
      EXPECT_TRUE(Said(*r, "suez", "41.B", "permanently closed")) << test::AllEvents(*r);
    }
  }
}

// --- 41.C, 41.D, 41.E.4, 41.E.5 in play -------------------------------------------------------

TEST(Rule41NavalInPlay, GroupsMoveUnderTheRules) {
  Camp c;
  c.At(1);
  // 41.D: a transport group up the Shatt to Basra; a TF may not.
  auto ok = c.Play(
      {{"movement", json::array({{{"naval", {"uk-gulf"}},
                                  {"path",
                                   {"22A:4806", "22A:4707", "22A:4607", "22A:4608", "22A:4509/4609",
                                    "22A:4509/4510", "22A:4409/4510", "22A:4410", "22A:4311/4411",
                                    "22A:4411/4312", "22A:4312/4412", "22A:4313"}}}})}});
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_EQ(c.state.FindNaval("uk-gulf")->hex, c.Hex("22A:4313"));
  EXPECT_FALSE(c.state.FindNaval("uk-gulf")->at_sea);  // in port at Basra
  // 41.E.4: the flotilla may not enter the Sivash.
  c.At(3);
  c.state.FindNaval("su-azov")->hex = c.Hex("4A:2829");
  c.state.FindNaval("su-azov")->area = 0;
  auto sivash = c.Play(
      {{"movement", json::array({{{"naval", {"su-azov"}}, {"path", {"4A:2829", "4A:2929"}}}})}});
  ASSERT_FALSE(sivash);
  EXPECT_EQ(sivash.error().rule, "41.E.4");
  // 41.E.5: but it may sail the all-sea hexes of the Sea of Azov.
  auto azov = c.Play({{"movement", json::array({{{"naval", {"su-azov"}},
                                                 {"path", {"4A:2829", "4A:2828", "4A:2827"}}}})}});
  EXPECT_TRUE(azov) << azov.error().to_string();
}

// --- 41.E.1 ---------------------------------------------------------------------------------

// 41.E.1: no attack across the Kerch hexside, but overrun across it, as a major river.
TEST(Rule41E1, OverrunButNoAttackAcrossKerch) {
  Camp c;
  c.ClearUnits();
  c.At(2);
  c.Own("4A:3526", Side::kAxis);
  c.Own("4A:3525", Side::kAllied);
  c.Add("ax", Side::kAxis, opsim::test::BaseType("armor"), 12, 6, 8, 2, "4A:3526");
  c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 1, 4, 1, "4A:3525");
  auto attack =
      c.Play({{"combat", json::array({{{"attack", "4A:3525"}, {"units", {"ax"}}}})}}, c.Weather());
  ASSERT_FALSE(attack);
  EXPECT_EQ(attack.error().rule, "41.E.1");
  auto overrun =
      c.Play({{"movement", json::array({{{"units", {"ax"}}, {"path", {"4A:3526", "4A:3525"}}}})}},
             c.Weather());
  ASSERT_TRUE(overrun) << overrun.error().to_string();
  EXPECT_EQ(c.Unit("su").status, UnitStatus::kEliminated);
  EXPECT_EQ(c.Unit("ax").hex, c.Hex("4A:3525"));
  EXPECT_TRUE(Said(*overrun, "eliminated", "B4.9", "overrun")) << test::AllEvents(*overrun);
}

// 41.E.1: supply traces across the Kerch hexside as across a major river.
TEST(Rule41E1, SupplyTracesAcrossKerch) {
  Camp c;
  c.ClearUnits();
  // The Axis hold sheet 4A, so Kerch (4A:3526) is on their rail net from their source at
  // 4A:3538; the line from 4A:3525 must cross the strait to reach it.
  for (std::uint32_t i = 0; i < c.t().hex_count(); ++i) {
    const std::string name = c.t().HexName(map::HexRef{i});
    if (name.starts_with("4A:")) c.Own(name, Side::kAxis);
  }
  Game g(std::make_shared<const map::Theater>(c.t()),
         std::make_shared<const Campaign>(c.campaign()), c.state);
  const SupplyTrace trace = g.SupplyAt(Side::kAxis, c.Hex("4A:3525"));
  EXPECT_EQ(trace.status, SupplyStatus::kSupplied) << trace.why;
  ASSERT_GE(trace.path.size(), 2u);
  EXPECT_EQ(trace.path[1], c.Hex("4A:3526"));
  EXPECT_NE(std::find_if(trace.rules.begin(), trace.rules.end(),
                         [](RuleId r) { return r.id == "41.E.1"; }),
            trace.rules.end());
}

// 41.E.1: naval units may not pass through while the enemy owns both strait hexes.
TEST(Rule41E1, NavalGroupsStoppedAtTheStraits) {
  Camp c;
  c.At(1);
  c.Own("4A:3525", Side::kAxis);
  c.Own("4A:3526", Side::kAxis);
  NavalUnit& f = *c.state.FindNaval("su-azov");
  f.hex = c.Hex("4A:3425");
  auto through = c.Play(
      {{"movement",
        json::array({{{"naval", {"su-azov"}}, {"path", {"4A:3425", "4A:3525", "4A:3624"}}}})}});
  ASSERT_FALSE(through);
  EXPECT_EQ(through.error().rule, "41.E.1");
  auto into = c.Play(
      {{"movement", json::array({{{"naval", {"su-azov"}}, {"path", {"4A:3425", "4A:3525"}}}})}});
  EXPECT_TRUE(into) << into.error().to_string();
}

// 41.E.1: "may never move through the straits ... while both straits' hexes are
// enemy-controlled": a group that stops in a strait hex goes on only back into the sea it came
// from, however many moves it takes; a marker on its hex keeps that sea between moves.
TEST(Rule41E1, NoPassageThroughTheStraitsInTwoMoves) {
  Camp c;
  c.At(1);
  c.Own("4A:3525", Side::kAxis);
  c.Own("4A:3526", Side::kAxis);
  c.state.FindNaval("su-azov")->hex = c.Hex("4A:3425");
  auto naval = [](std::vector<std::string> path) {
    return json{{"movement", json::array({{{"naval", {"su-azov"}}, {"path", path}}})}};
  };
  auto into = c.Play(naval({"4A:3425", "4A:3525"}));
  ASSERT_TRUE(into) << into.error().to_string();
  EXPECT_TRUE(c.state.map.HasMarker(c.Hex("4A:3525"), "kerch-from-azov:su-azov"));
  c.At(3);
  auto on = c.Play(naval({"4A:3525", "4A:3624"}));
  ASSERT_FALSE(on);
  EXPECT_EQ(on.error().rule, "41.E.1");
  // Once the Soviets hold a strait hex again, the passage is open.
  c.Own("4A:3526", Side::kAllied);
  const GameState held = c.state;
  auto open = c.Play(naval({"4A:3525", "4A:3624"}));
  EXPECT_TRUE(open) << open.error().to_string();
  EXPECT_TRUE(c.state.map.markers().empty());
  // Back where it came from is no passage: the marker goes with the group.
  c.state = held;
  c.Own("4A:3526", Side::kAxis);
  c.At(3);
  auto back = c.Play(naval({"4A:3525", "4A:3425"}));
  EXPECT_TRUE(back) << back.error().to_string();
  EXPECT_TRUE(c.state.map.markers().empty());
}

// --- 41.E.2, 41.E.3 -------------------------------------------------------------------------

// 41.E.2: the Baltic Islands' sea hexsides are major rivers for combat too.
TEST(Rule41E2, CombatAcrossABalticSeaHexside) {
  Camp c;
  c.ClearUnits();
  c.At(2);
  c.Own("1A:3826", Side::kAxis);
  c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 6, 4, 4, 2, "1A:3826");
  c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1A:3726");
  auto r = c.Play({{"combat", json::array({{{"attack", "1A:3726"}, {"units", {"ax"}}}})}}, [&] {
    auto d = c.Weather();
    d.push_back(6);
    return d;
  }());
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", "B7.2", "across a major river")) << test::AllEvents(*r);
  EXPECT_TRUE(Said(*r, "combat", "41.E.2")) << test::AllEvents(*r);
}

// 41.E.3 EX: an Axis unit entering 2A:0832 from an adjacent land hex gains the whole hex.
TEST(Rule41E3, Example_EnteringKronshtadtGainsTheWholeHex) {
  Camp c;
  c.ClearUnits();
  c.At(2);
  c.Own("2A:0833", Side::kAxis);
  c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 3, 3, 4, 2, "2A:0833");
  ASSERT_EQ(c.state.map.owner(c.Hex("2A:0832")), Owner::kAllied);
  auto r =
      c.Play({{"movement", json::array({{{"units", {"ax"}}, {"path", {"2A:0833", "2A:0832"}}}})}},
             c.Weather());
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(c.state.map.owner(c.Hex("2A:0832")), Owner::kAxis);
}

// --- 41.F -----------------------------------------------------------------------------------

// 41.F: Soviet units exit the west edge in or south of Greater Germany, into two totals; only
// unisolated, supplied units; paying the edge hex's MP cost.
TEST(Rule41F, SovietExitsAndTheirTwoTotals) {
  Camp c;
  c.ClearUnits();
  c.At(1);
  for (const char* hex : {"9A:0110", "9A:0120"}) {
    c.Own(hex, Side::kAllied);
    c.campaign().supply_sources[static_cast<int>(Side::kAllied)].push_back(c.Hex(hex));
  }
  c.Add("gg", Side::kAllied, opsim::test::BaseType("infantry"), 7, 5, 4, 2, "9A:0110");
  c.Add("south", Side::kAllied, opsim::test::BaseType("infantry"), 5, 5, 4, 2, "9A:0120");
  auto r = c.Play(
      {{"movement", json::array({{{"units", {"gg"}}, {"path", {"9A:0110"}}, {"exit", true}},
                                 {{"units", {"south"}}, {"path", {"9A:0120"}}, {"exit", true}}})}});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(c.state.exit_totals["greater-germany"], 7);
  EXPECT_EQ(c.state.exit_totals["south-of-greater-germany"], 5);
  EXPECT_EQ(c.Unit("gg").status, UnitStatus::kExited);
  EXPECT_TRUE(Said(*r, "exit", "41.F", "9A:0120")) << test::AllEvents(*r);
}

TEST(Rule41F, ExitCostsTheEdgeHexsMps) {
  Camp c;
  c.ClearUnits();
  c.At(1);
  for (const char* hex : {"9A:0219", "9A:0120", "9A:0220"}) c.Own(hex, Side::kAllied);
  c.campaign().supply_sources[static_cast<int>(Side::kAllied)].push_back(c.Hex("9A:0219"));
  // 9A:0120 is mountain: 3 MP to enter, 3 more to exit. A 5-MP unit cannot do both.
  c.Add("slow", Side::kAllied, opsim::test::BaseType("infantry"), 5, 5, 5, 2, "9A:0219");
  auto r = c.Play(
      {{"movement",
        json::array({{{"units", {"slow"}}, {"path", {"9A:0219", "9A:0120"}}, {"exit", true}}})}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "B4.10");
  EXPECT_NE(r.error().message.find("6 of 5 MP"), std::string::npos) << r.error().message;
}

TEST(Rule41F, WhoMayExitWhere) {
  Camp c;
  c.ClearUnits();
  c.At(1);
  c.Own("9A:0110", Side::kAllied);
  c.Add("unsupplied", Side::kAllied, opsim::test::BaseType("infantry"), 5, 5, 4, 2, "9A:0110");
  auto out =
      c.Play({{"movement",
               json::array({{{"units", {"unsupplied"}}, {"path", {"9A:0110"}}, {"exit", true}}})}});
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().rule, "41.F");
  EXPECT_NE(out.error().message.find("supplied units"), std::string::npos);
  // The Axis exits only in Iran, off the south edge.
  Camp a;
  a.ClearUnits();
  a.At(2);
  a.Own("8B:0540", Side::kAxis);
  a.campaign().supply_sources[static_cast<int>(Side::kAxis)].push_back(a.Hex("8B:0540"));
  a.Own("9A:0110", Side::kAxis);
  a.Add("iran", Side::kAxis, opsim::test::BaseType("infantry"), 4, 4, 4, 2, "8B:0540");
  a.Add("west", Side::kAxis, opsim::test::BaseType("infantry"), 4, 4, 4, 2, "9A:0110");
  auto west = a.Play(
      {{"movement", json::array({{{"units", {"west"}}, {"path", {"9A:0110"}}, {"exit", true}}})}},
      a.Weather());
  ASSERT_FALSE(west);
  EXPECT_EQ(west.error().rule, "41.F");
  auto iran = a.Play(
      {{"movement", json::array({{{"units", {"iran"}}, {"path", {"8B:0540"}}, {"exit", true}}})}},
      a.Weather());
  ASSERT_TRUE(iran) << iran.error().to_string();
  EXPECT_EQ(a.state.exit_totals["iran"], 4);
}

// --- events carry their content ---------------------------------------------------------------

// The first event of this kind citing this rule, or null.
const Event* Find(const TurnResult& r, const std::string& kind, const std::string& rule) {
  for (const Event& e : r.events) {
    if (e.kind == kind && e.rule.id == rule) return &e;
  }
  return nullptr;
}

// A clause's event names the movers by id, the hexes of the step it decided, and the move's
// event its path and its cost in half-MPs.
TEST(Rule41Events, ARailFerryMoveNamesItsUnitsHexesAndCost) {
  Camp c;
  c.ClearUnits();
  c.At(2);
  c.Add("a", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 4, "9A:1004");
  auto r =
      c.Play({{"movement", json::array({{{"units", {"a"}}, {"path", {"9A:1004", "9A:1001"}}}})}},
             c.Weather());
  ASSERT_TRUE(r) << r.error().to_string();
  const Event* move = Find(*r, "move", "B4.10");
  ASSERT_NE(move, nullptr) << test::AllEvents(*r);
  EXPECT_EQ(move->units, std::vector<std::string>{"a"});
  EXPECT_EQ(move->hexes, (std::vector<std::string>{"9A:1004", "9A:1001"}));
  EXPECT_EQ(move->numbers, std::vector<std::int64_t>{6});  // 3 MP
  const Event* ferry = Find(*r, "move", "41.A.2");
  ASSERT_NE(ferry, nullptr) << test::AllEvents(*r);
  EXPECT_EQ(ferry->units, std::vector<std::string>{"a"});
  EXPECT_EQ(ferry->hexes, (std::vector<std::string>{"9A:1004", "9A:1001"}));
}

// 41.F: an exit names the unit, its hex, the MP it cost (in half MPs, as a move's), its attack
// strength and the total it now makes.
TEST(Rule41Events, AnExitNamesTheUnitTheHexAndTheTotal) {
  Camp c;
  c.ClearUnits();
  c.At(1);
  c.Own("9A:0110", Side::kAllied);
  c.campaign().supply_sources[static_cast<int>(Side::kAllied)].push_back(c.Hex("9A:0110"));
  c.Add("gg", Side::kAllied, opsim::test::BaseType("infantry"), 7, 5, 4, 2, "9A:0110");
  auto r = c.Play(
      {{"movement", json::array({{{"units", {"gg"}}, {"path", {"9A:0110"}}, {"exit", true}}})}});
  ASSERT_TRUE(r) << r.error().to_string();
  const Event* exit = Find(*r, "exit", "41.F");
  ASSERT_NE(exit, nullptr) << test::AllEvents(*r);
  EXPECT_EQ(exit->units, std::vector<std::string>{"gg"});
  EXPECT_EQ(exit->hexes, std::vector<std::string>{"9A:0110"});
  EXPECT_EQ(exit->numbers, (std::vector<std::int64_t>{2, 7, 7}));
  EXPECT_NE(exit->text.find("for 1 MP"), std::string::npos) << exit->text;
}

// A die event's numbers start with the die's sides and face; the same game played twice gives
// the same content, event by event.
TEST(Rule41Events, DiceAndContentAreDeterministic) {
  auto play = [] {
    Camp c = test::Polder(11);
    c.At(0);
    return c.Play({{"combat", json::array({{{"attack", "1:0403"}, {"units", {"de-a"}}}})}});
  };
  auto first = play();
  auto second = play();
  ASSERT_TRUE(first) << first.error().to_string();
  ASSERT_TRUE(second) << second.error().to_string();
  ASSERT_EQ(first->events.size(), second->events.size());
  for (std::size_t i = 0; i < first->events.size(); ++i) {
    EXPECT_EQ(first->events[i].units, second->events[i].units) << first->events[i].text;
    EXPECT_EQ(first->events[i].hexes, second->events[i].hexes) << first->events[i].text;
    EXPECT_EQ(first->events[i].numbers, second->events[i].numbers) << first->events[i].text;
  }
  int dice = 0;
  for (const Event& e : first->events) {
    if (e.kind != "die") continue;
    ++dice;
    ASSERT_GE(e.numbers.size(), 2u) << e.text;
    EXPECT_EQ(e.numbers[0], 6) << e.text;
    EXPECT_GE(e.numbers[1], 1) << e.text;
    EXPECT_LE(e.numbers[1], 6) << e.text;
  }
  EXPECT_GT(dice, 0);
  const Event* combat = Find(*first, "combat", "B7.2");
  ASSERT_NE(combat, nullptr) << test::AllEvents(*first);
  EXPECT_EQ(combat->units, std::vector<std::string>{"de-a"});
  EXPECT_EQ(combat->hexes, std::vector<std::string>{"1:0403"});
  EXPECT_EQ(combat->numbers.at(0), 12);  // the attack strength, then the defense
  EXPECT_EQ(combat->numbers.at(1), 2);
}

}  // namespace
}  // namespace opsim::ops
