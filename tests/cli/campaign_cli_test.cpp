// The campaign commands run in-process: turn (with state files), check and supply, with --set
// what-ifs; illegal orders exit 3 and write nothing; bad files exit 2 and say where.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;
using test::RunCli;

// The bundled campaign plays through state files, and the same seed gives the same game.
TEST(CampaignCli, TurnsPlayThroughStateFiles) {
  test::TempDir dir;
  const auto first = RunCli({"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders",
                             test::BundledOrders("01-axis-may-i-1940.json"), "--out",
                             dir.Path("1.json"), "--json"});
  ASSERT_EQ(first.code, 0) << first.err;
  const json j = first.json();
  EXPECT_EQ(j["side"], "axis");
  EXPECT_EQ(j["date"], "May I 1940");
  EXPECT_EQ(j["phases"].size(), 4u);  // initial, movement, combat, exploitation
  EXPECT_EQ(j["serial"], 0);
  EXPECT_FALSE(j["events"].empty());
  const json state = json::parse(test::ReadFile(dir.Path("1.json")));
  EXPECT_EQ(state["hash"], j["final_hash"]);
  EXPECT_EQ(state["scenario"]["name"], "special-terrain");

  const auto second = RunCli({"turn", "--state", dir.Path("1.json"), "--orders",
                              test::BundledOrders("02-allied-may-i-1940.json"), "--out",
                              dir.Path("2.json"), "--json"});
  ASSERT_EQ(second.code, 0) << second.err;
  EXPECT_EQ(second.json()["side"], "allied");

  const auto again = RunCli({"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders",
                             test::BundledOrders("01-axis-may-i-1940.json"), "--out",
                             dir.Path("1b.json"), "--json"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.json()["final_hash"], j["final_hash"]);
}

// A player-turn is said in one form: `opsim turn --json` gives what `opsim log --json` gives of
// the same player-turn, but for the log's own keys (its number, its canonical orders, when it was
// logged).
TEST(CampaignCli, TurnAndLogSayAPlayerTurnAlike) {
  test::TempDir dir;
  const std::string orders = test::BundledOrders("01-axis-may-i-1940.json");
  const json played = test::CliJson({"turn", "--scenario", "special-terrain", "--seed", "1940",
                                     "--orders", orders, "--out", dir.Path("1.json")});
  const std::string db = dir.Path("game.sqlite");
  test::CliJson({"new", "--scenario", "special-terrain", "--seed", "1940", "--db", db});
  test::CliJson({"turn", "--db", db, "--orders", orders});
  json logged = test::CliJson({"log", "--db", db, "--turn", "1"})["turns"][0];
  EXPECT_EQ(logged["number"], 1);
  for (const char* only_logged : {"number", "orders", "logged_at"}) logged.erase(only_logged);
  json turned = played;
  turned.erase("out");
  EXPECT_EQ(turned, logged);
}

// B1.2 and B4.10 at the command line: an illegal order exits 3 naming its rule, orders for the
// wrong side exit 2, and neither writes the state.
TEST(CampaignCli, IllegalOrdersExitThreeAndWriteNothing) {
  test::TempDir dir;
  test::WriteFile(dir.Path("far.json"), R"({"opsim": "orders", "version": 1, "side": "axis",
  "turn": "May I 1940",
  "movement": [{"units": ["de-9pz"], "path": ["16A:1323", "16A:1223", "16A:1123", "16A:1023",
    "16A:0923", "16A:0823", "16A:0723"]}]})");
  const auto far = RunCli({"turn", "--scenario", "special-terrain", "--orders",
                           dir.Path("far.json"), "--out", dir.Path("out.json")});
  EXPECT_EQ(far.code, 3) << far.err;
  EXPECT_NE(far.err.find("[B4."), std::string::npos) << far.err;
  EXPECT_FALSE(std::filesystem::exists(dir.Path("out.json")));

  const auto wrong =
      RunCli({"turn", "--scenario", "special-terrain", "--orders",
              test::BundledOrders("02-allied-may-i-1940.json"), "--out", dir.Path("out.json")});
  EXPECT_EQ(wrong.code, 2) << wrong.err;
  EXPECT_NE(wrong.err.find("these are allied orders, but the game stands at May I 1940, axis"),
            std::string::npos)
      << wrong.err;
  EXPECT_FALSE(std::filesystem::exists(dir.Path("out.json")));

  test::WriteFile(dir.Path("typo.json"),
                  "{\"opsim\": \"orders\", \"version\": 1,\n"
                  " \"side\": \"axis\", \"turn\": \"May I 1940\",\n"
                  " \"movment\": []}\n");
  const auto typo = RunCli({"turn", "--scenario", "special-terrain", "--orders",
                            dir.Path("typo.json"), "--out", dir.Path("out.json")});
  EXPECT_EQ(typo.code, 2);
  EXPECT_NE(typo.err.find("typo.json:3"), std::string::npos) << typo.err;
  EXPECT_NE(typo.err.find("movment"), std::string::npos) << typo.err;
  EXPECT_FALSE(std::filesystem::exists(dir.Path("out.json")));
}

