// numpy 1.24's printing of object arrays (numpy/core/arrayprint.py): the
// engine's array layout (runtime/tensor/format.h: unpadded elements, lines
// wrapped at the print options' linewidth, `...` past the threshold,
// multi-line elements kept together) with numpy's element format for
// objects: repr(), a list as `list([1, 2])` so nesting stays unambiguous.
#include "lib/numpy/object_array.h"

#include "runtime/tensor/format.h"

namespace tfs::runtime::tf::numpy {

namespace {

std::string formatElement(Interpreter &in, const Value &v) {
  if (v.as<ListObject>()) return "list(" + in.repr(v) + ")";
  return in.repr(v);
}

}  // namespace

std::string objectArrayRepr(Interpreter &in, const ObjectArray &a) {
  return formatNumpyElements(a.shape(), [&](int64_t k) { return formatElement(in, a.at(k)); }, ", dtype=object");
}

std::string objectArrayStr(Interpreter &in, const ObjectArray &a) {
  if (a.shape().empty()) return in.str(a.at(0));
  return formatNumpyElements(a.shape(), [&](int64_t k) { return formatElement(in, a.at(k)); });
}

std::optional<std::string> ObjectArray::repr(Interpreter &in) { return objectArrayRepr(in, *this); }
std::optional<std::string> ObjectArray::str(Interpreter &in) { return objectArrayStr(in, *this); }

}  // namespace tfs::runtime::tf::numpy
