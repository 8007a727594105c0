// Snapshots (issue 4, "What the log holds"): a game state survives Boost.Serialization field
// for field; a snapshot of each earlier format kept as a file still loads; formats and class
// versions this build does not read are refused with a message that says which and why.
#include "opsim/db/snapshot.h"

#include <gtest/gtest.h>

#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/version.hpp>
#include <set>
#include <sstream>

#include "db_test_util.h"
#include "opsim/core/sha256.h"
#include "test_support.h"

// An archive whose root class is at version 9, as a later opsim might write one.
namespace {
struct LaterState {
  template <class Archive>
  void serialize(Archive&, unsigned) {}
};
}  // namespace
BOOST_CLASS_VERSION(LaterState, 9)

namespace opsim {
namespace {

using db::LoadSnapshot;
using db::SaveSnapshot;

void ExpectSameState(const ops::GameState& a, const ops::GameState& b) {
  EXPECT_EQ(a.start, b.start);
  EXPECT_EQ(a.first, b.first);
  EXPECT_EQ(a.player_turn, b.player_turn);
  EXPECT_EQ(a.map.owners(), b.map.owners());
  EXPECT_EQ(a.map.hexside_owners(), b.map.hexside_owners());
  EXPECT_EQ(a.map.frozen_zones(), b.map.frozen_zones());
  EXPECT_EQ(a.map.suez(), b.map.suez());
  ASSERT_EQ(a.map.floods().size(), b.map.floods().size());
  for (const auto& [hex, f] : a.map.floods()) {
    const map::Flood* g = b.map.flood(map::HexRef{hex});
    ASSERT_NE(g, nullptr) << hex;
    EXPECT_EQ(f.kind, g->kind);
    EXPECT_EQ(f.from, g->from);
    EXPECT_EQ(f.until, g->until);
  }
  EXPECT_EQ(a.map.airbase_damage(), b.map.airbase_damage());
  EXPECT_EQ(a.map.port_damage(), b.map.port_damage());
  EXPECT_EQ(a.map.ice_airfields(), b.map.ice_airfields());
  EXPECT_EQ(a.map.markers(), b.map.markers());
  EXPECT_EQ(a.map.destroyed_bridges(), b.map.destroyed_bridges());
  ASSERT_EQ(a.units.size(), b.units.size());
  for (std::size_t i = 0; i < a.units.size(); ++i) {
    const ops::GroundUnit &u = a.units[i], &v = b.units[i];
    EXPECT_EQ(u.id, v.id);
    EXPECT_EQ(u.name, v.name);
    EXPECT_EQ(u.side, v.side);
    EXPECT_EQ(u.nationality, v.nationality);
    EXPECT_EQ(u.type, v.type);
    EXPECT_EQ(u.attack, v.attack);
    EXPECT_EQ(u.defense, v.defense);
    EXPECT_EQ(u.mp, v.mp);
    EXPECT_EQ(u.re_halves, v.re_halves);
    EXPECT_EQ(u.hex, v.hex);
    EXPECT_EQ(u.status, v.status);
    EXPECT_EQ(u.supply, v.supply);
    EXPECT_EQ(u.extra_mp_marker, v.extra_mp_marker);
    EXPECT_EQ(u.dropped_in, v.dropped_in);
  }
  ASSERT_EQ(a.air.size(), b.air.size());
  for (std::size_t i = 0; i < a.air.size(); ++i) {
    EXPECT_EQ(a.air[i].id, b.air[i].id);
    EXPECT_EQ(a.air[i].name, b.air[i].name);
    EXPECT_EQ(a.air[i].side, b.air[i].side);
    EXPECT_EQ(a.air[i].nationality, b.air[i].nationality);
    EXPECT_EQ(a.air[i].base, b.air[i].base);
    EXPECT_EQ(a.air[i].status, b.air[i].status);
  }
  ASSERT_EQ(a.naval.size(), b.naval.size());
  for (std::size_t i = 0; i < a.naval.size(); ++i) {
    EXPECT_EQ(a.naval[i].id, b.naval[i].id);
    EXPECT_EQ(a.naval[i].name, b.naval[i].name);
    EXPECT_EQ(a.naval[i].side, b.naval[i].side);
    EXPECT_EQ(a.naval[i].nationality, b.naval[i].nationality);
    EXPECT_EQ(a.naval[i].kind, b.naval[i].kind);
    EXPECT_EQ(a.naval[i].hex, b.naval[i].hex);
    EXPECT_EQ(a.naval[i].area, b.naval[i].area);
    EXPECT_EQ(a.naval[i].at_sea, b.naval[i].at_sea);
    EXPECT_EQ(a.naval[i].sunk, b.naval[i].sunk);
  }
  EXPECT_EQ(a.srp, b.srp);
  EXPECT_EQ(a.exit_totals, b.exit_totals);
  EXPECT_EQ(a.weather, b.weather);
  EXPECT_EQ(a.netherlands_surrendered, b.netherlands_surrendered);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.dice, b.dice);
}

TEST(Snapshot, KeepsEveryFieldOfAStateOnTheBundledTheater) {
  const map::Scenario& sc = test::Bundled("special-terrain");
  const ops::GameState state = test::HandBuiltState(&sc.theater);
  ASSERT_EQ(state.map.owners().size(), sc.theater.hex_count());
  const std::string bytes = SaveSnapshot(state);
  auto back = LoadSnapshot(bytes, db::kSnapshotFormat);
  ASSERT_TRUE(back) << back.error().to_string();
  ExpectSameState(state, *back);
  EXPECT_EQ(back->map.owner(map::HexRef{0}), Owner::kAxis);
  EXPECT_EQ(back->map.flood(map::HexRef{3})->kind, map::FloodKind::kMassive);
}

// Each tests/db/fixtures/snapshot-formatN.bin was written once by SaveSnapshot at format N from
// HandBuiltState(nullptr) (format 3: on the bundled theater of its day, for its owner arrays),
// and is never rewritten: it stands for format N in every later build.
ops::GameState FromFixture(int format) {
  const std::string bytes =
      test::ReadFile(OPSIM_DB_FIXTURES "/snapshot-format" + std::to_string(format) + ".bin");
  EXPECT_FALSE(bytes.empty());
  auto back = LoadSnapshot(bytes, format);
  EXPECT_TRUE(back) << back.error().to_string();
  return back ? *back : ops::GameState{};
}

TEST(Snapshot, AFormat1SnapshotStillLoadsWithoutTheFieldsItDidNotHave) {
  const ops::GameState back = FromFixture(1);
  ops::GameState want = test::HandBuiltState(nullptr);
  // Format 1 came before destroyed bridges (MapState version 2).
  for (std::uint32_t side : std::set<std::uint32_t>(want.map.destroyed_bridges())) {
    want.map.SetBridgeDestroyed(map::HexsideRef{side}, false);
  }
  ExpectSameState(want, back);
  EXPECT_TRUE(back.map.destroyed_bridges().empty());
  EXPECT_EQ(back.units.size(), 2u);
}

TEST(Snapshot, AFormat2SnapshotLoads) {
  const ops::GameState back = FromFixture(2);
  ExpectSameState(test::HandBuiltState(nullptr), back);
  EXPECT_EQ(back.map.destroyed_bridges(), (std::set<std::uint32_t>{7, 11}));
}

// Format 3 keeps the owner arrays as runs: the fixture's arrays come back whole.
TEST(Snapshot, AFormat3SnapshotLoadsItsOwnerArraysFromRuns) {
  const ops::GameState back = FromFixture(3);
  // The bundled theater had 3,033 hexes, 8,434 hexsides and 6 weather zones when the fixture
  // was written; these are the SHA-256s of its owner arrays then.
  const std::vector<std::uint8_t>& hexes = back.map.owners();
  const std::vector<std::uint8_t>& sides = back.map.hexside_owners();
  ASSERT_EQ(hexes.size(), 3033u);
  ASSERT_EQ(sides.size(), 8434u);
  EXPECT_EQ(Sha256Hex(std::string(hexes.begin(), hexes.end())),
            "fbe653615110b395dab7039c6e8b03da4e3a915ae3bac916bd7db0fb5cf06e1c");
  EXPECT_EQ(Sha256Hex(std::string(sides.begin(), sides.end())),
            "5e9a1aa1d680635e27b025c9f0d7d1ed4c8af55bbcc275dc07d62149bdfefa30");
  EXPECT_EQ(back.map.owner(map::HexRef{0}), Owner::kAxis);
  EXPECT_EQ(back.map.owner(map::HexRef{1}), Owner::kAllied);
  EXPECT_EQ(back.map.frozen_zones(), (std::vector<bool>{true, false, false, false, false, false}));
  // Everything else is HandBuiltState's.
  ops::GameState want = test::HandBuiltState(nullptr);
  want.map = back.map;
  ExpectSameState(want, back);
  EXPECT_EQ(back.map.destroyed_bridges(), (std::set<std::uint32_t>{7, 11}));
  EXPECT_EQ(back.map.suez(), map::CanalStatus::kTemporarilyClosed);
  EXPECT_EQ(back.map.flood(map::HexRef{4})->kind, map::FloodKind::kProhibited);
}

// Runs that do not add up to the array's length are a damaged snapshot, not a short map.
TEST(Snapshot, OwnerRunsThatDoNotAddUpAreCorruption) {
  const std::string bytes = test::ReadFile(OPSIM_DB_FIXTURES "/snapshot-format3.bin");
  // The hex array's length (3,033 as 8 little-endian bytes) stands before its runs.
  const std::string length("\xd9\x0b\0\0\0\0\0\0", 8);
  const std::size_t at = bytes.find(length);
  ASSERT_NE(at, std::string::npos);
  std::string damaged = bytes;
  damaged[at] = '\xda';  // 3,034
  auto r = LoadSnapshot(damaged, 3);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kCorruption);
  EXPECT_NE(r.error().message.find("the runs of an owner array do not add up to its length"),
            std::string::npos)
      << r.error().message;
}

