// Writing an export: the one place that puts launch files on disk.

#include "export/Exporter.h"

#include "common/AtomicFile.h"

#include <filesystem>

namespace ts {

bool writeExport(const ExportResult& result, const std::string& folder, std::string& error) {
    namespace fs = std::filesystem;
    if (!result.refusals.empty()) {
        error = "refused: " + result.refusals.front().toString();
        return false;
    }
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) {
        error = "cannot create \"" + folder + "\": " + ec.message();
        return false;
    }
    for (const auto& file : result.files) {
        const fs::path path = fs::path(folder) / file.name;
        // common/AtomicFile.h: a crash leaves the old file or the new one, never half of one.
        const FileWriteResult written = writeFileAtomically(path.string(), file.text);
        if (!written) {
            error = written.error;
            return false;
        }
        if (file.executable) {
            fs::permissions(written.writtenPath,
                            fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                            fs::perm_options::add, ec);
            if (ec) {
                error = "cannot make \"" + path.string() + "\" executable: " + ec.message();
                return false;
            }
        }
    }
    return true;
}

} // namespace ts
