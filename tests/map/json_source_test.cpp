// JsonSource and JsonReader, the one place every opsim input file is parsed: nothing a file holds
// escapes as an exception, and each refusal names the file, the line and the JSON path.
#include "opsim/core/json_source.h"

#include <gtest/gtest.h>

#include "opsim/core/echo.h"

namespace opsim {
namespace {

using P = JsonSource::Pointer;

TEST(JsonSource, NumberOutOfRangeIsRefusedAtItsPath) {
  auto src = JsonSource::FromText("{\n\"a\": 1,\n\"dice\": [1,\n 1e400]}", "o.json");
  ASSERT_FALSE(src);
  EXPECT_EQ(src.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(src.error().where, "o.json:4: /dice/1");
  EXPECT_NE(src.error().message.find("1e400"), std::string::npos) << src.error().message;
  for (const char* text : {"-1e400", "{\"x\": {\"y\": [[2e308]]}}"}) {
    EXPECT_FALSE(JsonSource::FromText(text, "t")) << text;
  }
  EXPECT_EQ(JsonSource::FromText("{\"x\": {\"y\": [[2e308]]}}", "t").error().where,
            "t:1: /x/y/0/0");
}

TEST(JsonSource, DuplicateKeyIsRefusedAtItsSecondLine) {
  auto src = JsonSource::FromText("{\"a\": {\"b\": 1,\n \"c\": 2,\n \"b\": 3}}", "f.json");
  ASSERT_FALSE(src);
  EXPECT_EQ(src.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(src.error().where, "f.json:3: /a/b");
  EXPECT_NE(src.error().message.find("duplicate key 'b'"), std::string::npos);
  // The same key in two objects is not a duplicate.
  EXPECT_TRUE(JsonSource::FromText("[{\"b\": 1}, {\"b\": 2}]", "f.json"));
}

// Found by fuzz/action_fuzz (a heap-buffer-overflow in Where()'s line count): after a duplicate
// key the rest of the text need not be valid JSON, and the scan for the key's line ran past an
// unterminated string at the end of the text.
TEST(JsonSource, DuplicateKeyBeforeAnUnterminatedStringStaysInTheText) {
  for (const char* text :
       {"{\"a\\n\": 1,\n\"a\\n\": 2, \"b", "{\"a\\n\": 1,\n\"a\\n\": 2, \"b\": \"x",
        "{\"a\\n\": 1,\n\"a\\n\": [\"17I\", \"19A:"}) {
    auto src = JsonSource::FromText(text, "dup.json");
    ASSERT_FALSE(src) << text;
    EXPECT_EQ(src.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(src.error().message.find("duplicate key"), std::string::npos) << src.error().message;
    EXPECT_TRUE(src.error().where.starts_with("dup.json:")) << src.error().where;
  }
}

TEST(JsonSource, ByteOrderMarkIsAcceptedAndLinesStillCount) {
  auto src = JsonSource::FromText("\xEF\xBB\xBF{\n\"a\": 1,\n\"b\": \"x\"}", "bom.json");
  ASSERT_TRUE(src) << src.error().to_string();
  EXPECT_EQ(src->doc()["a"], 1);
  EXPECT_EQ(src->Where(P("/b")), "bom.json:3: /b");
}

TEST(JsonReader, IntegerFrom2To63IsOutOfRangeNotWrapped) {
  auto src = JsonSource::FromText("{\"n\": 9223372036854775808, \"m\": 18446744073709551615}", "n");
  ASSERT_TRUE(src);
  const JsonReader r(*src);
  for (const auto& [key, found] : {std::pair{"/n", "found 9223372036854775808"},
                                   std::pair{"/m", "found 18446744073709551615"}}) {
    auto v = r.Int(P(key), 0, 100);
    ASSERT_FALSE(v) << key;
    EXPECT_NE(v.error().message.find(found), std::string::npos) << v.error().message;
  }
}

TEST(EchoToken, CapsLengthAndEscapesControlCharacters) {
  EXPECT_EQ(EchoToken("16A:0827"), "16A:0827");
  EXPECT_EQ(EchoToken("a\x1b[31mred"), "a\\x1b[31mred");
  const std::string long_name(1 << 20, 'x');
  EXPECT_EQ(EchoToken(long_name), std::string(kEchoMax, 'x') + "…");
  // Characters, not bytes: a name of 64 two-byte characters is echoed whole.
  std::string umlauts;
  for (std::size_t i = 0; i < kEchoMax; ++i) umlauts += "ä";
  EXPECT_EQ(EchoToken(umlauts), umlauts);
  EXPECT_EQ(EchoToken(umlauts + "ä"), umlauts + "…");
}

}  // namespace
}  // namespace opsim
