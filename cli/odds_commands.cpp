// `opsim odds`: a Monte Carlo run of an orders file, on every core, sharded for batch
// schedulers, and the merge of shard results. The runs and the counts are libquery's (odds.h);
// this file reads the options, reports progress and prints.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <sstream>
#include <thread>

#include "context.h"
#include "game_source.h"
#include "opsim/core/files.h"
#include "opsim/ops/tables.h"
#include "opsim/query/odds.h"

namespace opsim::cli {

namespace {

// `n` runs of `of`, to a tenth of a percent.
std::string Share(std::uint64_t n, std::uint64_t of) {
  return Percent(of ? 100.0 * static_cast<double>(n) / static_cast<double>(of) : 0.0, 1);
}

std::string SummaryText(const std::map<std::int64_t, std::uint64_t>& h) {
  const query::Summary s = query::Summarize(h);
  char buf[96];
  std::snprintf(buf, sizeof buf, "mean %.2f, median %lld, 10%%-90%% %lld to %lld", s.mean,
                static_cast<long long>(s.p50), static_cast<long long>(s.p10),
                static_cast<long long>(s.p90));
  return buf;
}

std::string OddsText(const query::OddsAnswer& a) {
  std::ostringstream out;
  const std::uint64_t n = a.played;
  out << "odds of the " << a.side << " player-turn, " << a.turn << " (" << a.scenario << "): " << n
      << " runs, seed " << a.seed << ", orders " << a.orders_sha256.substr(0, 16) << "\n";
  if (a.shards > 1) {
    out << "  shards";
    for (std::uint32_t k : a.shards_in) out << " " << k;
    out << " of " << a.shards << " (" << n << " of " << a.runs << " runs)";
    const std::vector<std::uint32_t> missing = a.MissingShards();
    if (!missing.empty()) {
      out << "; missing:";
      for (std::uint32_t k : missing) out << " " << k;
    }
    out << "\n";
  }
  if (a.scripted_dice_ignored > 0) {
    out << "  the orders' " << a.scripted_dice_ignored
        << " scripted dice are ignored: each run rolls its own\n";
  }
  for (const query::AttackOdds& at : a.attacks) {
    out << "attack on " << at.hex << " [" << rules::kB7_2.id << "]:";
    for (std::size_t r = 0; r < at.results.size(); ++r) {
      out << (r ? ", " : " ") << a.codes[r] << " " << Share(at.results[r], n);
    }
    if (at.called_off > 0) out << ", called off " << Share(at.called_off, n);
    out << "\n";
    std::uint64_t attempts = 0;
    for (std::uint64_t f : at.floods) attempts += f;
    if (attempts > 0) {
      out << "  flooding attempt [" << rules::k41A4a.id << "]:";
      for (std::size_t f = 0; f < at.floods.size(); ++f) {
        out << (f ? ", " : " ") << ops::FloodResultName(static_cast<ops::FloodResult>(f)) << " "
            << Share(at.floods[f], attempts);
      }
      out << "\n";
    }
  }
  out << "units eliminated: " << SummaryText(a.losses) << "\n ";
  const char* sep = " ";
  for (const auto& [count, runs] : a.losses) {
    out << sep << count << ": " << Share(runs, n);
    sep = ", ";
  }
  out << "\n";
  for (const query::UnitLosses& u : a.eliminated) {
    out << "  " << u.id << " (" << u.name << ", " << u.side << "): " << Share(u.runs, n) << "\n";
  }
  out << "hexes gained by the " << a.side << " side:" << (a.gained.empty() ? " none" : "") << "\n";
  for (const auto& [hex, runs] : a.gained) out << "  " << hex << ": " << Share(runs, n) << "\n";
  out << "SRPs spent: " << SummaryText(a.srp_spent) << "\n";
  return out.str();
}

// --runs and --threads: 1 to `max`, read here rather than by CLI11, which turns a count past 2^64
// into 2^64 - 1 and "-1" into 2^64 - 1.
Result<std::uint64_t> Count(const char* option, const std::string& text, std::uint64_t max) {
  std::uint64_t n = 0;
  const char* end = text.data() + text.size();
  if (auto [at, ec] = std::from_chars(text.data(), end, n); ec != std::errc() || at != end) n = 0;
  if (n < 1 || n > max) {
    return Fail(ErrorCode::kInvalidInput, std::string(option) + " must be from 1 to " +
                                              std::to_string(max) + ", not " + EchoToken(text));
  }
  return n;
}

// "K/N" with 1 <= K <= N.
Status ParseShard(const std::string& text, std::uint32_t& shard, std::uint32_t& shards) {
  unsigned long k = 0, n = 0;
  char slash = 0, extra = 0;
  std::istringstream in(text);
  if (!(in >> k >> slash >> n) || slash != '/' || in >> extra || k < 1 || n < 1 || k > n ||
      n > query::kMaxOddsRuns) {
    return Fail(ErrorCode::kInvalidInput, "--shard " + EchoToken(text) +
                                              ": expected K/N, shard K of N, with 1 <= K <= N <= " +
                                              std::to_string(query::kMaxOddsRuns) + " (e.g. 1/4)");
  }
  shard = static_cast<std::uint32_t>(k);
  shards = static_cast<std::uint32_t>(n);
  return {};
}

Result<query::OddsAnswer> Merge(const std::vector<std::string>& files) {
  std::vector<query::OddsAnswer> parts;
  for (const std::string& f : files) {
    auto src = JsonSource::FromFile(f, kMaxOrdersBytes);
    if (!src) return std::unexpected(src.error());
    auto part = query::OddsFromJson(*src);
    if (!part) return std::unexpected(part.error());
    parts.push_back(std::move(*part));
  }
  return query::MergeOdds(parts, files);
}

}  // namespace

void AddOddsCommands(CLI::App& app, Context& ctx) {
  struct OddsOptions {
    GameSource game;
    std::string orders, runs, shard = "1/1", out;
    std::uint64_t seed = 0;
    std::string threads =
        std::to_string(std::clamp(std::thread::hardware_concurrency(), 1u, query::kMaxOddsThreads));
    std::vector<std::string> merge;
    bool force = false;
  };
  auto oo = std::make_shared<OddsOptions>();
  auto* odds = app.add_subcommand(
      "odds",
      "Play an orders file many times, each run on a fresh copy of the game with dice of its "
      "own (a Monte Carlo run), and count per attack the combat results (B7.2) and flooding "
      "results (41.A.4.a), the units eliminated, the hexes gained and the SRPs spent.\n"
      "Run i's dice depend only on --seed and i: any --threads and any --shard split give the "
      "same counts. The orders' scripted dice are ignored. A run the rules refuse refuses the "
      "whole command (exit 3), naming the run and the rule.\n"
      "To spread a run over machines, run each shard with --shard K/N --out shard-K.json, then "
      "opsim odds --merge shard-*.json (docs/odds.md). Progress goes to stderr.");
  AddGameSourceOptions(odds, oo->game);
  auto* orders = odds->add_option("--orders", oo->orders, "the orders file")->type_name("FILE");
  auto* runs = odds->add_option("--runs", oo->runs,
                                "how many runs, over every shard: 1 to " +
                                    std::to_string(query::kMaxOddsRuns))
                   ->type_name("N");
  auto* seed = odds->add_option("--seed", oo->seed, "the runs' dice: the same seed, the same odds")
                   ->check(kSeedRange)
                   ->type_name("S");
  odds->add_option("--threads", oo->threads,
                   "threads to play on, 1 to " + std::to_string(query::kMaxOddsThreads) +
                       " (default: every core)")
      ->type_name("N")
      ->capture_default_str();
  odds->add_option("--shard", oo->shard,
                   "play only shard K of N: the runs i with i mod N = K - 1 (default 1/1)")
      ->type_name("K/N");
  auto* out =
      odds->add_option("--out", oo->out, "also write the result's JSON here (a shard result)")
          ->type_name("FILE");
  AddForceOption(odds, oo->force);
  auto* merge = odds->add_option("--merge", oo->merge,
                                 "add up shard results (opsim odds --out) instead of playing")
                    ->type_name("FILES");
  for (CLI::Option* o : {orders, runs, seed}) merge->excludes(o);
  Bind(odds, ctx, [&ctx, oo, orders, runs, seed, out]() -> Status {
    Result<query::OddsAnswer> answer;
    if (!oo->merge.empty()) {
      answer = Merge(oo->merge);
    } else {
      for (const CLI::Option* o : {orders, runs, seed}) {
        if (o->count() == 0) {
          return Fail(ErrorCode::kInvalidInput, "odds needs " + o->get_name() +
                                                    (o == orders ? " FILE"
                                                     : o == runs ? " N"
                                                                 : " S") +
                                                    " (or --merge FILES)");
        }
      }
      query::OddsRequest request;
      auto count = Count("--runs", oo->runs, query::kMaxOddsRuns);
      if (!count) return std::unexpected(count.error());
      request.runs = *count;
      count = Count("--threads", oo->threads, query::kMaxOddsThreads);
      if (!count) return std::unexpected(count.error());
      request.threads = static_cast<unsigned>(*count);
      request.seed = oo->seed;
      if (auto s = ParseShard(oo->shard, request.shard, request.shards); !s) return s;
      auto g = LoadGame(ctx, oo->game);
      if (!g) return std::unexpected(g.error());
      auto src = JsonSource::FromFile(oo->orders, kMaxOrdersBytes);
      if (!src) return std::unexpected(src.error());
      // Progress on stderr, at most once a second, so that short runs stay quiet.
      using Clock = std::chrono::steady_clock;
      auto last = Clock::now();
      request.progress = [&ctx, &last](std::uint64_t played, std::uint64_t of) {
        if (Clock::now() - last < std::chrono::seconds(1)) return;
        last = Clock::now();
        ctx.err << "opsim: odds: " << played << " of " << of << " runs\n" << std::flush;
      };
      answer = query::RunOdds(*g, *src, request);
    }
    if (!answer) return std::unexpected(answer.error());
    const nlohmann::json doc = query::ToJson(*answer);
    // Given, even empty: WriteOutputFile refuses an empty name (exit 2), not silently nothing.
    if (out->count() > 0) {
      const OutputKind result{"an opsim odds result",
                              [](std::string_view t) { return IsOpsimFile(t, "odds"); }};
      if (auto s = WriteOutputFile(oo->out, doc.dump(1) + "\n", result, oo->force); !s) return s;
    }
    Emit(ctx, doc, OddsText(*answer) + (oo->out.empty() ? "" : "wrote " + oo->out + "\n"));
    return {};
  });
}

}  // namespace opsim::cli
