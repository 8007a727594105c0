// The ids of every rule opsim enforces, in one place.
//
// Rule 41's clauses carry the book's own ids. opsim's base rules (which the spec does not hold)
// are numbered B1..B12 and written out in docs/rules.md; each id here names one paragraph there.
// Explanations and refusals cite these, never free text alone.
#pragma once

#include <string_view>

namespace opsim {

// A game rule's own id, as the book writes it: "41.A.1", "41.E.4", "G8.2104", or one of opsim's
// base rules ("B5.3", see docs/rules.md). A view of a string literal or a theater-owned string.
struct RuleId {
  std::string_view id;
  friend bool operator==(RuleId, RuleId) = default;
  bool empty() const { return id.empty(); }
};

}  // namespace opsim

namespace opsim::rules {

// Rule 41, Special Terrain Rules.
inline constexpr RuleId k41A1{"41.A.1"};     // causeways
inline constexpr RuleId k41A2{"41.A.2"};     // rail ferries
inline constexpr RuleId k41A3{"41.A.3"};     // ice airfields
inline constexpr RuleId k41A4a{"41.A.4.a"};  // partial flooding
inline constexpr RuleId k41A4b{"41.A.4.b"};  // massive flooding
inline constexpr RuleId k41B{"41.B"};        // the Suez Canal
inline constexpr RuleId k41C{"41.C"};        // the Corinth Canal
inline constexpr RuleId k41D{"41.D"};        // Shatt al Arab-Tigris
inline constexpr RuleId k41E1{"41.E.1"};     // Kerch Straits
inline constexpr RuleId k41E2{"41.E.2"};     // Baltic Islands
inline constexpr RuleId k41E3{"41.E.3"};     // Kronshtadt
inline constexpr RuleId k41E4{"41.E.4"};     // the Sivash
inline constexpr RuleId k41E5{"41.E.5"};     // the Sea of Azov
inline constexpr RuleId k41E6{"41.E.6"};     // the Vuoksa river system
inline constexpr RuleId k41F{"41.F"};        // exiting the map

// opsim's base rules (docs/rules.md).
inline constexpr RuleId kB1_2{"B1.2"};  // orders belong to the phasing side and its turn
inline constexpr RuleId kB2_1{"B2.1"};  // weather
inline constexpr RuleId kB3_2{"B3.2"};  // stacking
inline constexpr RuleId kB4_1{"B4.1"};  // terrain costs per hex entered
inline constexpr RuleId kB4_2{"B4.2"};  // hexside costs: rivers, canals
inline constexpr RuleId kB4_3{"B4.3"};  // roads
inline constexpr RuleId kB4_4{"B4.4"};  // prohibited hexes: all-sea, unfrozen lake, prohibited
inline constexpr RuleId kB4_5{
    "B4.5"};  // water hexsides: all-sea and unfrozen lake stop ground units
inline constexpr RuleId kB4_6{"B4.6"};    // frozen water
inline constexpr RuleId kB4_7{"B4.7"};    // engineers
inline constexpr RuleId kB4_8{"B4.8"};    // zones of control
inline constexpr RuleId kB4_9{"B4.9"};    // overrun
inline constexpr RuleId kB4_10{"B4.10"};  // movement allowance and who may move
inline constexpr RuleId kB5_1{"B5.1"};    // rail movement
inline constexpr RuleId kB6_1{"B6.1"};    // naval movement needs a continuous water link
inline constexpr RuleId kB6_2{"B6.2"};    // naval movement costs
inline constexpr RuleId kB6_3{"B6.3"};    // riverine movement: navigable waterways only
inline constexpr RuleId kB6_4{"B6.4"};    // river flotillas keep off all-sea hexes
inline constexpr RuleId kB6_5{"B6.5"};    // naval groups and their allowance
inline constexpr RuleId kB7_1{"B7.1"};    // who may attack what
inline constexpr RuleId kB7_2{"B7.2"};    // odds, the CRT, shifts
inline constexpr RuleId kB7_3{"B7.3"};    // results
inline constexpr RuleId kB7_5{"B7.5"};    // retreats
inline constexpr RuleId kB7_6{"B7.6"};    // advance after combat
inline constexpr RuleId kB7_8{"B7.8"};    // exploitation
inline constexpr RuleId kB8_1{"B8.1"};    // supply
inline constexpr RuleId kB9_1{"B9.1"};    // ownership
inline constexpr RuleId kB10_1{"B10.1"};  // dice
inline constexpr RuleId kB11_1{"B11.1"};  // air units
inline constexpr RuleId kB11_2{"B11.2"};  // air units escaping (41's "Rule ???")
inline constexpr RuleId kB11_3{"B11.3"};  // air drops
inline constexpr RuleId kB12_1{"B12.1"};  // landings (41's "Rule 37")
inline constexpr RuleId kB13_1{"B13.1"};  // the Netherlands' surrender
inline constexpr RuleId kB14_1{"B14.1"};  // destroying bridges
inline constexpr RuleId kB14_2{"B14.2"};  // building bridges

}  // namespace opsim::rules
