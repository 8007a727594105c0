// `opsim serve`: the game server (docs/api.md) and the browser client (docs/client.md). This
// file reads the options, opens the games folder, prints where to go, and serves until SIGTERM
// or Ctrl-C; server/ does the rest.
#include <spdlog/spdlog.h>
#include <cstdlib>
#include <filesystem>

#include <iostream>

#include "context.h"
#include "opsim/query/log.h"
#include "opsim/server/api.h"
#include "opsim/server/http_server.h"

namespace opsim::cli {

namespace {

struct ServeOptions {
  std::string games;
  std::string store;
  std::string bind = "127.0.0.1";
  int port = 8080;
  std::string web;
  int threads = 0;
  std::size_t max_body = 4 * 1024 * 1024;
  double rate = 100;
  std::size_t max_games = server::ApiOptions{}.max_games;
  int create_quota = server::ApiOptions{}.create_quota;
  std::size_t cache_mb = server::ApiOptions{}.cache_bytes >> 20;
  std::vector<std::string> create;
};

// The browser client's folder: --web, else $OPSIM_WEB_DIR, else the source tree's web/ if it
// is there (an opsim moved away from its sources serves the API alone, and says so).
std::string WebDir(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* dir = std::getenv("OPSIM_WEB_DIR"); dir && *dir) return dir;
  if (std::filesystem::is_directory(OPSIM_WEB_DIR)) return OPSIM_WEB_DIR;
  spdlog::warn("serve: no browser client at {} (give --web DIR): serving the API alone",
               OPSIM_WEB_DIR);
  return {};
}

// A new game of a bundled scenario, through the API as a browser would make one.
Result<nlohmann::json> CreateGame(server::Api& api, const std::string& scenario) {
  server::Request r;
  r.method = "POST";
  r.path = "/api/games";
  r.body = nlohmann::json{{"scenario", scenario}}.dump();
  r.peer = "opsim serve --new";
  const server::Response res = api.Handle(r);
  auto doc = nlohmann::json::parse(res.body, nullptr, false);
  if (res.status / 100 == 2 && doc.is_object()) return doc;
  const std::string message =
      doc.is_object() && doc.contains("error") ? doc["error"].value("message", res.body) : res.body;
  return Fail(ErrorCode::kInvalidInput, message, "--new " + scenario);
}

}  // namespace

