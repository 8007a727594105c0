#include "opsim/ops/synthetic.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "opsim/core/dice.h"

namespace opsim::ops {

using nlohmann::json;

Result<std::string> AddSyntheticCampaign(const std::string& scenario_text, int units,
                                         std::uint64_t seed) {
  auto src = JsonSource::FromText(scenario_text, "generated");
  if (!src) return std::unexpected(src.error());
  auto sc = map::LoadScenario(*src);
  if (!sc) return std::unexpected(sc.error());
  const map::Theater& t = sc->theater;
  json doc = src->doc();
  // Sheets in the west half of the grid are the Axis's, the rest the Allies'.
  int min_col = 1 << 30, max_col = -(1 << 30);
  for (const map::Sheet& s : t.sheets()) {
    min_col = std::min(min_col, s.origin.col + s.first_col);
    max_col = std::max(max_col, s.origin.col + s.last_col);
  }
  const int middle = (min_col + max_col) / 2;
  auto axis_sheet = [&](const map::Sheet& s) {
    return s.origin.col + (s.first_col + s.last_col) / 2 < middle;
  };
  json control = {{"axis", json::array()}, {"allied", json::array()}};
  std::array<std::vector<map::HexRef>, 2> land;
  for (const map::Sheet& s : t.sheets()) {
    const Side side = axis_sheet(s) ? Side::kAxis : Side::kAllied;
    control[SideName(side)].push_back(map::FormatHexName(s.name, s.first_col, s.first_row) + ".." +
                                      map::FormatHexName(s.name, s.last_col, s.last_row));
  }
  for (std::uint32_t v = 0; v < t.hex_count(); ++v) {
    const map::HexRef h{v};
    if (t.hex(h).IsWater() || t.hex(h).terrain == map::Terrain::kProhibited) continue;
    const Side side = axis_sheet(t.sheets()[t.hex(h).sheet]) ? Side::kAxis : Side::kAllied;
    land[static_cast<int>(side)].push_back(h);
  }
  // Whole sheets change hands, their water too: owning water changes nothing.
  doc["state"]["control"] = control;
  Dice dice(seed);
  json unit_list = json::array();
  json sources = {{"axis", json::array()}, {"allied", json::array()}};
  for (Side side : {Side::kAxis, Side::kAllied}) {
    const auto& hexes = land[static_cast<int>(side)];
    const int count = side == Side::kAxis ? units / 2 : units - units / 2;
    if (hexes.size() < static_cast<std::size_t>(count)) {
      return Fail(ErrorCode::kInvalidInput,
                  "the theater has too little land for " + std::to_string(units) + " units");
    }
    for (int i = 0; i < count; ++i) {
      const map::HexRef h = hexes[static_cast<std::size_t>(i) * hexes.size() / count];
      const bool armor = dice.Roll(4) == 1;
      unit_list.push_back(
          {{"id", std::string(side == Side::kAxis ? "ax-" : "al-") + std::to_string(i + 1)},
           {"nationality", side == Side::kAxis ? "axis-army" : "allied-army"},
           {"type", armor ? "armor" : "infantry"},
           {"attack", 3 + dice.Roll(5)},
           {"defense", 3 + dice.Roll(4)},
           {"mp", armor ? 8 : 4},
           {"re", 1},
           {"hex", t.HexName(h)}});
    }
    for (const map::Place& p : t.places()) {
      const Side owner = axis_sheet(t.sheets()[t.hex(p.hex).sheet]) ? Side::kAxis : Side::kAllied;
      if (owner == side && sources[SideName(side)].size() < 64) {
        sources[SideName(side)].push_back(t.HexName(p.hex));
      }
    }
  }
  doc["campaign"] = {{"start", "Jan I 1942"},
                     {"first", "axis"},
                     {"nationalities", {{"axis-army", "axis"}, {"allied-army", "allied"}}},
                     {"rail-capacity", {{"axis", 10}, {"allied", 10}}},
                     {"supply-sources", sources},
                     {"units", unit_list}};
  return doc.dump(1) + "\n";
}

Orders SyntheticOrders(const Game& game, std::uint64_t seed) {
  const GameState& s = game.state();
  const map::Theater& t = game.theater();
  const Side side = s.phasing();
  Orders o;
  o.side = side;
  o.turn = s.date();
  o.source = "synthetic";
  Dice dice(seed ^ (static_cast<std::uint64_t>(s.player_turn) * 0x9E3779B97F4A7C15ULL));
  const RuleContext ctx = game.Context();
  const int limit = game.tables().stacking_halves;
  std::vector<int> res(t.hex_count(), 0);
  std::vector<std::uint8_t> enemy(t.hex_count(), 0);
  for (const GroundUnit& u : s.units) {
    if (!u.on_map()) continue;
    if (u.side == side) {
      res[u.hex.v] += u.re_halves;
    } else {
      enemy[u.hex.v] = 1;
    }
  }
  std::map<std::string, map::HexRef> at;  // where each unit stands after its move
  for (const GroundUnit& u : s.units) {
    if (!u.on_map() || u.side != side) continue;
    at[u.id] = u.hex;
    if (dice.Roll(4) == 1) continue;  // some units hold
    GroundMover mover;
    mover.side = side;
    mover.cls = game.tables().type(u.type).cls;
    const int first = dice.Roll(6) - 1;
    for (int k = 0; k < map::kDirCount; ++k) {
      const auto d = static_cast<map::Dir>((first + k) % map::kDirCount);
      const map::HexsideRef e = t.HexsideAt(u.hex, d);
      if (!e.valid()) continue;
      const map::HexRef to = t.hexside(e).Other(u.hex);
      if (enemy[to.v] || res[to.v] + u.re_halves > limit) continue;
      const StepVerdict step = EvaluateGroundStep(ctx, mover, u.hex, e, nullptr);
      if (!step.blocked.empty() || step.cost > static_cast<std::uint32_t>(u.mp) * 2) continue;
      res[u.hex.v] -= u.re_halves;
      res[to.v] += u.re_halves;
      at[u.id] = to;
      MoveOrder m;
      m.kind = MoveKind::kGround;
      m.units = {u.id};
      Waypoint a, b;
      a.hex = u.hex;
      b.hex = to;
      m.path = {a, b};
      o.movement.push_back(std::move(m));
      break;
    }
  }
  // Attacks: each enemy hex next to our units, by up to two of them.
  std::map<std::uint32_t, std::vector<std::string>> attacks;
  for (const auto& [id, hex] : at) {
    const GroundUnit* u = s.FindUnit(id);
    GroundMover mover;
    mover.side = side;
    mover.cls = game.tables().type(u->type).cls;
    for (map::Dir d : map::kAllDirs) {
      const map::HexsideRef e = t.HexsideAt(hex, d);
      if (!e.valid()) continue;
      const map::HexRef target = t.hexside(e).Other(hex);
      if (!enemy[target.v]) continue;
      const map::Waterway* w = t.WaterwayOf(e);
      if (w != nullptr && w->rule == map::WaterwayRule::kKerch) continue;
      if (ClassifyCrossing(ctx, mover, hex, e, nullptr).crossing == Crossing::kBlocked) continue;
      auto& list = attacks[target.v];
      if (list.size() < 2) list.push_back(id);
      break;
    }
  }
  for (const auto& [target, ids] : attacks) {
    AttackOrder a;
    a.hex = map::HexRef{target};
    a.units = ids;
    o.combat.push_back(std::move(a));
  }
  return o;
}

}  // namespace opsim::ops
