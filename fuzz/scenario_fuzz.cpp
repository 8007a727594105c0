// Scenario files, as `--scenario FILE` reads them: the theater, then the campaign; and their
// layout, as `opsim scenario format` writes it (opsim/map/scenario_layout.h): laying it out
// again changes nothing, and a file that loads loads the same once laid out (its state hash).
#include <cstdlib>

#include "fuzz_support.h"
#include "opsim/core/json_source.h"
#include "opsim/map/scenario.h"
#include "opsim/map/scenario_layout.h"
#include "opsim/ops/campaign.h"

namespace {

// The state hash `src` loads to: "" for a theater that does not load, "map" for a map only or a
// campaign that does not load.
std::string LoadedHash(const opsim::JsonSource& src) {
  auto scenario = opsim::map::LoadScenario(src);
  if (!scenario) return "";
  if (!src.doc().contains("campaign")) return "map";
  auto campaign = opsim::ops::LoadCampaign(src, *scenario, 1);
  return campaign ? opsim::ops::StateHash(campaign->initial) : "map";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opsim;
  auto src = JsonSource::FromText(std::string(fuzz::AsText(data, size)), "fuzz.json");
  if (!src) return 0;
  const std::string hash = LoadedHash(*src);
  auto laid = map::FormatScenario(*src);
  if (!laid) return 0;
  auto again = JsonSource::FromText(*laid, "fuzz.json");
  if (!again) std::abort();  // the layout is not JSON
  auto twice = map::FormatScenario(*again);
  if (!twice || *twice != *laid) std::abort();                    // not stable
  if (!hash.empty() && LoadedHash(*again) != hash) std::abort();  // another game
  return 0;
}
