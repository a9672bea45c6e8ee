// The `tensorflow` module object: tensors, variables, tapes, printing,
// random, strings, name scopes, dtypes, and the lazily attached parts
// (tf.Module, tf.keras, tf.data and functional control flow from the prelude, compat.v1, autograph).
#include "runtime/kernels/kernels.h"
#include "runtime/tensor/format.h"
#include "lib/tf/io/io_lib.h"
#include "lib/tf/tf_lib.h"
#include "runtime/tf/lifted_value.h"
#include "runtime/tf/tensor_ids.h"
#include "runtime/tf/function_wrappers.h"
#include "lib/tf/native_type_classes.h"
#include "runtime/tf/function_key.h"
#include "lib/tf/compat_v1/compat_v1.h"
#include "lib/tf/distribute/distribute_native.h"
#include "runtime/interp/signature.h"
#include "frontend/ast.h"
#include "runtime/interp/native_context_managers.h"

#include <chrono>
#include <cstdio>
#include <functional>
#include <tuple>
#include <fmt/format.h>

namespace tfs::runtime::tf {

// Imports a prelude module for a lazily resolved tf attribute, keeping the
// script position (an error about the attribute must point at the script,
// not at the prelude's last statement).
Value importPreludeModule(Interpreter &in, const std::string &name) {
  frontend::SourceSpan span = in.currentSpan();
  Value m = in.importModule(name);
  in.restoreSpan(span);
  return m;
}

// A function of the prelude's composite API tables (_tf_math.tfs), if `name`
// is one.
std::optional<Value> compositeApi(Interpreter &in, const char *table, const std::string &name) {
  return preludeApi(in, "_tf_math", table, name);
}

// The entry `name` of the dict `table` in prelude module `module`, if any.
std::optional<Value> preludeApi(Interpreter &in, const char *module, const char *table, const std::string &name) {
  Value api = in.getAttr(importPreludeModule(in, module), table);
  auto *d = api.as<DictObject>();
  if (!d) return std::nullopt;
  return d->get(in, in.str(name));
}

// The tf.train names written in .tfs (both tf.train and tf.compat.v1.train).
std::optional<Value> trainApi(Interpreter &in, const std::string &name) {
  if (name == "ClusterSpec") return in.getAttr(importPreludeModule(in, "_tf_device"), name);
  if (auto proto = io::exampleProtoClass(in, name)) return proto;
  if (name == "checkpoints_iterator") return in.getAttr(importPreludeModule(in, "_tf_checkpoints_iterator"), name);
  // Checkpoints (lib/tf/train/_tf_checkpoint.tfs).
  Value api = in.call(in.getAttr(importPreludeModule(in, "_tf_checkpoint"), "train_api"), {});
  if (auto *d = api.as<DictObject>())
    if (auto f = d->get(in, in.str(name))) return f;
  return std::nullopt;
}

using ir::OpKind;

namespace {

struct NameScopeObject : Object {
  std::string name;
  bool keep = false;
  size_t savedDepth = 0;
  std::vector<std::string> saved;
  const char *typeName() const override { return "name_scope"; }
  std::optional<Value> getAttr(Interpreter &in, const std::string &a) override {
    if (a == "name") return in.str(name);
    return std::nullopt;
  }
  std::optional<Value> enter(Interpreter &in) override {
    auto &st = ctx(in).nameScopes;
    saved = st;
    // TF: "" returns to the root scope and a trailing "/" names a scope in
    // full; otherwise, while a graph is being built (tf.function, v1
    // graphs), the scope's name is made unique in it as an op name is
    // ("a/", then "a_1/"); eagerly names are not uniquified.
    if (keep) {
    } else if (name.empty()) st.clear();
    else if (name.back() == '/') st = {name};
    else if (GraphScope *g = currentGraph(in)) {
      std::string prefix;
      for (auto &s : st) prefix += s;
      st = {g->uniqueName(prefix + name) + "/"};
    } else st.push_back(name + "/");
    std::string full;
    for (auto &s : st) full += s;
    return in.str(full);
  }
  bool exit(Interpreter &in, bool) override {
    ctx(in).nameScopes = saved;
    return false;
  }
};
TFS_NATIVE_CONTEXT_MANAGER(NameScopeObject);

struct InitScopeObject : Object {
  bool saved = false;
  const char *typeName() const override { return "init_scope"; }
  std::optional<Value> enter(Interpreter &in) override {
    saved = ctx(in).initScope;
    ctx(in).initScope = true;
    return Value();
  }
  bool exit(Interpreter &in, bool) override {
    ctx(in).initScope = saved;
    return false;
  }
};
TFS_NATIVE_CONTEXT_MANAGER(InitScopeObject);

std::string scopedName(Interpreter &in, const std::string &base) {
  std::string prefix;
  for (auto &s : ctx(in).nameScopes) prefix += s;
  return prefix + base;
}

std::vector<int64_t> shapeList(Interpreter &in, const Value &v) {
  std::vector<int64_t> out;
  if (auto *t = v.as<TensorObject>()) {
    std::optional<Tensor> value = staticValue(*t);
    if (!value)
      raiseTf(in, "NotImplementedError",
              fmt::format("a shape computed at run time ({}) is not supported by tfs here: the shape must be "
                          "known when the function is traced", t->tensorName()));
    for (int64_t i = 0; i < value->numElements(); ++i) out.push_back(value->elementAsInt(i));
    return out;
  }
  if (auto *s = v.as<TensorShapeObject>()) return s->shape.dims;
  if (v.isInt()) return {v.asInt()};
  for (auto &x : in.toList(v)) out.push_back(in.toInt(x));
  return out;
}

}  // namespace

Value makeVariable(Interpreter &in, const Value &init, std::optional<DType> dtype, const std::string &name,
                   bool trainable, bool v1) {
  TfContext &c = ctx(in);
  // TF's tf.function installs a variable creator for the whole trace, and
  // tf.init_scope keeps it: a trace that may not create variables (every
  // trace but the first) refuses them inside init_scope too, which is how a
  // Keras optimizer first used on a retrace fails in TF.
  if (c.traceDepth > 0 && c.v1Graph == nullptr)
    in.raise("ValueError", "tf.function only supports singleton tf.Variables created on the first call. Make sure the tf.Variable is only created once or created outside tf.function. See https://www.tensorflow.org/guide/function#creating_tfvariables for more information.");
  auto v = make<VariableObject>();
  Value initValue = init;
  if (in.isInstance(init, nullptr)) {}
  if (!init.as<TensorObject>() && !init.as<VariableObject>() && !init.isInt() && !init.isFloat() && !init.isBool() &&
      !init.as<ListObject>() && !init.as<TupleObject>() && (init.as<FunctionObject>() || init.as<NativeFunction>() || init.as<BoundMethod>()))
    initValue = in.call(init, {});
  bool saved = c.initScope;
  c.initScope = true;
  Ref<TensorObject> t;
  try {
    t = toTensor(in, initValue, dtype);
  } catch (...) {
    c.initScope = saved;
    throw;
  }
  c.initScope = saved;
  if (t->symbolic()) {
    // An initial value computed in the function being traced (e.g.
    // tf.Variable(tf.zeros([2])) or tf.Variable(tf.random.uniform(...)) on
    // the first call): TF lifts its ops out of the function and runs them
    // eagerly. That works when they depend on constants (and seeds) only;
    // evaluate them with the eager kernels.
    auto lifted = liftedValue(t->sym);
    if (!lifted) raiseTf(in, "ValueError", "tf.Variable initial values must be eager tensors in tfs");
    auto e = make<TensorObject>();
    e->eager = *lifted;
    t = e;
  }
  v->dtype = t->dtype();
  v->shape = ir::Shape(t->eager.shape());
  v->value = std::make_shared<Tensor>(t->eager);
  v->trainable = trainable;
  v->name = scopedName(in, name.empty() ? "Variable" : name);
  // A graph's variables have unique names, as its ops do ("w", "w_1").
  if (v1 && c.v1Graph) v->name = c.v1Graph->uniqueName(v->name);
  v->name += ":0";
  v->graphMode = v1;
  // TF 2.15's eager ResourceVariable runs these ops to make its handle,
  // check the name is not reused (an Assert named EagerVariableNameReuse)
  // and assign the initial value.
  for (const char *op : {"VarHandleOp", "VarIsInitializedOp", "LogicalNot", "Assert", "AssignVariableOp"})
    if (!v1 && !currentGraph(in)) logEagerOpPlacement(in, op);
  if (v1) {  // a graph variable: in the v1 collections, its initializer assigns this value again
    v->initialValue = wrap(t->eager);
    c.globalVariables.push_back(v);
  }
  ++variablesCreated;
  return v;
}

namespace {
// The tensor / variable ids taken (numpy arrays apart) when `import
// tensorflow` finished: TF starts its runtime at the first tensor a script
// makes, after which the logical devices are fixed (runtimeStarted()).
int64_t idsAtImport = -1;
bool started = false;
}  // namespace

void noteTfImported() {
  if (idsAtImport < 0) idsAtImport = nonNdarrayIdsTaken();
}

bool runtimeStarted() {
  if (idsAtImport < 0 || started) return started;
  started = nonNdarrayIdsTaken() != idsAtImport;
  return started;
}

Value makeTfModule(Interpreter &in, bool v1) {
  auto tf = make<ModuleObject>(v1 ? "tensorflow.compat.v1" : "tensorflow");
  auto math = submodule(in, *tf, "math");
  auto nn = submodule(in, *tf, "nn");
  auto linalg = submodule(in, *tf, "linalg");
  auto random = submodule(in, *tf, "random");
  auto strings = submodule(in, *tf, "strings");
  auto errors = submodule(in, *tf, "errors");
  auto dtypes = submodule(in, *tf, "dtypes");
  installOps(in, *tf, *math, *nn, *linalg);
  installIndexOps(in, *tf, *math);
  installMathExtraOps(in, *tf, *math);
  installLinalgRawOps(in, *tf);
  installSpectralRawOps(in, *tf);
  installNnWindowOps(in, *nn);
  installStatelessRandom(in, *random);
  installRandomDraws(in, *tf, *random);
  installIo(in, *tf);
  installComplexOps(in, *tf, *math);

  for (int i = 0; i < ir::kNumDTypes; ++i) {
    DType d = DType(i);
    Value dv = dtypeValue(d);
    tf->scope->vars[ir::dtypeName(d)] = dv;
    dtypes->scope->vars[ir::dtypeName(d)] = dv;
  }
  for (auto [alias, d] : {std::pair{"double", DType::Float64}, std::pair{"half", DType::Float16}}) {
    tf->scope->vars[alias] = dtypeValue(d);
    dtypes->scope->vars[alias] = dtypeValue(d);
  }
  tf->scope->vars["newaxis"] = Value();
  installErrors(in, *errors);
  installTensorGraphAttrs(in);
  // tf.DType(type_enum) is the dtype with that DataType number (tf.DType(1) is tf.float32).
  defNativeTypeClass(in, *tf, "DType", "DType", "tensorflow.python.framework.dtypes",
                     [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
                       auto args = in.bindArgs("DType", a, kw, {"type_enum"}, {std::nullopt});
                       if (!args[0].isInt()) in.raise("TypeError", "DType() argument 'type_enum' must be an int");
                       return dtypeValue(*dtypeArg(in, args[0]));
                     });
  // tf.dtypes' functions are tf's own.
  dtypes->scope->vars["DType"] = tf->scope->vars["DType"];
  dtypes->lazy = [](Interpreter &in, const std::string &name) -> std::optional<Value> {
    for (const char *n : {"as_dtype", "cast", "complex", "saturate_cast"})
      if (name == n) return in.getAttr(in.importModule("tensorflow"), name);
    return std::nullopt;
  };
  // ConcreteFunction.graph: a tf.Graph over the trace (get_operations, as_graph_def, ...).
  ctx(in).functionGraph = [](Interpreter &, std::shared_ptr<GraphScope> scope) -> Value {
    auto g = make<GraphObject>(scope.get());
    g->keep = std::move(scope);
    return Value(g);
  };

  def(in, *tf, "constant", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("constant", a, kw, {"value", "dtype", "shape", "name"}, {std::nullopt, Value(), Value(), Value()});
    auto d = dtypeArg(in, args[1]);
    Tensor t;
    if (auto *to = args[0].as<TensorObject>(); to && !to->symbolic()) {
      t = to->eager;
      // TF converts an eager tensor only to its own dtype (a numpy array is cast).
      if (d && *d != t.dtype() && !to->numpy)
        in.raise("TypeError", fmt::format("Expected tensor {} with dtype tf.{}, but got dtype tf.{}.", in.str(args[0]),
                                          ir::dtypeName(*d), ir::dtypeName(t.dtype())));
      if (d && *d != t.dtype()) t = runKernel(OpKind::Cast, std::vector<Tensor>{t}, ir::Attrs{{"dtype", *d}})[0];
    } else {
      t = tensorFromPython(in, args[0], d, false);
    }
    if (auto *st = args[2].as<TensorObject>(); st && st->symbolic())
      // TF's graph constant converts `shape` with numpy, which a traced
      // tensor refuses (its value exists only when the graph runs).
      in.raise("TypeError", fmt::format("Cannot convert a symbolic tf.Tensor ({}) to a numpy array. This error may "
                                        "indicate that you're trying to pass a Tensor to a NumPy call, which is not "
                                        "supported.", st->tensorName()));
    if (!args[2].isNone()) {
      std::vector<int64_t> shape = shapeList(in, args[2]);
      int64_t n = 1;
      bool known = true;
      for (int64_t x : shape) {
        known = known && x >= 0;
        // Past 64 bits the count cannot match any tensor: report it as unknown.
        if (known && __builtin_mul_overflow(n, x, &n)) known = false;
      }
      // TF reshapes when the counts agree and fills from a single element;
      // anything else is its TypeError (was an uncaught reshape error).
      if (!known || (n != t.numElements() && t.numElements() != 1)) {
        std::string dims;
        for (size_t i = 0; i < shape.size(); ++i)
          dims += (i ? ", " : "") + (shape[i] < 0 ? std::string("None") : std::to_string(shape[i]));
        if (shape.size() == 1) dims += ",";
        in.raise("TypeError",
                 fmt::format("Eager execution of tf.constant with unsupported shape. Tensor {} "
                             "(converted from {}) has {} elements, but got `shape` ({}) with {} "
                             "elements).",
                             in.repr(wrap(t)), in.str(args[0]), t.numElements(), dims,
                             known ? std::to_string(n) : "None"));
      }
      if (t.numElements() == 1 && n != 1) t = runKernel(OpKind::Fill, std::vector<Tensor>{t.reshaped({})}, ir::Attrs{{"shape", shape}})[0];
      else t = t.reshaped(shape);
    }
    auto o = make<TensorObject>();
    o->eager = t;
    if (GraphScope *g = currentGraph(in)) {
      ir::Value *c = g->builder().constant(denseFromTensor(t), in.currentSpan());
      std::string name = args[3].isNone() ? "Const" : in.str(args[3]);
      if (name.size() > 1 && name.back() == '/') name.pop_back();  // a name scope's full name, as it is
      else name = g->uniqueName(scopedName(in, name));
      return Value(wrapSym(c, g, name));
    }
    return Value(o);
  });
  tf->scope->vars["convert_to_tensor"] = nativeWithSignature(
      in, "convert_to_tensor(value, dtype=None, dtype_hint=None, name=None)", [](Interpreter &in, const Bound &a) -> Value {
        // dtype_hint: the dtype a Python scalar takes when none is asked for.
        const Value &v = a["value"];
        bool scalar = v.isInt() || v.isFloat() || v.isBool();
        std::optional<DType> hint = dtypeArg(in, a["dtype_hint"]), dtype = dtypeArg(in, a["dtype"]);
        if (hint && scalar && v.isFloat() && !ir::isFloating(*hint)) hint.reset();  // a lossy hint is ignored
        // Lists and numpy arrays: converted to the hint when their own dtype
        // converts to it (TF's preferred_dtype and its IsCompatible: integers
        // to integers, integers and floats to floats, numbers to complex),
        // else as without it; tensors keep theirs.
        auto *t = v.as<TensorObject>();
        if (hint && !dtype && !scalar && !(t && !t->numpy) && !v.as<VariableObject>()) {
          Ref<TensorObject> natural = toTensor(in, v);
          DType from = natural->dtype(), to = *hint;
          bool integer = ir::isInteger(from) && from != DType::Bool;
          bool compatible = from == to || (ir::isInteger(to) && integer) ||
                            (ir::isFloating(to) && (integer || ir::isFloating(from))) ||
                            (ir::isComplex(to) && (integer || ir::isFloating(from) || ir::isComplex(from)));
          if (!compatible) return Value(natural);
          try {
            return Value(toTensor(in, v, hint));
          } catch (PyException &) {
            return Value(natural);
          }
        }
        return Value(toTensor(in, v, dtype, scalar ? hint : std::nullopt));
      });
  // _as_outputs_of(tensors, op_name): in a graph, the tensors renamed as the
  // outputs 0, 1, ... of one op "<scope>/op_name" (the same values): what a
  // Keras layer whose TF implementation returns the outputs of a single
  // op (LSTM's function call, "lstm/PartitionedCall:2") traces to. Eagerly
  // the tensors as they are.
  def(in, *tf, "_as_outputs_of", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("_as_outputs_of", a, kw, {"tensors", "op_name"}, {});
    std::vector<Value> items = in.toList(args[0]);
    GraphScope *graph = nullptr;
    for (const Value &v : items)
      if (auto *t = v.as<TensorObject>(); t && t->symbolic() && !graph) graph = t->scope;
    if (!graph) return in.list(items);
    std::string node = graph->uniqueName(scopedName(in, in.str(args[1])));
    std::vector<Value> out;
    for (size_t k = 0; k < items.size(); ++k) {
      auto *t = items[k].as<TensorObject>();
      if (!t || !t->symbolic()) {
        out.push_back(items[k]);
        continue;
      }
      auto alias = make<TensorObject>();
      alias->sym = t->sym;
      alias->scope = t->scope;
      alias->name = fmt::format("{}:{}", node, k);
      alias->controlDeps = t->controlDeps;
      alias->kerasMask = t->kerasMask;
      alias->kerasLogits = t->kerasLogits;
      out.push_back(Value(alias));
    }
    return in.list(out);
  });
  // The library's dense-only check (a tf.Tensor or tf.Variable, not a numpy
  // array): its call sites mean "a dense tensor" (composites are handled by
  // name where they are accepted).
  def(in, *tf, "_is_dense_tensor", [](Interpreter &in, Args a, const Kwargs &kw) {
    auto args = in.bindArgs("_is_dense_tensor", a, kw, {"x"}, {});
    auto *t = args[0].as<TensorObject>();
    return Value::boolean((t && !t->numpy) || args[0].as<VariableObject>());
  });
  // TF 2.15: a tf.Tensor or tf.Variable, a composite tensor (tf.SparseTensor,
  // tf.RaggedTensor) or an object whose `is_tensor_like` is true (Keras's
  // KerasTensor); a numpy array is not.
  def(in, *tf, "is_tensor", [](Interpreter &in, Args a, const Kwargs &kw) {
    auto args = in.bindArgs("is_tensor", a, kw, {"x"}, {});
    const Value &x = args[0];
    auto *t = x.as<TensorObject>();
    if ((t && !t->numpy) || x.as<VariableObject>() || isComposite(x)) return Value::boolean(true);
    if (!x.as<InstanceObject>()) return Value::boolean(false);
    std::optional<Value> like = in.getAttrOpt(x, "is_tensor_like");
    return Value::boolean(like && in.truth(*like));
  });
  // The value when it is known without running a graph (an eager tensor, a
  // constant while tracing) as numpy; None for a symbolic tensor.
  def(in, *tf, "get_static_value", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("get_static_value", a, kw, {"tensor", "partial"}, {std::nullopt, Value::boolean(false)});
    if (auto *t = args[0].as<TensorObject>()) {
      std::optional<Tensor> value = staticValue(*t, /*tfOpsOnly=*/true);
      return value ? wrap(*value, true) : Value();
    }
    if (args[0].as<VariableObject>()) return Value();
    return wrap(tensorFromPython(in, args[0], std::nullopt, true), true);
  });
  // TF 2.15's dtypes.as_dtype: DTypes, DataType enum numbers, type names,
  // numpy dtypes and scalar types, Python float/bool/object, and anything with
  // a numpy-convertible `dtype` (arrays, tensors). Not None, int, str or
  // complex (tf.as_dtype(int) is TF's TypeError, though tfs's own dtype=
  // arguments accept those Python types).
  tf->scope->vars["as_dtype"] = nativeWithSignature(in, "as_dtype(type_value)", [](Interpreter &in, const Bound &b) -> Value {
    Value v = b["type_value"];
    auto refuse = [&]() -> Value {
      in.raise("TypeError", fmt::format("Cannot convert the argument `type_value`: {} to a TensorFlow DType.", in.repr(v)));
    };
    if (v.isNone()) return refuse();
    if (auto *c = v.as<ClassObject>()) {
      if (c->name == "object" && c->mro.size() == 1) return dtypeValue(DType::String);
      if (c->name == "int" || c->name == "str" || c->name == "complex") return refuse();
    }
    // numpy's object dtype (pandas' string columns, unique() of them) is
    // tf.string, as TF's _NP_TO_TF maps np.object_.
    auto isObjectDtype = [&](const Value &x) {
      std::string r = in.repr(x);
      return r == "dtype('O')" || r == "<class 'numpy.object_'>";
    };
    if (isObjectDtype(v)) return dtypeValue(DType::String);
    if (!v.as<StrObject>() && !v.as<ClassObject>() && !v.as<DTypeObject>() && !v.isInt())
      if (auto d = in.getAttrOpt(v, "dtype"); d && !d->isNone())
        return dtypeValue(isObjectDtype(*d) ? DType::String : *dtypeArg(in, *d));
    return dtypeValue(*dtypeArg(in, v));
  });
  defSig(in, *tf, "executing_eagerly()", [](Interpreter &in, const Bound &) {
    return Value::boolean(currentGraph(in) == nullptr);
  });
  // tf.inside_function(): building a tf.function's graph (not eager, not a
  // TF1 graph); compat.v1's executing_eagerly_outside_functions(): not in a
  // TF1 graph, whatever tf.function is being traced.
  defSig(in, *tf, "inside_function()", [](Interpreter &in, const Bound &) {
    GraphScope *g = currentGraph(in);
    return Value::boolean(g != nullptr && g->kind() == GraphScope::Kind::Function);
  });
  def(in, *tf, "Variable", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("Variable", a, kw, {"initial_value", "trainable", "validate_shape", "caching_device", "name", "variable_def", "dtype", "import_scope", "constraint", "synchronization", "aggregation", "shape"},
                            {Value(), Value::boolean(true), Value(), Value(), Value(), Value(), Value(), Value(), Value(), Value(), Value(), Value()});
    if (args[0].isNone()) in.raise("ValueError", "initial_value must be specified.");
    Value variable = makeVariable(in, args[0], dtypeArg(in, args[6]), args[4].isNone() ? "" : in.str(args[4]),
                                  in.truth(args[1]), ctx(in).v1Graph != nullptr);
    // A tf.distribute strategy's scope mirrors new variables (broadcast from
    // worker 0): its hooks run on each one made while it is entered.
    if (ctx(in).v1Graph == nullptr) {
      Value hooks = in.getAttr(importPreludeModule(in, "_tf_distribute_native"), "variable_creation_hooks");
      // (variable, synchronization, aggregation): a one-process
      // MirroredStrategy keeps the last two (how replicas update it).
      // A hook may answer with the variable to use instead (a replica's
      // creation shares the first replica's variable, as TF's
      // shared_variable_creator does).
      for (const Value &hook : in.toList(hooks)) {
        Value shared = in.call(hook, std::vector<Value>{variable, args[9], args[10]});
        if (!shared.isNone()) return shared;
      }
    }
    return variable;
  });
  // tf.Variable and tf.Tensor are classes (isinstance works on them).
  installTensorClasses(in);
  {
    // tf.Variable(...) called through the class runs the function above.
    Value ctor = tf->scope->vars["Variable"];
    ctx(in).variableClass->construct = [ctor](Interpreter &in, Args a, const Kwargs &kw) { return in.call(ctor, a, kw); };
    tf->scope->vars["Variable"] = ctx(in).variableClass;
    tf->scope->vars["Tensor"] = ctx(in).tensorClass;
  }
  defNativeTypeClass(in, *tf, "Graph", "Graph", "tensorflow.python.framework.ops",
                     [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
                       in.bindArgs("Graph", a, kw, {}, {});
                       return newGraph();
                     });
  // Operations come from graph building (graph.get_operations(), tensor.op).
  defNativeTypeClass(in, *tf, "Operation", "Operation", "tensorflow.python.framework.ops",
                     [](Interpreter &in, Args, const Kwargs &) -> Value {
                       in.raise("NotImplementedError", "constructing a tf.Operation directly (from a NodeDef) is not supported by tfs");
                     });
  defNativeTypeClass(in, *tf, "GradientTape", "GradientTape", "tensorflow.python.eager.backprop",
                     [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("GradientTape", a, kw, {"persistent", "watch_accessed_variables"}, {Value::boolean(false), Value::boolean(true)});
    auto t = make<TapeObject>(in.truth(args[0]));
    t->watchAccessed = in.truth(args[1]);
    return t;
  });
  tf->scope->vars["print"] = nativeWithSignature(
      in, "print(*inputs, output_stream=None, summarize=3, sep=' ', end=None, name=None)",
      [](Interpreter &in, const Bound &b) -> Value { tfPrint(in, b); return Value(); });
  Value assertFn = in.native("Assert", [](Interpreter &in, Args a, const Kwargs &kw) { return tfAssert(in, a, kw); });
  tf->scope->vars["Assert"] = assertFn;
  {
    auto debugging = submodule(in, *tf, "debugging");
    debugging->scope->vars["Assert"] = assertFn;
    debugging->lazy = [](Interpreter &in, const std::string &name) {
      return preludeApi(in, "_tf_debugging", "debugging_api", name);
    };
  }
  {
    // tf.test (lib/tf/test/_tf_test.tfs).
    auto test = submodule(in, *tf, "test");
    test->lazy = [](Interpreter &in, const std::string &name) { return preludeApi(in, "_tf_test", "test_api", name); };
  }
  tf->scope->vars["__version__"] = in.str("2.15.0");
  {
    auto version = submodule(in, *tf, "version");
    version->scope->vars["VERSION"] = in.str("2.15.0");
    // TF's core/public/version.h; the build's git and compiler versions and
    // the GraphDef version are left out (tensorflow.version.names).
    version->scope->vars["GRAPH_DEF_VERSION_MIN_CONSUMER"] = Value::integer(0);
    version->scope->vars["GRAPH_DEF_VERSION_MIN_PRODUCER"] = Value::integer(0);
  }
  // TF 2's name_scope(name); compat.v1's takes a default name and values.
  defSig(in, *tf, v1 ? "name_scope(name, default_name=None, values=None)" : "name_scope(name)",
         [v1](Interpreter &in, const Bound &a) -> Value {
           auto s = make<NameScopeObject>();
           Value name = a["name"];
           if (v1 && name.isNone()) name = a["default_name"];
           s->keep = name.isNone();  // None (v1 without a default): the current scope
           s->name = name.isNone() ? "" : in.str(name);
           return s;
         });
  defSig(in, *tf, "init_scope()", [](Interpreter &, const Bound &) -> Value { return make<InitScopeObject>(); });
  defNativeTypeClass(in, *tf, "TensorShape", "TensorShape", "tensorflow.python.framework.tensor_shape",
                     [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    in.bindArgs("TensorShape", a, kw, {"dims"}, {std::nullopt});
    if (a.empty() || a[0].isNone()) return make<TensorShapeObject>(ir::Shape::unranked());
    if (auto *s = a[0].as<TensorShapeObject>()) return make<TensorShapeObject>(s->shape);
    // TensorShape(3): a non-iterable dimension is a shape of rank 1.
    if (a[0].isInt()) return make<TensorShapeObject>(ir::Shape(std::vector<int64_t>{a[0].asInt()}));
    std::vector<int64_t> dims;
    for (auto &v : in.toList(a[0])) dims.push_back(v.isNone() ? -1 : in.toInt(v));
    return make<TensorShapeObject>(ir::Shape(dims));
  });
  installTensorSpec(in, *tf);
  for (ModuleObject *m : {random.get()}) {
    for (const char *n : {"normal", "uniform"}) {
      bool normal = std::string(n) == "normal";
      const char *sig = normal ? "normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None, name=None)"
                               : "uniform(shape, minval=0, maxval=None, dtype=None, seed=None, name=None)";
      m->scope->vars[n] = nativeWithSignature(in, sig, [normal](Interpreter &in, const Bound &args) -> Value {
        DType d = dtypeArg(in, args[3]).value_or(DType::Float32);
        if (!ir::isFloating(d) && d != DType::Int32 && d != DType::Int64)
          raiseTf(in, "ValueError",
                  fmt::format("Argument `dtype` got invalid value tf.{}. Accepted dtypes are (tf.float16, tf.bfloat16, "
                              "tf.float32, tf.float64, tf.int32, tf.int64).", ir::dtypeName(d)));
        if (normal && !ir::isFloating(d))
          raiseTf(in, "TypeError", fmt::format("Value for attr 'dtype' of {} is not in the list of allowed values: "
                                               "half, bfloat16, float, double", ir::dtypeName(d)));
        if (!normal && ir::isInteger(d) && args[2].isNone())
          raiseTf(in, "ValueError", fmt::format("Must specify maxval for integer dtype tf.{}", ir::dtypeName(d)));
        // TF's random_ops.py: [0, 1) draws are scaled by (maxval - minval)
        // and shifted by minval, in the dtype, unless the bounds are the
        // Python ints 0 and 1 (minval int 0: scaled only).
        ir::Attrs attrs{{"dtype", d}};
        if (normal) {
          attrs["mean"] = in.toFloat(args[1]);
          attrs["stddev"] = in.toFloat(args[2]);
        } else if (ir::isInteger(d)) {
          // A fractional Python bound does not convert to the integer dtype
          // (TF's convert_to_tensor TypeError); it was truncated.
          for (int i : {1, 2})
            if (args[i].isFloat() && args[i].asFloat() != std::floor(args[i].asFloat()))
              raiseTf(in, "TypeError", fmt::format("Cannot convert {} to EagerTensor of dtype {}", in.repr(args[i]),
                                                   ir::dtypeName(d)));
          attrs["minval"] = in.toInt(args[1]);
          attrs["maxval"] = in.toInt(args[2]);
          if (std::get<int64_t>(attrs["minval"]) >= std::get<int64_t>(attrs["maxval"]))
            raiseTf(in, "InvalidArgumentError",
                    eagerOpErrorMessage(fmt::format("Need minval < maxval, got {} >= {} [Op:RandomUniformInt]",
                                                    std::get<int64_t>(attrs["minval"]),
                                                    std::get<int64_t>(attrs["maxval"]))));
        } else {
          bool minZero = args[1].isInt() && in.toInt(args[1]) == 0;
          bool maxOne = args[2].isNone() || (args[2].isInt() && in.toInt(args[2]) == 1);
          attrs["minval"] = in.toFloat(args[1]);
          attrs["maxval"] = args[2].isNone() ? 1.0 : in.toFloat(args[2]);
          attrs["scaled"] = int64_t(!(minZero && maxOne));
          attrs["add_min"] = int64_t(!minZero);
        }
        // A shape computed at run time (tf.shape(x)) is the op's operand.
        std::vector<Ref<TensorObject>> xs;
        addShapeArg(xs, attrs, "shape", shapeArg(in, args[0], "shape"));
        if (const auto *dims = ir::attrInts(attrs, "shape"))
          for (int64_t dim : *dims)
            if (dim < 0) raiseTf(in, "InvalidArgumentError", fmt::format("Dimension {} must be >= 0", dim));
        return Value(statefulRandomOp(in, normal ? OpKind::RandomNormal : OpKind::RandomUniform, xs, attrs,
                                      args[4], normal ? "random_normal" : "random_uniform"));
      });
    }
    m->scope->vars["set_seed"] = nativeWithSignature(in, "set_seed(seed)", [](Interpreter &in, const Bound &a) {
      setGlobalSeed(in, a["seed"]);
      return Value();
    });
  }
  tf->scope->vars["set_random_seed"] = random->scope->vars["set_seed"];
  // tf.random.Generator and tf.random.experimental (lib/tf/random/_tf_random.tfs).
  random->lazy = [](Interpreter &in, const std::string &name) {
    return preludeApi(in, "_tf_random", "random_api", name);
  };
  installStrings(in, *strings);
  installStringHashes(in, *tf, *strings);
  installImageOps(in, *tf);
  installAudioOps(in, *tf);
  installPyFunction(in, *tf);
  installBitwise(in, *tf);

  installFunctionApi(in, *tf);
  // tf.types.experimental: the tracing protocol's classes (lib/tf/types/_tf_types.tfs).
  submodule(in, *submodule(in, *tf, "types"), "experimental")->lazy = [](Interpreter &in, const std::string &name) {
    return preludeApi(in, "_tf_types", "experimental_api", name);
  };
  submodule(in, *tf, "autodiff")->lazy = [](Interpreter &in, const std::string &name) {
    return preludeApi(in, "_tf_autodiff", "autodiff_api", name);
  };
  submodule(in, *tf, "nest")->lazy = [](Interpreter &in, const std::string &name) {
    return preludeApi(in, "_tf_nest", "nest_api", name);
  };
  submodule(in, *tf, "config")->lazy = [](Interpreter &in, const std::string &name) {
    return preludeApi(in, "_tf_config", "config_api", name);
  };
  installAutograph(in, *tf);
  installCompositeDispatch(in, *tf, *math, *nn, *strings);
  installCustomGradient(in, *tf);
  installSavedModel(in, *tf);
  installTfNumpy(in, *tf);
  // tf.experimental.ExtensionType and the type-based dispatch decorators
  // (lib/tf/extension_type/).
  submodule(in, *tf, "experimental")->lazy = [](Interpreter &in, const std::string &name) {
    if (auto f = preludeApi(in, "_tf_extension_type", "experimental_api", name)) return f;
    if (auto f = preludeApi(in, "_tf_extension_batch", "experimental_api", name)) return f;
    if (auto f = preludeApi(in, "_ragged_shape", "experimental_api", name)) return f;
    return preludeApi(in, "_tf_dispatch", "experimental_api", name);
  };
  // Converted code (AutoGraph) calls the operators of module `ag`.
  if (!in.builtins()->vars.count("ag__")) in.builtins()->vars["ag__"] = makeAgModule(in);

  // Composite functions of tf.math and tf.nn (prelude _tf_math).
  math->lazy = [](Interpreter &in, const std::string &name) {
    if (auto f = compositeApi(in, "math_api", name)) return f;
    if (auto f = preludeApi(in, "_tf_scatter", "math_api", name)) return f;
    if (auto f = preludeApi(in, "_tf_segment", "math_api", name)) return f;
    if (auto f = preludeApi(in, "_tf_sparse_segment", "math_api", name)) return f;
    if (auto f = preludeApi(in, "_tf_ops_more", "math_api", name)) return f;
    return preludeApi(in, "_tf_math_extra", "math_api", name);
  };
  nn->lazy = [](Interpreter &in, const std::string &name) -> std::optional<Value> {
    if (name == "compute_average_loss" || name == "scale_regularization_loss")
      return in.getAttr(importPreludeModule(in, "_tf_distribute"), name);
    if (auto f = compositeApi(in, "nn_api", name)) return f;
    if (auto f = preludeApi(in, "_tf_ops_extra", "nn_api", name)) return f;
    if (auto f = preludeApi(in, "_tf_nn_3d", "nn_api", name)) return f;
    if (auto f = preludeApi(in, "_tf_ops_more", "nn_api", name)) return f;
    if (auto f = preludeApi(in, "_tf_ctc", "nn_api", name)) return f;
    if (auto f = preludeApi(in, "_tf_nn_morph", "nn_api", name)) return f;
    if (auto f = preludeApi(in, "_tf_sampled_losses", "nn_api", name)) return f;
    return preludeApi(in, "_tf_math_extra", "nn_api", name);
  };
  // tf.linalg (prelude _tf_linalg); tf.gather_nd / slice / scatters /
  // roll / ... (prelude _tf_scatter); compat.v1's tf.matrix_* aliases.
  linalg->lazy = [](Interpreter &in, const std::string &name) {
    if (auto f = preludeApi(in, "_tf_linalg", "linalg_api", name)) return f;
    if (auto f = preludeApi(in, "_tf_linalg_lu", "linalg_api", name)) return f;
    // tf.linalg.LinearOperator and its subclasses (linalg/_tf_linear_operators.tfs).
    if (name.rfind("LinearOperator", 0) == 0)
      if (auto f = preludeApi(in, "_tf_linear_operators", "linalg_api", name)) return f;
    if (auto f = preludeApi(in, "_tf_ops_more", "linalg_api", name)) return f;
    return preludeApi(in, "_tf_math_extra", "linalg_api", name);
  };

  // Prelude-backed parts: tf.Module, tf.keras, tf.data, tf.cond/while_loop/map_fn/...
  Ref<ModuleObject> self = tf;
  tf->lazy = [v1](Interpreter &in, const std::string &name) { return tfModuleLazyAttr(in, name, v1); };
  (void)self;
  if (!v1) installKerasDispatch(in, *tf);
  if (!v1) noteTfImported();
  return tf;
}

