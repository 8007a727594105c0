#include "context.h"

namespace opsim::cli {

void AddMapCommands(CLI::App& /*app*/, Context& /*ctx*/) {}

}  // namespace opsim::cli
