#pragma once
// Free-text search shared by the backends: the words of a query, each matched as a
// case-insensitive substring of a name, a note or a tag (LIKE / ILIKE with '\' escapes).

#include <string>
#include <vector>

namespace ts::store {

// Whitespace-separated words; "" gives none (everything matches).
std::vector<std::string> searchWords(const std::string& query);
// "%word%", with %, _ and \ escaped by '\'.
std::string likePattern(const std::string& word);

} // namespace ts::store
