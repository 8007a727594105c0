#include "opsim/map/scenario_layout.h"

#include <algorithm>
#include <optional>

#include "opsim/core/hex.h"

namespace opsim::map {

namespace {

using Doc = nlohmann::ordered_json;

// The hexes a token's hexsides cross in order ("A/B", or a chain "A-B-C"), or nothing when it
// does not parse as hexsides (it is then kept as it is).
std::optional<std::vector<HexName>> PathOf(std::string_view token) {
  std::vector<HexName> hexes;
  if (token.find('/') != std::string_view::npos) {
    auto side = ParseHexsideName(token);
    if (!side) return std::nullopt;
    hexes = {(*side)[0], (*side)[1]};
  } else {
    std::string sheet;
    for (std::size_t start = 0; start <= token.size();) {
      const std::size_t dash = std::min(token.find('-', start), token.size());
      auto h = ParseHexName(token.substr(start, dash - start), sheet);
      if (!h) return std::nullopt;
      sheet = h->sheet;
      hexes.push_back(*h);
      start = dash + 1;
    }
  }
  if (hexes.size() < 2) return std::nullopt;
  for (std::size_t i = 0; i + 1 < hexes.size(); ++i) {
    if (hexes[i] == hexes[i + 1]) return std::nullopt;
  }
  return hexes;
}

// "16A:0420-0520-15A:0101": each hex after the first drops its sheet when it is the previous one's.
std::string ChainText(const std::vector<HexName>& hexes) {
  std::string out = FormatHexName(hexes.front());
  for (std::size_t i = 1; i < hexes.size(); ++i) {
    const HexName& h = hexes[i];
    out += '-';
    out += h.sheet == hexes[i - 1].sheet ? FormatHexName(h).substr(h.sheet.size() + 1)
                                         : FormatHexName(h);
  }
  return out;
}

bool IsScalar(const Doc& v) {
  return !v.is_object() && !v.is_array();
}

std::string Scalar(const Doc& v) {
  return v.dump(-1, ' ', false, Doc::error_handler_t::replace);
}

// `v` on one line ({"a": 1, "b": [2, 3]}) if it takes at most `budget` columns.
bool Compact(const Doc& v, std::size_t budget, std::string& out) {
  const std::size_t start = out.size();
  const auto over = [&] { return out.size() - start > budget; };
  if (IsScalar(v)) {
    out += Scalar(v);
    return !over();
  }
  const bool object = v.is_object();
  out += object ? '{' : '[';
  bool first = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!first) out += ", ";
    first = false;
    if (object) {
      out += Scalar(Doc(it.key()));
      out += ": ";
    }
    if (over()) return false;
    const std::size_t used = out.size() - start;
    if (!Compact(*it, budget - used, out)) return false;
  }
  out += object ? '}' : ']';
  return !over();
}

class ScenarioLayout {
 public:
  std::string Run(const Doc& doc) {
    Emit(doc, 0, 0);
    out_ += '\n';
    return std::move(out_);
  }

