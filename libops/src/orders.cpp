#include "opsim/ops/orders.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "opsim/core/echo.h"
#include "opsim/core/rule_ids.h"
#include "opsim/map/scenario.h"

namespace opsim::ops {

namespace {

using P = JsonSource::Pointer;
using nlohmann::json;

constexpr int kOrdersFormatVersion = 1;

class OrdersReader {
 public:
  OrdersReader(const JsonSource& src, const map::Theater& t) : src_(src), r_(src), t_(t) {}

  Result<Orders> Read() {
    const P root;
    if (!src_.doc().is_object()) return src_.Bad(root, "an orders file holds one JSON object");
    if (auto s =
            r_.OnlyKeys(root, {"opsim", "version", "side", "turn", "dice", "initial", "movement",
                               "combat", "reactions", "retreats", "exploitation", "steps"});
        !s) {
      return std::unexpected(s.error());
    }
    if (auto v = r_.Header("orders", kOrdersFormatVersion, "orders"); !v) {
      return std::unexpected(v.error());
    }
    for (const char* key : {"side", "turn"}) {
      if (auto s = r_.Require(root, key); !s) return std::unexpected(s.error());
    }
    Orders o;
    o.source = src_.name();
    auto side = r_.String(P("/side"));
    if (!side) return std::unexpected(side.error());
    auto parsed = ParseSide(*side);
    if (!parsed) return src_.Bad(P("/side"), "the side is axis or allied");
    o.side = *parsed;
    auto turn = r_.String(P("/turn"));
    if (!turn) return std::unexpected(turn.error());
    auto date = ParseGameDate(*turn);
    if (!date) return src_.Bad(P("/turn"), date.error().message);
    o.turn = *date;
    if (r_.Has(root, "dice")) {
      auto st = r_.Each(P("/dice"), [&](const P& at) -> Status {
        auto v = r_.Int(at, 1, 100);
        if (!v) return std::unexpected(v.error());
        o.dice.push_back(static_cast<int>(*v));
        return {};
      });
      if (!st) return std::unexpected(st.error());
    }
    if (r_.Has(root, "initial")) {
      auto st = r_.Each(P("/initial"), [&](const P& at) { return ReadInitial(at, o); });
      if (!st) return std::unexpected(st.error());
    }
    for (auto [key, list] :
         {std::pair{"movement", &o.movement}, std::pair{"exploitation", &o.exploitation}}) {
      if (!r_.Has(root, key)) continue;
      auto st = r_.Each(P("/" + std::string(key)), [&](const P& at) -> Status {
        auto m = ReadMove(at);
        if (!m) return std::unexpected(m.error());
        list->push_back(std::move(*m));
        return {};
      });
      if (!st) return std::unexpected(st.error());
    }
    if (r_.Has(root, "combat")) {
      auto st = r_.Each(P("/combat"), [&](const P& at) { return ReadAttack(at, o); });
      if (!st) return std::unexpected(st.error());
    }
    if (r_.Has(root, "reactions")) {
      auto st = r_.Each(P("/reactions"), [&](const P& at) { return ReadReaction(at, o); });
      if (!st) return std::unexpected(st.error());
    }
    if (r_.Has(root, "retreats")) {
      auto st = r_.Each(P("/retreats"), [&](const P& at) { return ReadRetreat(at, o); });
      if (!st) return std::unexpected(st.error());
    }
    if (r_.Has(root, "steps")) {
      auto st = r_.Each(P("/steps"), [&](const P& at) -> Status {
        if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
        if (auto s = r_.OnlyKeys(at, {"side", "step"}); !s) return s;
        for (const char* key : {"side", "step"}) {
          if (auto s = r_.Require(at, key); !s) return s;
        }
        LoggedStep step;
        step.where = src_.Where(at);
        auto side = r_.String(at / "side");
        if (!side) return std::unexpected(side.error());
        auto parsed = ParseSide(*side);
        if (!parsed) return src_.Bad(at / "side", "the side is axis or allied");
        step.side = *parsed;
        auto body = r_.Object(at / "step");
        if (!body) return std::unexpected(body.error());
        step.step = (*body)->dump();  // read as a step when it is played (steps.h)
        o.steps.push_back(std::move(step));
        return {};
      });
      if (!st) return std::unexpected(st.error());
    }
    return o;
  }

