// libquery through its typed API: a game source loaded once, the what-if overrides, and each
// query's answer and its JSON, which must be what the CLI's --json prints.
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "opsim/query/check.h"
#include "opsim/query/log.h"
#include "opsim/query/map.h"
#include "opsim/query/reach.h"
#include "opsim/query/route.h"
#include "opsim/query/source.h"
#include "opsim/query/supply.h"
#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;

TEST(QuerySource, ATheaterSummaryDoesNotBuildTheCampaign) {
  const query::LoadedGame map_only = test::LoadBundledGame({}, query::Needs::kTheater);
  EXPECT_EQ(map_only.campaign, nullptr);
  EXPECT_FALSE(map_only.state.has_value());
  const query::LoadedGame game = test::LoadBundledGame();
  ASSERT_NE(game.campaign, nullptr);
  EXPECT_TRUE(game.state.has_value());
  EXPECT_EQ(map_only.scenario.sha256, game.scenario.sha256);
  EXPECT_EQ(query::SummaryJson(*map_only.theater),
            test::CliJson({"map", "--scenario", "special-terrain"}));
}

TEST(QuerySource, AUnitOverrideLoadsTheCampaignEvenForATheaterQuery) {
  const query::LoadedGame g =
      test::LoadBundledGame({"unit:de-9pz=16A:0827"}, query::Needs::kTheater);
  ASSERT_TRUE(g.state.has_value());
  const ops::GroundUnit* u = g.state->FindUnit("de-9pz");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(g.theater->HexName(u->hex), "16A:0827");
}

// 41.A.4.a: an S* flood lasts as long as the rules tables say, from the player-turn before.
TEST(QueryOverride, AProhibitedFloodLastsAsLongAsTheTablesSay) {
  const query::LoadedGame g = test::LoadBundledGame({"flood:16A:0922=prohibited"});
  auto h = g.theater->FindHex("16A:0922");
  ASSERT_TRUE(h.has_value());
  const map::Flood* f = g.map.flood(*h);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->kind, map::FloodKind::kProhibited);
  EXPECT_EQ(f->from, g.player_turn() - 1);
  EXPECT_EQ(f->until - f->from, g.tables().flooding.great_success_player_turns);
}

TEST(QueryOverride, ParsesIntoTypedOverrides) {
  const query::LoadedGame g = test::LoadBundledGame();
  auto suez = query::ParseOverride(*g.theater, "suez=temporarily-closed");
  ASSERT_TRUE(suez.has_value());
  EXPECT_EQ(suez->kind, query::Override::Kind::kSuez);
  EXPECT_EQ(suez->suez, map::CanalStatus::kTemporarilyClosed);
  auto owner = query::ParseOverride(*g.theater, "owner:16A:0727=axis");
  ASSERT_TRUE(owner.has_value());
  EXPECT_EQ(owner->owner, Owner::kAxis);
  EXPECT_EQ(g.theater->HexName(owner->hex), "16A:0727");

  auto bad = query::ParseOverride(*g.theater, "weather=snow");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(bad.error().where, "weather=snow");
  EXPECT_FALSE(query::ParseOverride(*g.theater, "owner:16A:0727").has_value());
  EXPECT_FALSE(query::ParseOverride(*g.theater, "owner:ZZ:0101=axis").has_value());
}

// 41.A.1: a naval path across a causeway is refused, and the answer names the rule.
TEST(QueryRoute, ANavalPathAcrossACausewayIsRefusedBy41A1) {
  const query::LoadedGame g = test::LoadBundledGame();
  query::RouteRequest req;
  req.mode = query::RouteMode::kNaval;
  req.path = "16A:0827,16A:0826,16A:0825";
  auto a = query::AnswerRoute(g, req);
  ASSERT_TRUE(a.has_value()) << a.error().to_string();
  EXPECT_FALSE(a->verdict.legal);
  ASSERT_FALSE(a->verdict.blocked_by.empty());
  EXPECT_EQ(a->verdict.blocked_by.front().id, "41.A.1");
  EXPECT_EQ(a->waypoints.size(), 3u);
  EXPECT_EQ(query::ToJson(*a), test::CliJson({"route", "--scenario", "special-terrain", "--mode",
                                              "naval", "--path", "16A:0827,16A:0826,16A:0825"}));
}

