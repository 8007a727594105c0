#include "opsim/core/json_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <mutex>
#include <set>

#include "opsim/core/echo.h"

namespace opsim {

namespace {

// A minimal scanner over text already known to be valid JSON.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : s_(text) {}

  std::size_t Ws(std::size_t pos) const {
    while (pos < s_.size() &&
           (s_[pos] == ' ' || s_[pos] == '\n' || s_[pos] == '\r' || s_[pos] == '\t')) {
      ++pos;
    }
    return pos;
  }
  // Past the string at `pos`; into `out`, its text with escapes decoded as the parser decodes
  // them (a key written "a\u0062" is the key "ab").
  std::size_t ReadString(std::size_t pos, std::string* out) const {
    ++pos;  // opening quote
    while (pos < s_.size() && s_[pos] != '"') {
      if (s_[pos] == '\\' && pos + 1 < s_.size()) {
        if (out) pos = Unescape(pos, *out) - 2;
        pos += 2;
      } else {
        if (out) out->push_back(s_[pos]);
        ++pos;
      }
    }
    return pos + 1;
  }
  std::size_t SkipValue(std::size_t pos) const {
    if (pos >= s_.size()) return pos;
    if (s_[pos] == '"') return ReadString(pos, nullptr);
    if (s_[pos] == '{' || s_[pos] == '[') {
      int depth = 0;
      while (pos < s_.size()) {
        const char c = s_[pos];
        if (c == '"') {
          pos = ReadString(pos, nullptr);
          continue;
        }
        if (c == '{' || c == '[') ++depth;
        if (c == '}' || c == ']') {
          if (--depth == 0) return pos + 1;
        }
        ++pos;
      }
      return pos;
    }
    while (pos < s_.size() && s_[pos] != ',' && s_[pos] != '}' && s_[pos] != ']' &&
           s_[pos] != ' ' && s_[pos] != '\n' && s_[pos] != '\r' && s_[pos] != '\t') {
      ++pos;
    }
    return pos;
  }
  // From one element of an array or member of an object to the next one's first character (or
  // the closing bracket).
  std::size_t Next(std::size_t pos) const {
    pos = Ws(SkipValue(pos));
    if (pos < s_.size() && s_[pos] == ',') pos = Ws(pos + 1);
    return pos;
  }
  char At(std::size_t pos) const { return pos < s_.size() ? s_[pos] : '\0'; }

 private:
  // The four hex digits at `pos`, or -1.
  long Hex4(std::size_t pos) const {
    if (pos + 4 > s_.size()) return -1;
    long v = 0;
    for (std::size_t i = pos; i < pos + 4; ++i) {
      const char c = s_[i];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) return -1;
      v = v * 16 + d;
    }
    return v;
  }
  // Appends the character the escape at `pos` (a backslash) stands for, UTF-8 encoded; returns
  // the offset after the escape.
  std::size_t Unescape(std::size_t pos, std::string& out) const {
    const char c = s_[pos + 1];
    if (c != 'u') {
      const std::string_view from = "bfnrt", to = "\b\f\n\r\t";
      const auto at = from.find(c);
      out.push_back(at == std::string_view::npos ? c : to[at]);
      return pos + 2;
    }
    long cp = Hex4(pos + 2);
    if (cp < 0) {
      out.push_back(c);
      return pos + 2;
    }
    std::size_t end = pos + 6;
    if (cp >= 0xD800 && cp < 0xDC00 && At(end) == '\\' && At(end + 1) == 'u') {
      const long low = Hex4(end + 2);
      if (low >= 0xDC00 && low < 0xE000) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        end += 6;
      }
    }
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
    return end;
  }

 public:
  // Positions past an unterminated string end beyond the text (a duplicate key stops the
  // parse before the rest is known to be valid): count only what is there.
  std::size_t Lines(std::size_t from, std::size_t to) const {
    to = std::min(to, s_.size());
    if (from >= to) return 0;
    return static_cast<std::size_t>(std::count(s_.begin() + static_cast<std::ptrdiff_t>(from),
                                               s_.begin() + static_cast<std::ptrdiff_t>(to), '\n'));
  }

 private:
  std::string_view s_;
};

std::string TypeName(const nlohmann::json& j) {
  return j.type_name();
}

}  // namespace

Result<std::string> ReadInputFile(const std::string& path, std::uint64_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Fail(ErrorCode::kNotFound, "cannot open file", path);
  auto too_big = [&](const std::string& size) {
    ::close(fd);
    return Fail(ErrorCode::kInvalidInput,
                "the file is " + size + " bytes, more than the " + std::to_string(max_bytes) +
                    " bytes such a file may hold",
                path);
  };
  struct stat st {};
  const bool known = ::fstat(fd, &st) == 0;
  if (known && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Fail(ErrorCode::kInvalidInput, "a folder, not a file", path);
  }
  if (known && S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    return too_big(std::to_string(st.st_size));
  }
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return Fail(ErrorCode::kIOError, "cannot read file", path);
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) return too_big("over " + std::to_string(max_bytes));
  }
  ::close(fd);
  return text;
}

