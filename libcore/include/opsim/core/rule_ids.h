// The registry of every rule id opsim cites, in one place, each with a short title.
//
// Rule 41's clauses and the tactical chapters (ASL G8, G9, G13) carry the book's own ids; the
// samurai-era terrain chapter has none, so opsim numbers its statements SAM-*.n (docs/tactical.md).
// opsim's base rules (which the spec does not hold) are numbered B1..B15 and written out in
// docs/rules.md; each B id here names one paragraph there. Explanations and refusals cite these
// constants, never a spelled-out id: a misspelt constant does not compile. The lists themselves
// live in rule_list_campaign.h and rule_list_tactical.h. Everything here is constant data, safe to
// read from any thread.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "opsim/core/rule_list_campaign.h"
#include "opsim/core/rule_list_tactical.h"

namespace opsim {

// A game rule's own id, as the book writes it: "41.A.1", "41.E.4", "G8.2104", or one of opsim's
// base rules ("B5.3", see docs/rules.md). A view of a string literal or a theater-owned string.
// It converts to std::string for the records that carry a rule as text (Error::rule, the tactical
// module's notes).
struct RuleId {
  std::string_view id;
  friend bool operator==(RuleId, RuleId) = default;
  bool empty() const { return id.empty(); }
  operator std::string() const { return std::string(id); }
};

// A registered rule: its id and a short title in our own words.
struct RuleInfo {
  RuleId id;
  std::string_view title;
};

// The registered rule with this exact id, if any ("G8.2104" finds; "g8.2104" and "G8.2199" do not).
std::optional<RuleInfo> FindRule(std::string_view id);

// Every registered rule: the campaign's (Rule 41, then B1..B15), then the tactical chapters'.
std::span<const RuleInfo> AllRules();

}  // namespace opsim

namespace opsim::rules {

#define OPSIM_RULE_CONSTANT(name, id, title) inline constexpr RuleId name{id};
OPSIM_CAMPAIGN_RULES(OPSIM_RULE_CONSTANT)
OPSIM_TACTICAL_RULES(OPSIM_RULE_CONSTANT)
#undef OPSIM_RULE_CONSTANT

}  // namespace opsim::rules
