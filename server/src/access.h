// Who may do what in a game (docs/api.md, "Tokens"): a request admitted to a game by its token.
//
// It promises:
// - A game the server did not make (no secrets: a log put in the games folder or the store by
//   hand) is open to every reader, with no token, and to no writer (403).
// - A hosted game's answers go only to its tokens (401 without one, or with another game's):
//   each token is checked in constant time (store.h RoleOf).
// - Orders come only from the phasing side's token, a reply only from the defender's, a step
//   only from a side's (403 for a spectator's); the phasing side is the game's as its log stands
//   now (the warm game, made fresh).
#pragma once

#include <expected>
#include <optional>
#include <string>

#include "game_cache.h"
#include "opsim/server/api.h"
#include "store.h"

namespace opsim::server {

// What a route knows of its game once admitted.
struct GameRef {
  std::string id;
  std::string path;  // its log's address (store.h LogAddress)
  Role role = Role::kPublic;
  std::optional<Secrets> secrets;  // none: a game the server did not make
};

// What a request's token must be: any of the game's; the phasing side's; the defender's; a
// side's (not the spectator's), in a hosted game.
enum class Need { kAnyToken, kPhasing, kDefender, kPlayer };

// The game `id` if it exists and the request's token may do `need` in it; else the answer
// (404, 401, 403, or the error reading its secrets or its game).
std::expected<GameRef, Response> Admit(const Store& store, GameCache& cache, const Request& req,
                                       const std::string& id, Need need);

}  // namespace opsim::server
