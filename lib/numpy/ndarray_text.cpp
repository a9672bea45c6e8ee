// numpy's fixed-width string arrays ('<U2', '|S2'): see ndarray_text.h.
#include "lib/numpy/ndarray_text.h"

#include "runtime/interp/pyformat.h"
#include "runtime/tensor/format.h"

#include <cerrno>
#include <cstdlib>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

bool isContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// s cut to `width` code points ('U') or bytes ('S').
std::string cutText(char kind, const std::string &s, int64_t width) {
  if (kind == 'S') return int64_t(s.size()) > width ? s.substr(0, size_t(width)) : s;
  int64_t points = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (!isContinuationByte(s[i]) && points++ == width) return s.substr(0, i);
  return s;
}

// np.dtype('<U2') / np.dtype('S2'): numpy's dtype object of a text array.
struct TextDTypeObject final : NumpyDTypeObject {
  TextDType text;
  explicit TextDTypeObject(TextDType t) : NumpyDTypeObject(DType::String), text(t) {}
  std::string protocol() const { return fmt::format("{}{}{}", text.kind == 'U' ? '<' : '|', text.kind, text.width); }
  int64_t itemsize() const { return text.kind == 'U' ? 4 * text.width : text.width; }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    if (name == "name") return in.str(fmt::format("{}{}", text.kind == 'U' ? "str" : "bytes", 8 * itemsize()));
    if (name == "kind" || name == "char") return in.str(std::string(1, text.kind));
    if (name == "str") return in.str(protocol());
    if (name == "itemsize") return Value::integer(itemsize());
    if (name == "byteorder") return in.str(text.kind == 'U' ? "=" : "|");
    return NumpyDTypeObject::getAttr(in, name);
  }
  std::optional<Value> compare(Interpreter &in, CmpOp op, const Value &other) override {
    if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
    std::optional<TextDType> o;
    if (auto *d = other.as<TextDTypeObject>()) o = d->text;
    else if (other.as<StrObject>()) o = textDTypeParam(in, other);
    bool eq = o && o->kind == text.kind && o->width == text.width;
    return Value::boolean(op == CmpOp::Eq ? eq : !eq);
  }
  std::optional<std::string> repr(Interpreter &) override {
    return fmt::format("dtype('{}')", text.kind == 'U' ? protocol() : protocol().substr(1));
  }
  std::optional<std::string> str(Interpreter &) override { return protocol(); }
  std::optional<int64_t> hash(Interpreter &) override { return text.kind * 1000003 + text.width; }
};

// An element in an error message as numpy quotes it: 'x' or b'x'.
std::string quoteText(const TensorObject &a, const std::string &s) {
  return a.text.kind == 'U' ? quoteStr(s) : bytesRepr(s);
}

// The first Python str / bytes in v (nested lists and tuples): 'U' / 'S'.
char pythonTextKind(Interpreter &in, const Value &v, int depth = 0) {
  if (v.as<StrObject>()) return 'U';
  if (v.as<BytesObject>()) return 'S';
  if (depth > 32) return 0;
  const std::vector<Value> *items = nullptr;
  if (auto *l = v.as<ListObject>()) items = &l->items;
  else if (auto *t = v.as<TupleObject>()) items = &t->items;
  if (items)
    for (const Value &x : *items)
      if (char k = pythonTextKind(in, x, depth + 1)) return k;
  // A protobuf repeated field of bytes (tf.train.BytesList(...).value): a
  // sequence, as tensorFromPython reads it (runtime/tf/dispatch.cpp).
  if (v.isObj() && std::string_view(v.obj()->typeName()) == "RepeatedScalarContainer") {
    for (const Value &x : in.toList(v))
      if (char k = pythonTextKind(in, x, depth + 1)) return k;
  }
  return 0;
}

