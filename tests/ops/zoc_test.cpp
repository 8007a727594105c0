// B4.8: a zone of control asked of one hex (InEnemyZone, what a retreat asks) is the whole map's
// (EnemyZones) at that hex, for every hex of a synthetic campaign as its player-turns are played,
// with contested hexes (an air assault's), zero-attack units and frozen or prohibited terrain
// wherever the campaign has them. The zones a game shares (ZoneCache) are always the ones worked
// out afresh, whatever positions were asked before. (White-box: zones_of_control.h is private to
// libops.)
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

// Issue 21: the shared zones are keyed by exactly what EnemyZones reads. After each player-turn
// of the campaign, for both sides: asked twice, the second answer is kept (a hit); each change
// that moves a zone (an enemy unit one hex on, a friendly unit into an enemy unit's hex, a zone
// frozen, a hex flooded) gives the zones worked out afresh for the changed position, and going
// back gives the first position's again; a change EnemyZones does not read (a friendly unit
// moved where no enemy unit is, an enemy unit's strength but not to zero) is still a hit.
TEST(B4_8, SharedZonesAreTheZonesWorkedOutAfresh) {
  auto text = AddSyntheticCampaign(map::GenerateTheater({.hexes = 3000, .seed = 7}), 400, 7);
  ASSERT_TRUE(text);
  test::Camp c(*text, 17);
  Game game = c.AsGame();
  const map::Theater& t = game.theater();
  ZoneCache cache;
  std::size_t changes = 0;
  for (int turn = 0; turn < 3; ++turn) {
    for (Side side : {Side::kAxis, Side::kAllied}) {
      const GameState& now = game.state();
      const RuleContext ctx = game.Context();
      auto fresh = [&](const GameState& s) {
        RuleContext at{t, s.map, game.tables()};
        at.player_turn = s.player_turn;
        return std::make_pair(EnemyZones(t, s, side, at), at);
      };
      ASSERT_EQ(*cache.Get(t, now, side, ctx), EnemyZones(t, now, side, ctx));
      const std::size_t hits = cache.hits();
      ASSERT_EQ(*cache.Get(t, now, side, ctx), EnemyZones(t, now, side, ctx));
      EXPECT_EQ(cache.hits(), hits + 1) << "the same position, asked again";

      std::vector<GameState> changed;
      // An enemy unit one hex on; a friendly unit into an enemy unit's hex (contested).
      for (std::size_t i = 0; i < now.units.size(); ++i) {
        const GroundUnit& u = now.units[i];
        if (!u.on_map() || u.attack == 0) continue;
        for (map::Dir d : map::kAllDirs) {
          const map::HexRef next = t.NeighborAt(u.hex, d);
          if (!next.valid()) continue;
          GameState s = now;
          if (u.side != side) {
            s.units[i].hex = next;
          } else {
            auto enemy = std::find_if(now.units.begin(), now.units.end(), [&](const GroundUnit& e) {
              return e.on_map() && e.side != side && e.hex == next;
            });
            if (enemy == now.units.end()) continue;
            s.units[i].hex = next;
          }
          changed.push_back(std::move(s));
          break;
        }
        if (changed.size() >= 6) break;
      }
      // A weather zone frozen or thawed; a hex flooded (prohibited terrain).
      for (std::size_t z = 0; z < t.weather_zones().size(); ++z) {
        GameState s = now;
        s.map.SetFrozen(z, !now.map.frozen(z));
        changed.push_back(std::move(s));
      }
      for (const GroundUnit& u : now.units) {
        if (!u.on_map() || u.side == side) continue;
        const map::HexRef next = t.NeighborAt(u.hex, map::Dir{0});
        if (!next.valid()) continue;
        GameState s = now;
        s.map.SetFlood(next,
                       {map::FloodKind::kProhibited, now.player_turn - 1, now.player_turn + 2});
        changed.push_back(std::move(s));
        break;
      }
      ASSERT_GE(changed.size(), 3u);
      for (const GameState& s : changed) {
        const auto [zones, at] = fresh(s);
        const std::size_t before = cache.hits();
        EXPECT_EQ(*cache.Get(t, s, side, at), zones);
        changes += zones != EnemyZones(t, now, side, ctx);
        // Missed or hit, it is right; and it does not forget the position it came from.
        EXPECT_EQ(*cache.Get(t, now, side, ctx), EnemyZones(t, now, side, ctx));
        EXPECT_GE(cache.hits(), before + 1);
      }
      // What EnemyZones does not read: a friendly unit where no enemy stands, an enemy's
      // strength that stays above zero.
      GameState same = now;
      for (GroundUnit& u : same.units) {
        if (!u.on_map()) continue;
        if (u.side != side && u.attack > 1) {
          u.attack -= 1;
          u.defense += 1;
        }
      }
      const std::size_t before = cache.hits();
      EXPECT_EQ(*cache.Get(t, same, side, ctx), EnemyZones(t, same, side, ctx));
      EXPECT_EQ(cache.hits(), before + 1) << "strength but not zero: the same zones";
    }
    auto played = game.Play(SyntheticOrders(game, 40 + turn));
    ASSERT_TRUE(played) << played.error().to_string();
  }
  EXPECT_GT(changes, 10u) << "the changes moved zones";
}

}  // namespace
}  // namespace opsim::ops
