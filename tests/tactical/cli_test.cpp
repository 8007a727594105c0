// `opsim tactical ...` as a command line: help that helps, one JSON object with --json, text
// that names the rules, and one clear error (exit 2) for an unknown hex or an impossible request.
#include <gtest/gtest.h>

#include "tactical_test_util.h"

namespace opsim::tactical {
namespace {

using opsim::test::RunCli;
using test::Cli;

// Every command's --help says what it does, its options and an example.
TEST(TacticalCli, HelpForEachCommand) {
  const std::pair<const char*, const char*> commands[] = {
      {"move", "--path"},      {"los", "--attack"},         {"panji-setup", "--hip"},
      {"beach-dyo", "--seed"}, {"samurai-move", "--order"}, {"loss-test", "--models"}};
  for (auto [cmd, option] : commands) {
    const auto r = RunCli({"tactical", cmd, "--help"});
    EXPECT_EQ(r.code, 0) << cmd;
    EXPECT_NE(r.out.find(option), std::string::npos) << cmd << "\n" << r.out;
    EXPECT_NE(r.out.find("Example"), std::string::npos) << cmd << "\n" << r.out;
    EXPECT_NE(r.out.find(std::string("opsim tactical ") + cmd), std::string::npos) << cmd << "\n"
                                                                                   << r.out;
  }
  const auto group = RunCli({"tactical", "--help"});
  EXPECT_EQ(group.code, 0);
  for (const char* cmd : {"move", "los", "panji-setup", "beach-dyo", "samurai-move", "loss-test"}) {
    EXPECT_NE(group.out.find(cmd), std::string::npos) << cmd;
  }
}

// Text output names the rule behind each charge and each refusal.
TEST(TacticalCli, TextNamesTheRules) {
  const auto ok = RunCli({"tactical", "move", "--board", test::BoardPath("g8_2108"), "--paddy",
                          "in-season", "--path", "oL3:bank,oM3"});
  EXPECT_EQ(ok.code, 0);
  EXPECT_NE(ok.out.find("[G8.2106]"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("[G8.2]"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("2½ MF in total"), std::string::npos) << ok.out;
  const auto no = RunCli({"tactical", "move", "--board", test::BoardPath("g8_2108"), "--paddy",
                          "drained", "--unit", "truck", "--path", "oM5,oM4"});
  EXPECT_EQ(no.code, 0);
  EXPECT_NE(no.out.find("illegal: [G8.2]"), std::string::npos) << no.out;
  EXPECT_EQ(no.out.find("unit after:"), std::string::npos) << no.out;
  // A unit changed by its move says how it ends (G9.31, G8.2111).
  const auto broken = RunCli({"tactical", "move", "--board", test::BoardPath("g8_2108"), "--paddy",
                              "drained", "--path", "oL3:bank,+broken"});
  EXPECT_NE(broken.out.find("unit after: infantry+broken"), std::string::npos) << broken.out;
  const auto los = RunCli({"tactical", "los", "--board", test::BoardPath("g8_2108"), "--paddy",
                           "in-season", "--from", "A", "--to", "oK2"});
  EXPECT_NE(los.out.find("[G8.4]"), std::string::npos) << los.out;
}

// With --json, one JSON object on stdout, for answers and errors alike.
TEST(TacticalCli, JsonIsOneObject) {
  const std::vector<std::vector<std::string>> runs = {
      {"--json", "tactical", "move", "--board", test::BoardPath("g8_2108"), "--paddy", "drained",
       "--path", "oM5,oM4"},
      {"--json", "tactical", "los", "--board", test::BoardPath("g9_3"), "--from", "A", "--to", "B"},
      {"--json", "tactical", "panji-setup", "--board", test::BoardPath("g9_3")},
      {"--json", "tactical", "loss-test", "--models", "3", "--seed", "1"},
      {"--json", "tactical", "samurai-move", "--unit", "ninja", "--order", "march", "--path",
       "plains,river"},
      {"--json", "tactical", "move", "--board", test::BoardPath("g8_2108"), "--paddy", "drained",
       "--path", "oZ9"},
  };
  for (const auto& args : runs) {
    const auto r = RunCli(args);
    const auto doc = nlohmann::json::parse(r.out);  // throws (fails) on anything but one document
    EXPECT_TRUE(doc.is_object());
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1);  // one line
  }
}

// An unknown hex, a step to a hex that is not adjacent, a place the hex lacks, an unknown unit
// kind or setting: one clear error, exit 2.
TEST(TacticalCli, ImpossibleRequests) {
  const std::string g8 = test::BoardPath("g8_2108");
  struct Case {
    std::vector<std::string> args;
    std::string where;
    std::string what;
  };
  const Case cases[] = {
      {{"move", "--board", g8, "--paddy", "drained", "--path", "oM5,oZ4"}, "oZ4", "hex 'oZ4'"},
      {{"move", "--board", g8, "--paddy", "drained", "--path", "oM5,oJ1"}, "oJ1", "not adjacent"},
      {{"move", "--board", g8, "--paddy", "drained", "--path", "oM5:bank"},
       "oM5:bank",
       "not a paddy hex"},
      {{"move", "--board", g8, "--paddy", "drained", "--path", "oL3:roof"}, "oL3:roof", "place"},
      {{"move", "--board", g8, "--paddy", "drained", "--path", "oL3,oL3"}, "oL3", "already"},
      {{"move", "--board", g8, "--paddy", "drained", "--path", "oL3,+dance"},
       "+dance",
       "unknown action"},
      {{"move", "--board", g8, "--paddy", "wet", "--path", "oL3"}, "wet", "--paddy"},
      {{"move", "--board", g8, "--paddy", "drained", "--unit", "tank", "--path", "oL3"},
       "tank",
       "--unit"},
      {{"los", "--board", g8, "--paddy", "drained", "--from", "Z", "--to", "A"}, "Z", "hex 'Z'"},
      {{"los", "--board", g8, "--paddy", "drained", "--from", "A", "--to", "C", "--attack", "nuke"},
       "nuke",
       "--attack"},
      {{"samurai-move", "--unit", "samurai", "--order", "march", "--path", "plains"},
       "samurai",
       "--unit"},
      {{"samurai-move", "--unit", "ninja", "--order", "march", "--path", "plains,lava"},
       "lava",
       "samurai-era terrain"},
      {{"samurai-move", "--unit", "ninja", "--order", "march", "--board",
        test::BoardPath("samurai"), "--path", "A1,C3"},
       "C3",
       "not adjacent"},
  };
  for (const Case& c : cases) {
    const auto doc = Cli(c.args, 2);
    ASSERT_TRUE(doc.contains("error")) << c.args.back();
    EXPECT_NE(doc["error"].value("where", "").find(c.where), std::string::npos) << doc.dump();
    EXPECT_NE(doc["error"]["message"].get<std::string>().find(c.what), std::string::npos)
        << doc.dump();
  }
  // Required options missing: CLI11's own message, still one JSON object and exit 2.
  const auto missing = Cli({"move", "--path", "oL3"}, 2);
  EXPECT_NE(missing["error"]["message"].get<std::string>().find("--board"), std::string::npos);
}

}  // namespace
}  // namespace opsim::tactical