Result<JsonSource> JsonSource::FromFile(const std::string& path, std::uint64_t max_bytes) {
  auto text = ReadInputFile(path, max_bytes);
  if (!text) return std::unexpected(text.error());
  return FromText(std::move(*text), path);
}

namespace {

// Builds the document as nlohmann's own DOM parser does, but knows the JSON path of the value
// being read, so a number out of range (1e400) or a repeated key is refused at its path instead
// of escaping as an exception or being silently overwritten.
class LocatingSax {
 public:
  using json = nlohmann::json;
  explicit LocatingSax(json& doc) : dom_(doc, false) {}

  bool null() { return Value(dom_.null()); }
  bool boolean(bool v) { return Value(dom_.boolean(v)); }
  bool number_integer(json::number_integer_t v) { return Value(dom_.number_integer(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return Value(dom_.number_unsigned(v)); }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    return Value(dom_.number_float(v, s));
  }
  bool string(json::string_t& v) { return Value(dom_.string(v)); }
  bool binary(json::binary_t& v) { return Value(dom_.binary(v)); }
  bool start_object(std::size_t n) {
    if (!Deeper()) return false;
    frames_.push_back({false, 0, {}, {}});
    return dom_.start_object(n);
  }
  bool key(json::string_t& k) {
    Frame& f = frames_.back();
    f.key = k;
    if (!f.keys.insert(k).second) {
      duplicate = true;
      return false;
    }
    return dom_.key(k);
  }
  bool end_object() {
    frames_.pop_back();
    return Value(dom_.end_object());
  }
  bool start_array(std::size_t n) {
    if (!Deeper()) return false;
    frames_.push_back({true, 0, {}, {}});
    return dom_.start_array(n);
  }
  bool end_array() {
    frames_.pop_back();
    return Value(dom_.end_array());
  }
  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::detail::exception& e) {
    error_byte = position;
    error_token = token;
    error_id = e.id;
    error_what = e.what();
    return false;
  }

  // The path of the value being read (for a duplicate, of the repeated key).
  JsonSource::Pointer Path() const {
    JsonSource::Pointer p;
    for (const Frame& f : frames_) p = f.array ? p / f.index : p / f.key;
    return p;
  }

  bool duplicate = false;
  bool too_deep = false;
  std::size_t error_byte = 0;
  int error_id = 0;
  std::string error_token;
  std::string error_what;

