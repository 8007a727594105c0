// `opsim odds` through libquery: a Monte Carlo run converges to the CRT's exact odds (B7.4),
// its counts do not depend on threads or shards, and shard results survive their JSON.
#include <gtest/gtest.h>

#include <cmath>

#include "opsim/query/odds.h"
#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;

// The 18th Army alone against the 1st Dutch (defense 3) in canal-intensive 16A:1122. Set down
// at 16A:1222 it is cut off from supply (B8.1), so it attacks at half its 8: 4 to 3 reaches the
// 1:1 column, which the terrain shifts one left to 1:2 (B7.2).
constexpr const char* kOneAttack = R"({"opsim": "orders", "version": 1, "side": "axis",
  "turn": "May I 1940",
  "combat": [{"attack": "16A:1122", "units": ["de-18a"]}]})";

query::LoadedGame OneAttackGame() {
  query::Source source;
  source.scenario = "special-terrain";
  source.overrides = {"unit:de-18a=16A:1222"};
  auto g = query::Load(source);
  EXPECT_TRUE(g.has_value()) << (g ? "" : g.error().to_string());
  return g ? std::move(*g) : query::LoadedGame{};
}

JsonSource Orders(const std::string& text) {
  auto src = JsonSource::FromText(text, "orders.json");
  EXPECT_TRUE(src.has_value());
  return std::move(*src);
}

query::OddsAnswer Play(const query::LoadedGame& g, const std::string& orders,
                       query::OddsRequest request) {
  auto a = query::RunOdds(g, Orders(orders), request);
  EXPECT_TRUE(a.has_value()) << (a ? "" : a.error().to_string());
  return a ? std::move(*a) : query::OddsAnswer{};
}

// The counts, without what says which shards they came from.
json Counts(const query::OddsAnswer& a) {
  json j = query::ToJson(a);
  for (const char* key : {"shards", "shards_in", "missing_shards"}) j.erase(key);
  return j;
}

// B7.4: the 1:2 column reads AE, AR, AR, EX, DR, DR for a d6 of 1 to 6, so AE 1/6, AR 2/6,
// EX 1/6, DR 2/6 and no DE. Each frequency is within 4.5 standard errors of its odds.
TEST(Odds, ASimpleAttackConvergesToTheCrtOdds) {
  const query::LoadedGame g = OneAttackGame();
  query::OddsRequest request;
  request.runs = 3000;
  request.seed = 11;
  request.threads = 2;
  const query::OddsAnswer a = Play(g, kOneAttack, request);
  ASSERT_EQ(a.played, 3000u);
  ASSERT_EQ(a.attacks.size(), 1u);
  EXPECT_EQ(a.attacks[0].hex, "16A:1122");
  ASSERT_EQ(a.codes, (std::vector<std::string>{"AE", "AR", "EX", "DR", "DE"}));  // B7.3's order
  const std::array<double, 5> exact = {1.0 / 6, 2.0 / 6, 1.0 / 6, 2.0 / 6, 0};
  for (std::size_t r = 0; r < exact.size(); ++r) {
    const double p = exact[r];
    const double seen = static_cast<double>(a.attacks[0].results[r]) / 3000.0;
    const double tolerance = 4.5 * std::sqrt(std::max(p * (1 - p), 1e-9) / 3000.0);
    EXPECT_NEAR(seen, p, tolerance) << a.codes[r];
  }
  EXPECT_EQ(a.attacks[0].called_off, 0u);
  // AE and EX cost the 18th Army, EX the Dutch (B7.3); after a DR the Dutch retreat and the
  // 18th Army advances (B7.6): the hex is gained in those runs and no other.
  const std::vector<std::uint64_t>& seen = a.attacks[0].results;
  EXPECT_EQ(a.gained.at("16A:1122"), seen[3]);
  std::map<std::string, std::uint64_t> lost;
  for (const query::UnitLosses& u : a.eliminated) lost[u.id] = u.runs;
  EXPECT_EQ(lost, (std::map<std::string, std::uint64_t>{{"de-18a", seen[0] + seen[2]},
                                                        {"nl-1", seen[2]}}));
  EXPECT_EQ(a.losses.at(0), seen[1] + seen[3]);
  EXPECT_EQ(a.losses.at(1), seen[0]);
  EXPECT_EQ(a.losses.at(2), seen[2]);
}