TEST(QueryRoute, AGroundRouteCostsMovementPoints) {
  const query::LoadedGame g = test::LoadBundledGame();
  query::RouteRequest req;
  req.side = Side::kAxis;
  req.from = "16A:1323";
  req.to = "16A:1021";
  auto a = query::AnswerRoute(g, req);
  ASSERT_TRUE(a.has_value()) << a.error().to_string();
  const json j = query::ToJson(*a);
  ASSERT_TRUE(a->found.reachable) << a->found.reason;
  EXPECT_EQ(j["reachable"], true);
  EXPECT_EQ(j["cost"], ops::ToMp(a->found.cost));
  EXPECT_EQ(j, test::CliJson({"route", "--scenario", "special-terrain", "--side", "axis", "--from",
                              "16A:1323", "--to", "16A:1021"}));

  req.from = "19A:3413/3414";
  auto river = query::AnswerRoute(g, req);
  ASSERT_FALSE(river.has_value());
  EXPECT_EQ(river.error().code, ErrorCode::kInvalidInput);
}

// A legal route found lists each step's rules, as --path would: the same notes, step by step.
TEST(QueryRoute, ARouteFoundListsEachStepsRules) {
  const query::LoadedGame g = test::LoadBundledGame();
  query::RouteRequest req;
  req.side = Side::kAxis;
  req.from = "16A:1323";
  req.to = "16A:1021";
  auto a = query::AnswerRoute(g, req);
  ASSERT_TRUE(a.has_value()) << a.error().to_string();
  ASSERT_TRUE(a->found.reachable);
  std::string path;
  for (const std::string& w : a->waypoints) path += (path.empty() ? "" : ",") + w;
  query::RouteRequest check = req;
  check.from = check.to = "";
  check.path = path;
  auto checked = query::AnswerRoute(g, check);
  ASSERT_TRUE(checked.has_value()) << checked.error().to_string();
  const json found = query::ToJson(*a);
  ASSERT_EQ(found["steps"].size(), a->waypoints.size() - 1);
  EXPECT_EQ(found["steps"], query::ToJson(*checked)["steps"]);
  EXPECT_EQ(found["cost"], query::ToJson(*checked)["cost"]);
}

// B4.3: a road step costs the road's 1/2 MP whatever the hex's terrain, and says so alone: the
// terrain's own cost is not listed beside it.
TEST(QueryRoute, ARoadStepShowsTheRoadsCostNotTheTerrains) {
  const query::LoadedGame g = test::LoadBundledGame();
  query::RouteRequest req;
  req.side = Side::kAxis;
  req.path = "9A:0907,9A:0908";  // into swamp, 3 MP off the road
  auto a = query::AnswerRoute(g, req);
  ASSERT_TRUE(a.has_value()) << a.error().to_string();
  ASSERT_EQ(a->verdict.notes.size(), 1u);
  bool road = false;
  for (const ops::Note& n : a->verdict.notes[0]) {
    EXPECT_NE(n.rule.id, "B4.1") << n.text;
    road = road || (n.rule.id == std::string_view("B4.3") && n.text == "along the road: 0.5 MP");
  }
  EXPECT_TRUE(road);
  EXPECT_EQ(a->verdict.cost, 1u);
}

