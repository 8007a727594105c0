// The game API (docs/api.md): routing and each game's endpoint over libquery, its writes
// through libquery's door (opsim/query/play.h). Every game answer is a libquery answer's ToJson,
// as the CLI prints. The routes with no game are open_routes.h's; who may ask is access.h's.
#include "opsim/server/api.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "access.h"
#include "answers.h"
#include "create_quota.h"
#include "event_hub.h"
#include "game_cache.h"
#include "open_routes.h"
#include "opsim/core/echo.h"
#include "opsim/core/error_json.h"
#include "opsim/core/json_source.h"
#include "opsim/map/scenario.h"
#include "opsim/query/check.h"
#include "opsim/query/log.h"
#include "opsim/query/map.h"
#include "opsim/query/odds.h"
#include "opsim/query/play.h"
#include "opsim/query/reach.h"
#include "opsim/query/route.h"
#include "opsim/query/source.h"
#include "opsim/query/supply.h"
#include "opsim/query/view.h"
#include "position_cache.h"
#include "query_bodies.h"
#include "step_sessions.h"
#include "store.h"
#include "store_listener.h"
#include "told_changes.h"

namespace opsim::server {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using P = JsonSource::Pointer;

class GameApi final : public Api {
 public:
  GameApi(const ApiOptions& options, std::unique_ptr<Store> store)
      : store_(std::move(store)),
        max_body_(options.max_body),
        max_games_(options.max_games),
        cache_(options.cache_bytes),
        positions_(
            options.positions,
            options.cache_bytes ? options.cache_bytes / 4 : std::numeric_limits<std::size_t>::max(),
            [](const query::LoadedGame& g) { return LoadedBytes(g); }),
        quota_(options.create_quota),
        hub_(std::make_shared<EventHub>()),
        told_(hub_) {
    hidden_ = store_->Hidden();
    const std::string scenarios = query::ScenarioDir();
    if (!scenarios.empty())
      hidden_.push_back(scenarios.ends_with('/') ? scenarios : scenarios + "/");
  }

  Response Handle(const Request& req) override {
    try {
      // The transport refuses such a body first; this holds for any other caller. A scenario
      // sent to the workshop's endpoints may be as large as a scenario file.
      const std::size_t limit = IsWorkshopPath(req.path) ? kMaxScenarioBytes : max_body_;
      if (req.body.size() > limit) {
        return ErrorResponse(413, "too-large",
                             "the body is over " + std::to_string(limit) + " bytes");
      }
      return Unpathed(Route(req));
    } catch (const std::exception& e) {
      return ErrorResponse(500, "internal", std::string("internal error: ") + e.what());
    }
  }

  std::expected<std::unique_ptr<Subscription>, Response> Subscribe(const Request& req,
                                                                   Listener listener) override {
    try {
      const auto parts = Split(req.path);
      if (parts.size() != 4 || parts[0] != "api" || parts[1] != "games" || parts[3] != "events") {
        return std::unexpected(ErrorResponse(404, "not-found", "no such path", req.path));
      }
      if (req.method != "GET") {
        return std::unexpected(
            ErrorResponse(405, "method-not-allowed", "allowed: GET", req.method + " " + req.path));
      }
      auto game = Admit(req, parts[2], Need::kAnyToken);
      if (!game) return std::unexpected(Unpathed(game.error()));
      // On a shared store, under the game's writer lock: the listeners already here are told
      // of a change not yet heard from the store before the new one listens, so that it is
      // never told again what it knows.
      std::shared_ptr<std::mutex> lock;
      std::unique_lock<std::mutex> hold;
      if (changes_) {
        lock = WriteLock(game->id);
        hold = std::unique_lock(*lock);
        told_.Tell(game->id, game->path);
      }
      // A client back after a lost stream, whose last event is not the log as it is now, is
      // told at once that the game changed (the browser then reads it again).
      std::optional<LogStamp> missed;
      if (!req.last_event_id.empty()) {
        if (LogStamp now = StampOf(game->path); now != req.last_event_id) missed = now;
      }
      auto listening = hub_->Listen(game->id, listener);
      if (missed) {
        auto summary = Summary(game->id, game->path);
        const std::int64_t next = summary ? (**summary)["turns_logged"].get<std::int64_t>() + 1 : 0;
        listener("step", json{{"game", game->id}, {"number", next}}.dump(), *missed);
      }
      return listening;
    } catch (const std::exception& e) {
      return std::unexpected(
          ErrorResponse(500, "internal", std::string("internal error: ") + e.what()));
    }
  }

  void Init(const std::string& store_uri) {
    store_->Sweep();
    if (!store_uri.empty()) {
      changes_ = std::make_unique<StoreListener>(
          store_uri, [this](const std::optional<std::string>& id) { Heard(id); });
    }
  }
  ~GameApi() override { changes_.reset(); }  // no change is heard while the rest is destroyed

 private:
  static std::vector<std::string> Split(const std::string& path) {
    std::vector<std::string> parts;
    std::size_t at = 0;
    while (at < path.size()) {
      if (path[at] == '/') {
        ++at;
        continue;
      }
      const std::size_t end = std::min(path.find('/', at), path.size());
      parts.push_back(path.substr(at, end - at));
      at = end;
    }
    return parts;
  }

