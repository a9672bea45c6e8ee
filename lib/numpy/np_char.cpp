// numpy.char: Python's str methods applied element by element to text
// arrays, as numpy 1.24's defchararray does (its _vec_string): every
// argument is broadcast against the others, each element becomes a Python
// str (bytes for an 'S' array) and the method of that name runs on it, so
// the results are Python's own. What numpy decides beyond Python is the
// result's dtype, which follows numpy's rule per function:
//   the input's dtype (upper, lower, strip, ...: longer results are cut);
//   a computed width (add: the two widths summed; multiply: width times the
//     largest count; center/ljust/rjust/zfill: the largest width asked for);
//   the longest result (replace, join, decode, encode);
//   int64 (str_len, find, count, ...) or bool (startswith, isdigit, ...).
// partition / rpartition give an array with a last axis of the three parts
// (the longest part's width); the comparisons compare code points (bytes)
// after stripping trailing whitespace, as compare_chararrays(rstrip=True).
// split / rsplit / splitlines give object arrays of the lists Python's
// methods return.
#include "lib/numpy/ndarray_text.h"
#include "lib/numpy/numpy_lib.h"
#include "lib/numpy/object_array.h"

#include <cctype>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

// One argument of a vectorized string call: its elements and their kind.
struct Operand {
  Tensor t;
  char kind = 0;  // 'U' / 'S' for text, 0 for numbers
  int64_t width = 0;
};

Operand operandOf(Interpreter &in, const Value &v) {
  Value arr = v;
  if (!ndarrayOf(v)) arr = finishText(in, newArray(asTensor(in, v)), {v});
  auto *a = ndarrayOf(arr);
  Operand op;
  op.t = asTensor(in, arr);
  if (a && op.t.dtype() == DType::String) {
    op.kind = a->text.kind;
    op.width = a->text.width;
  }
  return op;
}

// The array the method runs on: text only.
Operand textOperand(Interpreter &in, const Value &v) {
  Operand op = operandOf(in, v);
  if (op.t.dtype() != DType::String || !op.kind) in.raise("TypeError", "string operation on non-string array");
  return op;
}

Value elementValue(Interpreter &in, const Operand &op, int64_t i) {
  if (op.t.dtype() == DType::String) {
    const std::string &s = op.t.data<std::string>()[i];
    if (op.kind == 'U') return in.str(s);
    return make<BytesObject>(s);
  }
  if (op.t.dtype() == DType::Bool) return Value::boolean(op.t.elementAsInt(i) != 0);
  if (ir::isFloating(op.t.dtype())) return Value::real(op.t.elementAsDouble(i));
  return Value::integer(op.t.elementAsInt(i));
}

enum class Result { Text, Int, Bool };

struct Call {
  const char *method;
  Result result = Result::Text;
  // the result's text kind and width; width 0: the longest result (at least 1)
  char kind = 0;
  int64_t width = 0;
};

// Runs `call.method` of each element of ops[0] with the other operands'
// elements as arguments, all broadcast together.
Value vectorized(Interpreter &in, std::vector<Operand> ops, const Call &call) {
  std::vector<Shape> shapes;
  for (auto &op : ops) shapes.push_back(op.t.shape());
  Shape shape = broadcastShapes(in, shapes);
  for (auto &op : ops) op.t = broadcastTo(op.t, shape);
  int64_t n = elementCount(shape);
  DType outType = call.result == Result::Text ? DType::String : call.result == Result::Int ? DType::Int64 : DType::Bool;
  Tensor out = Tensor::empty(outType, shape);
  std::vector<Value> args(ops.size() - 1);
  for (int64_t i = 0; i < n; ++i) {
    Value self = elementValue(in, ops[0], i);
    for (size_t k = 1; k < ops.size(); ++k) args[k - 1] = elementValue(in, ops[k], i);
    Value r = in.call(in.getAttr(self, call.method), args);
    if (call.result == Result::Text) {
      if (auto *s = r.as<StrObject>()) out.data<std::string>()[i] = s->s;
      else if (auto *b = r.as<BytesObject>()) out.data<std::string>()[i] = b->s;
      else in.raise("TypeError", fmt::format("{}() returned {}, not a string", call.method, in.typeName(r)));
    } else if (call.result == Result::Int) {
      out.data<int64_t>()[i] = in.toInt(r);
    } else {
      out.data<bool>()[i] = in.truth(r);
    }
  }
  Value result = newArray(std::move(out));
  if (call.result == Result::Text) markText(*ndarrayOf(result), TextDType{call.kind, call.width});
  return result;
}

