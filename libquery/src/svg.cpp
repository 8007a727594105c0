#include "opsim/query/svg.h"

#include "palette.h"

namespace opsim::query {

const nlohmann::json& Palette() {
  static const nlohmann::json palette = nlohmann::json::parse(kPaletteJson);
  return palette;
}

std::string StyleColor(const char* key) {
  return Palette().at("style").at(key).get<std::string>();
}

std::string Escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

const OutputKind& SvgFile() {
  static const OutputKind kind{"an SVG drawing", [](std::string_view text) {
                                 return text.substr(0, 4096).find("<svg") != std::string_view::npos;
                               }};
  return kind;
}

}  // namespace opsim::query
