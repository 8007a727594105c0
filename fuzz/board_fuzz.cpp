// Tactical board files, as `opsim tactical ... --board FILE` reads them.
#include "fuzz_support.h"
#include "opsim/tactical/board_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)opsim::tactical::ParseBoard(std::string(opsim::fuzz::AsText(data, size)), "fuzz.json");
  return 0;
}
