#include "opsim/query/source.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include <spdlog/spdlog.h>

#include "opsim/core/echo.h"
#include "opsim/core/sha256.h"
#include "opsim/db/game_log.h"
#include "opsim/ops/route.h"
#include "warm.h"

namespace opsim::query {

namespace {

Error BadOverride(std::string_view text, const std::string& why) {
  return Error{ErrorCode::kInvalidInput,
               "bad --set '" + EchoToken(text) + "': " + why +
                   " (owner:HEX=axis|allied|none, suez=open|temporarily-closed|"
                   "permanently-closed, frozen:ZONE=true|false, flood:HEX=none|partial|"
                   "prohibited|massive, ice-airfield:HEX=true|false, "
                   "bridge:HEXSIDE=destroyed|intact, "
                   "netherlands-surrendered=true|false, unit:ID=HEX)",
               EchoToken(text),
               {}};
}

// A scenario file, parsed once and its text hashed; its campaign too when `needs` asks.
Result<LoadedGame> LoadScenario(const std::string& name_or_path, std::uint64_t seed, Needs needs) {
  auto path = map::ResolveScenario(name_or_path, ScenarioDir());
  if (!path) return std::unexpected(path.error());
  auto src = JsonSource::FromFile(*path);
  if (!src) return std::unexpected(src.error());
  auto g = LoadScenarioSource(*src, needs, seed);
  if (g) g->scenario.path = std::filesystem::absolute(*path).string();
  return g;
}

// A state file's scenario: its scenario.path, taken relative to the state file's folder (as
// written, or by its file name alone), then the bundled scenario of its name. A file is used only
// inside that folder or the bundled scenarios, and only once its bytes hash to the saved SHA-256,
// so a state file neither reads nor echoes a file elsewhere.
Result<std::string> StateScenarioFile(const std::string& state_path, const ops::ScenarioId& id) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path folder = fs::weakly_canonical(fs::absolute(state_path, ec).parent_path(), ec);
  const fs::path bundled = fs::weakly_canonical(ScenarioDir(), ec);
  std::vector<fs::path> candidates = {folder / id.path, folder / fs::path(id.path).filename()};
  for (const map::BundledScenario& s : map::ListScenarios(ScenarioDir())) {
    if (s.name == id.name) candidates.emplace_back(s.path);
  }
  auto inside = [](const fs::path& file, const fs::path& dir) {
    const auto rel = file.lexically_relative(dir);
    return !rel.empty() && *rel.begin() != "..";
  };
  bool changed = false;
  for (const fs::path& candidate : candidates) {
    const fs::path file = fs::weakly_canonical(candidate, ec);
    if (ec || !fs::is_regular_file(file, ec)) continue;
    if (!inside(file, folder) && !inside(file, bundled)) continue;
    auto text = ReadInputFile(file.string(), kMaxScenarioBytes);
    if (text && Sha256Hex(*text) == id.sha256) return file.string();
    changed = true;
  }
  if (changed) {
    return Fail(ErrorCode::kInvalidInput,
                "the scenario '" + id.name + "' has changed since this state was saved (its " +
                    "SHA-256 was " + id.sha256.substr(0, 12) + "…)",
                state_path);
  }
  return Fail(ErrorCode::kNotFound,
              "the scenario '" + id.name +
                  "' of this state is neither in the state file's folder nor bundled",
              state_path);
}

Result<LoadedGame> LoadStateFile(const std::string& file_path) {
  auto file = JsonSource::FromFile(file_path);
  if (!file) return std::unexpected(file.error());
  auto id = ops::ReadStateScenario(*file);
  if (!id) return std::unexpected(id.error());
  auto where = StateScenarioFile(file_path, *id);
  if (!where) return std::unexpected(where.error());
  auto g = LoadScenario(*where, 1, Needs::kGame);
  if (!g) return std::unexpected(g.error());
  if (!g->campaign) {
    return Fail(ErrorCode::kInvalidInput, "the scenario '" + id->name + "' has no campaign",
                file_path);
  }
  auto loaded = ops::StateFromJson(*file, *g->theater, g->campaign->tables);
  if (!loaded) return std::unexpected(loaded.error());
  if (loaded->edited) {
    spdlog::warn("{}: the state was edited by hand (its saved hashes no longer match)", file_path);
  }
  g->state = std::move(loaded->state);
  g->state_edited = loaded->edited;
  return g;
}

Result<LoadedGame> LoadLogged(const std::string& db_path, std::optional<std::int32_t> at) {
  auto logged = db::LoadLoggedGame(db_path, at);
  if (!logged) return std::unexpected(logged.error());
  LoadedGame g;
  g.theater = logged->theater;
  g.campaign = logged->campaign;
  g.state = std::move(logged->state);
  g.scenario.name = logged->scenario_name;
  return g;
}

// The state after `phase` of logged player-turn `at`. After the exploitation phase it is the
// state the player-turn ends in, as `at` alone gives it (the phase's own copy differs only in
// the player-turn counter, which the end of the player-turn moves on).
Result<LoadedGame> LoadLoggedPhase(const std::string& db_path, std::int32_t at, ops::Phase phase) {
  auto logged = db::LoadLoggedPhases(db_path, at);
  if (!logged) return std::unexpected(logged.error());
  LoadedGame g;
  g.theater = logged->game.theater;
  g.campaign = logged->game.campaign;
  g.scenario.name = logged->game.scenario_name;
  g.phase = phase;
  if (phase == ops::Phase::kExploitation) {
    g.state = std::move(logged->game.state);
    return g;
  }
  const auto& hashes = logged->replayed.hashes;
  for (std::size_t i = 0; i < hashes.size() && i < logged->states.size(); ++i) {
    if (hashes[i].phase == phase) g.state = std::move(logged->states[i]);
  }
  if (!g.state) {
    return Fail(ErrorCode::kCorruption,
                std::string("player-turn ") + std::to_string(at) + " has no " +
                    ops::PhaseName(phase) + " phase",
                db_path);
  }
  return g;
}

// The state after `taken` steps of logged player-turn `at`.
Result<LoadedGame> LoadLoggedStep(const std::string& db_path, std::int32_t at, std::size_t taken) {
  auto logged = db::LoadLoggedSteps(db_path, at, taken);
  if (!logged) return std::unexpected(logged.error());
  LoadedGame g;
  g.theater = logged->game.theater;
  g.campaign = logged->game.campaign;
  g.scenario.name = logged->game.scenario_name;
  g.state = std::move(logged->game.state);
  StepPlace& place = g.step.emplace();
  place.number = at;
  place.taken = taken;
  place.steps = logged->steps.size();
  place.by_steps = logged->by_steps;
  if (taken > 0) place.last = logged->steps[taken - 1];
  place.prompt = std::move(logged->prompt);
  return g;
}

Result<bool> ParseBool(std::string_view text, std::string_view value) {
  if (value == "true") return true;
  if (value == "false") return false;
  return std::unexpected(BadOverride(text, "expected true or false"));
}

}  // namespace

