#include "opsim/core/sha256.h"

#include <openssl/evp.h>

#include <new>

namespace opsim {

namespace {

// Fetched once: OpenSSL 3 looks the algorithm up on every init that is handed EVP_sha256().
const EVP_MD* Algorithm() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md;
}

}  // namespace

// Owns the EVP context. libcrypto fails here only when it cannot allocate.
struct Sha256::Context {
  Context() : md(EVP_MD_CTX_new()) {
    if (md == nullptr || Algorithm() == nullptr ||
        EVP_DigestInit_ex2(md, Algorithm(), nullptr) != 1) {
      EVP_MD_CTX_free(md);
      throw std::bad_alloc();
    }
  }
  ~Context() { EVP_MD_CTX_free(md); }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  EVP_MD_CTX* md;
};

Sha256::Sha256() : ctx_(std::make_unique<Context>()) {}
Sha256::~Sha256() = default;

void Sha256::Update(std::string_view data) {
  EVP_DigestUpdate(ctx_->md, data.data(), data.size());
}

std::array<std::uint8_t, 32> Sha256::Digest() {
  std::array<std::uint8_t, 32> out{};
  EVP_DigestFinal_ex(ctx_->md, out.data(), nullptr);
  return out;
}

std::string Sha256::HexDigest() {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (std::uint8_t b : Digest()) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::string Sha256Hex(std::string_view data) {
  Sha256 h;
  h.Update(data);
  return h.HexDigest();
}

}  // namespace opsim
