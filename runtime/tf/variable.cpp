// tf.Variable: state shared by eager code and traced graphs. Eagerly a read
// is an Identity from the variable's id (so tapes see it) and assignments
// replace the stored tensor; while tracing, reads and assignments become
// read_variable / assign_* nodes on a variable capture of the function,
// whose handle is the same stored tensor.
#include "runtime/autodiff/graph_gradients.h"
#include "runtime/kernels/kernels.h"
#include "runtime/tensor/format.h"
#include "runtime/tf/autocast_variables.h"
#include "runtime/tf/distributed_variables.h"
#include "runtime/tf/tf.h"
#include "runtime/tf/wrapped_functions.h"
#include "runtime/tf/tensor_equality.h"

#include <fmt/format.h>
#include <unordered_set>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {
const std::string &captureVariable(Interpreter &in, GraphScope &g, VariableObject &v) {
  if (const std::string *n = g.findVariableCapture(&v)) return *n;
  std::string hint = v.name.substr(0, v.name.find(':'));
  for (char &c : hint) if (c == '/') c = '_';
  return g.addVariableCapture(&v, hint, ir::TensorType{v.dtype, v.shape}, std::shared_ptr<void>(v.value, v.value.get()));
}
// Variable ids are unique in the process, so the marks outlive no
// variable's identity; both are per thread, as interpreters are.
thread_local std::unordered_set<int64_t> autocastIds;
thread_local std::optional<ir::DType> autocastTo;

Value readVariableAsIs(Interpreter &in, VariableObject &v);
}  // namespace

void markAutocastVariable(const VariableObject &v) { autocastIds.insert(v.id); }
bool isAutocastVariable(const VariableObject &v) { return autocastIds.count(v.id) != 0; }
std::optional<ir::DType> setAutocastDtype(std::optional<ir::DType> dtype) {
  std::optional<ir::DType> previous = autocastTo;
  autocastTo = dtype;
  return previous;
}
std::optional<ir::DType> autocastDtypeFor(const VariableObject &v) {
  if (!autocastTo || *autocastTo == v.dtype || !ir::isFloating(v.dtype) || !autocastIds.count(v.id)) return std::nullopt;
  return autocastTo;
}

namespace {
void checkDistributedRead(Interpreter &in, VariableObject &v);
}

Value readVariable(Interpreter &in, VariableObject &v) {
  checkDistributedRead(in, v);
  Value r = readVariableAsIs(in, v);
  if (std::optional<ir::DType> to = autocastDtypeFor(v))
    return Value(callOp1(in, OpKind::Cast, {Ref<TensorObject>(r.as<TensorObject>())}, {{"dtype", *to}}, "Cast"));
  return r;
}

namespace {
Value readVariableAsIs(Interpreter &in, VariableObject &v) {
  if (GraphScope *g = currentGraph(in)) {
    const std::string &cap = captureVariable(in, *g, v);
    ir::Value *r = g->builder().readVariable(cap, in.currentSpan());
    std::string name = g->uniqueName("ReadVariableOp");
    auto t = wrapSym(r, g, name);
    // Tapes see a read as Identity(variable -> value), so gradients with
    // respect to the variable sum over all its reads.
    for (TapeObject *tape : ctx(in).tapes) {
      if (tape->graph != g) continue;
      if (v.trainable && tape->watchAccessed) {
        tape->tape.watch(v.id);
        tape->noteWatched(v);
      }
      // A read inside a cond / loop body is hoisted when the region op is
      // recorded (tape_record.cpp).
      if (tape->region != &g->builder().region()) continue;
      int64_t inId = v.id, outId = valueId(r);
      if (tape->tape.shouldRecord(std::span<const int64_t>(&inId, 1))) {
        TapeValue iv = r, ov = r;
        tape->tape.record(OpKind::Identity, {}, std::span<const int64_t>(&inId, 1), std::span<const TapeValue>(&iv, 1),
                          std::span<const int64_t>(&outId, 1), std::span<const TapeValue>(&ov, 1));
      }
    }
    return t;
  }
  if (!v.value || !v.value->valid())
    raiseTf(in, "FailedPreconditionError", fmt::format("Could not find variable {}. This could mean that the variable has been deleted. In TF1, it can also mean the variable is uninitialized.", v.name));
  logEagerOpPlacement(in, "ReadVariableOp");
  auto t = make<TensorObject>();
  t->eager = *v.value;
  for (TapeObject *tape : ctx(in).tapes) {
    if (tape->graph) continue;
    if (v.trainable && tape->watchAccessed) {
      tape->tape.watch(v.id);
      tape->noteWatched(v);
    }
    int64_t inId = v.id, outId = t->id;
    if (tape->tape.shouldRecord(std::span<const int64_t>(&inId, 1))) {
      TapeValue iv = t->eager, ov = t->eager;
      tape->tape.record(OpKind::Identity, {}, std::span<const int64_t>(&inId, 1), std::span<const TapeValue>(&iv, 1),
                        std::span<const int64_t>(&outId, 1), std::span<const TapeValue>(&ov, 1));
    }
  }
  return t;
}
}  // namespace

