// opsim's base rules (docs/rules.md, B1-B15) in play: each test is named after the paragraph it
// checks, on a small theater of open fields where nothing but that paragraph decides. A refusal
// is checked by its rule (rule_ids.h); a message is matched only where its numbers are the point
// (the REs, MPs, odds and steps the rule counted), or for a file error's place.
#include <gtest/gtest.h>

#include <functional>

#include "campaign_support.h"
#include "opsim/core/rule_ids.h"
#include "opsim/ops/orders.h"
#include "opsim/ops/state_file.h"

namespace opsim::ops {
namespace {

using nlohmann::json;
using test::Camp;
using test::Fields;
using test::Said;

json Moves(json list) {
  return {{"movement", std::move(list)}};
}
json Move(const std::string& unit, std::vector<std::string> path) {
  return {{"units", {unit}}, {"path", std::move(path)}};
}

// --- B1 the sequence of play ------------------------------------------------------------------

// B1.2: orders belong to the phasing side and the game's date; others are refused whole.
TEST(B1_2, OrdersOfTheWrongSideOrTurnAreRefused) {
  Camp c = Fields();
  c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 2, "1:0303");
  const std::string before = StateHash(c.state);
  auto allied = c.Play({{"side", "allied"}});
  ASSERT_FALSE(allied);
  EXPECT_EQ(allied.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(allied.error().rule, rules::kB1_2.id);
  auto late = c.Play({{"turn", "Feb I 1942"}});
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().rule, rules::kB1_2.id);
  EXPECT_EQ(StateHash(c.state), before);
}

// B1.2: a player-turn is played whole or not at all: one illegal order refuses every order,
// and the game's state is as it was.
TEST(B1_2, APlayerTurnIsAllOrNothing) {
  Camp c = Fields();
  c.Add("a", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 2, "1:0303");
  c.Add("b", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 1, 2, "1:0304");
  Game g(std::make_shared<const map::Theater>(c.t()),
         std::make_shared<const Campaign>(c.campaign()), c.state);
  const std::string before = g.hash();
  json orders = Moves(
      json::array({Move("a", {"1:0303", "1:0403"}), Move("b", {"1:0304", "1:0404", "1:0504"})}));
  orders.update({{"opsim", "orders"},
                 {"version", 1},
                 {"side", "axis"},
                 {"turn", "Jan I 1942"},
                 {"dice", {1}}});
  auto src = JsonSource::FromText(orders.dump(1), "orders.json");
  ASSERT_TRUE(src);
  auto parsed = ParseOrders(*src, c.t());
  ASSERT_TRUE(parsed) << parsed.error().to_string();
  auto r = g.Play(*parsed);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kRuleViolation);
  EXPECT_EQ(r.error().rule, rules::kB4_10.id);
  EXPECT_EQ(g.hash(), before);
  EXPECT_EQ(g.state().FindUnit("a")->hex, c.Hex("1:0303"));
  EXPECT_EQ(g.state().player_turn, 0);
}

// B1.1: a game turn is the first side's player-turn, then the second's; two game turns a month.
TEST(B1_1, PlayerTurnsAlternateAndTheCalendarRuns) {
  Camp c = Fields();
  EXPECT_EQ(FormatGameDate(c.state.date()), "Jan I 1942");
  ASSERT_TRUE(c.Play({}, c.Weather(1)));
  EXPECT_EQ(c.state.phasing(), Side::kAllied);
  EXPECT_EQ(FormatGameDate(c.state.date()), "Jan I 1942");
  ASSERT_TRUE(c.Play({}));
  EXPECT_EQ(c.state.phasing(), Side::kAxis);
  EXPECT_EQ(FormatGameDate(c.state.date()), "Jan II 1942");
  ASSERT_TRUE(c.Play({}, c.Weather(1)));
  ASSERT_TRUE(c.Play({}));
  EXPECT_EQ(FormatGameDate(c.state.date()), "Feb I 1942");
}

// B1.1: a player-turn known only by its serial, side and date (a log's turn row) places the
// calendar as the game that played it: the same phasing side and date then, and after it.
TEST(B1_1, TheCalendarIsRebuiltFromOnePlayerTurn) {
  Camp c = Fields();
  for (int k = 0; k < 5; ++k) {
    const std::int32_t serial = c.state.player_turn;
    GameState placed = GameState::CalendarAt(serial, c.state.phasing(), c.state.date());
    EXPECT_EQ(placed.phasing(), c.state.phasing()) << serial;
    EXPECT_EQ(FormatGameDate(placed.date()), FormatGameDate(c.state.date())) << serial;
    ASSERT_TRUE(c.Play({}, serial % 2 == 0 ? c.Weather(1) : std::vector<int>{}));
    ++placed.player_turn;
    EXPECT_EQ(placed.phasing(), c.state.phasing()) << serial;
    EXPECT_EQ(FormatGameDate(placed.date()), FormatGameDate(c.state.date())) << serial;
  }
}

// --- B2 weather --------------------------------------------------------------------------------

// B2.1: the weather is rolled per zone at the start of each game turn, from the month's row of
// the zone's table; frost and snow freeze the zone's water.
TEST(B2_1, WeatherRollFreezesAndThaws) {
  Camp c = Fields();
  auto frost = c.Play({}, {4});  // zone A, January: C M M F F S
  ASSERT_TRUE(frost) << frost.error().to_string();
  EXPECT_TRUE(
      Said(*frost, "die", rules::kB2_1, "weather in zone A: d6 rolled 4 (the players' die): frost"))
      << test::AllEvents(*frost);
  EXPECT_TRUE(Said(*frost, "weather", rules::kB2_1, "zone A freezes (frost)"))
      << test::AllEvents(*frost);
  EXPECT_TRUE(c.state.map.frozen(0));
  EXPECT_EQ(c.state.weather.at(0), ops::Weather::kFrost);
  // The second player-turn of the game turn rolls no weather.
  auto allied = c.Play({});
  ASSERT_TRUE(allied);
  EXPECT_TRUE(allied->rolls.empty());
  auto clear = c.Play({}, {1});
  ASSERT_TRUE(clear);
  EXPECT_TRUE(Said(*clear, "weather", rules::kB2_1, "zone A thaws (clear)"))
      << test::AllEvents(*clear);
  EXPECT_FALSE(c.state.map.frozen(0));
}

// --- B3 stacking -------------------------------------------------------------------------------

// B3.2: at most 3 REs of a side in a hex at the end of any move.
TEST(B3_2, ThreeREsAHex) {
  Camp c = Fields();
  c.Add("a", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 4, "1:0303");
  c.Add("b", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 3, "1:0304");
  auto over =
      c.Play(Moves(json::array({Move("a", {"1:0303", "1:0403"}), Move("b", {"1:0304", "1:0403"})})),
             c.Weather());
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().rule, rules::kB3_2.id);
  EXPECT_NE(over.error().message.find("would hold 3.5 REs; the limit is 3"), std::string::npos)
      << over.error().message;
  c.Unit("b").re_halves = 2;
  EXPECT_TRUE(
      c.Play(Moves(json::array({Move("a", {"1:0303", "1:0403"}), Move("b", {"1:0304", "1:0403"})})),
             c.Weather()));
}

// --- B4 ground movement ------------------------------------------------------------------------

