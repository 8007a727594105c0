#include "store.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "opsim/core/files.h"
#include "opsim/core/json_source.h"
#include "opsim/core/sha256.h"
#include "opsim/db/hosting.h"
#include "opsim/ops/calendar.h"
#include "opsim/query/log.h"
#include "opsim/query/play.h"

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

// Where a logged game started, {start, first} of ops::GameState: the campaign's "start" and
// "first", read from the scenario text without building the rest of it.
Result<ops::GameState> CampaignStart(const std::string& log_path, const std::string& scenario) {
  bool in_campaign = false;
  const auto keep = [&in_campaign](int depth, json::parse_event_t event, json& parsed) {
    if (event != json::parse_event_t::key) return true;
    if (depth == 1) return in_campaign = parsed == "campaign";
    return depth != 2 || !in_campaign || parsed == "start" || parsed == "first";
  };
  const json doc = json::parse(scenario, keep, false);
  const auto text = [&doc](const char* at) {
    const json::json_pointer p(at);
    return doc.contains(p) && doc[p].is_string() ? doc[p].get<std::string>() : std::string();
  };
  auto date = ops::ParseGameDate(text("/campaign/start"));
  auto side = ParseSide(text("/campaign/first"));
  if (!date || !side) {
    return Fail(ErrorCode::kCorruption, "the logged scenario has no campaign start and first side",
                log_path);
  }
  ops::GameState s;
  s.start = *date;
  s.first = *side;
  return s;
}

// The state's {start, first, player_turn} after the log's last player-turn, from its row: the
// turn after serial N is N + 1, its phasing side the other one, its date N's moved on by the
// game turns between them.
Result<ops::GameState> AfterTurn(const std::string& log_path, const db::LoggedTurn& last) {
  auto date = ops::ParseGameDate(last.date);
  auto side = ParseSide(last.side);
  if (!date || !side || last.serial < 0) {
    return Fail(ErrorCode::kCorruption,
                "player-turn " + std::to_string(last.number) + " has no date or side", log_path);
  }
  ops::GameState s = ops::GameState::CalendarAt(last.serial, *side, *date);
  ++s.player_turn;
  return s;
}

}  // namespace

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

