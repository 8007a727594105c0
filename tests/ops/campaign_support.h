// A campaign to play in tests: the bundled special-terrain campaign (or any scenario text),
// its state open to be arranged, and player-turns played from orders written inline.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opsim/ops/game.h"
#include "test_support.h"

namespace opsim::ops::test {

class Camp {
 public:
  // The bundled special-terrain campaign, or a scenario's text.
  explicit Camp(std::uint64_t seed = 7);
  Camp(const std::string& scenario_text, std::uint64_t seed);

  map::HexRef Hex(const std::string& token) const;
  map::HexsideRef Hexside(const std::string& token) const;
  const map::Theater& t() const { return *theater_; }
  Campaign& campaign() { return campaign_; }

  GameState state;

  // Removes every ground unit, to set a scene from scratch.
  void ClearUnits() { state.units.clear(); }
  GroundUnit& Add(const std::string& id, Side side, UnitType type, int attack, int defense, int mp,
                  int re_halves, const std::string& hex);
  GroundUnit& Unit(const std::string& id);
  void Own(const std::string& hex, Side side) {
    state.map.SetOwner(*theater_, Hex(hex), OwnerOf(side));
  }
  // A game at the present state, to ask queries of.
  Game AsGame() const;
  // The player-turn to play next: its serial (even: the first side's).
  void At(std::int32_t serial) { state.player_turn = serial; }
  // One die per weather zone, all showing `face` (only for a game turn's first player-turn).
  std::vector<int> Weather(int face = 1) const;

  // Plays the phasing side's player-turn from orders sections (initial, movement, combat,
  // reactions, exploitation) given as JSON, for the phasing side and date unless "side" or
  // "turn" say otherwise; on success the state moves on, on failure it stays as it was.
  Result<TurnResult> Play(const nlohmann::json& sections, const std::vector<int>& dice = {});

 private:
  void Load(const std::string& text, std::uint64_t seed);
  std::shared_ptr<const map::Theater> theater_;
  Campaign campaign_;
};

// 22 columns of open land, then two of sea; mountains in the south-west corner; a railroad along
// row 5; a major river on 1:0407/0507. The Axis hold columns 1-11, the Allies 12-22. Zone A,
// January 1942: a 4 on the weather die is frost, a 1 clear. No ground units.
Camp Fields(std::uint64_t seed = 1);
// A small campaign: canal-intensive land, the west half of it in the Netherlands; Dutch nl-a
// (1:0403) and nl-b (1:0603), German de-a (1:0503) and de-b (1:0703).
Camp Polder(std::uint64_t seed);

// Whether some event of `r` has this kind, cites this rule and says this.
bool Said(const TurnResult& r, const std::string& kind, const std::string& rule,
          const std::string& text = "");
std::string AllEvents(const TurnResult& r);

}  // namespace opsim::ops::test