// B4.10: a unit spends at most its movement allowance, and moves once a phase.
TEST(B4_10, MovementAllowance) {
  Camp c = Fields();
  c.Add("a", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 3, 2, "1:0303");
  auto far =
      c.Play(Moves(json::array({Move("a", {"1:0303", "1:0403", "1:0503", "1:0603", "1:0703"})})),
             c.Weather());
  ASSERT_FALSE(far);
  EXPECT_EQ(far.error().rule, rules::kB4_10.id);
  EXPECT_NE(far.error().message.find("4 of 3 MP"), std::string::npos) << far.error().message;
  auto twice =
      c.Play(Moves(json::array({Move("a", {"1:0303", "1:0403"}), Move("a", {"1:0403", "1:0503"})})),
             c.Weather());
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().rule, rules::kB4_10.id);
  auto ok = c.Play(Moves(json::array({Move("a", {"1:0303", "1:0403", "1:0503", "1:0603"})})),
                   c.Weather());
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_TRUE(Said(*ok, "move", rules::kB4_10, "a moves 1:0303-0403-0503-0603 (3 MP)"))
      << test::AllEvents(*ok);
}

// B4.8: entering an enemy zone of control ends the move; a unit may leave one it starts in.
// Units with no attack strength exert none.
TEST(B4_8, ZonesOfControlStopMovement) {
  Camp c = Fields();
  c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 6, 2, "1:0406");
  c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 2, 2, 4, 2,
        "1:0606");  // zone: 0506, 0507, ...
  c.Own("1:0606", Side::kAllied);
  auto through =
      c.Play(Moves(json::array({Move("ax", {"1:0406", "1:0506", "1:0505"})})), c.Weather());
  ASSERT_FALSE(through);
  EXPECT_EQ(through.error().rule, rules::kB4_8.id);
  EXPECT_NE(through.error().message.find("1:0506"), std::string::npos);
  ASSERT_TRUE(c.Play(Moves(json::array({Move("ax", {"1:0406", "1:0506"})})), c.Weather()));
  c.At(2);
  EXPECT_TRUE(
      c.Play(Moves(json::array({Move("ax", {"1:0506", "1:0406", "1:0405"})})), c.Weather()));
  c.Unit("ax").hex = c.Hex("1:0406");
  c.Unit("su").attack = 0;
  c.At(4);
  EXPECT_TRUE(
      c.Play(Moves(json::array({Move("ax", {"1:0406", "1:0506", "1:0505"})})), c.Weather()));
}

// B4.9: moving into enemy units overruns them at 10:1 or better after terrain, for 2 MP more.
TEST(B4_9, OverrunAtTenToOne) {
  Camp c = Fields();
  c.Add("pz", Side::kAxis, opsim::test::BaseType("armor"), 20, 4, 6, 2, "1:0405");
  c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 3, 4, 2, "1:0505");
  auto weak = c.Play(Moves(json::array({Move("pz", {"1:0405", "1:0505"})})), c.Weather());
  ASSERT_FALSE(weak);
  EXPECT_EQ(weak.error().rule, rules::kB4_9.id);
  EXPECT_NE(weak.error().message.find("20 against 3 gives 6:1"), std::string::npos)
      << weak.error().message;
  c.Unit("su").defense = 2;
  auto r = c.Play(Moves(json::array({Move("pz", {"1:0405", "1:0505", "1:0605"})})), c.Weather());
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(c.Unit("su").status, UnitStatus::kEliminated);
  EXPECT_TRUE(Said(*r, "eliminated", rules::kB4_9, "overrun at 10:1")) << test::AllEvents(*r);
  // 1 + 2 for the overrun + 1: 4 MP.
  EXPECT_TRUE(Said(*r, "move", rules::kB4_10, "(4 MP)")) << test::AllEvents(*r);
  EXPECT_EQ(c.state.map.owner(c.Hex("1:0505")), Owner::kAxis);
}

// --- B5 rail movement --------------------------------------------------------------------------

// B5.1: along railroads through friendly hexes, outside enemy zones, at most 20 hexes, within
// the side's rail capacity in REs a player-turn.
TEST(B5_1, RailMovement) {
  Camp c = Fields();
  c.Add("a", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 6, "1:0105");
  c.Add("b", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 4, "1:0205");
  auto rail = [&](const std::string& id, const std::string& from, const std::string& to) {
    std::vector<std::string> path;
    const int a = std::stoi(from.substr(2, 2)), b = std::stoi(to.substr(2, 2));
    for (int col = a; col <= b; ++col) {
      path.push_back("1:" + std::string(col < 10 ? "0" : "") + std::to_string(col) + "05");
    }
    return json{{"rail", {id}}, {"path", path}};
  };
  auto capacity =
      c.Play(Moves(json::array({rail("a", "1:0105", "1:0705"), rail("b", "1:0205", "1:0305")})),
             c.Weather());
  ASSERT_FALSE(capacity);
  EXPECT_EQ(capacity.error().rule, rules::kB5_1.id);
  EXPECT_NE(capacity.error().message.find("4 REs a player-turn, 3 used, 2 more asked"),
            std::string::npos)
      << capacity.error().message;
  auto enemy = c.Play(Moves(json::array({rail("a", "1:0105", "1:1305")})), c.Weather());
  ASSERT_FALSE(enemy);
  EXPECT_EQ(enemy.error().rule, rules::kB5_1.id);
  for (int col = 12; col <= 22; ++col) c.Own("1:" + std::to_string(col) + "05", Side::kAxis);
  auto far = c.Play(Moves(json::array({rail("a", "1:0105", "1:2205")})), c.Weather());
  ASSERT_FALSE(far);
  EXPECT_EQ(far.error().rule, rules::kB5_1.id);
  c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 2, 2, 4, 2, "1:0604");
  auto zoc = c.Play(Moves(json::array({rail("a", "1:0105", "1:0705")})), c.Weather());
  ASSERT_FALSE(zoc);
  EXPECT_EQ(zoc.error().rule, rules::kB5_1.id);
  auto ok = c.Play(Moves(json::array({rail("a", "1:0105", "1:0405")})), c.Weather());
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_TRUE(Said(*ok, "rail", rules::kB5_1, "a moves by rail 1:0105 to 1:0405 (3 of 4 REs"))
      << test::AllEvents(*ok);
}

// --- B6 naval movement, B12 landings -----------------------------------------------------------

// B6.5: a naval group moves once a phase, within its allowance of naval steps (a table).
TEST(B6_5, NavalAllowance) {
  Camp c = Fields();
  c.campaign().tables.naval.allowance = 2;
  const json three = {{"naval", {"tf"}}, {"path", {"1:2308", "1:2307", "1:2306", "1:2305"}}};
  auto r = c.Play(Moves(json::array({three})), c.Weather());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, rules::kB6_5.id);
  EXPECT_NE(r.error().message.find("needs 3 naval steps; its allowance is 2"), std::string::npos)
      << r.error().message;
  c.campaign().tables.naval.allowance = 30;
  auto ok = c.Play(Moves(json::array({three})), c.Weather());
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_EQ(c.state.FindNaval("tf")->hex, c.Hex("1:2305"));
  EXPECT_TRUE(c.state.FindNaval("tf")->at_sea);
}

