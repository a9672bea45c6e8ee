// np.einsum over explicit subscripts ('ij,jk->ik', 'ii', 'ij->ji', 'i,j->ij',
// implicit output as numpy orders it, '...' broadcast axes, the sublist form), and the lookup and binning functions
// np.isin, np.digitize, np.interp and np.histogram.
#include "lib/numpy/numpy_lib.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace tfs::runtime::tf::numpy {

namespace {

struct EinsumSpec {
  std::vector<std::string> inputs;
  std::string output;
};

// Writes each "..." as letters the subscripts do not use: the broadcast
// axes an operand has beyond its letters, right-aligned across operands
// (numpy's ellipsis). `ellipsisLetters` gets the letters of the widest one.
std::string expandEllipsis(Interpreter &in, std::string s, const std::vector<size_t> &ranks,
                           std::string &ellipsisLetters) {
  size_t arrow = s.find("->");
  std::string lhs = arrow == std::string::npos ? s : s.substr(0, arrow);
  std::string rhs = arrow == std::string::npos ? "" : s.substr(arrow + 2);
  std::vector<std::string> terms;
  size_t start = 0;
  for (size_t i = 0; i <= lhs.size(); ++i)
    if (i == lhs.size() || lhs[i] == ',') {
      terms.push_back(lhs.substr(start, i - start));
      start = i + 1;
    }
  auto ellipsisAt = [&](const std::string &t) {
    size_t at = t.find("...");
    size_t dots = std::count(t.begin(), t.end(), '.');
    if ((at == std::string::npos && dots) || (at != std::string::npos && dots != 3))
      in.raise("ValueError", fmt::format("einstein sum subscripts string contains a '.' that is not part of an "
                                         "ellipsis ('...') in {}", &t == &rhs ? "the output" : "operand " + std::to_string(&t - &terms[0])));
    return at;
  };
  std::vector<int64_t> extra(terms.size(), 0);
  int64_t widest = 0;
  for (size_t k = 0; k < terms.size(); ++k) {
    if (ellipsisAt(terms[k]) == std::string::npos) continue;
    int64_t letters = int64_t(terms[k].size()) - 3;
    extra[k] = k < ranks.size() ? std::max<int64_t>(0, int64_t(ranks[k]) - letters) : 0;
    widest = std::max(widest, extra[k]);
  }
  for (char c = 'a'; int64_t(ellipsisLetters.size()) < widest; c = c == 'z' ? 'A' : char(c + 1)) {
    if (s.find(c) == std::string::npos) ellipsisLetters += c;
    if (c == 'Z') break;
  }
  std::string out;
  for (size_t k = 0; k < terms.size(); ++k) {
    size_t at = ellipsisAt(terms[k]);
    std::string t = terms[k];
    if (at != std::string::npos) t.replace(at, 3, ellipsisLetters.substr(size_t(widest - extra[k])));
    out += (k ? "," : "") + t;
  }
  if (arrow != std::string::npos) {
    size_t at = ellipsisAt(rhs);
    if (at != std::string::npos) rhs.replace(at, 3, ellipsisLetters);
    out += "->" + rhs;
  }
  return out;
}

EinsumSpec parseEinsum(Interpreter &in, const std::string &text, const std::vector<size_t> &ranks) {
  size_t operands = ranks.size();
  EinsumSpec spec;
  std::string s;
  for (char c : text)
    if (c != ' ') s += c;
  std::string ellipsisLetters;
  bool implicitEllipsis = s.find("...") != std::string::npos && s.find("->") == std::string::npos;
  if (s.find('.') != std::string::npos) s = expandEllipsis(in, s, ranks, ellipsisLetters);
  size_t arrow = s.find("->");
  std::string lhs = arrow == std::string::npos ? s : s.substr(0, arrow);
  size_t start = 0;
  for (size_t i = 0; i <= lhs.size(); ++i)
    if (i == lhs.size() || lhs[i] == ',') {
      spec.inputs.push_back(lhs.substr(start, i - start));
      start = i + 1;
    }
  for (const std::string &t : spec.inputs)
    for (char c : t)
      if (!std::isalpha(static_cast<unsigned char>(c)))
        in.raise("ValueError", fmt::format("invalid subscript '{}' in einstein sum subscripts string, subscripts must "
                                           "be letters", c));
  if (spec.inputs.size() != operands)
    in.raise("ValueError", "more operands provided to einstein sum function than specified in the subscripts string");
  if (arrow != std::string::npos) {
    spec.output = s.substr(arrow + 2);
    for (char c : spec.output)
      if (lhs.find(c) == std::string::npos)
        in.raise("ValueError", fmt::format("einstein sum subscripts string included output subscript '{}' which never "
                                           "appeared in an input", c));
  } else {
    // numpy's implicit output: the letters that appear once, in alphabetical order.
    std::map<char, int> count;
    for (char c : lhs)
      if (c != ',') ++count[c];
    for (auto [c, n] : count)
      if (n == 1 && ellipsisLetters.find(c) == std::string::npos) spec.output += c;
    std::stable_sort(spec.output.begin(), spec.output.end(), [](char a, char b) {
      bool ua = std::isupper(static_cast<unsigned char>(a)), ub = std::isupper(static_cast<unsigned char>(b));
      return ua != ub ? ua : a < b;  // numpy sorts upper case first
    });
    if (implicitEllipsis) spec.output = ellipsisLetters + spec.output;  // broadcast axes lead
  }
  return spec;
}

// numpy's sublist form einsum(op0, [0, 1], op1, [1, 2], [0, 2]): axis
// numbers 0-25 are 'A'-'Z', 26-51 'a'-'z', Ellipsis is "...".
std::string sublistSubscripts(Interpreter &in, const std::vector<Value> &args, std::vector<Value> &operands) {
  auto letters = [&](const Value &list) {
    std::string t;
    for (const Value &v : in.toList(list)) {
      if (v.is(in.builtin("Ellipsis"))) {
        t += "...";
        continue;
      }
      int64_t n = in.toIndex(v);
      if (n < 0 || n >= 52) in.raise("ValueError", "subscript is not within the valid range [0, 52)");
      t += char(n < 26 ? 'A' + n : 'a' + (n - 26));
    }
    return t;
  };
  std::string text;
  size_t i = 0;
  for (; i + 1 < args.size(); i += 2) {
    operands.push_back(args[i]);
    text += (i ? "," : "") + letters(args[i + 1]);
  }
  if (i < args.size()) text += "->" + letters(args[i]);
  return text;
}

Value einsum(Interpreter &in, const Bound &b) {
  const auto &args = b.varArgs();
  if (args.empty()) in.raise("TypeError", "function takes at least 1 argument (0 given)");
  std::vector<Value> operandValues;
  std::string subscripts;
  if (args[0].as<StrObject>()) {
    operandValues.assign(args.begin() + 1, args.end());
    subscripts = in.str(args[0]);
  } else {
    subscripts = sublistSubscripts(in, std::vector<Value>(args.begin(), args.end()), operandValues);
  }
  std::vector<size_t> ranks;
  for (const Value &v : operandValues) ranks.push_back(asTensor(in, v).rank());
  EinsumSpec spec = parseEinsum(in, subscripts, ranks);
  DType t = b.isNone("dtype") ? resultType(in, operandValues) : *dtypeParam(in, b["dtype"]);
  std::vector<Tensor> ops;
  std::map<char, int64_t> dims;
  for (size_t k = 0; k < operandValues.size(); ++k) {
    Tensor x = cast(asTensor(in, operandValues[k]), t);
    if (x.rank() != spec.inputs[k].size())
      in.raise("ValueError", fmt::format("einstein sum subscripts string contains too {} subscripts for operand {}",
                                         x.rank() > spec.inputs[k].size() ? "few" : "many", k));
    for (size_t d = 0; d < x.rank(); ++d) {
      char c = spec.inputs[k][d];
      auto [it, fresh] = dims.emplace(c, x.shape()[d]);
      if (!fresh && it->second != x.shape()[d]) {
        if (it->second == 1) it->second = x.shape()[d];
        else if (x.shape()[d] != 1)
          in.raise("ValueError", fmt::format("operands could not be broadcast together with remapped shapes "
                                             "[original->remapped]: einsum dimension '{}' is {} and {}",
                                             c, it->second, x.shape()[d]));
      }
    }
    ops.push_back(x);
  }
  // Loop letters: the output's, then the summed ones.
  std::string letters = spec.output;
  for (auto &[c, n] : dims)
    if (letters.find(c) == std::string::npos) letters += c;
  Shape outShape;
  for (char c : spec.output) outShape.push_back(dims[c]);
  std::vector<int64_t> extent;
  for (char c : letters) extent.push_back(dims[c]);
  // Each operand's element stride per loop letter (0 where absent or broadcast).
  std::vector<std::vector<int64_t>> strides(ops.size(), std::vector<int64_t>(letters.size(), 0));
  for (size_t k = 0; k < ops.size(); ++k) {
    Shape cs = cStrides(ops[k].shape());
    for (size_t d = 0; d < ops[k].rank(); ++d)
      if (ops[k].shape()[d] != 1) strides[k][letters.find(spec.inputs[k][d])] += cs[d];
  }
  int64_t outCount = elementCount(outShape), inner = 1;
  for (size_t l = spec.output.size(); l < letters.size(); ++l) inner *= extent[l];
  Tensor out = Tensor::empty(t, outShape);
  visitNumericOrComplex(in, t, "einsum", [&](auto tag) {
    using T = decltype(tag);
    T *o = out.data<T>();
    std::vector<int64_t> idx(letters.size(), 0);
    for (int64_t i = 0; i < outCount; ++i) {
      T acc{};
      for (int64_t j = 0; j < inner; ++j) {
        T prod{};
        for (size_t k = 0; k < ops.size(); ++k) {
          int64_t pos = 0;
          for (size_t l = 0; l < letters.size(); ++l) pos += idx[l] * strides[k][l];
          T v = ops[k].data<T>()[pos];
          if constexpr (std::is_same_v<T, bool>) prod = k == 0 ? v : (prod && v);
          else prod = k == 0 ? v : numpyMultiply(prod, v);
        }
        if constexpr (std::is_same_v<T, bool>) acc = acc || prod;
        else acc = T(acc + prod);
        for (size_t l = letters.size(); l-- > 0;) {  // next index, last letter fastest
          if (++idx[l] < extent[l]) break;
          idx[l] = 0;
        }
      }
      o[i] = acc;
    }
  });
  // With optimize= numpy contracts through tensordot and hands back an
  // array even for a 0-d result (array(5.)); without it, a scalar.
  const Value &opt = b["optimize"];
  bool optimized = !(opt.isBool() && !opt.asBool()) && !opt.isNone();
  return storeOut(in, b["out"], out, "einsum", !optimized);
}

Value isin(Interpreter &in, const Bound &b) {
  Tensor x = asTensor(in, b["element"]), test = asTensor(in, b["test_elements"]);
  Tensor r = Tensor::empty(DType::Bool, x.shape());
  bool invert = in.truth(b["invert"]);
  if (x.dtype() == DType::String || test.dtype() == DType::String) {
    if (x.dtype() != test.dtype())
      in.raise("NotImplementedError", "np.isin between strings and numbers is not supported by tfs");
    const std::string *p = x.data<std::string>(), *q = test.data<std::string>();
    for (int64_t i = 0; i < x.numElements(); ++i)
      r.data<bool>()[i] = (std::find(q, q + test.numElements(), p[i]) != q + test.numElements()) != invert;
  } else {
    DType d = promoteTypes(x.dtype(), test.dtype());
    Tensor xs = cast(x, d), ts = cast(test, d);
    visitNumeric(in, d, "isin", [&](auto tag) {
      using T = decltype(tag);
      std::vector<T> sorted(ts.data<T>(), ts.data<T>() + ts.numElements());
      std::sort(sorted.begin(), sorted.end());
      for (int64_t i = 0; i < xs.numElements(); ++i)
        r.data<bool>()[i] = std::binary_search(sorted.begin(), sorted.end(), xs.data<T>()[i]) != invert;
    });
  }
  return newArray(r);
}

// numpy's 1-d float64 argument (np.interp's xp / fp, np.digitize's bins).
std::vector<double> doubles1d(Interpreter &in, const Value &v, const char *what) {
  Tensor t = cast(asTensor(in, v), DType::Float64);
  if (t.rank() != 1) in.raise("ValueError", fmt::format("{} must be 1-dimensional", what));
  return std::vector<double>(t.data<double>(), t.data<double>() + t.numElements());
}

Value digitize(Interpreter &in, const Bound &b) {
  Tensor x = cast(asTensor(in, b["x"]), DType::Float64);
  std::vector<double> bins = doubles1d(in, b["bins"], "bins");
  bool right = in.truth(b["right"]);
  bool increasing = std::is_sorted(bins.begin(), bins.end());
  if (!increasing && !std::is_sorted(bins.rbegin(), bins.rend()))
    in.raise("ValueError", "bins must be monotonically increasing or decreasing");
  Tensor r = Tensor::empty(DType::Int64, x.shape());
  int64_t n = int64_t(bins.size());
  for (int64_t i = 0; i < x.numElements(); ++i) {
    double v = x.data<double>()[i];
    int64_t k;
    if (increasing) k = right ? std::lower_bound(bins.begin(), bins.end(), v) - bins.begin()
                              : std::upper_bound(bins.begin(), bins.end(), v) - bins.begin();
    else k = n - (right ? std::lower_bound(bins.rbegin(), bins.rend(), v) - bins.rbegin()
                        : std::upper_bound(bins.rbegin(), bins.rend(), v) - bins.rbegin());
    r.data<int64_t>()[i] = k;
  }
  return scalarOrArray(r);
}

Value interp(Interpreter &in, const Bound &b) {
  Tensor x = cast(asTensor(in, b["x"]), DType::Float64);
  std::vector<double> xp = doubles1d(in, b["xp"], "xp"), fp = doubles1d(in, b["fp"], "fp");
  if (xp.size() != fp.size()) in.raise("ValueError", "fp and xp are not of the same length.");
  if (xp.empty()) in.raise("ValueError", "array of sample points is empty");
  double left = b.isNone("left") ? fp.front() : in.toFloat(b["left"]);
  double right = b.isNone("right") ? fp.back() : in.toFloat(b["right"]);
  Tensor r = Tensor::empty(DType::Float64, x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i) {
    double v = x.data<double>()[i], y;
    if (std::isnan(v)) y = v;
    else if (v < xp.front()) y = left;
    else if (v > xp.back()) y = right;
    else if (v == xp.back()) y = fp.back();
    else {
      size_t j = size_t(std::upper_bound(xp.begin(), xp.end(), v) - xp.begin()) - 1;
      double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
      y = slope * (v - xp[j]) + fp[j];
    }
    r.data<double>()[i] = y;
  }
  return scalarOrArray(r);
}

// np.histogram: numpy's equal-width bins (edges start + i * step, the last
// one exactly the stop) or given edges; the last bin includes its right edge.
Value histogram(Interpreter &in, const Bound &b) {
  Tensor a = cast(asTensor(in, b["a"]), DType::Float64);
  const double *x = a.data<double>();
  int64_t n = a.numElements();
  std::vector<double> edges;
  Value bins = b["bins"];
  // bins='auto', 'fd', ...: numpy's estimators give the number of equal bins
  if (bins.as<StrObject>()) {
    Value count = in.getAttr(importPreludeModule(in, "_np_hist_bins"), "bin_count");
    bins = in.call(count, std::vector<Value>{b["a"], bins, b["range"], b["weights"]});
  }
  if (bins.isInt()) {
    int64_t count = bins.asInt();
    if (count < 1) in.raise("ValueError", "`bins` must be positive, when an integer");
    double lo = 0, hi = 1;
    if (!b.isNone("range")) {
      std::vector<double> r = doubles1d(in, b["range"], "range");
      if (r.size() != 2) in.raise("ValueError", "too many values to unpack (expected 2)");
      lo = r[0], hi = r[1];
      if (lo > hi) in.raise("ValueError", "max must be larger than min in range parameter.");
    } else if (n > 0) {
      lo = *std::min_element(x, x + n), hi = *std::max_element(x, x + n);
    }
    if (!std::isfinite(lo) || !std::isfinite(hi))
      in.raise("ValueError", fmt::format("autodetected range of [{}, {}] is not finite", lo, hi));
    if (lo == hi) lo -= 0.5, hi += 0.5;
    double step = (hi - lo) / double(count);
    for (int64_t i = 0; i < count; ++i) edges.push_back(double(i) * step + lo);
    edges.push_back(hi);
  } else {
    if (!b.isNone("range")) in.raise("NotImplementedError", "np.histogram with both bin edges and range= is not supported by tfs");
    edges = doubles1d(in, bins, "bins");
    if (!std::is_sorted(edges.begin(), edges.end()))
      in.raise("ValueError", "`bins` must increase monotonically, when an array");
  }
  size_t nb = edges.size() - 1;
  bool weighted = !b.isNone("weights");
  Tensor w;
  bool intWeights = false;
  if (weighted) {
    w = asTensor(in, b["weights"]);
    intWeights = !ir::isFloating(w.dtype());
    if (w.shape() != a.shape()) in.raise("ValueError", "weights should have the same shape as a.");
    w = cast(w, DType::Float64);
  }
  std::vector<double> counts(nb, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    double v = x[i];
    if (!(v >= edges.front() && v <= edges.back())) continue;
    size_t k = size_t(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin());
    k = k == 0 ? 0 : std::min(k - 1, nb - 1);
    counts[k] += weighted ? w.data<double>()[i] : 1.0;
  }
  bool density = !b.isNone("density") && in.truth(b["density"]);
  if (density) {
    double total = 0;
    for (double c : counts) total += c;
    for (size_t k = 0; k < nb; ++k) counts[k] = counts[k] / total / (edges[k + 1] - edges[k]);
  }
  DType histType = density || (weighted && !intWeights) ? DType::Float64 : DType::Int64;
  Tensor hist = Tensor::fromDoubles(histType, {int64_t(nb)}, counts);
  // Given edges come back as given (int edges stay int); computed ones are float64.
  Tensor edgeTensor = bins.isInt() ? Tensor::fromDoubles(DType::Float64, {int64_t(edges.size())}, edges)
                                   : asTensor(in, bins);
  return in.tuple({newArray(hist), newArray(edgeTensor)});
}

}  // namespace

void addEinsumFunctions(Defs &defs) {
  defs.push_back({"einsum(*operands, out=None, optimize=False, dtype=None, order=!'K', casting=!'safe')", einsum});
  defs.push_back({"isin(element, test_elements, assume_unique=False, invert=False)", isin});
  defs.push_back({"digitize(x, bins, right=False)", digitize});
  defs.push_back({"histogram(a, bins=10, range=None, density=None, weights=None)", histogram});
  defs.push_back({"interp(x, xp, fp, left=None, right=None, period=!None)", interp});
}

}  // namespace tfs::runtime::tf::numpy
