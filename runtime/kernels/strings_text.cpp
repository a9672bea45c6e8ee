// Text kernels of tf.strings (TF 2.15's string ops): upper / lower (ASCII
// letters), strip (leading and trailing whitespace), length (bytes or UTF-8
// characters), to_number (TF's "could not correctly convert" error), substr
// (byte or UTF-8 character positions, negative from the end), reduce_join
// over axes and format (tensors as tf.print renders them).
#include "runtime/kernels/kernel_util.h"
#include "runtime/tensor/format.h"
#include "runtime/tensor/template_fill.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace tfs::runtime::kernels {

namespace {

template <class F> std::vector<Tensor> mapStrings(OpKind k, std::span<const Tensor> in, const ir::Attrs &attrs, F &&f) {
  std::vector<Tensor> out = allocateOutputs(k, in, attrs);
  const std::string *p = in[0].data<std::string>();
  std::string *q = out[0].data<std::string>();
  for (int64_t i = 0; i < in[0].numElements(); ++i) q[i] = f(p[i]);
  return out;
}

std::vector<Tensor> upper(std::span<const Tensor> in, const ir::Attrs &attrs) {
  return mapStrings(OpKind::StringUpper, in, attrs, [](std::string s) {
    for (char &c : s)
      if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    return s;
  });
}

std::vector<Tensor> lower(std::span<const Tensor> in, const ir::Attrs &attrs) {
  return mapStrings(OpKind::StringLower, in, attrs, [](std::string s) {
    for (char &c : s)
      if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return s;
  });
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::vector<Tensor> strip(std::span<const Tensor> in, const ir::Attrs &attrs) {
  return mapStrings(OpKind::StringStrip, in, attrs, [](const std::string &s) {
    size_t b = 0, e = s.size();
    while (b < e && isSpace(s[b])) ++b;
    while (e > b && isSpace(s[e - 1])) --e;
    return s.substr(b, e - b);
  });
}

bool utf8Unit(const ir::Attrs &attrs) { return ir::attrString(attrs, "unit", "BYTE") == "UTF8_CHAR"; }

// Byte offsets of the UTF-8 characters of s (continuation bytes skipped), and s.size().
std::vector<size_t> charStarts(const std::string &s) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  starts.push_back(s.size());
  return starts;
}

std::vector<Tensor> length(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::StringLength, in, attrs);
  bool chars = utf8Unit(attrs);
  const std::string *p = in[0].data<std::string>();
  int32_t *q = out[0].data<int32_t>();
  for (int64_t i = 0; i < in[0].numElements(); ++i)
    q[i] = int32_t(chars ? charStarts(p[i]).size() - 1 : p[i].size());
  return out;
}

std::vector<Tensor> toNumber(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::StringToNumber, in, attrs);
  const std::string *p = in[0].data<std::string>();
  Tensor &o = out[0];
  for (int64_t i = 0; i < in[0].numElements(); ++i) {
    std::string s = p[i];
    size_t b = 0, e = s.size();
    while (b < e && isSpace(s[b])) ++b;
    while (e > b && isSpace(s[e - 1])) --e;
    s = s.substr(b, e - b);
    const char *start = s.c_str();
    char *end = nullptr;
    errno = 0;
    bool ok = !s.empty();
    if (o.dtype() == DType::Float32 || o.dtype() == DType::Float64) {
      double v = std::strtod(start, &end);
      ok = ok && end == start + s.size();
      if (o.dtype() == DType::Float32) o.data<float>()[i] = float(v);
      else o.data<double>()[i] = v;
    } else {
      long long v = std::strtoll(start, &end, 10);
      ok = ok && end == start + s.size() && errno != ERANGE;
      if (o.dtype() == DType::Int32) {
        ok = ok && v >= INT32_MIN && v <= INT32_MAX;
        o.data<int32_t>()[i] = int32_t(v);
      } else {
        o.data<int64_t>()[i] = int64_t(v);
      }
    }
    if (!ok) fail(OpKind::StringToNumber, "StringToNumberOp could not correctly convert string: " + p[i]);
  }
  return out;
}

// TF's UTF-8 walks (string_util.h): move `pos` by n characters; false when
// the string ends first (or n is negative).
bool isTrailByte(char c) { return static_cast<signed char>(c) < -0x40; }

bool forwardChars(const std::string &s, int64_t n, int64_t &pos) {
  int64_t counted = 0, size = int64_t(s.size());
  while (counted < n && pos < size) {
    do ++pos;
    while (pos < size && isTrailByte(s[size_t(pos)]));
    ++counted;
  }
  return counted == n;
}

bool backChars(const std::string &s, int64_t n, int64_t &pos) {
  int64_t counted = 0;
  while (counted < n && pos > 0) {
    do --pos;
    while (isTrailByte(s[size_t(pos)]) && pos > 0);
    ++counted;
  }
  return counted == n;
}

// Byte start and length of the substring of pos/len characters; false
// when pos is out of range (TF's UpdatePosAndLenForUtf8).
bool utf8Span(const std::string &s, int64_t pos, int64_t len, int64_t &start, int64_t &bytes) {
  if (pos >= 0) {
    start = 0;
    if (!forwardChars(s, pos, start)) return false;
    int64_t end = start;
    forwardChars(s, len, end);
    bytes = end - start;
    return true;
  }
  int64_t end = int64_t(s.size());
  int64_t skip = std::max<int64_t>(-pos - len, 0);
  if (!backChars(s, skip, end)) return false;
  start = end;
  if (!backChars(s, -pos - skip, start)) return false;
  bytes = end - start;
  return true;
}

