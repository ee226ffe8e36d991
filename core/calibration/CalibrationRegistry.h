#pragma once
// The calibration profiles a scenario can select by id: the shipped ones
// (resources/calibration/*.json, compiled in) and the user's, from folders of *.json files
// (the CLI's --calibration-dir, the environment variable TRAINSCAPE_CALIBRATION_DIR). Ids are
// unique: a file whose id is already taken (by a shipped profile or an earlier file) is
// refused with a diagnostic at /id, never silently put in the other's place.

#include "calibration/CalibrationProfile.h"
#include "common/Diagnostics.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ts {

inline constexpr const char* kCalibrationDirEnv = "TRAINSCAPE_CALIBRATION_DIR";

class CalibrationRegistry {
public:
    // The compiled-in profiles. A defect there aborts with a message (tst_calibration keeps
    // it from shipping).
    static const CalibrationRegistry& builtIn();
    // The built-in profiles plus the folders named by TRAINSCAPE_CALIBRATION_DIR (several
    // separated by ':'), read once. Problems in those files are in loadDiagnostics(); the
    // good files still load.
    static const CalibrationRegistry& standard();

    // Adds one profile document; false with diagnostics (JSON paths) when it is invalid.
    bool addDocument(const std::string& jsonText, const std::string& origin,
                     Diagnostics& diagnostics);
    bool addFile(const std::string& path, Diagnostics& diagnostics);
    // Every *.json in the folder (not recursive), in name order. False when the folder
    // cannot be read or a file is invalid; the valid files are added. Diagnostics name the
    // file in their message.
    bool addDirectory(const std::string& path, Diagnostics& diagnostics);
    void add(CalibrationProfile profile);

    std::shared_ptr<const CalibrationProfile> find(const std::string& id) const;
    const std::map<std::string, std::shared_ptr<const CalibrationProfile>>& profiles() const {
        return profiles_;
    }
    std::string knownIds() const; // "a, b, c" for messages
    const Diagnostics& loadDiagnostics() const { return loadDiagnostics_; }

private:
    std::map<std::string, std::shared_ptr<const CalibrationProfile>> profiles_;
    Diagnostics loadDiagnostics_;
};

} // namespace ts
