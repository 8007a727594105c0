// G9 Panjis: set-up legality, the Panji MC, who may go above/beneath and exit, Bypass, aerial
// landings, Searching, and removal.
//
// A Panji counter does not create a Location (G9.1); a unit is above it (having entered across
// a Covered hexside, G9.4) or beneath it. Movement effects are applied by movement.h using
// these functions; attack effects by attack.h; unit activities by activity.h. Every refusal
// names its rule. Functions that roll take an opsim::Dice. Pure apart from the removal
// functions, which change the PanjiCounter they are given; thread-compatible.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "opsim/core/dice.h"
#include "opsim/core/error.h"
#include "opsim/tactical/board.h"
#include "opsim/tactical/unit.h"

namespace opsim::tactical {

// Whether hexside `h` of `hex` is a Covered hexside of the Panji counter in `hex`; a breached
// bank hexside is not (G9.731).
bool IsCovered(const Board& b, GridPos hex, const Hexside& h);

// G9.1, G9.11, G9.12: the panji set-up of a board.
struct PanjiProblem {
  std::string rule;
  std::string message;
  std::string hex;  // where it is, if in one hex
};
struct PanjiSetupEntry {
  std::string hex;
  char id = 'A';
  bool hidden = false;
  std::string hip;                   // "Panji A: 37EE7-EE8"
  std::vector<std::string> covered;  // "37EE7-EE8", ...
};
struct PanjiSetupReport {
  std::vector<PanjiSetupEntry> panjis;
  int covered_total = 0;
  std::optional<int> ob_limit;
  std::vector<PanjiProblem> problems;
  bool legal() const { return problems.empty(); }
};
PanjiSetupReport CheckPanjiSetup(const Board& b, std::optional<int> ob_covered);
// The same checks of a board as it loads (no OB allotment is known then): its first problem,
// as an error naming the board file and the hex.
Status CheckPanjiBoardSetup(const Board& b);
// The HIP record of the Panji counter in `hex` (G9.11).
std::string HipRecordOf(const Board& b, GridPos hex);

// G9.31: the Panji MC, a NMC without Heat of Battle. Any Original Doubles < 12 also causes
// Casualty Reduction; an Original 12 causes a Casualty MC; a Final DR equal to morale pins.
// On failure: Replacement (if applicable), then Casualty Reduction / Casualty MC, then break.
struct PanjiMc {
  int dice[2] = {0, 0};
  int drm = 0;
  int final_dr = 0;
  int morale = 0;
  bool passed = false;
  bool pinned = false;
  bool casualty_reduction = false;
  bool casualty_mc = false;
  std::vector<std::string> sequence;  // the results in the order G9.31 applies them
};
PanjiMc ResolvePanjiMc(int die1, int die2, int drm, int morale, bool pin_immune);
PanjiMc RollPanjiMc(Dice& dice, int drm, int morale, bool pin_immune);

// G9.12: neither a non-vehicular Gun nor a unit that may not move from above to beneath a Panji
// counter may set up above one.
Status MaySetUpAbove(const Unit& u, bool non_vehicular_gun);
// G9.5: only Mobile fully-tracked AFV/dozers, Infantry not Manhandling, "led" horses and Cavalry
// may change between beneath and above.
Status MayChangeAboveBeneath(const Unit& u);
// G9.6: the same units (only) may exit across a Covered hexside.
Status MayExitAcrossCovered(const Unit& u);
// G9.46: Bypass in a panji Location is NA along a hexside that is, or touches, a Covered
// hexside of that Panji counter.
Status MayBypassAlong(const Board& b, GridPos hex, const Hexside& along);

// G9.47: where a ⅝" parachute lands in a panji Location: dr, +1 if broken, + half (FRU) the
// Covered hexsides; < 6 beneath, otherwise above and a Panji MC at Morale Level 7. A ½"
// parachute takes both drm automatically.
struct ParachutePlacement {
  int dr = 0;
  int drm = 0;
  int final_dr = 0;
  bool above = false;
};
ParachutePlacement PlaceParachute(int dr, const PanjiCounter& p, bool broken, bool half_inch);
// G9.47: +1 Crash drm for a glider landing across a Covered hexside.
int GliderCrashDrm(const Board& b, GridPos hex, const Hexside& avenue);

// G9.48: Searching an adjacent panji Location risks casualties if a Covered hexside is common
// to it and the Searcher's Location.
bool SearchRisksCasualties(const Board& b, GridPos searcher, GridPos searched);

// G9.7 removal.
// G9.71: a successful Clearance turns the predesignated Covered hexside non-Covered.
Status ClearCoveredHexside(PanjiCounter& p, Dir d);
// G9.72: after a KIA by HE/DC, as many Covered hexsides as the KIA # become non-Covered:
// chosen by the attacker, at random if Indirect Fire caused it, and a DC Placed across a
// Covered hexside changes that one first. Returns the hexsides changed.
std::vector<Dir> ApplyHeKia(PanjiCounter& p, int kia, bool indirect, std::optional<Dir> dc_across,
                            const std::vector<Dir>& chosen, Dice& dice);
// G9.73: a fully-tracked AFV/dozer beneath the counter clears a Covered hexside in its VCA for
// ¼ (FRU) of its printed MP, if not Stopped and using neither Reverse movement nor VBM.
Result<int> AfvClearanceCost(const Unit& u, bool beneath, bool stopped, bool reverse_or_vbm,
                             int printed_mp);
// G9.7: the Panji counter in `hex` is completely eliminated when shellholes are created in its
// Location (G9.72; `shellholes_created` also places the Shellholes counter) or, in opsim, when its
// last Covered hexside has been cleared (a counter creates one to six, G9.3). Removal does not
// itself harm a unit above it: the unit is simply no longer above a Panji counter, nor is one
// beneath it. Returns the names of the board units so placed in the hex; empty, and the board
// unchanged, if the counter remains.
std::vector<std::string> RemovePanjiIfEliminated(Board& b, GridPos hex, bool shellholes_created);

// G9.74: Bombardment: a NMC at Morale Level 8; one random Covered hexside becomes non-Covered
// for every point by which it is failed.
struct PanjiBombardment {
  int dice[2] = {0, 0};
  int failed_by = 0;
  std::vector<Dir> uncovered;
};
PanjiBombardment BombardPanji(PanjiCounter& p, Dice& dice);

}  // namespace opsim::tactical
