// Rule 41, the Special Terrain Rules: one file per clause in this folder (docs/rules.md maps
// each clause to its file, functions and tests). The step judges (ground.cpp, naval.cpp), the
// router cache and the phases call into them. What a clause does to a player-turn (floods, the
// Suez Canal's status, ice airfields, a rail ferry's capacity, exits) is a Turn member (turn.h)
// defined in the clause's file, and its naval steps are NavalRouter members (route.h) defined
// there too. Stateless; private to libops.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "opsim/ops/route.h"

namespace opsim::ops::rule41 {

// Ground crossings of an all-sea or lake hexside that a clause decides. Each returns false when
// its clause does not apply to `side`; otherwise it sets `v` to a major river (adding its note)
// or to blocked (with `why` when notes are asked for). `name` is the hexside's name, empty when
// no notes are asked for.

// --- causeways.cpp: 41.A.1 ---------------------------------------------------------------------
bool CausewayCrossing(const RuleContext& ctx, map::HexsideRef side, const std::string& name,
                      CrossingVerdict& v, std::vector<Note>* notes);
// A road across a causeway does not bridge it (B4.3): it is crossed as a major river.
bool RoadBridgesWater(const map::HexsideInfo& s);
// Why no naval link runs from `here` (the water area `from`) across `side` in direction `d`,
// or from there into `w`'s water, when a causeway splits that water; nullopt when none does.
std::optional<std::string> CausewaySplitFrom(const map::Theater& t, const map::WaterArea& from,
                                             const std::string& here, map::Dir d,
                                             map::HexsideRef side);
std::optional<std::string> CausewaySplitInto(const map::Theater& t, const Waypoint& w,
                                             const std::string& there, map::HexsideRef side);
// A causeway is a bridge for construction and destruction (B14): the word events use for
// `s`'s bridge, and the rule they cite (`base`, or 41.A.1 for a causeway).
const char* BridgeWord(const map::HexsideInfo& s);
RuleId BridgeRule(const map::HexsideInfo& s, RuleId base);

// --- rail_ferries.cpp: 41.A.2 (with EvaluateFerryStep, route.h) --------------------------------
// The rail ferry whose terminals are `a` and `b`, in either order, and its index; or null.
const map::RailFerry* FerryBetween(const map::Theater& t, map::HexRef a, map::HexRef b,
                                   std::size_t* index = nullptr);

// --- flooding.cpp: 41.A.4 ----------------------------------------------------------------------
// A flooded hex as the ground step judge sees it: the verdict when the flood prohibits it;
// otherwise nullopt, with `terrain` switched to swamp while the flood makes it one.
std::optional<StepVerdict> FloodedTerrain(const RuleContext& ctx, map::HexRef h,
                                          const map::Flood& f, map::Terrain& terrain,
                                          std::vector<Note>* notes);

// --- kerch.cpp: 41.E.1 -------------------------------------------------------------------------
bool KerchHexside(const map::Theater& t, map::HexsideRef side);
bool KerchCrossing(const RuleContext& ctx, map::HexsideRef side, const std::string& name,
                   CrossingVerdict& v, std::vector<Note>* notes);
// Whether the enemy of `side` owns both strait hexes (no passage through them).
bool EnemyHoldsStraits(const RuleContext& ctx, Side side);

// --- baltic_islands.cpp: 41.E.2 ----------------------------------------------------------------
bool BalticCrossing(const RuleContext& ctx, map::HexsideRef side, const std::string& name,
                    CrossingVerdict& v, std::vector<Note>* notes);

// --- kronshtadt.cpp: 41.E.3 --------------------------------------------------------------------
// Kronshtadt's hex: whoever enters it gains the whole hex.
bool IsKronshtadt(const map::Theater& t, map::HexRef h);
bool KronshtadtCrossing(const RuleContext& ctx, const GroundMover& mover, map::HexsideRef side,
                        const std::string& name, CrossingVerdict& v, std::vector<Note>* notes);
// The owners of the Kronshtadt hexside's hexes, which ground costs depend on (RouterCache).
std::string KronshtadtOwners(const RuleContext& ctx);

// --- vuoksa.cpp: 41.E.6 ------------------------------------------------------------------------
bool VuoksaHex(const map::Theater& t, map::HexRef h);
bool VuoksaHexside(const map::Theater& t, map::HexsideRef side);
// A frozen Vuoksa lake hex: still closed to ground units.
StepVerdict VuoksaLakeHex(const RuleContext& ctx, map::HexRef h, std::vector<Note>* notes);
// A Vuoksa lake hexside between frozen hexes: still open water.
bool VuoksaLakeCrossing(const RuleContext& ctx, map::HexRef from, map::HexsideRef side,
                        const std::string& name, CrossingVerdict& v, std::vector<Note>* notes);
// A Vuoksa river hexside between frozen hexes costs as unfrozen: the note that says so.
void NoteVuoksaRiver(const RuleContext& ctx, map::HexRef from, map::HexsideRef side,
                     const std::string& name, std::vector<Note>* notes);

}  // namespace opsim::ops::rule41
