// Unit: the kind of thing that moves or fires, and the circumstances the rules ask about.
//
// G8, G9 and G13 distinguish Infantry, Cavalry, Cycle Riders (on motorcycles), Infantry riding
// bicycles, fully-tracked vehicles (AFV or dozer among them), other vehicles (a truck stands for
// them, as in the G8.8 and G13.422 EX), amphibians, boats and landing craft; and circumstances
// such as Manhandling, "leading" horses, Galloping, Waterproofing or being a Commando. A Unit is
// a kind plus a set of such flags. Value type; thread-safe.
#pragma once

#include <bitset>
#include <optional>
#include <string>
#include <string_view>

namespace opsim::tactical {

enum class UnitKind {
  kInfantry,
  kCavalry,
  kCycle,    // Cycle Riders on a Ridden motorcycle
  kBicycle,  // Infantry riding bicycles
  kFullyTracked,
  kTruck,  // any non-fully-tracked ground vehicle
  kAmphibian,
  kBoat,
  kLandingCraft,
};

enum class UnitFlag {
  kAfv,
  kDozer,
  kWaterproofed,
  kManhandlingGun,
  kManhandlingBoat,
  kManhandlingMotorcycle,
  kLeadingHorses,
  kPushingMotorcycle,
  kAnimalPacked,  // the Gun it carries is Animal-Packed (or dm): G8.12
  kTowingGun,
  kGalloping,  // or Charging
  kCommando,
  kJapanese,
  kDummy,
  kColumn,
  kBerserk,  // or conducting a Human-Wave/Banzai Charge: G9.43
  kBroken,
  kPinned,   // a Panji MC's Final DR equal to morale (G9.31), or +pinned
  kReduced,  // has suffered Casualty Reduction (G9.31)
  kImmobilized,
  kLargeTarget,  // a vehicle of Target Size -2, -3 or -4 (G13.711)
  kCount
};

class Unit {
 public:
  Unit() = default;
  explicit Unit(UnitKind kind) : kind_(kind) {}

  UnitKind kind() const { return kind_; }
  bool Has(UnitFlag f) const { return flags_.test(static_cast<std::size_t>(f)); }
  Unit& Set(UnitFlag f, bool on = true) {
    flags_.set(static_cast<std::size_t>(f), on);
    return *this;
  }

  bool infantry() const { return kind_ == UnitKind::kInfantry || kind_ == UnitKind::kBicycle; }
  bool vehicle() const;
  bool watercraft() const;
  bool manhandling() const;
  // A Mobile fully-tracked AFV or dozer (G9.42, G9.5, G9.6).
  bool full_tracked_afv_or_dozer() const;

  // "infantry", "infantry+manhandling-gun".
  std::string ToString() const;

 private:
  UnitKind kind_ = UnitKind::kInfantry;
  std::bitset<static_cast<std::size_t>(UnitFlag::kCount)> flags_;
};

const char* Name(UnitKind k);
const char* Name(UnitFlag f);
std::optional<UnitKind> ParseUnitKind(std::string_view s);
std::optional<UnitFlag> ParseUnitFlag(std::string_view s);
std::string UnitKindNames();
std::string UnitFlagNames();

}  // namespace opsim::tactical
