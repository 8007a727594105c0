// SHA-256: the FIPS 180-4 test vectors, and a digest fed in pieces of every size around the
// block size.
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

}  // namespace
}  // namespace opsim
