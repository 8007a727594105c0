// The defender's reply judged before any die (opsim/ops/reply.h): his retreat preferences are for
// his own stacks (B7.5), each flood attempt answers an announced attack (41.A.4.a), and the
// player-turn is judged as far as the rules can before its first die. On the bundled
// special-terrain game, whose first player-turn is the axis attack on 16A:1122.
#include "opsim/ops/reply.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "opsim/query/source.h"
#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;

class ReplyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const query::LoadedGame g = test::LoadBundledGame();
    game_.emplace(g.theater, g.campaign, *g.state);
    orders_ = json::parse(test::ReadFile(test::BundledOrders("01-axis-may-i-1940.json")));
  }
  ops::Orders Read(const json& doc) const {
    auto src = JsonSource::FromText(doc.dump(2), "reply.json");
    if (!src) {
      ADD_FAILURE() << src.error().to_string();
      return {};
    }
    auto o = ops::ParseOrders(*src, game_->theater());
    EXPECT_TRUE(o) << o.error().to_string();
    return o ? *o : ops::Orders{};
  }

  std::optional<ops::Game> game_;
  json orders_;
};

TEST_F(ReplyTest, B7_5_ARetreatPreferenceIsForTheDefendersOwnStack) {
  json theirs = orders_;
  theirs["retreats"] = {{{"hex", "16A:1322"}, {"prefer", {"16A:1422"}}}};  // the axis stack
  auto refused = ops::RetreatsForOwnStacks(*game_, Read(theirs), Side::kAllied, "reply.json");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(refused.error().rule, "B7.5");
  EXPECT_EQ(refused.error().where, "reply.json");
  EXPECT_NE(refused.error().message.find("16A:1322, where the allied player has no unit"),
            std::string::npos)
      << refused.error().message;

  json mine = orders_;
  mine["retreats"] = {{{"hex", "16A:1122"}, {"prefer", {"16A:1022"}}}};  // the allied defenders
  EXPECT_TRUE(ops::RetreatsForOwnStacks(*game_, Read(mine), Side::kAllied, "reply.json"));
  // The same preference is not the axis player's to give.
  EXPECT_FALSE(ops::RetreatsForOwnStacks(*game_, Read(mine), Side::kAxis, "reply.json"));
}

TEST_F(ReplyTest, R41_A_4_a_AFloodAttemptAnswersAnAnnouncedAttack) {
  EXPECT_TRUE(ops::ReplyFloodsAnswerAttacks(*game_, Read(orders_)));  // the attack on 16A:1122
  json no_attack = orders_;
  no_attack.erase("combat");
  auto refused = ops::ReplyFloodsAnswerAttacks(*game_, Read(no_attack));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kRuleViolation);
  EXPECT_EQ(refused.error().rule, "41.A.4.a");
  EXPECT_NE(refused.error().message.find("16A:1122 is not attacked"), std::string::npos)
      << refused.error().message;
}

TEST_F(ReplyTest, B2_1_AnOrderIsJudgedBeforeTheDiceUnlessTheWeatherIsStillToRoll) {
  // The game turn's first player-turn rolls the weather first: an order the rules refuse in any
  // weather (a move into an enemy unit's hex) is not judged before that die.
  ASSERT_EQ(game_->state().player_turn % 2, 0);
  const auto& units = game_->state().units;
  // A move of one of `mover`'s units into an enemy unit's hex, one or two hexes away.
  auto into_enemy = [&](Side mover) -> std::optional<json> {
    const map::Theater& t = game_->theater();
    auto enemy_at = [&](map::HexRef h) {
      return std::any_of(units.begin(), units.end(), [&](const ops::GroundUnit& e) {
        return e.on_map() && e.side != mover && e.hex == h;
      });
    };
    for (const ops::GroundUnit& u : units) {
      if (!u.on_map() || u.side != mover) continue;
      for (int d = 0; d < map::kDirCount; ++d) {
        const map::HexRef n = t.NeighborAt(u.hex, static_cast<map::Dir>(d));
        if (!n.valid()) continue;
        if (enemy_at(n)) return json{{"units", {u.id}}, {"path", {t.HexName(u.hex), t.HexName(n)}}};
        for (int d2 = 0; d2 < map::kDirCount; ++d2) {
          const map::HexRef n2 = t.NeighborAt(n, static_cast<map::Dir>(d2));
          if (n2.valid() && enemy_at(n2)) {
            return json{{"units", {u.id}},
                        {"path", {t.HexName(u.hex), t.HexName(n), t.HexName(n2)}}};
          }
        }
      }
    }
    return std::nullopt;
  };
  auto axis_move = into_enemy(Side::kAxis);
  ASSERT_TRUE(axis_move);
  json bad = orders_;
  bad["movement"] = json::array({*axis_move});
  bad.erase("combat");
  bad.erase("reactions");
  EXPECT_TRUE(ops::LegalBeforeDice(*game_, Read(bad)));

  // The allied player-turn after it rolls no weather: the same kind of order is refused now.
  json axis = orders_;
  axis.erase("reactions");
  ASSERT_TRUE(game_->Play(Read(axis)));
  ASSERT_EQ(game_->state().player_turn % 2, 1);
  auto allied_move = into_enemy(Side::kAllied);
  ASSERT_TRUE(allied_move);
  const json allied = {{"opsim", "orders"},
                       {"version", 1},
                       {"side", "allied"},
                       {"turn", ops::FormatGameDate(game_->state().date())},
                       {"movement", json::array({*allied_move})}};
  auto refused = ops::LegalBeforeDice(*game_, Read(allied));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kRuleViolation) << refused.error().to_string();
}

}  // namespace
}  // namespace opsim