  // The whole document as one order of `section` (a step, steps.h).
  Result<Orders> ReadOne(OrderSection section) {
    const P root;
    Orders o;
    o.source = src_.name();
    Status st;
    switch (section) {
      case OrderSection::kInitial:
        st = ReadInitial(root, o);
        break;
      case OrderSection::kMovement:
      case OrderSection::kExploitation: {
        auto m = ReadMove(root);
        if (!m) return std::unexpected(m.error());
        (section == OrderSection::kMovement ? o.movement : o.exploitation).push_back(std::move(*m));
        break;
      }
      case OrderSection::kCombat:
        st = ReadAttack(root, o);
        break;
      case OrderSection::kReaction:
        st = ReadReaction(root, o);
        break;
      case OrderSection::kRetreat:
        st = ReadRetreat(root, o);
        break;
    }
    if (!st) return std::unexpected(st.error());
    return o;
  }

 private:
  Result<map::HexRef> Hex(const P& at) const { return map::ReadHex(r_, at, t_); }

  // The units an order names. Each unit once per order (`rule` says why: a unit listed twice
  // would count twice), and none of `taken` (a naval group's units, for its cargo).
  Result<std::vector<std::string>> Ids(const P& at, RuleId rule,
                                       const std::vector<std::string>& taken = {}) const {
    std::vector<std::string> out;
    const auto& j = r_.At(at);
    if (j.is_string()) {
      out.push_back(j.get<std::string>());
      return out;
    }
    auto st = r_.Each(at, [&](const P& item) -> Status {
      auto id = r_.String(item);
      if (!id) return std::unexpected(id.error());
      const bool cargo = std::ranges::find(taken, *id) != taken.end();
      if (cargo || std::ranges::find(out, *id) != out.end()) {
        auto bad = src_.Bad(item, "unit '" + EchoToken(*id) +
                                      (cargo ? "' is both in the group and its cargo"
                                             : "' is named twice in one order"));
        bad.error().rule = rule;
        return bad;
      }
      out.push_back(*id);
      return {};
    });
    if (!st) return std::unexpected(st.error());
    if (out.empty()) return src_.Bad(at, "name at least one unit");
    return out;
  }

  Status ReadInitial(const P& at, Orders& o) const {
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    InitialOrder order;
    order.where = src_.Where(at);
    if (r_.Has(at, "suez")) {
      if (auto s = r_.OnlyKeys(at, {"suez"}); !s) return s;
      auto what = r_.String(at / "suez");
      if (!what) return std::unexpected(what.error());
      if (*what == "close") {
        order.kind = InitialKind::kCloseSuez;
      } else if (*what == "reopen") {
        order.kind = InitialKind::kReopenSuez;
      } else {
        return src_.Bad(at / "suez", "the Suez order is \"close\" or \"reopen\" (41.B)");
      }
    } else if (r_.Has(at, "ice-airfield")) {
      if (auto s = r_.OnlyKeys(at, {"ice-airfield", "unit"}); !s) return s;
      if (auto s = r_.Require(at, "unit"); !s) return s;
      order.kind = InitialKind::kIceAirfield;
      auto h = Hex(at / "ice-airfield");
      if (!h) return std::unexpected(h.error());
      order.hex = *h;
      auto unit = r_.String(at / "unit");
      if (!unit) return std::unexpected(unit.error());
      order.unit = *unit;
    } else {
      return src_.Bad(at, "an initial-phase order is {\"suez\": ...} or {\"ice-airfield\": ...}");
    }
    o.initial.push_back(std::move(order));
    return {};
  }

  Result<std::vector<Waypoint>> Path(const P& at, std::size_t min_size) const {
    std::vector<Waypoint> out;
    auto st = r_.Each(at, [&](const P& item) -> Status {
      auto token = r_.String(item);
      if (!token) return std::unexpected(token.error());
      auto w = ParseWaypoint(t_, *token, out.empty() ? nullptr : &out.back());
      if (!w) return src_.Bad(item, w.error().message);
      out.push_back(*w);
      return {};
    });
    if (!st) return std::unexpected(st.error());
    if (out.size() < min_size) {
      return src_.Bad(at, min_size == 1 ? "a path names at least the units' hex"
                                        : "a path runs from the units' hex to at least one more");
    }
    return out;
  }