  // `text` without the server's folders (the games folder, the bundled scenarios'): a game is
  // named by its id and file name, a scenario by its name (docs/api.md, Errors).
  std::string Unpathed(std::string text) const {
    for (const std::string& dir : hidden_) {
      for (std::size_t at = text.find(dir); at != std::string::npos; at = text.find(dir, at)) {
        text.erase(at, dir.size());
      }
    }
    return text;
  }
  json Unpathed(const Error& e) const {
    return ErrorJson(Error{e.code, Unpathed(e.message), Unpathed(e.where), e.rule});
  }
  // An error answer without the server's folders in its message and where.
  Response Unpathed(Response res) const {
    if (res.status < 400) return res;
    json doc = json::parse(res.body, nullptr, false);
    if (!doc.is_object() || !doc.contains("error") || !doc["error"].is_object()) return res;
    for (const char* key : {"message", "where"}) {
      json& v = doc["error"][key];
      if (v.is_string()) v = Unpathed(v.get<std::string>());
    }
    Response out = JsonResponse(res.status, doc);
    out.retry_after = res.retry_after;
    return out;
  }

  Response Route(const Request& req) {
    const auto parts = Split(req.path);
    const auto only = [&req](const char* method) { return req.method == method; };
    if (parts.size() < 2 || parts[0] != "api") {
      return ErrorResponse(404, "not-found", "no such path", req.path);
    }
    if (parts.size() == 2 && parts[1] == "scenarios") {
      return only("GET") ? Scenarios() : WrongMethod(req, "GET");
    }
    if (parts[1] == "scenarios") return only("GET") ? ScenarioFile(req) : WrongMethod(req, "GET");
    if (parts.size() == 3 && parts[1] == "scenario") return Workshop(req, parts[2]);
    if (parts.size() == 3 && parts[1] == "tactical") return Tactical(req, parts[2]);
    if (parts[1] != "games") return ErrorResponse(404, "not-found", "no such path", req.path);
    if (parts.size() == 2) {
      if (req.method == "GET") return ListGames();
      if (req.method == "POST") return CreateGame(req);
      return WrongMethod(req, "GET, POST");
    }
    const std::string& id = parts[2];
    if (parts.size() == 3) return only("GET") ? GameStatus(req, id) : WrongMethod(req, "GET");
    const std::string& what = parts[3];
    if (parts.size() == 5 && what == "hex") {
      return only("GET") ? Hex(req, id, parts[4]) : WrongMethod(req, "GET");
    }
    if (parts.size() != 4) return ErrorResponse(404, "not-found", "no such path", req.path);
    using Handler = Response (GameApi::*)(const Request&, const std::string&);
    static const std::map<std::string, std::pair<const char*, Handler>> kEndpoints = {
        {"theater", {"GET", &GameApi::Theater}},
        {"state", {"GET", &GameApi::State}},
        {"route", {"POST", &GameApi::RouteQuery}},
        {"reach", {"POST", &GameApi::Reach}},
        {"check", {"POST", &GameApi::Check}},
        {"supply", {"GET", &GameApi::Supply}},
        {"odds", {"POST", &GameApi::Odds}},
        {"log", {"GET", &GameApi::Log}},
        {"dice", {"GET", &GameApi::Dice}},
        {"orders", {"POST", &GameApi::Orders}},
        {"reply", {"POST", &GameApi::Reply}},
        {"play", {"GET", &GameApi::Play}},
        {"step", {"POST", &GameApi::Step}},
        {"undo", {"POST", &GameApi::Undo}},
        {"begin", {"POST", &GameApi::Begin}},
        {"preview", {"POST", &GameApi::Preview}},
        {"events", {"GET", nullptr}}};
    auto it = kEndpoints.find(what);
    if (it == kEndpoints.end()) return ErrorResponse(404, "not-found", "no such path", req.path);
    const auto& [method, handler] = it->second;
    if (req.method != method) return WrongMethod(req, method);
    if (!handler) {
      return ErrorResponse(404, "not-found", "the event stream is served by Subscribe", req.path);
    }
    return (this->*handler)(req, id);
  }

  std::expected<GameRef, Response> Admit(const Request& req, const std::string& id, Need need) {
    return server::Admit(*store_, cache_, req, id, need);
  }

  // The game's latest position and status (game_cache.h: `fresh` for a write).
  Result<std::shared_ptr<const query::LoadedGame>> Latest(const GameRef& g, bool fresh = false) {
    return cache_.Latest(g.id, g.path, fresh);
  }
  Result<std::shared_ptr<const json>> LatestStatus(const std::string& id, const std::string& path) {
    return cache_.Status(id, path);
  }

  // The game at `at` logged player-turns, or the latest.
  Result<std::shared_ptr<const query::LoadedGame>> At(const GameRef& g,
                                                      std::optional<std::int32_t> at) {
    if (!at) return Latest(g);
    auto past = PastKey(g, *at, std::nullopt, std::nullopt);
    if (!past) return std::unexpected(past.error());
    return positions_.Game(*past, LoadPast(g, *past));
  }

  // A position of the game's logged past: after `at` player-turns, or after a phase or a step
  // of player-turn `at` (position_cache.h: it never changes).
  static Result<PositionKey> PastKey(const GameRef& g, std::int32_t at,
                                     std::optional<ops::Phase> phase,
                                     std::optional<std::size_t> step) {
    auto log = LogIdentity(g.path);
    if (!log) return std::unexpected(log.error());
    return PositionKey{g.id, std::move(*log), at, phase, step};
  }
  static PositionCache::Load LoadPast(const GameRef& g, const PositionKey& key) {
    return [path = g.path, key]() {
      query::Source src;
      src.db = path;
      src.at = key.at;
      src.phase = key.phase;
      src.step = key.step;
      return query::Load(src);
    };
  }

  // Runs `f(game ref)` once the request is admitted, turning errors into answers.
  template <class F>
  Response Game(const Request& req, const std::string& id, Need need, F f) {
    auto g = Admit(req, id, need);
    if (!g) return g.error();
    Result<Response> r = f(*g);
    if (!r) return FromError(r.error());
    return *r;
  }

