// Object arrays (object_array.h): the object itself, its dtype, building one
// from Python values with numpy 1.24's shape discovery, conversions to and
// from numeric arrays, and indexing through the positions tensor.
#include "lib/numpy/object_array.h"

#include "lib/numpy/ndarray_text.h"
#include "runtime/interp/big_int.h"

#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

// dtype('O'): prints `object`, repr dtype('O'), equal to object / 'O' / np.object_.
struct ObjectDTypeObject final : Object {
  const char *typeName() const override { return "dtype"; }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    if (name == "kind" || name == "char") return in.str("O");
    if (name == "name") return in.str("object");
    if (name == "str") return in.str("|O");
    if (name == "itemsize") return Value::integer(8);
    if (name == "type") return in.builtin("object");
    if (name == "__setstate__")  // unpickling dtype('O'): its state is implied
      return in.native(name, [](Interpreter &, Args, const Kwargs &) { return Value(); });
    return std::nullopt;
  }
  std::optional<Value> compare(Interpreter &, CmpOp op, const Value &other) override {
    if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
    bool eq = isObjectDType(other);
    return Value::boolean(op == CmpOp::Eq ? eq : !eq);
  }
  std::optional<std::string> repr(Interpreter &) override { return std::string("dtype('O')"); }
  std::optional<std::string> str(Interpreter &) override { return std::string("object"); }
  std::optional<int64_t> hash(Interpreter &) override { return 79; }
};

Tensor iota(const Shape &shape) {
  Tensor t = Tensor::empty(DType::Int64, shape);
  for (int64_t k = 0; k < t.numElements(); ++k) t.data<int64_t>()[k] = k;
  return t;
}

// --- shape discovery (numpy's PyArray_DiscoverDTypeAndShape) -----------------------

bool isSequence(const Value &v) {
  if (v.as<ListObject>() || v.as<TupleObject>()) return true;
  if (auto *s = v.as<TensorShapeObject>()) return s->shape.ranked;  // a sequence of ints and Nones
  if (auto *t = v.as<TensorObject>(); t && !t->symbolic()) return t->eager.rank() > 0;
  if (auto *o = objectArrayOf(v)) return !o->shape().empty();
  return false;
}

std::vector<Value> children(Interpreter &in, const Value &v) {
  if (auto *l = v.as<ListObject>()) return l->items;
  if (auto *t = v.as<TupleObject>()) return t->items;
  if (auto *s = v.as<TensorShapeObject>(); s && s->shape.ranked) {
    std::vector<Value> dims;
    for (int64_t d : s->shape.dims) dims.push_back(d < 0 ? Value() : Value::integer(d));
    return dims;
  }
  if (auto *o = objectArrayOf(v); o && o->shape().size() == 1) return o->elements();
  if (auto *t = v.as<TensorObject>(); t && t->eager.rank() == 1) return pythonElements(in, *t);
  std::vector<Value> rows;
  int64_t n = in.length(v);
  for (int64_t i = 0; i < n; ++i) rows.push_back(in.getItem(v, Value::integer(i)));
  return rows;
}

struct Discovery {
  Shape shape;
  size_t limit = SIZE_MAX;  // no dimension at or past this depth
  bool ragged = false;
  bool objectArrays = false;  // an object array among the values: the result is one too
};

void discover(Interpreter &in, const Value &v, size_t depth, Discovery &d) {
  bool seq = isSequence(v);
  d.objectArrays |= objectArrayOf(v) != nullptr;
  if (depth >= d.limit) {  // past the end of the shape: an element (a sequence here is ragged)
    if (depth == d.limit && seq) d.ragged = true;
    return;
  }
  if (!seq) {
    if (depth < d.shape.size()) {
      d.ragged = true;
      d.shape.resize(depth);
    }
    d.limit = depth;
    return;
  }
  int64_t n = in.length(v);
  if (depth == d.shape.size()) d.shape.push_back(n);
  else if (d.shape[depth] != n) {
    d.ragged = true;
    d.shape.resize(depth);
    d.limit = depth;
    return;
  }
  for (const Value &c : children(in, v)) discover(in, c, depth + 1, d);
}

void flatten(Interpreter &in, const Value &v, size_t depth, const Shape &shape, std::vector<Value> &out) {
  if (depth == shape.size()) {
    out.push_back(v);
    return;
  }
  if (auto *t = v.as<TensorObject>(); t && !t->symbolic() && t->eager.rank() > shape.size() - depth)
    in.raise("ValueError",
             fmt::format("could not broadcast input array from shape {} into shape {}", shapeText(t->eager.shape()),
                         shapeText(Shape(shape.begin() + long(depth), shape.end()))));
  for (const Value &c : children(in, v)) flatten(in, c, depth + 1, shape, out);
}

