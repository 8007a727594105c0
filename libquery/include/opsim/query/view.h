// What a map shows (docs/views.md): the whole theater, static for a scenario, and a game's
// position at any turn. `opsim theater --json` and `opsim position --json` print them; the game
// server sends them to the browser (docs/api.md), so the CLI, the server and `opsim render`
// cannot disagree about what is where.
//
// Pure functions of their arguments; thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "opsim/query/source.h"

namespace opsim::query {

// The whole theater as a map draws it: sheets (with their windows on the global grid and the
// panel each is drawn in), the bounds of the global grid it covers, every hex (its global column
// and row, terrain, coast, city, port, airbase, place name, weather zone), every hexside that has
// water, a feature or a waterway, the waterways, rail ferries (41.A.2), named areas and the
// map-edge exits (41.F). Hexsides, areas and exits name their hexes by index into "hexes".
nlohmann::json TheaterJson(const map::Theater& t);
// The same theater in columns (docs/views.md, "The compact theater"): "hexes" and "hexsides" are
// objects of equal-length arrays of numbers, one entry per hex or hexside, with the words they
// stand for in "names"; names of hexes and hexsides are left out (each follows from its sheet,
// column and row). Everything else is as in TheaterJson. About a third of its size, and parsed
// without making an object per hex: what the browser asks for.
nlohmann::json TheaterCompactJson(const map::Theater& t);

// Which panel a map draws each sheet in: sheets whose windows (SheetWindow) touch or overlap on
// the global grid (no whole column or row between them) are joined into one panel. By sheet, its
// panel's number, counted in sheet order from 0: the one place this is decided. `opsim render`
// stacks these panels; TheaterJson gives them to the browser, and the workshop asks for them by
// the sheets' windows alone (/api/scenario/panels). Quadratic in the sheets (a theater holds at
// most 250).
std::vector<std::size_t> SheetPanels(std::span<const std::array<int, 4>> windows);
std::vector<std::size_t> SheetPanels(const map::Theater& t);
// The part of a sheet the theater holds, on the global grid: {first column, first row, last
// column, last row}.
std::array<int, 4> SheetWindow(const map::Sheet& s);

struct PositionOptions {
  std::vector<Side> supply;  // sides whose units' supply (B8) to add, as `opsim supply --all`
  std::vector<Side> zoc;     // sides whose zones of control (B4.8) to add
};
// A game's position: every unit of every kind (off the map too, with a null hex), ownership,
// the map state (weather, Suez, floods, ice airfields, destroyed bridges, markers, SRP pools,
// exit totals), the next player-turn; with options each side's supply and zones of control.
// A game loaded at a phase (Source::phase) says which ("phase"), and "next" is then the phase
// after it.
// A map-only scenario has no units and no zones.
Result<nlohmann::json> PositionJson(const LoadedGame& g, const PositionOptions& options);
// The same position with its hexes as indices into the theater's hexes (docs/views.md, "The
// compact position"): "owner" is one character a hex ('0' no one, '1' axis, '2' allied), a
// unit's "hex" and the zones of control's hexes are indices. Everything else is as in
// PositionJson. What the browser asks for: a third of the size on the 100,000-hex game.
Result<nlohmann::json> PositionCompactJson(const LoadedGame& g, const PositionOptions& options);

// The parts of a game's state that are the map's and the campaign's, not its units': weather by
// zone, Suez (41.B), floods (41.A.4), ice airfields (41.A.3), markers, the Netherlands'
// surrender, SRP pools and exit totals (41.F). `opsim status` prints the same.
nlohmann::json MapStateJson(const map::Theater& t, const ops::GameState& s);

// What a ground unit's counter says: "6-5-4 3RE" (attack-defense-MP, size in REs).
std::string CounterText(const ops::GroundUnit& u);

}  // namespace opsim::query