  Response ListGames() {
    auto ids = store_->List();
    if (!ids) return FromError(ids.error());
    json games = json::array();
    for (const std::string& id : *ids) {
      json entry = {{"id", id}};
      auto secrets = store_->ReadSecrets(id);
      entry["hosted"] = secrets && secrets->has_value();
      auto summary = Summary(id, store_->LogAddress(id));
      if (!summary) {
        entry["error"] = Unpathed(summary.error());
      } else {
        entry.update(**summary);
      }
      games.push_back(std::move(entry));
    }
    return JsonResponse(200, {{"games", games}});
  }

  // What the list shows of a game, read from its log's header rows (ReadSummary), never by
  // loading it (a big game takes seconds), nor waiting for its loader; kept until the log
  // changes.
  Result<std::shared_ptr<const json>> Summary(const std::string& id, const std::string& path) {
    return cache_.Summary(id, path);
  }

  // A place for one more game, held while it is made: the folder's bound (max_games_, counting
  // the games being made) and the client's quota; else the refusal (docs/api.md, Limits).
  class CreateSlot {
   public:
    explicit CreateSlot(GameApi& api) : api_(&api) {}
    CreateSlot(CreateSlot&& other) noexcept : api_(std::exchange(other.api_, nullptr)) {}
    CreateSlot& operator=(CreateSlot&&) = delete;
    ~CreateSlot() {
      if (!api_) return;
      std::lock_guard lock(api_->creating_mu_);
      --api_->creating_;
    }

   private:
    GameApi* api_;
  };
  std::expected<CreateSlot, Response> AdmitCreate(const Request& req) {
    if (max_games_ > 0) {
      auto ids = store_->List();
      if (!ids) return std::unexpected(FromError(ids.error()));
      std::lock_guard lock(creating_mu_);
      if (ids->size() + creating_ >= max_games_) {
        return std::unexpected(ErrorResponse(503, "full",
                                             "the server holds its most games (" +
                                                 std::to_string(max_games_) +
                                                 "): no new one until its operator makes room"));
      }
      ++creating_;
    } else {
      std::lock_guard lock(creating_mu_);
      ++creating_;
    }
    CreateSlot slot(*this);
    if (const int wait = quota_.Take(req.peer); wait > 0) {
      Response refused =
          ErrorResponse(429, "rate-limited",
                        "this address has created its most games for the hour; try again in " +
                            std::to_string(wait) + " s");
      refused.retry_after = wait;
      return std::unexpected(std::move(refused));
    }
    return slot;
  }

  Response CreateGame(const Request& req) {
    auto slot = AdmitCreate(req);
    if (!slot) return slot.error();
    auto body = Body(req);
    if (!body) return FromError(body.error());
    JsonReader r(*body);
    if (auto s = r.OnlyKeys(P(), {"scenario", "scenario_json"}); !s) return FromError(s.error());
    const bool named = r.Has(P(), "scenario"), uploaded = r.Has(P(), "scenario_json");
    if (named == uploaded) {
      return FromError(body->Bad(P(),
                                 "give \"scenario\" (a bundled scenario's name) or "
                                 "\"scenario_json\" (a scenario file's JSON)")
                           .error());
    }
    Result<JsonSource> scenario = std::unexpected(Error{});
    if (named) {
      auto name = r.String(P("/scenario"));
      if (!name) return FromError(name.error());
      std::string path;
      for (const map::BundledScenario& s : map::ListScenarios(query::ScenarioDir())) {
        if (s.name == *name) path = s.path;
      }
      if (path.empty()) {
        return FromError(body->Bad(P("/scenario"), "no bundled scenario " + *name +
                                                       " (GET /api/scenarios lists them)")
                             .error());
      }
      scenario = JsonSource::FromFile(path, kMaxScenarioBytes);
    } else {
      auto obj = r.Object(P("/scenario_json"));
      if (!obj) return FromError(obj.error());
      std::string text = (*obj)->dump(2);
      if (text.size() > kMaxScenarioBytes) {
        return FromError(
            body->Bad(P("/scenario_json"),
                      "a scenario is at most " + std::to_string(kMaxScenarioBytes) + " bytes")
                .error());
      }
      scenario = JsonSource::FromText(std::move(text), "scenario_json");
    }
    if (!scenario) return FromError(scenario.error());
    if (auto loaded = map::LoadScenario(*scenario); !loaded) return FromError(loaded.error());
    auto id = NewGameId();
    if (!id) return FromError(id.error());
    auto drawn = DrawSecrets();
    if (!drawn) return FromError(drawn.error());
    if (auto s = store_->WriteSecrets(*id, drawn->secrets); !s) return FromError(s.error());
    const std::string axis_c = KeyHex(ChainKey(drawn->secrets.axis_secret, 0));
    const std::string allied_c = KeyHex(ChainKey(drawn->secrets.allied_secret, 0));
    auto hosted = query::NewHostedGame(store_->LogAddress(*id), *scenario, *id, axis_c, allied_c);
    if (!hosted) {
      store_->RemoveSecrets(*id);
      return FromError(hosted.error());
    }
    // The players open the map next: its theater, position and status, in the forms the page
    // asks for, are made now, not on their first look (on the 100,000-hex game about a second).
    cache_.Theater(hosted->scenario_sha256, *hosted->theater, GameCache::TheaterForm::kCompact);
    MakeReady({*id, store_->LogAddress(*id), Role::kPublic, std::nullopt}, false);
    const auto link = [&id](const std::string& token) {
      return "/?game=" + *id + "&token=" + token;
    };
    return JsonResponse(201,
                        {{"game", *id},
                         {"scenario", hosted->scenario_name},
                         {"tokens",
                          {{"axis", drawn->axis_token},
                           {"allied", drawn->allied_token},
                           {"spectator", drawn->spectator_token}}},
                         {"links",
                          {{"axis", link(drawn->axis_token)},
                           {"allied", link(drawn->allied_token)},
                           {"spectator", link(drawn->spectator_token)}}},
                         {"dice", {{"axis_commitment", axis_c}, {"allied_commitment", allied_c}}}});
  }

