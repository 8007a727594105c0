// The movement and exploitation phases: ground moves (B4, with overruns B4.9; rail ferries,
// 41.A.2, exits, 41.F, and the +3 MP marker, 41.A.4.b, are in rule41/), rail moves (B5), naval
// groups (B6, landing B12), air drops and rebasing (B11), bridge work (B14).
#include <algorithm>

#include "movement.h"
#include "notes.h"
#include "opsim/core/echo.h"
#include "rule41/rule41.h"
#include "turn.h"

namespace opsim::ops {

Status Turn::Movement(bool exploitation) {
  StartMovement();
  for (const MoveOrder& m : exploitation ? orders_.exploitation : orders_.movement) {
    if (auto st = Attempt([&] { return Move(m, exploitation); }); !st) return st;
  }
  return {};
}

Status Turn::Move(const MoveOrder& m, bool exploitation) {
  if (exploitation && m.kind != MoveKind::kGround) {
    return Refuse(rules::kB7_8, "only ground units move in the exploitation phase", m.where);
  }
  switch (m.kind) {
    case MoveKind::kGround:
      return GroundMove(m, exploitation);
    case MoveKind::kRail:
      return RailMove(m);
    case MoveKind::kNaval:
      return NavalMove(m);
    case MoveKind::kAirDrop:
    case MoveKind::kRebase:
      return AirMove(m);
    case MoveKind::kDestroyBridge:
    case MoveKind::kBuildBridge:
      return BridgeWork(m);
  }
  return {};
}

Result<Turn::MovingStack> Turn::GatherStack(const MoveOrder& m, bool exploitation) {
  MovingStack stack;
  stack.exploitation = exploitation;
  const map::HexRef start = m.path.front().hex;
  for (const std::string& id : m.units) {
    Status error;
    GroundUnit* u = Unit(id, m.where, &error);
    if (u == nullptr) return std::unexpected(error.error());
    if (u->hex != start) {
      return Refuse(rules::kB4_10, u->name + " is in " + Name(u->hex) + ", not " + Name(start),
                    m.where);
    }
    if (moved_.count(u->id)) {
      return Refuse(rules::kB4_10, u->name + " has already moved this phase", m.where);
    }
    if (exploitation && (!tables_.type(u->type).motorized || attacked_.count(u->id))) {
      return Refuse(rules::kB7_8,
                    u->name +
                        " may not exploit: only motorized units that did not attack "
                        "this player-turn",
                    m.where);
    }
    stack.engineer = stack.engineer || tables_.type(u->type).engineer;
    stack.units.push_back(u);
  }
  for (const Waypoint& w : m.path) {
    if (w.is_river() || w.area_named) {
      return Fail(ErrorCode::kInvalidInput, "a ground path is made of plain hexes", m.where);
    }
  }
  for (GroundUnit* u : stack.units) stack.halves += u->re_halves;
  stack.spent.assign(stack.units.size(), 0);
  return stack;
}

Status Turn::Pay(MovingStack& stack, std::size_t k, std::uint32_t halves, map::HexRef at,
                 const std::string& where) {
  const GroundUnit& u = *stack.units[k];
  const int allowance = MoveAllowance(u, tables_, stack.exploitation);
  stack.spent[k] += static_cast<int>(halves);
  if (stack.spent[k] > allowance) {
    return Refuse(stack.exploitation ? rules::kB7_8 : rules::kB4_10,
                  u.name + " runs out of MPs entering " + Name(at) + ": " + Halves(stack.spent[k]) +
                      " of " + Halves(allowance) + " MP",
                  where);
  }
  return {};
}

Status Turn::GroundMove(const MoveOrder& m, bool exploitation) {
  auto stack = GatherStack(m, exploitation);
  if (!stack) return std::unexpected(stack.error());
  const RuleContext ctx = Ctx(exploitation);
  if (auto st = PayFloodMarkers(*stack, m.path.front().hex, m.where); !st) return st;
  std::vector<StepNotes> special;  // what the steps' Rule 41 clauses said, for the record
  for (std::size_t i = 1; i < m.path.size(); ++i) {
    if (auto st = GroundStep(*stack, m, i, ctx, special); !st) return st;
  }
  SayGroundMove(*stack, m, special);
  const map::HexRef end = m.path.back().hex;
  if (m.exit) {
    if (auto st = ExitMap(*stack, end, ctx, m.where); !st) return st;
  } else if (ResAt(end, side_) > tables_.stacking_halves) {
    return Refuse(rules::kB3_2,
                  Name(end) + " would hold " + Halves(ResAt(end, side_)) + " REs; the limit is " +
                      Halves(tables_.stacking_halves),
                  m.where);
  }
  for (GroundUnit* u : stack->units) moved_.insert(u->id);
  return {};
}

Status Turn::GroundStep(MovingStack& stack, const MoveOrder& m, std::size_t i,
                        const RuleContext& ctx, std::vector<StepNotes>& special) {
  const map::HexRef from = m.path[i - 1].hex;
  const map::HexRef to = m.path[i].hex;
  if (i > 1 && EnemyZoc(side_)[from.v]) {
    return Refuse(rules::kB4_8,
                  "entering an enemy zone of control at " + Name(from) + " ends the move", m.where);
  }
  const map::HexsideRef side = t_.HexsideBetween(from, to);
  std::size_t ferry_index = 0;
  const map::RailFerry* ferry =
      side.valid() ? nullptr : rule41::FerryBetween(t_, from, to, &ferry_index);
  if (!side.valid() && ferry == nullptr) {
    return Fail(ErrorCode::kInvalidInput,
                Name(from) + " and " + Name(to) + " are not adjacent, nor one rail ferry's ends",
                m.where);
  }
  if (ferry != nullptr) {
    if (auto st = RideFerry(ferry_index, stack.halves, m.where); !st) return st;
  }
  std::vector<GroundUnit*> defenders = UnitsAt(to, Enemy(side_));
  special.push_back(StepNotes{{from, to}, {}});
  for (std::size_t k = 0; k < stack.units.size(); ++k) {
    const GroundMover mover =
        StackMover(side_, tables_.type(stack.units[k]->type).cls, stack.engineer, stack.halves);
    std::vector<Note> notes;
    const StepVerdict step = side.valid() ? EvaluateGroundStep(ctx, mover, from, side, &notes)
                                          : EvaluateFerryStep(ctx, mover, *ferry, from, &notes);
    if (!step.blocked.empty()) {
      return Refuse(step.blocked,
                    stack.units[k]->name + " cannot enter " + Name(to) + ": " + step.why, m.where);
    }
    special.back().notes.insert(special.back().notes.end(), std::make_move_iterator(notes.begin()),
                                std::make_move_iterator(notes.end()));
    if (auto st = Pay(stack, k, step.cost, to, m.where); !st) return st;
  }
  if (!defenders.empty()) {
    if (auto st = Overrun(stack, to, defenders, m.where); !st) return st;
  }
  for (GroundUnit* u : stack.units) Enter(*u, to);
  return {};
}

Status Turn::Overrun(MovingStack& stack, map::HexRef to, const std::vector<GroundUnit*>& defenders,
                     const std::string& where) {
  // B4.9: moving into enemy units is an overrun.
  int attack = 0, defense = 0;
  for (GroundUnit* u : stack.units) attack += OverrunAttack(*u, tables_);
  for (GroundUnit* d : defenders) defense += d->defense;
  const int odds = OverrunOdds(tables_, t_.hex(to), attack, defense);
  if (odds < tables_.combat.overrun_odds) {
    return Refuse(rules::kB4_9,
                  "an overrun at " + Name(to) + " needs " +
                      std::to_string(tables_.combat.overrun_odds) + ":1 after terrain; " +
                      std::to_string(attack) + " against " + std::to_string(defense) + " gives " +
                      std::to_string(std::max(odds, 0)) + ":1",
                  where);
  }
  for (std::size_t k = 0; k < stack.units.size(); ++k) {
    const auto extra = static_cast<std::uint32_t>(tables_.combat.overrun_extra_mp) * 2;
    if (auto st = Pay(stack, k, extra, to, where); !st) return st;
  }
  for (GroundUnit* d : defenders) {
    Eliminate(*d, rules::kB4_9, "overrun at " + std::to_string(odds) + ":1", {}, {odds});
  }
  return {};
}

void Turn::SayGroundMove(const MovingStack& stack, const MoveOrder& m,
                         const std::vector<StepNotes>& special) {
  std::string who;
  Units ids;
  for (GroundUnit* u : stack.units) {
    who += (who.empty() ? "" : ", ") + u->name;
    ids.push_back(u->id);
  }
  Hexes path;
  for (const Waypoint& w : m.path) path.push_back(w.hex);
  std::string route = Name(m.path.front().hex);
  for (std::size_t i = 1; i < m.path.size(); ++i) {
    // Later hexes on the same sheet drop the sheet, as orders files may.
    const std::string next = Name(m.path[i].hex);
    const auto colon = next.find(':');
    route += "-" + (next.compare(0, colon, Name(m.path[i - 1].hex), 0, colon) == 0
                        ? next.substr(colon + 1)
                        : next);
  }
  int most = 0;
  for (int s : stack.spent) most = std::max(most, s);
  Say("move", stack.exploitation ? rules::kB7_8 : rules::kB4_10,
      who + (stack.exploitation ? " exploits " : " moves ") + route + " (" + Halves(most) + " MP)",
      ids, path, {most});
  SayRule41("move", who, ids, special);
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
    const RailBar bar = RailStepBar(t_, s_.map, side_, zoc[h.v], Occupied(h, Enemy(side_)),
                                    i == 0 ? map::HexRef{} : m.path[i - 1].hex, h);
    if (!bar.rule.empty()) return Refuse(bar.rule, bar.why, m.where);
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
            Halves(rail_used_halves_) + " of " + Halves(capacity) + " REs of rail capacity used)",
        {u->id}, {start, end}, {rail_used_halves_, capacity});
  }
  return {};
}

