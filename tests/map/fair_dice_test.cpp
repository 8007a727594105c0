// Fair dice (opsim/core/fair_dice.h, docs/dice.md): HMAC-SHA-256 against RFC 4231, the key
// chain and its commitment, and the keyed stream against an independent computation (Python's
// hmac module); rolls are unbiased.
#include "opsim/core/fair_dice.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "opsim/core/sha256.h"

namespace opsim {
namespace {

Key Filled(std::uint8_t first) {
  Key k{};
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<std::uint8_t>(first + i);
  return k;
}

TEST(FairDice, HmacSha256MatchesRfc4231) {
  EXPECT_EQ(KeyHex(HmacSha256(std::string(20, '\x0b'), "Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  EXPECT_EQ(KeyHex(HmacSha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(FairDice, TheKeyChainHashesDownToTheCommitment) {
  Key secret{};
  secret.fill(7);
  EXPECT_EQ(ChainKey(secret, kKeyChainLength), secret);
  const Key commitment = ChainKey(secret, 0);
  EXPECT_EQ(KeyHex(commitment), "3ab3324904c16e7759026dd40dd96755309803c1862745d4abbd7ea4e051333c");
  // K[i-1] = SHA-256(tag || K[i]).
  Sha256 h;
  h.Update("opsim key chain 1\n");
  const Key k5 = ChainKey(secret, 5);
  h.Update(std::string_view(reinterpret_cast<const char*>(k5.data()), k5.size()));
  EXPECT_EQ(h.Digest(), ChainKey(secret, 4));
  EXPECT_TRUE(KeyMatches(k5, 5, commitment));
  EXPECT_FALSE(KeyMatches(k5, 4, commitment));  // a key for another player-turn
  EXPECT_FALSE(KeyMatches(k5, 6, commitment));
  Key other = secret;
  other[0] ^= 1;
  EXPECT_FALSE(KeyMatches(ChainKey(other, 5), 5, commitment));  // another player's chain
  EXPECT_FALSE(KeyMatches(k5, kKeyChainLength + 1, commitment));
  // Two secrets from the system differ.
  auto a = NewSecret();
  auto b = NewSecret();
  ASSERT_TRUE(a && b);
  EXPECT_NE(*a, *b);
}

TEST(FairDice, KeysReadBackFromHex) {
  const Key k = Filled(200);
  EXPECT_EQ(KeyFromHex(KeyHex(k)), k);
  EXPECT_FALSE(KeyFromHex("abc"));
  EXPECT_FALSE(KeyFromHex(std::string(64, 'g')));
  EXPECT_FALSE(KeyFromHex(std::string(64, 'A')));  // lower case only: one spelling per key
}

TEST(FairDice, TheKeyedStreamIsTheDocumentedHmacStream) {
  std::string decisions;
  for (int i = 0; i < 32; ++i) decisions += "ab";
  KeyedDice same(Filled(0), Filled(32), "game-1", 3, decisions);
  const std::vector<std::uint64_t> expected = {0xcf2fe410db563702ULL, 0x7240e8cf618daa21ULL,
                                               0x3f1ff8432e9b0a5bULL, 0xa7ecc60909177c11ULL,
                                               0x1e550dc27a39f297ULL};
  for (std::uint64_t w : expected) EXPECT_EQ(same.Next(), w);
  KeyedDice rolls(Filled(0), Filled(32), "game-1", 3, decisions);
  std::vector<int> faces;
  for (int i = 0; i < 8; ++i) faces.push_back(rolls.Roll(6));
  EXPECT_EQ(faces, (std::vector<int>{3, 6, 4, 4, 4, 1, 2, 6}));
  // Any other input gives other dice.
  KeyedDice other_turn(Filled(0), Filled(32), "game-1", 4, decisions);
  KeyedDice other_decisions(Filled(0), Filled(32), "game-1", 3, decisions + "x");
  KeyedDice other_key(Filled(1), Filled(32), "game-1", 3, decisions);
  for (KeyedDice* d : {&other_turn, &other_decisions, &other_key}) {
    EXPECT_NE(d->Next(), expected[0]);
  }
}

// A stream that gives scripted words, to see the rejection of the top partial block.
class Scripted final : public DiceSource {
 public:
  explicit Scripted(std::vector<std::uint64_t> words) : words_(std::move(words)) {}
  std::uint64_t Next() override { return words_.at(next_++); }

 private:
  std::vector<std::uint64_t> words_;
  std::size_t next_ = 0;
};

TEST(FairDice, RollsRejectTheTopPartialBlockAndAreUnbiased) {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  // max % 6 == 3: the words from max - 3 up are rejected, so each face covers equally many.
  Scripted s({max, max - 3, max - 4, 7});
  EXPECT_EQ(s.Roll(6), static_cast<int>((max - 4) % 6) + 1);
  EXPECT_EQ(s.Roll(6), 2);

  KeyedDice dice(Filled(9), Filled(41), "unbiased", 1, "0");
  constexpr int kRolls = 60000;
  int counts[6] = {};
  for (int i = 0; i < kRolls; ++i) ++counts[dice.Roll(6) - 1];
  double chi2 = 0;
  for (int c : counts) chi2 += (c - kRolls / 6.0) * (c - kRolls / 6.0) / (kRolls / 6.0);
  EXPECT_LT(chi2, 20.5) << "chi-square with 5 degrees of freedom, p < 0.001";
}

}  // namespace
}  // namespace opsim
