// AutoGraph: rewrites a function's Python control flow into calls to the
// runtime operators of module `ag` (autograph/operators.md), so the same
// code runs as plain Python on Python values and builds `cond` /
// `while_loop` graph nodes on symbolic tensors (TF's AutoGraph design:
// syntax here, semantics in the runtime).
//
//   auto converted = autograph::convertFunction(fn);   // ast::FunctionDef
//   std::string text = autograph::printCode(*converted); // tf.autograph.to_code
//
// Passes (nested defs first, each with its own names): break_statements,
// continue_statements, return_statements (jumps.cpp), call_trees, then
// conditional_expressions + logical_expressions (expressions.cpp), then
// control_flow. TF runs the expression passes after control_flow; running
// them first gives the same code, since control_flow only moves expressions
// (the loop tests it builds itself go through convertLogicalTree).
// Every generated node carries the span of the user statement it came from.
#pragma once

#include "frontend/ast.h"

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace tfs::autograph {

struct ConvertOptions {
  bool convertCalls = true;  // wrap calls in ag__.converted_call
};

// Converts one function (its nested defs and lambdas too). Never fails on
// valid input: constructs AutoGraph cannot stage are left as Python and
// reported by the runtime when they meet a tensor.
std::unique_ptr<ast::FunctionDef> convertFunction(const ast::FunctionDef &fn,
                                                  const ConvertOptions &options = {});

// Why TF 2.15's AutoGraph cannot convert `fn` (the "Cause:" of its "could
// not transform ... will run it as-is" warning), or nullopt when it can:
// today a `match` statement anywhere in it (TF's analyses have no case for
// it), which TF then runs unconverted, its match at trace time.
std::optional<std::string> unconvertibleCause(const ast::FunctionDef &fn);

// Source text of a statement / module, as .tfs (Python) code, 4-space indents.
std::string printCode(const ast::Stmt &stmt);
std::string printCode(const ast::Module &module);
std::string printExpr(const ast::Expr &expr);

// tf.autograph.to_code: the code TensorFlow 2.15's AutoGraph generates for
// `fn` (tf_code.cpp), for the constructs that printer covers; others throw
// TfCodeUnsupported naming the construct. `isGlobal` says whether a name is
// a global of fn's module (TF's namer avoids those).
struct TfCodeUnsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};
std::string printTfCode(const ast::FunctionDef &fn, bool recursive,
                        const std::function<bool(const std::string &)> &isGlobal);

}  // namespace tfs::autograph
