// tf.function: the trace cache (keys like TF: tensors by dtype and shape,
// Python values by value, objects by identity; or the input_signature),
// tracing the (AutoGraph-converted) Python function into a GraphScope with
// symbolic arguments named after the parameters, running the graph on the
// backend, get_concrete_function, and variable creation rules (a second
// trace when the first created variables, as TF does).
#include "autograph/autograph.h"
#include "codegen/codegen.h"
#include "frontend/library_span.h"
#include "ir/text.h"
#include "runtime/autodiff/function_gradient.h"
#include "runtime/interp/signature.h"
#include "runtime/tf/autograph_convert.h"
#include "runtime/tf/concrete_function.h"
#include "runtime/tf/executable.h"
#include "runtime/tf/function_args.h"
#include "runtime/tf/function_key.h"
#include "runtime/tf/function_nested.h"
#include "runtime/tf/function_variables.h"
#include "runtime/tf/function_wrappers.h"
#include "runtime/tf/shape_relations.h"
#include "runtime/tf/tf.h"
#include "runtime/tf/trace_report.h"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <llvm/ADT/SmallVector.h>
#include <functional>
#include <memory>

namespace tfs::runtime::tf {

thread_local int variablesCreated = 0;

namespace {

// Concrete functions by cache key (binary text, see keyOf), looked up by
// string_view without building a std::string.
struct KeyHash {
  using is_transparent = void;
  size_t operator()(std::string_view k) const { return std::hash<std::string_view>()(k); }
};
using TraceCache = std::unordered_map<std::string, Ref<ConcreteFunction>, KeyHash, std::equal_to<>>;

// A trace of a reduce_retracing function: the call's key without tensor
// shapes (its "skeleton"), the shapes it was traced with, and the function.
struct RelaxedTrace {
  std::string skeleton;  // composites keyed by class and dtypes only
  std::vector<ir::Shape> shapes;
  // The TypeSpecs of its composite arguments (a SparseTensorSpec with
  // unknown dims admits any SparseTensor of that rank, as in TF).
  std::vector<Value> compositeSpecs;
  Ref<ConcreteFunction> cf;
};

struct FunctionWrapper final : Object, CycleTracked {
  Value pyFunc;
  Value self;  // bound instance (methods)
  bool autograph = true;
  bool hasSignature = false;
  // tf.data's map/filter functions: always traced; run_functions_eagerly
  // does not apply to them in TF either.
  bool graphOnly = false;
  // Keras's scratch-graph trace of a layer's call (functional API
  // construction): traced once, variables created in it kept, no retrace.
  bool singleTrace = false;
  std::vector<std::pair<ir::Shape, DType>> signature;
  // The input_signature's specs; a composite's (tf.SparseTensorSpec,
  // tf.RaggedTensorSpec) is traced through its stand-in, a dense one by
  // `signature`'s shape and dtype.
  std::vector<Value> signatureSpecs;
  bool compositeAt(size_t i) const { return i < signatureSpecs.size() && isCompositeAt[i]; }
  std::vector<bool> isCompositeAt;
  // An entry that is a tuple/list/dict of TensorSpecs (a tf.data
  // element_spec, say): its leaves in tf.nest order; empty for the others.
  std::vector<std::vector<std::pair<ir::Shape, DType>>> nestedLeaves;
  std::vector<bool> isNestedAt;
  bool nestedAt(size_t i) const { return i < isNestedAt.size() && isNestedAt[i]; }
  // The dense entries' shapes: the traced shapes of the tensor parameters.
  std::vector<ir::Shape> denseSignatureShapes() const {
    std::vector<ir::Shape> shapes;
    for (size_t i = 0; i < signature.size(); ++i) {
      if (nestedAt(i))
        for (auto &leaf : nestedLeaves[i]) shapes.push_back(leaf.first);
      else if (!compositeAt(i))
        shapes.push_back(signature[i].first);
    }
    return shapes;
  }
  std::string name;
  std::shared_ptr<TraceCache> cache = std::make_shared<TraceCache>();
  // tf.function(reduce_retracing=True): traces over relaxed shapes.
  bool reduceRetracing = false;
  std::shared_ptr<std::vector<RelaxedTrace>> relaxedTraces = std::make_shared<std::vector<RelaxedTrace>>();
  std::shared_ptr<int> tracingCount = std::make_shared<int>(0);
  // Arguments with TF trace types (function_key.h): the types seen, and the
  // traces made for them, which a call whose types are subtypes of a trace's
  // runs (TF's TypeDispatchTable).
  struct TypedTrace {
    std::string skeleton;
    std::vector<Value> types;
    Ref<ConcreteFunction> cf;
  };
  std::shared_ptr<TraceTypeTable> traceTypes = std::make_shared<TraceTypeTable>();
  std::shared_ptr<std::vector<TypedTrace>> typedTraces = std::make_shared<std::vector<TypedTrace>>();
  const TypedTrace *dispatchTyped(Interpreter &in, const std::string &skeleton, const std::vector<Value> &types) const;
  Ref<ConcreteFunction> lastTrace;  // the newest trace (retrace reasons compare with it)
  std::string retraceNote;          // why the next trace happens (set by concrete())
  // The traces kept, oldest first (pretty_printed_concrete_signatures).
  std::shared_ptr<std::vector<Ref<ConcreteFunction>>> traces = std::make_shared<std::vector<Ref<ConcreteFunction>>>();
  // Per-instance caches for methods (keyed by the instance).
  std::shared_ptr<std::unordered_map<const Object *, Ref<FunctionWrapper>>> bound =
      std::make_shared<std::unordered_map<const Object *, Ref<FunctionWrapper>>>();

