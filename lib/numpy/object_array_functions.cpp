// numpy functions called with object arrays (object_array.h). Functions
// that only move elements (reshape, concatenate, stack, split, flip, ...)
// run their numeric body on the positions tensors; the reductions and the
// arithmetic / comparison ufuncs fold or map the elements with their own
// Python operators; every other numpy function raises NotImplementedError
// naming itself rather than computing on positions.
#include "lib/numpy/object_array.h"

#include <fmt/format.h>
#include <map>
#include <set>

namespace tfs::runtime::tf::numpy {

namespace {

bool holdsObjectArray(const Value &v) {
  if (objectArrayOf(v)) return true;
  const std::vector<Value> *items = nullptr;
  if (auto *l = v.as<ListObject>()) items = &l->items;
  else if (auto *t = v.as<TupleObject>()) items = &t->items;
  if (items)
    for (const Value &x : *items)
      if (objectArrayOf(x)) return true;
  return false;
}

// A joiner's arrays (or np.append's two) holding TF's .numpy() of a string
// tensor (a String ndarray without a text kind, numpy's dtype=object) beside
// arrays of numbers: numpy joins them into an object array.
bool objectTextAmongNumbers(const std::vector<Value> &items) {
  bool objectText = false, numbers = false;
  for (const Value &x : items)
    if (x.isInt() || x.isFloat() || x.isBool()) numbers = true;
    else if (TensorObject *a = ndarrayOf(x)) {
      if (a->eager.dtype() != DType::String) numbers = true;
      else if (!a->text.kind) objectText = true;
    }
  return objectText && numbers;
}

// Functions that only move elements. Joiners take a sequence of arrays
// first (every one becomes an object array); the rest take arrays where
// any array-like among the arguments becomes an object array.
const std::set<std::string> kJoiners = {"concatenate", "stack", "vstack", "hstack", "column_stack", "dstack", "row_stack"};
const std::set<std::string> kMovers = {"reshape",    "transpose",  "ravel",      "squeeze",    "expand_dims", "swapaxes",
                                       "moveaxis",   "flip",       "fliplr",     "flipud",     "roll",        "tile",
                                       "repeat",     "take",       "broadcast_to", "atleast_1d", "atleast_2d", "atleast_3d",
                                       "rot90",      "split",      "array_split", "hsplit",    "vsplit",      "dsplit",
                                       "append",     "delete",     "copy"};
// Arguments of the movers that are arrays of elements (not shapes, axes or indices).
const std::map<std::string, std::vector<size_t>> kArrayArgs = {{"append", {0, 1}}};

const std::map<std::string, BinOp> kBinaryUfuncs = {
    {"add", BinOp::Add},           {"subtract", BinOp::Sub},    {"multiply", BinOp::Mul},  {"divide", BinOp::Div},
    {"true_divide", BinOp::Div},   {"floor_divide", BinOp::FloorDiv}, {"mod", BinOp::Mod}, {"remainder", BinOp::Mod},
    {"power", BinOp::Pow}};
const std::map<std::string, CmpOp> kCompareUfuncs = {{"equal", CmpOp::Eq}, {"not_equal", CmpOp::Ne}, {"less", CmpOp::Lt},
                                                     {"less_equal", CmpOp::Le}, {"greater", CmpOp::Gt},
                                                     {"greater_equal", CmpOp::Ge}};
const std::set<std::string> kReductions = {"sum", "prod", "min", "max", "amin", "amax", "mean", "any", "all"};

// The positions of several object arrays in one store: their own store when
// they share one, else a new store holding each one's elements.
struct Pool {
  Ref<ObjectStorage> storage;
  std::map<ObjectArray *, Tensor> handles;
};

Pool pool(const std::vector<ObjectArray *> &arrays) {
  Pool p;
  std::set<ObjectStorage *> stores;
  for (ObjectArray *a : arrays) stores.insert(a->storage.get());
  if (stores.size() == 1) {
    p.storage = arrays[0]->storage;
    for (ObjectArray *a : arrays) p.handles[a] = a->positions;
    return p;
  }
  p.storage = make<ObjectStorage>();
  std::map<ObjectStorage *, int64_t> offsets;
  for (ObjectArray *a : arrays) {
    auto [it, fresh] = offsets.try_emplace(a->storage.get(), int64_t(p.storage->items.size()));
    if (fresh) p.storage->items.insert(p.storage->items.end(), a->storage->items.begin(), a->storage->items.end());
    Tensor h = a->positions.copy();
    for (int64_t k = 0; k < h.numElements(); ++k) h.data<int64_t>()[k] += it->second;
    p.handles[a] = h;
  }
  return p;
}

void collect(const Value &v, std::vector<ObjectArray *> &out) {
  if (auto *o = objectArrayOf(v)) out.push_back(o);
  if (auto *l = v.as<ListObject>())
    for (const Value &x : l->items) collect(x, out);
  if (auto *t = v.as<TupleObject>())
    for (const Value &x : t->items) collect(x, out);
}

Value substitute(Interpreter &in, const Value &v, Pool &p) {
  if (auto *o = objectArrayOf(v)) return newArray(p.handles.at(o));
  if (auto *l = v.as<ListObject>()) {
    std::vector<Value> items;
    for (const Value &x : l->items) items.push_back(substitute(in, x, p));
    return in.list(items);
  }
  if (auto *t = v.as<TupleObject>()) {
    std::vector<Value> items;
    for (const Value &x : t->items) items.push_back(substitute(in, x, p));
    return in.tuple(items);
  }
  return v;
}

// Every array-like in a joiner's sequence as an object array.
Value objectsOfSequence(Interpreter &in, const Value &seq) {
  std::vector<Value> items;
  for (const Value &x : in.toList(seq)) items.push_back(toObjectArray(in, x));
  return in.list(items);
}

Value moveElements(Interpreter &in, const std::string &name, const NativeFn &numeric, Args args, const Kwargs &kwargs) {
  std::vector<Value> a(args.begin(), args.end());
  Kwargs kw = kwargs;
  if (kJoiners.count(name) && !a.empty()) a[0] = objectsOfSequence(in, a[0]);
  if (auto it = kArrayArgs.find(name); it != kArrayArgs.end())
    for (size_t i : it->second)
      if (i < a.size()) a[i] = toObjectArray(in, a[i]);
  std::vector<ObjectArray *> arrays;
  for (const Value &x : a) collect(x, arrays);
  for (auto &[k, x] : kw) collect(x, arrays);
  Pool p = pool(arrays);
  for (Value &x : a) x = substitute(in, x, p);
  for (auto &[k, x] : kw) x = substitute(in, x, p);
  Value r = numeric(in, Args(a), kw);
  return mapPositions(in, p.storage, r);
}

}  // namespace

std::optional<Value> callWithObjectArrays(Interpreter &in, const std::string &name, const NativeFn &numeric, Args args,
                                          const Kwargs &kwargs) {
  // An array-like object (a pandas Series or Index of strings) whose
  // __array__ is an object array is that array, as numpy's protocol makes
  // it: read as a tensor it would become bytes (np.unique(df["sex"]) gave
  // [b'female', b'male']).
  // Only for functions numpy runs on np.asarray of its arguments: others
  // (np.split of a DataFrame) keep the array-like and return its pieces.
  static const std::set<std::string> asarrayFirst{"unique", "sort", "argsort", "concatenate", "stack", "vstack",
                                                  "hstack", "append", "isin", "in1d", "union1d", "intersect1d",
                                                  "setdiff1d"};
  std::vector<Value> converted(args.begin(), args.end());
  bool replaced = false;
  auto convert = [&](Value &x) {
    if (!x.as<InstanceObject>()) return;
    if (auto f = in.getAttrOpt(x, "__array__")) {
      Value a = in.call(*f, {});
      if (objectArrayOf(a)) {
        x = a;
        replaced = true;
      }
    }
  };
  for (Value &x : converted) {
    if (!asarrayFirst.count(name)) break;
    convert(x);
    // A joiner's sequence of them (np.concatenate([s1, s2])).
    const std::vector<Value> *seq = nullptr;
    bool isTuple = false;
    if (auto *l = x.as<ListObject>()) {
      seq = &l->items;
    } else if (auto *t = x.as<TupleObject>()) {
      seq = &t->items;
      isTuple = true;
    }
    if (!seq) continue;
    std::vector<Value> items = *seq;
    bool before = replaced;
    replaced = false;
    for (Value &item : items) convert(item);
    if (replaced) x = isTuple ? in.tuple(items) : in.list(items);
    replaced = replaced || before;
  }
  if (replaced) {
    if (auto r = callWithObjectArrays(in, name, numeric, Args(converted), kwargs)) return r;
    return numeric(in, Args(converted), kwargs);
  }
  bool any = false;
  for (const Value &x : args) any |= holdsObjectArray(x);
  for (auto &[k, x] : kwargs) any |= holdsObjectArray(x);
  if (!any && kJoiners.count(name) && !args.empty()) {
    if (auto *l = args[0].as<ListObject>()) any = objectTextAmongNumbers(l->items);
    else if (auto *t = args[0].as<TupleObject>()) any = objectTextAmongNumbers(t->items);
  }
  if (!any && name == "append" && args.size() >= 2) any = objectTextAmongNumbers({args[0], args[1]});
  if (!any || handlesObjectArrays(name)) return std::nullopt;
  if (kJoiners.count(name) || kMovers.count(name)) return moveElements(in, name, numeric, args, kwargs);
  if (kReductions.count(name) && !args.empty() && objectArrayOf(args[0]))
    return in.call(in.getAttr(args[0], name), std::vector<Value>(args.begin() + 1, args.end()), kwargs);
  if (auto r = objectSortFunction(in, name, args, kwargs)) return r;
  if (name == "shape" || name == "ndim" || name == "size") {
    if (args.size() == 1 && kwargs.empty()) return in.getAttr(args[0], name);
  }
  if (args.size() == 2 && kwargs.empty()) {
    if (auto it = kBinaryUfuncs.find(name); it != kBinaryUfuncs.end()) return objectBinary(in, it->second, args[0], args[1]);
    if (auto it = kCompareUfuncs.find(name); it != kCompareUfuncs.end()) return objectCompare(in, it->second, args[0], args[1]);
  }
  in.raise("NotImplementedError", fmt::format("numpy.{} of object arrays (dtype=object) is not supported by tfs", name));
}

}  // namespace tfs::runtime::tf::numpy

