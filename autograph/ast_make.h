// Small constructors for the AST nodes the converters generate (private to
// autograph/). Every helper takes the span of the user code it stands for.
#pragma once

#include "frontend/ast.h"

#include <string>
#include <vector>

namespace tfs::autograph::make {

using namespace tfs::ast;

inline ExprPtr name(const std::string &id, const SourceSpan &s, Ctx ctx = Ctx::Load) {
  auto n = std::make_unique<Name>(id, s);
  n->ctx = ctx;
  return n;
}
inline ExprPtr str(const std::string &v, const SourceSpan &s) {
  auto c = std::make_unique<Constant>(s);
  c->type = Constant::Type::Str;
  c->s = v;
  return c;
}
inline ExprPtr boolean(bool v, const SourceSpan &s) {
  auto c = std::make_unique<Constant>(s);
  c->type = Constant::Type::Bool;
  c->b = v;
  return c;
}
inline ExprPtr attr(ExprPtr base, const std::string &a, const SourceSpan &s) {
  return std::make_unique<Attribute>(std::move(base), a, s);
}
// ag.<fn>
inline ExprPtr ag(const std::string &fn, const SourceSpan &s) { return attr(name("ag__", s), fn, s); }
inline ExprPtr call(ExprPtr fn, std::vector<ExprPtr> args, const SourceSpan &s) {
  auto c = std::make_unique<Call>(s);
  c->func = std::move(fn);
  c->args = std::move(args);
  return c;
}
inline ExprPtr tuple(std::vector<ExprPtr> elts, const SourceSpan &s, Ctx ctx = Ctx::Load) {
  auto t = std::make_unique<Sequence>(ExprKind::Tuple, s);
  t->elts = std::move(elts);
  t->ctx = ctx;
  return t;
}
inline ExprPtr names(const std::vector<std::string> &ids, const SourceSpan &s, Ctx ctx) {
  std::vector<ExprPtr> elts;
  for (const auto &id : ids) elts.push_back(name(id, s, ctx));
  return tuple(std::move(elts), s, ctx);
}
inline ExprPtr strings(const std::vector<std::string> &ids, const SourceSpan &s) {
  std::vector<ExprPtr> elts;
  for (const auto &id : ids) elts.push_back(str(id, s));
  return tuple(std::move(elts), s);
}
inline ExprPtr notExpr(ExprPtr e, const SourceSpan &s) {
  return std::make_unique<UnaryOp>(UnaryOpKind::Not, std::move(e), s);
}
inline ExprPtr lambda(ExprPtr body, const SourceSpan &s) {
  auto l = std::make_unique<Lambda>(s);
  l->body = std::move(body);
  return l;
}
inline StmtPtr assign(ExprPtr target, ExprPtr value, const SourceSpan &s) {
  auto a = std::make_unique<Assign>(s);
  a->targets.push_back(std::move(target));
  a->value = std::move(value);
  return a;
}
inline StmtPtr ret(ExprPtr value, const SourceSpan &s) {
  auto r = std::make_unique<Return>(s);
  r->value = std::move(value);
  return r;
}
inline StmtPtr def(const std::string &n, const std::vector<std::string> &params, Body body,
                   const SourceSpan &s) {
  auto f = std::make_unique<FunctionDef>(n, s);
  for (const auto &p : params) {
    Param param;
    param.name = p;
    param.span = s;
    f->params.push_back(std::move(param));
  }
  if (body.empty()) body.push_back(std::make_unique<Pass>(s));
  f->body = std::move(body);
  return f;
}
inline StmtPtr ifStmt(ExprPtr test, Body body, Body orelse, const SourceSpan &s) {
  auto i = std::make_unique<If>(s);
  i->test = std::move(test);
  i->body = std::move(body);
  i->orelse = std::move(orelse);
  return i;
}

}  // namespace tfs::autograph::make
