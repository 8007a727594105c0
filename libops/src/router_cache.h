// RouterCache: ground routers kept across queries and player-turns while the movement costs
// they hold stay the same. A router's arcs depend on the mover and on a few parts of the map
// state only (frozen zones, floods, the owners of the Kronshtadt hexside's hexes); the cache
// keys each router by a signature of exactly those, and keeps the last few signatures' routers
// for each mover, so that states alternating between them (the frozen zones of a Monte Carlo
// run's random weather) do not rebuild one each time. Not thread-safe. Private to libops.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "opsim/ops/route.h"

namespace opsim::ops {

// Everything in the state that `mover`'s step verdicts read (EvaluateGroundStep: the frozen
// zones, the floods as the step judge sees them at ctx's player-turn, destroyed bridges and
// causeways, the owners of the Kronshtadt hexside's hexes), as text: two contexts of one
// theater and rules with the same signature judge every step of `mover` alike.
std::string StepSignature(const RuleContext& ctx, const GroundMover& mover);

class RouterCache {
 public:
  // A router for `mover` at `ctx`: the cached one if the costs are unchanged, else a new one.
  GroundRouter& Get(const RuleContext& ctx, const GroundMover& mover, GroundRouter::Arcs arcs);

 private:
  struct Entry {
    std::string signature;
    std::unique_ptr<GroundRouter> router;
  };
  // Three weather zones freeze in 8 ways: enough for a run's weather never to rebuild.
  static constexpr std::size_t kSignaturesPerMover = 8;
  std::map<std::string, std::vector<Entry>> entries_;  // by mover and direction; newest first
};

}  // namespace opsim::ops
