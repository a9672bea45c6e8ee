// The numpy subset TensorFlow examples use: arrays (TensorObjects with
// numpy=true: numpy printing, int64/float64 defaults), constructors,
// random, elementwise functions and reductions; tensors passed in become
// arrays, so np.multiply(tf_a, tf_b) gives an ndarray.
#include "runtime/kernels/kernels.h"
#include "runtime/tensor/allocator.h"
#include "lib/tf/tf_lib.h"

#include <cmath>
#include <fmt/format.h>
#include <random>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

Tensor asArray(Interpreter &in, const Value &v) {
  if (auto *t = v.as<TensorObject>()) {
    if (t->symbolic()) raiseTf(in, "NotImplementedError", fmt::format("Cannot convert a symbolic tf.Tensor ({}) to a numpy array.", t->name));
    return t->eager;
  }
  if (auto *var = v.as<VariableObject>()) return *var->value;
  return tensorFromPython(in, v, std::nullopt, true);
}

Value arr(Tensor t) { return wrap(std::move(t), true); }



std::vector<int64_t> shapeOf(Interpreter &in, Args a, size_t from) {
  std::vector<int64_t> dims;
  if (a.size() == from + 1 && (a[from].as<TupleObject>() || a[from].as<ListObject>())) {
    for (auto &d : in.toList(a[from])) dims.push_back(in.toInt(d));
  } else {
    for (size_t i = from; i < a.size(); ++i) dims.push_back(in.toInt(a[i]));
  }
  return dims;
}

Value reduce(Interpreter &in, OpKind k, Args a, const Kwargs &kw) {
  Tensor x = asArray(in, a[0]);
  Value axis = a.size() > 1 ? a[1] : Value();
  for (const auto &[key, v] : kw) if (key == "axis") axis = v;
  ir::Attrs attrs{{"keepdims", false}};
  if (!axis.isNone()) attrs["axis"] = std::vector<int64_t>{in.toInt(axis)};
  if (k == OpKind::ReduceMean && !ir::isFloating(x.dtype()))
    x = numpyKernel(in, OpKind::Cast, {x}, ir::Attrs{{"dtype", DType::Float64}});
  if ((k == OpKind::ReduceAll || k == OpKind::ReduceAny) && x.dtype() != DType::Bool)
    x = numpyKernel(in, OpKind::Cast, {x}, ir::Attrs{{"dtype", DType::Bool}});
  Tensor r = numpyKernel(in, k, {x}, attrs);
  return arr(r);
}

// Every native function of a numpy module reports OpErrors as numpy does.
void raiseNumpyErrors(ModuleObject &m) {
  for (auto &[name, v] : m.scope->vars) {
    auto *nf = v.as<NativeFunction>();
    if (!nf) continue;
    NativeFn inner = nf->fn;
    nf->fn = [inner](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      try {
        return inner(in, a, kw);
      } catch (const ir::OpError &e) {
        in.raise(numpyErrorClass(e), e.message);
      }
    };
  }
}

}  // namespace

// The element count of a new array of this shape, with numpy's errors: a
// negative dimension is ValueError, an array past the memory budget is
// MemoryError before any buffer is built.
static int64_t numpyElementCount(Interpreter &in, const std::vector<int64_t> &shape) {
  int64_t n = 1;
  bool tooLarge = false;
  for (int64_t d : shape) {
    if (d < 0) in.raise("ValueError", "negative dimensions are not allowed");
    tooLarge |= __builtin_mul_overflow(n, d, &n);
  }
  int64_t limit = memoryLimit();
  if (tooLarge || (limit > 0 && n > limit / 8))
    in.raise("MemoryError", fmt::format("Unable to allocate an array with shape ({}{})", fmt::join(shape, ", "),
                                        shape.size() == 1 ? "," : ""));
  return n;
}