// The text arrays among v (nested lists and tuples): the first kind and the widest width.
void sourceText(const Value &v, TextDType &out, int depth = 0) {
  if (TensorObject *a = ndarrayOf(v); a && a->text.kind) {
    if (!out.kind) out.kind = a->text.kind;
    if (a->text.kind == out.kind) out.width = std::max(out.width, a->text.width);
    return;
  }
  if (depth > 2) return;
  if (auto *l = v.as<ListObject>())
    for (const Value &x : l->items) sourceText(x, out, depth + 1);
  if (auto *t = v.as<TupleObject>())
    for (const Value &x : t->items) sourceText(x, out, depth + 1);
}

}  // namespace

int64_t numberTextWidth(DType d) {
  switch (d) {
  case DType::Bool: return 5;
  case DType::Int8: return 4;
  case DType::UInt8: return 3;
  case DType::Int16: return 6;
  case DType::UInt16: return 5;
  case DType::Int32: return 11;
  case DType::UInt32: return 10;
  case DType::Int64: return 21;
  case DType::UInt64: return 20;
  case DType::Complex64:
  case DType::Complex128: return 64;
  default: return 32;
  }
}

int64_t textLength(char kind, const std::string &s) {
  if (kind == 'S') return int64_t(s.size());
  int64_t n = 0;
  for (char c : s) n += !isContinuationByte(c);
  return n;
}

std::optional<TextDType> textDTypeParam(Interpreter &, const Value &v) {
  if (auto *d = v.as<TextDTypeObject>()) return d->text;
  if (auto *s = v.as<StrObject>()) {
    std::string_view n = s->s;
    if (n == "str" || n == "str_" || n == "unicode") return TextDType{'U', 0};
    if (n == "bytes" || n == "bytes_" || n == "string_") return TextDType{'S', 0};
    if (!n.empty() && (n[0] == '<' || n[0] == '>' || n[0] == '=' || n[0] == '|')) n.remove_prefix(1);
    if (n.empty() || (n[0] != 'U' && n[0] != 'S')) return std::nullopt;
    int64_t width = 0;
    for (char c : n.substr(1)) {
      if (c < '0' || c > '9' || width > (int64_t(1) << 40)) return std::nullopt;
      width = width * 10 + (c - '0');
    }
    return TextDType{n[0], width};
  }
  if (auto *c = v.as<ClassObject>()) {
    if (c->module.empty() && c->name == "str") return TextDType{'U', 0};
    if (c->module.empty() && c->name == "bytes") return TextDType{'S', 0};
    if (c->module == "numpy" && c->name == "str_") return TextDType{'U', 0};
    if (c->module == "numpy" && (c->name == "bytes_" || c->name == "string_")) return TextDType{'S', 0};
  }
  if (auto *d = v.as<NumpyDTypeObject>(); d && d->dtype == DType::String) return TextDType{'S', 0};
  return std::nullopt;
}

void markText(TensorObject &a, TextDType d) {
  const std::string *p = a.eager.data<std::string>();
  int64_t n = a.eager.numElements(), longest = 1;
  for (int64_t i = 0; i < n; ++i) longest = std::max(longest, textLength(d.kind, p[i]));
  if (d.width == 0) d.width = longest;
  if (longest > d.width) {
    Tensor cut = a.eager.copy();
    std::string *q = cut.data<std::string>();
    for (int64_t i = 0; i < n; ++i) q[i] = cutText(d.kind, q[i], d.width);
    a.eager = cut;
  }
  a.text = d;
}

Value textElement(Interpreter &in, const TensorObject &a, Value element) {
  TensorObject *e = ndarrayOf(element);
  if (!e || e->eager.dtype() != DType::String || !a.text.kind) return element;
  if (e->eager.rank() > 0 || e->zeroDimArray) {
    e->text = a.text;
    return element;
  }
  if (a.text.kind == 'U') return in.str(e->eager.data<std::string>()[0]);
  e->text = a.text;
  return element;
}

