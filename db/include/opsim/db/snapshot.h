// Snapshots: an ops::GameState as bytes, made with Boost.Serialization, so that the turn log can
// seek to any turn boundary without replaying from the start.
//
// A snapshot is a Boost binary archive of one GameState. Every class in it is versioned
// (BOOST_CLASS_VERSION), and the snapshot as a whole carries a format number that changes
// whenever any class version does. This build writes kSnapshotFormat and reads every format
// from kOldestSnapshotFormat to kSnapshotFormat; any other format, an archive from a newer
// Boost, or one from a platform with other native sizes is refused with kUnsupported and a
// message that says so. A snapshot is an accelerator, never the record: the log's orders, dice
// and hashes are, so a log whose snapshots cannot be read is replayed from the start instead.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "opsim/core/error.h"
#include "opsim/ops/game_state.h"

namespace opsim::db {

inline constexpr int kSnapshotFormat = 3;
inline constexpr int kOldestSnapshotFormat = 1;

// The state as a snapshot of format kSnapshotFormat.
std::string SaveSnapshot(const ops::GameState& state);
// Reads a snapshot written in `format` of a game on `theater`. kUnsupported for a format or
// archive this build cannot read, kCorruption for bytes that are not a snapshot, or whose arrays
// claim more hexes, hexsides or weather zones than the theater has, or whose lengths claim more
// bytes than are left: each length is checked before anything is allocated. A unit's type must
// be one of `rules`' types.
Result<ops::GameState> LoadSnapshot(std::string_view bytes, int format, const map::Theater& theater,
                                    const ops::RuleTables& rules);

}  // namespace opsim::db