std::string ScenarioDir() {
  if (const char* dir = std::getenv("OPSIM_SCENARIO_DIR"); dir && *dir) return dir;
  return OPSIM_SCENARIO_DIR;
}

const ops::RuleTables& LoadedGame::tables() const {
  return campaign ? campaign->tables : ops::DefaultRuleTables();
}

bool OverrideNeedsCampaign(std::string_view text) {
  const std::string_view key = text.substr(0, text.find('='));
  const std::string_view what = key.substr(0, key.find(':'));
  return what == "unit" || what == "netherlands-surrendered";
}

Result<Override> ParseOverride(const map::Theater& t, std::string_view text) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos) return std::unexpected(BadOverride(text, "no '='"));
  const std::string_view key = text.substr(0, eq);
  const std::string_view value = text.substr(eq + 1);
  const auto colon = key.find(':');
  const std::string_view what = key.substr(0, colon);
  const std::string_view arg = colon == std::string_view::npos ? "" : key.substr(colon + 1);
  Override o;
  o.text = std::string(text);
  auto flag = [&]() -> Result<Override> {
    auto b = ParseBool(text, value);
    if (!b) return std::unexpected(b.error());
    o.flag = *b;
    return o;
  };
  auto hex = [&](std::string_view token) -> Status {
    auto h = t.FindHex(token);
    if (!h) return std::unexpected(h.error());
    o.hex = *h;
    return {};
  };
  if (what == "owner") {
    o.kind = Override::Kind::kOwner;
    if (auto s = hex(arg); !s) return std::unexpected(s.error());
    if (value == "axis") {
      o.owner = Owner::kAxis;
    } else if (value == "allied") {
      o.owner = Owner::kAllied;
    } else if (value == "none") {
      o.owner = Owner::kNone;
    } else {
      return std::unexpected(BadOverride(text, "an owner is axis, allied or none"));
    }
  } else if (what == "suez") {
    o.kind = Override::Kind::kSuez;
    auto status = map::ParseCanalStatus(value);
    if (!status) return std::unexpected(BadOverride(text, "unknown canal status"));
    o.suez = *status;
  } else if (what == "frozen") {
    o.kind = Override::Kind::kFrozen;
    const auto& zones = t.weather_zones();
    auto it = std::find(zones.begin(), zones.end(), arg);
    if (it == zones.end()) {
      return std::unexpected(BadOverride(text, "no weather zone '" + std::string(arg) + "'"));
    }
    o.zone = static_cast<std::size_t>(it - zones.begin());
    return flag();
  } else if (what == "flood") {
    o.kind = Override::Kind::kFlood;
    if (auto s = hex(arg); !s) return std::unexpected(s.error());
    if (value == "partial") {
      o.flood = map::FloodKind::kPartial;
    } else if (value == "prohibited") {
      o.flood = map::FloodKind::kProhibited;
    } else if (value == "massive") {
      o.flood = map::FloodKind::kMassive;
    } else if (value != "none") {
      return std::unexpected(BadOverride(text, "a flood is none, partial, prohibited or massive"));
    }
  } else if (what == "bridge") {
    o.kind = Override::Kind::kBridge;
    auto side = t.FindHexside(arg);
    if (!side) return std::unexpected(side.error());
    o.hexside = *side;
    if (value != "destroyed" && value != "intact") {
      return std::unexpected(BadOverride(text, "a bridge is destroyed or intact"));
    }
    o.flag = value == "destroyed";
  } else if (what == "ice-airfield") {
    o.kind = Override::Kind::kIceAirfield;
    if (auto s = hex(arg); !s) return std::unexpected(s.error());
    return flag();
  } else if (what == "netherlands-surrendered") {
    o.kind = Override::Kind::kNetherlandsSurrendered;
    return flag();
  } else if (what == "unit") {
    o.kind = Override::Kind::kUnit;
    o.unit = std::string(arg);
    auto w = ops::ParseWaypoint(t, value);
    if (!w) return std::unexpected(w.error());
    if (w->is_river()) return std::unexpected(BadOverride(text, "a unit is put in a hex"));
    o.hex = w->hex;
    o.area = w->area;
    o.area_named = w->area_named;
  } else {
    return std::unexpected(BadOverride(text, "unknown key '" + std::string(what) + "'"));
  }
  return o;
}

