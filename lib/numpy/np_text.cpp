// np.savetxt / np.loadtxt / np.genfromtxt: numeric tables in text files, and
// np.fromstring's text mode,
// with numpy 1.24's parsing rules (comments, delimiters, skipped rows,
// usecols, unpack, ndmin), missing values (genfromtxt) and error messages.
#include "lib/file_util.h"
#include "lib/numpy/ndarray_text.h"
#include "lib/numpy/numpy_lib.h"
#include "runtime/interp/pyformat.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <cstring>
#include <strings.h>
#include <unistd.h>

namespace tfs::runtime::tf::numpy {

namespace {

std::string pathOf(Interpreter &in, const Value &v) {
  if (auto *s = v.as<StrObject>()) return s->s;
  if (auto fspath = in.getAttrOpt(v, "__fspath__")) return in.str(in.call(*fspath, {}));
  return "";
}

bool endsWith(const std::string &s, const char *suffix) {
  std::string x(suffix);
  return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

// The lines of `fname`: a path, a file object (read()), or an iterable of str.
std::vector<std::string> inputLines(Interpreter &in, const Value &fname, const char *fn) {
  std::string text;
  std::string path = pathOf(in, fname);
  if (!path.empty()) {
    if (endsWith(path, ".gz") || endsWith(path, ".bz2") || endsWith(path, ".xz"))
      in.raise("NotImplementedError", fmt::format("np.{} of compressed files is not supported by tfs", fn));
    if (::access(path.c_str(), F_OK) != 0) in.raise("FileNotFoundError", path + " not found.");  // numpy's _datasource
    text = lib::readWholeFile(in, path);
  } else if (auto read = in.getAttrOpt(fname, "read")) {
    Value got = in.call(*read, {});
    if (auto *b = got.as<BytesObject>()) text = b->s;
    else text = in.str(got);
  } else if (fname.as<BytesObject>() || fname.isInt() || fname.isFloat() || fname.isNone()) {
    in.raise("TypeError", "fname must be a string, filehandle, list of strings,\nor generator. Got "
                              + in.typeName(fname) + " instead.");
  } else {
    std::vector<std::string> lines;
    for (const Value &l : in.toList(fname)) {
      if (auto *b = l.as<BytesObject>()) lines.push_back(b->s);
      else lines.push_back(in.str(l));
    }
    return lines;
  }
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = nl + 1;
  }
  return lines;
}

std::vector<std::string> commentMarkers(Interpreter &in, const Value &comments) {
  if (comments.isNone()) return {};
  if (auto *s = comments.as<StrObject>()) return {s->s};
  std::vector<std::string> out;
  for (const Value &c : in.toList(comments)) out.push_back(in.str(c));
  return out;
}

void cutComment(std::string &line, const std::vector<std::string> &markers) {
  size_t cut = std::string::npos;
  for (const std::string &m : markers)
    if (!m.empty()) cut = std::min(cut, line.find(m));
  if (cut != std::string::npos) line.erase(cut);
}

bool blank(const std::string &s) { return s.find_first_not_of(" \t\r\n\v\f") == std::string::npos; }

std::string strip(const std::string &s) {
  size_t a = s.find_first_not_of(" \t\r\n\v\f");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n\v\f");
  return s.substr(a, b - a + 1);
}

std::vector<std::string> splitFields(const std::string &line, const std::string &delimiter, bool whitespace) {
  std::vector<std::string> out;
  if (whitespace) {
    size_t p = 0;
    while (true) {
      p = line.find_first_not_of(" \t\r\n\v\f", p);
      if (p == std::string::npos) break;
      size_t e = line.find_first_of(" \t\r\n\v\f", p);
      if (e == std::string::npos) e = line.size();
      out.push_back(line.substr(p, e - p));
      p = e;
    }
    return out;
  }
  size_t p = 0;
  while (true) {
    size_t e = line.find(delimiter, p);
    if (e == std::string::npos) {
      out.push_back(line.substr(p));
      return out;
    }
    out.push_back(line.substr(p, e - p));
    p = e + delimiter.size();
  }
}

// Python's float(): decimal text, inf/infinity/nan with a sign; no hex.
std::optional<double> parseFloat(const std::string &field) {
  std::string s = strip(field);
  if (s.empty() || s.find_first_of("xXpP") != std::string::npos || s.find('(') != std::string::npos) return std::nullopt;
  std::string t;
  for (size_t k = 0; k < s.size(); ++k) {  // digits may be grouped by single underscores
    if (s[k] == '_') {
      if (k == 0 || k + 1 == s.size() || !std::isdigit(uint8_t(s[k - 1])) || !std::isdigit(uint8_t(s[k + 1])))
        return std::nullopt;
      continue;
    }
    t += s[k];
  }
  errno = 0;
  char *end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size()) return std::nullopt;
  return v;
}

std::optional<int64_t> parseInt(const std::string &field) {
  std::string s = strip(field);
  if (s.empty()) return std::nullopt;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() + s.size() && errno == 0) return int64_t(v);
  // numpy 1.24 still reads "1.5" as 1 for integer dtypes (with a DeprecationWarning).
  if (auto f = parseFloat(s); f && std::isfinite(*f) && std::abs(*f) < 9.2e18) return int64_t(*f);
  return std::nullopt;
}