  Result<MoveOrder> ReadMove(const P& at) const {
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    MoveOrder m;
    m.where = src_.Where(at);
    auto ids = [&](const char* key, RuleId rule) -> Status {
      auto v = Ids(at / key, rule);
      if (!v) return std::unexpected(v.error());
      m.units = std::move(*v);
      return {};
    };
    auto target = [&]() -> Status {
      if (auto s = r_.Require(at, "hex"); !s) return s;
      auto h = Hex(at / "hex");
      if (!h) return std::unexpected(h.error());
      Waypoint w;
      w.hex = *h;
      m.path.push_back(w);
      return {};
    };
    Status st;
    // Bridge work names its unit with "unit" too: it is told apart by its own key first.
    if (r_.Has(at, "destroy-bridge") || r_.Has(at, "build-bridge")) {
      const bool destroy = r_.Has(at, "destroy-bridge");
      const char* key = destroy ? "destroy-bridge" : "build-bridge";
      m.kind = destroy ? MoveKind::kDestroyBridge : MoveKind::kBuildBridge;
      st = r_.OnlyKeys(at, {key, "unit"});
      if (st) st = r_.Require(at, "unit");
      if (st) st = ids("unit", rules::kB4_10);
      if (!st) return std::unexpected(st.error());
      auto token = r_.String(at / key);
      if (!token) return std::unexpected(token.error());
      auto side = t_.FindHexside(*token);
      if (!side) return src_.Bad(at / key, side.error().message);
      m.hexside = *side;
      return m;
    } else if (r_.Has(at, "units") || r_.Has(at, "unit")) {
      m.kind = MoveKind::kGround;
      st = r_.OnlyKeys(at, {"units", "unit", "path", "exit"});
      if (st) st = ids(r_.Has(at, "units") ? "units" : "unit", rules::kB4_10);
      auto exit = r_.OptBool(at, "exit", false);
      if (!exit) return std::unexpected(exit.error());
      m.exit = *exit;
    } else if (r_.Has(at, "rail")) {
      m.kind = MoveKind::kRail;
      st = r_.OnlyKeys(at, {"rail", "path"});
      if (st) st = ids("rail", rules::kB5_1);
    } else if (r_.Has(at, "naval")) {
      m.kind = MoveKind::kNaval;
      st = r_.OnlyKeys(at, {"naval", "path", "carry"});
      if (st) st = ids("naval", rules::kB6_5);
      if (st && r_.Has(at, "carry")) {
        auto carry = Ids(at / "carry", rules::kB6_5, m.units);
        if (!carry) return std::unexpected(carry.error());
        m.carry = std::move(*carry);
      }
    } else if (r_.Has(at, "air-drop")) {
      m.kind = MoveKind::kAirDrop;
      st = r_.OnlyKeys(at, {"air-drop", "hex"});
      if (st) st = ids("air-drop", rules::kB11_3);
      if (st) st = target();
      if (!st) return std::unexpected(st.error());
      return m;
    } else if (r_.Has(at, "rebase")) {
      m.kind = MoveKind::kRebase;
      st = r_.OnlyKeys(at, {"rebase", "hex"});
      if (st) st = ids("rebase", rules::kB11_1);
      if (st) st = target();
      if (!st) return std::unexpected(st.error());
      return m;
    } else {
      return src_.Bad(at,
                      "a move names \"units\", \"rail\", \"naval\", \"air-drop\", "
                      "\"rebase\", \"destroy-bridge\" or \"build-bridge\"");
    }
    if (!st) return std::unexpected(st.error());
    if (auto s = r_.Require(at, "path"); !s) return std::unexpected(s.error());
    // A unit may exit the map from the hex it stands in (41.F): a path of one hex.
    auto path = Path(at / "path", m.exit ? 1 : 2);
    if (!path) return std::unexpected(path.error());
    m.path = std::move(*path);
    return m;
  }

