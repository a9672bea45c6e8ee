// TF's dispatch of tf.* functions for composite tensors: when an argument of
// one of the functions below is an instance of a library class defining
// `_tfs_dispatch` (tf.RaggedTensor, lib/tf/ragged/_tf_ragged.tfs), the call
// goes to that static method as `_tfs_dispatch(name, dense_fn, args,
// kwargs)`, which applies the dense function to the flat values. Other calls
// go straight to the native function (one type test per argument).
#include "lib/tf/tf_lib.h"

namespace tfs::runtime::tf {

namespace {

// The class defining `_tfs_dispatch` of `v`, if it is such an instance.
ClassObject *dispatchClass(const Value &v) {
  auto *inst = v.as<InstanceObject>();
  if (!inst) return nullptr;
  for (ClassObject *c : inst->klass->mro)
    if (c->dict.count("_tfs_dispatch")) return c;
  return nullptr;
}

// Arguments and the items of a list or tuple argument (tf.concat's values).
ClassObject *findDispatchClass(Interpreter &in, Args args, const Kwargs &kwargs) {
  auto check = [&](const Value &v) -> ClassObject * {
    if (ClassObject *c = dispatchClass(v)) return c;
    if (v.as<ListObject>() || v.as<TupleObject>())
      for (const Value &x : in.toList(v))
        if (ClassObject *c = dispatchClass(x)) return c;
    return nullptr;
  };
  for (const Value &a : args)
    if (ClassObject *c = check(a)) return c;
  for (const auto &kv : kwargs)
    if (ClassObject *c = check(kv.second)) return c;
  return nullptr;
}

// The functions TF 2.15 dispatches for RaggedTensor (unary and binary
// elementwise math, reductions, concat, stack and tile), by module.
const char *const kMathNames[] = {
    "abs", "negative", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "square", "sin", "cos", "tan", "asin",
    "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "floor", "ceil", "round", "rint", "sign", "reciprocal",
    "logical_not", "cast", "identity", "ones_like", "zeros_like", "is_nan", "is_inf", "is_finite", "erf",
    "softplus", "saturate_cast", "softsign", "lgamma", "digamma", "conj", "real", "imag", "angle",
    "stop_gradient", "add", "add_v2", "subtract", "multiply", "divide", "truediv", "realdiv", "floordiv",
    "floormod", "mod", "maximum", "minimum", "pow", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal", "logical_and", "logical_or", "logical_xor", "squared_difference", "divide_no_nan",
    "multiply_no_nan", "atan2", "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_any",
    "reduce_all", "reduce_prod", "concat", "stack", "tile"};
const char *const kNnNames[] = {"relu", "relu6", "elu", "selu", "gelu", "softplus", "softsign", "sigmoid", "tanh",
                                "log_sigmoid", "silu", "swish", "leaky_relu"};
const char *const kStringsNames[] = {"as_string", "length", "lower", "upper", "strip", "substr", "join",
                                     "to_hash_bucket_fast", "to_hash_bucket_strong", "to_hash_bucket"};

void wrap(Interpreter &in, ModuleObject &m, const char *name) {
  auto it = m.scope->vars.find(name);
  if (it == m.scope->vars.end()) return;
  auto *native = it->second.as<NativeFunction>();
  if (!native) return;
  Value dense = it->second;
  NativeFn denseFn = native->fn;
  std::string fname = name;
  it->second = Value(make<NativeFunction>(native->name, [dense, denseFn, fname](Interpreter &in, Args a,
                                                                                 const Kwargs &kw) -> Value {
    ClassObject *cls = findDispatchClass(in, a, kw);
    if (!cls) return denseFn(in, a, kw);
    auto kwargs = make<DictObject>();
    for (const auto &[k, v] : kw) kwargs->set(in, in.str(k), v);
    std::vector<Value> positional(a.begin(), a.end());
    return in.call(in.getAttr(Value(Ref<ClassObject>(cls)), "_tfs_dispatch"),
                   std::vector<Value>{in.str(fname), dense, in.tuple(positional), Value(kwargs)});
  }));
}

}  // namespace

void installCompositeDispatch(Interpreter &in, ModuleObject &tf, ModuleObject &math, ModuleObject &nn,
                              ModuleObject &strings) {
  for (const char *name : kMathNames) {
    wrap(in, tf, name);
    wrap(in, math, name);
  }
  for (const char *name : kNnNames) wrap(in, nn, name);
  for (const char *name : kStringsNames) wrap(in, strings, name);
}

}  // namespace tfs::runtime::tf
