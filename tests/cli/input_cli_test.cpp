// Hostile input at the command line (issue 10): every file and option gets an answer with an
// exit code, never a signal; a unit named twice in one order is refused; echoed tokens are cut
// short and their control characters escaped.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

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

// A scenario's unknown unit type, unknown nationality or repeated unit id was echoed whole: a
// 1 MB type was a 1 MB error line, an escape sequence reached the terminal.
TEST(InputCli, AScenariosUnitTypeNationalityAndIdAreEchoedCutShortAndEscaped) {
  const std::string token = "\\u001b[31m" + std::string(1 << 20, 'Q');
  const std::string bundled = test::ReadFile(test::BundledPath("special-terrain"));
  const std::vector<std::pair<std::vector<std::string>, std::string>> edits = {
      {{"\"type\": \"infantry\""}, "unknown unit type"},
      {{"\"nationality\": \"dutch\""}, "no nationality"},
      {{"\"id\": \"nl-1\"", "\"id\": \"nl-2\""}, "twice"},
  };
  for (const auto& [fields, says] : edits) {
    std::string text = bundled;
    for (const std::string& field : fields) {
      const auto at = text.find(field);
      ASSERT_NE(at, std::string::npos) << field;
      const std::string key = field.substr(0, field.find(':'));
      text.replace(at, field.size(), key + ": \"" + token + "\"");
    }
    test::TempDir dir;
    test::WriteFile(dir.Path("s.json"), text);
    const auto r = RunCli({"supply", "--scenario", dir.Path("s.json"), "--all"});
    EXPECT_EQ(r.code, 2) << says << r.err.substr(0, 300);
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err.substr(0, 300);
    EXPECT_LT(r.err.size(), 1000u) << r.err.substr(0, 300);
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err.substr(0, 300);
    EXPECT_NE(r.err.find("\\x1b[31mQQQQ"), std::string::npos) << r.err.substr(0, 300);
    EXPECT_NE(r.err.find("Q…"), std::string::npos) << r.err.substr(0, 300);
  }
}

