// JsonSource: a JSON document read from a file, that can say where any of its values stands.
//
// opsim's input files (scenarios, orders, boards) are JSON read with nlohmann-json. Errors in
// them must name the file, the line and what is wrong; nlohmann-json forgets positions after
// parsing, so Where() finds a value's line again by scanning the text along its JSON pointer.
// Every input file is read through ReadInputFile(), which refuses a file over its kind's size
// limit before reading it, and parsed with a bound on nesting (kMaxJsonDepth), so that no input
// costs gigabytes or the stack. Thread-compatible: const methods may be called concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "opsim/core/error.h"

namespace opsim {

// Size limits per kind of input file (docs/scenario-format.md). A generated 100,000-hex theater
// with 2,000 units is under 1 MB.
inline constexpr std::uint64_t kMaxScenarioBytes = 64ull << 20;  // scenarios, state, PBEM files
inline constexpr std::uint64_t kMaxOrdersBytes = 16ull << 20;    // orders, odds results
inline constexpr std::uint64_t kMaxBoardBytes = 16ull << 20;     // tactical boards
// Arrays and objects nested deeper than this are refused (opsim's formats need fewer than 10).
inline constexpr int kMaxJsonDepth = 100;

// A whole file, read only if it holds at most `max_bytes` (checked with fstat before reading, and
// again while reading, for a pipe or a device): a larger one is kInvalidInput, naming the limit.
Result<std::string> ReadInputFile(const std::string& path, std::uint64_t max_bytes);

class JsonSource {
 public:
  using Pointer = nlohmann::json::json_pointer;

  JsonSource(JsonSource&&) noexcept;
  JsonSource& operator=(JsonSource&&) noexcept;
  ~JsonSource();

  // Reads (ReadInputFile) and parses a file; a syntax error names its line and column.
  static Result<JsonSource> FromFile(const std::string& path,
                                     std::uint64_t max_bytes = kMaxScenarioBytes);
  // Parses text; `name` stands in for the file name in errors.
  static Result<JsonSource> FromText(std::string text, std::string name);

  const nlohmann::json& doc() const { return doc_; }
  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }

  // "file:line: /json/path" for the value at `at` (the line of its first character).
  std::string Where(const Pointer& at) const;
  // An invalid-input error located at `at`.
  std::unexpected<Error> Bad(const Pointer& at, std::string message) const;

 private:
  JsonSource();
  // Where() of the nth member named like at's last key (a repeated key), past the cache.
  std::string Where(const Pointer& at, int nth) const;
  struct Cursor;  // where the last Where() stopped (json_source.cpp)

  std::string text_;
  std::string name_;
  nlohmann::json doc_;
  std::unique_ptr<Cursor> cursor_;
};

// Typed access with located errors, for readers of JsonSource documents.
class JsonReader {
 public:
  explicit JsonReader(const JsonSource& src) : src_(src) {}
  using Pointer = JsonSource::Pointer;

  const JsonSource& src() const { return src_; }
  // The value at `at`, or null where the document has none (a missing key, an index past the
  // end, a path through a string): nlohmann's const operator[] is undefined there.
  const nlohmann::json& At(const Pointer& at) const;
  bool Has(const Pointer& obj, const std::string& key) const;

  // Checks that the object at `at` holds only the listed keys.
  Status OnlyKeys(const Pointer& at, std::initializer_list<std::string_view> keys) const;
  Result<const nlohmann::json*> Object(const Pointer& at) const;
  Result<const nlohmann::json*> Array(const Pointer& at) const;
  Result<std::string> String(const Pointer& at) const;
  Result<std::string> OptString(const Pointer& obj, const std::string& key,
                                std::string fallback) const;
  Result<std::int64_t> Int(const Pointer& at, std::int64_t lo, std::int64_t hi) const;
  // Two integers in [lo, hi], as [x, y] (a column and a row, a width and a height).
  Result<std::pair<int, int>> IntPair(const Pointer& at, int lo, int hi) const;
  Result<bool> OptBool(const Pointer& obj, const std::string& key, bool fallback) const;
  // A required member; the error names the object that lacks it.
  Status Require(const Pointer& obj, const std::string& key) const;

  // An opsim file's header: "opsim" must name `kind` (`what` names such files in the error)
  // and "version" be at most `newest` (a newer one is kUnsupported). Returns the version.
  Result<int> Header(std::string_view kind, int newest, std::string_view what) const;

  // Calls f(pointer) for each element of the array at `at`, until one returns an error.
  template <class F>
  Status Each(const Pointer& at, F f) const {
    auto arr = Array(at);
    if (!arr) return std::unexpected(arr.error());
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
      if (auto s = f(at / i); !s) return s;
    }
    return {};
  }

 private:
  const JsonSource& src_;
};

}  // namespace opsim