// The dtype= argument (numpy's default, float, when not given; the
// signature cannot spell `float`, so None stands for it).
DType tableDType(Interpreter &in, const Bound &b, const char *fn) {
  const Value &v = b["dtype"];
  if (!b.given("dtype")) return DType::Float64;
  if (v.isNone()) in.raise("NotImplementedError", fmt::format("np.{}(dtype=None) (per-column type guessing) is not supported by tfs", fn));
  std::optional<DType> d = dtypeParam(in, v);
  // Smaller and unsigned integers wrap as numpy 1.24 reads them; text
  // dtypes (str, 'U5', bytes) keep each field's text (np.loadtxt only).
  if (!d || *d != DType::Bool) return d.value_or(DType::Float64);
  in.raise("NotImplementedError", fmt::format("np.{}(dtype={}) is not supported by tfs (numeric dtypes only)", fn, in.repr(v)));
}

std::vector<int64_t> usecolsOf(Interpreter &in, const Value &v) {
  if (v.isNone()) return {};
  if (v.isInt()) return {v.asInt()};
  std::vector<int64_t> out;
  for (const Value &c : in.toList(v)) out.push_back(in.toIndex(c));
  return out;
}

// A parsed table: rows of doubles (exact for ints up to 2^53) or int64s.
struct Table {
  DType dtype;
  std::vector<double> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strs;  // a text dtype's fields, as written
  TextDType text;
  int64_t rows = 0, cols = -1;
};

