// Saves that never lose a file (common/AtomicFile.h): links followed and kept, mode, owner
// and hard links kept, planted links refused, and a read-only folder or a full file system
// leaving the old file as it was, with no temporary file behind.

#include "common/AtomicFile.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ts;

namespace {

constexpr uid_t kNobody = 65534;

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void put(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

struct stat statOf(const std::string& path) {
    struct stat st {};
    ::lstat(path.c_str(), &st);
    return st;
}

// The names in a folder, hidden ones included: a temporary file left behind shows here.
QStringList entries(const QString& folder) {
    return QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
}

// Runs `write` in a child process (as `nobody` when we are root, so that permissions bite)
// and returns its error message; "" when it succeeded.
template <class F> std::string inChild(bool asNobody, F write) {
    int fds[2];
    if (::pipe(fds) != 0)
        return "pipe failed";
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        if (asNobody && ::geteuid() == 0 && (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0))
            ::_exit(3);
        const std::string error = write();
        const ssize_t n = ::write(fds[1], error.data(), error.size());
        ::_exit(n == static_cast<ssize_t>(error.size()) ? 0 : 4);
    }
    ::close(fds[1]);
    std::string out;
    char buffer[512];
    ssize_t n;
    while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0)
        out.append(buffer, static_cast<std::size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return "child failed with status " + std::to_string(status);
    return out;
}

} // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT
private slots:
    void newFileGetsUmaskMode();
    void replaceKeepsModeAndOwner();
    void hardLinksSurvive();
    void symlinkIsFollowed();
    void plantedLinkIsRefused();
    void temporaryNamesAreUnpredictable();
    void notAFileIsRefused();
    void readOnlyFolderLeavesFileAlone();
    void fullFileSystemLeavesFileAlone();
};

void TestAtomicFile::newFileGetsUmaskMode() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("new.json").toStdString();
    const mode_t mask = ::umask(022);
    const FileWriteResult r = writeFileAtomically(path, "{}\n");
    ::umask(mask);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.writtenPath, path);
    QCOMPARE(slurp(path), std::string("{}\n"));
    QCOMPARE(statOf(path).st_mode & 07777, mode_t(0644));
    QCOMPARE(entries(dir.path()), QStringList{"new.json"});
    // No folder to write into: an error naming it, nothing created.
    const FileWriteResult missing =
        writeFileAtomically(dir.filePath("missing/new.json").toStdString(), "{}");
    QVERIFY(!missing.ok());
    QVERIFY2(missing.error.find("missing") != std::string::npos, missing.error.c_str());
    QVERIFY2(missing.error.find("No such file") != std::string::npos, missing.error.c_str());
}

void TestAtomicFile::replaceKeepsModeAndOwner() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("keep.json").toStdString();
    put(path, "old");
    QCOMPARE(::chmod(path.c_str(), 0640), 0);
    const bool root = ::geteuid() == 0;
    if (root)
        QCOMPARE(::chown(path.c_str(), kNobody, kNobody), 0);
    const ino_t before = statOf(path).st_ino;
    const FileWriteResult r = writeFileAtomically(path, "new content");
    QVERIFY2(r.ok(), r.error.c_str());
    const struct stat after = statOf(path);
    QCOMPARE(slurp(path), std::string("new content"));
    QCOMPARE(after.st_mode & 07777, mode_t(0640));
    QVERIFY(after.st_ino != before); // replaced by rename, not rewritten
    if (root) {
        QCOMPARE(after.st_uid, kNobody);
        QCOMPARE(after.st_gid, gid_t(kNobody));
    }
    QCOMPARE(entries(dir.path()), QStringList{"keep.json"});
}

