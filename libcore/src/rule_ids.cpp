#include "opsim/core/rule_ids.h"

#include <algorithm>
#include <array>

namespace opsim {

namespace {

#define OPSIM_RULE_INFO(name, id, title) RuleInfo{rules::name, title},
constexpr std::array kAllRules = {OPSIM_CAMPAIGN_RULES(OPSIM_RULE_INFO)
                                      OPSIM_TACTICAL_RULES(OPSIM_RULE_INFO)};
#undef OPSIM_RULE_INFO

}  // namespace

std::optional<RuleInfo> FindRule(std::string_view id) {
  const auto it = std::ranges::find(kAllRules, id, [](const RuleInfo& r) { return r.id.id; });
  if (it == kAllRules.end()) return std::nullopt;
  return *it;
}

std::span<const RuleInfo> AllRules() {
  return kAllRules;
}

}  // namespace opsim
