// A hosted fair game (db/pbem.h HostMove, HostResolve; docs/api.md): one server holds both
// players' secrets. Its orders become pending, the defender's reply plays the player-turn with
// both keys, the log verifies; each step out of order is refused with nothing written.
#include <gtest/gtest.h>

#include "opsim/core/fair_dice.h"
#include "opsim/core/json_source.h"
#include "opsim/core/sha256.h"
#include "opsim/db/game_log.h"
#include "opsim/db/pbem.h"
#include "opsim/db/turn_log.h"
#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;

class HostedGame : public ::testing::Test {
 protected:
  void SetUp() override {
    axis_ = *NewSecret();
    allied_ = *NewSecret();
    auto scenario = JsonSource::FromFile(test::BundledPath("special-terrain"));
    ASSERT_TRUE(scenario);
    db_ = dir_.Path("game.sqlite");
    auto g = db::NewFairLoggedGame(db_, *scenario, "g1", KeyHex(ChainKey(axis_, 0)),
                                   KeyHex(ChainKey(allied_, 0)));
    ASSERT_TRUE(g) << g.error().to_string();
    json o = json::parse(test::ReadFile(std::string(OPSIM_SCENARIO_DIR) +
                                        "/orders/special-terrain/01-axis-may-i-1940.json"));
    reply_ = json{{"reactions", o["reactions"]}}.dump();
    o.erase("reactions");
    orders_ = o.dump();
  }

  static JsonSource Src(const std::string& text) { return *JsonSource::FromText(text, "body"); }
  std::string Head() const {
    auto log = db::TurnLog::Open(db_, db::TurnLog::Access::kRead);
    auto meta = log->Meta();
    return (*meta)["head_hash"] + "|" + (meta->count("pbem_pending") ? "pending" : "");
  }

  test::TempDir dir_;
  std::string db_, orders_, reply_;
  Key axis_{}, allied_{};
};

TEST_F(HostedGame, OrdersThenReplyLogThePlayerTurnWithBothKeysAndTheLogVerifies) {
  auto moved = db::pbem::HostMove(db_, Src(orders_));
  ASSERT_TRUE(moved) << moved.error().to_string();
  EXPECT_EQ((*moved)["number"], 1);
  EXPECT_FALSE(moved->contains("orders"));
  auto pending = db::pbem::Pending(db_);
  ASSERT_TRUE(pending && *pending);
  EXPECT_EQ((**pending)["stage"], "moved");

  auto played = db::pbem::HostResolve(db_, axis_, allied_, Src(reply_));
  ASSERT_TRUE(played) << played.error().to_string();
  EXPECT_EQ(played->doc["number"], 1);
  auto after = db::pbem::Pending(db_);
  ASSERT_TRUE(after);
  EXPECT_FALSE(*after);
  auto log = db::TurnLog::Open(db_, db::TurnLog::Access::kRead);
  auto turn = log->ReadTurn(1);
  ASSERT_TRUE(turn);
  EXPECT_EQ(turn->axis_key, KeyHex(ChainKey(axis_, 1)));
  EXPECT_EQ(turn->allied_key, KeyHex(ChainKey(allied_, 1)));
  EXPECT_EQ(turn->reply_hash, Sha256Hex(json::parse(reply_).dump()));
  db::ReplayOptions verify;
  verify.verify = true;
  auto replay = db::ReplayLog(db_, verify);
  EXPECT_TRUE(replay) << replay.error().to_string();
}

TEST_F(HostedGame, StepsOutOfOrderAreRefusedAndWriteNothing) {
  std::string before = Head();
  auto early = db::pbem::HostResolve(db_, axis_, allied_, Src("{}"));
  ASSERT_FALSE(early);
  EXPECT_EQ(early.error().code, ErrorCode::kWrongTurn);
  EXPECT_EQ(Head(), before);

  json with_reply = json::parse(orders_);
  with_reply["reactions"] = json::parse(reply_)["reactions"];
  auto mixed = db::pbem::HostMove(db_, Src(with_reply.dump()));
  ASSERT_FALSE(mixed);
  EXPECT_EQ(mixed.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(Head(), before);

  ASSERT_TRUE(db::pbem::HostMove(db_, Src(orders_)));
  before = Head();
  auto again = db::pbem::HostMove(db_, Src(orders_));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::kWrongTurn);

  auto extra = db::pbem::HostResolve(db_, axis_, allied_, Src(R"({"movement": []})"));
  ASSERT_FALSE(extra);
  EXPECT_EQ(extra.error().code, ErrorCode::kInvalidInput);

  // B7.5: retreat preferences for a hex where the defender has no unit.
  auto retreat = db::pbem::HostResolve(
      db_, axis_, allied_, Src(R"({"retreats": [{"hex": "16A:1323", "prefer": ["16A:1322"]}]})"));
  ASSERT_FALSE(retreat);
  EXPECT_EQ(retreat.error().rule, "B7.5");

  // A secret that is not the committed one is caught before anything is logged.
  auto wrong = db::pbem::HostResolve(db_, allied_, axis_, Src(reply_));
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().code, ErrorCode::kCorruption);
  EXPECT_EQ(Head(), before);
}

TEST_F(HostedGame, ASeededLogIsNotHosted) {
  const std::string seeded = dir_.Path("seeded.sqlite");
  auto scenario = JsonSource::FromFile(test::BundledPath("special-terrain"));
  ASSERT_TRUE(db::NewLoggedGame(seeded, *scenario, 1940));
  auto moved = db::pbem::HostMove(seeded, Src(orders_));
  ASSERT_FALSE(moved);
  EXPECT_EQ(moved.error().code, ErrorCode::kInvalidInput);
}

}  // namespace
}  // namespace opsim
