// The movement and exploitation phases: ground moves (B4, with overruns B4.9, rail ferries
// 41.A.2 and exits 41.F), rail moves (B5), naval groups (B6, landing B12), air drops and
// rebasing (B11).
#include <algorithm>

#include "turn.h"

namespace opsim::ops {

namespace {

std::string Halves(int h) {
  return std::to_string(h / 2) + (h % 2 ? ".5" : "");
}

const map::RailFerry* FerryBetween(const map::Theater& t, map::HexRef a, map::HexRef b,
                                   std::size_t* index) {
  for (std::size_t i = 0; i < t.rail_ferries().size(); ++i) {
    const map::RailFerry& f = t.rail_ferries()[i];
    if ((f.from() == a && f.to() == b) || (f.to() == a && f.from() == b)) {
      *index = i;
      return &f;
    }
  }
  return nullptr;
}

}  // namespace

Status Turn::Movement(bool exploitation) {
  moved_.clear();
  for (const MoveOrder& m : exploitation ? orders_.exploitation : orders_.movement) {
    Status st;
    if (exploitation && m.kind != MoveKind::kGround) {
      return Refuse(rules::kB7_8, "only ground units move in the exploitation phase", m.where);
    }
    switch (m.kind) {
      case MoveKind::kGround:
        st = GroundMove(m, exploitation);
        break;
      case MoveKind::kRail:
        st = RailMove(m);
        break;
      case MoveKind::kNaval:
        st = NavalMove(m);
        break;
      case MoveKind::kAirDrop:
      case MoveKind::kRebase:
        st = AirMove(m);
        break;
      case MoveKind::kDestroyBridge:
      case MoveKind::kBuildBridge:
        st = BridgeWork(m);
        break;
    }
    if (!st) return st;
  }
  return {};
}

Status Turn::GroundMove(const MoveOrder& m, bool exploitation) {
  std::vector<GroundUnit*> stack;
  const map::HexRef start = m.path.front().hex;
  bool engineer = false;
  for (const std::string& id : m.units) {
    Status error;
    GroundUnit* u = Unit(id, m.where, &error);
    if (u == nullptr) return error;
    if (u->hex != start) {
      return Refuse(rules::kB4_10, u->name + " is in " + Name(u->hex) + ", not " + Name(start),
                    m.where);
    }
    if (moved_.count(u->id)) {
      return Refuse(rules::kB4_10, u->name + " has already moved this phase", m.where);
    }
    if (exploitation && (!u->traits().motorized || attacked_.count(u->id))) {
      return Refuse(rules::kB7_8,
                    u->name +
                        " may not exploit: only motorized units that did not attack "
                        "this player-turn",
                    m.where);
    }
    engineer = engineer || u->traits().engineer;
    stack.push_back(u);
  }
  for (const Waypoint& w : m.path) {
    if (w.is_river() || w.area_named) {
      return Fail(ErrorCode::kInvalidInput, "a ground path is made of plain hexes", m.where);
    }
  }
  const RuleContext ctx = Ctx(exploitation);
  int stack_halves = 0;
  for (GroundUnit* u : stack) stack_halves += u->re_halves;
  std::vector<int> spent(stack.size(), 0);
  std::vector<Note> special;  // what the steps' Rule 41 clauses said, for the record
  auto allowance = [&](const GroundUnit& u) {
    return exploitation ? u.mp * 2 / tables_.exploitation_divisor : u.mp * 2;
  };
  auto pay = [&](std::size_t k, std::uint32_t halves, map::HexRef at) -> Status {
    spent[k] += static_cast<int>(halves);
    if (spent[k] > allowance(*stack[k])) {
      return Refuse(exploitation ? rules::kB7_8 : rules::kB4_10,
                    stack[k]->name + " runs out of MPs entering " + Name(at) + ": " +
                        Halves(spent[k]) + " of " + Halves(allowance(*stack[k])) + " MP",
                    m.where);
    }
    return {};
  };
  // 41.A.4.b.4: the "+3 MP" marker costs its holder 3 MP the next time it moves.
  for (std::size_t k = 0; k < stack.size(); ++k) {
    if (stack[k]->extra_mp_marker > 0) {
      if (auto st = pay(k, static_cast<std::uint32_t>(stack[k]->extra_mp_marker) * 2, start); !st) {
        return st;
      }
      Say("move", rules::k41A4b,
          stack[k]->name + " pays its +" + std::to_string(stack[k]->extra_mp_marker) +
              " MP marker");
      stack[k]->extra_mp_marker = 0;
    }
  }
  for (std::size_t i = 1; i < m.path.size(); ++i) {
    const map::HexRef from = m.path[i - 1].hex;
    const map::HexRef to = m.path[i].hex;
    if (i > 1 && EnemyZoc(side_)[from.v]) {
      return Refuse(rules::kB4_8,
                    "entering an enemy zone of control at " + Name(from) + " ends the move",
                    m.where);
    }
    const map::HexsideRef side = t_.HexsideBetween(from, to);
    std::size_t ferry_index = 0;
    const map::RailFerry* ferry = side.valid() ? nullptr : FerryBetween(t_, from, to, &ferry_index);
    if (!side.valid() && ferry == nullptr) {
      return Fail(ErrorCode::kInvalidInput,
                  Name(from) + " and " + Name(to) + " are not adjacent, nor one rail ferry's ends",
                  m.where);
    }
    if (ferry != nullptr) {
      int& used = ferry_used_halves_[ferry_index];
      if (used + stack_halves > 6) {
        return Refuse(rules::k41A2,
                      "the " + ferry->name + " rail ferry moves up to 3 REs a player-turn; " +
                          Halves(used) + " have used it and " + Halves(stack_halves) + " more ask",
                      m.where);
      }
      used += stack_halves;
    }
    // B4.9: moving into enemy units is an overrun.
    std::vector<GroundUnit*> defenders = UnitsAt(to, Enemy(side_));
    for (std::size_t k = 0; k < stack.size(); ++k) {
      GroundMover mover;
      mover.side = side_;
      mover.cls = stack[k]->traits().cls;
      mover.engineer = engineer;
      mover.res = (stack_halves + 1) / 2;
      std::vector<Note> notes;
      const StepVerdict step = side.valid() ? EvaluateGroundStep(ctx, mover, from, side, &notes)
                                            : EvaluateFerryStep(ctx, mover, *ferry, from, &notes);
      if (!step.blocked.empty()) {
        return Refuse(step.blocked, stack[k]->name + " cannot enter " + Name(to) + ": " + step.why,
                      m.where);
      }
      special.insert(special.end(), std::make_move_iterator(notes.begin()),
                     std::make_move_iterator(notes.end()));
      if (auto st = pay(k, step.cost, to); !st) return st;
    }
    if (!defenders.empty()) {
      int attack = 0, defense = 0;
      for (GroundUnit* u : stack) {
        attack += u->supply == SupplyStatus::kSupplied
                      ? u->attack
                      : u->attack / tables_.combat.out_of_supply_attack_divisor;
      }
      for (GroundUnit* d : defenders) defense += d->defense;
      const map::HexInfo& info = t_.hex(to);
      const int shift = tables_.combat.terrain_shift[static_cast<int>(info.terrain)] +
                        tables_.combat.city_shift[static_cast<int>(info.city)];
      const int odds = defense == 0 ? tables_.combat.overrun_odds : attack / defense + shift;
      if (odds < tables_.combat.overrun_odds) {
        return Refuse(rules::kB4_9,
                      "an overrun at " + Name(to) + " needs " +
                          std::to_string(tables_.combat.overrun_odds) + ":1 after terrain; " +
                          std::to_string(attack) + " against " + std::to_string(defense) +
                          " gives " + std::to_string(std::max(odds, 0)) + ":1",
                      m.where);
      }
      for (std::size_t k = 0; k < stack.size(); ++k) {
        if (auto st = pay(k, static_cast<std::uint32_t>(tables_.combat.overrun_extra_mp) * 2, to);
            !st) {
          return st;
        }
      }
      for (GroundUnit* d : defenders) {
        Eliminate(*d, rules::kB4_9, "overrun at " + std::to_string(odds) + ":1");
      }
    }
    for (GroundUnit* u : stack) Enter(*u, to);
  }
  const map::HexRef end = m.path.back().hex;
  std::string who;
  for (GroundUnit* u : stack) who += (who.empty() ? "" : ", ") + u->name;
  std::string route = Name(start);
  for (std::size_t i = 1; i < m.path.size(); ++i) {
    // Later hexes on the same sheet drop the sheet, as orders files may.
    const std::string next = Name(m.path[i].hex);
    const auto colon = next.find(':');
    route += "-" + (next.compare(0, colon, Name(m.path[i - 1].hex), 0, colon) == 0
                        ? next.substr(colon + 1)
                        : next);
  }
  int most = 0;
  for (int s : spent) most = std::max(most, s);
  Say("move", exploitation ? rules::kB7_8 : rules::kB4_10,
      who + (exploitation ? " exploits " : " moves ") + route + " (" + Halves(most) + " MP)");
  SayRule41("move", who, special);
  if (m.exit) {
    // 41.F: an unisolated, supplied unit leaves the map from an exit hex of its side, paying
    // that hex's MP cost.
    const map::ExitEdge* edge = nullptr;
    for (const map::ExitEdge& e : t_.exits()) {
      if (e.side == side_ && std::find(e.hexes.begin(), e.hexes.end(), end) != e.hexes.end()) {
        edge = &e;
      }
    }
    if (edge == nullptr) {
      return Refuse(
          rules::k41F,
          Name(end) + " is not on a map edge where " + SideName(side_) + " units may exit",
          m.where);
    }
    for (std::size_t k = 0; k < stack.size(); ++k) {
      GroundUnit& u = *stack[k];
      if (u.supply != SupplyStatus::kSupplied) {
        return Refuse(rules::k41F,
                      u.name + " is " + SupplyStatusName(u.supply) +
                          ": only unisolated, supplied units may exit the map",
                      m.where);
      }
      GroundMover mover;
      mover.side = side_;
      mover.cls = u.traits().cls;
      const StepVerdict cost = EvaluateGroundHex(ctx, mover, end, nullptr);
      if (auto st = pay(k, cost.cost, end); !st) return st;
      Remove(u, UnitStatus::kExited);
      s_.exit_totals[edge->total] += u.attack;
      Say("exit", rules::k41F,
          u.name + " exits the map from " + Name(end) + " (" + edge->name +
              "): " + std::to_string(u.attack) + " attack strength to the '" + edge->total +
              "' total, now " + std::to_string(s_.exit_totals[edge->total]));
    }
  } else if (ResAt(end, side_) > tables_.stacking_halves) {
    return Refuse(rules::kB3_2,
                  Name(end) + " would hold " + Halves(ResAt(end, side_)) + " REs; the limit is " +
                      Halves(tables_.stacking_halves),
                  m.where);
  }
  for (GroundUnit* u : stack) moved_.insert(u->id);
  return {};
}

Status Turn::RailMove(const MoveOrder& m) {
  const map::HexRef start = m.path.front().hex;
  const std::vector<std::uint8_t>& zoc = EnemyZoc(side_);
  std::vector<GroundUnit*> stack;
  int halves = 0;
  for (const std::string& id : m.units) {
    Status error;
    GroundUnit* u = Unit(id, m.where, &error);
    if (u == nullptr) return error;
    if (u->hex != start || moved_.count(u->id)) {
      return Refuse(rules::kB5_1, u->name + " is not free to move by rail from " + Name(start),
                    m.where);
    }
    stack.push_back(u);
    halves += u->re_halves;
  }
  if (static_cast<int>(m.path.size()) - 1 > tables_.rail_hexes) {
    return Refuse(rules::kB5_1,
                  "a rail move runs at most " + std::to_string(tables_.rail_hexes) + " hexes",
                  m.where);
  }
  const int capacity = c_.rail_capacity[static_cast<int>(side_)] * 2;
  if (rail_used_halves_ + halves > capacity) {
    return Refuse(rules::kB5_1,
                  "rail capacity: " + Halves(capacity) + " REs a player-turn, " +
                      Halves(rail_used_halves_) + " used, " + Halves(halves) + " more asked",
                  m.where);
  }
  for (std::size_t i = 0; i < m.path.size(); ++i) {
    const map::HexRef h = m.path[i].hex;
    if (zoc[h.v]) {
      return Refuse(rules::kB5_1,
                    "no rail movement in or into an enemy zone of control (" + Name(h) + ")",
                    m.where);
    }
    if (i == 0) continue;
    const map::HexsideRef side = t_.HexsideBetween(m.path[i - 1].hex, h);
    if (!side.valid() || !t_.hexside(side).Has(map::kRailroad)) {
      return Refuse(rules::kB5_1,
                    "no railroad joins " + Name(m.path[i - 1].hex) + " and " + Name(h), m.where);
    }
    if (s_.map.bridge_destroyed(side)) {
      return Refuse(rules::kB14_1, "the rail bridge on " + t_.HexsideName(side) + " is destroyed",
                    m.where);
    }
    if (s_.map.owner(h) != OwnerOf(side_) || Occupied(h, Enemy(side_))) {
      return Refuse(rules::kB5_1,
                    "rail moves run through friendly hexes only; " + Name(h) + " is not", m.where);
    }
  }
  const map::HexRef end = m.path.back().hex;
  if (ResAt(end, side_) + halves > tables_.stacking_halves) {
    return Refuse(rules::kB3_2, Name(end) + " would be over the stacking limit", m.where);
  }
  rail_used_halves_ += halves;
  for (GroundUnit* u : stack) {
    Place(*u, end);
    moved_.insert(u->id);
    Say("rail", rules::kB5_1,
        u->name + " moves by rail " + Name(start) + " to " + Name(end) + " (" +
            Halves(rail_used_halves_) + " of " + Halves(capacity) + " REs of rail capacity used)");
  }
  return {};
}

Status Turn::NavalMove(const MoveOrder& m) {
  NavalGroup group;
  group.side = side_;
  std::vector<NavalUnit*> ships;
  const Waypoint& start = m.path.front();
  if (start.is_river()) {
    return Fail(ErrorCode::kInvalidInput, "a naval move starts in a hex", m.where);
  }
  for (const std::string& id : m.units) {
    NavalUnit* n = s_.FindNaval(id);
    if (n == nullptr) return Fail(ErrorCode::kInvalidInput, "no naval unit '" + id + "'", m.where);
    if (n->side != side_ || n->sunk) {
      return Refuse(rules::kB6_5, n->name + " cannot move this player-turn", m.where);
    }
    if (n->hex != start.hex || (start.area_named && n->area != start.area)) {
      return Refuse(rules::kB6_5, n->name + " is not at " + FormatWaypoint(t_, start), m.where);
    }
    if (moved_.count(n->id)) return Refuse(rules::kB6_5, n->name + " has already moved", m.where);
    group.tf = group.tf || n->kind == NavalKind::kTaskForce;
    group.cg = group.cg || n->kind == NavalKind::kCarrierGroup;
    group.transport = group.transport || n->kind == NavalKind::kTransport;
    group.flotilla = group.flotilla || n->kind == NavalKind::kFlotilla;
    ships.push_back(n);
  }
  std::vector<Waypoint> path = m.path;
  if (!start.area_named) path.front().area = ships.front()->area;
  const PathVerdict v = NavalRouter(Ctx(false), group).Check(path);
  if (!v.legal) {
    if (v.blocked_by.empty()) return Fail(ErrorCode::kInvalidInput, v.reason, m.where);
    return Refuse(v.blocked_by.front(),
                  "the group of " + GroupName(group) + " cannot move: " + v.reason, m.where);
  }
  if (static_cast<int>(v.cost) > tables_.naval.allowance) {
    return Refuse(rules::kB6_5,
                  "the group needs " + std::to_string(v.cost) + " naval steps; " +
                      "its allowance is " + std::to_string(tables_.naval.allowance),
                  m.where);
  }
  const Waypoint& end = path.back();
  if (end.is_river()) return Fail(ErrorCode::kInvalidInput, "a naval move ends in a hex", m.where);
  // B12.1: carried ground units embark where the group starts and land where it ends.
  std::vector<GroundUnit*> carried;
  int halves = 0;
  for (const std::string& id : m.carry) {
    Status error;
    GroundUnit* u = Unit(id, m.where, &error);
    if (u == nullptr) return error;
    if (u->hex != start.hex || moved_.count(u->id)) {
      return Refuse(rules::kB12_1, u->name + " is not ready to embark at " + Name(start.hex),
                    m.where);
    }
    halves += u->re_halves;
    carried.push_back(u);
  }
  if (!carried.empty()) {
    if (!group.transport) {
      return Refuse(rules::kB12_1, "only a group with transports carries ground units", m.where);
    }
    if (halves > tables_.naval.landing_res * 2) {
      return Refuse(rules::kB12_1,
                    "a group lands at most " + std::to_string(tables_.naval.landing_res) + " REs",
                    m.where);
    }
    if (t_.hex(end.hex).IsWater() || Occupied(end.hex, Enemy(side_))) {
      return Refuse(
          rules::kB12_1,
          "units land on a coastal land hex free of enemy units; " + Name(end.hex) + " is not one",
          m.where);
    }
    if (ResAt(end.hex, side_) + halves > tables_.stacking_halves) {
      return Refuse(rules::kB3_2, Name(end.hex) + " would be over the stacking limit", m.where);
    }
  }
  const bool port = t_.hex(end.hex).port != map::PortSize::kNone && end.area == 0;
  for (NavalUnit* n : ships) {
    n->hex = end.hex;
    n->area = end.area;
    n->at_sea = !port;
    moved_.insert(n->id);
  }
  std::string names;
  for (NavalUnit* n : ships) names += (names.empty() ? "" : ", ") + n->name;
  Say("naval", rules::kB6_5,
      names + " sail " + FormatWaypoint(t_, start) + " to " + FormatWaypoint(t_, end) + " (" +
          std::to_string(v.cost) + " steps)" + (port ? ", into port" : ", at sea"));
  std::vector<Note> special;
  for (const std::vector<Note>& step : v.notes)
    special.insert(special.end(), step.begin(), step.end());
  SayRule41("naval", names, special);
  for (GroundUnit* u : carried) {
    Enter(*u, end.hex);
    moved_.insert(u->id);
    Say("landing", rules::kB12_1, u->name + " lands at " + Name(end.hex));
  }
  return {};
}

Status Turn::AirMove(const MoveOrder& m) {
  const map::HexRef target = m.path.front().hex;
  if (m.kind == MoveKind::kAirDrop) {
    Status error;
    GroundUnit* u = Unit(m.units.front(), m.where, &error);
    if (u == nullptr) return error;
    if (!u->traits().airborne) return Refuse(rules::kB11_3, u->name + " is not airborne", m.where);
    if (moved_.count(u->id)) return Refuse(rules::kB11_3, u->name + " has already moved", m.where);
    if (!t_.hex(u->hex).airbase && !s_.map.ice_airfield(u->hex)) {
      return Refuse(rules::kB11_3, u->name + " must start at an airbase", m.where);
    }
    if (map::Distance(t_.Pos(u->hex), t_.Pos(target)) > tables_.air_drop_range) {
      return Refuse(rules::kB11_3,
                    Name(target) + " is beyond the " + std::to_string(tables_.air_drop_range) +
                        "-hex drop range",
                    m.where);
    }
    GroundMover mover;
    mover.side = side_;
    const StepVerdict stand = EvaluateGroundHex(Ctx(false), mover, target, nullptr);
    if (!stand.blocked.empty()) {
      return Refuse(stand.blocked,
                    "no drop into " + Name(target) + ": it is closed to ground units", m.where);
    }
    const bool onto_enemy = Occupied(target, Enemy(side_));
    if (onto_enemy) {
      // B11.3: a drop onto enemy units is an assault: the unit must attack their hex.
      const bool attacks =
          std::any_of(orders_.combat.begin(), orders_.combat.end(), [&](const AttackOrder& a) {
            return a.hex == target &&
                   std::find(a.units.begin(), a.units.end(), u->id) != a.units.end();
          });
      if (!attacks) {
        return Refuse(rules::kB11_3,
                      u->name + " may drop onto the enemy units at " + Name(target) +
                          " only to attack them: list it among that hex's attackers",
                      m.where);
      }
    }
    if (ResAt(target, side_) + u->re_halves > tables_.stacking_halves) {
      return Refuse(rules::kB3_2, Name(target) + " would be over the stacking limit", m.where);
    }
    u->dropped_in = serial_;
    Enter(*u, target);  // an assault gains no hex while the enemy holds it (B9.1)
    moved_.insert(u->id);
    Say("air-drop", rules::kB11_3,
        u->name + (onto_enemy ? " drops onto the enemy units at " : " drops into ") + Name(target) +
            (onto_enemy ? ": it must attack them this player-turn" : ""));
    return {};
  }
  AirUnit* a = s_.FindAir(m.units.front());
  if (a == nullptr) {
    return Fail(ErrorCode::kInvalidInput, "no air unit '" + m.units.front() + "'", m.where);
  }
  if (a->side != side_ || a->status != AirStatus::kBased) {
    return Refuse(rules::kB11_1, a->name + " cannot fly this player-turn", m.where);
  }
  if (!t_.hex(target).airbase && !s_.map.ice_airfield(target)) {
    return Refuse(rules::kB11_1, Name(target) + " has no airbase or ice airfield", m.where);
  }
  if (s_.map.owner(target) != OwnerOf(side_)) {
    return Refuse(rules::kB11_1, Name(target) + " is not " + SideName(side_) + "-owned", m.where);
  }
  if (map::Distance(t_.Pos(a->base), t_.Pos(target)) > tables_.air_escape_range) {
    return Refuse(rules::kB11_1, Name(target) + " is out of range", m.where);
  }
  Say("air", rules::kB11_1, a->name + " flies from " + Name(a->base) + " to " + Name(target));
  a->base = target;
  return {};
}

Status Turn::BridgeWork(const MoveOrder& m) {
  const bool destroy = m.kind == MoveKind::kDestroyBridge;
  const RuleId rule = destroy ? rules::kB14_1 : rules::kB14_2;
  Status error;
  GroundUnit* u = Unit(m.units.front(), m.where, &error);
  if (u == nullptr) return error;
  const map::HexsideInfo& side = t_.hexside(m.hexside);
  const std::string name = t_.HexsideName(m.hexside);
  // 41.A.1: a causeway counts as a bridge for all construction and destruction purposes.
  const std::string what = side.Has(map::kCauseway) ? "causeway" : "bridge";
  if (!side.IsBridge()) {
    return Refuse(rule, name + " holds no bridge: no road or railroad crosses water there",
                  m.where);
  }
  if (u->hex != side.a && u->hex != side.b) {
    return Refuse(rule, u->name + " must stand at one end of " + name, m.where);
  }
  if (moved_.count(u->id)) return Refuse(rule, u->name + " has already moved this phase", m.where);
  if (destroy) {
    if (s_.map.bridge_destroyed(m.hexside)) {
      return Refuse(rule, "the " + what + " on " + name + " is already down", m.where);
    }
    s_.map.SetBridgeDestroyed(m.hexside, true);
    Say("bridge", side.Has(map::kCauseway) ? rules::k41A1 : rule,
        u->name + " destroys the " + what + " on " + name);
  } else {
    if (!u->traits().construction) {
      return Refuse(rule,
                    u->name +
                        " is no construction unit: only engineers and construction units "
                        "build bridges",
                    m.where);
    }
    if (!s_.map.bridge_destroyed(m.hexside)) {
      return Refuse(rule, "the " + what + " on " + name + " stands", m.where);
    }
    if (Occupied(side.Other(u->hex), Enemy(side_))) {
      return Refuse(rule, "enemy units hold the far end of " + name, m.where);
    }
    s_.map.SetBridgeDestroyed(m.hexside, false);
    Say("bridge", side.Has(map::kCauseway) ? rules::k41A1 : rule,
        u->name + " rebuilds the " + what + " on " + name);
  }
  moved_.insert(u->id);
  return {};
}

}  // namespace opsim::ops
