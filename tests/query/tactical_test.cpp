// The tactical module's requests (tactical.h): a JSON body (docs/api.md, "The tactical module")
// read into the same typed requests the CLI fills from its options, every key to its field, and
// each malformed body refused where it is wrong; the answers to them are the CLI's.
#include "opsim/query/tactical.h"

#include <gtest/gtest.h>

#include "opsim/core/json_source.h"
#include "test_support.h"

namespace opsim {
namespace {

using nlohmann::json;
using query::TacticalCommand;

Result<query::TacticalRequest> Parse(const std::string& body, TacticalCommand command) {
  auto src = JsonSource::FromText(body, "request body");
  if (!src) return std::unexpected(src.error());
  return query::ParseTacticalRequest(*src, command);
}

// The error a body is refused with: "where: message".
std::string Refusal(const std::string& body, TacticalCommand command) {
  auto r = Parse(body, command);
  EXPECT_FALSE(r.has_value()) << body;
  if (r) return "";
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput) << body;
  return r.error().where + ": " + r.error().message;
}

TEST(TacticalRequest, EveryKeyFillsTheFieldItsCliOptionFills) {
  auto r = Parse(R"({"board": "g8_2108", "paddy": "in-season", "ec": "mud", "slope": "steep",
      "tide": "low", "reef": "exposed", "water": "lake", "seawall": "low", "surf": true,
      "pto": true, "coral_soil": true, "night": true, "frozen": true, "seed": 9223372036854775807,
      "los": "A,oK5", "attack": "ordnance", "from_unit": "vehicle", "to_unit": "cavalry",
      "from_entrenched": true, "to_entrenched": true, "from_crest": true, "to_crest": true,
      "from_level": -9, "to_level": 9, "empty_target": true,
      "path": "oL3:bank,oM3", "unit": "vehicle", "flags": ["cx", "mounted"], "allowance": 100,
      "double_time": true, "assault_movement": true, "low_crawl": true, "armored_assault": true,
      "phase": "advance", "transport": "bicycle", "transport_at": "bank", "printed_mp": 0,
      "morale": 20, "stack": 100})",
                 TacticalCommand::kRender);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->board.name, "g8_2108");
  EXPECT_TRUE(r->board.names_only);  // never a file of the server's
  EXPECT_FALSE(r->board.text);
  const query::BoardSettings& s = r->settings;
  EXPECT_EQ(s.paddy + s.ec + s.slope + s.tide + s.reef + s.water + s.seawall,
            "in-seasonmudsteeplowexposedlakelow");
  EXPECT_TRUE(s.surf && s.pto && s.coral_soil && s.night && s.frozen);
  EXPECT_EQ(s.seed, std::optional<std::uint64_t>(9223372036854775807ull));
  EXPECT_EQ(r->los_ends, "A,oK5");
  EXPECT_EQ(r->los.attack, "ordnance");
  EXPECT_EQ(r->los.from.unit, "vehicle");
  EXPECT_EQ(r->los.to.unit, "cavalry");
  EXPECT_TRUE(r->los.from.entrenched && r->los.to.entrenched && r->los.from.crest &&
              r->los.to.crest && r->los.to.empty);
  EXPECT_FALSE(r->los.from.empty);
  EXPECT_EQ(r->los.from.level, -9);
  EXPECT_EQ(r->los.to.level, 9);
  const query::MoveRequest& m = r->move;
  EXPECT_EQ(m.path, "oL3:bank,oM3");
  EXPECT_EQ(m.unit, "vehicle");
  EXPECT_EQ(m.flags, (std::vector<std::string>{"cx", "mounted"}));
  EXPECT_EQ(m.allowance, 100);
  EXPECT_TRUE(m.double_time && m.assault_movement && m.low_crawl && m.armored_assault);
  EXPECT_EQ(m.phase, "advance");
  EXPECT_EQ(m.transport, "bicycle");
  EXPECT_EQ(m.transport_at, "bank");
  EXPECT_EQ(m.printed_mp, 0);
  EXPECT_EQ(m.morale, 20);
  EXPECT_EQ(m.stack, 100);

  // Left out, each is the CLI option's default.
  auto los = Parse(R"({"board": "g8_2108", "from": "A", "to": "oK5"})", TacticalCommand::kLos);
  ASSERT_TRUE(los) << los.error().to_string();
  EXPECT_EQ(los->los.from.at, "A");
  EXPECT_EQ(los->los.to.at, "oK5");
  EXPECT_EQ(los->los.attack, "small-arms");
  EXPECT_TRUE(los->settings.paddy.empty());
  EXPECT_FALSE(los->settings.seed);
  auto move = Parse(R"({"board_text": "{}", "path": "oM5"})", TacticalCommand::kMove);
  ASSERT_TRUE(move) << move.error().to_string();
  EXPECT_EQ(move->board.text, std::optional<std::string>("{}"));
  EXPECT_EQ(move->board.file_name, "board.json");
  EXPECT_EQ(move->move.unit, "infantry");
  EXPECT_EQ(move->move.phase, "movement");
  EXPECT_EQ(move->move.transport, "horse");
  EXPECT_EQ(move->move.morale, 7);
  EXPECT_EQ(move->move.stack, 1);
  EXPECT_FALSE(move->move.allowance);
}

