// The `tf` and `numpy` modules: Python-visible objects of the tf layer and
// the single op entry point (DESIGN.md principle 2).
//
// A TensorObject is either eager (a runtime::Tensor) or symbolic (an
// ir::Value of the graph being traced, with its TF name). callOp() runs the
// kernel eagerly -- recording on active GradientTapes -- or appends a node
// when a graph is being built; gradient rules and every tf.* function go
// through it. numpy arrays are TensorObjects with `numpy = true` (numpy's
// printing and dtype defaults).
#pragma once

#include "ir/builder.h"
#include "runtime/autodiff/tape.h"
#include "runtime/graph/dense_convert.h"
#include "runtime/graph/interpreter.h"
#include "runtime/interp/interpreter.h"
#include "runtime/tf/graph_scope.h"

#include <functional>
#include <map>
#include <memory>

namespace tfs::runtime::tf {

using ir::DType;

struct VariableObject;
struct TfContext;

struct TensorObject final : Object {
  Tensor eager;                 // valid when not symbolic
  ir::Value *sym = nullptr;     // symbolic value
  GraphScope *scope = nullptr;  // graph the symbolic value belongs to
  std::string name;             // node name ("mul"), or "split:1" for a later output
  bool numpy = false;           // a numpy ndarray
  // numpy turns 0-d results into scalars (np.int32(3), repr `3`); only
  // np.array(3) makes a 0-d array (repr `array(3)`), which sets this.
  bool zeroDimArray = false;
  // A numpy string array's fixed-width dtype: kind 'U' (str elements,
  // dtype '<U{width}', np.array(["a"])) or 'S' (bytes, '|S{width}');
  // kind 0 is dtype=object, what TF's .numpy() of a string tensor gives.
  struct TextDType {
    char kind = 0;
    int64_t width = 0;
  } text;
  std::vector<ir::Node *> controlDeps;  // v1: nodes to run when fetched (assign)
  // Keras's `_keras_mask`, `_keras_logits` and `_metric_obj` attributes:
  // the mask a layer computed for this tensor (read by the next layer's
  // call), the logits a softmax/sigmoid output came from (read by the
  // cross-entropy losses) and the Metric whose result this is (read by
  // Layer.add_metric). None when absent.
  Value kerasMask, kerasLogits, kerasMetric;
  int64_t id;
  // A numpy view (a[0], a[:, 1:], a.T, a.reshape(...)) shares the elements
  // of `base`, a root array (never itself a view): element i of the view is
  // base element offset + sum(index_d * strides[d]). `eager` holds a copy of
  // them that every write to the root refreshes (lib/numpy/ndarray_view.cpp),
  // so readers of `eager` always see the current values; `views` lists a
  // root's live views.
  struct View {
    Ref<TensorObject> base;
    int64_t offset = 0;
    std::vector<int64_t> strides;  // in elements; 0 for a broadcast axis
    bool writeable = true;
  };
  std::unique_ptr<View> view;
  std::vector<TensorObject *> views;

  TensorObject();
  ~TensorObject() override;
  bool symbolic() const { return sym != nullptr; }
  // TF's tensor name: "mul:0", "split:1".
  std::string tensorName() const { return name.find(':') == std::string::npos ? name + ":0" : name; }
  DType dtype() const { return sym ? sym->type.dtype : eager.dtype(); }
  ir::Shape shape() const { return sym ? sym->type.shape : ir::Shape(eager.shape()); }