// Issue 10: every number option has a documented range (README.md); a value outside it, or not a
// number, is refused with exit 2 naming the option and the range, never wrapped or saturated
// (`--at -1` printed a 300-digit double; `loss-test --models 2000000000` ran 36 s in 8.4 GB).
TEST(InputCli, EveryNumberOptionNamesItsRange) {
  const std::string board = std::string(OPSIM_SCENARIO_DIR) + "/tactical/g9_3.json";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"status", "--db", "g.sqlite", "--at", "-1"},
       "--at: must be a whole number from 0 to 1000000, not -1"},
      {{"supply", "--db", "g.sqlite", "--at", "1000001", "--all", "--side", "axis"},
       "--at: must be a whole number from 0 to 1000000, not 1000001"},
      {{"log", "--db", "g.sqlite", "--turn", "0"},
       "--turn: must be a whole number from 1 to 1000000, not 0"},
      {{"replay", "--db", "g.sqlite", "--to", "99999999999"},
       "--to: must be a whole number from 0 to 1000000, not 99999999999"},
      {{"branch", "--db", "g.sqlite", "--at", "1.5", "--out", "b.sqlite"},
       "--at: must be a whole number from 0 to 1000000, not 1.5"},
      {{"generate", "--hexes", "1e3", "--out", "t.json"},
       "--hexes: must be a whole number from 100 to 900000, not 1e3"},
      // 2,000,000 hexes passed the old range, then failed on 250 sheets after seconds of work.
      {{"generate", "--hexes", "2000000", "--out", "t.json"},
       "--hexes: must be a whole number from 100 to 900000, not 2000000"},
      {{"generate", "--units", "-1", "--out", "t.json"},
       "--units: must be a whole number from 0 to 200000, not -1"},
      {{"odds", "--scenario", "special-terrain", "--orders", kFirstOrders, "--runs", "1", "--seed",
        "1", "--threads", "-1"},
       "--threads must be from 1 to 256, not -1"},
      {{"odds", "--scenario", "special-terrain", "--orders", kFirstOrders, "--runs", "1", "--seed",
        "1", "--shard", "1/0"},
       "with 1 <= K <= N <= 100000000"},
      {{"reach", "--scenario", "special-terrain", "--unit", "de-18a", "--max-cost", "-1"},
       "--max-cost: must be a number from 0 to 1000, not -1"},
      {{"new", "--scenario", "special-terrain", "--db", "g.sqlite", "--seed", "-1"},
       "--seed: must be a whole number from 0 to 9223372036854775807, not -1"},
      {{"tactical", "loss-test", "--models", "2000000000", "--seed", "1"},
       "--models must be from 1 to 1000, not 2000000000 [SAM-LT.1]"},
      {{"tactical", "samurai-move", "--unit", "infantry", "--order", "assault", "--path",
        "plains,river", "--models", "-5", "--seed", "1"},
       "--models must be from 1 to 1000, not -5 [SAM-LT.1]"},
      {{"tactical", "samurai-move", "--unit", "infantry", "--order", "assault", "--path",
        "plains,river", "--allowance", "101"},
       "--allowance: must be a whole number from 0 to 100, not 101"},
      {{"tactical", "move", "--board", board, "--path", "37EE8,EE7", "--stack", "101"},
       "--stack must be from 1 to 100, not 101 [G9.43]"},
      {{"tactical", "move", "--board", board, "--path", "37EE8,EE7", "--allowance", "-1"},
       "--allowance: must be a whole number from 0 to 100, not -1"},
      {{"tactical", "move", "--board", board, "--path", "37EE8,EE7", "--printed-mp", "101"},
       "--printed-mp: must be a whole number from 0 to 100, not 101"},
      {{"tactical", "move", "--board", board, "--path", "37EE8,EE7", "--morale", "21"},
       "--morale: must be a whole number from 0 to 20, not 21"},
      {{"tactical", "los", "--board", board, "--from", "EE8", "--to", "EE7", "--from-level",
        "2147483647"},
       "--from-level: must be a whole number from -9 to 9, not 2147483647"},
      {{"tactical", "los", "--board", board, "--from", "EE8", "--to", "EE7", "--to-level", "-10"},
       "--to-level: must be a whole number from -9 to 9, not -10"},
      {{"tactical", "panji-setup", "--board", board, "--ob", "-1"},
       "--ob: must be a whole number from 0 to 1000, not -1"},
      {{"tactical", "beach-dyo", "--board", board, "--seed", "1", "--year", "99999"},
       "--year: must be a whole number from 1900 to 2100, not 99999"},
  };
  for (const auto& [args, says] : cases) {
    const auto r = RunCli(args);
    EXPECT_EQ(r.code, 2) << args[0] << " " << args[1] << "\n" << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << says << "\n" << r.err;
  }
  const auto slow = RunCli({"tactical", "loss-test", "--models", "1000", "--seed", "1"});
  EXPECT_EQ(slow.code, 0) << slow.err;
}

// CLI11 quoted a 1 MB argument whole in its own messages.
TEST(InputCli, ParseErrorsEchoArgumentsCutShort) {
  const std::string huge(1 << 20, 'Q');
  const auto r = RunCli({"map", "--scenario", "special-terrain", "--bogus", huge});
  EXPECT_EQ(r.code, 2);
  EXPECT_LT(r.err.size(), 1000u) << r.err.substr(0, 200);
  EXPECT_NE(r.err.find(std::string(64, 'Q') + "…"), std::string::npos) << r.err.substr(0, 200);
  std::vector<std::string> many = {"map", "--scenario", "special-terrain"};
  for (int i = 0; i < 10000; ++i) many.push_back("extra" + std::to_string(i));
  const auto words = RunCli(many);
  EXPECT_EQ(words.code, 2);
  EXPECT_LT(words.err.size(), 1000u) << words.err.substr(0, 200);
  const auto ansi = RunCli({"map", "--scenario", "special-terrain", "\x1b[31mx"});
  EXPECT_EQ(ansi.code, 2);
  EXPECT_EQ(ansi.err.find('\x1b'), std::string::npos) << ansi.err;
  const auto set = RunCli({"map", "--scenario", "special-terrain", "--set", huge});
  EXPECT_EQ(set.code, 2);
  EXPECT_LT(set.err.size(), 1000u) << set.err.substr(0, 200);
}

