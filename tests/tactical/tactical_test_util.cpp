#include "tactical_test_util.h"

#include <gtest/gtest.h>

#include "opsim/tactical/board_file.h"

namespace opsim::tactical::test {

std::string BoardPath(const std::string& name) {
  return std::string(OPSIM_TACTICAL_BOARDS) + "/" + name + ".json";
}

std::string FixturePath(const std::string& name) {
  return std::string(OPSIM_TACTICAL_FIXTURES) + "/" + name + ".json";
}

Board LoadFile(const std::string& path) {
  auto b = LoadBoard(path);
  EXPECT_TRUE(b.has_value()) << path << ": " << (b ? "" : b.error().to_string());
  return b ? std::move(*b) : Board();
}

bool HasNote(const StepReport& s, const std::string& rule) {
  for (const Note& n : s.notes) {
    if (n.rule == rule) return true;
  }
  return false;
}

Board Illustration(const std::string& name) {
  return LoadFile(BoardPath(name));
}

Board Paddies(PaddyState state, Ec ec) {
  Board b = Illustration("g8_2108");
  b.mutable_settings().paddy = state;
  b.mutable_settings().ec = ec;
  return b;
}

Board Beach(Slope slope, const std::string& name) {
  Board b = Illustration(name);
  b.mutable_settings().slope = slope;
  return b;
}

Position At(const Board& b, const std::string& token) {
  auto p = b.FindPosition(token);
  EXPECT_TRUE(p.has_value()) << token << ": " << (p ? "" : p.error().to_string());
  return p.value_or(Position{});
}

GridPos Hex(const Board& b, const std::string& token) {
  return At(b, token).hex;
}

LosEnd End(const Board& b, const std::string& unit_or_position) {
  if (const BoardUnit* u = b.FindUnit(unit_or_position)) return EndOf(*u);
  LosEnd e;
  e.at = At(b, unit_or_position);
  e.unit = Unit(UnitKind::kInfantry);
  return e;
}

MoveReport Move(const Board& b, const MoveOptions& o, const std::string& path) {
  auto r = EvaluateMove(b, o, SplitPath(path));
  EXPECT_TRUE(r.has_value()) << path << ": " << (r ? "" : r.error().to_string());
  return r.value_or(MoveReport{});
}

MoveOptions Infantry() {
  MoveOptions o;
  o.unit = Unit(UnitKind::kInfantry);
  return o;
}

std::vector<double> StepCosts(const MoveReport& r) {
  std::vector<double> out;
  for (std::size_t i = 1; i < r.steps.size(); ++i) out.push_back(r.steps[i].total().value());
  return out;
}

namespace {

void Merge(nlohmann::json& base, const nlohmann::json& patch) {
  for (const auto& [key, value] : patch.items()) {
    if (base.contains(key) && base[key].is_array() && value.is_array()) {
      for (const auto& v : value) base[key].push_back(v);
    } else if (base.contains(key) && base[key].is_object() && value.is_object()) {
      Merge(base[key], value);
    } else {
      base[key] = value;
    }
  }
}

}  // namespace

TempBoard::TempBoard(const std::string& base, const std::string& patch)
    : path_(dir_.Path("board.json")) {
  auto doc = nlohmann::json::parse(opsim::test::ReadFile(base));
  Merge(doc, nlohmann::json::parse(patch));
  opsim::test::WriteFile(path_, doc.dump(2));
}

nlohmann::json Cli(const std::vector<std::string>& args, int code) {
  std::vector<std::string> argv = {"--json", "tactical"};
  argv.insert(argv.end(), args.begin(), args.end());
  const opsim::test::CliRun run = opsim::test::RunCli(argv);
  EXPECT_EQ(run.code, code) << run.err << run.out;
  return run.json();
}

std::vector<double> CliStepCosts(const nlohmann::json& doc) {
  std::vector<double> out;
  if (!doc.contains("steps")) return out;
  for (std::size_t i = 1; i < doc["steps"].size(); ++i)
    out.push_back(doc["steps"][i]["cost"].get<double>());
  return out;
}

}  // namespace opsim::tactical::test