// `route` and `turn` never disagree (B4.8): with the bundled game loaded, every ground path of
// every Axis unit that `route --path` judges, `check` (which plays the order as `turn` would)
// judges alike, refusing with the same rule. Paths are random walks from each unit's hex; where
// only the move order knows the answer (the unit's MP allowance, B4.10; stacking at the end,
// B3.2; an overrun's odds, B4.9), the path is not compared.
TEST(QueryRoute, RouteAndTurnAgreeOnEveryPath) {
  const query::LoadedGame g = test::LoadBundledGame();
  const map::Theater& t = *g.theater;
  std::mt19937 random(41);
  int compared = 0, refused = 0, zones = 0;
  for (const ops::GroundUnit& u : g.state->units) {
    if (!u.on_map() || u.side != Side::kAxis || g.campaign->tables.type(u.type).airborne) continue;
    for (int walk = 0; walk < 40; ++walk) {
      std::vector<map::HexRef> hexes = {u.hex};
      const int steps = 1 + static_cast<int>(random() % 4);
      for (int i = 0; i < steps; ++i) {
        const map::HexRef next =
            t.NeighborAt(hexes.back(), map::kAllDirs[random() % map::kAllDirs.size()]);
        if (next.valid()) hexes.push_back(next);
      }
      if (hexes.size() < 2) continue;
      query::RouteRequest req;
      req.side = Side::kAxis;
      req.unit = g.campaign->tables.type(u.type).motorized ? "motorized" : "infantry";
      json path = json::array();
      for (map::HexRef h : hexes) {
        req.path += (req.path.empty() ? "" : ",") + t.HexName(h);
        path.push_back(t.HexName(h));
      }
      auto route = query::AnswerRoute(g, req);
      ASSERT_TRUE(route.has_value()) << route.error().to_string();
      const ops::PathVerdict& v = route->verdict;
      if (static_cast<int>(v.cost) > u.mp * 2) continue;
      if (!v.legal && v.blocked_by.front().id == std::string_view("B4.9")) continue;
      bool friends_at_end = false;
      for (const ops::GroundUnit& f : g.state->units) {
        friends_at_end = friends_at_end ||
                         (f.on_map() && f.side == u.side && f.id != u.id && f.hex == hexes.back());
      }
      if (v.legal && friends_at_end) continue;
      const json order = {{"units", {u.id}}, {"path", path}};
      auto check = query::AnswerCheck(g, order.dump());
      ASSERT_TRUE(check.has_value()) << check.error().to_string();
      ++compared;
      EXPECT_EQ(check->legal, v.legal) << req.path << ": " << check->reason << " / " << v.reason;
      if (!v.legal && !check->legal) {
        ++refused;
        zones += v.blocked_by.front().id == std::string_view("B4.8");
        EXPECT_EQ(check->rules, std::vector<std::string>{std::string(v.blocked_by.front().id)})
            << req.path << ": " << check->reason << " / " << v.reason;
      }
    }
  }
  EXPECT_GT(compared, 50);
  EXPECT_GT(refused, 5);
  EXPECT_GT(zones, 0) << "no path met an enemy zone of control";
}