  const char *typeName() const override { return "Function"; }
  // A method's wrapper, its per-instance copies and the instances form cycles.
  void clearReferences() override {
    pyFunc = Value();
    self = Value();
    lastTrace = Ref<ConcreteFunction>();
    bound->clear();
    cache->clear();
    relaxedTraces->clear();
    traces->clear();
    traceTypes->numbers = make<DictObject>();
    traceTypes->types.clear();
    typedTraces->clear();
    lastConcrete = nullptr;
  }
  std::optional<Value> bind(Interpreter &, const Value &inst) override {
    auto it = bound->find(inst.obj());
    if (it != bound->end()) return Value(it->second);
    auto b = make<FunctionWrapper>(*this);
    b->self = inst;
    b->cache = std::make_shared<TraceCache>();
    b->relaxedTraces = std::make_shared<std::vector<RelaxedTrace>>();
    b->traceTypes = std::make_shared<TraceTypeTable>();
    b->typedTraces = std::make_shared<std::vector<TypedTrace>>();
    b->traces = std::make_shared<std::vector<Ref<ConcreteFunction>>>();
    // TF makes a Function per instance (Function.__get__): its own tracing
    // count, and its first trace may create variables.
    b->tracingCount = std::make_shared<int>(0);
    b->lastTrace = Ref<ConcreteFunction>();
    b->lastConcrete = nullptr;
    b->lastArgsEager = false;
    (*bound)[inst.obj()] = b;
    return Value(b);
  }
  std::optional<Value> call(Interpreter &in, Args args, const Kwargs &kwargs) override;
  // The loop calling a tf.function again with tensors of the last call's
  // dtypes and shapes, one tensor result, nothing recording or tracing:
  // that call's concrete function runs without the general path's
  // conversions, key and output rebuilding. nullopt: take the general path.
  std::optional<Value> callLikeLast(Interpreter &in, Args args, const Kwargs &kwargs);
  [[gnu::noinline]] std::optional<Value> callGeneral(Interpreter &in, Args args, const Kwargs &kwargs);
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override;
  // `specShapes`: get_concrete_function's TensorSpec shapes of the tensor
  // arguments (in argument order), which the trace takes for its parameters.
  Ref<ConcreteFunction> concrete(Interpreter &in, std::span<const Value> args, const Kwargs &kwargs,
                                 const std::vector<ir::Shape> *specShapes = nullptr);
  // The last key looked up and its function: a loop calling with the same
  // argument types skips the hash lookup.
  std::string lastKey;
  Ref<ConcreteFunction> lastConcrete;
  // When that call's arguments were all eager tensors (no keywords): their
  // dtypes and shapes, which are all its key says of them. A call with
  // tensors of the same dtypes and shapes reuses lastConcrete without
  // building its key (the common loop calling a tf.function).
  struct EagerArg {
    DType dtype;
    std::vector<int64_t> dims;
  };
  std::vector<EagerArg> lastEagerArgs;
  bool lastArgsEager = false;
  void setLast(std::string_view key, const Ref<ConcreteFunction> &cf, std::span<const Value> args,
               const Kwargs &kwargs) {
    lastKey = key;
    lastConcrete = cf;
    lastArgsEager = kwargs.empty();
    lastEagerArgs.resize(args.size());
    for (size_t i = 0; lastArgsEager && i < args.size(); ++i) {
      auto *t = args[i].as<TensorObject>();
      if (!t || t->symbolic()) lastArgsEager = false;
      else lastEagerArgs[i] = {t->dtype(), t->eager.shape()};
    }
  }
  bool matchesLastEagerArgs(std::span<const Value> args, const Kwargs &kwargs) const {
    if (!lastArgsEager || !kwargs.empty() || args.size() != lastEagerArgs.size()) return false;
    for (size_t i = 0; i < args.size(); ++i) {
      auto *t = args[i].as<TensorObject>();
      if (!t || t->symbolic() || t->dtype() != lastEagerArgs[i].dtype || t->eager.shape() != lastEagerArgs[i].dims)
        return false;
    }
    return true;
  }
  // Zero tensors matching the input_signature (unknown dimensions 1): the
  // trace relaxes them back to the signature's shapes.
  std::vector<Value> signatureArgs(Interpreter &in) const {
    std::vector<Value> args;
    for (size_t i = 0; i < signature.size(); ++i) {
      if (compositeAt(i)) {
        args.push_back(compositePlaceholder(in, signatureSpecs[i]));
        continue;
      }
      if (nestedAt(i)) {
        args.push_back(packToSpec(in, signatureSpecs[i], std::nullopt).value());
        continue;
      }
      const auto &[shape, dtype] = signature[i];
      std::vector<int64_t> dims = shape.ranked ? shape.dims : std::vector<int64_t>{};
      for (auto &d : dims) if (d < 0) d = 1;
      auto t = make<TensorObject>();
      t->eager = filledTensor(dtype, dims, 0.0);
      args.push_back(Value(t));
    }
    return args;
  }
  Ref<ConcreteFunction> trace(Interpreter &in, const std::vector<Value> &args, const Kwargs &kwargs, bool allowCreation,
                              int &created, const std::vector<ir::Shape> *relaxedShapes);
  const RelaxedTrace *dispatchRelaxed(Interpreter &in, const std::string &skeleton, const std::vector<ir::Shape> &shapes,
                                      const std::vector<Value> &composites) const;
};

size_t knownDims(const std::vector<ir::Shape> &shapes) {
  size_t n = 0;
  for (auto &s : shapes)
    if (s.ranked) n += 1 + size_t(std::count_if(s.dims.begin(), s.dims.end(), [](int64_t d) { return d >= 0; }));
  return n;
}

}  // namespace


// TF's dispatch: the most specific relaxed trace whose shapes admit the call's.
const RelaxedTrace *FunctionWrapper::dispatchRelaxed(Interpreter &in, const std::string &skeleton,
                                                     const std::vector<ir::Shape> &shapes,
                                                     const std::vector<Value> &composites) const {
  const RelaxedTrace *best = nullptr;
  for (const RelaxedTrace &r : *relaxedTraces) {
    if (r.skeleton != skeleton || r.compositeSpecs.size() != composites.size()) continue;
    bool admits = true;
    for (size_t i = 0; admits && i < shapes.size(); ++i) admits = isSupertypeOf(r.shapes[i], shapes[i]);
    for (size_t i = 0; admits && i < composites.size(); ++i)
      admits = in.truth(in.call(in.getAttr(r.compositeSpecs[i], "is_compatible_with"), std::vector<Value>{composites[i]}));
    if (admits && (!best || knownDims(r.shapes) > knownDims(best->shapes))) best = &r;
  }
  return best;
}

Ref<ConcreteFunction> FunctionWrapper::trace(Interpreter &in, const std::vector<Value> &args, const Kwargs &kwargs,
                                             bool allowCreation, int &created,
                                             const std::vector<ir::Shape> *relaxedShapes) {
  TfContext &c = ctx(in);
  PhaseTimer timer(in.profiler(), Phase::Trace);
  auto cf = make<ConcreteFunction>();
  cf->scope = std::make_shared<GraphScope>(GraphScope::Kind::Function, name);
  GraphScope &g = *cf->scope;
  std::vector<std::string> names = paramNames(pyFunc);
  size_t offset = self.isNone() ? 0 : 1;
  cf->argSpecs = describeArgs(in, std::vector<std::string>(names.begin() + long(std::min(offset, names.size())), names.end()),
                              args, kwargs);
  for (auto &a : args) identityKeyed(in, a, cf->identityKeyedArgs);
  for (auto &[k, v] : kwargs) identityKeyed(in, v, cf->identityKeyedArgs);
  std::vector<Value> symArgs;
  std::vector<ir::Shape> sigShapes = denseSignatureShapes();
  // The trace is over the signature's (or the relaxed) shapes, not the
  // stand-in arguments': print(concrete_fn) and the trace header say so.
  if (const std::vector<ir::Shape> *traced = relaxedShapes ? relaxedShapes : hasSignature ? &sigShapes : nullptr) {
    size_t k = 0;
    for (ArgSpec &spec : cf->argSpecs) {
      if (spec.kind == ArgSpec::Kind::Variable && k < traced->size() && !hasSignature) {
        spec.shape = (*traced)[k++];
        spec.text = variableSpecText(spec.shape, spec.dtype, spec.trainable, spec.aliasId);
      } else if (spec.kind == ArgSpec::Kind::Tensor && k < traced->size()) {
        spec.shape = (*traced)[k++];
      }
    }
  }
  size_t sigIndex = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string pname = i + offset < names.size() ? names[i + offset] : fmt::format("args_{}", i);
    // A named TensorSpec of the input_signature names its placeholder (TF's _user_specified_name), which a
    // SavedModel signature takes as its input key: Keras's serving_default takes `dense_input`, not `args_0`.
    if (hasSignature && i < signatureSpecs.size() && !compositeAt(i) && !nestedAt(i))
      if (in.typeName(signatureSpecs[i]) == "TensorSpec")
        if (Value n = in.getAttr(signatureSpecs[i], "name"); n.as<StrObject>() && !in.str(n).empty()) pname = in.str(n);
    symArgs.push_back(symbolize(in, args[i], g, pname, cf->argVariables,
                                relaxedShapes ? relaxedShapes : hasSignature ? &sigShapes : nullptr, sigIndex));
  }
  Kwargs symKw;
  for (auto &[k, v] : kwargs) symKw.emplace_back(k, symbolize(in, v, g, k, cf->argVariables, relaxedShapes, sigIndex));
  {
    std::vector<std::string> params(names.begin() + long(std::min(offset, names.size())), names.end());
    cf->inputSignature = inputSignatureOf(in, params, symArgs, symKw);
    cf->paramNames = params;
    if (relaxedShapes && !reduceRetracing) cf->argSpecs = describeArgs(in, params, symArgs, symKw);
  }
  std::vector<Value> callArgs;
  if (!self.isNone()) callArgs.push_back(self);
  callArgs.insert(callArgs.end(), symArgs.begin(), symArgs.end());

