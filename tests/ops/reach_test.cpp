// ops::Reach agrees with `turn`: every hex it reaches is a ground move the player-turn plays at
// the cost it says, every hex it may pass but not end in (B3.2) and every edge it says is
// stopped is refused by the rule it names. On the bundled campaign (zones of control, a road, a
// rail ferry, overruns, exploitation, a mixed stack, rail moves) and on a synthetic game.
#include <gtest/gtest.h>

#include "campaign_support.h"
#include "opsim/core/rule_ids.h"
#include "opsim/map/generate.h"
#include "opsim/ops/reach.h"
#include "opsim/ops/synthetic.h"

namespace opsim::ops {
namespace {

using nlohmann::json;
using test::Camp;

// What a stack is asked and played for.
struct Mode {
  bool exploitation = false;
  bool rail = false;
};

// The game's phasing side plays one move along `path`.
Result<TurnResult> PlayMove(const Game& game, const std::vector<std::string>& units,
                            const std::vector<map::HexRef>& path, Mode mode) {
  Orders orders;
  orders.side = game.state().phasing();
  orders.turn = game.state().date();
  orders.source = "reach-test";
  MoveOrder m;
  m.kind = mode.rail ? MoveKind::kRail : MoveKind::kGround;
  m.units = units;
  for (map::HexRef h : path) {
    Waypoint w;
    w.hex = h;
    m.path.push_back(w);
  }
  (mode.exploitation ? orders.exploitation : orders.movement).push_back(m);
  Game copy = game;
  return copy.Play(orders);
}

// The MPs the move's event reports: the most any unit spent.
std::int64_t MoveCost(const TurnResult& r) {
  for (const Event& e : r.events) {
    if (e.kind == "move" && (e.rule == rules::kB4_10 || e.rule == rules::kB7_8)) {
      return e.numbers.front();
    }
  }
  return -1;
}

// Plays every hex and every stopped edge of the stack's reach; returns the answer.
ReachAnswer ExpectAgreesWithTurn(const Game& game, const std::vector<std::string>& units,
                                 Mode mode = {}) {
  ReachRequest request;
  request.units = units;
  request.exploitation = mode.exploitation;
  request.rail = mode.rail;
  auto reach = Reach(game, request);
  EXPECT_TRUE(reach) << reach.error().to_string();
  if (!reach) return {};
  const map::Theater& t = game.theater();
  for (std::size_t i = 1; i < reach->hexes.size(); ++i) {
    const ReachHex& h = reach->hexes[i];
    auto played = PlayMove(game, units, h.path, mode);
    if (!h.no_end.empty()) {
      if (played) {
        ADD_FAILURE() << "turn moves into " << t.HexName(h.hex);
        continue;
      }
      EXPECT_EQ(played.error().rule, h.no_end.id) << t.HexName(h.hex);
      continue;
    }
    if (!played) {
      ADD_FAILURE() << t.HexName(h.hex) << ": " << played.error().to_string();
      continue;
    }
    if (mode.rail) {
      EXPECT_EQ(h.cost + 1, h.path.size()) << t.HexName(h.hex);
    } else {
      EXPECT_EQ(MoveCost(*played), h.cost) << t.HexName(h.hex);
    }
  }
  for (const ReachEdge& e : reach->blocked) {
    std::vector<map::HexRef> path;
    for (const ReachHex& h : reach->hexes) {
      if (h.hex == e.from) path = h.path;
    }
    path.push_back(e.to);
    auto played = PlayMove(game, units, path, mode);
    if (played) {
      ADD_FAILURE() << "turn moves " << t.HexName(e.from) << " to " << t.HexName(e.to);
      continue;
    }
    EXPECT_EQ(played.error().code, ErrorCode::kRuleViolation) << played.error().to_string();
    EXPECT_EQ(played.error().rule, e.rule.id)
        << t.HexName(e.from) << " to " << t.HexName(e.to) << ": " << played.error().message;
  }
  return *reach;
}

const ReachHex* Find(const ReachAnswer& a, map::HexRef h) {
  for (const ReachHex& x : a.hexes) {
    if (x.hex == h) return &x;
  }
  return nullptr;
}

bool Stopped(const ReachAnswer& a, RuleId rule) {
  for (const ReachEdge& e : a.blocked) {
    if (e.rule == rule) return true;
  }
  return false;
}

// The bundled campaign's first player-turn: the Axis armour beside the Dutch line.
TEST(Reach, ZonesOfControlStopTheMoveAndStackingBarsTheEnd) {
  Camp camp;
  const ReachAnswer a = ExpectAgreesWithTurn(camp.AsGame(), {"de-9pz"});
  const ReachHex* zoc = Find(a, camp.Hex("16A:1221"));
  ASSERT_NE(zoc, nullptr);
  EXPECT_EQ(zoc->stop, rules::kB4_8);
  EXPECT_EQ(zoc->cost, 4u);  // two clear hexes, as the orders file's move pays
  EXPECT_TRUE(Stopped(a, rules::kB4_8));
  EXPECT_TRUE(Stopped(a, rules::kB4_10));
  EXPECT_EQ(Find(a, camp.Hex("16A:1322"))->no_end, rules::kB3_2);
}

TEST(Reach, RoadsAndARailFerry) {
  Camp camp;
  camp.Own("9A:0905", Side::kAxis);
  camp.Add("de-r1", Side::kAxis, opsim::test::BaseType("motorized"), 4, 4, 6, 2, "9A:0905");
  camp.Add("de-f1", Side::kAxis, opsim::test::BaseType("infantry"), 4, 4, 4, 2, "9A:1004");
  const ReachAnswer road = ExpectAgreesWithTurn(camp.AsGame(), {"de-r1"});
  const ReachHex* along = Find(road, camp.Hex("9A:0906"));
  ASSERT_NE(along, nullptr);
  EXPECT_EQ(along->cost, camp.campaign().tables.movement.road);  // B4.3
  const ReachAnswer ferry = ExpectAgreesWithTurn(camp.AsGame(), {"de-f1"});
  const ReachHex* across = Find(ferry, camp.Hex("9A:1001"));
  ASSERT_NE(across, nullptr);
  EXPECT_EQ(across->path.size(), 2u);  // one ride, terminal to terminal (41.A.2)
}

TEST(Reach, OverrunsEndTheMoveAndWeakOnesAreRefused) {
  Camp camp;
  camp.Add("de-big", Side::kAxis, opsim::test::BaseType("armor"), 30, 4, 8, 2, "16A:1425");
  camp.Add("fr-weak", Side::kAllied, opsim::test::BaseType("infantry"), 1, 1, 3, 1, "16A:1426");
  camp.Add("de-small", Side::kAxis, opsim::test::BaseType("infantry"), 1, 1, 3, 2, "16A:1427");
  const ReachAnswer big = ExpectAgreesWithTurn(camp.AsGame(), {"de-big"});
  const ReachHex* overrun = Find(big, camp.Hex("16A:1426"));
  ASSERT_NE(overrun, nullptr);
  EXPECT_EQ(overrun->stop, rules::kB4_9);
  const ReachAnswer small = ExpectAgreesWithTurn(camp.AsGame(), {"de-small"});
  EXPECT_EQ(Find(small, camp.Hex("16A:1426")), nullptr);
  EXPECT_TRUE(Stopped(small, rules::kB4_9));
}

TEST(Reach, ExploitationHalvesTheAllowance) {
  Camp camp;
  const ReachAnswer move = ExpectAgreesWithTurn(camp.AsGame(), {"de-9pz"});
  const ReachAnswer exploit =
      ExpectAgreesWithTurn(camp.AsGame(), {"de-9pz"}, {.exploitation = true});
  EXPECT_LT(exploit.hexes.size(), move.hexes.size());
  EXPECT_TRUE(Stopped(exploit, rules::kB7_8));
  ReachRequest foot;
  foot.units = {"de-18a"};
  foot.exploitation = true;
  auto refused = Reach(camp.AsGame(), foot);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().rule, rules::kB7_8.id);
}

TEST(Reach, AMixedStackPaysEachUnitsOwnCosts) {
  Camp camp;
  camp.Add("de-foot", Side::kAxis, opsim::test::BaseType("infantry"), 3, 3, 4, 1, "16A:1426");
  camp.Add("de-cav", Side::kAxis, opsim::test::BaseType("cavalry"), 3, 3, 5, 1, "16A:1426");
  camp.Add("de-mot", Side::kAxis, opsim::test::BaseType("motorized"), 3, 3, 6, 1, "16A:1426");
  const ReachAnswer a = ExpectAgreesWithTurn(camp.AsGame(), {"de-foot", "de-cav", "de-mot"});
  EXPECT_GT(a.hexes.size(), 1u);
}

TEST(Reach, ARailMoveRunsAlongFriendlyRailroadsClearOfZonesOfControl) {
  Camp camp;
  camp.Add("de-r2", Side::kAxis, opsim::test::BaseType("infantry"), 3, 3, 4, 2, "9A:0610");
  camp.Own("9A:0414", Side::kAllied);  // the line beyond it is not friendly (B5.1)
  const ReachAnswer line = ExpectAgreesWithTurn(camp.AsGame(), {"de-r2"}, {.rail = true});
  const ReachHex* end = Find(line, camp.Hex("9A:0514"));
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(end->cost, 4u);  // 0611, 0612, 0613, 0514
  EXPECT_EQ(Find(line, camp.Hex("9A:0414")), nullptr);
  EXPECT_TRUE(Stopped(line, rules::kB5_1));
  // Along the line from 16A:1323 the next hex is in the Dutch zone of control.
  const ReachAnswer front = ExpectAgreesWithTurn(camp.AsGame(), {"de-9pz"}, {.rail = true});
  EXPECT_EQ(front.hexes.size(), 1u);
  EXPECT_TRUE(Stopped(front, rules::kB5_1));
}

TEST(Reach, RefusesWhatTurnRefuses) {
  Camp camp;
  ReachRequest r;
  r.units = {"nl-1"};  // an Allied unit in the Axis player-turn
  auto other = Reach(camp.AsGame(), r);
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().rule, rules::kB1_2.id);
  r.units = {"de-9pz", "de-18a"};  // two hexes
  auto apart = Reach(camp.AsGame(), r);
  ASSERT_FALSE(apart);
  EXPECT_EQ(apart.error().rule, rules::kB4_10.id);
  r.units = {"no-such"};
  auto unknown = Reach(camp.AsGame(), r);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::kInvalidInput);
}