  Status ReadAttack(const P& at, Orders& o) const {
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    if (auto s = r_.OnlyKeys(at, {"attack", "units", "if-flooded", "advance"}); !s) return s;
    for (const char* key : {"attack", "units"}) {
      if (auto s = r_.Require(at, key); !s) return s;
    }
    AttackOrder a;
    a.where = src_.Where(at);
    auto h = Hex(at / "attack");
    if (!h) return std::unexpected(h.error());
    a.hex = *h;
    auto ids = Ids(at / "units", rules::kB7_1);
    if (!ids) return std::unexpected(ids.error());
    a.units = std::move(*ids);
    auto flooded = r_.OptString(at, "if-flooded", "attack");
    if (!flooded) return std::unexpected(flooded.error());
    if (*flooded != "attack" && *flooded != "call-off") {
      return src_.Bad(at / "if-flooded", "\"attack\" or \"call-off\" (41.A.4.a.3)");
    }
    a.call_off_if_flooded = *flooded == "call-off";
    if (r_.Has(at, "advance") && r_.At(at / "advance").is_array()) {
      // B7.6 chosen in play (a player-turn played step by step): these attackers advance.
      auto advancing = Ids(at / "advance", rules::kB7_6);
      if (!advancing) return std::unexpected(advancing.error());
      a.advance_units = std::move(*advancing);
    } else {
      auto advance = r_.OptBool(at, "advance", true);
      if (!advance) return std::unexpected(advance.error());
      a.advance = *advance;
    }
    o.combat.push_back(std::move(a));
    return {};
  }

  Status ReadReaction(const P& at, Orders& o) const {
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    Reaction r;
    r.where = src_.Where(at);
    const char* key = r_.Has(at, "flood") ? "flood" : "massive-flood";
    if (!r_.Has(at, key)) {
      return src_.Bad(at, "a reaction is {\"flood\": HEX} or {\"massive-flood\": HEX} (41.A.4)");
    }
    if (auto s = r_.OnlyKeys(at, {key}); !s) return s;
    r.kind = r_.Has(at, "flood") ? ReactionKind::kFlood : ReactionKind::kMassiveFlood;
    auto h = Hex(at / key);
    if (!h) return std::unexpected(h.error());
    r.hex = *h;
    o.reactions.push_back(std::move(r));
    return {};
  }

  Status ReadRetreat(const P& at, Orders& o) const {
    if (auto s = r_.Object(at); !s) return std::unexpected(s.error());
    if (auto s = r_.OnlyKeys(at, {"hex", "prefer"}); !s) return s;
    for (const char* key : {"hex", "prefer"}) {
      if (auto s = r_.Require(at, key); !s) return s;
    }
    RetreatPreference pref;
    pref.where = src_.Where(at);
    auto h = Hex(at / "hex");
    if (!h) return std::unexpected(h.error());
    pref.hex = *h;
    // Like a path's, each hex may drop the sheet of the hex before it.
    map::HexRef previous = pref.hex;
    auto st = r_.Each(at / "prefer", [&](const P& item) -> Status {
      auto token = r_.String(item);
      if (!token) return std::unexpected(token.error());
      auto to = t_.FindHex(*token, t_.SheetOf(previous));
      if (!to) return src_.Bad(item, to.error().message);
      if (!t_.HexsideBetween(pref.hex, *to).valid()) {
        return src_.Bad(item, t_.HexName(*to) + " is not next to " + t_.HexName(pref.hex) +
                                  ": a retreat moves one hex (B7.5)");
      }
      if (std::find(pref.prefer.begin(), pref.prefer.end(), *to) != pref.prefer.end()) {
        return src_.Bad(item, t_.HexName(*to) + " is listed twice");
      }
      pref.prefer.push_back(*to);
      previous = *to;
      return {};
    });
    if (!st) return st;
    o.retreats.push_back(std::move(pref));
    return {};
  }