  Response GameStatus(const Request& req, const std::string& id) {
    return Game(req, id, Need::kAnyToken, [&](const GameRef& g) -> Result<Response> {
      auto at = QueryInt(req, "at", 0, kMaxAt);
      if (!at) return std::unexpected(at.error());
      json doc;
      if (*at) {
        auto status = query::AnswerStatus(g.path, *at);
        if (!status) return std::unexpected(status.error());
        doc = query::ToJson(*status);
        doc.erase("db");
      } else {
        auto status = LatestStatus(g.id, g.path);
        if (!status) return std::unexpected(status.error());
        doc = **status;
      }
      if (doc["dice"] == "fair") {
        auto pending = query::PendingOrders(g.path);
        if (!pending) return std::unexpected(pending.error());
        if (*pending) doc["pending"] = **pending;
      }
      if (!*at) {  // a player-turn begun by steps (docs/api.md, "Steps")
        auto steps = query::StepsInPlay(g.path);
        if (!steps) return std::unexpected(steps.error());
        if (*steps) doc["in_play"] = {{"steps", **steps}};
      }
      doc["game"] = g.id;
      doc["role"] = RoleName(g.role);
      doc["hosted"] = g.secrets.has_value();
      return JsonResponse(200, doc);
    });
  }

  Response Theater(const Request& req, const std::string& id) {
    return Game(req, id, Need::kAnyToken, [&](const GameRef& g) -> Result<Response> {
      // ?form=compact: its columns (query::TheaterCompactJson), what the browser asks for.
      const std::optional<std::string> form_text = QueryOne(req, "form");
      if (form_text && *form_text != "json" && *form_text != "compact") {
        return Fail(ErrorCode::kInvalidInput, "?form is json or compact", "?form");
      }
      const auto form =
          form_text == "compact" ? GameCache::TheaterForm::kCompact : GameCache::TheaterForm::kJson;
      auto scenario_sha = query::ScenarioSha256(g.path);
      if (!scenario_sha) return std::unexpected(scenario_sha.error());
      const std::string& sha = *scenario_sha;
      Response r;
      r.etag = "\"" + sha + (form == GameCache::TheaterForm::kCompact ? ".compact" : "") + "\"";
      r.cache_control = "public, max-age=86400";
      if (auto kept = cache_.KeptTheater(sha, form)) {
        r.body = *kept;
        return r;
      }
      auto game = Latest(g);
      if (!game) return std::unexpected(game.error());
      r.body = *cache_.Theater(sha, *(*game)->theater, form);
      return r;
    });
  }

  Response State(const Request& req, const std::string& id) {
    return Game(req, id, Need::kAnyToken, [&](const GameRef& g) -> Result<Response> {
      auto at = QueryInt(req, "at", 0, kMaxAt);
      if (!at) return std::unexpected(at.error());
      std::optional<ops::Phase> phase;
      if (auto text = QueryOne(req, "phase")) {
        auto p = ops::ParsePhase(*text);
        if (!p) return Fail(ErrorCode::kInvalidInput, p.error().message, "?phase");
        if (at->value_or(0) < 1) {
          return Fail(ErrorCode::kInvalidInput,
                      "?phase goes with ?at=N, N from 1: the logged player-turn it is a phase of",
                      "?phase");
        }
        phase = *p;
      }
      auto step = QueryInt(req, "step", 0, kMaxAt);
      if (!step) return std::unexpected(step.error());
      if (*step && (at->value_or(0) < 1 || phase)) {
        return Fail(ErrorCode::kInvalidInput,
                    "?step goes with ?at=N, N from 1: the logged player-turn it is a step of "
                    "(and not with ?phase)",
                    "?step");
      }
      auto asked = PositionOptionsIn(req);
      if (!asked) return std::unexpected(asked.error());
      const query::PositionOptions& options = *asked;
      // ?form=compact: hexes as indices (query::PositionCompactJson), what the browser asks for;
      // kept under a key, and so an ETag, of its own.
      const std::optional<std::string> form = QueryOne(req, "form");
      if (form && *form != "json" && *form != "compact") {
        return Fail(ErrorCode::kInvalidInput, "?form is json or compact", "?form");
      }
      const bool compact = form == "compact";
      Response r;
      if (*at) {  // the logged past, kept by the positions cache with its ETag
        auto past =
            PastKey(g, **at, phase, *step ? std::optional<std::size_t>(**step) : std::nullopt);
        if (!past) return std::unexpected(past.error());
        const std::string key = AnswerKey(options, compact);
        auto body = positions_.Answer(*past, key, LoadPast(g, *past),
                                      [&](const query::LoadedGame& game) -> Result<std::string> {
                                        return PositionAnswer(game, options, compact);
                                      });
        if (!body) return std::unexpected(body.error());
        r.body = **body;
        r.etag = PositionEtag(*past, key);
        return r;
      }
      auto body = LatestPosition(g, options, compact);
      if (!body) return std::unexpected(body.error());
      r.body = **body;
      return r;
    });
  }