WarmCache::WarmCache() : warm_(std::make_unique<Warm>()) {}
WarmCache::~WarmCache() = default;
WarmCache::WarmCache(const WarmCache&) : WarmCache() {}
WarmCache& WarmCache::operator=(const WarmCache&) {
  warm_ = std::make_unique<Warm>();
  return *this;
}
// The moved-from cache starts empty too, so that every LoadedGame has one.
WarmCache::WarmCache(WarmCache&& other)
    : warm_(std::exchange(other.warm_, std::make_unique<Warm>())) {}
WarmCache& WarmCache::operator=(WarmCache&& other) {
  warm_ = std::exchange(other.warm_, std::make_unique<Warm>());
  return *this;
}

Status ApplyOverride(LoadedGame& g, const Override& o) {
  g.warm = WarmCache();
  const map::Theater& t = *g.theater;
  map::MapState& m = g.state ? g.state->map : g.map;
  const std::int32_t now = g.player_turn();
  switch (o.kind) {
    case Override::Kind::kOwner:
      m.SetOwner(t, o.hex, o.owner);
      break;
    case Override::Kind::kSuez:
      m.SetSuez(o.suez);
      break;
    case Override::Kind::kFrozen:
      m.SetFrozen(o.zone, o.flag);
      break;
    case Override::Kind::kFlood:
      if (!o.flood) {
        m.ClearFlood(o.hex);
      } else if (*o.flood == map::FloodKind::kPartial) {
        m.SetFlood(o.hex, {map::FloodKind::kPartial, now, now});
      } else if (*o.flood == map::FloodKind::kProhibited) {
        // 41.A.4.a S*, flooded the player-turn before: prohibited now, as long as the table says.
        const std::int32_t from = now - 1;
        m.SetFlood(o.hex, {map::FloodKind::kProhibited, from,
                           from + g.tables().flooding.great_success_player_turns});
      } else {
        // 41.A.4.b: prohibited this player-turn and the next.
        m.SetFlood(o.hex, {map::FloodKind::kMassive, now, now + 1});
      }
      break;
    case Override::Kind::kBridge:
      m.SetBridgeDestroyed(o.hexside, o.flag);
      break;
    case Override::Kind::kIceAirfield:
      m.SetIceAirfield(o.hex, o.flag);
      break;
    case Override::Kind::kNetherlandsSurrendered:
    case Override::Kind::kUnit: {
      if (!g.state) return std::unexpected(BadOverride(o.text, "this scenario has no campaign"));
      if (o.kind == Override::Kind::kNetherlandsSurrendered) {
        g.state->netherlands_surrendered = o.flag;
        break;
      }
      // The scenario reader's checks on where a unit starts (ops/campaign.cpp).
      const map::HexInfo& hex = t.hex(o.hex);
      auto refuse = [&](const std::string& why) {
        return std::unexpected(BadOverride(o.text, why));
      };
      if (o.area_named && g.state->FindNaval(o.unit) == nullptr) {
        return refuse("only a naval unit is put in a water area (HEX#AREA)");
      }
      if (ops::GroundUnit* u = g.state->FindUnit(o.unit)) {
        if (hex.IsWater() || hex.terrain == map::Terrain::kProhibited) {
          return refuse("a ground unit stands on land it may enter (B4.4)");
        }
        u->hex = o.hex;
        u->status = ops::UnitStatus::kOnMap;
      } else if (ops::AirUnit* a = g.state->FindAir(o.unit)) {
        if (!hex.airbase) return refuse(t.HexName(o.hex) + " has no airbase (B11.1)");
        a->base = o.hex;
        a->status = ops::AirStatus::kBased;
      } else if (ops::NavalUnit* n = g.state->FindNaval(o.unit)) {
        if (t.WaterAreasOf(o.hex).empty())
          return refuse("a naval unit is in a port or at sea (B6.1)");
        n->hex = o.hex;
        n->area = o.area;
        n->at_sea = hex.port == map::PortSize::kNone;
        n->sunk = false;
      } else {
        return refuse("no unit '" + EchoToken(o.unit) + "'");
      }
      break;
    }
  }
  if (g.state) g.map = g.state->map;
  return {};
}