  c.graphs.push_back(&g);
  ++c.traceDepth;
  auto savedScopes = c.nameScopes;
  c.nameScopes.clear();
  // A function traced under tf.init_scope (Keras builds layers there) is a
  // graph of its own: its ops are staged, not run eagerly.
  bool savedInitScope = c.initScope;
  c.initScope = false;
  size_t before = c.globalVariables.size();
  (void)before;
  Value result;
  try {
    (*tracingCount)++;
    if (allowCreation) --c.traceDepth;  // variable creation is allowed on this trace
    struct Restore {
      TfContext &c;
      bool allow;
      ~Restore() { if (allow) ++c.traceDepth; }
    } restore{c, allowCreation};
    int64_t createdBefore = c.opSeedCounter;
    (void)createdBefore;
    result = autograph ? callConverted(in, pyFunc, callArgs, symKw) : in.call(pyFunc, callArgs, symKw);
    std::vector<ir::Value *> outs;
    cf->outputStructure = collectOutputs(in, result, g, outs);
    for (ir::Value *x : outs) cf->outputTypes.push_back(x->type);
    g.builder().ret(outs, in.currentSpan());
  } catch (...) {
    c.graphs.pop_back();
    --c.traceDepth;
    c.nameScopes = savedScopes;
    c.initScope = savedInitScope;
    c.failedTraces.push_back(cf->scope);
    takeEnclosingCaptures(&g);
    throw;
  }
  cf->enclosingCaptures = takeEnclosingCaptures(&g);
  c.graphs.pop_back();
  --c.traceDepth;
  c.nameScopes = savedScopes;
  c.initScope = savedInitScope;
  created = 0;
  // The variables it captures (variable arguments are inputs, bound per call).
  for (const Ref<Object> &var : g.variableKeys()) {
    auto *v = static_cast<VariableObject *>(var.get());
    if (!cf->isArgumentVariable(v->value.get())) cf->variables.push_back(Ref<VariableObject>(v));
  }
  // The header of the printed forms; then what --emit asks for (the
  // optimized copy is what runs: graph-opt, llvm and asm show it).
  cf->info.function = name;
  cf->info.number = *tracingCount;
  cf->info.signature = signatureText(cf->argSpecs);
  cf->info.reason = std::move(retraceNote);
  retraceNote.clear();
  const RunOptions &o = in.options();
  Executable *runs = o.emitGraph || o.emitLlvm || o.emitAsm ? &cf->executable(in.profiler()) : nullptr;
  reportTrace(in, cf->info, g, runs ? &runs->module() : nullptr, pyFunc, autograph);
  if (runs && o.emitGraph) {
    // Its shape specializations are printed under the same header.
    cf->emitHeader = traceHeader(cf->info);
    runs->setReportHeader(&cf->emitHeader);
  }
  lastTrace = cf;
  return cf;
}