// Run i's dice depend on the seed and i only: one thread, two, and three shards merged give
// the same counts.
TEST(Odds, ThreadsAndShardsGiveTheSameCounts) {
  const query::LoadedGame g = OneAttackGame();
  query::OddsRequest request;
  request.runs = 90;
  request.seed = 5;
  const json one = Counts(Play(g, kOneAttack, request));
  request.threads = 2;
  EXPECT_EQ(Counts(Play(g, kOneAttack, request)), one);
  std::vector<query::OddsAnswer> parts;
  for (std::uint32_t k : {3u, 1u, 2u}) {
    request.shard = k;
    request.shards = 3;
    parts.push_back(Play(g, kOneAttack, request));
    EXPECT_EQ(parts.back().played, 30u);
  }
  auto merged = query::MergeOdds(parts, {"c", "a", "b"});
  ASSERT_TRUE(merged.has_value()) << merged.error().to_string();
  EXPECT_TRUE(merged->MissingShards().empty());
  EXPECT_EQ(Counts(*merged), one);
  // Another seed gives other dice.
  request.shard = request.shards = 1;
  request.seed = 6;
  EXPECT_NE(Counts(Play(g, kOneAttack, request)), one);
  EXPECT_NE(query::RunDice(5, 0), query::RunDice(5, 1));
  EXPECT_NE(query::RunDice(5, 0), query::RunDice(6, 0));
}

TEST(Odds, AShardResultReadsBackFromItsJson) {
  const query::LoadedGame g = OneAttackGame();
  query::OddsRequest request;
  request.runs = 40;
  request.seed = 3;
  request.shard = 2;
  request.shards = 4;
  const query::OddsAnswer a = Play(g, kOneAttack, request);
  const json j = query::ToJson(a);
  auto src = JsonSource::FromText(j.dump(1), "shard-2.json");
  ASSERT_TRUE(src.has_value());
  auto back = query::OddsFromJson(*src);
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  EXPECT_EQ(query::ToJson(*back), j);
  EXPECT_EQ(back->MissingShards(), (std::vector<std::uint32_t>{1, 3, 4}));

  // A damaged file names the line and the JSON path.
  json bad = j;
  bad["attacks"][0]["results"].erase("DR");
  auto damaged = JsonSource::FromText(bad.dump(1), "shard-2.json");
  ASSERT_TRUE(damaged.has_value());
  auto refused = query::OddsFromJson(*damaged);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().to_string().find("shard-2.json:"), std::string::npos)
      << refused.error().to_string();
  EXPECT_NE(refused.error().to_string().find("/attacks/0/results"), std::string::npos)
      << refused.error().to_string();
}

TEST(Odds, MergingRefusesShardsOfAnotherRunOrTwice) {
  const query::LoadedGame g = OneAttackGame();
  query::OddsRequest request;
  request.runs = 20;
  request.seed = 3;
  request.shards = 2;
  const query::OddsAnswer first = Play(g, kOneAttack, request);
  request.seed = 4;
  request.shard = 2;
  const query::OddsAnswer other_seed = Play(g, kOneAttack, request);
  auto mixed = query::MergeOdds({first, other_seed}, {"a.json", "b.json"});
  ASSERT_FALSE(mixed.has_value());
  EXPECT_EQ(mixed.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(mixed.error().message.find("b.json: /seed is 4"), std::string::npos)
      << mixed.error().message;
  auto twice = query::MergeOdds({first, first}, {"a.json", "a2.json"});
  ASSERT_FALSE(twice.has_value());
  EXPECT_NE(twice.error().message.find("shard 1/2 is counted twice"), std::string::npos)
      << twice.error().message;
}

TEST(Odds, BadRequestsAreRefused) {
  const query::LoadedGame g = OneAttackGame();
  const JsonSource orders = Orders(kOneAttack);
  auto refused = [&](query::OddsRequest r, const std::string& says) {
    auto a = query::RunOdds(g, orders, r);
    ASSERT_FALSE(a.has_value());
    EXPECT_EQ(a.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(a.error().message.find(says), std::string::npos) << a.error().message;
  };
  query::OddsRequest r;
  r.runs = 0;
  refused(r, "--runs must be from 1 to 100000000");
  r.runs = query::kMaxOddsRuns + 1;
  refused(r, "--runs must be from 1");
  r.runs = 10;
  r.threads = 0;
  refused(r, "--threads must be from 1");
  r.threads = 1;
  r.shard = 3;
  r.shards = 2;
  refused(r, "--shard 3/2");
  r.shard = 1;
  r.shards = 11;
  refused(r, "would leave some empty");
}

}  // namespace
}  // namespace opsim