Value finishText(Interpreter &in, Value result, const std::vector<Value> &sources, const Value &dtype) {
  const std::vector<Value> *items = nullptr;
  if (auto *l = result.as<ListObject>()) items = &l->items;
  else if (auto *t = result.as<TupleObject>()) items = &t->items;
  if (items) {
    for (const Value &x : *items) finishText(in, x, sources, dtype);
    return result;
  }
  TensorObject *r = ndarrayOf(result);
  if (!r || r->eager.dtype() != DType::String || r->text.kind) return result;
  std::optional<TextDType> d = dtype.isNone() ? std::nullopt : textDTypeParam(in, dtype);
  if (!d) {
    TextDType from;
    for (const Value &s : sources) sourceText(s, from);
    if (from.kind) {
      // numpy keeps the widest input's width (np.concatenate, np.where, ...).
      for (int64_t i = 0; i < r->eager.numElements(); ++i)
        from.width = std::max(from.width, textLength(from.kind, r->eager.data<std::string>()[i]));
      d = from;
    }
  }
  bool objectSource = false;  // an object array (TF's .numpy()) keeps its results object
  for (const Value &s : sources)
    if (TensorObject *a = ndarrayOf(s); a && a->eager.dtype() == DType::String && !a->text.kind) objectSource = true;
  if (!d && !objectSource)
    for (const Value &s : sources)
      if (char k = pythonTextKind(in, s)) {
        d = TextDType{k, 0};
        break;
      }
  if (!d) return result;
  markText(*r, *d);
  return textElement(in, *r, result);
}

Value textSource(Interpreter &in, const Value &arg, const Tensor &elements) {
  if (ndarrayOf(arg) || elements.dtype() != DType::String) return arg;
  return finishText(in, newArray(elements), {arg});
}

Value fitText(Interpreter &in, const TensorObject &a, const Value &v) {
  if (!a.text.kind) return v;
  if (auto *s = v.as<StrObject>()) return in.str(cutText(a.text.kind, s->s, a.text.width));
  if (auto *b = v.as<BytesObject>()) return Value(make<BytesObject>(cutText(a.text.kind, b->s, a.text.width)));
  Tensor t = asTensor(in, v);
  if (t.dtype() != DType::String) return v;
  Tensor cut = t.copy();
  std::string *q = cut.data<std::string>();
  for (int64_t i = 0; i < cut.numElements(); ++i) q[i] = cutText(a.text.kind, q[i], a.text.width);
  return newArray(cut);
}

Value textDTypeValue(TextDType d) { return make<TextDTypeObject>(d); }

Value castText(Interpreter &in, const TensorObject &a, DType to, std::optional<TextDType> text) {
  const Tensor &t = a.eager;
  int64_t n = t.numElements();
  Tensor out;
  if (to == DType::String) {
    out = Tensor::empty(DType::String, t.shape());
    std::string *q = out.data<std::string>();
    for (int64_t i = 0; i < n; ++i) {
      if (t.dtype() != DType::String) q[i] = formatScalar(t, i);
      else if (!a.text.kind && text && text->kind == 'U') q[i] = bytesRepr(t.data<std::string>()[i]);  // object array of bytes
      else q[i] = t.data<std::string>()[i];
    }
    if (text && text->width == 0 && t.dtype() != DType::String) text->width = numberTextWidth(t.dtype());
  } else {
    std::vector<double> values(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const std::string &s = t.data<std::string>()[i];
      if (to == DType::Bool) {
        values[size_t(i)] = s.empty() ? 0 : 1;
        continue;
      }
      char *end = nullptr;
      errno = 0;
      const char *begin = s.c_str();
      double v = ir::isFloating(to) ? std::strtod(begin, &end) : double(std::strtoll(begin, &end, 10));
      while (end && *end == ' ') ++end;
      if (s.empty() || end == begin || *end != '\0' || errno == ERANGE) {
        if (ir::isFloating(to)) in.raise("ValueError", fmt::format("could not convert string to float: {}", quoteText(a, s)));
        in.raise("ValueError", fmt::format("invalid literal for int() with base 10: {}", quoteText(a, s)));
      }
      values[size_t(i)] = v;
    }
    out = Tensor::fromDoubles(to, t.shape(), values);
  }
  Value r = t.rank() == 0 && !a.zeroDimArray ? wrap(out, true) : newArray(out);
  if (to == DType::String && text) {
    markText(*r.as<TensorObject>(), *text);
    return textElement(in, *r.as<TensorObject>(), r);
  }
  return r;
}

}  // namespace tfs::runtime::tf::numpy
