// `opsim theater` and `opsim position` at the command line (docs/views.md): the JSON is
// view.h's, any game source works (a log at a turn, --set), and bad input is exit 2.
#include <gtest/gtest.h>

#include "opsim/query/view.h"
#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;
using test::RunCli;

// A logged special-terrain game with the first player-turn played.
std::string PlayedGame(const test::TempDir& dir) {
  const std::string db = dir.Path("g.sqlite");
  EXPECT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", db, "--seed", "1"}).code, 0);
  const test::CliRun r = RunCli({"turn", "--db", db, "--orders",
                                 test::BundledPath("orders/special-terrain/01-axis-may-i-1940")});
  EXPECT_EQ(r.code, 0) << r.err;
  return db;
}

TEST(ViewCli, TheaterTextSaysWhatTheJsonHolds) {
  const test::CliRun r = RunCli({"theater", "--scenario", "special-terrain"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = RunCli({"theater", "--scenario", "special-terrain", "--json"}).json();
  EXPECT_NE(r.out.find(std::to_string(j["hexes"].size()) + " hexes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(std::to_string(j["sheets"].size()) + " sheets in 9 panels"),
            std::string::npos)
      << r.out;  // 1A and 2A join
  EXPECT_NE(r.out.find(std::to_string(j["exits"].size()) + " map-edge exits"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("--json"), std::string::npos);
}

TEST(ViewCli, PositionAtEveryLoggedTurnIsTheLibrarysAnswer) {
  const test::TempDir dir;
  const std::string db = PlayedGame(dir);
  for (const std::string at : {"0", "1"}) {
    const json cli = RunCli({"position", "--db", db, "--at", at, "--json"}).json();
    query::Source source;
    source.db = db;
    source.at = std::stoi(at);
    auto g = query::Load(source);
    ASSERT_TRUE(g.has_value()) << g.error().to_string();
    auto lib = query::PositionJson(*g, {});
    ASSERT_TRUE(lib.has_value()) << lib.error().to_string();
    EXPECT_EQ(cli, *lib) << "--at " << at;
    EXPECT_EQ(cli["player_turn"], std::stoi(at));
  }
  const json now = RunCli({"position", "--db", db, "--json"}).json();
  EXPECT_EQ(now["player_turn"], 1);
  EXPECT_EQ(now["next"]["phasing"], "allied");
}

TEST(ViewCli, PositionAtAPhaseIsTheLibrarysAnswer) {
  const test::TempDir dir;
  const std::string db = PlayedGame(dir);
  for (const char* phase : {"initial", "movement", "combat", "exploitation"}) {
    const json cli =
        RunCli({"position", "--db", db, "--at", "1", "--phase", phase, "--json"}).json();
    query::Source source;
    source.db = db;
    source.at = 1;
    source.phase = *ops::ParsePhase(phase);
    auto g = query::Load(source);
    ASSERT_TRUE(g.has_value()) << g.error().to_string();
    EXPECT_EQ(cli, *query::PositionJson(*g, {})) << phase;
    EXPECT_EQ(cli["phase"], phase);
  }
  const test::CliRun text = RunCli({"position", "--db", db, "--at", "1", "--phase", "movement"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("after the movement phase of the axis player-turn of May I 1940; "
                          "next: its combat phase"),
            std::string::npos)
      << text.out;
}

TEST(ViewCli, APhaseThatIsNoPhaseOrNoLoggedPlayerTurnIsBadInput) {
  const test::TempDir dir;
  const std::string db = PlayedGame(dir);
  test::CliRun r = RunCli({"position", "--db", db, "--at", "1", "--phase", "supply", "--json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--phase: unknown phase 'supply': the phases are initial, movement, "
                       "combat and exploitation"),
            std::string::npos)
      << r.err;
  r = RunCli({"position", "--db", db, "--phase", "combat"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--phase goes with --db and --at N"), std::string::npos) << r.err;
  r = RunCli({"position", "--db", db, "--at", "2", "--phase", "combat"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no logged player-turn 2"), std::string::npos) << r.err;
}

TEST(ViewCli, TheLogSaysWhichEventsAndRollsAreEachPhases) {
  const test::TempDir dir;
  const std::string db = PlayedGame(dir);
  const json plain = RunCli({"log", "--db", db, "--json"}).json();
  const json phased = RunCli({"log", "--db", db, "--phases", "--json"}).json();
  ASSERT_EQ(phased["turns"].size(), 1u);
  json stripped = phased;
  for (json& p : stripped["turns"][0]["phases"]) {
    EXPECT_TRUE(p.contains("events") && p.contains("rolls")) << p;
    p.erase("events");
    p.erase("rolls");
  }
  EXPECT_EQ(stripped, plain);  // the keys that were there are unchanged
  const test::CliRun text = RunCli({"log", "--db", db, "--phases"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(
      text.out.find("movement " +
                    plain["turns"][0]["phases"][1]["state_hash"].get<std::string>().substr(0, 12) +
                    ", rolls "),
      std::string::npos)
      << text.out;
}

TEST(ViewCli, ADestroyedBridgeAndAFloodSetOnTheCommandLine) {
  const json j =
      RunCli({"position", "--scenario", "special-terrain", "--set",
              "bridge:16A:0727/0827=destroyed", "--set", "flood:16A:1122=partial", "--json"})
          .json();
  EXPECT_EQ(j["destroyed_bridges"], json::array({"16A:0727/0827"}));
  ASSERT_EQ(j["floods"].size(), 1u);
  EXPECT_EQ(j["floods"][0]["hex"], "16A:1122");
  const test::CliRun text = RunCli(
      {"position", "--scenario", "special-terrain", "--set", "bridge:16A:0727/0827=destroyed"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("destroyed bridges: 1"), std::string::npos) << text.out;
}

TEST(ViewCli, SupplyAndZonesInTheTextSummary) {
  const test::CliRun r =
      RunCli({"position", "--scenario", "special-terrain", "--supply", "axis", "--zoc", "allied"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("supply (axis):"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("zones of control (allied):"), std::string::npos) << r.out;
}

TEST(ViewCli, ASideThatIsNoSideIsBadInput) {
  const test::CliRun r =
      RunCli({"position", "--scenario", "special-terrain", "--supply", "nobody", "--json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("nobody"), std::string::npos) << r.err;
}

TEST(ViewCli, HelpNamesTheOptions) {
  const test::CliRun r = RunCli({"position", "--help"});
  EXPECT_EQ(r.code, 0);
  for (const char* option :
       {"--supply", "--zoc", "--scenario", "--db", "--at", "--set", "--phase"}) {
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
  }
}

}  // namespace
}  // namespace opsim