// B12.1: transports carry up to 3 REs from where the group starts to a coastal land hex free of
// enemy units, which they enter.
TEST(B12_1, Landings) {
  Camp c = Fields();
  c.Own("1:2208", Side::kAxis);
  c.Add("inf", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 4, "1:2208");
  c.Add("big", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 4, "1:2208");
  const std::vector<std::string> path = {"1:2208", "1:2308", "1:2207"};
  c.state.FindNaval("tf")->hex = c.Hex("1:2208");
  auto no_transport = c.Play(
      Moves(json::array({{{"naval", {"tf"}}, {"path", path}, {"carry", {"inf"}}}})), c.Weather());
  ASSERT_FALSE(no_transport);
  EXPECT_EQ(no_transport.error().rule, rules::kB12_1.id);
  auto too_many =
      c.Play(Moves(json::array({{{"naval", {"tr"}}, {"path", path}, {"carry", {"inf", "big"}}}})),
             c.Weather());
  ASSERT_FALSE(too_many);
  EXPECT_EQ(too_many.error().rule, rules::kB12_1.id);
  c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 1, 4, 2, "1:2207");
  auto held = c.Play(Moves(json::array({{{"naval", {"tr"}}, {"path", path}, {"carry", {"inf"}}}})),
                     c.Weather());
  ASSERT_FALSE(held);
  EXPECT_EQ(held.error().rule, rules::kB12_1.id);
  c.Unit("su").hex = c.Hex("1:2210");
  auto ok = c.Play(Moves(json::array({{{"naval", {"tr"}}, {"path", path}, {"carry", {"inf"}}}})),
                   c.Weather());
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_TRUE(Said(*ok, "landing", rules::kB12_1, "inf lands at 1:2207")) << test::AllEvents(*ok);
  EXPECT_EQ(c.Unit("inf").hex, c.Hex("1:2207"));
  EXPECT_EQ(c.state.map.owner(c.Hex("1:2207")), Owner::kAxis);
}

// --- B7 combat ---------------------------------------------------------------------------------

struct Fight {
  Camp c = Fields();
  // `retreats`, when given, is the orders' "retreats" list (B7.5).
  Result<TurnResult> Attack(int attack, int defense, int die, bool advance = true,
                            json retreats = nullptr) {
    c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), attack, 2, 4, 2, "1:0405");
    c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, defense, 4, 2, "1:0505");
    c.Own("1:0505", Side::kAllied);
    json orders = {
        {"combat", json::array({{{"attack", "1:0505"}, {"units", {"ax"}}, {"advance", advance}}})}};
    if (!retreats.is_null()) orders["retreats"] = std::move(retreats);
    return c.Play(orders, {1, die});
  }
};

// B7.2-B7.3: odds fall to the column at or below them; the die picks the result.
TEST(B7_3, AttackerEliminated) {
  Fight f;
  auto r = f.Attack(1, 3, 1);  // 1:3
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::kB7_2, "ax attack 1:0505: 1 to 3, column 1:3 to 1:3: AE"))
      << test::AllEvents(*r);
  EXPECT_EQ(f.c.Unit("ax").status, UnitStatus::kEliminated);
}

TEST(B7_3, AttackerRetreats) {
  Fight f;
  auto r = f.Attack(5, 4, 1);  // 1.25:1 is 1:1
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::kB7_2, "column 1:1 to 1:1: AR")) << test::AllEvents(*r);
  EXPECT_EQ(f.c.Unit("ax").status, UnitStatus::kOnMap);
  EXPECT_NE(f.c.Unit("ax").hex, f.c.Hex("1:0405"));
  EXPECT_TRUE(Said(*r, "retreat", rules::kB7_3, "ax retreats 1:0405")) << test::AllEvents(*r);
}

TEST(B7_3, Exchange) {
  Fight f;
  f.c.Add("ax2", Side::kAxis, opsim::test::BaseType("infantry"), 3, 2, 4, 2, "1:0504");
  f.c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1:0505");
  f.c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 4, 2, 4, 2, "1:0405");
  auto r = f.c.Play({{"combat", json::array({{{"attack", "1:0505"}, {"units", {"ax", "ax2"}}}})}},
                    {1, 1});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::kB7_2, "7 to 2, column 3:1 to 3:1: EX"))
      << test::AllEvents(*r);
  EXPECT_EQ(f.c.Unit("su").status, UnitStatus::kEliminated);
  // The attacker loses at least the defender's 2 strength points, weakest first: ax2 (3).
  EXPECT_EQ(f.c.Unit("ax2").status, UnitStatus::kEliminated);
  EXPECT_EQ(f.c.Unit("ax").status, UnitStatus::kOnMap);
}

// B7.5-B7.6: the defender retreats away from the attackers; the attackers advance.
TEST(B7_5, DefenderRetreatsAndAttackerAdvances) {
  Fight f;
  auto r = f.Attack(8, 2, 1);  // 4:1
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::kB7_2, "column 4:1 to 4:1: DR")) << test::AllEvents(*r);
  const map::HexRef su = f.c.Unit("su").hex;
  EXPECT_NE(su, f.c.Hex("1:0505"));
  EXPECT_EQ(map::Distance(f.c.t().Pos(su), f.c.t().Pos(f.c.Hex("1:0405"))), 2);
  EXPECT_TRUE(Said(*r, "advance", rules::kB7_6, "ax advances into 1:0505")) << test::AllEvents(*r);
  EXPECT_EQ(f.c.Unit("ax").hex, f.c.Hex("1:0505"));
  EXPECT_EQ(f.c.state.map.owner(f.c.Hex("1:0505")), Owner::kAxis);
}

TEST(B7_6, AdvanceIsTheAttackersChoice) {
  Fight f;
  auto r = f.Attack(8, 2, 1, /*advance=*/false);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(f.c.Unit("ax").hex, f.c.Hex("1:0405"));
}

TEST(B7_5, NoRetreatMeansElimination) {
  Fight f;
  // Axis units all round 1:0505 but on the attacker's side: every way out is in their zones.
  f.c.Add("n", Side::kAxis, opsim::test::BaseType("infantry"), 1, 1, 4, 2, "1:0404");
  f.c.Add("e", Side::kAxis, opsim::test::BaseType("infantry"), 1, 1, 4, 2, "1:0705");
  auto r = f.Attack(8, 2, 1);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(f.c.Unit("su").status, UnitStatus::kEliminated);
  EXPECT_TRUE(Said(*r, "eliminated", rules::kB7_5, "no hex to retreat into"))
      << test::AllEvents(*r);
}

// B7.5: the defender's units on a DR go to the first hex they prefer that B7.5 allows. Around
// 1:0505, attacked from 1:0405: 1:0504, 1:0604 and 1:0605 are the farthest from the attacker;
// 1:0404 and 1:0506 are next to it, in its zone of control.
TEST(B7_5, DefenderTakesItsPreferredHex) {
  Fight engine;
  ASSERT_TRUE(engine.Attack(8, 2, 1));
  const map::HexRef chosen = engine.c.Unit("su").hex;
  // A preference other than the engine's choice, the sheet dropped as in a path.
  const std::string other = chosen == engine.c.Hex("1:0605") ? "0604" : "0605";
  Fight f;
  auto r = f.Attack(8, 2, 1, true, json::array({{{"hex", "1:0505"}, {"prefer", {other}}}}));
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(f.c.Unit("su").hex, f.c.Hex("1:" + other));
  EXPECT_TRUE(Said(*r, "retreat", rules::kB7_3,
                   "su retreats 1:0505 to 1:" + other + ", the hex it preferred (B7.5)"))
      << test::AllEvents(*r);
}

