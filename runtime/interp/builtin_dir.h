// The names in the __dict__ of CPython 3.11's built-in types (object, int,
// str, list, dict, function, BaseException, ...), by type name, as
// space-separated words: dir() merges them along a class's MRO
// (suggestions.cpp). Generated: builtin_dir_table.cpp.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

namespace tfs::runtime {

const std::vector<std::pair<std::string_view, std::string_view>> &builtinTypeDicts();

}  // namespace tfs::runtime