 private:
  // `v` whose first character goes at column `used` of a line indented by `indent`.
  void Emit(const Doc& v, std::size_t indent, std::size_t used) {
    if (!IsScalar(v) && v.empty()) {
      out_ += v.is_object() ? "{}" : "[]";
      return;
    }
    const bool grid = IsGrid(v);
    if (!grid) {
      // One column kept for the comma after it.
      const std::size_t budget = used + 1 < kLayoutWidth ? kLayoutWidth - used - 1 : 0;
      std::string line;
      if (Compact(v, budget, line)) {
        out_ += line;
        return;
      }
    }
    const std::string pad(indent + 2, ' ');
    if (v.is_object()) {
      out_ += "{\n";
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out_ += ",\n";
        first = false;
        const std::string key = Scalar(Doc(it.key())) + ": ";
        out_ += pad + key;
        path_.push_back(it.key());
        Emit(*it, indent + 2, indent + 2 + key.size());
        path_.pop_back();
      }
      out_ += '\n' + std::string(indent, ' ') + '}';
      return;
    }
    const bool scalars = std::all_of(v.begin(), v.end(), IsScalar);
    out_ += '[';
    if (grid || !scalars) {
      out_ += '\n';
      std::size_t i = 0;
      for (const Doc& item : v) {
        if (i > 0) out_ += ",\n";
        out_ += pad;
        path_.push_back(std::to_string(i++));
        Emit(item, indent + 2, indent + 2);
        path_.pop_back();
      }
    } else {
      // Packed: as many as fit on each line.
      std::size_t column = 0;
      bool first = true;
      for (const Doc& item : v) {
        const std::string text = Scalar(item);
        if (first) {
          out_ += '\n' + pad;
          column = pad.size();
        } else if (column + 2 + text.size() + 1 > kLayoutWidth) {
          out_ += ",\n" + pad;
          column = pad.size();
        } else {
          out_ += ", ";
          column += 2;
        }
        first = false;
        out_ += text;
        column += text.size();
      }
    }
    out_ += '\n' + std::string(indent, ' ') + ']';
  }

  // /sheets/N/terrain, coast and zones: one row per line, always.
  bool IsGrid(const Doc& v) const {
    return v.is_array() && path_.size() == 3 && path_[0] == "sheets" &&
           (path_[2] == "terrain" || path_[2] == "coast" || path_[2] == "zones");
  }

  std::vector<std::string> path_;
  std::string out_;
};

// One pass: each token joined to the run before it when one of its ends is the run's last hex
// (a run of one hexside may be read either way).
std::vector<std::string> ChainOnce(const std::vector<std::string>& tokens) {
  std::vector<std::string> out;
  std::vector<HexName> run;          // the hexes of the run so far
  std::size_t first = 0, count = 0;  // the tokens it was read from
  const auto flush = [&] {
    // A lone "A/B" stays as written; chains are written as ChainText writes them.
    const bool lone = count == 1 && tokens[first].find('/') != std::string::npos;
    if (count > 0) out.push_back(lone ? tokens[first] : ChainText(run));
    run.clear();
    count = 0;
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    auto path = PathOf(tokens[i]);
    if (!path) {
      flush();
      out.push_back(tokens[i]);
      continue;
    }
    const auto touches = [&](const HexName& h) { return h == path->front() || h == path->back(); };
    if (run.size() == 2 && !touches(run.back()) && touches(run.front())) {
      std::swap(run[0], run[1]);
    }
    if (!run.empty() && touches(run.back())) {
      if (path->front() != run.back()) std::reverse(path->begin(), path->end());
      run.insert(run.end(), path->begin() + 1, path->end());
      ++count;
      continue;
    }
    flush();
    run = std::move(*path);
    first = i;
    count = 1;
  }
  flush();
  return out;
}

}  // namespace

// Passes until nothing more joins (a join can make a new end that joins the next run), so that
// formatting a formatted list changes nothing; each pass that changes the list shortens it.
std::vector<std::string> ChainHexsides(const std::vector<std::string>& tokens) {
  std::vector<std::string> now = tokens;
  for (;;) {
    std::vector<std::string> next = ChainOnce(now);
    if (next.size() == now.size()) return next;
    now = std::move(next);
  }
}

Result<std::string> FormatScenario(const JsonSource& src) {
  if (!src.doc().is_object()) {
    return src.Bad(JsonSource::Pointer(), "a scenario file holds one JSON object");
  }
  // Parsed again keeping the keys' order; JsonSource has refused what this parser would take
  // differently (a repeated key, a number out of range).
  Doc doc = Doc::parse(src.text(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return src.Bad(JsonSource::Pointer(), "a scenario file holds one JSON object");
  }
  if (doc.contains("hexsides") && doc["hexsides"].is_object()) {
    for (const char* key : {"road", "railroad"}) {
      Doc* list = doc["hexsides"].contains(key) ? &doc["hexsides"][key] : nullptr;
      if (!list || !list->is_array() ||
          !std::all_of(list->begin(), list->end(), [](const Doc& t) { return t.is_string(); })) {
        continue;
      }
      *list = ChainHexsides(list->get<std::vector<std::string>>());
    }
  }
  return ScenarioLayout().Run(doc);
}

}  // namespace opsim::map
