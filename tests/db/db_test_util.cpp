#include "db_test_util.h"

#include <pty.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "opsim/query/play.h"
#include "test_support.h"

namespace opsim::test {

namespace {

struct Conn {
  sqlite3* db = nullptr;
  explicit Conn(const std::string& path) {
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
    sqlite3_busy_timeout(db, 2000);
  }
  ~Conn() { sqlite3_close_v2(db); }
};

// Reads everything `fd` gives until it closes.
std::string ReadAll(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

}  // namespace

std::string Sql(const std::string& path, const std::string& sql) {
  Conn c(path);
  char* err = nullptr;
  const int rc = sqlite3_exec(c.db, sql.c_str(), nullptr, nullptr, &err);
  std::string msg = rc == SQLITE_OK ? "" : (err ? err : sqlite3_errstr(rc));
  sqlite3_free(err);
  return msg;
}

std::string SqlValue(const std::string& path, const std::string& sql) {
  Conn c(path);
  sqlite3_stmt* st = nullptr;
  std::string out;
  if (sqlite3_prepare_v2(c.db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != nullptr) {
    out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  }
  sqlite3_finalize(st);
  return out;
}

std::string DumpLog(const std::string& path) {
  Conn c(path);
  std::ostringstream out;
  for (const char* q :
       {"SELECT * FROM meta ORDER BY key", "SELECT * FROM game", "SELECT * FROM turn ORDER BY seq",
        "SELECT * FROM roll ORDER BY seq", "SELECT * FROM event ORDER BY seq",
        "SELECT * FROM phase ORDER BY seq", "SELECT * FROM snapshot ORDER BY seq"}) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(c.db, q, -1, &st, nullptr) != SQLITE_OK) {
      out << q << ": " << sqlite3_errmsg(c.db) << "\n";
      continue;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
      for (int i = 0; i < sqlite3_column_count(st); ++i) {
        const void* p = sqlite3_column_blob(st, i);
        out << std::string(static_cast<const char*>(p ? p : ""),
                           static_cast<std::size_t>(sqlite3_column_bytes(st, i)))
            << '|';
      }
      out << '\n';
    }
    sqlite3_finalize(st);
  }
  return out.str();
}

std::string InChild(const std::function<std::string()>& body, int* status) {
  int fds[2];
  if (::pipe(fds) != 0) std::abort();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    const std::string out = body();
    const ssize_t n = ::write(fds[1], out.data(), out.size());
    ::_exit(n == static_cast<ssize_t>(out.size()) ? 0 : 1);
  }
  ::close(fds[1]);
  std::string out = ReadAll(fds[0]);
  ::close(fds[0]);
  int st = 0;
  ::waitpid(pid, &st, 0);
  if (status) *status = st;
  return out;
}

Child::Child(const std::function<void(const std::function<void()>& ready)>& body) {
  int fds[2];
  if (::pipe(fds) != 0) std::abort();
  pid_ = ::fork();
  if (pid_ == 0) {
    ::close(fds[0]);
    body([fd = fds[1]] {
      const char c = 'r';
      if (::write(fd, &c, 1) != 1) ::_exit(3);
      for (;;) ::pause();
    });
    ::_exit(2);  // the body returned without reaching ready()
  }
  ::close(fds[1]);
  char c = 0;
  ready_ = ::read(fds[0], &c, 1) == 1;
  ::close(fds[0]);
}

Child::~Child() {
  if (pid_ > 0) Kill();
}

int Child::Kill() {
  ::kill(pid_, SIGKILL);
  int st = 0;
  ::waitpid(pid_, &st, 0);
  pid_ = -1;
  return st;
}

