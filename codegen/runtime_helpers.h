// The C-ABI helpers that compiled code calls (implemented in
// runtime_helpers.cpp) and the table the JIT resolves them from.
//
// Every helper that can fail returns an int32 status (0 = ok, 1 = error
// stored in the Frame); no C++ exception leaves a helper.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tfs::codegen {

struct HelperSymbol {
  const char *name;
  void *address;
};
// Every helper, by its C name (buffer_helpers.cpp's are listed by
// bufferHelperSymbols, which helperSymbols includes).
const std::vector<HelperSymbol> &helperSymbols();
const std::vector<HelperSymbol> &bufferHelperSymbols();

}  // namespace tfs::codegen
