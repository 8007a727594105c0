#include "opsim/tactical/cot.h"

namespace opsim::tactical {

namespace {

bool Cycle(const Unit& u) {
  return u.kind() == UnitKind::kCycle || u.kind() == UnitKind::kBicycle;
}
bool Foot(const Unit& u) {
  return u.kind() == UnitKind::kInfantry || u.kind() == UnitKind::kCavalry;
}
bool Tracked(const Unit& u) {
  return u.kind() == UnitKind::kFullyTracked || u.kind() == UnitKind::kAmphibian;
}

}  // namespace

std::optional<Cost> TerrainCot(Terrain t, const Unit& u) {
  const TerrainInfo& info = Info(t);
  if (Foot(u)) return info.infantry;
  if (Cycle(u)) {
    if (!info.infantry) return std::nullopt;
    return *info.infantry * 3;
  }
  if (Tracked(u)) return info.fully_tracked;
  if (u.kind() == UnitKind::kTruck) return info.truck;
  return std::nullopt;  // boats and landing craft stay on the water
}

Cost OpenGroundCot(const Unit& u) {
  return TerrainCot(Terrain::kOpenGround, u).value_or(Cost());
}

Cost GrainCot(const Unit& u) {
  return TerrainCot(Terrain::kGrain, u).value_or(Cost());
}

Cost MudExtra(const Unit& u) {
  if (Foot(u)) return Cost::Halves(1);
  if (Cycle(u)) return Cost::Halves(3);
  return Cost::Points(1);
}

Cost BankCost(const Unit& u) {
  return Cycle(u) ? Cost::Points(3) : Cost::Points(1);
}

std::optional<Cost> SandCot(const Unit& u, bool hard) {
  if (Foot(u)) return Cost::Points(hard ? 1 : 2);
  if (Cycle(u)) return Cost::Points(hard ? 3 : 6);
  if (Tracked(u)) return Cost::Points(hard ? 2 : 3);
  if (u.kind() == UnitKind::kTruck) return Cost::Points(hard ? 4 : 8);
  return std::nullopt;
}

std::optional<Cost> ShallowStreamCot(const Unit& u) {
  if (Foot(u)) return Cost::Points(2);
  if (u.kind() == UnitKind::kBicycle) return Cost::Points(6);
  if (Tracked(u)) return Cost::Points(2);
  if (u.kind() == UnitKind::kTruck) return Cost::Points(6);
  return std::nullopt;  // a Ridden motorcycle may not Wade (G13.422); watercraft do not (G13.42)
}

std::optional<Cost> ShellholeCot(const Unit& u) {
  if (Foot(u)) return Cost::Points(2);
  if (Tracked(u)) return Cost::Points(2);
  return std::nullopt;
}

}  // namespace opsim::tactical
