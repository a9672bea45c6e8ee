// Read/write analysis: see analysis.h.
#include "autograph/analysis.h"

#include <functional>

namespace tfs::autograph {

using namespace tfs::ast;

namespace {

void paramReads(const std::vector<Param> &params, NameSet &out) {
  for (const auto &p : params)
    if (p.defaultValue) readsOf(*p.defaultValue, out);
}

NameSet localNamesOf(const FunctionDef &fn, const Usage &u);

// Free names of a nested function: names it reads minus its own locals.
// The body's usage is computed once and shared with localNamesOf: computing
// it twice per level made nested defs cost 2^depth.
void closureReads(const FunctionDef &fn, NameSet &out) {
  Usage u = usageOf(fn.body);
  NameSet locals = localNamesOf(fn, u);
  for (const auto &r : u.reads)
    if (!locals.count(r)) out.insert(r);
}

void collect(const Stmt &s, Usage &u);

// An expression of a statement: its reads, and the names its assignment
// expressions bind (`(x := v)`: in this scope, also from a comprehension).
void exprUse(const Expr &e, Usage &u) {
  readsOf(e, u.reads);
  walrusTargets(e, u.writes);
}

void collectBody(const Body &b, Usage &u) {
  for (const auto &s : b) collect(*s, u);
}

void collect(const Stmt &s, Usage &u) {
  switch (s.kind) {
  case StmtKind::FunctionDef: {
    auto &f = static_cast<const FunctionDef &>(s);
    for (const auto &d : f.decorators) exprUse(*d, u);
    paramReads(f.params, u.reads);
    for (const auto &p : f.params)
      if (p.defaultValue) walrusTargets(*p.defaultValue, u.writes);
    closureReads(f, u.reads);
    u.writes.insert(f.name);
    return;
  }
  case StmtKind::ClassDef: {
    auto &c = static_cast<const ClassDef &>(s);
    for (const auto &b : c.bases) exprUse(*b, u);
    Usage inner;
    collectBody(c.body, inner);
    u.reads.insert(inner.reads.begin(), inner.reads.end());
    u.writes.insert(c.name);
    return;
  }
  case StmtKind::Return:
    if (auto &v = static_cast<const Return &>(s).value) exprUse(*v, u);
    return;
  case StmtKind::Assign: {
    auto &a = static_cast<const Assign &>(s);
    exprUse(*a.value, u);
    for (const auto &t : a.targets) {
      targetNames(*t, u.writes);
      subscriptBase(*t, u.mutated);
      if (t->kind != ExprKind::Name) exprUse(*t, u);
    }
    return;
  }
  case StmtKind::AugAssign: {
    auto &a = static_cast<const AugAssign &>(s);
    exprUse(*a.value, u);
    exprUse(*a.target, u);
    if (auto *n = llvm::dyn_cast<Name>(a.target.get())) u.reads.insert(n->id);
    targetNames(*a.target, u.writes);
    subscriptBase(*a.target, u.mutated);
    return;
  }
  case StmtKind::ExprStmt:
    exprUse(*static_cast<const ExprStmt &>(s).value, u);
    return;
  case StmtKind::If: {
    auto &i = static_cast<const If &>(s);
    exprUse(*i.test, u);
    collectBody(i.body, u);
    collectBody(i.orelse, u);
    return;
  }
  case StmtKind::While: {
    auto &w = static_cast<const While &>(s);
    exprUse(*w.test, u);
    collectBody(w.body, u);
    collectBody(w.orelse, u);
    return;
  }
  case StmtKind::For: {
    auto &f = static_cast<const For &>(s);
    exprUse(*f.iter, u);
    targetNames(*f.target, u.writes);
    collectBody(f.body, u);
    collectBody(f.orelse, u);
    return;
  }
  case StmtKind::With: {
    auto &w = static_cast<const With &>(s);
    for (const auto &it : w.items) {
      exprUse(*it.context, u);
      if (it.target) targetNames(*it.target, u.writes);
    }
    collectBody(w.body, u);
    return;
  }
  case StmtKind::Try: {
    auto &t = static_cast<const Try &>(s);
    collectBody(t.body, u);
    for (const auto &h : t.handlers) {
      if (h.type) exprUse(*h.type, u);
      if (!h.name.empty()) u.writes.insert(h.name);
      collectBody(h.body, u);
    }
    collectBody(t.orelse, u);
    collectBody(t.finalbody, u);
    return;
  }
  case StmtKind::Raise: {
    auto &r = static_cast<const Raise &>(s);
    if (r.exc) exprUse(*r.exc, u);
    if (r.cause) exprUse(*r.cause, u);
    return;
  }
  case StmtKind::Assert: {
    auto &a = static_cast<const Assert &>(s);
    exprUse(*a.test, u);
    if (a.msg) exprUse(*a.msg, u);
    return;
  }
  case StmtKind::Import:
    for (const auto &n : static_cast<const Import &>(s).names)
      u.writes.insert(n.asname.empty() ? n.name.substr(0, n.name.find('.')) : n.asname);
    return;
  case StmtKind::ImportFrom:
    for (const auto &n : static_cast<const ImportFrom &>(s).names)
      u.writes.insert(n.asname.empty() ? n.name : n.asname);
    return;
  case StmtKind::Delete:
    for (const auto &t : static_cast<const Delete &>(s).targets) exprUse(*t, u);
    return;
  case StmtKind::Match: {
    // Pattern captures are bindings (Names in Store context); the values,
    // class names and keys a pattern reads are reads.
    auto &m = static_cast<const Match &>(s);
    exprUse(*m.subject, u);
    for (const auto &c : m.cases) {
      forEachPatternExpr(c.pattern, [&](const Expr &e) {
        if (e.kind == ExprKind::Name && static_cast<const Name &>(e).ctx == Ctx::Store) targetNames(e, u.writes);
        else exprUse(e, u);
      });
      if (c.guard) exprUse(*c.guard, u);
      collectBody(c.body, u);
    }
    return;
  }
  default:
    return;
  }
}

}  // namespace

void targetNames(const Expr &t, NameSet &out) {
  switch (t.kind) {
  case ExprKind::Name: out.insert(static_cast<const Name &>(t).id); return;
  case ExprKind::Tuple:
  case ExprKind::List:
    for (const auto &e : static_cast<const Sequence &>(t).elts) targetNames(*e, out);
    return;
  case ExprKind::Starred: targetNames(*static_cast<const Starred &>(t).value, out); return;
  default: return;
  }
}

void subscriptBase(const Expr &t, NameSet &out) {
  switch (t.kind) {
  case ExprKind::Subscript: {
    const Expr *base = static_cast<const Subscript &>(t).value.get();
    while (base->kind == ExprKind::Subscript) base = static_cast<const Subscript &>(*base).value.get();
    if (base->kind == ExprKind::Name) out.insert(static_cast<const Name &>(*base).id);
    return;
  }
  case ExprKind::Tuple:
  case ExprKind::List:
    for (const auto &e : static_cast<const Sequence &>(t).elts) subscriptBase(*e, out);
    return;
  case ExprKind::Starred: subscriptBase(*static_cast<const Starred &>(t).value, out); return;
  default: return;
  }
}

void readsOf(const Expr &e, NameSet &out) {
  switch (e.kind) {
  case ExprKind::Name: {
    auto &n = static_cast<const Name &>(e);
    if (n.ctx == Ctx::Load) out.insert(n.id);
    return;
  }
  case ExprKind::Constant: return;
  case ExprKind::FString:
    for (const auto &p : static_cast<const FString &>(e).parts)
      if (p.value) {
        readsOf(*p.value->value, out);
        if (p.value->formatSpec) readsOf(*p.value->formatSpec, out);
      }
    return;
  case ExprKind::BinOp: {
    auto &b = static_cast<const BinOp &>(e);
    readsOf(*b.lhs, out);
    readsOf(*b.rhs, out);
    return;
  }
  case ExprKind::UnaryOp: readsOf(*static_cast<const UnaryOp &>(e).operand, out); return;
  case ExprKind::BoolOp:
    for (const auto &v : static_cast<const BoolOp &>(e).values) readsOf(*v, out);
    return;
  case ExprKind::Compare: {
    auto &c = static_cast<const Compare &>(e);
    readsOf(*c.left, out);
    for (const auto &x : c.comparators) readsOf(*x, out);
    return;
  }
  case ExprKind::Call: {
    auto &c = static_cast<const Call &>(e);
    readsOf(*c.func, out);
    for (const auto &a : c.args) readsOf(*a, out);
    for (const auto &k : c.keywords) readsOf(*k.value, out);
    return;
  }
  case ExprKind::Attribute: readsOf(*static_cast<const Attribute &>(e).value, out); return;
  case ExprKind::Subscript: {
    auto &s = static_cast<const Subscript &>(e);
    readsOf(*s.value, out);
    readsOf(*s.index, out);
    return;
  }
  case ExprKind::Slice: {
    auto &s = static_cast<const Slice &>(e);
    for (const auto *p : {&s.lower, &s.upper, &s.step})
      if (*p) readsOf(**p, out);
    return;
  }
  case ExprKind::List:
  case ExprKind::Tuple:
  case ExprKind::Set:
    for (const auto &x : static_cast<const Sequence &>(e).elts) readsOf(*x, out);
    return;
  case ExprKind::Dict: {
    auto &d = static_cast<const Dict &>(e);
    for (const auto &k : d.keys) if (k) readsOf(*k, out);
    for (const auto &v : d.values) readsOf(*v, out);
    return;
  }
  case ExprKind::Comprehension: {
    auto &c = static_cast<const Comprehension &>(e);
    NameSet inner, bound;
    readsOf(*c.elt, inner);
    if (c.value) readsOf(*c.value, inner);
    for (const auto &g : c.generators) {
      readsOf(*g.iter, inner);
      targetNames(*g.target, bound);
      for (const auto &i : g.ifs) readsOf(*i, inner);
    }
    for (const auto &n : inner) if (!bound.count(n)) out.insert(n);
    return;
  }
  case ExprKind::Lambda: {
    auto &l = static_cast<const Lambda &>(e);
    NameSet inner;
    readsOf(*l.body, inner);
    for (const auto &p : l.params) {
      inner.erase(p.name);
      if (p.defaultValue) readsOf(*p.defaultValue, out);
    }
    out.insert(inner.begin(), inner.end());
    return;
  }
  case ExprKind::IfExp: {
    auto &i = static_cast<const IfExp &>(e);
    readsOf(*i.test, out);
    readsOf(*i.body, out);
    readsOf(*i.orelse, out);
    return;
  }
  case ExprKind::Starred: readsOf(*static_cast<const Starred &>(e).value, out); return;
  case ExprKind::Yield:
  case ExprKind::YieldFrom:
    if (auto &v = static_cast<const Yield &>(e).value) readsOf(*v, out);
    return;
  case ExprKind::NamedExpr: readsOf(*static_cast<const NamedExpr &>(e).value, out); return;
  }
}

void walrusTargets(const Expr &e, NameSet &out) {
  if (auto *l = llvm::dyn_cast<Lambda>(&e)) {  // its body is its own scope; defaults are not
    for (const auto &p : l->params)
      if (p.defaultValue) walrusTargets(*p.defaultValue, out);
    return;
  }
  if (auto *n = llvm::dyn_cast<NamedExpr>(&e)) out.insert(static_cast<const Name &>(*n->target).id);
  forEachChild(e, [&](const Expr &c) { walrusTargets(c, out); });
}

bool containsWalrus(const Expr &e) {
  NameSet names;
  walrusTargets(e, names);
  return !names.empty();
}

Usage usageOf(const Body &body) {
  Usage u;
  collectBody(body, u);
  return u;
}

Usage usageOf(const Stmt &stmt) {
  Usage u;
  collect(stmt, u);
  return u;
}

namespace {
void exposed(const Body &body, NameSet &written, NameSet &out, const LoopTests *tests);

// One statement of the walk below: reads not preceded by a definite write go
// to `out`; the statement's definite writes are added to `written`.
void exposedStmt(const Stmt &s, NameSet &written, NameSet &out, const LoopTests *tests) {
  auto readExpr = [&](const Expr &e) {
    NameSet r;
    readsOf(e, r);
    for (const auto &n : r) if (!written.count(n)) out.insert(n);
  };
  auto readLoopTest = [&](const Stmt &loop) {
    if (!tests) return;
    auto it = tests->find(&loop);
    if (it != tests->end() && it->second) readExpr(*it->second);
  };
  if (auto *i = llvm::dyn_cast<If>(&s)) {
    readExpr(*i->test);
    NameSet a = written, b = written;
    exposed(i->body, a, out, tests);
    exposed(i->orelse, b, out, tests);
    for (const auto &n : a) if (b.count(n)) written.insert(n);
    return;
  }
  // Loops: the body may not run, so its writes are not definite; its first
  // iteration sees the writes made before the loop.
  if (auto *w = llvm::dyn_cast<While>(&s)) {
    readExpr(*w->test);
    readLoopTest(*w);
    NameSet inBody = written;
    exposed(w->body, inBody, out, tests);
    NameSet inElse = written;
    exposed(w->orelse, inElse, out, tests);
    return;
  }
  if (auto *f = llvm::dyn_cast<For>(&s)) {
    readExpr(*f->iter);
    readLoopTest(*f);
    NameSet inBody = written;
    targetNames(*f->target, inBody);
    exposed(f->body, inBody, out, tests);
    NameSet inElse = written;
    exposed(f->orelse, inElse, out, tests);
    return;
  }
  Usage u = usageOf(s);
  for (const auto &n : u.reads) if (!written.count(n)) out.insert(n);
  written.insert(u.writes.begin(), u.writes.end());
}

// Walks `body` in order; `written` holds names definitely written so far.
void exposed(const Body &body, NameSet &written, NameSet &out, const LoopTests *tests) {
  for (const auto &s : body) exposedStmt(*s, written, out, tests);
}
}  // namespace

NameSet upwardExposed(const Body &body, const LoopTests *loopTests) {
  NameSet written, out;
  exposed(body, written, out, loopTests);
  return out;
}

Flow flowOf(const Stmt &stmt, const LoopTests *loopTests) {
  Flow f;
  exposedStmt(stmt, f.definiteWrites, f.exposedReads, loopTests);
  return f;
}

NameSet localNames(const FunctionDef &fn) { return localNamesOf(fn, usageOf(fn.body)); }

namespace {
// localNames given the usage of fn's body.
NameSet localNamesOf(const FunctionDef &fn, const Usage &u) {
  NameSet declared;
  std::function<void(const Body &)> scan = [&](const Body &b) {
    for (const auto &s : b) {
      if (auto *d = llvm::dyn_cast<ScopeDecl>(s.get()))
        declared.insert(d->names.begin(), d->names.end());
      else if (auto *i = llvm::dyn_cast<If>(s.get())) { scan(i->body); scan(i->orelse); }
      else if (auto *w = llvm::dyn_cast<While>(s.get())) scan(w->body);
      else if (auto *f = llvm::dyn_cast<For>(s.get())) scan(f->body);
      else if (auto *t = llvm::dyn_cast<Try>(s.get())) {
        scan(t->body);
        for (const auto &h : t->handlers) scan(h.body);
      } else if (auto *w2 = llvm::dyn_cast<With>(s.get())) scan(w2->body);
    }
  };
  scan(fn.body);
  NameSet out;
  for (const auto &w : u.writes) if (!declared.count(w)) out.insert(w);
  for (const auto &p : fn.params) out.insert(p.name);
  return out;
}
}  // namespace

}  // namespace tfs::autograph
