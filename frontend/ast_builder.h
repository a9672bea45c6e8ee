// AstBuilder (private to frontend/): walks the ANTLR parse tree of one file
// and builds the AST, with a span on every node. Statements are built in
// ast_builder_stmt.cpp, expressions in ast_builder_expr.cpp, f-strings in
// fstring.cpp. Semantic syntax errors the grammar cannot express (assigning
// to a literal, `return` outside a function, ...) are thrown here as
// SyntaxErrorException.
#pragma once

#include "TfsParser.h"
#include "frontend/ast.h"
#include "frontend/diagnostics.h"

namespace tfs::frontend {

using P = grammar::TfsParser;

class AstBuilder {
public:
  explicit AstBuilder(const SourceFile *file) : file_(file) {}

  ast::Body fileInput(P::File_inputContext *ctx);
  ast::ExprPtr evalInput(P::Eval_inputContext *ctx);

  // --- spans ---
  SourceSpan span(antlr4::ParserRuleContext *ctx) const;
  SourceSpan span(antlr4::Token *tok) const;
  SourceSpan span(antlr4::tree::TerminalNode *n) const { return span(n->getSymbol()); }
  [[noreturn]] void error(const SourceSpan &at, std::string msg,
                          std::string cls = "SyntaxError") const;

  // --- statements (ast_builder_stmt.cpp) ---
  void stmt(P::StmtContext *ctx, ast::Body &out);
  void simpleStmts(P::Simple_stmtsContext *ctx, ast::Body &out);
  ast::StmtPtr simpleStmt(P::Simple_stmtContext *ctx);
  ast::StmtPtr compoundStmt(P::Compound_stmtContext *ctx);
  ast::Body block(P::BlockContext *ctx);
  ast::StmtPtr funcdef(P::FuncdefContext *ctx);
  ast::StmtPtr classdef(P::ClassdefContext *ctx);
  ast::StmtPtr ifStmt(P::If_stmtContext *ctx);
  ast::StmtPtr tryStmt(P::Try_stmtContext *ctx);
  void checkExceptStarBody(const ast::Body &body, bool inLoop) const;
  // `match` statements and their patterns (ast_builder_match.cpp).
  ast::StmtPtr matchStmt(P::Match_stmtContext *ctx);
  ast::Pattern pattern(P::PatternContext *ctx);
  ast::Pattern starPattern(P::Star_patternContext *ctx);
  ast::Pattern closedPattern(P::Closed_patternContext *ctx);
  ast::ExprPtr literalPattern(P::Literal_patternContext *ctx);
  // A sequence pattern of `items`, or the lone item (a group) when `group`.
  ast::Pattern sequencePattern(const std::vector<P::Star_patternContext *> &items, bool group,
                               const SourceSpan &at);
  std::vector<ast::Param> parameters(P::ParametersContext *ctx);
  // An annotation's expression, or its source text as a string constant
  // under `from __future__ import annotations`.
  ast::ExprPtr annotation(P::TestContext *ctx);
  std::vector<ast::Param> lambdaParams(P::Lambda_paramsContext *ctx);

  // --- expressions (ast_builder_expr.cpp) ---
  ast::ExprPtr test(P::TestContext *ctx);
  ast::ExprPtr testNocond(P::Test_nocondContext *ctx);
  ast::ExprPtr orTest(P::Or_testContext *ctx);
  ast::ExprPtr andTest(P::And_testContext *ctx);
  ast::ExprPtr notTest(P::Not_testContext *ctx);
  ast::ExprPtr comparison(P::ComparisonContext *ctx);
  ast::ExprPtr expr(P::ExprContext *ctx);
  ast::ExprPtr xorExpr(P::Xor_exprContext *ctx);
  ast::ExprPtr andExpr(P::And_exprContext *ctx);
  ast::ExprPtr shiftExpr(P::Shift_exprContext *ctx);
  ast::ExprPtr arithExpr(P::Arith_exprContext *ctx);
  ast::ExprPtr term(P::TermContext *ctx);
  ast::ExprPtr factor(P::FactorContext *ctx);
  ast::ExprPtr power(P::PowerContext *ctx);
  ast::ExprPtr atomExpr(P::Atom_exprContext *ctx);
  ast::ExprPtr atom(P::AtomContext *ctx);
  ast::ExprPtr starExpr(P::Star_exprContext *ctx);
  ast::ExprPtr lambdef(P::LambdefContext *ctx);
  ast::ExprPtr lambdefNocond(P::Lambdef_nocondContext *ctx);
  ast::ExprPtr strings(P::StringAtomContext *ctx);
  ast::ExprPtr strings(const std::vector<antlr4::tree::TerminalNode *> &tokens, SourceSpan s);
  ast::ExprPtr yieldExpr(P::Yield_exprContext *ctx);
  ast::ExprPtr assignValue(P::Assign_valueContext *ctx);
  // CPython's SyntaxError when a comprehension built since `yieldsBefore`
  // (a yieldCount_ reading) contains a yield.
  void checkNoYieldIn(const ast::Comprehension &c, int yieldsBefore);
  // `a, b` lists: a Tuple unless one element without a trailing comma.
  ast::ExprPtr testlist(P::TestlistContext *ctx);
  ast::ExprPtr testlistStar(P::Testlist_starContext *ctx);
  ast::ExprPtr exprlist(P::ExprlistContext *ctx);
  ast::ExprPtr testOrStar(antlr4::ParserRuleContext *ctx);
  void comprehension(P::Comp_forContext *ctx, ast::Comprehension &out);
  // `target := value` (ast_builder_walrus.cpp), and CPython's errors for one
  // inside a comprehension (called once the comprehension is built).
  ast::ExprPtr namedexprTest(P::Namedexpr_testContext *ctx);
  void checkComprehensionWalrus(const ast::Comprehension &c);
  void arguments(P::ArglistContext *ctx, ast::Call &call);

  // Marks an expression as an assignment (or del) target; throws
  // CPython's "cannot assign to ..." for anything else.
  void setContext(ast::Expr &e, ast::Ctx ctx) const;

  // f-strings (fstring.cpp): appends the parts of one f-string token.
  void fstringParts(antlr4::Token *tok, ast::FString &out);

private:
  // Guards against ASTs so deep that evaluating them would exhaust the
  // stack (CPython: "maximum recursion depth exceeded during compilation").
  struct DepthGuard {
    AstBuilder &b;
    DepthGuard(AstBuilder &b, const SourceSpan &at);
    ~DepthGuard() { --b.depth_; }
  };
  void chainCheck(size_t chainLength, const SourceSpan &at);

  const SourceFile *file_;
  int depth_ = 0;
  int functionDepth_ = 0, loopDepth_ = 0;
  // The isGenerator flag of the innermost def/lambda; null at module level
  // and in class bodies, where yield is a SyntaxError.
  bool *generatorFlag_ = nullptr;
  int yieldCount_ = 0;  // yield expressions built so far
  SourceSpan lastYield_;  // the span of the last one
  bool postponedAnnotations_ = false;
  bool classScope_ = false;  // the innermost scope is a class body  // `from __future__ import annotations` seen
  // The innermost enclosing class's name: private names (`__x`) inside it
  // are mangled to `_Class__x`, as CPython's compiler does.
  std::string className_;
  std::string mangle(std::string name) const;
  friend struct DepthGuard;
};

}  // namespace tfs::frontend
