#pragma once
// One way to save a file, used by every writer (scenarios, calibration profiles, exports,
// reports), so that a crash, a full disk or a hostile folder never loses a file:
//
// - the content goes to a temporary file in the target's folder, with an unpredictable name,
//   opened with O_CREAT | O_EXCL | O_NOFOLLOW (a file or link planted at that name is never
//   opened), written whole, fsynced, given the target's mode and ownership, then renamed over
//   the target, and the folder is fsynced so that the rename itself survives a power loss
//   (rename(2) is atomic, but durable only once the directory is flushed; see fsync(2),
//   "Calling fsync() does not necessarily ensure that the entry in the directory containing
//   the file has also reached disk");
// - a target that is a symbolic link is followed to the file it names, which is replaced
//   (the link stays a link), unless the link was planted: it lies in a sticky,
//   world-writable folder (such as /tmp) and belongs neither to us nor to the folder's owner,
//   the rule of Linux's fs.protected_symlinks (Documentation/admin-guide/sysctl/fs.rst);
// - a target with more than one hard link, or whose owner cannot be given to the new file,
//   is rewritten in place once the complete new content is safe in the temporary file (as
//   Vim's 'backupcopy' and Emacs's backup-by-copying-when-linked do), so that its links and
//   owner survive; if that rewrite fails, the message names the file that holds the content;
// - on any failure the target is untouched and no temporary file is left behind.
//
// Errors are values: a message that names the file and the cause, never an exception.

#include <string>
#include <string_view>

namespace ts {

struct FileWriteResult {
    std::string error;       // empty on success
    std::string writtenPath; // the file that now holds the content (a link's target)

    bool ok() const { return error.empty(); }
    explicit operator bool() const { return ok(); }
};

[[nodiscard]] FileWriteResult writeFileAtomically(const std::string& path,
                                                  std::string_view content);

} // namespace ts
