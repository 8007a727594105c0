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
#include <map>
#include <spanstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "opsim/core/echo.h"

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

// What the snapshot being loaded may hold, kept as a helper of its archive: the lengths of the
// theater's by-hex, by-hexside and by-zone arrays, and the bytes left to read. Every length an
// archive gives is checked against them before anything is allocated, so that a few rewritten
// bytes cannot claim billions of hexes.
struct Bounds {
  std::uint64_t hexes = 0;
  std::uint64_t hexsides = 0;
  std::uint64_t zones = 0;
  std::istream* in = nullptr;
  std::uint64_t size = 0;

  std::uint64_t Left() const {
    const auto at = in->tellg();
    return at < 0 ? 0 : size - static_cast<std::uint64_t>(at);
  }
  // `count` items of `bytes_each` bytes in the archive, at most the `most` that `holder` holds.
  void Check(std::uint64_t count, std::uint64_t most, std::string_view holder,
             std::uint64_t bytes_each, const std::string& what) const {
    if (count > most) {
      throw std::runtime_error(what + " claims " + std::to_string(count) + " entries; " +
                               std::string(holder) + " holds " + std::to_string(most));
    }
    if (bytes_each > 0 && count > Left() / bytes_each) {
      throw std::runtime_error(what + " claims " + std::to_string(count) +
                               " entries; the snapshot has " + std::to_string(Left()) +
                               " bytes left");
    }
  }
};

template <class Archive>
const Bounds& BoundsOf(Archive& ar) {
  return ar.template get_helper<Bounds>();
}

// A collection's count, read and checked (Bounds::Check) before anything is sized.
template <class Archive>
std::uint64_t LoadCount(Archive& ar, std::uint64_t most, std::string_view holder,
                        std::uint64_t bytes_each, const std::string& what) {
  boost::serialization::collection_size_type count;
  ar >> count;
  BoundsOf(ar).Check(count, most, holder, bytes_each, what);
  return count;
}

// A vector of plain values, loaded as Boost writes it (a count, then the values as one block)
// once the count is checked.
template <class Archive, class T>
void LoadPlain(Archive& ar, std::vector<T>& v, std::uint64_t most, std::string_view holder,
               const std::string& what) {
  const std::uint64_t count = LoadCount(ar, most, holder, sizeof(T), what);
  v.resize(count);
  if (BOOST_SERIALIZATION_VECTOR_VERSIONED(ar.get_library_version())) {
    unsigned int item_version = 0;
    ar >> item_version;
  }
  if (!v.empty()) ar >> boost::serialization::make_array<T>(v.data(), count);
}

// An enum, loaded as Boost writes it (an int), refused outside its values (ops::EnumCount): Boost
// would cast any int into it, and the rules index tables by it.
template <class Archive, class E>
void LoadEnum(Archive& ar, E& e, std::string_view what) {
  int value = 0;
  ar >> value;
  if (value < 0 || value >= ops::EnumCount(E{})) {
    throw std::runtime_error(std::string(what) + " holds " + std::to_string(value) +
                             ", not one of its " + std::to_string(ops::EnumCount(E{})) + " values");
  }
  e = static_cast<E>(value);
}

// An owner array's values, refused unless each is an Owner (axis, allied or none).
void CheckOwners(const std::vector<std::uint8_t>& v, const std::string& what) {
  for (std::uint8_t o : v) {
    if (o > static_cast<std::uint8_t>(Owner::kNone)) {
      throw std::runtime_error(what + " holds " + std::to_string(o) + ", not an owner");
    }
  }
}

// A bool, loaded as Boost writes it (one byte), refused unless 0 or 1: Boost would copy any byte
// into the bool, which is undefined behaviour.
template <class Archive>
void LoadBool(Archive& ar, bool& b) {
  std::uint8_t byte = 0;
  ar.load_binary(&byte, 1);
  if (byte > 1) throw std::runtime_error("a yes/no value holds " + std::to_string(byte));
  b = byte == 1;
}

// A vector<bool>, loaded as Boost writes it (a count, then each value) once the count is checked.
template <class Archive>
void LoadPlain(Archive& ar, std::vector<bool>& v, std::uint64_t most, std::string_view holder,
               const std::string& what) {
  const std::uint64_t count = LoadCount(ar, most, holder, sizeof(bool), what);
  v.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    bool b = false;
    LoadBool(ar, b);
    v[i] = b;
  }
}

// A string, loaded as Boost writes it (its length, then its bytes) once the length is checked.
template <class Archive>
void LoadPlain(Archive& ar, std::string& s) {
  std::size_t length = 0;
  ar >> length;
  BoundsOf(ar).Check(length, UINT64_MAX, "", 1, "a text");
  s.resize(length);
  if (length > 0) ar.load_binary(s.data(), length);
}

