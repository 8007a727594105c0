#include "opsim/query/odds.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>

#include "opsim/core/dice.h"
#include "opsim/core/sha256.h"
#include "opsim/ops/calendar.h"
#include "opsim/ops/orders.h"

namespace opsim::query {

namespace {

using nlohmann::json;

constexpr std::array<ops::FloodResult, 4> kFloods = {
    ops::FloodResult::kCompleteFailure, ops::FloodResult::kFailure, ops::FloodResult::kSuccess,
    ops::FloodResult::kGreatSuccess};

// One thread's counts, by index (units in the state's order, hexes by vertex): named at the end.
struct Tally {
  std::vector<AttackOdds> attacks;
  std::vector<std::uint64_t> unit_losses;
  std::map<std::int64_t, std::uint64_t> losses, srp_spent;
  std::map<std::uint32_t, std::uint64_t> gained;
  std::uint64_t played = 0;

  void Add(const Tally& o) {
    for (std::size_t k = 0; k < attacks.size(); ++k) {
      for (std::size_t r = 0; r < attacks[k].results.size(); ++r) {
        attacks[k].results[r] += o.attacks[k].results[r];
      }
      for (std::size_t f = 0; f < kFloods.size(); ++f) {
        attacks[k].floods[f] += o.attacks[k].floods[f];
      }
      attacks[k].called_off += o.attacks[k].called_off;
    }
    for (std::size_t u = 0; u < unit_losses.size(); ++u) unit_losses[u] += o.unit_losses[u];
    for (const auto& [k, n] : o.losses) losses[k] += n;
    for (const auto& [k, n] : o.srp_spent) srp_spent[k] += n;
    for (const auto& [k, n] : o.gained) gained[k] += n;
    played += o.played;
  }
};

int SrpTotal(const ops::GameState& s) {
  int total = 0;
  for (const auto& [nation, srp] : s.srp) total += srp;
  return total;
}

// What one run came to, added to `t`.
void Count(const ops::GameState& before, const ops::GameState& after, const ops::TurnResult& r,
           const std::map<std::uint32_t, std::size_t>& attack_of_hex, std::uint32_t hexes,
           Tally& t) {
  for (const ops::AttackOutcome& o : r.attacks) {
    AttackOdds& a = t.attacks[attack_of_hex.at(o.hex.v)];
    if (o.flood) ++a.floods[static_cast<std::size_t>(*o.flood)];
    if (o.result) {
      ++a.results[o.result->code];
    } else {
      ++a.called_off;
    }
  }
  std::int64_t lost = 0;
  for (std::size_t u = 0; u < after.units.size(); ++u) {
    if (before.units[u].status != ops::UnitStatus::kEliminated &&
        after.units[u].status == ops::UnitStatus::kEliminated) {
      ++t.unit_losses[u];
      ++lost;
    }
  }
  ++t.losses[lost];
  ++t.srp_spent[SrpTotal(before) - SrpTotal(after)];
  const Owner mover = OwnerOf(r.side);
  for (std::uint32_t v = 0; v < hexes; ++v) {
    const map::HexRef h{v};
    if (after.map.owner(h) == mover && before.map.owner(h) != mover) ++t.gained[v];
  }
  ++t.played;
}

// A non-negative count at `at` (JSON numbers up to 2^64 - 1).
Result<std::uint64_t> Unsigned(const JsonSource& src, const JsonSource::Pointer& at) {
  const json& j = src.doc()[at];
  if (!j.is_number_unsigned()) return src.Bad(at, "expected a count (an integer, 0 or more)");
  return j.get<std::uint64_t>();
}

// Checks that each step of `at` is there, so that reading it cannot throw; array indexes come
// from JsonReader::Each, which stays within the array.
Status Present(const JsonReader& r, const JsonSource::Pointer& at) {
  if (at.empty()) return {};
  const JsonSource::Pointer parent = at.parent_pointer();
  if (auto s = Present(r, parent); !s) return s;
  if (r.At(parent).is_array()) return {};
  return r.Require(parent, at.back());
}

}  // namespace

std::uint64_t RunDice(std::uint64_t seed, std::uint64_t run) {
  // SplitMix64 steps its state by a constant: its (run+1)th output is one step from here.
  constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;
  return Dice(seed + run * kGolden).Next();
}

std::vector<std::uint32_t> OddsAnswer::MissingShards() const {
  std::vector<std::uint32_t> missing;
  for (std::uint32_t k = 1; k <= shards; ++k) {
    if (!std::binary_search(shards_in.begin(), shards_in.end(), k)) missing.push_back(k);
  }
  return missing;
}

Result<OddsAnswer> RunOdds(const LoadedGame& g, const JsonSource& orders_src,
                           const OddsRequest& request) {
  if (request.runs < 1 || request.runs > kMaxOddsRuns) {
    return Fail(ErrorCode::kInvalidInput, "--runs must be from 1 to " +
                                              std::to_string(kMaxOddsRuns) + ", not " +
                                              std::to_string(request.runs));
  }
  if (request.threads < 1 || request.threads > kMaxOddsThreads) {
    return Fail(ErrorCode::kInvalidInput, "--threads must be from 1 to " +
                                              std::to_string(kMaxOddsThreads) + ", not " +
                                              std::to_string(request.threads));
  }
  if (request.shards < 1 || request.shard < 1 || request.shard > request.shards) {
    return Fail(ErrorCode::kInvalidInput, "--shard " + std::to_string(request.shard) + "/" +
                                              std::to_string(request.shards) +
                                              ": K/N needs 1 <= K <= N");
  }
  if (request.shards > request.runs) {
    return Fail(ErrorCode::kInvalidInput, "--shard: " + std::to_string(request.shards) +
                                              " shards of " + std::to_string(request.runs) +
                                              " runs would leave some empty; use at most --runs");
  }
  auto base = GameOf(g);
  if (!base) return std::unexpected(base.error());
  auto parsed = ops::ParseOrders(orders_src, *g.theater);
  if (!parsed) return std::unexpected(parsed.error());
  ops::Orders orders = std::move(*parsed);

  OddsAnswer a;
  a.orders_sha256 = Sha256Hex(orders_src.text());
  a.scenario = g.scenario.name;
  a.game_hash = base->hash();
  a.side = SideName(base->state().phasing());
  a.turn = ops::FormatGameDate(base->state().date());
  a.seed = request.seed;
  a.runs = request.runs;
  a.shards = request.shards;
  a.shards_in = {request.shard};
  for (const ops::CombatResultCode& code : g.tables().combat.codes) {
    a.codes.push_back(code.name);
  }
  a.scripted_dice_ignored = orders.dice.size();
  orders.dice.clear();

  Tally empty;
  std::map<std::uint32_t, std::size_t> attack_of_hex;
  for (const ops::AttackOrder& o : orders.combat) {
    attack_of_hex.emplace(o.hex.v, empty.attacks.size());
    empty.attacks.push_back(AttackOdds{g.theater->HexName(o.hex), {}});
    empty.attacks.back().results.assign(a.codes.size(), 0);
  }
  const ops::GameState& start = base->state();
  empty.unit_losses.assign(start.units.size(), 0);

  // This shard's runs: i = shard - 1 + k * shards, k = 0 .. count - 1.
  const std::uint64_t count =
      (request.runs - request.shard) / request.shards + 1;  // shard <= shards <= runs
  const unsigned threads = static_cast<unsigned>(std::min<std::uint64_t>(request.threads, count));
  const std::uint64_t step = std::max<std::uint64_t>(1, count / 100);
  std::atomic<std::uint64_t> next{0}, played{0};
  std::atomic<bool> stop{false};
  std::mutex mu;  // guards `failed`, `total` and the progress calls
  std::optional<std::pair<std::uint64_t, Error>> failed;
  Tally total = empty;

  auto work = [&](const ops::Game& game) {
    Tally t = empty;
    while (!stop) {
      const std::uint64_t k = next++;
      if (k >= count) break;
      const std::uint64_t run = request.shard - 1 + k * request.shards;
      ops::Game copy = game;  // shares this thread's routers; copies the state
      copy.SetDice(RunDice(request.seed, run));
      auto r = copy.Play(orders);
      if (!r) {
        std::lock_guard lock(mu);
        if (!failed || run < failed->first) failed.emplace(run, r.error());
        stop = true;
        break;
      }
      Count(start, copy.state(), *r, attack_of_hex, g.theater->hex_count(), t);
      if (const std::uint64_t done = ++played; request.progress && done % step == 0) {
        std::lock_guard lock(mu);
        request.progress(done, count);
      }
    }
    std::lock_guard lock(mu);
    total.Add(t);
  };
  std::vector<ops::Game> games;  // one a thread, each with a router cache of its own
  games.push_back(*base);
  for (unsigned k = 1; k < threads; ++k) {
    auto game = GameOf(g);
    if (!game) return std::unexpected(game.error());
    games.push_back(std::move(*game));
  }
  {
    std::vector<std::jthread> pool;
    for (unsigned k = 1; k < threads; ++k) pool.emplace_back(work, std::cref(games[k]));
    work(games[0]);
  }
  if (failed) {
    Error e = failed->second;
    // A rule's refusal may hang on the run's dice; other errors (orders for another turn) do not.
    if (e.code == ErrorCode::kRuleViolation) {
      e.message = "run " + std::to_string(failed->first) + " (dice " +
                  std::to_string(RunDice(request.seed, failed->first)) + "): " + e.message;
    }
    return std::unexpected(e);
  }

  a.played = total.played;
  a.attacks = std::move(total.attacks);
  for (std::size_t u = 0; u < start.units.size(); ++u) {
    if (total.unit_losses[u] == 0) continue;
    const ops::GroundUnit& unit = start.units[u];
    a.eliminated.push_back(
        UnitLosses{unit.id, unit.name, SideName(unit.side), total.unit_losses[u]});
  }
  std::sort(a.eliminated.begin(), a.eliminated.end(),
            [](const UnitLosses& x, const UnitLosses& y) { return x.id < y.id; });
  a.losses = std::move(total.losses);
  a.srp_spent = std::move(total.srp_spent);
  for (const auto& [v, n] : total.gained) a.gained[g.theater->HexName(map::HexRef{v})] = n;
  return a;
}

Result<OddsAnswer> MergeOdds(const std::vector<OddsAnswer>& parts,
                             const std::vector<std::string>& names) {
  if (parts.empty()) return Fail(ErrorCode::kInvalidInput, "nothing to merge: name shard files");
  OddsAnswer m = parts.front();
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const OddsAnswer& p = parts[i];
    auto differs = [&](const char* what, const std::string& mine,
                       const std::string& theirs) -> Status {
      if (mine == theirs) return {};
      return Fail(ErrorCode::kInvalidInput, names[i] + ": /" + what + " is " + theirs + ", but " +
                                                names[0] + "'s is " + mine +
                                                ": shards of another odds run");
    };
    for (const auto& [what, mine, theirs] :
         std::vector<std::tuple<const char*, std::string, std::string>>{
             {"orders_sha256", m.orders_sha256, p.orders_sha256},
             {"scenario", m.scenario, p.scenario},
             {"game_hash", m.game_hash, p.game_hash},
             {"seed", std::to_string(m.seed), std::to_string(p.seed)},
             {"runs", std::to_string(m.runs), std::to_string(p.runs)},
             {"shards", std::to_string(m.shards), std::to_string(p.shards)},
             {"codes", nlohmann::json(m.codes).dump(), nlohmann::json(p.codes).dump()}}) {
      if (auto s = differs(what, mine, theirs); !s) return std::unexpected(s.error());
    }
    for (std::uint32_t k : p.shards_in) {
      if (std::binary_search(m.shards_in.begin(), m.shards_in.end(), k)) {
        return Fail(ErrorCode::kInvalidInput, names[i] + ": shard " + std::to_string(k) + "/" +
                                                  std::to_string(m.shards) +
                                                  " is counted twice (already in an earlier file)");
      }
    }
    if (p.attacks.size() != m.attacks.size()) {
      return Fail(ErrorCode::kInvalidInput, names[i] + ": /attacks differ from " + names[0] + "'s");
    }
    m.shards_in.insert(m.shards_in.end(), p.shards_in.begin(), p.shards_in.end());
    std::sort(m.shards_in.begin(), m.shards_in.end());
    m.played += p.played;
    for (std::size_t k = 0; k < m.attacks.size(); ++k) {
      AttackOdds& x = m.attacks[k];
      const AttackOdds& y = p.attacks[k];
      if (x.hex != y.hex) {
        return Fail(ErrorCode::kInvalidInput, names[i] + ": /attacks/" + std::to_string(k) +
                                                  " is at " + y.hex + ", not " + x.hex);
      }
      for (std::size_t r = 0; r < x.results.size(); ++r) x.results[r] += y.results[r];
      for (std::size_t f = 0; f < x.floods.size(); ++f) x.floods[f] += y.floods[f];
      x.called_off += y.called_off;
    }
    for (const UnitLosses& u : p.eliminated) {
      auto it = std::find_if(m.eliminated.begin(), m.eliminated.end(),
                             [&](const UnitLosses& v) { return v.id == u.id; });
      if (it == m.eliminated.end()) {
        m.eliminated.push_back(u);
      } else {
        it->runs += u.runs;
      }
    }
    std::sort(m.eliminated.begin(), m.eliminated.end(),
              [](const UnitLosses& x, const UnitLosses& y) { return x.id < y.id; });
    for (const auto& [k, n] : p.losses) m.losses[k] += n;
    for (const auto& [k, n] : p.srp_spent) m.srp_spent[k] += n;
    for (const auto& [k, n] : p.gained) m.gained[k] += n;
  }
  return m;
}

