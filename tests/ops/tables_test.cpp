// The base rules as data: the compiled-in tables load, and a bad rules file is refused with
// its line.
#include <gtest/gtest.h>

#include "opsim/ops/tables.h"

namespace opsim::ops {
extern const char* const kBaseRulesJson;
namespace {

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

Error Broken(const std::string& text) {
  auto src = JsonSource::FromText(text, "r.json");
  EXPECT_TRUE(src);
  auto t = LoadRuleTables(*src);
  EXPECT_FALSE(t);
  return t ? Error{} : t.error();
}

TEST(RuleTables, DefaultsLoad) {
  const RuleTables& t = DefaultRuleTables();
  const auto clear = static_cast<int>(map::Terrain::kClear);
  EXPECT_EQ(t.movement.terrain[clear][0], 2);
  EXPECT_EQ(t.movement.terrain[static_cast<int>(map::Terrain::kAllSea)][0], kProhibited);
  EXPECT_EQ(t.movement.road, 1);
  EXPECT_EQ(t.movement.major_river[0], 4);
  EXPECT_EQ(t.naval.sea_hex, 1);
}

TEST(RuleTables, CostsComeInHalfMps) {
  const Error e = Broken(Replace(kBaseRulesJson, "\"road\": 0.5", "\"road\": 0.3"));
  EXPECT_NE(e.message.find("steps of 1/2"), std::string::npos) << e.to_string();
  EXPECT_NE(e.where.find(": /movement/road"), std::string::npos) << e.where;
}

TEST(RuleTables, EveryTerrainNeedsARow) {
  const Error e = Broken(Replace(kBaseRulesJson, "\"rough\": [2, 2, 3],", ""));
  EXPECT_NE(e.message.find("missing required key 'rough'"), std::string::npos) << e.to_string();
}

TEST(RuleTables, NewerFormatRefused) {
  const Error e = Broken(Replace(kBaseRulesJson, "\"version\": 1", "\"version\": 7"));
  EXPECT_EQ(e.code, ErrorCode::kUnsupported);
}

// B7.3: a result in the table must be one of the codes; the error lists them.
TEST(RuleTables, AResultMustBeADefinedCode) {
  const Error e =
      Broken(Replace(kBaseRulesJson, "[\"AE\", \"AE\", \"AR\"", "[\"AE\", \"XX\", \"AR\""));
  EXPECT_NE(e.message.find("'XX' is not a code of combat.codes (AE AR EX DR DE)"),
            std::string::npos)
      << e.to_string();
  EXPECT_NE(e.where.find(": /combat/results/0/1"), std::string::npos) << e.where;
}

TEST(RuleTables, ACodesEffectsAreChecked) {
  const Error both = Broken(Replace(kBaseRulesJson, "{\"code\": \"AR\", \"attacker-retreat\": 1}",
                                    "{\"code\": \"AR\", \"attacker-retreat\": 1, "
                                    "\"defender-retreat\": 1}"));
  EXPECT_NE(both.message.find("only one side retreats"), std::string::npos) << both.to_string();
  const Error exchange = Broken(Replace(kBaseRulesJson, "{\"code\": \"EX\", \"exchange\": true}",
                                        "{\"code\": \"EX\", \"exchange\": true, "
                                        "\"defender-loss\": 1}"));
  EXPECT_NE(exchange.message.find("an exchange sets both sides' losses"), std::string::npos)
      << exchange.to_string();
  const Error share = Broken(Replace(kBaseRulesJson, "{\"code\": \"AE\", \"attacker-loss\": 1}",
                                     "{\"code\": \"AE\", \"attacker-loss\": 1.5}"));
  EXPECT_NE(share.where.find(": /combat/codes/0/attacker-loss"), std::string::npos) << share.where;
  const Error twice = Broken(Replace(kBaseRulesJson, "{\"code\": \"AR\",", "{\"code\": \"AE\","));
  EXPECT_NE(twice.message.find("result code 'AE' is defined twice"), std::string::npos)
      << twice.to_string();
  const Error far =
      Broken(Replace(kBaseRulesJson, "\"attacker-retreat\": 1", "\"attacker-retreat\": 9"));
  EXPECT_NE(far.where.find(": /combat/codes/1/attacker-retreat"), std::string::npos) << far.where;
}

// B7.2: one row per face of the table's die; columns written for its kind.
TEST(RuleTables, TheTableFitsItsDieAndKind) {
  const Error rows =
      Broken(Replace(kBaseRulesJson, "\"die\": 6,\n    \"codes\"", "\"die\": 10,\n    \"codes\""));
  EXPECT_NE(rows.message.find("one row per face of the die (10)"), std::string::npos)
      << rows.to_string();
  const Error kind =
      Broken(Replace(kBaseRulesJson, "\"kind\": \"odds\"", "\"kind\": \"differential\""));
  EXPECT_NE(kind.message.find("written like \"-2\", \"0\" or \"+3\""), std::string::npos)
      << kind.to_string();
  EXPECT_NE(kind.where.find(": /combat/columns/0"), std::string::npos) << kind.where;
  const Error odd = Broken(Replace(kBaseRulesJson, "\"kind\": \"odds\"", "\"kind\": \"ratio\""));
  EXPECT_NE(odd.where.find(": /combat/kind"), std::string::npos) << odd.where;
}

}  // namespace
}  // namespace opsim::ops