TEST(Snapshot, AFormatOlderThanTheOldestReadableIsRefusedClearly) {
  const std::string bytes = SaveSnapshot(test::HandBuiltState(nullptr));
  auto old = LoadSnapshot(bytes, db::kOldestSnapshotFormat - 1);
  ASSERT_FALSE(old);
  EXPECT_EQ(old.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(
      old.error().message.find("snapshot format 0 is older than this build reads (formats 1 to 3)"),
      std::string::npos)
      << old.error().message;
}

TEST(Snapshot, ANewerFormatIsRefusedClearly) {
  const std::string bytes = SaveSnapshot(test::HandBuiltState(nullptr));
  auto later = LoadSnapshot(bytes, db::kSnapshotFormat + 1);
  ASSERT_FALSE(later);
  EXPECT_EQ(later.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(later.error().message.find("is newer than this build reads"), std::string::npos)
      << later.error().message;
}

TEST(Snapshot, AClassVersionNewerThanThisBuildsIsRefused) {
  std::ostringstream out;
  {
    boost::archive::binary_oarchive ar(out);
    const LaterState later;
    ar << later;
  }
  auto r = LoadSnapshot(out.str(), db::kSnapshotFormat);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(
      r.error().message.find("GameState at class version 9; this build reads up to version 1"),
      std::string::npos)
      << r.error().message;
}

TEST(Snapshot, DamagedBytesAreCorruptionNotACrash) {
  const std::string bytes = SaveSnapshot(test::HandBuiltState(nullptr));
  auto cut = LoadSnapshot(bytes.substr(0, bytes.size() / 2), db::kSnapshotFormat);
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().code, ErrorCode::kCorruption);

  auto longer = LoadSnapshot(bytes + "xyz", db::kSnapshotFormat);
  ASSERT_FALSE(longer);
  EXPECT_EQ(longer.error().code, ErrorCode::kCorruption);
  EXPECT_NE(longer.error().message.find("3 bytes after the state"), std::string::npos);

  auto text = LoadSnapshot("this is not an archive at all, just some text", db::kSnapshotFormat);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().code, ErrorCode::kCorruption);
  EXPECT_NE(text.error().message.find("no Boost.Serialization signature"), std::string::npos);
}

// The signature with a 4-byte length, as a 32-bit platform writes it.
TEST(Snapshot, AnArchiveFromAnotherPlatformIsRefusedAsSuch) {
  const std::string bytes =
      std::string("\x16\0\0\0serialization::archive", 26) + std::string(64, '\0');
  auto r = LoadSnapshot(bytes, db::kSnapshotFormat);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(r.error().message.find("platform with other native sizes"), std::string::npos);
}

}  // namespace
}  // namespace opsim
