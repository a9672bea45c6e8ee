// The Python attributes of a ConcreteFunction: variables, graph (a tf.Graph
// the library makes of the trace: get_operations, get_tensor_by_name,
// as_graph_def), structured_input_signature and structured_outputs, as
// TF 2.15 reports them.
#include "runtime/tf/concrete_function.h"

#include "runtime/interp/builtins.h"
#include "runtime/interp/signature.h"
#include "runtime/tf/function_key.h"
#include "runtime/tf/function_variables.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tfs::runtime::tf {

namespace {

// tf.TensorSpec(shape, dtype, name) (the class is the library's).
Value tensorSpecValue(Interpreter &in, const ir::Shape &shape, DType dtype, const std::string &name) {
  Value tf = in.importModule("tensorflow");
  Value dims = Value();
  if (shape.ranked) {
    std::vector<Value> ds;
    for (int64_t d : shape.dims) ds.push_back(d < 0 ? Value() : Value::integer(d));
    dims = in.list(ds);
  }
  return in.call(in.getAttr(tf, "TensorSpec"),
                 std::vector<Value>{dims, dtypeValue(dtype), name.empty() ? Value() : in.str(name)});
}

// A namedtuple (a tuple subclass with _fields): its items, and through
// `rebuild` an instance of its class holding others (TF's nest rebuilds
// namedtuples as their own class).
const Value *namedTupleItems(const Value &v) {
  auto *inst = v.as<InstanceObject>();
  if (!inst || !inst->klass->lookup("_fields")) return nullptr;
  const Value *b = builtinPart(v);
  return b && b->as<TupleObject>() ? b : nullptr;
}

// The argument `v` as TF's structured_input_signature shows it: tensors
// as TensorSpecs (top-level ones named after the parameter), variables as
// VariableSpecs (alias ids numbering the call's distinct variables, in
// `variables`), lists and tuples item by item, other values as they are.
Value signatureOf(Interpreter &in, const Value &v, const std::string &name,
                  std::vector<const VariableObject *> &variables) {
  if (auto *t = v.as<TensorObject>()) return tensorSpecValue(in, t->shape(), t->dtype(), name);
  if (auto *var = v.as<VariableObject>()) {
    size_t alias = size_t(std::find(variables.begin(), variables.end(), var) - variables.begin());
    if (alias == variables.size()) variables.push_back(var);
    return variableSpecValue(in, var->shape, var->dtype, var->trainable, int64_t(alias));
  }
  if (isComposite(v)) return compositeSpec(in, v);
  if (v.as<ListObject>() || v.as<TupleObject>()) {
    std::vector<Value> items;
    for (const Value &x : in.toList(v)) items.push_back(signatureOf(in, x, "", variables));
    return v.as<ListObject>() ? in.list(items) : in.tuple(items);
  }
  if (const Value *fields = namedTupleItems(v)) {
    std::vector<Value> items;
    for (const Value &x : in.toList(*fields)) items.push_back(signatureOf(in, x, "", variables));
    return in.call(in.getAttr(v, "__class__"), items);
  }
  if (auto *d = v.as<DictObject>()) {
    // Alias ids in nestItems' order, the order the cache key numbers them.
    auto specs = make<DictObject>();
    for (auto &[k, x] : nestItems(*d)) specs->set(in, k, signatureOf(in, x, "", variables));
    auto out = make<DictObject>();
    for (auto &[k, x] : d->items()) out->set(in, k, *specs->get(in, k));
    return Value(out);
  }
  return v;
}

}  // namespace