ProcessRun RunOpsim(const std::vector<std::string>& args, bool tty) {
  int out[2], err[2] = {-1, -1};
  if (::pipe(out) != 0 || (!tty && ::pipe(err) != 0)) std::abort();
  int pty = -1;
  const pid_t pid = tty ? ::forkpty(&pty, nullptr, nullptr, nullptr) : ::fork();
  if (pid == 0) {
    std::vector<char*> argv = {const_cast<char*>(OPSIM_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::dup2(out[1], STDOUT_FILENO);
    if (!tty) ::dup2(err[1], STDERR_FILENO);
    ::close(out[0]);
    ::close(out[1]);
    if (!tty) ::close(err[0]), ::close(err[1]);
    ::execv(OPSIM_BINARY, argv.data());
    ::_exit(127);
  }
  ::close(out[1]);
  if (!tty) ::close(err[1]);
  ProcessRun r;
  r.out = ReadAll(out[0]);  // the child's stdout closes when it exits
  r.err = ReadAll(tty ? pty : err[0]);
  ::close(out[0]);
  ::close(tty ? pty : err[0]);
  int st = 0;
  ::waitpid(pid, &st, 0);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

void MakeWorldWritable(const std::string& dir) {
  ::chmod(dir.c_str(), 0777);
}

bool DropRoot() {
  if (::geteuid() != 0) return true;
  return ::setgid(65534) == 0 && ::setuid(65534) == 0;
}

ops::GameState HandBuiltState(const map::Theater* theater) {
  ops::GameState s;
  s.start = ops::GameDate{1942, 1, 1};
  s.first = Side::kAxis;
  s.player_turn = 5;
  if (theater) {
    s.map = map::MapState(*theater);
    s.map.SetOwner(*theater, map::HexRef{0}, Owner::kAxis);
    s.map.SetOwner(*theater, map::HexRef{1}, Owner::kAllied);
    if (!theater->weather_zones().empty()) s.map.SetFrozen(0, true);
  }
  s.map.SetSuez(map::CanalStatus::kTemporarilyClosed);
  s.map.SetFlood(map::HexRef{3}, map::Flood{map::FloodKind::kMassive, 2, 5});
  s.map.SetFlood(map::HexRef{4}, map::Flood{map::FloodKind::kProhibited, 4, 8});
  s.map.SetAirbaseDamage(map::HexRef{3}, 2);
  s.map.SetPortDamage(map::HexRef{3}, 3);
  s.map.SetIceAirfield(map::HexRef{6}, true);
  s.map.AddMarker(map::HexRef{3}, "massively-flooded");
  s.map.SetBridgeDestroyed(map::HexsideRef{7}, true);  // since snapshot format 2
  s.map.SetBridgeDestroyed(map::HexsideRef{11}, true);
  ops::GroundUnit u;
  u.id = "ge-7pz";
  u.name = "7th Panzer";
  u.side = Side::kAxis;
  u.nationality = "german";
  u.type = opsim::test::BaseType("armor");
  u.attack = 10;
  u.defense = 8;
  u.mp = 10;
  u.re_halves = 6;
  u.hex = map::HexRef{0};
  u.supply = ops::SupplyStatus::kOutOfSupply;
  u.extra_mp_marker = 3;
  u.dropped_in = 4;
  s.units.push_back(u);
  u.id = "uk-1inf";
  u.name = "1st Infantry";
  u.side = Side::kAllied;
  u.nationality = "british";
  u.type = opsim::test::BaseType("infantry");
  u.status = ops::UnitStatus::kEliminated;
  u.supply = ops::SupplyStatus::kIsolated;
  u.dropped_in = -1;
  s.units.push_back(u);
  ops::AirUnit a;
  a.id = "ge-jg26";
  a.name = "JG 26";
  a.nationality = "german";
  a.base = map::HexRef{6};
  s.air.push_back(a);
  ops::NavalUnit n;
  n.id = "uk-tf1";
  n.name = "Force H";
  n.nationality = "british";
  n.kind = ops::NavalKind::kTaskForce;
  n.hex = map::HexRef{2};
  n.area = 1;
  n.at_sea = true;
  s.naval.push_back(n);
  s.srp = {{"dutch", 3}, {"british", 12}};
  s.exit_totals = {{"soviet-east", 14}};
  s.weather = {ops::Weather::kSnow, ops::Weather::kMud};
  s.netherlands_surrendered = true;
  s.seed = 42;
  s.dice = 0x0123456789abcdefULL;
  return s;
}

db::LoggedTurn HandBuiltTurn(std::int32_t number, int rolls, int events) {
  db::LoggedTurn t;
  t.number = number;
  t.serial = number - 1;
  t.side = number % 2 == 1 ? "axis" : "allied";
  t.date = "Jan I 1942";
  t.orders = R"({"side":")" + t.side + R"(","turn":"Jan I 1942"})";
  for (int i = 0; i < rolls; ++i) {
    t.rolls.push_back({1 + (number + i) % 6, 6, i == 0, "combat 16A:09" + std::to_string(20 + i),
                       "B7.2", i % 2 ? "DR" : "AR"});
  }
  for (int i = 0; i < events; ++i) {
    t.events.push_back({"move",
                        "B4.1",
                        "unit " + std::to_string(i) + " moves",
                        {"u" + std::to_string(i)},
                        {"16A:0920", "16A:0921"},
                        {i, -1}});
  }
  for (const char* p : {"initial", "movement", "combat", "exploitation"}) {
    t.phases.push_back({p, std::string(64, static_cast<char>('a' + number % 6))});
  }
  t.final_hash = std::string(64, static_cast<char>('a' + number % 6));
  return t;
}

std::string LakeScenario() {
  nlohmann::json s = nlohmann::json::parse(ReadFile(BundledPath("special-terrain")));
  s["campaign"]["start"] = "Feb I 1940";
  s["state"]["frozen-zones"] = {"A"};
  for (nlohmann::json& sheet : s["sheets"]) {
    if (sheet["name"] != "16A") continue;
    // The grids start at 16A:0114: 16A:1421 is row 21 - 14, column 14 - 1.
    std::string row = sheet["terrain"][7];
    row[13] = '=';
    sheet["terrain"][7] = row;
  }
  return s.dump();
}

Result<nlohmann::json> SubmitHosted(const std::string& address, const JsonSource& orders) {
  query::Source source;
  source.db = address;
  auto game = query::Load(source);
  if (!game) return std::unexpected(game.error());
  return query::SubmitOrders(*game, address, orders);
}

}  // namespace opsim::test
