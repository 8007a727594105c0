// The one door for writes (opsim/query/play.h), as the server walks through it with a hosted
// game: made with its scenario's hash, orders checked on the warm game with their rule before
// the log is touched, the reply logging the player-turn with both keys, and the dice anyone may
// check them against (log.h AnswerDice).
#include <gtest/gtest.h>

#include "opsim/core/fair_dice.h"
#include "opsim/core/json_source.h"
#include "opsim/core/sha256.h"
#include "opsim/query/check.h"
#include "opsim/query/log.h"
#include "opsim/query/play.h"
#include "opsim/query/source.h"
#include "test_support.h"

namespace opsim::query {
namespace {

using nlohmann::json;

class DoorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    secrets_ = {*NewSecret(), *NewSecret()};
    scenario_.emplace(*JsonSource::FromFile(test::BundledPath("special-terrain")));
    address_ = dir_.Path("hosted.sqlite");
    auto made = NewHostedGame(address_, *scenario_, "g1", KeyHex(ChainKey(secrets_.axis, 0)),
                              KeyHex(ChainKey(secrets_.allied, 0)));
    ASSERT_TRUE(made) << made.error().to_string();
    made_sha_ = made->scenario_sha256;
    json o = json::parse(test::ReadFile(std::string(OPSIM_SCENARIO_DIR) +
                                        "/orders/special-terrain/01-axis-may-i-1940.json"));
    reply_ = json{{"reactions", o["reactions"]}}.dump();
    o.erase("reactions");
    orders_ = o.dump();
  }
  LoadedGame Warm() const {
    Source s;
    s.db = address_;
    auto g = Load(s);
    EXPECT_TRUE(g) << g.error().to_string();
    return std::move(*g);
  }
  static JsonSource Body(const std::string& text) { return *JsonSource::FromText(text, "body"); }

  test::TempDir dir_;
  db::FairSecrets secrets_;
  std::optional<JsonSource> scenario_;
  std::string address_, made_sha_, orders_, reply_;
};

TEST_F(DoorTest, ANewHostedGameAnswersItsScenariosHashAsTheLogKeepsIt) {
  EXPECT_EQ(made_sha_, Sha256Hex(scenario_->text()));
  EXPECT_EQ(ScenarioSha256(address_).value_or(""), made_sha_);
  EXPECT_FALSE(PendingOrders(address_).value_or(json{}));
  EXPECT_FALSE(StepsInPlay(address_).value_or(std::size_t{1}));
}

TEST_F(DoorTest, OrdersTheRulesRefuseAreRefusedWithTheirRuleAndNothingIsPending) {
  json bad = json::parse(orders_);
  // B4: beyond the panzer's movement allowance.
  bad["movement"] = json::array(
      {{{"units", {"de-9pz"}},
        {"path",
         {"16A:1323", "16A:1223", "16A:1123", "16A:1023", "16A:0923", "16A:0823", "16A:0723"}}}});
  bad.erase("combat");
  auto refused = SubmitOrders(Warm(), address_, Body(bad.dump()));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kRuleViolation) << refused.error().to_string();
  EXPECT_EQ(refused.error().rule.substr(0, 2), "B4") << refused.error().to_string();
  auto pending = PendingOrders(address_);
  ASSERT_TRUE(pending) << pending.error().to_string();
  EXPECT_FALSE(*pending);
}