  // A position answer's key among a game's kept answers: its form and overlays.
  static std::string AnswerKey(const query::PositionOptions& options, bool compact) {
    std::string key = compact ? "c" : "";
    for (Side s : options.supply) key += std::string("s") + SideName(s);
    for (Side s : options.zoc) key += std::string("z") + SideName(s);
    return key;
  }
  static Result<std::string> PositionAnswer(const query::LoadedGame& game,
                                            const query::PositionOptions& options, bool compact) {
    auto doc =
        compact ? query::PositionCompactJson(game, options) : query::PositionJson(game, options);
    if (!doc) return std::unexpected(doc.error());
    return doc->dump();
  }
  // The game's latest position, as answered and kept until its log changes.
  Result<std::shared_ptr<const std::string>> LatestPosition(const GameRef& g,
                                                            const query::PositionOptions& options,
                                                            bool compact) {
    return cache_.Answer(g.id, g.path, GameCache::Of::kPosition, AnswerKey(options, compact),
                         [&]() -> Result<std::string> {
                           auto game = Latest(g);
                           if (!game) return std::unexpected(game.error());
                           return PositionAnswer(**game, options, compact);
                         });
  }

  // What the players look at next, made before they hear of a new game or a write: the game
  // loaded (`fresh`: after a write), its status, and the position as the page asks for it (the
  // compact form, no overlays), so that their first look after it is not the one that waits.
  void MakeReady(const GameRef& g, bool fresh) {
    (void)Latest(g, fresh);
    (void)LatestStatus(g.id, g.path);
    (void)LatestPosition(g, {}, true);
  }

  Response Hex(const Request& req, const std::string& id, const std::string& hex) {
    return Game(req, id, Need::kAnyToken, [&](const GameRef& g) -> Result<Response> {
      auto at = QueryInt(req, "at", 0, kMaxAt);
      if (!at) return std::unexpected(at.error());
      auto game = At(g, *at);
      if (!game) return std::unexpected(game.error());
      auto a = query::AnswerHex(**game, hex);
      if (!a) return std::unexpected(a.error());
      return JsonResponse(200, query::ToJson(**game, *a));
    });
  }

  Response RouteQuery(const Request& req, const std::string& id) {
    return Game(req, id, Need::kAnyToken, [&](const GameRef& g) -> Result<Response> {
      auto body = Body(req);
      if (!body) return std::unexpected(body.error());
      auto asked = ReadRouteBody(*body);
      if (!asked) return std::unexpected(asked.error());
      auto game = At(g, asked->at);
      if (!game) return std::unexpected(game.error());
      auto a = query::AnswerRoute(**game, asked->request);
      if (!a) return std::unexpected(a.error());
      return JsonResponse(200, query::ToJson(*a));
    });
  }

  Response Reach(const Request& req, const std::string& id) {
    return Game(req, id, Need::kAnyToken, [&](const GameRef& g) -> Result<Response> {
      auto body = Body(req);
      if (!body) return std::unexpected(body.error());
      auto asked = ReadReachBody(*body);
      if (!asked) return std::unexpected(asked.error());
      if (asked->in_play) {
        auto now = InPlayOf(g);
        if (!now) return std::unexpected(now.error());
        if (*now) return ReachInPlay(**now, std::move(asked->request));
      }
      auto game = At(g, asked->at);
      if (!game) return std::unexpected(game.error());
      auto a = query::AnswerReach(**game, asked->request);
      if (!a) return std::unexpected(a.error());
      return JsonResponse(200, query::ToJson(*(*game)->theater, *a));
    });
  }

  // The position in play (a player-turn begun, played by steps), the phase it is in and who
  // moved in that phase: what a query of the position in play reads.
  struct InPlayNow {
    query::LoadedGame position;
    ops::Phase phase = ops::Phase::kInitial;
    std::set<std::string> moved;
  };
  // None when no player-turn is begun (a hosted one not begun: the logged position stands).
  // Under the game's writer lock, as the step session is the writers'.
  Result<std::optional<InPlayNow>> InPlayOf(const GameRef& g) {
    auto lock = WriteLock(g.id);
    std::lock_guard hold(*lock);
    auto session = SessionOf(g);
    if (!session) return std::unexpected(session.error());
    const query::StepSession& in_play = **session;
    if (g.secrets && !in_play.begun()) return std::optional<InPlayNow>();
    InPlayNow now{query::PositionInPlay(in_play), in_play.turn().prompt().phase, {}};
    const ops::Orders& script = in_play.turn().script();
    for (const ops::MoveOrder& m :
         now.phase == ops::Phase::kExploitation ? script.exploitation : script.movement) {
      now.moved.insert(m.units.begin(), m.units.end());
    }
    return std::optional<InPlayNow>(std::move(now));
  }

  // B4.10: the reach of a stack in the position in play, in the phase in play; a unit that moved
  // in that phase moves no more.
  static Result<Response> ReachInPlay(const InPlayNow& now, query::ReachRequest rr) {
    rr.exploitation = now.phase == ops::Phase::kExploitation;
    auto a = query::AnswerReach(now.position, rr);
    if (!a) return std::unexpected(a.error());
    for (const ops::ReachUnit& u : a->found.units) {
      if (now.moved.count(u.id)) {
        return Fail(ErrorCode::kRuleViolation,
                    u.name + " has already moved this phase (" + ops::PhaseName(now.phase) + ")",
                    "request body /units", std::string(rules::kB4_10.id));
      }
    }
    return JsonResponse(200, query::ToJson(*now.position.theater, *a));
  }

