#include "campaign_support.h"

#include "opsim/ops/orders.h"
#include "test_support.h"

namespace opsim::ops::test {

namespace {

// 22 columns of land, then two of sea; mountains in the south-west corner; a railroad along
// row 5; a major river on 1:0407/0507. The Axis hold columns 1-11, the Allies 12-22. Zone A,
// January 1942: a 4 on the weather die is frost, a 1 clear.
const char kFields[] = R"({
  "opsim": "scenario", "version": 1, "name": "fields",
  "sheets": [{"name": "1", "size": [30, 30], "origin": [0, 0], "first": [1, 1], "zone": "A",
    "terrain": ["cccccccccccccccccccccc~~", "cccccccccccccccccccccc~~", "cccccccccccccccccccccc~~",
                "cccccccccccccccccccccc~~", "cccccccccccccccccccccc~~", "cccccccccccccccccccccc~~",
                "cccccccccccccccccccccc~~", "mmmccccccccccccccccccc~~", "mmmccccccccccccccccccc~~",
                "mmmccccccccccccccccccc~~"],
    "coast": [".....................s..", ".....................s..", ".....................s..", ".....................s..", ".....................s..", ".....................s..", ".....................s..", ".....................s..", ".....................s..", ".....................s.."]}],
  "places": [{"hex": "1:0102", "name": "West Field", "airbase": true},
             {"hex": "1:0902", "name": "East Field", "airbase": true},
             {"hex": "1:2002", "name": "Red Field", "airbase": true}],
  "hexsides": {
    "railroad": ["1:0105-0205-0305-0405-0505-0605-0705-0805-0905-1005-1105-1205-1305-1405-1505-1605-1705-1805-1905-2005-2105-2205"],
    "major-river": ["1:0407/0507"]
  },
  "state": {"control": {"axis": ["1:0101..1110"], "allied": ["1:1201..2210"]}},
  "campaign": {
    "start": "Jan I 1942", "first": "axis",
    "nationalities": {"german": "axis", "soviet": "allied"},
    "rail-capacity": {"axis": 4, "allied": 4},
    "supply-sources": {"axis": ["1:0105"], "allied": ["1:2205"]},
    "units": [],
    "air": [{"id": "lw", "name": "Luftflotte", "nationality": "german", "hex": "1:0102"}],
    "naval": [{"id": "tr", "name": "Transports", "nationality": "german", "kind": "transport", "hex": "1:2208"},
              {"id": "tf", "name": "Task force", "nationality": "german", "kind": "tf", "hex": "1:2308"}]
  }
})";

// A small campaign: canal-intensive land, the west half of it in the Netherlands.
const char kPolder[] = R"({
  "opsim": "scenario", "version": 1, "name": "polder",
  "sheets": [{"name": "1", "size": [20, 20], "origin": [0, 0], "first": [1, 1], "zone": "A",
              "terrain": ["kkkkkkkk", "kkkkkkkk", "kkkkkkkk", "kkkkkkkk", "kkkkkkkk"]}],
  "areas": [{"name": "Netherlands", "role": "netherlands", "hexes": ["1:0101..0405"]}],
  "state": {"control": {"allied": ["1:0101..0405", "1:0602..0604"], "axis": ["1:0701..0805", "1:0501..0505"]}},
  "campaign": {
    "start": "May I 1940", "first": "axis",
    "supply-sources": {"axis": ["1:0501"], "allied": ["1:0202"]},
    "nationalities": {"german": "axis", "dutch": "allied"},
    "units": [
      {"id": "nl-a", "nationality": "dutch", "type": "infantry", "attack": 1, "defense": 2, "mp": 3, "re": 1, "hex": "1:0403"},
      {"id": "nl-b", "nationality": "dutch", "type": "infantry", "attack": 1, "defense": 2, "mp": 3, "re": 1, "hex": "1:0603"},
      {"id": "de-a", "nationality": "german", "type": "infantry", "attack": 12, "defense": 4, "mp": 4, "re": 1, "hex": "1:0503"},
      {"id": "de-b", "nationality": "german", "type": "infantry", "attack": 12, "defense": 4, "mp": 4, "re": 1, "hex": "1:0703"}
    ]
  }
})";

}  // namespace

Camp Polder(std::uint64_t seed) {
  return Camp(kPolder, seed);
}

Camp Fields(std::uint64_t seed) {
  return Camp(kFields, seed);
}

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