// B7.5: a preference the rule forbids is refused, naming why, and the next one is taken: a hex
// in the attacker's zone of control, then one with a friendly unit (so out of the zone) but
// nearer the attacker than the farthest open hex.
TEST(B7_5, IllegalPreferencesAreSkipped) {
  Fight f;
  f.c.Add("friend", Side::kAllied, opsim::test::BaseType("infantry"), 1, 1, 4, 2, "1:0404");
  auto r = f.Attack(8, 2, 1, true,
                    json::array({{{"hex", "1:0505"}, {"prefer", {"1:0506", "1:0404", "1:0604"}}}}));
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "retreat", rules::kB7_5,
                   "su may not retreat 1:0505 to its preferred 1:0506: 1:0506 is in an enemy zone "
                   "of control"))
      << test::AllEvents(*r);
  EXPECT_TRUE(Said(*r, "retreat", rules::kB7_5,
                   "su may not retreat 1:0505 to its preferred 1:0404: 1:0404 is nearer the "
                   "attackers than"))
      << test::AllEvents(*r);
  EXPECT_EQ(f.c.Unit("su").hex, f.c.Hex("1:0604"));
  EXPECT_TRUE(
      Said(*r, "retreat", rules::kB7_3, "su retreats 1:0505 to 1:0604, the hex it preferred"))
      << test::AllEvents(*r);
}

// B7.5: with no preferred hex open, the engine chooses as it does without preferences.
TEST(B7_5, NoLegalPreferenceFallsBackToTheEngine) {
  Fight engine;
  auto plain = engine.Attack(8, 2, 1);
  ASSERT_TRUE(plain) << plain.error().to_string();
  Fight f;
  auto r =
      f.Attack(8, 2, 1, true, json::array({{{"hex", "1:0505"}, {"prefer", {"1:0506", "1:0404"}}}}));
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(f.c.Unit("su").hex, engine.c.Unit("su").hex);
  EXPECT_TRUE(Said(*r, "retreat", rules::kB7_5, "its preferred 1:0404")) << test::AllEvents(*r);
  EXPECT_FALSE(Said(*r, "retreat", rules::kB7_3, "the hex it preferred")) << test::AllEvents(*r);
  EXPECT_EQ(StateHash(f.c.state), StateHash(engine.c.state));
}

// B7.5, B7.3: on an AR the attacker's own stack retreats by its preferences too. Around
// 1:0405, away from 1:0505: 1:0305, 1:0306 and 1:0406 are the farthest.
TEST(B7_5, AttackerRetreatsToItsPreferredHex) {
  Fight engine;
  ASSERT_TRUE(engine.Attack(5, 4, 1));  // AR
  const map::HexRef chosen = engine.c.Unit("ax").hex;
  const std::string other = chosen == engine.c.Hex("1:0306") ? "1:0406" : "1:0306";
  Fight f;
  auto r = f.Attack(5, 4, 1, true, json::array({{{"hex", "1:0405"}, {"prefer", {other}}}}));
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(f.c.Unit("ax").hex, f.c.Hex(other));
  EXPECT_TRUE(Said(*r, "retreat", rules::kB7_3,
                   "ax retreats 1:0405 to " + other + ", the hex it preferred"))
      << test::AllEvents(*r);
}

// B7.5: a preferred hex not next to the stack's, and a hex listed twice in one preference, are
// refused with the file, line and JSON path.
TEST(B7_5, BadRetreatPreferencesAreRefused) {
  const std::vector<std::pair<json, std::string>> cases = {
      {json::array({{{"hex", "1:0505"}, {"prefer", {"1:0504", "1:0507"}}}}),
       "/retreats/0/prefer/1: 1:0507 is not next to 1:0505: a retreat moves one hex (B7.5)"},
      {json::array({{{"hex", "1:0505"}, {"prefer", {"1:0504", "0504"}}}}),
       "/retreats/0/prefer/1: 1:0504 is listed twice"},
  };
  for (const auto& [retreats, says] : cases) {
    Fight f;
    auto r = f.Attack(8, 2, 1, true, retreats);
    ASSERT_FALSE(r) << retreats.dump();
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(r.error().to_string().find("orders.json:"), std::string::npos)
        << r.error().to_string();
    EXPECT_NE(r.error().to_string().find(says), std::string::npos) << r.error().to_string();
  }
}

// B7.5: an empty preference leaves the retreat to the rules; a hex listed twice serves its
// first retreat with its first entry (its second retreat, had there been one, with the second).
TEST(B7_5, AnEmptyPreferenceIsTheRulesChoiceAndEntriesServeInTurn) {
  Fight rules;
  auto engine =
      rules.Attack(8, 2, 1, true, json::array({{{"hex", "1:0505"}, {"prefer", json::array()}}}));
  ASSERT_TRUE(engine) << engine.error().to_string();
  Fight plain;
  auto none = plain.Attack(8, 2, 1);
  ASSERT_TRUE(none) << none.error().to_string();
  EXPECT_EQ(engine->final_hash, none->final_hash);
  Fight twice;
  auto first = twice.Attack(8, 2, 1, true,
                            json::array({{{"hex", "1:0505"}, {"prefer", {"1:0605"}}},
                                         {{"hex", "1:0505"}, {"prefer", {"1:0504"}}}}));
  ASSERT_TRUE(first) << first.error().to_string();
  EXPECT_EQ(twice.c.Unit("su").hex, twice.c.Hex("1:0605")) << test::AllEvents(*first);
}

TEST(B7_3, DefenderEliminated) {
  Fight f;
  auto r = f.Attack(14, 2, 1);  // 7:1
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::kB7_2, "column 7:1 to 7:1: DE")) << test::AllEvents(*r);
  EXPECT_EQ(f.c.Unit("su").status, UnitStatus::kEliminated);
}

// B7.2: an attack in which every attacker crosses a major river shifts one column left.
TEST(B7_2, MajorRiverShift) {
  Camp c = Fields();
  c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 8, 2, 4, 2, "1:0407");
  c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1:0507");
  c.Own("1:0507", Side::kAllied);
  auto r = c.Play({{"combat", json::array({{{"attack", "1:0507"}, {"units", {"ax"}}}})}}, {1, 1});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::kB7_2,
                   "8 to 2, column 4:1 shifted -1 (clear, across a major river) to 3:1: EX"))
      << test::AllEvents(*r);
}

// B7.1: each hex is attacked once, each unit attacks once, and only from next door.
TEST(B7_1, WhoMayAttackWhat) {
  Camp c = Fields();
  c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 8, 2, 4, 2, "1:0405");
  c.Add("far", Side::kAxis, opsim::test::BaseType("infantry"), 8, 2, 4, 2, "1:0205");
  c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1:0505");
  c.Add("su2", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1:0504");
  auto attack = [&](const std::string& hex, const std::string& unit) {
    return json{{"attack", hex}, {"units", {unit}}};
  };
  auto far = c.Play({{"combat", json::array({attack("1:0505", "far")})}}, {1, 1});
  ASSERT_FALSE(far);
  EXPECT_EQ(far.error().rule, rules::kB7_1.id);
  auto twice = c.Play({{"combat", json::array({attack("1:0505", "ax"), attack("1:0504", "ax")})}},
                      {1, 6, 6});
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().rule, rules::kB7_1.id);
  auto empty = c.Play({{"combat", json::array({attack("1:0406", "ax")})}}, {1});
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().rule, rules::kB7_1.id);
}

