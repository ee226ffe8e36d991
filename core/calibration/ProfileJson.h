#pragma once
// Reading and writing calibration profiles (format trainscape.calibration/1). Every error
// names the JSON path of the value that caused it, e.g. "/collectives/2/busbw_gb_s".

#include "calibration/CalibrationProfile.h"
#include "common/Diagnostics.h"
#include "common/JsonObjectReader.h"

#include <optional>
#include <string>

namespace ts {

std::optional<CalibrationProfile> profileFromJson(const Json& json, Diagnostics& diags);
std::optional<CalibrationProfile> parseProfile(const std::string& text, Diagnostics& diags);
std::optional<CalibrationProfile> loadProfileFile(const std::string& path, Diagnostics& diags);

Json profileToJson(const CalibrationProfile& profile);
// Writes the profile as indented JSON; false with an error message when the file cannot be
// written.
bool saveProfileFile(const CalibrationProfile& profile, const std::string& path,
                     std::string& error);

} // namespace ts
