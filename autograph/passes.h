// The converter passes (private to autograph/), run in this order by
// convertFunction (autograph.cpp). Each rewrites a function body in place.
#pragma once

#include "autograph/analysis.h"
#include "frontend/ast.h"

#include <functional>
#include <map>
#include <string>

namespace tfs::autograph {

// State shared by the passes over one function.
struct ConvertContext {
  // Extra loop conditions added by break/return conversion, per loop
  // (while loops get them merged into the test; for loops pass them to
  // ag__.for_stmt as a test function over the loop state).
  std::map<const ast::Stmt *, ast::ExprPtr> loopExtraTests;
  std::map<std::string, int> nameCounts;
  // Every name the user's function mentions (nested functions included):
  // generated names avoid them, as TF's namer avoids `scope.referenced`.
  NameSet taken;
  bool convertCalls = true;

  // A fresh name: `base`, then `base_1`, ... (unique within the function and
  // distinct from the user's names).
  std::string freshName(const std::string &base) {
    for (;;) {
      int n = nameCounts[base]++;
      std::string name = n == 0 ? base : base + "_" + std::to_string(n);
      if (taken.insert(name).second) return name;
    }
  }
  // Adds `test` (conjunctively) to the extra test of `loop`.
  void addLoopTest(const ast::Stmt *loop, ast::ExprPtr test);
};

void convertBreaks(ast::Body &body, ConvertContext &ctx);
void convertContinues(ast::Body &body, ConvertContext &ctx);
// Returns true when the function had returns to rewrite.
bool convertReturns(ast::FunctionDef &fn, ConvertContext &ctx);
void convertCallTrees(ast::Body &body, ConvertContext &ctx);
void convertControlFlow(ast::FunctionDef &fn, ConvertContext &ctx);
void convertExpressions(ast::Body &body, ConvertContext &ctx);

// Visits every expression slot of a statement list (not entering nested
// function bodies unless `intoFunctions`), letting `f` replace it.
void forEachExprSlot(ast::Body &body, const std::function<void(ast::ExprPtr &)> &f,
                     bool intoFunctions);
// Rewrites `e` bottom-up with `f` (children first).
void rewriteExpr(ast::ExprPtr &e, const std::function<void(ast::ExprPtr &)> &f);

}  // namespace tfs::autograph

namespace tfs::autograph {
// The logical/conditional rewrite of one expression tree (expressions.cpp),
// for expressions the control-flow pass builds itself.
void convertLogicalTree(ast::ExprPtr &e);
}  // namespace tfs::autograph