RailBar RailStepBar(const map::Theater& t, const map::MapState& m, Side side, bool zoc, bool enemy,
                    map::HexRef from, map::HexRef to) {
  if (zoc) {
    return {rules::kB5_1,
            "no rail movement in or into an enemy zone of control (" + t.HexName(to) + ")"};
  }
  if (!from.valid()) return {};
  const map::HexsideRef hexside = t.HexsideBetween(from, to);
  if (!hexside.valid() || !t.hexside(hexside).Has(map::kRailroad)) {
    return {rules::kB5_1, "no railroad joins " + t.HexName(from) + " and " + t.HexName(to)};
  }
  if (m.bridge_destroyed(hexside)) {
    return {rules::kB14_1, "the rail bridge on " + t.HexsideName(hexside) + " is destroyed"};
  }
  if (m.owner(to) != OwnerOf(side) || enemy) {
    return {rules::kB5_1,
            "rail moves run through friendly hexes only; " + t.HexName(to) + " is not"};
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
    if (n == nullptr)
      return Fail(ErrorCode::kInvalidInput, "no naval unit '" + EchoToken(id) + "'", m.where);
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
  // 41.E.1: a ship that stopped in the straits goes on as it entered them, so the path is judged
  // once for each sea the group's ships entered them from; each ship ends with its own.
  const NavalRouter router(Ctx(false), group);
  std::map<NavalRouter::Tag, NavalRouter::Tag> straits;
  PathVerdict v;
  for (const NavalUnit* n : ships) {
    NavalRouter::Tag tag = StraitsEntry(*n);
    if (straits.count(tag)) continue;
    const NavalRouter::Tag entered = tag;
    v = router.Check(path, &tag);
    if (!v.legal) {
      if (v.blocked_by.empty()) return Fail(ErrorCode::kInvalidInput, v.reason, m.where);
      return Refuse(v.blocked_by.front(),
                    "the group of " + GroupName(group) + " cannot move: " + v.reason, m.where);
    }
    straits[entered] = tag;
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
    const NavalRouter::Tag at_end = straits.at(StraitsEntry(*n));
    const map::HexRef from = n->hex;
    n->hex = end.hex;
    n->area = end.area;
    n->at_sea = !port;
    MarkStraitsEntry(*n, from, at_end);
    moved_.insert(n->id);
  }
  std::string names;
  Units ids;
  for (NavalUnit* n : ships) {
    names += (names.empty() ? "" : ", ") + n->name;
    ids.push_back(n->id);
  }
  Say("naval", rules::kB6_5,
      names + " sail " + FormatWaypoint(t_, start) + " to " + FormatWaypoint(t_, end) + " (" +
          std::to_string(v.cost) + " steps)" + (port ? ", into port" : ", at sea"),
      ids, {start.hex, end.hex}, {v.cost});
  // A step's hexes: its waypoints' hexes, or a waterway hexside's two.
  auto hexes_of = [&](const Waypoint& w, Hexes& out) {
    if (w.is_river()) {
      out.push_back(t_.hexside(w.river).a);
      out.push_back(t_.hexside(w.river).b);
    } else {
      out.push_back(w.hex);
    }
  };
  std::vector<StepNotes> special;
  for (std::size_t i = 0; i < v.notes.size(); ++i) {
    StepNotes step{{}, v.notes[i]};
    hexes_of(path[i], step.hexes);
    hexes_of(path[i + 1], step.hexes);
    special.push_back(std::move(step));
  }
  SayRule41("naval", names, ids, special);
  for (GroundUnit* u : carried) {
    Enter(*u, end.hex);
    moved_.insert(u->id);
    Say("landing", rules::kB12_1, u->name + " lands at " + Name(end.hex), {u->id}, {end.hex}, {});
  }
  return {};
}

Status Turn::AirMove(const MoveOrder& m) {
  const map::HexRef target = m.path.front().hex;
  if (m.kind == MoveKind::kAirDrop) {
    Status error;
    GroundUnit* u = Unit(m.units.front(), m.where, &error);
    if (u == nullptr) return error;
    if (!tables_.type(u->type).airborne)
      return Refuse(rules::kB11_3, u->name + " is not airborne", m.where);
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
    // B11.3: a drop onto enemy units is an assault, which must attack them: an attack on the hex
    // without it is refused when declared (Turn::Weigh), and no attack loses it (EndCombat).
    const bool onto_enemy = Occupied(target, Enemy(side_));
    if (ResAt(target, side_) + u->re_halves > tables_.stacking_halves) {
      return Refuse(rules::kB3_2, Name(target) + " would be over the stacking limit", m.where);
    }
    u->dropped_in = serial_;
    Enter(*u, target);  // an assault gains no hex while the enemy holds it (B9.1)
    moved_.insert(u->id);
    Say("air-drop", rules::kB11_3,
        u->name + (onto_enemy ? " drops onto the enemy units at " : " drops into ") + Name(target) +
            (onto_enemy ? ": it must attack them this player-turn" : ""),
        {u->id}, {target}, {});
    return {};
  }
  AirUnit* a = s_.FindAir(m.units.front());
  if (a == nullptr) {
    return Fail(ErrorCode::kInvalidInput, "no air unit '" + m.units.front() + "'", m.where);
  }
  if (a->side != side_ || a->status != AirStatus::kBased) {
    return Refuse(rules::kB11_1, a->name + " cannot fly this player-turn", m.where);
  }
  // Once a movement phase, as every unit moves once: a second rebase would carry it beyond the
  // range of one.
  if (moved_.count(a->id)) {
    return Refuse(rules::kB11_1, a->name + " has already rebased this phase", m.where);
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
  Say("air", rules::kB11_1, a->name + " flies from " + Name(a->base) + " to " + Name(target),
      {a->id}, {a->base, target}, {});
  a->base = target;
  moved_.insert(a->id);
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
  const std::string what = rule41::BridgeWord(side);
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
    Say("bridge", rule41::BridgeRule(side, rule), u->name + " destroys the " + what + " on " + name,
        {u->id}, {side.a, side.b}, {});
  } else {
    if (!tables_.type(u->type).construction) {
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
    Say("bridge", rule41::BridgeRule(side, rule), u->name + " rebuilds the " + what + " on " + name,
        {u->id}, {side.a, side.b}, {});
  }
  moved_.insert(u->id);
  return {};
}

}  // namespace opsim::ops
