// The IR printer: Module -> text, exactly as STYLE.md and Note [IR text
// format decisions] (ir/text.h) describe. Deterministic: names depend only on
// print order and source names, never on pointers or creation order.
#include "ir/text.h"
#include "ir/text_common.h"
#include "ir/element_types.h"

#include <cassert>
#include <cmath>
#include <fmt/format.h>
#include <unordered_map>
#include <unordered_set>

namespace tfs::ir {

std::string formatType(const TensorType &type) {
  std::string s = dtypeShortName(type.dtype);
  if (!type.shape.ranked)
    return s + "[*]";
  s += '[';
  for (size_t i = 0; i < type.shape.dims.size(); ++i) {
    if (i)
      s += ',';
    int64_t d = type.shape.dims[i];
    s += d < 0 ? std::string("?") : std::to_string(d);
  }
  s += ']';
  return s;
}

namespace text_detail {

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20 || c == 0x7f)
        out += fmt::format("\\x{:02x}", c);
      else
        out += char(c);
    }
  }
  out += '"';
  return out;
}

std::string formatFloat(double v, bool single) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  std::string s = single ? fmt::format("{}", float(v)) : fmt::format("{}", v);
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0";
  return s;
}

bool isIdentifier(std::string_view s) {
  if (s.empty() || !(isIdentStart(s[0])))
    return false;
  for (char c : s)
    if (!isIdentChar(c))
      return false;
  return true;
}

} // namespace text_detail

using namespace text_detail;

std::string formatAttrValue(const AttrValue &value) {
  struct Visitor {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return formatFloat(d, false); }
    std::string operator()(const std::string &s) const { return quote(s); }
    std::string operator()(const std::vector<int64_t> &v) const {
      return fmt::format("[{}]", fmt::join(v, ", "));
    }
    std::string operator()(DType t) const { return dtypeShortName(t); }
    std::string operator()(const Shape &s) const {
      // "shape" + the bracket part of a type.
      std::string t = formatType(TensorType{DType::Float32, s});
      return "shape" + t.substr(t.find('['));
    }
  };
  return std::visit(Visitor{}, value);
}

namespace {

std::string formatElement(const DenseElements &d, int64_t i) {
  if (d.dtype() == DType::String)
    return quote(d.strings()[size_t(i)]);
  if (d.dtype() == DType::Bool)
    return d.intAt(i) ? "true" : "false";
  // Floats narrower than f64 print float32's shortest digits, which read back
  // to the same value; complex elements are [re, im] pairs.
  return visitNumericDType(d.dtype(), [&]<class T>() -> std::string {
    T v = d.as<T>()[size_t(i)];
    if constexpr (isComplexType<T>)
      return fmt::format("[{}, {}]", formatFloat(v.real(), sizeof(T) == 8),
                         formatFloat(v.imag(), sizeof(T) == 8));
    else if constexpr (isIntType<T>)
      return std::to_string(v);
    else
      return formatFloat(numericCast<T, double>(v), !std::is_same_v<T, double>);
  });
}

// Nested list text of dims[axis:] starting at flat element `offset`.
void formatNested(const DenseElements &d, size_t axis, int64_t &offset,
                  std::string &out) {
  const auto &dims = d.shape().dims;
  if (axis == dims.size()) {
    out += formatElement(d, offset++);
    return;
  }
  out += '[';
  for (int64_t i = 0; i < dims[axis]; ++i) {
    if (i)
      out += ", ";
    formatNested(d, axis + 1, offset, out);
  }
  out += ']';
}

std::string formatConstLiteral(const DenseElements &d) {
  if (isComplex(d.dtype())) {  // always nested: each element is a list
    std::string out = "dense<";
    int64_t offset = 0;
    formatNested(d, 0, offset, out);
    return out + ">";
  }
  if (d.shape().rank() == 0)
    return formatElement(d, 0);
  if (d.numElements() > 1 && d.isSplat())
    return "dense<" + formatElement(d, 0) + ">";
  std::string out = "dense<";
  int64_t offset = 0;
  formatNested(d, 0, offset, out);
  return out + ">";
}

std::string typeList(const std::vector<TensorType> &types) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i)
      s += ", ";
    s += formatType(types[i]);
  }
  return s;
}

