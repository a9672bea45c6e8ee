// np.pad (modes constant, edge, reflect, symmetric, wrap here; the others
// in _np_pad_modes.tfs) and np.rot90 (a
// view, as numpy's: flips and an axis swap expressed as strides).
//
// np.pad pads axis after axis as numpy's does. For the modes that copy
// elements, every output coordinate maps to a source coordinate on each axis
// independently (clamped, periodic, mirrored), so the whole result is one
// gather. For 'constant' the corners take the value of the last axis whose
// pad they lie in, as numpy's axis-by-axis filling leaves them.
#include "lib/numpy/np_shape.h"
#include "lib/numpy/numpy_lib.h"
#include "lib/tf/tf_lib.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <set>

namespace tfs::runtime::tf::numpy {

namespace {

// numpy's _as_pairs: a scalar, (x,), (before, after) or one pair per axis,
// broadcast to ndim (before, after) pairs.
std::vector<std::pair<Value, Value>> asPairs(Interpreter &in, const Value &v, size_t ndim, const char *what) {
  auto items = [&](const Value &x) {
    return x.as<TupleObject>() || x.as<ListObject>() || ndarrayOf(x) ? in.toList(x) : std::vector<Value>{x};
  };
  std::vector<Value> outer = items(v);
  auto fail = [&]() -> std::vector<std::pair<Value, Value>> {
    in.raise("ValueError", fmt::format("operands could not be broadcast together with remapped shapes "
                                       "[original->remapped]: {} and requested shape ({},2)",
                                       what, ndim));
  };
  std::vector<std::pair<Value, Value>> pairs;
  bool nested = !outer.empty() && (outer[0].as<TupleObject>() || outer[0].as<ListObject>() || ndarrayOf(outer[0]));
  if (!nested) {
    if (outer.size() == 1) return std::vector<std::pair<Value, Value>>(ndim, {outer[0], outer[0]});
    if (outer.size() == 2) return std::vector<std::pair<Value, Value>>(ndim, {outer[0], outer[1]});
    return fail();
  }
  if (outer.size() != 1 && outer.size() != ndim) return fail();
  for (const Value &row : outer) {
    std::vector<Value> r = items(row);
    if (r.size() == 1) pairs.push_back({r[0], r[0]});
    else if (r.size() == 2) pairs.push_back({r[0], r[1]});
    else return fail();
  }
  if (pairs.size() == 1) pairs.assign(ndim, pairs[0]);
  return pairs;
}

int64_t mod(int64_t a, int64_t n) { return ((a % n) + n) % n; }

// The source coordinate of padded coordinate k - before on an axis of n.
int64_t sourceIndex(const std::string &mode, int64_t k, int64_t n) {
  if (k >= 0 && k < n) return k;
  if (mode == "edge") return k < 0 ? 0 : n - 1;
  if (mode == "wrap") return mod(k, n);
  if (mode == "symmetric") {
    int64_t m = mod(k, 2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  if (n == 1) return 0;  // reflect
  int64_t m = mod(k, 2 * n - 2);
  return m < n ? m : 2 * n - 2 - m;
}

// The keyword arguments each mode takes (numpy's allowed_kwargs).
const std::vector<std::string> &modeKeywords(const std::string &mode) {
  static const std::map<std::string, std::vector<std::string>> table = {
      {"constant", {"constant_values"}}, {"edge", {}}, {"wrap", {}}, {"reflect", {"reflect_type"}},
      {"symmetric", {"reflect_type"}}, {"linear_ramp", {"end_values"}}, {"maximum", {"stat_length"}},
      {"mean", {"stat_length"}}, {"median", {"stat_length"}}, {"minimum", {"stat_length"}}, {"empty", {}}};
  static const std::vector<std::string> none;
  auto it = table.find(mode);
  return it == table.end() ? none : it->second;
}

Value pad(Interpreter &in, const Bound &b) {
  Tensor x = asTensor(in, b["array"]);
  size_t nd = x.rank();
  const char *keywords[] = {"constant_values", "end_values", "stat_length", "reflect_type"};
  bool callableMode = !b["mode"].as<StrObject>();  // a function (_np_pad_modes.tfs checks it is one)
  std::string mode = callableMode ? "" : in.str(b["mode"]);
  if (!callableMode) {
    static const std::set<std::string> modes = {"constant", "edge", "wrap", "reflect", "symmetric", "linear_ramp",
                                                "maximum", "mean", "median", "minimum", "empty"};
    if (!modes.count(mode)) in.raise("ValueError", fmt::format("mode '{}' is not supported", mode));
    std::vector<std::string> unsupported;
    for (const char *k : keywords) {
      const auto &allowed = modeKeywords(mode);
      if (b.given(k) && std::find(allowed.begin(), allowed.end(), k) == allowed.end())
        unsupported.push_back(fmt::format("'{}'", k));
    }
    if (!unsupported.empty())
      in.raise("ValueError", fmt::format("unsupported keyword arguments for mode '{}': {{{}}}", mode,
                                         fmt::join(unsupported, ", ")));
  }
  std::vector<std::pair<int64_t, int64_t>> widths;
  for (auto &[lo, hi] : asPairs(in, b["pad_width"], nd, "pad_width")) {
    if (lo.isFloat() || hi.isFloat()) in.raise("TypeError", "`pad_width` must be of integral type.");
    widths.push_back({in.toInt(lo), in.toInt(hi)});
    if (widths.back().first < 0 || widths.back().second < 0) in.raise("ValueError", "index can't contain negative values");
  }
  // Modes computed from the array's values (statistics, ramps, odd
  // reflection, a function) pad axis by axis in .tfs (_np_pad_modes.tfs).
  bool odd = b.given("reflect_type") && in.str(b["reflect_type"]) == "odd";
  if (callableMode || (mode != "constant" && mode != "edge" && mode != "wrap" && mode != "reflect" &&
                       mode != "symmetric") || odd) {
    for (size_t d = 0; d < nd && mode != "empty"; ++d)
      if (x.shape()[d] == 0 && widths[d].first + widths[d].second > 0)
        in.raise("ValueError", fmt::format("can't extend empty axis {} using modes other than 'constant' or 'empty'", d));
    Kwargs given;
    for (const char *k : keywords)
      if (b.given(k)) given.push_back({k, b[k]});
    if (callableMode)
      for (auto &[k, v] : b.varKwargs()) given.push_back({k, v});
    auto kwargs = make<DictObject>();
    for (auto &[k, v] : given) kwargs->set(in, in.str(k), v);
    Value fn = *preludeApi(in, "_np_pad_modes", "pad_api", "pad");
    return in.call(fn, std::vector<Value>{b["array"], b["pad_width"], b["mode"], Value(kwargs)});
  }
  Shape outShape;
  for (size_t d = 0; d < nd; ++d) outShape.push_back(x.shape()[d] + widths[d].first + widths[d].second);
  checkedCount(in, outShape, x.dtype());
  for (size_t d = 0; d < nd && mode != "constant"; ++d)
    if (x.shape()[d] == 0 && widths[d].first + widths[d].second > 0)
      in.raise("ValueError", fmt::format("can't extend empty axis {} using modes other than 'constant' or 'empty'", d));
  // The source: x's elements, then (constant mode) the 2 * ndim pad values
  // in x's dtype, so every output element is one gathered position.
  Tensor source = x.reshaped({x.numElements()});
  int64_t constantsAt = x.numElements();
  if (mode == "constant") {
    std::vector<Value> values;
    for (auto &[lo, hi] : asPairs(in, b["constant_values"], nd, "constant_values")) values.insert(values.end(), {lo, hi});
    if (values.empty()) values.push_back(Value::integer(0));
    Tensor constants = asTensor(in, in.list(values));
    if (constants.dtype() == DType::String || x.dtype() == DType::String) {
      if (constants.dtype() != x.dtype()) in.raise("NotImplementedError", "np.pad of string arrays with other than string values is not supported by tfs");
    } else {
      constants = cast(constants, x.dtype());
    }
    Tensor joined = Tensor::empty(x.dtype(), {constantsAt + constants.numElements()});
    visitElementType(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      std::copy(source.data<T>(), source.data<T>() + constantsAt, joined.data<T>());
      std::copy(constants.data<T>(), constants.data<T>() + constants.numElements(), joined.data<T>() + constantsAt);
    });
    source = joined;
  }
  Shape strides = cStrides(x.shape());
  int64_t total = elementCount(outShape);
  std::vector<int64_t> flat(static_cast<size_t>(total));
  std::vector<int64_t> idx(nd, 0);
  for (int64_t k = 0; k < total; ++k) {
    int64_t pos = 0, constant = -1;
    for (size_t d = 0; d < nd; ++d) {
      int64_t c = idx[d] - widths[d].first, n = x.shape()[d];
      if (c < 0 || c >= n) {
        if (mode == "constant") {
          constant = constantsAt + int64_t(2 * d) + (c < 0 ? 0 : 1);  // the last padded axis wins
          continue;
        }
        c = sourceIndex(mode, c, n);
      }
      pos += c * strides[d];
    }
    flat[size_t(k)] = constant >= 0 ? constant : pos;
    for (size_t d = nd; d-- > 0;) {
      if (++idx[d] < outShape[d]) break;
      idx[d] = 0;
    }
  }
  return newArray(gather(source, outShape, flat));
}

Value rot90(Interpreter &in, const Bound &b) {
  ArrayRef r = arrayRef(in, b["m"]);
  int64_t nd = int64_t(r.shape().size());
  std::vector<Value> axes = in.toList(b["axes"]);
  if (axes.size() != 2) in.raise("ValueError", "len(axes) must be 2.");
  int64_t a0 = in.toInt(axes[0]), a1 = in.toInt(axes[1]);
  if (a0 == a1 || std::abs(a0 - a1) == nd) in.raise("ValueError", "Axes must be different.");
  if (a0 >= nd || a0 < -nd || a1 >= nd || a1 < -nd)
    in.raise("ValueError", fmt::format("Axes={} out of range for array of ndim={}.", in.repr(b["axes"]), nd));
  a0 = a0 < 0 ? a0 + nd : a0;
  a1 = a1 < 0 ? a1 + nd : a1;
  int64_t k = mod(in.toInt(b["k"]), 4);
  Shape shape = r.shape(), strides = r.layout.strides;
  int64_t offset = r.layout.offset;
  auto flip = [&](int64_t d) {
    if (shape[size_t(d)] == 0) return;
    offset += (shape[size_t(d)] - 1) * strides[size_t(d)];
    strides[size_t(d)] = -strides[size_t(d)];
  };
  auto swap = [&] {
    std::swap(shape[size_t(a0)], shape[size_t(a1)]);
    std::swap(strides[size_t(a0)], strides[size_t(a1)]);
  };
  if (k == 2) {
    flip(a0);
    flip(a1);
  } else if (k == 1) {
    flip(a1);
    swap();
  } else if (k == 3) {
    swap();
    flip(a1);
  }
  return r.view(shape, offset, strides);
}

}  // namespace

void addPadFunctions(Defs &defs) {
  defs.push_back({"pad(array, pad_width, mode='constant', *, constant_values=0, end_values=0, stat_length=None, "
                  "reflect_type='even', **kwargs)",
                  pad});
  defs.push_back({"rot90(m, k=1, axes=(0, 1))", rot90});
}

}  // namespace tfs::runtime::tf::numpy
