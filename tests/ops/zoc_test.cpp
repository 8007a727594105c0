// B4.8: a zone of control asked of one hex (InEnemyZone, what a retreat asks) is the whole map's
// (EnemyZones) at that hex, for every hex of a synthetic campaign as its player-turns are played,
// with contested hexes (an air assault's), zero-attack units and frozen or prohibited terrain
// wherever the campaign has them. (White-box: zones_of_control.h is private to libops.)
#include <gtest/gtest.h>

#include "campaign_support.h"
#include "opsim/map/generate.h"
#include "opsim/ops/synthetic.h"
#include "zones_of_control.h"

namespace opsim::ops {
namespace {

TEST(B4_8, OneHexsZoneIsTheWholeMapsThere) {
  auto text = AddSyntheticCampaign(map::GenerateTheater({.hexes = 3000, .seed = 7}), 400, 7);
  ASSERT_TRUE(text);
  test::Camp c(*text, 17);
  Game game = c.AsGame();
  std::size_t in_zone = 0, checked = 0;
  for (int turn = 0; turn < 4; ++turn) {
    const RuleContext ctx = game.Context();
    for (Side side : {Side::kAxis, Side::kAllied}) {
      const std::vector<std::uint8_t> zones = game.EnemyZoc(side);
      for (std::uint32_t v = 0; v < game.theater().hex_count(); ++v) {
        const bool one = InEnemyZone(game.theater(), game.state(), side, ctx, map::HexRef{v});
        ASSERT_EQ(one, zones[v] != 0) << game.theater().HexName(map::HexRef{v}) << ", turn " << turn
                                      << ", " << SideName(side);
        in_zone += one;
        ++checked;
      }
    }
    auto played = game.Play(SyntheticOrders(game, 40 + turn));
    ASSERT_TRUE(played) << played.error().to_string();
  }
  EXPECT_GT(in_zone, checked / 50) << "the campaign's units project zones";
  EXPECT_LT(in_zone, checked) << "and not everywhere";
}

}  // namespace
}  // namespace opsim::ops
