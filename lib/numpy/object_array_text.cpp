// numpy 1.24's printing of object arrays (numpy/core/arrayprint.py):
// elements by repr() (a list as `list([1, 2])`, so nesting stays
// unambiguous), not padded to a common width, lines wrapped at the print
// options' linewidth, `...` past the threshold, multi-line elements (a
// nested array) kept in their own block as _extendLine_pretty does.
#include "lib/numpy/object_array.h"

#include "runtime/tensor/format.h"

#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

std::string formatElement(Interpreter &in, const Value &v) {
  if (v.as<ListObject>()) return "list(" + in.repr(v) + ")";
  return in.repr(v);
}

std::vector<std::string> splitLines(const std::string &s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t nl; (nl = s.find('\n', start)) != std::string::npos; start = nl + 1) out.push_back(s.substr(start, nl - start));
  out.push_back(s.substr(start));
  return out;
}

std::string rstrip(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

struct Printer {
  Interpreter &in;
  const ObjectArray &a;
  std::string separator;
  int64_t edgeItems;
  bool summarize;
  Shape strides;

  // _extendLine
  void extendLine(std::string &s, std::string &line, const std::string &word, size_t width, const std::string &indent) {
    bool wrap = line.size() + word.size() > width && line.size() > indent.size();
    if (wrap) {
      s += rstrip(line) + "\n";
      line = indent;
    }
    line += word;
  }
  // _extendLine_pretty
  void extendLinePretty(std::string &s, std::string &line, const std::string &word, size_t width,
                        const std::string &indent) {
    std::vector<std::string> words = splitLines(word);
    if (words.size() == 1) return extendLine(s, line, word, width, indent);
    size_t longest = 0;
    for (const std::string &w : words) longest = std::max(longest, w.size());
    std::string wordIndent;
    if (line.size() + longest > width && line.size() > indent.size()) {
      s += rstrip(line) + "\n";
      line = indent + words[0];
      wordIndent = indent;
    } else {
      wordIndent = std::string(line.size(), ' ');
      line += words[0];
    }
    for (size_t i = 1; i < words.size(); ++i) {
      s += rstrip(line) + "\n";
      line = wordIndent + words[i];
    }
    line += std::string(longest - words.back().size(), ' ');
  }

  std::string recurse(size_t axis, int64_t base, const std::string &hanging, size_t width) {
    const Shape &shape = a.shape();
    if (axis == shape.size()) return formatElement(in, a.at(base));
    std::string nextHanging = hanging + " ";
    size_t nextWidth = width - 1;
    int64_t n = shape[size_t(axis)];
    bool summary = summarize && 2 * edgeItems < n;
    int64_t leading = summary ? edgeItems : 0, trailing = summary ? edgeItems : n;
    auto child = [&](int64_t i) { return recurse(axis + 1, base + i * strides[axis], nextHanging, nextWidth); };
    std::string s;
    if (axis + 1 == shape.size()) {
      size_t sepWidth = rstrip(separator).size();
      size_t elemWidth = width - std::max<size_t>(sepWidth, 1);
      std::string line = hanging;
      for (int64_t i = 0; i < leading; ++i) {
        extendLinePretty(s, line, child(i), elemWidth, hanging);
        line += separator;
      }
      if (summary) {
        extendLine(s, line, "...", elemWidth, hanging);
        line += separator;
      }
      for (int64_t i = trailing; i > 1; --i) {
        extendLinePretty(s, line, child(n - i), elemWidth, hanging);
        line += separator;
      }
      extendLinePretty(s, line, child(n - 1), elemWidth, hanging);
      s += line;
    } else {
      std::string lineSep = rstrip(separator) + std::string(shape.size() - axis - 1, '\n');
      for (int64_t i = 0; i < leading; ++i) s += hanging + child(i) + lineSep;
      if (summary) s += hanging + "..." + lineSep;
      for (int64_t i = trailing; i > 1; --i) s += hanging + child(n - i) + lineSep;
      s += hanging + child(n - 1);
    }
    return "[" + s.substr(hanging.size()) + "]";
  }
};

// numpy's array2string of a non-empty object array.
std::string arrayToString(Interpreter &in, const ObjectArray &a, const std::string &separator, const std::string &prefix,
                          const std::string &suffix) {
  const NumpyPrintOptions &o = numpyPrintOptions();
  Printer p{in, a, separator, o.edgeitems, double(a.size()) > o.threshold, cStrides(a.shape())};
  size_t width = size_t(std::max<int64_t>(o.linewidth - int64_t(suffix.size()), 1));
  return p.recurse(0, 0, std::string(prefix.size() + 1, ' '), width);  // " " skips the "["
}

}  // namespace

std::string objectArrayRepr(Interpreter &in, const ObjectArray &a) {
  std::string body;
  if (a.size() > 0 || a.shape() == Shape{0}) body = a.size() == 0 ? "[]" : arrayToString(in, a, ", ", "array(", ",");
  else body = "[], shape=" + in.repr(in.getAttr(Value(Ref<Object>(const_cast<ObjectArray *>(&a))), "shape"));
  std::string text = "array(" + body + ",";
  std::string dtype = "dtype=object)";
  size_t lastLine = text.size() - (text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
  bool wrap = int64_t(lastLine + dtype.size() + 1) > numpyPrintOptions().linewidth;
  return text + (wrap ? "\n      " : " ") + dtype;
}

std::string objectArrayStr(Interpreter &in, const ObjectArray &a) {
  if (a.shape().empty()) return in.str(a.at(0));
  if (a.size() == 0) return "[]";
  return arrayToString(in, a, " ", "", "");
}

std::optional<std::string> ObjectArray::repr(Interpreter &in) { return objectArrayRepr(in, *this); }
std::optional<std::string> ObjectArray::str(Interpreter &in) { return objectArrayStr(in, *this); }

}  // namespace tfs::runtime::tf::numpy
