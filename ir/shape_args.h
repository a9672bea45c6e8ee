// Shape arguments: integer parameters of an op that fix its result shape
// (reshape's shape, fill's dims, strided_slice's begin/end/strides,
// one_hot's depth, ...; ops.def lists them with TFS_SHAPE_ARGS).
//
// Note [Shape arguments]
// A shape argument known while tracing is an attribute (`reshape %x {shape
// = [2, 3]}`): the static form every kernel, type rule, gradient and
// lowering reads, and the only form eager code builds. One known only at
// run time is a trailing int32/int64 operand (`reshape %x, %s`), the way
// TF's ops take them as tensors. Operands past the op's data operands bind,
// in order, to the listed attributes the node does not have.
//
//  * Building a node folds every shape operand whose value is known
//    statically (a constant, tf.shape of a static shape, a stack of such
//    scalars: TF's constant_value) into its attribute, so a constant-folded
//    shape is static and takes the static path.
//  * Type rules see, for a shape argument still bound to an operand, an
//    attribute holding an ir::Shape: what is known of the value (TF's
//    constant_value_as_shape: `[tf.shape(x)[0], 4]` is `[?, 4]`; -1 entries
//    are unknown; a rank-0 Shape for a scalar argument; unranked when even
//    the length is unknown). inferNodeTypes supplies it; int / int-list
//    attributes are always fully known values.
//  * Kernels see attributes only: runKernel binds the operands' values into
//    the attributes (bindShapeArgs) before calling the kernel with the data
//    operands, so kernels, the graph interpreter, compiled code and constant
//    folding share one path.
#pragma once

#include "ir/attrs.h"
#include "ir/op_table.h"

#include <optional>
#include <span>
#include <variant>
#include <vector>

namespace tfs::ir {

class Value;

// A shape argument bound to an operand of a node.
struct DynamicShapeArg {
  const char *attr;
  size_t operand;
};

// Given an op, a node's attributes and its operand count.
// Result: the shape arguments its trailing operands supply, in operand
// order. Throws OpError when the node has more trailing operands than
// missing shape attributes.
std::vector<DynamicShapeArg> dynamicShapeArgs(const OpDef &def, const Attrs &attrs,
                                              size_t numOperands);

// The run-time value of a shape operand: an int (rank 0) or a list (rank 1).
using ShapeArgValue = std::variant<int64_t, std::vector<int64_t>>;

// Given the op, the node's attributes, its operand count and the values of
// its shape operands (in operand order).
// Result: the attributes with those values bound.
Attrs bindShapeArgs(const OpDef &def, const Attrs &attrs, size_t numOperands,
                    std::span<const ShapeArgValue> values);

// --- for type rules --------------------------------------------------------
// True when `key` holds the partial value of a run-time shape argument.
bool isDynamicArg(const Attrs &attrs, const std::string &key);
// The value of a shape-valued argument as a (possibly partial) shape: the
// ints of a static attribute as they are, the Shape of a dynamic one;
// nullopt when absent.
std::optional<Shape> attrShape(const Attrs &attrs, const std::string &key);

// --- on graphs (TF's constant_value / constant_value_as_shape) -------------
// Every element of the integer tensor `v`, when known statically.
std::optional<std::vector<int64_t>> knownInts(const Value *v);
std::optional<int64_t> knownScalar(const Value *v);
// What is known of the 1-D integer tensor `v` read as a shape: one dim per
// element (-1 and unknown elements are `?`), unranked when even its length
// is unknown.
Shape knownShape(const Value *v);

// Given a node's kind, operands and attributes about to be built.
// Execute: moves every shape operand whose value is known statically into
// its attribute (Note [Shape arguments]).
void foldKnownShapeArgs(OpKind kind, std::vector<Value *> &operands, Attrs &attrs);

// The result types of a node: its op's type rule, given the partial values
// of its run-time shape arguments. Throws the rule's OpError.
std::vector<TensorType> inferNodeTypes(OpKind kind, std::span<Value *const> operands,
                                       const Attrs &attrs);

}  // namespace tfs::ir