void assignVariable(Interpreter &in, VariableObject &v, OpKind kind, const Value &value) {
  // TF converts the value with the variable's dtype: a list of ints into a
  // float variable is fine, a tensor of another dtype is its ValueError.
  auto t = toTensor(in, value, v.dtype);
  if (kind != OpKind::AssignVariable && v.shape.ranked && v.shape.fullyDefined() && t->shape().ranked &&
      t->shape().fullyDefined() && t->shape() != v.shape) {
    // The assign_add/sub kernels want equal shapes (no broadcasting).
    auto debug = [](const ir::Shape &s) {
      std::string d;
      for (size_t i = 0; i < s.dims.size(); ++i) d += (i ? "," : "") + std::to_string(s.dims[i]);
      return "[" + d + "]";
    };
    std::string message =
        fmt::format("Cannot update variable with shape {} using a Tensor with shape {}, shapes must be equal. [Op:{}]",
                    debug(v.shape), debug(t->shape()), ir::tfOpType(kind));
    raiseTf(in, "InvalidArgumentError", currentGraph(in) ? message : eagerOpErrorMessage(message));
  }
  if (kind == OpKind::AssignVariable) {
    // TF's ResourceVariable.assign checks shapes in Python, before any op
    // runs (eager or traced): a ValueError, not the kernel's error.
    ir::Shape vs = v.shape, ts = t->shape();
    bool compatible = !vs.ranked || !ts.ranked || vs.rank() == ts.rank();
    for (size_t i = 0; compatible && vs.ranked && ts.ranked && i < vs.rank(); ++i)
      compatible = vs.dims[i] == ts.dims[i] || vs.dims[i] == ir::kUnknownDim ||
                   ts.dims[i] == ir::kUnknownDim;
    if (!compatible)
      in.raise("ValueError",
               fmt::format("Cannot assign value to variable ' {}': Shape mismatch.The variable shape "
                           "{}, and the assigned value shape {} are incompatible.",
                           v.name, vs.tfString(), ts.tfString()));
  }
  if (GraphScope *g = currentGraph(in)) {
    const std::string &cap = captureVariable(in, *g, v);
    ir::Value *val = t->symbolic() ? t->sym : g->builder().constant(denseFromTensor(t->eager), in.currentSpan());
    try {
      g->builder().assignVariable(kind, cap, val, in.currentSpan());
    } catch (const ir::OpError &e) {
      raiseOpError(in, e);
    }
    return;
  }
  logEagerOpPlacement(in, ir::tfOpType(kind));
  Tensor nv = t->eager;
  if (kind != OpKind::AssignVariable) {
    if (!v.value->valid()) raiseTf(in, "FailedPreconditionError", fmt::format("Attempting to use uninitialized value {}", v.name));
    try {
      nv = runKernel(kind == OpKind::AssignAddVariable ? OpKind::Add : OpKind::Sub, std::vector<Tensor>{*v.value, nv}, {})[0];
    } catch (const ir::OpError &e) {
      raiseOpError(in, e);
    }
  }
  if (v.shape.ranked && v.shape.fullyDefined() && ir::Shape(nv.shape()) != v.shape)
    raiseTf(in, "InvalidArgumentError",
            fmt::format("Cannot update variable with shape {} using a Tensor with shape {}, shapes must be equal.",
                        v.shape.tfString(), ir::Shape(nv.shape()).tfString()));
  *v.value = nv.copy();
}

