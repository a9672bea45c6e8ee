// numpy's datetime64 / timedelta64 arrays are written in .tfs
// (lib/numpy/_np_time_array.tfs: an int64 ndarray of counts plus a unit).
// Every numpy function of the native tables first asks here whether its
// call involves times: an argument that is a time array or a datetime64 /
// timedelta64 scalar (also inside a list or tuple, as np.concatenate and
// np.array take them), or a time `dtype=`. Such a call runs the function
// of the same name in lib/numpy/_np_time_functions.tfs; one that file lacks
// refuses by name
// instead of computing on the raw counts (a silent wrong answer).
#include "lib/numpy/ndarray.h"
#include "lib/numpy/object_array.h"
#include "lib/numpy/time_dispatch.h"

#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

// Instances of the .tfs time classes (TimeArray, np.datetime64,
// np.timedelta64) carry the class attribute `_tfs_time_value`.
bool isTimeValue(const Value &v) {
  auto *inst = v.as<InstanceObject>();
  return inst && inst->klass->lookup("_tfs_time_value").has_value();
}

bool holdsTime(const Value &v, int depth) {
  if (isTimeValue(v)) return true;
  if (depth == 0) return false;
  const std::vector<Value> *items = nullptr;
  if (auto *l = v.as<ListObject>()) items = &l->items;
  else if (auto *t = v.as<TupleObject>()) items = &t->items;
  if (!items) return false;
  for (const Value &x : *items)
    if (holdsTime(x, depth - 1)) return true;
  return false;
}

bool mentionsTime(const std::string &s) {
  std::string t = s;
  while (!t.empty() && (t[0] == '<' || t[0] == '>' || t[0] == '=')) t.erase(0, 1);
  return t.rfind("datetime64", 0) == 0 || t.rfind("timedelta64", 0) == 0 || t.rfind("M8", 0) == 0 ||
         t.rfind("m8", 0) == 0;
}

// The `dtype=` argument of this call, when the signature has one.
const Value *dtypeArgument(const Signature &sig, Args args, const Kwargs &kw) {
  for (auto &[k, v] : kw)
    if (k == "dtype") return &v;
  const auto &params = sig.params();
  for (size_t i = 0; i < params.size() && i < args.size(); ++i)
    if (params[i].name == "dtype" && !params[i].keywordOnly) return &args[i];
  return nullptr;
}

}  // namespace

bool isTimeDType(const Value &v) {
  if (auto *s = v.as<StrObject>()) return mentionsTime(s->s);
  if (auto *c = v.as<ClassObject>()) {
    if (c->name != "datetime64" && c->name != "timedelta64") return false;
    auto module = c->lookup("__module__");
    return module && module->as<StrObject>() && module->as<StrObject>()->s == "numpy";
  }
  if (auto *inst = v.as<InstanceObject>()) return inst->klass->lookup("_tfs_time_dtype").has_value();
  return false;
}

std::optional<Value> callWithTimeArrays(Interpreter &in, const Signature &sig, Args args, const Kwargs &kw) {
  const std::string &name = sig.name();
  const Value *dtype = dtypeArgument(sig, args, kw);
  bool creation = name == "array" || name == "asarray" || name == "asanyarray";
  // np.array(x, dtype=object) keeps datetime64 scalars as objects.
  if (creation && dtype && isObjectDType(*dtype)) return std::nullopt;
  bool any = dtype && isTimeDType(*dtype);
  int depth = creation ? 32 : 1;
  for (size_t i = 0; i < args.size() && !any; ++i) any = holdsTime(args[i], depth);
  for (auto &[k, v] : kw)
    if (!any && k != "dtype") any = holdsTime(v, depth);
  if (!any) return std::nullopt;
  std::optional<Value> fn = preludeApi(in, "_np_time_functions", "time_functions", name);
  if (!fn)
    in.raise("NotImplementedError",
             fmt::format("numpy.{} of datetime64/timedelta64 values is not supported by tfs", name));
  return in.call(*fn, args, kw);
}

}  // namespace tfs::runtime::tf::numpy

namespace tfs::runtime::tf::numpy {

// numpy hands np.sum(m), np.mean(m), np.reshape(m, ...) ... of an array
// subclass to the array's own method (fromnumeric's _wrapreduction and
// _wrapfunc), so np.ma's masked arrays keep their mask through them. A
// .tfs subclass lists those functions in its class attribute
// `_tfs_numpy_methods` ({numpy name: method name, or (method name, n)});
// numpy's arguments past the array go to the method by keyword, as numpy
// passes them, except the first n (np.reshape's newshape, np.clip's bounds).
std::optional<Value> callArraySubclassMethod(Interpreter &in, const Signature &sig, Args args, const Kwargs &kw) {
  const Value *first = nullptr;
  if (!args.empty()) first = &args[0];
  else
    for (auto &[k, v] : kw)
      if (!sig.params().empty() && k == sig.params()[0].name) first = &v;
  auto *inst = first ? first->as<InstanceObject>() : nullptr;
  if (!inst) return std::nullopt;
  std::optional<Value> table = inst->klass->lookup("_tfs_numpy_methods");
  if (!table) return std::nullopt;
  auto *methods = table->as<DictObject>();
  if (!methods) return std::nullopt;
  std::optional<Value> method = methods->get(in, in.str(sig.name()));
  if (!method) return std::nullopt;
  size_t positional = 0;
  Value methodName = *method;
  if (auto *t = method->as<TupleObject>(); t && t->items.size() == 2) {
    methodName = t->items[0];
    positional = size_t(in.toInt(t->items[1]));
  }
  Bound b = sig.bind(in, args, kw);
  std::vector<Value> leading;
  Kwargs passed;
  for (size_t i = 1; i < sig.params().size(); ++i) {
    if (i <= positional) leading.push_back(b[i]);
    else if (b.given(sig.params()[i].name)) passed.emplace_back(sig.params()[i].name, b[i]);
  }
  leading.insert(leading.end(), b.varArgs().begin(), b.varArgs().end());
  passed.insert(passed.end(), b.varKwargs().begin(), b.varKwargs().end());
  return in.call(in.getAttr(*first, in.str(methodName)), Args(leading), passed);
}

}  // namespace tfs::runtime::tf::numpy
