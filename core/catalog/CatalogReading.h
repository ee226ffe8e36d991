#pragma once
// Readers shared by the catalog's sections (Catalog.cpp, PowerPriceCatalog.cpp).

#include "catalog/Catalog.h"
#include "common/JsonObjectReader.h"

#include <string>

namespace ts::catalog_detail {

// The entry's "sources" map (required, non-empty).
FieldSources readSources(JsonObjectReader& r);
// The entry's "id" (required, non-empty).
std::string readId(JsonObjectReader& r);

} // namespace ts::catalog_detail
