// `a.flat = v` and `a.shape = s` on a numpy array: numpy's writable ndarray
// attributes, which lib/numpy implements and registers here at startup. A
// header of its own (not NdarrayHooks in tf.h) so the hook's users are the
// two files that need it.
#pragma once

#include <string>

namespace tfs::runtime {
class Interpreter;
class Value;
}  // namespace tfs::runtime

namespace tfs::runtime::tf {

struct TensorObject;
// True when it handled `name` (false: not a writable numpy attribute).
using NdarraySetAttr = bool (*)(Interpreter &, TensorObject &, const std::string &name, const Value &v);
void setNdarraySetAttrHook(NdarraySetAttr hook);

}  // namespace tfs::runtime::tf