namespace {

// A game's secrets as the store keeps them: {"opsim": "server-secrets", "version", "game",
// "tokens": {axis, allied, spectator}, "dice": {axis, allied}}.
std::string SecretsText(const std::string& id, const Secrets& s) {
  const json doc = {
      {"opsim", "server-secrets"},
      {"version", kSecretsVersion},
      {"game", id},
      {"tokens",
       {{"axis", s.axis_token_hash},
        {"allied", s.allied_token_hash},
        {"spectator", s.spectator_token_hash}}},
      {"dice", {{"axis", KeyHex(s.axis_secret)}, {"allied", KeyHex(s.allied_secret)}}}};
  return doc.dump(2) + "\n";
}

Result<std::optional<Secrets>> ParseSecrets(Result<JsonSource> src) {
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

class FolderStore final : public Store {
 public:
  explicit FolderStore(std::string dir) : dir_(std::move(dir)) {}
  const std::string& shown() const override { return dir_; }
  std::vector<std::string> Hidden() const override {
    std::error_code ec;
    std::vector<std::string> hidden;
    for (std::string dir : {dir_, fs::absolute(dir_, ec).lexically_normal().string()}) {
      if (!dir.empty()) hidden.push_back(dir.ends_with('/') ? dir : dir + "/");
    }
    return hidden;
  }
  std::string LogAddress(const std::string& id) const override {
    return dir_ + "/" + id + ".sqlite";
  }
  std::string SecretsPath(const std::string& id) const { return dir_ + "/" + id + ".secrets"; }

  Result<std::vector<std::string>> List() const override {
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

  bool Exists(const std::string& id) const override {
    std::error_code ec;
    return ValidId(id) && fs::is_regular_file(LogAddress(id), ec);
  }

  Result<std::optional<Secrets>> ReadSecrets(const std::string& id) const override {
    const std::string path = SecretsPath(id);
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::optional<Secrets>();
    return ParseSecrets(JsonSource::FromFile(path, 64 * 1024));
  }

  Status WriteSecrets(const std::string& id, const Secrets& s) const override {
    const std::string path = SecretsPath(id);
    std::error_code ec;
    if (fs::exists(path, ec)) {
      return Fail(ErrorCode::kInvalidInput, "the game's secrets exist already", path);
    }
    // Written whole beside, then renamed: a reader finds all of it or none. Before the log,
    // which is put in place last: a log is never without its secrets (nor open to anyone,
    // docs/api.md).
    const std::string part = PartialPath(path);
    if (auto st = CreatePrivateFile(part, SecretsText(id, s)); !st) return st;
    fs::rename(part, path, ec);
    if (ec) {
      fs::remove(part, ec);
      return Fail(ErrorCode::kIOError, "cannot rename the secrets file: " + ec.message(), path);
    }
    return SyncFolderOf(path);
  }

  void RemoveSecrets(const std::string& id) const override {
    std::error_code ec;
    fs::remove(SecretsPath(id), ec);
  }

  void Sweep() const override {
    std::set<std::string> logs, secrets, partial;
    std::error_code ec;
    for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      const std::string id = name.substr(0, name.find('.'));
      if (!ValidId(id)) continue;
      if (name == id + ".sqlite") logs.insert(id);
      if (name == id + ".secrets") secrets.insert(id);
      if (name.find(".partial-") != std::string::npos) partial.insert(id);
    }
    // What may need sweeping: the ids with a partial file, or with secrets but no log.
    std::set<std::string> ids = partial;
    for (const std::string& id : secrets) {
      if (!logs.count(id)) ids.insert(id);
    }
    for (const std::string& id : ids) {
      RemoveStalePartials(SecretsPath(id));
      const bool making = RemoveStalePartials(LogAddress(id));
      // Secrets without their log: a creation that never finished, unless a live process is
      // writing its log.
      if (secrets.count(id) && !logs.count(id) && !making) fs::remove(SecretsPath(id), ec);
    }
  }

 private:
  std::string dir_;
};

// A game's existence and its secrets never change once it is published (no server removes a
// game, and its secrets are in place before its log), so both are asked of the store once and
// kept: a read then costs the store one statement, its log's stamp.
class PgGameStore final : public Store {
 public:
  PgGameStore(std::string uri, db::PgGames games)
      : uri_(std::move(uri)), games_(std::move(games)) {}
  const std::string& shown() const override { return games_.shown(); }
  std::vector<std::string> Hidden() const override { return {uri_ + "#", games_.shown() + "#"}; }
  std::string LogAddress(const std::string& id) const override { return games_.Address(id); }
  Result<std::vector<std::string>> List() const override { return games_.Games(); }
  bool Exists(const std::string& id) const override {
    if (!ValidId(id)) return false;
    {
      std::lock_guard lock(mu_);
      if (known_.count(id)) return true;
    }
    auto has = games_.Has(id);
    if (!has) return true;  // opening its log says what is wrong
    if (*has) {
      std::lock_guard lock(mu_);
      known_.insert(id);
    }
    return *has;
  }
  Result<std::optional<Secrets>> ReadSecrets(const std::string& id) const override {
    {
      std::lock_guard lock(mu_);
      if (auto it = secrets_.find(id); it != secrets_.end()) return it->second;
    }
    auto doc = games_.Secrets(id);
    if (!doc) return std::unexpected(doc.error());
    Result<std::optional<Secrets>> read = std::optional<Secrets>();
    if (*doc) {
      read = ParseSecrets(JsonSource::FromText(std::move(**doc), shown() + "#" + id + " secrets"));
    }
    if (read && Exists(id)) {  // a game not yet published may still get its secrets
      std::lock_guard lock(mu_);
      secrets_.try_emplace(id, *read);
    }
    return read;
  }
  Status WriteSecrets(const std::string& id, const Secrets& s) const override {
    return games_.PutSecrets(id, SecretsText(id, s));
  }
  void RemoveSecrets(const std::string& id) const override { (void)games_.DropSecrets(id); }
  void Sweep() const override { (void)games_.Sweep(); }

 private:
  std::string uri_;
  db::PgGames games_;
  mutable std::mutex mu_;                                          // known_, secrets_
  mutable std::set<std::string> known_;                            // games seen published
  mutable std::map<std::string, std::optional<Secrets>> secrets_;  // of those games
};

}  // namespace

Result<std::unique_ptr<Store>> OpenFolderStore(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir, ec)) {
    return Fail(ErrorCode::kIOError, "cannot open the games folder", dir);
  }
  return std::make_unique<FolderStore>(dir);
}

Result<std::unique_ptr<Store>> OpenPgGameStore(const std::string& uri) {
  auto games = db::PgGames::Open(uri);
  if (!games) return std::unexpected(games.error());
  return std::make_unique<PgGameStore>(uri, std::move(*games));
}

Result<json> ReadSummary(const std::string& log_path) {
  auto log = db::TurnLog::Open(log_path, db::TurnLog::Access::kRead);
  if (!log) return std::unexpected(log.error());
  const db::GameRecord& record = log->game();
  auto count = log->CountTurns();
  if (!count) return std::unexpected(count.error());
  Result<ops::GameState> next = std::unexpected(Error{});
  if (*count == 0) {
    next = CampaignStart(log_path, record.scenario);
  } else {
    auto last = log->ReadTurn(*count);
    if (!last) return std::unexpected(last.error());
    next = AfterTurn(log_path, *last);
  }
  if (!next) return std::unexpected(next.error());
  json pending = nullptr;
  if (record.dice == db::DiceKind::kFair) {
    auto p = query::PendingOrders(*log);
    if (!p) return std::unexpected(p.error());
    if (*p) pending = (**p)["stage"];
  }
  return json{{"scenario", record.scenario_name},
              {"turns_logged", *count},
              {"next", query::NextJson(*next)},
              {"dice", db::DiceKindName(record.dice)},
              {"pending", pending}};
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