// Input files over their kind's limit are refused before they are read: a 100 MB array given as
// a scenario cost 1.85 GB and 10.7 s before its refusal; a device that never ends is cut short.
TEST(InputCli, InputFilesOverTheirLimitAreRefusedUnread) {
  test::TempDir dir;
  const std::string big = dir.Path("big.json");
  test::WriteFile(big, "[");
  std::filesystem::resize_file(big, 100ull << 20);  // sparse: costs no disk
  const std::string board = std::string(OPSIM_SCENARIO_DIR) + "/tactical/g9_3.json";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"map", "--scenario", big}, "67108864 bytes"},
      {{"supply", "--state", big, "--side", "axis", "--all"}, "67108864 bytes"},
      {{"turn", "--scenario", "special-terrain", "--orders", big, "--out", dir.Path("s.json")},
       "16777216 bytes"},
      {{"turn", "--scenario", "special-terrain", "--orders", "/dev/zero", "--out",
        dir.Path("s.json")},
       "the file is over 16777216 bytes"},
      {{"odds", "--merge", big}, "16777216 bytes"},
      {{"tactical", "move", "--board", big, "--path", "37EE8,EE7"}, "16777216 bytes"},
  };
  for (const auto& [args, says] : cases) {
    const auto r = RunCli(args);
    EXPECT_EQ(r.code, 2) << args[0] << "\n" << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << says << "\n" << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.Path("s.json")));
}

// A scenario whose campaign rules nest 200,000 arrays deep crashed `opsim turn` (a stack overflow
// in nlohmann's dump()); JSON nested more than 100 deep is refused at its path.
TEST(InputCli, DeeplyNestedJsonIsRefusedNotACrash) {
  test::TempDir dir;
  std::string scenario = test::ReadFile(test::BundledPath("special-terrain"));
  const auto campaign = scenario.find('{', scenario.find("\"campaign\""));
  scenario.insert(campaign + 1,
                  "\"rules\": " + std::string(200000, '[') + std::string(200000, ']') + ",");
  test::WriteFile(dir.Path("deep.json"), scenario);
  const auto r = RunCli({"turn", "--scenario", dir.Path("deep.json"), "--orders", kFirstOrders,
                         "--out", dir.Path("s.json")});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("/campaign/rules/0/0/"), std::string::npos) << r.err.substr(0, 300);
  EXPECT_NE(r.err.find("nested more than 100 deep"), std::string::npos) << r.err.substr(0, 300);
}

// `--set unit:ID=HEX` placed ground units only ("no ground unit 'de-kg2'"); air and naval units
// are placed with the scenario reader's checks (B11.1, B6.1), a ground unit with B4.4's.
TEST(InputCli, SetUnitPlacesGroundAirAndNavalUnitsWithTheirChecks) {
  test::TempDir dir;
  test::WriteFile(dir.Path("none.json"),
                  R"({"opsim": "orders", "version": 1, "side": "axis", "turn": "May I 1940"})");
  auto played = [&](const std::string& set) {
    return RunCli({"turn", "--scenario", "special-terrain", "--set", set, "--orders",
                   dir.Path("none.json"), "--out", dir.Path("s.json")});
  };
  auto find = [&](const char* section, const std::string& id) {
    const nlohmann::json state = nlohmann::json::parse(test::ReadFile(dir.Path("s.json")));
    for (const nlohmann::json& u : state[section]) {
      if (u["id"] == id) return u;
    }
    ADD_FAILURE() << id;
    return nlohmann::json();
  };
  auto r = played("unit:de-kg2=16A:0620");  // Amsterdam, an airbase
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(find("air", "de-kg2")["base"], "16A:0620");
  r = played("unit:uk-tr=16A:0826");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(find("naval", "uk-tr")["hex"], "16A:0826");
  r = played("unit:de-18a=16A:1222");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(find("units", "de-18a")["hex"], "16A:1222");

  const std::vector<std::pair<std::string, std::string>> refused = {
      {"unit:de-kg2=16A:1222", "has no airbase (B11.1)"},
      {"unit:uk-tr=16A:1222", "a naval unit is in a port or at sea (B6.1)"},
      {"unit:de-18a=16A:0826", "a ground unit stands on land it may enter (B4.4)"},
      {"unit:nobody=16A:1222", "no unit 'nobody'"},
  };
  for (const auto& [set, says] : refused) {
    const auto bad = played(set);
    EXPECT_EQ(bad.code, 2) << set << "\n" << bad.err;
    EXPECT_NE(bad.err.find(says), std::string::npos) << set << "\n" << bad.err;
  }
}

