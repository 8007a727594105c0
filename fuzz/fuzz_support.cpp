#include "fuzz_support.h"

#include <cstdio>
#include <cstdlib>

namespace opsim::fuzz {

const query::LoadedGame& BundledGame() {
  static const query::LoadedGame game = [] {
    query::Source source;
    source.scenario = "special-terrain";
    auto g = query::Load(source);
    if (!g) {
      std::fprintf(stderr, "fuzz: the bundled game does not load: %s\n",
                   g.error().to_string().c_str());
      std::abort();
    }
    return std::move(*g);
  }();
  return game;
}

}  // namespace opsim::fuzz