Summary Summarize(const std::map<std::int64_t, std::uint64_t>& histogram) {
  Summary s;
  std::uint64_t total = 0;
  double sum = 0;
  for (const auto& [v, n] : histogram) {
    total += n;
    sum += static_cast<double>(v) * static_cast<double>(n);
  }
  if (total == 0) return s;
  s.mean = sum / static_cast<double>(total);
  // The smallest value with at least `tenths`/10 of the runs at or below it.
  auto quantile = [&](std::uint64_t tenths) {
    std::uint64_t below = 0;
    for (const auto& [v, n] : histogram) {
      below += n;
      if (below * 10 >= total * tenths) return v;
    }
    return histogram.rbegin()->first;
  };
  s.p10 = quantile(1);
  s.p50 = quantile(5);
  s.p90 = quantile(9);
  return s;
}

json ToJson(const OddsAnswer& a) {
  json attacks = json::array();
  for (const AttackOdds& at : a.attacks) {
    json results = json::object();
    for (std::size_t r = 0; r < a.codes.size(); ++r) results[a.codes[r]] = at.results[r];
    json floods = json::object();
    for (std::size_t f = 0; f < kFloods.size(); ++f) {
      floods[ops::FloodResultName(kFloods[f])] = at.floods[f];
    }
    attacks.push_back(
        {{"hex", at.hex}, {"results", results}, {"called_off", at.called_off}, {"floods", floods}});
  }
  json eliminated = json::array();
  for (const UnitLosses& u : a.eliminated) {
    eliminated.push_back({{"id", u.id}, {"name", u.name}, {"side", u.side}, {"runs", u.runs}});
  }
  auto histogram = [](const std::map<std::int64_t, std::uint64_t>& h, const char* key) {
    json rows = json::array();
    for (const auto& [v, n] : h) rows.push_back({{key, v}, {"runs", n}});
    const Summary s = Summarize(h);
    return json{{"runs", rows}, {"mean", s.mean}, {"p10", s.p10}, {"p50", s.p50}, {"p90", s.p90}};
  };
  json gained = json::array();
  for (const auto& [hex, n] : a.gained) gained.push_back({{"hex", hex}, {"runs", n}});
  return {{"opsim", "odds"},
          {"version", 1},
          {"orders_sha256", a.orders_sha256},
          {"scenario", a.scenario},
          {"game_hash", a.game_hash},
          {"side", a.side},
          {"turn", a.turn},
          {"seed", a.seed},
          {"runs", a.runs},
          {"shards", a.shards},
          {"shards_in", a.shards_in},
          {"missing_shards", a.MissingShards()},
          {"played", a.played},
          {"scripted_dice_ignored", a.scripted_dice_ignored},
          {"codes", a.codes},
          {"attacks", attacks},
          {"eliminated", eliminated},
          {"losses", histogram(a.losses, "units")},
          {"gained", gained},
          {"srp_spent", histogram(a.srp_spent, "srp")}};
}

