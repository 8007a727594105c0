// opsim-load: a bounded load test of a running `opsim serve` (docs/performance.md, "Server").
//
// It creates games through the API, then runs --clients clients for --seconds on 127.0.0.1,
// each on its own keep-alive connection at a fixed pace (--rate requests a second), mixing
// state reads, reach, route and check; every --submit-every seconds each game plays its next
// player-turn (the mover's orders, then the defender's reply, from the bundled orders files).
// Latency is measured from when a request was due, not when it was sent, so a slow server is
// not hidden by clients that wait for it. It prints p50/p99/max per kind of request, the
// errors, and the orders accepted against the player-turns the logs hold at the end (lost
// orders: the difference). Exit 0 if there were no errors and no lost orders.
#include <algorithm>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

struct Options {
  std::string host = "127.0.0.1";
  std::string port;
  int clients = 50;
  double seconds = 30;
  double rate = 10;  // requests a second per client
  int games = 5;
  std::string scenario = "special-terrain";
  std::string orders_dir;  // the bundled orders files, played in name order
  double submit_every = 3;
  std::string upload;  // a scenario file for one more game (the 100,000-hex theater)
};

struct Reply {
  int status = 0;
  std::string body;
};

// One keep-alive connection, reopened when the server closes it.
class Client {
 public:
  explicit Client(const Options& o) : options_(o) {}

  Reply Send(http::verb verb, const std::string& target, const std::string& token,
             const std::string& body = {}) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      try {
        if (!socket_) Open();
        http::request<http::string_body> req{verb, target, 11};
        req.set(http::field::host, options_.host);
        if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
        if (!body.empty()) req.set(http::field::content_type, "application/json");
        req.body() = body;
        req.prepare_payload();
        http::write(*socket_, req);
        http::response<http::string_body> res;
        http::read(*socket_, buffer_, res);
        if (!res.keep_alive()) socket_.reset();
        return {static_cast<int>(res.result_int()), std::move(res.body())};
      } catch (const std::exception&) {
        socket_.reset();  // the server closed an idle connection: once more on a new one
        buffer_.clear();
      }
    }
    return {0, "connection failed"};
  }

 private:
  void Open() {
    tcp::resolver resolver(io_);
    socket_.emplace(io_);
    asio::connect(*socket_, resolver.resolve(options_.host, options_.port));
  }

  const Options& options_;
  asio::io_context io_;
  std::optional<tcp::socket> socket_;
  beast::flat_buffer buffer_;
};

struct Game {
  std::string id;
  std::string axis, allied, spectator;
  std::vector<std::string> units;  // of the side to move, for reach and check
  std::vector<std::string> hexes;  // where they stand
  int next_orders = 0;             // the next orders file to play
  int accepted = 0;                // player-turns the server said it logged
  std::mutex mutex;
};

struct Stats {
  std::mutex mutex;
  std::map<std::string, std::vector<double>> latency_ms;
  std::map<std::string, int> errors;
  std::vector<std::string> samples;  // the first few error bodies

