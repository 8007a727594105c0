// LosTrace: exactly which hexes, hexsides and vertices a line of sight passes.
//
// A LOS runs from the centre dot of one hex to the centre dot of another (G8.4: also to/from a
// unit on a Bank counter). It can pass through a hex's interior, cross a hexside, pass exactly
// through a vertex, or run exactly along a hexside (a hexspine LOS, as squad A's LOS to squads B
// and D does in the G8.4 EX). TraceLos finds all of these with exact integer arithmetic, so
// whether a LOS is "along" a hexside never depends on rounding. The rules that read a trace
// (obstacles, Hindrances, TEM) live in los.h. Pure; thread-safe.
#pragma once

#include <array>
#include <vector>

#include "opsim/tactical/geometry.h"

namespace opsim::tactical {

struct LosTrace {
  GridPos from;
  GridPos to;
  // Every hex whose interior the LOS passes, in order: front() is `from`, back() is `to`.
  std::vector<GridPos> hexes;
  // Hexsides the LOS crosses from one hex's interior into the next, in order (including a
  // crossing made exactly at one end of the hexside, through a vertex).
  std::vector<Hexside> crossed;
  // Hexsides the LOS runs exactly along, in order.
  std::vector<Hexside> along;
  // Vertices the LOS passes exactly through, each as the three hexes that meet there.
  std::vector<std::array<GridPos, 3>> vertices;
  // The hexsides of `to` the LOS crosses, or touches at a vertex, as it enters `to`; likewise
  // the hexsides of `from` as it leaves. Empty when from == to.
  std::vector<Hexside> entry;
  std::vector<Hexside> exit;

  // The hexes strictly between the two ends.
  std::vector<GridPos> Intervening() const;
};

LosTrace TraceLos(GridPos from, GridPos to);

}  // namespace opsim::tactical
