// The working copy of a player-turn: reporting, dice, and the board helpers every phase uses.
#include "turn.h"

#include <algorithm>

#include "opsim/core/echo.h"
#include "rule41/rule41.h"
#include "supply.h"
#include "zones_of_control.h"

namespace opsim::ops {

Turn::Turn(const map::Theater& theater, const Campaign& campaign, GameState state,
           const Orders& orders, RouterCache& routers, DiceSource* keyed)
    : t_(theater),
      c_(campaign),
      routers_(routers),
      tables_(campaign.tables),
      orders_(orders),
      s_(std::move(state)),
      side_(s_.phasing()),
      serial_(s_.player_turn),
      scripted_(orders.dice.begin(), orders.dice.end()),
      dice_(s_.dice),
      keyed_(keyed) {
  result_.player_turn = serial_;
  result_.side = side_;
  result_.date = s_.date();
  for (auto& r : res_) r.assign(t_.hex_count(), 0);
  for (const GroundUnit& u : s_.units) {
    if (u.on_map()) res_[static_cast<int>(u.side)][u.hex.v] += u.re_halves;
  }
}

void Turn::Say(std::string kind, RuleId rule, std::string text, Units units, Hexes hexes,
               Numbers numbers) {
  Event e{std::move(kind), rule, std::move(text), std::move(units), {}, std::move(numbers)};
  for (map::HexRef h : hexes) e.hexes.push_back(Name(h));
  result_.events.push_back(std::move(e));
}

void Turn::SayRule41(const std::string& kind, const std::string& who, const Units& units,
                     const std::vector<StepNotes>& steps) {
  std::vector<std::string_view> said;
  for (const StepNotes& step : steps) {
    for (const Note& n : step.notes) {
      if (!n.rule.id.starts_with("41.") ||
          std::find(said.begin(), said.end(), n.rule.id) != said.end()) {
        continue;
      }
      said.push_back(n.rule.id);
      Say(kind, n.rule, who + ": " + n.text, units, step.hexes, {});
    }
  }
}

std::unexpected<Error> Turn::Refuse(RuleId rule, std::string message, const std::string& where) {
  return Fail(ErrorCode::kRuleViolation, std::move(message), where, std::string(rule.id));
}

void Turn::RefusedInPlay(const Error& e) {
  const std::optional<RuleInfo> rule = FindRule(e.rule);
  // Not where the order was read (a file and line): each player plays the player-turn from his
  // own file (the mover's orders, the defender's turn file), and the logs must say the same.
  Say("refused", rule ? rule->id : rules::kB10_1, "refused after the dice were drawn: " + e.message,
      {}, {}, {});
}

Result<int> Turn::Roll(int sides, std::string purpose, RuleId rule) {
  DieRoll roll;
  roll.sides = sides;
  roll.purpose = std::move(purpose);
  roll.rule = rule;
  if (keyed_ != nullptr) {
    roll.value = keyed_->Roll(sides);
  } else if (!scripted_.empty()) {
    roll.value = scripted_.front();
    scripted_.pop_front();
    roll.scripted = true;
    if (roll.value < 1 || roll.value > sides) {
      return Fail(ErrorCode::kInvalidInput,
                  "the orders' die " + std::to_string(roll.value) + " cannot be a d" +
                      std::to_string(sides) + " roll (" + roll.purpose + ")",
                  orders_.source + ": /dice", std::string(rules::kB10_1.id));
    }
  } else if (probe_ != nullptr) {
    // A probe never reads the game's dice: it rolls its own, and stops when they run out.
    if (probe_drawn_ == 0) probe_->shared_events = result_.events.size();
    if (probe_drawn_ == probe_->dice.size()) {
      probe_->needs = sides;
      return Fail(ErrorCode::kInvalidInput, "the probe needs a d" + std::to_string(sides));
    }
    roll.value = probe_->dice[probe_drawn_++];
  } else {
    roll.value = dice_.Roll(sides);
    s_.dice = dice_.state();
  }
  result_.rolls.push_back(roll);
  return roll.value;
}

void Turn::Decided(std::string what, RollOutcome outcome, Units units, Hexes hexes,
                   Numbers numbers) {
  DieRoll& r = result_.rolls.back();
  r.decided = std::move(what);
  r.outcome = outcome;
  numbers.insert(numbers.begin(), {r.sides, r.value});
  Say("die", r.rule,
      r.purpose + ": d" + std::to_string(r.sides) + " rolled " + std::to_string(r.value) +
          (r.scripted ? " (the players' die)" : "") + ": " + r.decided,
      std::move(units), std::move(hexes), std::move(numbers));
}

RuleContext Turn::Ctx(bool exploitation) const {
  RuleContext ctx{t_, s_.map, tables_};
  ctx.player_turn = serial_;
  ctx.exploitation = exploitation;
  return ctx;
}

GroundUnit* Turn::Unit(const std::string& id, const std::string& where, Status* error) {
  GroundUnit* u = s_.FindUnit(id);
  if (u == nullptr) {
    *error = Fail(ErrorCode::kInvalidInput, "no ground unit '" + EchoToken(id) + "'", where);
    return nullptr;
  }
  if (!u->on_map()) {
    *error = Refuse(rules::kB4_10, OffMapWhy(*u), where);
    return nullptr;
  }
  if (u->side != side_) {
    *error = Refuse(rules::kB1_2,
                    u->name + " is not " + SideName(side_) + ": only the phasing side's units act",
                    where);
    return nullptr;
  }
  return u;
}

std::vector<GroundUnit*> Turn::UnitsAt(map::HexRef h, Side side) {
  std::vector<GroundUnit*> out;
  for (GroundUnit& u : s_.units) {
    if (u.on_map() && u.hex == h && u.side == side) out.push_back(&u);
  }
  return out;
}

const std::vector<std::uint8_t>& Turn::EnemyZoc(Side side) {
  const int k = static_cast<int>(side);
  if (!zoc_fresh_[k]) {
    zoc_[k] = shared_zones_ != nullptr ? shared_zones_->Get(t_, s_, side, Ctx(false))
                                       : std::make_shared<const std::vector<std::uint8_t>>(
                                             EnemyZones(t_, s_, side, Ctx(false)));
    zoc_fresh_[k] = true;
  }
  return *zoc_[k];
}

void Turn::Place(GroundUnit& u, map::HexRef h) {
  const int k = static_cast<int>(u.side);
  // Leaving or entering a contested hex changes the zones of the enemy units in it too.
  if (Occupied(u.hex, Enemy(u.side)) || Occupied(h, Enemy(u.side))) zoc_fresh_[k] = false;
  res_[k][u.hex.v] -= u.re_halves;
  u.hex = h;
  res_[k][h.v] += u.re_halves;
  zoc_fresh_[1 - k] = false;  // the other side's enemy zones moved
}

void Turn::Remove(GroundUnit& u, UnitStatus status) {
  const int k = static_cast<int>(u.side);
  if (Occupied(u.hex, Enemy(u.side))) zoc_fresh_[k] = false;
  res_[k][u.hex.v] -= u.re_halves;
  u.status = status;
  zoc_fresh_[1 - k] = false;
}

void Turn::Arrive(GroundUnit& u) {
  const int k = static_cast<int>(u.side);
  if (Occupied(u.hex, Enemy(u.side))) zoc_fresh_[k] = false;
  res_[k][u.hex.v] += u.re_halves;
  u.status = UnitStatus::kOnMap;
  zoc_fresh_[1 - k] = false;
  Gain(u.hex, u.side);
}

void Turn::Enter(GroundUnit& u, map::HexRef h) {
  Place(u, h);
  Gain(h, u.side);
}

void Turn::Gain(map::HexRef h, Side side) {
  if (s_.map.owner(h) == OwnerOf(side) || !Occupied(h, side) || Occupied(h, Enemy(side))) return;
  s_.map.SetOwner(t_, h, OwnerOf(side));
  if (rule41::IsKronshtadt(t_, h)) {
    Say("owner", rules::k41E3,
        Name(h) + " is now " + SideName(side) +
            ": Kronshtadt is one hex with its coastal portion, and entering it gains the whole "
            "hex",
        {}, {h}, {});
  } else {
    Say("owner", rules::kB9_1, Name(h) + " is now " + SideName(side), {}, {h}, {});
  }
}

void Turn::Eliminate(GroundUnit& u, RuleId rule, const std::string& why, Hexes hexes,
                     Numbers numbers) {
  Remove(u, UnitStatus::kEliminated);
  Say("eliminated", rule, u.name + " (" + u.id + ") is eliminated: " + why, {u.id},
      std::move(hexes), std::move(numbers));
}

namespace {

// B7.5's measure of "away": the distance from `h` to the nearest of the attackers' hexes.
int FromAttackers(const map::Theater& t, map::HexRef h, const std::vector<map::HexRef>& from) {
  int d = 1 << 20;
  for (map::HexRef f : from) d = std::min(d, map::Distance(t.Pos(h), t.Pos(f)));
  return d;
}

}  // namespace

std::optional<Note> Turn::RetreatBar(const GroundUnit& u, map::HexsideRef e) {
  const map::HexRef to = t_.hexside(e).Other(u.hex);
  GroundMover mover;
  mover.side = u.side;
  mover.cls = tables_.type(u.type).cls;
  std::vector<Note> notes;
  if (StepVerdict v = EvaluateGroundStep(Ctx(false), mover, u.hex, e, &notes); !v.blocked.empty()) {
    return Note{v.blocked, v.why};
  }
  if (Occupied(to, Enemy(u.side))) return Note{rules::kB7_5, Name(to) + " holds enemy units"};
  // One hex's zone, unless the whole map's is at hand: each retreating unit moves a unit, which
  // would make the next one's map stale.
  const int k = static_cast<int>(u.side);
  const bool in_zone =
      zoc_fresh_[k] ? (*zoc_[k])[to.v] != 0 : InEnemyZone(t_, s_, u.side, Ctx(false), to);
  if (in_zone && !Occupied(to, u.side)) {
    return Note{rules::kB7_5, Name(to) +
                                  " is in an enemy zone of control and no friendly unit "
                                  "stands there"};
  }
  if (ResAt(to, u.side) + u.re_halves > tables_.stacking_halves) {
    return Note{rules::kB7_5, "entering " + Name(to) + " would break stacking"};
  }
  return std::nullopt;
}

map::HexRef Turn::PreferredRetreat(const GroundUnit& u, const std::vector<map::HexRef>& from,
                                   map::HexRef farthest) {
  const auto taken = retreat_prefs_.find(u.hex.v);
  if (taken == retreat_prefs_.end() || taken->second == nullptr) return {};
  const RetreatPreference* it = taken->second;
  const int away = FromAttackers(t_, farthest, from);
  for (map::HexRef to : it->prefer) {
    std::optional<Note> bar = RetreatBar(u, t_.HexsideBetween(u.hex, to));
    if (!bar && FromAttackers(t_, to, from) < away) {
      bar = Note{rules::kB7_5, Name(to) + " is nearer the attackers than " + Name(farthest) +
                                   ", the farthest hex open to it"};
    }
    if (!bar) return to;
    Say("retreat", bar->rule,
        u.name + " may not retreat " + Name(u.hex) + " to its preferred " + Name(to) + ": " +
            bar->text,
        {u.id}, {u.hex, to}, {});
  }
  return {};
}

std::vector<map::HexRef> Turn::Farthest(const GroundUnit& u, const std::vector<map::HexRef>& from) {
  // The engine's choice first: the farthest from the attackers, ties to the lowest hex.
  std::vector<map::HexRef> out;
  int best_score = -1;
  for (map::Dir d : map::kAllDirs) {
    const map::HexsideRef e = t_.HexsideAt(u.hex, d);
    if (!e.valid() || RetreatBar(u, e)) continue;
    const map::HexRef to = t_.hexside(e).Other(u.hex);
    const int score = FromAttackers(t_, to, from);
    if (score > best_score) out.clear();
    if (score >= best_score) {
      best_score = score;
      out.push_back(to);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void Turn::Retreat(GroundUnit& u, const std::vector<map::HexRef>& from, RuleId rule, int hexes) {
  // B7.5: hex by hex, the owner's preference for the first.
  for (int k = 0; k < hexes; ++k) {
    const std::vector<map::HexRef> open = Farthest(u, from);
    map::HexRef best = open.empty() ? map::HexRef{} : open.front();
    if (!best.valid()) {
      Eliminate(u, rules::kB7_5, "no hex to retreat into", {}, {});
      return;
    }
    const map::HexRef preferred = k == 0 ? PreferredRetreat(u, from, best) : map::HexRef{};
    if (preferred.valid()) best = preferred;
    const map::HexRef was = u.hex;
    Enter(u, best);
    Say("retreat", rule,
        u.name + " retreats " + Name(was) + " to " + Name(best) +
            (preferred.valid() ? ", the hex it preferred (B7.5)" : ""),
        {u.id}, {was, best}, {});
  }
}

Status Turn::AirEscape(AirUnit& a, RuleId why) {
  // The nearest friendly airbase or ice airfield within range, other than this one.
  map::HexRef best;
  int best_d = 1 << 20;
  for (std::uint32_t v = 0; v < t_.hex_count(); ++v) {
    const map::HexRef h{v};
    if (h == a.base || s_.map.owner(h) != OwnerOf(a.side)) continue;
    if (!t_.hex(h).airbase && !s_.map.ice_airfield(h)) continue;
    if (const map::Flood* f = s_.map.flood(h); f && f->kind == map::FloodKind::kMassive) continue;
    const int d = map::Distance(t_.Pos(h), t_.Pos(a.base));
    if (d <= tables_.air_escape_range && d < best_d) {
      best_d = d;
      best = h;
    }
  }
  if (!best.valid()) {
    a.status = AirStatus::kEliminated;
    Say("air", rules::kB11_2,
        a.name + " has no friendly airbase within " + std::to_string(tables_.air_escape_range) +
            " hexes and is eliminated (" + std::string(why.id) + ")",
        {a.id}, {}, {tables_.air_escape_range});
    return {};
  }
  auto roll =
      Roll(tables_.air_escape_die, a.name + " escaping from " + Name(a.base), rules::kB11_2);
  if (!roll) return std::unexpected(roll.error());
  if (*roll <= tables_.air_escape_max_roll) {
    Decided("escapes to " + Name(best), AirEscape::kEscapes, {a.id}, {a.base, best}, {});
    Say("air", rules::kB11_2, a.name + " escapes from " + Name(a.base) + " to " + Name(best),
        {a.id}, {a.base, best}, {});
    a.base = best;
  } else {
    Decided("eliminated", AirEscape::kEliminated, {a.id}, {a.base}, {});
    a.status = AirStatus::kEliminated;
    Say("air", rules::kB11_2,
        a.name + " fails to escape from " + Name(a.base) + " and is eliminated (" +
            std::string(why.id) + ")",
        {a.id}, {a.base}, {});
  }
  return {};
}

Turn::Undo Turn::Mark() const {
  return Undo{s_,
              res_,
              moved_,
              attacked_,
              attacked_hexes_,
              rail_used_halves_,
              ferry_used_halves_,
              retreats_taken_,
              result_.events.size(),
              result_.attacks.size()};
}

void Turn::Restore(Undo undo) {
  s_ = std::move(undo.s);
  res_ = std::move(undo.res);
  moved_ = std::move(undo.moved);
  attacked_ = std::move(undo.attacked);
  attacked_hexes_ = std::move(undo.attacked_hexes);
  rail_used_halves_ = undo.rail_used_halves;
  ferry_used_halves_ = std::move(undo.ferry_used_halves);
  retreats_taken_ = std::move(undo.retreats_taken);
  result_.events.resize(undo.events);
  result_.attacks.resize(undo.attacks);
  zoc_fresh_ = {};
}

void Turn::EndPhase(Phase phase) {
  // A probe keeps nothing (Game::Probe): hashing its state was a sixth of an opsim check.
  if (probe_ != nullptr) return;
  result_.hashes.push_back(
      PhaseHash{phase, StateHash(s_), result_.events.size(), result_.rolls.size()});
  if (phases_ != nullptr) phases_->push_back(s_);
}

void Turn::EndPlayerTurn() {
  RecedeFloods();
}

void Turn::Finish() {
  s_.player_turn = serial_ + 1;
  if (probe_ == nullptr) result_.final_hash = StateHash(s_);
  if (!scripted_.empty()) {
    Say("die", rules::kB10_1,
        std::to_string(scripted_.size()) + " of the orders' dice were not needed", {}, {},
        {static_cast<std::int64_t>(scripted_.size())});
  }
}

}  // namespace opsim::ops