// A vector, loaded as Boost writes it: plain values as one block (LoadPlain), anything else as a
// count, an item version and the items. The count is checked against the bytes left before the
// vector is sized, and texts among the items are loaded with their lengths checked.
template <class Archive, class T>
void LoadCollection(Archive& ar, std::vector<T>& v, const std::string& what) {
  if constexpr (std::is_arithmetic_v<T>) {
    LoadPlain(ar, v, UINT64_MAX, "", what);
  } else {
    boost::serialization::collection_size_type count;
    ar >> count;
    if (boost::serialization::library_version_type(3) < ar.get_library_version()) {
      boost::serialization::item_version_type item_version(0);
      ar >> item_version;
    }
    // Every item takes a byte at least, a text its length's bytes.
    BoundsOf(ar).Check(count, UINT64_MAX, "",
                       std::is_same_v<T, std::string> ? sizeof(std::size_t) : 1, what);
    v.resize(count);
    for (T& item : v) {
      if constexpr (std::is_same_v<T, std::string>) {
        LoadPlain(ar, item);
      } else if constexpr (std::is_enum_v<T>) {
        LoadEnum(ar, item, what);
      } else {
        ar >> boost::serialization::make_nvp("item", item);
      }
    }
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
void SaveRuns(Archive& ar, const std::vector<std::uint8_t>& v) {
  std::uint64_t size = v.size();
  std::vector<std::uint8_t> values;
  std::vector<std::uint32_t> lengths;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i + 1;
    while (j < v.size() && v[j] == v[i] && j - i < UINT32_MAX) ++j;
    values.push_back(v[i]);
    lengths.push_back(static_cast<std::uint32_t>(j - i));
    i = j;
  }
  Fields(ar, size, values, lengths);
}

// Loads what SaveRuns saved, into an array of at most `most` values.
template <class Archive>
void LoadRuns(Archive& ar, std::vector<std::uint8_t>& v, std::uint64_t most,
              const std::string& what) {
  std::uint64_t size = 0;
  ar >> size;
  std::vector<std::uint8_t> values;
  std::vector<std::uint32_t> lengths;
  LoadPlain(ar, values, size, "its array", what + "'s runs");
  LoadPlain(ar, lengths, size, "its array", what + "'s runs");
  std::uint64_t total = 0;
  for (std::uint32_t n : lengths) total += n;
  if (values.size() != lengths.size() || total != size) {
    throw std::runtime_error("the runs of an owner array do not add up to its length");
  }
  BoundsOf(ar).Check(size, most, "the theater", 0, what);
  v.clear();
  v.reserve(size);
  for (std::size_t r = 0; r < values.size(); ++r) v.insert(v.end(), lengths[r], values[r]);
}

// Loads or saves an object's field list as its class `version` holds it: the fields of each
// version after those of the one before. MapState's by-hex and by-hexside arrays (its only
// vectors of bytes) go as runs from its version 3. Loading, the lengths of MapState's arrays
// and of every text are checked first (Bounds).
template <class Archive, class T>
void ListedFields(Archive& ar, T& object, unsigned version, const char* name) {
  for (unsigned v = 1; v <= version; ++v) {
    ForEachField(object, [&](const map::Field& f, auto& field) {
      if (f.since != v) return;
      using Field = std::remove_cvref_t<decltype(field)>;
      if constexpr (std::is_same_v<T, map::MapState> &&
                    std::is_same_v<Field, std::vector<std::uint8_t>>) {
        if constexpr (Archive::is_loading::value) {
          // Named, not compared with object.owners(): in this lambda `object` may be any class.
          const bool by_hex = f.name == "control";
          const std::string what = std::string("the ") + (by_hex ? "hex" : "hexside") +
                                   " owner array ('" + std::string(f.name) + "')";
          const std::uint64_t most = by_hex ? BoundsOf(ar).hexes : BoundsOf(ar).hexsides;
          if (version >= 3) {
            LoadRuns(ar, field, most, what);
          } else {
            LoadPlain(ar, field, most, "the theater", what);
          }
          return CheckOwners(field, what);
        } else if (version >= 3) {
          return SaveRuns(ar, field);
        }
      }
      if constexpr (Archive::is_loading::value && std::is_same_v<T, map::MapState> &&
                    std::is_same_v<Field, std::vector<bool>>) {
        return LoadPlain(ar, field, BoundsOf(ar).zones, "the theater", "the frozen-zone array");
      }
      if constexpr (Archive::is_loading::value && std::is_same_v<Field, std::string>) {
        return LoadPlain(ar, field);
      }
      if constexpr (Archive::is_loading::value && std::is_same_v<Field, bool>) {
        return LoadBool(ar, field);
      }
      if constexpr (Archive::is_loading::value && std::is_enum_v<Field>) {
        return LoadEnum(ar, field, std::string(name) + "'s '" + std::string(f.name) + "'");
      }
      ar& field;
    });
  }
}

}  // namespace opsim::db