// partition / rpartition: each element's three parts along a new last axis.
Value partitioned(Interpreter &in, std::vector<Operand> ops, const char *method) {
  std::vector<Shape> shapes;
  for (auto &op : ops) shapes.push_back(op.t.shape());
  Shape shape = broadcastShapes(in, shapes);
  for (auto &op : ops) op.t = broadcastTo(op.t, shape);
  int64_t n = elementCount(shape);
  Shape outShape = shape;
  outShape.push_back(3);
  Tensor out = Tensor::empty(DType::String, outShape);
  for (int64_t i = 0; i < n; ++i) {
    Value self = elementValue(in, ops[0], i);
    Value r = in.call(in.getAttr(self, method), std::vector<Value>{elementValue(in, ops[1], i)});
    std::vector<Value> parts = in.toList(r);
    for (size_t k = 0; k < 3 && k < parts.size(); ++k) {
      if (auto *str = parts[k].as<StrObject>()) out.data<std::string>()[i * 3 + int64_t(k)] = str->s;
      else if (auto *bytes = parts[k].as<BytesObject>()) out.data<std::string>()[i * 3 + int64_t(k)] = bytes->s;
    }
  }
  Value result = newArray(std::move(out));
  markText(*ndarrayOf(result), TextDType{ops[0].kind, 0});
  return result;
}

// split / rsplit / splitlines: an object array of each element's list.
// The extra arguments are scalars (None included: numpy passes `sep` even
// when it is None, so split(a, None, 1) splits on whitespace once).
Value splitEach(Interpreter &in, const Operand &a, const char *method, const std::vector<Value> &args) {
  for (const Value &v : args)
    if (ndarrayOf(v) || v.as<ListObject>() || v.as<TupleObject>())
      in.raise("NotImplementedError", fmt::format("numpy.char.{} with array arguments is not supported by tfs", method));
  std::vector<Value> lists;
  for (int64_t i = 0, n = a.t.numElements(); i < n; ++i)
    lists.push_back(in.call(in.getAttr(elementValue(in, a, i), method), args));
  return newObjectArray(std::move(lists), a.t.shape());
}

// compare_chararrays: `op` one of == != < > <= >=, trailing whitespace
// (and NULs) dropped first when `rstrip`.
Value compared(Interpreter &in, const Value &x1, const Value &x2, const std::string &op, bool rstrip) {
  static const std::vector<std::string> ops{"==", "!=", "<", ">", "<=", ">="};
  if (std::find(ops.begin(), ops.end(), op) == ops.end())
    in.raise("ValueError", "comparison must be '==', '!=', '<', '>', '<=', '>='");
  Operand a = operandOf(in, x1), b = operandOf(in, x2);
  if (!a.kind || !b.kind) in.raise("TypeError", "comparison of non-string arrays");
  Shape shape = broadcastShapes(in, {a.t.shape(), b.t.shape()});
  Tensor left = broadcastTo(a.t, shape), right = broadcastTo(b.t, shape);
  Tensor out = Tensor::empty(DType::Bool, shape);
  auto strip = [rstrip](std::string s) {
    if (rstrip)
      while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.back())) || s.back() == '\0')) s.pop_back();
    return s;
  };
  for (int64_t i = 0, n = elementCount(shape); i < n; ++i) {
    // UTF-8 byte order is code point order, so std::string's comparison is numpy's
    std::string l = strip(left.data<std::string>()[i]), r = strip(right.data<std::string>()[i]);
    int c = l.compare(r);
    bool v = op == "==" ? c == 0 : op == "!=" ? c != 0 : op == "<" ? c < 0 : op == ">" ? c > 0 : op == "<=" ? c <= 0 : c >= 0;
    out.data<bool>()[i] = v;
  }
  return newArray(std::move(out));
}

// The operands of a call: `a` first, then the arguments that are not None
// (numpy's _clean_args drops a None and everything after it).
std::vector<Operand> operands(Interpreter &in, const Operand &a, const std::vector<Value> &rest) {
  std::vector<Operand> ops{a};
  for (const Value &v : rest) {
    if (v.isNone()) break;
    ops.push_back(operandOf(in, v));
  }
  return ops;
}

