// A second process for the library's safety tests (tst_store_safety): saves versions in a
// loop, so a test can kill it mid-save, run several at once, or cap its file size.
//
//   library_writer save LOCATION ID COUNT WRITER [--pad BYTES] [--fsize-limit BYTES]
//       Saves COUNT versions of scenario ID, each based on the latest it read (retrying on
//       "changed by another process"); prints "committed N" after each commit. Stops at the
//       first other error: prints "error KIND: message" and exits 3.
//   library_writer readonly LOCATION ID
//       As root, first becomes nobody. Reads the scenario (prints "read N versions"), then
//       tries to save; prints the error and exits 0 when it was ReadOnly.

#include "LibraryWriterContent.h"

#include "store/Library.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

using namespace ts::store;

namespace {

const char* kindName(StoreErrorKind kind) {
    switch (kind) {
    case StoreErrorKind::NotFound:
        return "NotFound";
    case StoreErrorKind::BadInput:
        return "BadInput";
    case StoreErrorKind::Conflict:
        return "Conflict";
    case StoreErrorKind::NotALibrary:
        return "NotALibrary";
    case StoreErrorKind::Corrupt:
        return "Corrupt";
    case StoreErrorKind::TooNew:
        return "TooNew";
    case StoreErrorKind::ReadOnly:
        return "ReadOnly";
    case StoreErrorKind::DiskFull:
        return "DiskFull";
    case StoreErrorKind::Connection:
        return "Connection";
    case StoreErrorKind::Io:
        return "Io";
    }
    return "?";
}

int fail(const StoreError& error) {
    std::printf("error %s: %s\n", kindName(error.kind), error.message.c_str());
    std::fflush(stdout);
    return 3;
}

int save(const std::string& location, ScenarioId id, int count, int writer, std::size_t pad) {
    auto library = openLibrary(location);
    if (!library)
        return fail(library.error());
    for (int s = 0; s < count; ++s) {
        const std::string text = ts::test::writerScenario(writer, s, pad);
        const std::string note = ts::test::writerNote(writer, s, text);
        for (int attempt = 0;; ++attempt) {
            auto summary = (*library)->scenario(id);
            if (!summary)
                return fail(summary.error());
            auto saved = (*library)->saveVersion(id, text, note, summary->latestVersion);
            if (saved) {
                std::printf("committed %d\n", *saved);
                std::fflush(stdout);
                break;
            }
            if (saved.error().kind != StoreErrorKind::Conflict || attempt > 1000)
                return fail(saved.error());
        }
    }
    return 0;
}

int readOnly(const std::string& location, ScenarioId id) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) {
        std::printf("cannot become nobody: %s\n", std::strerror(errno));
        return 1;
    }
    auto library = openLibrary(location);
    if (!library)
        return fail(library.error());
    auto versions = (*library)->versions(id);
    if (!versions)
        return fail(versions.error());
    std::printf("read %zu versions\n", versions->size());
    auto saved = (*library)->saveVersion(id, "{}", "", std::nullopt);
    if (saved) {
        std::printf("saved version %d of a read-only library\n", *saved);
        return 1;
    }
    fail(saved.error());
    return saved.error().kind == StoreErrorKind::ReadOnly ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 4 && std::strcmp(argv[1], "readonly") == 0)
        return readOnly(argv[2], std::atoll(argv[3]));
    if (argc < 6 || std::strcmp(argv[1], "save") != 0) {
        std::fprintf(stderr, "usage: library_writer save LOCATION ID COUNT WRITER [--pad BYTES] "
                             "[--fsize-limit BYTES] | readonly LOCATION ID\n");
        return 2;
    }
    std::size_t pad = 2000;
    for (int i = 6; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--pad") == 0) {
            pad = std::strtoull(argv[i + 1], nullptr, 10);
        } else if (std::strcmp(argv[i], "--fsize-limit") == 0) {
            // A full disk, as the writer sees it: writes past the limit fail with EFBIG
            // (setrlimit(2)), once SIGXFSZ no longer kills the process.
            std::signal(SIGXFSZ, SIG_IGN);
            const rlim_t limit = std::strtoull(argv[i + 1], nullptr, 10);
            const rlimit cap{limit, limit};
            if (::setrlimit(RLIMIT_FSIZE, &cap) != 0)
                return 2;
        }
    }
    return save(argv[2], std::atoll(argv[3]), std::atoi(argv[4]), std::atoi(argv[5]), pad);
}
