// The opsim command line, run in-process: every query answers one JSON object with --json,
// bad input exits 2 with a one-line message, and the acceptance query holds.
#include <gtest/gtest.h>

#include <cmath>

#include "context.h"
#include "test_support.h"

namespace opsim {
namespace {

using test::RunCli;

// The acceptance query: a naval route 16A:0827,0826,0825 is not legal, by 41.A.1.
TEST(Cli, CausewayExampleIsRefusedBy41A1) {
  const auto r = RunCli({"route", "--scenario", "special-terrain", "--mode", "naval", "--side",
                         "allied", "--path", "16A:0827,16A:0826,16A:0825", "--json"});
  EXPECT_EQ(r.code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["legal"], false);
  EXPECT_EQ(j["blocked_by"], nlohmann::json::array({"41.A.1"}));
  EXPECT_TRUE(j.contains("cost"));
  EXPECT_EQ(j["failed_step"], 1);
}

TEST(Cli, RouteAnswersReachablePathCostBlockedBy) {
  const auto r = RunCli({"route", "--scenario", "special-terrain", "--mode", "naval", "--from",
                         "22A:4806", "--to", "22A:4313", "--group", "transport", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["reachable"], true);
  EXPECT_EQ(j["path"].front(), "22A:4806");
  EXPECT_EQ(j["path"].back(), "22A:4313");
  EXPECT_GT(j["cost"].get<int>(), 0);
  EXPECT_TRUE(j["blocked_by"].empty());

  const auto tf = RunCli({"route", "--scenario", "special-terrain", "--mode", "naval", "--from",
                          "22A:4806", "--to", "22A:4313", "--group", "tf", "--json"});
  ASSERT_EQ(tf.code, 0) << "no route is an answer, not an error";
  const auto k = tf.json();
  EXPECT_EQ(k["reachable"], false);
  EXPECT_EQ(k["blocked_by"], nlohmann::json::array({"41.D"}));
  EXPECT_TRUE(k["cost"].is_null());
}

TEST(Cli, GroundRouteCostsInMp) {
  const auto r = RunCli({"route", "--scenario", "special-terrain", "--mode", "ground", "--unit",
                         "infantry", "--path", "16A:0827,16A:0727", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["legal"], true);
  EXPECT_EQ(j["cost"], 2.5);
  bool cites = false;
  for (const auto& note : j["steps"][0]) cites |= note["rule"] == "41.A.1";
  EXPECT_TRUE(cites) << j.dump();
}

TEST(Cli, MapSummaryAndHex) {
  const auto sum = RunCli({"map", "--scenario", "special-terrain", "--json"});
  ASSERT_EQ(sum.code, 0) << sum.err;
  const auto j = sum.json();
  EXPECT_EQ(j["name"], "special-terrain");
  EXPECT_GT(j["hexes"].get<int>(), 1000);
  EXPECT_EQ(j["sheets"].size(), 10u);
  const auto hex = RunCli({"map", "--scenario", "special-terrain", "--hex", "16A:0827", "--json"});
  ASSERT_EQ(hex.code, 0) << hex.err;
  const auto h = hex.json();
  EXPECT_EQ(h["terrain"], "clear");
  EXPECT_EQ(h["hexsides"].size(), 6u);
  ASSERT_EQ(h["water_areas"].size(), 2u);
  EXPECT_EQ(h["water_areas"][0]["split_by"], "16A:0727/0827");
  EXPECT_EQ(h["water_areas"][0]["rule"], "41.A.1");
  bool causeway = false;
  for (const auto& s : h["hexsides"]) {
    for (const auto& f : s["features"]) causeway |= f == "causeway";
  }
  EXPECT_TRUE(causeway);
}

TEST(Cli, ScenariosListsTheBundledTheater) {
  const auto r = RunCli({"scenarios", "--json"});
  ASSERT_EQ(r.code, 0);
  const auto j = r.json();
  bool found = false;
  for (const auto& s : j["scenarios"]) found |= s["name"] == "special-terrain";
  EXPECT_TRUE(found);
}

TEST(Cli, BadHexExitsTwoWithOneLineNamingTheToken) {
  for (const char* bad : {"16A:9999", "16A:827", "ZZ:0101"}) {
    const auto r =
        RunCli({"route", "--scenario", "special-terrain", "--from", bad, "--to", "16A:0827"});
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  const auto j = RunCli({"map", "--scenario", "special-terrain", "--hex", "ZZ:0101", "--json"});
  EXPECT_EQ(j.code, 2);
  EXPECT_EQ(j.json()["error"]["code"], "not-found");
}

TEST(Cli, BadScenarioFileExitsTwoNamingFileAndLine) {
  test::TempDir dir;
  test::WriteFile(dir.Path("bad.json"),
                  "{\n  \"opsim\": \"scenario\",\n  \"version\": 1,\n  \"name\": 5\n}\n");
  const auto r = RunCli({"map", "--scenario", dir.Path("bad.json")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(dir.Path("bad.json") + ":4: /name"), std::string::npos) << r.err;
}

TEST(Cli, UnknownOptionIsBadInput) {
  const auto r = RunCli({"route", "--scenario", "special-terrain", "--bogus"});
  EXPECT_EQ(r.code, 2);
}

TEST(Cli, HelpHelps) {
  const auto r = RunCli({"route", "--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("--path"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("blocked_by"), std::string::npos);
}

TEST(Cli, RenderWritesAnSvgWithTheRoute) {
  test::TempDir dir;
  const auto r = RunCli({"render", "--scenario", "special-terrain", "--sheet", "16A", "--out",
                         dir.Path("m.svg"), "--mode", "naval", "--from", "16A:0827", "--to",
                         "16A:0825", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string svg = test::ReadFile(dir.Path("m.svg"));
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_NE(svg.find("Vlissingen"), std::string::npos);
  EXPECT_EQ(r.json()["route"]["reachable"], true);
}

TEST(Cli, GenerateWritesALoadableTheater) {
  test::TempDir dir;
  const auto r =
      RunCli({"generate", "--hexes", "2000", "--seed", "4", "--out", dir.Path("g.json"), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_GT(r.json()["hexes"].get<int>(), 1500);
  const auto m = RunCli({"map", "--scenario", dir.Path("g.json"), "--json"});
  EXPECT_EQ(m.code, 0) << m.err;
}

TEST(Cli, WritingIntoAMissingDirectoryFailsCleanly) {
  const auto r =
      RunCli({"render", "--scenario", "special-terrain", "--out", "/nonexistent-dir/m.svg"});
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_NE(r.err.find("/nonexistent-dir/m.svg"), std::string::npos);
}

// --side was declared by five commands apart: each takes axis or allied alone, with the same
// error for anything else, and those with a default still default to the allied side.
TEST(Cli, EverySideOptionTakesAxisOrAlliedWithOneError) {
  const std::vector<std::vector<std::string>> commands = {
      {"check", "--scenario", "special-terrain", "--action", "{\"suez\": \"close\"}"},
      {"supply", "--scenario", "special-terrain", "--all"},
      {"route", "--scenario", "special-terrain", "--from", "16A:0827", "--to", "16A:0826"},
      {"reach", "--scenario", "special-terrain", "--unit", "nl-1"},
      {"pbem", "start", "--scenario", "special-terrain", "--db", "x.sqlite", "--out", "x.json"},
  };
  std::string first_error;
  for (std::vector<std::string> args : commands) {
    args.insert(args.end(), {"--side", "neutral"});
    const auto r = RunCli(args);
    EXPECT_EQ(r.code, 2) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find("--side"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("neutral"), std::string::npos) << r.err;
    const std::string error = r.err.substr(r.err.find("--side"));
    if (first_error.empty()) first_error = error;
    EXPECT_EQ(error, first_error) << args[0];
    const auto help = RunCli(args[0] == "pbem" ? std::vector<std::string>{"pbem", "start", "--help"}
                                               : std::vector<std::string>{args[0], "--help"});
    EXPECT_NE(help.out.find("--side TEXT:{allied,axis}"), std::string::npos) << help.out;
  }
  const auto supply = RunCli({"supply", "--scenario", "special-terrain", "--all", "--json"});
  ASSERT_EQ(supply.code, 0) << supply.err;
  EXPECT_EQ(supply.json()["side"], "allied");
}

// check's odds and odds' shares came from two formatters; one remains: check's whole percents
// round a half up (12.5% is 13%), odds' tenths round as printf does.
TEST(Cli, PercentagesKeepTheirFormats) {
  EXPECT_EQ(cli::Percent(std::round(12.5), 0), "13%");
  EXPECT_EQ(cli::Percent(std::round(100.0 / 3), 0), "33%");
  EXPECT_EQ(cli::Percent(100.0 / 3, 1), "33.3%");
  EXPECT_EQ(cli::Percent(6.25, 1), "6.2%");
  EXPECT_EQ(cli::Percent(0.0, 1), "0.0%");
}

}  // namespace
}  // namespace opsim
