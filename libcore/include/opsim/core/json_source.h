// JsonSource: a JSON document read from a file, that can say where any of its values stands.
//
// opsim's input files (scenarios, orders, boards) are JSON read with nlohmann-json. Errors in
// them must name the file, the line and what is wrong; nlohmann-json forgets positions after
// parsing, so Where() finds a value's line again by scanning the text along its JSON pointer.
// Thread-compatible: const methods may be called concurrently.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "opsim/core/error.h"

namespace opsim {

class JsonSource {
 public:
  using Pointer = nlohmann::json::json_pointer;

  JsonSource(JsonSource&&) noexcept;
  JsonSource& operator=(JsonSource&&) noexcept;
  ~JsonSource();

  // Reads and parses a file; a syntax error names its line and column.
  static Result<JsonSource> FromFile(const std::string& path);
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
  const nlohmann::json& At(const Pointer& at) const { return src_.doc()[at]; }
  bool Has(const Pointer& obj, const std::string& key) const;

  // Checks that the object at `at` holds only the listed keys.
  Status OnlyKeys(const Pointer& at, std::initializer_list<std::string_view> keys) const;
  Result<const nlohmann::json*> Object(const Pointer& at) const;
  Result<const nlohmann::json*> Array(const Pointer& at) const;
  Result<std::string> String(const Pointer& at) const;
  Result<std::string> OptString(const Pointer& obj, const std::string& key,
                                std::string fallback) const;
  Result<std::int64_t> Int(const Pointer& at, std::int64_t lo, std::int64_t hi) const;
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
