// Part of the rule-id registry (rule_ids.h): the campaign's rules, Rule 41 (the book's Special
// Terrain Rules) and opsim's base rules B1..B15 (docs/rules.md). Include rule_ids.h, not this.
// Each entry: X(constant, id, title).
#pragma once

// clang-format off
#define OPSIM_CAMPAIGN_RULES(X)                                                        \
  X(k41A1, "41.A.1", "causeways")                                                      \
  X(k41A2, "41.A.2", "rail ferries")                                                   \
  X(k41A3, "41.A.3", "ice airfields")                                                  \
  X(k41A4a, "41.A.4.a", "partial flooding of canal-intensive hexes")                   \
  X(k41A4b, "41.A.4.b", "massive flooding of canal-intensive hexes")                   \
  X(k41B, "41.B", "the Suez Canal")                                                    \
  X(k41C, "41.C", "the Corinth Canal")                                                 \
  X(k41D, "41.D", "the Shatt al Arab-Tigris")                                          \
  X(k41E1, "41.E.1", "the Kerch Straits")                                              \
  X(k41E2, "41.E.2", "the Baltic Islands")                                             \
  X(k41E3, "41.E.3", "Kronshtadt")                                                     \
  X(k41E4, "41.E.4", "the Sivash")                                                     \
  X(k41E5, "41.E.5", "the Sea of Azov")                                                \
  X(k41E6, "41.E.6", "the Vuoksa river system")                                        \
  X(k41F, "41.F", "exiting the map")                                                   \
  X(kB1_2, "B1.2", "orders belong to the phasing side and its turn")                   \
  X(kB1_3, "B1.3", "a player-turn played step by step")                                \
  X(kB1_4, "B1.4", "taking a step back")                                               \
  X(kB2_1, "B2.1", "weather")                                                          \
  X(kB3_2, "B3.2", "stacking")                                                         \
  X(kB4_1, "B4.1", "terrain costs per hex entered")                                    \
  X(kB4_2, "B4.2", "hexside costs: rivers, canals")                                    \
  X(kB4_3, "B4.3", "roads")                                                            \
  X(kB4_4, "B4.4", "prohibited hexes: all-sea, unfrozen lake, prohibited")             \
  X(kB4_5, "B4.5", "water hexsides: all-sea and unfrozen lake stop ground units")      \
  X(kB4_6, "B4.6", "frozen water")                                                     \
  X(kB4_7, "B4.7", "engineers")                                                        \
  X(kB4_8, "B4.8", "zones of control")                                                 \
  X(kB4_9, "B4.9", "overrun")                                                          \
  X(kB4_10, "B4.10", "movement allowance and who may move")                            \
  X(kB5_1, "B5.1", "rail movement")                                                    \
  X(kB6_1, "B6.1", "naval movement needs a continuous water link")                     \
  X(kB6_2, "B6.2", "naval movement costs")                                             \
  X(kB6_3, "B6.3", "riverine movement: navigable waterways only")                      \
  X(kB6_4, "B6.4", "river flotillas keep off all-sea hexes")                           \
  X(kB6_5, "B6.5", "naval groups and their allowance")                                 \
  X(kB7_1, "B7.1", "who may attack what")                                              \
  X(kB7_2, "B7.2", "odds, the combat results table, shifts")                           \
  X(kB7_3, "B7.3", "combat results")                                                   \
  X(kB7_5, "B7.5", "retreats")                                                         \
  X(kB7_6, "B7.6", "advance after combat")                                             \
  X(kB7_7, "B7.7", "attacks one at a time, each resolved before the next")             \
  X(kB7_8, "B7.8", "exploitation")                                                     \
  X(kB8_1, "B8.1", "supply")                                                           \
  X(kB9_1, "B9.1", "ownership")                                                        \
  X(kB10_1, "B10.1", "dice")                                                           \
  X(kB10_2, "B10.2", "a drawn die stays drawn: a fair player-turn is played to its end") \
  X(kB11_1, "B11.1", "air units")                                                      \
  X(kB11_2, "B11.2", "air units escaping (Rule 41's \"Rule ???\")")                    \
  X(kB11_3, "B11.3", "air drops")                                                      \
  X(kB12_1, "B12.1", "landings (Rule 41's \"Rule 37\")")                               \
  X(kB13_1, "B13.1", "the Netherlands' surrender")                                     \
  X(kB14_1, "B14.1", "destroying bridges")                                             \
  X(kB14_2, "B14.2", "building bridges")                                               \
  X(kB15_1, "B15.1", "victory: the objectives held when the game ends")                \
  X(kB16_1, "B16.1", "reinforcements")
// clang-format on