namespace {
bool allSubtypes(Interpreter &in, const std::vector<Value> &xs, const std::vector<Value> &ys) {
  for (size_t i = 0; i < xs.size(); ++i)
    if (!in.truth(in.call(in.getAttr(xs[i], "is_subtype_of"), std::vector<Value>{ys[i]}))) return false;
  return true;
}
}  // namespace

const FunctionWrapper::TypedTrace *FunctionWrapper::dispatchTyped(Interpreter &in, const std::string &skeleton,
                                                                  const std::vector<Value> &types) const {
  const TypedTrace *best = nullptr;
  for (const TypedTrace &t : *typedTraces)
    if (t.skeleton == skeleton && t.types.size() == types.size() && allSubtypes(in, types, t.types) &&
        (!best || allSubtypes(in, t.types, best->types)))
      best = &t;
  return best;
}

Ref<ConcreteFunction> FunctionWrapper::concrete(Interpreter &in, std::span<const Value> args, const Kwargs &kwargs,
                                                const std::vector<ir::Shape> *specShapes) {
  if (lastConcrete && !hasSignature && !specShapes && matchesLastEagerArgs(args, kwargs)) return lastConcrete;
  std::string_view key;
  std::string specKey;
  if (hasSignature) {
    // Check the arguments against the signature (TF's error text).
    bool ok = args.size() == signature.size();
    std::string why;  // TF's reason, for the flat TensorSpec entries
    frontend::SourceSpan callSite = in.currentSpan();
    for (size_t i = 0; ok && i < args.size(); ++i) {
      if (compositeAt(i)) {
        ok = isComposite(args[i]) &&
             in.truth(in.call(in.getAttr(signatureSpecs[i], "is_compatible_with"), std::vector<Value>{args[i]}));
        in.restoreSpan(callSite);  // the error is the call's
        continue;
      }
      if (nestedAt(i)) {
        ok = nestedCompatible(in, signatureSpecs[i], args[i], why);
        continue;
      }
      auto *t = args[i].as<TensorObject>();
      ok = t && t->dtype() == signature[i].second && signature[i].first.isCompatibleWith(t->shape());
      if (!ok && t) why = castErrorText(t->shape(), t->dtype(), signature[i].first, signature[i].second);
    }
    if (!ok) raiseSignatureBinding(in, why, args, kwargs, paramNames(pyFunc), self.isNone() ? 0 : 1, signatureSpecs);
    key = "signature";
  } else if (specShapes) {
    // A trace for TensorSpecs: keyed apart from calls, found by calls
    // through the relaxed traces below.
    specKey = "S";
    appendCallKey(in, args, kwargs, specKey, nullptr, traceTypes.get());
    for (const ir::Shape &sh : *specShapes) specKey += sh.tfString();
    key = specKey;
  } else {
    key = callKey(in, args, kwargs, *traceTypes);
  }
  if (lastConcrete && key == lastKey) return lastConcrete;
  auto it = cache->find(key);
  if (it != cache->end()) {
    setLast(it->first, it->second, args, kwargs);
    return it->second;
  }
  // Tracing may build other keys in callKey's buffer.
  std::string ownedKey(key);
  // Arguments with trace types: a trace whose types the call's are
  // subtypes of serves it (the most specific such trace).
  std::string typedSkeleton;
  std::vector<Value> requestTypes;
  if (!hasSignature && !specShapes) {
    appendCallKey(in, args, kwargs, typedSkeleton, nullptr, nullptr, &requestTypes);
    if (!requestTypes.empty())
      if (const TypedTrace *t = dispatchTyped(in, typedSkeleton, requestTypes)) {
        (*cache)[ownedKey] = t->cf;
        return t->cf;
      }
  }
  // reduce_retracing: a trace over relaxed shapes that admits the call
  // serves it; otherwise trace once more over the most specific common
  // supertype of this call and every trace with the same structure.
  std::vector<ir::Shape> relaxed;
  std::string skeleton;
  std::vector<Value> composites;
  if (!hasSignature && !specShapes && !reduceRetracing && !relaxedTraces->empty()) {
    // A call a TensorSpec (SparseTensorSpec, RaggedTensorSpec) trace admits
    // runs that trace (TF dispatches to it).
    appendCallKey(in, args, kwargs, skeleton, &relaxed, traceTypes.get(), nullptr, &composites);
    if (const RelaxedTrace *r = dispatchRelaxed(in, skeleton, relaxed, composites)) {
      (*cache)[ownedKey] = r->cf;
      return r->cf;
    }
  }
  if (specShapes) {
    skeleton.clear();
    relaxed.clear();
    composites.clear();
    appendCallKey(in, args, kwargs, skeleton, &relaxed, traceTypes.get(), nullptr, &composites);
    relaxed = *specShapes;
  }
  if (reduceRetracing && !hasSignature) {
    appendCallKey(in, args, kwargs, skeleton, &relaxed, traceTypes.get(), nullptr, &composites);
    if (const RelaxedTrace *r = dispatchRelaxed(in, skeleton, relaxed, composites)) {
      (*cache)[ownedKey] = r->cf;
      return r->cf;
    }
    for (const RelaxedTrace &r : *relaxedTraces)
      if (r.skeleton == skeleton && r.shapes.size() == relaxed.size())
        for (size_t i = 0; i < relaxed.size(); ++i) relaxed[i] = commonSupertype(relaxed[i], r.shapes[i]);
  }
  const std::vector<ir::Shape> *relaxedShapes = (reduceRetracing && !hasSignature) || specShapes ? &relaxed : nullptr;
  std::vector<Value> argv(args.begin(), args.end());
  // A composite in the signature is traced as its spec says, not as the
  // call's value.
  for (size_t i = 0; hasSignature && i < argv.size(); ++i)
    if (compositeAt(i)) argv[i] = compositePlaceholder(in, signatureSpecs[i]);
    else if (nestedAt(i)) argv[i] = nestedTraceArg(in, signatureSpecs[i], argv[i]);
  TfContext &c = ctx(in);
  size_t varsBefore = c.globalVariables.size();
  int created = 0;
  int64_t createdCounterBefore = c.opSeedCounter;
  (void)createdCounterBefore;
  bool firstTrace = *tracingCount == 0;
  int before = variablesCreated;
  if (lastTrace) {
    std::vector<std::string> names = paramNames(pyFunc);
    size_t offset = std::min<size_t>(self.isNone() ? 0 : 1, names.size());
    std::string why = retraceReason(
        lastTrace->argSpecs,
        describeArgs(in, std::vector<std::string>(names.begin() + long(offset), names.end()), argv, kwargs));
    retraceNote = "retraced because " + (why.empty() ? std::string("the call matched no earlier trace") : why);
  }
  Ref<ConcreteFunction> cf = trace(in, argv, kwargs, firstTrace, created, relaxedShapes);
  if (firstTrace && variablesCreated != before && !singleTrace) {
    // TF traces again without variable creation; the function it keeps is that trace.
    (*tracingCount)--;
    retraceNote = "traced again: the first trace created variables; the function keeps a trace that creates none";
    cf = trace(in, argv, kwargs, false, created, relaxedShapes);
  }
  (void)varsBefore;
  (*cache)[ownedKey] = cf;
  traces->push_back(cf);
  if (!requestTypes.empty()) typedTraces->push_back({std::move(typedSkeleton), std::move(requestTypes), cf});
  if (relaxedShapes) {
    std::vector<Value> specs;
    for (const Value &v : composites) specs.push_back(tracedCompositeSpec(in, v));
    relaxedTraces->push_back({std::move(skeleton), std::move(relaxed), std::move(specs), cf});
  }
  return cf;
}

