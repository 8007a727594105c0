// Boost.Serialization for the game state: non-intrusive serialize() made from each class's field
// list (ForEachField). A class that gains a field bumps its version and lists the field with
// that version as its `since`; the field is then read only from archives of that version on, after
// the older fields, and kSnapshotFormat goes up with it (see docs/log-format.md, "Snapshots").
// Format 1: every class at version 1. Format 2: MapState 2 (destroyed bridges). Format 3:
// MapState 3 (the owner arrays as runs).
#include "opsim/db/snapshot.h"

#include <boost/archive/archive_exception.hpp>
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/map.hpp>
#include <boost/serialization/set.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <boost/serialization/version.hpp>
#include <cstdint>
#include <spanstream>
#include <sstream>
#include <stdexcept>
#include <type_traits>
#include <vector>

// A new field in any of these must be in its field list, with its class's version bumped.
static_assert(sizeof(opsim::ops::GameState) == 624, "GameState changed: update its snapshot");
static_assert(sizeof(opsim::map::MapState) == 384, "MapState changed: update its snapshot");
static_assert(sizeof(opsim::ops::GroundUnit) == 144, "GroundUnit changed: update its snapshot");
static_assert(sizeof(opsim::ops::AirUnit) == 112, "AirUnit changed: update its snapshot");
static_assert(sizeof(opsim::ops::NavalUnit) == 120, "NavalUnit changed: update its snapshot");
static_assert(sizeof(opsim::map::Flood) == 12, "Flood changed: update its snapshot");
static_assert(sizeof(opsim::ops::GameDate) == 12, "GameDate changed: update its snapshot");

BOOST_CLASS_VERSION(opsim::map::HexRef, 1)
BOOST_CLASS_VERSION(opsim::map::Flood, 1)
BOOST_CLASS_VERSION(opsim::map::MapState, 3)  // 2: destroyed bridges; 3: owners as runs
BOOST_CLASS_VERSION(opsim::ops::GameDate, 1)
BOOST_CLASS_VERSION(opsim::ops::GroundUnit, 1)
BOOST_CLASS_VERSION(opsim::ops::AirUnit, 1)
BOOST_CLASS_VERSION(opsim::ops::NavalUnit, 1)
BOOST_CLASS_VERSION(opsim::ops::GameState, 1)

