// Many player-turns on a generated theater: synthetic orders stay legal, and the same seed and
// orders give the same state hashes when the game is played again.
#include <gtest/gtest.h>

#include "opsim/map/generate.h"
#include "opsim/ops/synthetic.h"
#include "test_support.h"

namespace opsim::ops {
namespace {

Game NewGame(std::uint64_t seed) {
  auto text = AddSyntheticCampaign(map::GenerateTheater({.hexes = 6000, .seed = 3}), 300, 3);
  EXPECT_TRUE(text) << text.error().to_string();
  auto src = JsonSource::FromText(*text, "synthetic");
  auto sc = map::LoadScenario(*src);
  EXPECT_TRUE(sc) << sc.error().to_string();
  auto campaign = LoadCampaign(*src, *sc, seed);
  EXPECT_TRUE(campaign) << campaign.error().to_string();
  return Game(std::make_shared<const map::Theater>(std::move(sc->theater)),
              std::make_shared<const Campaign>(std::move(*campaign)));
}

TEST(Synthetic, TwelvePlayerTurnsPlayAndReplayIdentically) {
  Game game = NewGame(11);
  std::vector<std::string> hashes;
  std::vector<Orders> played;
  int attacks = 0, eliminated = 0;
  for (int i = 0; i < 12; ++i) {
    const Orders orders = SyntheticOrders(game, 5);
    auto r = game.Play(orders);
    ASSERT_TRUE(r) << "player-turn " << i << ": " << r.error().to_string();
    attacks += static_cast<int>(orders.combat.size());
    for (const Event& e : r->events) eliminated += e.kind == "eliminated";
    hashes.push_back(r->final_hash);
    played.push_back(orders);
  }
  EXPECT_EQ(game.state().player_turn, 12);
  EXPECT_GT(attacks, 0);
  EXPECT_GT(eliminated, 0);
  Game again = NewGame(11);
  for (std::size_t i = 0; i < played.size(); ++i) {
    auto r = again.Play(played[i]);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->final_hash, hashes[i]) << "player-turn " << i;
  }
  EXPECT_EQ(again.hash(), game.hash());
  // Another seed rolls other dice: the weather and combat differ.
  Game other = NewGame(12);
  auto r = other.Play(played[0]);
  ASSERT_TRUE(r);
  EXPECT_NE(r->final_hash, hashes[0]);
}

}  // namespace
}  // namespace opsim::ops
