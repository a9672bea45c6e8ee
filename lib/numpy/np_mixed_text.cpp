// np.array / np.asarray of a Python sequence mixing strings with numbers:
// numpy makes a text array of str() of every element, its width the widest
// of the strings' lengths and each number's dtype as text ('<U21' for a
// Python int, '<U32' for a float, '<U5' for a bool, '<U64' for a complex;
// np.array(['a', 1]) is array(['a', '1'], dtype='<U21')). Bytes mixed
// with numbers make an 'S' array the same way. Other functions given such
// a sequence still refuse it by name (their result widths would need the
// same promotion).
#include "lib/numpy/ndarray_text.h"
#include "runtime/interp/complex_object.h"

#include <algorithm>

namespace tfs::runtime::tf::numpy {

namespace {

struct MixedScan {
  bool anyStr = false, anyBytes = false, anyNumber = false, other = false;
  int64_t width = 0;
};

// The dtype a numeric leaf has in numpy's discovery (nullopt: not a number).
std::optional<DType> numberLeafDType(const Value &v) {
  if (v.isBool()) return DType::Bool;
  if (v.isInt()) return DType::Int64;
  if (v.isFloat()) return DType::Float64;
  if (v.as<ComplexObject>()) return DType::Complex128;
  if (auto *t = v.as<TensorObject>(); t && t->numpy && !t->symbolic() && t->eager.rank() == 0 &&
                                      t->eager.dtype() != DType::String)
    return t->eager.dtype();
  return std::nullopt;
}

void scanLeaves(Interpreter &in, const Value &v, MixedScan &s, int depth) {
  if ((v.as<ListObject>() || v.as<TupleObject>()) && depth < 64) {
    for (const Value &x : in.toList(v)) scanLeaves(in, x, s, depth + 1);
  } else if (auto *str = v.as<StrObject>()) {
    s.anyStr = true;
    s.width = std::max(s.width, textLength('U', str->s));
  } else if (auto *b = v.as<BytesObject>()) {
    s.anyBytes = true;
    s.width = std::max(s.width, textLength('S', b->s));
  } else if (std::optional<DType> d = numberLeafDType(v)) {
    s.anyNumber = true;
    s.width = std::max(s.width, numberTextWidth(*d));
  } else {
    s.other = true;  // arrays, None, objects: left to the general conversion
  }
}

Value textLeaves(Interpreter &in, const Value &v, bool bytes, int depth) {
  if ((v.as<ListObject>() || v.as<TupleObject>()) && depth < 64) {
    std::vector<Value> items;
    for (const Value &x : in.toList(v)) items.push_back(textLeaves(in, x, bytes, depth + 1));
    return in.list(std::move(items));
  }
  if (v.as<StrObject>() || v.as<BytesObject>()) return v;
  std::string s = in.str(v);
  return bytes ? Value(make<BytesObject>(s)) : in.str(s);
}

}  // namespace

std::optional<Value> mixedTextArray(Interpreter &in, const Value &obj, std::optional<DType> dtype) {
  if (!obj.as<ListObject>() && !obj.as<TupleObject>()) {
    // One number with a text dtype= (np.array(7, dtype=str)): its str().
    if (dtype && *dtype == DType::String && (obj.isInt() || obj.isFloat() || obj.isBool()))
      return newArray(asTensor(in, in.str(in.str(obj)), DType::String));
    return std::nullopt;
  }
  MixedScan s;
  scanLeaves(in, obj, s, 0);
  if (s.other || !s.anyNumber) return std::nullopt;
  if (s.anyStr && s.anyBytes) return std::nullopt;
  if (!s.anyStr && !s.anyBytes) {
    // Numbers only, with a text dtype= (np.array([1, 0], dtype=str)): each
    // element as Python's str() writes it; the dtype sets kind and width.
    if (!dtype || *dtype != DType::String) return std::nullopt;
    return newArray(asTensor(in, textLeaves(in, obj, false, 0), DType::String));
  }
  Value arr = newArray(asTensor(in, textLeaves(in, obj, s.anyBytes, 0), DType::String));
  // An explicit text dtype sets the width itself (finishText reads it).
  if (!dtype || *dtype != DType::String) markText(*arr.as<TensorObject>(), TextDType{s.anyBytes ? 'S' : 'U', s.width});
  // A numeric dtype parses each element as numpy's int() / float() do
  // (np.array(['1', 2], dtype=float) is [1., 2.]).
  if (dtype && *dtype != DType::String) return castText(in, *arr.as<TensorObject>(), *dtype, std::nullopt);
  return arr;
}

}  // namespace tfs::runtime::tf::numpy
