#pragma once
// Readers shared by the catalog's sections (Catalog.cpp, PowerPriceCatalog.cpp,
// NetworkCatalog.cpp).

#include "catalog/Catalog.h"
#include "common/JsonObjectReader.h"

#include <string>

namespace ts::catalog_detail {

// The entry's "sources" map (required, non-empty).
FieldSources readSources(JsonObjectReader& r);
// The entry's "id" (required, non-empty).
std::string readId(JsonObjectReader& r);

// Calls readEntry(JsonObjectReader&) for each object of the array at `key` (absent or null:
// nothing); anything but an array is an error at the key's path.
template <class ReadEntry>
void forEachEntry(JsonObjectReader& top, const char* key, ReadEntry&& readEntry) {
    const Json* list = top.raw(key);
    if (!list || list->is_null())
        return;
    const std::string path = top.childPath(key);
    if (!list->is_array()) {
        top.diagnostics().error(path, "expected an array of entries");
        return;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        JsonObjectReader r((*list)[i], jsonPointerChild(path, i), top.diagnostics());
        if (r.valid())
            readEntry(r);
    }
}

} // namespace ts::catalog_detail
