#include "campaign_support.h"

#include "opsim/ops/orders.h"
#include "test_support.h"

namespace opsim::ops::test {

Camp::Camp(std::uint64_t seed) {
  Load(opsim::test::ReadFile(opsim::test::BundledPath("special-terrain")), seed);
}

Camp::Camp(const std::string& scenario_text, std::uint64_t seed) {
  Load(scenario_text, seed);
}

void Camp::Load(const std::string& text, std::uint64_t seed) {
  auto src = JsonSource::FromText(text, "campaign.json");
  if (!src) {
    ADD_FAILURE() << src.error().to_string();
    return;
  }
  auto sc = map::LoadScenario(*src);
  if (!sc) {
    ADD_FAILURE() << sc.error().to_string();
    return;
  }
  auto c = LoadCampaign(*src, *sc, seed);
  if (!c) {
    ADD_FAILURE() << c.error().to_string();
    return;
  }
  campaign_ = std::move(*c);
  state = campaign_.initial;
  theater_ = std::make_shared<const map::Theater>(std::move(sc->theater));
}

map::HexRef Camp::Hex(const std::string& token) const {
  auto h = theater_->FindHex(token);
  EXPECT_TRUE(h) << token;
  return h ? *h : map::HexRef{};
}

map::HexsideRef Camp::Hexside(const std::string& token) const {
  auto s = theater_->FindHexside(token);
  EXPECT_TRUE(s) << token;
  return s ? *s : map::HexsideRef{};
}

GroundUnit& Camp::Add(const std::string& id, Side side, UnitType type, int attack, int defense,
                      int mp, int re_halves, const std::string& hex) {
  GroundUnit u;
  u.id = id;
  u.name = id;
  u.side = side;
  u.nationality = side == Side::kAxis ? "german" : "soviet";
  u.type = type;
  u.attack = attack;
  u.defense = defense;
  u.mp = mp;
  u.re_halves = re_halves;
  u.hex = Hex(hex);
  state.units.push_back(u);
  return state.units.back();
}

GroundUnit& Camp::Unit(const std::string& id) {
  GroundUnit* u = state.FindUnit(id);
  EXPECT_NE(u, nullptr) << id;
  return *u;
}

std::vector<int> Camp::Weather(int face) const {
  return std::vector<int>(theater_->weather_zones().size(), face);
}

Game Camp::AsGame() const {
  return Game(theater_, std::make_shared<const Campaign>(campaign_), state);
}

Result<TurnResult> Camp::Play(const nlohmann::json& sections, const std::vector<int>& dice) {
  nlohmann::json orders = sections;
  orders["opsim"] = "orders";
  orders["version"] = 1;
  if (!orders.contains("side")) orders["side"] = SideName(state.phasing());
  if (!orders.contains("turn")) orders["turn"] = FormatGameDate(state.date());
  if (!dice.empty()) orders["dice"] = dice;
  auto src = JsonSource::FromText(orders.dump(1), "orders.json");
  if (!src) return std::unexpected(src.error());
  auto parsed = ParseOrders(*src, *theater_);
  if (!parsed) return std::unexpected(parsed.error());
  Game game(theater_, std::make_shared<const Campaign>(campaign_), state);
  auto r = game.Play(*parsed);
  if (r) state = game.state();
  return r;
}

bool Said(const TurnResult& r, const std::string& kind, const std::string& rule,
          const std::string& text) {
  for (const Event& e : r.events) {
    if (e.kind == kind && e.rule.id == rule && e.text.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string AllEvents(const TurnResult& r) {
  std::string out;
  for (const Event& e : r.events) {
    out += e.kind + " [" + std::string(e.rule.id) + "] " + e.text + "\n";
  }
  return out;
}

}  // namespace opsim::ops::test
