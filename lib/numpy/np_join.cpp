// numpy's joining, splitting and rearranging functions: concatenate, stack,
// vstack, hstack, dstack, column_stack, split, array_split, hsplit, vsplit,
// tile, repeat, roll, diff, meshgrid, append, insert, delete, take,
// take_along_axis, pad, broadcast_arrays. Splits return views, as numpy's do.
#include "lib/numpy/ndarray_text.h"
#include "lib/numpy/np_shape.h"
#include "lib/numpy/ufunc_kwargs.h"
#include "lib/tf/tf_lib.h"

#include <algorithm>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

std::vector<Tensor> tensorsOf(Interpreter &in, const Value &seq) {
  if (ndarrayOf(seq) || seq.as<TensorObject>()) {
    std::vector<Tensor> out;
    Tensor t = asTensor(in, seq);
    if (t.rank() == 0) in.raise("TypeError", "iteration over a 0-d array");
    for (const Value &row : in.toList(seq)) out.push_back(asTensor(in, row));
    return out;
  }
  std::vector<Tensor> out;
  for (const Value &v : in.toList(seq)) out.push_back(asTensor(in, v));
  return out;
}

DType commonDType(const std::vector<Tensor> &ts, std::optional<DType> requested) {
  if (requested) return *requested;
  DType d = ts[0].dtype();
  for (const auto &t : ts) d = promoteTypes(d, t.dtype());
  return d;
}

// numpy joins text arrays ('<U', '|S') with numbers as text: each number as
// Python's str writes it, the result as wide as the widest text array or
// number dtype (np.concatenate([np.array(['ab']), np.array([1])]) is
// '<U21'). Turns the number tensors of `ts` into text and gives the result's
// text dtype; nullopt (ts untouched) unless the sequence `seq` mixes text
// arrays with numbers. (An object array among them, TF's .numpy() of a
// string tensor, makes an object result: object_array_functions.cpp.)
std::optional<TextDType> textWithNumbers(Interpreter &in, const Value &seq, std::vector<Tensor> &ts) {
  if (ndarrayOf(seq) || seq.as<TensorObject>()) return std::nullopt;
  std::vector<Value> items = in.toList(seq);
  if (items.size() != ts.size()) return std::nullopt;
  TextDType d;
  bool numbers = false;
  for (size_t i = 0; i < items.size(); ++i) {
    TensorObject *a = ndarrayOf(items[i]);
    if (ts[i].dtype() != DType::String) numbers = true;
    else if (!a || !a->text.kind || (d.kind && d.kind != a->text.kind)) return std::nullopt;
    else {
      d.kind = a->text.kind;
      d.width = std::max(d.width, a->text.width);
    }
  }
  if (!d.kind || !numbers) return std::nullopt;
  for (Tensor &t : ts) {
    if (t.dtype() == DType::String) continue;
    d.width = std::max(d.width, numberTextWidth(t.dtype()));
    Value text = castText(in, *ndarrayOf(newArray(t)), DType::String, TextDType{d.kind, 0});
    t = asTensor(in, text);
  }
  return d;
}

// A joined text result marked with the dtype textWithNumbers gave.
Value markJoined(Value r, const std::optional<TextDType> &d) {
  if (d)
    if (TensorObject *o = ndarrayOf(r)) markText(*o, *d);
  return r;
}

