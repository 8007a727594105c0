// The games folder (docs/api.md): one turn log per game, `ID.sqlite`, and for a game the server
// created its secrets, `ID.secrets` (0600, never served): its tokens' SHA-256 hashes and both
// players' dice secrets.
//
// It promises: no path is built from an id that ValidId refuses; a secrets file is complete or
// absent (written beside and renamed), and in place before its log; tokens are compared by hash
// in constant time.
// Threading: the functions are safe from any thread; they share no state.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opsim/core/error.h"
#include "opsim/core/fair_dice.h"

namespace opsim::server {

enum class Role { kPublic, kAxis, kAllied, kSpectator };
const char* RoleName(Role r);

// 1 to 64 of a-z, 0-9 and '-', not starting with '-'.
bool ValidId(std::string_view id);

struct Secrets {
  std::string axis_token_hash, allied_token_hash, spectator_token_hash;  // SHA-256, hex
  Key axis_secret{}, allied_secret{};                                    // the dice chains' ends
};

// A new game's secrets and the tokens whose hashes they hold (axis, allied, spectator).
struct NewSecrets {
  Secrets secrets;
  std::string axis_token, allied_token, spectator_token;
};
Result<NewSecrets> DrawSecrets();

class Store {
 public:
  explicit Store(std::string dir) : dir_(std::move(dir)) {}
  const std::string& dir() const { return dir_; }
  // Paths of a valid id's files.
  std::string LogPath(const std::string& id) const { return dir_ + "/" + id + ".sqlite"; }
  std::string SecretsPath(const std::string& id) const { return dir_ + "/" + id + ".secrets"; }
  // The ids of the logs in the folder, sorted.
  Result<std::vector<std::string>> List() const;
  bool Exists(const std::string& id) const;
  // A game's secrets; none for a log without them (one not made by the server).
  Result<std::optional<Secrets>> ReadSecrets(const std::string& id) const;
  // Writes a new game's secrets (refused if it has some already).
  Status WriteSecrets(const std::string& id, const Secrets& s) const;
  void RemoveSecrets(const std::string& id) const;
  // At the server's start: removes what a process killed while creating a game left, so that
  // the folder holds only whole games: partial logs and secrets whose process is gone
  // (RemoveStalePartials), and secrets without their log (a game is made secrets first, log
  // last). A second server on the same folder that is creating a game just then, before it
  // started its log, would lose its secrets: one server per folder.
  void Sweep() const;

 private:
  std::string dir_;
};

// What the games list shows of a log (GET /api/games): {"scenario", "turns_logged", "next",
// "dice", "pending"}, as its status would say, read from the log's game and last turn rows
// and its meta: no snapshot is loaded and no theater is built (a 100,000-hex game's header reads
// in a fraction of its load). A log with no player-turn takes its start from the scenario's
// campaign. An error for a log whose rows do not read (deeper damage shows in its status).
Result<nlohmann::json> ReadSummary(const std::string& log_path);

// The role `token` holds in a game with these secrets: nullopt when it is none of its tokens.
// Every hash is compared, in constant time.
std::optional<Role> RoleOf(const Secrets& s, std::string_view token);

}  // namespace opsim::server