Value makeNumpyModule(Interpreter &in) {
  auto np = make<ModuleObject>("numpy");
  auto random = make<ModuleObject>("numpy.random");
  np->scope->vars["random"] = random;
  auto def = [&](ModuleObject &m, const std::string &name, NativeFn fn) { m.scope->vars[name] = in.native(name, std::move(fn)); };
  for (int i = 0; i < ir::kNumDTypes; ++i) {
    DType d = DType(i);
    if (d != DType::String && d != DType::BFloat16)  // numpy has no bfloat16
      np->scope->vars[ir::dtypeName(d)] = dtypeValue(d);
  }
  np->scope->vars["bool_"] = dtypeValue(DType::Bool);
  installTensorClasses(in);
  np->scope->vars["ndarray"] = Value(Ref<Object>(ndarrayClass));
  np->scope->vars["pi"] = Value::real(M_PI);
  np->scope->vars["newaxis"] = Value();
  def(*np, "array", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    std::optional<DType> d;
    for (const auto &[k, v] : kw) if (k == "dtype") d = dtypeArg(in, v);
    if (a.size() > 1) d = dtypeArg(in, a[1]);
    Tensor t = asArray(in, a[0]);
    if (d && *d != t.dtype()) t = numpyKernel(in, OpKind::Cast, {t}, ir::Attrs{{"dtype", *d}});
    Value v = arr(t.copy());
    v.as<TensorObject>()->zeroDimArray = true;
    return v;
  });
  np->scope->vars["asarray"] = np->scope->vars["array"];
  for (const char *n : {"zeros", "ones"}) {
    double v = std::string(n) == "ones" ? 1 : 0;
    def(*np, n, [v](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      std::optional<DType> d;
      for (const auto &[k, x] : kw) if (k == "dtype") d = dtypeArg(in, x);
      std::vector<int64_t> shape = shapeOf(in, a, 0);
      int64_t n = numpyElementCount(in, shape);
      return arr(Tensor::fromDoubles(d.value_or(DType::Float64), shape, std::vector<double>(size_t(n), v)));
    });
  }
  def(*np, "arange", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    double start = 0, stop, step = 1;
    bool anyFloat = false;
    for (auto &x : a) anyFloat |= x.isFloat();
    if (a.size() == 1) stop = in.toFloat(a[0]);
    else { start = in.toFloat(a[0]); stop = in.toFloat(a[1]); if (a.size() > 2) step = in.toFloat(a[2]); }
    std::optional<DType> d;
    for (const auto &[k, x] : kw) if (k == "dtype") d = dtypeArg(in, x);
    if (step == 0) in.raise("ZeroDivisionError", "division by zero");
    double count = std::ceil((stop - start) / step);
    if (std::isnan(count)) in.raise("ValueError", "arange: cannot compute length");
    int64_t n = numpyElementCount(in, {count > 0 ? int64_t(std::min(count, 9.2e18)) : 0});
    std::vector<double> vals;
    for (int64_t i = 0; i < n; ++i) vals.push_back(start + double(i) * step);
    return arr(Tensor::fromDoubles(d.value_or(anyFloat ? DType::Float64 : DType::Int64), {n}, vals));
  });
  installNumpyRandom(in, *random);
  auto binaryFn = [&](const char *name, BinOp op) {
    def(*np, name, [op](Interpreter &in, Args a, const Kwargs &) -> Value {
      return tensorBinary(in, op, arr(asArray(in, a[0])), arr(asArray(in, a[1])), true);
    });
  };
  binaryFn("add", BinOp::Add);
  binaryFn("subtract", BinOp::Sub);
  binaryFn("multiply", BinOp::Mul);
  binaryFn("divide", BinOp::Div);
  binaryFn("matmul", BinOp::MatMul);
  binaryFn("dot", BinOp::MatMul);
  binaryFn("power", BinOp::Pow);
  def(*np, "mean", [](Interpreter &in, Args a, const Kwargs &kw) { return reduce(in, OpKind::ReduceMean, a, kw); });
  def(*np, "sum", [](Interpreter &in, Args a, const Kwargs &kw) { return reduce(in, OpKind::ReduceSum, a, kw); });
  def(*np, "max", [](Interpreter &in, Args a, const Kwargs &kw) { return reduce(in, OpKind::ReduceMax, a, kw); });
  def(*np, "min", [](Interpreter &in, Args a, const Kwargs &kw) { return reduce(in, OpKind::ReduceMin, a, kw); });
  def(*np, "all", [](Interpreter &in, Args a, const Kwargs &kw) { return reduce(in, OpKind::ReduceAll, a, kw); });
  def(*np, "any", [](Interpreter &in, Args a, const Kwargs &kw) { return reduce(in, OpKind::ReduceAny, a, kw); });
  def(*np, "argmax", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    Tensor x = asArray(in, a[0]);
    if (a.size() < 2) x = x.reshaped({x.numElements()});
    return arr(numpyKernel(in, OpKind::ArgMax, {x}, ir::Attrs{{"axis", a.size() > 1 ? in.toInt(a[1]) : int64_t(0)}}));
  });
  for (const char *n : {"exp", "log", "sqrt", "tanh", "abs", "square"}) {
    OpKind k = std::string(n) == "exp" ? OpKind::Exp : std::string(n) == "log" ? OpKind::Log : std::string(n) == "sqrt" ? OpKind::Sqrt
               : std::string(n) == "tanh" ? OpKind::Tanh : std::string(n) == "abs" ? OpKind::Abs : OpKind::Square;
    def(*np, n, [k](Interpreter &in, Args a, const Kwargs &) -> Value {
      Tensor x = asArray(in, a[0]);
      if (k != OpKind::Abs && k != OpKind::Square && !ir::isFloating(x.dtype()))
        x = numpyKernel(in, OpKind::Cast, {x}, ir::Attrs{{"dtype", DType::Float64}});
      return arr(numpyKernel(in, k, {x}, {}));
    });
  }
  def(*np, "reshape", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    Tensor x = asArray(in, a[0]);
    std::vector<int64_t> shape;
    for (auto &d : in.toList(a[1])) shape.push_back(in.toInt(d));
    return arr(numpyKernel(in, OpKind::Reshape, {x}, ir::Attrs{{"shape", shape}}));
  });
  def(*np, "transpose", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    return arr(numpyKernel(in, OpKind::Transpose, {asArray(in, a[0])}, {}));
  });
  def(*np, "allclose", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    Tensor x = asArray(in, a[0]), y = asArray(in, a[1]);
    if (x.numElements() != y.numElements()) return Value::boolean(false);
    for (int64_t i = 0; i < x.numElements(); ++i) {
      double p = x.elementAsDouble(i), q = y.elementAsDouble(i);
      if (std::fabs(p - q) > 1e-8 + 1e-5 * std::fabs(q)) return Value::boolean(false);
    }
    return Value::boolean(true);
  });
  raiseNumpyErrors(*np);
  raiseNumpyErrors(*random);
  return np;
}

}  // namespace tfs::runtime::tf
