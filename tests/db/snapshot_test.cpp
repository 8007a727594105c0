// Snapshots (issue 4, "What the log holds"): a game state survives Boost.Serialization field
// for field; a snapshot of each earlier format kept as a file still loads; formats and class
// versions this build does not read are refused with a message that says which and why.
#include "opsim/db/snapshot.h"

#include <gtest/gtest.h>

#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/version.hpp>
#include <cstring>
#include <functional>
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

// The theater every snapshot here is of (HandBuiltState(nullptr)'s arrays are empty).
const map::Theater& Theater() {
  return test::Bundled("special-terrain").theater;
}

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
  auto back = LoadSnapshot(bytes, db::kSnapshotFormat, Theater(), ops::DefaultRuleTables());
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
  auto back = LoadSnapshot(bytes, format, Theater(), ops::DefaultRuleTables());
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
  auto r = LoadSnapshot(damaged, 3, Theater(), ops::DefaultRuleTables());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kCorruption);
  EXPECT_NE(r.error().message.find("the runs of an owner array do not add up to its length"),
            std::string::npos)
      << r.error().message;
}

// Issue 10, item 10: a snapshot rewritten so that its owner runs add up to 3,000,000,000 hexes
// made `status` allocate 8.8 GB for 24 s. Each length is checked against what the theater
// holds (and against the bytes left) before anything is allocated.
TEST(Snapshot, LengthsBeyondWhatTheTheaterHoldsAreRefusedBeforeAllocating) {
  const std::string bytes = test::ReadFile(OPSIM_DB_FIXTURES "/snapshot-format3.bin");
  // The hex array: its length (3,033), its 3 run values, then its 3 run lengths (1, 1, 3,031).
  const std::string length("\xd9\x0b\0\0\0\0\0\0", 8);
  const std::size_t at = bytes.find(length);
  ASSERT_NE(at, std::string::npos);
  const auto put = [](std::string& b, std::size_t where, auto value) {
    std::memcpy(b.data() + where, &value, sizeof value);
  };
  std::string huge = bytes;
  put(huge, at, std::uint64_t{3'000'000'000});
  put(huge, at + 8 + 8 + 3 + 8 + 2 * 4, std::uint32_t{3'000'000'000 - 2});
  const auto r = LoadSnapshot(huge, 3, Theater(), ops::DefaultRuleTables());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kCorruption);
  EXPECT_NE(r.error().message.find("the hex owner array ('control') claims 3000000000 entries; "
                                   "the theater holds 3033"),
            std::string::npos)
      << r.error().message;

  // A run count beyond the bytes left, and a text's length beyond them.
  std::string runs = bytes;
  put(runs, at + 8, std::uint64_t{3000});
  const auto r2 = LoadSnapshot(runs, 3, Theater(), ops::DefaultRuleTables());
  ASSERT_FALSE(r2);
  EXPECT_NE(r2.error().message.find("claims 3000 entries; the snapshot has"), std::string::npos)
      << r2.error().message;
  const std::string id = "ge-7pz";
  const std::size_t text = bytes.find(id);
  ASSERT_NE(text, std::string::npos);
  std::string long_text = bytes;
  put(long_text, text - 8, std::uint64_t{3'000'000'000});
  const auto r3 = LoadSnapshot(long_text, 3, Theater(), ops::DefaultRuleTables());
  ASSERT_FALSE(r3);
  EXPECT_NE(r3.error().message.find("a text claims 3000000000 entries; the snapshot has"),
            std::string::npos)
      << r3.error().message;
}

// The texts inside maps (a hex's markers, the SRP pools' and exit totals' names) and the lists of
// units are checked too, before anything is sized: found by snapshot_fuzz (a flipped length made
// Boost reserve 256 GiB for a marker).
TEST(Snapshot, TextsInMapsAndUnitListsAreCheckedBeforeAllocating) {
  ops::GameState state = test::HandBuiltState(nullptr);
  state.map.AddMarker(map::HexRef{2}, "kerch-from-azov:marker-text");
  state.exit_totals["exit-total-name"] = 7;
  const std::string bytes = SaveSnapshot(state);
  auto back = LoadSnapshot(bytes, db::kSnapshotFormat, Theater(), ops::DefaultRuleTables());
  ASSERT_TRUE(back) << back.error().to_string();
  ExpectSameState(state, *back);
  const auto put = [](std::string& b, std::size_t where, auto value) {
    std::memcpy(b.data() + where, &value, sizeof value);
  };
  for (const std::string text : {"kerch-from-azov:marker-text", "exit-total-name"}) {
    const std::size_t at = bytes.find(text);
    ASSERT_NE(at, std::string::npos) << text;
    std::string huge = bytes;
    put(huge, at - 8, std::uint64_t{1} << 38);
    const auto r = LoadSnapshot(huge, db::kSnapshotFormat, Theater(), ops::DefaultRuleTables());
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.error().code, ErrorCode::kCorruption);
    EXPECT_NE(r.error().message.find("a text claims 274877906944 entries; the snapshot has"),
              std::string::npos)
        << r.error().message;
  }
  // The marker list's count sits before its item version and its one text's length.
  const std::size_t list = bytes.find("kerch-from-azov:marker-text") - 8 - 4 - 8;
  std::string many = bytes;
  ASSERT_EQ(std::memcmp(many.data() + list, "\x01\0\0\0\0\0\0\0", 8), 0);
  put(many, list, std::uint64_t{1} << 38);
  const auto r = LoadSnapshot(many, db::kSnapshotFormat, Theater(), ops::DefaultRuleTables());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("a list of texts claims 274877906944 entries"),
            std::string::npos)
      << r.error().message;
}

// A yes/no value is one byte, 0 or 1; snapshot_fuzz found bytes whose 45 Boost copied into a
// bool (undefined behaviour). The fixture is that input: its first byte names the format.
TEST(Snapshot, AYesNoByteOtherThan0Or1IsRefused) {
  const std::string input = test::ReadFile(OPSIM_DB_FIXTURES "/snapshot-fuzz-bool45.bin");
  ASSERT_FALSE(input.empty());
  const auto r = LoadSnapshot(std::string_view(input).substr(1), input[0] % 5, Theater(),
                              ops::DefaultRuleTables());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kCorruption);
  EXPECT_NE(r.error().message.find("a yes/no value holds 45"), std::string::npos)
      << r.error().message;
}

// Boost cast any int it read into an enum: a forged row whose state hash matched could give a
// unit type 200, which the rules then index tables by. Each enum, and each owner array's values,
// is checked on load: kCorruption naming the field; a unit's type, against the game's rules.
TEST(Snapshot, AnEnumOutsideItsValuesIsRefusedNamingTheField) {
  const map::Scenario& sc = test::Bundled("special-terrain");
  const std::vector<std::pair<std::function<void(ops::GameState&)>, std::string>> forged = {
      {[](ops::GameState& s) { s.first = static_cast<Side>(2); }, "GameState's 'first'"},
      {[](ops::GameState& s) { s.units[1].type = static_cast<ops::UnitType>(200); },
       "GroundUnit's 'type' holds 200, not one of its 64 values"},
      // Within a type's byte but past the rules' ten types (B3.1).
      {[](ops::GameState& s) { s.units[1].type = static_cast<ops::UnitType>(10); },
       "type 10, not one of the rules' 10"},
      {[](ops::GameState& s) { s.units[0].supply = static_cast<ops::SupplyStatus>(3); },
       "GroundUnit's 'supply'"},
      {[](ops::GameState& s) { s.units[0].status = static_cast<ops::UnitStatus>(4); },
       "GroundUnit's 'status'"},
      {[](ops::GameState& s) { s.air[0].status = static_cast<ops::AirStatus>(2); },
       "AirUnit's 'status'"},
      {[](ops::GameState& s) { s.naval[0].kind = static_cast<ops::NavalKind>(4); },
       "NavalUnit's 'kind'"},
      {[](ops::GameState& s) { s.map.SetSuez(static_cast<map::CanalStatus>(3)); },
       "MapState's 'suez'"},
      {[](ops::GameState& s) {
         s.map.SetFlood(map::HexRef{3}, map::Flood{static_cast<map::FloodKind>(3), 2, 5});
       },
       "Flood's 'kind'"},
      {[](ops::GameState& s) { s.weather[1] = static_cast<ops::Weather>(4); },
       "the weather by zone holds 4"},
      {[](ops::GameState& s) {
         ForEachField(s.map, [](const map::Field& f, auto& field) {
           if constexpr (std::is_same_v<std::remove_cvref_t<decltype(field)>,
                                        std::vector<std::uint8_t>>) {
             if (f.name == "control") field[5] = 3;
           }
         });
       },
       "the hex owner array ('control') holds 3, not an owner"},
  };
  for (const auto& [forge, says] : forged) {
    ops::GameState state = test::HandBuiltState(&sc.theater);
    forge(state);
    auto r =
        LoadSnapshot(SaveSnapshot(state), db::kSnapshotFormat, Theater(), ops::DefaultRuleTables());
    ASSERT_FALSE(r) << says;
    EXPECT_EQ(r.error().code, ErrorCode::kCorruption) << says;
    EXPECT_NE(r.error().message.find(says), std::string::npos) << r.error().message;
  }
  // The highest value of each still loads.
  ops::GameState state = test::HandBuiltState(&sc.theater);
  state.first = Side::kAllied;
  state.units[1].type = opsim::test::BaseType("artillery");
  state.units[1].status = ops::UnitStatus::kReinforcement;
  state.naval[0].kind = ops::NavalKind::kFlotilla;
  state.map.SetSuez(map::CanalStatus::kPermanentlyClosed);
  state.weather[1] = ops::Weather::kSnow;
  auto r =
      LoadSnapshot(SaveSnapshot(state), db::kSnapshotFormat, Theater(), ops::DefaultRuleTables());
  ASSERT_TRUE(r) << r.error().to_string();
  ExpectSameState(state, *r);
}

TEST(Snapshot, AFormatOlderThanTheOldestReadableIsRefusedClearly) {
  const std::string bytes = SaveSnapshot(test::HandBuiltState(nullptr));
  auto old =
      LoadSnapshot(bytes, db::kOldestSnapshotFormat - 1, Theater(), ops::DefaultRuleTables());
  ASSERT_FALSE(old);
  EXPECT_EQ(old.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(
      old.error().message.find("snapshot format 0 is older than this build reads (formats 1 to 3)"),
      std::string::npos)
      << old.error().message;
}

TEST(Snapshot, ANewerFormatIsRefusedClearly) {
  const std::string bytes = SaveSnapshot(test::HandBuiltState(nullptr));
  auto later = LoadSnapshot(bytes, db::kSnapshotFormat + 1, Theater(), ops::DefaultRuleTables());
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
  auto r = LoadSnapshot(out.str(), db::kSnapshotFormat, Theater(), ops::DefaultRuleTables());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(
      r.error().message.find("GameState at class version 9; this build reads up to version 1"),
      std::string::npos)
      << r.error().message;
}

TEST(Snapshot, DamagedBytesAreCorruptionNotACrash) {
  const std::string bytes = SaveSnapshot(test::HandBuiltState(nullptr));
  auto cut = LoadSnapshot(bytes.substr(0, bytes.size() / 2), db::kSnapshotFormat, Theater(),
                          ops::DefaultRuleTables());
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().code, ErrorCode::kCorruption);

  auto longer =
      LoadSnapshot(bytes + "xyz", db::kSnapshotFormat, Theater(), ops::DefaultRuleTables());
  ASSERT_FALSE(longer);
  EXPECT_EQ(longer.error().code, ErrorCode::kCorruption);
  EXPECT_NE(longer.error().message.find("3 bytes after the state"), std::string::npos);

  auto text = LoadSnapshot("this is not an archive at all, just some text", db::kSnapshotFormat,
                           Theater(), ops::DefaultRuleTables());
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().code, ErrorCode::kCorruption);
  EXPECT_NE(text.error().message.find("no Boost.Serialization signature"), std::string::npos);
}

// The signature with a 4-byte length, as a 32-bit platform writes it.
TEST(Snapshot, AnArchiveFromAnotherPlatformIsRefusedAsSuch) {
  const std::string bytes =
      std::string("\x16\0\0\0serialization::archive", 26) + std::string(64, '\0');
  auto r = LoadSnapshot(bytes, db::kSnapshotFormat, Theater(), ops::DefaultRuleTables());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(r.error().message.find("platform with other native sizes"), std::string::npos);
}

}  // namespace
}  // namespace opsim
