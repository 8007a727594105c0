// The canonical row text (db/src/canonical_row.h) must be byte for byte what nlohmann::json's
// dump(-1, ' ', false, replace) writes, which every log since schema 1 was hashed over: the
// library is the oracle here. A log written by an earlier build is the other check
// (TurnLog.ALogWrittenByAnEarlierBuildStillVerifies).
#include "canonical_row.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

namespace opsim::db {
namespace {

std::string Oracle(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string Canonical(const std::string& s) {
  std::string out = "prefix";
  AppendCanonicalString(out, s);
  return out.substr(6);
}

TEST(CanonicalRow, EveryByteAloneIsWrittenAsNlohmannWritesIt) {
  for (int b = 0; b < 256; ++b) {
    const std::string s(1, static_cast<char>(b));
    EXPECT_EQ(Canonical(s), Oracle(s)) << "byte " << b;
    const std::string framed = "a" + s + "z\"\\";
    EXPECT_EQ(Canonical(framed), Oracle(framed)) << "byte " << b << " framed";
  }
}

TEST(CanonicalRow, Utf8ValidAndInvalidSequences) {
  const std::vector<std::string> cases = {
      "",
      "plain ASCII with spaces",
      "Kronshtadt \"Kotlin\" \\ path",
      "ctl \x01\x1f\x7f \b\f\n\r\t end",
      "\xc3\xa9t\xc3\xa9",       // été
      "\xe2\x82\xac",            // €
      "\xf0\x9f\x8e\xb2",        // a die, 4 bytes
      "\xc0\xaf",                // overlong '/'
      "\xe0\x80\xaf",            // overlong, 3 bytes
      "\xed\xa0\x80",            // a surrogate
      "\xf4\x90\x80\x80",        // above U+10FFFF
      "\xf5\x80\x80\x80",        // no such lead byte
      "\x80 lone continuation",  //
      "truncated \xe2\x82",      //
      "truncated at the end \xf0\x9f",
      "mixed \xc3\xa9 then \xff then \xe2\x82\xac",
      "\xef\xbf\xbd already a replacement character",
  };
  for (const std::string& s : cases) EXPECT_EQ(Canonical(s), Oracle(s)) << s;
}

TEST(CanonicalRow, RandomStringsMatchTheOracle) {
  std::mt19937 rng(4);  // seeded: the same strings on every run
  std::uniform_int_distribution<int> len(0, 40), byte(0, 255), ascii(0x20, 0x7e), pick(0, 9);
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    const int n = len(rng);
    for (int k = 0; k < n; ++k) {
      // Mostly text, some high and control bytes, so that valid UTF-8 turns up as well.
      s += static_cast<char>(pick(rng) < 7 ? ascii(rng) : byte(rng));
    }
    ASSERT_EQ(Canonical(s), Oracle(s)) << "case " << i;
  }
}

TEST(CanonicalRow, AnObjectIsCompactWithItsKeysInOrder) {
  const std::string text = "x\"y";
  const std::string row =
      CanonicalRow().Str("a", text).Bool("b", true).Int("c", -42).Int("d", 1LL << 62).Take();
  const nlohmann::json j = {{"d", 1LL << 62}, {"c", -42}, {"b", true}, {"a", text}};
  EXPECT_EQ(row, j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  EXPECT_EQ(CanonicalRow().Take(), "{}");
}

}  // namespace
}  // namespace opsim::db