// A state file for another version of the scenario is refused; a hand-edited one is played,
// with a warning.
TEST(CampaignCli, StateFilesKnowTheirScenario) {
  test::TempDir dir;
  ASSERT_EQ(RunCli({"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders",
                    test::BundledOrders("01-axis-may-i-1940.json"), "--out", dir.Path("1.json")})
                .code,
            0);
  json state = json::parse(test::ReadFile(dir.Path("1.json")));
  state["scenario"]["sha256"] = std::string(64, '0');
  test::WriteFile(dir.Path("other.json"), state.dump(1));
  const auto other = RunCli({"supply", "--state", dir.Path("other.json"), "--all"});
  EXPECT_EQ(other.code, 2);
  EXPECT_NE(other.err.find("scenario"), std::string::npos) << other.err;

  state = json::parse(test::ReadFile(dir.Path("1.json")));
  state["game"]["srp"]["british"] = 1;
  test::WriteFile(dir.Path("edited.json"), state.dump(1));
  const auto edited = RunCli({"supply", "--state", dir.Path("edited.json"), "--all"});
  EXPECT_EQ(edited.code, 0) << edited.err;
  EXPECT_NE(edited.err.find("edited by hand"), std::string::npos) << edited.err;
}

// A state file (solo play) carries a SHA-256 of its content: a file as written loads quietly; a
// value edited by hand, even one outside the game's state, loads with a warning naming the file
// and "state_edited" in the answer; a new layout of the same content is no edit; a version-1
// file (before the content hash) loads as before, judged by its state hash.
TEST(CampaignCli, StateFilesFlagHandEdits) {
  test::TempDir dir;
  const auto wrote =
      RunCli({"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders",
              test::BundledOrders("01-axis-may-i-1940.json"), "--out", dir.Path("1.json")});
  ASSERT_EQ(wrote.code, 0) << wrote.err;
  const json saved = json::parse(test::ReadFile(dir.Path("1.json")));
  EXPECT_EQ(saved["version"], 2);
  EXPECT_EQ(saved["content-sha256"].get<std::string>().size(), 64u);
  auto load = [&](const std::string& name, const json& doc, int indent = 1) {
    test::WriteFile(dir.Path(name), doc.dump(indent));
    return RunCli({"supply", "--state", dir.Path(name), "--all", "--json"});
  };

  const auto as_written = RunCli({"supply", "--state", dir.Path("1.json"), "--all", "--json"});
  ASSERT_EQ(as_written.code, 0) << as_written.err;
  EXPECT_EQ(as_written.json()["state_edited"], false);
  EXPECT_EQ(as_written.err.find("edited by hand"), std::string::npos) << as_written.err;

  json edited = saved;
  edited["game"]["srp"]["british"] = 1;
  const auto srp = load("srp.json", edited);
  ASSERT_EQ(srp.code, 0) << srp.err;
  EXPECT_EQ(srp.json()["state_edited"], true);
  EXPECT_NE(srp.err.find(dir.Path("srp.json") + ": the state was edited by hand"),
            std::string::npos)
      << srp.err;

  // The scenario's path is not part of the game's state: only the content hash sees it changed.
  edited = saved;
  edited["scenario"]["path"] = dir.Path("nowhere.json");
  const auto path = load("path.json", edited);
  ASSERT_EQ(path.code, 0) << path.err;
  EXPECT_EQ(path.json()["state_edited"], true);

  const auto relaid = load("relaid.json", saved, 4);
  ASSERT_EQ(relaid.code, 0) << relaid.err;
  EXPECT_EQ(relaid.json()["state_edited"], false);

  json old = saved;
  old["version"] = 1;
  old.erase("content-sha256");
  const auto v1 = load("v1.json", old);
  ASSERT_EQ(v1.code, 0) << v1.err;
  EXPECT_EQ(v1.json()["state_edited"], false);
  old["game"]["srp"]["british"] = 1;
  const auto v1_edited = load("v1-edited.json", old);
  ASSERT_EQ(v1_edited.code, 0) << v1_edited.err;
  EXPECT_EQ(v1_edited.json()["state_edited"], true);

  // A version-2 file without its content hash is not one opsim wrote.
  json unhashed = saved;
  unhashed.erase("content-sha256");
  const auto missing = load("unhashed.json", unhashed);
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("content-sha256"), std::string::npos) << missing.err;

  // Answers from a scenario or a log say nothing of state files.
  const auto fresh = RunCli({"supply", "--scenario", "special-terrain", "--all", "--json"});
  ASSERT_EQ(fresh.code, 0) << fresh.err;
  EXPECT_FALSE(fresh.json().contains("state_edited"));
}