std::optional<Value> FunctionWrapper::callLikeLast(Interpreter &in, Args args, const Kwargs &kwargs) {
  if (!lastConcrete || !lastArgsEager || hasSignature || !kwargs.empty() || args.size() != lastEagerArgs.size() ||
      args.size() > 8 || !lastConcrete->outputStructure.isInt() || !lastConcrete->exec ||
      !lastConcrete->enclosingCaptures.empty())
    return std::nullopt;
  const TfContext &c = ctx(in);
  // What call() checks before running: tracing, a v1 graph, eager mode,
  // tapes, graph-run hooks, op profiling.
  if (!c.graphs.empty() || (!c.initScope && c.v1Graph) || (c.runFunctionsEagerly && !c.eagerDisabled && !graphOnly) ||
      !c.tapes.empty() || c.onGraphRun || in.profilingOps())
    return std::nullopt;
  // The handles, copied into raw storage (the run moves them out; a vector
  // or SmallVector cost more than the copies).
  struct Handles {
    alignas(Tensor) unsigned char bytes[8 * sizeof(Tensor)];
    size_t n = 0;
    Tensor *data() { return reinterpret_cast<Tensor *>(bytes); }
    ~Handles() { std::destroy_n(data(), n); }
  } handles;
  for (size_t i = 0; i < args.size(); ++i) {
    auto *t = args[i].as<TensorObject>();
    // matchesLastEagerArgs, and no numpy array (call() converts those).
    if (!t || t->symbolic() || t->numpy || t->dtype() != lastEagerArgs[i].dtype || t->eager.shape() != lastEagerArgs[i].dims)
      return std::nullopt;
    new (handles.data() + handles.n++) Tensor(t->eager);
  }
  Ref<ConcreteFunction> cf = lastConcrete;  // the run may trace again and replace lastConcrete
  return wrap(cf->exec->runTakingOne(in, std::span<Tensor>(handles.data(), handles.n), size_t(cf->outputStructure.asInt())));
}