namespace {
struct DistributedMark {
  Value hooks;
  bool syncOnRead;
};
std::unordered_map<int64_t, DistributedMark> &distributedVariables() {
  static std::unordered_map<int64_t, DistributedMark> marks;
  return marks;
}
const DistributedMark *distributedMark(const VariableObject &v) {
  auto &marks = distributedVariables();
  if (marks.empty()) return nullptr;
  auto it = marks.find(v.id);
  return it == marks.end() ? nullptr : &it->second;
}
}  // namespace

namespace {
// A SyncOnRead variable read inside a replica: TF reads that replica's own
// copy, which the strategy's `_tfs_read` hook checks it can give.
void checkDistributedRead(Interpreter &in, VariableObject &v) {
  const DistributedMark *m = distributedMark(v);
  if (!m || !m->syncOnRead) return;
  Value hooks = m->hooks;
  in.call(in.getAttr(hooks, "_tfs_read"), std::vector<Value>{Value(Ref<VariableObject>(&v))});
}
}  // namespace

void markDistributedVariable(const VariableObject &v, Value hooks, bool syncOnRead) {
  distributedVariables()[v.id] = {std::move(hooks), syncOnRead};
}
const Value *distributedVariableHooks(const VariableObject &v) {
  const DistributedMark *m = distributedMark(v);
  return m ? &m->hooks : nullptr;
}
void forgetDistributedVariables() { distributedVariables().clear(); }

ClassObject *variableClass = nullptr, *tensorClass = nullptr, *ndarrayClass = nullptr;
// The classes type() answers, subclasses of tf.Tensor / tf.Variable as in
// TF: EagerTensor and SymbolicTensor (framework/ops.py), ResourceVariable.
ClassObject *eagerTensorClass = nullptr, *symbolicTensorClass = nullptr, *resourceVariableClass = nullptr;
// What type() answers for a tf.distribute strategy's variables.
ClassObject *mirroredVariableClass = nullptr, *syncOnReadVariableClass = nullptr;
namespace {
std::vector<Ref<ClassObject>> &concreteTensorClasses() {
  static std::vector<Ref<ClassObject>> owned;  // released with the TfContext that made them
  return owned;
}
}  // namespace

void installTensorClasses(Interpreter &in) {
  TfContext &c = ctx(in);
  if (c.tensorClass) return;
  auto makeClass = [&](const std::string &name, NativeFn ctor) {
    auto k = make<ClassObject>();
    k->name = name;
    k->construct = std::move(ctor);
    auto object = Ref<ClassObject>(in.builtin("object").as<ClassObject>());
    k->bases.push_back(object);
    k->mro = {k.get(), object.get()};
    return k;
  };
  // tf.Variable's constructor is set by the tf module (it calls tf.Variable).
  c.variableClass = makeClass("Variable", [](Interpreter &in, Args, const Kwargs &) -> Value {
    in.raise("TypeError", "tf.Variable is not available before `import tensorflow`");
  });
  c.tensorClass = makeClass("Tensor", [](Interpreter &in, Args, const Kwargs &) -> Value {
    in.raise("TypeError", "tf.Tensor objects are created by tf operations, not constructed directly");
  });
  c.ndarrayClass = makeClass("ndarray", [](Interpreter &in, Args, const Kwargs &) -> Value {
    in.raise("TypeError", "use np.array() to create arrays");
  });
  variableClass = c.variableClass.get();
  tensorClass = c.tensorClass.get();
  c.tensorClass->module = "tensorflow.python.framework.tensor";
  c.variableClass->module = "tensorflow.python.ops.variables";
  auto subclass = [&](const std::string &name, const Ref<ClassObject> &base, const char *module) {
    auto k = make<ClassObject>();
    k->name = name;
    k->module = module;
    k->construct = [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      if (variableClass && variableClass->construct) return variableClass->construct(in, a, kw);
      in.raise("TypeError", "tf.Tensor objects are created by tf operations, not constructed directly");
    };
    k->bases.push_back(base);
    k->mro = {k.get()};
    for (ClassObject *m : base->mro) k->mro.push_back(m);
    concreteTensorClasses().push_back(k);
    return k.get();
  };
  eagerTensorClass = subclass("EagerTensor", c.tensorClass, "tensorflow.python.framework.ops");
  symbolicTensorClass = subclass("SymbolicTensor", c.tensorClass, "tensorflow.python.framework.ops");
  eagerTensorClass->construct = symbolicTensorClass->construct = c.tensorClass->construct;
  resourceVariableClass = subclass("ResourceVariable", c.variableClass, "tensorflow.python.ops.resource_variable_ops");
  mirroredVariableClass = subclass("MirroredVariable", c.variableClass, "tensorflow.python.distribute.values");
  syncOnReadVariableClass = subclass("SyncOnReadVariable", c.variableClass, "tensorflow.python.distribute.values");
  c.ndarrayClass->module = "numpy";
  ndarrayClass = c.ndarrayClass.get();
  installNumpyTypes(in, c);
}

