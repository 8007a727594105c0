// One field list behind the state hash, the snapshot and the state file (ForEachField): each field
// of GameState and MapState, down to each field of a unit and of a flood, is changed in turn and
// must change the state hash and come back unchanged from a snapshot and from a state file. The
// changes are enumerated from the field list itself, so a new field is tested without a line
// here (and a field of a new type does not compile until Changes gives it a change).
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "db_test_util.h"
#include "opsim/db/snapshot.h"
#include "opsim/ops/game_state.h"
#include "opsim/ops/state_file.h"
#include "test_support.h"

namespace opsim {
namespace {

// Every change the field list allows, each a valid state on the theater: a scalar takes another
// value, a record each change of each of its fields, a list each change of its first element, a
// map or set a new entry (a map of records also each change of its first record).
class Changes {
 public:
  using Change = std::function<void(ops::GameState&)>;
  struct Named {
    std::string path;
    Change apply;
  };

  explicit Changes(const ops::GameState& s) {
    Walk(s, "", [](ops::GameState& g) -> ops::GameState& { return g; });
  }
  const std::vector<Named>& all() const { return all_; }

 private:
  // `at` reaches the value being changed in a copy of the state.
  template <class T, class At>
  void Walk(const T& v, const std::string& path, At at) {
    if constexpr (std::is_same_v<T, bool>) {
      Add(path, [at](ops::GameState& g) { at(g) = !at(g); });
    } else if constexpr (std::is_enum_v<T>) {
      Add(path, [at](ops::GameState& g) {
        at(g) = static_cast<T>(static_cast<std::uint8_t>(at(g)) == 0 ? 1 : 0);
      });
    } else if constexpr (std::is_same_v<T, std::uint8_t>) {  // an owner, a level, an area
      Add(path, [at](ops::GameState& g) { at(g) = at(g) == 1 ? 2 : 1; });
    } else if constexpr (std::is_integral_v<T>) {
      Add(path, [at](ops::GameState& g) { at(g) += 1; });
    } else if constexpr (std::is_same_v<T, std::string>) {
      Add(path, [at](ops::GameState& g) { at(g) += "-changed"; });
    } else if constexpr (std::is_same_v<T, map::HexRef>) {
      Add(path, [at](ops::GameState& g) { at(g).v += 1; });
    } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
      ASSERT_FALSE(v.empty()) << path;
      Add(path + "[0]", [at](ops::GameState& g) { at(g)[0] = !at(g)[0]; });
    } else if constexpr (requires { typename T::mapped_type; }) {
      ASSERT_FALSE(v.empty()) << path;
      Add(path + "[new]", [at](ops::GameState& g) {
        auto& m = at(g);
        m.emplace(NewKey(m), m.begin()->second);
      });
      if constexpr (Listed<typename T::mapped_type>) {
        Walk(
            v.begin()->second,
            path + "[first]", [at](ops::GameState & g) -> auto& { return at(g).begin()->second; });
      }
    } else if constexpr (requires { typename T::key_type; }) {
      Add(path + "[new]", [at](ops::GameState& g) { at(g).insert(NewKey(at(g))); });
    } else if constexpr (requires { typename T::value_type; }) {
      ASSERT_FALSE(v.empty()) << path;
      Walk(
          v[0], path + "[0]", [at](ops::GameState & g) -> auto& { return at(g)[0]; });
    } else {
      std::size_t i = 0;
      ForEachField(v, [&](const ops::Field& f, const auto& field) {
        const std::size_t index = i++;
        Walk(
            field, path + "." + std::string(f.name), [ at, index ](ops::GameState & g) -> auto& {
              return Nth<std::remove_cvref_t<decltype(field)>>(at(g), index);
            });
      });
    }
  }

  template <class T>
  static constexpr bool Listed = requires(T& t) {
    ForEachField(t, [](const ops::Field&, auto&) {});
  };

  // The index'th field of a record, of type F.
  template <class F, class R>
  static F& Nth(R& record, std::size_t index) {
    F* out = nullptr;
    std::size_t i = 0;
    ForEachField(record, [&](const ops::Field&, auto& field) {
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(field)>, F>) {
        if (i == index) out = &field;
      }
      ++i;
    });
    return *out;
  }

  // A key not yet in `m`: a hex or hexside after the last, or a new name.
  template <class M>
  static typename M::key_type NewKey(const M& m) {
    if constexpr (std::is_same_v<typename M::key_type, std::string>) {
      return "new";
    } else {
      return m.empty() ? 0 : *std::prev(m.end()) + 1;
    }
  }
  template <class K, class V>
  static K NewKey(const std::map<K, V>& m) {
    if constexpr (std::is_same_v<K, std::string>) {
      return "new";
    } else {
      return m.empty() ? 0 : std::prev(m.end())->first + 1;
    }
  }

  void Add(std::string path, Change apply) { all_.push_back({std::move(path), std::move(apply)}); }

  std::vector<Named> all_;
};

TEST(StateFields, EachFieldChangesTheHashAndSurvivesTheSnapshotAndTheStateFile) {
  const map::Scenario& sc = test::Bundled("special-terrain");
  ops::GameState base = test::HandBuiltState(&sc.theater);
  base.weather.resize(sc.theater.weather_zones().size(), ops::Weather::kFrost);  // one a zone
  const ops::ScenarioId id{"special-terrain", "special-terrain.json", "0"};
  const Changes changes(base);
  ASSERT_GE(changes.all().size(), 50u);
  std::set<std::string> hashes = {ops::StateHash(base)};
  for (const Changes::Named& change : changes.all()) {
    SCOPED_TRACE(change.path);
    ops::GameState s = base;
    change.apply(s);
    const std::string bytes = ops::CanonicalBytes(s);
    EXPECT_TRUE(hashes.insert(ops::StateHash(s)).second) << "the hash did not change";

    auto snapshot = db::LoadSnapshot(db::SaveSnapshot(s), db::kSnapshotFormat, sc.theater,
                                     ops::DefaultRuleTables());
    ASSERT_TRUE(snapshot) << snapshot.error().to_string();
    EXPECT_EQ(ops::CanonicalBytes(*snapshot), bytes) << "the snapshot lost it";

    auto src = JsonSource::FromText(ops::StateToJson(s, sc.theater, ops::DefaultRuleTables(), id),
                                    "state.json");
    ASSERT_TRUE(src) << src.error().to_string();
    auto file = ops::StateFromJson(*src, sc.theater, ops::DefaultRuleTables());
    ASSERT_TRUE(file) << file.error().to_string();
    EXPECT_EQ(ops::CanonicalBytes(file->state), bytes) << "the state file lost it";
    EXPECT_FALSE(file->edited);
  }
}

}  // namespace
}  // namespace opsim