std::optional<Value> FunctionWrapper::call(Interpreter &in, Args args, const Kwargs &kwargs) {
  if (auto r = callLikeLast(in, args, kwargs)) return r;
  return callGeneral(in, args, kwargs);
}

std::optional<Value> FunctionWrapper::callGeneral(Interpreter &in, Args args, const Kwargs &kwargs) {
  // numpy arrays and Python scalars with a signature become tensors (the
  // arguments are copied only when one does).
  std::vector<Value> converted;
  for (size_t i = 0; i < args.size(); ++i) {
    if (hasSignature && nestedAt(i)) {
      // The function sees the signature's structure (TF packs the flat
      // inputs into it: a list passed for a tuple spec arrives as a tuple).
      std::optional<Value> packed = packToSpec(in, signatureSpecs[i], args[i]);
      if (!packed) {
        std::string sig;
        for (auto &spec : signatureSpecs) sig += "\n    " + in.repr(spec);
        raiseTf(in, "TypeError",
                fmt::format("Binding inputs to tf.function failed due to `Structure of Python function inputs does not "
                            "match input_signature:\n  inputs: ({})\n  input_signature: ({})`.",
                            argsText(in, std::vector<Value>(args.begin(), args.end())), sig));
      }
      if (converted.empty()) converted.assign(args.begin(), args.end());
      converted[i] = *packed;
      continue;
    }
    auto *t = args[i].as<TensorObject>();
    bool fromNumpy = t && t->numpy;
    bool fromScalar =
        hasSignature && i < signature.size() && !compositeAt(i) && !t && (args[i].isInt() || args[i].isFloat());
    // A variable given for a TensorSpec is its value (TF converts it; the
    // read is on the tapes like any eager read).
    auto *var = hasSignature && i < signature.size() && !compositeAt(i) ? args[i].as<VariableObject>() : nullptr;
    if (!fromNumpy && !fromScalar && !var) continue;
    if (converted.empty()) converted.assign(args.begin(), args.end());
    converted[i] = var         ? readVariable(in, *var)
                   : fromNumpy ? Value(toTensor(in, args[i]))
                               : Value(toTensor(in, args[i], std::nullopt, signature[i].second));
  }
  std::span<const Value> argv = converted.empty() ? std::span<const Value>(args) : std::span<const Value>(converted);
  TfContext &c = ctx(in);
  // Nested call while tracing (or under a v1 graph outside tf.init_scope,
  // what currentGraph() tells, without looking the context up again): trace
  // the body inline into the outer graph.
  if (!c.graphs.empty() || (!c.initScope && c.v1Graph)) {
    // Inside a tf.function's trace: traced apart (its own concrete function,
    // tracing count and side effects, as TF) and copied into the outer graph
    // (function_nested.h).
    GraphScope *outer = c.graphs.empty() ? nullptr : c.graphs.back();
    if (outer && outer->kind() == GraphScope::Kind::Function && !c.initScope && !graphOnly && !singleTrace &&
        canTraceNestedApart(in, argv, kwargs)) {
      frontend::SourceSpan callSite = in.currentSpan();
      Ref<ConcreteFunction> cf = concrete(in, argv, kwargs);
      in.restoreSpan(callSite);
      return inlineNestedCall(in, *outer, *cf, argv, kwargs);
    }
    std::vector<Value> callArgs;
    if (!self.isNone()) callArgs.push_back(self);
    callArgs.insert(callArgs.end(), argv.begin(), argv.end());
    return autograph ? callConverted(in, pyFunc, callArgs, kwargs) : in.call(pyFunc, callArgs, kwargs);
  }
  // tf.config.run_functions_eagerly(True): the Python function runs as written
  // (no AutoGraph, no tracing), the debugging mode TF documents.
  if (c.runFunctionsEagerly && !c.eagerDisabled && !graphOnly) {
    std::vector<Value> callArgs;
    if (!self.isNone()) callArgs.push_back(self);
    callArgs.insert(callArgs.end(), args.begin(), args.end());
    return in.call(pyFunc, callArgs, kwargs);
  }
  frontend::SourceSpan callSite = in.currentSpan();
  Ref<ConcreteFunction> cf = concrete(in, argv, kwargs);
  in.restoreSpan(callSite);  // tracing moved it into the function's body
  if (!cf->enclosingCaptures.empty())
    raiseTf(in, "TypeError",
            fmt::format("tf.function '{}' uses tensor '{}' of another function's graph, which only a call inside "
                        "that function can feed; pass it as an argument",
                        name, cf->enclosingCaptures.front().name));
  Executable &exec = cf->executable(in.profiler());
  if (c.onGraphRun) c.onGraphRun(in, *cf->scope, exec.function());
  if (in.profilingOps()) exec.setProfileLabel(fmt::format("{}, trace {}", name, cf->info.number));
  bool taped = !c.tapes.empty();
  // The common call: a few tensors, no tape: their handles in place (no
  // vector), moved in.
  if (!taped && kwargs.empty() && argv.size() <= 8 && cf->outputStructure.isInt() &&
      std::all_of(argv.begin(), argv.end(), [](const Value &a) { return a.as<TensorObject>() != nullptr; })) {
    llvm::SmallVector<Tensor, 8> handles;
    for (const Value &a : argv) handles.push_back(a.as<TensorObject>()->eager);
    return wrap(exec.runTakingOne(in, handles, size_t(cf->outputStructure.asInt())));
  }
  std::vector<Tensor> tensors;
  tensors.reserve(argv.size());
  for (auto &a : argv) tensorArgs(in, a, tensors);
  for (auto &[k, v] : kwargs) tensorArgs(in, v, tensors);
  // Variable arguments: the trace's captures of them read and assign the passed ones.
  BoundVariables bound(variableBindings(in, *cf, argv, kwargs));
  // Without tapes the arguments are not needed after the run: moved in.
  std::vector<Tensor> results = taped ? exec.run(in, tensors) : exec.run(in, std::move(tensors));
  if (!taped && cf->outputStructure.isInt())  // one tensor: the common case
    return wrap(std::move(results[size_t(cf->outputStructure.asInt())]));
  std::vector<Value> outs;
  outs.reserve(results.size());
  for (auto &r : results) outs.push_back(wrap(std::move(r)));
  if (taped) {
    std::vector<int64_t> argIds;
    std::vector<Tensor> unused;
    for (auto &a : argv) tensorArgs(in, a, unused, &argIds);
    for (auto &[k, v] : kwargs) tensorArgs(in, v, unused, &argIds);
    std::vector<VariableObject *> callVariables;
    for (auto &a : argv) variableArgs(in, a, callVariables);
    for (auto &[k, v] : kwargs) variableArgs(in, v, callVariables);
    recordCallOnTapes(in, *cf, tensors, argIds, outs, callVariables);  // function_tapes.cpp
  }
  if (cf->outputStructure.isInt()) return outs[size_t(cf->outputStructure.asInt())];
  return rebuildOutputs(in, cf->outputStructure, outs);
}

