// State files, as `--state FILE` reads them: the scenario it names, then the state against the
// bundled theater.
#include "fuzz_support.h"
#include "opsim/core/json_source.h"
#include "opsim/ops/state_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opsim;
  const auto& game = fuzz::BundledGame();
  auto src = JsonSource::FromText(std::string(fuzz::AsText(data, size)), "fuzz.json");
  if (!src) return 0;
  if (!ops::ReadStateScenario(*src)) return 0;
  (void)ops::StateFromJson(*src, *game.theater, game.campaign->tables);
  return 0;
}