// numpy's result: the table squeezed to ndmin..2 dimensions (and transposed when unpacking).
Value finishTable(Interpreter &in, Table &t, int64_t ndmin, bool unpack) {
  if (ndmin < 0 || ndmin > 2) in.raise("ValueError", fmt::format("Illegal value of ndmin keyword: {}", ndmin));
  if (t.cols < 0) t.cols = 0;
  Shape shape{t.rows, t.cols};
  Tensor out = Tensor::empty(t.dtype, shape);
  int64_t n = t.rows * t.cols;
  visitElementType(t.dtype, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, std::string>) {
      for (int64_t k = 0; k < n; ++k) out.data<T>()[k] = t.strs[size_t(k)];
    } else {
      T *p = out.data<T>();
      for (int64_t k = 0; k < n; ++k) {
        if constexpr (std::is_integral_v<T>) p[k] = ir::numericCast<int64_t, T>(t.ints[size_t(k)]);
        else p[k] = ir::numericCast<double, T>(t.floats[size_t(k)]);
      }
    }
  });
  Shape squeezed;
  if (t.rows == 0) squeezed = {0};
  else
    for (int64_t d : shape)
      if (d != 1) squeezed.push_back(d);
  if (ndmin < 2) out = out.reshaped(squeezed);  // numpy squeezes when ndim (2) > ndmin
  while (int64_t(out.rank()) < ndmin) {
    // numpy's atleast_1d / atleast_2d: a 1-D (m,) becomes (1, m); a single
    // column read as 2-D stays (rows, 1).
    Shape s = out.shape();
    if (s.size() == 1 && t.cols == 1 && t.rows > 1) s.push_back(1);
    else s.insert(s.begin(), 1);
    out = out.reshaped(s);
  }
  if (unpack && out.rank() >= 2) {
    std::vector<int64_t> perm(out.rank());
    for (size_t k = 0; k < perm.size(); ++k) perm[k] = int64_t(perm.size() - 1 - k);
    out = transposed(out, perm);
  }
  Value result = newArray(out);
  if (t.dtype == DType::String) markText(*result.as<TensorObject>(), t.text);
  return result;
}

// --- np.loadtxt ---------------------------------------------------------------------------

Value loadtxt(Interpreter &in, const Bound &b) {
  Table t;
  t.dtype = tableDType(in, b, "loadtxt");
  if (t.dtype == DType::String) t.text = textDTypeParam(in, b["dtype"]).value_or(TextDType{'U', 0});
  std::vector<std::string> markers = commentMarkers(in, b["comments"]);
  bool whitespace = b.isNone("delimiter");
  std::string delimiter = whitespace ? "" : in.str(b["delimiter"]);
  int64_t skip = in.toIndex(b["skiprows"]);
  int64_t maxRows = b.isNone("max_rows") ? -1 : in.toIndex(b["max_rows"]);
  std::vector<int64_t> usecols = usecolsOf(in, b["usecols"]);
  std::vector<std::string> lines = inputLines(in, b["fname"], "loadtxt");
  bool isFloat = ir::isFloating(t.dtype);
  for (size_t li = size_t(std::max<int64_t>(skip, 0)); li < lines.size(); ++li) {
    if (maxRows >= 0 && t.rows >= maxRows) break;
    std::string line = lines[li];
    cutComment(line, markers);
    if (blank(line)) continue;
    std::vector<std::string> fields = splitFields(line, delimiter, whitespace);
    if (!usecols.empty()) {
      std::vector<std::string> picked;
      for (int64_t c : usecols) {
        int64_t k = c < 0 ? c + int64_t(fields.size()) : c;
        if (k < 0 || k >= int64_t(fields.size()))
          in.raise("ValueError", fmt::format("invalid column index {} at row {} with {} columns", c, t.rows + 1,
                                             fields.size()));
        picked.push_back(fields[size_t(k)]);
      }
      fields = std::move(picked);
    }
    if (t.cols >= 0 && int64_t(fields.size()) != t.cols)
      in.raise("ValueError", fmt::format("the number of columns changed from {} to {} at row {}; use `usecols` to "
                                         "select a subset and avoid this error",
                                         t.cols, fields.size(), t.rows + 1));
    t.cols = int64_t(fields.size());
    for (size_t c = 0; c < fields.size(); ++c) {
      bool ok;
      if (t.dtype == DType::String) {
        t.strs.push_back(fields[c]);
        ok = true;
      } else if (isFloat) {
        auto v = parseFloat(fields[c]);
        ok = v.has_value();
        if (ok) t.floats.push_back(*v);
      } else {
        auto v = parseInt(fields[c]);
        ok = v.has_value() && (t.dtype != DType::Int32 || (*v >= INT32_MIN && *v <= INT32_MAX));
        if (ok) t.ints.push_back(*v);
      }
      if (!ok)
        in.raise("ValueError", fmt::format("could not convert string {} to {} at row {}, column {}.",
                                           quoteStr(fields[c]), numpyDTypeName(t.dtype), t.rows, c + 1));
    }
    ++t.rows;
  }
  return finishTable(in, t, in.toIndex(b["ndmin"]), in.truth(b["unpack"]));
}

