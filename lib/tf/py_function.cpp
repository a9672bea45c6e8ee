// tf.py_function / tf.numpy_function (TF 2.15's script_ops.py): a Python
// function inside TF code. Eagerly it is called at once (py_function's
// tensor arguments on the active tapes, so gradients flow through the ops it
// runs; numpy_function's arrays break that link, as TF's is not
// differentiable). While tracing it becomes a py_function node whose
// kernel calls back into the interpreter each time the graph runs, on both
// backends; results are converted to Tout.
#include "lib/tf/py_function.h"
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"
#include "runtime/kernels/host_callback.h"
#include "runtime/tf/function_variables.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

struct OutputTypes {
  std::vector<DType> dtypes;
  bool list = false;  // Tout was a list or tuple: the result is a list
};

OutputTypes outputTypes(Interpreter &in, const Value &tout) {
  OutputTypes t;
  if (tout.isNone()) in.raise("TypeError", "Tout must be a tf.DType or a list of them, not None");
  t.list = tout.as<ListObject>() || tout.as<TupleObject>();
  std::vector<Value> items = t.list ? in.toList(tout) : std::vector<Value>{tout};
  for (auto &v : items) {
    auto d = dtypeArg(in, v);
    if (!d) in.raise("TypeError", fmt::format("Tout entries must be tf.DTypes, got {}", in.repr(v)));
    t.dtypes.push_back(*d);
  }
  return t;
}

// The function's return value as the op's outputs, converted to Tout.
std::vector<Ref<TensorObject>> convertResults(Interpreter &in, const Value &r, const OutputTypes &types) {
  std::vector<Value> items;
  if (types.list) {
    if (r.isNone()) items = {};
    else if (r.as<ListObject>() || r.as<TupleObject>()) items = in.toList(r);
    else items = {r};
  } else {
    items = {r};
  }
  if (items.size() != types.dtypes.size())
    raiseTf(in, "InvalidArgumentError",
            fmt::format("The Python function returned {} values, but Tout lists {}", items.size(), types.dtypes.size()));
  std::vector<Ref<TensorObject>> out;
  for (size_t i = 0; i < items.size(); ++i) {
    auto t = toTensor(in, items[i], types.dtypes[i]);
    if (t->dtype() != types.dtypes[i])
      raiseTf(in, "InvalidArgumentError",
              fmt::format("{}-th value returned by pyfunc is {}, but expects {}", i, ir::dtypeName(t->dtype()),
                          ir::dtypeName(types.dtypes[i])));
    out.push_back(t);
  }
  return out;
}

int64_t registerCallback(Interpreter &in, const Value &func, const OutputTypes &types, bool numpy);

Value callPython(Interpreter &in, const Value &func, const Value &inp, const Value &tout, bool numpy,
                 const std::string &name = "") {
  OutputTypes types = outputTypes(in, tout);
  std::vector<Value> args;
  if (!inp.isNone()) {
    bool seq = inp.as<ListObject>() || inp.as<TupleObject>();
    for (auto &v : seq ? in.toList(inp) : std::vector<Value>{inp})
      args.push_back(v.as<VariableObject>() && !numpy ? v : Value(toTensor(in, v)));
  }
  auto finish = [&](std::vector<Ref<TensorObject>> outs) -> Value {
    std::vector<Value> vals(outs.begin(), outs.end());
    if (types.list) return in.list(vals);
    return vals[0];
  };
  if (!currentGraph(in)) {
    std::vector<Value> callArgs;
    for (auto &a : args) {
      auto *t = a.as<TensorObject>();
      callArgs.push_back(numpy && t ? wrap(t->eager, true) : a);
    }
    return finish(convertResults(in, in.call(func, callArgs), types));
  }
  std::vector<int64_t> toutCodes;
  for (DType d : types.dtypes) toutCodes.push_back(int64_t(d));
  std::vector<Ref<TensorObject>> inputs;
  for (auto &a : args) inputs.push_back(toTensor(in, a));
  ir::Attrs attrs{{"callback", registerCallback(in, func, types, numpy)}, {"Tout", toutCodes}};
  return finish(callOp(in, OpKind::PyFunction, inputs, attrs, !name.empty() ? name : numpy ? "PyFunc" : "EagerPyFunc"));
}

}  // namespace

namespace {
// The Python callable behind each py_function callback id (a SavedModel
// asks which callbacks are table kernels it can keep).
std::unordered_map<int64_t, Value> &callables() {
  static std::unordered_map<int64_t, Value> table;
  return table;
}
}  // namespace

std::optional<Value> pyFunctionCallable(int64_t id) {
  auto it = callables().find(id);
  if (it == callables().end()) return std::nullopt;
  return it->second;
}

int64_t registerPyFunction(Interpreter &in, const Value &func, const std::vector<DType> &dtypes) {
  OutputTypes types;
  types.dtypes = dtypes;
  types.list = dtypes.size() != 1;
  return registerCallback(in, func, types, false);
}

namespace {

int64_t registerCallback(Interpreter &in, const Value &func, const OutputTypes &types, bool numpy) {
  Interpreter *ip = &in;
  HostCallback callback = [ip, func, types, numpy](std::span<const Tensor> xs) {
    Interpreter &in = *ip;
    // The Python function runs outside the calling tf.function's variable
    // arguments' bindings (its own captures are the variables themselves),
    // and eagerly, as TF runs it: in a v1 Session's run too, where the
    // default graph would otherwise turn its ops into graph nodes (a trace
    // it starts, of a dataset's map function, still builds its own graph).
    UnboundVariables unbound;
    struct OutsideV1Graph {
      TfContext &c;
      GraphScope *saved;
      explicit OutsideV1Graph(TfContext &c) : c(c), saved(c.v1Graph) { c.v1Graph = nullptr; }
      ~OutsideV1Graph() { c.v1Graph = saved; }
    } eagerly(ctx(in));
    std::vector<Value> callArgs;
    for (const Tensor &x : xs) callArgs.push_back(wrap(x, numpy));
    std::vector<Tensor> out;
    for (auto &t : convertResults(in, in.call(func, callArgs), types)) out.push_back(t->eager);
    return out;
  };
  int64_t id = registerHostCallback(callback);
  callables()[id] = func;
  return id;
}

Value bindOrCall(Interpreter &in, const Bound &a, bool numpy) {
  Value inp = a["inp"], tout = a["Tout"];
  if (a.isNone("func")) {
    // Decorator use: @tf.py_function(Tout=...) calls with the arguments as inp.
    return in.native(numpy ? "numpy_function" : "py_function", [tout, numpy](Interpreter &in, Args f, const Kwargs &) {
      Value func = f[0];
      return in.native(in.str(in.getAttr(func, "__name__")), [func, tout, numpy](Interpreter &in, Args args, const Kwargs &) {
        return callPython(in, func, in.list(std::vector<Value>(args.begin(), args.end())), tout, numpy);
      });
    });
  }
  return callPython(in, a["func"], inp, tout, numpy, a.isNone("name") ? "" : in.str(a["name"]));
}

}  // namespace

void installPyFunction(Interpreter &in, ModuleObject &tf) {
  tf.scope->vars["py_function"] = nativeWithSignature(
      in, "py_function(func=None, inp=None, Tout=None, name=None)",
      [](Interpreter &in, const Bound &a) { return bindOrCall(in, a, false); });
  tf.scope->vars["numpy_function"] = nativeWithSignature(
      in, "numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None)",
      [](Interpreter &in, const Bound &a) { return bindOrCall(in, a, true); });
}

}  // namespace tfs::runtime::tf
