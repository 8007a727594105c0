// The opsim executable: everything lives in cli.cpp, so tests can run it in-process.
#include <iostream>

#include "cli.h"

int main(int argc, char** argv) {
  return opsim::cli::Run(argc, argv, std::cout, std::cerr);
}
