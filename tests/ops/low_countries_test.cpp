// The bundled low-countries-1940 campaign (scenarios/low-countries-1940.json): it loads and plays,
// and Rule 41's locales in it stand where history put them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "campaign_support.h"
#include "test_support.h"

namespace opsim::ops {
namespace {

using test::Camp;

const std::string kCampaign = "low-countries-1940";

Camp LowCountries() {
  return Camp(opsim::test::ReadFile(opsim::test::BundledPath(kCampaign)), 1940);
}

map::HexRef PlaceNamed(const map::Theater& t, const std::string& name) {
  for (const map::Place& p : t.places()) {
    if (p.name == name) return p.hex;
  }
  ADD_FAILURE() << "no place named " << name;
  return {};
}

// The campaign loads (theater, order of battle, stacking B3.2 checked by the loader) at about a
// thousand land hexes, with both sides' armies of 10 May 1940.
TEST(LowCountries1940, LoadsWithBothArmies) {
  Camp c = LowCountries();
  const auto land = std::count_if(c.t().hexes().begin(), c.t().hexes().end(),
                                  [](const map::HexInfo& h) { return !h.IsWater(); });
  EXPECT_GE(land, 700);
  std::map<Side, int> units;
  for (const auto& u : c.state.units) ++units[u.side];
  EXPECT_GE(units[Side::kAxis], 30);
  EXPECT_GE(units[Side::kAllied], 50);
  EXPECT_FALSE(c.state.netherlands_surrendered);
}

// 41.A.1: the Afsluitdijk, Den Oever to Zurich, is a road across the IJsselmeer's lake hexside,
// so a causeway; ground units cross it as a major river.
TEST(LowCountries1940, Rule41A1_TheAfsluitdijkIsACauseway) {
  Camp c = LowCountries();
  const map::HexsideInfo& dike = c.t().hexside(c.Hexside("LC:3202/3302"));
  EXPECT_TRUE(dike.Has(map::kCauseway));
  EXPECT_TRUE(dike.Has(map::kRoad));
  EXPECT_EQ(dike.water, map::HexsideWater::kLake);
  EXPECT_EQ(c.t().hex(c.Hex("LC:3303")).terrain, map::Terrain::kLake);  // the IJsselmeer
  int causeways = 0;
  for (const map::HexsideInfo& s : c.t().hexsides()) causeways += s.Has(map::kCauseway) ? 1 : 0;
  EXPECT_EQ(causeways, 1);
  // Den Oever to Zurich on foot: the causeway's major river (2 MP) plus the road's 1/2 MP.
  const auto route = opsim::test::CliJson({"route", "--scenario", kCampaign, "--mode", "ground",
                                           "--unit", "infantry", "--path", "LC:3202,LC:3302"});
  EXPECT_EQ(route["legal"], true);
  EXPECT_EQ(route["cost"], 2.5);
  EXPECT_EQ(route["steps"][0][0]["rule"], "41.A.1") << route.dump();
}

// 41.A.4: the canal-intensive hexes are the Dutch polders, every one of them in the area with the
// `netherlands` role (so 41.A.4.b's massive flooding and B13's surrender apply there), and
// Fortress Holland's cities stand on them.
TEST(LowCountries1940, Rule41A4_TheCanalIntensiveHexesAreTheNetherlands) {
  Camp c = LowCountries();
  int canal_intensive = 0;
  for (std::uint32_t v = 0; v < c.t().hex_count(); ++v) {
    const map::HexRef h{v};
    if (c.t().hex(h).terrain != map::Terrain::kCanalIntensive) continue;
    ++canal_intensive;
    EXPECT_TRUE(c.t().InRole(h, map::AreaRole::kNetherlands)) << c.t().HexName(h);
  }
  EXPECT_GE(canal_intensive, 20);
  for (const char* city : {"Amsterdam", "Rotterdam", "The Hague", "Utrecht"}) {
    const map::HexRef h = PlaceNamed(c.t(), city);
    EXPECT_EQ(c.t().hex(h).terrain, map::Terrain::kCanalIntensive) << city;
    EXPECT_TRUE(c.t().InRole(h, map::AreaRole::kNetherlands)) << city;
  }
  EXPECT_FALSE(c.t().InRole(PlaceNamed(c.t(), "Antwerp"), map::AreaRole::kNetherlands));
}

// Rotterdam is a major port, up the Nieuwe Maas; the Channel ports are on the sea.
TEST(LowCountries1940, RotterdamAndTheChannelPortsArePorts) {
  Camp c = LowCountries();
  const map::HexInfo& rotterdam = c.t().hex(PlaceNamed(c.t(), "Rotterdam"));
  EXPECT_EQ(rotterdam.port, map::PortSize::kMajor);
  EXPECT_EQ(rotterdam.city, map::CityKind::kFullMajor);
  for (const char* port : {"Dunkirk", "Calais", "Boulogne", "Le Havre", "Cherbourg", "Brest"}) {
    const map::HexInfo& h = c.t().hex(PlaceNamed(c.t(), port));
    EXPECT_NE(h.port, map::PortSize::kNone) << port;
    EXPECT_TRUE(h.HasSea()) << port;
  }
}

// B6.3: the inland ports are reached from the sea along their navigable waterways: Antwerp by the
// Western Scheldt, Rotterdam by the Nieuwe Waterweg, Amsterdam by the North Sea Canal, Rouen by
// the lower Seine.
TEST(LowCountries1940, TheInlandPortsAreReachedFromTheSeaAlongTheirWaterways) {
  Camp c = LowCountries();
  for (const auto& [sea, port] : {std::pair<std::string, std::string>{"LC:2708", "Antwerp"},
                                  {"LC:2807", "Rotterdam"},
                                  {"LC:2905", "Amsterdam"},
                                  {"LC:1617", "Rouen"}}) {
    const map::HexInfo& h = c.t().hex(PlaceNamed(c.t(), port));
    EXPECT_TRUE(h.inland_port && !h.HasSea()) << port;
    const auto route = opsim::test::CliJson({"route", "--scenario", kCampaign, "--mode", "naval",
                                             "--side", "allied", "--group", "transport", "--from",
                                             sea, "--to", c.t().HexName(PlaceNamed(c.t(), port))});
    EXPECT_EQ(route["reachable"], true) << port << ": " << route.dump();
  }
}

// The Maas is a major river at Maastricht (the bridges the 6th Army crossed on 10 May), and the
// Albert Canal a canal beside it.
TEST(LowCountries1940, TheMaasIsAMajorRiverAtMaastricht) {
  Camp c = LowCountries();
  const map::HexRef maastricht = PlaceNamed(c.t(), "Maastricht");
  int major = 0;
  int canal = 0;
  for (map::Dir d : map::kAllDirs) {
    const map::HexsideRef s = c.t().HexsideAt(maastricht, d);
    if (!s.valid()) continue;
    major += c.t().hexside(s).Has(map::kMajorRiver) ? 1 : 0;
    canal += c.t().hexside(s).Has(map::kCanal) ? 1 : 0;
  }
  EXPECT_GE(major, 1);
  EXPECT_GE(canal, 1);
}

// The bundled orders play legally with --seed 1940 into a turn log, and the log replays with
// --verify.
TEST(LowCountries1940, TheBundledOrdersPlayAndTheLogReplays) {
  opsim::test::TempDir dir;
  const std::string log = dir.Path("lc.sqlite");
  auto made = opsim::test::RunCli({"new", "--scenario", kCampaign, "--db", log, "--seed", "1940"});
  ASSERT_EQ(made.code, 0) << made.err;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(OPSIM_SCENARIO_DIR) +
                                                           "/orders/" + kCampaign)) {
    files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 2u);
  for (const std::string& file : files) {
    auto turn = opsim::test::RunCli({"turn", "--db", log, "--orders", file});
    ASSERT_EQ(turn.code, 0) << file << ": " << turn.err;
  }
  auto replay = opsim::test::RunCli({"replay", "--db", log, "--verify"});
  EXPECT_EQ(replay.code, 0) << replay.err;
  // B15.1: the status counts each side's objectives; the opening leaves the game going.
  const nlohmann::json v = opsim::test::CliJson({"status", "--db", log})["victory"];
  int axis = 0, allied = 0;
  for (const auto& o : v["objectives"]) {
    if (o["owner"] == "axis") axis += o["points"].get<int>();
    if (o["owner"] == "allied") allied += o["points"].get<int>();
  }
  EXPECT_EQ(v["points"]["axis"], axis);
  EXPECT_EQ(v["points"]["allied"], allied);
  EXPECT_EQ(v["over"], false);
  EXPECT_EQ(v["rule"], "B15.1");
  EXPECT_EQ(v["end"], "Jun II 1940");
  const nlohmann::json start =
      opsim::test::CliJson({"status", "--db", log, "--at", "0"})["victory"];
  EXPECT_EQ(start["points"]["axis"], 0);
  EXPECT_EQ(start["points"]["allied"], 71);  // every objective is Allied on 10 May 1940
  EXPECT_EQ(start["result"], "Allied victory: the front holds before the Somme");
  // 41.B: a theater without the Suez Canal says nothing of it; the text names the victory.
  EXPECT_FALSE(opsim::test::CliJson({"status", "--db", log}).contains("suez"));
  const auto text = opsim::test::RunCli({"status", "--db", log});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_EQ(text.out.find("Suez"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("B15.1"), std::string::npos) << text.out;
}

// B15.1: objectives count for their owner; the first level reached is the result; the game is
// over once the end's game turn is played.
TEST(LowCountries1940, B15_1_VictoryIsTheObjectivesHeldAtTheEnd) {
  Camp c = LowCountries();
  ASSERT_TRUE(c.campaign().victory);
  const Victory& v = *c.campaign().victory;
  auto own = [&](std::initializer_list<const char*> names) {
    for (const char* name : names) {
      const map::HexRef h = PlaceNamed(c.t(), name);
      c.state.map.SetOwner(c.t(), h, Owner::kAxis);
    }
  };
  auto points = [&] { return VictoryPoints(v, c.state)[static_cast<int>(Side::kAxis)]; };
  EXPECT_EQ(points(), 0);
  EXPECT_EQ(VictoryStanding(v, VictoryPoints(v, c.state)).side, Side::kAllied);
  own({"Amsterdam", "Rotterdam", "The Hague", "Utrecht", "Antwerp", "Brussels", "Liège"});
  EXPECT_EQ(points(), 28);  // 4 + 4 + 4 + 3 + 5 + 5 + 3
  EXPECT_EQ(VictoryStanding(v, VictoryPoints(v, c.state)).side, Side::kAllied);
  own({"Dunkirk"});
  EXPECT_EQ(points(), 31);
  EXPECT_EQ(VictoryStanding(v, VictoryPoints(v, c.state)).result,
            "Axis victory: the Low Countries are overrun and the Channel is reached");
  own({"Paris", "Amiens", "Rouen", "Reims", "Sedan"});
  EXPECT_EQ(points(), 58);
  EXPECT_EQ(VictoryStanding(v, VictoryPoints(v, c.state)).points, 55);
  // The end is Jun II 1940: over once its second player-turn is played.
  c.At(7);  // Jun II 1940, the Allied player-turn
  EXPECT_FALSE(GameOver(v, c.state));
  c.At(8);  // Jul I 1940
  EXPECT_TRUE(GameOver(v, c.state));
}

// B15.1: a victory section is checked like the rest of the file.
TEST(LowCountries1940, B15_1_AVictorySectionIsChecked) {
  nlohmann::json scenario =
      nlohmann::json::parse(opsim::test::ReadFile(opsim::test::BundledPath(kCampaign)));
  scenario["campaign"]["victory"]["levels"].erase(2);
  opsim::test::TempDir dir;
  opsim::test::WriteFile(dir.Path("v.json"), scenario.dump(1));
  const auto r = opsim::test::RunCli({"scenario", "check", dir.Path("v.json")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/campaign/victory/levels: the last level needs 0 points"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace opsim::ops
