// Hostile input at the command line (issue 10): every file and option gets an answer with an
// exit code, never a signal; a unit named twice in one order is refused; echoed tokens are cut
// short and their control characters escaped.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace opsim {
namespace {

using test::RunCli;

const std::string kFirstOrders =
    std::string(OPSIM_SCENARIO_DIR) + "/orders/special-terrain/01-axis-may-i-1940.json";

// The bundled first Axis orders with `from` replaced by `to`.
std::string Edited(const std::string& from, const std::string& to) {
  std::string text = test::ReadFile(kFirstOrders);
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

test::CliRun Turn(const test::TempDir& dir, const std::string& orders) {
  test::WriteFile(dir.Path("o.json"), orders);
  return RunCli({"turn", "--scenario", "special-terrain", "--orders", dir.Path("o.json"), "--out",
                 dir.Path("s.json")});
}

TEST(InputCli, AUnitNamedTwiceInAnAttackIsRefusedWithTheRule) {
  test::TempDir dir;
  const auto r = Turn(dir, Edited(R"("units": ["de-18a", "de-9pz"])",
                                  R"("units": ["de-18a", "de-18a", "de-9pz", "de-9pz"])"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find(":12: /combat/0/units/1: unit 'de-18a' is named twice in one order [B7.1]"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.Path("s.json")));
  // The same through `check --action`.
  const auto c = RunCli({"check", "--scenario", "special-terrain", "--action",
                         R"({"attack": "16A:1122", "units": ["de-18a", "de-18a"]})"});
  EXPECT_EQ(c.code, 2) << c.err;
  EXPECT_NE(c.err.find("[B7.1]"), std::string::npos) << c.err;
}

TEST(InputCli, AUnitNamedTwiceInAnyOrderIsRefused) {
  const std::pair<std::string, std::string> cases[] = {
      {R"({"units": ["de-18a"], "path")", R"({"units": ["de-18a", "de-18a"], "path")"},
      {R"({"units": ["de-18a"], "path")", R"({"rail": ["de-18a", "de-18a"], "path")"},
      {R"({"units": ["de-18a"], "path")", R"({"naval": ["x", "x"], "path")"},
      {R"({"units": ["de-18a"], "path")", R"({"naval": ["x"], "carry": ["y", "y"], "path")"},
      {R"({"units": ["de-18a"], "path")", R"({"naval": ["x", "y"], "carry": ["y"], "path")"},
      {R"("air-drop": "de-22la")", R"("air-drop": ["de-22la", "de-22la"])"},
      {R"("air-drop": "de-22la")", R"("rebase": ["de-22la", "de-22la"])"},
  };
  const char* rules[] = {"[B4.10]", "[B5.1]", "[B6.5]", "[B6.5]", "[B6.5]", "[B11.3]", "[B11.1]"};
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    test::TempDir dir;
    const auto r = Turn(dir, Edited(cases[i].first, cases[i].second));
    EXPECT_EQ(r.code, 2) << cases[i].second << "\n" << r.err;
    EXPECT_NE(r.err.find(rules[i]), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(i == 4 ? "both in the group and its cargo" : "named twice"),
              std::string::npos)
        << r.err;
  }
}

// B7.1: a unit attacks at most once a combat phase, in two attack orders too.
TEST(InputCli, AUnitAttackingTwiceIsRefused) {
  test::TempDir dir;
  const auto r =
      Turn(dir, Edited(R"("if-flooded": "attack"})",
                       R"("if-flooded": "attack"}, {"attack": "16A:1122", "units": ["de-18a"]})"));
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("[B7.1]"), std::string::npos) << r.err;
}

TEST(InputCli, ANumberOutOfRangeIsBadInputInEveryFile) {
  test::TempDir dir;
  const auto orders = Turn(dir, R"({"opsim":"orders","version":1,"side":"axis",)"
                                R"("turn":"May I 1940","dice":[1e400]})");
  EXPECT_EQ(orders.code, 2) << orders.err;
  EXPECT_NE(orders.err.find(dir.Path("o.json") + ":1: /dice/0: number out of range: 1e400"),
            std::string::npos)
      << orders.err;

  std::string scenario = test::ReadFile(test::BundledPath("special-terrain"));
  scenario.insert(scenario.find('{') + 1, "\"huge\": -1e999,");
  test::WriteFile(dir.Path("scenario.json"), scenario);
  const auto map = RunCli({"map", "--scenario", dir.Path("scenario.json")});
  EXPECT_EQ(map.code, 2) << map.err;
  EXPECT_NE(map.err.find(":1: /huge: number out of range"), std::string::npos) << map.err;

  ASSERT_EQ(RunCli({"turn", "--scenario", "special-terrain", "--orders", kFirstOrders, "--out",
                    dir.Path("state.json")})
                .code,
            0);
  std::string state = test::ReadFile(dir.Path("state.json"));
  state.insert(state.find('{') + 1, "\"huge\": 1e400,");
  test::WriteFile(dir.Path("state.json"), state);
  const auto st =
      RunCli({"supply", "--state", dir.Path("state.json"), "--side", "allied", "--all"});
  EXPECT_EQ(st.code, 2) << st.err;
  EXPECT_NE(st.err.find("/huge: number out of range"), std::string::npos) << st.err;

  const auto check = RunCli({"check", "--scenario", "special-terrain", "--action",
                             R"({"attack": "16A:1122", "units": ["de-18a"], "x": 1e400})"});
  EXPECT_EQ(check.code, 2) << check.err;
  EXPECT_NE(check.err.find("--action:1: /x: number out of range"), std::string::npos) << check.err;
}

TEST(InputCli, DuplicateKeysAreRefusedAndAByteOrderMarkIsAccepted) {
  test::TempDir dir;
  const auto dup = Turn(dir, Edited(R"("side": "axis",)", R"("side": "axis", "side": "allied",)"));
  EXPECT_EQ(dup.code, 2) << dup.err;
  EXPECT_NE(dup.err.find(":4: /side: duplicate key 'side'"), std::string::npos) << dup.err;

  const auto bom = Turn(dir, "\xEF\xBB\xBF" + test::ReadFile(kFirstOrders));
  EXPECT_EQ(bom.code, 0) << bom.err;
}

TEST(InputCli, NumbersOutOfRangeInOptionsAreRefusedNotWrapped) {
  test::TempDir dir;
  for (const char* seed : {"-1", "9223372036854775808", "18446744073709551616"}) {
    const auto r = RunCli(
        {"new", "--scenario", "special-terrain", "--db", dir.Path("g.sqlite"), "--seed", seed});
    EXPECT_EQ(r.code, 2) << seed << "\n" << r.err;
    EXPECT_EQ(r.err.find("18446744073709551615"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.Path("g.sqlite")));
    const auto t = RunCli({"turn", "--scenario", "special-terrain", "--seed", seed, "--orders",
                           kFirstOrders, "--out", dir.Path("s.json")});
    EXPECT_EQ(t.code, 2) << seed << "\n" << t.err;
    const auto g = RunCli({"generate", "--seed", seed, "--out", dir.Path("t.json")});
    EXPECT_EQ(g.code, 2) << seed << "\n" << g.err;
  }
  ASSERT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", dir.Path("g.sqlite")}).code, 0);
  for (const char* at : {"-1", "9223372036854775808"}) {
    for (const char* cmd : {"status", "supply"}) {
      const auto r = RunCli({cmd, "--db", dir.Path("g.sqlite"), "--at", at});
      EXPECT_EQ(r.code, 2) << cmd << " --at " << at << "\n" << r.err;
    }
  }
}

TEST(InputCli, EchoedTokensAreCutShortAndEscaped) {
  const std::string huge(1 << 20, 'Q');
  const auto r = RunCli(
      {"render", "--scenario", "special-terrain", "--sheet", huge, "--out", "/nonexistent/x.svg"});
  EXPECT_EQ(r.code, 2) << r.err.substr(0, 200);
  EXPECT_LT(r.err.size(), 1000u) << r.err.substr(0, 200);
  EXPECT_NE(r.err.find(std::string(64, 'Q') + "…"), std::string::npos) << r.err.substr(0, 200);

  const auto ansi = RunCli({"map", "--scenario", "special-terrain", "--hex", "\x1b[31m16A:0827"});
  EXPECT_EQ(ansi.code, 2) << ansi.err;
  EXPECT_EQ(ansi.err.find('\x1b'), std::string::npos) << ansi.err;
  EXPECT_NE(ansi.err.find("\\x1b[31m16A:0827"), std::string::npos) << ansi.err;
}

}  // namespace
}  // namespace opsim