// Issue 12: a LoadedGame keeps the routers and planning games its queries build (WarmCache)
// and lends them to later queries, from any thread (issue 21: reaches too, through the planning
// games' shared zones of control). Every answer from the warm game, asked
// again and from four threads at once, is the answer of a cold copy; an override empties the
// cache, so that no router built before it answers after it.
TEST(QueryWarm, WarmAnswersAreTheColdOnes) {
  const query::LoadedGame g = test::LoadBundledGame();
  const map::Theater& t = *g.theater;
  std::mt19937 random(12);
  std::vector<query::RouteRequest> routes;
  std::vector<std::string> orders;
  for (const ops::GroundUnit& u : g.state->units) {
    if (!u.on_map() || u.side != Side::kAxis) continue;
    for (int walk = 0; walk < 6; ++walk) {
      std::vector<map::HexRef> hexes = {u.hex};
      for (int i = 0; i < 1 + static_cast<int>(random() % 5); ++i) {
        const map::HexRef next =
            t.NeighborAt(hexes.back(), map::kAllDirs[random() % map::kAllDirs.size()]);
        if (next.valid()) hexes.push_back(next);
      }
      query::RouteRequest path, route;
      path.side = route.side = walk % 3 == 2 ? Side::kAllied : Side::kAxis;
      path.unit = route.unit = walk % 2 ? "motorized" : "infantry";
      path.exploitation = route.exploitation = walk == 3;
      json names = json::array();
      for (map::HexRef h : hexes) {
        path.path += (path.path.empty() ? "" : ",") + t.HexName(h);
        names.push_back(t.HexName(h));
      }
      route.from = t.HexName(hexes.front());
      route.to = t.HexName(hexes.back());
      routes.push_back(path);
      routes.push_back(route);
      orders.push_back(json{{"units", {u.id}}, {"path", names}}.dump());
    }
  }
  ASSERT_GT(routes.size(), 40u);
  auto answers = [&](const query::LoadedGame& game) {
    std::vector<json> out;
    for (const query::RouteRequest& r : routes) {
      auto a = query::AnswerRoute(game, r);
      out.push_back(a ? query::ToJson(*a) : json(a.error().to_string()));
    }
    for (const std::string& o : orders) {
      auto a = query::AnswerCheck(game, o);
      out.push_back(a ? query::ToJson(*a) : json(a.error().to_string()));
    }
    // Reaches, for the phasing side and for the side planning its coming player-turn.
    for (const ops::GroundUnit& u : game.state->units) {
      if (!u.on_map()) continue;
      query::ReachRequest r;
      r.units = {u.id};
      r.side = u.side;
      auto a = query::AnswerReach(game, r);
      out.push_back(a ? query::ToJson(t, *a) : json(a.error().to_string()));
    }
    return out;
  };
  const std::vector<json> first = answers(g);
  EXPECT_EQ(answers(g), first);
  std::vector<std::vector<json>> threaded(4);
  std::vector<std::thread> threads;
  for (auto& out : threaded) threads.emplace_back([&] { out = answers(g); });
  for (std::thread& th : threads) th.join();
  for (const auto& out : threaded) EXPECT_EQ(out, first);
  const query::LoadedGame cold = g;  // a copy starts cold
  EXPECT_EQ(answers(cold), first);

  // An enemy unit put in the way after the routers were built: the answer is the fresh game's.
  query::LoadedGame changed = test::LoadBundledGame();
  query::RouteRequest r;
  r.side = Side::kAxis;
  r.path = "16A:1323,16A:1223";
  ASSERT_TRUE(query::AnswerRoute(changed, r).has_value());
  auto o = query::ParseOverride(*changed.theater, "unit:nl-1=16A:1223");
  ASSERT_TRUE(o.has_value()) << o.error().to_string();
  ASSERT_TRUE(query::ApplyOverride(changed, *o).has_value());
  auto after = query::AnswerRoute(changed, r);
  auto fresh = query::AnswerRoute(test::LoadBundledGame({"unit:nl-1=16A:1223"}), r);
  ASSERT_TRUE(after.has_value() && fresh.has_value());
  EXPECT_EQ(query::ToJson(*after), query::ToJson(*fresh));
  EXPECT_FALSE(after->verdict.legal);
}

