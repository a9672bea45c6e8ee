// tf.complex and the parts of complex tensors (tf.math.real, imag, conj,
// angle), with TF's behaviour for real inputs (real(x) is x, imag(x) zeros,
// angle(x) pi where x < 0).
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"

#include <cmath>
#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

std::string nodeName(Interpreter &in, const Bound &a, const char *dflt) {
  return a.isNone("name") ? std::string(dflt) : in.str(a["name"]);
}

Value part(Interpreter &in, const Bound &a, OpKind k, const char *node) {
  auto x = toTensor(in, a["input"]);
  DType d = x->dtype();
  if (ir::isComplex(d)) return Value(callOp1(in, k, {x}, {}, nodeName(in, a, node)));
  if (k == OpKind::Real) return Value(x);
  if (k == OpKind::Imag) return Value(callOp1(in, OpKind::ZerosLike, {x}, {}, "zeros_like"));
  // angle of a real number: pi where negative, else 0.
  auto zero = callOp1(in, OpKind::ZerosLike, {x}, {}, "zeros_like");
  auto pi = callOp1(in, OpKind::Mul, {callOp1(in, OpKind::OnesLike, {x}, {}, "ones_like"),
                                      toTensor(in, Value::real(M_PI), d)}, {}, "mul");
  auto neg = callOp1(in, OpKind::Less, {x, zero}, {}, "Less");
  return Value(callOp1(in, OpKind::Select, {neg, pi, zero}, {}, "SelectV2"));
}

}  // namespace

void installComplexOps(Interpreter &in, ModuleObject &tf, ModuleObject &math) {
  Value complex = nativeWithSignature(in, "complex(real, imag, name=None)", [](Interpreter &in, const Bound &a) -> Value {
    auto re = toTensor(in, a["real"]), im = toTensor(in, a["imag"]);
    bool ok = re->dtype() == im->dtype() && (re->dtype() == DType::Float32 || re->dtype() == DType::Float64);
    if (!ok)
      in.raise("TypeError", fmt::format("The `real` and `imag` components have incorrect types: {} {}. They must be "
                                        "consistent, and one of [tf.float32, tf.float64]",
                                        ir::dtypeName(re->dtype()), ir::dtypeName(im->dtype())));
    return Value(callOp1(in, OpKind::Complex, {re, im}, {}, nodeName(in, a, "Complex")));
  });
  Value real = nativeWithSignature(in, "real(input, name=None)", [](Interpreter &in, const Bound &a) {
    return part(in, a, OpKind::Real, "Real");
  });
  Value imag = nativeWithSignature(in, "imag(input, name=None)", [](Interpreter &in, const Bound &a) {
    return part(in, a, OpKind::Imag, "Imag");
  });
  Value angle = nativeWithSignature(in, "angle(input, name=None)", [](Interpreter &in, const Bound &a) {
    return part(in, a, OpKind::Angle, "Angle");
  });
  Value conj = nativeWithSignature(in, "conj(x, name=None)", [](Interpreter &in, const Bound &a) -> Value {
    auto x = toTensor(in, a["x"]);
    if (ir::isComplex(x->dtype())) return Value(callOp1(in, OpKind::Conj, {x}, {}, nodeName(in, a, "Conj")));
    if (!ir::isFloating(x->dtype()) && !ir::isInteger(x->dtype()))
      in.raise("TypeError", fmt::format("Expected numeric or variant tensor, got dtype {}", in.repr(dtypeValue(x->dtype()))));
    return Value(x);
  });
  for (ModuleObject *m : {&tf, &math}) {
    m->scope->vars["complex"] = complex;
    m->scope->vars["real"] = real;
    m->scope->vars["imag"] = imag;
    m->scope->vars["conj"] = conj;
  }
  math.scope->vars["angle"] = angle;
}

}  // namespace tfs::runtime::tf
