// `opsim pbem start|join|accept|move|reply|resolve|apply`: a fair game played by mail between
// two logs (docs/pbem.md, docs/dice.md). The steps are the write door's (query::mail in
// opsim/query/play.h); this file reads options and prints what each step did.
#include <sstream>

#include "context.h"
#include "opsim/map/scenario.h"
#include "opsim/query/play.h"
#include "opsim/query/source.h"

namespace opsim::cli {

namespace {

using nlohmann::json;

constexpr const char* kKeyHelp =
    "your key file, which holds your secret: keep it private, and never send it (default: the "
    "log's path and \".key\"; a log in PostgreSQL needs it named)";

struct PbemOptions {
  std::string db, key, out, scenario, side, invitation, acceptance, orders, turn, reply, result;
  bool force = false;
};

Result<std::string> KeyPath(const PbemOptions& o) {
  return query::mail::KeyPathFor(o.db, o.key);
}

std::string AttacksText(const json& attacks) {
  std::ostringstream out;
  out << "  announced attacks:" << (attacks.empty() ? " none" : "") << "\n";
  for (const json& a : attacks) {
    out << "    " << a["hex"].get<std::string>() << " by";
    for (const json& u : a["units"]) out << " " << u.get<std::string>();
    if (a["canal_intensive"].get<bool>()) {
      out << " (canal-intensive: you may reply with a flood or massive-flood attempt, 41.A.4; "
             "if flooded the attacker will "
          << a["if-flooded"].get<std::string>() << ")";
    }
    out << "\n";
  }
  return out.str();
}

std::string PlayedText(const query::mail::Played& p) {
  std::ostringstream out;
  out << "  " << p.turn.rolls.size() << " die rolls (fair: from both players' keys), "
      << p.turn.events.size() << " events\n";
  for (const ops::DieRoll& r : p.turn.rolls) {
    out << "    " << r.purpose << ": d" << r.sides << " rolled " << r.value << " -> " << r.decided
        << " [" << r.rule.id << "]\n";
  }
  out << "  head " << p.doc["head"].get<std::string>() << "\n  state " << p.turn.final_hash;
  return out.str();
}

void AddStart(CLI::App& pbem, Context& ctx) {
  auto o = std::make_shared<PbemOptions>();
  auto* cmd = pbem.add_subcommand(
      "start",
      "The first player starts a fair game: makes his key file (a secret, and its commitment) "
      "and writes an invitation (the scenario and his commitment) to send to the other player");
  cmd->add_option("--scenario", o->scenario, "a bundled scenario's name, or a scenario file")
      ->required();
  AddSideOption(cmd, o->side, "the side you play: axis or allied")->required();
  cmd->add_option("--db", o->db, "your log, made by `pbem accept`; it must not exist yet")
      ->required();
  cmd->add_option("--key", o->key, kKeyHelp);
  cmd->add_option("--out", o->out, "the invitation file to write")->required();
  AddForceOption(cmd, o->force);
  Bind(cmd, ctx, [&ctx, o]() -> Status {
    auto key = KeyPath(*o);
    if (!key) return std::unexpected(key.error());
    auto path = map::ResolveScenario(o->scenario, query::ScenarioDir());
    if (!path) return std::unexpected(path.error());
    auto src = JsonSource::FromFile(*path);
    if (!src) return std::unexpected(src.error());
    auto done = query::mail::Start(*src, *ParseSide(o->side), o->db, *key, o->out, o->force);
    if (!done) return std::unexpected(done.error());
    Emit(ctx, *done,
         "invitation " + o->out + ": game " + (*done)["game"].get<std::string>() + ", " +
             (*done)["scenario"].get<std::string>() + ", you play " + o->side + "\n  key file " +
             *key + " (keep it private)\n  send " + o->out +
             " to the other player; then `opsim pbem accept` his acceptance");
    return {};
  });
}

void AddJoin(CLI::App& pbem, Context& ctx) {
  auto o = std::make_shared<PbemOptions>();
  auto* cmd = pbem.add_subcommand(
      "join",
      "The second player joins a fair game from an invitation: makes his key file and his log, "
      "and writes an acceptance (his commitment, his log's head) to send back");
  cmd->add_option("--invitation", o->invitation, "the invitation file")->required();
  cmd->add_option("--db", o->db, "your new log; it must not exist yet")->required();
  cmd->add_option("--key", o->key, kKeyHelp);
  cmd->add_option("--out", o->out, "the acceptance file to write")->required();
  AddForceOption(cmd, o->force);
  Bind(cmd, ctx, [&ctx, o]() -> Status {
    auto key = KeyPath(*o);
    if (!key) return std::unexpected(key.error());
    auto inv = JsonSource::FromFile(o->invitation);
    if (!inv) return std::unexpected(inv.error());
    auto done = query::mail::Join(*inv, o->db, *key, o->out, o->force);
    if (!done) return std::unexpected(done.error());
    Emit(ctx, *done,
         "joined game " + (*done)["game"].get<std::string>() + " as " +
             (*done)["side"].get<std::string>() + ": log " + o->db + ", key file " + *key +
             " (keep it private)\n  send " + o->out + " to the other player");
    return {};
  });
}

void AddAccept(CLI::App& pbem, Context& ctx) {
  auto o = std::make_shared<PbemOptions>();
  auto* cmd = pbem.add_subcommand(
      "accept",
      "The first player reads the acceptance and makes his log; both logs now start alike");
  cmd->add_option("--invitation", o->invitation, "the invitation you sent")->required();
  cmd->add_option("--acceptance", o->acceptance, "the acceptance you received")->required();
  cmd->add_option("--db", o->db, "your new log (as named to `pbem start`)")->required();
  cmd->add_option("--key", o->key, kKeyHelp);
  Bind(cmd, ctx, [&ctx, o]() -> Status {
    auto key = KeyPath(*o);
    if (!key) return std::unexpected(key.error());
    auto inv = JsonSource::FromFile(o->invitation);
    if (!inv) return std::unexpected(inv.error());
    auto acc = JsonSource::FromFile(o->acceptance);
    if (!acc) return std::unexpected(acc.error());
    auto done = query::mail::Accept(*inv, *acc, o->db, *key);
    if (!done) return std::unexpected(done.error());
    Emit(ctx, *done,
         "game " + (*done)["game"].get<std::string>() + " in " + o->db + ": you play " +
             (*done)["side"].get<std::string>() + "; both logs start at head " +
             (*done)["head"].get<std::string>() + "\n  the " + (*done)["next"].get<std::string>() +
             " player moves first (`opsim pbem move`)");
    return {};
  });
}

void AddMove(CLI::App& pbem, Context& ctx) {
  auto o = std::make_shared<PbemOptions>();
  auto* cmd = pbem.add_subcommand(
      "move",
      "The mover fixes his orders for the player-turn (no flood attempts, no dice: those are "
      "the defender's and the keys') and writes a turn file for the defender. Nothing is "
      "rolled yet; his orders stay pending in his log until the reply comes");
  cmd->add_option("--db", o->db, "your log")->required();
  cmd->add_option("--key", o->key, kKeyHelp);
  cmd->add_option("--orders", o->orders, "your orders file (docs/orders-format.md)")->required();
  cmd->add_option("--out", o->out, "the turn file to write")->required();
  AddForceOption(cmd, o->force);
  Bind(cmd, ctx, [&ctx, o]() -> Status {
    auto key = KeyPath(*o);
    if (!key) return std::unexpected(key.error());
    auto orders = JsonSource::FromFile(o->orders, kMaxOrdersBytes);
    if (!orders) return std::unexpected(orders.error());
    auto done = query::mail::Move(o->db, *key, *orders, o->out, o->force);
    if (!done) return std::unexpected(done.error());
    Emit(ctx, *done,
         "turn file " + o->out + ": player-turn " + (*done)["number"].dump() + ", " +
             (*done)["side"].get<std::string>() + ", " + (*done)["date"].get<std::string>() +
             "\n  orders hash " + (*done)["orders_hash"].get<std::string>() + "\n" +
             AttacksText((*done)["attacks"]) + "  send " + o->out + " to the defender");
    return {};
  });
}

void AddReply(CLI::App& pbem, Context& ctx) {
  auto o = std::make_shared<PbemOptions>();
  auto* cmd = pbem.add_subcommand(
      "reply",
      "The defender checks the mover's turn file against his log, sees the announced attacks, "
      "fixes his reply (flood attempts, 41.A.4; retreat preferences, B7.5), reveals his key "
      "for the player-turn and writes a reply file");
  cmd->add_option("--db", o->db, "your log")->required();
  cmd->add_option("--key", o->key, kKeyHelp);
  cmd->add_option("--turn", o->turn, "the mover's turn file")->required();
  cmd->add_option("--reply", o->reply,
                  "your reply: {\"reactions\": [{\"flood\": HEX} or {\"massive-flood\": HEX}], "
                  "\"retreats\": [{\"hex\": HEX, \"prefer\": [HEX, ...]}]} (default: none)");
  cmd->add_option("--out", o->out, "the reply file to write")->required();
  AddForceOption(cmd, o->force);
  Bind(cmd, ctx, [&ctx, o]() -> Status {
    auto key = KeyPath(*o);
    if (!key) return std::unexpected(key.error());
    auto turn = JsonSource::FromFile(o->turn);
    if (!turn) return std::unexpected(turn.error());
    std::optional<JsonSource> reply;
    if (!o->reply.empty()) {
      auto r = JsonSource::FromFile(o->reply);
      if (!r) return std::unexpected(r.error());
      reply.emplace(std::move(*r));
    }
    auto done = query::mail::Reply(o->db, *key, *turn, reply ? &*reply : nullptr, o->out, o->force);
    if (!done) return std::unexpected(done.error());
    Emit(ctx, *done,
         "reply file " + o->out + ": player-turn " + (*done)["number"].dump() + ", " +
             (*done)["date"].get<std::string>() + "\n" + AttacksText((*done)["attacks"]) +
             "  your reply: " + (*done)["reply"].dump() +
             "\n  your key for this player-turn "
             "is in the file; send " +
             o->out + " to the mover");
    return {};
  });
}

void AddResolve(CLI::App& pbem, Context& ctx) {
  auto o = std::make_shared<PbemOptions>();
  auto* cmd = pbem.add_subcommand(
      "resolve",
      "The mover checks the defender's reply and key, reveals his own key, plays the "
      "player-turn with the dice both keys give, logs it and writes a result file");
  cmd->add_option("--db", o->db, "your log")->required();
  cmd->add_option("--key", o->key, kKeyHelp);
  cmd->add_option("--reply", o->reply, "the defender's reply file")->required();
  cmd->add_option("--out", o->out, "the result file to write")->required();
  AddForceOption(cmd, o->force);
  Bind(cmd, ctx, [&ctx, o]() -> Status {
    auto key = KeyPath(*o);
    if (!key) return std::unexpected(key.error());
    auto reply = JsonSource::FromFile(o->reply);
    if (!reply) return std::unexpected(reply.error());
    auto done = query::mail::Resolve(o->db, *key, *reply, o->out, o->force);
    if (!done) return std::unexpected(done.error());
    Emit(ctx, done->doc,
         "result file " + o->out + ": player-turn " + done->doc["number"].dump() +
             " played and logged\n" + PlayedText(*done) + "\n  send " + o->out +
             " to the defender");
    return {};
  });
}

void AddApply(CLI::App& pbem, Context& ctx) {
  auto o = std::make_shared<PbemOptions>();
  auto* cmd = pbem.add_subcommand(
      "apply",
      "The defender checks the mover's result and key against his pending reply, plays the "
      "same player-turn with the same dice and logs it; both logs then have the same head "
      "(checked)");
  cmd->add_option("--db", o->db, "your log")->required();
  cmd->add_option("--key", o->key, kKeyHelp);
  cmd->add_option("--result", o->result, "the mover's result file")->required();
  Bind(cmd, ctx, [&ctx, o]() -> Status {
    auto key = KeyPath(*o);
    if (!key) return std::unexpected(key.error());
    auto result = JsonSource::FromFile(o->result);
    if (!result) return std::unexpected(result.error());
    auto done = query::mail::Apply(o->db, *key, *result);
    if (!done) return std::unexpected(done.error());
    Emit(ctx, done->doc,
         "player-turn " + done->doc["number"].dump() +
             " played and logged; the head is the mover's\n" + PlayedText(*done));
    return {};
  });
}

}  // namespace

void AddPbemCommands(CLI::App& app, Context& ctx) {
  auto* pbem = app.add_subcommand(
      "pbem",
      "Play a fair game by mail between two logs, trading small files (docs/pbem.md). Its dice "
      "come from both players' keys: no one can foresee or choose them, and `opsim replay "
      "--verify` checks every one (docs/dice.md)");
  pbem->require_subcommand(1);
  AddStart(*pbem, ctx);
  AddJoin(*pbem, ctx);
  AddAccept(*pbem, ctx);
  AddMove(*pbem, ctx);
  AddReply(*pbem, ctx);
  AddResolve(*pbem, ctx);
  AddApply(*pbem, ctx);
}

}  // namespace opsim::cli