// get_concrete_function's arguments: a tf.TensorSpec becomes a zero tensor
// of its dtype (unknown dimensions 1), its shape going to `shapes`; a
// tensor's own shape goes there too, so `shapes` lists every tensor
// argument in the order the trace meets them.
Value specToTensor(Interpreter &in, const Value &v, std::vector<ir::Shape> &shapes, bool &anySpec) {
  if (auto *t = v.as<TensorObject>()) {
    shapes.push_back(t->shape());
    return v;
  }
  if (auto *var = v.as<VariableObject>()) {  // listed like a tensor (see symbolize)
    shapes.push_back(var->shape);
    return v;
  }
  if (v.as<ListObject>() || v.as<TupleObject>()) {
    std::vector<Value> items;
    for (const Value &x : in.toList(v)) items.push_back(specToTensor(in, x, shapes, anySpec));
    return v.as<ListObject>() ? in.list(items) : in.tuple(items);
  }
  // A namedtuple of specs (tf.data's map over namedtuple elements): the
  // stand-in is an instance of the same class.
  if (const Value *fields = namedTupleItems(v)) {
    std::vector<Value> items;
    for (const Value &x : in.toList(*fields)) items.push_back(specToTensor(in, x, shapes, anySpec));
    return in.call(in.getAttr(v, "__class__"), items);
  }
  if (auto *d = v.as<DictObject>()) {
    // Shapes in nestItems' order, the order the trace's parameters take
    // (tf.data traces a map over a dict element this way); the stand-in
    // keeps the caller's key order.
    auto standIns = make<DictObject>();
    for (auto &[k, x] : nestItems(*d)) standIns->set(in, k, specToTensor(in, x, shapes, anySpec));
    auto out = make<DictObject>();
    for (auto &[k, x] : d->items()) out->set(in, k, *standIns->get(in, k));
    return Value(out);
  }
  // A dict subclass (make_csv_dataset's OrderedDict): the stand-in is an
  // instance of the same class holding the plain dict's stand-ins.
  if (v.as<InstanceObject>())
    if (const Value *base = builtinPart(v); base && base->as<DictObject>()) {
      Value plain = specToTensor(in, *base, shapes, anySpec);
      Value out = in.call(in.getAttr(v, "__class__"), {});
      for (auto &[k, x] : plain.as<DictObject>()->items()) in.setItem(out, k, x);
      return out;
    }
  // A tf.SparseTensorSpec / tf.RaggedTensorSpec: its stand-in (function_key.h).
  if (isCompositeSpec(in, v)) {
    anySpec = true;
    return compositePlaceholder(in, v);
  }
  if (!v.obj() || std::string_view(v.obj()->typeName()) != "TensorSpec") return v;
  anySpec = true;
  ir::Shape shape = in.getAttr(v, "shape").as<TensorShapeObject>()->shape;
  std::optional<DType> dtype = dtypeArg(in, in.getAttr(v, "dtype"));
  std::vector<int64_t> dims = shape.ranked ? shape.dims : std::vector<int64_t>{};
  for (auto &d : dims) if (d < 0) d = 1;
  shapes.push_back(shape);
  return wrap(filledTensor(dtype.value_or(DType::Float32), dims, 0.0));
}

Value inputSignatureOf(Interpreter &in, const std::vector<std::string> &names, const std::vector<Value> &args,
                       const Kwargs &kwargs) {
  std::vector<Value> positional;
  std::vector<const VariableObject *> variables;
  for (size_t i = 0; i < args.size(); ++i)
    positional.push_back(
        signatureOf(in, args[i], i < names.size() ? names[i] : fmt::format("args_{}", i), variables));
  auto keywords = make<DictObject>();
  for (const auto &[k, v] : kwargs) keywords->set(in, in.str(k), signatureOf(in, v, k, variables));
  return in.tuple({in.tuple(positional), Value(keywords)});
}

namespace {

// ConcreteFunction.function_type: TF's FunctionType, an inspect.Signature
// whose parameters are annotated with their type constraints; printed as
// inspect prints it, "(x: TensorSpec(...)) -> TensorSpec(...)".
Value atomicFunctionOf(ConcreteFunction &cf);  // below

struct FunctionTypeObject final : Object {
  std::vector<std::string> parameters;  // "name: constraint"
  std::string output;
  const char *typeName() const override { return "FunctionType"; }
  std::optional<std::string> str(Interpreter &) override {
    return fmt::format("({}) -> {}", fmt::join(parameters, ", "), output);
  }
  std::optional<std::string> repr(Interpreter &) override {
    std::vector<std::string> items;
    for (const std::string &p : parameters) items.push_back("<Parameter \"" + p + "\">");
    return fmt::format("FunctionType(parameters=[{}], captures=OrderedDict())", fmt::join(items, ", "));
  }
};

}  // namespace