Tensor concat(Interpreter &in, std::vector<Tensor> ts, int64_t axisArg, bool flatten, std::optional<DType> dtype) {
  if (ts.empty()) in.raise("ValueError", "need at least one array to concatenate");
  if (flatten)
    for (auto &t : ts) t = t.reshaped({t.numElements()});
  if (ts[0].rank() == 0) in.raise("ValueError", "zero-dimensional arrays cannot be concatenated");
  size_t nd = ts[0].rank();
  int64_t axis = normalizeAxis(in, axisArg, int64_t(nd));
  for (size_t i = 1; i < ts.size(); ++i) {
    if (ts[i].rank() != nd)
      in.raise("ValueError", fmt::format("all the input arrays must have same number of dimensions, but the array at "
                                         "index 0 has {} dimension(s) and the array at index {} has {} dimension(s)",
                                         nd, i, ts[i].rank()));
    for (size_t d = 0; d < nd; ++d)
      if (int64_t(d) != axis && ts[i].shape()[d] != ts[0].shape()[d])
        in.raise("ValueError", fmt::format("all the input array dimensions except for the concatenation axis must "
                                           "match exactly, but along dimension {}, the array at index 0 has size {} "
                                           "and the array at index {} has size {}",
                                           d, ts[0].shape()[d], i, ts[i].shape()[d]));
  }
  DType d = commonDType(ts, dtype);
  Shape shape = ts[0].shape();
  shape[size_t(axis)] = 0;
  for (auto &t : ts) shape[size_t(axis)] += t.shape()[size_t(axis)];
  Tensor out = Tensor::empty(d, shape);
  int64_t outer = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= shape[size_t(k)];
  visitElementType(d, [&](auto tag) {
    using T = decltype(tag);
    T *o = out.data<T>();
    int64_t pos = 0;
    std::vector<Tensor> cast_;
    for (auto &t : ts) cast_.push_back(cast(t, d));
    for (int64_t r = 0; r < outer; ++r)
      for (auto &t : cast_) {
        int64_t chunk = outer ? t.numElements() / outer : 0;
        const T *s = t.template data<T>() + r * chunk;
        for (int64_t k = 0; k < chunk; ++k) o[pos++] = s[k];
      }
  });
  return out;
}

Value concatenate(Interpreter &in, const Bound &b) {
  std::vector<Tensor> ts = tensorsOf(in, b["arrays"]);
  std::optional<TextDType> text = b.isNone("dtype") ? textWithNumbers(in, b["arrays"], ts) : std::nullopt;
  bool flatten = b.isNone("axis");
  std::optional<DType> dtype = dtypeParam(in, b["dtype"]);
  checkArrayCasting(in, ts, dtype, b["casting"]);
  Tensor r = concat(in, ts, flatten ? 0 : in.toIndex(b["axis"]), flatten, dtype);
  return markJoined(storeOut(in, b["out"], r, "concatenate", false), text);
}

Value stack(Interpreter &in, const Bound &b) {
  std::vector<Tensor> ts = tensorsOf(in, b["arrays"]);
  if (ts.empty()) in.raise("ValueError", "need at least one array to stack");
  std::optional<TextDType> text = b.isNone("dtype") ? textWithNumbers(in, b["arrays"], ts) : std::nullopt;
  for (auto &t : ts)
    if (t.shape() != ts[0].shape()) in.raise("ValueError", "all input arrays must have the same shape");
  int64_t axis = normalizeAxis(in, in.toIndex(b["axis"]), int64_t(ts[0].rank()) + 1);
  for (auto &t : ts) {
    Shape s = t.shape();
    s.insert(s.begin() + axis, 1);
    t = t.reshaped(s);
  }
  std::optional<DType> dtype = dtypeParam(in, b["dtype"]);
  checkArrayCasting(in, ts, dtype, b["casting"]);
  return markJoined(storeOut(in, b["out"], concat(in, ts, axis, false, dtype), "stack", false), text);
}

