// SHA-256 (FIPS 180-4), for state hashes and the turn log's hash chain.
#pragma once

#include <array>
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
  void Block(const std::uint8_t* p);
  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> buf_{};
  std::size_t used_ = 0;
  std::uint64_t length_ = 0;
};

// The hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);

}  // namespace opsim
