#include "game_source.h"

#include <filesystem>

#include <spdlog/spdlog.h>

#include "opsim/core/sha256.h"
#include "opsim/db/game_log.h"
#include "scenario_arg.h"

namespace opsim::cli {

namespace {

Status ApplySet(LoadedGame& g, const std::string& set) {
  const map::Theater& t = *g.theater;
  const auto eq = set.find('=');
  auto bad = [&](const std::string& why) {
    return Fail(ErrorCode::kInvalidInput,
                "bad --set '" + set + "': " + why +
                    " (owner:HEX=axis|allied|none, suez=open|temporarily-closed|"
                    "permanently-closed, frozen:ZONE=true|false, flood:HEX=none|partial|"
                    "prohibited|massive, ice-airfield:HEX=true|false, "
                    "bridge:HEXSIDE=destroyed|intact, "
                    "netherlands-surrendered=true|false, unit:ID=HEX)",
                set);
  };
  if (eq == std::string::npos) return bad("no '='");
  const std::string key = set.substr(0, eq);
  const std::string value = set.substr(eq + 1);
  const auto colon = key.find(':');
  const std::string what = key.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : key.substr(colon + 1);
  map::MapState& m = g.state ? g.state->map : g.map;
  auto boolean = [&](bool& out) -> Status {
    if (value == "true") {
      out = true;
    } else if (value == "false") {
      out = false;
    } else {
      return bad("expected true or false");
    }
    return {};
  };
  if (what == "owner") {
    auto h = t.FindHex(arg);
    if (!h) return std::unexpected(h.error());
    const Owner o = value == "axis"     ? Owner::kAxis
                    : value == "allied" ? Owner::kAllied
                    : value == "none"   ? Owner::kNone
                                        : static_cast<Owner>(255);
    if (static_cast<int>(o) == 255) return bad("an owner is axis, allied or none");
    m.SetOwner(t, *h, o);
  } else if (what == "suez") {
    auto status = map::ParseCanalStatus(value);
    if (!status) return bad("unknown canal status");
    m.SetSuez(*status);
  } else if (what == "frozen") {
    const auto& zones = t.weather_zones();
    auto it = std::find(zones.begin(), zones.end(), arg);
    if (it == zones.end()) return bad("no weather zone '" + arg + "'");
    bool frozen = false;
    if (auto s = boolean(frozen); !s) return s;
    m.SetFrozen(static_cast<std::size_t>(it - zones.begin()), frozen);
  } else if (what == "flood") {
    auto h = t.FindHex(arg);
    if (!h) return std::unexpected(h.error());
    const std::int32_t now = g.state ? g.state->player_turn : 0;
    if (value == "none") {
      m.ClearFlood(*h);
    } else if (value == "partial") {
      m.SetFlood(*h, {map::FloodKind::kPartial, now, now});
    } else if (value == "prohibited") {
      m.SetFlood(*h, {map::FloodKind::kProhibited, now - 1, now + 3});
    } else if (value == "massive") {
      m.SetFlood(*h, {map::FloodKind::kMassive, now, now + 1});
    } else {
      return bad("a flood is none, partial, prohibited or massive");
    }
  } else if (what == "bridge") {
    auto side = t.FindHexside(arg);
    if (!side) return std::unexpected(side.error());
    if (value != "destroyed" && value != "intact") return bad("a bridge is destroyed or intact");
    m.SetBridgeDestroyed(*side, value == "destroyed");
  } else if (what == "ice-airfield") {
    auto h = t.FindHex(arg);
    if (!h) return std::unexpected(h.error());
    bool present = false;
    if (auto s = boolean(present); !s) return s;
    m.SetIceAirfield(*h, present);
  } else if (what == "netherlands-surrendered" || what == "unit") {
    if (!g.state) return bad("this scenario has no campaign");
    if (what == "netherlands-surrendered") return boolean(g.state->netherlands_surrendered);
    ops::GroundUnit* u = g.state->FindUnit(arg);
    if (u == nullptr) return bad("no ground unit '" + arg + "'");
    auto h = t.FindHex(value);
    if (!h) return std::unexpected(h.error());
    u->hex = *h;
    u->status = ops::UnitStatus::kOnMap;
  } else {
    return bad("unknown key '" + what + "'");
  }
  return {};
}

Result<std::string> ReadText(const std::string& path) {
  auto src = JsonSource::FromFile(path);
  if (!src) return std::unexpected(src.error());
  return src->text();
}

}  // namespace

void AddGameSourceOptions(CLI::App* cmd, GameSource& src, bool seed) {
  auto* scenario = cmd->add_option("--scenario", src.scenario,
                                   "a bundled scenario's name, or a scenario file: a new game");
  auto* state = cmd->add_option("--state", src.state, "a saved state file (opsim turn --out)");
  auto* db = cmd->add_option("--db", src.db, "a turn log (opsim new)");
  cmd->add_option("--at", src.at, "with --db: the state after this many logged player-turns")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--set", src.sets,
                  "what-if overrides, repeatable: owner:HEX=axis|allied|none, suez=STATUS, "
                  "frozen:ZONE=true|false, flood:HEX=none|partial|prohibited|massive, "
                  "ice-airfield:HEX=true|false, bridge:HEXSIDE=destroyed|intact, "
                  "netherlands-surrendered=true|false, unit:ID=HEX");
  if (seed) cmd->add_option("--seed", src.seed, "the dice's seed for a new game")->default_val(1);
  scenario->excludes(state)->excludes(db);
  state->excludes(db);
}