// The dry run judges the orders on the server's warm game; the checks under the log's lock are
// made on the game as the log stands. A warm game that is not the log's (here: uk-7ad moved by a
// what-if) passes the dry run, and the log's own state still refuses the orders with their rule.
// In the second player-turn of a game turn: in the first, nothing is judged before the weather's
// die (B2.1, ops::LegalBeforeDice).
TEST_F(DoorTest, OrdersJudgedOnAWarmGameThatIsNotTheLogsAreCheckedAgainOnTheLogs) {
  ASSERT_TRUE(SubmitOrders(Warm(), address_, Body(orders_)));
  ASSERT_TRUE(ReplyToOrders(address_, secrets_, Body(reply_)));
  Source moved;
  moved.db = address_;
  moved.overrides = {"unit:uk-7ad=19A:3016"};
  auto warm = Load(moved);
  ASSERT_TRUE(warm) << warm.error().to_string();
  const json orders = {{"opsim", "orders"},
                       {"version", 1},
                       {"side", "allied"},
                       {"turn", "May I 1940"},
                       {"movement", {{{"units", {"uk-7ad"}}, {"path", {"19A:3016", "19A:2916"}}}}}};
  auto dry = AnswerDryRun(*warm, Body(orders.dump()));
  ASSERT_TRUE(dry && dry->legal()) << "the orders must pass on the warm game";
  auto refused = SubmitOrders(*warm, address_, Body(orders.dump()));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kRuleViolation) << refused.error().to_string();
  EXPECT_EQ(refused.error().rule.substr(0, 2), "B4") << refused.error().to_string();
  EXPECT_FALSE(PendingOrders(address_).value_or(json{1}));
  // On the log's own game the same orders are refused by the dry run already.
  EXPECT_FALSE(SubmitOrders(Warm(), address_, Body(orders.dump())));
}

TEST_F(DoorTest, OrdersThenReplyLogThePlayerTurnAndItsDiceShowBothKeys) {
  auto submitted = SubmitOrders(Warm(), address_, Body(orders_));
  ASSERT_TRUE(submitted) << submitted.error().to_string();
  EXPECT_EQ((*submitted)["number"], 1);
  auto pending = PendingOrders(address_);
  ASSERT_TRUE(pending && *pending);
  EXPECT_EQ((**pending)["stage"], "moved");
  // The same orders again, or others: one set of orders a player-turn.
  auto again = SubmitOrders(Warm(), address_, Body(orders_));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::kWrongTurn);

  auto played = ReplyToOrders(address_, secrets_, Body(reply_));
  ASSERT_TRUE(played) << played.error().to_string();
  EXPECT_EQ(played->doc["number"], 1);
  EXPECT_FALSE(PendingOrders(address_).value_or(json{}));

  auto dice = AnswerDice(address_);
  ASSERT_TRUE(dice) << dice.error().to_string();
  EXPECT_EQ((*dice)["dice"], "fair");
  EXPECT_EQ((*dice)["game_id"], "g1");
  EXPECT_EQ((*dice)["axis_commitment"], KeyHex(ChainKey(secrets_.axis, 0)));
  ASSERT_EQ((*dice)["turns"].size(), 1u);
  const json& turn = (*dice)["turns"][0];
  EXPECT_EQ(turn["number"], 1);
  EXPECT_EQ(turn["axis_key"], KeyHex(ChainKey(secrets_.axis, 1)));
  EXPECT_EQ(turn["allied_key"], KeyHex(ChainKey(secrets_.allied, 1)));
  EXPECT_EQ(turn["reply_hash"], Sha256Hex(json::parse(reply_).dump()));
}

TEST_F(DoorTest, ASeededGamesDiceAreItsSeedAndItsStepsAreTakenThroughTheDoor) {
  const std::string seeded = dir_.Path("seeded.sqlite");
  auto game = NewGame(seeded, *scenario_, 7);
  ASSERT_TRUE(game) << game.error().to_string();
  EXPECT_EQ(AnswerDice(seeded).value_or(json{}), (json{{"dice", "seeded"}, {"seed", 7}}));
  // Only looked at: a step is refused and nothing is in play.
  auto look = OpenSteps(seeded, nullptr, false);
  ASSERT_TRUE(look) << look.error().to_string();
  EXPECT_FALSE(look->Take(Body(R"({"end-phase": true})"), Side::kAxis));
  EXPECT_FALSE(StepsInPlay(seeded).value_or(std::size_t{1}));
  // Written through: the step is in play.
  auto session = OpenSteps(seeded, nullptr, true);
  ASSERT_TRUE(session) << session.error().to_string();
  auto step = session->Take(Body(R"({"end-phase": true})"), Side::kAxis);
  ASSERT_TRUE(step) << step.error().to_string();
  EXPECT_EQ(StepsInPlay(seeded).value_or(std::nullopt), std::optional<std::size_t>(1));
}

}  // namespace
}  // namespace opsim::query