// B7.5: a retreat preference that is no retreat refuses the orders file with its file, line and
// JSON path (exit 2), and nothing is written.
TEST(CampaignCli, BadRetreatPreferencesNameTheirPlace) {
  test::TempDir dir;
  json orders = json::parse(test::ReadFile(test::BundledOrders("01-axis-may-i-1940.json")));
  orders["retreats"] = json::array({{{"hex", "16A:1122"}, {"prefer", {"16A:1222", "1324"}}}});
  test::WriteFile(dir.Path("orders.json"), orders.dump(1));
  const auto r = RunCli({"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders",
                         dir.Path("orders.json"), "--out", dir.Path("1.json")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("orders.json:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("/retreats/0/prefer/1: 16A:1324 is not next to 16A:1122: a retreat moves "
                       "one hex (B7.5)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.Path("1.json")));
}

// turn, check, supply, route and map say in --help that a state file is for solo play.
TEST(CampaignCli, HelpSaysStateFilesAreForSoloPlay) {
  for (const char* command : {"turn", "check", "supply", "route", "map"}) {
    const auto help = RunCli({command, "--help"});
    EXPECT_EQ(help.code, 0) << command;
    EXPECT_NE(help.out.find("for solo play"), std::string::npos) << command << "\n" << help.out;
    EXPECT_NE(help.out.find("foresee"), std::string::npos) << command << "\n" << help.out;
  }
}

// check: one order judged without applying it, for the phasing side, with its rules.
TEST(CampaignCli, CheckJudgesOneOrder) {
  const auto ok = RunCli({"check", "--scenario", "special-terrain", "--action",
                          R"({"units": ["de-9pz"], "path": ["16A:1323", "16A:1223"]})", "--json"});
  ASSERT_EQ(ok.code, 0) << ok.err;
  const json j = ok.json();
  EXPECT_EQ(j["legal"], true);
  EXPECT_EQ(j["side"], "axis");
  EXPECT_EQ(j["turn"], "May I 1940");

  // 41.A.1: with the Sloedam causeway destroyed, nothing crosses it.
  const auto closed =
      RunCli({"check", "--scenario", "special-terrain", "--set", "bridge:16A:0827/0727=destroyed",
              "--set", "unit:de-9pz=16A:0827", "--action",
              R"({"units": ["de-9pz"], "path": ["16A:0827", "16A:0727"]})", "--json"});
  ASSERT_EQ(closed.code, 0) << "an illegal order is an answer, not an error: " << closed.err;
  const json k = closed.json();
  EXPECT_EQ(k["legal"], false);
  EXPECT_EQ(k["rules"], json::array({"41.A.1"}));
  EXPECT_FALSE(k["reason"].get<std::string>().empty());

  const auto garbled = RunCli({"check", "--scenario", "special-terrain", "--action", "{units"});
  EXPECT_EQ(garbled.code, 2);
}

// supply: a hex's status, its line and its rules; --set changes the question.
TEST(CampaignCli, SupplyAnswersWithTheLineAndTheRules) {
  const auto r = RunCli(
      {"supply", "--scenario", "special-terrain", "--side", "axis", "--hex", "16A:1323", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = r.json();
  EXPECT_EQ(j["status"], "supplied");
  EXPECT_EQ(j["path"].front(), "16A:1323");
  EXPECT_EQ(j["path"].back(), j["network"]);
  EXPECT_LE(j["cost_mp"].get<double>(), 7.0);

  // Cut every way out: the same hex, surrounded by Allied hexes, is isolated.
  std::vector<std::string> args = {"supply", "--scenario", "special-terrain", "--side",
                                   "axis",   "--hex",      "16A:1323",        "--json"};
  for (const char* h : {"16A:1322", "16A:1324", "16A:1222", "16A:1223", "16A:1422", "16A:1423"}) {
    args.push_back("--set");
    args.push_back(std::string("owner:") + h + "=allied");
  }
  const auto cut = RunCli(args);
  ASSERT_EQ(cut.code, 0) << cut.err;
  EXPECT_EQ(cut.json()["status"], "isolated");
  EXPECT_FALSE(cut.json()["why"].get<std::string>().empty());

  const auto all =
      RunCli({"supply", "--scenario", "special-terrain", "--side", "allied", "--all", "--json"});
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_FALSE(all.json()["units"].empty());

  const auto bad =
      RunCli({"supply", "--scenario", "special-terrain", "--set", "owner:16A:99=x", "--all"});
  EXPECT_EQ(bad.code, 2);
}

}  // namespace
}  // namespace opsim