// B7.8: in the exploitation phase motorized units that did not attack move again, with half
// their allowance.
TEST(B7_8, Exploitation) {
  Camp c = Fields();
  c.Add("pz", Side::kAxis, opsim::test::BaseType("armor"), 4, 4, 6, 2, "1:0303");
  c.Add("inf", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 2, "1:0304");
  auto exploit = [&](const std::string& unit, std::vector<std::string> path) {
    return c.Play({{"exploitation", json::array({Move(unit, std::move(path))})}}, c.Weather());
  };
  auto foot = exploit("inf", {"1:0304", "1:0404"});
  ASSERT_FALSE(foot);
  EXPECT_EQ(foot.error().rule, rules::kB7_8.id);
  auto far = exploit("pz", {"1:0303", "1:0403", "1:0503", "1:0603", "1:0703"});
  ASSERT_FALSE(far);
  EXPECT_EQ(far.error().rule, rules::kB7_8.id);
  EXPECT_NE(far.error().message.find("4 of 3 MP"), std::string::npos) << far.error().message;
  auto ok = exploit("pz", {"1:0303", "1:0403", "1:0503", "1:0603"});
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_TRUE(Said(*ok, "move", rules::kB7_8, "pz exploits")) << test::AllEvents(*ok);
}

// --- B8 supply ---------------------------------------------------------------------------------

// B8.1: in its initial phase each unit of the phasing side is supplied (an overland line of at
// most 7 MP to the road and rail net fed by a source), out of supply (a longer line), or
// isolated (none at all).
TEST(B8_1, SuppliedOutOfSupplyIsolated) {
  Camp c = Fields();
  c.Add("near", Side::kAxis, opsim::test::BaseType("infantry"), 4, 2, 4, 2,
        "1:0108");  // 3 MP of clear
  c.Add("hills", Side::kAxis, opsim::test::BaseType("infantry"), 4, 2, 4, 2,
        "1:0110");  // 3+3+1+1+1 MP
  c.Add("cut", Side::kAxis, opsim::test::BaseType("infantry"), 4, 2, 4, 2,
        "1:1808");  // among Allied hexes
  c.Own("1:1808", Side::kAxis);
  auto r = c.Play({}, c.Weather());
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(c.Unit("near").supply, SupplyStatus::kSupplied);
  EXPECT_EQ(c.Unit("hills").supply, SupplyStatus::kOutOfSupply);
  EXPECT_EQ(c.Unit("cut").supply, SupplyStatus::kIsolated);
  EXPECT_TRUE(Said(*r, "supply", rules::kB8_1, "hills at 1:0110 is now out-of-supply"))
      << test::AllEvents(*r);
  EXPECT_TRUE(
      Said(*r, "supply", rules::kB8_1, "axis supply: 1 supplied, 1 out of supply, 1 isolated"))
      << test::AllEvents(*r);
  Game g(std::make_shared<const map::Theater>(c.t()),
         std::make_shared<const Campaign>(c.campaign()), c.state);
  const SupplyTrace hills = g.SupplyAt(Side::kAxis, c.Hex("1:0110"));
  EXPECT_EQ(hills.status, SupplyStatus::kOutOfSupply);
  EXPECT_NE(hills.why.find("9 MP"), std::string::npos) << hills.why;
}

// B8.1 with B7.2: units not in supply attack at half strength.
TEST(B8_1, UnsuppliedUnitsAttackAtHalf) {
  Camp c = Fields();
  c.Add("cut", Side::kAxis, opsim::test::BaseType("infantry"), 8, 2, 4, 2, "1:1808");
  c.Own("1:1808", Side::kAxis);
  c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1:1908");
  auto r = c.Play({{"combat", json::array({{{"attack", "1:1908"}, {"units", {"cut"}}}})}}, {1, 1});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::kB7_2, "cut attack 1:1908: 4 to 2")) << test::AllEvents(*r);
}

// --- B9 ownership ------------------------------------------------------------------------------

// B9.1: a side gains a hex by entering it.
TEST(B9_1, EntryGainsTheHex) {
  Camp c = Fields();
  c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 2, "1:1105");
  EXPECT_EQ(c.state.map.owner(c.Hex("1:1205")), Owner::kAllied);
  auto r = c.Play(Moves(json::array({Move("ax", {"1:1105", "1:1205", "1:1305"})})), c.Weather());
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(c.state.map.owner(c.Hex("1:1205")), Owner::kAxis);
  EXPECT_EQ(c.state.map.owner(c.Hex("1:1305")), Owner::kAxis);
  EXPECT_TRUE(Said(*r, "owner", rules::kB9_1, "1:1205 is now axis")) << test::AllEvents(*r);
  // B9.2: a hexside is the side's once it holds both hexes.
  EXPECT_EQ(c.state.map.hexside_owner(c.Hexside("1:1205/1305")), Owner::kAxis);
}

// --- B10 dice ----------------------------------------------------------------------------------

// B10.1: the seeded dice give the same game from the same seed; the orders' dice come first and
// are marked as the players'; a die that cannot be is refused.
TEST(B10_1, SeededDiceAreReproducibleAndOrdersDiceComeFirst) {
  auto play = [](std::uint64_t seed) {
    Camp c = Fields(seed);
    c.Add("ax", Side::kAxis, opsim::test::BaseType("infantry"), 8, 2, 4, 2, "1:0405");
    c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 2, 4, 2, "1:0505");
    auto r = c.Play({{"combat", json::array({{{"attack", "1:0505"}, {"units", {"ax"}}}})}});
    EXPECT_TRUE(r);
    return r ? r->final_hash : std::string();
  };
  EXPECT_EQ(play(42), play(42));
  Camp c = Fields();
  auto bad = c.Play({}, {7});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().rule, rules::kB10_1.id);
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidInput);
  auto r = c.Play({}, {1, 5});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->rolls.size(), 1u);
  EXPECT_TRUE(r->rolls[0].scripted);
  EXPECT_TRUE(Said(*r, "die", rules::kB10_1, "1 of the orders' dice were not needed"))
      << test::AllEvents(*r);
}

// --- B11 air units -----------------------------------------------------------------------------

// B11.1: air units rebase to a friendly airbase within range.
TEST(B11_1, Rebasing) {
  Camp c = Fields();
  auto enemy = c.Play(Moves(json::array({{{"rebase", "lw"}, {"hex", "1:2002"}}})), c.Weather());
  ASSERT_FALSE(enemy);
  EXPECT_EQ(enemy.error().rule, rules::kB11_1.id);
  auto bare = c.Play(Moves(json::array({{{"rebase", "lw"}, {"hex", "1:0505"}}})), c.Weather());
  ASSERT_FALSE(bare);
  EXPECT_EQ(bare.error().rule, rules::kB11_1.id);
  c.Own("1:2002", Side::kAxis);
  auto far = c.Play(Moves(json::array({{{"rebase", "lw"}, {"hex", "1:2002"}}})), c.Weather());
  ASSERT_FALSE(far);
  EXPECT_EQ(far.error().rule, rules::kB11_1.id);
  auto ok = c.Play(Moves(json::array({{{"rebase", "lw"}, {"hex", "1:0902"}}})), c.Weather());
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_EQ(c.state.FindAir("lw")->base, c.Hex("1:0902"));
}

