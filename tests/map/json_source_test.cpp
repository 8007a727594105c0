// JsonSource and JsonReader, the one place every opsim input file is parsed: nothing a file holds
// escapes as an exception, and each refusal names the file, the line and the JSON path.
#include "opsim/core/json_source.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "opsim/core/echo.h"
#include "test_support.h"

namespace opsim {
namespace {

using P = JsonSource::Pointer;

TEST(JsonSource, NumberOutOfRangeIsRefusedAtItsPath) {
  auto src = JsonSource::FromText("{\n\"a\": 1,\n\"dice\": [1,\n 1e400]}", "o.json");
  ASSERT_FALSE(src);
  EXPECT_EQ(src.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(src.error().where, "o.json:4: /dice/1");
  EXPECT_NE(src.error().message.find("1e400"), std::string::npos) << src.error().message;
  for (const char* text : {"{\"x\": -1e400}", "{\"x\": {\"y\": [[2e308]]}}"}) {
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
  EXPECT_TRUE(JsonSource::FromText("{\"a\": [{\"b\": 1}, {\"b\": 2}]}", "f.json"));
}

// The scanner behind Where() read "\u0062" as "u0062": a duplicate key written with an escape
// was not found again, and its line was the object's first. Escapes are decoded as the parser
// decodes them, surrogate pairs included.
TEST(JsonSource, ADuplicateKeyWrittenWithAnEscapeIsFoundAtItsLine) {
  const std::vector<std::pair<std::string, std::string>> keys = {
      {"\"b\"", "\"\\u0062\""},                        // b
      {"\"a\\nb\"", "\"a\\u000ab\""},                  // a, a newline, b
      {"\"q\\\"\"", "\"q\\u0022\""},                   // q"
      {"\"\xc3\xa9\"", "\"\\u00e9\""},                 // é
      {"\"\xf0\x9f\x98\x80\"", "\"\\ud83d\\ude00\""},  // an emoji, as a surrogate pair
  };
  for (const auto& [first, second] : keys) {
    auto src = JsonSource::FromText("{\"a\": {" + first + ": 1,\n \"c\": 2,\n " + second + ": 3}}",
                                    "f.json");
    ASSERT_FALSE(src) << second;
    EXPECT_EQ(src.error().code, ErrorCode::kInvalidInput);
    EXPECT_TRUE(src.error().where.starts_with("f.json:3: /a/"))
        << second << ": " << src.error().where;
  }
  // Where() finds a member written with escapes, at its line.
  auto src = JsonSource::FromText("{\"x\": 1,\n\n\"\\u0062\\/\": 2}", "f.json");
  ASSERT_TRUE(src) << src.error().to_string();
  EXPECT_EQ(src->Where(JsonSource::Pointer("/b~1")), "f.json:3: /b~1");
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

// Every opsim input is one object. A 62 MB "[0,0,...]" (under the 64 MiB limit) took 10.9 s
// and 1.09 GB to parse before its reader said so: it is refused at its first byte, unparsed,
// where a file's error says (name:line:column).
TEST(JsonSource, ATopLevelThatIsNotAnObjectIsRefusedAtItsFirstByte) {
  std::string big = "\n  [";
  for (int i = 0; i < 4'000'000; ++i) big += "0,";
  big += "0]";
  const auto start = std::chrono::steady_clock::now();
  auto src = JsonSource::FromText(big, "big.json");
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(src);
  EXPECT_EQ(src.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(src.error().where, "big.json:2:3");
  EXPECT_NE(src.error().message.find("not a JSON object"), std::string::npos)
      << src.error().message;
  EXPECT_LT(took, std::chrono::milliseconds(200)) << "it was parsed";
  for (const char* text : {"42", "\"text\"", "null", "[]", "\xEF\xBB\xBF[1]", "x"}) {
    auto other = JsonSource::FromText(text, "t.json");
    ASSERT_FALSE(other) << text;
    EXPECT_EQ(other.error().where, "t.json:1:1") << text;
  }
  // White space first is fine; an empty text is not JSON at all.
  EXPECT_TRUE(JsonSource::FromText(" \r\n\t{}", "t.json"));
  EXPECT_NE(JsonSource::FromText("", "t.json").error().message.find("not valid JSON"),
            std::string::npos);
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

// nlohmann's const operator[] is undefined for a missing key or index, and throws on a path
// through a string: At() answers null for all three.
TEST(JsonReader, AtAValueTheDocumentLacksIsNull) {
  auto src = JsonSource::FromText(R"({"name": "x", "list": [1, 2], "obj": {"a": 1}})", "f.json");
  ASSERT_TRUE(src);
  const JsonReader r(*src);
  EXPECT_EQ(r.At(P("/list/1")), 2);
  for (const char* missing : {"/nope", "/obj/b", "/list/2", "/list/99999999999", "/list/-",
                              "/list/x", "/name/x", "/name/0", "/obj/a/b"}) {
    EXPECT_TRUE(r.At(P(missing)).is_null()) << missing;
  }
  const auto obj = r.Object(P("/obj/b"));
  ASSERT_FALSE(obj);
  EXPECT_NE(obj.error().message.find("expected an object, found null"), std::string::npos);
  EXPECT_FALSE(r.Has(P("/name/x"), "y"));
}

// nlohmann's dump() and copies recurse: a document nested without bound overflowed the stack
// (a scenario's campaign rules 200,000 arrays deep crashed `opsim turn`).
TEST(JsonSource, NestingIsBoundedAndNamesThePath) {
  auto nested = [](int depth) {
    return "{\"a\":\n" + std::string(static_cast<std::size_t>(depth - 1), '[') +
           std::string(static_cast<std::size_t>(depth - 1), ']') + "}";
  };
  EXPECT_TRUE(JsonSource::FromText(nested(kMaxJsonDepth), "ok.json"));
  for (int depth : {kMaxJsonDepth + 1, 200000}) {
    auto src = JsonSource::FromText(nested(depth), "deep.json");
    ASSERT_FALSE(src) << depth;
    EXPECT_EQ(src.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(src.error().message.find("nested more than 100 deep"), std::string::npos)
        << src.error().message;
    EXPECT_TRUE(src.error().where.starts_with("deep.json:2: /a/0/0/")) << src.error().where;
  }
}

// A file over its kind's limit is refused before it is read (a 100 MB array given as a scenario
// cost 1.85 GB and 10 s before its refusal); a device that never ends is cut at the limit.
TEST(JsonSource, AFileOverItsSizeLimitIsRefusedUnread) {
  test::TempDir dir;
  const std::string big = dir.Path("big.json");
  test::WriteFile(big, "{}");
  std::filesystem::resize_file(big, 100ull << 20);  // sparse: costs no disk
  auto src = JsonSource::FromFile(big, kMaxOrdersBytes);
  ASSERT_FALSE(src);
  EXPECT_EQ(src.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(src.error().where, big);
  EXPECT_EQ(src.error().message,
            "the file is 104857600 bytes, more than the 16777216 bytes such a file may hold");
  const auto zero = ReadInputFile("/dev/zero", 1000);
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().message,
            "the file is over 1000 bytes, more than the 1000 bytes such a file may hold");
  test::WriteFile(big, std::string(1000, ' ') + "{}");
  EXPECT_TRUE(JsonSource::FromFile(big, 1002));
  EXPECT_FALSE(JsonSource::FromFile(big, 1001));
  EXPECT_EQ(JsonSource::FromFile(dir.Path("none.json")).error().code, ErrorCode::kNotFound);
  // A folder is bad input (exit 2), as it was when read as an empty text, not an I/O error.
  EXPECT_EQ(JsonSource::FromFile(dir.dir()).error().code, ErrorCode::kInvalidInput);
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
