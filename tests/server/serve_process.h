// `opsim serve` as a process: started as a player starts it, stopped as a service manager
// stops it (or killed).
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace opsim::test {

class ServeProcess {
 public:
  // `log`: where its standard error goes (else the test's); `max_files`: its RLIMIT_NOFILE.
  explicit ServeProcess(const std::vector<std::string>& args, const std::string& log = {},
                        rlim_t max_files = 0) {
    int out[2];
    EXPECT_EQ(pipe(out), 0);
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      close(out[1]);
      if (!log.empty()) {
        const int err = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(err, STDERR_FILENO);
        close(err);
      }
      if (max_files > 0) {
        const rlimit limit{max_files, max_files};
        setrlimit(RLIMIT_NOFILE, &limit);
      }
      std::vector<char*> argv;
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(out[1]);
    out_ = fdopen(out[0], "r");
  }
  ~ServeProcess() {
    if (pid_ > 0 && !waited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (out_) fclose(out_);
  }
  // The first line it prints (--json: where it listens).
  nlohmann::json FirstLine() {
    char line[1 << 16];
    if (!fgets(line, sizeof line, out_)) return nullptr;
    return nlohmann::json::parse(line, nullptr, false);
  }
  void Signal(int sig) { kill(pid_, sig); }
  pid_t pid() const { return pid_; }
  // Its exit status, or -1 if it is still running after `limit`.
  int Wait(std::chrono::seconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        waited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
  }

 private:
  pid_t pid_ = -1;
  FILE* out_ = nullptr;
  bool waited_ = false;
};

}  // namespace opsim::test