TEST(TacticalRequest, AMalformedBodyIsRefusedWhereItIsWrong) {
  const auto los = TacticalCommand::kLos;
  const auto move = TacticalCommand::kMove;
  const auto render = TacticalCommand::kRender;
  EXPECT_EQ(Refusal("[]", los).rfind("request body:1:1: not a JSON object", 0), 0u);
  EXPECT_NE(Refusal(R"({"board": "g8_2108",
      "colour": "red"})",
                    los)
                .find("request body:2: /colour: unknown key 'colour' (expected one of: board, "),
            std::string::npos);
  // Each command takes its own keys only.
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "from": "A"})", move).find("unknown key 'from'"),
            std::string::npos);
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "path": "oM5"})", los).find("unknown key 'path'"),
            std::string::npos);
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "from": "A"})", render).find("unknown key 'from'"),
            std::string::npos);
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "los": "A,B"})", los).find("unknown key 'los'"),
            std::string::npos);
  // Types and the CLI options' ranges.
  EXPECT_EQ(Refusal(R"({"board": "g8_2108", "pto": "yes"})", los),
            "request body:1: /pto: expected true or false, found string");
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "paddy": 1})", los).find("/paddy: expected a string"),
            std::string::npos);
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "seed": -1})", los).find("/seed"), std::string::npos);
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "seed": 1.5})", los).find("/seed"), std::string::npos);
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "from_level": 10})", los).find("/from_level"),
            std::string::npos);
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "stack": 0})", move).find("/stack"), std::string::npos);
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "morale": 21})", move).find("/morale"),
            std::string::npos);
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "allowance": 101})", move).find("/allowance"),
            std::string::npos);
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "flags": "cx"})", move).find("/flags"),
            std::string::npos);
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "flags": ["cx", 1]})", move).find("/flags/1"),
            std::string::npos);
  // The board: a bundled name, never a path; or a text; one of them.
  for (const char* name : {"", ".", "..", "g8_2108.json", "a/b", "/etc/passwd", "a\\b"}) {
    EXPECT_NE(Refusal(json({{"board", name}}).dump(), los).find("/board: a bundled board's name"),
              std::string::npos)
        << name;
  }
  EXPECT_NE(Refusal("{}", los).find("give \"board\""), std::string::npos);
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "board_text": "{}"})", los).find("not both"),
            std::string::npos);
  EXPECT_NE(Refusal(R"({"board": "g8_2108", "board_file_name": "a.json"})", los)
                .find("/board_file_name: names a \"board_text\""),
            std::string::npos);
  for (const char* name : {"", "a/b.json", "a\nb"}) {
    EXPECT_NE(Refusal(json({{"board_text", "{}"}, {"board_file_name", name}}).dump(), los)
                  .find("/board_file_name: a file's name"),
              std::string::npos)
        << name;
  }
}

// A request read from a body is answered as the CLI answers the same options.
TEST(TacticalRequest, ItsAnswersAreTheClis) {
  auto r = Parse(R"({"board": "g8_2108", "paddy": "in-season", "from": "A", "to": "C"})",
                 TacticalCommand::kLos);
  ASSERT_TRUE(r);
  auto board = query::OpenTacticalBoard(r->board, r->settings);
  ASSERT_TRUE(board) << board.error().to_string();
  auto a = query::AnswerTacticalLos(*board, r->los);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(a->doc, test::CliJson({"tactical", "los", "--board", "g8_2108", "--paddy", "in-season",
                                   "--from", "A", "--to", "C"}));
  // A path is bounded: kMaxPathSteps positions.
  std::string path = "oM5";
  for (std::size_t i = 0; i < query::kMaxPathSteps; ++i) path += ",oM5";
  query::MoveRequest m;
  m.path = path;
  auto refused = query::AnswerTacticalMove(*board, m);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, "--path has 1001 positions: at most 1000");
}

}  // namespace
}  // namespace opsim
