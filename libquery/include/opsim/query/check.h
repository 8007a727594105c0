// `opsim check`: would one order, or a whole orders file, be legal, and with what odds? The
// orders are played for planning (ops::Game::Probe) on a copy of the game: in the present
// weather, and never with the game's dice. Every die is enumerated instead, so an attack or a
// flood attempt is answered with the exact odds of each result, and no die is revealed or
// consumed. The game itself is not changed.
//
// The player-turn judged is that of the side now moving, or with `side` the next player-turn
// of that side from the present position: the same map, units, weather and dice, the date of
// that player-turn (the next game turn's for the side that moves first), as though the other
// side's player-turn in between did nothing.
//
// Pure function of the LoadedGame and the orders; thread-safe. The game played on is borrowed
// from the LoadedGame's WarmCache, with the ground routers earlier checks built.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "opsim/core/json_source.h"
#include "opsim/query/source.h"

namespace opsim::query {

// An exact probability: numerator over denominator.
struct Chance {
  std::uint64_t numerator = 0;
  std::uint64_t denominator = 1;
  double probability() const { return static_cast<double>(numerator) / denominator; }
};

// One roll's odds: each result of its table, given that the roll is made against `against`.
struct RollOdds {
  std::string purpose;  // "combat at 16A:1122"
  RuleId rule;
  std::string against;  // "12 to 4, column 3:1 shifted -1 (rough) to 2:1"; may be empty
  std::vector<std::pair<std::string, Chance>> results;  // every result of the table, in order
  Chance rolled;  // how likely the roll is made at all (earlier dice may decide it is not)
};

// The dice enumerated: the odds of every roll, each distinct outcome of a die explored once.
// When more than `max_plays` player-turns would be needed, `complete` is false and `odds`
// empty.
struct Odds {
  static constexpr int kMaxPlays = 4096;  // the bound opsim check uses
  int max_plays = kMaxPlays;
  bool complete = true;
  std::vector<RollOdds> odds;
};

struct CheckAnswer {
  bool legal = false;
  std::vector<std::string>
      rules;  // legal: every rule its events and rolls name, sorted; else the refusing one
  // legal: what the order did before any die (not the weather, supply or dice); what follows a
  // die depends on it and is in `odds`
  std::vector<ops::Event> events;
  std::string reason;  // not legal: why
  std::string side;    // who would give the order
  std::string turn;    // the date of that side's player-turn
  Odds odds;           // legal: the odds of each roll the order makes
};

// `action` is one order as a JSON object in the orders file's syntax (docs/orders-format.md).
// An order the rules forbid is an answer (legal false); a malformed one is kInvalidInput.
// `max_plays` bounds the player-turns played to enumerate the dice.
Result<CheckAnswer> AnswerCheck(const LoadedGame& g, const std::string& action,
                                std::optional<Side> side = std::nullopt,
                                int max_plays = Odds::kMaxPlays);
nlohmann::json ToJson(const CheckAnswer& a);

// The dry run of an orders file: every order judged in turn as `opsim turn` would play it.
// A refused order is left out and the orders after it are judged without it. Each attack is
// resolved for every outcome of its die, so the orders after it are judged after each
// outcome; a problem met only after some outcomes says how likely it is.
struct OrderVerdict {
  std::string where;            // "orders.json:12: /combat/0"
  std::string what;             // "movement", "attack on 16A:1122", ...
  std::vector<Error> problems;  // none: legal
};
struct DryRunAnswer {
  std::string side;
  std::string turn;
  std::vector<OrderVerdict> orders;
  std::vector<std::pair<Error, Chance>> problems;  // every problem, first met first
  Odds odds;
  bool legal() const { return problems.empty(); }
};

// A malformed file is an error (kInvalidInput), as for `opsim turn`; refused orders are in
// the answer.
Result<DryRunAnswer> AnswerDryRun(const LoadedGame& g, const JsonSource& orders,
                                  std::optional<Side> side = std::nullopt,
                                  int max_plays = Odds::kMaxPlays);
nlohmann::json ToJson(const DryRunAnswer& a);

}  // namespace opsim::query