  const char *typeName() const override;
  ClassObject *cls() const override;
  std::optional<Value> getAttr(Interpreter &, const std::string &) override;
  bool setAttr(Interpreter &, const std::string &, const Value &) override;
  std::optional<Value> binary(Interpreter &, BinOp, const Value &, bool) override;
  std::optional<Value> compare(Interpreter &, CmpOp, const Value &) override;
  std::optional<Value> unary(Interpreter &, UnaryOp) override;
  std::optional<bool> truth(Interpreter &) override;
  std::optional<int64_t> length(Interpreter &) override;
  std::optional<Value> iter(Interpreter &) override;
  std::optional<Value> getItem(Interpreter &, const Value &) override;
  bool setItem(Interpreter &, const Value &, const Value &) override;
  std::optional<std::string> repr(Interpreter &) override;
  std::optional<std::string> str(Interpreter &) override;
  std::optional<std::string> format(Interpreter &, const std::string &) override;
  std::optional<int64_t> toInt(Interpreter &) override;
  std::optional<double> toFloat(Interpreter &) override;
  std::optional<int64_t> hash(Interpreter &) override;
};

// What the numpy library (lib/numpy) adds to ndarrays: their attributes and
// methods, numpy indexing (views, boolean masks, fancy indices) and
// assignment through indices. Registered once at startup; the engine's
// TensorObject asks these first for numpy arrays.
struct NdarrayHooks {
  std::optional<Value> (*getAttr)(Interpreter &, TensorObject &, const std::string &) = nullptr;
  std::optional<Value> (*getItem)(Interpreter &, TensorObject &, const Value &) = nullptr;
  bool (*setItem)(Interpreter &, TensorObject &, const Value &, const Value &) = nullptr;
  // Operators where an ndarray meets an ndarray or a Python value.
  std::optional<Value> (*binary)(Interpreter &, BinOp, const Value &, const Value &) = nullptr;
  std::optional<Value> (*compare)(Interpreter &, CmpOp, const Value &, const Value &) = nullptr;
  std::optional<Value> (*unary)(Interpreter &, UnaryOp, const Value &) = nullptr;
};
void setNdarrayHooks(const NdarrayHooks &hooks);
const NdarrayHooks &ndarrayHooks();

// np.dtype('float32'): numpy's dtype object (`a.dtype`). Prints `float32`,
// repr `dtype('float32')`; equal to the same dtype given as a scalar type
// (np.float32), a name ('float32', 'f4') or another dtype object.
struct NumpyDTypeObject : Object {
  DType dtype;
  explicit NumpyDTypeObject(DType t) : dtype(t) {}
  const char *typeName() const override { return "dtype"; }
  std::optional<Value> getAttr(Interpreter &, const std::string &) override;
  std::optional<Value> compare(Interpreter &, CmpOp, const Value &) override;
  std::optional<std::string> repr(Interpreter &) override;
  std::optional<std::string> str(Interpreter &) override;
  std::optional<int64_t> hash(Interpreter &) override { return int64_t(dtype) + 8888; }
};
Value numpyDTypeValue(DType t);
// numpy's name of a dtype: "float64", "int32", "bool" ("bytes" for strings).
std::string numpyDTypeName(DType t);
// Whether tfs's numpy has arrays of this engine dtype (not int8/uint8/...,
// float16, bfloat16, complex); requireNumpyDType raises NotImplementedError
// naming the dtype where it has not, so no array is computed in a wrong type.
bool numpySupportsDType(DType t);
void requireNumpyDType(Interpreter &in, DType t);
// numpy's dtype for a name or type code: "float32", "f4", "<f8", "float",
// "int", "i8", "bool", "?", "d", ... (nullopt when it is none of these).
std::optional<DType> parseNumpyDTypeName(std::string_view name);
// The numpy scalar type of a dtype (np.float32, np.int64, np.bool_: classes
// of this run, module "numpy"), and the abstract ones by name ("floating",
// "integer", "number", "generic", ...); null before installTensorClasses.
ClassObject *numpyScalarClass(DType t);
ClassObject *numpyAbstractClass(const std::string &name);
// Makes this run's numpy classes (from installTensorClasses) / forgets them
// when the run's TfContext goes.
void installNumpyTypes(Interpreter &in, TfContext &c);
void forgetNumpyTypes(TfContext &c);

struct VariableObject final : Object {
  std::string name;  // "scope/name:0"
  bool trainable = true;
  DType dtype;
  ir::Shape shape;
  std::shared_ptr<Tensor> value;  // shared with graph captures
  bool graphMode = false;         // a v1 graph variable (repr without numpy=)
  Value initialValue;             // v1: tensor the initializer assigns
  int64_t id;

