// `opsim supply`: is it in supply (B8)? One hex with the line traced and why not, or every unit
// of a side.
//
// Pure functions of the LoadedGame; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "opsim/query/source.h"

namespace opsim::query {

struct SupplyHexAnswer {
  Side side = Side::kAllied;
  map::HexRef hex;
  ops::SupplyTrace trace;
};
Result<SupplyHexAnswer> AnswerSupplyAt(const LoadedGame& g, Side side, std::string_view hex);
nlohmann::json ToJson(const map::Theater& t, const SupplyHexAnswer& a);

struct UnitSupply {
  std::string id, name;
  map::HexRef hex;
  ops::SupplyStatus status = ops::SupplyStatus::kSupplied;
};
struct SupplyAllAnswer {
  Side side = Side::kAllied;
  std::vector<UnitSupply> units;  // the side's units on the map, in the game's order
};
Result<SupplyAllAnswer> AnswerSupplyAll(const LoadedGame& g, Side side);
nlohmann::json ToJson(const map::Theater& t, const SupplyAllAnswer& a);

}  // namespace opsim::query