 private:
  struct Frame {
    bool array;
    std::size_t index;
    std::string key;
    std::set<std::string> keys;
  };
  // nlohmann's dump() and copies recurse: a document nested without bound would overflow the stack.
  bool Deeper() {
    too_deep = frames_.size() >= static_cast<std::size_t>(kMaxJsonDepth);
    return !too_deep;
  }
  bool Value(bool ok) {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    return ok;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::vector<Frame> frames_;
};

}  // namespace

Result<JsonSource> JsonSource::FromText(std::string text, std::string name) {
  JsonSource src;
  // A UTF-8 byte-order mark is accepted (editors on Windows write one) and dropped, so that
  // lines and columns count from the first character after it.
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  src.text_ = std::move(text);
  src.name_ = std::move(name);
  // Every opsim input is one object: anything else is refused at its first byte, before a
  // parse that could cost seconds and gigabytes (64 MiB of "[0,0,...").
  const std::size_t first = src.text_.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && src.text_[first] != '{') {
    const auto line = 1 + std::count(src.text_.begin(), src.text_.begin() + first, '\n');
    const auto nl = src.text_.rfind('\n', first);
    const auto col = nl == std::string::npos ? first + 1 : first - nl;
    return Fail(ErrorCode::kInvalidInput, "not a JSON object: the file holds one object, {...}",
                src.name_ + ":" + std::to_string(line) + ":" + std::to_string(col));
  }
  LocatingSax sax(src.doc_);
  if (nlohmann::json::sax_parse(src.text_, &sax)) return src;
  if (sax.too_deep) {
    return Fail(ErrorCode::kInvalidInput,
                "arrays and objects nested more than " + std::to_string(kMaxJsonDepth) + " deep",
                src.Where(sax.Path()));
  }
  const std::size_t at = std::min<std::size_t>(
      sax.duplicate || sax.error_byte == 0 ? 0 : sax.error_byte - 1, src.text_.size());
  if (sax.duplicate) {
    const Pointer path = sax.Path();
    return Fail(ErrorCode::kInvalidInput,
                "duplicate key '" + EchoToken(path.back()) + "' (each key once per object)",
                src.Where(path, 2));
  }
  const auto line = 1 + std::count(src.text_.begin(), src.text_.begin() + at, '\n');
  std::string what = sax.error_what;
  // nlohmann's message: "[json.exception.parse_error.101] parse error at line L, column C: X"
  if (auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
  if (sax.error_id == 406) {  // out_of_range: a number no double holds
    const Pointer path = sax.Path();
    return Fail(ErrorCode::kInvalidInput, "number out of range: " + EchoToken(sax.error_token),
                src.name_ + ":" + std::to_string(line) + ": " +
                    (path.empty() ? std::string("/") : path.to_string()));
  }
  const auto nl = src.text_.rfind('\n', at == 0 ? 0 : at - 1);
  const auto col = nl == std::string::npos ? at + 1 : at - nl;
  return Fail(ErrorCode::kInvalidInput, "not valid JSON: " + what,
              src.name_ + ":" + std::to_string(line) + ":" + std::to_string(col));
}

// Where() scans the text along the pointer. Readers ask for the elements of an array in order
// (/movement/0, /movement/1, ...), so the scan resumes where the last one stopped, at every
// depth whose container is the same: a whole file's elements cost one pass, not one each.
struct JsonSource::Cursor {
  struct Level {
    std::size_t container = 0;  // offset of the '[' or '{' searched at this depth
    std::size_t index = 0;      // arrays: the element found; objects: unused
    std::string key;            // objects: the member found
    std::size_t pos = 0;        // offset of the value found
    std::size_t line = 1;       // its line
  };
  std::mutex mu;
  std::vector<Level> levels;
};

JsonSource::JsonSource() : cursor_(std::make_unique<Cursor>()) {}
JsonSource::JsonSource(JsonSource&&) noexcept = default;
JsonSource& JsonSource::operator=(JsonSource&&) noexcept = default;
JsonSource::~JsonSource() = default;

std::string JsonSource::Where(const Pointer& at) const {
  return Where(at, 1);
}

std::string JsonSource::Where(const Pointer& at, int nth) const {
  std::vector<std::string> tokens;
  for (Pointer p = at; !p.empty(); p = p.parent_pointer()) tokens.push_back(p.back());
  std::reverse(tokens.begin(), tokens.end());
  const Scanner sc(text_);
  std::size_t pos = sc.Ws(0);
  std::size_t line = 1 + sc.Lines(0, pos);
  {
    std::lock_guard lock(cursor_->mu);
    std::vector<Cursor::Level>& levels = cursor_->levels;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      const char open = sc.At(pos);
      if (open != '[' && open != '{') break;
      const bool array = open == '[';
      std::size_t want = 0;
      if (array) {
        for (char c : tokens[i]) want = want * 10 + static_cast<std::size_t>(c - '0');
      }
      const std::size_t container = pos;
      std::size_t from = sc.Ws(pos + 1);
      std::size_t from_line = line + sc.Lines(pos, from);
      std::size_t k = 0;
      bool hit = false;
      int skip = nth;
      if (nth == 1 && i < levels.size() && levels[i].container == container) {
        const Cursor::Level& last = levels[i];
        if (array && last.index <= want) {
          from = last.pos;
          from_line = last.line;
          k = last.index;
        } else if (!array && last.key == tokens[i]) {
          from = last.pos;
          from_line = last.line;
          hit = true;
        }
      }
      if (array) {
        for (; sc.At(from) != ']' && from < text_.size(); ++k) {
          if (k == want) {
            hit = true;
            break;
          }
          const std::size_t next = sc.Next(from);
          from_line += sc.Lines(from, next);
          from = next;
        }
      } else {
        while (!hit && sc.At(from) == '"') {
          std::string key;
          std::size_t value = sc.Ws(sc.Ws(sc.ReadString(from, &key)) + 1);  // past ':'
          from_line += sc.Lines(from, value);
          from = value;
          if (key == tokens[i] && (i + 1 < tokens.size() || --skip == 0)) {
            hit = true;
            break;
          }
          const std::size_t next = sc.Next(from);
          from_line += sc.Lines(from, next);
          from = next;
        }
      }
      pos = from;
      line = from_line;
      if (!hit) break;
      if (levels.size() <= i) levels.resize(i + 1);
      levels[i] = {container, array ? k : 0, array ? std::string() : tokens[i], pos, line};
    }
  }
  const std::string path = at.empty() ? "/" : at.to_string();
  return name_ + ":" + std::to_string(line) + ": " + path;
}