  const JsonSource& src_;
  JsonReader r_;
  const map::Theater& t_;
};

json MoveJson(const MoveOrder& m, const map::Theater& t) {
  json j;
  json path = json::array();
  for (const Waypoint& w : m.path) path.push_back(FormatWaypoint(t, w));
  switch (m.kind) {
    case MoveKind::kGround:
      j["units"] = m.units;
      j["path"] = path;
      if (m.exit) j["exit"] = true;
      break;
    case MoveKind::kRail:
      j["rail"] = m.units;
      j["path"] = path;
      break;
    case MoveKind::kNaval:
      j["naval"] = m.units;
      j["path"] = path;
      if (!m.carry.empty()) j["carry"] = m.carry;
      break;
    case MoveKind::kAirDrop:
      j["air-drop"] = m.units;
      j["hex"] = path.front();
      break;
    case MoveKind::kRebase:
      j["rebase"] = m.units;
      j["hex"] = path.front();
      break;
    case MoveKind::kDestroyBridge:
      j["destroy-bridge"] = t.HexsideName(m.hexside);
      j["unit"] = m.units.front();
      break;
    case MoveKind::kBuildBridge:
      j["build-bridge"] = t.HexsideName(m.hexside);
      j["unit"] = m.units.front();
      break;
  }
  return j;
}

}  // namespace

Result<Orders> ParseOrders(const JsonSource& src, const map::Theater& theater) {
  return OrdersReader(src, theater).Read();
}

Result<Orders> ParseOrder(const JsonSource& src, const map::Theater& theater,
                          OrderSection section) {
  return OrdersReader(src, theater).ReadOne(section);
}

const RetreatPreference* RetreatPreferenceFor(const std::vector<RetreatPreference>& listed,
                                              map::HexRef hex, std::size_t k) {
  std::vector<const RetreatPreference*> mine;
  for (const RetreatPreference& r : listed) {
    if (r.hex == hex) mine.push_back(&r);
  }
  if (mine.size() == 1) return mine.front();
  return k < mine.size() ? mine[k] : nullptr;
}

std::string OrdersToJson(const Orders& o, const map::Theater& t) {
  json j = {{"opsim", "orders"},
            {"version", kOrdersFormatVersion},
            {"side", SideName(o.side)},
            {"turn", FormatGameDate(o.turn)}};
  if (!o.dice.empty()) j["dice"] = o.dice;
  json initial = json::array();
  for (const InitialOrder& i : o.initial) {
    switch (i.kind) {
      case InitialKind::kCloseSuez:
        initial.push_back({{"suez", "close"}});
        break;
      case InitialKind::kReopenSuez:
        initial.push_back({{"suez", "reopen"}});
        break;
      case InitialKind::kIceAirfield:
        initial.push_back({{"ice-airfield", t.HexName(i.hex)}, {"unit", i.unit}});
        break;
    }
  }
  if (!initial.empty()) j["initial"] = initial;
  for (auto [key, list] :
       {std::pair{"movement", &o.movement}, std::pair{"exploitation", &o.exploitation}}) {
    json moves = json::array();
    for (const MoveOrder& m : *list) moves.push_back(MoveJson(m, t));
    if (!moves.empty()) j[key] = moves;
  }
  json combat = json::array();
  for (const AttackOrder& a : o.combat) {
    combat.push_back({{"attack", t.HexName(a.hex)},
                      {"units", a.units},
                      {"if-flooded", a.call_off_if_flooded ? "call-off" : "attack"},
                      {"advance", a.advance_units ? json(*a.advance_units) : json(a.advance)}});
  }
  if (!combat.empty()) j["combat"] = combat;
  json reactions = json::array();
  for (const Reaction& r : o.reactions) {
    reactions.push_back(
        {{r.kind == ReactionKind::kFlood ? "flood" : "massive-flood", t.HexName(r.hex)}});
  }
  if (!reactions.empty()) j["reactions"] = reactions;
  // Absent when empty, so that the orders of games logged before retreat preferences keep
  // their text, and their hashes.
  json retreats = json::array();
  for (const RetreatPreference& r : o.retreats) {
    json prefer = json::array();
    for (map::HexRef h : r.prefer) prefer.push_back(t.HexName(h));
    retreats.push_back({{"hex", t.HexName(r.hex)}, {"prefer", prefer}});
  }
  if (!retreats.empty()) j["retreats"] = retreats;
  json steps = json::array();
  for (const LoggedStep& step : o.steps) {
    steps.push_back({{"side", SideName(step.side)}, {"step", json::parse(step.step)}});
  }
  if (!steps.empty()) j["steps"] = steps;
  return j.dump();
}

}  // namespace opsim::ops