  VariableObject();
  const char *typeName() const override { return "ResourceVariable"; }
  ClassObject *cls() const override;
  std::optional<Value> getAttr(Interpreter &, const std::string &) override;
  std::optional<Value> binary(Interpreter &, BinOp, const Value &, bool) override;
  std::optional<Value> compare(Interpreter &, CmpOp, const Value &) override;
  std::optional<Value> unary(Interpreter &, UnaryOp) override;
  std::optional<bool> truth(Interpreter &) override;
  std::optional<Value> getItem(Interpreter &, const Value &) override;
  std::optional<std::string> repr(Interpreter &) override;
  std::optional<std::string> str(Interpreter &) override;
  std::optional<std::string> format(Interpreter &, const std::string &) override;
  std::optional<int64_t> toInt(Interpreter &) override;
  std::optional<double> toFloat(Interpreter &) override;
  std::optional<int64_t> hash(Interpreter &) override;
};

struct DTypeObject : Object {
  DType dtype;
  explicit DTypeObject(DType t) : dtype(t) {}
  const char *typeName() const override { return "DType"; }
  std::optional<Value> getAttr(Interpreter &, const std::string &) override;
  std::optional<Value> compare(Interpreter &, CmpOp, const Value &) override;
  std::optional<std::string> repr(Interpreter &) override;  // tf.float32
  std::optional<std::string> str(Interpreter &) override;   // <dtype: 'float32'>
  std::optional<int64_t> hash(Interpreter &) override { return int64_t(dtype) + 7777; }
  std::optional<Value> call(Interpreter &, Args, const Kwargs &) override;
};

// tf.TensorShape: prints "(2, 3)", indexes to ints (None for unknown).
struct TensorShapeObject : Object {
  ir::Shape shape;
  explicit TensorShapeObject(ir::Shape s) : shape(std::move(s)) {}
  const char *typeName() const override { return "TensorShape"; }
  // TF's TensorShape.__bool__: whether the rank is known (a scalar's shape
  // is true, TensorShape(None) false).
  std::optional<bool> truth(Interpreter &) override { return shape.ranked; }
  std::optional<Value> getAttr(Interpreter &, const std::string &) override;
  std::optional<int64_t> length(Interpreter &) override;
  std::optional<Value> getItem(Interpreter &, const Value &) override;
  std::optional<Value> iter(Interpreter &) override;
  std::optional<Value> compare(Interpreter &, CmpOp, const Value &) override;
  std::optional<std::string> repr(Interpreter &) override;
  std::optional<std::string> str(Interpreter &) override;
};

// One active GradientTape.
struct TapeObject : Object {
  Tape tape;
  bool watchAccessed = true;
  bool active = false;
  // Where the tape was entered: eagerly (null), or in a graph being traced
  // and the region ops were appended to then. A tape records the ops of
  // that region only; a cond / while_loop built there is recorded as one op
  // (differentiated structurally), never the ops inside its branches.
  GraphScope *graph = nullptr;
  ir::Region *region = nullptr;
  // The variables this tape watches, in the order first watched
  // (tape.watched_variables()).
  std::vector<Ref<VariableObject>> watchedVariables;
  void noteWatched(VariableObject &v);
  explicit TapeObject(bool persistent) : tape(persistent) {}
  const char *typeName() const override { return "GradientTape"; }
  std::optional<Value> getAttr(Interpreter &, const std::string &) override;
  std::optional<Value> enter(Interpreter &) override;
  bool exit(Interpreter &, bool) override;
};

// tape.gradient on flat lists (targets, sources, output gradients or empty),
// None for unconnected sources unless `zeros`.
std::vector<Value> tapeGradientFlat(Interpreter &in, TapeObject &self, const std::vector<Value> &targets,
                                    const std::vector<Value> &sources, const std::vector<Value> &seeds, bool zeros);
// Nested lists / tuples / dicts of tape sources to a flat list and back.
void flatten(Interpreter &in, const Value &v, std::vector<Value> &out);
Value unflatten(Interpreter &in, const Value &structure, const std::vector<Value> &flat, size_t &pos);
// stop_recording, watched_variables, jacobian, batch_jacobian (tape_extras.cpp).
std::optional<Value> tapeExtraAttr(Interpreter &in, TapeObject &self, const std::string &name);

// Per-run state of the tf layer (Interpreter::tfContext).
struct TfContext {
  std::vector<GraphScope *> graphs;       // tracing stack (innermost last)
  // Graphs of traces that raised, kept until the run ends: the exception
  // (`raise ValueError(tf.square(x))`) or a global may still hold their
  // symbolic tensors, whose str() and use read the graph.
  std::vector<std::shared_ptr<GraphScope>> failedTraces;
  GraphScope *v1Graph = nullptr;          // the default graph in v1 mode
  std::unique_ptr<GraphScope> ownedV1Graph;  // made by disable_eager_execution
  bool eagerDisabled = false;
  bool tensorEqualityDisabled = false;   // tf.compat.v1.disable_tensor_equality
  bool runFunctionsEagerly = false;      // tf.config.run_functions_eagerly
  bool logDevicePlacement = false;       // tf.debugging.set_log_device_placement
  std::vector<TapeObject *> tapes;
  std::vector<std::string> nameScopes;    // "a/b/" prefixes
  std::vector<Ref<VariableObject>> globalVariables;  // v1 collection
  int64_t globalSeed = -1, opSeedCounter = 0;
  // Eager random ops with the same seed pair share one kernel whose counter
  // advances per call (TF's kernel cache); tf.random.set_seed resets them.
  std::map<std::pair<int64_t, int64_t>, int64_t> eagerRandomCalls;
  bool initScope = false;                 // creating variables eagerly while tracing
  int traceDepth = 0;
  std::vector<std::string> v1ScopeStack;  // variable_scope names
  std::vector<bool> v1ReuseStack;
  std::vector<bool> v1AutoReuseStack;     // variable_scope(reuse=tf.AUTO_REUSE)
  // Sessions made default (Session.as_default, `with Session()`,
  // InteractiveSession), innermost last: Tensor.eval / Operation.run use it.
  std::vector<Value> v1DefaultSessions;
  // The tf.compat.v1 attributes of graph tensors and variables that the
  // library implements (Tensor.op / eval / graph, Variable.initializer /
  // eval / op): given the object and the name, the attribute, or nullopt.
  std::function<std::optional<Value>(Interpreter &, const Value &, const std::string &)> v1AttrHook;
  std::unordered_map<std::string, Ref<VariableObject>> v1Variables;  // get_variable store
  // The classes of tf.Tensor, tf.Variable and np.ndarray (installTensorClasses).
  Ref<ClassObject> tensorClass, variableClass, ndarrayClass;
  // numpy's scalar types (np.float32, ...) and their abstract bases.
  std::vector<Ref<ClassObject>> numpyTypes;
  ~TfContext();
  // AutoGraph conversions by source function. Per run, not process-wide: the
  // key is the AST node's address, which a later run (the fuzzer runs many
  // in one process) can reuse for a different function.
  std::unordered_map<const ast::FunctionDef *, std::shared_ptr<ast::FunctionDef>> convertedFunctions;
  // The same for lambdas (converted as `def <lambda>(...): return body`).
  std::unordered_map<const ast::Lambda *, std::shared_ptr<ast::FunctionDef>> convertedLambdas;
  // Hooks of the library's tf.summary (lib/tf/summary), set when it loads:
  // a write_summary node running in a graph, and every call of a traced
  // function (set only while tf.summary.trace_on collects graphs): its
  // traced graph and the optimized copy that runs.
  std::function<void(Interpreter &, const ir::Node &, std::span<const Tensor>)> writeSummary;
  std::function<void(Interpreter &, GraphScope &traced, const ir::Function &runs)> onGraphRun;
  // The library's tf.Graph object for a traced function (ConcreteFunction.graph).
  std::function<Value(Interpreter &, std::shared_ptr<GraphScope>)> functionGraph;
};

TfContext &ctx(Interpreter &in);
GraphScope *currentGraph(Interpreter &in);

// Module building: a native function `name` in m; the submodule `name` of parent
// (made on first use).
void def(Interpreter &in, ModuleObject &m, const std::string &name, NativeFn fn);
Ref<ModuleObject> submodule(Interpreter &in, ModuleObject &parent, const std::string &name);

// --- values -------------------------------------------------------------------
Value wrap(Tensor t, bool numpy = false);
// A tensor of `shape` with every element `value`: allocated first, so the
// memory budget applies before anything of that size is built.
Tensor filledTensor(DType dtype, const std::vector<int64_t> &shape, double value);
Ref<TensorObject> wrapSym(ir::Value *v, GraphScope *scope, const std::string &name);
// Raises TF's InaccessibleTensorError when `t`, a value of graph `g`, is
// defined in a loop body or branch that does not enclose where `g` now builds.
void checkAccessible(Interpreter &in, GraphScope &g, const TensorObject &t);
// Python value -> tensor (tf.convert_to_tensor). `dtype`: requested dtype;
// `like`: a dtype a Python scalar adopts (binary operators).
Ref<TensorObject> toTensor(Interpreter &in, const Value &v, std::optional<DType> dtype = std::nullopt,
                           std::optional<DType> like = std::nullopt);
std::optional<DType> dtypeArg(Interpreter &in, const Value &v);
Value dtypeValue(DType t);
Tensor tensorFromPython(Interpreter &in, const Value &v, std::optional<DType> dtype, bool numpyDefaults);
// The value of a graph value when it is known while tracing (TF's
// tensor_util.constant_value): constants, shapes/sizes of fully defined static
// shapes, pure ops on those. nullopt when it depends on run-time values.
// `tfOpsOnly`: only through the ops TF's constant_value evaluates (what
// tf.get_static_value reports).
std::optional<Tensor> constantValue(const ir::Value *v, bool tfOpsOnly = false);
// An eager tensor's value, or constantValue of a symbolic one.
std::optional<Tensor> staticValue(const TensorObject &t, bool tfOpsOnly = false);

// Variables made so far (tf.function's re-trace rule counts them).
extern thread_local int variablesCreated;

// --- the single op entry point ------------------------------------------------
std::vector<Ref<TensorObject>> callOp(Interpreter &in, ir::OpKind kind,
                                      std::vector<Ref<TensorObject>> inputs, ir::Attrs attrs,
                                      const std::string &tfName = "");
Ref<TensorObject> callOp1(Interpreter &in, ir::OpKind kind, std::vector<Ref<TensorObject>> inputs,
                          ir::Attrs attrs = {}, const std::string &tfName = "");
// Records a graph node just built (a region op once finished) on the tapes
// entered in its region whose watched values it uses.
void recordNodeOnTapes(Interpreter &in, GraphScope &g, ir::Node &node);
// A fresh tensor id (the identity tapes know a tensor by).
int64_t newTensorId();
// A binary operator on tensors with TF's operand conversion rules.
Value tensorBinary(Interpreter &in, BinOp op, const Value &a, const Value &b, bool numpyResult);

// --- shape arguments (ir/shape_args.h) ------------------------------------------
// A shape-like Python value (list/tuple of ints, None and scalar tensors; a
// TensorShape; an int; an integer tensor): its ints when known while
// tracing, else the int32/int64 tensor computing it at run time.
struct ShapeArg {
  std::optional<std::vector<int64_t>> ints;
  bool scalar = false;          // a single int (one_hot's depth, ...)
  Ref<TensorObject> tensor;     // when only known at run time
  bool known() const { return ints.has_value(); }
};
// `what` names the argument in errors ("shape", "dims").
ShapeArg shapeArg(Interpreter &in, const Value &v, const char *what);
ShapeArg scalarArg(Interpreter &in, const Value &v, const char *what);
// Given an op call's inputs and attrs. Execute: the argument becomes the
// attribute `attr` (known) or the next trailing operand (run time).
void addShapeArg(std::vector<Ref<TensorObject>> &inputs, ir::Attrs &attrs, const std::string &attr,
                 const ShapeArg &arg);
// The argument as an int tensor (known values become an eager constant).
Ref<TensorObject> shapeTensor(Interpreter &in, const ShapeArg &arg);

// Raises a TF error (InvalidArgumentError, ...) as a Python exception.
[[noreturn]] void raiseTf(Interpreter &in, const std::string &cls, const std::string &msg);
[[noreturn]] void raiseOpError(Interpreter &in, const ir::OpError &e);
// Where a node staged now records it was made: the current statement, or
// for library .tfs code the script's innermost call into the library.
frontend::SourceSpan stagingSpan(Interpreter &in);
// The same for an op run eagerly, in TF's eager wording (see dispatch.cpp).
[[noreturn]] void raiseEagerOpError(Interpreter &in, const ir::OpError &e);
std::string eagerOpErrorMessage(const std::string &message);
// tf.debugging.set_log_device_placement(True): the line TF's eager runtime
// logs for each op it runs ("Executing op MatMul in device
// /job:localhost/replica:0/task:0/device:CPU:0"), on stderr.
void logEagerOpPlacement(Interpreter &in, const char *opType);
// A tensor's elements as Python values in nested lists (dispatch.cpp).
Value tensorToList(Interpreter &in, const Tensor &t, char textKind);

// The `numpy=` part of a tensor's or variable's repr (TF's numpy_text): the
// numpy repr (a scalar's str), on a line of its own when it spans lines.
std::string numpyReprText(const Tensor &t);

// Variables.
Value readVariable(Interpreter &in, VariableObject &v);
void assignVariable(Interpreter &in, VariableObject &v, ir::OpKind kind, const Value &value);


// Class objects for isinstance(x, tf.Variable) / tf.Tensor / np.ndarray:
// the running interpreter's (its TfContext owns them and clears these when
// the run ends). One set per run, so that a process running many scripts
// (the fuzzer) neither keeps every run's classes nor sees a torn-down one.
extern ClassObject *variableClass, *tensorClass, *ndarrayClass;
void installTensorClasses(Interpreter &in);  // idempotent within a run

// Runs a kernel on numpy values; what the kernel rejects becomes numpy's
// ValueError (TypeError for an unsupported dtype) instead of escaping.
Tensor numpyKernel(Interpreter &in, ir::OpKind k, std::vector<Tensor> inputs, const ir::Attrs &attrs = {});
// numpy's exception class for a kernel's error (MemoryError, TypeError, ValueError).
const char *numpyErrorClass(const ir::OpError &e);


// A tf.function for tf.data's map/filter: traced even under
// tf.config.run_functions_eagerly(True), as TF does.
Value makeDatasetFunction(Interpreter &in, const Value &f, const Value &signature);

// The graph of a tf.function with an input_signature, for saving.
struct TracedSignature {
  std::shared_ptr<GraphScope> scope;
  std::vector<Ref<VariableObject>> variables;
  // When the function returns a dict of tensors: its keys, in the order of
  // the graph's outputs (a SavedModel signature returns such a dict).
  std::vector<std::string> outputKeys;
};
TracedSignature traceForExport(Interpreter &in, const Value &fn);

// The AutoGraph-converted source of a Python function (tf.autograph.to_code).
std::string convertedCode(Interpreter &in, const Value &f);

// Modules.
void installFunctionApi(Interpreter &in, ModuleObject &tf);
void installAutograph(Interpreter &in, ModuleObject &tf);
// tf.custom_gradient (custom_gradient.cpp).
void installCustomGradient(Interpreter &in, ModuleObject &tf);
Value makeAgModule(Interpreter &in);

// Executes a traced function's graph on the configured backend.
struct VariableRunContext : RunContext {
  Interpreter &in;
  std::unordered_map<std::string, Tensor> feeds;  // placeholder name -> value
  explicit VariableRunContext(Interpreter &i) : in(i) { profiler = i.profiler(); }
  Tensor readVariable(const ir::Function &fn, const ir::Capture &var) override;
  void assignVariable(const ir::Function &fn, const ir::Capture &var, const Tensor &value) override;
  Tensor captureValue(const ir::Function &fn, const ir::Capture &cap) override;
  Tensor feedPlaceholder(const ir::Node &placeholder) override;
  // Through TfContext::writeSummary (the library's tf.summary).
  void writeSummary(const ir::Node &node, std::span<const Tensor> operands) override;
  // Graph loops count against --max-steps and stop on Ctrl-C like Python
  // loops (reference interpreter; compiled loops only have the watchdog).
  void loopIteration() override { in.step(); }
};
std::vector<Tensor> runGraph(Interpreter &in, const ir::Function &fn, std::span<const Tensor> args);
// Turns a GraphRunError into the script's Python exception.
[[noreturn]] void raiseGraphError(Interpreter &in, const GraphRunError &e);

}  // namespace tfs::runtime::tf