std::unexpected<Error> JsonSource::Bad(const Pointer& at, std::string message) const {
  return Fail(ErrorCode::kInvalidInput, std::move(message), Where(at));
}

const nlohmann::json& JsonReader::At(const Pointer& at) const {
  static const nlohmann::json kNone;
  return src_.doc().contains(at) ? src_.doc()[at] : kNone;
}

bool JsonReader::Has(const Pointer& obj, const std::string& key) const {
  const auto& j = At(obj);
  return j.is_object() && j.contains(key);
}

Status JsonReader::OnlyKeys(const Pointer& at, std::initializer_list<std::string_view> keys) const {
  for (const auto& [key, value] : At(at).items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string known;
      for (auto k : keys) {
        if (!known.empty()) known += ", ";
        known += std::string(k);
      }
      return src_.Bad(at / key,
                      "unknown key '" + EchoToken(key) + "' (expected one of: " + known + ")");
    }
  }
  return {};
}

Result<const nlohmann::json*> JsonReader::Object(const Pointer& at) const {
  const auto& j = At(at);
  if (!j.is_object()) return src_.Bad(at, "expected an object, found " + TypeName(j));
  return &j;
}

Result<const nlohmann::json*> JsonReader::Array(const Pointer& at) const {
  const auto& j = At(at);
  if (!j.is_array()) return src_.Bad(at, "expected an array, found " + TypeName(j));
  return &j;
}

Result<std::string> JsonReader::String(const Pointer& at) const {
  const auto& j = At(at);
  if (!j.is_string()) return src_.Bad(at, "expected a string, found " + TypeName(j));
  return j.get<std::string>();
}

Result<std::string> JsonReader::OptString(const Pointer& obj, const std::string& key,
                                          std::string fallback) const {
  if (!Has(obj, key)) return fallback;
  return String(obj / key);
}

Result<std::int64_t> JsonReader::Int(const Pointer& at, std::int64_t lo, std::int64_t hi) const {
  const auto& j = At(at);
  if (!j.is_number_integer()) return src_.Bad(at, "expected an integer, found " + TypeName(j));
  // From 2^63 up nlohmann holds an unsigned number, which get<int64_t>() would wrap.
  const bool huge = j.is_number_unsigned() &&
                    j.get<std::uint64_t>() > static_cast<std::uint64_t>(hi < 0 ? 0 : hi);
  const auto v = huge ? hi : j.get<std::int64_t>();
  if (huge || v < lo || v > hi) {
    return src_.Bad(at, "expected an integer from " + std::to_string(lo) + " to " +
                            std::to_string(hi) + ", found " + j.dump());
  }
  return v;
}

Result<std::pair<int, int>> JsonReader::IntPair(const Pointer& at, int lo, int hi) const {
  auto arr = Array(at);
  if (!arr) return std::unexpected(arr.error());
  if ((*arr)->size() != 2) return src_.Bad(at, "expected two integers");
  auto x = Int(at / 0, lo, hi);
  if (!x) return std::unexpected(x.error());
  auto y = Int(at / 1, lo, hi);
  if (!y) return std::unexpected(y.error());
  return std::pair<int, int>{static_cast<int>(*x), static_cast<int>(*y)};
}

Result<bool> JsonReader::OptBool(const Pointer& obj, const std::string& key, bool fallback) const {
  if (!Has(obj, key)) return fallback;
  const auto& j = At(obj / key);
  if (!j.is_boolean()) return src_.Bad(obj / key, "expected true or false, found " + TypeName(j));
  return j.get<bool>();
}

Status JsonReader::Require(const Pointer& obj, const std::string& key) const {
  if (!Has(obj, key)) return src_.Bad(obj, "missing required key '" + key + "'");
  return {};
}

Result<int> JsonReader::Header(std::string_view kind, int newest, std::string_view what) const {
  const Pointer root;
  for (const char* key : {"opsim", "version"}) {
    if (auto s = Require(root, key); !s) return std::unexpected(s.error());
  }
  auto found = String(Pointer("/opsim"));
  if (!found) return std::unexpected(found.error());
  if (*found != kind) {
    return src_.Bad(Pointer("/opsim"),
                    "this is an opsim '" + EchoToken(*found) + "' file, not " + std::string(what));
  }
  auto version = Int(Pointer("/version"), 1, 1000000);
  if (!version) return std::unexpected(version.error());
  if (*version > newest) {
    return Fail(ErrorCode::kUnsupported,
                std::string(kind) + " format version " + std::to_string(*version) +
                    " is newer than this opsim reads (up to " + std::to_string(newest) +
                    "); upgrade opsim",
                src_.Where(Pointer("/version")));
  }
  return static_cast<int>(*version);
}

}  // namespace opsim
