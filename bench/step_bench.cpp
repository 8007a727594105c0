// Step play (docs/rules.md B1.3) on the 100,000-hex, 2,000-unit game: a move taken and taken
// back, and an attack with its answers, each timed alone, with p50 and p99 as counters (the
// target: a step and an undo each 10 ms or less at p99, warm).
#include <algorithm>

#include "bench_fixture.h"
#include "opsim/ops/steps.h"
#include "opsim/ops/synthetic.h"

namespace opsim::bench {
namespace {

void Percentiles(benchmark::State& state, const char* name, std::vector<double> ms) {
  if (ms.empty()) return;
  std::sort(ms.begin(), ms.end());
  state.counters[std::string(name) + "_p50_ms"] = ms[ms.size() / 2];
  state.counters[std::string(name) + "_p99_ms"] = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
}

// The Axis movement phase of the first game turn, begun once: each iteration takes one of the
// synthetic orders' moves, then takes it back (B1.4).
void BM_StepMoveAndUndo(benchmark::State& state) {
  const ops::Game& game = BenchGame();
  const ops::Orders orders = ops::SyntheticOrders(game, 7);
  auto turn = ops::StepTurn::Begin(game);
  if (!turn || !turn->Take(ops::Step{}, Side::kAxis)) {
    state.SkipWithError("the player-turn does not begin");
    return;
  }
  std::vector<double> take_ms, undo_ms;
  std::size_t k = 0;
  for (auto _ : state) {
    ops::Step step;
    step.kind = ops::StepKind::kMove;
    step.move = orders.movement[k++ % orders.movement.size()];
    const auto t0 = Clock::now();
    auto out = turn->Take(step, Side::kAxis);
    const auto t1 = Clock::now();
    if (!out) {
      state.SkipWithError(out.error().to_string().c_str());
      break;
    }
    if (auto st = turn->Undo(Side::kAxis); !st) {
      state.SkipWithError(st.error().to_string().c_str());
      break;
    }
    const auto t2 = Clock::now();
    take_ms.push_back(Seconds(t0, t1) * 1e3);
    undo_ms.push_back(Seconds(t1, t2) * 1e3);
  }
  Percentiles(state, "move", take_ms);
  Percentiles(state, "undo", undo_ms);
}
BENCHMARK(BM_StepMoveAndUndo)->Unit(benchmark::kMillisecond);

// The synthetic orders' attacks, one step each with the rules' retreats and every attacker
// advancing: the declaration, the die, the result applied and each answer, timed together per
// attack; and before each, its odds weighed (B7.2), timed alone. A new player-turn is begun
// (untimed) when the attacks run out.
void BM_StepAttack(benchmark::State& state) {
  const ops::Game& game = BenchGame();
  const ops::Orders orders = ops::SyntheticOrders(game, 7);
  std::optional<ops::StepTurn> turn;
  std::size_t k = 0;
  std::vector<double> ms, preview_ms;
  auto begin = [&]() -> bool {
    auto begun = ops::StepTurn::Begin(game);
    if (!begun) return false;
    turn.emplace(std::move(*begun));
    ops::Step end;
    if (!turn->Take(end, Side::kAxis)) return false;
    for (const ops::MoveOrder& m : orders.movement) {
      ops::Step s;
      s.kind = ops::StepKind::kMove;
      s.move = m;
      (void)turn->Take(s, Side::kAxis);
    }
    k = 0;
    return static_cast<bool>(turn->Take(end, Side::kAxis));
  };
  for (auto _ : state) {
    if (!turn || k == orders.combat.size()) {
      state.PauseTiming();
      const bool ok = begin();
      state.ResumeTiming();
      if (!ok) {
        state.SkipWithError("the player-turn does not reach its combat phase");
        break;
      }
    }
    ops::Step attack;
    attack.kind = ops::StepKind::kAttack;
    attack.attack = orders.combat[k++];
    // Its odds weighed first (StepTurn::Preview), as a player does before declaring it.
    const auto w0 = Clock::now();
    const bool weighed = static_cast<bool>(turn->Preview(attack.attack, Side::kAxis));
    const auto t0 = Clock::now();
    if (weighed) preview_ms.push_back(Seconds(w0, t0) * 1e3);
    if (!turn->Take(attack, Side::kAxis)) continue;  // an earlier result may have barred it
    while (turn->prompt().waiting != ops::Waiting::kOrder) {
      const ops::Prompt& p = turn->prompt();
      ops::Step answer;
      answer.kind = p.waiting == ops::Waiting::kFlood     ? ops::StepKind::kFlood
                    : p.waiting == ops::Waiting::kRetreat ? ops::StepKind::kRetreat
                                                          : ops::StepKind::kAdvance;
      if (p.waiting == ops::Waiting::kAdvance) answer.advance = p.units;
      if (!turn->Take(answer, p.side)) {
        state.SkipWithError("an answer is refused");
        return;
      }
    }
    ms.push_back(Seconds(t0, Clock::now()) * 1e3);
  }
  Percentiles(state, "attack", ms);
  Percentiles(state, "preview", preview_ms);
}
BENCHMARK(BM_StepAttack)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace opsim::bench
