#include "common/AtomicFile.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ts {

namespace {

// Hops through symbolic links before giving up, as the kernel's own limit (MAXSYMLINKS 40).
constexpr int kMaxLinkHops = 40;
// Temporary names tried before giving up (each one 64 random bits).
constexpr int kMaxTempAttempts = 16;

std::string quoted(const std::string& path) {
    return "\"" + path + "\"";
}

std::string errnoText(int code) {
    return std::strerror(code);
}

std::string folderOf(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? std::string("/") : path.substr(0, slash);
}

std::string nameOf(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// What the save will replace: the final file after following links, and its status when it
// exists already.
struct Target {
    std::string path;
    std::optional<struct stat> existing;
};

// A link in a sticky, world-writable folder, owned by someone else than us and the folder's
// owner: Linux's fs.protected_symlinks refuses to follow it, and so do we.
std::optional<std::string> plantedLinkError(const std::string& link, const struct stat& linkStat) {
    const std::string folder = folderOf(link);
    struct stat folderStat {};
    if (::stat(folder.c_str(), &folderStat) != 0)
        return "cannot inspect the folder " + quoted(folder) + ": " + errnoText(errno);
    const bool shared = (folderStat.st_mode & S_ISVTX) && (folderStat.st_mode & S_IWOTH);
    if (!shared || linkStat.st_uid == ::geteuid() || linkStat.st_uid == folderStat.st_uid)
        return std::nullopt;
    return quoted(link) + " is a symbolic link that user " + std::to_string(linkStat.st_uid) +
           " planted in the shared folder " + quoted(folder) +
           ": refusing to write through it; save under another name";
}

std::optional<std::string> readLink(const std::string& link, std::string& error) {
    std::string buffer(4096, '\0');
    const ssize_t n = ::readlink(link.c_str(), buffer.data(), buffer.size());
    if (n < 0 || static_cast<std::size_t>(n) >= buffer.size()) {
        error = "cannot read the symbolic link " + quoted(link) + ": " +
                errnoText(n < 0 ? errno : ENAMETOOLONG);
        return std::nullopt;
    }
    buffer.resize(static_cast<std::size_t>(n));
    if (!buffer.empty() && buffer.front() != '/')
        buffer = folderOf(link) + "/" + buffer;
    return buffer;
}

std::optional<Target> resolveTarget(const std::string& path, std::string& error) {
    std::string current = path;
    for (int hop = 0; hop <= kMaxLinkHops; ++hop) {
        struct stat st {};
        if (::lstat(current.c_str(), &st) != 0) {
            if (errno != ENOENT) {
                error = "cannot inspect " + quoted(current) + ": " + errnoText(errno);
                return std::nullopt;
            }
            return Target{current, std::nullopt}; // a new file
        }
        if (S_ISREG(st.st_mode))
            return Target{current, st};
        if (!S_ISLNK(st.st_mode)) {
            error = quoted(current) + " is " +
                    (S_ISDIR(st.st_mode) ? "a folder" : "not a regular file") +
                    ": expected a file name to save to";
            return std::nullopt;
        }
        if (auto planted = plantedLinkError(current, st)) {
            error = *planted;
            return std::nullopt;
        }
        auto next = readLink(current, error);
        if (!next)
            return std::nullopt;
        current = *next;
    }
    error = quoted(path) + ": more than " + std::to_string(kMaxLinkHops) +
            " symbolic links in a row (a loop?)";
    return std::nullopt;
}

std::string randomSuffix() {
    unsigned char bytes[8] = {};
    if (::getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) {
        // No entropy source: still unique per process and call, and O_EXCL keeps it safe.
        static unsigned counter = 0;
        const unsigned long long mix = (static_cast<unsigned long long>(::getpid()) << 32) ^
                                       static_cast<unsigned long long>(++counter) ^
                                       reinterpret_cast<std::uintptr_t>(&counter);
        std::memcpy(bytes, &mix, sizeof bytes);
    }
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned char b : bytes) {
        out += hex[b >> 4];
        out += hex[b & 15];
    }
    return out;
}

bool writeAll(int fd, std::string_view content, off_t offset) {
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::pwrite(fd, content.data() + done, content.size() - done,
                                   offset + static_cast<off_t>(done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// The temporary file, open and not yet holding anything.
struct TempFile {
    int fd = -1;
    std::string path;
};

std::optional<TempFile> createTemp(const Target& target, std::string& error) {
    const std::string folder = folderOf(target.path);
    // A new file gets 0666 less the umask, as any program's would; an existing file's
    // content is never readable more widely than the file itself, even for an instant.
    const mode_t mode = target.existing ? 0600 : 0666;
    for (int attempt = 0; attempt < kMaxTempAttempts; ++attempt) {
        TempFile t;
        t.path = folder + "/." + nameOf(target.path) + "." + randomSuffix() + ".tmp";
        t.fd = ::open(t.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (t.fd >= 0)
            return t;
        if (errno != EEXIST) {
            error = "cannot create a file in the folder " + quoted(folder) + " to save " +
                    quoted(target.path) + ": " + errnoText(errno);
            return std::nullopt;
        }
    }
    error = "cannot create a temporary file in " + quoted(folder) + ": every name tried exists";
    return std::nullopt;
}

// Gives the temporary file the target's owner and mode. False when the owner cannot be kept
// (we are not root and the file is someone else's): the caller then rewrites in place.
bool copyOwnerAndMode(int fd, const struct stat& target, std::string& error) {
    bool ownerKept = true;
    if (target.st_uid != ::geteuid() || target.st_gid != ::getegid()) {
        // chown before chmod: chown clears the set-user-ID and set-group-ID bits.
        if (::fchown(fd, target.st_uid, target.st_gid) != 0)
            ownerKept = false;
    }
    if (::fchmod(fd, target.st_mode & 07777) != 0) {
        error = std::string("cannot set the file mode: ") + errnoText(errno);
        return false;
    }
    return ownerKept;
}

std::string fsyncFolder(const std::string& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return "cannot open the folder " + quoted(folder) + " to flush it: " + errnoText(errno);
    // Some file systems cannot flush a directory (EINVAL); the rename is as durable as they
    // make it.
    const bool flushed = ::fsync(fd) == 0 || errno == EINVAL;
    const int code = errno;
    ::close(fd);
    if (!flushed)
        return "the folder " + quoted(folder) + " could not be flushed to disk: " + errnoText(code);
    return {};
}

// Hard links and a foreign owner survive only if the file itself is rewritten. The new
// content is complete and durable in `temp` first; a failure here says where it is.
std::string rewriteInPlace(const Target& target, const std::string& temp,
                           std::string_view content) {
    auto fail = [&](const std::string& what) {
        return "cannot rewrite " + quoted(target.path) + " in place (" + what +
               "); its new content is saved in " + quoted(temp);
    };
    const int fd = ::open(target.path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return fail(errnoText(errno));
    struct stat now {};
    if (::fstat(fd, &now) != 0 || now.st_dev != target.existing->st_dev ||
        now.st_ino != target.existing->st_ino) {
        ::close(fd);
        return fail("the file was replaced while saving");
    }
    const bool written = writeAll(fd, content, 0) &&
                         ::ftruncate(fd, static_cast<off_t>(content.size())) == 0 &&
                         ::fsync(fd) == 0;
    const int code = errno;
    if (::close(fd) != 0 || !written)
        return fail(errnoText(written ? errno : code));
    ::unlink(temp.c_str());
    return fsyncFolder(folderOf(target.path));
}

// Writes and flushes the temporary file; false (with the file removed) on failure.
bool fillTemp(TempFile& t, const Target& target, std::string_view content, bool& inPlace,
              std::string& error) {
    std::string modeError;
    inPlace = target.existing && target.existing->st_nlink > 1;
    if (target.existing && !copyOwnerAndMode(t.fd, *target.existing, modeError)) {
        if (!modeError.empty()) {
            error = "cannot save " + quoted(target.path) + ": " + modeError;
            ::close(t.fd);
            ::unlink(t.path.c_str());
            return false;
        }
        inPlace = true;
    }
    const bool written = writeAll(t.fd, content, 0) && ::fsync(t.fd) == 0;
    const int code = errno;
    const bool closed = ::close(t.fd) == 0;
    if (!written || !closed) {
        error = "cannot save " + quoted(target.path) + ": " + errnoText(written ? errno : code) +
                (target.existing ? "; the file is unchanged" : "");
        ::unlink(t.path.c_str());
        return false;
    }
    return true;
}

} // namespace

FileWriteResult writeFileAtomically(const std::string& path, std::string_view content) {
    FileWriteResult result;
    if (path.empty()) {
        result.error = "no file name to save to";
        return result;
    }
    auto target = resolveTarget(path, result.error);
    if (!target)
        return result;
    auto temp = createTemp(*target, result.error);
    if (!temp)
        return result;
    bool inPlace = false;
    if (!fillTemp(*temp, *target, content, inPlace, result.error))
        return result;
    if (inPlace) {
        result.error = rewriteInPlace(*target, temp->path, content);
    } else if (::rename(temp->path.c_str(), target->path.c_str()) != 0) {
        result.error = "cannot replace " + quoted(target->path) + ": " + errnoText(errno);
        ::unlink(temp->path.c_str());
        return result;
    } else {
        result.error = fsyncFolder(folderOf(target->path));
    }
    result.writtenPath = target->path;
    return result;
}

} // namespace ts