Result<LoadedGame> LoadScenarioSource(const JsonSource& src, Needs needs, std::uint64_t seed) {
  auto loaded = map::LoadScenario(src);
  if (!loaded) return std::unexpected(loaded.error());
  // The theater stays where it was loaded: the campaign may point into it.
  auto sc = std::make_shared<map::Scenario>(std::move(*loaded));
  LoadedGame g;
  g.theater = std::shared_ptr<const map::Theater>(sc, &sc->theater);
  g.scenario.name = sc->theater.name();
  g.scenario.path = src.name();
  g.scenario.sha256 = Sha256Hex(src.text());
  g.map = sc->state;
  if (needs == Needs::kGame && src.doc().contains("campaign")) {
    auto campaign = ops::LoadCampaign(src, *sc, seed);
    if (!campaign) return std::unexpected(campaign.error());
    g.state = campaign->initial;
    g.campaign = std::make_shared<const ops::Campaign>(std::move(*campaign));
  }
  return g;
}

Result<LoadedGame> Load(const Source& source, Needs needs) {
  if (std::any_of(source.overrides.begin(), source.overrides.end(),
                  [](const std::string& o) { return OverrideNeedsCampaign(o); })) {
    needs = Needs::kGame;
  }
  Result<LoadedGame> g;
  if (source.phase && (source.db.empty() || source.at.value_or(0) < 1)) {
    return Fail(ErrorCode::kInvalidInput,
                "--phase goes with --db and --at N, N from 1: the logged player-turn it is a "
                "phase of");
  }
  if (source.step && (source.db.empty() || source.at.value_or(0) < 1 || source.phase)) {
    return Fail(ErrorCode::kInvalidInput,
                "--step goes with --db and --at N, N from 1: the logged player-turn it is a step "
                "of (and not with --phase)");
  }
  if (source.step) {
    g = LoadLoggedStep(source.db, *source.at, *source.step);
  } else if (source.phase) {
    g = LoadLoggedPhase(source.db, *source.at, *source.phase);
  } else if (!source.db.empty()) {
    g = LoadLogged(source.db, source.at);
  } else if (source.at) {
    return Fail(ErrorCode::kInvalidInput, "--at goes with --db");
  } else if (!source.state.empty()) {
    g = LoadStateFile(source.state);
  } else if (!source.scenario.empty()) {
    g = LoadScenario(source.scenario, source.seed, needs);
  } else {
    return Fail(ErrorCode::kInvalidInput, "say which game: --scenario, --state or --db");
  }
  if (!g) return g;
  if (g->state) g->map = g->state->map;
  for (const std::string& text : source.overrides) {
    auto o = ParseOverride(*g->theater, text);
    if (!o) return std::unexpected(o.error());
    if (auto s = ApplyOverride(*g, *o); !s) return std::unexpected(s.error());
  }
  return g;
}

Result<ops::Game> GameOf(const LoadedGame& g) {
  if (!g.campaign || !g.state) {
    return Fail(ErrorCode::kInvalidInput,
                "scenario '" + g.scenario.name + "' is a map only: it has no campaign to play");
  }
  return ops::Game(g.theater, g.campaign, *g.state);
}

Result<Lease<ops::Game>> LeasePlanningGame(const LoadedGame& g, std::optional<Side> side) {
  Pool<ops::Game>& pool = g.warm.get().games;
  const bool next = g.state && side && *side != g.state->phasing();
  std::string key = next ? "next" : "now";
  std::unique_ptr<ops::Game> game = pool.Take(key);
  if (!game) {
    auto made = g.warm.get().Fork(key, [&]() -> Result<ops::Game> {
      auto planning = GameOf(g);
      if (!planning || !next) return planning;
      ops::GameState state = planning->state();
      ++state.player_turn;
      return ops::Game(g.theater, g.campaign, std::move(state));
    });
    if (!made) return std::unexpected(made.error());
    game = std::make_unique<ops::Game>(std::move(*made));
  }
  return Lease<ops::Game>(pool, std::move(key), std::move(game));
}

}  // namespace opsim::query
