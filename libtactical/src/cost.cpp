#include "opsim/tactical/cost.h"

namespace opsim::tactical {

std::string Cost::ToString() const {
  const int whole = halves_ / 2;
  const bool half = halves_ % 2 != 0;
  if (!half) return std::to_string(whole);
  if (whole == 0) return "½";
  return std::to_string(whole) + "½";
}

}  // namespace opsim::tactical
