// tf.raw_ops entries of the spectral ops (FFT ... IRFFT3D), Lu and
// MaxPoolWithArgmax, bound by TF's raw-op signatures (keyword-only
// arguments). tf.signal.* (signal/_tf_signal.tfs), tf.linalg.lu
// (linalg/_tf_linalg.tfs) and tf.nn.max_pool_with_argmax are written on top
// of them, as TF's Python wraps its generated op functions.
#include "lib/tf/tf_lib.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

std::string nameOr(Interpreter &in, const Bound &a, const char *dflt) {
  return a.isNone("name") ? dflt : in.str(a["name"]);
}

Value tupleOf(Interpreter &in, const std::vector<Ref<TensorObject>> &outs) {
  std::vector<Value> items(outs.begin(), outs.end());
  return in.tuple(items);
}

// A dtype attr given as a tf.DType (or its name): `allowed` are TF's.
DType dtypeAttr(Interpreter &in, const Value &v, const char *attr, std::initializer_list<DType> allowed) {
  std::optional<DType> t = dtypeArg(in, v);
  if (t)
    for (DType ok : allowed)
      if (*t == ok) return *t;
  std::string list;
  for (DType ok : allowed) list += (list.empty() ? "" : ", ") + std::string(ir::dtypeTfTypeName(ok));
  raiseTf(in, "InvalidArgumentError", fmt::format("Value for attr '{}' of {} is not in the list of allowed values: {}",
                                                  attr, in.repr(v), list));
}

struct ComplexFft {
  const char *signature;
  OpKind kind;
};

struct RealFft {
  const char *signature;
  OpKind kind;
  bool inverse;
};

}  // namespace

void installSpectralRawOps(Interpreter &in, ModuleObject &tf) {
  auto raw = submodule(in, tf, "raw_ops");
  static const ComplexFft kComplex[] = {
      {"FFT(*, input, name=None)", OpKind::Fft},       {"IFFT(*, input, name=None)", OpKind::Ifft},
      {"FFT2D(*, input, name=None)", OpKind::Fft2d},   {"IFFT2D(*, input, name=None)", OpKind::Ifft2d},
      {"FFT3D(*, input, name=None)", OpKind::Fft3d},   {"IFFT3D(*, input, name=None)", OpKind::Ifft3d},
  };
  for (const ComplexFft &op : kComplex)
    defSig(in, *raw, op.signature, [&op](Interpreter &in, const Bound &a) -> Value {
      // A Python list or number converts to complex64 (the op's default
      // Tcomplex), as TF's generated wrapper converts it.
      const Value &v = a["input"];
      auto x = v.as<TensorObject>() ? toTensor(in, v) : toTensor(in, v, DType::Complex64);
      return Value(callOp1(in, op.kind, {x}, {}, nameOr(in, a, ir::tfOpType(op.kind))));
    });
  static const RealFft kReal[] = {
      {"RFFT(*, input, fft_length, Tcomplex='complex64', name=None)", OpKind::Rfft, false},
      {"IRFFT(*, input, fft_length, Treal='float32', name=None)", OpKind::Irfft, true},
      {"RFFT2D(*, input, fft_length, Tcomplex='complex64', name=None)", OpKind::Rfft2d, false},
      {"IRFFT2D(*, input, fft_length, Treal='float32', name=None)", OpKind::Irfft2d, true},
      {"RFFT3D(*, input, fft_length, Tcomplex='complex64', name=None)", OpKind::Rfft3d, false},
      {"IRFFT3D(*, input, fft_length, Treal='float32', name=None)", OpKind::Irfft3d, true},
  };
  for (const RealFft &op : kReal)
    defSig(in, *raw, op.signature, [&op](Interpreter &in, const Bound &a) -> Value {
      // The op's own dtype attr picks the input's (float32 <-> complex64,
      // float64 <-> complex128), as TF's registered kernels pair them.
      DType want = op.inverse ? dtypeAttr(in, a["Treal"], "Treal", {DType::Float32, DType::Float64})
                              : dtypeAttr(in, a["Tcomplex"], "Tcomplex", {DType::Complex64, DType::Complex128});
      DType inType = op.inverse ? (want == DType::Float32 ? DType::Complex64 : DType::Complex128)
                                : (want == DType::Complex64 ? DType::Float32 : DType::Float64);
      auto x = toTensor(in, a["input"], std::nullopt, inType);
      if (x->dtype() != inType)
        raiseTf(in, "InvalidArgumentError",
                fmt::format("cannot compute {} as input #0(zero-based) was expected to be a {} tensor but is a {} "
                            "tensor [Op:{}]",
                            ir::tfOpType(op.kind), ir::dtypeTfTypeName(inType), ir::dtypeTfTypeName(x->dtype()),
                            ir::tfOpType(op.kind)));
      std::vector<Ref<TensorObject>> xs{x};
      ir::Attrs attrs;
      addShapeArg(xs, attrs, "fft_length", shapeArg(in, a["fft_length"], "fft_length"));
      return Value(callOp1(in, op.kind, xs, attrs, nameOr(in, a, ir::tfOpType(op.kind))));
    });
  defSig(in, *raw, "Lu(*, input, output_idx_type='int32', name=None)", [](Interpreter &in, const Bound &a) -> Value {
    DType idx = dtypeAttr(in, a["output_idx_type"], "output_idx_type", {DType::Int32, DType::Int64});
    auto x = toTensor(in, a["input"]);
    return tupleOf(in, callOp(in, OpKind::Lu, {x}, {{"output_idx_type", idx}}, nameOr(in, a, "Lu")));
  });
  defSig(in, *raw,
         "MaxPoolWithArgmax(*, input, ksize, strides, padding, Targmax='int64', include_batch_in_index=False, "
         "name=None)",
         [](Interpreter &in, const Bound &a) -> Value {
           DType idx = dtypeAttr(in, a["Targmax"], "Targmax", {DType::Int32, DType::Int64});
           auto ints = [&](const char *key) {
             std::vector<int64_t> v;
             for (const Value &d : in.toList(a[key])) v.push_back(in.toInt(d));
             return v;
           };
           auto x = toTensor(in, a["input"]);
           ir::Attrs attrs{{"ksize", ints("ksize")},
                           {"strides", ints("strides")},
                           {"padding", in.str(a["padding"])},
                           {"Targmax", idx},
                           {"include_batch_in_index", in.truth(a["include_batch_in_index"])}};
           return tupleOf(in, callOp(in, OpKind::MaxPoolWithArgmax, {x}, attrs, nameOr(in, a, "MaxPoolWithArgmax")));
         });
}

}  // namespace tfs::runtime::tf
