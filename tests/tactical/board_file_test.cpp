// Board files and the grid they describe: coordinates as the rules write them, overlays laid on a
// board, and one clear error (file, line, JSON path, what) for a bad file, through the library
// and through the CLI (exit 2, one JSON object).
#include <gtest/gtest.h>

#include "opsim/core/rule_ids.h"
#include "opsim/tactical/board_file.h"
#include "opsim/tactical/coordinate.h"
#include "opsim/tactical/los_trace.h"
#include "tactical_test_util.h"

namespace opsim::tactical {
namespace {

using test::Cli;

const char* kMinimal = R"({
  "format": "opsim-tactical-board",
  "grids": [{"letters": {"prefix": "o", "columns": "J-M", "rows": "1-5"}, "terrain": "paddy"}]
})";

// The error for a board text, and the line it names.
Error Bad(const std::string& text) {
  auto b = ParseBoard(text, "bad.json");
  EXPECT_FALSE(b.has_value());
  return b ? Error{} : b.error();
}

// Coordinates are written as the rules write them and read back the same.
TEST(Board, CoordinatesAsTheRulesWriteThem) {
  EXPECT_EQ(ColumnIndex("A"), 0);
  EXPECT_EQ(ColumnIndex("GG"), 32);
  EXPECT_EQ(ColumnLetters(30), "EE");
  EXPECT_FALSE(ColumnIndex("AB").has_value());
  const Board g9 = test::Illustration("g9_3");
  for (const char* hex : {"37CC8", "37DD7", "37EE7", "37FF7"})
    EXPECT_EQ(g9.Name(test::Hex(g9, hex)), hex);
  EXPECT_EQ(test::Hex(g9, "EE7"), test::Hex(g9, "37EE7"));  // the board number may be left out
  const Board g13 = test::Illustration("g13_23");
  for (const char* hex : {"H9", "433", "1001", "1080"})
    EXPECT_EQ(g13.Name(test::Hex(g13, hex)), hex);
}

// The grid is ASL's: in the G9.3 EX, DD7 touches CC8, DD8 and EE8, and DD6, EE7 and DD7 meet at a
// vertex; in the G8 EX, oJ4-oK5 and oL4-oM4 are hexsides.
TEST(Board, AslAdjacency) {
  const Board b = test::Illustration("g9_3");
  for (const char* n : {"37CC8", "37DD8", "37EE8", "37EE7", "37DD6", "37CC7"}) {
    EXPECT_TRUE(map::DirectionTo(test::Hex(b, "37DD7"), test::Hex(b, n)).has_value()) << n;
  }
  EXPECT_TRUE(map::DirectionTo(test::Hex(b, "37DD6"), test::Hex(b, "37EE7")).has_value());
  const Board o = test::Illustration("g8_2108");
  for (auto [a, c] : {std::pair{"oJ4", "oK5"}, std::pair{"oL4", "oM4"}, std::pair{"oK3", "oL2"},
                      std::pair{"oL4", "oM5"}}) {
    EXPECT_TRUE(Hexside::Between(test::Hex(o, a), test::Hex(o, c)).has_value()) << a << c;
  }
}

// An overlay laid on a board: turned and translated, its own coordinates, OC1's hexrows 1001-1013
// beside 1014-1026 (G13.91 EX).
TEST(Board, OverlayPlacement) {
  CoordinateGrid oc = CoordinateGrid::Numbered("OC1", GridRole::kOcean, 1001, 13, 7, 4);
  oc.Place(*oc.Parse("1001"), {13, 21}, 3);
  EXPECT_EQ(oc.ToGlobal(*oc.Parse("1001")), (GridPos{13, 21}));
  for (int n = 1001; n < 1092; ++n) {
    const GridPos local = *oc.Parse(std::to_string(n));
    EXPECT_EQ(oc.ToLocal(oc.ToGlobal(local)), local);
    EXPECT_EQ(oc.Name(local), std::to_string(n));
  }
  for (int n = 1001; n < 1013; ++n) {
    EXPECT_TRUE(map::DirectionTo(oc.ToGlobal(*oc.Parse(std::to_string(n))),
                                 oc.ToGlobal(*oc.Parse(std::to_string(n + 1))))
                    .has_value());
    EXPECT_TRUE(map::DirectionTo(oc.ToGlobal(*oc.Parse(std::to_string(n))),
                                 oc.ToGlobal(*oc.Parse(std::to_string(n + 13))))
                    .has_value());
  }
}

