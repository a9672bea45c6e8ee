// Array types the library defines and the engine does not know (numpy's
// object arrays, lib/numpy/object_array.h) reach tensor conversion
// (tensorFromPython) through this hook: it returns the value to convert in
// their place (nested lists of bytes for an object array of bytes), raises
// TensorFlow's error for what TF refuses, or returns nullopt for a value
// that is no such array.
#pragma once

#include "runtime/interp/value.h"

#include <optional>

namespace tfs::runtime {
class Interpreter;
namespace tf {

using ForeignArrayConversion = std::optional<Value> (*)(Interpreter &, const Value &);
void setForeignArrayConversion(ForeignArrayConversion f);

}  // namespace tf
}  // namespace tfs::runtime