  Response Check(const Request& req, const std::string& id) {
    return Game(req, id, Need::kAnyToken, [&](const GameRef& g) -> Result<Response> {
      auto body = Body(req);
      if (!body) return std::unexpected(body.error());
      auto asked = ReadCheckBody(*body);
      if (!asked) return std::unexpected(asked.error());
      auto game = At(g, asked->at);
      if (!game) return std::unexpected(game.error());
      if (asked->orders) {
        auto a = query::AnswerDryRun(**game, *asked->orders, asked->side);
        if (!a) return std::unexpected(a.error());
        return JsonResponse(200, query::ToJson(*a));
      }
      auto a = query::AnswerCheck(**game, *asked->action, asked->side);
      if (!a) return std::unexpected(a.error());
      return JsonResponse(200, query::ToJson(*a));
    });
  }

  Response Supply(const Request& req, const std::string& id) {
    return Game(req, id, Need::kAnyToken, [&](const GameRef& g) -> Result<Response> {
      auto side_text = QueryOne(req, "side");
      if (!side_text) return Fail(ErrorCode::kInvalidInput, "say whose supply: ?side=", "?side");
      auto side = SideIn(*side_text, "?side");
      if (!side) return std::unexpected(side.error());
      auto at = QueryInt(req, "at", 0, kMaxAt);
      if (!at) return std::unexpected(at.error());
      auto game = At(g, *at);
      if (!game) return std::unexpected(game.error());
      const map::Theater& t = *(*game)->theater;
      if (auto hex = QueryOne(req, "hex")) {
        auto a = query::AnswerSupplyAt(**game, *side, *hex);
        if (!a) return std::unexpected(a.error());
        return JsonResponse(200, query::ToJson(t, *a));
      }
      auto a = query::AnswerSupplyAll(**game, *side);
      if (!a) return std::unexpected(a.error());
      return JsonResponse(200, query::ToJson(t, *a));
    });
  }

  Response Odds(const Request& req, const std::string& id) {
    return Game(req, id, Need::kAnyToken, [&](const GameRef& g) -> Result<Response> {
      auto body = Body(req);
      if (!body) return std::unexpected(body.error());
      auto asked = ReadOddsBody(*body);
      if (!asked) return std::unexpected(asked.error());
      auto game = At(g, asked->at);
      if (!game) return std::unexpected(game.error());
      auto a = query::RunOdds(**game, asked->orders, asked->request);
      if (!a) return std::unexpected(a.error());
      return JsonResponse(200, query::ToJson(*a));
    });
  }

  Response Log(const Request& req, const std::string& id) {
    return Game(req, id, Need::kAnyToken, [&](const GameRef& g) -> Result<Response> {
      auto turn = QueryInt(req, "turn", 1, kMaxAt);
      if (!turn) return std::unexpected(turn.error());
      std::string flags[2];
      for (int i = 0; i < 2; ++i) {
        const char* name = i == 0 ? "phases" : "steps";
        flags[i] = QueryOne(req, name).value_or("false");
        if (flags[i] != "true" && flags[i] != "false") {
          return Fail(ErrorCode::kInvalidInput, "expected true or false", "?" + std::string(name));
        }
      }
      const std::string& phases = flags[0];
      const std::string& steps = flags[1];
      if (steps == "true" && !*turn) {
        return Fail(ErrorCode::kInvalidInput,
                    "steps are told for one player-turn at a time: say which (?turn=N)", "?steps");
      }
      // Made once per state of the log: with phases a 200-turn log's replay takes a quarter
      // of a second.
      const std::string key = (*turn ? std::to_string(**turn) : "all") + "/" + phases + "/" + steps;
      auto body =
          cache_.Answer(g.id, g.path, GameCache::Of::kLog, key, [&]() -> Result<std::string> {
            auto log = query::AnswerLog(g.path, *turn, phases == "true", steps == "true");
            if (!log) return std::unexpected(log.error());
            json doc = query::ToJson(*log);
            doc.erase("db");  // the server's path: the game is its id
            return doc.dump(-1, ' ', false, json::error_handler_t::replace);
          });
      if (!body) return std::unexpected(body.error());
      Response r;
      r.body = **body;
      return r;
    });
  }

  Response Dice(const Request& req, const std::string& id) {
    return Game(req, id, Need::kAnyToken, [&](const GameRef& g) -> Result<Response> {
      auto dice = query::AnswerDice(g.path);
      if (!dice) return std::unexpected(dice.error());
      json doc = {{"game", g.id}};
      doc.update(*dice);
      return JsonResponse(200, doc);
    });
  }

  // The one lock per game its writers take, so that they queue here, not on SQLite's lock.
  // The game's mutex in `locks` (its writer lock, or its loader lock), made on first use.
  template <class Mutex>
  std::shared_ptr<Mutex> LockOf(std::map<std::string, std::shared_ptr<Mutex>>& locks,
                                const std::string& id) {
    std::lock_guard lock(locks_mu_);
    auto& m = locks[id];
    if (!m) m = std::make_shared<Mutex>();
    return m;
  }
  std::shared_ptr<std::mutex> WriteLock(const std::string& id) { return LockOf(locks_, id); }

  // A write: the game's writer lock is held from the access check to the commit, so that who
  // may write is judged on the state the write extends. `f` answers {"game", "number", ...};
  // then the listeners get `event`.
  template <class F>
  Response Write(const Request& req, const std::string& id, Need need, int status,
                 const char* event, F f) {
    if (!store_->Exists(id)) return ErrorResponse(404, "not-found", "no such game", id);
    json done;
    GameRef written;
    LogStamp stamp;  // the log as the write left it: the event's id
    {
      auto lock = WriteLock(id);
      std::lock_guard hold(*lock);
      auto g = Admit(req, id, need);
      if (!g) return g.error();
      Result<json> r = f(*g);
      if (!r) return FromError(r.error());
      done = std::move(*r);
      stamp = Announced(g->id, g->path);
      written = std::move(*g);
    }
    MakeReady(written, true);  // before they hear of it
    hub_->Notify(id, event, {{"game", id}, {"number", done["number"]}}, stamp);
    return JsonResponse(status, done);
  }

