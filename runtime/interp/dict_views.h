// dict.keys()/values()/items(): live views over a dict (dict_views.cpp).
#pragma once

#include "runtime/interp/interpreter.h"

#include <string>

namespace tfs::runtime {

// `method` is "keys", "values" or "items".
Value newDictView(const std::string &method, Ref<DictObject> dict);

}  // namespace tfs::runtime