// The phasing side's supply in a probe's initial phase is worked out once per position and
// shared by every later probe, on any thread (ops::Game::Fork): after each player-turn of the
// bundled game, checks and a dry run of the next orders through a warm game are a cold game's,
// and the initial phase of a probe through the shared supply is that of the turn played.
TEST(QueryWarm, ChecksThroughTheSharedSupplyAreTheColdOnes) {
  query::LoadedGame g = test::LoadBundledGame();
  const std::vector<std::string> files = {"01-axis-may-i-1940",  "02-allied-may-i-1940",
                                          "03-axis-may-ii-1940", "04-allied-may-ii-1940",
                                          "05-axis-jun-i-1940",  "06-allied-jun-i-1940"};
  int played_turns = 0, compared = 0;
  // The initial phase's events: up to the side's supply count (B8).
  auto initial = [](const std::vector<ops::Event>& events) {
    std::vector<std::string> out;
    for (const ops::Event& e : events) {
      out.push_back(e.kind + " " + e.text);
      if (e.kind == "supply" && e.units.empty()) break;
    }
    return out;
  };
  for (const std::string& file : files) {
    auto src = JsonSource::FromFile(test::BundledOrders(file + ".json"));
    ASSERT_TRUE(src.has_value());
    auto orders = ops::ParseOrders(*src, *g.theater);
    ASSERT_TRUE(orders.has_value()) << orders.error().to_string();
    std::vector<std::string> checks;
    for (const ops::GroundUnit& u : g.state->units) {
      if (!u.on_map() || u.side != g.state->phasing()) continue;
      const map::HexRef next = g.theater->NeighborAt(u.hex, map::kAllDirs[checks.size() % 6]);
      if (!next.valid()) continue;
      checks.push_back(
          json{{"units", {u.id}}, {"path", {g.theater->HexName(u.hex), g.theater->HexName(next)}}}
              .dump());
    }
    ASSERT_FALSE(checks.empty()) << file;
    auto answers = [&](const query::LoadedGame& game) {
      std::vector<json> out;
      for (const std::string& c : checks) {
        auto a = query::AnswerCheck(game, c);
        out.push_back(a ? query::ToJson(*a) : json(a.error().to_string()));
      }
      auto dry = query::AnswerDryRun(game, *src);
      out.push_back(dry ? query::ToJson(*dry) : json(dry.error().to_string()));
      return out;
    };
    const query::LoadedGame cold = g;  // a copy starts cold
    const std::vector<json> first = answers(cold);
    EXPECT_EQ(answers(cold), first) << file;
    std::vector<std::vector<json>> threaded(3);
    std::vector<std::thread> threads;
    for (auto& out : threaded) threads.emplace_back([&] { out = answers(cold); });
    for (std::thread& th : threads) th.join();
    for (const auto& out : threaded) EXPECT_EQ(out, first) << file;

    ops::Game game(g.theater, g.campaign, *g.state);
    ops::ProbeRun run;
    run.go_on = true;
    auto probed = game.Probe(*orders, run);  // works the supply out
    ASSERT_TRUE(probed.has_value()) << probed.error().to_string();
    const ops::Game fork = game.Fork();
    ops::ProbeRun again;
    again.go_on = true;
    auto shared = fork.Probe(*orders, again);  // reads it
    ASSERT_TRUE(shared.has_value()) << shared.error().to_string();
    EXPECT_EQ(initial(shared->events), initial(probed->events)) << file;
    if (file == files.back()) break;
    ++played_turns;
    auto played = game.Play(*orders);
    ASSERT_TRUE(played.has_value()) << file << ": " << played.error().to_string();
    // A probe plans in the present weather: only a player-turn that rolls none compares.
    if (g.state->player_turn % 2 != 0) {
      EXPECT_EQ(initial(shared->events), initial(played->events)) << file;
      ++compared;
    }
    g.state = game.state();
    g.map = game.state().map;
    g.warm = query::WarmCache();
  }
  EXPECT_EQ(played_turns, 5);
  EXPECT_EQ(compared, 2);
}

// 41.A.4.b: a massively flooded hex counts as prohibited terrain through the player-turn after
// the flood, and as swamp (still with its city) for the rest of the game; `map --hex` says which.
TEST(QueryMap, AMassivelyFloodedHexCountsAsSwampLater) {
  query::LoadedGame g = test::LoadBundledGame();
  const map::HexRef h = *g.theater->FindHex("16A:0623");
  const std::int32_t now = g.player_turn();
  g.map.SetFlood(h, {map::FloodKind::kMassive, now, now + 1});
  auto during = query::AnswerHex(g, "16A:0623");
  ASSERT_TRUE(during.has_value());
  EXPECT_EQ(during->flood_counts_as, "prohibited");
  EXPECT_EQ(during->flood_note.rule.id, std::string_view("41.A.4.b"));
  g.map.SetFlood(h, {map::FloodKind::kMassive, now - 3, now - 2});
  auto after = query::AnswerHex(g, "16A:0623");
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->flood_counts_as, "swamp");
  EXPECT_EQ(query::ToJson(g, *after)["flood"]["why"],
            "16A:0623 is massively flooded: swamp for the game");
}

TEST(QueryMap, AHexInAGameShowsItsUnits) {
  const query::LoadedGame g = test::LoadBundledGame();
  auto a = query::AnswerHex(g, "16A:1323");
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->in_game);
  EXPECT_FALSE(a->units.empty());
  EXPECT_EQ(query::ToJson(g, *a),
            test::CliJson({"map", "--scenario", "special-terrain", "--hex", "16A:1323"}));
  EXPECT_FALSE(query::AnswerHex(g, "ZZ:0101").has_value());
}

