// A turn log's rows as `opsim replay --verify` reads them: the bytes are the log file.
//
// The reader takes a path, so each input is written to one scratch file on tmpfs (/dev/shm,
// else $TMPDIR), owned by this process and removed at exit.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fuzz_support.h"
#include "opsim/db/game_log.h"

namespace {

struct Scratch {
  std::string path;
  Scratch() {
    const char* tmp = std::getenv("TMPDIR");
    const std::filesystem::path dir = std::filesystem::is_directory("/dev/shm")
                                          ? std::filesystem::path("/dev/shm")
                                          : std::filesystem::path(tmp ? tmp : "/tmp");
    path = (dir / ("opsim-fuzz-log-" + std::to_string(getpid()) + ".sqlite")).string();
  }
  ~Scratch() { Remove(); }
  void Remove() const {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
      std::error_code ec;
      std::filesystem::remove(path + suffix, ec);
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Scratch scratch;
  scratch.Remove();
  {
    std::ofstream out(scratch.path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) std::abort();
  }
  opsim::db::ReplayOptions options;
  options.verify = true;
  (void)opsim::db::ReplayLog(scratch.path, options);
  return 0;
}
