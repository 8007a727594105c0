// `opsim check` as a planning query: exact odds instead of a die (B7.2, B7.4, 41.A.4.a), the
// dry run of an orders file (`--orders`), and planning by the waiting side (`--side`).
#include <gtest/gtest.h>

#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;
using test::RunCli;

// The results of one roll of a check answer's odds, as "AE 1/6, AR 2/6, ...".
std::string Results(const json& roll) {
  std::string out;
  for (const json& r : roll["results"]) {
    out += (out.empty() ? "" : ", ") + r["result"].get<std::string>() + " " +
           std::to_string(r["numerator"].get<int>()) + "/" +
           std::to_string(r["denominator"].get<int>());
  }
  return out;
}

// The rolls of an answer's odds whose purpose is `purpose`.
std::vector<json> Rolls(const json& answer, const std::string& purpose) {
  std::vector<json> out;
  for (const json& r : answer["odds"]["rolls"]) {
    if (r["purpose"] == purpose) out.push_back(r);
  }
  return out;
}

// B7.2, B7.4: an attack is answered with the CRT's exact odds and no result. 16A:1122 is
// canal-intensive (-1): 4 to 3 is the 1:1 column shifted to 1:2, whose column reads AE, AR,
// AR, EX, DR, DR for the dice 1 to 6.
TEST(CheckCli, AnAttackAnswersTheExactOddsB7_2) {
  const std::vector<std::string> args = {"check",
                                         "--scenario",
                                         "special-terrain",
                                         "--set",
                                         "unit:de-18a=16A:1222",
                                         "--action",
                                         R"({"attack": "16A:1122", "units": ["de-18a"]})"};
  std::vector<std::string> with_json = args;
  with_json.push_back("--json");
  const test::CliRun r = RunCli(with_json);
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = r.json();
  EXPECT_EQ(j["legal"], true);
  EXPECT_EQ(j["odds"]["complete"], true);
  const std::vector<json> combat = Rolls(j, "combat at 16A:1122");
  ASSERT_EQ(combat.size(), 1u) << j.dump();
  EXPECT_EQ(combat[0]["rule"], "B7.2");
  EXPECT_EQ(combat[0]["against"], "4 to 3, column 1:1 shifted -1 (canal-intensive) to 1:2");
  EXPECT_EQ(Results(combat[0]), "AE 1/6, AR 2/6, EX 1/6, DR 2/6, DE 0/6");
  EXPECT_EQ(combat[0]["rolled"]["numerator"], 1);
  EXPECT_EQ(combat[0]["rolled"]["denominator"], 1);
  // No die, no result: nothing after the die is told.
  EXPECT_TRUE(j["events"].empty()) << j.dump();
  EXPECT_EQ(j.dump().find("rolled 1"), std::string::npos);

  const test::CliRun text = RunCli(args);
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("combat at 16A:1122 (B7.2), 4 to 3, column 1:1 shifted -1 "
                          "(canal-intensive) to 1:2: AE 17%, AR 33%, EX 17%, DR 33%, DE 0%"),
            std::string::npos)
      << text.out;
}

// B10.1: check neither reads nor advances the game's dice: the state file is unchanged, and
// the next player-turn rolls the same dice as it would have without the check.
TEST(CheckCli, ConsumesNoDie) {
  test::TempDir dir;
  const test::CliRun first =
      RunCli({"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders",
              test::BundledOrders("01-axis-may-i-1940.json"), "--out", dir.Path("1.json")});
  ASSERT_EQ(first.code, 0) << first.err;
  const std::string before = test::ReadFile(dir.Path("1.json"));
  test::WriteFile(dir.Path("copy.json"), before);

  const test::CliRun dry = RunCli({"check", "--state", dir.Path("1.json"), "--orders",
                                   test::BundledOrders("02-allied-may-i-1940.json"), "--json"});
  ASSERT_EQ(dry.code, 0) << dry.err;
  EXPECT_EQ(test::ReadFile(dir.Path("1.json")), before);

  const test::CliRun checked = RunCli({"turn", "--state", dir.Path("1.json"), "--orders",
                                       test::BundledOrders("02-allied-may-i-1940.json"), "--out",
                                       dir.Path("2.json"), "--json"});
  const test::CliRun unchecked = RunCli({"turn", "--state", dir.Path("copy.json"), "--orders",
                                         test::BundledOrders("02-allied-may-i-1940.json"), "--out",
                                         dir.Path("2b.json"), "--json"});
  ASSERT_EQ(checked.code, 0) << checked.err;
  ASSERT_EQ(unchecked.code, 0) << unchecked.err;
  EXPECT_EQ(checked.json()["rolls"], unchecked.json()["rolls"]);
  EXPECT_EQ(checked.json()["final_hash"], unchecked.json()["final_hash"]);
}

