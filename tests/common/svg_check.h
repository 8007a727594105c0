// Checks of the SVG drawings (`opsim render`, `opsim tactical render`) the render tests share: is
// it well-formed, is every text legible at the drawing's natural size, and reading its elements.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace opsim::test {

// The element that opens with `head` (e.g. `<g class="counter naval allied" data-unit="uk-med"`),
// through its closing tag's start; empty if absent.
std::string Element(const std::string& svg, const std::string& head, const std::string& close);
// Tags open and close in order, and every '&' starts an entity: enough to catch an unescaped
// label or a counter left open. The XML declaration is skipped.
::testing::AssertionResult WellFormed(const std::string& svg);
// How many times `what` occurs in `svg`.
std::size_t Count(const std::string& svg, const std::string& what);
// The text of attribute `name` in `tag` (after a space), or nothing.
std::optional<std::string> AttrText(std::string_view tag, const std::string& name);
// The value of attribute `name` in `tag`, or NaN.
double Attr(const std::string& tag, const std::string& name);
// Points per drawing unit: the <svg>'s width on paper over its viewBox's.
double PointsPerUnit(const std::string& svg);
// Every font-size in the drawing, in points at its size on paper, is 6 or more.
::testing::AssertionResult TextsOfSixPoints(const std::string& svg);

}  // namespace opsim::test
