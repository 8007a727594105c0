// Private to opsim_tactical: whether any neighbour of a hex on the board satisfies a predicate.
#pragma once

#include "opsim/tactical/board.h"

namespace opsim::tactical {

template <class Pred>
bool AnyNeighbour(const Board& b, GridPos hex, Pred pred) {
  for (Dir d : map::kAllDirs) {
    const GridPos n = map::Neighbor(hex, d);
    if (b.At(n) != nullptr && pred(n)) return true;
  }
  return false;
}

}  // namespace opsim::tactical