std::optional<Value> FunctionWrapper::getAttr(Interpreter &in, const std::string &attr) {
  Ref<FunctionWrapper> selfRef(this);
  if (attr == "get_concrete_function")
    return in.native(attr, [selfRef](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      std::vector<Value> argv(a.begin(), a.end());
      for (auto &v : argv)
        if (auto *t = v.as<TensorObject>(); t && t->numpy) v = Value(toTensor(in, v));
      // With an input_signature, no arguments means "the signature's function".
      if (argv.empty() && kw.empty() && selfRef->hasSignature) argv = selfRef->signatureArgs(in);
      // tf.TensorSpec arguments: zero tensors (unknown dimensions 1) that the
      // trace relaxes back to the specs' shapes.
      std::vector<ir::Shape> shapes;
      bool anySpec = false;
      Kwargs kwargs = kw;
      // A SparseTensorSpec / RaggedTensorSpec is a supertype of the calls'
      // composites (its trace serves them, see dispatchRelaxed).
      std::function<bool(const Value &)> compositeSpecIn = [&](const Value &v) {
        if (isCompositeSpec(in, v)) return true;
        if (v.as<ListObject>() || v.as<TupleObject>()) {
          for (const Value &x : in.toList(v))
            if (compositeSpecIn(x)) return true;
        } else if (auto *d = v.as<DictObject>()) {
          for (auto &[k, x] : d->items())
            if (compositeSpecIn(x)) return true;
        }
        return false;
      };
      bool anyCompositeSpec = std::any_of(argv.begin(), argv.end(), compositeSpecIn) ||
                              std::any_of(kwargs.begin(), kwargs.end(), [&](auto &kv) { return compositeSpecIn(kv.second); });
      for (auto &v : argv) v = specToTensor(in, v, shapes, anySpec);
      for (auto &[k, v] : kwargs) v = specToTensor(in, v, shapes, anySpec);
      // Specs of fully known shapes are the types of calls with such tensors:
      // an earlier call's trace serves them (TF looks the FunctionType up).
      bool allKnown = !anyCompositeSpec &&
                      std::all_of(shapes.begin(), shapes.end(), [](const ir::Shape &s) { return s.fullyDefined(); });
      if (!anySpec || selfRef->hasSignature || allKnown) return Value(selfRef->concrete(in, argv, kwargs));
      return Value(selfRef->concrete(in, argv, kwargs, &shapes));
    });
  if (attr == "pretty_printed_concrete_signatures")
    return nativeWithSignature(in, "pretty_printed_concrete_signatures(verbose=True)",
                               [selfRef](Interpreter &in, const Bound &b) {
      bool verbose = in.truth(b["verbose"]);
      std::string out;
      for (auto &cf : *selfRef->traces)
        out += (out.empty() ? "" : verbose ? "\n\n" : "\n") + cf->prettySignature(in, verbose);
      return in.str(out);
    });
  if (attr == "experimental_get_tracing_count")
    return in.native(attr, [selfRef](Interpreter &, Args, const Kwargs &) { return Value::integer(*selfRef->tracingCount); });
  if (attr == "python_function") return pyFunc;
  if (attr == "__name__") return in.str(name);
  return std::nullopt;
}

