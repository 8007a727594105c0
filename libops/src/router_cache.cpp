#include "router_cache.h"

#include <algorithm>

#include "rule41/rule41.h"

namespace opsim::ops {

std::string StepSignature(const RuleContext& ctx, const GroundMover& mover) {
  const map::Theater& t = ctx.theater;
  std::string sig;
  sig += ctx.exploitation ? 'x' : '-';
  for (std::size_t z = 0; z < t.weather_zones().size(); ++z) {
    sig += ctx.state.frozen(z) ? 'F' : '.';
  }
  // A flooded hex's effect at this player-turn, as the step judge sees it.
  for (const auto& [hex, f] : ctx.state.floods()) {
    const StepVerdict v = EvaluateGroundHex(ctx, mover, map::HexRef{hex}, nullptr);
    sig +=
        "|" + std::to_string(hex) + ":" + std::to_string(v.cost) + ":" + std::string(v.blocked.id);
  }
  for (std::uint32_t side : ctx.state.destroyed_bridges()) sig += "b" + std::to_string(side);
  sig += rule41::KronshtadtOwners(ctx);
  return sig;
}

GroundRouter& RouterCache::Get(const RuleContext& ctx, const GroundMover& mover,
                               GroundRouter::Arcs arcs) {
  const std::string key = std::string(SideName(mover.side)) +
                          std::to_string(static_cast<int>(mover.cls)) +
                          (mover.engineer ? "e" : "") + std::to_string(mover.res) +
                          (arcs == GroundRouter::Arcs::kInbound ? "<" : ">");
  const std::string sig = StepSignature(ctx, mover);
  std::vector<Entry>& entries = entries_[key];
  auto it = std::find_if(entries.begin(), entries.end(),
                         [&](const Entry& e) { return e.signature == sig; });
  if (it == entries.end()) {
    if (entries.size() == kSignaturesPerMover) entries.pop_back();
    entries.insert(entries.begin(), Entry{sig, std::make_unique<GroundRouter>(ctx, mover, arcs)});
  } else {
    it->router->Rebind(ctx);
    std::rotate(entries.begin(), it, it + 1);
  }
  return *entries.front().router;
}

}  // namespace opsim::ops
