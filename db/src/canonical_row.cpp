#include "canonical_row.h"

#include <cassert>
#include <charconv>
#include <nlohmann/json.hpp>

namespace opsim::db {

namespace {

// The length of the valid UTF-8 sequence (RFC 3629) that starts at s[i], or 0 if none does.
std::size_t Utf8Length(std::string_view s, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const auto cont = [&](std::size_t k, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
    return i + k < s.size() && at(k) >= lo && at(k) <= hi;
  };
  const unsigned char c = at(0);
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
  if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

void AppendInt(std::string& out, std::int64_t value) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, r.ptr);
}

}  // namespace

void AppendCanonicalString(std::string& out, std::string_view s) {
  const std::size_t start = out.size();
  out += '"';
  std::size_t plain = 0;  // start of the run of bytes copied as they are
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      const std::size_t n = Utf8Length(s, i);
      if (n == 0) {
        // Invalid UTF-8: nlohmann's own replacement rules decide, for the whole string.
        out.resize(start);
        out += nlohmann::json(std::string(s))
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        return;
      }
      i += n;
      continue;
    }
    out.append(s.substr(plain, i - plain));
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
      }
    }
    plain = ++i;
  }
  out.append(s.substr(plain));
  out += '"';
}

void CanonicalRow::Key(std::string_view key) {
  assert(last_key_.empty() || last_key_ < key);
  if (!last_key_.empty()) out_ += ',';
  last_key_ = key;
  out_ += '"';
  out_ += key;  // keys are fixed ASCII names
  out_ += "\":";
}

CanonicalRow& CanonicalRow::Str(std::string_view key, std::string_view value) {
  Key(key);
  AppendCanonicalString(out_, value);
  return *this;
}

CanonicalRow& CanonicalRow::Int(std::string_view key, std::int64_t value) {
  Key(key);
  AppendInt(out_, value);
  return *this;
}

CanonicalRow& CanonicalRow::Bool(std::string_view key, bool value) {
  Key(key);
  out_ += value ? "true" : "false";
  return *this;
}

CanonicalRow& CanonicalRow::Strings(std::string_view key, const std::vector<std::string>& values) {
  Key(key);
  out_ += CanonicalArray(values);
  return *this;
}

CanonicalRow& CanonicalRow::Ints(std::string_view key, const std::vector<std::int64_t>& values) {
  Key(key);
  out_ += CanonicalArray(values);
  return *this;
}

std::string CanonicalArray(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    AppendCanonicalString(out, values[i]);
  }
  return out + "]";
}

std::string CanonicalArray(const std::vector<std::int64_t>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    AppendInt(out, values[i]);
  }
  return out + "]";
}

std::string CanonicalRow::Take() {
  out_ += '}';
  return std::move(out_);
}

}  // namespace opsim::db