// `T` for one type, `(T1, T2)` otherwise.
std::string resultTypeText(const std::vector<TensorType> &types) {
  if (types.size() == 1)
    return formatType(types[0]);
  return "(" + typeList(types) + ")";
}

class Printer {
public:
  explicit Printer(const PrintOptions &opts) : opts_(opts) {}

  void function(const Function &fn) {
    names_.clear();
    scopes_.clear();
    counter_ = 0;
    scopes_.emplace_back();
    out_ += "func @";
    out_ += isIdentifier(fn.name()) ? fn.name() : quote(fn.name());
    out_ += '(';
    blockArgs(fn.body());
    out_ += ')';
    bool anyCapture = !fn.captures().empty();
    if (anyCapture) {
      out_ += " captures(";
      for (size_t i = 0; i < fn.captures().size(); ++i) {
        const Capture &c = fn.captures()[i];
        if (i)
          out_ += ", ";
        if (c.kind == Capture::Kind::Tensor && c.value)
          out_ += define(c.value, c.name);
        else
          out_ += "var " + quote(c.name);
        out_ += ": " + formatType(c.type);
      }
      out_ += ')';
    }
    out_ += " -> " + resultTypeText(fn.resultTypes) + " {\n";
    regionBody(fn.body(), 1);
    out_ += "}\n";
  }

  std::string take() { return std::move(out_); }

  // The printed first line of `n` (after function() printed it), trimmed.
  std::string headline(const Node &n) const {
    auto it = lineStarts_.find(&n);
    if (it == lineStarts_.end())
      return n.name();
    size_t start = out_.find_first_not_of(' ', it->second);
    size_t end = out_.find('\n', start);
    std::string line = out_.substr(start, end - start);
    if (line.size() > 120)
      line = line.substr(0, 117) + "...";
    return line;
  }

private:
  // Assigns the printed name of a value defined here and returns it.
  std::string define(const Value *v, std::string_view hint) {
    std::string name;
    if (!hint.empty()) {
      std::string base = sanitize(hint);
      name = base;
      for (int i = 1; visible(name); ++i)
        name = fmt::format("{}_{}", base, i);
    } else {
      name = std::to_string(counter_++);
    }
    scopes_.back().insert(name);
    std::string text = "%" + name;
    names_[v] = text;
    return text;
  }

  static std::string sanitize(std::string_view hint) {
    std::string s;
    for (char c : hint)
      s += isIdentChar(c) ? c : '_';
    if (!isIdentStart(s[0]))
      s.insert(s.begin(), '_');
    return s;
  }

  bool visible(const std::string &name) const {
    for (const auto &scope : scopes_)
      if (scope.count(name))
        return true;
    return false;
  }

  std::string use(const Value *v) const {
    auto it = names_.find(v);
    // A value that is not visible (an invalid graph being printed for a
    // diagnostic) still prints, recognizably.
    return it == names_.end() ? std::string("%<undefined>") : it->second;
  }

  std::string operandList(const Node &n) const {
    std::string s;
    for (size_t i = 0; i < n.numOperands(); ++i) {
      if (i)
        s += ", ";
      s += use(n.operand(unsigned(i)));
    }
    return s;
  }

  void blockArgs(const Region &r) {
    for (size_t i = 0; i < r.numArgs(); ++i) {
      if (i)
        out_ += ", ";
      const Value *a = r.arg(unsigned(i));
      out_ += define(a, a->name) + ": " + formatType(a->type);
    }
  }

  void indent(int depth) { out_.append(size_t(depth) * 2, ' '); }

  void regionBody(const Region &r, int depth) {
    for (const auto &n : r.nodes())
      node(*n, depth);
  }

  // `{` region `}` with a fresh scope for the region's block args and nodes.
  void nestedRegion(const Region &r, int depth, std::string_view header) {
    out_ += header;
    if (!header.empty()) {
      out_ += '(';
      blockArgs(r);
      out_ += ')';
    }
    out_ += " {\n";
    regionBody(r, depth + 1);
    indent(depth);
    out_ += '}';
  }

  std::string attrDict(const Node &n) const {
    if (n.attrs.empty())
      return {};
    std::string s = " {";
    bool first = true;
    for (const auto &[k, v] : n.attrs) {
      if (!first)
        s += ", ";
      first = false;
      s += isIdentifier(k) ? k : quote(k);
      s += " = " + formatAttrValue(v);
    }
    return s + "}";
  }

