// The opsim executable: everything lives in cli.cpp, so tests can run it in-process. Here is only
// what belongs to the process: its signals, its standard streams, and the last resort.
#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <exception>
#include <iostream>

#include "cli.h"

namespace {

// Exit code of an internal error (ExitCodeFor(kInternal)), for what escapes every reader.
constexpr int kInternalExit = 70;

void LastResort() {
  constexpr char kLine[] = "opsim: internal error: the command stopped unexpectedly (a bug)\n";
  (void)!::write(STDERR_FILENO, kLine, sizeof kLine - 1);
  std::_Exit(kInternalExit);
}

}  // namespace

int main(int argc, char** argv) {
  // Past `ulimit -f` a write fails with EFBIG, reported with its file, instead of killing the
  // process mid-commit; a closed pipe fails a write with EPIPE instead of killing it after a
  // commit.
  std::signal(SIGXFSZ, SIG_IGN);
  std::signal(SIGPIPE, SIG_IGN);
  // A closed standard stream is reopened on /dev/null read-only, so that no file opsim opens
  // takes its number (and receives its output), and a write to it still fails.
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
    if (::fcntl(fd, F_GETFD) < 0 && ::open("/dev/null", O_RDONLY) != fd) return kInternalExit;
  }
  std::set_terminate(LastResort);
  try {
    const int code = opsim::cli::Run(argc, argv, std::cout, std::cerr);
    if (!std::cout.flush() && code == 0) {
      std::cerr << "opsim: stdout is closed: the answer was not printed, or not all of it; the "
                   "command succeeded, and what it wrote or committed stands\n";
    }
    return code;
  } catch (const std::exception& e) {
    std::cerr << "opsim: internal error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "opsim: internal error: an unknown exception\n";
  }
  return kInternalExit;
}