  void Add(const std::string& kind, double ms, const Reply& r, bool ok) {
    std::lock_guard lock(mutex);
    latency_ms[kind].push_back(ms);
    if (!ok) {
      ++errors[kind];
      if (samples.size() < 5) {
        samples.push_back(kind + ": " + std::to_string(r.status) + " " + r.body.substr(0, 300));
      }
    }
  }
};

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(p * v.size()));
  return v[i];
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The mover's orders and the defender's reply (docs/dice.md: the keys "reactions" and
// "retreats" are his), from one orders file; scripted dice are the hosted game's to roll.
std::pair<std::string, std::string> SplitOrders(const std::string& text) {
  json orders = json::parse(text);
  json reply = json::object();
  for (const char* key : {"reactions", "retreats"}) {
    if (orders.contains(key)) {
      reply[key] = orders[key];
      orders.erase(key);
    }
  }
  orders.erase("dice");
  return {orders.dump(), reply.dump()};
}

std::vector<std::string> OrdersFiles(const std::string& dir) {
  std::vector<std::string> files;
  if (dir.empty()) return files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::unique_ptr<Game> CreateGame(Client& c, const std::string& body) {
  const Reply r = c.Send(http::verb::post, "/api/games", {}, body);
  if (r.status != 201 && r.status != 200) {
    throw std::runtime_error("creating a game: " + std::to_string(r.status) + " " +
                             r.body.substr(0, 300));
  }
  const json j = json::parse(r.body);
  auto g = std::make_unique<Game>();
  g->id = j.at("game");
  g->axis = j.at("tokens").at("axis");
  g->allied = j.at("tokens").at("allied");
  g->spectator = j.at("tokens").at("spectator");
  return g;
}

// The side to move's units and their hexes, from the game's state.
void LearnUnits(Client& c, Game& g) {
  const Reply r = c.Send(http::verb::get, "/api/games/" + g.id + "/state", g.spectator);
  if (r.status != 200) throw std::runtime_error("state: " + r.body.substr(0, 300));
  const json s = json::parse(r.body);
  const std::string side = s.at("next").at("phasing");
  g.units.clear();
  g.hexes.clear();
  for (const auto& u : s.at("units").at("ground")) {
    if (u.at("side") == side && g.units.size() < 64) {
      g.units.push_back(u.at("id"));
      g.hexes.push_back(u.at("hex"));
    }
  }
  if (g.units.empty()) throw std::runtime_error("state: no unit of the side to move");
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--port")
      o.port = next();
    else if (a == "--clients")
      o.clients = std::stoi(next());
    else if (a == "--seconds")
      o.seconds = std::stod(next());
    else if (a == "--rate")
      o.rate = std::stod(next());
    else if (a == "--games")
      o.games = std::stoi(next());
    else if (a == "--scenario")
      o.scenario = next();
    else if (a == "--orders")
      o.orders_dir = next();
    else if (a == "--submit-every")
      o.submit_every = std::stod(next());
    else if (a == "--upload")
      o.upload = next();
    else {
      std::cerr << "usage: opsim-load --port N [--clients 50] [--seconds 30] [--rate 10] "
                   "[--games 5] [--scenario NAME] [--orders DIR] [--submit-every 3] "
                   "[--upload SCENARIO.json]\n";
      return a == "--help" ? 0 : 2;
    }
  }
  if (o.port.empty()) {
    std::cerr << "opsim-load: --port is required\n";
    return 2;
  }
  Client setup(o);
  std::vector<std::unique_ptr<Game>> games;
  for (int i = 0; i < o.games; ++i) {
    games.push_back(CreateGame(setup, json{{"scenario", o.scenario}}.dump()));
  }
  std::optional<std::size_t> big;
  if (!o.upload.empty()) {
    const auto t0 = Clock::now();
    games.push_back(CreateGame(setup, R"({"scenario_json":)" + ReadFile(o.upload) + "}"));
    big = games.size() - 1;
    std::cerr << "opsim-load: uploaded " << o.upload << " in "
              << std::chrono::duration<double>(Clock::now() - t0).count() << " s\n";
  }
  for (auto& g : games) LearnUnits(setup, *g);
  const std::vector<std::string> orders = OrdersFiles(o.orders_dir);

  Stats stats;
  std::atomic<int> submits_refused{0};
  const auto start = Clock::now();
  const auto end =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
  const auto period =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / o.rate));

  std::vector<std::thread> threads;
  for (int c = 0; c < o.clients; ++c) {
    threads.emplace_back([&, c] {
      Client client(o);
      std::mt19937 rng(static_cast<unsigned>(c) * 7919u + 1);
      // Spread the clients' first requests over one period.
      auto due = start + period * c / o.clients;
      while (due < end) {
        std::this_thread::sleep_until(due);
        Game& g = *games[static_cast<std::size_t>(c) % games.size()];
        std::vector<std::string> units, hexes;
        {
          std::lock_guard lock(g.mutex);
          units = g.units;
          hexes = g.hexes;
        }
        const std::size_t u = rng() % units.size();
        const std::string base = "/api/games/" + g.id;
        const std::string token = (c % 3 == 0) ? g.axis : (c % 3 == 1) ? g.allied : g.spectator;
        const bool on_big = big && &g == games[*big].get();
        std::string kind;
        Reply r;
        switch (rng() % 4) {
          case 0:
            kind = "state";
            r = client.Send(http::verb::get, base + "/state", token);
            break;
          case 1:
            kind = "reach";
            r = client.Send(http::verb::post, base + "/reach", token,
                            json{{"units", {units[u]}}}.dump());
            break;
          case 2:
            kind = "route";
            r = client.Send(http::verb::post, base + "/route", token,
                            json{{"from", hexes[u]}, {"to", hexes[rng() % hexes.size()]}}.dump());
            break;
          default:
            kind = "check";
            r = client.Send(http::verb::post, base + "/check", token,
                            json{{"action", {{"units", {units[u]}}, {"path", {hexes[u]}}}}}.dump());
            break;
        }
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - due).count();
        stats.Add(on_big ? kind + " (100k)" : kind, ms, r, r.status / 100 == 2);
        due += period;
      }
    });
  }
  // The submitter: each game's next player-turn, every submit_every seconds.
  std::thread submitter([&] {
    Client client(o);
    auto due = start + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(o.submit_every / 2));
    while (due < end && !orders.empty()) {
      std::this_thread::sleep_until(due);
      for (std::size_t gi = 0; gi < games.size(); ++gi) {
        if (big && gi == *big) continue;  // its orders would be the generated game's own
        Game& g = *games[gi];
        if (g.next_orders >= static_cast<int>(orders.size())) continue;
        const auto [mine, reply] = SplitOrders(ReadFile(orders[g.next_orders]));
        const bool axis_moves = json::parse(mine).value("side", "") == "axis";
        const auto t0 = Clock::now();
        const Reply a = client.Send(http::verb::post, "/api/games/" + g.id + "/orders",
                                    axis_moves ? g.axis : g.allied, mine);
        stats.Add("orders", std::chrono::duration<double, std::milli>(Clock::now() - t0).count(), a,
                  a.status / 100 == 2);
        if (a.status / 100 != 2) {
          ++submits_refused;
          continue;
        }
        const auto t1 = Clock::now();
        const Reply b = client.Send(http::verb::post, "/api/games/" + g.id + "/reply",
                                    axis_moves ? g.allied : g.axis, reply);
        stats.Add("reply", std::chrono::duration<double, std::milli>(Clock::now() - t1).count(), b,
                  b.status / 100 == 2);
        if (b.status / 100 == 2) {
          ++g.accepted;
          ++g.next_orders;
          std::lock_guard lock(g.mutex);
          LearnUnits(client, g);
        }
      }
      due += std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(o.submit_every));
    }
  });
  for (auto& t : threads) t.join();
  submitter.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();

  // Lost orders: a player-turn the server accepted that its log does not hold.
  int accepted = 0, logged = 0;
  for (auto& g : games) {
    const Reply r = setup.Send(http::verb::get, "/api/games/" + g->id, g->spectator);
    const json s = json::parse(r.body);
    accepted += g->accepted;
    logged += s.value("turns_logged", -1);
  }
  json report = {{"clients", o.clients},
                 {"seconds", elapsed},
                 {"rate_per_client", o.rate},
                 {"games", games.size()},
                 {"accepted_turns", accepted},
                 {"logged_turns", logged},
                 {"lost_orders", accepted - logged},
                 {"refused_submits", submits_refused.load()}};
  int errors = 0;
  std::size_t requests = 0;
  std::vector<double> all;
  for (const auto& [kind, v] : stats.latency_ms) {
    const int e = stats.errors.count(kind) ? stats.errors.at(kind) : 0;
    errors += e;
    requests += v.size();
    if (kind != "orders" && kind != "reply") all.insert(all.end(), v.begin(), v.end());
    report["kinds"][kind] = {{"requests", v.size()},
                             {"errors", e},
                             {"p50_ms", Percentile(v, 0.50)},
                             {"p99_ms", Percentile(v, 0.99)},
                             {"max_ms", Percentile(v, 1.0)}};
  }
  report["requests"] = requests;
  report["errors"] = errors;
  report["throughput_per_s"] = requests / elapsed;
  report["p50_ms"] = Percentile(all, 0.50);
  report["p99_ms"] = Percentile(all, 0.99);
  if (!stats.samples.empty()) report["error_samples"] = stats.samples;
  std::cout << report.dump(2) << '\n';
  return errors == 0 && accepted == logged ? 0 : 1;
}
