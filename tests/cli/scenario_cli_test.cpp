// `opsim scenario check|format|stats` (issue 20; docs/scenario-format.md, "Checking, formatting,
// counting"): the check's exit codes and located --json error, the layout written atomically to
// stdout or --out (never over its input without --in-place, never through a link), and the
// counts.
#include <gtest/gtest.h>

#include <filesystem>

#include "opsim/query/scenario.h"
#include "test_support.h"

namespace opsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::RunCli;

TEST(ScenarioCli, CheckPassesTheBundledScenarioAndSaysWhatItHolds) {
  const test::CliRun run = RunCli({"scenario", "check", "--scenario", "special-terrain"});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find(": ok"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("3033 (2048 land, 888 sea, 97 lake) on 10 sheets"), std::string::npos)
      << run.out;
  const json j = test::CliJson({"scenario", "check", test::BundledPath("special-terrain")});
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["stats"], test::CliJson({"scenario", "stats", "--scenario", "special-terrain"}));
}

TEST(ScenarioCli, CheckLocatesTheErrorAndExitsAsTheLoadersDo) {
  test::TempDir dir;
  json doc = json::parse(test::ReadFile(test::BundledPath("special-terrain")));
  doc["campaign"]["units"][2]["hex"] = "16A:0114";  // the sea
  const std::string bad = dir.Path("bad.json");
  test::WriteFile(bad, doc.dump(1));
  test::CliRun run = RunCli({"scenario", "check", bad});
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.err.find(bad + ":"), std::string::npos) << run.err;
  run = RunCli({"--json", "scenario", "check", bad});
  EXPECT_EQ(run.code, 2);
  const json e = run.json();
  EXPECT_EQ(e["ok"], false);
  EXPECT_EQ(e["error"]["hex"], "16A:0114") << e.dump();
  EXPECT_EQ(e["error"], query::CheckScenarioFile(bad).doc["error"]);
  // A newer format: exit 8.
  doc = json::parse(test::ReadFile(test::BundledPath("special-terrain")));
  doc["version"] = 2;
  test::WriteFile(bad, doc.dump());
  EXPECT_EQ(RunCli({"scenario", "check", bad}).code, 8);
  // A missing file: as `opsim map` says it.
  const test::CliRun missing = RunCli({"scenario", "check", dir.Path("missing.json")});
  EXPECT_EQ(missing.code, RunCli({"map", "--scenario", dir.Path("missing.json")}).code);
  EXPECT_NE(missing.code, 0);
  EXPECT_EQ(RunCli({"scenario", "check"}).code, 2);
  EXPECT_EQ(RunCli({"scenario", "check", bad, "--scenario", "special-terrain"}).code, 2);
}

TEST(ScenarioCli, FormatWritesTheLayoutAtomicallyAndNeverOverItsInputUnasked) {
  test::TempDir dir;
  const std::string in = dir.Path("in.json"), out = dir.Path("out.json");
  test::WriteFile(in, json::parse(test::ReadFile(test::BundledPath("special-terrain"))).dump());
  const test::CliRun printed = RunCli({"scenario", "format", in});
  ASSERT_EQ(printed.code, 0) << printed.err;
  const test::CliRun wrote = RunCli({"scenario", "format", in, "--out", out});
  ASSERT_EQ(wrote.code, 0) << wrote.err;
  EXPECT_EQ(test::ReadFile(out), printed.out);
  // Formatted again: unchanged.
  const json again = test::CliJson({"scenario", "format", out, "--out", out, "--in-place"});
  EXPECT_EQ(again["changed"], false);
  EXPECT_EQ(test::ReadFile(out), printed.out);
  // --out FILE itself needs --in-place; the input is left as it was.
  const std::string before = test::ReadFile(in);
  test::CliRun refused = RunCli({"scenario", "format", in, "--out", in});
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.err.find("--in-place"), std::string::npos) << refused.err;
  EXPECT_EQ(test::ReadFile(in), before);
  ASSERT_EQ(RunCli({"scenario", "format", in, "--in-place"}).code, 0);
  EXPECT_EQ(test::ReadFile(in), printed.out);
  // Never through a link, nor over another kind of file.
  const std::string victim = dir.Path("victim.txt"), link = dir.Path("link.json");
  test::WriteFile(victim, "not a scenario");
  fs::create_symlink(victim, link);
  EXPECT_EQ(RunCli({"scenario", "format", in, "--out", link}).code, 2);
  EXPECT_EQ(RunCli({"scenario", "format", in, "--out", victim}).code, 2);
  EXPECT_EQ(test::ReadFile(victim), "not a scenario");
  EXPECT_TRUE(fs::is_symlink(link));
  // Not JSON: its line, exit 2.
  test::WriteFile(in, "{\n  \"opsim\": \"scenario\",\n  oops\n}\n");
  refused = RunCli({"scenario", "format", in});
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.err.find(in + ":3"), std::string::npos) << refused.err;
}

// The round trip as a user makes it: formatted by the CLI, a new game of the laid-out file
// starts in the same state (`opsim new`'s state hash) as one of the file it came from.
TEST(ScenarioCli, AFormattedFileStartsTheSameGame) {
  test::TempDir dir;
  const std::string generated = dir.Path("g.json");
  ASSERT_EQ(RunCli({"generate", "--hexes", "3000", "--units", "60", "--out", generated}).code, 0);
  for (const std::string& in : {test::BundledPath("special-terrain"), generated}) {
    const std::string out = dir.Path("laid-out.json");
    fs::remove(out);
    ASSERT_EQ(RunCli({"scenario", "format", in, "--out", out}).code, 0) << in;
    const auto hash = [&](const std::string& file, const std::string& db) {
      return test::CliJson(
          {"new", "--scenario", file, "--db", dir.Path(db), "--seed", "3"})["state_hash"];
    };
    EXPECT_EQ(hash(in, "a-" + fs::path(in).stem().string() + ".sqlite"),
              hash(out, "b-" + fs::path(in).stem().string() + ".sqlite"))
        << in;
    EXPECT_EQ(test::CliJson({"scenario", "stats", in}), test::CliJson({"scenario", "stats", out}));
  }
}

TEST(ScenarioCli, StatsCountsAGeneratedCampaignsUnitsBySide) {
  test::TempDir dir;
  const std::string file = dir.Path("g.json");
  ASSERT_EQ(RunCli({"generate", "--hexes", "2000", "--units", "40", "--out", file}).code, 0);
  const json s = test::CliJson({"scenario", "stats", file});
  EXPECT_EQ(s["units"]["axis"]["ground"].get<int>() + s["units"]["allied"]["ground"].get<int>(), 40)
      << s.dump();
  EXPECT_EQ(
      s["hexes"]["total"].get<int>(),
      s["hexes"]["land"].get<int>() + s["hexes"]["sea"].get<int>() + s["hexes"]["lake"].get<int>());
  EXPECT_EQ(s["campaign"], true);
  const test::CliRun help = RunCli({"scenario", "format", "--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--in-place"), std::string::npos);
}

}  // namespace
}  // namespace opsim