// --- np.genfromtxt ---------------------------------------------------------------------------

Value genfromtxt(Interpreter &in, const Bound &b) {
  Table t;
  t.dtype = tableDType(in, b, "genfromtxt");
  if (t.dtype == DType::String)
    in.raise("NotImplementedError", fmt::format("np.genfromtxt(dtype={}) is not supported by tfs (numeric dtypes only)",
                                                in.repr(b["dtype"])));
  bool isFloat = ir::isFloating(t.dtype);
  std::vector<std::string> markers = commentMarkers(in, b["comments"]);
  bool whitespace = b.isNone("delimiter");
  std::string delimiter = whitespace ? "" : in.str(b["delimiter"]);
  if (!whitespace && b["delimiter"].isInt())
    in.raise("NotImplementedError", "np.genfromtxt with fixed-width fields (an int delimiter) is not supported by tfs");
  int64_t skipHeader = in.toIndex(b["skip_header"]), skipFooter = in.toIndex(b["skip_footer"]);
  int64_t maxRows = b.isNone("max_rows") ? -1 : in.toIndex(b["max_rows"]);
  std::vector<int64_t> usecols = usecolsOf(in, b["usecols"]);
  double fillFloat = std::nan("");
  int64_t fillInt = -1;
  if (!b.isNone("filling_values")) {
    const Value &fv = b["filling_values"];
    if (!(fv.isInt() || fv.isFloat() || fv.isBool()))
      in.raise("NotImplementedError", "np.genfromtxt(filling_values=) other than one number is not supported by tfs");
    fillFloat = in.toFloat(fv);
    fillInt = fv.isFloat() ? int64_t(fv.asFloat()) : in.toInt(fv);
  }
  std::vector<std::string> missing;
  if (!b.isNone("missing_values")) {
    if (auto *s = b["missing_values"].as<StrObject>()) missing.push_back(s->s);
    else
      for (const Value &m : in.toList(b["missing_values"])) missing.push_back(in.str(m));
  }
  std::vector<std::string> lines = inputLines(in, b["fname"], "genfromtxt");
  if (skipHeader > 0) lines.erase(lines.begin(), lines.begin() + std::min<size_t>(size_t(skipHeader), lines.size()));
  // Data rows: non-blank after the comment is cut; skip_footer drops the last ones.
  std::vector<std::vector<std::string>> rows;
  std::vector<size_t> lineNumbers;
  for (size_t li = 0; li < lines.size(); ++li) {
    std::string line = lines[li];
    cutComment(line, markers);
    if (blank(line)) continue;
    rows.push_back(splitFields(line, delimiter, whitespace));
    lineNumbers.push_back(li + 1 + size_t(std::max<int64_t>(skipHeader, 0)));
  }
  if (skipFooter > 0) rows.resize(rows.size() - std::min<size_t>(rows.size(), size_t(skipFooter)));
  if (maxRows >= 0 && int64_t(rows.size()) > maxRows) rows.resize(size_t(maxRows));
  std::string errors;
  int64_t expected = rows.empty() ? 0 : int64_t(rows[0].size());
  for (size_t r = 0; r < rows.size(); ++r)
    if (usecols.empty() && int64_t(rows[r].size()) != expected)
      errors += fmt::format("\n    Line #{} (got {} columns instead of {})", lineNumbers[r], rows[r].size(), expected);
  if (!errors.empty()) {
    if (in.truth(b["invalid_raise"])) in.raise("ValueError", "Some errors were detected !" + errors);
    in.raise("NotImplementedError", "np.genfromtxt(invalid_raise=False) is not supported by tfs");
  }
  for (auto &fields : rows) {
    if (!usecols.empty()) {
      std::vector<std::string> picked;
      for (int64_t c : usecols) {
        int64_t k = c < 0 ? c + int64_t(fields.size()) : c;
        if (k < 0 || k >= int64_t(fields.size())) in.raise("IndexError", "list index out of range");
        picked.push_back(fields[size_t(k)]);
      }
      fields = std::move(picked);
    }
    t.cols = int64_t(fields.size());
    for (const std::string &raw : fields) {
      std::string f = strip(raw);
      bool isMissing = f.empty() || std::find(missing.begin(), missing.end(), f) != missing.end();
      if (isFloat) {
        auto v = isMissing ? std::nullopt : parseFloat(f);
        t.floats.push_back(v ? *v : fillFloat);  // numpy fills values it cannot read as missing ones
      } else {
        auto v = isMissing ? std::nullopt : parseInt(f);
        t.ints.push_back(v ? *v : fillInt);
      }
    }
    ++t.rows;
  }
  return finishTable(in, t, in.toIndex(b["ndmin"]), in.truth(b["unpack"]));
}