void TestAtomicFile::hardLinksSurvive() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("a.json").toStdString();
    const std::string other = dir.filePath("b.json").toStdString();
    put(path, "old");
    QCOMPARE(::link(path.c_str(), other.c_str()), 0);
    const FileWriteResult r = writeFileAtomically(path, "shared new");
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(slurp(path), std::string("shared new"));
    QCOMPARE(slurp(other), std::string("shared new"));
    QCOMPARE(statOf(path).st_ino, statOf(other).st_ino);
    QCOMPARE(entries(dir.path()), (QStringList{"a.json", "b.json"}));
}

void TestAtomicFile::symlinkIsFollowed() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir("real"));
    const std::string target = dir.filePath("real/scenario.json").toStdString();
    const std::string link = dir.filePath("link.json").toStdString();
    const std::string chain = dir.filePath("chain.json").toStdString();
    put(target, "old");
    QCOMPARE(::symlink("real/scenario.json", link.c_str()), 0); // relative
    QCOMPARE(::symlink(link.c_str(), chain.c_str()), 0);        // absolute, to a link
    const FileWriteResult r = writeFileAtomically(chain, "through the links");
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.writtenPath, target);
    QVERIFY(S_ISLNK(statOf(link).st_mode));
    QVERIFY(S_ISLNK(statOf(chain).st_mode));
    QCOMPARE(slurp(target), std::string("through the links"));
    QCOMPARE(entries(dir.filePath("real")), QStringList{"scenario.json"});
    // A loop of links is an error, not a hang.
    const std::string loopA = dir.filePath("loopA").toStdString();
    const std::string loopB = dir.filePath("loopB").toStdString();
    QCOMPARE(::symlink(loopB.c_str(), loopA.c_str()), 0);
    QCOMPARE(::symlink(loopA.c_str(), loopB.c_str()), 0);
    const FileWriteResult loop = writeFileAtomically(loopA, "x");
    QVERIFY(!loop.ok());
    QVERIFY2(loop.error.find("symbolic links in a row") != std::string::npos, loop.error.c_str());
}

void TestAtomicFile::plantedLinkIsRefused() {
    if (::geteuid() != 0)
        QSKIP("planting a link owned by another user needs root");
    QTemporaryDir dir;
    const QString shared = dir.filePath("shared");
    QVERIFY(QDir().mkdir(shared));
    QCOMPARE(::chmod(shared.toLocal8Bit().constData(), 01777), 0); // like /tmp
    const std::string victim = dir.filePath("victim").toStdString();
    put(victim, "precious");
    const std::string link = (shared + "/report.json").toStdString();
    QCOMPARE(::symlink(victim.c_str(), link.c_str()), 0);
    QCOMPARE(::lchown(link.c_str(), kNobody, kNobody), 0);
    const FileWriteResult r = writeFileAtomically(link, "overwritten");
    QVERIFY(!r.ok());
    QVERIFY2(r.error.find("planted") != std::string::npos, r.error.c_str());
    QCOMPARE(slurp(victim), std::string("precious"));
    // Our own link in the same folder is followed.
    QCOMPARE(::lchown(link.c_str(), 0, 0), 0);
    QVERIFY(writeFileAtomically(link, "ours").ok());
    QCOMPARE(slurp(victim), std::string("ours"));
}

// Every temporary file has a fresh random name (seen with inotify): nobody can plant a file
// or a link at it in advance, and O_EXCL | O_NOFOLLOW refuses one that is there anyway.
void TestAtomicFile::temporaryNamesAreUnpredictable() {
    QTemporaryDir dir;
    const int fd = ::inotify_init1(IN_NONBLOCK);
    QVERIFY(fd >= 0);
    QVERIFY(::inotify_add_watch(fd, dir.path().toLocal8Bit().constData(), IN_CREATE) >= 0);
    const std::string path = dir.filePath("s.json").toStdString();
    QVERIFY(writeFileAtomically(path, "1").ok());
    QVERIFY(writeFileAtomically(path, "2").ok());
    alignas(inotify_event) char buffer[4096];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    ::close(fd);
    QStringList names;
    for (ssize_t at = 0; at < n;) {
        const auto* e = reinterpret_cast<const inotify_event*>(buffer + at);
        if (e->len > 0)
            names << QString::fromLocal8Bit(e->name);
        at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
    }
    QCOMPARE(names.size(), 2);
    QVERIFY(names[0] != names[1]);
    const QRegularExpression pattern("^\\.s\\.json\\.[0-9a-f]{16}\\.tmp$");
    for (const QString& name : names) {
        QVERIFY2(pattern.match(name).hasMatch(), qPrintable(name));
        QVERIFY(!name.contains(QString::number(::getpid())));
    }
}