// `turn --help` offered --at and --set, which `turn --db` refuses: every option it lists outside
// "Not with --db" (and not excluding --db) is accepted with --db; --at is not offered at all.
TEST(InputCli, TurnHelpOffersWithDbOnlyWhatDbAccepts) {
  const auto help = RunCli({"turn", "--help"});
  ASSERT_EQ(help.code, 0);
  std::istringstream lines(help.out);
  std::string line, section;
  std::vector<std::string> with_db, not_with_db;
  while (std::getline(lines, line)) {
    if (!line.empty() && line[0] != ' ' && line.back() == ':') section = line;
    if (!line.starts_with("  -")) continue;
    std::string name = line.substr(2, line.find(' ', 2) - 2);
    name = name.substr(name.rfind(',') == std::string::npos ? 0 : name.rfind(',') + 1);
    if (section == "Not with --db:") {
      not_with_db.push_back(name);
    } else if (name != "--help" && line.find("Excludes:") == std::string::npos) {
      with_db.push_back(name);
    }
  }
  EXPECT_EQ(help.out.find("--at"), std::string::npos) << help.out;
  EXPECT_EQ(not_with_db, (std::vector<std::string>{"--set", "--seed", "--out", "--force"}))
      << help.out;
  EXPECT_FALSE(with_db.empty()) << help.out;
  // Today those are --db and --orders: one turn played with both is every option accepted.
  for (const std::string& option : with_db) {
    EXPECT_TRUE(option == "--db" || option == "--orders") << option << " is new: play it with --db";
  }
  {
    test::TempDir dir;
    const std::string db = dir.Path("g.sqlite");
    ASSERT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", db}).code, 0);
    const auto r = RunCli({"turn", "--db", db, "--orders", kFirstOrders});
    EXPECT_EQ(r.code, 0) << r.err;
  }
  for (const char* option : {"--set", "--out"}) {
    test::TempDir dir;
    const std::string db = dir.Path("g.sqlite");
    ASSERT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", db}).code, 0);
    const auto r = RunCli({"turn", "--db", db, "--orders", kFirstOrders, option,
                           std::string(option) == "--set" ? "suez=open" : dir.Path("s.json")});
    EXPECT_EQ(r.code, 2) << option;
  }
}

// `turn --db --seed 7` played the turn with the log's dice and said nothing of the seed: every
// option under "Not with --db" is refused (exit 2, naming it) and nothing is logged.
TEST(InputCli, TurnWithDbRefusesEveryOptionNotWithDb) {
  const std::vector<std::vector<std::string>> refused = {
      {"--seed", "7"}, {"--seed", "1"}, {"--force"}, {"--set", "suez=open"}, {"--out", "s.json"}};
  for (const std::vector<std::string>& option : refused) {
    test::TempDir dir;
    const std::string db = dir.Path("g.sqlite");
    ASSERT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", db}).code, 0);
    std::vector<std::string> args = {"turn", "--db", db, "--orders", kFirstOrders};
    args.insert(args.end(), option.begin(), option.end());
    if (option.front() == "--out") args.back() = dir.Path("s.json");
    const auto r = RunCli(args);
    EXPECT_EQ(r.code, 2) << option.front() << "\n" << r.err;
    EXPECT_NE(r.err.find(option.front() == "--set" ? "no --set" : option.front()),
              std::string::npos)
        << r.err;
    const auto status = RunCli({"status", "--db", db, "--json"});
    ASSERT_EQ(status.code, 0) << status.err;
    EXPECT_EQ(nlohmann::json::parse(status.out)["turns_logged"], 0) << option.front();
    if (option.front() == "--seed") {
      EXPECT_NE(r.err.find("dice are the log's"), std::string::npos) << r.err;
    }
  }
}

}  // namespace
}  // namespace opsim
