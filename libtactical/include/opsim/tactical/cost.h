// Cost: an expenditure of MF or MP, kept in halves.
//
// The rules charge in halves (½ MF for EC mud, 1½ MF for grain, 2½ MF for a bank crossing into
// an In-Season paddy), so a Cost counts half-points exactly and prints them the way the rules
// do ("2½"). A plain value type; thread-safe.
#pragma once

#include <compare>
#include <string>

namespace opsim::tactical {

class Cost {
 public:
  constexpr Cost() = default;
  static constexpr Cost Points(int n) { return Cost(2 * n); }
  static constexpr Cost Halves(int n) { return Cost(n); }

  constexpr int halves() const { return halves_; }
  // The value as a number (2.5 for 2½), for JSON.
  constexpr double value() const { return halves_ / 2.0; }

  constexpr Cost operator+(Cost o) const { return Cost(halves_ + o.halves_); }
  constexpr Cost& operator+=(Cost o) {
    halves_ += o.halves_;
    return *this;
  }
  constexpr Cost operator*(int k) const { return Cost(halves_ * k); }
  friend constexpr auto operator<=>(Cost, Cost) = default;

  // "0", "½", "1", "2½".
  std::string ToString() const;

 private:
  constexpr explicit Cost(int halves) : halves_(halves) {}
  int halves_ = 0;
};

}  // namespace opsim::tactical
