// Part of the rule-id registry (rule_ids.h): the tactical module's rules. ASL G8 (rice paddies),
// G9 (panjis) and G13 (beaches) by the book's ids; the ids of other ASL chapters they cite
// (kAsl*: chapters A, B, E and F, which these texts do not hold); and the statements of the
// samurai-era terrain chapter, numbered by opsim (SAM-*.n, docs/tactical.md). Include rule_ids.h,
// not this. Each entry: X(constant, id, title).
#pragma once

// clang-format off
#define OPSIM_TACTICAL_RULES(X)                                                            \
  X(kG8_1, "G8.1", "rice paddies: the paddy state dr")                                     \
  X(kG8_11, "G8.11", "Drained paddies")                                                    \
  X(kG8_12, "G8.12", "Irrigated paddies")                                                  \
  X(kG8_13, "G8.13", "In-Season paddies")                                                  \
  X(kG8_2, "G8.2", "entering a paddy hex: onto its banks or IN")                           \
  X(kG8_21, "G8.21", "Bank counters")                                                      \
  X(kG8_2101, "G8.2101", "onto a Bank counter across a bank hexside")                      \
  X(kG8_2102, "G8.2102", "onto a Bank counter across a non-bank hexside")                  \
  X(kG8_2103, "G8.2103", "from IN a paddy into an adjacent paddy")                         \
  X(kG8_2104, "G8.2104", "from IN a paddy onto its own Bank counter")                      \
  X(kG8_2105, "G8.2105", "from a Bank counter onto another Bank counter")                  \
  X(kG8_2106, "G8.2106", "from a Bank counter INTO the paddy beneath")                     \
  X(kG8_2107, "G8.2107", "from a Bank counter into an adjacent hex")                       \
  X(kG8_2108, "G8.2108", "from a Bank counter INTO an adjacent paddy")                     \
  X(kG8_211, "G8.211", "what a unit above a Bank counter may not do")                      \
  X(kG8_2111, "G8.2111", "Infantry above a Bank counter")                                  \
  X(kG8_2112, "G8.2112", "Cavalry and cycles at banks")                                    \
  X(kG8_212, "G8.212", "attacks on and by units above a Bank counter")                     \
  X(kG8_2121, "G8.2121", "Underbelly Hits crossing a bank hexside")                        \
  X(kG8_2122, "G8.2122", "mines and Residual FP in a paddy")                               \
  X(kG8_213, "G8.213", "SW and Guns above a Bank counter")                                 \
  X(kG8_22, "G8.22", "parachutes and gliders landing in paddies")                          \
  X(kG8_3, "G8.3", "bank hexsides as hedges for TEM")                                      \
  X(kG8_31, "G8.31", "no AFV/wreck TEM above a Bank counter")                              \
  X(kG8_4, "G8.4", "LOS over bank hexsides")                                               \
  X(kG8_5, "G8.5", "mud in paddies")                                                       \
  X(kG8_6, "G8.6", "fires in paddies")                                                     \
  X(kG8_7, "G8.7", "Fortifications in paddies")                                            \
  X(kG8_71, "G8.71", "trenches and bank hexsides")                                         \
  X(kG8_72, "G8.72", "shellholes in paddies")                                              \
  X(kG8_73, "G8.73", "no subterranean passages in Irrigated paddies")                      \
  X(kG8_8, "G8.8", "breaching a bank hexside")                                             \
  X(kG9_1, "G9.1", "panji set-up")                                                         \
  X(kG9_11, "G9.11", "panjis set up using HIP")                                            \
  X(kG9_12, "G9.12", "units that may not set up in a panji Location")                      \
  X(kG9_121, "G9.121", "trip flares in a panji Location")                                  \
  X(kG9_2, "G9.2", "panjis and LOS and TEM")                                               \
  X(kG9_21, "G9.21", "attacks by Infantry above a Panji counter")                          \
  X(kG9_211, "G9.211", "no DC above a Panji counter")                                      \
  X(kG9_3, "G9.3", "Covered hexsides")                                                     \
  X(kG9_31, "G9.31", "the Panji MC")                                                       \
  X(kG9_4, "G9.4", "entering a panji Location")                                            \
  X(kG9_41, "G9.41", "Infantry crossing a Covered hexside")                                \
  X(kG9_411, "G9.411", "manhandling across a Covered hexside")                             \
  X(kG9_42, "G9.42", "vehicles crossing a Covered hexside")                                \
  X(kG9_421, "G9.421", "towed Guns crossing a Covered hexside")                            \
  X(kG9_422, "G9.422", "horses and bicycles crossing a Covered hexside")                   \
  X(kG9_423, "G9.423", "PRC disembarking above a Panji counter")                           \
  X(kG9_43, "G9.43", "stacks crossing a Covered hexside")                                  \
  X(kG9_44, "G9.44", "Columns crossing a Covered hexside")                                 \
  X(kG9_45, "G9.45", "entry across a non-Covered hexside")                                 \
  X(kG9_46, "G9.46", "Bypass in a panji Location")                                         \
  X(kG9_47, "G9.47", "parachutes landing in a panji Location")                             \
  X(kG9_48, "G9.48", "searching a panji Location")                                         \
  X(kG9_5, "G9.5", "above and beneath a Panji counter")                                    \
  X(kG9_51, "G9.51", "becoming PRC in a panji Location")                                   \
  X(kG9_52, "G9.52", "SW, Guns and vehicles left above a Panji counter")                   \
  X(kG9_53, "G9.53", "concealment above a Panji counter")                                  \
  X(kG9_54, "G9.54", "no road bonus in a panji Location")                                  \
  X(kG9_55, "G9.55", "other Fortifications with panjis")                                   \
  X(kG9_56, "G9.56", "no Guarding prisoners above a Panji counter")                        \
  X(kG9_6, "G9.6", "exiting from above a Panji counter")                                   \
  X(kG9_7, "G9.7", "removing panjis")                                                      \
  X(kG9_71, "G9.71", "clearing a Covered hexside")                                         \
  X(kG9_72, "G9.72", "HE and DC shellholes remove panjis")                                 \
  X(kG9_73, "G9.73", "AFV and dozers beneath a Panji counter")                             \
  X(kG9_731, "G9.731", "breached paddy hexsides are not Covered")                          \
  X(kG9_74, "G9.74", "bombarding panjis")                                                  \
  X(kG13_1, "G13.1", "Beach overlays")                                                     \
  X(kG13_11, "G13.11", "Overlay Be7")                                                      \
  X(kG13_12, "G13.12", "OCEAN as ocean, lake or river")                                    \
  X(kG13_13, "G13.13", "Inherent Terrain under overlays")                                  \
  X(kG13_14, "G13.14", "Effluent overlays")                                                \
  X(kG13_15, "G13.15", "islands")                                                          \
  X(kG13_2, "G13.2", "beach elevation and slope")                                          \
  X(kG13_21, "G13.21", "Slightly Sloped beaches")                                          \
  X(kG13_22, "G13.22", "Moderately Sloped beaches")                                        \
  X(kG13_23, "G13.23", "Steeply Sloped beaches and Crest status")                          \
  X(kG13_24, "G13.24", "cliffs along the beach")                                           \
  X(kG13_3, "G13.3", "Hard and Soft sand")                                                 \
  X(kG13_31, "G13.31", "sandbars")                                                         \
  X(kG13_32, "G13.32", "sand bog")                                                         \
  X(kG13_4, "G13.4", "shallow and deep water")                                             \
  X(kG13_401, "G13.401", "Watercraft and amphibians")                                      \
  X(kG13_41, "G13.41", "non-Beach shorelines")                                             \
  X(kG13_42, "G13.42", "Wading")                                                           \
  X(kG13_421, "G13.421", "Wading Infantry and Cavalry")                                    \
  X(kG13_4211, "G13.4211", "no SW or Guns while Wading")                                   \
  X(kG13_4212, "G13.4212", "concealment gain in shallow OCEAN")                            \
  X(kG13_422, "G13.422", "Wading vehicles")                                                \
  X(kG13_4221, "G13.4221", "waterproofing")                                                \
  X(kG13_4222, "G13.4222", "the Swamping DR")                                              \
  X(kG13_4223, "G13.4223", "bog on leaving shallow OCEAN")                                 \
  X(kG13_43, "G13.43", "reefs")                                                            \
  X(kG13_431, "G13.431", "Exposed and Submerged reefs")                                    \
  X(kG13_44, "G13.44", "Heavy Surf")                                                       \
  X(kG13_441, "G13.441", "Heavy-Surf Swamping")                                            \
  X(kG13_442, "G13.442", "the Heavy-Surf (un)Beaching DR")                                 \
  X(kG13_4421, "G13.4421", "(un)Beaching effects")                                         \
  X(kG13_4422, "G13.4422", "LC wrecks and (un)Beaching")                                   \
  X(kG13_4423, "G13.4423", "boats and (un)Beaching")                                       \
  X(kG13_443, "G13.443", "(un)loading in Heavy Surf")                                      \
  X(kG13_444, "G13.444", "current and drift in Heavy Surf")                                \
  X(kG13_445, "G13.445", "attacks in Heavy Surf")                                          \
  X(kG13_446, "G13.446", "no running Aground in Heavy Surf")                               \
  X(kG13_447, "G13.447", "Wading Infantry and Cavalry in Heavy Surf")                      \
  X(kG13_448, "G13.448", "wind force in Heavy Surf")                                       \
  X(kG13_449, "G13.449", "Naval OBA in Heavy Surf")                                        \
  X(kG13_45, "G13.45", "Bore Sighting OCEAN hexes")                                        \
  X(kG13_46, "G13.46", "Watercraft entering an overlay")                                   \
  X(kG13_47, "G13.47", "SMOKE in OCEAN")                                                   \
  X(kG13_48, "G13.48", "sunk boats in shallow OCEAN")                                      \
  X(kG13_49, "G13.49", "OCEAN miscellany")                                                 \
  X(kG13_491, "G13.491", "berserk and units in OCEAN")                                     \
  X(kG13_492, "G13.492", "parachutes and gliders in shallow OCEAN")                        \
  X(kG13_493, "G13.493", "rubble in shallow OCEAN")                                        \
  X(kG13_494, "G13.494", "frozen OCEAN")                                                   \
  X(kG13_495, "G13.495", "no CC in non-frozen OCEAN")                                      \
  X(kG13_5, "G13.5", "Fortifications in OCEAN and reefs")                                  \
  X(kG13_6, "G13.6", "seawalls")                                                           \
  X(kG13_61, "G13.61", "high seawalls")                                                    \
  X(kG13_62, "G13.62", "low seawalls")                                                     \
  X(kG13_621, "G13.621", "crossing a low seawall")                                         \
  X(kG13_622, "G13.622", "LOS across a low seawall")                                       \
  X(kG13_623, "G13.623", "TEM of a low seawall")                                           \
  X(kG13_624, "G13.624", "breaching a low seawall")                                        \
  X(kG13_625, "G13.625", "fascines on a low seawall")                                      \
  X(kG13_7, "G13.7", "piers")                                                              \
  X(kG13_71, "G13.71", "LOS under and over piers")                                         \
  X(kG13_711, "G13.711", "large vehicles seen past piers")                                 \
  X(kG13_72, "G13.72", "TEM on and beneath piers")                                         \
  X(kG13_73, "G13.73", "entering and leaving piers")                                       \
  X(kG13_731, "G13.731", "(un)loading LC and amphibians at piers")                         \
  X(kG13_732, "G13.732", "(un)loading boats at piers")                                     \
  X(kG13_733, "G13.733", "SW carried onto and off piers")                                  \
  X(kG13_734, "G13.734", "no drifting into a pier hex")                                    \
  X(kG13_8, "G13.8", "beach miscellany")                                                   \
  X(kG13_81, "G13.81", "no Bypass along Beach and OCEAN overlay hexsides")                 \
  X(kG13_82, "G13.82", "Coral Soil")                                                       \
  X(kG13_83, "G13.83", "Straying towards the beach at night")                              \
  X(kG13_84, "G13.84", "casualty VP for Watercraft losses")                                \
  X(kG13_9, "G13.9", "DYO beach scenarios")                                                \
  X(kG13_91, "G13.91", "DYO reef")                                                         \
  X(kG13_92, "G13.92", "DYO beach slope")                                                  \
  X(kG13_93, "G13.93", "DYO beach width")                                                  \
  X(kG13_94, "G13.94", "DYO purchases")                                                    \
  X(kG13_95, "G13.95", "DYO defender set-up")                                              \
  X(kG13_96, "G13.96", "DYO UDT")                                                          \
  X(kG13_97, "G13.97", "DYO tide")                                                         \
  X(kG13_98, "G13.98", "DYO surf")                                                         \
  X(kG13_99, "G13.99", "DYO attacker set-up")                                              \
  X(kAslA4_1, "A4.1", "ASL A4.1: a unit's movement allowance")                             \
  X(kAslA4_3, "A4.3", "ASL A4.3: Bypass is movement around obstacles")                     \
  X(kAslA4_5, "A4.5", "ASL A4.5: Double Time")                                             \
  X(kAslA6, "A6", "ASL A6: LOS hindrances")                                                \
  X(kAslB9_21, "B9.21", "ASL B9.21 (G8.4): entrenched units, hedges and walls for LOS")    \
  X(kAslB9_3, "B9.3", "ASL B9.3 (G8.3, G13.62): hedge and wall TEM")                       \
  X(kAslB9_34, "B9.34", "ASL B9.34 (G13.62): walls against indirect fire")                 \
  X(kAslB25, "B25", "ASL B25: Blazes")                                                     \
  X(kAslB27, "B27", "ASL B27: foxholes and trenches")                                      \
  X(kAslE3_64, "E3.64", "ASL E3.64: mud on Open Ground")                                   \
  X(kAslE5_531, "E5.531", "ASL E5.531: sunk boats")                                        \
  X(kAslF7_4, "F7.4", "ASL F7.4: Soft Sand against fire")                                  \
  X(kAslF7_42, "F7.42", "ASL F7.42: entrenching in Soft Sand")                             \
  X(kSamIntro_1, "SAM-INTRO.1", "terrain may grant bonuses, reduce movement, block LOS")   \
  X(kSamIntro_2, "SAM-INTRO.2", "Ambush only in the right terrain")                        \
  X(kSamIntro_3, "SAM-INTRO.3", "movement reductions apply on entering the hex")           \
  X(kSamPL_1, "SAM-PL.1", "plains do not block LOS")                                       \
  X(kSamPL_2, "SAM-PL.2", "no Ambush in plains")                                           \
  X(kSamLW_1, "SAM-LW.1", "light woods block LOS")                                         \
  X(kSamLW_2, "SAM-LW.2", "no Run into light woods")                                       \
  X(kSamLW_3, "SAM-LW.3", "Assault and Move and Fire reduced in light woods")              \
  X(kSamLW_4, "SAM-LW.4", "all may Ambush in light woods")                                 \
  X(kSamHW_1, "SAM-HW.1", "heavy woods block LOS")                                         \
  X(kSamHW_2, "SAM-HW.2", "no Assault or Run into heavy woods")                            \
  X(kSamHW_3, "SAM-HW.3", "no cavalry in heavy woods")                                     \
  X(kSamHW_4, "SAM-HW.4", "infantry may Ambush in heavy woods")                            \
  X(kSamRF_1, "SAM-RF.1", "rice fields do not block LOS")                                  \
  X(kSamRF_2, "SAM-RF.2", "no Run into rice fields")                                       \
  X(kSamRF_3, "SAM-RF.3", "Assault and Move and Fire reduced in rice fields")              \
  X(kSamRF_4, "SAM-RF.4", "no Ambush in rice fields")                                      \
  X(kSamRV_1, "SAM-RV.1", "rivers do not block LOS")                                       \
  X(kSamRV_2, "SAM-RV.2", "crossing a river takes a Loss Test")                            \
  X(kSamRV_3, "SAM-RV.3", "the Loss Test is made on entering the river")                   \
  X(kSamRV_4, "SAM-RV.4", "entering a river takes the whole turn, but for Ninja")          \
  X(kSamRV_5, "SAM-RV.5", "leaving a river: March only, reduced")                          \
  X(kSamRV_6, "SAM-RV.6", "melee when entering a river next to an enemy")                  \
  X(kSamLT_1, "SAM-LT.1", "the Loss Test: a d20 per model")                                \
  X(kSamLT_2, "SAM-LT.2", "Defense Value does not affect Loss Test casualties")            \
  X(kSamLT_3, "SAM-LT.3", "a Fortitude Test after Loss Test casualties")                   \
  X(kSamFD_1, "SAM-FD.1", "fords do not block LOS")                                        \
  X(kSamFD_2, "SAM-FD.2", "no Loss Test at a ford")                                        \
  X(kSamFD_3, "SAM-FD.3", "no Run into a ford")                                            \
  X(kSamFD_4, "SAM-FD.4", "Assault and Move and Fire reduced at a ford")                   \
  X(kSamFD_5, "SAM-FD.5", "no Ambush at a ford")                                           \
  X(kSamBR_1, "SAM-BR.1", "bridges do not block LOS")                                      \
  X(kSamBR_2, "SAM-BR.2", "no Run onto a bridge")                                          \
  X(kSamBR_3, "SAM-BR.3", "Assault and Move and Fire reduced on a bridge")                 \
  X(kSamBR_4, "SAM-BR.4", "no Ambush on a bridge")                                         \
  X(kSamRA_1, "SAM-RA.1", "ravines do not block LOS")                                      \
  X(kSamRA_2, "SAM-RA.2", "no cavalry in ravines")                                         \
  X(kSamRA_3, "SAM-RA.3", "no infantry Run into ravines")                                  \
  X(kSamRA_4, "SAM-RA.4", "infantry Assaulting from a ravine moves 1 hex")                 \
  X(kSamRA_5, "SAM-RA.5", "a unit in a ravine sees and is seen only from adjacent hexes")  \
  X(kSamRG_1, "SAM-RG.1", "rocky ground does not block LOS")                               \
  X(kSamRG_2, "SAM-RG.2", "no Run into rocky ground")                                      \
  X(kSamRG_3, "SAM-RG.3", "Assault and Move and Fire reduced in rocky ground")             \
  X(kSamRG_4, "SAM-RG.4", "no Ambush in rocky ground")                                     \
  X(kSamRG_5, "SAM-RG.5", "cavalry may not climb a hill into rocky ground")                \
  X(kSamVI_1, "SAM-VI.1", "villages block LOS")                                            \
  X(kSamVI_2, "SAM-VI.2", "all may Ambush in villages")
// clang-format on