// A leaf numpy keeps as a Python object rather than a number or a string.
bool needsObject(const Value &v) {
  if (v.isNone()) return true;
  if (v.isBool() || v.isInt() || v.isFloat() || v.as<StrObject>() || v.as<BytesObject>()) return false;
  if (auto *b = v.as<BigIntObject>()) return b->v < 0 || mpz_sizeinbase(b->v.get_mpz_t(), 2) > 64;  // uint64 fits
  if (v.as<TensorObject>() || v.as<VariableObject>()) return false;
  return true;
}

// A shape as Python prints the tuple: (2, 2), (2,).
std::string pythonShape(const Shape &s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

}  // namespace

// --- the object ---------------------------------------------------------------------

std::vector<Value> ObjectArray::elements() const {
  std::vector<Value> out;
  out.reserve(size_t(size()));
  for (int64_t k = 0; k < size(); ++k) out.push_back(at(k));
  return out;
}

ClassObject *ObjectArray::cls() const { return ndarrayClass; }

ObjectArray *objectArrayOf(const Value &v) { return v.as<ObjectArray>(); }

Value newObjectArray(std::vector<Value> items, const Shape &shape) {
  auto storage = make<ObjectStorage>();
  storage->items = std::move(items);
  return objectView(storage, iota(shape));
}

Value objectView(const Ref<ObjectStorage> &storage, Tensor positions) {
  auto a = make<ObjectArray>();
  a->storage = storage;
  a->positions = std::move(positions);
  return a;
}

bool isObjectDType(const Value &v) {
  if (v.as<ObjectDTypeObject>()) return true;
  if (auto *s = v.as<StrObject>()) return s->s == "O" || s->s == "object" || s->s == "|O" || s->s == "object_";
  if (auto *c = v.as<ClassObject>())
    return (c->module.empty() && c->name == "object") || (c->module == "numpy" && c->name == "object_");
  return false;
}

Value objectDTypeValue() {
  static Value dtype = make<ObjectDTypeObject>();
  return dtype;
}

// --- building ---------------------------------------------------------------------------

std::optional<Value> objectArrayFromPython(Interpreter &in, const Value &obj, bool forced, size_t maxDims) {
  Discovery d;
  d.limit = maxDims;
  discover(in, obj, 0, d);
  if (d.ragged && !forced)
    in.raise("ValueError",
             fmt::format("setting an array element with a sequence. The requested array has an inhomogeneous shape "
                         "after {} dimensions. The detected shape was {} + inhomogeneous part.",
                         d.shape.size(), pythonShape(d.shape)));
  if (d.shape.size() > 32)
    in.raise("ValueError", fmt::format("maximum supported dimension for an ndarray is 32, found {}", d.shape.size()));
  std::vector<Value> items;
  flatten(in, obj, 0, d.shape, items);
  // numpy makes a datetime64/timedelta64 array of these scalars
  // (lib/numpy/_np_datetime.tfs), which tfs does not have.
  if (!forced)
    for (const Value &x : items)
      if (auto *inst = x.as<InstanceObject>()) {
        auto module = inst->klass->lookup("__module__");
        const std::string &name = inst->klass->name;
        if ((name == "datetime64" || name == "timedelta64") && module && module->as<StrObject>() &&
            module->as<StrObject>()->s == "numpy")
          in.raise("NotImplementedError", fmt::format("{0} arrays (np.array of np.{0} values) is not supported by tfs", name));
      }
  if (!forced && !d.objectArrays) {
    bool any = false;
    for (const Value &x : items) any |= needsObject(x);
    if (!any) return std::nullopt;
  }
  return newObjectArray(std::move(items), d.shape);
}

std::vector<Value> pythonElements(Interpreter &in, const TensorObject &a) {
  Value nested = tensorToList(in, a.eager.reshaped({a.eager.numElements()}), a.text.kind);
  return nested.as<ListObject>()->items;
}

Value toObjectArray(Interpreter &in, const Value &v) {
  if (objectArrayOf(v)) return v;
  if (auto *t = ndarrayOf(v)) return newObjectArray(pythonElements(in, *t), t->eager.shape());
  return *objectArrayFromPython(in, v, true);
}

Value objectToList(Interpreter &in, const ObjectArray &a) {
  const Shape &shape = a.shape();
  if (shape.empty()) return a.at(0);
  int64_t k = 0;
  std::function<Value(size_t)> rec = [&](size_t axis) -> Value {
    std::vector<Value> items;
    for (int64_t i = 0; i < shape[axis]; ++i) items.push_back(axis + 1 == shape.size() ? a.at(k++) : rec(axis + 1));
    return in.list(std::move(items));
  };
  return rec(0);
}

