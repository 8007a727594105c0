// --out never destroys what it was not asked to replace (issue 10, item 6 and 7): a file of
// another kind needs --force; a link, a folder or a device is never replaced nor written
// through; a replaced file keeps its permission bits; the temporary file beside it is not at a
// name anyone can foresee.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "test_support.h"

namespace opsim {
namespace {

namespace fs = std::filesystem;
using test::ReadFile;
using test::RunCli;
using test::WriteFile;

const std::string kOrders = OPSIM_SCENARIO_DIR "/orders/special-terrain/01-axis-may-i-1940.json";

std::vector<std::string> Render(const std::string& out) {
  return {"render", "--scenario", "special-terrain", "--sheet", "16A", "--out", out};
}

// Every file in `dir`, by name, but SQLite's own beside a log (its WAL and shared memory, which a
// reader may leave).
std::vector<std::string> Files(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename();
    if (!name.ends_with(".sqlite-wal") && !name.ends_with(".sqlite-shm")) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(OutFile, RenderRefusesToReplaceTheGameLog) {
  test::TempDir dir;
  const std::string db = dir.Path("g.sqlite");
  ASSERT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", db, "--seed", "1"}).code, 0);
  const std::string before = ReadFile(db);
  const auto r = RunCli({"render", "--db", db, "--out", db, "--json"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find(db), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not an SVG drawing"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--force"), std::string::npos) << r.err;
  EXPECT_EQ(r.json()["error"]["code"], "invalid-input");
  EXPECT_EQ(ReadFile(db), before);
  EXPECT_EQ(Files(dir.dir()), std::vector<std::string>{"g.sqlite"});
  EXPECT_EQ(RunCli({"replay", "--db", db, "--verify"}).code, 0);
}

TEST(OutFile, EachCommandReplacesItsOwnKindOnlyUnlessForced) {
  test::TempDir dir;
  const std::string svg = dir.Path("map.svg"), state = dir.Path("t1.json");
  ASSERT_EQ(RunCli(Render(svg)).code, 0);
  EXPECT_EQ(RunCli(Render(svg)).code, 0) << "an SVG replaces an SVG";
  ASSERT_EQ(RunCli({"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders", kOrders,
                    "--out", state})
                .code,
            0);
  EXPECT_EQ(RunCli({"turn", "--scenario", "special-terrain", "--seed", "7", "--orders", kOrders,
                    "--out", state})
                .code,
            0)
      << "a state file replaces a state file";
  const std::string state_text = ReadFile(state);
  // generate over a state file, turn over an SVG, odds over a scenario: refused, untouched.
  auto g = RunCli({"generate", "--hexes", "100", "--out", state});
  EXPECT_EQ(g.code, 2) << g.err;
  EXPECT_NE(g.err.find("not an opsim scenario"), std::string::npos) << g.err;
  EXPECT_EQ(ReadFile(state), state_text);
  const std::string svg_text = ReadFile(svg);
  auto t = RunCli({"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders", kOrders,
                   "--out", svg});
  EXPECT_EQ(t.code, 2) << t.err;
  EXPECT_EQ(ReadFile(svg), svg_text);
  const std::string scenario = dir.Path("scenario.json");
  WriteFile(scenario, ReadFile(test::BundledPath("special-terrain")));
  auto o = RunCli({"odds", "--scenario", "special-terrain", "--seed", "1940", "--orders", kOrders,
                   "--runs", "2", "--out", scenario});
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_EQ(ReadFile(scenario), ReadFile(test::BundledPath("special-terrain")));
  // An empty file holds nothing to lose; --force replaces any regular file.
  WriteFile(dir.Path("empty.svg"), "");
  EXPECT_EQ(RunCli(Render(dir.Path("empty.svg"))).code, 0);
  auto forced = Render(state);
  forced.push_back("--force");
  EXPECT_EQ(RunCli(forced).code, 0);
  EXPECT_NE(ReadFile(state).find("<svg"), std::string::npos);
}

TEST(OutFile, AReplacedFileKeepsItsPermissionBits) {
  test::TempDir dir;
  const std::string state = dir.Path("t1.json");
  const std::vector<std::string> turn = {"turn",   "--scenario", "special-terrain",
                                         "--seed", "1940",       "--orders",
                                         kOrders,  "--out",      state};
  ASSERT_EQ(RunCli(turn).code, 0);
  ASSERT_EQ(::chmod(state.c_str(), 0600), 0);
  ASSERT_EQ(RunCli(turn).code, 0);
  struct stat st {};
  ASSERT_EQ(::stat(state.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::chmod(state.c_str(), 0640), 0);
  ASSERT_EQ(RunCli(turn).code, 0);
  ASSERT_EQ(::stat(state.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST(OutFile, ALinkIsNeitherFollowedNorReplaced) {
  test::TempDir dir;
  const std::string victim = dir.Path("victim.svg"), link = dir.Path("link.svg");
  WriteFile(victim, "<svg>precious</svg>\n");
  fs::create_symlink(victim, link);
  for (const char* flag : {"--json", "--force"}) {
    auto args = Render(link);
    args.push_back(flag);
    const auto r = RunCli(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("symbolic link"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(fs::read_symlink(link), victim);
    EXPECT_EQ(ReadFile(victim), "<svg>precious</svg>\n");
  }
  // A dangling link is not created through either.
  const std::string dangling = dir.Path("dangling.svg");
  fs::create_symlink(dir.Path("nowhere.svg"), dangling);
  EXPECT_EQ(RunCli(Render(dangling)).code, 2);
  EXPECT_FALSE(fs::exists(dir.Path("nowhere.svg")));
  EXPECT_EQ(Files(dir.dir()), (std::vector<std::string>{"dangling.svg", "link.svg", "victim.svg"}));
}

TEST(OutFile, AFolderOrADeviceIsNeverReplaced) {
  test::TempDir dir;
  fs::create_directory(dir.Path("sub"));
  for (const std::string& target : {dir.Path("sub"), std::string("/dev/null")}) {
    auto args = Render(target);
    args.push_back("--force");
    const auto r = RunCli(args);
    EXPECT_EQ(r.code, 2) << target << ": " << r.err;
    EXPECT_NE(r.err.find(target), std::string::npos) << r.err;
  }
  EXPECT_TRUE(fs::is_directory(dir.Path("sub")));
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_EQ(Files(dir.dir()), std::vector<std::string>{"sub"});
}

// Before, the temporary file was OUT.tmp.PID, opened without O_EXCL|O_NOFOLLOW: a link planted
// there was written through.
TEST(OutFile, ALinkPlantedAtTheOldTemporaryNameIsLeftAlone) {
  test::TempDir dir;
  const std::string out = dir.Path("map.svg"), victim = dir.Path("victim.txt");
  WriteFile(victim, "precious\n");
  const std::string planted = out + ".tmp." + std::to_string(::getpid());
  fs::create_symlink(victim, planted);
  ASSERT_EQ(RunCli(Render(out)).code, 0);
  EXPECT_EQ(ReadFile(victim), "precious\n");
  EXPECT_TRUE(fs::is_symlink(planted));
  EXPECT_NE(ReadFile(out).find("<svg"), std::string::npos);
  fs::remove(planted);
  EXPECT_EQ(Files(dir.dir()), (std::vector<std::string>{"map.svg", "victim.txt"}));
}

// Issue 22: `render` and `generate --out ''` exited 5 (an I/O error, from renaming over ""),
// `odds --out ''` exited 0 and wrote nothing, `turn --db --out ''` played and ignored it. An
// empty name is bad input (exit 2) for every command, and nothing is written.
TEST(OutFile, AnEmptyNameIsBadInput) {
  test::TempDir dir;
  const std::string db = dir.Path("g.sqlite");
  ASSERT_EQ(RunCli({"new", "--scenario", "special-terrain", "--db", db, "--seed", "1"}).code, 0);
  const std::vector<std::vector<std::string>> commands = {
      Render(""),
      {"generate", "--hexes", "100", "--out", ""},
      {"odds", "--scenario", "special-terrain", "--seed", "1940", "--orders", kOrders, "--runs",
       "2", "--out", ""},
      {"turn", "--scenario", "special-terrain", "--seed", "1940", "--orders", kOrders, "--out", ""},
      {"turn", "--db", db, "--orders", kOrders, "--out", ""}};
  for (const auto& args : commands) {
    const auto r = RunCli(args);
    EXPECT_EQ(r.code, 2) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find("--out"), std::string::npos) << args[0] << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args[0] << ": " << r.err;
  }
  EXPECT_EQ(Files(dir.dir()), std::vector<std::string>{"g.sqlite"});
  EXPECT_EQ(RunCli({"status", "--db", db, "--json"}).json()["turns_logged"], 0);
}

// Issue 22: a player's key file (or a server's secrets) is never replaced by any --out, even
// with --force: it is known by what it holds, whatever its name.
TEST(OutFile, ASecretIsNeverReplacedEvenWithForce) {
  test::TempDir dir;
  const std::string key = dir.Path("notes.json");
  const std::string secret =
      R"({"opsim": "pbem-key", "version": 1, "game": "g", "side": "axis", "secret": "00"})";
  WriteFile(key, secret);
  for (const bool force : {false, true}) {
    auto args = Render(key);
    if (force) args.push_back("--force");
    const auto r = RunCli(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("holds a secret"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(key), std::string::npos) << r.err;
  }
  EXPECT_EQ(ReadFile(key), secret);
  EXPECT_EQ(Files(dir.dir()), std::vector<std::string>{"notes.json"});
}

// generate wrote the theater, then refused it (more sheets than a theater may hold): exit 2 and
// a file opsim cannot read left behind.
TEST(OutFile, GenerateWritesNothingItWouldRefuse) {
  test::TempDir dir;
  const auto r = RunCli({"generate", "--hexes", "1100000", "--out", dir.Path("big.json")});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(Files(dir.dir()), std::vector<std::string>{});
}

}  // namespace
}  // namespace opsim
