// Where a server keeps its games (docs/api.md, docs/deploy.md): one turn log per game, and for a
// game the server created its secrets: its tokens' SHA-256 hashes and both players' dice
// secrets, never served. Two stores:
// - the games folder (the default): `ID.sqlite` (the CLI's turn log) and `ID.secrets` (0600);
// - a PostgreSQL store (`--store postgresql://...`): each game's log in the opsim_ tables
//   (`URI#ID`), its secrets in opsim_secret, which PUBLIC may not read (db/hosting.h); any
//   number of servers may share it.
//
// It promises: no address is built from an id that ValidId refuses; a game's secrets are
// complete or absent, and in place before its log; tokens are compared by hash in constant
// time; a log's stamp changes whenever it is written (db::LogStamp).
// Threading: the functions are safe from any thread.
#pragma once

#include <memory>
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
  virtual ~Store() = default;
  // The store as messages show it (a folder, or a URI without its password).
  virtual const std::string& shown() const = 0;
  // What no answer may name, as prefixes of a log's address: the folder's path (as given and
  // absolute) with its '/', or the URI (with and without its password) with its '#'.
  virtual std::vector<std::string> Hidden() const = 0;
  // A valid id's log address (db::TurnLog::Open takes it).
  virtual std::string LogAddress(const std::string& id) const = 0;
  // The ids of the games, sorted.
  virtual Result<std::vector<std::string>> List() const = 0;
  // Whether the game is there. A store that cannot be asked says yes: opening the log then
  // says what is wrong.
  virtual bool Exists(const std::string& id) const = 0;
  // A game's secrets; none for a log without them (one not made by the server).
  virtual Result<std::optional<Secrets>> ReadSecrets(const std::string& id) const = 0;
  // Keeps a new game's secrets (refused if it has some already).
  virtual Status WriteSecrets(const std::string& id, const Secrets& s) const = 0;
  virtual void RemoveSecrets(const std::string& id) const = 0;
  // At the server's start: removes what a server stopped while creating a game left (a game is
  // made secrets first, log last).
  virtual void Sweep() const = 0;
};

// The games folder `dir` (made if absent). Its Sweep removes partial logs and secrets whose
// process is gone (RemoveStalePartials), and secrets without their log: a second server on the
// same folder that is creating a game just then, before it started its log, would lose its
// secrets: one server per folder.
Result<std::unique_ptr<Store>> OpenFolderStore(const std::string& dir);
// A PostgreSQL store, `uri` (no '#GAME'); its tables are made if absent. Its Sweep removes only
// secrets over an hour old whose game never appeared: any number of servers may share it.
Result<std::unique_ptr<Store>> OpenPgGameStore(const std::string& uri);

// What the games list shows of a log (GET /api/games): {"scenario", "turns_logged", "next",
// "dice", "pending"}, as its status would say, read from the log's game and last turn rows
// and its meta: no snapshot is loaded and no theater is built (a 100,000-hex game's header reads
// in a fraction of its load). A log with no player-turn takes its start from the scenario's
// campaign. An error for a log whose rows do not read (deeper damage shows in its status).
Result<nlohmann::json> ReadSummary(const std::string& log_address);

// The role `token` holds in a game with these secrets: nullopt when it is none of its tokens.
// Every hash is compared, in constant time.
std::optional<Role> RoleOf(const Secrets& s, std::string_view token);

}  // namespace opsim::server
