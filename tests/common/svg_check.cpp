#include "svg_check.h"

#include <cctype>
#include <cmath>
#include <sstream>
#include <vector>

namespace opsim::test {

// The element that opens with `head` (e.g. `<g class="counter naval allied" data-unit="uk-med"`),
// through its closing tag's start; empty if absent.
std::string Element(const std::string& svg, const std::string& head, const std::string& close) {
  const auto at = svg.find(head);
  if (at == std::string::npos) return "";
  return svg.substr(at, svg.find(close, at) - at);
}

// Tags open and close in order, and every '&' starts an entity: enough to catch an unescaped
// label or a counter left open.
::testing::AssertionResult WellFormed(const std::string& svg) {
  std::vector<std::string> open;
  for (std::size_t i = svg.find('<'); i != std::string::npos; i = svg.find('<', i + 1)) {
    const std::size_t end = svg.find('>', i);
    if (end == std::string::npos) return ::testing::AssertionFailure() << "unclosed tag at " << i;
    const std::string tag = svg.substr(i + 1, end - i - 1);
    if (tag.starts_with("?") || tag.starts_with("!")) continue;  // <?xml ...?>, <!-- -->
    const std::string name =
        tag.substr(tag[0] == '/', tag.find_first_of(" />", 1) - (tag[0] == '/'));
    if (tag[0] == '/') {
      if (open.empty() || open.back() != name) {
        return ::testing::AssertionFailure() << "</" << name << "> closes nothing open at " << i;
      }
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(name);
    }
  }
  for (std::size_t i = svg.find('&'); i != std::string::npos; i = svg.find('&', i + 1)) {
    const std::size_t semi = svg.find(';', i);
    if (semi == std::string::npos || semi - i > 6) {
      return ::testing::AssertionFailure() << "bare '&' at " << i;
    }
  }
  if (!open.empty()) return ::testing::AssertionFailure() << "<" << open.back() << "> left open";
  return ::testing::AssertionSuccess();
}

std::size_t Count(const std::string& svg, const std::string& what) {
  std::size_t n = 0;
  for (auto at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1)) ++n;
  return n;
}

// The text of attribute `name` in `tag` (after a space), or nothing. (Read by hand: std::regex
// trips gcc 12's -Wmaybe-uninitialized in the sanitizer build.)
std::optional<std::string> AttrText(std::string_view tag, const std::string& name) {
  const std::string open = name + "=\"";
  for (std::size_t at = tag.find(open); at != std::string_view::npos; at = tag.find(open, at + 1)) {
    if (at == 0 || !std::isspace(static_cast<unsigned char>(tag[at - 1]))) continue;
    const std::size_t from = at + open.size(), to = tag.find('"', from);
    if (to == std::string_view::npos) return std::nullopt;
    return std::string(tag.substr(from, to - from));
  }
  return std::nullopt;
}

// The value of attribute `name` in `tag`, or NaN.
double Attr(const std::string& tag, const std::string& name) {
  const std::optional<std::string> text = AttrText(tag, name);
  if (!text || text->empty() || text->find_first_not_of("-0123456789.") != std::string::npos) {
    return std::nan("");
  }
  return std::stod(*text);
}

// Points per drawing unit: the <svg>'s width on paper over its viewBox's.
double PointsPerUnit(const std::string& svg) {
  const std::size_t at = svg.find("<svg ");
  const std::string_view tag = at == std::string::npos
                                   ? std::string_view()
                                   : std::string_view(svg).substr(at, svg.find('>', at) - at);
  const std::optional<std::string> width = AttrText(tag, "width"), box = AttrText(tag, "viewBox");
  EXPECT_TRUE(width && box) << svg.substr(0, 300);
  if (!width || !box) return 0;
  const bool inches = width->ends_with("in");
  EXPECT_TRUE(inches || width->ends_with("mm")) << *width;
  double x = 0, y = 0, w = 0;
  std::istringstream(*box) >> x >> y >> w;
  EXPECT_GT(w, 0) << *box;
  if (w <= 0) return 0;
  const double mm = std::stod(width->substr(0, width->size() - 2)) * (inches ? 25.4 : 1);
  return mm / w / 25.4 * 72;
}

// Every font-size in the drawing, in points at its size on paper, is 6 or more.
::testing::AssertionResult TextsOfSixPoints(const std::string& svg) {
  const double pt = PointsPerUnit(svg);
  const std::string open = "font-size=\"";
  std::size_t n = 0;
  for (std::size_t at = svg.find(open); at != std::string::npos; at = svg.find(open, at + 1), ++n) {
    const double size = std::stod(svg.substr(at + open.size(), 16)) * pt;
    if (size < 6) {
      return ::testing::AssertionFailure() << "a " << size << " pt text: " << svg.substr(at, 120);
    }
  }
  if (n == 0) return ::testing::AssertionFailure() << "no text";
  return ::testing::AssertionSuccess();
}

}  // namespace opsim::test