TEST(QueryCheck, AnOrderIsJudgedWithoutChangingTheGame) {
  const query::LoadedGame g = test::LoadBundledGame();
  const std::string move = R"({"units": ["de-9pz"], "path": ["16A:1323", "16A:1223"]})";
  auto a = query::AnswerCheck(g, move);
  ASSERT_TRUE(a.has_value()) << a.error().to_string();
  EXPECT_EQ(a->side, "axis");
  EXPECT_EQ(query::ToJson(*a),
            test::CliJson({"check", "--scenario", "special-terrain", "--action", move}));
  EXPECT_EQ(g.state->FindUnit("de-9pz")->hex,
            test::LoadBundledGame().state->FindUnit("de-9pz")->hex);
  EXPECT_FALSE(query::AnswerCheck(g, "nope").has_value());
}

// B7.2: an attack is answered with odds, enumerated without the game's dice (B10.1): the
// game's dice state is neither read nor advanced, and the answer's JSON is the CLI's.
TEST(QueryCheck, AnAttackIsAnsweredWithOddsNotADie) {
  const query::LoadedGame g = test::LoadBundledGame({"unit:de-18a=16A:1222"});
  const std::string attack = R"({"attack": "16A:1122", "units": ["de-18a"]})";
  auto a = query::AnswerCheck(g, attack);
  ASSERT_TRUE(a.has_value()) << a.error().to_string();
  ASSERT_TRUE(a->legal);
  ASSERT_TRUE(a->odds.complete);
  ASSERT_EQ(a->odds.odds.size(), 1u);
  query::Chance sum{0, 6};
  for (const auto& [result, chance] : a->odds.odds[0].results) {
    EXPECT_EQ(chance.denominator, 6u) << result;
    sum.numerator += chance.numerator;
  }
  EXPECT_EQ(sum.numerator, 6u);
  EXPECT_EQ(g.state->dice, test::LoadBundledGame({"unit:de-18a=16A:1222"}).state->dice);
  EXPECT_EQ(query::ToJson(*a), test::CliJson({"check", "--scenario", "special-terrain", "--set",
                                              "unit:de-18a=16A:1222", "--action", attack}));
}

// The dry run of a whole orders file, for the side now moving and for the waiting side (B1.2).
TEST(QueryCheck, ADryRunJudgesEveryOrder) {
  const query::LoadedGame g = test::LoadBundledGame();
  const std::string path =
      std::string(OPSIM_SCENARIO_DIR) + "/orders/special-terrain/01-axis-may-i-1940.json";
  auto src = JsonSource::FromFile(path);
  ASSERT_TRUE(src.has_value());
  auto a = query::AnswerDryRun(g, *src);
  ASSERT_TRUE(a.has_value()) << a.error().to_string();
  EXPECT_TRUE(a->legal());
  EXPECT_EQ(a->side, "axis");
  EXPECT_EQ(query::ToJson(*a),
            test::CliJson({"check", "--scenario", "special-terrain", "--orders", path}));
  auto waiting = query::AnswerDryRun(g, *src, Side::kAllied);
  ASSERT_FALSE(waiting.has_value()) << "Axis orders are not the Allies' player-turn";
  EXPECT_EQ(waiting.error().rule, "B1.2");
}

// Past its bound of player-turns played the dry run says its odds are not complete, and gives
// none, but still judges the orders along the outcomes it played.
TEST(QueryCheck, ADryRunSaysWhenTheDiceAreTooManyToEnumerate) {
  const query::LoadedGame g = test::LoadBundledGame();
  auto src = JsonSource::FromFile(std::string(OPSIM_SCENARIO_DIR) +
                                  "/orders/special-terrain/01-axis-may-i-1940.json");
  ASSERT_TRUE(src.has_value());
  auto all = query::AnswerDryRun(g, *src);
  ASSERT_TRUE(all.has_value());
  EXPECT_TRUE(all->odds.complete);
  auto bounded = query::AnswerDryRun(g, *src, std::nullopt, 8);
  ASSERT_TRUE(bounded.has_value()) << bounded.error().to_string();
  EXPECT_FALSE(bounded->odds.complete);
  EXPECT_TRUE(bounded->odds.odds.empty());
  EXPECT_EQ(query::ToJson(*bounded)["odds"]["max_plays"], 8);
  EXPECT_TRUE(bounded->legal());
  EXPECT_EQ(bounded->orders.size(), all->orders.size());
}