Value stackLike(Interpreter &in, const Bound &b, char kind, bool hasDType = true) {
  std::vector<Tensor> ts = tensorsOf(in, b["tup"]);
  if (ts.empty()) in.raise("ValueError", "need at least one array to concatenate");
  std::optional<TextDType> text =
      !hasDType || b.isNone("dtype") ? textWithNumbers(in, b["tup"], ts) : std::nullopt;
  int64_t axis = 0;
  for (auto &t : ts) {
    Shape s = t.shape();
    if (kind == 'v' && s.size() < 2) s = s.empty() ? Shape{1, 1} : Shape{1, s[0]};
    if (kind == 'd' && s.size() < 3) s = s.empty() ? Shape{1, 1, 1} : s.size() == 1 ? Shape{1, s[0], 1} : Shape{s[0], s[1], 1};
    if (kind == 'h' && s.empty()) s = {1};
    if (kind == 'c' && s.size() < 2) s = s.empty() ? Shape{1, 1} : Shape{s[0], 1};
    t = t.reshaped(s);
  }
  if (kind == 'h') axis = ts[0].rank() == 1 ? 0 : 1;
  if (kind == 'c') axis = 1;
  if (kind == 'd') axis = 2;
  std::optional<DType> dtype = hasDType ? dtypeParam(in, b["dtype"]) : std::nullopt;
  if (hasDType) checkArrayCasting(in, ts, dtype, b["casting"]);
  return markJoined(newArray(concat(in, ts, axis, false, dtype)), text);
}

// The views split / array_split return.
Value splitViews(Interpreter &in, const Value &a, const Value &sections, const Value &axisV, bool mustDivide) {
  ArrayRef r = arrayRef(in, a);
  int64_t axis = normalizeAxis(in, in.toIndex(axisV), int64_t(r.shape().size()));
  int64_t n = r.shape()[size_t(axis)];
  std::vector<int64_t> bounds{0};
  if (sections.as<ListObject>() || sections.as<TupleObject>() || ndarrayOf(sections)) {
    for (const Value &v : in.toList(sections)) bounds.push_back(in.toIndex(v));
    bounds.push_back(n);
  } else {
    int64_t k = in.toIndex(sections);
    if (k <= 0) in.raise("ValueError", "number sections must be larger than 0.");
    if (mustDivide && n % k != 0) in.raise("ValueError", "array split does not result in an equal division");
    int64_t each = n / k, extra = n % k, pos = 0;
    for (int64_t i = 0; i < k; ++i) {
      pos += each + (i < extra ? 1 : 0);
      bounds.push_back(pos);
    }
  }
  std::vector<Value> parts;
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    auto clampIdx = [&](int64_t x) { return x < 0 ? std::max<int64_t>(x + n, 0) : std::min(x, n); };
    int64_t s = clampIdx(bounds[i]), e = std::max(clampIdx(bounds[i + 1]), s);
    Shape shape = r.shape();
    shape[size_t(axis)] = e - s;
    parts.push_back(r.view(shape, r.layout.offset + (e > s ? s * r.layout.strides[size_t(axis)] : 0), r.layout.strides));
  }
  return in.list(parts);
}

Value tile(Interpreter &in, const Bound &b) {
  Tensor t = asTensor(in, b["A"]);
  Shape reps = shapeParam(in, b["reps"]);
  Shape shape = t.shape();
  while (shape.size() < reps.size()) shape.insert(shape.begin(), 1);
  while (reps.size() < shape.size()) reps.insert(reps.begin(), 1);
  t = t.reshaped(shape);
  Shape out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (reps[i] < 0) in.raise("ValueError", "negative dimensions are not allowed");
    int64_t d;
    if (__builtin_mul_overflow(shape[i], reps[i], &d)) d = -1;
    out.push_back(d);
  }
  checkedCount(in, out, t.dtype());
  Shape cs = cStrides(shape);
  std::vector<int64_t> pos = stridedPositions(out, 0, Shape(out.size(), 0));
  Shape os = cStrides(out);
  for (size_t k = 0; k < pos.size(); ++k) {
    int64_t p = 0, rem = int64_t(k);
    for (size_t d = 0; d < out.size(); ++d) {
      int64_t idx = rem / os[d];
      rem %= os[d];
      p += (idx % shape[d]) * cs[d];
    }
    pos[k] = p;
  }
  return newArray(gather(t, out, pos));
}

