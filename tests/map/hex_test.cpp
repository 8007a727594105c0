// Hex coordinates: the SHEET:XXYY convention, strict parsing, neighbours in both column
// parities, and adjacency across sheet joins.
#include <gtest/gtest.h>

#include "opsim/core/hex.h"
#include "test_support.h"

namespace opsim::map {
namespace {

TEST(HexName, ParsesSheetColumnRow) {
  auto h = ParseHexName("16A:0827");
  ASSERT_TRUE(h) << h.error().to_string();
  EXPECT_EQ(h->sheet, "16A");
  EXPECT_EQ(h->col, 8);
  EXPECT_EQ(h->row, 27);
  EXPECT_EQ(FormatHexName(*h), "16A:0827");
  auto k = ParseHexName("35:4317");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->sheet, "35");
  EXPECT_EQ(k->col, 43);
  EXPECT_EQ(k->row, 17);
}

TEST(HexName, InheritsSheetOnlyWhenGiven) {
  auto h = ParseHexName("0826", "16A");
  ASSERT_TRUE(h);
  EXPECT_EQ(FormatHexName(*h), "16A:0826");
  EXPECT_FALSE(ParseHexName("0826"));
}

TEST(HexName, RejectsMalformedTokensNamingThem) {
  for (const char* bad :
       {"16A:827", "16A:08270", "16A:08a7", ":0827", "16A0827", "16-A:0827", "", "16A:"}) {
    auto h = ParseHexName(bad);
    ASSERT_FALSE(h) << bad;
    EXPECT_EQ(h.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(h.error().where, bad);
    EXPECT_NE(h.error().message.find(std::string("'") + bad + "'"), std::string::npos)
        << h.error().message;
  }
}

TEST(HexName, StrictErrorsAgainstATheater) {
  const Theater& t = test::Bundled("special-terrain").theater;
  // A well-formed hex off its sheet.
  auto off = t.FindHex("16A:9999");
  ASSERT_FALSE(off);
  EXPECT_NE(off.error().message.find("off map sheet 16A"), std::string::npos)
      << off.error().message;
  EXPECT_EQ(off.error().where, "16A:9999");
  // Too few digits.
  auto short_token = t.FindHex("16A:827");
  ASSERT_FALSE(short_token);
  EXPECT_NE(short_token.error().message.find("four digits"), std::string::npos);
  // A sheet the theater does not have.
  auto sheet = t.FindHex("ZZ:0101");
  ASSERT_FALSE(sheet);
  EXPECT_NE(sheet.error().message.find("unknown map sheet 'ZZ'"), std::string::npos)
      << sheet.error().message;
  // A hex on a known sheet that this theater does not hold.
  auto missing = t.FindHex("16A:0101");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("not on the theater"), std::string::npos)
      << missing.error().message;
  EXPECT_EQ(missing.error().where, "16A:0101");
}

TEST(HexNeighbors, EvenColumnTouchesRowAndRowBelow) {
  // Even columns sit half a hex lower: (c,r) touches (c,r±1), (c±1,r) and (c±1,r+1).
  const GridPos p{8, 27};
  EXPECT_EQ(Neighbor(p, Dir::kN), (GridPos{8, 26}));
  EXPECT_EQ(Neighbor(p, Dir::kS), (GridPos{8, 28}));
  EXPECT_EQ(Neighbor(p, Dir::kNE), (GridPos{9, 27}));
  EXPECT_EQ(Neighbor(p, Dir::kSE), (GridPos{9, 28}));
  EXPECT_EQ(Neighbor(p, Dir::kSW), (GridPos{7, 28}));
  EXPECT_EQ(Neighbor(p, Dir::kNW), (GridPos{7, 27}));
}

TEST(HexNeighbors, OddColumnTouchesRowAndRowAbove) {
  // An odd column touches (c,r±1), (c±1,r−1) and (c±1,r).
  const GridPos p{7, 27};
  EXPECT_EQ(Neighbor(p, Dir::kN), (GridPos{7, 26}));
  EXPECT_EQ(Neighbor(p, Dir::kS), (GridPos{7, 28}));
  EXPECT_EQ(Neighbor(p, Dir::kNE), (GridPos{8, 26}));
  EXPECT_EQ(Neighbor(p, Dir::kSE), (GridPos{8, 27}));
  EXPECT_EQ(Neighbor(p, Dir::kSW), (GridPos{6, 27}));
  EXPECT_EQ(Neighbor(p, Dir::kNW), (GridPos{6, 26}));
}

TEST(HexNeighbors, AdjacencyIsSymmetricAndDistanceIsOne) {
  for (GridPos p : {GridPos{8, 27}, GridPos{7, 27}, GridPos{10, 1}, GridPos{33, 40}}) {
    for (Dir d : kAllDirs) {
      const GridPos q = Neighbor(p, d);
      EXPECT_EQ(Neighbor(q, Opposite(d)), p);
      EXPECT_EQ(DirectionTo(p, q), d);
      EXPECT_EQ(Distance(p, q), 1);
    }
  }
  EXPECT_EQ(Distance({8, 27}, {8, 25}), 2);
  EXPECT_EQ(Distance({29, 29}, {32, 40}), 13);
  EXPECT_FALSE(DirectionTo({8, 27}, {8, 25}));
}

TEST(Hexside, ParsesWithinAndAcrossSheets) {
  auto same = ParseHexsideName("16A:0827/0727");
  ASSERT_TRUE(same);
  EXPECT_EQ(FormatHexName((*same)[1]), "16A:0727");
  auto across = ParseHexsideName("14:5019/15A:0120");
  ASSERT_TRUE(across);
  EXPECT_EQ(FormatHexName((*across)[0]), "14:5019");
  EXPECT_EQ(FormatHexName((*across)[1]), "15A:0120");
  EXPECT_FALSE(ParseHexsideName("16A:0827"));
  EXPECT_FALSE(ParseHexsideName("16A:0827/0727/0726"));
  EXPECT_FALSE(ParseHexsideName("16A:0827/727"));
}

TEST(Hexside, ResolvesOnlyAdjacentHexes) {
  const Theater& t = test::Bundled("special-terrain").theater;
  auto s = t.FindHexside("16A:0827/0727");
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(t.HexsideName(*s), "16A:0727/0827");
  auto far = t.FindHexside("16A:0827/0825");
  ASSERT_FALSE(far);
  EXPECT_NE(far.error().message.find("not adjacent"), std::string::npos);
}

// Two sheets joined as the Europa maps are: 14's column 50 beside 15A's column 01.
constexpr char kJoined[] = R"({
  "opsim": "scenario", "version": 1, "name": "joined",
  "sheets": [
    {"name": "14", "size": [50, 40], "origin": [0, 0], "first": [48, 18], "zone": "A",
     "terrain": ["ccc", "ccc", "ccc", "ccc"]},
    {"name": "15A", "size": [50, 40], "origin": [50, 0], "first": [1, 18], "zone": "A",
     "terrain": ["ccc", "ccc", "ccc", "ccc"]}
  ]
})";