Value objectAstype(Interpreter &in, ObjectArray &a, const Value &dtype) {
  if (isObjectDType(dtype)) return newObjectArray(a.elements(), a.shape());
  std::optional<TextDType> text = textDTypeParam(in, dtype);
  if (text) {  // str() of each element, as numpy's astype(str)
    std::vector<Value> strs;
    for (const Value &x : a.elements()) strs.push_back(text->kind == 'U' ? in.str(in.str(x)) : x);
    Value arr = newArray(asTensor(in, in.list(strs), DType::String).reshaped(a.shape()));
    markText(*ndarrayOf(arr), *text);
    return arr;
  }
  DType d = dtypeParam(in, dtype).value_or(DType::Float64);
  // Each element through Python's int() / float() / bool(), as numpy's
  // object-to-number casts call them ('12' parses, a list does not fit).
  const char *convert = ir::isInteger(d) ? "int" : ir::isFloating(d) ? "float" : nullptr;
  std::vector<Value> numbers;
  for (const Value &x : a.elements()) {
    if (isSequence(x)) in.raise("ValueError", "setting an array element with a sequence.");
    if (d == DType::Bool) numbers.push_back(Value::boolean(in.truth(x)));
    else numbers.push_back(convert ? in.call(in.builtin(convert), std::vector<Value>{x}) : x);
  }
  return newArray(asTensor(in, in.list(numbers), d).reshaped(a.shape()));
}

// --- sizes, iteration, indexing ----------------------------------------------------------

std::optional<bool> ObjectArray::truth(Interpreter &in) {
  if (size() != 1)
    in.raise("ValueError", "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
  return in.truth(at(0));
}

std::optional<int64_t> ObjectArray::length(Interpreter &in) {
  if (shape().empty()) in.raise("TypeError", "len() of unsized object");
  return shape()[0];
}

std::optional<Value> ObjectArray::iter(Interpreter &in) {
  if (shape().empty()) in.raise("TypeError", "iteration over a 0-d array");
  if (shape().size() == 1) return in.iter(in.list(elements()));
  std::vector<Value> rows;
  for (int64_t i = 0; i < shape()[0]; ++i) rows.push_back(*getItem(in, Value::integer(i)));
  return in.iter(in.list(rows));
}

// The positions tensor as a numpy array the numeric indexing reads.
static Value positionsArray(const ObjectArray &a) { return newArray(a.positions); }

std::optional<Value> ObjectArray::getItem(Interpreter &in, const Value &key) {
  if (key.isInt() && shape().size() == 1) {  // the common a[i], without building an index
    int64_t n = shape()[0], i = key.asInt();
    if (i < -n || i >= n) in.raise("IndexError", fmt::format("index {} is out of bounds for axis 0 with size {}", i, n));
    return at(i < 0 ? i + n : i);
  }
  Value pos = positionsArray(*this);
  return mapPositions(in, storage, *numpy::getItem(in, *ndarrayOf(pos), key));
}

bool ObjectArray::setItem(Interpreter &in, const Value &key, const Value &value) {
  Value pos = positionsArray(*this);
  std::optional<Value> r = numpy::getItem(in, *ndarrayOf(pos), key);
  TensorObject *t = ndarrayOf(*r);
  Tensor targets = t->eager;
  if (targets.rank() == 0) {  // one element: the value itself, whatever it is
    storage->items[size_t(targets.elementAsInt(0))] = value;
    return true;
  }
  Value src = objectArrayOf(value) || ndarrayOf(value) ? toObjectArray(in, value)
              : isSequence(value)                     ? *objectArrayFromPython(in, value, true, targets.rank())
                                                      : newObjectArray({value}, {});
  ObjectArray *s = objectArrayOf(src);
  Shape target = targets.shape();
  if (broadcastShapes(in, {s->shape(), target}) != target)
    in.raise("ValueError", fmt::format("could not broadcast input array from shape {} into shape {}",
                                       shapeText(s->shape()), shapeText(target)));
  Tensor from = broadcastTo(s->positions, target);
  std::vector<Value> values;  // read every source first: the source may be a view of this array
  for (int64_t k = 0; k < from.numElements(); ++k) values.push_back(s->storage->items[size_t(from.data<int64_t>()[k])]);
  for (int64_t k = 0; k < targets.numElements(); ++k) storage->items[size_t(targets.data<int64_t>()[k])] = values[size_t(k)];
  return true;
}

}  // namespace tfs::runtime::tf::numpy
