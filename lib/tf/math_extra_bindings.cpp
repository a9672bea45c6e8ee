// tf.math's inverse trigonometric and hyperbolic functions (acos, asin,
// atan, acosh, asinh, atanh; also at the top of tf, as TF 2.15 exports
// them), atan2, truncatediv and truncatemod, bound by TF's signatures.
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

std::string opName(Interpreter &in, const Value &name, OpKind k) {
  return name.isNone() ? std::string(ir::tfOpType(k)) : in.str(name);
}

// The dtype a Python scalar operand adopts: the first tensor operand's.
std::optional<DType> operandDType(std::initializer_list<Value> values) {
  for (const Value &v : values) {
    if (auto *t = v.as<TensorObject>()) return t->dtype();
    if (auto *var = v.as<VariableObject>()) return var->dtype;
  }
  return std::nullopt;
}

Value binary(Interpreter &in, const Bound &a, const char *first, const char *second, OpKind k) {
  std::optional<DType> like = operandDType({a[first], a[second]});
  auto x = toTensor(in, a[first], std::nullopt, like);
  auto y = toTensor(in, a[second], std::nullopt, like);
  return Value(callOp1(in, k, {x, y}, {}, opName(in, a["name"], k)));
}

}  // namespace

void installMathExtraOps(Interpreter &in, ModuleObject &tf, ModuleObject &math) {
  const std::pair<const char *, OpKind> unary[] = {
      {"acos", OpKind::Acos},   {"asin", OpKind::Asin},   {"atan", OpKind::Atan},
      {"acosh", OpKind::Acosh}, {"asinh", OpKind::Asinh}, {"atanh", OpKind::Atanh},
  };
  for (ModuleObject *m : {&tf, &math}) {
    for (const auto &[name, kind] : unary) {
      OpKind k = kind;
      defSig(in, *m, std::string(name) + "(x, name=None)", [k](Interpreter &in, const Bound &a) -> Value {
        return Value(callOp1(in, k, {toTensor(in, a["x"])}, {}, opName(in, a["name"], k)));
      });
    }
    defSig(in, *m, "atan2(y, x, name=None)",
           [](Interpreter &in, const Bound &a) { return binary(in, a, "y", "x", OpKind::Atan2); });
    defSig(in, *m, "truncatediv(x, y, name=None)",
           [](Interpreter &in, const Bound &a) { return binary(in, a, "x", "y", OpKind::TruncateDiv); });
    defSig(in, *m, "truncatemod(x, y, name=None)",
           [](Interpreter &in, const Bound &a) { return binary(in, a, "x", "y", OpKind::TruncateMod); });
  }
}

}  // namespace tfs::runtime::tf