void AddServeCommands(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<ServeOptions>();
  auto* serve = app.add_subcommand(
      "serve",
      "Serve games to browsers: the JSON API (docs/api.md) and the client (docs/client.md).\n"
      "Each game is one turn log in --games, the same files `opsim log --db` reads, or in a\n"
      "PostgreSQL --store that several servers may share (`opsim log --db URI#GAME`). It prints\n"
      "the address to open (and with --new each side's link), then serves until SIGTERM or\n"
      "Ctrl-C, which stop it accepting, let every request in flight finish (a player-turn\n"
      "commits or rolls back whole) and exit 0.\n"
      "--json: one line {url, port, games, created: [{game, tokens, links...}]} once it is "
      "listening.");
  auto* games =
      serve->add_option("--games", o->games, "the folder of game logs (created if missing)");
  auto* store = serve->add_option(
      "--store", o->store,
      "instead of --games: a PostgreSQL store, postgresql://[USER[:PASSWORD]@]HOST/DATABASE "
      "(or ?host=SOCKET-FOLDER); several servers may share one (docs/deploy.md)");
  games->excludes(store);
  store->excludes(games);
  serve->add_option("--bind", o->bind, "the address to listen on (127.0.0.1: this machine only)")
      ->capture_default_str();
  serve
      ->add_option("--port", o->port,
                   "the TCP port; 0: any free port (the printed address says which)")
      ->check(InRange(0, 65535))
      ->capture_default_str();
  serve->add_option("--web", o->web,
                    "the browser client's folder (default: $OPSIM_WEB_DIR, else the source "
                    "tree's web/)");
  serve->add_option("--new", o->create,
                    "start a new game of this bundled scenario and print its links (repeatable)");
  serve
      ->add_option("--threads", o->threads,
                   "threads answering requests; 0: twice the cores, at least 4")
      ->check(InRange(0, 256))
      ->capture_default_str();
  serve
      ->add_option("--max-body", o->max_body,
                   "the largest request body in bytes (orders, an uploaded scenario); larger: 413")
      ->check(InRange<std::size_t>(1024, 64 * 1024 * 1024))
      ->capture_default_str();
  serve
      ->add_option("--rate", o->rate,
                   "requests a second per client (address and token), after a burst of twice "
                   "as many; more: 429. 0: no limit")
      ->check(InRange(0.0, 1e6))
      ->capture_default_str();
  serve
      ->add_option("--max-games", o->max_games,
                   "the most games the folder may hold; past it a new game is refused (503). "
                   "0: no limit")
      ->check(InRange<std::size_t>(0, 1'000'000))
      ->capture_default_str();
  serve
      ->add_option("--create-quota", o->create_quota,
                   "the most games one address may create in an hour; past it 429 with "
                   "Retry-After. 0: no limit")
      ->check(InRange(0, 1'000'000))
      ->capture_default_str();
  serve
      ->add_option("--cache-mb", o->cache_mb,
                   "about how many MiB the games kept loaded and their answers may hold; past "
                   "it the least recently used are dropped (and loaded again when asked for). "
                   "0: no limit")
      ->check(InRange<std::size_t>(0, 1'000'000))
      ->capture_default_str();
  Bind(serve, ctx, [&ctx, o]() -> Status {
    server::ApiOptions api_options;
    api_options.games_dir = o->games;
    api_options.store = o->store;
    api_options.max_body = o->max_body;
    api_options.max_games = o->max_games;
    api_options.create_quota = o->create_quota;
    api_options.cache_bytes = o->cache_mb << 20;
    auto api = server::Api::Open(api_options);
    if (!api) return std::unexpected(api.error());
    server::ServerOptions options;
    options.bind = o->bind;
    options.port = static_cast<std::uint16_t>(o->port);
    options.web_dir = WebDir(o->web);
    options.games_dir = o->games;
    options.threads = o->threads;
    options.max_body = o->max_body;
    options.rate = o->rate;
    options.burst = 2 * o->rate;
    options.handle_signals = true;
    server::HttpServer http(**api, options);
    // Listening checks the folders (the games never inside the client's) before a game is made.
    auto port = http.Listen();
    if (!port) return std::unexpected(port.error());
    nlohmann::json created = nlohmann::json::array();
    for (const std::string& scenario : o->create) {
      auto game = CreateGame(**api, scenario);
      if (!game) return std::unexpected(game.error());
      created.push_back(std::move(*game));
    }
    const std::string host = o->bind.find(':') != std::string::npos ? "[" + o->bind + "]" : o->bind;
    const std::string url = "http://" + host + ":" + std::to_string(*port) + "/";
    const std::string where = o->store.empty() ? o->games : query::ShownAddress(o->store);
    std::string text = "opsim serve: the games in " + where + " at " + url +
                       "\n(SIGTERM or Ctrl-C stops; docs/client.md says how to play)\n";
    for (const auto& game : created) {
      text += "new game " + game.value("game", std::string()) + ":\n";
      if (game.contains("links") && game["links"].is_object()) {
        for (const auto& [who, link] : game["links"].items()) {
          text +=
              "  " + who + ": " + url.substr(0, url.size() - 1) + link.get<std::string>() + "\n";
        }
      }
    }
    Emit(ctx, {{"url", url}, {"port", *port}, {"games", where}, {"created", created}}, text);
    ctx.out.flush();
    http.Run();
    spdlog::info("serve: stopped");
    return {};
  });
}

}  // namespace opsim::cli
