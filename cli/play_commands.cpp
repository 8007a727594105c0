// `opsim play`: a player-turn of a logged game played step by step (docs/rules.md B1.3): one
// step a call, checked and applied at once, kept in the log; the player-turn is logged when its
// last step is taken.
#include "context.h"
#include "opsim/query/play.h"

namespace opsim::cli {

namespace {

using nlohmann::json;

void AddPlayCommand(CLI::App& app, Context& ctx) {
  struct PlayOptions {
    std::string db, action, side, odds;
    bool end_phase = false, undo = false;
  };
  auto po = std::make_shared<PlayOptions>();
  auto* play = app.add_subcommand(
      "play",
      "Play a logged game's player-turn step by step, as at a table (docs/rules.md B1.3): each "
      "call takes one step (--action, --end-phase) or takes the last one back (--undo), checks "
      "it by the rules and applies it at once; without one it says whose decision the game "
      "waits for, and what is open to him. A step is an order in the orders file's syntax (a "
      "move, an attack, an initial order) or a decision the game asks for: {\"flood\": HEX} or "
      "{\"flood\": false} (41.A.4), {\"hex\": HEX, \"prefer\": [HEX]} or {\"prefer\": []} (a "
      "retreat, B7.5), {\"advance\": [IDS]} (B7.6). The steps so far are kept in the log; the "
      "player-turn is logged when its exploitation phase ends. Moves may be taken back until a "
      "die is rolled, the other side decides or the phase ends (B1.4).");
  play->add_option("--db", po->db, "the turn log (a seeded game: opsim new)")->required();
  auto* action = play->add_option("--action", po->action, "the step, one JSON object (see above)");
  auto* end = play->add_flag("--end-phase", po->end_phase,
                             "end the phase (the same as --action '{\"end-phase\": true}')");
  auto* undo = play->add_flag("--undo", po->undo, "take the last step back (B1.4)");
  auto* odds = play->add_option(
      "--odds", po->odds,
      "an attack, as --action gives it: say the odds it would be fought at if declared now "
      "(B7.2), taking no step and drawing no die");
  action->excludes(end)->excludes(undo)->excludes(odds);
  end->excludes(undo)->excludes(odds);
  undo->excludes(odds);
  AddSideOption(play, po->side,
                "who takes the step; by default the side the game waits for (a step of the "
                "other side is refused, B1.3), and for --undo the phasing side");
  Bind(play, ctx, [&ctx, po]() -> Status {
    auto session = query::OpenSteps(po->db, nullptr, true);
    if (!session) return std::unexpected(session.error());
    json doc;
    if (!po->odds.empty()) {
      auto src = JsonSource::FromText(po->odds, "--odds");
      if (!src) return std::unexpected(src.error());
      const Side by = po->side.empty() ? session->turn().prompt().side : *ParseSide(po->side);
      auto preview = session->Preview(*src, by);
      if (!preview) return std::unexpected(preview.error());
      doc = query::ToJson(*preview, session->theater(), session->campaign()->tables);
      Emit(ctx, doc, query::PreviewText(doc));
      return {};
    }
    if (po->undo) {
      const Side by = po->side.empty() ? session->game().state().phasing() : *ParseSide(po->side);
      auto record = session->Undo(by);
      if (!record) return std::unexpected(record.error());
      doc = query::ToJson(*record, *session);
    } else if (po->end_phase || !po->action.empty()) {
      auto src =
          JsonSource::FromText(po->end_phase ? R"({"end-phase": true})" : po->action, "--action");
      if (!src) return std::unexpected(src.error());
      const Side by = po->side.empty() ? session->turn().prompt().side : *ParseSide(po->side);
      auto record = session->Take(*src, by);
      if (!record) return std::unexpected(record.error());
      doc = query::ToJson(*record, *session);
    } else {
      doc = query::PlayStatusJson(*session);
    }
    Emit(ctx, doc, query::StepText(doc));
    return {};
  });
}

}  // namespace

void AddPlayCommands(CLI::App& app, Context& ctx) {
  AddPlayCommand(app, ctx);
}

}  // namespace opsim::cli