  Response Orders(const Request& req, const std::string& id) {
    return Write(req, id, Need::kPhasing, 202, "pending", [&](const GameRef& g) -> Result<json> {
      auto body = Body(req);
      if (!body) return std::unexpected(body.error());
      auto game = Latest(g, true);
      if (!game) return std::unexpected(game.error());
      return query::SubmitOrders(**game, g.path, *body);
    });
  }

  Response Reply(const Request& req, const std::string& id) {
    return Write(req, id, Need::kDefender, 200, "turn", [&](const GameRef& g) -> Result<json> {
      auto body = Body(req);
      if (!body) return std::unexpected(body.error());
      auto played =
          query::ReplyToOrders(g.path, {g.secrets->axis_secret, g.secrets->allied_secret}, *body);
      if (!played) return std::unexpected(played.error());
      return std::move(played->doc);
    });
  }

  // --- a player-turn played step by step (docs/api.md, "Steps") ------------------------------

  // The game's step session (step_sessions.h); the caller holds the game's writer lock.
  Result<std::shared_ptr<query::StepSession>> SessionOf(const GameRef& g) {
    return sessions_.Of(g.id, g.path, g.secrets);
  }

  Response Play(const Request& req, const std::string& id) {
    if (!store_->Exists(id)) return ErrorResponse(404, "not-found", "no such game", id);
    auto options = PositionOptionsIn(req);
    if (!options) return FromError(options.error());
    auto lock = WriteLock(id);
    std::lock_guard hold(*lock);
    auto g = Admit(req, id, Need::kAnyToken);
    if (!g) return g.error();
    auto session = SessionOf(*g);
    if (!session) return FromError(session.error());
    const query::StepSession& in_play = **session;
    json doc;
    query::LoadedGame position;
    if (g->secrets && !in_play.begun()) {
      // Not begun: nothing drawn for it is shown (its weather), or the mover could look and
      // then send orders, whose dice differ (docs/dice.md, "Step by step").
      doc = query::PlayStatusJson(in_play);
      doc["prompt"] = {{"waiting", "begin"},
                       {"side", SideName(in_play.game().state().phasing())},
                       {"phase", "initial"},
                       {"text", std::string(SideName(in_play.game().state().phasing())) +
                                    " player-turn: begin it (its weather is rolled, B2.1) "
                                    "and play it step by step, or send its orders"}};
      doc["can_undo"] = false;
      doc["state_hash"] = in_play.game().hash();
      doc["events"] = json::array();
      doc["rolls"] = json::array();
      position.theater = in_play.shared_theater();
      position.campaign = in_play.campaign();
      position.state = in_play.game().state();
      position.map = position.state->map;
      position.scenario.name = in_play.scenario_name();
    } else {
      doc = query::PlayJson(in_play);
      position = query::PositionInPlay(in_play);
    }
    doc["begun"] = in_play.begun() || !g->secrets;
    auto drawn = query::PositionJson(position, *options);
    if (!drawn) return FromError(drawn.error());
    doc["position"] = std::move(*drawn);
    doc["game"] = id;
    doc["role"] = RoleName(g->role);
    return JsonResponse(200, doc);
  }

  // The mover begins his player-turn by steps: from now on it is played so (B1.3), and its
  // weather is shown.
  Response Begin(const Request& req, const std::string& id) {
    return StepWrite(req, id, "begin", {}, [](query::StepSession& session, Side) {
      return Result<query::StepRecord>(
          query::StepRecord{session.number(), session.turn().steps().size(), {}, {}, false});
    });
  }

  // A body {"step": ...}: the step as a source of its own.
  static Result<JsonSource> StepIn(const Request& req) {
    auto body = Body(req);
    if (!body) return std::unexpected(body.error());
    JsonReader r(*body);
    if (auto s = r.OnlyKeys(P(), {"step"}); !s) return std::unexpected(s.error());
    return Member(*body, "step");
  }

  Response Step(const Request& req, const std::string& id) {
    // Read before anything else: a body that does not read neither begins the player-turn nor
    // says anything of its dice.
    const Result<JsonSource> step = StepIn(req);
    return StepWrite(
        req, id, "step", step ? Status{} : std::unexpected(step.error()),
        [&step](query::StepSession& session, Side by) { return session.Take(*step, by); });
  }

  // The odds an attack would be fought at if the token's side declared it now (B7.2): nothing
  // is taken, drawn or written, and no one hears of it.
  Response Preview(const Request& req, const std::string& id) {
    if (!store_->Exists(id)) return ErrorResponse(404, "not-found", "no such game", id);
    const Result<JsonSource> step = StepIn(req);
    auto lock = WriteLock(id);
    std::lock_guard hold(*lock);
    auto g = Admit(req, id, Need::kPlayer);
    if (!g) return g.error();
    if (!step) return FromError(step.error());
    auto session = SessionOf(*g);
    if (!session) return FromError(session.error());
    const Side by = g->role == Role::kAxis ? Side::kAxis : Side::kAllied;
    auto preview = (*session)->Preview(*step, by);
    if (!preview) return FromError(preview.error());
    json doc = query::ToJson(*preview, (*session)->theater(), (*session)->campaign()->tables);
    doc["game"] = id;
    return JsonResponse(200, doc);
  }

