#include "opsim/query/check.h"

#include <set>

#include "opsim/ops/calendar.h"
#include "opsim/ops/orders.h"

namespace opsim::query {

using nlohmann::json;

Result<CheckAnswer> AnswerCheck(const LoadedGame& g, const std::string& action_text) {
  auto game = GameOf(g);
  if (!game) return std::unexpected(game.error());
  json action;
  try {
    action = json::parse(action_text);
  } catch (const json::parse_error& e) {
    return Fail(ErrorCode::kInvalidInput, std::string("--action is not valid JSON: ") + e.what());
  }
  if (!action.is_object()) return Fail(ErrorCode::kInvalidInput, "--action is one JSON object");
  const char* section = action.contains("attack")                                    ? "combat"
                        : action.contains("suez") || action.contains("ice-airfield") ? "initial"
                                                                                     : "movement";
  CheckAnswer a;
  a.side = SideName(game->state().phasing());
  a.turn = ops::FormatGameDate(game->state().date());
  json orders = {{"opsim", "orders"},
                 {"version", 1},
                 {"side", a.side},
                 {"turn", a.turn},
                 {section, json::array({action})}};
  auto src = JsonSource::FromText(orders.dump(), "--action");
  if (!src) return std::unexpected(src.error());
  auto parsed = ops::ParseOrders(*src, *g.theater);
  if (!parsed) return std::unexpected(parsed.error());
  auto played = game->Play(*parsed);
  if (played) {
    std::set<std::string> rules;
    for (const ops::Event& e : played->events) {
      if (e.kind == "weather" || e.kind == "supply" || e.kind == "die") continue;
      a.events.push_back(e);
      if (!e.rule.empty()) rules.insert(std::string(e.rule.id));
    }
    a.legal = true;
    a.rules.assign(rules.begin(), rules.end());
  } else if (played.error().code == ErrorCode::kRuleViolation) {
    a.rules = {played.error().rule};
    a.reason = played.error().message;
  } else {
    return std::unexpected(played.error());
  }
  return a;
}

json ToJson(const CheckAnswer& a) {
  json doc;
  if (a.legal) {
    json events = json::array();
    for (const ops::Event& e : a.events) {
      events.push_back({{"kind", e.kind}, {"rule", e.rule.id}, {"text", e.text}});
    }
    doc = {{"legal", true}, {"rules", a.rules}, {"events", events}};
  } else {
    doc = {{"legal", false}, {"rules", a.rules}, {"reason", a.reason}};
  }
  doc["side"] = a.side;
  doc["turn"] = a.turn;
  return doc;
}

}  // namespace opsim::query
