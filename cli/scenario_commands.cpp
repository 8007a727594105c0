// `opsim scenario check|format|stats`: a scenario file checked as `opsim new` loads it, laid out
// for humans, counted (docs/scenario-format.md, "Checking, formatting, counting"). The answers
// are libquery's (opsim/query/scenario.h) and the layout libmap's (opsim/map/scenario_layout.h),
// which the workshop's endpoints send too.
#include <filesystem>

#include "context.h"
#include "opsim/core/files.h"
#include "opsim/map/scenario.h"
#include "opsim/map/scenario_layout.h"
#include "opsim/query/scenario.h"

namespace opsim::cli {

namespace {

using nlohmann::json;

struct ScenarioOptions {
  std::string file;      // FILE
  std::string scenario;  // --scenario NAME (or a file)
  std::string out;
  bool in_place = false;
  bool force = false;
};

// FILE or --scenario, exactly one, as a path.
Result<std::string> ScenarioPath(const ScenarioOptions& o) {
  if (o.file.empty() == o.scenario.empty()) {
    return Fail(ErrorCode::kInvalidInput,
                "name one scenario: a FILE, or --scenario NAME (a bundled one, or a file)");
  }
  if (!o.file.empty()) return o.file;
  return map::ResolveScenario(o.scenario, query::ScenarioDir());
}

CLI::App* AddScenarioSubcommand(CLI::App* group, const std::string& name, const std::string& help,
                                ScenarioOptions& o) {
  CLI::App* cmd = group->add_subcommand(name, help);
  cmd->add_option("FILE", o.file, "the scenario file");
  cmd->add_option("--scenario", o.scenario,
                  "a bundled scenario's name (opsim scenarios lists them), or a file");
  return cmd;
}

std::string Counted(const json& n, const char* what) {
  return std::to_string(n.get<std::size_t>()) + " " + what;
}

std::string StatsText(const json& s) {
  std::string sheets;
  for (const json& name : s["sheets"])
    sheets += (sheets.empty() ? "" : " ") + name.get<std::string>();
  std::string text = s["name"].get<std::string>() + ": " + s["title"].get<std::string>() + "\n";
  const json& h = s["hexes"];
  text += "  hexes     " + Counted(h["total"], "") + "(" + Counted(h["land"], "land, ") +
          Counted(h["sea"], "sea, ") + Counted(h["lake"], "lake") + ") on " +
          std::to_string(s["sheets"].size()) + " sheets: " + sheets + "\n";
  std::string features;
  for (const auto& [name, n] : s["hexsides"]["features"].items()) {
    if (n.get<std::size_t>() > 0)
      features += " " + name + " " + std::to_string(n.get<std::size_t>());
  }
  for (const auto& [name, n] : s["hexsides"]["water"].items()) {
    if (n.get<std::size_t>() > 0)
      features += " " + name + " " + std::to_string(n.get<std::size_t>());
  }
  text += "  hexsides  " + Counted(s["hexsides"]["total"], "") + "(" +
          (features.empty() ? std::string(" none") : features).substr(1) + ")\n";
  const json& p = s["places"];
  std::string cities, ports;
  for (const auto& [name, n] : p["cities"].items()) cities += " " + name + " " + n.dump();
  for (const auto& [name, n] : p["ports"].items()) ports += " " + name + " " + n.dump();
  text += "  places    " + Counted(p["named"], "named; cities") + cities + "; ports" + ports +
          "; " + Counted(p["airbases"], "airbases") + "\n";
  text += "  map       " + Counted(s["areas"], "areas, ") + Counted(s["waterways"], "waterways, ") +
          Counted(s["rail_ferries"], "rail ferries, ") + Counted(s["exits"], "exits") + "\n";
  if (s["units"].is_null()) return text + "  units     none: a map only (no campaign)";
  for (const char* side : {"axis", "allied"}) {
    const json& u = s["units"][side];
    text += std::string("  ") + side + (std::string_view(side) == "axis" ? "      " : "    ") +
            Counted(u["ground"], "ground, ") + Counted(u["air"], "air, ") +
            Counted(u["naval"], "naval") + "\n";
  }
  return text;
}

// `check` and `stats`: the file checked as `opsim new` loads it; `check` answers whether it
// loads (with --json, the workshop's answer), `stats` what it holds, if it loads.
void AddCheckCommand(CLI::App* group, Context& ctx, const std::string& name,
                     const std::string& help, bool stats) {
  auto o = std::make_shared<ScenarioOptions>();
  auto* cmd = AddScenarioSubcommand(group, name, help, *o);
  Bind(cmd, ctx, [&ctx, o, stats]() -> Status {
    auto path = ScenarioPath(*o);
    if (!path) return std::unexpected(path.error());
    const query::ScenarioCheck c = query::CheckScenarioFile(*path);
    if (c.error && (stats || !ctx.json)) return std::unexpected(*c.error);
    if (c.error) {
      ctx.err << "opsim: error: " << c.error->to_string() << '\n';
      ctx.out << c.doc.dump() << '\n';
      ctx.exit_code = ExitCodeFor(c.error->code);
      return {};
    }
    const std::string text = StatsText(c.doc["stats"]);
    if (stats) {
      Emit(ctx, c.doc["stats"], text);
    } else {
      Emit(ctx, c.doc, *path + ": ok\n" + text);
    }
    return {};
  });
}

void AddFormat(CLI::App* group, Context& ctx) {
  auto o = std::make_shared<ScenarioOptions>();
  auto* cmd = AddScenarioSubcommand(
      group, "format",
      "Lay a scenario file out for humans, as the workshop saves it: 2-space indents, each "
      "terrain, coast and zones grid a row per line, token lists packed to 100 columns, small "
      "objects on one line, road and railroad hexsides joined into chains. The file need only be "
      "JSON: its rules are not checked (opsim scenario check does). To stdout, or --out",
      *o);
  cmd->add_option("--out", o->out,
                  "write it here (atomically: never half a file), not to stdout; refused if it "
                  "is FILE itself, unless --in-place");
  cmd->add_flag("--in-place", o->in_place, "write it over FILE (with --out FILE, or alone)");
  AddForceOption(cmd, o->force);
  Bind(cmd, ctx, [&ctx, o]() -> Status {
    auto path = ScenarioPath(*o);
    if (!path) return std::unexpected(path.error());
    std::string out = o->out;
    if (o->in_place) {
      if (o->file.empty()) {
        return Fail(ErrorCode::kInvalidInput,
                    "--in-place rewrites a FILE named on the command line, not a --scenario");
      }
      if (out.empty()) out = *path;
    }
    std::error_code ec;
    const bool same = !out.empty() && std::filesystem::equivalent(out, *path, ec) && !ec;
    if (same && !o->in_place) {
      return Fail(ErrorCode::kInvalidInput,
                  "--out is the scenario being formatted: add --in-place to rewrite it", out);
    }
    if (o->in_place && !same) {
      return Fail(ErrorCode::kInvalidInput, "--in-place writes FILE itself: --out names another",
                  out);
    }
    auto src = JsonSource::FromFile(*path, kMaxScenarioBytes);
    if (!src) return std::unexpected(src.error());
    auto text = map::FormatScenario(*src);
    if (!text) return std::unexpected(text.error());
    if (out.empty()) {
      if (ctx.json) {
        Emit(ctx, {{"text", *text}}, "");
      } else {
        ctx.out << *text;
      }
      return {};
    }
    const bool changed = src->text() != *text;
    if (auto s = WriteOutputFile(out, *text, kScenarioOutput, o->force); !s) return s;
    Emit(ctx, {{"out", out}, {"bytes", text->size()}, {"changed", changed}},
         "wrote " + out + " (" + std::to_string(text->size()) + " bytes" +
             (changed ? "" : ", unchanged") + ")");
    return {};
  });
}

}  // namespace

void AddScenarioCommands(CLI::App& app, Context& ctx) {
  CLI::App* group = app.add_subcommand(
      "scenario",
      "A scenario file: check it as opsim loads it, lay it out for humans, count what it holds "
      "(docs/scenario-format.md)");
  group->require_subcommand(1);
  AddCheckCommand(
      group, ctx, "check",
      "Check a scenario as `opsim new` and `opsim map` load it (its theater and campaign); "
      "exit 0 if it loads, else its first error with file, line and JSON path (exit 2, or 8 for "
      "a newer format). --json: {\"ok\": true, \"stats\"} or {\"ok\": false, \"error\"} with "
      "the error's line, path, and the hex or hexside it is about",
      false);
  AddFormat(group, ctx);
  AddCheckCommand(
      group, ctx, "stats",
      "What a scenario holds: sheets; hexes (land, sea, lake); hexsides by feature and water; "
      "places by kind; areas, waterways, rail ferries, exits; units by side (ground, air, "
      "naval). It must load, as opsim scenario check says",
      true);
}

}  // namespace opsim::cli
