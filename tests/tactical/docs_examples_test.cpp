// docs/tactical.md's worked examples still say what opsim says: every ```console block there is
// run, command by command ("$ opsim tactical ..."), in a scratch folder, and its output compared
// with the documented one, line by line. Every tactical subcommand has one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "tactical_test_util.h"

namespace opsim::tactical {
namespace {

struct Example {
  int line = 0;  // of its "$ opsim" in the document
  std::string command;
  std::vector<std::string> args;  // after "opsim"
  std::string output;
};

// The words of a shell command: '...' and "..." quote, a backslash escapes the next character.
std::vector<std::string> Words(const std::string& command) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else {
        word += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < command.size()) {
      word += command[++i];
      in_word = true;
    } else if (c == ' ' || c == '\n') {
      if (in_word) out.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) out.push_back(word);
  return out;
}

std::vector<Example> Examples(const std::string& path) {
  std::ifstream in(path);
  std::vector<Example> out;
  bool in_block = false;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (!in_block) {
      in_block = line == "```console";
      continue;
    }
    if (line == "```") {
      in_block = false;
      continue;
    }
    if (line.starts_with("$ ")) {
      Example e;
      e.line = n;
      std::string command = line.substr(2);
      while (command.ends_with("\\") && std::getline(in, line)) {
        ++n;
        command.pop_back();
        command += line;
      }
      e.command = command;
      e.args = Words(command);
      out.push_back(e);
    } else if (!out.empty()) {
      out.back().output += line + "\n";
    }
  }
  return out;
}

TEST(TacticalDocs, EveryWorkedExampleInDocsTacticalMdStillHolds) {
  const std::vector<Example> examples = Examples(std::string(OPSIM_DOCS_DIR) + "/tactical.md");
  ASSERT_FALSE(examples.empty());
  opsim::test::TempDir dir;
  struct Cwd {  // a render's --out lands in the scratch folder; the test's own folder after
    std::filesystem::path was = std::filesystem::current_path();
    ~Cwd() { std::filesystem::current_path(was); }
  } cwd;
  std::filesystem::current_path(dir.dir());
  std::set<std::string> documented;
  for (const Example& e : examples) {
    ASSERT_GE(e.args.size(), 3u) << "docs/tactical.md:" << e.line;
    ASSERT_EQ(e.args[0], "opsim") << "docs/tactical.md:" << e.line;
    documented.insert(e.args[1] == "tactical" ? e.args[2] : e.args[1]);
    const auto r = opsim::test::RunCli({e.args.begin() + 1, e.args.end()});
    EXPECT_EQ(r.out + r.err, e.output) << "docs/tactical.md:" << e.line << ": $ " << e.command;
  }
  for (const char* cmd : {"boards", "render", "move", "los", "panji-setup", "beach-dyo",
                          "samurai-move", "loss-test"}) {
    EXPECT_TRUE(documented.contains(cmd)) << "docs/tactical.md has no worked example of " << cmd;
  }
}

}  // namespace
}  // namespace opsim::tactical