TfContext::~TfContext() {
  forgetWrappedFunctions();
  forgetDistributedVariables();
  // The globals name this run's classes only while it lasts.
  namespace g = ::tfs::runtime::tf;
  if (g::variableClass == variableClass.get()) g::variableClass = nullptr;
  if (g::tensorClass == tensorClass.get()) {
    g::tensorClass = nullptr;
    g::eagerTensorClass = g::symbolicTensorClass = g::resourceVariableClass = nullptr;
    g::mirroredVariableClass = g::syncOnReadVariableClass = nullptr;
    concreteTensorClasses().clear();
  }
  if (g::ndarrayClass == ndarrayClass.get()) g::ndarrayClass = nullptr;
  forgetNumpyTypes(*this);
}

ClassObject *VariableObject::cls() const {
  if (const DistributedMark *m = distributedMark(*this))
    if (ClassObject *k = m->syncOnRead ? syncOnReadVariableClass : mirroredVariableClass) return k;
  return resourceVariableClass ? resourceVariableClass : variableClass;
}

// An eager variable's numpy() and repr read it through read_value(): a
// ReadVariableOp, then an Identity.
static void logEagerVariableRead(Interpreter &in) {
  logEagerOpPlacement(in, "ReadVariableOp");
  logEagerOpPlacement(in, "Identity");
}

std::optional<Value> VariableObject::getAttr(Interpreter &in, const std::string &attr) {
  Ref<VariableObject> self(this);
  if (attr == "name") return in.str(name);
  if (attr == "dtype") return dtypeValue(dtype);
  if (attr == "shape") return Value(make<TensorShapeObject>(shape));
  if (attr == "trainable") return Value::boolean(trainable);
  // A resource variable's handle lives on the host CPU, inside a
  // tf.function too (TF places the captured handle there).
  if (attr == "device") return in.str("/job:localhost/replica:0/task:0/device:CPU:0");
  if (attr == "ref" || attr == "experimental_ref") return referenceTo(in, Value(self));
  if (attr == "numpy")
    return in.native("numpy", [self](Interpreter &in, Args, const Kwargs &) -> Value {
      if (!self->value->valid()) raiseTf(in, "FailedPreconditionError", "variable is uninitialized");
      logEagerVariableRead(in);
      return wrap(*self->value, true);
    });
  if (attr == "value")
    return in.native(attr, [self](Interpreter &in, Args, const Kwargs &) { return readVariable(in, *self); });
  if (attr == "read_value")
    return in.native(attr, [self](Interpreter &in, Args, const Kwargs &) {
      Value r = readVariable(in, *self);
      if (!currentGraph(in)) logEagerOpPlacement(in, "Identity");  // TF's read_value ends in an identity
      return r;
    });
  // A v1 graph's variable assigns through an op (compat_v1's hook).
  if (graphMode && ctx(in).v1AttrHook && attr.rfind("assign", 0) == 0)
    if (auto v = ctx(in).v1AttrHook(in, Value(self), attr)) return v;
  auto assigner = [&](OpKind k) {
    return in.native(attr, [self, k](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      Value v = a.empty() ? Value() : a[0];
      for (const auto &[key, val] : kw) if (key == "value" || key == "delta") v = val;
      // A mirrored variable: the strategy decides (aggregation in a replica).
      if (const Value *hooks = distributedVariableHooks(*self)) {
        Value hook = in.getAttr(*hooks, "_tfs_assign");
        return in.call(hook, std::vector<Value>{Value(self), in.str(std::string(ir::tfOpType(k))), v});
      }
      assignVariable(in, *self, k, v);
      return Value(self);
    });
  };
  if (attr == "assign") return assigner(OpKind::AssignVariable);
  if (attr == "assign_add") return assigner(OpKind::AssignAddVariable);
  if (attr == "assign_sub") return assigner(OpKind::AssignSubVariable);
  if (graphMode && ctx(in).v1AttrHook)
    if (auto v = ctx(in).v1AttrHook(in, Value(self), attr)) return v;
  if (attr == "initializer") return Value(self);
  // The sparse updates and reads (lib/tf/_tf_variable_sparse.tfs).
  static const std::unordered_set<std::string> kSparse = {
      "scatter_add",    "scatter_sub",    "scatter_update",    "scatter_max", "scatter_min",
      "scatter_nd_add", "scatter_nd_sub", "scatter_nd_update", "sparse_read", "gather_nd"};
  if (kSparse.count(attr))
    return in.native(attr, [self, attr](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      frontend::SourceSpan span = in.currentSpan();
      Value module = in.importModule("_tf_variable_sparse");
      in.restoreSpan(span);
      std::vector<Value> args{Value(self)};
      args.insert(args.end(), a.begin(), a.end());
      return in.call(in.getAttr(module, attr), args, kw);
    });
  return std::nullopt;
}

