// `opsim check`: would one order be legal now, and by which rules? The order is played on a
// copy of the game with its next seeded dice; the game itself is not changed.
//
// Pure function of the LoadedGame and the order; thread-safe.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "opsim/query/source.h"

namespace opsim::query {

struct CheckAnswer {
  bool legal = false;
  std::vector<std::string>
      rules;  // legal: every rule its events name, sorted; else the refusing one
  std::vector<ops::Event> events;  // legal: what the order did (not the weather, supply or dice)
  std::string reason;              // not legal: why
  std::string side;                // the phasing side, who would give the order
  std::string turn;                // the game date
};

// `action` is one order as a JSON object in the orders file's syntax (docs/orders-format.md).
// An order the rules forbid is an answer (legal false); a malformed one is kInvalidInput.
Result<CheckAnswer> AnswerCheck(const LoadedGame& g, const std::string& action);
nlohmann::json ToJson(const CheckAnswer& a);

}  // namespace opsim::query