// --- np.savetxt -------------------------------------------------------------------------------

Value savetxt(Interpreter &in, const Bound &b) {
  Tensor x = asTensor(in, b["X"]);
  if (x.dtype() == DType::String) in.raise("NotImplementedError", "np.savetxt of string arrays is not supported by tfs");
  if (ir::isComplex(x.dtype())) in.raise("NotImplementedError", "np.savetxt of complex arrays is not supported by tfs");
  if (x.rank() == 0 || x.rank() > 2)
    in.raise("ValueError", fmt::format("Expected 1D or 2D array, got {}D array instead", x.rank()));
  int64_t rows = x.shape()[0], cols = x.rank() == 2 ? x.shape()[1] : 1;
  std::string delimiter = in.str(b["delimiter"]), newline = in.str(b["newline"]), comments = in.str(b["comments"]);
  std::string rowFormat;
  const Value &fmtArg = b["fmt"];
  if (auto *s = fmtArg.as<StrObject>()) {
    size_t count = 0;
    for (size_t k = 0; k < s->s.size(); ++k)
      if (s->s[k] == '%') {
        if (k + 1 < s->s.size() && s->s[k + 1] == '%') ++k;
        else ++count;
      }
    if (count == 1) {
      for (int64_t c = 0; c < cols; ++c) rowFormat += (c ? delimiter : "") + s->s;
    } else if (int64_t(count) == cols) {
      rowFormat = s->s;
    } else {
      in.raise("ValueError", "fmt has wrong number of % formats:  " + s->s);
    }
  } else {
    std::vector<Value> formats = in.toList(fmtArg);
    if (int64_t(formats.size()) != cols) in.raise("AttributeError", "fmt has wrong shape.  " + in.repr(fmtArg));
    for (size_t c = 0; c < formats.size(); ++c) rowFormat += (c ? delimiter : "") + in.str(formats[c]);
  }
  std::string out;
  auto block = [&](const std::string &text) {
    if (text.empty()) return;
    std::string body;
    for (char ch : text) body += ch == '\n' ? "\n" + comments : std::string(1, ch);
    out += comments + body + newline;
  };
  block(in.str(b["header"]));
  Tensor flat = x.reshaped({rows * cols});
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<Value> items;
    for (int64_t c = 0; c < cols; ++c) {
      int64_t k = r * cols + c;
      if (ir::isFloating(x.dtype())) items.push_back(Value::real(flat.elementAsDouble(k)));
      else if (x.dtype() == DType::Bool) items.push_back(Value::boolean(flat.elementAsInt(k) != 0));
      else items.push_back(Value::integer(flat.elementAsInt(k)));
    }
    out += percentFormat(in, rowFormat, in.tuple(items)) + newline;
  }
  block(in.str(b["footer"]));
  const Value &fname = b["fname"];
  std::string path = pathOf(in, fname);
  if (!path.empty()) {
    if (endsWith(path, ".gz")) in.raise("NotImplementedError", "np.savetxt of compressed files is not supported by tfs");
    lib::writeFileAtomic(in, path, out);
  } else if (auto write = in.getAttrOpt(fname, "write")) {
    in.call(*write, std::vector<Value>{in.str(out)});
  } else {
    in.raise("ValueError", "fname must be a string or file handle");
  }
  return Value();
}

