// AST node methods: deep copies (AutoGraph duplicates code into branch
// functions) and operator symbols.
#include "frontend/ast.h"

namespace tfs::ast {

namespace {
ExprPtr cl(const ExprPtr &e) { return e ? e->clone() : nullptr; }
std::vector<ExprPtr> cl(const std::vector<ExprPtr> &v) {
  std::vector<ExprPtr> out;
  out.reserve(v.size());
  for (const auto &e : v) out.push_back(cl(e));
  return out;
}
std::vector<Keyword> cl(const std::vector<Keyword> &v) {
  std::vector<Keyword> out;
  for (const auto &k : v) out.push_back(Keyword{k.name, cl(k.value), k.span});
  return out;
}
std::vector<Param> cl(const std::vector<Param> &v) {
  std::vector<Param> out;
  for (const auto &p : v) out.push_back(p.clone());
  return out;
}
}  // namespace

const char *binOpSymbol(BinOpKind k) {
  static const char *names[] = {"+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^"};
  return names[int(k)];
}
const char *unaryOpSymbol(UnaryOpKind k) {
  static const char *names[] = {"-", "+", "not", "~"};
  return names[int(k)];
}
const char *cmpOpSymbol(CmpOpKind k) {
  static const char *names[] = {"==", "!=", "<", "<=", ">", ">=", "is", "is not", "in", "not in"};
  return names[int(k)];
}

Body cloneBody(const Body &b) {
  Body out;
  out.reserve(b.size());
  for (const auto &s : b) out.push_back(s->clone());
  return out;
}

Param Param::clone() const {
  Param p;
  p.name = name;
  p.kind = kind;
  p.defaultValue = cl(defaultValue);
  p.annotation = cl(annotation);
  p.span = span;
  return p;
}

ExprPtr Name::clone() const {
  auto n = std::make_unique<Name>(id, span);
  n->ctx = ctx;
  return n;
}
ExprPtr Constant::clone() const { return std::make_unique<Constant>(*this); }
ExprPtr FString::clone() const {
  auto f = std::make_unique<FString>(span);
  for (const auto &p : parts) {
    Part q;
    q.literal = p.literal;
    if (p.value) {
      FormattedValue v;
      v.value = cl(p.value->value);
      v.conversion = p.value->conversion;
      v.formatSpec = cl(p.value->formatSpec);
      v.selfDocumenting = p.value->selfDocumenting;
      v.exprText = p.value->exprText;
      q.value = std::move(v);
    }
    f->parts.push_back(std::move(q));
  }
  return f;
}
ExprPtr BinOp::clone() const { return std::make_unique<BinOp>(op, cl(lhs), cl(rhs), span); }
ExprPtr UnaryOp::clone() const { return std::make_unique<UnaryOp>(op, cl(operand), span); }
ExprPtr BoolOp::clone() const {
  auto b = std::make_unique<BoolOp>(span);
  b->isAnd = isAnd;
  b->values = cl(values);
  return b;
}
ExprPtr Compare::clone() const {
  auto c = std::make_unique<Compare>(span);
  c->left = cl(left);
  c->ops = ops;
  c->comparators = cl(comparators);
  return c;
}
ExprPtr Call::clone() const {
  auto c = std::make_unique<Call>(span);
  c->func = cl(func);
  c->args = cl(args);
  c->keywords = cl(keywords);
  return c;
}
ExprPtr Attribute::clone() const {
  auto a = std::make_unique<Attribute>(cl(value), attr, span);
  a->ctx = ctx;
  return a;
}
ExprPtr Subscript::clone() const {
  auto s = std::make_unique<Subscript>(cl(value), cl(index), span);
  s->ctx = ctx;
  return s;
}
ExprPtr Slice::clone() const {
  auto s = std::make_unique<Slice>(span);
  s->lower = cl(lower);
  s->upper = cl(upper);
  s->step = cl(step);
  return s;
}
ExprPtr Sequence::clone() const {
  auto s = std::make_unique<Sequence>(kind, span);
  s->elts = cl(elts);
  s->ctx = ctx;
  return s;
}
ExprPtr Dict::clone() const {
  auto d = std::make_unique<Dict>(span);
  d->keys = cl(keys);
  d->values = cl(values);
  return d;
}
ExprPtr Comprehension::clone() const {
  auto c = std::make_unique<Comprehension>(span);
  c->type = type;
  c->elt = cl(elt);
  c->value = cl(value);
  for (const auto &g : generators)
    c->generators.push_back(ComprehensionFor{cl(g.target), cl(g.iter), cl(g.ifs)});
  return c;
}
ExprPtr Lambda::clone() const {
  auto l = std::make_unique<Lambda>(span);
  l->params = cl(params);
  l->body = cl(body);
  l->isGenerator = isGenerator;
  return l;
}
ExprPtr IfExp::clone() const {
  auto e = std::make_unique<IfExp>(span);
  e->test = cl(test);
  e->body = cl(body);
  e->orelse = cl(orelse);
  return e;
}
ExprPtr Starred::clone() const {
  auto s = std::make_unique<Starred>(cl(value), span);
  s->ctx = ctx;
  return s;
}
ExprPtr Yield::clone() const { return std::make_unique<Yield>(kind, cl(value), span); }
void forEachChild(const Expr &e, llvm::function_ref<void(const Expr &)> f) {
  auto sub = [&](const ExprPtr &x) {
    if (x) f(*x);
  };
  switch (e.kind) {
  case ExprKind::Name:
  case ExprKind::Constant: return;
  case ExprKind::FString:
    for (const auto &p : static_cast<const FString &>(e).parts)
      if (p.value) {
        sub(p.value->value);
        sub(p.value->formatSpec);
      }
    return;
  case ExprKind::BinOp:
    sub(static_cast<const BinOp &>(e).lhs);
    sub(static_cast<const BinOp &>(e).rhs);
    return;
  case ExprKind::UnaryOp: sub(static_cast<const UnaryOp &>(e).operand); return;
  case ExprKind::BoolOp:
    for (const auto &v : static_cast<const BoolOp &>(e).values) sub(v);
    return;
  case ExprKind::Compare:
    sub(static_cast<const Compare &>(e).left);
    for (const auto &v : static_cast<const Compare &>(e).comparators) sub(v);
    return;
  case ExprKind::Call: {
    auto &c = static_cast<const Call &>(e);
    sub(c.func);
    for (const auto &a : c.args) sub(a);
    for (const auto &k : c.keywords) sub(k.value);
    return;
  }
  case ExprKind::Attribute: sub(static_cast<const Attribute &>(e).value); return;
  case ExprKind::Subscript:
    sub(static_cast<const Subscript &>(e).value);
    sub(static_cast<const Subscript &>(e).index);
    return;
  case ExprKind::Slice:
    sub(static_cast<const Slice &>(e).lower);
    sub(static_cast<const Slice &>(e).upper);
    sub(static_cast<const Slice &>(e).step);
    return;
  case ExprKind::List:
  case ExprKind::Tuple:
  case ExprKind::Set:
    for (const auto &x : static_cast<const Sequence &>(e).elts) sub(x);
    return;
  case ExprKind::Dict:
    for (const auto &k : static_cast<const Dict &>(e).keys) sub(k);
    for (const auto &v : static_cast<const Dict &>(e).values) sub(v);
    return;
  case ExprKind::Comprehension: {
    auto &c = static_cast<const Comprehension &>(e);
    for (const auto &g : c.generators) {
      sub(g.iter);
      sub(g.target);
      for (const auto &i : g.ifs) sub(i);
    }
    sub(c.elt);
    sub(c.value);
    return;
  }
  case ExprKind::Lambda: {
    auto &l = static_cast<const Lambda &>(e);
    for (const auto &p : l.params) sub(p.defaultValue);
    sub(l.body);
    return;
  }
  case ExprKind::IfExp:
    sub(static_cast<const IfExp &>(e).test);
    sub(static_cast<const IfExp &>(e).body);
    sub(static_cast<const IfExp &>(e).orelse);
    return;
  case ExprKind::Starred: sub(static_cast<const Starred &>(e).value); return;
  case ExprKind::Yield:
  case ExprKind::YieldFrom: sub(static_cast<const Yield &>(e).value); return;
  case ExprKind::NamedExpr:
    sub(static_cast<const NamedExpr &>(e).target);
    sub(static_cast<const NamedExpr &>(e).value);
    return;
  }
}

ExprPtr NamedExpr::clone() const { return std::make_unique<NamedExpr>(cl(target), cl(value), span); }

StmtPtr FunctionDef::clone() const {
  auto f = std::make_unique<FunctionDef>(name, span);
  f->params = cl(params);
  f->body = cloneBody(body);
  f->decorators = cl(decorators);
  f->returns = cl(returns);
  f->isGenerator = isGenerator;
  return f;
}
StmtPtr ClassDef::clone() const {
  auto c = std::make_unique<ClassDef>(name, span);
  c->bases = cl(bases);
  c->keywords = cl(keywords);
  c->body = cloneBody(body);
  c->decorators = cl(decorators);
  return c;
}
StmtPtr Return::clone() const {
  auto r = std::make_unique<Return>(span);
  r->value = cl(value);
  return r;
}
StmtPtr Assign::clone() const {
  auto a = std::make_unique<Assign>(span);
  a->targets = cl(targets);
  a->value = cl(value);
  a->annotation = cl(annotation);
  return a;
}
StmtPtr AugAssign::clone() const {
  auto a = std::make_unique<AugAssign>(span);
  a->target = cl(target);
  a->op = op;
  a->value = cl(value);
  return a;
}
StmtPtr ExprStmt::clone() const { return std::make_unique<ExprStmt>(cl(value), span); }
StmtPtr If::clone() const {
  auto i = std::make_unique<If>(span);
  i->test = cl(test);
  i->body = cloneBody(body);
  i->orelse = cloneBody(orelse);
  return i;
}
StmtPtr While::clone() const {
  auto w = std::make_unique<While>(span);
  w->test = cl(test);
  w->body = cloneBody(body);
  w->orelse = cloneBody(orelse);
  return w;
}
StmtPtr For::clone() const {
  auto f = std::make_unique<For>(span);
  f->target = cl(target);
  f->iter = cl(iter);
  f->body = cloneBody(body);
  f->orelse = cloneBody(orelse);
  return f;
}
StmtPtr Break::clone() const { return std::make_unique<Break>(span); }
StmtPtr Continue::clone() const { return std::make_unique<Continue>(span); }
StmtPtr Pass::clone() const { return std::make_unique<Pass>(span); }
StmtPtr With::clone() const {
  auto w = std::make_unique<With>(span);
  for (const auto &it : items) w->items.push_back(WithItem{cl(it.context), cl(it.target)});
  w->body = cloneBody(body);
  return w;
}
StmtPtr Try::clone() const {
  auto t = std::make_unique<Try>(span);
  t->body = cloneBody(body);
  for (const auto &h : handlers)
    t->handlers.push_back(ExceptHandler{cl(h.type), h.name, cloneBody(h.body), h.span});
  t->orelse = cloneBody(orelse);
  t->finalbody = cloneBody(finalbody);
  t->isStar = isStar;
  return t;
}
StmtPtr Raise::clone() const {
  auto r = std::make_unique<Raise>(span);
  r->exc = cl(exc);
  r->cause = cl(cause);
  return r;
}
StmtPtr Assert::clone() const {
  auto a = std::make_unique<Assert>(span);
  a->test = cl(test);
  a->msg = cl(msg);
  return a;
}
StmtPtr Import::clone() const {
  auto i = std::make_unique<Import>(span);
  i->names = names;
  return i;
}
StmtPtr ImportFrom::clone() const {
  auto i = std::make_unique<ImportFrom>(span);
  i->module = module;
  i->level = level;
  i->names = names;
  return i;
}
StmtPtr ScopeDecl::clone() const {
  auto s = std::make_unique<ScopeDecl>(kind, span);
  s->names = names;
  return s;
}
StmtPtr Delete::clone() const {
  auto d = std::make_unique<Delete>(span);
  d->targets = cl(targets);
  return d;
}

Pattern Pattern::clone() const {
  Pattern p;
  p.kind = kind;
  p.span = span;
  p.value = cl(value);
  for (const auto &q : patterns) p.patterns.push_back(q.clone());
  p.keys = cl(keys);
  p.kwdAttrs = kwdAttrs;
  for (const auto &q : kwdPatterns) p.kwdPatterns.push_back(q.clone());
  if (pattern) p.pattern = std::make_unique<Pattern>(pattern->clone());
  p.target = cl(target);
  return p;
}
bool Pattern::isIrrefutable() const {
  if (kind == Kind::As) return !pattern || pattern->isIrrefutable();
  if (kind == Kind::Or)
    for (const auto &q : patterns)
      if (q.isIrrefutable()) return true;
  return false;
}
StmtPtr Match::clone() const {
  auto m = std::make_unique<Match>(span);
  m->subject = cl(subject);
  for (const auto &c : cases) m->cases.push_back(MatchCase{c.pattern.clone(), cl(c.guard), cloneBody(c.body), c.span});
  return m;
}
void forEachPatternExpr(const Pattern &p, llvm::function_ref<void(const Expr &)> f) {
  if (p.value) f(*p.value);
  for (const auto &k : p.keys) f(*k);
  for (const auto &q : p.patterns) forEachPatternExpr(q, f);
  for (const auto &q : p.kwdPatterns) forEachPatternExpr(q, f);
  if (p.pattern) forEachPatternExpr(*p.pattern, f);
  if (p.target) f(*p.target);
}

}  // namespace tfs::ast