// B8: every unit of a side, and one hex with its line.
TEST(QueryReach, TheWaitingSidesStackAndItsJsonIsTheClis) {
  const query::LoadedGame g = test::LoadBundledGame();
  query::ReachRequest r;
  r.hex = "16A:1122";
  r.side = Side::kAllied;
  r.to = "16A:1021";
  r.max_cost = 2;
  auto a = query::AnswerReach(g, r);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(a->found.side, Side::kAllied);
  EXPECT_EQ(a->found.player_turn, g.player_turn() + 1);
  ASSERT_EQ(a->found.units.size(), 1u);
  EXPECT_EQ(a->found.units[0].id, "nl-1");
  for (std::size_t i : a->listed) EXPECT_LE(a->found.hexes[i].cost, 4u);
  EXPECT_EQ(query::ToJson(*g.theater, *a),
            test::CliJson({"reach", "--scenario", "special-terrain", "--hex", "16A:1122", "--side",
                           "allied", "--to", "16A:1021", "--max-cost", "2"}));
}

TEST(QuerySupply, EveryUnitOfASideAndOneHex) {
  const query::LoadedGame g = test::LoadBundledGame();
  auto all = query::AnswerSupplyAll(g, Side::kAllied);
  ASSERT_TRUE(all.has_value());
  EXPECT_FALSE(all->units.empty());
  EXPECT_EQ(query::ToJson(*g.theater, *all),
            test::CliJson({"supply", "--scenario", "special-terrain", "--all"}));
  auto one = query::AnswerSupplyAt(g, Side::kAxis, "16A:1323");
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(query::ToJson(*g.theater, *one),
            test::CliJson({"supply", "--scenario", "special-terrain", "--side", "axis", "--hex",
                           "16A:1323"}));

  query::Source source;
  source.scenario = "special-terrain";
  auto map_only = query::Load(source, query::Needs::kTheater);
  ASSERT_TRUE(map_only.has_value());
  EXPECT_FALSE(query::AnswerSupplyAll(*map_only, Side::kAllied).has_value());
}

TEST(QueryLog, StatusAndTurnsOfALoggedGame) {
  test::TempDir dir;
  const std::string db = dir.Path("g.sqlite");
  ASSERT_EQ(
      test::RunCli({"new", "--scenario", "special-terrain", "--db", db, "--seed", "1940"}).code, 0);
  const std::string orders =
      std::string(OPSIM_SCENARIO_DIR) + "/orders/special-terrain/01-axis-may-i-1940.json";
  ASSERT_EQ(test::RunCli({"turn", "--db", db, "--orders", orders}).code, 0);

  auto status = query::AnswerStatus(db, std::nullopt);
  ASSERT_TRUE(status.has_value()) << status.error().to_string();
  EXPECT_EQ(status->game.turns_logged, 1);
  EXPECT_EQ(status->game.turns_played, 1);
  EXPECT_EQ(query::ToJson(*status), test::CliJson({"status", "--db", db}));
  auto start = query::AnswerStatus(db, 0);
  ASSERT_TRUE(start.has_value());
  EXPECT_EQ(start->game.turns_played, 0);

  auto log = query::AnswerLog(db, 1);
  ASSERT_TRUE(log.has_value()) << log.error().to_string();
  ASSERT_EQ(log->turns.size(), 1u);
  EXPECT_EQ(log->turns[0].side, "axis");
  EXPECT_EQ(query::ToJson(*log), test::CliJson({"log", "--db", db, "--turn", "1"}));
  // Each event carries its content as replay compares it: a move names its unit and hexes.
  bool move_with_content = false;
  const nlohmann::json logged = query::ToJson(*log);
  for (const nlohmann::json& e : logged["turns"][0]["events"]) {
    if (e["kind"] == "move" && e.contains("units") && e.contains("hexes")) {
      move_with_content = !e["units"].empty() && !e["hexes"].empty();
      break;
    }
  }
  EXPECT_TRUE(move_with_content);
  EXPECT_FALSE(query::AnswerLog(db, 2).has_value());
}

}  // namespace
}  // namespace opsim