std::optional<Value> ConcreteFunction::getAttr(Interpreter &in, const std::string &name) {
  if (name == "inference_fn") {
    return atomicFunctionOf(*this);
  }
  if (name == "function_type") {
    ConcreteSignature sig = printedSignature(in);
    auto t = make<FunctionTypeObject>();
    t->parameters = parameterTexts(sig);
    t->output = sig.output;
    return Value(t);
  }
  if (name == "variables" || name == "trainable_variables") {
    std::vector<Value> vs;
    for (auto &v : variables)
      if (name == "variables" || v->trainable) vs.push_back(Value(v));
    return in.tuple(vs);
  }
  if (name == "graph") {
    if (ctx(in).functionGraph) return ctx(in).functionGraph(in, scope);
    return Value(Ref<Object>(this));
  }
  if (name == "structured_input_signature") return inputSignature;
  // The graph's outputs, TF's Identity tensors of the returned values.
  if (name == "structured_outputs") {
    std::vector<Value> outs;
    for (size_t i = 0; i < outputTypes.size(); ++i) {
      auto t = make<TensorObject>();
      const ir::Node *ret = scope->function().body().nodes().back().get();
      t->sym = i < ret->numOperands() ? const_cast<ir::Value *>(ret->operand(unsigned(i))) : nullptr;
      t->scope = scope.get();
      t->name = i == 0 ? "Identity" : fmt::format("Identity_{}", i);
      if (!t->sym) return Value();
      outs.push_back(Value(t));
    }
    return rebuildOutputs(in, outputStructure, outs);
  }
  // The traced outputs' shapes and dtypes in the output structure (tf.data
  // derives a map()'s element_spec from them).
  // A composite output gives its TypeSpec's shape and dtype;
  // _tfs_output_specs is the structure of TensorSpecs and composite specs
  // (Keras's symbolic call makes its KerasTensors of them).
  if (name == "output_shapes" || name == "output_dtypes") {
    std::vector<Value> leaves;
    for (auto &t : outputTypes)
      leaves.push_back(name == "output_shapes" ? Value(make<TensorShapeObject>(t.shape)) : dtypeValue(t.dtype));
    return outputSpecStructure(in, outputStructure, leaves, name == "output_shapes" ? "shape" : "dtype");
  }
  if (name == "_tfs_output_specs") {
    std::vector<Value> leaves;
    for (auto &t : outputTypes) leaves.push_back(tensorSpecValue(in, t.shape, t.dtype, ""));
    return outputSpecStructure(in, outputStructure, leaves, nullptr);
  }
  if (name == "pretty_printed_signature")
    return nativeWithSignature(in, "pretty_printed_signature(verbose=True)",
                               [self = Ref<ConcreteFunction>(this)](Interpreter &in, const Bound &b) -> Value {
      return in.str(self->prettySignature(in, in.truth(b["verbose"])));
    });
  return std::nullopt;
}

namespace {

void tensorLeaves(Interpreter &in, const Value &v, std::vector<const TensorObject *> &out,
                  std::vector<Value> &keep) {
  if (auto *t = v.as<TensorObject>()) {
    out.push_back(t);
  } else if (v.as<ListObject>() || v.as<TupleObject>()) {
    for (const Value &x : in.toList(v)) tensorLeaves(in, x, out, keep);
  } else if (auto *d = v.as<DictObject>()) {
    // In the order symbolize made the parameters (tf.nest's).
    for (auto &[k, x] : nestItems(*d)) tensorLeaves(in, x, out, keep);
  } else if (isComposite(v)) {
    // Its component tensors, the trace's parameters (kept alive here).
    keep.push_back(compositeComponents(in, v));
    tensorLeaves(in, keep.back(), out, keep);
  }
}

// TF binds a call to a concrete function against its traced signature
// (FunctionType.bind_with_defaults): a parameter traced with a Python value
// is a Literal constraint the argument must equal, or the call is a
// TypeError; a parameter left out takes its traced value. (Tensor
// arguments are checked by dtype and shape after this.)
void checkTracedLiterals(Interpreter &in, const ConcreteFunction &cf, Args args, const Kwargs &kwargs) {
  std::vector<std::pair<std::string, Value>> given;
  for (size_t i = 0; i < args.size() && i < cf.paramNames.size(); ++i) given.emplace_back(cf.paramNames[i], args[i]);
  for (const auto &[k, v] : kwargs) given.emplace_back(k, v);
  for (const auto &[name, v] : given) {
    std::vector<const ArgSpec *> traced;
    for (const ArgSpec &s : cf.argSpecs)
      if (s.name == name || s.name.rfind(name + "[", 0) == 0) traced.push_back(&s);
    std::vector<ArgSpec> now = describeArgs(in, {name}, {v}, {});
    for (size_t i = 0; i < traced.size(); ++i) {
      const ArgSpec &want = *traced[i];
      if (want.kind != ArgSpec::Kind::Python) continue;
      bool same = i < now.size() && now[i].name == want.name && now[i].kind == ArgSpec::Kind::Python &&
                  now[i].text == want.text;
      if (!same) {
        std::string got = i < now.size() && now[i].name == want.name && now[i].kind == ArgSpec::Kind::Python
                              ? now[i].text
                              : in.repr(v);
        in.raise("TypeError", fmt::format("Binding inputs to tf.function failed due to `Can not cast {} to {}`.",
                                          got, literalText(want)));
      }
    }
  }
}

}  // namespace