Value repeat(Interpreter &in, const Bound &b) {
  Tensor t = asTensor(in, b["a"]);
  bool flat = b.isNone("axis");
  if (flat) t = t.reshaped({t.numElements()});
  int64_t axis = normalizeAxis(in, flat ? 0 : in.toIndex(b["axis"]), int64_t(t.rank()));
  int64_t n = t.shape()[size_t(axis)];
  Tensor reps = asTensor(in, b["repeats"], DType::Int64);
  if (reps.rank() > 1 || (reps.rank() == 1 && reps.numElements() != 1 && reps.numElements() != n))
    in.raise("ValueError", fmt::format("operands could not be broadcast together with shape ({},) ({},)", n,
                                       reps.numElements()));
  std::vector<int64_t> count(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    count[size_t(i)] = reps.data<int64_t>()[reps.numElements() == 1 ? 0 : i];
    if (count[size_t(i)] < 0) in.raise("ValueError", "repeats may not contain negative values.");
  }
  Shape shape = t.shape();
  int64_t total = 0;
  for (int64_t c : count)
    if (__builtin_add_overflow(total, c, &total)) checkedCount(in, {-1}, t.dtype());
  Shape out = shape;
  out[size_t(axis)] = total;
  checkedCount(in, out, t.dtype());
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[size_t(d)];
  for (size_t d = size_t(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  std::vector<int64_t> pos;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t c = 0; c < count[size_t(i)]; ++c)
        for (int64_t k = 0; k < inner; ++k) pos.push_back((o * n + i) * inner + k);
  return newArray(gather(t, out, pos));
}

Value roll(Interpreter &in, const Bound &b) {
  Tensor t = asTensor(in, b["a"]);
  Shape orig = t.shape();
  bool flat = b.isNone("axis");
  if (flat) t = t.reshaped({t.numElements()});
  std::vector<int64_t> axes = flat ? std::vector<int64_t>{0} : axesParam(in, b["axis"], int64_t(t.rank()));
  std::vector<Value> shiftItems = b["shift"].as<TupleObject>() || b["shift"].as<ListObject>()
                                      ? in.toList(b["shift"]) : std::vector<Value>{b["shift"]};
  if (shiftItems.size() != 1 && shiftItems.size() != axes.size())
    in.raise("ValueError", "'shift' and 'axis' should be scalars or 1D sequences");
  Shape shift(t.rank(), 0);
  for (size_t i = 0; i < std::max(axes.size(), shiftItems.size()); ++i) {
    size_t ax = size_t(axes[axes.size() == 1 ? 0 : i]);
    shift[ax] += in.toIndex(shiftItems[shiftItems.size() == 1 ? 0 : i]);
  }
  const Shape &shape = t.shape();
  Shape cs = cStrides(shape);
  std::vector<int64_t> pos(size_t(t.numElements()));
  for (size_t k = 0; k < pos.size(); ++k) {
    int64_t p = 0, rem = int64_t(k);
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t idx = rem / cs[d];
      rem %= cs[d];
      int64_t n = shape[d];
      int64_t s = n ? ((idx - shift[d]) % n + n) % n : 0;
      p += s * cs[d];
    }
    pos[k] = p;
  }
  return newArray(gather(t, shape, pos).reshaped(orig));
}

