// The server's cache of past positions (server/src/position_cache.h), white-box: its bound in
// bytes as well as entries, the least recently used dropped first and loaded again when asked;
// requests for one position at once load it once; a load that fails is not kept.
#include "position_cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <thread>
#include <vector>

namespace opsim::server {
namespace {

PositionKey PastAt(std::int32_t at) {
  return PositionKey{"g1", "log-a", at, std::nullopt, std::nullopt};
}

// A cache whose every position counts 100 bytes, and a load that counts its calls.
struct CacheOf100 {
  explicit CacheOf100(std::size_t entries, std::size_t bytes)
      : cache(entries, bytes, [](const query::LoadedGame&) { return std::size_t{100}; }) {}
  PositionCache::Load Loader() {
    return [this]() -> Result<query::LoadedGame> {
      ++loads;
      return query::LoadedGame{};
    };
  }
  PositionCache cache;
  std::atomic<int> loads = 0;
};

TEST(PositionCache, TheBoundInBytesDropsTheLeastRecentlyUsed) {
  CacheOf100 c(10, 250);
  ASSERT_TRUE(c.cache.Game(PastAt(1), c.Loader()).has_value());
  ASSERT_TRUE(c.cache.Game(PastAt(2), c.Loader()).has_value());
  ASSERT_TRUE(c.cache.Game(PastAt(1), c.Loader()).has_value());  // kept: 1 is now the newest
  EXPECT_EQ(c.loads, 2);
  ASSERT_TRUE(c.cache.Game(PastAt(3), c.Loader()).has_value());  // 300 bytes: 2 goes
  EXPECT_EQ(c.cache.counts().entries, 2u);
  EXPECT_EQ(c.cache.counts().bytes, 200u);
  ASSERT_TRUE(c.cache.Game(PastAt(1), c.Loader()).has_value());
  EXPECT_EQ(c.loads, 3) << "1 and 3 kept";
  ASSERT_TRUE(c.cache.Game(PastAt(2), c.Loader()).has_value());
  EXPECT_EQ(c.loads, 4) << "2 loaded again (and 3 dropped)";
  // An answer's bytes count with its position's: 2's answer of 100 bytes drops 1.
  auto answer = c.cache.Answer(
      PastAt(2), "zaxis", c.Loader(),
      [](const query::LoadedGame&) -> Result<std::string> { return std::string(100, 'x'); });
  ASSERT_TRUE(answer.has_value());
  EXPECT_EQ(**answer, std::string(100, 'x'));
  EXPECT_EQ(c.cache.counts().entries, 1u);
  EXPECT_EQ(c.cache.counts().bytes, 200u);
  // One position over the bound alone is still kept (its answer is what was asked).
  auto big = c.cache.Answer(
      PastAt(2), "", c.Loader(),
      [](const query::LoadedGame&) -> Result<std::string> { return std::string(1000, 'y'); });
  ASSERT_TRUE(big.has_value());
  EXPECT_EQ(c.cache.counts().entries, 1u);
  EXPECT_EQ(c.cache.counts().made, 2u);
}

TEST(PositionCache, ThePositionsOfAnotherLogAreAnotherKey) {
  CacheOf100 c(10, 10000);
  PositionKey replaced = PastAt(1);
  replaced.log = "log-b";
  ASSERT_TRUE(c.cache.Game(PastAt(1), c.Loader()).has_value());
  ASSERT_TRUE(c.cache.Game(replaced, c.Loader()).has_value());
  EXPECT_EQ(c.loads, 2);
  EXPECT_NE(PositionEtag(PastAt(1), ""), PositionEtag(replaced, ""));
  EXPECT_NE(PositionEtag(PastAt(1), ""), PositionEtag(PastAt(1), "zaxis"));
}

TEST(PositionCache, RequestsAtOnceLoadOnce) {
  CacheOf100 c(10, 10000);
  constexpr int kThreads = 6;
  std::barrier start(kThreads);
  std::vector<std::shared_ptr<const query::LoadedGame>> got(kThreads);
  const PositionCache::Load slow = [&c]() -> Result<query::LoadedGame> {
    ++c.loads;
    // Long enough that the others ask while this one loads (either way only one loads).
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return query::LoadedGame{};
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      auto g = c.cache.Game(PastAt(7), slow);
      if (g) got[i] = *g;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(c.loads, 1);
  for (const auto& g : got) EXPECT_EQ(g, got.front());
  EXPECT_NE(got.front(), nullptr);
}

TEST(PositionCache, AFailedLoadIsNotKept) {
  CacheOf100 c(10, 10000);
  auto failed = c.cache.Game(PastAt(9), []() -> Result<query::LoadedGame> {
    return Fail(ErrorCode::kInvalidInput, "at 9: the log holds 2 player-turns");
  });
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().message, "at 9: the log holds 2 player-turns");
  EXPECT_EQ(c.cache.counts().entries, 0u);
  ASSERT_TRUE(c.cache.Game(PastAt(9), c.Loader()).has_value());
  EXPECT_EQ(c.loads, 1);
  EXPECT_EQ(c.cache.counts().entries, 1u);
}

}  // namespace
}  // namespace opsim::server
