// Fair dice for two players (docs/dice.md): each player's hash chain of secret keys, and the
// dice of a player-turn drawn from an HMAC-SHA-256 stream keyed by both players' keys for it.
//
// A player's secret is 32 random bytes (RAND_bytes). It is the last key of his chain:
// K[L] = secret, K[i-1] = SHA-256("opsim key chain 1\n" || K[i]), L = kKeyChainLength; his
// commitment is K[0], published at the start. Logged player-turn n (1..L) uses K[n]: revealing
// it reveals only the keys before it, and anyone can check it by hashing it n times down to the
// commitment. KeyedDice is a DiceSource whose words no one can foresee before both keys of the
// player-turn are revealed, and everyone can recompute after.
// All functions are pure and thread-safe but NewSecret (which reads the system's randomness);
// a KeyedDice object is not shareable between threads.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "opsim/core/dice.h"
#include "opsim/core/error.h"

namespace opsim {

using Key = std::array<std::uint8_t, 32>;

// The player-turns a chain has keys for: a fair game ends (is refused) past it.
inline constexpr int kKeyChainLength = 4096;

// 32 bytes from the operating system's random source, through libcrypto.
Result<Key> NewSecret();
// A new game's id: 128 random bits, 32 lower-case hex digits (NewSecret's), the same for a game by
// mail (docs/pbem.md) and a hosted one (docs/api.md).
Result<std::string> NewGameId();
// K[index] of the chain whose last key is `secret`; 0 <= index <= kKeyChainLength.
Key ChainKey(const Key& secret, int index);
// Whether `key` is K[index] of the chain whose K[0] is `commitment`.
bool KeyMatches(const Key& key, int index, const Key& commitment);

// A key of a chain already found to match its commitment, and its index.
struct KnownKey {
  Key key{};
  int index = 0;
};
// KeyMatches, for keys checked in the order of their index (a replay): a key past `known` is
// hashed down to it only, so a game's n keys cost n hashes in all instead of n(n+1)/2. On a match
// `known` becomes `key`; a key before `known` is checked from the commitment. The same answers as
// KeyMatches (but for a SHA-256 collision).
bool KeyMatches(const Key& key, int index, const Key& commitment, std::optional<KnownKey>& known);

// Lower-case hex, and back (nullopt unless exactly 64 hex digits).
std::string KeyHex(const Key& key);
std::optional<Key> KeyFromHex(std::string_view hex);

// HMAC-SHA-256 (RFC 2104) of `data` under `key`.
Key HmacSha256(std::string_view key, std::string_view data);

// The dice of logged player-turn `number` of game `game_id`, keyed by both players' keys for
// it (the axis player's, then the allied player's), over the hash of what both players decided
// in it: block i of the stream is HMAC-SHA-256(T, "opsim dice block\n" || i as 8 bytes, big
// endian), where T = HMAC-SHA-256(axis_key || allied_key, "opsim fair dice 1\n" || game_id ||
// "\n" || number || "\n" || decisions_hash); each block gives four words, big endian.
class KeyedDice final : public DiceSource {
 public:
  KeyedDice(const Key& axis_key, const Key& allied_key, std::string_view game_id,
            std::int32_t number, std::string_view decisions_hash);

  std::uint64_t Next() override;

 private:
  Key turn_key_;
  std::uint64_t block_ = 0;
  Key words_{};
  std::size_t used_ = 32;  // bytes of words_ already drawn
};

}  // namespace opsim