// B11.1: an air unit rebases once a movement phase. Two rebases, each in range, would carry it
// beyond the range of one (16A:1329 to 1321 to 1316 was accepted): the second is refused, and
// the player-turn with it.
TEST(B11_1, AnAirUnitRebasesOnceAPhase) {
  Camp c = Fields();
  const json twice =
      json::array({{{"rebase", "lw"}, {"hex", "1:0902"}}, {{"rebase", "lw"}, {"hex", "1:0102"}}});
  auto r = c.Play(Moves(twice), c.Weather());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kRuleViolation);
  EXPECT_EQ(r.error().rule, rules::kB11_1.id);
  EXPECT_NE(r.error().message.find("Luftflotte"), std::string::npos) << r.error().to_string();
  EXPECT_NE(r.error().message.find("already rebased this phase"), std::string::npos)
      << r.error().to_string();
  EXPECT_EQ(c.state.FindAir("lw")->base, c.Hex("1:0102"));
}

// B11.3: airborne units drop from an airbase into a hex within range; onto enemy units only to
// attack them, and an assault that has not cleared its hex by the end of combat is lost.
TEST(B11_3, AirDropsAndAssaults) {
  Camp c = Fields();
  c.Add("fj", Side::kAxis, opsim::test::BaseType("airborne"), 4, 2, 4, 2, "1:0902");
  c.Add("inf", Side::kAxis, opsim::test::BaseType("infantry"), 2, 2, 4, 2, "1:0902");
  c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 1, 4, 2, "1:1403");
  c.Add("gd", Side::kAxis, opsim::test::BaseType("infantry"), 1, 1, 4, 2, "1:1402");
  auto drop = [&](const std::string& unit, const std::string& hex) {
    return json{{"air-drop", unit}, {"hex", hex}};
  };
  auto leg = c.Play(Moves(json::array({drop("inf", "1:1302")})), c.Weather());
  ASSERT_FALSE(leg);
  EXPECT_EQ(leg.error().rule, rules::kB11_3.id);
  auto far = c.Play(Moves(json::array({drop("fj", "1:2102")})), c.Weather());
  ASSERT_FALSE(far);
  EXPECT_EQ(far.error().rule, rules::kB11_3.id);
  // An attack on the hex that leaves the paratroops out is refused when declared.
  auto left_out = c.Play({{"movement", json::array({drop("fj", "1:1403")})},
                          {"combat", json::array({{{"attack", "1:1403"}, {"units", {"gd"}}}})}},
                         c.Weather());
  ASSERT_FALSE(left_out);
  EXPECT_EQ(left_out.error().rule, rules::kB11_3.id);
  EXPECT_NE(left_out.error().message.find("fj dropped onto 1:1403 this player-turn: it must be "
                                          "among the hex's attackers"),
            std::string::npos)
      << left_out.error().message;
  // With no attack on the hex the assault is lost at the end of combat.
  Camp lone = c;
  auto no_attack = lone.Play(Moves(json::array({drop("fj", "1:1403")})), lone.Weather());
  ASSERT_TRUE(no_attack) << no_attack.error().to_string();
  EXPECT_EQ(lone.Unit("fj").status, UnitStatus::kEliminated);
  EXPECT_TRUE(Said(*no_attack, "eliminated", rules::kB11_3, "did not clear 1:1403"))
      << test::AllEvents(*no_attack);
  // The assault: 4 to 1, 4:1; a 1 is DR: the defender goes, the paratroops hold the hex.
  auto assault = c.Play({{"movement", json::array({drop("fj", "1:1403")})},
                         {"combat", json::array({{{"attack", "1:1403"}, {"units", {"fj"}}}})}},
                        {1, 1});
  ASSERT_TRUE(assault) << assault.error().to_string();
  EXPECT_TRUE(Said(*assault, "air-drop", rules::kB11_3, "drops onto the enemy units at 1:1403"))
      << test::AllEvents(*assault);
  EXPECT_TRUE(Said(*assault, "combat", rules::kB7_2, "4 to 1, column 4:1 to 4:1: DR"))
      << test::AllEvents(*assault);
  EXPECT_EQ(c.Unit("fj").hex, c.Hex("1:1403"));
  EXPECT_NE(c.Unit("su").hex, c.Hex("1:1403")) << test::AllEvents(*assault);
  EXPECT_EQ(c.state.map.owner(c.Hex("1:1403")), Owner::kAxis);
  EXPECT_TRUE(Said(*assault, "owner", rules::kB9_1, "1:1403 is now axis"))
      << test::AllEvents(*assault);
}

// B11.3: an assault whose attack is called off is lost at the end of combat.
TEST(B11_3, AnAssaultThatDoesNotClearItsHexIsLost) {
  Camp c(R"({
    "opsim": "scenario", "version": 1, "name": "polder",
    "sheets": [{"name": "1", "size": [20, 20], "origin": [0, 0], "first": [1, 1], "zone": "A",
                "terrain": ["cckkkkkk", "cckkkkkk", "cckkkkkk"]}],
    "places": [{"hex": "1:0101", "name": "Field", "airbase": true}],
    "state": {"control": {"allied": ["1:0101..0203"], "axis": ["1:0301..0803"]}},
    "campaign": {"start": "Jun I 1944", "first": "axis",
                 "nationalities": {"german": "axis", "soviet": "allied"},
                 "units": [{"id": "de", "nationality": "german", "type": "infantry", "attack": 2,
                            "defense": 1, "mp": 4, "re": 1, "hex": "1:0502"}]}
  })",
         1);
  c.At(1);
  c.Add("para", Side::kAllied, opsim::test::BaseType("airborne"), 6, 2, 4, 2, "1:0101");
  auto r = c.Play(
      {{"movement", json::array({{{"air-drop", "para"}, {"hex", "1:0502"}}})},
       {"combat",
        json::array({{{"attack", "1:0502"}, {"units", {"para"}}, {"if-flooded", "call-off"}}})},
       {"reactions", json::array({{{"flood", "1:0502"}}})}},
      {5});  // S: flooded, and the attack is called off
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "combat", rules::k41A4a, "called off")) << test::AllEvents(*r);
  EXPECT_EQ(c.Unit("para").status, UnitStatus::kEliminated);
  EXPECT_TRUE(Said(*r, "eliminated", rules::kB11_3, "did not clear 1:0502")) << test::AllEvents(*r);
  EXPECT_EQ(c.state.map.owner(c.Hex("1:0502")), Owner::kAxis);
}

// --- B13 the Netherlands -----------------------------------------------------------------------

// B13.1: the Netherlands surrenders in the first initial phase in which the Axis own all its
// cities.
TEST(B13_1, NetherlandsSurrendersWhenTheAxisHoldItsCities) {
  Camp c;
  ASSERT_FALSE(c.state.netherlands_surrendered);
  for (std::uint32_t i = 0; i < c.t().hex_count(); ++i) {
    const map::HexRef h{i};
    if (c.t().InRole(h, map::AreaRole::kNetherlands) && c.t().hex(h).city != map::CityKind::kNone) {
      c.state.map.SetOwner(c.t(), h, Owner::kAxis);
    }
  }
  auto r = c.Play({}, c.Weather());
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(c.state.netherlands_surrendered);
  EXPECT_TRUE(Said(*r, "surrender", rules::kB13_1, "the Netherlands surrenders"))
      << test::AllEvents(*r);
}