Result<OddsAnswer> OddsFromJson(const JsonSource& src) {
  JsonReader r(src);
  using P = JsonSource::Pointer;
  if (auto v = r.Header("odds", 1, "an opsim odds result"); !v) {
    return std::unexpected(v.error());
  }
  // Each read checks first that its path is there: reading a missing key would throw.
  auto str = [&](const P& at) -> Result<std::string> {
    if (auto s = Present(r, at); !s) return std::unexpected(s.error());
    return r.String(at);
  };
  auto num = [&](const P& at) -> Result<std::uint64_t> {
    if (auto s = Present(r, at); !s) return std::unexpected(s.error());
    return Unsigned(src, at);
  };
  auto each = [&](const P& at, auto f) -> Status {
    if (auto s = Present(r, at); !s) return s;
    return r.Each(at, f);
  };
  OddsAnswer a;
  for (auto [key, field] : {std::pair{"orders_sha256", &a.orders_sha256},
                            {"scenario", &a.scenario},
                            {"game_hash", &a.game_hash},
                            {"side", &a.side},
                            {"turn", &a.turn}}) {
    auto v = str(P("/" + std::string(key)));
    if (!v) return std::unexpected(v.error());
    *field = *v;
  }
  for (auto [key, field] : {std::pair{"seed", &a.seed},
                            {"runs", &a.runs},
                            {"played", &a.played},
                            {"scripted_dice_ignored", &a.scripted_dice_ignored}}) {
    auto n = num(P("/" + std::string(key)));
    if (!n) return std::unexpected(n.error());
    *field = *n;
  }
  if (auto s = Present(r, P("/shards")); !s) return std::unexpected(s.error());
  auto shards = r.Int(P("/shards"), 1, kMaxOddsRuns);
  if (!shards) return std::unexpected(shards.error());
  a.shards = static_cast<std::uint32_t>(*shards);
  Status read = each(P("/shards_in"), [&](const P& at) -> Status {
    auto k = r.Int(at, 1, a.shards);
    if (!k) return std::unexpected(k.error());
    a.shards_in.push_back(static_cast<std::uint32_t>(*k));
    return {};
  });
  if (!read) return std::unexpected(read.error());
  std::sort(a.shards_in.begin(), a.shards_in.end());
  if (std::adjacent_find(a.shards_in.begin(), a.shards_in.end()) != a.shards_in.end()) {
    return src.Bad(P("/shards_in"), "a shard is listed twice");
  }
  read = each(P("/codes"), [&](const P& at) -> Status {
    auto code = r.String(at);
    if (!code) return std::unexpected(code.error());
    a.codes.push_back(*code);
    return {};
  });
  if (!read) return std::unexpected(read.error());
  read = each(P("/attacks"), [&](const P& at) -> Status {
    AttackOdds o;
    auto hex = str(at / "hex");
    if (!hex) return std::unexpected(hex.error());
    o.hex = *hex;
    for (const std::string& code : a.codes) {
      auto n = num(at / "results" / code);
      if (!n) return std::unexpected(n.error());
      o.results.push_back(*n);
    }
    for (std::size_t k = 0; k < kFloods.size(); ++k) {
      auto n = num(at / "floods" / ops::FloodResultName(kFloods[k]));
      if (!n) return std::unexpected(n.error());
      o.floods[k] = *n;
    }
    auto off = num(at / "called_off");
    if (!off) return std::unexpected(off.error());
    o.called_off = *off;
    a.attacks.push_back(o);
    return {};
  });
  if (!read) return std::unexpected(read.error());
  read = each(P("/eliminated"), [&](const P& at) -> Status {
    UnitLosses u;
    for (auto [key, field] : {std::pair{"id", &u.id}, {"name", &u.name}, {"side", &u.side}}) {
      auto v = str(at / key);
      if (!v) return std::unexpected(v.error());
      *field = *v;
    }
    auto n = num(at / "runs");
    if (!n) return std::unexpected(n.error());
    u.runs = *n;
    a.eliminated.push_back(u);
    return {};
  });
  if (!read) return std::unexpected(read.error());
  auto histogram = [&](const P& at, const char* key, std::map<std::int64_t, std::uint64_t>& h) {
    return each(at / "runs", [&](const P& row) -> Status {
      if (auto s = Present(r, row / key); !s) return s;
      auto v = r.Int(row / key, std::numeric_limits<std::int64_t>::min(),
                     std::numeric_limits<std::int64_t>::max());
      if (!v) return std::unexpected(v.error());
      auto n = num(row / "runs");
      if (!n) return std::unexpected(n.error());
      h[*v] += *n;
      return {};
    });
  };
  if (read = histogram(P("/losses"), "units", a.losses); !read) {
    return std::unexpected(read.error());
  }
  if (read = histogram(P("/srp_spent"), "srp", a.srp_spent); !read) {
    return std::unexpected(read.error());
  }
  read = each(P("/gained"), [&](const P& at) -> Status {
    auto hex = str(at / "hex");
    if (!hex) return std::unexpected(hex.error());
    auto n = num(at / "runs");
    if (!n) return std::unexpected(n.error());
    a.gained[*hex] += *n;
    return {};
  });
  if (!read) return std::unexpected(read.error());
  return a;
}

}  // namespace opsim::query