// --- np.fromstring (text mode) ----------------------------------------------------------------
// numpy 1.24's array_from_text: elements parsed one after another (strtol
// for integers, strtod for floats, nan/inf spelled out), each followed by
// the separator, whose whitespace matches any run of whitespace (numpy
// pads a non-space separator with such wildcards: "," is " , "). Reading
// stops at the end, at an element that does not parse, or at a separator
// that does not match; the last two warn as numpy 1.24 does.

// The length of the number at s (after leading whitespace), 0 if none.
size_t scanNumber(const std::string &s, size_t at, bool integer, std::string &text) {
  size_t k = at;
  while (k < s.size() && std::isspace(uint8_t(s[k]))) ++k;
  size_t start = k;
  if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
  if (!integer) {
    for (const char *word : {"infinity", "inf", "nan"}) {
      size_t n = std::strlen(word);
      if (s.size() - k >= n && strncasecmp(s.c_str() + k, word, n) == 0) {
        text = s.substr(start, k + n - start);
        return k + n - at;
      }
    }
  }
  size_t digits = 0;
  while (k < s.size() && std::isdigit(uint8_t(s[k]))) ++k, ++digits;
  if (!integer) {
    if (k < s.size() && s[k] == '.') {
      ++k;
      while (k < s.size() && std::isdigit(uint8_t(s[k]))) ++k, ++digits;
    }
    if (digits && k < s.size() && (s[k] == 'e' || s[k] == 'E')) {
      size_t e = k + 1;
      if (e < s.size() && (s[e] == '+' || s[e] == '-')) ++e;
      if (e < s.size() && std::isdigit(uint8_t(s[e]))) {
        while (e < s.size() && std::isdigit(uint8_t(s[e]))) ++e;
        k = e;
      }
    }
  }
  if (!digits) return 0;
  text = s.substr(start, k - start);
  return k - at;
}

