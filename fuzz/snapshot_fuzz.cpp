// Snapshot bytes, as a turn log's snapshot rows are read (db/snapshot.h), in every format, against
// the bundled theater (the lengths a snapshot may claim are the theater's).
#include "fuzz_support.h"
#include "opsim/db/snapshot.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The first byte picks the format a row would name (0 to 3, then out of range); the rest is
  // the data column.
  if (size == 0) return 0;
  const int format = data[0] % 5;
  (void)opsim::db::LoadSnapshot(opsim::fuzz::AsText(data + 1, size - 1), format,
                                *opsim::fuzz::BundledGame().theater,
                                opsim::fuzz::BundledGame().campaign->tables);
  return 0;
}