  std::string typeSignature(const Node &n) const {
    std::vector<TensorType> ins, outs = n.resultTypes();
    for (Value *o : n.operands())
      ins.push_back(o ? o->type : TensorType{});
    // STYLE.md's examples (`greater %x, %0 : bool[]`): one type when the
    // operands agree with each other; see Note [IR text format decisions].
    bool same = outs.size() == 1;
    for (const auto &t : ins)
      same = same && t == ins[0];
    if (same)
      return formatType(outs[0]);
    std::string outText =
        outs.size() == 1 ? formatType(outs[0]) : "(" + typeList(outs) + ")";
    return "(" + typeList(ins) + ") -> " + outText;
  }

  void node(const Node &n, int depth) {
    indent(depth);
    lineStarts_[&n] = out_.size();
    if (n.numResults()) {
      for (size_t i = 0; i < n.numResults(); ++i) {
        if (i)
          out_ += ", ";
        out_ += define(n.result(unsigned(i)), {});
      }
      out_ += " = ";
    }
    out_ += n.name();
    switch (n.kind()) {
    case OpKind::Const:
      out_ += ' ';
      out_ += n.constValue ? formatConstLiteral(*n.constValue) : "<null>";
      out_ += attrDict(n) + " : " + typeSignature(n);
      break;
    case OpKind::Yield:
    case OpKind::Return:
      if (n.numOperands())
        out_ += ' ' + operandList(n);
      out_ += attrDict(n);
      break;
    case OpKind::Call:
      out_ += " @";
      out_ += isIdentifier(n.callee) ? n.callee : quote(n.callee);
      out_ +=
          "(" + operandList(n) + ")" + attrDict(n) + " : " + typeSignature(n);
      break;
    case OpKind::Cond:
      if (n.numOperands())
        out_ += ' ' + operandList(n);
      out_ += attrDict(n) + " -> (" + typeList(n.resultTypes()) + ")";
      if (n.numRegions() == 2) {
        scopes_.emplace_back();
        nestedRegion(n.region(0), depth, "");
        scopes_.pop_back();
        out_ += " else";
        scopes_.emplace_back();
        nestedRegion(n.region(1), depth, "");
        scopes_.pop_back();
      }
      break;
    case OpKind::WhileLoop: {
      if (n.numOperands()) {
        out_ += ' ' + operandList(n);
      }
      out_ += attrDict(n);
      if (n.numOperands()) {
        std::vector<TensorType> ins;
        for (Value *o : n.operands())
          ins.push_back(o ? o->type : TensorType{});
        out_ += " : " + typeList(ins);
      }
      if (n.numRegions() == 2) {
        out_ += ' ';
        scopes_.emplace_back();
        nestedRegion(n.region(0), depth, "cond");
        scopes_.pop_back();
        out_ += ' ';
        scopes_.emplace_back();
        nestedRegion(n.region(1), depth, "body");
        scopes_.pop_back();
      }
      break;
    }
    default:
      if (n.numOperands())
        out_ += ' ' + operandList(n);
      out_ += attrDict(n) + " : " + typeSignature(n);
      break;
    }
    if (opts_.printLoc && n.loc.known())
      out_ += fmt::format(" loc({}:{}:{})", quote(n.loc.path()),
                          n.loc.span.line, n.loc.span.col);
    out_ += '\n';
  }

  const PrintOptions &opts_;
  std::string out_;
  std::unordered_map<const Value *, std::string> names_;
  std::unordered_map<const Node *, size_t> lineStarts_;
  std::vector<std::unordered_set<std::string>> scopes_;
  unsigned counter_ = 0;
};

} // namespace

std::string printFunction(const Function &fn, const PrintOptions &opts) {
  Printer p(opts);
  p.function(fn);
  return p.take();
}

std::string text_detail::nodeHeadline(const Function &fn, const Node &node) {
  PrintOptions opts;
  Printer p(opts);
  p.function(fn);
  return p.headline(node);
}

std::string printModule(const Module &module, const PrintOptions &opts) {
  std::string out;
  for (const auto &fn : module.functions()) {
    if (!out.empty())
      out += '\n';
    out += printFunction(*fn, opts);
  }
  return out;
}

} // namespace tfs::ir
