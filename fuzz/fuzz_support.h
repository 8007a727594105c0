// What the harnesses share: the bundled game, loaded once per process, and a view of libFuzzer's
// bytes as text.
//
// Each harness feeds its bytes to the reader the CLI calls for one kind of input and ignores
// the answer: an Error is a fine outcome; a crash, a leak or a sanitizer report is a defect.
// libFuzzer runs a harness on one thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "opsim/query/source.h"

namespace opsim::fuzz {

// The bundled campaign (special-terrain) at its start: what orders, state files, --action and
// tokens are read against. Aborts if it does not load (the build is broken, not the input).
const query::LoadedGame& BundledGame();

inline std::string_view AsText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace opsim::fuzz