// Calling a concrete function: Python arguments must equal the traced ones;
// its tensor arguments must match the traced parameters (dtype, and shapes
// compatible with the traced ones).
namespace {

// The call after its Python arguments are checked: the tensors, in order,
// against the traced parameters.
Value callWithTensors(Interpreter &in, ConcreteFunction &cf, Args args, const Kwargs &kwargs) {
  std::vector<Ref<TensorObject>> converted;
  std::vector<const TensorObject *> leaves;
  std::vector<Value> kept;
  for (const Value &a : args) {
    if (auto *t = a.as<TensorObject>(); t && t->numpy) {
      converted.push_back(toTensor(in, a));
      leaves.push_back(converted.back().get());
      continue;
    }
    tensorLeaves(in, a, leaves, kept);
  }
  for (const auto &[k, v] : kwargs) tensorLeaves(in, v, leaves, kept);
  const auto &params = cf.scope->function().params();
  if (leaves.size() != params.size())
    in.raise("TypeError", fmt::format("{} takes {} tensor argument(s) but {} were given", cf.info.function,
                                      params.size(), leaves.size()));
  std::vector<Tensor> tensors;
  for (size_t i = 0; i < leaves.size(); ++i) {
    const ir::TensorType &want = params[i]->type;
    if (leaves[i]->symbolic())
      in.raise("NotImplementedError", "calling a ConcreteFunction while tracing is not supported by tfs; call the tf.function");
    if (leaves[i]->dtype() != want.dtype || !want.shape.isCompatibleWith(leaves[i]->shape()))
      raiseTf(in, "InvalidArgumentError",
              fmt::format("Tensor {}: expected {}, got {}", cf.scope->nameOf(params[i]),
                          tensorSpecText(want.shape, want.dtype), tensorSpecText(leaves[i]->shape(), leaves[i]->dtype())));
    tensors.push_back(leaves[i]->eager);
  }
  if (!ctx(in).tapes.empty())
    in.raise("NotImplementedError", "calling a ConcreteFunction under a GradientTape is not supported by tfs; "
                                    "call the tf.function instead");
  // Variable arguments: the variables passed, of the traced specs.
  BoundVariables bound(variableBindings(in, cf, args, kwargs));
  std::vector<Tensor> results = cf.executable(in.profiler()).run(in, tensors);
  std::vector<Value> outs;
  for (auto &r : results) outs.push_back(wrap(std::move(r)));
  return rebuildOutputs(in, cf.outputStructure, outs);
}

// ConcreteFunction.inference_fn: TF's AtomicFunction, the traced graph
// called with its flat tensor inputs (no Python-argument binding).
struct AtomicFunctionObject final : Object {
  Ref<ConcreteFunction> cf;
  const char *typeName() const override { return "AtomicFunction"; }
  std::optional<Value> call(Interpreter &in, Args args, const Kwargs &kwargs) override {
    if (!kwargs.empty()) in.raise("TypeError", "an AtomicFunction takes its tensor inputs positionally");
    return callWithTensors(in, *cf, args, {});
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    if (name == "name") return in.str(cf->info.function);
    if (name == "function_type" || name == "graph") return cf->getAttr(in, name);
    return std::nullopt;
  }
};

Value atomicFunctionOf(ConcreteFunction &cf) {
  auto f = make<AtomicFunctionObject>();
  f->cf = Ref<ConcreteFunction>(&cf);
  return Value(f);
}

}  // namespace

std::optional<Value> ConcreteFunction::call(Interpreter &in, Args args, const Kwargs &kwargs) {
  checkTracedLiterals(in, *this, args, kwargs);
  return callWithTensors(in, *this, args, kwargs);
}


std::string ConcreteFunction::prettySignature(Interpreter &in, bool verbose) const {
  if (!verbose) {
    std::string r = concreteFunctionRepr(printedSignature(in), this);  // "<ConcreteFunction SIG at 0x...>"
    const std::string prefix = "<ConcreteFunction ";
    size_t at = r.rfind(" at 0x");
    return r.substr(prefix.size(), at - prefix.size());
  }
  std::string s = concreteFunctionStr(printedSignature(in));
  const std::string prefix = "ConcreteFunction ";
  return s.rfind(prefix, 0) == 0 ? s.substr(prefix.size()) : s;
}

}  // namespace tfs::runtime::tf
