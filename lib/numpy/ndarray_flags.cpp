// a.flags: numpy's flagsobj for an ndarray, read-only here. C/F
// contiguity come from the array's placement in its root (ndarray_view.cpp),
// OWNDATA is "not a view", WRITEABLE what the view allows. Changing a flag
// (a.flags.writeable = False) is not supported by tfs and says so.
#include "lib/numpy/ndarray.h"

#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

struct FlagsObject : Object {
  bool c = true, f = true, own = true, writeable = true;
  const char *typeName() const override { return "flagsobj"; }
  std::optional<bool> flag(const std::string &key) const {
    if (key == "C_CONTIGUOUS" || key == "C" || key == "CONTIGUOUS") return c;
    if (key == "F_CONTIGUOUS" || key == "F" || key == "FORTRAN") return f;
    if (key == "OWNDATA" || key == "O") return own;
    if (key == "WRITEABLE" || key == "W") return writeable;
    if (key == "ALIGNED" || key == "A") return true;
    if (key == "WRITEBACKIFCOPY" || key == "X") return false;
    if (key == "FNC") return f && !c;
    if (key == "FORC") return f || c;
    if (key == "BEHAVED" || key == "B") return writeable;
    if (key == "CARRAY" || key == "CA") return c && writeable;
    if (key == "FARRAY" || key == "FA") return f && !c && writeable;
    return std::nullopt;
  }
  std::optional<Value> getItem(Interpreter &in, const Value &key) override {
    if (auto *s = key.as<StrObject>())
      if (auto v = flag(s->s)) return Value::boolean(*v);
    in.raise("KeyError", "Unknown flag");
  }
  std::optional<Value> getAttr(Interpreter &, const std::string &name) override {
    std::string upper;
    for (char ch : name) upper += char(std::toupper(static_cast<unsigned char>(ch)));
    if (name == upper) return std::nullopt;  // attributes are lower case
    if (auto v = flag(upper)) return Value::boolean(*v);
    return std::nullopt;
  }
  bool setAttr(Interpreter &in, const std::string &name, const Value &) override {
    in.raise("NotImplementedError", fmt::format("setting ndarray.flags.{} is not supported by tfs", name));
  }
  bool setItem(Interpreter &in, const Value &key, const Value &) override {
    in.raise("NotImplementedError", fmt::format("setting ndarray.flags[{}] is not supported by tfs", in.repr(key)));
  }
  std::optional<std::string> str(Interpreter &) override {
    auto b = [](bool v) { return v ? "True" : "False"; };
    return fmt::format("  C_CONTIGUOUS : {}\n  F_CONTIGUOUS : {}\n  OWNDATA : {}\n  WRITEABLE : {}\n  ALIGNED : True\n"
                       "  WRITEBACKIFCOPY : False\n",
                       b(c), b(f), b(own), b(writeable));
  }
  std::optional<std::string> repr(Interpreter &in) override { return str(in); }
};

// Whether elements laid out with `strides` (in elements) are one run in
// the order the dimensions list (C: last fastest; F: first fastest).
bool contiguous(const Shape &shape, const Shape &strides, bool fortran) {
  int64_t expected = 1;
  for (size_t k = 0; k < shape.size(); ++k) {
    size_t d = fortran ? k : shape.size() - 1 - k;
    if (shape[d] == 0) return true;
    if (shape[d] == 1) continue;
    if (strides[d] != expected) return false;
    expected *= shape[d];
  }
  return true;
}

}  // namespace

Value flagsOf(TensorObject &a) {
  auto flags = make<FlagsObject>();
  Layout l = layoutOf(a);
  const Shape &shape = a.eager.shape();
  flags->c = contiguous(shape, l.strides, false);
  flags->f = contiguous(shape, l.strides, true);
  flags->own = !a.view;
  flags->writeable = !a.view || a.view->writeable;
  return Value(flags);
}

}  // namespace tfs::runtime::tf::numpy
