#include "opsim/tactical/beach_dyo.h"

#include "opsim/core/dice.h"
#include "opsim/core/rule_ids.h"
#include "opsim/tactical/beach.h"

namespace opsim::tactical {

namespace {

int DivideFru(int n, int by) {
  return (n + by - 1) / by;
}

}  // namespace

Result<DyoReport> RunBeachDyo(const Board& board, const DyoOptions& o) {
  DyoReport r;
  r.board = board;
  Settings& st = r.board.mutable_settings();
  const bool ocean = st.water == Water::kOcean;
  Dice dice(o.seed);
  for (const Hex* h : board.Hexes()) r.board.MutableAt(h->cell)->reef = false;

  // G13.91 reef.
  const bool reef_dr = o.allied_vs_japanese && (o.year == 1943 || o.year == 1944) && ocean;
  if (reef_dr) {
    DyoStep s{rules::kG13_91, "", {dice.Roll(6)}, o.wholly_non_us ? -1 : 0, std::nullopt};
    s.final_roll = s.dice[0] + s.drm;
    r.reef = *s.final_roll >= 5;
    s.text = std::string("reef dr") +
             (o.wholly_non_us ? " (-1: the amphibious side is wholly non-U.S.)" : "") + ": Final " +
             std::to_string(*s.final_roll) + (r.reef ? " >= 5: a reef exists" : " < 5: no reef");
    r.steps.push_back(s);
    if (r.reef) {
      if (board.entry_area().empty()) {
        return Fail(
            ErrorCode::kInvalidInput,
            "a reef exists but the board names no amphibious entry/exit area (\"entry_area\") "
            "beside which it would lie",
            board.file(), rules::kG13_91);
      }
      r.reef_hexes = ReefBeside(board, board.entry_area());
      std::string where;
      for (GridPos c : r.reef_hexes) {
        where += (where.empty() ? "" : " ") + board.Name(c);
        r.board.MutableAt(c)->reef = true;
      }
      r.steps.push_back({rules::kG13_91,
                         "the reef lies in the Hex Grain beside the entry/exit area: " + where,
                         {},
                         0,
                         std::nullopt});
    }
  } else {
    r.steps.push_back(
        {rules::kG13_91,
         "no reef dr: one is made only for an Allied-vs-Japanese scenario set in 1943-44 "
         "whose OCEAN represents Ocean",
         {},
         0,
         std::nullopt});
  }

  // G13.92 Slope.
  {
    DyoStep s{rules::kG13_92, "", {dice.Roll(6)}, r.reef ? -1 : 0, std::nullopt};
    s.final_roll = s.dice[0] + s.drm;
    r.slope = *s.final_roll <= 2   ? Slope::kSlight
              : *s.final_roll <= 4 ? Slope::kModerate
                                   : Slope::kSteep;
    s.text = std::string("Slope dr") + (r.reef ? " (-1: a reef exists)" : "") + ": Final " +
             std::to_string(*s.final_roll) + ": " + Name(r.slope);
    r.steps.push_back(s);
    st.slope = r.slope;
  }

  // G13.93 width.
  if (r.slope == Slope::kSteep) {
    r.high_tide_width = 1;
    r.low_tide_width = 2;
    r.steps.push_back({rules::kG13_93,
                       "a Steeply Sloped beach is always 1 hex wide at High Tide and 2 at Low Tide",
                       {},
                       0,
                       std::nullopt});
  } else {
    const int by = r.slope == Slope::kSlight ? 2 : 3;
    DyoStep s{rules::kG13_93, "", {dice.Roll(6), dice.Roll(6)}, 0, std::nullopt};
    r.high_tide_width = DivideFru(s.dice[0], by);
    r.low_tide_width = r.high_tide_width + DivideFru(s.dice[1], by);
    s.text = "width DR: colored " + std::to_string(s.dice[0]) + " / " + std::to_string(by) +
             " (FRU) = High-Tide width " + std::to_string(r.high_tide_width) + "; white " +
             std::to_string(s.dice[1]) + " / " + std::to_string(by) +
             " (FRU) added = Low-Tide width " + std::to_string(r.low_tide_width);
    r.steps.push_back(s);
  }

  r.steps.push_back(
      {rules::kG13_94, "purchases: Waterproofing a vehicle costs 2 BPV", {}, 0, std::nullopt});
  r.steps.push_back(
      {rules::kG13_95,
       std::string("the defender sets up with the OCEAN overlays placed for the beach's ") +
           (ocean ? "Low-Tide" : "High-Tide") +
           " width; any OCEAN hex that is or could become shallow may be Bore Sighted",
       {},
       0,
       std::nullopt});
  r.steps.push_back(
      {rules::kG13_96,
       "Recon dr, then Underwater Demolition Team dr (G14.561, not in these texts: not rolled)",
       {},
       0,
       std::nullopt});

  // G13.97 Tide.
  if (!ocean) {
    r.tide = Tide::kHigh;
  } else if (o.tide) {
    r.tide = *o.tide;
  } else {
    return Fail(ErrorCode::kInvalidInput,
                "the amphibious player must declare the Tide (high or low) when OCEAN is Ocean", {},
                rules::kG13_97);
  }
  st.tide = r.tide;
  r.width = r.tide == Tide::kHigh ? r.high_tide_width : r.low_tide_width;
  if (r.reef) st.reef = r.tide == Tide::kHigh ? Reef::kSubmerged : Reef::kExposed;
  if (!r.reef) st.reef = Reef::kNone;
  r.steps.push_back({rules::kG13_97,
                     std::string("Tide: ") + Name(r.tide) +
                         (ocean ? " (declared)" : " (lake/river: always High)") +
                         ", so the beach is " + std::to_string(r.width) + " hex(es) wide" +
                         (r.reef ? std::string("; the reef is ") + Name(st.reef) : "") +
                         "; Bore Sighting in now-deep hexes is lost and A-T mines in shallow OCEAN "
                         "become A-B mines",
                     {},
                     0,
                     std::nullopt});

  // G13.98 Surf.
  if (ocean) {
    DyoStep s{rules::kG13_98, "", {dice.Roll(6)}, 0, std::nullopt};
    s.final_roll = s.dice[0];
    r.heavy_surf = s.dice[0] == 6;
    s.text = "Surf dr: Original " + std::to_string(s.dice[0]) +
             (r.heavy_surf ? ": Heavy Surf" : ": no Heavy Surf");
    r.steps.push_back(s);
  } else {
    r.steps.push_back({rules::kG13_98, "no Surf dr: OCEAN is not Ocean", {}, 0, std::nullopt});
  }
  st.heavy_surf = r.heavy_surf;
  r.steps.push_back({rules::kG13_99,
                     "the attacker sets up, Bombardments are conducted, and play begins",
                     {},
                     0,
                     std::nullopt});
  return r;
}

}  // namespace opsim::tactical
