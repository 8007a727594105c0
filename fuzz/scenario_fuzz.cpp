// Scenario files, as `--scenario FILE` reads them: the theater, then the campaign.
#include "fuzz_support.h"
#include "opsim/core/json_source.h"
#include "opsim/map/scenario.h"
#include "opsim/ops/campaign.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opsim;
  auto src = JsonSource::FromText(std::string(fuzz::AsText(data, size)), "fuzz.json");
  if (!src) return 0;
  auto scenario = map::LoadScenario(*src);
  if (!scenario || !src->doc().contains("campaign")) return 0;
  (void)ops::LoadCampaign(*src, *scenario, 1);
  return 0;
}