// --- Orders and state files --------------------------------------------------------------------

// Orders files: a mistake is reported with its file, line and JSON path, and what is wrong.
TEST(OrdersFile, MistakesNameFileLineAndWhat) {
  Camp c = Fields();
  const std::string text =
      "{\"opsim\": \"orders\", \"version\": 1, \"side\": \"axis\", \"turn\": \"Jan I 1942\",\n"
      " \"movement\": [\n"
      "  {\"units\": [\"a\"], \"path\": [\"1:0303\", \"1:9999\"]}\n"
      " ]}\n";
  auto src = JsonSource::FromText(text, "orders.json");
  ASSERT_TRUE(src);
  auto parsed = ParseOrders(*src, c.t());
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(parsed.error().where.find("orders.json:3"), std::string::npos) << parsed.error().where;
  EXPECT_NE(parsed.error().message.find("1:9999"), std::string::npos) << parsed.error().message;
  auto newer = JsonSource::FromText(
      R"({"opsim": "orders", "version": 99, "side": "axis", "turn": "Jan I 1942"})", "new.json");
  ASSERT_TRUE(newer);
  auto refused = ParseOrders(*newer, c.t());
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kUnsupported);
}

// Orders survive a round trip through their JSON form.
TEST(OrdersFile, RoundTrip) {
  Camp c;
  for (const char* name : {"01-axis-may-i-1940.json", "02-allied-may-i-1940.json"}) {
    const std::string file = std::string(OPSIM_SCENARIO_DIR) + "/orders/special-terrain/" + name;
    auto src = JsonSource::FromFile(file);
    ASSERT_TRUE(src) << src.error().to_string();
    auto a = ParseOrders(*src, c.t());
    ASSERT_TRUE(a) << a.error().to_string();
    auto again = JsonSource::FromText(OrdersToJson(*a, c.t()), "again.json");
    ASSERT_TRUE(again);
    auto b = ParseOrders(*again, c.t());
    ASSERT_TRUE(b) << b.error().to_string();
    EXPECT_EQ(OrdersToJson(*a, c.t()), OrdersToJson(*b, c.t()));
    // Orders without retreat preferences keep the text logged before there were any.
    EXPECT_EQ(OrdersToJson(*a, c.t()).find("retreats"), std::string::npos);
  }
}

// B7.5: retreat preferences survive the round trip, each hex written with its sheet.
TEST(OrdersFile, RetreatPreferencesRoundTrip) {
  Camp c = Fields();
  auto src = JsonSource::FromText(
      R"({"opsim": "orders", "version": 1, "side": "axis", "turn": "Jan I 1942",
          "retreats": [{"hex": "1:0505", "prefer": ["1:0605", "0504"]}]})",
      "orders.json");
  ASSERT_TRUE(src);
  auto a = ParseOrders(*src, c.t());
  ASSERT_TRUE(a) << a.error().to_string();
  const std::string text = OrdersToJson(*a, c.t());
  EXPECT_NE(text.find(R"("retreats":[{"hex":"1:0505","prefer":["1:0605","1:0504"]}])"),
            std::string::npos)
      << text;
  auto again = JsonSource::FromText(text, "again.json");
  ASSERT_TRUE(again);
  auto b = ParseOrders(*again, c.t());
  ASSERT_TRUE(b) << b.error().to_string();
  EXPECT_EQ(OrdersToJson(*b, c.t()), text);
}

// State files keep every field: a state read back has the same hash; an edited one is flagged.
TEST(StateFile, RoundTripAndEdits) {
  Camp c;
  ASSERT_TRUE(c.Play({}, c.Weather()));
  AirUnit lost;
  lost.id = "lost";
  lost.name = "Lost Wing";
  lost.nationality = "german";
  lost.base = c.Hex("16A:1321");
  lost.status = AirStatus::kEliminated;
  c.state.air.push_back(lost);
  const ScenarioId id{"special-terrain", "special-terrain.json", "abc"};
  const std::string text = StateToJson(c.state, c.t(), DefaultRuleTables(), id);
  auto src = JsonSource::FromText(text, "state.json");
  ASSERT_TRUE(src);
  auto back = StateFromJson(*src, c.t(), DefaultRuleTables());
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_FALSE(back->edited);
  EXPECT_EQ(StateHash(back->state), StateHash(c.state));
  EXPECT_EQ(back->scenario.sha256, "abc");
  json j = json::parse(text);
  j["game"]["srp"]["british"] = 99;
  auto edited_src = JsonSource::FromText(j.dump(1), "edited.json");
  ASSERT_TRUE(edited_src);
  auto edited = StateFromJson(*edited_src, c.t(), DefaultRuleTables());
  ASSERT_TRUE(edited) << edited.error().to_string();
  EXPECT_TRUE(edited->edited);
  EXPECT_EQ(edited->state.srp.at("british"), 99);
  EXPECT_EQ(back->state.air.back().status, AirStatus::kEliminated);

  // An air unit's status is "based" or "eliminated"; anything else is refused, not read as based.
  j = json::parse(text);
  j["air"].back()["status"] = "grounded";
  auto bad_src = JsonSource::FromText(j.dump(1), "bad.json");
  ASSERT_TRUE(bad_src);
  auto bad = StateFromJson(*bad_src, c.t(), DefaultRuleTables());
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().to_string().find("unknown value 'grounded'"), std::string::npos)
      << bad.error().to_string();
}

