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
  bool any = false;
  for (const Value &x : args) any |= holdsObjectArray(x);
  for (auto &[k, x] : kwargs) any |= holdsObjectArray(x);
  if (!any || makesObjectArrays(name)) return std::nullopt;
  if (kJoiners.count(name) || kMovers.count(name)) return moveElements(in, name, numeric, args, kwargs);
  if (kReductions.count(name) && !args.empty() && objectArrayOf(args[0]))
    return in.call(in.getAttr(args[0], name), std::vector<Value>(args.begin() + 1, args.end()), kwargs);
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