Value diff(Interpreter &in, const Bound &b) {
  Tensor t = asTensor(in, b["a"]);
  int64_t n = in.toIndex(b["n"]);
  if (n < 0) in.raise("ValueError", fmt::format("order must be non-negative but got {}", n));
  if (t.rank() == 0) in.raise("ValueError", "diff requires input that is at least one dimensional");
  int64_t axis = normalizeAxis(in, in.toIndex(b["axis"]), int64_t(t.rank()));
  std::vector<Tensor> parts;
  if (!b.isNone("prepend")) {
    Tensor p = asTensor(in, b["prepend"]);
    if (p.rank() == 0) {
      Shape s = t.shape();
      s[size_t(axis)] = 1;
      p = broadcastTo(p, s);
    }
    parts.push_back(p);
  }
  parts.push_back(t);
  if (!b.isNone("append")) {
    Tensor p = asTensor(in, b["append"]);
    if (p.rank() == 0) {
      Shape s = t.shape();
      s[size_t(axis)] = 1;
      p = broadcastTo(p, s);
    }
    parts.push_back(p);
  }
  if (parts.size() > 1) t = concat(in, parts, axis, false, std::nullopt);
  for (int64_t k = 0; k < n; ++k) {
    const Shape &shape = t.shape();
    int64_t len = shape[size_t(axis)];
    if (len == 0) break;
    Shape out = shape;
    out[size_t(axis)] = len - 1;
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= shape[size_t(d)];
    for (size_t d = size_t(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
    std::vector<int64_t> hi, lo;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i + 1 < len; ++i)
        for (int64_t j = 0; j < inner; ++j) {
          lo.push_back((o * len + i) * inner + j);
          hi.push_back((o * len + i + 1) * inner + j);
        }
    Tensor h = gather(t, out, hi), l = gather(t, out, lo);
    if (t.dtype() == DType::Bool) {
      Tensor r = Tensor::empty(DType::Bool, out);
      for (int64_t i = 0; i < r.numElements(); ++i) r.data<bool>()[i] = h.data<bool>()[i] != l.data<bool>()[i];
      t = r;
    } else {
      t = runKernel(ir::OpKind::Sub, std::vector<Tensor>{h, l}, {})[0];
    }
  }
  return newArray(t);
}

Value meshgrid(Interpreter &in, const Bound &b) {
  std::string indexing = in.str(b["indexing"]);
  if (indexing != "xy" && indexing != "ij") in.raise("ValueError", "Valid values for `indexing` are 'xy' and 'ij'.");
  bool sparse = in.truth(b["sparse"]);
  std::vector<Tensor> xs;
  for (const Value &v : b.varArgs()) {
    Tensor t = asTensor(in, v);
    xs.push_back(t.reshaped({t.numElements()}));
  }
  size_t nd = xs.size();
  Shape full;
  for (auto &x : xs) full.push_back(x.numElements());
  if (indexing == "xy" && nd > 1) std::swap(full[0], full[1]);
  std::vector<Value> out;
  for (size_t i = 0; i < nd; ++i) {
    size_t dim = i;
    if (indexing == "xy" && nd > 1 && i < 2) dim = 1 - i;
    Shape s(nd, 1);
    s[dim] = xs[i].numElements();
    Tensor t = xs[i].reshaped(s);
    out.push_back(newArray(sparse ? t : broadcastTo(t, full)));
  }
  return in.list(out);
}

Value appendValues(Interpreter &in, const Bound &b) {
  std::vector<Tensor> ts{asTensor(in, b["arr"]), asTensor(in, b["values"])};
  std::optional<TextDType> text = textWithNumbers(in, in.list({b["arr"], b["values"]}), ts);
  if (b.isNone("axis")) return markJoined(newArray(concat(in, ts, 0, true, std::nullopt)), text);
  return markJoined(newArray(concat(in, ts, in.toIndex(b["axis"]), false, std::nullopt)), text);
}

// np.delete's positions: a slice, an int or a sequence of ints.
std::vector<int64_t> indexList(Interpreter &in, const Value &v, int64_t n) {
  std::vector<int64_t> out;
  if (v.as<SliceObject>()) {
    std::vector<Value> all;
    for (int64_t i = 0; i < n; ++i) all.push_back(Value::integer(i));
    for (const Value &x : in.toList(in.getItem(in.list(all), v))) out.push_back(x.asInt());
    return out;
  }
  Tensor t = asTensor(in, v);
  for (int64_t i = 0; i < t.numElements(); ++i) {
    int64_t x = t.elementAsInt(i);
    if (x < -n || x >= n) in.raise("IndexError", fmt::format("index {} is out of bounds for axis 0 with size {}", x, n));
    out.push_back(x < 0 ? x + n : x);
  }
  return out;
}

Value deleteItems(Interpreter &in, const Bound &b) {
  Tensor t = asTensor(in, b["arr"]);
  bool flat = b.isNone("axis");
  if (flat) t = t.reshaped({t.numElements()});
  int64_t axis = normalizeAxis(in, flat ? 0 : in.toIndex(b["axis"]), int64_t(t.rank()));
  int64_t n = t.shape()[size_t(axis)];
  std::vector<bool> drop(size_t(n), false);
  for (int64_t i : indexList(in, b["obj"], n)) drop[size_t(i)] = true;
  const Shape &shape = t.shape();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[size_t(d)];
  for (size_t d = size_t(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  std::vector<int64_t> pos;
  int64_t kept = 0;
  for (int64_t i = 0; i < n; ++i) kept += !drop[size_t(i)];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < n; ++i)
      if (!drop[size_t(i)])
        for (int64_t k = 0; k < inner; ++k) pos.push_back((o * n + i) * inner + k);
  Shape out = shape;
  out[size_t(axis)] = kept;
  return newArray(gather(t, out, pos));
}

Value insertItems(Interpreter &in, const Bound &b) {
  // A slice or a sequence of positions: numpy's Python (_np_index_tricks.tfs).
  if (b["obj"].as<SliceObject>() || asTensor(in, b["obj"]).rank() != 0) {
    Value fn = in.getAttr(importPreludeModule(in, "_np_index_tricks"), "insert_several");
    return in.call(fn, std::vector<Value>{b["arr"], b["obj"], b["values"], b["axis"]});
  }
  Tensor t = asTensor(in, b["arr"]);
  bool flat = b.isNone("axis");
  if (flat) t = t.reshaped({t.numElements()});
  int64_t axis = normalizeAxis(in, flat ? 0 : in.toIndex(b["axis"]), int64_t(t.rank()));
  int64_t n = t.shape()[size_t(axis)];
  Tensor obj = asTensor(in, b["obj"]);
  int64_t at = obj.elementAsInt(0);
  if (at < -n || at > n)
    in.raise("IndexError", fmt::format("index {} is out of bounds for axis {} with size {}", at, axis, n));
  if (at < 0) at += n;
  // numpy: values become an array of arr's rank (leading 1s), whose first
  // axis moves to `axis`; its length there is how many slices go in.
  Tensor vals = cast(asTensor(in, b["values"]), t.dtype());
  Shape padded(vals.shape());
  while (padded.size() < t.shape().size()) padded.insert(padded.begin(), 1);
  vals = vals.reshaped(padded);
  if (padded.size() == t.shape().size() && axis != 0) {
    std::vector<int64_t> perm;
    for (int64_t d = 1; d <= axis; ++d) perm.push_back(d);
    perm.push_back(0);
    for (int64_t d = axis + 1; d < int64_t(padded.size()); ++d) perm.push_back(d);
    vals = transposed(vals, perm);
  }
  Shape sliceShape = t.shape();
  sliceShape[size_t(axis)] = padded.size() == t.shape().size() ? vals.shape()[size_t(axis)] : 1;
  Tensor piece = broadcastTo(vals, sliceShape);
  std::vector<Value> parts = in.toList(splitViews(in, newArray(t), in.list({Value::integer(at)}), Value::integer(axis), false));
  return newArray(concat(in, {asTensor(in, parts[0]), piece, asTensor(in, parts[1])}, axis, false, std::nullopt));
}

Value take(Interpreter &in, const Bound &b) {
  // mode: 'raise' checks each index; 'wrap' takes it modulo the axis
  // length; 'clip' clamps it into [0, n-1] (a negative one to 0).
  std::string mode = in.str(b["mode"]);
  if (mode != "raise" && mode != "wrap" && mode != "clip")
    in.raise("ValueError", fmt::format("clipmode must be one of 'clip', 'raise', or 'wrap' (got '{}')", mode));
  Tensor t = asTensor(in, b["a"]);
  Tensor idx = asTensor(in, b["indices"], DType::Int64);
  bool flat = b.isNone("axis");
  if (flat) t = t.reshaped({t.numElements()});
  int64_t axis = normalizeAxis(in, flat ? 0 : in.toIndex(b["axis"]), int64_t(t.rank()));
  const Shape &shape = t.shape();
  int64_t n = shape[size_t(axis)], outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[size_t(d)];
  for (size_t d = size_t(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  Shape out(shape.begin(), shape.begin() + axis);
  out.insert(out.end(), idx.shape().begin(), idx.shape().end());
  out.insert(out.end(), shape.begin() + axis + 1, shape.end());
  std::vector<int64_t> pos;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < idx.numElements(); ++k) {
      int64_t i = idx.data<int64_t>()[k];
      if (n == 0) in.raise("IndexError", "cannot do a non-empty take from an empty axes.");
      if (mode == "wrap") {
        i %= n;
        if (i < 0) i += n;
      } else if (mode == "clip") {
        i = std::clamp<int64_t>(i, 0, n - 1);
      } else {
        if (i < -n || i >= n)
          in.raise("IndexError", fmt::format("index {} is out of bounds for axis {} with size {}", i, axis, n));
        if (i < 0) i += n;
      }
      for (int64_t j = 0; j < inner; ++j) pos.push_back((o * n + i) * inner + j);
    }
  return storeOut(in, b["out"], gather(t, out, pos), "take");
}

Value takeAlongAxis(Interpreter &in, const Bound &b) {
  Tensor t = asTensor(in, b["arr"]);
  Tensor idx = asTensor(in, b["indices"], DType::Int64);
  if (b.isNone("axis")) {
    t = t.reshaped({t.numElements()});
    idx = idx.reshaped({idx.numElements()});
  }
  int64_t axis = normalizeAxis(in, b.isNone("axis") ? 0 : in.toIndex(b["axis"]), int64_t(t.rank()));
  if (idx.rank() != t.rank())
    in.raise("ValueError", "`indices` and `arr` must have the same number of dimensions");
  Shape bshape = t.shape();
  bshape[size_t(axis)] = idx.shape()[size_t(axis)];
  bshape = broadcastShapes(in, {bshape, idx.shape()});
  Shape target = t.shape();
  target[size_t(axis)] = bshape[size_t(axis)];
  idx = broadcastTo(idx, bshape);
  Shape cs = cStrides(t.shape()), os = cStrides(bshape);
  std::vector<int64_t> pos(size_t(idx.numElements()));
  int64_t n = t.shape()[size_t(axis)];
  for (size_t k = 0; k < pos.size(); ++k) {
    int64_t rem = int64_t(k), p = 0;
    for (size_t d = 0; d < bshape.size(); ++d) {
      int64_t i = rem / os[d];
      rem %= os[d];
      if (int64_t(d) == axis) {
        i = idx.data<int64_t>()[k];
        if (i < -n || i >= n)
          in.raise("IndexError", fmt::format("index {} is out of bounds for axis {} with size {}", i, axis, n));
        if (i < 0) i += n;
      }
      p += i * cs[d];
    }
    pos[k] = p;
  }
  return newArray(gather(t, bshape, pos));
}

}  // namespace

void addJoinFunctions(Defs &defs) {
  auto add = [&](const char *sig, SignedFn fn) { defs.push_back({sig, std::move(fn)}); };
  add("concatenate(arrays, axis=0, out=None, *, dtype=None, casting='same_kind')", concatenate);
  add("stack(arrays, axis=0, out=None, *, dtype=None, casting='same_kind')", stack);
  add("vstack(tup, *, dtype=None, casting='same_kind')", [](Interpreter &in, const Bound &b) { return stackLike(in, b, 'v'); });
  add("hstack(tup, *, dtype=None, casting='same_kind')", [](Interpreter &in, const Bound &b) { return stackLike(in, b, 'h'); });
  add("dstack(tup)", [](Interpreter &in, const Bound &b) { return stackLike(in, b, 'd', false); });
  add("column_stack(tup)", [](Interpreter &in, const Bound &b) { return stackLike(in, b, 'c', false); });
  // An instance with swapaxes (a pandas DataFrame) is split as numpy's
  // Python code splits it, through its swapaxes and slicing
  // (lib/numpy/_np_split_like.tfs); other objects convert to arrays.
  auto isArrayLikeObject = [](const Value &v) {
    auto *inst = v.as<InstanceObject>();
    return inst && inst->klass->lookup("swapaxes");
  };
  auto splitLike = [](Interpreter &in, const Bound &b, bool equal) {
    Value fn = in.getAttr(importPreludeModule(in, "_np_split_like"), "split_like");
    Value args[] = {b["ary"], b["indices_or_sections"], b["axis"], Value::boolean(equal)};
    return in.call(fn, Args(args));
  };
  add("split(ary, indices_or_sections, axis=0)", [splitLike, isArrayLikeObject](Interpreter &in, const Bound &b) {
    if (isArrayLikeObject(b["ary"])) return splitLike(in, b, true);
    return splitViews(in, b["ary"], b["indices_or_sections"], b["axis"], true);
  });
  add("array_split(ary, indices_or_sections, axis=0)", [splitLike, isArrayLikeObject](Interpreter &in, const Bound &b) {
    if (isArrayLikeObject(b["ary"])) return splitLike(in, b, false);
    return splitViews(in, b["ary"], b["indices_or_sections"], b["axis"], false);
  });
  add("hsplit(ary, indices_or_sections)", [](Interpreter &in, const Bound &b) {
    int64_t axis = asTensor(in, b["ary"]).rank() > 1 ? 1 : 0;
    return splitViews(in, b["ary"], b["indices_or_sections"], Value::integer(axis), true);
  });
  add("vsplit(ary, indices_or_sections)", [](Interpreter &in, const Bound &b) {
    if (asTensor(in, b["ary"]).rank() < 2) in.raise("ValueError", "vsplit only works on arrays of 2 or more dimensions");
    return splitViews(in, b["ary"], b["indices_or_sections"], Value::integer(0), true);
  });
  add("tile(A, reps)", tile);
  add("repeat(a, repeats, axis=None)", repeat);
  add("roll(a, shift, axis=None)", roll);
  add("diff(a, n=1, axis=-1, prepend=None, append=None)", diff);
  add("meshgrid(*xi, copy=True, sparse=False, indexing='xy')", meshgrid);
  add("append(arr, values, axis=None)", appendValues);
  add("delete(arr, obj, axis=None)", deleteItems);
  add("insert(arr, obj, values, axis=None)", insertItems);
  add("take(a, indices, axis=None, out=None, mode='raise')", take);
  add("take_along_axis(arr, indices, axis)", takeAlongAxis);
  add("broadcast_arrays(*args, subok=!False)", [](Interpreter &in, const Bound &b) {
    std::vector<Shape> shapes;
    std::vector<Tensor> ts;
    for (const Value &v : b.varArgs()) {
      ts.push_back(asTensor(in, v));
      shapes.push_back(ts.back().shape());
    }
    Shape s = broadcastShapes(in, shapes);
    std::vector<Value> out;
    for (auto &t : ts) out.push_back(newArray(broadcastTo(t, s)));
    return in.list(out);
  });
}

}  // namespace tfs::runtime::tf::numpy
