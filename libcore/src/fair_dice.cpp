#include "opsim/core/fair_dice.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <cstring>

#include "opsim/core/sha256.h"

namespace opsim {

namespace {

constexpr std::string_view kChainTag = "opsim key chain 1\n";
constexpr std::string_view kDiceTag = "opsim fair dice 1\n";
constexpr std::string_view kBlockTag = "opsim dice block\n";

std::string_view Bytes(const Key& k) {
  return {reinterpret_cast<const char*>(k.data()), k.size()};
}

Key Down(const Key& k) {
  Sha256 h;
  h.Update(kChainTag);
  h.Update(Bytes(k));
  return h.Digest();
}

}  // namespace

Result<Key> NewSecret() {
  Key k{};
  if (RAND_bytes(k.data(), static_cast<int>(k.size())) != 1) {
    return Fail(ErrorCode::kIOError, "the system's random source gave no secret");
  }
  return k;
}

Key ChainKey(const Key& secret, int index) {
  Key k = secret;
  for (int i = kKeyChainLength; i > index; --i) k = Down(k);
  return k;
}

bool KeyMatches(const Key& key, int index, const Key& commitment) {
  if (index < 0 || index > kKeyChainLength) return false;
  Key k = key;
  for (int i = index; i > 0; --i) k = Down(k);
  return k == commitment;
}

bool KeyMatches(const Key& key, int index, const Key& commitment, std::optional<KnownKey>& known) {
  if (!known || index < known->index) {
    if (!KeyMatches(key, index, commitment)) return false;
  } else {
    if (index > kKeyChainLength) return false;
    Key k = key;
    for (int i = index; i > known->index; --i) k = Down(k);
    if (k != known->key) return false;
  }
  known = KnownKey{key, index};
  return true;
}

std::string KeyHex(const Key& key) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : key) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

Result<std::string> NewGameId() {
  auto bytes = NewSecret();
  if (!bytes) return std::unexpected(bytes.error());
  return KeyHex(*bytes).substr(0, 32);
}

std::optional<Key> KeyFromHex(std::string_view hex) {
  if (hex.size() != 64) return std::nullopt;
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  Key k{};
  for (std::size_t i = 0; i < k.size(); ++i) {
    const int hi = digit(hex[2 * i]);
    const int lo = digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    k[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return k;
}

Key HmacSha256(std::string_view key, std::string_view data) {
  Key out{};
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(), &len);
  return out;
}

KeyedDice::KeyedDice(const Key& axis_key, const Key& allied_key, std::string_view game_id,
                     std::int32_t number, std::string_view decisions_hash) {
  std::string key(Bytes(axis_key));
  key += Bytes(allied_key);
  std::string message(kDiceTag);
  message += game_id;
  message += '\n';
  message += std::to_string(number);
  message += '\n';
  message += decisions_hash;
  turn_key_ = HmacSha256(key, message);
}

std::uint64_t KeyedDice::Next() {
  if (used_ == words_.size()) {
    std::string message(kBlockTag);
    for (int shift = 56; shift >= 0; shift -= 8) {
      message += static_cast<char>((block_ >> shift) & 0xFF);
    }
    ++block_;
    words_ = HmacSha256(Bytes(turn_key_), message);
    used_ = 0;
  }
  std::uint64_t word = 0;
  for (int i = 0; i < 8; ++i) word = (word << 8) | words_[used_++];
  return word;
}

}  // namespace opsim