Value makeFunction(Interpreter &in, const Value &f, bool autograph, const Value &signature) {
  auto w = make<FunctionWrapper>();
  w->pyFunc = f;
  w->autograph = autograph;
  if (auto *fn = f.as<FunctionObject>()) w->name = fn->name;
  else w->name = "function";
  if (!signature.isNone()) {
    w->hasSignature = true;
    frontend::SourceSpan site = in.currentSpan();
    for (auto &spec : in.toList(signature)) {
      w->nestedLeaves.emplace_back();
      w->isNestedAt.push_back(spec.as<ListObject>() || spec.as<TupleObject>() || spec.as<DictObject>());
      if (w->isNestedAt.back()) {
        flattenSpec(in, spec, w->nestedLeaves.back());
        w->signatureSpecs.push_back(spec);
        w->isCompositeAt.push_back(false);
        // An empty structure has no tensors to trace: an entry of its own.
        w->signature.emplace_back(ir::Shape(), DType::Float32);
        continue;
      }
      w->signatureSpecs.push_back(spec);
      w->isCompositeAt.push_back(isCompositeSpec(in, spec));
      if (w->isCompositeAt.back()) {
        // Traced through its stand-in (an ExtensionType's Spec has no shape).
        w->signature.emplace_back(ir::Shape(), DType::Float32);
        // Refuses now what tfs cannot trace, at the decorator's line.
        try {
          compositePlaceholder(in, spec);
        } catch (PyException &e) {
          bool userFrame = std::any_of(e.callChain.begin(), e.callChain.end(), [](const frontend::SourceSpan &s) {
            return s.valid() && !frontend::isLibrary(s);
          });
          if (!userFrame) e.callChain.insert(e.callChain.begin(), site);
          throw;
        }
        in.restoreSpan(site);
        continue;
      }
      w->signature.emplace_back(in.getAttr(spec, "shape").as<TensorShapeObject>()->shape,
                                in.getAttr(spec, "dtype").as<DTypeObject>()->dtype);
    }
    in.restoreSpan(site);
  }
  return w;
}

TracedSignature traceForExport(Interpreter &in, const Value &f) {
  auto *w = f.as<FunctionWrapper>();
  if (!w) in.raise("ValueError", fmt::format("signature must be a tf.function, got {}", in.typeName(f)));
  if (!w->hasSignature)
    in.raise("ValueError", "saving a tf.function requires an input_signature (tfs saves one concrete function per signature)");
  Ref<ConcreteFunction> cf = w->concrete(in, w->signatureArgs(in), {});
  return tracedSignatureOf(in, *cf);
}

std::vector<Ref<ConcreteFunction>> savedTraces(Interpreter &in, const Value &f) {
  auto *w = f.as<FunctionWrapper>();
  if (!w) return {};
  // TF saves a function with an input_signature by that signature, traced
  // now if it never was; others by every trace they have.
  if (w->hasSignature) return {w->concrete(in, w->signatureArgs(in), {})};
  return *w->traces;
}

Value makeDatasetFunction(Interpreter &in, const Value &f, const Value &signature) {
  Value w = makeFunction(in, f, true, signature);
  w.as<FunctionWrapper>()->graphOnly = true;
  return w;
}

Value makeScratchFunction(Interpreter &in, const Value &f, const Value &signature) {
  Value w = makeFunction(in, f, true, signature);
  w.as<FunctionWrapper>()->singleTrace = true;
  return w;
}

void setReduceRetracing(const Value &function, bool reduce) {
  function.as<FunctionWrapper>()->reduceRetracing = reduce;
}

}  // namespace tfs::runtime::tf