TEST(Reach, AgreesWithTurnOnASyntheticGame) {
  auto text = AddSyntheticCampaign(map::GenerateTheater({.hexes = 6000, .seed = 3}), 300, 3);
  ASSERT_TRUE(text) << text.error().to_string();
  auto src = JsonSource::FromText(*text, "synthetic");
  auto sc = map::LoadScenario(*src);
  ASSERT_TRUE(sc) << sc.error().to_string();
  auto campaign = LoadCampaign(*src, *sc, 3);
  ASSERT_TRUE(campaign) << campaign.error().to_string();
  Game game(std::make_shared<const map::Theater>(std::move(sc->theater)),
            std::make_shared<const Campaign>(std::move(*campaign)));
  // One player-turn on, so that the next rolls no weather (B2.1), which reach cannot foresee.
  ASSERT_TRUE(game.Play(SyntheticOrders(game, 5)));
  // The four units of the phasing side nearest an enemy unit.
  const GameState& s = game.state();
  std::vector<std::pair<int, std::string>> near;
  for (const GroundUnit& u : s.units) {
    if (!u.on_map() || u.side != s.phasing()) continue;
    int d = 1 << 30;
    for (const GroundUnit& e : s.units) {
      if (e.on_map() && e.side != u.side) {
        d = std::min(d, map::Distance(game.theater().Pos(u.hex), game.theater().Pos(e.hex)));
      }
    }
    near.emplace_back(d, u.id);
  }
  std::sort(near.begin(), near.end());
  int asked = 0;
  bool stopped = false;
  for (const auto& [distance, id] : near) {
    const ReachAnswer a = ExpectAgreesWithTurn(game, {id});
    stopped = stopped || Stopped(a, rules::kB4_8);
    if (++asked == 4) break;
  }
  EXPECT_EQ(asked, 4);
  EXPECT_TRUE(stopped);
}

}  // namespace
}  // namespace opsim::ops
