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
  EXPECT_EQ(t.movement.terrain[clear][static_cast<int>(MoveClass::kFoot)], 2);
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

}  // namespace
}  // namespace opsim::ops