// TF's Substr: pos / len per element (scalars, input's shape, or broadcast
// against input up to 2-D). BYTE positions count from the end when
// negative and a negative len takes the rest of the string (TF passes it
// to string_view::substr as a huge size); UTF8_CHAR walks characters.
std::vector<Tensor> substr(std::span<const Tensor> in, const ir::Attrs &attrs) {
  const Tensor &x = in[0], &pos = in[1], &len = in[2];
  if (pos.shape() != len.shape())
    fail(OpKind::Substr, fmt::format("pos and len should have the same shape, got: {} vs. {}",
                                     ir::Shape(pos.shape()).debugString(), ir::Shape(len.shape()).debugString()));
  for (const Tensor *t : {&pos, &len})
    if (t->numElements() == 0)
      fail(OpKind::Substr, fmt::format("received empty tensor {}_tensor: Tensor<type: {} shape: {} values: >",
                                       t == &pos ? "pos" : "len", ir::dtypeName(t->dtype()),
                                       ir::Shape(t->shape()).debugString()));
  std::vector<Tensor> out = allocateOutputs(OpKind::Substr, in, attrs);
  bool chars = utf8Unit(attrs);
  bool scalar = pos.rank() == 0;
  bool twoD = !scalar && pos.shape() != x.shape() && out[0].rank() == 2;
  int64_t cols = twoD ? out[0].shape()[1] : 1;
  const std::string *p = x.data<std::string>();
  std::string *q = out[0].data<std::string>();
  const std::vector<int64_t> &outShape = out[0].shape();
  std::vector<int64_t> posShape = scalar ? outShape : pos.shape();
  forEachBroadcast<2>(outShape, {&x.shape(), &posShape}, [&](int64_t i, const std::array<int64_t, 2> &off) {
    const std::string &str = p[off[0]];
    int64_t at = pos.elementAsInt(scalar ? 0 : off[1]);
    int64_t count = len.elementAsInt(scalar ? 0 : off[1]);
    if (chars) {
      int64_t start, bytes;
      if (!utf8Span(str, at, count, start, bytes))
        fail(OpKind::Substr, fmt::format("pos {} out of range for string at index {}", at, twoD ? i / cols : i));
      q[i] = str.substr(size_t(start), size_t(bytes));
      return;
    }
    int64_t size = int64_t(str.size());
    int64_t from = at < 0 ? at + size : at;
    if (from < 0 || from > size)
      fail(OpKind::Substr, fmt::format("pos {} out of range for string b'{}' at index {}", at, str,
                                       twoD ? fmt::format("({}, {})", i / cols, i % cols) : std::to_string(i)));
    q[i] = str.substr(size_t(from), count < 0 ? std::string::npos : size_t(count));
  });
  return out;
}

std::vector<Tensor> reduceJoin(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::ReduceJoin, in, attrs);
  const Tensor &x = in[0];
  size_t r = x.rank();
  std::vector<bool> reduced(r, ir::attrInts(attrs, "axis") == nullptr);
  if (const auto *axes = ir::attrInts(attrs, "axis"))
    for (int64_t a : *axes) reduced[size_t(a < 0 ? a + int64_t(r) : a)] = true;
  std::string sep = ir::attrString(attrs, "separator", "");
  const std::string *p = x.data<std::string>();
  std::string *q = out[0].data<std::string>();
  std::vector<bool> started(size_t(out[0].numElements()), false);
  for (int64_t i = 0; i < out[0].numElements(); ++i) q[i].clear();
  // Walk the input in row-major order; each element joins its output slot.
  std::vector<int64_t> idx(r, 0);
  for (int64_t i = 0; i < x.numElements(); ++i) {
    int64_t o = 0;
    for (size_t d = 0; d < r; ++d)
      if (!reduced[d]) o = o * x.shape()[d] + idx[d];
    if (started[size_t(o)]) q[o] += sep;
    q[o] += p[i];
    started[size_t(o)] = true;
    for (size_t d = r; d-- > 0;) {
      if (++idx[d] < x.shape()[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

std::vector<Tensor> format(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::string tmpl = ir::attrString(attrs, "template", "");
  int summarize = int(ir::attrInt(attrs, "summarize", 3));
  return {Tensor::scalar(fillTemplate(tmpl, in.size(),
                                      [&](size_t k) { return formatTfPrint(in[k], summarize, false); }))};
}

}  // namespace

void registerStringText(KernelTable &t) {
  t[size_t(OpKind::StringUpper)] = upper;
  t[size_t(OpKind::StringLower)] = lower;
  t[size_t(OpKind::StringStrip)] = strip;
  t[size_t(OpKind::StringLength)] = length;
  t[size_t(OpKind::StringToNumber)] = toNumber;
  t[size_t(OpKind::Substr)] = substr;
  t[size_t(OpKind::ReduceJoin)] = reduceJoin;
  t[size_t(OpKind::StringFormat)] = format;
}

}  // namespace tfs::runtime::kernels