// A state file is checked as a scenario file is: presence and type of every value, with the
// file, line and JSON path; unit ids, sizes, SRP pools and control; and its scenario.
TEST(StateFile, EveryValueIsCheckedWithWhereAndWhat) {
  Camp c;
  const ScenarioId id{"special-terrain", "special-terrain.json", "abc"};
  const json good = json::parse(StateToJson(c.state, c.t(), DefaultRuleTables(), id));
  ASSERT_GE(good["units"].size(), 2u);
  const std::string axis_hex = good["map"]["control"]["axis"][0];
  struct Case {
    std::function<void(json&)> edit;
    std::string where;  // the JSON path in Error::where
    std::string what;   // part of Error::message
  };
  const Case cases[] = {
      {[](json& j) { j["scenario"] = json::array(); }, "/scenario", "expected an object"},
      {[](json& j) { j["scenario"].erase("sha256"); }, "/scenario", "'sha256'"},
      {[](json& j) { j["scenario"]["name"] = "other"; }, "/scenario/name",
       "for the scenario 'other', not 'special-terrain'"},
      {[](json& j) { j["game"] = 1; }, "/game", "expected an object"},
      {[](json& j) { j["map"] = json::array(); }, "/map", "expected an object"},
      {[](json& j) { j["map"]["floods"] = json::array({""}); }, "/map/floods/0",
       "expected an object"},
      {[](json& j) { j["map"]["floods"] = json::array({json::object()}); }, "/map/floods/0",
       "'hex'"},
      {[](json& j) { j["map"].erase("ice-airfields"); }, "/map", "'ice-airfields'"},
      {[](json& j) { j["map"]["control"] = json::array(); }, "/map/control", "expected an object"},
      {[&](json& j) { j["map"]["control"]["allied"].push_back(axis_hex); }, "/map/control/allied/",
       "is given to both sides"},
      {[](json& j) { j["game"].erase("seed"); }, "/game", "'seed'"},
      {[](json& j) { j["game"]["seed"] = 7; }, "/game/seed", "expected a string"},
      {[](json& j) { j["game"].erase("start"); }, "/game", "'start'"},
      {[](json& j) {
         j["game"]["weather"] = {{"Q", "clear"}};
       },
       "/game/weather/Q", "no weather zone Q"},
      {[](json& j) { j["game"]["srp"]["british"] = -1; }, "/game/srp/british", "from 0 to 1000000"},
      {[](json& j) { j["units"][0].erase("hex"); }, "/units/0", "'hex'"},
      {[](json& j) { j["units"][0]["hex"] = nullptr; }, "/units/0/hex", "on the map"},
      {[](json& j) { j["units"][0] = "x"; }, "/units/0", "expected an object"},
      {[](json& j) { j["units"][0]["re-halves"] = 0; }, "/units/0/re-halves", "from 1 to 40"},
      {[](json& j) { j["units"][1]["id"] = j["units"][0]["id"]; }, "/units/1/id", "twice"},
  };
  for (const Case& k : cases) {
    json j = good;
    k.edit(j);
    SCOPED_TRACE(j.dump().substr(0, 200));
    auto src = JsonSource::FromText(j.dump(1), "state.json");
    ASSERT_TRUE(src);
    auto loaded = StateFromJson(*src, c.t(), DefaultRuleTables());
    ASSERT_FALSE(loaded);
    EXPECT_EQ(loaded.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(loaded.error().where.find("state.json:"), std::string::npos)
        << loaded.error().to_string();
    EXPECT_NE(loaded.error().where.find(k.where), std::string::npos) << loaded.error().to_string();
    EXPECT_NE(loaded.error().message.find(k.what), std::string::npos) << loaded.error().to_string();
  }
}

// --- B16 reinforcements -------------------------------------------------------------------

// Fields with an Axis reinforcement, r1, due at 1:0305 on Jan II 1942 (the second game turn).
Camp WithReinforcement() {
  Camp c = Fields();
  GroundUnit& r1 =
      c.Add("r1", Side::kAxis, opsim::test::BaseType("infantry"), 3, 3, 4, 2, "1:0305");
  r1.status = UnitStatus::kReinforcement;
  c.campaign().arrivals["r1"] = *ParseGameDate("Jan II 1942");
  return c;
}

// B16.1: a reinforcement waits off the map until its game turn, then enters in its side's
// initial phase, supplied, and may move in that player-turn.
TEST(B16_1, AReinforcementEntersInItsSidesInitialPhaseOfItsTurn) {
  Camp c = WithReinforcement();
  auto early = c.Play(json::object(), c.Weather());
  ASSERT_TRUE(early) << early.error().to_string();
  EXPECT_EQ(c.Unit("r1").status, UnitStatus::kReinforcement);
  c.At(2);
  auto r = c.Play(Moves(json::array({Move("r1", {"1:0305", "1:0405"})})), c.Weather());
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(Said(*r, "reinforcement", rules::kB16_1, "r1 arrives at 1:0305"))
      << test::AllEvents(*r);
  EXPECT_EQ(c.Unit("r1").status, UnitStatus::kOnMap);
  EXPECT_EQ(c.Unit("r1").hex, c.Hex("1:0405"));
  EXPECT_EQ(c.Unit("r1").supply, SupplyStatus::kSupplied);
}

TEST(B16_1, NoOrderNamesAReinforcementBeforeItArrives) {
  Camp c = WithReinforcement();
  auto r = c.Play(Moves(json::array({Move("r1", {"1:0305", "1:0405"})})), c.Weather());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("r1 has not arrived (B16.1)"), std::string::npos)
      << r.error().to_string();
  EXPECT_EQ(c.Unit("r1").status, UnitStatus::kReinforcement);
}

// B16.1: a hex held by enemy units, owned by the enemy, or full makes it wait, and say why.
TEST(B16_1, AReinforcementWaitsWhileItsHexIsBarred) {
  const std::vector<std::pair<std::function<void(Camp&)>, std::string>> bars = {
      {[](Camp& c) {
         c.Add("su", Side::kAllied, opsim::test::BaseType("infantry"), 1, 1, 4, 2, "1:0305");
       },
       "enemy units hold it"},
      {[](Camp& c) { c.Own("1:0305", Side::kAllied); }, "the enemy owns it"},
      {[](Camp& c) {
         c.Add("big", Side::kAxis, opsim::test::BaseType("infantry"), 3, 3, 4, 6, "1:0305");
       },
       "it would break stacking (B3.2)"},
  };
  for (const auto& [bar, why] : bars) {
    Camp c = WithReinforcement();
    bar(c);
    c.At(2);
    auto r = c.Play(json::object(), c.Weather());
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_TRUE(Said(*r, "reinforcement", rules::kB16_1,
                     "r1 cannot enter at 1:0305: " + why + "; it waits"))
        << test::AllEvents(*r);
    EXPECT_EQ(c.Unit("r1").status, UnitStatus::kReinforcement) << why;
  }
  // Once the hex is clear it enters, in a later initial phase of its side.
  Camp c = WithReinforcement();
  c.Own("1:0305", Side::kAllied);
  c.At(2);
  ASSERT_TRUE(c.Play(json::object(), c.Weather()));
  c.Own("1:0305", Side::kAxis);
  c.At(4);
  auto later = c.Play(json::object(), c.Weather());
  ASSERT_TRUE(later) << later.error().to_string();
  EXPECT_TRUE(Said(*later, "reinforcement", rules::kB16_1, "r1 arrives at 1:0305"))
      << test::AllEvents(*later);
}

// B16.1: `arrives` in a scenario: a game turn after the start; the unit is off the map until
// then and counts for no stacking; a state file names its status.
TEST(B16_1, AScenarioGivesReinforcementsTheirGameTurn) {
  json scenario = json::parse(opsim::test::ReadFile(opsim::test::BundledPath("special-terrain")));
  json& unit = scenario["campaign"]["units"][0];
  unit["arrives"] = "Jun I 1941";
  Camp c(scenario.dump(1), 1);
  const std::string id = unit["id"];
  EXPECT_EQ(c.Unit(id).status, UnitStatus::kReinforcement);
  ASSERT_EQ(c.campaign().arrivals.count(id), 1u);
  EXPECT_EQ(FormatGameDate(c.campaign().arrivals.at(id)), "Jun I 1941");
  const std::string text =
      StateToJson(c.state, c.t(), DefaultRuleTables(), {"special-terrain", "s.json", "0"});
  EXPECT_NE(text.find("\"reinforcement\""), std::string::npos);
  for (const auto& [arrives, says] : std::vector<std::pair<std::string, std::string>>{
           {scenario["campaign"]["start"], "a reinforcement arrives after the start (B16.1)"},
           {"Mai I 1941", "/campaign/units/0/arrives: "}}) {
    unit["arrives"] = arrives;
    auto src = JsonSource::FromText(scenario.dump(1), "campaign.json");
    ASSERT_TRUE(src);
    auto sc = map::LoadScenario(*src);
    ASSERT_TRUE(sc) << sc.error().to_string();
    auto refused = LoadCampaign(*src, *sc, 1);
    ASSERT_FALSE(refused) << arrives;
    EXPECT_NE(refused.error().to_string().find(says), std::string::npos)
        << refused.error().to_string();
  }
}

}  // namespace
}  // namespace opsim::ops