namespace tfs::runtime::tf::numpy {

namespace {

// np.frompyfunc(func, nin, nout): a ufunc over object arrays calling func on
// each broadcast tuple of elements; nout > 1 gives a tuple of arrays, a 0-d
// result the element itself.
struct PyUfunc final : Object {
  Value func;
  int64_t nin = 1, nout = 1;
  std::string name;
  const char *typeName() const override { return "ufunc"; }
  std::optional<std::string> repr(Interpreter &) override { return "<ufunc '" + name + "'>"; }
  std::optional<Value> getAttr(Interpreter &in, const std::string &attr) override {
    if (attr == "nin") return Value::integer(nin);
    if (attr == "nout") return Value::integer(nout);
    if (attr == "nargs") return Value::integer(nin + nout);
    if (attr == "__name__") return in.str(name);
    if (attr == "identity") return Value();
    return std::nullopt;
  }
  std::optional<Value> call(Interpreter &in, Args args, const Kwargs &kwargs) override {
    if (int64_t(args.size()) < nin || int64_t(args.size()) > nin + nout)
      in.raise("TypeError", fmt::format("{}() takes from {} to {} positional arguments but {} were given", name, nin,
                                        nin + nout, args.size()));
    if (int64_t(args.size()) > nin || !kwargs.empty())
      in.raise("NotImplementedError", "out= and keyword arguments of a np.frompyfunc ufunc are not supported by tfs");
    std::vector<Ref<ObjectArray>> ops;
    std::vector<Shape> shapes;
    for (const Value &a : args) {
      bool sequence = a.as<ListObject>() || a.as<TupleObject>() || objectArrayOf(a) ||
                      (a.as<TensorObject>() && !a.as<TensorObject>()->symbolic());
      Value arr = sequence ? toObjectArray(in, a) : newObjectArray({a}, {});
      ops.push_back(Ref<ObjectArray>(objectArrayOf(arr)));
      shapes.push_back(ops.back()->shape());
    }
    Shape shape = broadcastShapes(in, shapes);
    std::vector<Tensor> where;
    for (auto &o : ops) where.push_back(broadcastTo(o->positions, shape));
    std::vector<std::vector<Value>> outs{size_t(nout)};
    std::vector<Value> callArgs(ops.size());
    for (int64_t k = 0, n = elementCount(shape); k < n; ++k) {
      for (size_t i = 0; i < ops.size(); ++i) callArgs[i] = ops[i]->storage->items[size_t(where[i].data<int64_t>()[k])];
      Value r = in.call(func, callArgs);
      if (nout == 1) {
        outs[0].push_back(r);
        continue;
      }
      std::vector<Value> parts = in.toList(r);
      if (int64_t(parts.size()) != nout)
        in.raise("ValueError", fmt::format("Function returned a tuple of length {}, expected {}", parts.size(), nout));
      for (int64_t j = 0; j < nout; ++j) outs[size_t(j)].push_back(parts[size_t(j)]);
    }
    std::vector<Value> results;
    for (auto &o : outs) results.push_back(shape.empty() ? o[0] : newObjectArray(std::move(o), shape));
    return nout == 1 ? results[0] : in.tuple(results);
  }
};

}  // namespace

void addObjectFunctions(Defs &defs) {
  defs.push_back({"frompyfunc(func, /, nin, nout, *, identity=!None)", [](Interpreter &in, const Bound &b) -> Value {
    auto u = make<PyUfunc>();
    u->func = b["func"];
    u->nin = in.toIndex(b["nin"]);
    u->nout = in.toIndex(b["nout"]);
    if (u->nin < 0 || u->nout < 1) in.raise("ValueError", "nin and nout must be a non-negative and a positive integer");
    std::optional<Value> fname = in.getAttrOpt(u->func, "__name__");
    u->name = (fname ? in.str(*fname) : std::string("?")) + " (vectorized)";
    return Value(u);
  }});
  defs.push_back({"vectorize(pyfunc, otypes=None, doc=None, excluded=None, cache=False, signature=None)",
                  [](Interpreter &in, const Bound &b) -> Value {
                    Value cls = in.getAttr(importPreludeModule(in, "_np_vectorize"), "vectorize");
                    return in.call(cls, std::vector<Value>(b.values().begin(), b.values().end()));
                  }});
}

}  // namespace tfs::runtime::tf::numpy