Result<LoadedGame> LoadScenarioGame(const std::string& name_or_path, std::uint64_t seed) {
  auto path = map::ResolveScenario(name_or_path, ScenarioDir());
  if (!path) return std::unexpected(path.error());
  auto text = ReadText(*path);
  if (!text) return std::unexpected(text.error());
  auto src = JsonSource::FromText(*text, *path);
  if (!src) return std::unexpected(src.error());
  auto sc = map::LoadScenario(*src);
  if (!sc) return std::unexpected(sc.error());
  LoadedGame g;
  g.scenario.name = sc->theater.name();
  g.scenario.path = std::filesystem::absolute(*path).string();
  g.scenario.sha256 = Sha256Hex(*text);
  g.map = sc->state;
  if (src->doc().contains("campaign")) {
    auto campaign = ops::LoadCampaign(*src, *sc, seed);
    if (!campaign) return std::unexpected(campaign.error());
    g.state = campaign->initial;
    g.map = g.state->map;
    g.campaign = std::make_shared<const ops::Campaign>(std::move(*campaign));
  }
  g.theater = std::make_shared<const map::Theater>(std::move(sc->theater));
  g.label = g.scenario.name + " (a new game)";
  return g;
}

Result<LoadedGame> LoadGame(const GameSource& src) {
  LoadedGame g;
  if (!src.db.empty()) {
    auto logged = db::LoadLoggedGame(
        src.db, src.at >= 0 ? std::optional<std::int32_t>(src.at) : std::nullopt);
    if (!logged) return std::unexpected(logged.error());
    g.theater = logged->theater;
    g.campaign = logged->campaign;
    g.state = std::move(logged->state);
    g.scenario.name = logged->scenario_name;
    g.label = src.db + " after " + std::to_string(logged->turns_played) + " player-turns";
  } else if (src.at >= 0) {
    return Fail(ErrorCode::kInvalidInput, "--at goes with --db");
  } else if (!src.state.empty()) {
    auto file = JsonSource::FromFile(src.state);
    if (!file) return std::unexpected(file.error());
    auto id = ops::ReadStateScenario(*file);
    if (!id) return std::unexpected(id.error());
    std::error_code ec;
    const std::string where = std::filesystem::is_regular_file(id->path, ec) ? id->path : id->name;
    auto base = LoadScenarioGame(where, 1);
    if (!base) return std::unexpected(base.error());
    if (base->scenario.sha256 != id->sha256) {
      return Fail(ErrorCode::kInvalidInput,
                  "the scenario '" + id->name +
                      "' has changed since this state was saved (its "
                      "SHA-256 was " +
                      id->sha256.substr(0, 12) + "…, it is now " +
                      base->scenario.sha256.substr(0, 12) + "…)",
                  src.state);
    }
    if (!base->campaign) {
      return Fail(ErrorCode::kInvalidInput, "the scenario '" + id->name + "' has no campaign",
                  src.state);
    }
    auto loaded = ops::StateFromJson(*file, *base->theater);
    if (!loaded) return std::unexpected(loaded.error());
    if (loaded->edited) {
      spdlog::warn("{}: the state was edited by hand (its saved hash no longer matches)",
                   src.state);
    }
    g = std::move(*base);
    g.state = std::move(loaded->state);
    g.label = "state file " + src.state;
  } else if (!src.scenario.empty()) {
    auto base = LoadScenarioGame(src.scenario, src.seed);
    if (!base) return std::unexpected(base.error());
    g = std::move(*base);
  } else {
    return Fail(ErrorCode::kInvalidInput, "say which game: --scenario, --state or --db");
  }
  if (g.state) g.map = g.state->map;
  for (const std::string& set : src.sets) {
    if (auto s = ApplySet(g, set); !s) return std::unexpected(s.error());
  }
  if (g.state) g.map = g.state->map;
  if (!src.sets.empty()) g.label += ", with --set";
  return g;
}

}  // namespace opsim::cli
