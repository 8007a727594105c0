// The rule-id registry (rule_ids.h): every id is registered once, with a title, and FindRule finds
// each; a lookup is exact.
#include "opsim/core/rule_ids.h"

#include <gtest/gtest.h>

#include <set>
#include <string_view>

namespace opsim {
namespace {

TEST(RuleIdsTest, IdsAreUniqueAndTitled) {
  std::set<std::string_view> seen;
  for (const RuleInfo& r : AllRules()) {
    EXPECT_FALSE(r.id.empty());
    EXPECT_FALSE(r.title.empty()) << r.id.id;
    EXPECT_TRUE(seen.insert(r.id.id).second) << r.id.id << " is registered twice";
  }
}

TEST(RuleIdsTest, FindRuleFindsEachRegisteredId) {
  for (const RuleInfo& r : AllRules()) {
    const std::optional<RuleInfo> found = FindRule(r.id.id);
    ASSERT_TRUE(found.has_value()) << r.id.id;
    EXPECT_EQ(found->id, r.id);
    EXPECT_EQ(found->title, r.title);
  }
}

TEST(RuleIdsTest, ConstantsAreTheRegisteredIds) {
  EXPECT_EQ(FindRule("41.A.1")->id, rules::k41A1);
  EXPECT_EQ(FindRule("B14.2")->id, rules::kB14_2);
  EXPECT_EQ(FindRule("G8.2104")->id, rules::kG8_2104);
  EXPECT_EQ(FindRule("G13.4222")->id, rules::kG13_4222);
  EXPECT_EQ(FindRule("SAM-FD.3")->id, rules::kSamFD_3);
  EXPECT_EQ(FindRule("SAM-INTRO.2")->id, rules::kSamIntro_2);
  EXPECT_EQ(FindRule("B9.3")->id, rules::kAslB9_3);
}

TEST(RuleIdsTest, LookupIsExact) {
  EXPECT_FALSE(FindRule("").has_value());
  EXPECT_FALSE(FindRule("g8.2104").has_value());
  EXPECT_FALSE(FindRule("G8.2199").has_value());
  EXPECT_FALSE(FindRule("41.A").has_value());
  EXPECT_FALSE(FindRule("G8.2104 ").has_value());
}

}  // namespace
}  // namespace opsim