TEST(SheetJoin, NeighboursCrossTheJoin) {
  auto sc = test::LoadText(kJoined);
  ASSERT_TRUE(sc) << sc.error().to_string();
  const Theater& t = sc->theater;
  auto side = t.FindHexside("14:5019/15A:0120");
  ASSERT_TRUE(side) << side.error().to_string();
  EXPECT_EQ(t.HexsideName(*side), "14:5019/15A:0120");
  auto a = t.FindHex("14:5019");
  ASSERT_TRUE(a);
  // Column 50 is even: its NE and SE neighbours are rows 19 and 20 of 15A's column 01.
  EXPECT_EQ(t.HexName(t.NeighborAt(*a, Dir::kNE)), "15A:0119");
  EXPECT_EQ(t.HexName(t.NeighborAt(*a, Dir::kSE)), "15A:0120");
  EXPECT_EQ(t.HexName(t.NeighborAt(*a, Dir::kNW)), "14:4919");
  EXPECT_FALSE(t.FindHexside("14:5019/15A:0121"));
}

TEST(SheetJoin, BundledSheets1Aand2AJoin) {
  const Theater& t = test::Bundled("special-terrain").theater;
  auto narva = t.FindHexside("1A:5020/2A:0133");
  ASSERT_TRUE(narva) << narva.error().to_string();
  EXPECT_TRUE(t.hexside(*narva).Has(kMinorRiver));
}

}  // namespace
}  // namespace opsim::map
