// SHA-256 (FIPS 180-4), for state hashes and the turn log's hash chain: a thin wrapper over
// OpenSSL's libcrypto (EVP), which picks the processor's SHA extensions where it has them.
// An Sha256 object is one digest in progress: not shareable between threads while in use.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace opsim {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void Update(std::string_view data);
  std::array<std::uint8_t, 32> Digest();  // finishes; the object is spent afterwards
  std::string HexDigest();

 private:
  struct Context;
  std::unique_ptr<Context> ctx_;
};

// The hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);

}  // namespace opsim
