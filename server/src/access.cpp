#include "access.h"

#include <utility>

#include "answers.h"

namespace opsim::server {

std::expected<GameRef, Response> Admit(const Store& store, GameCache& cache, const Request& req,
                                       const std::string& id, Need need) {
  if (!store.Exists(id))
    return std::unexpected(ErrorResponse(404, "not-found", "no such game", id));
  GameRef g;
  g.id = id;
  g.path = store.LogAddress(id);
  auto secrets = store.ReadSecrets(id);
  if (!secrets) return std::unexpected(FromError(secrets.error()));
  g.secrets = std::move(*secrets);
  if (g.secrets) {
    if (req.token.empty()) {
      return std::unexpected(
          ErrorResponse(401, "unauthorized", "this game needs a token (Authorization: Bearer)"));
    }
    auto role = RoleOf(*g.secrets, req.token);
    if (!role)
      return std::unexpected(ErrorResponse(401, "unauthorized", "not a token of this game"));
    g.role = *role;
  }
  if (need == Need::kAnyToken) return g;
  if (!g.secrets) {
    return std::unexpected(ErrorResponse(
        403, "forbidden",
        "this game was not made by the server (it has no tokens): play it with `opsim turn`", id));
  }
  if (need == Need::kPlayer) {
    if (g.role == Role::kAxis || g.role == Role::kAllied) return g;
    return std::unexpected(
        ErrorResponse(403, "forbidden", "a spectator's token looks on: it takes no step"));
  }
  auto warm = cache.Latest(g.id, g.path, true);
  if (!warm) return std::unexpected(FromError(warm.error()));
  const Side phasing = (*warm)->state->phasing();
  const Side wanted = need == Need::kPhasing ? phasing : Enemy(phasing);
  const bool may = (g.role == Role::kAxis && wanted == Side::kAxis) ||
                   (g.role == Role::kAllied && wanted == Side::kAllied);
  if (!may) {
    return std::unexpected(ErrorResponse(
        403, "forbidden",
        std::string(need == Need::kPhasing ? "only the phasing side's token gives orders: "
                                           : "only the defender's token replies: ") +
            "it is the " + SideName(phasing) + " player-turn, and this token is " +
            RoleName(g.role) + "'s"));
  }
  return g;
}

}  // namespace opsim::server
