#include "opsim/tactical/unit.h"

#include "opsim/core/enum_names.h"

namespace opsim::tactical {

namespace {

constexpr std::array<const char*, 9> kKinds = {"infantry",  "cavalry",       "cycle",
                                               "bicycle",   "fully-tracked", "truck",
                                               "amphibian", "boat",          "landing-craft"};
constexpr std::array kFlags = {"afv",
                               "dozer",
                               "waterproofed",
                               "manhandling-gun",
                               "manhandling-boat",
                               "manhandling-motorcycle",
                               "leading-horses",
                               "pushing-motorcycle",
                               "animal-packed",
                               "towing-gun",
                               "galloping",
                               "commando",
                               "japanese",
                               "dummy",
                               "column",
                               "berserk",
                               "broken",
                               "pinned",
                               "reduced",
                               "immobilized",
                               "large-target"};

static_assert(kFlags.size() == static_cast<std::size_t>(UnitFlag::kCount), "a name for every flag");

static_assert(kKinds.size() == static_cast<std::size_t>(UnitKind::kLandingCraft) + 1,
              "a name for each value");

}  // namespace

bool Unit::vehicle() const {
  return kind_ == UnitKind::kFullyTracked || kind_ == UnitKind::kTruck ||
         kind_ == UnitKind::kAmphibian;
}

bool Unit::watercraft() const {
  return kind_ == UnitKind::kAmphibian || kind_ == UnitKind::kBoat ||
         kind_ == UnitKind::kLandingCraft;
}

bool Unit::manhandling() const {
  return Has(UnitFlag::kManhandlingGun) || Has(UnitFlag::kManhandlingBoat) ||
         Has(UnitFlag::kManhandlingMotorcycle);
}

bool Unit::full_tracked_afv_or_dozer() const {
  return kind_ == UnitKind::kFullyTracked && (Has(UnitFlag::kAfv) || Has(UnitFlag::kDozer)) &&
         !Has(UnitFlag::kImmobilized);
}

std::string Unit::ToString() const {
  std::string out = Name(kind_);
  for (std::size_t i = 0; i < kFlags.size(); ++i) {
    if (flags_.test(i)) out += std::string("+") + kFlags[i];
  }
  return out;
}

const char* Name(UnitKind k) {
  return kKinds[static_cast<std::size_t>(k)];
}
const char* Name(UnitFlag f) {
  return kFlags[static_cast<std::size_t>(f)];
}

std::optional<UnitKind> ParseUnitKind(std::string_view s) {
  return LookupName<UnitKind>(kKinds, s);
}

std::optional<UnitFlag> ParseUnitFlag(std::string_view s) {
  return LookupName<UnitFlag>(kFlags, s);
}

std::string UnitKindNames() {
  return JoinNames(kKinds);
}
std::string UnitFlagNames() {
  return JoinNames(kFlags);
}

}  // namespace opsim::tactical