std::optional<Value> VariableObject::binary(Interpreter &in, BinOp op, const Value &other, bool reflected) {
  Value self = readVariable(in, *this);
  return reflected ? in.binary(op, other, self) : in.binary(op, self, other);
}
std::optional<Value> VariableObject::compare(Interpreter &in, CmpOp op, const Value &other) {
  // TF 1 (a v1 graph): identity; TF 2: element-wise tf.equal.
  if ((op == CmpOp::Eq || op == CmpOp::Ne) && (other.isNone() || !tensorEqualityActive(in)))
    return Value::boolean((other.obj() == this) == (op == CmpOp::Eq));
  return in.compare(op, readVariable(in, *this), other);
}
std::optional<int64_t> VariableObject::hash(Interpreter &in) {
  if (tensorEqualityActive(in)) in.raise("TypeError", "Variable is unhashable. Instead, use tensor.ref() as the key.");
  return int64_t(reinterpret_cast<intptr_t>(this));
}
std::optional<Value> VariableObject::unary(Interpreter &in, UnaryOp op) { return in.unary(op, readVariable(in, *this)); }
std::optional<bool> VariableObject::truth(Interpreter &in) { return in.truth(readVariable(in, *this)); }
std::optional<Value> VariableObject::getItem(Interpreter &in, const Value &k) { return in.getItem(readVariable(in, *this), k); }
std::optional<int64_t> VariableObject::toInt(Interpreter &in) { return in.toInt(readVariable(in, *this)); }
std::optional<double> VariableObject::toFloat(Interpreter &in) { return in.toFloat(readVariable(in, *this)); }
std::optional<std::string> VariableObject::format(Interpreter &in, const std::string &spec) {
  return in.format(readVariable(in, *this), spec);
}

std::optional<std::string> VariableObject::repr(Interpreter &in) {
  if (const Value *hooks = distributedVariableHooks(*this)) {
    Value hook = in.getAttr(*hooks, "_tfs_repr");
    return in.str(in.call(hook, std::vector<Value>{Value(Ref<VariableObject>(this))}));
  }
  std::string head = fmt::format("<tf.Variable '{}' shape={} dtype={}", name, shape.tfString(), ir::dtypeName(dtype));
  if (isAutocastVariable(*this)) {
    // Keras's AutoCastVariable: the dtype it reads as now, and that read.
    DType to = autocastDtypeFor(*this).value_or(dtype);
    head = fmt::format("<AutoCastVariable '{}' shape={} dtype={} dtype_to_cast_to={}", name, shape.tfString(),
                       ir::dtypeName(dtype), ir::dtypeName(to));
    if (graphMode || !value->valid() || currentGraph(in)) return head + ">";
    Value read = readVariable(in, *this);
    return head + ", numpy=" + numpyReprText(read.as<TensorObject>()->eager) + ">";
  }
  if (graphMode || !value->valid() || currentGraph(in)) return head + ">";
  logEagerVariableRead(in);
  return head + ", numpy=" + numpyReprText(*value) + ">";
}
std::optional<std::string> VariableObject::str(Interpreter &in) { return repr(in); }

}  // namespace tfs::runtime::tf
