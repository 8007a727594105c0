// Orders files, as `opsim turn --orders FILE` reads them, against the bundled campaign.
#include "fuzz_support.h"
#include "opsim/core/json_source.h"
#include "opsim/ops/orders.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opsim;
  const auto& game = fuzz::BundledGame();
  auto src = JsonSource::FromText(std::string(fuzz::AsText(data, size)), "fuzz.json");
  if (!src) return 0;
  auto orders = ops::ParseOrders(*src, *game.theater);
  // What the log stores must read back (db::CanonicalOrders checks it on every logged turn).
  if (orders) (void)ops::OrdersToJson(*orders, *game.theater);
  return 0;
}
