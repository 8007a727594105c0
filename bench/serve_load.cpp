// opsim-load: a bounded load test of a running `opsim serve` (docs/performance.md, "Server").
//
// It creates games through the API, then runs --clients clients for --seconds on 127.0.0.1,
// each on its own keep-alive connection at a fixed pace (--rate requests a second), mixing
// state reads, reach, route and check; every --submit-every seconds each game plays its next
// player-turn (the mover's orders, then the defender's reply, from the bundled orders files);
// and --step-games more games are played step by step all along (docs/api.md, "Steps"): each
// step as the game asks for it, the mover's orders of the same files one at a time.
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
  int step_games = 1;  // games played step by step, one thread for all
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
  // Moves of the side to move, as a player plans them: a unit and a path its reach answered.
  struct Move {
    std::string unit;
    json path;  // hex names, from the unit's hex
  };
  std::string side;
  std::vector<Move> moves;
  int next_orders = 0;  // the next orders file to play
  int accepted = 0;     // player-turns the server said it logged
  std::mutex mutex;
};

// An answer is one of: a success (2xx); a refusal by the rules or the turn order (422: an order
// the rules forbid, such as a stale plan's unit after the turn passed; 409: orders already
// pending), which is the engine answering; or an error (no answer, 5xx, any other 4xx).
struct Stats {
  std::mutex mutex;
  std::map<std::string, std::vector<double>> latency_ms;
  std::map<std::string, int> errors, refused;
  std::vector<std::string> samples;  // the first few error bodies

