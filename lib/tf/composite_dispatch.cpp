// TF's dispatch of tf.* functions for composite tensors: when an argument of
// one of the functions below is an instance of a library class defining
// `_tfs_dispatch` (tf.RaggedTensor, lib/tf/ragged/_tf_ragged.tfs), the call
// goes to that static method as `_tfs_dispatch(name, dense_fn, args,
// kwargs)`, which applies the dense function to the flat values. Other calls
// go straight to the native function (one type test per argument).
#include "lib/tf/tf_lib.h"
#include "runtime/tf/wrapped_functions.h"

#include <set>

namespace tfs::runtime::tf {

namespace {

// The class in `v`'s MRO defining the dispatch hook `hook`, if `v` is an
// instance of one.
ClassObject *classDefining(const Value &v, const char *hook) {
  auto *inst = v.as<InstanceObject>();
  if (!inst) return nullptr;
  for (ClassObject *c : inst->klass->mro)
    if (c->dict.count(hook)) return c;
  return nullptr;
}

// The first argument defining `hook`: arguments, the items of a list or
// tuple argument (tf.concat's values) and, with `dicts`, dict values.
ClassObject *findClassDefining(Interpreter &in, Args args, const Kwargs &kwargs, const char *hook, bool dicts) {
  auto check = [&](const Value &v) -> ClassObject * {
    if (ClassObject *c = classDefining(v, hook)) return c;
    if (v.as<ListObject>() || v.as<TupleObject>())
      for (const Value &x : in.toList(v))
        if (ClassObject *c = classDefining(x, hook)) return c;
    if (auto *d = v.as<DictObject>(); d && dicts)
      for (auto &[k, x] : d->items())
        if (ClassObject *c = classDefining(x, hook)) return c;
    return nullptr;
  };
  for (const Value &a : args)
    if (ClassObject *c = check(a)) return c;
  for (const auto &kv : kwargs)
    if (ClassObject *c = check(kv.second)) return c;
  return nullptr;
}

// The functions TF 2.15 dispatches for RaggedTensor (unary and binary
// elementwise math, reductions, concat, stack, tile and reverse), by module.
const char *const kMathNames[] = {
    "abs", "negative", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "square", "sin", "cos", "tan", "asin",
    "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "floor", "ceil", "round", "rint", "sign", "reciprocal",
    "logical_not", "cast", "identity", "ones_like", "zeros_like", "is_nan", "is_inf", "is_finite", "erf",
    "softplus", "saturate_cast", "softsign", "lgamma", "digamma", "conj", "real", "imag", "angle",
    "stop_gradient", "add", "add_v2", "subtract", "multiply", "divide", "truediv", "realdiv", "floordiv",
    "floormod", "mod", "maximum", "minimum", "pow", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal", "logical_and", "logical_or", "logical_xor", "squared_difference", "divide_no_nan",
    "multiply_no_nan", "atan2", "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_any",
    "reduce_all", "reduce_prod", "concat", "stack", "tile", "reverse"};
const char *const kNnNames[] = {"relu", "relu6", "elu", "selu", "gelu", "softplus", "softsign", "sigmoid", "tanh",
                                "log_sigmoid", "silu", "swish", "leaky_relu"};
const char *const kStringsNames[] = {"as_string", "length", "lower", "upper", "strip", "substr", "join",
                                     "to_hash_bucket_fast", "to_hash_bucket_strong", "to_hash_bucket"};

// More tf functions a tf.experimental.dispatch_for_api target commonly
// overrides: only a `_tfs_api_dispatch` hook (an ExtensionType's, and
// tf.experimental.DynamicRaggedShape's for reshape/zeros/ones/fill) sees
// them (the composite tensors above keep TF's own set).
const char *const kApiOnlyNames[] = {"matmul", "where", "shape", "size", "rank", "reshape", "expand_dims",
                                     "squeeze", "transpose", "gather", "boolean_mask", "broadcast_to", "unstack",
                                     "split", "clip_by_value", "fill", "norm", "einsum", "zeros", "ones"};

// `m.name` wrapped: a call whose arguments hold an instance of a class
// defining `_tfs_dispatch` (only with `composite`: TF's composite tensor
// dispatch) or `_tfs_api_dispatch` (tf.experimental.ExtensionType's
// dispatch, lib/tf/extension_type/_tf_dispatch.tfs) goes to that static
// method as hook(name, dense_fn, args, kwargs).
void wrap(Interpreter &in, ModuleObject &m, const char *name, bool composite = true) {
  auto it = m.scope->vars.find(name);
  if (it == m.scope->vars.end()) return;
  auto *native = it->second.as<NativeFunction>();
  if (!native) return;
  Value dense = it->second;
  NativeFn denseFn = native->fn;
  std::string fname = name;
  it->second = Value(make<NativeFunction>(native->name, [dense, denseFn, fname, composite](Interpreter &in, Args a,
                                                                                            const Kwargs &kw) -> Value {
    const char *hook = "_tfs_dispatch";
    ClassObject *cls = composite ? findClassDefining(in, a, kw, hook, false) : nullptr;
    if (!cls) {
      hook = "_tfs_api_dispatch";
      cls = findClassDefining(in, a, kw, hook, false);
    }
    if (!cls) return denseFn(in, a, kw);
    auto kwargs = make<DictObject>();
    for (const auto &[k, v] : kw) kwargs->set(in, in.str(k), v);
    std::vector<Value> positional(a.begin(), a.end());
    return in.call(in.getAttr(Value(Ref<ClassObject>(cls)), hook),
                   std::vector<Value>{in.str(fname), dense, in.tuple(positional), Value(kwargs)});
  }));
}

// --- Keras's dispatch of tf.* functions for KerasTensors ---------------
// Keras 2.15 registers a dispatcher for every dispatchable TF API: called
// with a KerasTensor (the functional API's symbolic tensor) anywhere in its
// arguments, tf.reduce_sum, tf.nn.relu, tf.concat, ... become a TFOpLambda
// layer of the model instead of running. The class of such an argument
// defines `_tfs_keras_dispatch(api_name, fn, args, kwargs)`
// (lib/tf/keras/engine/_keras_tensor.tfs); `api_name` is the name the
// function was reached by ("math.reduce_sum", "nn.relu", "concat").

// tf names that are not dispatched (control flow, tracing, constants,
// predicates on tensors): they run as they are.
const std::set<std::string> kNotDispatched = {
    "function", "cond", "while_loop", "case", "switch_case", "map_fn", "scan", "foldl", "foldr",
    "vectorized_map", "py_function", "numpy_function", "print", "Assert", "custom_gradient", "recompute_grad",
    "init_scope", "name_scope", "device", "control_dependencies", "is_tensor", "constant", "executing_eagerly",
    "get_static_value", "no_op", "group", "tuple", "gradients", "hessians", "as_dtype", "set_random_seed",
    "get_logger", "type_spec_from_value", "convert_to_tensor", "make_ndarray", "make_tensor_proto",
    "load_op_library", "is_symbolic_tensor", "register_tensor_conversion_function", "get_current_name_scope"};

bool isPlainFunction(const Value &v) {
  if (v.as<NativeFunction>()) return true;
  auto *f = v.as<FunctionObject>();
  return f && f->def;
}

// This interpreter's wrappers by wrapped function (one wrapper per function,
// so tf.erfinv is tf.math.erfinv stays true) and the modules already
// wrapped: per interpreter (several run in one process when replaying
// fuzz seeds), kept in the _tf_internal module.
DictObject &dispatchMemo(Interpreter &in) {
  auto *internal = in.importModule("_tf_internal").as<ModuleObject>();
  Value &memo = internal->scope->vars["_keras_dispatch_memo"];
  if (!memo.as<DictObject>()) memo = Value(make<DictObject>());
  return *memo.as<DictObject>();
}

// `fn` wrapped so that a call with a KerasTensor argument goes to Keras.
Value kerasDispatching(Interpreter &in, const Value &fn, const std::string &apiName) {
  DictObject &memo = dispatchMemo(in);
  if (std::optional<Value> known = memo.get(in, fn)) return *known;
  std::string shown = fn.as<NativeFunction>() ? fn.as<NativeFunction>()->name : fn.as<FunctionObject>()->name;
  auto wrapper = make<NativeFunction>(shown, [fn, apiName](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    // KerasTensors may also sit in the values of dict arguments.
    ClassObject *cls = findClassDefining(in, a, kw, "_tfs_keras_dispatch", true);
    if (!cls) return in.call(fn, a, kw);
    auto kwargs = make<DictObject>();
    for (const auto &[k, v] : kw) kwargs->set(in, in.str(k), v);
    std::vector<Value> positional(a.begin(), a.end());
    return in.call(in.getAttr(Value(Ref<ClassObject>(cls)), "_tfs_keras_dispatch"),
                   std::vector<Value>{in.str(apiName), fn, in.tuple(positional), Value(kwargs)});
  });
  if (!fn.as<NativeFunction>()) registerWrappedFunction(wrapper.get(), fn);
  memo.set(in, fn, Value(wrapper));
  // A module reaching another's wrapped function (tf.math.softmax is
  // tf.nn.softmax) gets that wrapper, not a wrapper of it.
  memo.set(in, Value(wrapper), Value(wrapper));
  return Value(wrapper);
}

void installKerasDispatchIn(Interpreter &in, ModuleObject &m, const std::string &prefix);

// The submodules of tf whose functions Keras dispatches.
bool dispatchedSubmodule(const std::string &name) {
  return name == "math" || name == "nn" || name == "linalg" || name == "image" || name == "signal" ||
         name == "strings";
}

Value dispatchingAttribute(Interpreter &in, const std::string &prefix, const std::string &name, Value v) {
  // A leading underscore: tfs's own helpers the library calls on any value
  // (tf._is_dense_tensor), not TF API.
  if (kNotDispatched.count(name) || (!name.empty() && name[0] == '_')) return v;
  if (isPlainFunction(v)) return kerasDispatching(in, v, prefix.empty() ? name : prefix + "." + name);
  if (auto *sub = v.as<ModuleObject>(); sub && prefix.empty() && dispatchedSubmodule(name))
    installKerasDispatchIn(in, *sub, name);
  return v;
}

void installKerasDispatchIn(Interpreter &in, ModuleObject &m, const std::string &prefix) {
  DictObject &memo = dispatchMemo(in);
  Value module = Value(Ref<ModuleObject>(&m));
  if (memo.get(in, module)) return;
  memo.set(in, module, Value::boolean(true));
  std::vector<std::string> names;
  for (auto &[name, v] : m.scope->vars) names.push_back(name);
  for (const std::string &name : names) {
    Value v = m.scope->vars[name];
    m.scope->vars[name] = dispatchingAttribute(in, prefix, name, v);
  }
  if (m.lazy) {
    auto lazy = m.lazy;
    m.lazy = [lazy, prefix](Interpreter &in, const std::string &name) -> std::optional<Value> {
      std::optional<Value> v = lazy(in, name);
      if (!v) return v;
      return dispatchingAttribute(in, prefix, name, *v);
    };
  }
}

}  // namespace

void installKerasDispatch(Interpreter &in, ModuleObject &tf) { installKerasDispatchIn(in, tf, ""); }

void installCompositeDispatch(Interpreter &in, ModuleObject &tf, ModuleObject &math, ModuleObject &nn,
                              ModuleObject &strings) {
  for (const char *name : kMathNames) {
    wrap(in, tf, name);
    wrap(in, math, name);
  }
  for (const char *name : kApiOnlyNames) {
    wrap(in, tf, name, false);
    wrap(in, math, name, false);
  }
  // tf.linalg.matmul is tf.matmul in TF: it dispatches too.
  auto linalg = tf.scope->vars.find("linalg");
  if (linalg != tf.scope->vars.end())
    if (auto *m = linalg->second.as<ModuleObject>())
      for (const char *name : {"matmul", "matvec", "norm", "einsum"}) wrap(in, *m, name, false);
  for (const char *name : kNnNames) wrap(in, nn, name);
  for (const char *name : kStringsNames) wrap(in, strings, name);
}

}  // namespace tfs::runtime::tf
