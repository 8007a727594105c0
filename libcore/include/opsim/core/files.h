// Writing output files so that a reader never sees half of one, and so that a write never
// destroys what it was not asked to replace.
//
// Every write goes to a new temporary file beside the target (created exclusively, under a
// random name, never through a link), is flushed, renamed over the target, and the folder is
// flushed after the rename. A symbolic link, a folder or a device at the target is never
// replaced nor written through (kInvalidInput). A replaced file keeps its permission bits. On any
// failure the target is left as it was and no temporary file remains (but a folder that cannot
// be flushed after the rename: kIOError, the new file in place); an I/O error (EFBIG past
// `ulimit -f`, ENOSPC, EIO) is kIOError naming the file. Safe from any thread, for distinct
// targets.
#pragma once

#include <string>
#include <string_view>

#include "opsim/core/error.h"

namespace opsim {

// What a command writes to its --out file, so that it never replaces a file of another kind (a
// turn log, a scenario) by mistake.
struct OutputKind {
  std::string_view what;                     // "an SVG drawing", for the refusal
  bool (*holds)(std::string_view existing);  // whether an existing file's text is one
};

// Whether `text` is a JSON object whose "opsim" member names `kind` ("state", "scenario"); a
// kind ending in '-' ("pbem-") names every kind it begins.
bool IsOpsimFile(std::string_view text, std::string_view kind);

// Whether `text` is a file holding a secret: a pbem player's key file ("pbem-key"), a game
// server's secrets ("server-secrets"). WriteOutputFile never replaces one.
bool IsSecretFile(std::string_view text);

// Writes `contents` to `path` as above, whatever regular file `path` holds now.
Status WriteFileAtomically(const std::string& path, std::string_view contents);

// WriteFileAtomically(), for a user-named output file: an existing non-empty `path` is replaced
// only if `kind.holds` its text, or with `force`, and never if it holds a secret (IsSecretFile),
// even with `force`; an empty `path` is refused (kInvalidInput for each, before anything is
// written). Files past 64 MiB are not read (no secret is that large), and need `force`.
Status WriteOutputFile(const std::string& path, std::string_view contents, const OutputKind& kind,
                       bool force);
// What WriteOutputFile checks before it writes, with its errors: for a caller that must know
// that `path` may be written before it changes anything else.
Status CheckOutputFile(const std::string& path, const OutputKind& kind, bool force);

// Creates `path` readable and writable by its owner alone (0600) and writes `contents`, for a
// secret. Refuses (kInvalidInput) if `path` exists, even as a symbolic link: a secret is never
// overwritten, nor written through a link. A failed write removes the file.
Status CreatePrivateFile(const std::string& path, std::string_view contents);

// A file being made at `path` is written beside it first, as `path`.partial-PID (PID: the
// process writing it), perhaps with SQLite's "-journal", "-wal" and "-shm" beside that. A
// process killed before it put the file in place leaves them: this removes those whose process
// is gone (no process PID, or PID is this one, which is not writing `path` now), and says
// whether a partial file of a live process remains (it is making `path` now). Best effort: a
// file that cannot be removed is left (and removed by the next sweep).
bool RemoveStalePartials(const std::string& path);
// The partial name of `path` for this process, as RemoveStalePartials knows it.
std::string PartialPath(const std::string& path);

// The folder holding `path`: its parent, or "." for a bare file name.
std::string FolderOf(const std::string& path);

// Flushes the folder holding `path`, so that a rename or a new link in it survives a crash.
Status SyncFolderOf(const std::string& path);

}  // namespace opsim
