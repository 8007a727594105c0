// `opsim check --action ORDER` on the bundled campaign's first player-turn.
#include "fuzz_support.h"
#include "opsim/query/check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opsim;
  (void)query::AnswerCheck(fuzz::BundledGame(), std::string(fuzz::AsText(data, size)));
  return 0;
}
