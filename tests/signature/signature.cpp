#include "signature.h"

#include <algorithm>
#include <filesystem>

#include "opsim/core/sha256.h"
#include "opsim/db/game_log.h"
#include "opsim/map/generate.h"
#include "opsim/ops/synthetic.h"
#include "opsim/query/play.h"

namespace opsim::signature {

namespace fs = std::filesystem;

namespace {

// The bundled campaign's seed, as the README and the demo play it.
constexpr std::uint64_t kBundledSeed = 1940;

std::vector<std::string> Sorted(const fs::path& dir, const std::string& extension) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == extension) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

Status Replayed(const std::string& log, Game& game) {
  db::ReplayOptions options;
  options.verify = true;
  auto report = db::ReplayLog(log, options);
  if (!report) return std::unexpected(report.error());
  game.final_hash = ops::StateHash(report->game.state);
  return {};
}

// Every bundled scenario that has orders: its orders files, in name order, played into a new log
// and the log replayed with --verify.
Status Bundled(const Sources& src, std::vector<Game>& games) {
  const fs::path orders_root = fs::path(src.scenario_dir) / "orders";
  std::error_code ec;
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(orders_root, ec)) {
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  }
  if (ec || names.empty()) {
    return Fail(ErrorCode::kIOError, "no bundled orders", orders_root.string());
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    Game game{"bundled " + name + " seed " + std::to_string(kBundledSeed), {}, {}};
    const std::string log = (fs::path(src.scratch_dir) / (name + ".sqlite")).string();
    auto scenario = JsonSource::FromFile((fs::path(src.scenario_dir) / (name + ".json")).string());
    if (!scenario) return std::unexpected(scenario.error());
    if (auto g = db::NewLoggedGame(log, *scenario, kBundledSeed); !g) {
      return std::unexpected(g.error());
    }
    for (const std::string& file : Sorted(orders_root / name, ".json")) {
      auto orders = JsonSource::FromFile(file);
      if (!orders) return std::unexpected(orders.error());
      auto turn = query::PlayTurn(log, *orders);
      if (!turn) return std::unexpected(turn.error());
      game.turn_hashes.push_back(turn->final_hash);
    }
    if (auto s = Replayed(log, game); !s) return s;
    games.push_back(std::move(game));
  }
  return {};
}

// Every log an earlier build wrote, replayed and verified by this one.
Status Fixtures(const Sources& src, std::vector<Game>& games) {
  const std::vector<std::string> logs = Sorted(src.fixture_dir, ".sqlite");
  if (logs.empty()) return Fail(ErrorCode::kIOError, "no fixture logs", src.fixture_dir);
  for (const std::string& fixture : logs) {
    Game game{"fixture " + fs::path(fixture).filename().string(), {}, {}};
    const fs::path copy =
        fs::path(src.scratch_dir) / ("fixture-" + fs::path(fixture).filename().string());
    std::error_code ec;
    fs::copy_file(fixture, copy, fs::copy_options::overwrite_existing, ec);
    if (ec) return Fail(ErrorCode::kIOError, "cannot copy: " + ec.message(), fixture);
    if (auto s = Replayed(copy.string(), game); !s) return s;
    games.push_back(std::move(game));
  }
  return {};
}

// A synthetic campaign on a generated theater: combat, retreats and supply at some scale.
Status Synthetic(std::vector<Game>& games) {
  Game game{"synthetic 4000 hexes 300 units seed 11", {}, {}};
  auto text = ops::AddSyntheticCampaign(map::GenerateTheater({.hexes = 4000, .seed = 3}), 300, 3);
  if (!text) return std::unexpected(text.error());
  auto src = JsonSource::FromText(*text, "synthetic");
  if (!src) return std::unexpected(src.error());
  auto sc = map::LoadScenario(*src);
  if (!sc) return std::unexpected(sc.error());
  auto campaign = ops::LoadCampaign(*src, *sc, 11);
  if (!campaign) return std::unexpected(campaign.error());
  ops::Game play(std::make_shared<const map::Theater>(std::move(sc->theater)),
                 std::make_shared<const ops::Campaign>(std::move(*campaign)));
  for (int i = 0; i < 8; ++i) {
    auto r = play.Play(ops::SyntheticOrders(play, 5));
    if (!r) return std::unexpected(r.error());
    game.turn_hashes.push_back(r->final_hash);
  }
  game.final_hash = play.hash();
  games.push_back(std::move(game));
  return {};
}

}  // namespace

std::string Signature::Line() const {
  std::size_t turns = 0;
  for (const Game& g : games) turns += g.turn_hashes.size();
  return "signature " + digest + " (" + std::to_string(games.size()) + " games, " +
         std::to_string(turns) + " player-turns played)";
}

Result<Signature> Compute(const Sources& sources) {
  Signature sig;
  if (auto s = Bundled(sources, sig.games); !s) return std::unexpected(s.error());
  if (auto s = Fixtures(sources, sig.games); !s) return std::unexpected(s.error());
  if (auto s = Synthetic(sig.games); !s) return std::unexpected(s.error());
  Sha256 sha;
  for (const Game& g : sig.games) {
    sha.Update(g.name + "\n");
    for (const std::string& h : g.turn_hashes) sha.Update(h + "\n");
    sha.Update("final " + g.final_hash + "\n");
  }
  sig.digest = sha.HexDigest();
  return sig;
}

}  // namespace opsim::signature
