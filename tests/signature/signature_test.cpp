// The behaviour signature (tests/signature/signature.h): the pinned final state hashes of the
// bundled games, the fixture logs and a synthetic campaign. A change that alters one of these
// changed how the rules play: say so in the commit message and in docs/rules.md ("Behaviour
// changes"), and update the pin in the same commit.
#include <gtest/gtest.h>

#include <map>

#include "signature.h"
#include "test_support.h"

namespace opsim::signature {
namespace {

// Each game's final state hash, by game.
const std::map<std::string, std::string> kPinnedFinal = {
    {"bundled low-countries-1940 seed 1940",
     "ddabf4f27ff679cb4e17dca8c8456dfbe580846c2683e8e03d81cc157f24f579"},
    {"bundled special-terrain seed 1940",
     "ffb93fb198e40d4c0fb24300930c5abd7ed1438bba8edc85774e054396d8feab"},
    {"fixture log-schema1-bundled.sqlite",
     "ffb93fb198e40d4c0fb24300930c5abd7ed1438bba8edc85774e054396d8feab"},
    {"fixture log-schema1.sqlite",
     "58312cc38eb66e9f76db9465e82af2c8d59635952c35c7ed9f843e6565fce02c"},
    {"fixture log-schema2.sqlite",
     "58312cc38eb66e9f76db9465e82af2c8d59635952c35c7ed9f843e6565fce02c"},
    {"fixture log-schema3-fair.sqlite",
     "b128255cc822380c29dccbb101df73af67038c175c49592a667371c401cf2cd7"},
    {"synthetic 4000 hexes 300 units seed 11",
     "d561ca00ecd19764ff1a6d2f33008dcc633a3a8bfbe96853158ac35205f96e14"},
};
// The signature line's digest: every player-turn's hash of every game, in order.
constexpr const char* kPinnedDigest =
    "9eb1f2d73711cc0936e3bf4d32483c027e93fd18589b952f832d0ac5a580bd22";

TEST(Signature, EveryGameEndsInItsPinnedState) {
  test::TempDir dir;
  auto sig = Compute({OPSIM_SCENARIO_DIR, OPSIM_DB_FIXTURES, dir.dir()});
  ASSERT_TRUE(sig) << sig.error().to_string();
  std::map<std::string, std::string> final;
  for (const Game& g : sig->games) final[g.name] = g.final_hash;
  for (const auto& [name, hash] : final) {
    EXPECT_EQ(kPinnedFinal.count(name) ? kPinnedFinal.at(name) : "(not pinned)", hash)
        << name << ": {\"" << name << "\", \"" << hash << "\"},";
  }
  EXPECT_EQ(final.size(), kPinnedFinal.size()) << "a pinned game is no longer played";
  EXPECT_EQ(sig->digest, kPinnedDigest) << sig->Line();
}

}  // namespace
}  // namespace opsim::signature
