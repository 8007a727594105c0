// SHA-256 (FIPS 180-4), for state hashes and the turn log's hash chain. On x86-64 processors with
// the SHA extensions the blocks are compressed with them (chosen at run time); the digest is the
// same either way.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace opsim {

class Sha256 {
 public:
  Sha256();
  void Update(std::string_view data);
  std::array<std::uint8_t, 32> Digest();  // finishes; the object is spent afterwards
  std::string HexDigest();

 private:
  void Blocks(const std::uint8_t* p, std::size_t blocks);
  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> buf_{};
  std::size_t used_ = 0;
  std::uint64_t length_ = 0;
};

// The hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);

// The two compressions, for tests that hold them to each other.
namespace sha256_detail {
void CompressPortable(std::array<std::uint32_t, 8>& h, const std::uint8_t* p, std::size_t blocks);
// False, having done nothing, where the processor lacks the SHA extensions.
bool CompressAccelerated(std::array<std::uint32_t, 8>& h, const std::uint8_t* p,
                         std::size_t blocks);
}  // namespace sha256_detail

}  // namespace opsim