void TestAtomicFile::notAFileIsRefused() {
    QTemporaryDir dir;
    const FileWriteResult r = writeFileAtomically(dir.path().toStdString(), "x");
    QVERIFY(!r.ok());
    QVERIFY2(r.error.find("is a folder") != std::string::npos, r.error.c_str());
    QVERIFY(!writeFileAtomically("", "x").ok());
}

void TestAtomicFile::readOnlyFolderLeavesFileAlone() {
    QTemporaryDir dir;
    QCOMPARE(::chmod(dir.path().toLocal8Bit().constData(), 0755), 0);
    const QString folder = dir.filePath("ro");
    QVERIFY(QDir().mkdir(folder));
    const std::string path = (folder + "/scenario.json").toStdString();
    put(path, "old");
    QCOMPARE(::chmod(path.c_str(), 0666), 0);
    QCOMPARE(::chmod(folder.toLocal8Bit().constData(), 0555), 0);
    // Root ignores folder permissions, so the write runs as nobody in a child process.
    const std::string error = inChild(true, [&] { return writeFileAtomically(path, "new").error; });
    QCOMPARE(::chmod(folder.toLocal8Bit().constData(), 0755), 0);
    QVERIFY2(error.find("cannot create a file in the folder") != std::string::npos, error.c_str());
    QVERIFY2(error.find("Permission denied") != std::string::npos, error.c_str());
    QCOMPARE(slurp(path), std::string("old"));
    QCOMPARE(entries(folder), QStringList{"scenario.json"});
}

// A full disk: on a 64 KiB tmpfs when we may mount one (root), else under RLIMIT_FSIZE, which
// fails the write the same way (EFBIG instead of ENOSPC).
void TestAtomicFile::fullFileSystemLeavesFileAlone() {
    QTemporaryDir dir;
    const QString folder = dir.filePath("small");
    QVERIFY(QDir().mkdir(folder));
    const QByteArray folderBytes = folder.toLocal8Bit();
    const bool mounted =
        ::mount("tmpfs", folderBytes.constData(), "tmpfs", 0, "size=64k,mode=0755") == 0;
    const std::string path = (folder + "/scenario.json").toStdString();
    const std::string old(16 * 1024, 'o');
    put(path, old);
    const std::string big(1024 * 1024, 'n');
    const std::string error = inChild(false, [&] {
        if (!mounted) {
            std::signal(SIGXFSZ, SIG_IGN);
            const rlimit limit{64 * 1024, 64 * 1024};
            ::setrlimit(RLIMIT_FSIZE, &limit);
        }
        return writeFileAtomically(path, big).error;
    });
    const std::string after = slurp(path);
    const QStringList left = entries(folder);
    if (mounted)
        QCOMPARE(::umount(folderBytes.constData()), 0);
    qInfo("full file system: %s", mounted ? "a 64 KiB tmpfs" : "RLIMIT_FSIZE of 64 KiB");
    const char* expected = mounted ? "No space left on device" : "File too large";
    QVERIFY2(error.find(expected) != std::string::npos, error.c_str());
    QVERIFY2(error.find("the file is unchanged") != std::string::npos, error.c_str());
    QVERIFY(after == old);
    QCOMPARE(left, QStringList{"scenario.json"});
}

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomic_file.moc"
