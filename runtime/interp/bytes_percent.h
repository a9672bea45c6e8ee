// `bytes % args` and `bytearray % args` (PEP 461), bytes_percent.cpp.
#pragma once

#include "runtime/interp/interpreter.h"

#include <string>

namespace tfs::runtime {

// The formatted bytes of "fmt % args" (args: a tuple, a mapping or one value).
std::string bytesPercentFormat(Interpreter &in, const std::string &fmt, const Value &args);

}  // namespace tfs::runtime