int64_t largestInt(Interpreter &in, const Value &v) {
  Tensor t = asTensor(in, v);
  if (!ir::isInteger(t.dtype()) && t.dtype() != DType::Bool) in.raise("TypeError", "an integer is required");
  int64_t m = INT64_MIN;
  for (int64_t i = 0, n = t.numElements(); i < n; ++i) m = std::max(m, t.elementAsInt(i));
  if (t.numElements() == 0) in.raise("ValueError", "zero-size array to reduction operation maximum which has no identity");
  return m;
}

// Kind of a result that mixes str and bytes operands (add): 'U' if any is.
char unicodeIfAny(const std::vector<Operand> &ops) {
  for (auto &op : ops)
    if (op.kind == 'U') return 'U';
  return 'S';
}

}  // namespace

Value makeCharModule(Interpreter &in) {
  auto m = make<ModuleObject>("numpy.char");
  auto def = [&](const char *sig, SignedFn fn) {
    Value f = nativeWithSignature(in, sig, std::move(fn));
    m->scope->vars[f.as<NativeFunction>()->name] = f;
  };
  // Same dtype as the input.
  for (const char *name : {"upper", "lower", "capitalize", "title", "swapcase"}) {
    std::string method = name;
    def(fmt::format("{}(a)", name).c_str(), [method](Interpreter &in, const Bound &b) {
      Operand a = textOperand(in, b["a"]);
      return vectorized(in, {a}, Call{method.c_str(), Result::Text, a.kind, a.width});
    });
  }
  for (const char *name : {"strip", "lstrip", "rstrip"}) {
    std::string method = name;
    def(fmt::format("{}(a, chars=None)", name).c_str(), [method](Interpreter &in, const Bound &b) {
      Operand a = textOperand(in, b["a"]);
      return vectorized(in, operands(in, a, {b["chars"]}), Call{method.c_str(), Result::Text, a.kind, a.width});
    });
  }
  // Computed widths.
  def("add(x1, x2)", [](Interpreter &in, const Bound &b) {
    Operand x1 = textOperand(in, b["x1"]), x2 = textOperand(in, b["x2"]);
    return vectorized(in, {x1, x2}, Call{"__add__", Result::Text, unicodeIfAny({x1, x2}), x1.width + x2.width});
  });
  def("multiply(a, i)", [](Interpreter &in, const Bound &b) {
    Operand a = textOperand(in, b["a"]);
    int64_t width = a.width * std::max<int64_t>(largestInt(in, b["i"]), 0);
    return vectorized(in, operands(in, a, {b["i"]}), Call{"__mul__", Result::Text, a.kind, width});
  });
  for (const char *name : {"center", "ljust", "rjust"}) {
    std::string method = name;
    def(fmt::format("{}(a, width, fillchar=' ')", name).c_str(), [method](Interpreter &in, const Bound &b) {
      Operand a = textOperand(in, b["a"]);
      int64_t width = largestInt(in, b["width"]);
      return vectorized(in, operands(in, a, {b["width"], b["fillchar"]}), Call{method.c_str(), Result::Text, a.kind, width});
    });
  }
  def("zfill(a, width)", [](Interpreter &in, const Bound &b) {
    Operand a = textOperand(in, b["a"]);
    int64_t width = largestInt(in, b["width"]);
    return vectorized(in, operands(in, a, {b["width"]}), Call{"zfill", Result::Text, a.kind, width});
  });
  // The longest result.
  def("replace(a, old, new, count=None)", [](Interpreter &in, const Bound &b) {
    Operand a = textOperand(in, b["a"]);
    return vectorized(in, operands(in, a, {b["old"], b["new"], b["count"]}), Call{"replace", Result::Text, a.kind, 0});
  });
  def("join(sep, seq)", [](Interpreter &in, const Bound &b) {
    Operand sep = textOperand(in, b["sep"]);
    return vectorized(in, operands(in, sep, {b["seq"]}), Call{"join", Result::Text, sep.kind, 0});
  });
  def("decode(a, encoding=None, errors=None)", [](Interpreter &in, const Bound &b) {
    Operand a = textOperand(in, b["a"]);
    return vectorized(in, operands(in, a, {b["encoding"], b["errors"]}), Call{"decode", Result::Text, 'U', 0});
  });
  def("encode(a, encoding=None, errors=None)", [](Interpreter &in, const Bound &b) {
    Operand a = textOperand(in, b["a"]);
    return vectorized(in, operands(in, a, {b["encoding"], b["errors"]}), Call{"encode", Result::Text, 'S', 0});
  });
  // Numbers and truth values.
  def("str_len(a)", [](Interpreter &in, const Bound &b) {
    return vectorized(in, {textOperand(in, b["a"])}, Call{"__len__", Result::Int});
  });
  for (const char *name : {"find", "rfind", "index", "rindex", "count"}) {
    std::string method = name;
    def(fmt::format("{}(a, sub, start=0, end=None)", name).c_str(), [method](Interpreter &in, const Bound &b) {
      Operand a = textOperand(in, b["a"]);
      return vectorized(in, operands(in, a, {b["sub"], b["start"], b["end"]}), Call{method.c_str(), Result::Int});
    });
  }
  def("startswith(a, prefix, start=0, end=None)", [](Interpreter &in, const Bound &b) {
    Operand a = textOperand(in, b["a"]);
    return vectorized(in, operands(in, a, {b["prefix"], b["start"], b["end"]}), Call{"startswith", Result::Bool});
  });
  def("endswith(a, suffix, start=0, end=None)", [](Interpreter &in, const Bound &b) {
    Operand a = textOperand(in, b["a"]);
    return vectorized(in, operands(in, a, {b["suffix"], b["start"], b["end"]}), Call{"endswith", Result::Bool});
  });
  for (const char *name : {"isalnum", "isalpha", "isdigit", "islower", "isspace", "istitle", "isupper", "isnumeric",
                           "isdecimal"}) {
    std::string method = name;
    def(fmt::format("{}(a)", name).c_str(), [method](Interpreter &in, const Bound &b) {
      return vectorized(in, {textOperand(in, b["a"])}, Call{method.c_str(), Result::Bool});
    });
  }
  for (const char *name : {"partition", "rpartition"}) {
    std::string method = name;
    def(fmt::format("{}(a, sep)", name).c_str(), [method](Interpreter &in, const Bound &b) {
      return partitioned(in, operands(in, textOperand(in, b["a"]), {b["sep"]}), method.c_str());
    });
  }
  for (auto [name, op] : std::vector<std::pair<const char *, const char *>>{
           {"equal", "=="}, {"not_equal", "!="}, {"greater", ">"}, {"greater_equal", ">="}, {"less", "<"}, {"less_equal", "<="}}) {
    std::string cmp = op;
    def(fmt::format("{}(x1, x2)", name).c_str(),
        [cmp](Interpreter &in, const Bound &b) { return compared(in, b["x1"], b["x2"], cmp, true); });
  }
  def("compare_chararrays(a1, a2, cmp, rstrip)", [](Interpreter &in, const Bound &b) {
    const Value &cmp = b["cmp"];
    std::string op = cmp.as<BytesObject>() ? cmp.as<BytesObject>()->s : in.str(cmp);
    return compared(in, b["a1"], b["a2"], op, in.truth(b["rstrip"]));
  });
  for (const char *name : {"split", "rsplit"}) {
    std::string method = name;
    def(fmt::format("{}(a, sep=None, maxsplit=None)", name).c_str(), [method](Interpreter &in, const Bound &b) {
      std::vector<Value> args{b["sep"]};
      if (!b.isNone("maxsplit")) args.push_back(b["maxsplit"]);
      return splitEach(in, textOperand(in, b["a"]), method.c_str(), args);
    });
  }
  def("splitlines(a, keepends=None)", [](Interpreter &in, const Bound &b) {
    std::vector<Value> args;
    if (!b.isNone("keepends")) args.push_back(b["keepends"]);
    return splitEach(in, textOperand(in, b["a"]), "splitlines", args);
  });
  for (const char *name : {"mod", "translate", "expandtabs", "array", "asarray", "chararray"}) {
    std::string n = name;
    m->scope->vars[n] = in.native(n, [n](Interpreter &in, Args, const Kwargs &) -> Value {
      in.raise("NotImplementedError", fmt::format("numpy.char.{} is not supported by tfs", n));
    });
  }
  return m;
}

}  // namespace tfs::runtime::tf::numpy