// 41.A.4.a: the flood attempt's odds on the success table (d6 +2 in the Netherlands: totals 3
// to 8 read F, F, S, S, S*, S*); B7.2: the attack after the move, from the units' new hexes,
// at 18 to 3 (6:1), shifted -1 by the canal-intensive hex or, once flooded, by swamp, and with
// F's -1 to the die. At 5:1 the dice 1 to 6 read DR, DR, DE, DE, DE, DE (B7.4).
TEST(CheckCli, DryRunMovesThenAttacksWithTheFloodsOdds41A4a) {
  const test::CliRun r = RunCli({"check", "--scenario", "special-terrain", "--orders",
                                 test::BundledOrders("01-axis-may-i-1940.json"), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = r.json();
  EXPECT_EQ(j["legal"], true);
  EXPECT_EQ(j["orders"].size(), 5u);
  for (const json& o : j["orders"]) EXPECT_EQ(o["legal"], true) << o.dump();

  const std::vector<json> flood = Rolls(j, "flooding of 16A:1122");
  ASSERT_EQ(flood.size(), 1u) << j.dump();
  EXPECT_EQ(flood[0]["rule"], "41.A.4.a");
  EXPECT_EQ(Results(flood[0]), "F* 0/3, F 1/3, S 1/3, S* 1/3");

  const std::vector<json> combat = Rolls(j, "combat at 16A:1122");
  ASSERT_EQ(combat.size(), 2u) << j.dump();
  EXPECT_EQ(combat[0]["against"],
            "18 to 3, column 6:1 shifted -1 (canal-intensive) to 5:1, die -1");
  EXPECT_EQ(Results(combat[0]), "AE 0/2, AR 0/2, EX 0/2, DR 1/2, DE 1/2");
  EXPECT_EQ(combat[0]["rolled"]["numerator"], 1);
  EXPECT_EQ(combat[0]["rolled"]["denominator"], 3);
  EXPECT_EQ(combat[1]["against"], "18 to 3, column 6:1 shifted -1 (swamp) to 5:1");
  EXPECT_EQ(Results(combat[1]), "AE 0/3, AR 0/3, EX 0/3, DR 1/3, DE 2/3");
  EXPECT_EQ(combat[1]["rolled"]["numerator"], 2);
  EXPECT_EQ(combat[1]["rolled"]["denominator"], 3);
}

// The dry run lists every problem, each with its file:line, JSON path and rule, and judges the
// orders after a refused one without it: B4.10 (a unit moves once a phase), B7.1 (attackers
// must be next to the hex; a hex is attacked once a player-turn). Exit 3, as `turn` would.
TEST(CheckCli, DryRunListsEveryProblemB4_10_B7_1) {
  test::TempDir dir;
  const std::string file = dir.Path("orders.json");
  test::WriteFile(file, R"({
  "opsim": "orders",
  "version": 1,
  "side": "axis",
  "turn": "May I 1940",
  "movement": [
    {"units": ["de-18a"], "path": ["16A:1322", "16A:1222"]},
    {"units": ["de-18a"], "path": ["16A:1222", "16A:1221"]}
  ],
  "combat": [
    {"attack": "16A:1122", "units": ["de-9pz"]},
    {"attack": "16A:1122", "units": ["de-18a"]},
    {"attack": "16A:1122", "units": ["de-18a"]}
  ]
}
)");
  const test::CliRun r =
      RunCli({"check", "--scenario", "special-terrain", "--orders", file, "--json"});
  EXPECT_EQ(r.code, 3) << r.err;
  const json j = r.json();
  EXPECT_EQ(j["legal"], false);
  ASSERT_EQ(j["orders"].size(), 5u);
  const json& o = j["orders"];
  EXPECT_EQ(o[0]["legal"], true);
  EXPECT_EQ(o[1]["where"], file + ":8: /movement/1");
  ASSERT_EQ(o[1]["problems"].size(), 1u);
  EXPECT_EQ(o[1]["problems"][0]["rule"], "B4.10");
  EXPECT_EQ(o[2]["where"], file + ":11: /combat/0");
  ASSERT_EQ(o[2]["problems"].size(), 1u);
  EXPECT_EQ(o[2]["problems"][0]["rule"], "B7.1");
  // The refused attack by de-9pz is left out, so de-18a's attack is the hex's first.
  EXPECT_EQ(o[3]["legal"], true);
  EXPECT_FALSE(o[4]["legal"]);
  EXPECT_EQ(o[4]["problems"][0]["rule"], "B7.1");
  EXPECT_GE(j["problems"].size(), 3u);
  for (const json& p : j["problems"]) {
    EXPECT_FALSE(p["where"].get<std::string>().empty()) << p.dump();
    EXPECT_FALSE(p["rule"].get<std::string>().empty()) << p.dump();
  }

  const test::CliRun text = RunCli({"check", "--scenario", "special-terrain", "--orders", file});
  EXPECT_EQ(text.code, 3);
  EXPECT_NE(text.out.find(file + ":8: /movement/1: move de-18a: refused: "), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("[B4.10]"), std::string::npos) << text.out;

  test::WriteFile(dir.Path("bad.json"), "{\"opsim\": \"orders\"");
  EXPECT_EQ(
      RunCli({"check", "--scenario", "special-terrain", "--orders", dir.Path("bad.json")}).code, 2);
}

// The dry run judges the orders after an attack after each of its outcomes: on a DR the
// defender of 16A:1122 retreats into 16A:1021 (B7.5), on a DE it is gone, and an attack on
// 16A:1021 then has no enemy to attack (B7.1). The DR comes with 1/3 * 1/2 (after F) + 2/3 *
// 1/3 (after S or S*) = 7/18, so the refusal is met after the other 11/18.
TEST(CheckCli, DryRunSaysHowLikelyAProblemIsB7_1) {
  test::TempDir dir;
  json orders = json::parse(test::ReadFile(test::BundledOrders("01-axis-may-i-1940.json")));
  orders["combat"].push_back({{"attack", "16A:1021"}, {"units", {"de-61"}}});
  test::WriteFile(dir.Path("orders.json"), orders.dump(1));
  const test::CliRun r =
      RunCli({"check", "--scenario", "special-terrain", "--set", "unit:de-61=16A:0922", "--orders",
              dir.Path("orders.json"), "--json"});
  EXPECT_EQ(r.code, 3) << r.err;
  const json j = r.json();
  ASSERT_EQ(j["problems"].size(), 1u) << j.dump();
  EXPECT_EQ(j["problems"][0]["rule"], "B7.1");
  EXPECT_EQ(j["problems"][0]["chance"]["numerator"], 11);
  EXPECT_EQ(j["problems"][0]["chance"]["denominator"], 18);
  const std::vector<json> second = Rolls(j, "combat at 16A:1021");
  ASSERT_EQ(second.size(), 1u) << j.dump();
  EXPECT_EQ(second[0]["rolled"]["numerator"], 7);
  EXPECT_EQ(second[0]["rolled"]["denominator"], 18);
}

// B1.2: only the phasing side gives orders, but the waiting side may plan its next
// player-turn with --side: at the start (the Axis to move in May I 1940) the Allies plan
// theirs, in the same game turn; the Axis, with the Allies to move, plan May II 1940's.
TEST(CheckCli, TheWaitingSidePlansB1_2) {
  const std::string move = R"({"units": ["nl-1"], "path": ["16A:1122", "16A:1022"]})";
  const test::CliRun now =
      RunCli({"check", "--scenario", "special-terrain", "--action", move, "--json"});
  ASSERT_EQ(now.code, 0) << now.err;
  EXPECT_EQ(now.json()["legal"], false);
  EXPECT_EQ(now.json()["rules"], json::array({"B1.2"}));

  const test::CliRun planned = RunCli(
      {"check", "--scenario", "special-terrain", "--side", "allied", "--action", move, "--json"});
  ASSERT_EQ(planned.code, 0) << planned.err;
  const json p = planned.json();
  EXPECT_EQ(p["legal"], true) << p.dump();
  EXPECT_EQ(p["side"], "allied");
  EXPECT_EQ(p["turn"], "May I 1940");

  test::TempDir dir;
  ASSERT_EQ(RunCli({"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders",
                    test::BundledOrders("01-axis-may-i-1940.json"), "--out", dir.Path("1.json")})
                .code,
            0);
  const test::CliRun axis =
      RunCli({"check", "--state", dir.Path("1.json"), "--side", "axis", "--action",
              R"({"units": ["de-9pz"], "path": ["16A:1221", "16A:1222"]})", "--json"});
  ASSERT_EQ(axis.code, 0) << axis.err;
  EXPECT_EQ(axis.json()["side"], "axis");
  EXPECT_EQ(axis.json()["turn"], "May II 1940");
  // The dry run takes --side too: the Allies' own orders, planned while the Axis moves.
  const test::CliRun allied =
      RunCli({"check", "--scenario", "special-terrain", "--side", "allied", "--orders",
              test::BundledOrders("02-allied-may-i-1940.json"), "--json"});
  EXPECT_NE(allied.code, 2) << allied.err;
  EXPECT_EQ(allied.json()["side"], "allied");
}

// Hexes of a path after the first may drop the sheet, in --action, --path and orders files, and a
// move's route as `opsim log` prints it ("16A:1323-1322-1221") pastes into an orders file.
TEST(CheckCli, PathsMayDropTheSheetAfterTheFirstHex) {
  const auto action = [](const std::string& path) {
    return RunCli({"check", "--scenario", "special-terrain", "--action",
                   R"({"units": ["de-9pz"], "path": )" + path + "}", "--json"});
  };
  const test::CliRun full = action(R"(["16A:1323", "16A:1223"])");
  const test::CliRun short_form = action(R"(["16A:1323", "1223"])");
  ASSERT_EQ(short_form.code, 0) << short_form.err;
  EXPECT_EQ(short_form.json(), full.json());

  const test::CliRun route = RunCli({"route", "--scenario", "special-terrain", "--mode", "naval",
                                     "--side", "allied", "--path", "16A:0827,0826,0825", "--json"});
  ASSERT_EQ(route.code, 0) << route.err;
  EXPECT_EQ(route.json()["failed_step"], 1);

  test::TempDir dir;
  const std::string db = dir.Path("g.sqlite");
  ASSERT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", db, "--seed", "1940"}).code, 0);
  ASSERT_EQ(
      RunCli({"turn", "--db", db, "--orders", test::BundledOrders("01-axis-may-i-1940.json")}).code,
      0);
  const test::CliRun log = RunCli({"log", "--db", db, "--json"});
  ASSERT_EQ(log.code, 0) << log.err;
  const json logged = log.json();
  std::string printed;
  for (const json& e : logged["turns"][0]["events"]) {
    const std::string text = e["text"];
    if (e["kind"] == "move" && text.starts_with("German 9th")) {
      const auto from = text.find(" moves ") + 7;
      printed = text.substr(from, text.find(" (", from) - from);
    }
  }
  ASSERT_EQ(printed, "16A:1323-1322-1221");
  json pasted = json::array();
  for (std::size_t start = 0, dash = 0; dash != std::string::npos; start = dash + 1) {
    dash = printed.find('-', start);
    pasted.push_back(printed.substr(start, dash - start));
  }
  json orders = json::parse(test::ReadFile(test::BundledOrders("01-axis-may-i-1940.json")));
  orders["movement"][1]["path"] = pasted;
  test::WriteFile(dir.Path("pasted.json"), orders.dump());
  for (const char* name : {"pasted.json", "original"}) {
    const std::string file = name == std::string("original")
                                 ? test::BundledOrders("01-axis-may-i-1940.json")
                                 : dir.Path(name);
    ASSERT_EQ(RunCli({"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders", file,
                      "--out", dir.Path(std::string(name) + ".state")})
                  .code,
              0)
        << name;
  }
  EXPECT_EQ(json::parse(test::ReadFile(dir.Path("pasted.json.state")))["hash"],
            json::parse(test::ReadFile(dir.Path("original.state")))["hash"]);
}

// A state file's scenario is looked for only beside it and among the bundled scenarios, and used
// only if it hashes to the saved SHA-256: a path elsewhere is neither opened nor echoed.
TEST(CheckCli, AStateFileReadsItsScenarioOnlyBesideItOrBundled) {
  test::TempDir dir;
  const std::string saved = dir.Path("1.json");
  ASSERT_EQ(RunCli({"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders",
                    test::BundledOrders("01-axis-may-i-1940.json"), "--out", saved})
                .code,
            0);
  const json state = json::parse(test::ReadFile(saved));
  const auto check = [&](const json& doc) {
    test::WriteFile(dir.Path("edited.json"), doc.dump(1));
    return RunCli({"check", "--state", dir.Path("edited.json"), "--action",
                   R"({"units": ["de-9pz"], "path": ["16A:1221", "16A:1222"]})", "--side", "axis",
                   "--json"});
  };
  json elsewhere = state;
  elsewhere["scenario"]["path"] = "/etc/passwd";
  const test::CliRun bundled = check(elsewhere);
  EXPECT_EQ(bundled.code, 0) << bundled.err;  // the bundled scenario of that name, unchanged

  json unknown = elsewhere;
  unknown["scenario"]["name"] = "/etc/passwd";
  const test::CliRun none = check(unknown);
  EXPECT_EQ(none.code, 2) << none.err;
  EXPECT_NE(none.err.find("neither in the state file's folder nor bundled"), std::string::npos)
      << none.err;
  EXPECT_EQ(none.err.find("last read"), std::string::npos) << none.err;

  test::WriteFile(dir.Path("special-terrain.json"), "root:x:0:0:root:/root:/bin/bash\n");
  json beside = state;
  beside["scenario"]["name"] = "other";
  beside["scenario"]["path"] = "special-terrain.json";
  const test::CliRun changed = check(beside);
  EXPECT_EQ(changed.code, 2) << changed.err;
  EXPECT_NE(changed.err.find("has changed since this state was saved"), std::string::npos)
      << changed.err;
  EXPECT_EQ(changed.err.find("root"), std::string::npos) << changed.err;

  json wrong_type = state;
  wrong_type["scenario"] = json::array();
  EXPECT_EQ(check(wrong_type).code, 2);
}

}  // namespace
}  // namespace opsim
