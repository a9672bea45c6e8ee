// The IR text parser's numbers and constants (ir/parser_detail.h):
// token-to-number conversion with range checks, and building a const's
// DenseElements from its literal once the type is known.
#include "ir/parser_detail.h"
#include "ir/element_types.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace tfs::ir::text_detail {

namespace {

constexpr int64_t kMaxConstElements = int64_t(1) << 24;

} // namespace

int64_t parseIntToken(const Token &t) {
  int64_t v = 0;
  auto [p, ec] =
      std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
  if (ec != std::errc() || p != t.text.data() + t.text.size())
    fail(t, fmt::format("integer '{}' is out of range", t.text));
  return v;
}
double parseFloatToken(const Token &t) {
  double v = 0;
  auto [p, ec] =
      std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
  if (ec != std::errc() || p != t.text.data() + t.text.size())
    fail(t, fmt::format("float '{}' is out of range", t.text));
  return v;
}

// One element token as a scalar of `dtype` (not complex: those are pairs).
static DenseElements constElement(const Token &e, DType dtype) {
  if (dtype == DType::Bool) {
    if (e.kind == Tok::Ident && (e.text == "true" || e.text == "false"))
      return DenseElements::scalarBool(e.text == "true");
    fail(e, "expected 'true' or 'false' in a bool constant");
  }
  if (isInteger(dtype)) {
    if (e.kind != Tok::Int)
      fail(e, fmt::format("expected an integer in a {} constant",
                          dtypeShortName(dtype)));
    if (dtype == DType::UInt64) {
      uint64_t u = 0;
      auto [p, ec] = std::from_chars(e.text.data(), e.text.data() + e.text.size(), u);
      if (ec != std::errc() || p != e.text.data() + e.text.size())
        fail(e, fmt::format("integer '{}' is out of range for u64", e.text));
      return DenseElements::scalarInt(dtype, int64_t(u));
    }
    int64_t v = parseIntToken(e);
    bool inRange = visitNumericDType(dtype, [&]<class T>() {
      if constexpr (isIntType<T>)
        return v >= int64_t(std::numeric_limits<T>::min()) &&
               (std::is_same_v<T, uint32_t> || sizeof(T) < 8 ? v <= int64_t(std::numeric_limits<T>::max()) : true);
      else
        return true;
    });
    if (!inRange)
      fail(e, fmt::format("integer '{}' is out of range for {}", e.text, dtypeShortName(dtype)));
    return DenseElements::scalarInt(dtype, v);
  }
  if (isFloating(dtype)) {
    double v;
    if (e.kind == Tok::Int || e.kind == Tok::Float)
      v = parseFloatToken(e);
    else if (e.kind == Tok::Ident && e.text == "inf")
      v = HUGE_VAL;
    else if (e.kind == Tok::Ident && e.text == "-inf")
      v = -HUGE_VAL;
    else if (e.kind == Tok::Ident && (e.text == "nan" || e.text == "-nan"))
      v = std::numeric_limits<double>::quiet_NaN();
    else
      fail(e, fmt::format("expected a number in a {} constant",
                          dtypeShortName(dtype)));
    // f16/bf16 digits are float32's shortest form of the value: read them
    // as float32 first so the value rounds once, as it was printed.
    if (dtype != DType::Float64 && dtype != DType::Float32)
      v = double(float(v));
    return DenseElements::scalar(dtype, v);
  }
  fail(e, "bad constant element");
}

// Flattens `l` against dims[axis:], checking the nesting matches.
void flattenLiteral(const Literal &l, const std::vector<int64_t> &dims,
                    size_t axis, std::vector<const Token *> &out) {
  if (axis == dims.size()) {
    if (l.isList)
      fail(l.elem, "constant literal is nested deeper than its type");
    out.push_back(&l.elem);
    return;
  }
  if (!l.isList)
    fail(l.elem, "constant literal is nested less deeply than its type");
  if (int64_t(l.items.size()) != dims[axis])
    fail(l.elem, fmt::format("constant literal has {} elements on axis {} "
                             "but its type has {}",
                             l.items.size(), axis, dims[axis]));
  for (const auto &item : l.items)
    flattenLiteral(item, dims, axis + 1, out);
}

DenseElements buildConstant(const Literal &lit, bool dense, const TensorType &t,
                            const Token &at) {
  if (!t.shape.ranked || !t.shape.fullyDefined())
    fail(at, "a constant's type must have a fully defined shape");
  int64_t n = 1;
  for (int64_t d : t.shape.dims) {
    if (d != 0 && n > kMaxConstElements / d)
      fail(at, "constant is too large");
    n *= d;
  }
  if (isComplex(t.dtype)) {
    // Each element is an [re, im] pair: one more axis of 2 floats.
    if (!lit.isList)
      fail(at, "complex constants are written as [re, im] pairs");
    std::vector<int64_t> pairDims = t.shape.dims;
    pairDims.push_back(2);
    std::vector<const Token *> parts;
    flattenLiteral(lit, pairDims, 0, parts);
    std::vector<uint8_t> bytes(size_t(n) * DenseElements::elementBytes(t.dtype));
    visitNumericDType(t.dtype, [&]<class T>() {
      if constexpr (isComplexType<T>) {
        using R = typename T::value_type;
        for (int64_t i = 0; i < n; ++i) {
          R re = R(constElement(*parts[size_t(2 * i)], dtypeOf<R>()).doubleAt(0));
          R im = R(constElement(*parts[size_t(2 * i + 1)], dtypeOf<R>()).doubleAt(0));
          T v(re, im);
          std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
        }
      }
    });
    return DenseElements(t.dtype, t.shape, std::move(bytes));
  }
  std::vector<const Token *> elems;
  bool splat = !lit.isList;
  if (splat) {
    if (t.shape.rank() > 0 && !dense)
      fail(at, "a non-scalar constant needs 'dense<...>'");
  } else {
    flattenLiteral(lit, t.shape.dims, 0, elems);
  }
  auto elemAt = [&](int64_t i) -> const Token & {
    return splat ? lit.elem : *elems[size_t(i)];
  };
  if (t.dtype == DType::String) {
    std::vector<std::string> strs;
    for (int64_t i = 0; i < n; ++i) {
      const Token &e = elemAt(i);
      if (e.kind != Tok::String)
        fail(e, "expected a string element in a str constant");
      strs.push_back(e.text);
    }
    return DenseElements::fromStrings(t.shape, std::move(strs));
  }
  std::vector<uint8_t> bytes(size_t(n) * DenseElements::elementBytes(t.dtype));
  if (n == 0)
    return DenseElements(t.dtype, t.shape, std::move(bytes));
  // Convert each distinct token once (a splat has one).
  int64_t distinct = splat ? 1 : n;
  for (int64_t i = 0; i < distinct; ++i) {
    DenseElements one = constElement(elemAt(i), t.dtype);
    size_t w = one.bytes().size();
    if (splat) {
      for (int64_t k = 0; k < n; ++k)
        std::copy(one.bytes().begin(), one.bytes().end(),
                  bytes.begin() + k * w);
    } else {
      std::copy(one.bytes().begin(), one.bytes().end(), bytes.begin() + i * w);
    }
  }
  return DenseElements(t.dtype, t.shape, std::move(bytes));
}

} // namespace tfs::ir::text_detail
