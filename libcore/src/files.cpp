#include "opsim/core/files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace opsim {

namespace {

std::unexpected<Error> OsError(const std::string& path, const char* what, int err) {
  ErrorCode code = ErrorCode::kIOError;
  if (err == EROFS || err == EACCES || err == EPERM) code = ErrorCode::kReadOnly;
  return Fail(code, std::string(what) + ": " + std::strerror(err), path);
}

}  // namespace

Status WriteFileAtomically(const std::string& path, std::string_view contents) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return OsError(path, "cannot create the file", errno);
  std::size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return OsError(path, "cannot write the file", err);
    }
    done += static_cast<std::size_t>(n);
  }
  const int synced = ::fsync(fd) == 0 ? 0 : errno;
  const int closed = ::close(fd) == 0 ? 0 : errno;
  if (synced != 0 || closed != 0) {
    ::unlink(tmp.c_str());
    return OsError(path, "cannot write the file", synced != 0 ? synced : closed);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return OsError(path, "cannot replace the file", err);
  }
  return {};
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
  std::size_t done = 0;
  int err = 0;
  while (done < contents.size() && err == 0) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno != EINTR) err = errno;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) {
    ::unlink(path.c_str());
    return OsError(path, "cannot write the file", err);
  }
  return {};
}

}  // namespace opsim
