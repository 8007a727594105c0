#include "opsim/core/files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

namespace opsim {

namespace {

constexpr std::size_t kMaxKindCheck = std::size_t{64} << 20;

std::unexpected<Error> OsError(const std::string& path, const char* what, int err) {
  ErrorCode code = ErrorCode::kIOError;
  if (err == EROFS || err == EACCES || err == EPERM) code = ErrorCode::kReadOnly;
  std::string message = std::string(what) + ": " + std::strerror(err);
  if (err == EFBIG) message += " (past the file-size limit, ulimit -f)";
  return Fail(code, std::move(message), path);
}

// Writes all of `contents`, retrying short writes; 0 or the errno.
int WriteAll(int fd, std::string_view contents) {
  std::size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno != EINTR) return errno;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  return 0;
}

// What is at `path` now, without following a link: nullopt if nothing, else an error for what is
// never replaced.
Result<std::optional<struct stat>> Existing(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return std::nullopt;
    return OsError(path, "cannot look at the file", errno);
  }
  if (S_ISLNK(st.st_mode)) {
    return Fail(ErrorCode::kInvalidInput,
                "a symbolic link; opsim never writes through a link nor replaces one (name the "
                "file itself)",
                path);
  }
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorCode::kInvalidInput,
                S_ISDIR(st.st_mode) ? "a folder; opsim only replaces a regular file"
                                    : "not a regular file (a device, a pipe or a socket); opsim "
                                      "only replaces a regular file",
                path);
  }
  return st;
}

// `path`.tmp-XXXXXXXXXXXX beside it, created exclusively under a random name.
Result<std::pair<std::string, int>> CreateTemporary(const std::string& path) {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (int attempt = 0; attempt < 16; ++attempt) {
    unsigned char bytes[12];
    if (::getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) {
      return OsError(path, "cannot name a temporary file", errno);
    }
    std::string tmp = path + ".tmp-";
    for (unsigned char b : bytes) tmp += kAlphabet[b % (sizeof kAlphabet - 1)];
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) return std::pair{std::move(tmp), fd};
    if (errno != EEXIST) return OsError(path, "cannot create the file", errno);
  }
  return Fail(ErrorCode::kIOError, "cannot create a temporary file beside it", path);
}

}  // namespace

bool IsOpsimFile(std::string_view text, std::string_view kind) {
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (!doc.is_object() || !doc.contains("opsim") || !doc["opsim"].is_string()) return false;
  const std::string& name = doc["opsim"].get_ref<const std::string&>();
  return kind.ends_with('-') ? name.starts_with(kind) : name == kind;
}

bool IsSecretFile(std::string_view text) {
  return IsOpsimFile(text, "pbem-key") || IsOpsimFile(text, "server-secrets");
}

std::string PartialPath(const std::string& path) {
  return path + ".partial-" + std::to_string(::getpid());
}

bool RemoveStalePartials(const std::string& path) {
  namespace fs = std::filesystem;
  const std::string prefix = fs::path(path).filename().string() + ".partial-";
  std::vector<fs::path> stale;
  bool live = false;
  std::error_code ec;
  for (fs::directory_iterator it(FolderOf(path), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const char* digits = name.data() + prefix.size();
    const char* const last = name.data() + name.size();
    pid_t pid = 0;
    const auto [at, err] = std::from_chars(digits, last, pid);
    if (err != std::errc() || at == digits || pid <= 0) continue;
    const std::string_view suffix(at, static_cast<std::size_t>(last - at));
    if (!suffix.empty() && suffix != "-journal" && suffix != "-wal" && suffix != "-shm") continue;
    // EPERM: a process of another user has that PID, so it may be his, alive.
    if (pid != ::getpid() && (::kill(pid, 0) == 0 || errno != ESRCH)) {
      live = true;
      continue;
    }
    stale.push_back(it->path());
  }
  for (const fs::path& p : stale) fs::remove(p, ec);
  return live;
}

std::string FolderOf(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

Status SyncFolderOf(const std::string& path) {
  const int fd = ::open(FolderOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return OsError(path, "cannot open its folder", errno);
  const int err = ::fsync(fd) == 0 ? 0 : errno;
  ::close(fd);
  if (err != 0) return OsError(path, "written, but its folder could not be flushed", err);
  return {};
}

Status WriteFileAtomically(const std::string& path, std::string_view contents) {
  auto existing = Existing(path);
  if (!existing) return std::unexpected(existing.error());
  auto created = CreateTemporary(path);
  if (!created) return std::unexpected(created.error());
  const auto& [tmp, fd] = *created;
  int err = WriteAll(fd, contents);
  const char* what = "cannot write the file";
  // A replaced file keeps its permission bits (a new one has 0644 less the umask).
  if (err == 0 && *existing && ::fchmod(fd, (*existing)->st_mode & 0777) != 0) err = errno;
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0) {
    what = "cannot replace the file";
    // Where nothing was, nothing planted meanwhile is replaced either.
    if (!*existing) {
      if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) != 0) {
        err = errno;
      }
      // A file system without RENAME_NOREPLACE: a plain rename, which replaces a link, never
      // writes through one.
      if (err == EINVAL || err == ENOSYS) {
        err = std::rename(tmp.c_str(), path.c_str()) == 0 ? 0 : errno;
      }
    } else if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      err = errno;
    }
  }
  if (err != 0) {
    ::unlink(tmp.c_str());
    if (err == EEXIST) {
      return Fail(ErrorCode::kInvalidInput,
                  "the file appeared while it was being written; it was left alone", path);
    }
    return OsError(path, what, err);
  }
  return SyncFolderOf(path);
}

Status CheckOutputFile(const std::string& path, const OutputKind& kind, bool force) {
  if (path.empty()) {
    return Fail(ErrorCode::kInvalidInput, "an empty file name: name the file to write", "--out");
  }
  auto existing = Existing(path);
  if (!existing) return std::unexpected(existing.error());
  if (*existing && (*existing)->st_size > 0) {
    bool holds = false;
    if (static_cast<std::uintmax_t>((*existing)->st_size) <= kMaxKindCheck) {
      const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0) return OsError(path, "cannot read the file it would replace", errno);
      std::string text(static_cast<std::size_t>((*existing)->st_size), '\0');
      std::size_t got = 0;
      while (got < text.size()) {
        const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
      }
      ::close(fd);
      text.resize(got);
      if (IsSecretFile(text)) {
        return Fail(ErrorCode::kInvalidInput,
                    "the file holds a secret (a player's key, a server's secrets); it is never "
                    "replaced, even with --force (choose another name)",
                    path);
      }
      holds = kind.holds(text);
    }
    if (!holds && !force) {
      return Fail(ErrorCode::kInvalidInput,
                  "the file exists and is not " + std::string(kind.what) +
                      "; it was left alone (choose another name, or --force to replace it)",
                  path);
    }
  }
  return {};
}

Status WriteOutputFile(const std::string& path, std::string_view contents, const OutputKind& kind,
                       bool force) {
  if (auto s = CheckOutputFile(path, kind, force); !s) return s;
  return WriteFileAtomically(path, contents);
}

Status CreatePrivateFile(const std::string& path, std::string_view contents) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (errno == EEXIST || errno == ELOOP) {
      return Fail(ErrorCode::kInvalidInput,
                  "the file already exists; a secret is never overwritten (choose another name)",
                  path);
    }
    return OsError(path, "cannot create the file", errno);
  }
  int err = WriteAll(fd, contents);
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) {
    ::unlink(path.c_str());
    return OsError(path, "cannot write the file", err);
  }
  return {};
}

}  // namespace opsim
