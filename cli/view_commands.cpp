// `opsim theater` and `opsim position`: what a map shows (docs/views.md), the answers the game
// server sends the browser. The answers come from libquery (view.h); this file reads the
// options and prints.
#include <algorithm>
#include <sstream>

#include "context.h"
#include "game_source.h"
#include "opsim/query/view.h"

namespace opsim::cli {

namespace {

using nlohmann::json;

// How many hexes or hexsides a theater lists: an array's size, or the compact form's count.
std::size_t Count(const json& list) {
  return list.is_object() ? list["count"].get<std::size_t>() : list.size();
}

std::string TheaterText(const json& j) {
  std::size_t panels = 0;
  for (const json& s : j["sheets"]) panels = std::max(panels, s["panel"].get<std::size_t>() + 1);
  std::ostringstream out;
  out << j["title"].get<std::string>() << " (" << j["name"].get<std::string>()
      << "): " << Count(j["hexes"]) << " hexes on " << j["sheets"].size() << " sheets in " << panels
      << " panels, " << Count(j["hexsides"]) << " hexsides with water or features, "
      << j["waterways"].size() << " waterways, " << j["rail_ferries"].size() << " rail ferries, "
      << j["exits"].size() << " map-edge exits\n"
      << "(--json prints it all: docs/views.md)\n";
  return out.str();
}

// How many hexes a side owns: its list's size, or the compact form's characters for it.
std::size_t Owned(const json& owner, const std::string& side) {
  if (!owner.is_string()) return owner[side].size();
  const std::string& by_hex = owner.get_ref<const std::string&>();
  return static_cast<std::size_t>(std::ranges::count(by_hex, side == "axis" ? '1' : '2'));
}

std::string PositionText(const json& j) {
  std::ostringstream out;
  out << j["scenario"].get<std::string>();
  if (j.contains("step")) {
    const json& s = j["step"];
    out << " after step " << s["taken"] << " of " << s["of"] << " of logged player-turn "
        << s["player_turn"] << " (played by " << s["played_by"].get<std::string>() << ")";
    if (s.contains("last")) {
      out << "; the step: " << s["last"]["side"].get<std::string>() << " "
          << s["last"]["step"].dump();
    }
    out << "; then: " << s["prompt"]["text"].get<std::string>();
  } else if (j.contains("phase") && j["phase"] != "exploitation") {
    out << " after the " << j["phase"].get<std::string>() << " phase of the "
        << j["next"]["phasing"].get<std::string>() << " player-turn of "
        << j["next"]["date"].get<std::string>() << "; next: its "
        << j["next"]["phase"].get<std::string>() << " phase";
  } else {
    out << " after " << j["player_turn"] << " player-turns";
    if (j.contains("phase")) out << " (its last phase: exploitation)";
    if (j.contains("next")) {
      out << "; next: " << j["next"]["phasing"].get<std::string>() << ", "
          << j["next"]["date"].get<std::string>();
    }
  }
  out << "\n";
  for (const char* side : {"axis", "allied"}) {
    int ground = 0, air = 0, naval = 0, off = 0;
    for (const json& u : j["units"]) {
      if (u["side"] != side) continue;
      if (u["hex"].is_null()) {
        ++off;
      } else {
        (u["kind"] == "ground" ? ground : u["kind"] == "air" ? air : naval) += 1;
      }
    }
    out << "  " << side << ": " << ground << " ground, " << air << " air, " << naval
        << " naval units on the map (" << off << " off it); owns " << Owned(j["owner"], side)
        << " hexes\n";
  }
  out << "  ";
  if (j.contains("suez")) out << "Suez Canal: " << j["suez"].get<std::string>() << "; ";
  if (j.contains("floods")) out << "floods: " << j["floods"].size() << "; ";
  if (j.contains("ice_airfields")) out << "ice airfields: " << j["ice_airfields"].size() << "; ";
  out << "destroyed bridges: " << j["destroyed_bridges"].size() << "\n";
  if (j.contains("supply")) {
    for (const auto& [side, a] : j["supply"].items()) {
      out << "  supply (" << side << "):";
      for (const auto& [status, n] : a["counts"].items()) out << " " << n << " " << status;
      out << "\n";
    }
  }
  if (j.contains("zoc")) {
    for (const auto& [side, hexes] : j["zoc"].items()) {
      out << "  zones of control (" << side << "): " << hexes.size() << " hexes\n";
    }
  }
  out << "(--json prints every unit and hex: docs/views.md)\n";
  return out.str();
}

}  // namespace

void AddViewCommands(CLI::App& app, Context& ctx) {
  auto src = std::make_shared<GameSource>();
  auto* theater = app.add_subcommand(
      "theater",
      "The whole theater as a map draws it (docs/views.md): sheets on the global grid, every hex "
      "with its terrain and places, hexsides with water or features, waterways, rail ferries, "
      "areas. What `opsim serve` sends a browser; --json prints it all");
  AddGameSourceOptions(theater, *src);
  auto compact = std::make_shared<bool>(false);
  theater->add_flag("--compact", *compact,
                    "the compact form (docs/views.md): hexes and hexsides as columns of numbers, "
                    "as the browser asks the server for it (GET .../theater?form=compact)");
  Bind(theater, ctx, [&ctx, src, compact]() -> Status {
    auto g = LoadGame(ctx, *src, query::Needs::kTheater);
    if (!g) return std::unexpected(g.error());
    const json j =
        *compact ? query::TheaterCompactJson(*g->theater) : query::TheaterJson(*g->theater);
    Emit(ctx, j, TheaterText(j));
    return {};
  });

  struct PositionOptions {
    GameSource game;
    std::vector<std::string> supply, zoc;
    bool compact = false;
  };
  auto po = std::make_shared<PositionOptions>();
  auto* position = app.add_subcommand(
      "position",
      "A game's position (docs/views.md): every unit, ground, air and naval, ownership, "
      "weather, Suez, floods, ice airfields, destroyed bridges; with --supply and --zoc each "
      "side's supply (B8) and zones of control (B4.8). What `opsim serve` sends a browser");
  AddGameSourceOptions(position, po->game);
  position->add_option("--phase", po->game.phase,
                       "with --db and --at N: the position after this phase of logged "
                       "player-turn N (initial, movement, combat or exploitation), replayed and "
                       "checked against the log");
  position
      ->add_option("--step", po->game.step,
                   "with --db and --at N: the position after this many steps of logged "
                   "player-turn N (0: begun, its weather rolled), taken again step by step with "
                   "its dice; a player-turn played from orders is taken as their script's steps "
                   "(`opsim log --turn N --steps` lists them)")
      ->check(CLI::Range(0, 1'000'000))
      ->excludes("--phase");
  position->add_option("--supply", po->supply, "add this side's units' supply (repeatable)")
      ->check(CLI::IsMember({"axis", "allied"}));
  position->add_option("--zoc", po->zoc, "add the hexes this side's zones of control cover")
      ->check(CLI::IsMember({"axis", "allied"}));
  position->add_flag("--compact", po->compact,
                     "the compact form (docs/views.md): hexes as indices into the theater's, "
                     "the owners as one character a hex, as the browser asks the server for it "
                     "(GET .../state?form=compact)");
  Bind(position, ctx, [&ctx, po]() -> Status {
    auto g = LoadGame(ctx, po->game);
    if (!g) return std::unexpected(g.error());
    query::PositionOptions o;
    for (const auto& s : po->supply) o.supply.push_back(*ParseSide(s));
    for (const auto& s : po->zoc) o.zoc.push_back(*ParseSide(s));
    auto j = po->compact ? query::PositionCompactJson(*g, o) : query::PositionJson(*g, o);
    if (!j) return std::unexpected(j.error());
    Emit(ctx, *j, PositionText(*j));
    return {};
  });
}

}  // namespace opsim::cli
