// ToldChanges (told_changes.h): a shared store's changes told to each game's listeners once.
#include "told_changes.h"

#include "store.h"

namespace opsim::server {

Result<ToldChanges::Told> ToldChanges::Now(const std::string& path) {
  Told t;
  t.stamp = StampOf(path);
  auto summary = ReadSummary(path);
  if (!summary) return std::unexpected(summary.error());
  t.turns = (*summary)["turns_logged"].get<std::int64_t>();
  t.pending = !(*summary)["pending"].is_null();
  return t;
}

LogStamp ToldChanges::Announced(const std::string& id, const std::string& path) {
  auto now = Now(path);
  std::lock_guard lock(mu_);
  if (!now) {
    told_.erase(id);
    return StampOf(path);
  }
  told_[id] = *now;
  return now->stamp;
}

void ToldChanges::Tell(const std::string& game, const std::string& path) {
  auto now = Now(path);
  if (!now) return;
  const char* event = nullptr;
  std::int64_t number = 0;
  {
    std::lock_guard lock(mu_);
    auto [it, first] = told_.try_emplace(game);
    Told& before = it->second;
    if (!first && before.stamp == now->stamp) return;
    if (!first) {
      event = now->turns > before.turns         ? "turn"
              : now->pending && !before.pending ? "pending"
                                                : "step";
      number = now->turns > before.turns ? now->turns : now->turns + 1;
    }
    before = *now;
  }
  if (event) hub_->Notify(game, event, {{"game", game}, {"number", number}}, now->stamp);
}

std::vector<std::string> ToldChanges::Games() const {
  std::lock_guard lock(mu_);
  std::vector<std::string> games;
  games.reserve(told_.size());
  for (const auto& [game, told] : told_) games.push_back(game);
  return games;
}

}  // namespace opsim::server
