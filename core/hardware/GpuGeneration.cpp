#include "hardware/GpuGeneration.h"

#include <cctype>
#include <initializer_list>
#include <string>

namespace ts {

namespace {

std::string lowered(std::string_view a, std::string_view b) {
    std::string s;
    s.reserve(a.size() + b.size() + 1);
    for (std::string_view part : {a, b}) {
        for (char c : part)
            s += char(std::tolower(static_cast<unsigned char>(c)));
        s += ' ';
    }
    return s;
}

bool mentions(const std::string& text, std::initializer_list<const char*> words) {
    for (const char* w : words)
        if (text.find(w) != std::string::npos)
            return true;
    return false;
}

} // namespace

GpuGeneration gpuGeneration(std::string_view gpuId, std::string_view gpuName) {
    const std::string s = lowered(gpuId, gpuName);
    // Newest first, so that a name matching two lists (none in the catalog) reads as the newer.
    if (mentions(s, {"b200", "b300", "gb200", "gb300", "b100", "blackwell"}))
        return GpuGeneration::Blackwell;
    if (mentions(s, {"h100", "h200", "h800", "h20 ", "gh200", "hopper"}))
        return GpuGeneration::Hopper;
    if (mentions(s, {" ada", "-ada", "4090", "4080", "l40", "l4 ", "l4-"}))
        return GpuGeneration::Ada;
    if (mentions(s, {"a100", "a800", "a6000", "a40", "a30", "a10", "rtx 30", "ampere"}))
        return GpuGeneration::Ampere;
    if (mentions(s, {"t4", "rtx 20", "turing"}))
        return GpuGeneration::Turing;
    if (mentions(s, {"v100", "volta"}))
        return GpuGeneration::Volta;
    if (mentions(s, {"mi250", "mi300", "mi325", "mi355", "instinct"}))
        return GpuGeneration::Cdna;
    if (mentions(s, {"gaudi"}))
        return GpuGeneration::Gaudi;
    return GpuGeneration::Unknown;
}

const char* gpuGenerationName(GpuGeneration g) {
    switch (g) {
    case GpuGeneration::Unknown:
        return "unknown GPU generation";
    case GpuGeneration::Volta:
        return "Volta";
    case GpuGeneration::Turing:
        return "Turing";
    case GpuGeneration::Ampere:
        return "Ampere";
    case GpuGeneration::Ada:
        return "Ada";
    case GpuGeneration::Hopper:
        return "Hopper";
    case GpuGeneration::Blackwell:
        return "Blackwell";
    case GpuGeneration::Cdna:
        return "AMD CDNA";
    case GpuGeneration::Gaudi:
        return "Intel Gaudi";
    }
    return "";
}

} // namespace ts
