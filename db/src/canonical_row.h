// The chained content of a turn-log row (docs/log-format.md): one compact JSON object, its keys
// in byte order, its strings escaped exactly as nlohmann::json's dump(-1, ' ', false,
// error_handler_t::replace) writes them, which is what every log since schema 1 was hashed
// over. It is written directly because a player-turn has hundreds of rows and building a JSON
// document for each one cost more than inserting it.
//
// The caller adds the keys in ascending byte order (checked in debug builds); each value is
// written as it is added. Not thread-safe; cheap to make.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace opsim::db {

class CanonicalRow {
 public:
  CanonicalRow& Str(std::string_view key, std::string_view value);
  CanonicalRow& Int(std::string_view key, std::int64_t value);
  CanonicalRow& Bool(std::string_view key, bool value);
  // Arrays (schema 2's event units, hexes and numbers), written as CanonicalArray writes them.
  CanonicalRow& Strings(std::string_view key, const std::vector<std::string>& values);
  CanonicalRow& Ints(std::string_view key, const std::vector<std::int64_t>& values);
  // The object, closed.
  std::string Take();

 private:
  void Key(std::string_view key);

  std::string out_ = "{";
  std::string_view last_key_;
};

// Appends `s` to `out` as a JSON string in the canonical form above: `"`, `\` and the control
// characters escaped (\b \f \n \r \t by name, the rest as \u00xx), valid UTF-8 as it is, and
// each invalid UTF-8 sequence written as U+FFFD the way nlohmann::json replaces it.
void AppendCanonicalString(std::string& out, std::string_view s);

// A JSON array in the same canonical form (`["16A:0922","16A:0923"]`, `[3,-1]`): what the log
// stores in an array column, and what the row's content holds for it.
std::string CanonicalArray(const std::vector<std::string>& values);
std::string CanonicalArray(const std::vector<std::int64_t>& values);

}  // namespace opsim::db
