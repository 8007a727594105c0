#include "opsim/ops/game.h"

#include <limits>

#include "notes.h"
#include "router_cache.h"
#include "supply.h"
#include "turn.h"
#include "zones_of_control.h"

namespace opsim::ops {

Game::Game(std::shared_ptr<const map::Theater> theater, std::shared_ptr<const Campaign> campaign)
    : Game(theater, campaign, campaign->initial) {}

Game::Game(std::shared_ptr<const map::Theater> theater, std::shared_ptr<const Campaign> campaign,
           GameState state)
    : theater_(std::move(theater)),
      campaign_(std::move(campaign)),
      state_(std::move(state)),
      routers_(std::make_shared<RouterCache>()),
      probe_supply_(std::make_shared<ProbeSupply>()),
      zones_(std::make_shared<ZoneCache>()) {}

Game Game::Fork() const {
  Game fork = *this;
  fork.routers_ = std::make_shared<RouterCache>();
  return fork;
}

RuleContext Game::Context(bool exploitation) const {
  RuleContext ctx{*theater_, state_.map, campaign_->tables};
  ctx.player_turn = state_.player_turn;
  ctx.exploitation = exploitation;
  return ctx;
}

std::vector<std::uint8_t> Game::EnemyZoc(Side side) const {
  return *zones_->Get(*theater_, state_, side, Context());
}

const char* AirEscapeName(AirEscape e) {
  return e == AirEscape::kEscapes ? "escapes" : "eliminated";
}

Result<TurnResult> Game::Play(const Orders& orders, DiceSource* dice,
                              std::vector<GameState>* phases) {
  if (phases != nullptr) phases->clear();
  GameState after;
  auto result = Run(orders, nullptr, dice, phases, after);
  if (result) {
    state_ = std::move(after);
    probe_supply_ = std::make_shared<ProbeSupply>();
  }
  return result;
}

Result<TurnResult> Game::Probe(const Orders& orders, ProbeRun& run) const {
  run.needs = 0;
  run.refused.clear();
  run.shared_events = std::numeric_limits<std::size_t>::max();
  GameState after;
  return Run(orders, &run, nullptr, nullptr, after);
}

Result<TurnResult> Game::Run(const Orders& orders, ProbeRun* probe, DiceSource* dice,
                             std::vector<GameState>* phases, GameState& after) const {
  const Side phasing = state_.phasing();
  const std::string now = FormatGameDate(state_.date()) + ", " + SideName(phasing) + " player-turn";
  if (orders.side != phasing) {
    return Fail(ErrorCode::kInvalidInput,
                std::string("these are ") + SideName(orders.side) +
                    " orders, but the game stands at " + now,
                orders.source, std::string(rules::kB1_2.id));
  }
  if (orders.turn != state_.date()) {
    return Fail(
        ErrorCode::kInvalidInput,
        "these orders are for " + FormatGameDate(orders.turn) + ", but the game stands at " + now,
        orders.source, std::string(rules::kB1_2.id));
  }
  if (dice != nullptr && !orders.dice.empty()) {
    return Fail(ErrorCode::kInvalidInput,
                "a fair game's dice come from both players' keys: its orders may carry no dice",
                orders.source + ": /dice", std::string(rules::kB10_1.id));
  }
  Turn turn(*theater_, *campaign_, state_, orders, *routers_, dice);
  turn.SetProbe(probe, probe != nullptr ? probe_supply_.get() : nullptr);
  turn.ShareZones(zones_.get());
  turn.KeepPhases(phases);
  // A probe stopped for a die answers with the player-turn so far.
  auto stop = [&](const Status& st) -> Result<TurnResult> {
    if (probe != nullptr && probe->needs != 0) return std::move(turn.result());
    return std::unexpected(st.error());
  };
  if (auto st = turn.Weather(); !st) return stop(st);
  if (auto st = turn.Initial(); !st) return stop(st);
  turn.EndPhase(Phase::kInitial);
  if (auto st = turn.Movement(false); !st) return stop(st);
  turn.EndPhase(Phase::kMovement);
  if (auto st = turn.Combat(); !st) return stop(st);
  turn.EndPhase(Phase::kCombat);
  if (auto st = turn.Movement(true); !st) return stop(st);
  turn.EndPlayerTurn();
  turn.EndPhase(Phase::kExploitation);
  turn.Finish();
  TurnResult result = std::move(turn.result());
  after = std::move(turn.state());
  return result;
}

std::vector<SupplyStatus> Game::SupplyMap(Side side) const {
  return SupplyByHex(*theater_, state_, *campaign_, side, Context(), *routers_);
}

SupplyTrace Game::SupplyAt(Side side, map::HexRef hex) const {
  const RuleContext ctx = Context();
  GroundMover foot;
  foot.side = side;
  GroundRouter& router = routers_->Get(ctx, foot, GroundRouter::Arcs::kInbound);
  const SupplyNet net = SupplyNetwork(*theater_, state_, *campaign_, side, ctx);
  router.SetBarriers(net.stop, net.closed);
  SupplyTrace trace;
  trace.rules.push_back(rules::kB8_1);
  if (net.network.empty()) {
    trace.status = SupplyStatus::kIsolated;
    trace.why = std::string("no ") + SideName(side) +
                " supply source is held free of enemy units and zones of control";
    return trace;
  }
  const RouteAnswer a = router.Route(net.network, hex);
  if (!a.reachable) {
    trace.status = SupplyStatus::kIsolated;
    trace.why = "no overland line of any length reaches the supply net: cut off";
    for (RuleId r : a.blocked_by) trace.rules.push_back(r);
    return trace;
  }
  trace.cost = a.cost;
  for (const Waypoint& w : a.path) trace.path.push_back(w.hex);
  trace.network = trace.path.back();
  trace.status = SupplyFromCost(a.cost, campaign_->tables);
  if (trace.status == SupplyStatus::kOutOfSupply) {
    trace.why = "the supply net is " + Halves(a.cost) + " MP away, beyond the " +
                std::to_string(campaign_->tables.supply_overland_mp) +
                " MP an overland line may run";
  }
  // Rule 41 clauses that shaped the line (a Kerch or Baltic crossing is a major river).
  for (std::size_t i = 1; i < trace.path.size(); ++i) {
    const map::HexsideRef s = theater_->HexsideBetween(trace.path[i - 1], trace.path[i]);
    if (!s.valid()) continue;
    const CrossingVerdict c = ClassifyCrossing(ctx, foot, trace.path[i - 1], s, nullptr);
    if (c.crossing == Crossing::kMajor && c.rule != rules::kB4_2 &&
        std::find(trace.rules.begin(), trace.rules.end(), c.rule) == trace.rules.end()) {
      trace.rules.push_back(c.rule);
    }
  }
  return trace;
}

}  // namespace opsim::ops
