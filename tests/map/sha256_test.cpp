// SHA-256: the FIPS 180-4 test vectors, and the two compressions (portable and SHA extensions)
// held to each other on data of every length around the block size.
#include "opsim/core/sha256.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace opsim {
namespace {

TEST(Sha256Test, Fips180Vectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Fed in pieces of any size, the digest is the one of the whole.
TEST(Sha256Test, PiecesMakeTheWhole) {
  std::mt19937 gen(7);
  std::string data(3000, '\0');
  for (char& c : data) c = static_cast<char>(gen());
  const std::string whole = Sha256Hex(data);
  for (std::size_t piece : {1u, 3u, 63u, 64u, 65u, 127u, 1000u}) {
    Sha256 h;
    for (std::size_t at = 0; at < data.size(); at += piece) {
      h.Update(std::string_view(data).substr(at, piece));
    }
    EXPECT_EQ(h.HexDigest(), whole) << piece;
  }
}

TEST(Sha256Test, AcceleratedAndPortableAgree) {
  std::array<std::uint32_t, 8> probe{};
  const std::uint8_t block[64] = {};
  if (!sha256_detail::CompressAccelerated(probe, block, 1)) {
    GTEST_SKIP() << "this processor has no SHA extensions";
  }
  std::mt19937 gen(11);
  std::vector<std::uint8_t> data(64 * 40);
  for (std::uint8_t& b : data) b = static_cast<std::uint8_t>(gen());
  for (std::size_t blocks = 0; blocks <= 40; ++blocks) {
    std::array<std::uint32_t, 8> a = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    std::array<std::uint32_t, 8> b = a;
    sha256_detail::CompressPortable(a, data.data(), blocks);
    ASSERT_TRUE(sha256_detail::CompressAccelerated(b, data.data(), blocks));
    EXPECT_EQ(a, b) << blocks << " blocks";
  }
}

}  // namespace
}  // namespace opsim