// A LOS along a hexside is traced exactly: the G8.4 EX's squad A to squad B runs along oL4-oM4.
TEST(Board, ExactHexspineLos) {
  const Board b = test::Illustration("g8_2108");
  const LosTrace t = TraceLos(test::Hex(b, "oM5"), test::Hex(b, "oL3"));
  ASSERT_EQ(t.along.size(), 1u);
  EXPECT_EQ(b.Name(t.along[0]), "oL4-oM4");
  EXPECT_TRUE(t.Intervening().empty());
  EXPECT_EQ(t.entry.size(), 2u);
}

// A bad board file is refused with one error naming the file, the line (or JSON path) and what is
// wrong; nothing is loaded.
TEST(Board, BadFilesAreRefusedWithWhereAndWhat) {
  EXPECT_TRUE(ParseBoard(kMinimal, "ok.json").has_value());
  struct Case {
    std::string text;
    std::string where;  // part of Error::where
    std::string what;   // part of Error::message
  };
  const Case cases[] = {
      {"{\n  \"format\": \"opsim-tactical-board\",\n  \"grids\": [\n", "bad.json:4",
       "not valid JSON"},
      {R"({"format": "opsim-scenario", "grids": []})", "/format", "not a tactical board"},
      {R"({"format": "opsim-tactical-board"})", "bad.json", "missing required key 'grids'"},
      {R"({"format": "opsim-tactical-board", "grids": [], "x": 1})", "/x", "unknown key 'x'"},
      {R"({"format": "opsim-tactical-board", "grids": [{"letters": {"prefix": "o", "columns": "M-J", "rows": "1-5"}}]})",
       "/grids/0/letters/columns", "bad range"},
      {R"({"format": "opsim-tactical-board", "grids": [{"letters": {"prefix": "o", "columns": "J-M", "rows": "1-5"}, "terrain": "lava"}]})",
       "/grids/0/terrain", "unknown asl terrain 'lava'"},
      {R"({"format": "opsim-tactical-board", "grids": [{"letters": {"prefix": "o", "columns": "J-M", "rows": "1-5"}}],
           "hexes": {"oZ9": {}}})",
       "/hexes/oZ9", "hex 'oZ9'"},
      {R"({"format": "opsim-tactical-board", "grids": [{"letters": {"prefix": "o", "columns": "J-M", "rows": "1-5"}}],
           "hexsides": [{"hexes": "oJ1-oM5", "hedge": true}]})",
       "/hexsides/0/hexes", "not adjacent"},
      {R"({"format": "opsim-tactical-board", "grids": [{"letters": {"prefix": "o", "columns": "J-M", "rows": "1-5"}}],
           "units": [{"name": "A", "kind": "infantry", "at": "oL3:bank"}]})",
       "/units/0/at", "not a paddy hex"},
      {R"({"format": "opsim-tactical-board", "grids": [{"letters": {"prefix": "o", "columns": "J-M", "rows": "1-5"}}],
           "counters": [{"type": "panji", "hip": "Panji A: oL3-oL4"}, {"type": "panji", "hip": "Panji B: oL3-oL2"}]})",
       "/counters/1", "at most one per hex"},
      {R"({"format": "opsim-tactical-board", "grids": [{"letters": {"prefix": "o", "columns": "J-M", "rows": "1-5"}}],
           "counters": [{"type": "panji", "hip": "Panji A: oL3-oJ1"}]})",
       "/counters/0/hip", "must face a hexside"},
      {R"({"format": "opsim-tactical-board", "grids": [{"letters": {"prefix": "o", "columns": "J-M", "rows": "1-5"}}],
           "units": [{"name": "A", "kind": "tank", "at": "oL3"}]})",
       "/units/0/kind", "unknown value 'tank'"},
  };
  for (const Case& c : cases) {
    const Error e = Bad(c.text);
    EXPECT_EQ(e.code, ErrorCode::kInvalidInput) << c.text;
    EXPECT_NE(e.where.find(c.where), std::string::npos) << e.to_string();
    EXPECT_NE(e.message.find(c.what), std::string::npos) << e.to_string();
  }
  // A run of the entry area that is not two numbered hexes, even an empty one, is refused.
  for (const char* run : {"-", "1-", "-1", "99999999999-99999999999"}) {
    const Error e = Bad(
        std::string(R"({"format": "opsim-tactical-board", "grids": [{"letters": {"prefix": "o", )"
                    R"("columns": "J-M", "rows": "1-5"}}], "entry_area": [")") +
        run + "\"]}");
    EXPECT_EQ(e.code, ErrorCode::kInvalidInput) << run;
    EXPECT_NE(e.where.find("bad.json:1: /entry_area/0"), std::string::npos) << e.to_string();
    EXPECT_NE(e.message.find("a run of hexes"), std::string::npos) << e.to_string();
  }
  const Error panji = Bad(cases[9].text);
  EXPECT_EQ(panji.rule, rules::kG9_1.id);
  const Error newer = Bad(R"({"format": "opsim-tactical-board", "version": 2, "grids": []})");
  EXPECT_EQ(newer.code, ErrorCode::kUnsupported);
}

