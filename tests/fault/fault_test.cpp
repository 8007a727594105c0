// Issue 10: a failed write never costs a game, and opsim never says a turn failed when it was
// committed, nor the reverse. The real opsim binary runs as a child:
// - with every write, flush and rename of `turn --db` and of `turn --out` failing in turn
//   (ENOSPC, EIO, EFBIG; fault_shim.cpp), in the spirit of SQLite's I/O error tests;
// - under a file-size limit (setrlimit(RLIMIT_FSIZE)) with SIGXFSZ at its default, which killed
//   it (exit 153) before;
// - with its stdout a closed pipe, or closed, after a committed turn.
// Each time: exit 0 if and only if the turn is in the log, else exit 5 and the log as it was;
// `replay --verify` passes; no file is left beside the log or the --out file.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>

#include <gtest/gtest.h>

#include "opsim/server/api.h"
#include "test_support.h"

namespace opsim {
namespace {

namespace fs = std::filesystem;
using test::ReadFile;

const std::string kOrders = OPSIM_SCENARIO_DIR "/orders/special-terrain/01-axis-may-i-1940.json";

enum class Stdout { kFile, kClosedPipe, kClosed };

struct Child {
  int code = -1;   // the exit code, or -1 if a signal ended it
  int signal = 0;  // the signal that ended it
  std::string out, err;
};

struct Launch {
  std::map<std::string, std::string> env;
  std::optional<rlim_t> file_size_limit;
  std::optional<rlim_t> memory_limit;  // RLIMIT_AS
  Stdout out = Stdout::kFile;
  bool shim = false;
};

// Runs opsim `args` as a child, with SIGXFSZ and SIGPIPE at their defaults (never ignored here:
// opsim itself must cope).
Child Spawn(const test::TempDir& scratch, const std::vector<std::string>& args,
            const Launch& how = {}) {
  const std::string out_path = scratch.Path("child.out"), err_path = scratch.Path("child.err");
  int pipe_fds[2] = {-1, -1};
  if (how.out == Stdout::kClosedPipe && ::pipe(pipe_fds) != 0) ADD_FAILURE() << "pipe";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_DFL);
    ::signal(SIGPIPE, SIG_DFL);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(err, STDERR_FILENO);
    ::close(err);
    if (how.out == Stdout::kFile) {
      const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(out, STDOUT_FILENO);
      ::close(out);
    } else if (how.out == Stdout::kClosedPipe) {
      ::dup2(pipe_fds[1], STDOUT_FILENO);
      ::close(pipe_fds[0]);
      ::close(pipe_fds[1]);
    } else {
      ::close(STDOUT_FILENO);
    }
    if (how.file_size_limit) {
      const rlimit lim{*how.file_size_limit, *how.file_size_limit};
      ::setrlimit(RLIMIT_FSIZE, &lim);
    }
    if (how.memory_limit) {
      const rlimit lim{*how.memory_limit, *how.memory_limit};
      ::setrlimit(RLIMIT_AS, &lim);
    }
    for (const auto& [k, v] : how.env) ::setenv(k.c_str(), v.c_str(), 1);
    if (how.shim) ::setenv("LD_PRELOAD", OPSIM_FAULT_SHIM, 1);
    std::vector<char*> argv{const_cast<char*>(OPSIM_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(OPSIM_BINARY, argv.data());
    ::_exit(127);
  }
  if (how.out == Stdout::kClosedPipe) {
    ::close(pipe_fds[0]);  // nobody reads: the child's first write to stdout fails
    ::close(pipe_fds[1]);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  Child c;
  if (WIFEXITED(status)) c.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) c.signal = WTERMSIG(status);
  c.out = how.out == Stdout::kFile ? ReadFile(out_path) : "";
  c.err = ReadFile(err_path);
  fs::remove(out_path);
  fs::remove(err_path);
  return c;
}

// The files in `dir` other than the child's own output and SQLite's own beside a log (its WAL
// and shared memory, which a reader may leave).
std::vector<std::string> Files(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename();
    if (name == "child.out" || name == "child.err" || name.ends_with(".sqlite-wal") ||
        name.ends_with(".sqlite-shm")) {
      continue;
    }
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// `db` a copy of `pristine`, with no WAL of an earlier run beside it.
// Starts a log of the bundled scenario at `db` (seed 1940); the exit code of `opsim new`.
int NewLog(const test::TempDir& scratch, const std::string& db) {
  return Spawn(scratch, {"new", "--scenario", "special-terrain", "--db", db, "--seed", "1940"})
      .code;
}

void Fresh(const std::string& pristine, const std::string& db) {
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(db + suffix);
  fs::copy_file(pristine, db);
}

// A log's player-turns and state hash, as `opsim status --json` says.
std::pair<int, std::string> Head(const test::TempDir& scratch, const std::string& db) {
  const Child c = Spawn(scratch, {"status", "--db", db, "--json"});
  EXPECT_EQ(c.code, 0) << c.err;
  const auto j = nlohmann::json::parse(c.out, nullptr, false);
  if (!j.is_object() || !j.contains("turns_logged") || !j.contains("state_hash")) {
    ADD_FAILURE() << "status: " << c.out;
    return {-1, ""};
  }
  return {j["turns_logged"].get<int>(), j["state_hash"].get<std::string>()};
}

// The calls of each kind `args` makes, counted by the shim (the run exits `code`).
std::map<std::string, long> CountCalls(const test::TempDir& scratch,
                                       const std::vector<std::string>& args, int code = 0) {
  Launch how;
  how.shim = true;
  how.env["OPSIM_FAULT_COUNTS"] = scratch.Path("counts");
  const Child c = Spawn(scratch, args, how);
  EXPECT_EQ(c.code, code) << c.err;
  std::istringstream in(ReadFile(scratch.Path("counts")));
  fs::remove(scratch.Path("counts"));
  std::map<std::string, long> counts;
  std::string kind;
  long n = 0;
  while (in >> kind >> n) counts[kind] = n;
  return counts;
}

// Which calls of a kind to fail: all of them up to kMax, else kMax spread over them, always with
// the first and the last (the commit's last write and flush are the ones that matter most).
std::vector<long> Sample(long count, long kMax = 64) {
  std::vector<long> at;
  for (long i = 0; i < std::min(count, kMax); ++i) {
    at.push_back(count <= kMax ? i + 1 : 1 + i * (count - 1) / (kMax - 1));
  }
  return at;
}

constexpr std::pair<int, const char*> kErrnos[] = {
    {ENOSPC, "ENOSPC"}, {EIO, "EIO"}, {EFBIG, "EFBIG"}};

// Each call of each kind fails in turn with each errno; then with ENOSPC from there on, as on a
// disk that stays full (also through the checkpoint when the log is closed).
TEST(Fault, EveryWriteFlushAndRenameOfALoggedTurnFailsInTurn) {
  test::TempDir scratch, game;
  const std::string pristine = scratch.Path("pristine.sqlite"), db = game.Path("g.sqlite");
  ASSERT_EQ(NewLog(scratch, pristine), 0);
  const auto before = Head(scratch, pristine);
  const std::vector<std::string> turn = {"turn", "--db", db, "--orders", kOrders};
  Fresh(pristine, db);
  const auto counts = CountCalls(game, turn);
  ASSERT_GT(counts.at("write"), 0);
  ASSERT_GT(counts.at("sync"), 0);
  const auto after = Head(scratch, db);
  ASSERT_EQ(after.first, before.first + 1);

  const auto start = std::chrono::steady_clock::now();
  int runs = 0, committed = 0;
  for (const bool persist : {false, true}) {
    for (const auto& [kind, count] : counts) {
      for (long at : Sample(count)) {
        for (const auto& [err, err_name] : kErrnos) {
          if (persist && err != ENOSPC) continue;
          const std::string what =
              kind + " #" + std::to_string(at) + " " + err_name + (persist ? " and after" : "");
          Fresh(pristine, db);
          Launch how;
          how.shim = true;
          how.env = {{"OPSIM_FAULT_KIND", kind},
                     {"OPSIM_FAULT_AT", std::to_string(at)},
                     {"OPSIM_FAULT_ERRNO", std::to_string(err)}};
          if (persist) how.env["OPSIM_FAULT_PERSIST"] = "1";
          const Child c = Spawn(game, turn, how);
          ++runs;
          ASSERT_TRUE(c.code == 0 || c.code == 5)
              << what << ": exit " << c.code << " signal " << c.signal << "\n"
              << c.err;
          const auto head = Head(scratch, db);
          if (c.code == 0) {
            ++committed;
            EXPECT_EQ(head, after) << what << ": reported committed, but the log says otherwise";
          } else {
            EXPECT_EQ(head, before) << what << ": reported failed, but the log changed";
            EXPECT_NE(c.err.find(db), std::string::npos) << what << ": " << c.err;
            EXPECT_EQ(std::count(c.err.begin(), c.err.end(), '\n'), 1) << what << ": " << c.err;
          }
          const Child verify = Spawn(scratch, {"replay", "--db", db, "--verify"});
          EXPECT_EQ(verify.code, 0) << what << ": " << verify.err;
          EXPECT_EQ(Files(game.dir()), std::vector<std::string>{"g.sqlite"}) << what;
        }
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ fault    ] turn --db: " << runs << " injected failures (write "
            << counts.at("write") << ", sync " << counts.at("sync") << ", rename "
            << counts.at("rename") << " calls), " << committed << " still committed, " << seconds
            << " s\n";
}

TEST(Fault, EveryWriteFlushAndRenameOfAnOutFileFailsInTurn) {
  test::TempDir scratch, dir;
  const std::string out = dir.Path("t1.json");
  auto turn = [&](const char* seed) {
    return std::vector<std::string>{"turn",     "--scenario", "special-terrain", "--seed", seed,
                                    "--orders", kOrders,      "--out",           out};
  };
  ASSERT_EQ(Spawn(scratch, turn("7")).code, 0);
  const std::string old_text = ReadFile(out);
  const auto counts = CountCalls(dir, turn("1940"));
  const std::string new_text = ReadFile(out);
  ASSERT_NE(old_text, new_text);
  ASSERT_GT(counts.at("write"), 0);
  ASSERT_EQ(counts.at("sync"), 2);  // the file, then its folder after the rename
  ASSERT_EQ(counts.at("rename"), 1);

  int runs = 0;
  for (const auto& [kind, count] : counts) {
    for (long at : Sample(count)) {
      for (const auto& [err, err_name] : kErrnos) {
        const std::string what = kind + " #" + std::to_string(at) + " " + err_name;
        test::WriteFile(out, old_text);
        Launch how;
        how.shim = true;
        how.env = {{"OPSIM_FAULT_KIND", kind},
                   {"OPSIM_FAULT_AT", std::to_string(at)},
                   {"OPSIM_FAULT_ERRNO", std::to_string(err)}};
        const Child c = Spawn(scratch, turn("1940"), how);
        ++runs;
        EXPECT_EQ(c.code, 5) << what << ": signal " << c.signal << "\n" << c.err;
        EXPECT_NE(c.err.find(out), std::string::npos) << what << ": " << c.err;
        EXPECT_NE(c.err.find(std::strerror(err)), std::string::npos) << what << ": " << c.err;
        // Only the folder's flush comes after the rename: the new file is whole, the old gone.
        const bool after_rename = kind == "sync" && at == 2;
        EXPECT_EQ(ReadFile(out), after_rename ? new_text : old_text) << what;
        EXPECT_EQ(Files(dir.dir()), std::vector<std::string>{"t1.json"}) << what;
      }
    }
  }
  std::cout << "[ fault    ] turn --out: " << runs << " injected failures\n";
}

// Runs opsim `args` as Spawn does, killed (SIGKILL) by the shim at its `at`th call of `kind`.
Child SpawnKilledAt(const test::TempDir& scratch, const std::vector<std::string>& args,
                    const std::string& kind, long at) {
  Launch how;
  how.shim = true;
  how.env = {{"OPSIM_FAULT_KIND", kind},
             {"OPSIM_FAULT_AT", std::to_string(at)},
             {"OPSIM_FAULT_KILL", "1"}};
  return Spawn(scratch, args, how);
}

void Empty(const std::string& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
}

// Issue 22: a process killed while it makes a log (`opsim new`, `opsim branch`) left its
// `.partial-PID` files beside it, 6 times in 20. Killed (SIGKILL) at each write, flush and
// rename in turn: the log is whole or absent, and the next `new` or `branch` of that log sweeps
// what the dead process left, so that the folder then holds the log alone.
TEST(Fault, AProcessKilledWhileMakingALogLeavesNothingAfterTheNextSweep) {
  test::TempDir scratch, dir;
  const std::string source = scratch.Path("source.sqlite"), db = dir.Path("g.sqlite");
  ASSERT_EQ(NewLog(scratch, source), 0);
  ASSERT_EQ(Spawn(scratch, {"turn", "--db", source, "--orders", kOrders}).code, 0);
  const std::vector<std::vector<std::string>> makers = {
      {"new", "--scenario", "special-terrain", "--db", db, "--seed", "1940"},
      {"branch", "--db", source, "--at", "1", "--out", db}};
  int runs = 0, whole = 0;
  for (const auto& make : makers) {
    Empty(dir.dir());  // the maker before left its log in place
    const auto counts = CountCalls(scratch, make);
    ASSERT_GT(counts.at("rename"), 0) << make[0];
    for (const auto& [kind, count] : counts) {
      for (long at : Sample(count, 12)) {
        const std::string what = make[0] + ": killed at " + kind + " #" + std::to_string(at);
        Empty(dir.dir());
        const Child killed = SpawnKilledAt(scratch, make, kind, at);
        ++runs;
        ASSERT_EQ(killed.signal, SIGKILL) << what << ": exit " << killed.code << "\n" << killed.err;
        if (fs::exists(db)) {
          ++whole;
          const Child verify = Spawn(scratch, {"replay", "--db", db, "--verify"});
          EXPECT_EQ(verify.code, 0) << what << ": a log in place that is not whole\n" << verify.err;
        }
        // The next attempt sweeps: it makes the log, or refuses the one in place (exit 2).
        const Child again = Spawn(scratch, make);
        EXPECT_TRUE(again.code == 0 || again.code == 2) << what << ": " << again.err;
        EXPECT_EQ(Files(dir.dir()), std::vector<std::string>{"g.sqlite"}) << what;
      }
    }
  }
  std::cout << "[ fault    ] new, branch: killed " << runs << " times, the log whole and in place "
            << whole << " times\n";
}

// Under `ulimit -f` the child, SIGXFSZ at its default, was killed (exit 153) without a word, at
// one limit after its turn was committed. Each limit from below the log's size to past what the
// turn writes: exit 0 with the turn committed, or exit 5 naming the file, the log as it was.
TEST(Fault, AFileSizeLimitIsAnIoErrorNamingTheFileNeverASignal) {
  test::TempDir scratch, game;
  const std::string pristine = scratch.Path("pristine.sqlite"), db = game.Path("g.sqlite");
  ASSERT_EQ(NewLog(scratch, pristine), 0);
  const auto before = Head(scratch, pristine);
  const auto size = static_cast<rlim_t>(fs::file_size(pristine));
  int committed = 0, refused = 0;
  for (rlim_t limit = size / 2; limit <= size * 3; limit += size / 8) {
    Fresh(pristine, db);
    Launch how;
    how.file_size_limit = limit;
    const Child c = Spawn(game, {"turn", "--db", db, "--orders", kOrders}, how);
    const std::string what = "limit " + std::to_string(limit);
    ASSERT_EQ(c.signal, 0) << what << ": killed by signal " << c.signal;
    ASSERT_TRUE(c.code == 0 || c.code == 5) << what << ": exit " << c.code << "\n" << c.err;
    const auto head = Head(scratch, db);
    if (c.code == 0) {
      ++committed;
      EXPECT_EQ(head.first, before.first + 1) << what;
    } else {
      ++refused;
      EXPECT_EQ(head, before) << what;
      EXPECT_NE(c.err.find(db), std::string::npos) << what << ": " << c.err;
      EXPECT_NE(c.err.find("ulimit -f"), std::string::npos) << what << ": " << c.err;
    }
    EXPECT_EQ(Spawn(scratch, {"replay", "--db", db, "--verify"}).code, 0) << what;
    EXPECT_EQ(Files(game.dir()), std::vector<std::string>{"g.sqlite"}) << what;
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(committed, 0);

  // A new log past the limit: exit 5 naming it, no log and no .partial-PID file left.
  for (rlim_t limit : {rlim_t{4096}, size / 4, size / 2}) {
    Launch small;
    small.file_size_limit = limit;
    const std::string fresh = game.Path("new.sqlite");
    const Child c = Spawn(
        game, {"new", "--scenario", "special-terrain", "--db", fresh, "--seed", "1940"}, small);
    EXPECT_EQ(c.signal, 0) << "limit " << limit;
    EXPECT_EQ(c.code, 5) << "limit " << limit << ": " << c.err;
    EXPECT_NE(c.err.find("ulimit -f"), std::string::npos) << c.err;
    EXPECT_EQ(Files(game.dir()), std::vector<std::string>{"g.sqlite"}) << "limit " << limit;
  }

  // An --out file past the limit: exit 5 naming it, nothing left beside it.
  const std::string out = game.Path("t1.json");
  Launch how;
  how.file_size_limit = 4096;
  const Child c = Spawn(game,
                        {"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders",
                         kOrders, "--out", out},
                        how);
  EXPECT_EQ(c.signal, 0);
  EXPECT_EQ(c.code, 5) << c.err;
  EXPECT_NE(c.err.find(out), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("ulimit -f"), std::string::npos) << c.err;
  EXPECT_EQ(Files(game.dir()), std::vector<std::string>{"g.sqlite"});
}

// The turn is committed before its report is printed: a reader gone since must not make opsim
// say it failed, nor kill it (SIGPIPE).
TEST(Fault, AClosedStdoutAfterACommittedTurnIsNotAFailure) {
  for (Stdout mode : {Stdout::kClosedPipe, Stdout::kClosed}) {
    test::TempDir scratch, game;
    const std::string db = game.Path("g.sqlite");
    ASSERT_EQ(NewLog(scratch, db), 0);
    Launch how;
    how.out = mode;
    const Child c = Spawn(scratch, {"turn", "--db", db, "--orders", kOrders}, how);
    EXPECT_EQ(c.signal, 0);
    EXPECT_EQ(c.code, 0) << c.err;
    EXPECT_NE(c.err.find("stdout is closed"), std::string::npos) << c.err;
    EXPECT_EQ(Head(scratch, db).first, 1);
    EXPECT_EQ(Spawn(scratch, {"replay", "--db", db, "--verify"}).code, 0);
  }
}

// What escapes every reader (here std::bad_alloc, past a memory limit) is one line and exit 70,
// and with --json an error object; before, the process aborted (exit 134).
TEST(Fault, AnEscapedExceptionIsOneLineAndExit70) {
  test::TempDir scratch;
  Launch how;
  how.memory_limit = rlim_t{100} << 20;
  const Child c = Spawn(
      scratch, {"--json", "generate", "--hexes", "500000", "--out", scratch.Path("big.json")}, how);
  EXPECT_EQ(c.signal, 0);
  EXPECT_EQ(c.code, 70) << c.err;
  EXPECT_EQ(std::count(c.err.begin(), c.err.end(), '\n'), 1) << c.err;
  EXPECT_NE(c.err.find("out of memory"), std::string::npos) << c.err;
  const auto j = nlohmann::json::parse(c.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << c.out;
  EXPECT_EQ(j["error"]["code"], "internal");
  EXPECT_EQ(Files(scratch.dir()), std::vector<std::string>{});
}

}  // namespace
}  // namespace opsim
