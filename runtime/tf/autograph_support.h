// What the AutoGraph operators share (autograph_ops.cpp: loops and the
// `ag` module; autograph_cond.cpp: if statements): the Undefined value of a
// variable a branch leaves unset, and the conversions of branch and loop
// outputs to graph values.
#pragma once

#include "runtime/tf/tf.h"

#include <optional>
#include <string>
#include <vector>

namespace tfs::runtime::tf::ag {

// A variable that a staged branch or loop leaves undefined (TF's
// `Undefined`), or a function's return value before any return ran.
struct UndefinedObject : Object {
  std::string name;
  bool returnValue = false;
  const char *typeName() const override { return returnValue ? "UndefinedReturnValue" : "Undefined"; }
  std::optional<std::string> repr(Interpreter &) override { return returnValue ? "UndefinedReturnValue()" : "Undefined(" + name + ")"; }
};

bool isSymbolic(const Value &v);
// Converts one branch/loop output to a graph value, `like` giving the
// dtype a Python scalar should take.
ir::Value *toGraphValue(Interpreter &in, GraphScope &g, const Value &v, std::optional<DType> like);
std::optional<DType> dtypeOf(const Value &v);
std::vector<std::string> namesOf(Interpreter &in, const Value &names);
// TF's _verify_tf_condition: a staged condition must be a bool scalar.
void verifyCondition(Interpreter &in, const Value &cond, const char *tag);
// The dtype TF gives a branch or loop output: a tensor's own, or what
// convert_to_tensor makes of a Python scalar.
std::optional<DType> convertedDtype(const Value &v);
// ag.if_stmt (autograph_cond.cpp).
Value ifStmt(Interpreter &in, Args a, const Kwargs &kw);

}  // namespace tfs::runtime::tf::ag
