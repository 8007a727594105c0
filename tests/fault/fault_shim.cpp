// An LD_PRELOAD shim that makes one write, flush or rename of an opsim process fail, in the spirit
// of SQLite's I/O error tests (fault_test.cpp drives it).
//
// Three kinds of call are counted: "write" (write, pwrite, pwrite64), "sync" (fsync, fdatasync)
// and "rename" (rename, renameat, renameat2). Writes and flushes of the standard streams (fd 0
// to 2) are not counted: the faults are for files. The environment says what to do:
//   OPSIM_FAULT_KIND=write|sync|rename and OPSIM_FAULT_AT=N: the Nth call of that kind (from 1)
//     fails, with OPSIM_FAULT_ERRNO (a number; EIO when absent), without doing anything; with
//     OPSIM_FAULT_PERSIST=1 every later call of that kind fails too (a disk that stays full);
//     with OPSIM_FAULT_KILL=1 the process is killed (SIGKILL) at that call instead, before it
//     is made (a crash, a power cut);
//   OPSIM_FAULT_COUNTS=FILE: at exit, "write W sync S rename R" (the calls made) goes there.
// Thread-safe: the counters are atomic.
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

enum Kind { kWrite, kSync, kRename, kKinds };
constexpr const char* kNames[kKinds] = {"write", "sync", "rename"};
std::atomic<long> g_calls[kKinds];

// Whether this call (the next of `kind`) is the one to fail; sets errno if so.
bool Fails(Kind kind) {
  const long n = ++g_calls[kind];
  const char* which = std::getenv("OPSIM_FAULT_KIND");
  const char* at = std::getenv("OPSIM_FAULT_AT");
  if (which == nullptr || at == nullptr || std::strcmp(which, kNames[kind]) != 0) return false;
  const long first = std::atol(at);
  if (n != first && !(n > first && std::getenv("OPSIM_FAULT_PERSIST") != nullptr)) return false;
  if (std::getenv("OPSIM_FAULT_KILL") != nullptr) ::raise(SIGKILL);
  const char* err = std::getenv("OPSIM_FAULT_ERRNO");
  errno = err != nullptr ? std::atoi(err) : EIO;
  return true;
}

template <class F>
F Next(const char* name) {
  return reinterpret_cast<F>(::dlsym(RTLD_NEXT, name));
}

__attribute__((destructor)) void ReportCounts() {
  const char* path = std::getenv("OPSIM_FAULT_COUNTS");
  if (path == nullptr) return;
  if (FILE* f = std::fopen(path, "w")) {
    std::fprintf(f, "write %ld sync %ld rename %ld\n", g_calls[kWrite].load(),
                 g_calls[kSync].load(), g_calls[kRename].load());
    std::fclose(f);
  }
}

}  // namespace

extern "C" {

ssize_t write(int fd, const void* buf, size_t n) {
  static const auto real = Next<ssize_t (*)(int, const void*, size_t)>("write");
  if (fd > 2 && Fails(kWrite)) return -1;
  return real(fd, buf, n);
}

ssize_t pwrite(int fd, const void* buf, size_t n, off_t offset) {
  static const auto real = Next<ssize_t (*)(int, const void*, size_t, off_t)>("pwrite");
  if (fd > 2 && Fails(kWrite)) return -1;
  return real(fd, buf, n, offset);
}

ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t offset) {
  static const auto real = Next<ssize_t (*)(int, const void*, size_t, off64_t)>("pwrite64");
  if (fd > 2 && Fails(kWrite)) return -1;
  return real(fd, buf, n, offset);
}

int fsync(int fd) {
  static const auto real = Next<int (*)(int)>("fsync");
  if (fd > 2 && Fails(kSync)) return -1;
  return real(fd);
}

int fdatasync(int fd) {
  static const auto real = Next<int (*)(int)>("fdatasync");
  if (fd > 2 && Fails(kSync)) return -1;
  return real(fd);
}

int rename(const char* from, const char* to) {
  static const auto real = Next<int (*)(const char*, const char*)>("rename");
  if (Fails(kRename)) return -1;
  return real(from, to);
}

int renameat(int from_dir, const char* from, int to_dir, const char* to) {
  static const auto real = Next<int (*)(int, const char*, int, const char*)>("renameat");
  if (Fails(kRename)) return -1;
  return real(from_dir, from, to_dir, to);
}

int renameat2(int from_dir, const char* from, int to_dir, const char* to, unsigned flags) {
  static const auto real = Next<int (*)(int, const char*, int, const char*, unsigned)>("renameat2");
  if (Fails(kRename)) return -1;
  return real(from_dir, from, to_dir, to, flags);
}

}  // extern "C"
