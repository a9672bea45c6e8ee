// unconvertibleCause: see autograph.h.
#include "autograph/autograph.h"

namespace tfs::autograph {

using namespace tfs::ast;

namespace {

// The first Name read in `e`, depth first in field order (what a Python
// NodeVisitor reaches first).
const Name *firstName(const Expr &e) {
  if (auto *n = llvm::dyn_cast<Name>(&e)) return n->ctx == Ctx::Load ? n : nullptr;
  const Name *found = nullptr;
  forEachChild(e, [&](const Expr &c) {
    if (!found) found = firstName(c);
  });
  return found;
}

// The first Name of a match statement outside its case bodies: the subject,
// then each case's pattern (values, class names, keys) and guard.
const Name *firstMatchName(const Match &m) {
  if (const Name *n = firstName(*m.subject)) return n;
  for (const auto &c : m.cases) {
    const Name *found = nullptr;
    forEachPatternExpr(c.pattern, [&](const Expr &e) {
      if (!found) found = firstName(e);
    });
    if (found) return found;
    if (c.guard)
      if (const Name *n = firstName(*c.guard)) return n;
  }
  return nullptr;
}

const Match *firstMatch(const Body &body);

const Match *firstMatchIn(const Stmt &s) {
  switch (s.kind) {
  case StmtKind::Match: return static_cast<const Match *>(&s);
  case StmtKind::FunctionDef: return firstMatch(static_cast<const FunctionDef &>(s).body);
  case StmtKind::ClassDef: return firstMatch(static_cast<const ClassDef &>(s).body);
  case StmtKind::If: {
    auto &i = static_cast<const If &>(s);
    if (auto *m = firstMatch(i.body)) return m;
    return firstMatch(i.orelse);
  }
  case StmtKind::While: {
    auto &w = static_cast<const While &>(s);
    if (auto *m = firstMatch(w.body)) return m;
    return firstMatch(w.orelse);
  }
  case StmtKind::For: {
    auto &f = static_cast<const For &>(s);
    if (auto *m = firstMatch(f.body)) return m;
    return firstMatch(f.orelse);
  }
  case StmtKind::With: return firstMatch(static_cast<const With &>(s).body);
  case StmtKind::Try: {
    auto &t = static_cast<const Try &>(s);
    if (auto *m = firstMatch(t.body)) return m;
    for (const auto &h : t.handlers)
      if (auto *m = firstMatch(h.body)) return m;
    if (auto *m = firstMatch(t.orelse)) return m;
    return firstMatch(t.finalbody);
  }
  default: return nullptr;
  }
}

const Match *firstMatch(const Body &body) {
  for (const auto &s : body)
    if (auto *m = firstMatchIn(*s)) return m;
  return nullptr;
}

}  // namespace

std::optional<std::string> unconvertibleCause(const FunctionDef &fn) {
  const Match *m = firstMatch(fn.body);
  if (!m) return std::nullopt;
  // TF 2.15's control-flow graph builder has no case for Match: the names
  // read by its subject, patterns and guard belong to no CFG node, and the
  // reaching-definitions pass asserts on the first one.
  if (const Name *n = firstMatchName(*m)) return "name node, " + n->id + ", outside of any statement?";
  return std::string("name node outside of any statement?");
}

}  // namespace tfs::autograph
