// The attributes TF 2.15 gives a NodeDef (node_def_attrs.h): the ones its
// op registration declares, defaults filled in as TF's op_def_library fills
// them, for the ops whose TF inputs are exactly the IR node's operands. The
// rest (ops whose axis / shape / perm operand tfs keeps as an attribute,
// control flow, calls, variable ops, ops whose attribute set tfs has not
// checked against TF's registration) are reported as not reproduced, so a
// printed GraphDef is TF's or an error, never a lookalike.
#include "lib/tf/node_def_attrs.h"

#include "ir/op_table.h"
#include "runtime/graph/dense_convert.h"

#include <cstring>
#include <set>
#include <string_view>

namespace tfs::runtime::tf {

namespace {

using ir::DType;
using ir::OpKind;

tensorflow::DataType dataType(DType d) { return tensorflow::DataType(ir::dtypeEnumValue(d)); }

void setType(tensorflow::NodeDef &n, const char *key, DType d) { (*n.mutable_attr())[key].set_type(dataType(d)); }

// make_tensor_proto's encoding: more than one element of a fixed-size
// numeric type goes to tensor_content (raw little-endian bytes), anything
// else (scalars, one element, bools, strings) to the typed value field.
bool tensorProtoOf(const Tensor &t, tensorflow::TensorProto &out) {
  DType d = t.dtype();
  if (ir::isComplex(d) || ir::isHalfFloat(d)) return false;
  out.set_dtype(dataType(d));
  auto *shape = out.mutable_tensor_shape();
  for (int64_t dim : t.shape()) shape->add_dim()->set_size(dim);
  int64_t n = t.numElements();
  if (d == DType::String) {
    for (int64_t i = 0; i < n; ++i) out.add_string_val(t.data<std::string>()[i]);
    return true;
  }
  if (n > 1 && d != DType::Bool) {
    out.set_tensor_content(std::string(static_cast<const char *>(t.rawData()), size_t(n) * ir::dtypeSize(d)));
    return true;
  }
  for (int64_t i = 0; i < n; ++i) {
    switch (d) {
    case DType::Float32: out.add_float_val(float(t.elementAsDouble(i))); break;
    case DType::Float64: out.add_double_val(t.elementAsDouble(i)); break;
    case DType::Bool: out.add_bool_val(t.elementAsInt(i) != 0); break;
    case DType::Int64: out.add_int64_val(t.elementAsInt(i)); break;
    case DType::UInt32: out.add_uint32_val(uint32_t(t.elementAsInt(i))); break;
    case DType::UInt64: out.add_uint64_val(uint64_t(t.elementAsInt(i))); break;
    default: out.add_int_val(int32_t(t.elementAsInt(i))); break;  // int32/16/8, uint8/16
    }
  }
  return true;
}

// Ops whose only attribute is T, the dtype of their first input. (Equal /
// NotEqual are not here: their incompatible_shape_error is true from
// tf.equal and false from ==, which the IR does not record.)
bool onlyT(OpKind k) {
  switch (k) {
  case OpKind::Identity:
  case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div: case OpKind::FloorDiv:
  case OpKind::FloorMod: case OpKind::Pow: case OpKind::Maximum: case OpKind::Minimum:
  case OpKind::SquaredDifference:
  case OpKind::Less: case OpKind::LessEqual: case OpKind::Greater: case OpKind::GreaterEqual:
  case OpKind::Neg: case OpKind::Abs: case OpKind::Sign: case OpKind::Square: case OpKind::Sqrt:
  case OpKind::Rsqrt: case OpKind::Exp: case OpKind::Log: case OpKind::Sin: case OpKind::Cos:
  case OpKind::Tanh: case OpKind::Sigmoid: case OpKind::Erf: case OpKind::Acos: case OpKind::Asin:
  case OpKind::Atan:
    return true;
  default:
    return false;
  }
}

}  // namespace

namespace {

bool castAttrs(const ir::Node &node, tensorflow::NodeDef &out) {
  for (const auto &[key, value] : node.attrs)
    if (key != "name" && key != "dtype") return false;
  setType(out, "DstT", node.result(0)->type.dtype);
  setType(out, "SrcT", node.operand(0)->type.dtype);
  (*out.mutable_attr())["Truncate"].set_b(false);
  return true;
}

}  // namespace

bool tfNodeAttrs(const ir::Node &node, tensorflow::NodeDef &out) {
  out.clear_attr();
  OpKind k = node.kind();
  if (k == OpKind::Cast) return node.numOperands() == 1 && castAttrs(node, out);
  // Only nodes that keep TF's operands: an IR attribute other than the name
  // is a TF input (an axis, a shape) or an attribute not mapped here.
  for (const auto &[key, value] : node.attrs)
    if (key != "name") return false;
  if (k == OpKind::Const) {
    if (!node.constValue) return false;
    Tensor t = runtime::tensorFromDense(*node.constValue);
    setType(out, "dtype", t.dtype());
    return tensorProtoOf(t, *(*out.mutable_attr())["value"].mutable_tensor());
  }
  if (node.numOperands() == 0) return false;
  DType in = node.operand(0)->type.dtype;
  if (onlyT(k)) {
    setType(out, "T", in);
    return true;
  }
  switch (k) {
  case OpKind::LogicalAnd:
  case OpKind::LogicalOr:
    return true;
  case OpKind::Select:
    if (node.numOperands() != 3) return false;
    setType(out, "T", node.operand(1)->type.dtype);
    return true;
  default:
    return false;
  }
}

bool tfPlaceholderAttrs(const ir::Node &node, tensorflow::NodeDef &out) {
  out.clear_attr();
  for (const auto &[key, value] : node.attrs)
    if (key != "name" && key != "dtype" && key != "shape") return false;
  setType(out, "dtype", node.result(0)->type.dtype);
  auto &shape = *(*out.mutable_attr())["shape"].mutable_shape();
  auto it = node.attrs.find("shape");
  if (it == node.attrs.end()) {
    shape.set_unknown_rank(true);
    return true;
  }
  const auto *dims = std::get_if<std::vector<int64_t>>(&it->second);
  if (!dims) return false;
  for (int64_t d : *dims) shape.add_dim()->set_size(d);
  return true;
}

}  // namespace tfs::runtime::tf
