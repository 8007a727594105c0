// Helpers for the turn-log tests: raw SQL on a log file (to tamper with it the way a user with
// the sqlite3 shell could), child processes (to hold locks, hit size limits, drop privileges
// and be killed), and hand-built game states.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opsim/core/json_source.h"
#include "opsim/db/turn_log.h"
#include "opsim/map/theater.h"

namespace opsim::test {

// Issue 22's lake scenario, as scenario JSON: the bundled special-terrain with 16A:1421 made a
// lake, starting Feb I 1940 with zone A frozen, so that de-18a (16A:1322) may move onto the
// lake until the first weather roll thaws it (zone A in February: C M M F F S, one in two).
std::string LakeScenario();

// Runs SQL on `path` with a connection of its own; returns "" or SQLite's error message.
std::string Sql(const std::string& path, const std::string& sql);
// The first column of the first row of a query, as text ("" if no row).
std::string SqlValue(const std::string& path, const std::string& sql);
// Every row of every table, in seq order: equal dumps mean equal logs.
std::string DumpLog(const std::string& path);

// Runs `body` in a forked child and returns what it wrote back; `status` gets the raw wait
// status. The child never returns into the test.
std::string InChild(const std::function<std::string()>& body, int* status = nullptr);

// A child process that runs `body` (which should signal readiness through `ready`) and then
// waits to be killed.
class Child {
 public:
  explicit Child(const std::function<void(const std::function<void()>& ready)>& body);
  ~Child();  // kills the child with SIGKILL if it still runs
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  bool ready() const { return ready_; }  // it reached ready() before dying
  int Kill();                            // SIGKILL, then its wait status

 private:
  int pid_ = -1;
  bool ready_ = false;
};

// Runs the built opsim executable (a new process) and returns its exit code. With `tty`, its
// stderr is a pseudo-terminal, as when a player runs it in a terminal.
struct ProcessRun {
  int code = -1;
  std::string out;
  std::string err;
};
ProcessRun RunOpsim(const std::vector<std::string>& args, bool tty = false);

// Permissions for a child that drops root to test read-only files.
void MakeWorldWritable(const std::string& dir);
// In a child: stop being root (a read-only file is only read-only to others).
bool DropRoot();

// A game state with something in every field; `theater` sizes the map arrays (none: empty).
ops::GameState HandBuiltState(const map::Theater* theater);

// A player-turn's rows as a hand-built log would have them.
db::LoggedTurn HandBuiltTurn(std::int32_t number, int rolls, int events);

// A hosted game's orders submitted as its server submits them (query::SubmitOrders), checked
// first on the game loaded from the log at `address`.
Result<nlohmann::json> SubmitHosted(const std::string& address, const JsonSource& orders);

}  // namespace opsim::test
