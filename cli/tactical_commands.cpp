// `opsim tactical ...`: the tactical terrain module's commands. (Being written; see issue 5.)
#include "context.h"

namespace opsim::cli {

void AddTacticalCommands(CLI::App& /*app*/, Context& /*ctx*/) {}

}  // namespace opsim::cli