  void Add(const std::string& kind, double ms, const Reply& r) {
    std::lock_guard lock(mutex);
    latency_ms[kind].push_back(ms);
    if (r.status / 100 == 2) return;
    if (r.status == 422 || r.status == 409) {
      ++refused[kind];
      return;
    }
    ++errors[kind];
    if (samples.size() < 5) {
      samples.push_back(kind + ": " + std::to_string(r.status) + " " + r.body.substr(0, 300));
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

// Moves the side to move could make: its units (up to 16) and, for each, a path to a hex its
// reach answered, the way the client asks before it draws a path.
void LearnMoves(Client& c, Game& g, std::mutex* lock = nullptr) {
  const std::string base = "/api/games/" + g.id;
  const Reply r = c.Send(http::verb::get, base + "/state", g.spectator);
  if (r.status != 200) throw std::runtime_error("state: " + r.body.substr(0, 300));
  const json s = json::parse(r.body);
  const std::string side = s.at("next").at("phasing");
  std::vector<Game::Move> moves;
  for (const auto& u : s.at("units")) {
    if (moves.size() >= 16) break;
    if (u.at("kind") != "ground" || u.at("side") != side || u.at("hex").is_null()) continue;
    const Reply reach = c.Send(http::verb::post, base + "/reach", g.spectator,
                               json{{"units", json::array({u.at("id")})}}.dump());
    if (reach.status != 200) {
      std::cerr << "opsim-load: reach " << reach.status << " " << reach.body.substr(0, 200) << "\n";
      continue;
    }
    // The farthest hex listed, whose path is a real move of several hexes.
    const json answer = json::parse(reach.body);
    json best;
    for (const auto& h : answer.at("hexes")) {
      if (h.contains("path") && h.at("path").size() >= 2 &&
          (best.is_null() || h.at("path").size() > best.size())) {
        best = h.at("path");
      }
    }
    if (!best.is_null()) moves.push_back({u.at("id"), best});
  }
  if (moves.empty()) {
    throw std::runtime_error("reach: no unit of the side to move (" + side + ") can move");
  }
  std::unique_lock guard = lock ? std::unique_lock(*lock) : std::unique_lock<std::mutex>();
  g.side = side;
  g.moves = std::move(moves);
}

// A game played step by step: which orders file its player-turn follows, and how far.
struct StepGame {
  std::unique_ptr<Game> game;
  std::size_t file = 0;  // the orders file of the player-turn in play
  std::size_t moves = 0, attacks = 0;
  int logged = 0;  // player-turns its last step logged

  // The step the game waits for, and who takes it: the file's next move or attack, the end of
  // the phase, or the other side's answer (the file's flood attempt; retreats to the rules; no
  // advance).
  std::pair<json, std::string> Next(const json& prompt, const std::string& file_text) {
    const json file = json::parse(file_text);
    const std::string side = prompt.at("side");
    const std::string waiting = prompt.at("waiting");
    const json end = {{"end-phase", true}};
    if (waiting == "flood") {
      json flood = false;
      const json open = prompt.value("floods", json::array());
      const bool may = std::find(open.begin(), open.end(), "flood") != open.end();
      for (const auto& r : file.value("reactions", json::array())) {
        if (may && r.value("flood", json()) == prompt.at("hex")) flood = prompt.at("hex");
      }
      return {{{"flood", flood}}, side};
    }
    if (waiting == "retreat") return {{{"hex", prompt.at("hex")}, {"prefer", json::array()}}, side};
    if (waiting == "advance") return {{{"advance", json::array()}}, side};
    const std::string phase = prompt.at("phase");
    const json movement = file.value("movement", json::array());
    const json combat = file.value("combat", json::array());
    if (phase == "movement" && moves < movement.size()) return {movement[moves++], side};
    if (phase == "combat" && attacks < combat.size()) return {combat[attacks++], side};
    return {end, side};
  }
};

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
    else if (a == "--step-games")
      o.step_games = std::stoi(next());
    else {
      std::cerr << "usage: opsim-load --port N [--clients 50] [--seconds 30] [--rate 10] "
                   "[--games 5] [--scenario NAME] [--orders DIR] [--submit-every 3] "
                   "[--step-games 1] [--upload SCENARIO.json]\n";
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
  for (auto& g : games) LearnMoves(setup, *g);
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
        Game::Move move;
        std::string side;
        {
          std::lock_guard lock(g.mutex);
          move = g.moves[rng() % g.moves.size()];
          side = g.side;
        }
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
                            json{{"units", json::array({move.unit})}}.dump());
            break;
          case 2:
            kind = "route";
            r = client.Send(http::verb::post, base + "/route", token,
                            json{{"side", side}, {"path", move.path}}.dump());
            break;
          default:
            kind = "check";
            r = client.Send(
                http::verb::post, base + "/check", token,
                json{{"action", {{"units", json::array({move.unit})}, {"path", move.path}}}}
                    .dump());
            break;
        }
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - due).count();
        stats.Add(on_big ? kind + " (100k)" : kind, ms, r);
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
        stats.Add("orders", std::chrono::duration<double, std::milli>(Clock::now() - t0).count(),
                  a);
        if (a.status / 100 != 2) {
          // The bundled orders were written for the seeded game's dice; after other dice a
          // later file may be refused by the rules. That game plays no further.
          ++submits_refused;
          g.next_orders = static_cast<int>(orders.size());
          continue;
        }
        const auto t1 = Clock::now();
        const Reply b = client.Send(http::verb::post, "/api/games/" + g.id + "/reply",
                                    axis_moves ? g.allied : g.axis, reply);
        stats.Add("reply", std::chrono::duration<double, std::milli>(Clock::now() - t1).count(), b);
        if (b.status / 100 == 2) {
          ++g.accepted;
          ++g.next_orders;
          try {
            LearnMoves(client, g, &g.mutex);
          } catch (const std::exception& e) {
            std::cerr << "opsim-load: " << g.id << ": " << e.what() << " (its moves kept)\n";
          }
        }
      }
      due += std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(o.submit_every));
    }
  });
  // The stepper: its games' player-turns step by step, one step each in turn, as fast as the
  // server answers; each step as the game asks for it (GET /play, then POST /step).
  std::vector<std::unique_ptr<StepGame>> stepped;
  for (int i = 0; i < o.step_games && !orders.empty(); ++i) {
    stepped.push_back(std::make_unique<StepGame>());
    stepped.back()->game = CreateGame(setup, json{{"scenario", o.scenario}}.dump());
  }
  std::atomic<int> steps_refused{0};
  std::thread stepper([&] {
    Client client(o);
    while (Clock::now() < end && !stepped.empty()) {
      bool any = false;
      for (auto& sg : stepped) {
        if (sg->file >= orders.size()) continue;
        any = true;
        const Game& g = *sg->game;
        const std::string base = "/api/games/" + g.id;
        auto t0 = Clock::now();
        const Reply now = client.Send(http::verb::get, base + "/play", g.spectator);
        stats.Add("play", std::chrono::duration<double, std::milli>(Clock::now() - t0).count(),
                  now);
        if (now.status != 200) {
          sg->file = orders.size();
          continue;
        }
        const json prompt = json::parse(now.body).at("prompt");
        const auto [step, side] = sg->Next(prompt, ReadFile(orders[sg->file]));
        t0 = Clock::now();
        const Reply r =
            client.Send(http::verb::post, base + "/step", side == "axis" ? g.axis : g.allied,
                        json{{"step", step}}.dump());
        stats.Add("step", std::chrono::duration<double, std::milli>(Clock::now() - t0).count(), r);
        if (r.status == 422) {  // an order the dice made illegal: the player goes on
          ++steps_refused;
          continue;
        }
        if (r.status == 200 && json::parse(r.body).at("step").at("logged")) {
          ++sg->logged;
          ++sg->file;
          sg->moves = sg->attacks = 0;
        }
      }
      if (!any) break;
    }
  });
  for (auto& t : threads) t.join();
  submitter.join();
  stepper.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();

  // Lost orders: a player-turn the server accepted that its log does not hold.
  int accepted = 0, logged = 0;
  for (auto& g : games) {
    const Reply r = setup.Send(http::verb::get, "/api/games/" + g->id, g->spectator);
    const json s = json::parse(r.body);
    accepted += g->accepted;
    logged += s.value("turns_logged", -1);
  }
  int step_turns = 0, step_logged = 0;
  for (auto& sg : stepped) {
    const Reply r = setup.Send(http::verb::get, "/api/games/" + sg->game->id, sg->game->spectator);
    step_turns += sg->logged;
    step_logged += json::parse(r.body).value("turns_logged", -1);
  }
  json report = {{"clients", o.clients},
                 {"seconds", elapsed},
                 {"rate_per_client", o.rate},
                 {"games", games.size()},
                 {"accepted_turns", accepted},
                 {"logged_turns", logged},
                 {"lost_orders", accepted - logged},
                 {"refused_submits", submits_refused.load()},
                 {"step_games", stepped.size()},
                 {"step_turns", step_turns},
                 {"step_turns_logged", step_logged},
                 {"refused_steps", steps_refused.load()}};
  int errors = 0;
  std::size_t requests = 0;
  std::vector<double> all, engine_big;
  for (const auto& [kind, v] : stats.latency_ms) {
    const int e = stats.errors.count(kind) ? stats.errors.at(kind) : 0;
    errors += e;
    requests += v.size();
    if (kind != "orders" && kind != "reply" && kind != "step")
      all.insert(all.end(), v.begin(), v.end());
    if (kind == "reach (100k)" || kind == "route (100k)" || kind == "check (100k)") {
      engine_big.insert(engine_big.end(), v.begin(), v.end());
    }
    report["kinds"][kind] = {{"requests", v.size()},
                             {"errors", e},
                             {"refused", stats.refused.count(kind) ? stats.refused.at(kind) : 0},
                             {"p50_ms", Percentile(v, 0.50)},
                             {"p99_ms", Percentile(v, 0.99)},
                             {"max_ms", Percentile(v, 1.0)}};
  }
  report["requests"] = requests;
  report["errors"] = errors;
  report["throughput_per_s"] = requests / elapsed;
  report["p50_ms"] = Percentile(all, 0.50);
  report["p99_ms"] = Percentile(all, 0.99);
  if (!engine_big.empty()) report["engine_100k_p99_ms"] = Percentile(engine_big, 0.99);
  if (!stats.samples.empty()) report["error_samples"] = stats.samples;
  std::cout << report.dump(2) << '\n';
  return errors == 0 && accepted == logged && step_turns == step_logged ? 0 : 1;
}
