#include "store.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "opsim/core/files.h"
#include "opsim/core/json_source.h"
#include "opsim/core/sha256.h"

namespace opsim::server {

namespace fs = std::filesystem;
using nlohmann::json;

const char* RoleName(Role r) {
  switch (r) {
    case Role::kAxis:
      return "axis";
    case Role::kAllied:
      return "allied";
    case Role::kSpectator:
      return "spectator";
    case Role::kPublic:
      break;
  }
  return "public";
}

bool ValidId(std::string_view id) {
  if (id.empty() || id.size() > 64 || id.front() == '-') return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

namespace {

Result<std::string> RandomHex() {
  auto bytes = NewSecret();
  if (!bytes) return std::unexpected(bytes.error());
  return KeyHex(*bytes);
}

constexpr int kSecretsVersion = 1;

}  // namespace

Result<std::string> NewGameId() {
  auto hex = RandomHex();
  if (!hex) return hex;
  return hex->substr(0, 20);
}

Result<NewSecrets> DrawSecrets() {
  NewSecrets n;
  for (std::string* token : {&n.axis_token, &n.allied_token, &n.spectator_token}) {
    auto hex = RandomHex();
    if (!hex) return std::unexpected(hex.error());
    *token = *hex;
  }
  n.secrets.axis_token_hash = Sha256Hex(n.axis_token);
  n.secrets.allied_token_hash = Sha256Hex(n.allied_token);
  n.secrets.spectator_token_hash = Sha256Hex(n.spectator_token);
  for (Key* k : {&n.secrets.axis_secret, &n.secrets.allied_secret}) {
    auto secret = NewSecret();
    if (!secret) return std::unexpected(secret.error());
    *k = *secret;
  }
  return n;
}

Result<std::vector<std::string>> Store::List() const {
  std::vector<std::string> ids;
  std::error_code ec;
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.extension() != ".sqlite" || !ValidId(p.stem().string())) continue;
    ids.push_back(p.stem().string());
  }
  if (ec) return Fail(ErrorCode::kIOError, "cannot list the games folder: " + ec.message(), dir_);
  std::sort(ids.begin(), ids.end());
  return ids;
}

bool Store::Exists(const std::string& id) const {
  std::error_code ec;
  return ValidId(id) && fs::is_regular_file(LogPath(id), ec);
}

Result<std::optional<Secrets>> Store::ReadSecrets(const std::string& id) const {
  const std::string path = SecretsPath(id);
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::optional<Secrets>();
  auto src = JsonSource::FromFile(path, 64 * 1024);
  if (!src) return std::unexpected(src.error());
  JsonReader r(*src);
  if (auto v = r.Header("server-secrets", kSecretsVersion, "a game's secrets file"); !v) {
    return std::unexpected(v.error());
  }
  Secrets s;
  const std::pair<const char*, std::string*> hashes[] = {
      {"/tokens/axis", &s.axis_token_hash},
      {"/tokens/allied", &s.allied_token_hash},
      {"/tokens/spectator", &s.spectator_token_hash}};
  for (const auto& [at, out] : hashes) {
    auto v = r.String(JsonSource::Pointer(at));
    if (!v) return std::unexpected(v.error());
    *out = *v;
  }
  const std::pair<const char*, Key*> keys[] = {{"/dice/axis", &s.axis_secret},
                                               {"/dice/allied", &s.allied_secret}};
  for (const auto& [at, out] : keys) {
    auto v = r.String(JsonSource::Pointer(at));
    if (!v) return std::unexpected(v.error());
    auto key = KeyFromHex(*v);
    if (!key) return src->Bad(JsonSource::Pointer(at), "a secret is 64 lower-case hex digits");
    *out = *key;
  }
  return std::optional<Secrets>(std::move(s));
}

Status Store::WriteSecrets(const std::string& id, const Secrets& s) const {
  const json doc = {
      {"opsim", "server-secrets"},
      {"version", kSecretsVersion},
      {"game", id},
      {"tokens",
       {{"axis", s.axis_token_hash},
        {"allied", s.allied_token_hash},
        {"spectator", s.spectator_token_hash}}},
      {"dice", {{"axis", KeyHex(s.axis_secret)}, {"allied", KeyHex(s.allied_secret)}}}};
  const std::string path = SecretsPath(id);
  std::error_code ec;
  if (fs::exists(path, ec)) {
    return Fail(ErrorCode::kInvalidInput, "the game's secrets exist already", path);
  }
  // Written whole beside, then renamed: a reader finds all of it or none.
  const std::string part = path + ".new";
  if (auto st = CreatePrivateFile(part, doc.dump(2) + "\n"); !st) return st;
  fs::rename(part, path, ec);
  if (ec) {
    fs::remove(part, ec);
    return Fail(ErrorCode::kIOError, "cannot rename the secrets file: " + ec.message(), path);
  }
  return SyncFolderOf(path);
}

void Store::RemoveSecrets(const std::string& id) const {
  std::error_code ec;
  fs::remove(SecretsPath(id), ec);
}

std::optional<Role> RoleOf(const Secrets& s, std::string_view token) {
  if (token.empty()) return std::nullopt;
  const std::string hash = Sha256Hex(token);
  const std::pair<const std::string*, Role> roles[] = {{&s.axis_token_hash, Role::kAxis},
                                                       {&s.allied_token_hash, Role::kAllied},
                                                       {&s.spectator_token_hash, Role::kSpectator}};
  std::optional<Role> found;
  for (const auto& [stored, role] : roles) {
    const bool same = stored->size() == hash.size() &&
                      CRYPTO_memcmp(stored->data(), hash.data(), hash.size()) == 0;
    if (same) found = role;
  }
  return found;
}

}  // namespace opsim::server
