// The synthetic theater generator: valid, loadable, about the size asked, deterministic.
#include <gtest/gtest.h>

#include "opsim/map/generate.h"
#include "test_support.h"

namespace opsim::map {
namespace {

TEST(Generate, SmallTheaterLoadsWithEveryFeature) {
  const std::string text = GenerateTheater({.hexes = 20000, .seed = 5});
  auto sc = test::LoadText(text, "generated.json");
  ASSERT_TRUE(sc) << sc.error().to_string();
  const Theater& t = sc->theater;
  EXPECT_NEAR(static_cast<double>(t.hex_count()), 20000.0, 2000.0);
  EXPECT_GT(t.sheets().size(), 1u);
  std::size_t sea = 0, lake = 0, coast = 0, canal_intensive = 0;
  for (const HexInfo& h : t.hexes()) {
    sea += h.terrain == Terrain::kAllSea;
    lake += h.terrain == Terrain::kLake;
    coast += h.coast == Coast::kPartialSea;
    canal_intensive += h.terrain == Terrain::kCanalIntensive;
  }
  EXPECT_GT(sea, 0u);
  EXPECT_GT(lake, 0u);
  EXPECT_GT(coast, 0u);
  EXPECT_GT(canal_intensive, 0u);
  std::size_t major = 0, canal = 0, road = 0, rail = 0, causeway = 0;
  for (const HexsideInfo& s : t.hexsides()) {
    major += s.Has(kMajorRiver);
    canal += s.Has(kCanal);
    road += s.Has(kRoad);
    rail += s.Has(kRailroad);
    causeway += s.Has(kCauseway);
  }
  EXPECT_GT(major, 0u);
  EXPECT_GT(canal, 0u);
  EXPECT_GT(road, 0u);
  EXPECT_GT(rail, 0u);
  EXPECT_GT(causeway, 0u);
  std::size_t ports = 0, inland = 0, cities = 0;
  for (const HexInfo& h : t.hexes()) {
    ports += h.port != PortSize::kNone;
    inland += h.inland_port;
    cities += h.city != CityKind::kNone;
  }
  EXPECT_GT(ports, 0u);
  EXPECT_GT(inland, 0u);
  EXPECT_GT(cities, 0u);
  EXPECT_FALSE(t.waterways().empty());
}

TEST(Generate, SameSeedSameFileOtherSeedOtherFile) {
  EXPECT_EQ(GenerateTheater({.hexes = 3000, .seed = 9}),
            GenerateTheater({.hexes = 3000, .seed = 9}));
  EXPECT_NE(GenerateTheater({.hexes = 3000, .seed = 9}),
            GenerateTheater({.hexes = 3000, .seed = 10}));
}

// An unknown sheet's error listed every sheet: 225 names on a big theater. Past ten it says how
// many and lists the ten names nearest the one asked for.
TEST(Generate, AnUnknownSheetOnABigTheaterListsTheNearestNamesOnly) {
  auto sc = test::LoadText(GenerateTheater({.hexes = 50000, .seed = 1}));
  ASSERT_TRUE(sc) << sc.error().to_string();
  const std::size_t sheets = sc->theater.sheets().size();
  ASSERT_GT(sheets, 10u);
  auto r = sc->theater.FindHex("G1x:0101");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(r.error().message, "unknown map sheet 'G1x' (this theater has " +
                                   std::to_string(sheets) +
                                   " sheets; the nearest names: G10, G11, G12, G13, G14, G15, G16, "
                                   "G01, G02, G03)");
  // A long name is cut before it is compared.
  r = sc->theater.FindHex(std::string(100000, 'G') + ":0101");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find(std::to_string(sheets) + " sheets; the nearest names: "),
            std::string::npos);
}

TEST(Generate, TinyTheaterStillLoads) {
  auto sc = test::LoadText(GenerateTheater({.hexes = 100, .seed = 1}));
  ASSERT_TRUE(sc) << sc.error().to_string();
  EXPECT_GE(sc->theater.hex_count(), 100u);
}

}  // namespace
}  // namespace opsim::map
