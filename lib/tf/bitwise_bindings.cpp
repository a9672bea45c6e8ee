// tf.bitwise (bitwise_and, bitwise_or, bitwise_xor, invert, left_shift,
// right_shift) and tf.bitcast: the ops of TF 2.15's
// bitwise_ops / array_ops, with their generated wrappers' parameter names.
#include "lib/tf/tf_lib.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

std::string nodeName(Interpreter &in, const Value &name, OpKind k) {
  return name.isNone() ? std::string(ir::tfOpType(k)) : in.str(name);
}

// f(x, y, name=None); a Python operand takes the other's dtype, two Python
// ints are int32 (TF's args_to_matching_eager).
void binary(Interpreter &in, ModuleObject &m, const std::string &name, OpKind k) {
  def(in, m, name, [k, name](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs(name, a, kw, {"x", "y", "name"}, {std::nullopt, std::nullopt, Value()});
    std::optional<DType> like;
    for (const Value &v : {args[0], args[1]}) {
      if (like) break;
      if (auto *t = v.as<TensorObject>()) like = t->dtype();
      else if (auto *var = v.as<VariableObject>()) like = var->dtype;
    }
    auto x = toTensor(in, args[0], std::nullopt, like);
    auto y = toTensor(in, args[1], std::nullopt, like ? like : std::optional<DType>(x->dtype()));
    return Value(callOp1(in, k, {x, y}, {}, nodeName(in, args[2], k)));
  });
}

void unary(Interpreter &in, ModuleObject &m, const std::string &name, OpKind k) {
  def(in, m, name, [k, name](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs(name, a, kw, {"x", "name"}, {std::nullopt, Value()});
    return Value(callOp1(in, k, {toTensor(in, args[0])}, {}, nodeName(in, args[1], k)));
  });
}

}  // namespace

void installBitwise(Interpreter &in, ModuleObject &tf) {
  Ref<ModuleObject> bitwise = submodule(in, tf, "bitwise");
  binary(in, *bitwise, "bitwise_and", OpKind::BitwiseAnd);
  binary(in, *bitwise, "bitwise_or", OpKind::BitwiseOr);
  binary(in, *bitwise, "bitwise_xor", OpKind::BitwiseXor);
  binary(in, *bitwise, "left_shift", OpKind::LeftShift);
  binary(in, *bitwise, "right_shift", OpKind::RightShift);
  unary(in, *bitwise, "invert", OpKind::Invert);
  // tf.bitcast(input, type, name=None).
  def(in, tf, "bitcast", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("bitcast", a, kw, {"input", "type", "name"}, {std::nullopt, std::nullopt, Value()});
    std::optional<DType> to = dtypeArg(in, args[1]);
    if (!to) in.raise("TypeError", fmt::format("Cannot convert {} to a DType", in.repr(args[1])));
    auto x = toTensor(in, args[0]);
    return Value(callOp1(in, OpKind::Bitcast, {x}, {{"type", *to}}, nodeName(in, args[2], OpKind::Bitcast)));
  });
}

}  // namespace tfs::runtime::tf
