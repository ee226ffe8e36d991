// Replays the inputs the fuzz harnesses once broke (tests/fuzz/regressions/<kind>/*) through
// the same harness code and invariants, built with the ordinary compiler (ctest's
// fuzz_regressions, also under ASan and UBSan in scripts/test.sh's sanitizer stage). Each
// harness is compiled with LLVMFuzzerTestOneInput renamed to fuzz_<kind>; a broken invariant
// aborts, which fails the test with the file named on standard output.
//
//   fuzz_replay DIR   DIR holds one folder per harness kind (scenario, import_torchtitan, ...)

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

using Harness = int (*)(const std::uint8_t*, std::size_t);

#define TS_FUZZ_HARNESS(kind) extern "C" int fuzz_##kind(const std::uint8_t*, std::size_t);
#include "FuzzHarnesses.h"
#undef TS_FUZZ_HARNESS

namespace {

const std::map<std::string, Harness>& harnesses() {
#define TS_FUZZ_HARNESS(kind) {#kind, &fuzz_##kind},
    static const std::map<std::string, Harness> all = {
#include "FuzzHarnesses.h"
    };
#undef TS_FUZZ_HARNESS
    return all;
}

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    if (argc != 2) {
        std::fprintf(stderr, "usage: fuzz_replay DIR\n");
        return 2;
    }
    std::vector<fs::path> kinds;
    for (const auto& entry : fs::directory_iterator(argv[1]))
        if (entry.is_directory())
            kinds.push_back(entry.path());
    std::sort(kinds.begin(), kinds.end());
    int replayed = 0;
    for (const fs::path& dir : kinds) {
        const auto harness = harnesses().find(dir.filename().string());
        if (harness == harnesses().end()) {
            std::fprintf(stderr, "%s: no harness fuzz_%s\n", dir.c_str(), dir.filename().c_str());
            return 2;
        }
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(dir))
            if (entry.is_regular_file())
                files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const fs::path& file : files) {
            std::printf("%s\n", file.c_str());
            std::fflush(stdout);
            const std::string bytes = readFile(file);
            harness->second(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
            ++replayed;
        }
    }
    std::printf("%d inputs replayed, every invariant held\n", replayed);
    return replayed > 0 ? 0 : 1;
}