namespace opsim::db {

// Boost hands a loaded class's version to serialize() but does not refuse one newer than the
// class's own, so every serialize() admits its version first.
class NewerClass : public std::exception {
 public:
  explicit NewerClass(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

template <class T, class Archive>
void Admit(const Archive&, unsigned version, const char* name) {
  constexpr unsigned known = boost::serialization::version<T>::value;
  if (Archive::is_loading::value && version > known) {
    throw NewerClass("the snapshot holds " + std::string(name) + " at class version " +
                     std::to_string(version) + "; this build reads up to version " +
                     std::to_string(known));
  }
}

// Loads or saves each field in order.
template <class Archive, class... T>
void Fields(Archive& ar, T&... fields) {
  (ar & ... & fields);
}

// A by-hex or by-hexside array as its length and runs of equal values: control changes along a
// few fronts, so a 100,000-hex map's owners take a few hundred runs instead of 100,000 bytes.
template <class Archive>
void Runs(Archive& ar, std::vector<std::uint8_t>& v) {
  std::uint64_t size = v.size();
  std::vector<std::uint8_t> values;
  std::vector<std::uint32_t> lengths;
  if constexpr (Archive::is_saving::value) {
    for (std::size_t i = 0; i < v.size();) {
      std::size_t j = i + 1;
      while (j < v.size() && v[j] == v[i] && j - i < UINT32_MAX) ++j;
      values.push_back(v[i]);
      lengths.push_back(static_cast<std::uint32_t>(j - i));
      i = j;
    }
  }
  Fields(ar, size, values, lengths);
  if constexpr (Archive::is_loading::value) {
    std::uint64_t total = 0;
    for (std::uint32_t n : lengths) total += n;
    if (values.size() != lengths.size() || total != size) {
      throw std::runtime_error("the runs of an owner array do not add up to its length");
    }
    v.clear();
    v.reserve(size);
    for (std::size_t r = 0; r < values.size(); ++r) v.insert(v.end(), lengths[r], values[r]);
  }
}

// Loads or saves an object's field list as its class `version` holds it: the fields of each
// version after those of the one before. MapState's by-hex and by-hexside arrays (its only
// vectors of bytes) go as runs from its version 3.
template <class Archive, class T>
void ListedFields(Archive& ar, T& object, unsigned version) {
  for (unsigned v = 1; v <= version; ++v) {
    ForEachField(object, [&](const map::Field& f, auto& field) {
      if (f.since != v) return;
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(field)>,
                                   std::vector<std::uint8_t>>) {
        if (version >= 3) return Runs(ar, field);
      }
      ar& field;
    });
  }
}

}  // namespace opsim::db

namespace opsim::map {

template <class Archive>
void serialize(Archive& ar, HexRef& h, unsigned version) {
  db::Admit<HexRef>(ar, version, "HexRef");
  db::Fields(ar, h.v);
}

template <class Archive>
void serialize(Archive& ar, Flood& f, unsigned version) {
  db::Admit<Flood>(ar, version, "Flood");
  db::ListedFields(ar, f, version);
}

template <class Archive>
void serialize(Archive& ar, MapState& s, unsigned version) {
  db::Admit<MapState>(ar, version, "MapState");
  db::ListedFields(ar, s, version);
}

}  // namespace opsim::map

namespace opsim::ops {

template <class Archive>
void serialize(Archive& ar, GameDate& d, unsigned version) {
  db::Admit<GameDate>(ar, version, "GameDate");
  db::ListedFields(ar, d, version);
}

template <class Archive>
void serialize(Archive& ar, GroundUnit& u, unsigned version) {
  db::Admit<GroundUnit>(ar, version, "GroundUnit");
  db::ListedFields(ar, u, version);
}

template <class Archive>
void serialize(Archive& ar, AirUnit& u, unsigned version) {
  db::Admit<AirUnit>(ar, version, "AirUnit");
  db::ListedFields(ar, u, version);
}

template <class Archive>
void serialize(Archive& ar, NavalUnit& u, unsigned version) {
  db::Admit<NavalUnit>(ar, version, "NavalUnit");
  db::ListedFields(ar, u, version);
}

template <class Archive>
void serialize(Archive& ar, GameState& s, unsigned version) {
  db::Admit<GameState>(ar, version, "GameState");
  db::ListedFields(ar, s, version);
}

}  // namespace opsim::ops

namespace opsim::db {

namespace {

std::string Formats() {
  return kOldestSnapshotFormat == kSnapshotFormat
             ? "format " + std::to_string(kSnapshotFormat)
             : "formats " + std::to_string(kOldestSnapshotFormat) + " to " +
                   std::to_string(kSnapshotFormat);
}

Error ArchiveError(const boost::archive::archive_exception& e) {
  using boost::archive::archive_exception;
  switch (e.code) {
    case archive_exception::unsupported_version:
      return Error{ErrorCode::kUnsupported,
                   "the snapshot was written by a newer Boost.Serialization than this build's",
                   {},
                   {}};
    case archive_exception::unsupported_class_version:
      return Error{
          ErrorCode::kUnsupported,
          "the snapshot holds a class version newer than this build reads (" + Formats() + ")",
          {},
          {}};
    case archive_exception::incompatible_native_format:
      return Error{ErrorCode::kUnsupported,
                   "the snapshot was written on a platform with other native sizes or byte "
                   "order",
                   {},
                   {}};
    default:
      return Error{
          ErrorCode::kCorruption, std::string("the bytes are not a snapshot: ") + e.what(), {}, {}};
  }
}

// Boost writes its signature first: a native size_t length, then the text. It is checked here so
// that bytes that are not an archive never reach Boost, which believes any length it reads.
// (Within an archive it still does: the log hands over only data whose SHA-256 it has checked.)
Status CheckSignature(std::string_view bytes) {
  constexpr std::string_view kSignature = "serialization::archive";
  const std::size_t length = kSignature.size();
  std::string native(reinterpret_cast<const char*>(&length), sizeof length);
  native += kSignature;
  if (bytes.starts_with(native)) return {};
  if (bytes.substr(0, 64).find(kSignature) != std::string_view::npos) {
    return Fail(ErrorCode::kUnsupported,
                "the snapshot was written on a platform with other native sizes or byte order");
  }
  return Fail(ErrorCode::kCorruption,
              "the bytes are not a snapshot (no Boost.Serialization signature)");
}

}  // namespace

std::string SaveSnapshot(const ops::GameState& state) {
  std::ostringstream out;
  {
    boost::archive::binary_oarchive ar(out);
    ar << state;
  }
  return std::move(out).str();
}

Result<ops::GameState> LoadSnapshot(std::string_view bytes, int format) {
  if (format > kSnapshotFormat) {
    return Fail(ErrorCode::kUnsupported, "snapshot format " + std::to_string(format) +
                                             " is newer than this build reads (" + Formats() + ")");
  }
  if (format < kOldestSnapshotFormat) {
    return Fail(ErrorCode::kUnsupported, "snapshot format " + std::to_string(format) +
                                             " is older than this build reads (" + Formats() + ")");
  }
  if (auto s = CheckSignature(bytes); !s) return std::unexpected(s.error());
  ops::GameState state;
  std::ispanstream in(std::span<const char>(bytes.data(), bytes.size()));
  try {
    boost::archive::binary_iarchive ar(in);
    ar >> state;
  } catch (const boost::archive::archive_exception& e) {
    return std::unexpected(ArchiveError(e));
  } catch (const NewerClass& e) {
    return Fail(ErrorCode::kUnsupported, std::string(e.what()) + " (" + Formats() + ")");
  } catch (const std::exception& e) {
    return Fail(ErrorCode::kCorruption, std::string("the bytes are not a snapshot: ") + e.what());
  }
  const auto read = in.rdbuf()->pubseekoff(0, std::ios::cur, std::ios::in);
  if (read != static_cast<std::streamoff>(bytes.size())) {
    return Fail(ErrorCode::kCorruption, "the snapshot has " + std::to_string(bytes.size() - read) +
                                            " bytes after the state");
  }
  return state;
}

}  // namespace opsim::db