// The lists and map entries a snapshot holds, loaded with their lengths checked. Boost finds these
// by argument-dependent lookup (the archive's namespace) and prefers them to its own templates; it
// reads their class information itself, so the bytes are the ones Boost wrote.
namespace boost::archive {

inline void serialize(binary_iarchive& ar, std::vector<std::string>& v, unsigned int) {
  opsim::db::LoadCollection(ar, v, "a list of texts");
}
inline void serialize(binary_iarchive& ar, std::vector<opsim::ops::GroundUnit>& v, unsigned int) {
  opsim::db::LoadCollection(ar, v, "the ground units");
}
inline void serialize(binary_iarchive& ar, std::vector<opsim::ops::AirUnit>& v, unsigned int) {
  opsim::db::LoadCollection(ar, v, "the air units");
}
inline void serialize(binary_iarchive& ar, std::vector<opsim::ops::NavalUnit>& v, unsigned int) {
  opsim::db::LoadCollection(ar, v, "the naval units");
}
inline void serialize(binary_iarchive& ar, std::vector<opsim::ops::Weather>& v, unsigned int) {
  opsim::db::LoadCollection(ar, v, "the weather by zone");
}
// An ice airfield's hex and whether it is frozen.
inline void serialize(binary_iarchive& ar, std::pair<const std::uint32_t, bool>& p, unsigned int) {
  ar >> const_cast<std::uint32_t&>(p.first);
  opsim::db::LoadBool(ar, p.second);
}
// An SRP pool's or an exit total's name.
inline void serialize(binary_iarchive& ar, std::pair<const std::string, int>& p, unsigned int) {
  opsim::db::LoadPlain(ar, const_cast<std::string&>(p.first));
  ar >> p.second;
}

}  // namespace boost::archive

namespace opsim::map {

template <class Archive>
void serialize(Archive& ar, HexRef& h, unsigned version) {
  db::Admit<HexRef>(ar, version, "HexRef");
  db::Fields(ar, h.v);
}

template <class Archive>
void serialize(Archive& ar, Flood& f, unsigned version) {
  db::Admit<Flood>(ar, version, "Flood");
  db::ListedFields(ar, f, version, "Flood");
}

template <class Archive>
void serialize(Archive& ar, MapState& s, unsigned version) {
  db::Admit<MapState>(ar, version, "MapState");
  db::ListedFields(ar, s, version, "MapState");
}

}  // namespace opsim::map

namespace opsim::ops {

template <class Archive>
void serialize(Archive& ar, GameDate& d, unsigned version) {
  db::Admit<GameDate>(ar, version, "GameDate");
  db::ListedFields(ar, d, version, "GameDate");
}

template <class Archive>
void serialize(Archive& ar, GroundUnit& u, unsigned version) {
  db::Admit<GroundUnit>(ar, version, "GroundUnit");
  db::ListedFields(ar, u, version, "GroundUnit");
}

template <class Archive>
void serialize(Archive& ar, AirUnit& u, unsigned version) {
  db::Admit<AirUnit>(ar, version, "AirUnit");
  db::ListedFields(ar, u, version, "AirUnit");
}

template <class Archive>
void serialize(Archive& ar, NavalUnit& u, unsigned version) {
  db::Admit<NavalUnit>(ar, version, "NavalUnit");
  db::ListedFields(ar, u, version, "NavalUnit");
}

template <class Archive>
void serialize(Archive& ar, GameState& s, unsigned version) {
  db::Admit<GameState>(ar, version, "GameState");
  db::ListedFields(ar, s, version, "GameState");
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

Result<ops::GameState> LoadSnapshot(std::string_view bytes, int format, const map::Theater& theater,
                                    const ops::RuleTables& rules) {
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
    ar.get_helper<Bounds>() = Bounds{theater.hex_count(), theater.hexside_count(),
                                     theater.weather_zones().size(), &in, bytes.size()};
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
  for (const ops::GroundUnit& u : state.units) {
    if (static_cast<std::size_t>(u.type) >= rules.unit_types.size()) {
      return Fail(ErrorCode::kCorruption, "the snapshot gives unit " + EchoToken(u.id) + " type " +
                                              std::to_string(static_cast<int>(u.type)) +
                                              ", not one of the rules' " +
                                              std::to_string(rules.unit_types.size()));
    }
  }
  return state;
}

}  // namespace opsim::db
