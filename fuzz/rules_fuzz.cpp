// Rules files, as a scenario's `campaign.rules` carries them: every table, the combat table's
// kind, die, columns and result codes among them (ops::LoadRuleTables).
#include "fuzz_support.h"
#include "opsim/core/json_source.h"
#include "opsim/ops/tables.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opsim;
  auto src = JsonSource::FromText(std::string(fuzz::AsText(data, size)), "fuzz.json");
  if (!src) return 0;
  auto tables = ops::LoadRuleTables(*src);
  if (!tables) return 0;
  // Every result of a table that loads names one of its codes.
  for (const auto& row : tables->combat.results) {
    for (ops::CombatResult r : row) {
      if (r.code >= tables->combat.codes.size()) __builtin_trap();
    }
  }
  return 0;
}