void registerTfModules() {
  Interpreter::registerNativeModule("tensorflow", [](Interpreter &in) { return makeTfModule(in, false); });
  Interpreter::registerNativeModule("tensorflow.compat.v1", [](Interpreter &in) {
    Value v1 = makeTfModule(in, true);
    Value tf2 = in.importModule("tensorflow");
    installCompatV1(in, *v1.as<ModuleObject>(), *tf2.as<ModuleObject>());
    return v1;
  });
  Interpreter::registerNativeModule("numpy", [](Interpreter &in) { return makeNumpyModule(in); });
  io::registerIoInternal();
  Interpreter::registerNativeModule("_tf_distribute_native", makeDistributeNativeModule);
  // Native helpers of the prelude modules (not part of the tf API).
  Interpreter::registerNativeModule("_tf_internal", [](Interpreter &in) -> Value {
    auto m = make<ModuleObject>("_tf_internal");
    def(in, *m, "dataset_function", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      auto args = in.bindArgs("dataset_function", a, kw, {"func", "input_signature"}, {std::nullopt, Value()});
      return makeDatasetFunction(in, args[0], args[1]);
    });
    // Keras's functional construction traces a layer's call once
    // (engine/_keras_functional.tfs).
    def(in, *m, "scratch_function", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      auto args = in.bindArgs("scratch_function", a, kw, {"func", "input_signature"}, {std::nullopt, Value()});
      return makeScratchFunction(in, args[0], args[1]);
    });
    // tf.random.set_seed's global seed, None when unset (tf.data's random
    // sources refuse to draw a stream TF would make reproducible).
    m->scope->vars["global_seed"] = nativeWithSignature(in, "global_seed()", [](Interpreter &in, const Bound &) {
      int64_t seed = ctx(in).globalSeed;
      return seed >= 0 ? Value::integer(seed) : Value();
    });
    // tf.debugging.set_log_device_placement (debugging/_tf_debugging.tfs).
    m->scope->vars["set_log_device_placement"] =
        nativeWithSignature(in, "set_log_device_placement(enabled)", [](Interpreter &in, const Bound &a) {
          ctx(in).logDevicePlacement = in.truth(a["enabled"]);
          return Value();
        });
    // tf.map_fn and friends around their per-element calls (_tf_control.tfs).
    m->scope->vars["enter_unrolled"] = nativeWithSignature(in, "enter_unrolled(what)", [](Interpreter &in, const Bound &a) {
      enterUnrolledLoop(in, in.str(a["what"]));
      return Value();
    });
    m->scope->vars["exit_unrolled"] = nativeWithSignature(in, "exit_unrolled()", [](Interpreter &in, const Bound &) {
      exitUnrolledLoop(in);
      return Value();
    });
    // tf.data's shuffle draws (lib/tf/data/_tf_data.tfs).
    m->scope->vars["philox_words"] = nativeWithSignature(
        in, "philox_words(seed, seed2, start, count)", [](Interpreter &in, const Bound &a) {
          return philoxWords(in, in.toInt(a["seed"]), in.toInt(a["seed2"]), in.toInt(a["start"]), in.toInt(a["count"]));
        });
    m->scope->vars["philox_blocks"] = nativeWithSignature(
        in, "philox_blocks(rng, a, b, c, skip, count)", [](Interpreter &in, const Bound &a) {
          return philoxBlocks(in, in.toInt(a["rng"]), in.toInt(a["a"]), in.toInt(a["b"]), in.toInt(a["c"]),
                              in.toInt(a["skip"]), in.toInt(a["count"]));
        });
    // The seed pair of a tf.data random op (TF's data/util/random_seed.py
    // get_seed: (0, 0) when nothing is seeded, a nondeterministic stream).
    m->scope->vars["op_seeds"] = nativeWithSignature(in, "op_seeds(seed)", [](Interpreter &in, const Bound &a) {
      auto [s1, s2] = seeds(in, a["seed"]);
      return Value(make<TupleObject>(std::vector<Value>{Value::integer(s1), Value::integer(s2)}));
    });
    // The positional parameter names of a script function, for
    // tf.experimental.dispatch_for_api's matching of arguments to its
    // annotated parameters (lib/tf/extension_type/_tf_dispatch.tfs).
    m->scope->vars["param_names"] = nativeWithSignature(in, "param_names(fn)", [](Interpreter &in, const Bound &a) {
      const FunctionObject *fn = a["fn"].as<FunctionObject>();
      if (auto *bm = a["fn"].as<BoundMethod>()) fn = bm->func.as<FunctionObject>();
      std::vector<Value> names;
      const std::vector<ast::Param> *params = !fn ? nullptr : fn->def ? &fn->def->params
                                              : fn->lambda ? &fn->lambda->params : nullptr;
      if (params)
        for (auto &p : *params)
          if (p.kind == ast::Param::Kind::Positional) names.push_back(in.str(p.name));
      return in.list(std::move(names));
    });
    // tf.random.Generator's draws (lib/tf/random/_tf_random.tfs).
    m->scope->vars["generator_draw"] = nativeWithSignature(
        in, "generator_draw(kind, shape, state, dtype, a, b)", [](Interpreter &in, const Bound &a) {
          return generatorDraw(in, in.str(a["kind"]), a["shape"], a["state"],
                               dtypeArg(in, a["dtype"]).value_or(ir::DType::Float32), a["a"], a["b"]);
        });
    return Value(m);
  });
}

}  // namespace tfs::runtime::tf