// A board is bounded (kMaxGrids, kMaxBoardCells), however few bytes ask for more: a grid of
// 26,000 columns, an overlay laid on a hex far beyond the others, a hundred and one grids. Each is
// refused at its grid, before anything that size is made.
TEST(Board, ABoardIsBoundedHoweverShortItsFile) {
  const std::string head = R"({"format": "opsim-tactical-board", "grids": [)";
  const std::string many_z(1000, 'Z');
  const Error wide =
      Bad(head + R"({"letters": {"columns": "A-)" + many_z + R"(", "rows": "1-999"}}]})");
  EXPECT_NE(wide.where.find("bad.json:1: /grids/0"), std::string::npos) << wide.to_string();
  EXPECT_EQ(wide.message, "the grid spans 25974000 hexes: a board spans at most 20000");
  // Two hexes, 26,000 columns apart.
  const Error far = Bad(head + R"({"letters": {"columns": "A", "rows": "1"}}, )" +
                        R"({"letters": {"prefix": "o", "columns": "A", "rows": "1"}, )" +
                        R"("place": {"hex": "oA1", "on": ")" + many_z + R"(1"}}]})");
  EXPECT_NE(far.where.find("bad.json:1: /grids/1"), std::string::npos) << far.to_string();
  EXPECT_EQ(far.message,
            "placed there, the grids span 26000 columns by 1 rows: a board spans at most 20000 hex "
            "positions");
  std::string grids;
  for (int i = 0; i <= 100; ++i) {
    grids += (i ? ", " : "") + std::string(R"({"numbers": {"first": 1, "per_row": 1, "rows": 1}})");
  }
  const Error many = Bad(head + grids + "]}");
  EXPECT_NE(many.where.find("bad.json:1: /grids/100"), std::string::npos) << many.to_string();
  EXPECT_EQ(many.message, "a board holds at most 100 grids");
  // At the bound, a board loads: 200 columns (A to RRRRRRRR) by 100 rows.
  auto full = ParseBoard(
      head + R"({"letters": {"columns": "A-)" + std::string(8, 'R') + R"(", "rows": "1-100"}}]})",
      "full.json");
  ASSERT_TRUE(full) << full.error().to_string();
  EXPECT_EQ(full->Hexes().size(), 20'000u);
}

// Through the CLI: a bad board file is exit 2 and one JSON object naming the file and line.
TEST(Board, BadFileThroughTheCli) {
  opsim::test::TempDir dir;
  const std::string path = dir.Path("broken.json");
  opsim::test::WriteFile(
      path,
      "{\n  \"format\": \"opsim-tactical-board\",\n  \"grids\": [\n    {\"letters\": "
      "{\"prefix\": \"o\", \"columns\": \"J-M\", \"rows\": \"1-5\"}, \"terrain\": \"lava\"}\n  "
      "]\n}\n");
  for (const char* cmd : {"move", "los", "panji-setup"}) {
    std::vector<std::string> args = {cmd, "--board", path};
    if (std::string(cmd) == "move") args.insert(args.end(), {"--path", "oL3"});
    if (std::string(cmd) == "los") args.insert(args.end(), {"--from", "oL3", "--to", "oL2"});
    const auto doc = Cli(args, 2);
    EXPECT_EQ(doc["error"]["code"], "invalid-input");
    EXPECT_EQ(doc["error"]["where"], path + ":4: /grids/0/terrain");
    EXPECT_NE(doc["error"]["message"].get<std::string>().find("lava"), std::string::npos);
  }
  const auto missing = Cli({"move", "--board", dir.Path("nope.json"), "--path", "oL3"}, 2);
  EXPECT_EQ(missing["error"]["code"], "not-found");
  const auto text =
      opsim::test::RunCli({"tactical", "los", "--board", path, "--from", "oL3", "--to", "oL2"});
  EXPECT_EQ(text.code, 2);
  EXPECT_TRUE(text.out.empty());
  EXPECT_NE(text.err.find(path + ":4: /grids/0/terrain"), std::string::npos);
}

}  // namespace
}  // namespace opsim::tactical