// numpy's swab_separator: whitespace runs become one wildcard ' ', and a
// separator not starting (ending) with one gets one in front (at the end).
std::string separatorPattern(const std::string &sep) {
  std::string out;
  if (!sep.empty() && !std::isspace(uint8_t(sep[0]))) out += ' ';
  for (char c : sep) {
    if (std::isspace(uint8_t(c))) {
      if (out.empty() || out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  if (!out.empty() && out.back() != ' ') out += ' ';
  return out;
}

// numpy's fromstr_skip_separator: -1 at the end, -2 on a mismatch, 0 matched.
int skipSeparator(const std::string &s, size_t &at, const std::string &pattern) {
  size_t k = at, p = 0;
  while (true) {
    if (k >= s.size()) {
      at = k;
      return -1;
    }
    char c = s[k];
    if (p == pattern.size()) {
      int r = k != at ? 0 : -2;
      at = k;
      return r;
    }
    if (pattern[p] == ' ') {
      if (!std::isspace(uint8_t(c))) {
        ++p;
        continue;
      }
    } else if (pattern[p] != c) {
      at = k;
      return -2;
    } else {
      ++p;
    }
    ++k;
  }
}

Value fromstring(Interpreter &in, const Bound &b) {
  std::string text;
  if (auto *str = b["string"].as<StrObject>()) text = str->s;
  else if (auto *bytes = b["string"].as<BytesObject>()) text = bytes->s;
  else in.raise("TypeError", fmt::format("a bytes-like object is required, not '{}'", in.typeName(b["string"])));
  std::string sep = in.str(b["sep"]);
  if (sep.empty())
    in.raise("NotImplementedError", "np.fromstring's binary mode (sep='') is not supported by tfs; use np.frombuffer");
  DType d = b.isNone("dtype") ? DType::Float64 : dtypeParam(in, b["dtype"]).value_or(DType::Float64);
  if (d == DType::String) in.raise("ValueError", "zero-valued itemsize");
  if (d == DType::Complex64 || d == DType::Complex128)
    in.raise("NotImplementedError", "np.fromstring of complex dtypes is not supported by tfs");
  bool isFloat = ir::isFloating(d);
  int64_t count = in.toInt(b["count"]);
  std::string pattern = separatorPattern(sep);
  Table t;
  t.dtype = d;
  t.cols = 1;
  size_t at = 0;
  int stop = 0;
  for (int64_t i = 0; count < 0 || i < count; ++i) {
    std::string number;
    size_t n = scanNumber(text, at, !isFloat, number);
    if (n == 0) {
      size_t k = at;
      while (k < text.size() && std::isspace(uint8_t(text[k]))) ++k;
      stop = k >= text.size() ? -1 : -2;
      break;
    }
    at += n;
    if (isFloat) t.floats.push_back(std::strtod(number.c_str(), nullptr));
    else t.ints.push_back(std::strtoll(number.c_str(), nullptr, 10));
    ++t.rows;
    stop = skipSeparator(text, at, pattern);
    if (stop < 0) break;
  }
  if (count >= 0 && t.rows < count)
    // numpy 1.24 hands back the rest of the array uninitialized.
    in.raise("NotImplementedError", fmt::format("np.fromstring(count={}) of a string holding {} elements is not "
                                                "supported by tfs", count, t.rows));
  if (stop == -2) {
    frontend::SourceSpan here = in.currentSpan();
    Value module = in.importModule("warnings");
    in.restoreSpan(here);
    std::vector<Value> args{in.str("string or file could not be read to its end due to unmatched data; this will "
                                   "raise a ValueError in the future."),
                            in.builtins()->vars["DeprecationWarning"]};
    in.call(in.getAttr(module, "warn"), args);
    in.restoreSpan(here);
  }
  Tensor out = Tensor::empty(d, {t.rows});
  visitElementType(d, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (!std::is_same_v<T, std::string>) {
      T *p = out.data<T>();
      for (int64_t k = 0; k < t.rows; ++k) {
        if constexpr (std::is_integral_v<T>) p[k] = ir::numericCast<int64_t, T>(t.ints[size_t(k)]);
        else p[k] = ir::numericCast<double, T>(t.floats[size_t(k)]);
      }
    }
  });
  return newArray(out);
}

}  // namespace

void addTextFunctions(Defs &defs) {
  defs.push_back({"fromstring(string, dtype=None, count=-1, *, sep='', like=!None)", fromstring});
  defs.push_back({"savetxt(fname, X, fmt='%.18e', delimiter=' ', newline='\n', header='', footer='', "
                  "comments='# ', encoding=None)",
                  savetxt});
  defs.push_back({"loadtxt(fname, dtype=None, comments='#', delimiter=None, converters=!None, skiprows=0, "
                  "usecols=None, unpack=False, ndmin=0, encoding='bytes', max_rows=None, *, quotechar=!None, "
                  "like=!None)",
                  loadtxt});
  defs.push_back({"genfromtxt(fname, dtype=None, comments='#', delimiter=None, skip_header=0, skip_footer=0, "
                  "converters=!None, missing_values=None, filling_values=None, usecols=None, names=!None, "
                  "excludelist=!None, deletechars=!None, replace_space='_', autostrip=False, case_sensitive=True, "
                  "defaultfmt='f%i', unpack=None, usemask=!False, loose=True, invalid_raise=True, max_rows=None, "
                  "encoding='bytes', *, ndmin=0, like=!None)",
                  genfromtxt});
}

}  // namespace tfs::runtime::tf::numpy
