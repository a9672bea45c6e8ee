// ndarray attributes and methods (the engine's getAttr hook for numpy
// arrays): shape, dtype, T, ... and reshape, astype, sum, sort, fill, ...
//
// Methods that are numpy functions with the array first (a.sum(axis=0) is
// np.sum(a, axis=0)) bind their arguments to the function's own signature
// with the array in front; the others have their own signature here, with
// numpy's parameter names.
#include "lib/numpy/ndarray_text.h"
#include "lib/numpy/numpy_lib.h"
#include "lib/numpy/np_shape.h"
#include "lib/numpy/ufunc.h"
#include "lib/numpy/ufunc_kwargs.h"
#include "lib/tf/tf_lib.h"

#include <fmt/format.h>
#include <map>
#include <set>
#include <memory>

namespace tfs::runtime::tf::numpy {

Tensor sortedAlong(Interpreter &in, const Tensor &x, int64_t axis, bool stable);

namespace {

// Methods spelled exactly like the numpy function of the same name.
constexpr const char *kFunctionMethods[] = {
    "sum", "prod", "mean", "std", "var", "max", "min", "argmax", "argmin", "all", "any", "cumsum", "cumprod",
    "ptp", "argsort", "nonzero", "swapaxes", "repeat", "take", "trace", "searchsorted", "round", "argpartition",
};

// Python values of the elements (str for a '<U' array, bytes for '|S' and object ones).
Value tolist(Interpreter &in, const Tensor &t, char textKind) { return tensorToList(in, t, textKind); }

// Shape arguments given either as one tuple or spread: a.reshape(2, 3).
Value spreadOrSingle(Interpreter &in, const std::vector<Value> &args) {
  if (args.size() == 1) return args[0];
  return in.tuple(args);
}

using Method = std::function<Value(Interpreter &, TensorObject &, const Bound &)>;
struct MethodDef {
  const char *signature;
  Method fn;
};

std::vector<MethodDef> ownMethods() {
  std::vector<MethodDef> m;
  m.push_back({"reshape(*shape, order='C')", [](Interpreter &in, TensorObject &a, const Bound &b) {
                 if (b.varArgs().empty()) in.raise("TypeError", "reshape() takes exactly 1 argument (0 given)");
                 return reshapeArray(in, Value(Ref<Object>(&a)), spreadOrSingle(in, b.varArgs()), b["order"]);
               }});
  m.push_back({"transpose(*axes)", [](Interpreter &in, TensorObject &a, const Bound &b) {
                 Value axes;
                 if (b.varArgs().size() == 1 && !b.varArgs()[0].isNone()) axes = b.varArgs()[0];
                 else if (b.varArgs().size() > 1) axes = in.tuple(b.varArgs());
                 if (axes.isInt()) axes = in.tuple({axes});
                 return transposeArray(in, Value(Ref<Object>(&a)), axes);
               }});
  m.push_back({"flatten(order='C')", [](Interpreter &in, TensorObject &a, const Bound &b) {
                 std::string o = in.str(b["order"]);
                 Tensor t = a.eager;
                 if (o == "F") t = transposed(t, [&] {
                   std::vector<int64_t> p(t.rank());
                   for (size_t i = 0; i < p.size(); ++i) p[i] = int64_t(p.size() - 1 - i);
                   return p;
                 }());
                 else if (o != "C" && o != "A" && o != "K")
                   in.raise("ValueError", "order must be one of 'C', 'F', 'A', or 'K' (got '" + o + "')");
                 return newArray(t.reshaped({t.numElements()}));
               }});
  m.push_back({"ravel(order='C')", [](Interpreter &in, TensorObject &a, const Bound &b) {
                 return ravelArray(in, Value(Ref<Object>(&a)), b["order"]);
               }});
  m.push_back({"squeeze(axis=None)", [](Interpreter &in, TensorObject &a, const Bound &b) {
                 return squeezeArray(in, Value(Ref<Object>(&a)), b["axis"]);
               }});
  m.push_back({"copy(order='C')", [](Interpreter &in, TensorObject &a, const Bound &) { return newArray(a.eager.copy()); }});
  m.push_back({"astype(dtype, order='K', casting='unsafe', subok=!True, copy=True)",
               [](Interpreter &in, TensorObject &a, const Bound &b) {
                 DType d = dtypeParam(in, b["dtype"]).value_or(DType::Float64);
                 checkArrayCasting(in, {a.eager}, d, b["casting"]);
                 std::optional<TextDType> text = textDTypeParam(in, b["dtype"]);
                 if (d == DType::String || a.eager.dtype() == DType::String) return castText(in, a, d, text);
                 if (d == a.eager.dtype() && !in.truth(b["copy"])) return Value(Ref<Object>(&a));
                 Tensor t;
                 if (ir::isComplex(a.eager.dtype()) && !ir::isComplex(d) && d != DType::Bool) {
                   // numpy keeps the real part, with a ComplexWarning.
                   warnComplexCast(in);
                   t = cast(runKernel(ir::OpKind::Real, std::vector<Tensor>{a.eager}, {})[0], d);
                 } else {
                   t = d == a.eager.dtype() ? a.eager.copy() : cast(a.eager, d);
                 }
                 return a.eager.rank() == 0 && !a.zeroDimArray ? wrap(t, true) : newArray(t);
               }});
  m.push_back({"tolist()", [](Interpreter &in, TensorObject &a, const Bound &) { return tolist(in, a.eager, a.text.kind); }});
  m.push_back({"item(*args)", [](Interpreter &in, TensorObject &a, const Bound &b) {
                 const Tensor &t = a.eager;
                 int64_t flat = 0;
                 if (b.varArgs().empty()) {
                   if (t.numElements() != 1)
                     in.raise("ValueError", "can only convert an array of size 1 to a Python scalar");
                 } else if (b.varArgs().size() == 1) {
                   flat = in.toIndex(b.varArgs()[0]);
                   if (flat < -t.numElements() || flat >= t.numElements())
                     in.raise("IndexError", "index " + std::to_string(flat) + " is out of bounds for size " +
                                                std::to_string(t.numElements()));
                   if (flat < 0) flat += t.numElements();
                 } else {
                   if (b.varArgs().size() != t.rank()) in.raise("ValueError", "incorrect number of indices for array");
                   Shape cs = cStrides(t.shape());
                   for (size_t d = 0; d < t.rank(); ++d) {
                     int64_t i = in.toIndex(b.varArgs()[d]);
                     if (i < -t.shape()[d] || i >= t.shape()[d]) in.raise("IndexError", "index out of bounds");
                     flat += (i < 0 ? i + t.shape()[d] : i) * cs[d];
                   }
                 }
                 return tolist(in, gather(t, {}, {flat}), a.text.kind);
               }});
  m.push_back({"fill(value)", [](Interpreter &in, TensorObject &a, const Bound &b) {
                 assignAll(in, a, asTensor(in, b["value"]));
                 return Value();
               }});
  m.push_back({"sort(axis=-1, kind=None, order=!None)", [](Interpreter &in, TensorObject &a, const Bound &b) {
                 if (a.eager.rank() == 0) raiseAxisError(in, -1, 0);
                 int64_t axis = normalizeAxis(in, in.toIndex(b["axis"]), int64_t(a.eager.rank()));
                 std::string kind = b.isNone("kind") ? "quicksort" : in.str(b["kind"]);
                 assignAll(in, a, sortedAlong(in, a.eager, axis, kind == "stable" || kind == "mergesort"));
                 return Value();
               }});
  m.push_back({"partition(kth, axis=-1, kind='introselect', order=None)", [](Interpreter &in, TensorObject &a, const Bound &b) {
                 // In place: np.partition's result written back (numpy partitions the buffer).
                 const Def *part = findFunction("partition");
                 std::vector<Value> args{Value(Ref<Object>(&a)), b["kth"], b["axis"], b["kind"], b["order"]};
                 Value r = in.call(nativeWithSignature(in, part->signature, part->fn), args);
                 assignAll(in, a, asTensor(in, r));
                 return Value();
               }});
  m.push_back({"dot(b, out=None)", [](Interpreter &in, TensorObject &a, const Bound &b) {
                 return storeOut(in, b["out"], asTensor(in, dotValues(in, Value(Ref<Object>(&a)), b["b"])), "dot");
               }});
  m.push_back({"clip(min=None, max=None, out=None, **kwargs)", [](Interpreter &in, TensorObject &a, const Bound &b) {
                 const Def *clip = findFunction("clip");
                 Value f = nativeWithSignature(in, clip->signature, clip->fn);
                 // The ufunc keywords (where=, dtype=, casting=, ...) go on to np.clip.
                 return in.call(f, std::vector<Value>{Value(Ref<Object>(&a)), b["min"], b["max"], b["out"]},
                                b.varKwargs());
               }});
  m.push_back({"conj()", [](Interpreter &, TensorObject &a, const Bound &) {
                 if (ir::isComplex(a.eager.dtype())) return newArray(runKernel(ir::OpKind::Conj, std::vector<Tensor>{a.eager}, {})[0]);
                 return Value(Ref<Object>(&a));
               }});
  m.push_back({"view(dtype=!None, type=!None)",
               [](Interpreter &in, TensorObject &a, const Bound &) {
                 Layout l = layoutOf(a);
                 return makeView(a, a.eager.shape(), l.offset, l.strides);
               }});
  m.push_back({"tofile(fid, sep='', format='%s')", [](Interpreter &in, TensorObject &a, const Bound &b) {
                 // Written in .tfs over tobytes() and file objects (_np_rawfile.tfs).
                 Value fn = *preludeApi(in, "_np_rawfile", "rawfile_api", "tofile");
                 return in.call(fn, std::vector<Value>{Value(Ref<Object>(&a)), b["fid"], b["sep"], b["format"]});
               }});
  m.push_back({"tobytes(order=!'C')", [](Interpreter &in, TensorObject &a, const Bound &) {
                 if (a.eager.dtype() == DType::String) in.raise("NotImplementedError", "tobytes() of a string array is not supported by tfs");
                 return Value(make<BytesObject>(std::string(static_cast<const char *>(a.eager.rawData()), a.eager.byteSize())));
               }});
  return m;
}

struct BoundMethodTable {
  std::map<std::string, std::pair<std::shared_ptr<Signature>, Method>> own;
  std::map<std::string, std::pair<std::shared_ptr<Signature>, SignedFn>> functions;
};

const BoundMethodTable &methodTable() {
  static const BoundMethodTable table = [] {
    BoundMethodTable t;
    for (auto &m : ownMethods()) {
      auto sig = std::make_shared<Signature>(m.signature);
      t.own[sig->name()] = {sig, m.fn};
    }
    for (const char *name : kFunctionMethods) {
      const Def *d = findFunction(name);
      t.functions[name] = {std::make_shared<Signature>(d->signature), d->fn};
    }
    return t;
  }();
  return table;
}

const char *const kInplaceNames[] = {"__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__",
                                     "__ipow__", "__imatmul__", "__ilshift__", "__irshift__", "__iand__", "__ior__",
                                     "__ixor__"};
const BinOp kInplaceOps[] = {BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::FloorDiv, BinOp::Mod, BinOp::Pow,
                             BinOp::MatMul, BinOp::LShift, BinOp::RShift, BinOp::And, BinOp::Or, BinOp::Xor};

}  // namespace

// a.flags (ndarray_flags.cpp; declared here, its one user).
Value flagsOf(TensorObject &a);

std::optional<Value> ndarrayAttribute(Interpreter &in, TensorObject &a, const std::string &name) {
  Ref<TensorObject> self(&a);
  const Tensor &t = a.eager;
  if (name == "shape") {
    std::vector<Value> dims;
    for (int64_t d : t.shape()) dims.push_back(Value::integer(d));
    return in.tuple(dims);
  }
  if (name == "dtype") return a.text.kind ? textDTypeValue(a.text) : numpyDTypeValue(t.dtype());
  if (name == "ndim") return Value::integer(int64_t(t.rank()));
  if (name == "size") return Value::integer(t.numElements());
  if (name == "itemsize" && a.text.kind) return Value::integer((a.text.kind == 'U' ? 4 : 1) * a.text.width);
  if (name == "itemsize") return Value::integer(int64_t(t.dtype() == DType::String ? 0 : ir::dtypeSize(t.dtype())));
  if (name == "strides") {
    // numpy's byte strides: a view's placement in its root (ndarray_view.cpp),
    // C order for an array that owns its elements.
    int64_t item = a.text.kind ? (a.text.kind == 'U' ? 4 : 1) * a.text.width
                               : int64_t(t.dtype() == DType::String ? 8 : ir::dtypeSize(t.dtype()));
    std::vector<Value> out;
    // numpy allocates an empty array with zero strides.
    bool emptyOwner = !a.view && t.numElements() == 0;
    for (int64_t s : layoutOf(a).strides) out.push_back(Value::integer(emptyOwner ? 0 : s * item));
    return in.tuple(out);
  }
  if (name == "nbytes") return Value::integer(t.dtype() == DType::String ? 0 : int64_t(t.byteSize()));
  if (name == "T") return transposeArray(in, Value(self), Value());
  // The parts of a complex array (copies; numpy's are views); a real array
  // is its own real part and has zero imaginary parts.
  if (name == "real") return ir::isComplex(t.dtype()) ? newArray(runKernel(ir::OpKind::Real, std::vector<Tensor>{t}, {})[0]) : Value(self);
  if (name == "imag" && t.dtype() != DType::String)
    return ir::isComplex(t.dtype()) ? newArray(runKernel(ir::OpKind::Imag, std::vector<Tensor>{t}, {})[0])
                                    : newArray(runKernel(ir::OpKind::ZerosLike, std::vector<Tensor>{t}, {})[0]);
  if (name == "flat") return flatView(in, a);
  if (name == "flags") return flagsOf(a);
  if (name == "base") return a.view ? Value(a.view->base) : Value();
  if (name == "__abs__")
    return in.native(name, [self](Interpreter &in, Args, const Kwargs &) {
      return scalarOrArray(applyUnary(in, Unary::Absolute, Value(self)));
    });
  if (name == "__array__")
    return in.native(name, [self](Interpreter &, Args, const Kwargs &) { return Value(self); });
  // operator.index() / random.randint() of a numpy integer (np.uint8 from
  // max() of a uint8 array, as keras-io's siamese example hands randint).
  // A float scalar has none; an array's raises numpy's TypeError; np.bool_
  // keeps numpy 1.24's deprecated one ([10, 20][np.True_] is 20).
  if (name == "__index__") {
    bool integer = ir::isInteger(t.dtype());
    if (t.rank() == 0 && !a.zeroDimArray && t.dtype() == DType::Bool)
      return in.native(name, [self](Interpreter &in, Args, const Kwargs &) -> Value {
        return Value::integer(in.truth(Value(self)) ? 1 : 0);
      });
    if (t.rank() == 0 && !a.zeroDimArray && !integer) return std::nullopt;
    return in.native(name, [self, integer](Interpreter &in, Args, const Kwargs &) -> Value {
      if (!integer || self->eager.rank() != 0)
        in.raise("TypeError", "only integer scalar arrays can be converted to a scalar index");
      return in.call(in.builtin("int"), std::vector<Value>{Value(self)});
    });
  }
  // A numpy scalar is immutable: `x += 1` rebinds x to x + 1, as numpy's
  // scalars have no in-place operators.
  bool scalar = t.rank() == 0 && !a.zeroDimArray;
  if (name == "__round__" && scalar)
    return in.native(name, [self](Interpreter &in, Args args, const Kwargs &kw) -> Value {
      // round(x) is a Python int; round(x, n) is numpy's rint(x * 10**n) / 10**n in x's type
      // (round(np.float64(2.675), 2) == 2.68, where Python's float rounding says 2.67).
      static const Signature sig("__round__(ndigits=None)");
      Bound b = sig.bind(in, args, kw);
      if (b[0].isNone()) return in.call(in.builtin("round"), std::vector<Value>{Value::real(in.toFloat(Value(self)))});
      return in.call(in.getAttr(Value(self), "round"), std::vector<Value>{b[0]});
    });
  for (size_t i = 0; i < std::size(kInplaceNames); ++i)
    if (name == kInplaceNames[i]) {
      if (scalar) return std::nullopt;
      BinOp op = kInplaceOps[i];
      return in.native(name, [self, op](Interpreter &in, Args args, const Kwargs &) {
        return ndarrayInplace(in, *self, op, args[0]);
      });
    }
  const BoundMethodTable &table = methodTable();
  if (auto it = table.own.find(name); it != table.own.end()) {
    auto entry = it->second;
    return in.native(name, [self, entry](Interpreter &in, Args args, const Kwargs &kw) {
      return finishText(in, entry.second(in, *self, entry.first->bind(in, args, kw)), {Value(self)});
    });
  }
  if (auto it = table.functions.find(name); it != table.functions.end()) {
    auto entry = it->second;
    return in.native(name, [self, entry](Interpreter &in, Args args, const Kwargs &kw) {
      std::vector<Value> all{Value(self)};
      all.insert(all.end(), args.begin(), args.end());
      return finishText(in, entry.second(in, entry.first->bind(in, all, kw)), {Value(self)});
    });
  }
  // Methods numpy defines over its Python-level functions (_np_index_tricks.tfs).
  if (auto fn = preludeApi(in, "_np_index_tricks", "ndarray_methods", name))
    return Value(make<BoundMethod>(Value(self), *fn));
  // numpy 1.24's other ndarray attributes: named, not mistaken for a typo.
  static const std::set<std::string> kNumpyHas = {"byteswap", "ctypes",   "data",     "dump",    "dumps",
                                                  "getfield", "newbyteorder", "resize", "setfield", "setflags",
                                                  "tofile",   "tostring"};
  if (kNumpyHas.count(name))
    in.raise("NotImplementedError", fmt::format("numpy.ndarray.{} is not supported by tfs", name));
  in.raise("AttributeError", fmt::format("'numpy.ndarray' object has no attribute '{}'", name));
}

}  // namespace tfs::runtime::tf::numpy
