// An error as every opsim answer writes it in JSON, the CLI's `--json` and the server's bodies
// alike (docs/api.md, "Errors"): {"code", "message", "where", "rule"}, each a string, "" where
// the error has none. The one encoder: a caller adds its own keys beside these (a scenario
// check's line and hex, libquery/scenario.h), never writes these itself.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "opsim/core/error.h"

namespace opsim {

nlohmann::json ErrorJson(const Error& e);
// An answer's own refusal that is no opsim::Error (the server's "too-large", "rate-limited",
// "method-not-allowed"), in the same shape.
nlohmann::json ErrorJson(std::string_view code, std::string_view message,
                         std::string_view where = {}, std::string_view rule = {});

}  // namespace opsim
