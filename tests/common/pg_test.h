// The PostgreSQL test cluster that ctest's pg.start fixture starts (scripts/pg.sh): its URI.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace opsim::test {

// The test cluster's URI (no game), from the fixture's file ($OPSIM_TEST_PG_URI_FILE). Without
// one the test fails (never skips), and the URI returned fails every use.
inline std::string PgUri() {
  const char* file = std::getenv("OPSIM_TEST_PG_URI_FILE");
  std::ifstream in(file == nullptr ? "" : file);
  std::string uri;
  std::getline(in, uri);
  if (uri.empty()) {
    ADD_FAILURE() << "no PostgreSQL test cluster: $OPSIM_TEST_PG_URI_FILE ("
                  << (file ? file : "unset")
                  << ") names no URI; ctest starts one (the pg.start fixture), or run "
                     "scripts/pg.sh start DIR";
    return "postgresql:///no-test-cluster?host=/nonexistent";
  }
  return uri;
}

}  // namespace opsim::test