  Response Undo(const Request& req, const std::string& id) {
    return StepWrite(req, id, "undo", {},
                     [](query::StepSession& session, Side by) { return session.Undo(by); });
  }

  // A step, an undo or the beginning (`action`) by the side the token is, under the game's
  // writer lock, once the request is `ready` (its body read); a session the log moved past is
  // opened again and the step tried once more. A step or the beginning begins the player-turn
  // if it is not begun (it is played by steps from then on: even a refused step may say
  // something of its dice). The listeners hear "step", or
  // "turn" when the step logged the player-turn, with who did what and what the game waits for.
  template <class F>
  Response StepWrite(const Request& req, const std::string& id, const std::string& action,
                     const Status& ready, F take) {
    if (!store_->Exists(id)) return ErrorResponse(404, "not-found", "no such game", id);
    json done, heard;
    bool logged = false;
    GameRef written;
    LogStamp stamp;  // the log as the step left it: the event's id
    {
      auto lock = WriteLock(id);
      std::lock_guard hold(*lock);
      auto g = Admit(req, id, Need::kPlayer);
      if (!g) return g.error();
      if (!ready) return FromError(ready.error());
      const Side by = g->role == Role::kAxis ? Side::kAxis : Side::kAllied;
      Result<query::StepRecord> record = Fail(ErrorCode::kWrongTurn, "");
      std::shared_ptr<query::StepSession> session;
      bool changed = true;  // false: a beginning of a player-turn begun already
      for (int attempt = 0; attempt < 2; ++attempt) {
        auto opened = SessionOf(*g);
        if (!opened) return FromError(opened.error());
        session = *opened;
        changed = action != "begin" || !session->begun();
        if (action != "undo" && !session->begun()) {
          if (by != session->game().state().phasing()) {
            return ErrorResponse(422, "rule-violation",
                                 "the player-turn is not begun: the " +
                                     std::string(SideName(session->game().state().phasing())) +
                                     " player begins it",
                                 "", std::string(rules::kB1_3.id));
          }
          auto st = session->Start();
          record = st ? take(*session, by) : std::unexpected(st.error());
        } else {
          record = take(*session, by);
        }
        if (record || record.error().code != ErrorCode::kWrongTurn) break;
        sessions_.Forget(id);
      }
      if (!record) {
        if (record.error().code == ErrorCode::kWrongTurn) sessions_.Forget(id);
        return FromError(record.error());
      }
      done = query::ToJson(*record, *session);
      done["game"] = id;
      if (!changed) return JsonResponse(200, done);  // nothing written: no one hears of it
      stamp = Announced(g->id, g->path);
      sessions_.Wrote(g->id, stamp);
      const ops::Prompt& now = session->turn().prompt();
      heard = {{"game", id},
               {"number", record->number},
               {"by", SideName(by)},
               {"action", action},
               {"steps", record->steps},
               {"waiting", ops::WaitingName(now.waiting)},
               {"side", SideName(now.side)}};
      logged = record->logged;
      written = std::move(*g);
    }
    if (logged) MakeReady(written, true);  // before they hear of it
    hub_->Notify(id, logged ? "turn" : "step", heard, stamp);
    return JsonResponse(200, done);
  }

  // --- changes other servers write to a shared store (store_listener.h, told_changes.h) -------

  // After this server's write (under the game's writer lock): the log's stamp now, the event's
  // id; on a shared store, recorded as told.
  LogStamp Announced(const std::string& id, const std::string& path) {
    return changes_ ? told_.Announced(id, path) : StampOf(path);
  }
  // A change heard from the store (any game's when `id` is none), told to the listeners of each
  // game that has some, under its writer lock.
  void Heard(const std::optional<std::string>& id) {
    for (const std::string& game : id ? std::vector<std::string>{*id} : told_.Games()) {
      if (!hub_->HasListeners(game) || !ValidId(game)) continue;
      auto lock = WriteLock(game);
      std::lock_guard hold(*lock);
      told_.Tell(game, store_->LogAddress(game));
    }
  }

  StepSessions sessions_;  // the player-turns in play step by step

  std::unique_ptr<Store> store_;
  std::size_t max_body_;
  std::size_t max_games_;
  GameCache cache_;          // each game's latest position and answers, the theaters' JSON
  PositionCache positions_;  // the logged past (?at, ?phase, ?step)
  CreateQuota quota_;
  std::mutex creating_mu_;
  std::size_t creating_ = 0;         // games being created now (counted against max_games_)
  std::vector<std::string> hidden_;  // prefixes no answer names (Unpathed): the store, scenarios
  std::shared_ptr<EventHub> hub_;    // the games' listeners
  ToldChanges told_;                 // what each game's listeners were told
  std::unique_ptr<StoreListener> changes_;  // a shared store's changes, heard
  std::mutex locks_mu_;
  std::map<std::string, std::shared_ptr<std::mutex>> locks_;  // writers, by game
};

}  // namespace

Result<std::unique_ptr<Api>> Api::Open(const ApiOptions& options) {
  if (options.games_dir.empty() == options.store.empty()) {
    return Fail(ErrorCode::kInvalidInput,
                "say where the games are kept: a folder (--games DIR) or a PostgreSQL store "
                "(--store postgresql://...), one of them");
  }
  auto store =
      options.store.empty() ? OpenFolderStore(options.games_dir) : OpenPgGameStore(options.store);
  if (!store) return std::unexpected(store.error());
  auto api = std::make_unique<GameApi>(options, std::move(*store));
  api->Init(options.store);
  return std::unique_ptr<Api>(std::move(api));
}

}  // namespace opsim::server
