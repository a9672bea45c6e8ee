// --emit=ast: prints the AST as an indented tree (MLIR Toy's dumper style),
// one node per line ending in `@file:line:col`, children indented by two.
//   FunctionDef 'f' @f.tfs:1:1
//     Param 'x' @f.tfs:1:7
//     If @f.tfs:2:5
//       Compare '>' @f.tfs:2:8
#include "frontend/frontend.h"

#include <fmt/format.h>

namespace tfs::frontend {

using namespace tfs::ast;

namespace {

// Python-repr-like quoting; control bytes (and, for bytes literals, every
// non-ASCII byte) are escaped so the printed tree is always plain text.
std::string quoted(const std::string &s, bool bytes = false) {
  std::string out = "'";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c == '\'') out += "\\'";
    else if (c == '\\') out += "\\\\";
    else if (u < 0x20 || u == 0x7f || (bytes && u >= 0x80)) out += fmt::format("\\x{:02x}", u);
    else out += c;
  }
  return out + "'";
}

// Python's float repr: shortest round-trip digits, always marked as a float.
std::string floatRepr(double f) {
  std::string s = fmt::format("{}", f);
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

class Printer {
public:
  std::string out;

  void body(const Body &b, int d) {
    for (const auto &s : b) stmt(*s, d);
  }

  void line(int d, const std::string &text, const SourceSpan &s) {
    out += std::string(size_t(d) * 2, ' ') + text;
    if (s.valid())
      out += fmt::format(" @{}:{}:{}", s.file ? s.file->path() : "<generated>", s.line, s.col);
    out += '\n';
  }

  void label(int d, const char *what) { out += std::string(size_t(d) * 2, ' ') + what + "\n"; }

  void params(const std::vector<Param> &ps, int d) {
    static const char *kinds[] = {"", " *", " kwonly", " **"};
    for (const auto &p : ps) {
      line(d, fmt::format("Param {}{}", quoted(p.name), kinds[int(p.kind)]), p.span);
      if (p.defaultValue) expr(*p.defaultValue, d + 1);
    }
  }

  void stmt(const Stmt &s, int d) {
    switch (s.kind) {
    case StmtKind::FunctionDef: {
      auto &f = static_cast<const FunctionDef &>(s);
      line(d, "FunctionDef " + quoted(f.name), s.span);
      for (const auto &dec : f.decorators) { label(d + 1, "decorator:"); expr(*dec, d + 2); }
      params(f.params, d + 1);
      body(f.body, d + 1);
      return;
    }
    case StmtKind::ClassDef: {
      auto &c = static_cast<const ClassDef &>(s);
      line(d, "ClassDef " + quoted(c.name), s.span);
      for (const auto &dec : c.decorators) { label(d + 1, "decorator:"); expr(*dec, d + 2); }
      for (const auto &b : c.bases) { label(d + 1, "base:"); expr(*b, d + 2); }
      body(c.body, d + 1);
      return;
    }
    case StmtKind::Return:
      line(d, "Return", s.span);
      if (auto &v = static_cast<const Return &>(s).value) expr(*v, d + 1);
      return;
    case StmtKind::Assign: {
      auto &a = static_cast<const Assign &>(s);
      line(d, a.annotation ? "AnnAssign" : "Assign", s.span);
      for (const auto &t : a.targets) expr(*t, d + 1);
      if (a.annotation) expr(*a.annotation, d + 1);
      if (a.value) expr(*a.value, d + 1);
      return;
    }
    case StmtKind::AugAssign: {
      auto &a = static_cast<const AugAssign &>(s);
      line(d, fmt::format("AugAssign '{}='", binOpSymbol(a.op)), s.span);
      expr(*a.target, d + 1);
      expr(*a.value, d + 1);
      return;
    }
    case StmtKind::ExprStmt:
      line(d, "Expr", s.span);
      expr(*static_cast<const ExprStmt &>(s).value, d + 1);
      return;
    case StmtKind::If: {
      auto &i = static_cast<const If &>(s);
      line(d, "If", s.span);
      expr(*i.test, d + 1);
      label(d + 1, "then:");
      body(i.body, d + 2);
      if (!i.orelse.empty()) { label(d + 1, "else:"); body(i.orelse, d + 2); }
      return;
    }
    case StmtKind::While: {
      auto &w = static_cast<const While &>(s);
      line(d, "While", s.span);
      expr(*w.test, d + 1);
      label(d + 1, "body:");
      body(w.body, d + 2);
      if (!w.orelse.empty()) { label(d + 1, "else:"); body(w.orelse, d + 2); }
      return;
    }
    case StmtKind::For: {
      auto &f = static_cast<const For &>(s);
      line(d, "For", s.span);
      expr(*f.target, d + 1);
      expr(*f.iter, d + 1);
      label(d + 1, "body:");
      body(f.body, d + 2);
      if (!f.orelse.empty()) { label(d + 1, "else:"); body(f.orelse, d + 2); }
      return;
    }
    case StmtKind::Break: line(d, "Break", s.span); return;
    case StmtKind::Continue: line(d, "Continue", s.span); return;
    case StmtKind::Pass: line(d, "Pass", s.span); return;
    case StmtKind::With: {
      auto &w = static_cast<const With &>(s);
      line(d, "With", s.span);
      for (const auto &it : w.items) {
        label(d + 1, "item:");
        expr(*it.context, d + 2);
        if (it.target) expr(*it.target, d + 2);
      }
      body(w.body, d + 1);
      return;
    }
    case StmtKind::Try: {
      auto &t = static_cast<const Try &>(s);
      line(d, t.isStar ? "TryStar" : "Try", s.span);
      body(t.body, d + 1);
      for (const auto &h : t.handlers) {
        line(d + 1, h.name.empty() ? "ExceptHandler" : "ExceptHandler " + quoted(h.name), h.span);
        if (h.type) expr(*h.type, d + 2);
        body(h.body, d + 2);
      }
      if (!t.orelse.empty()) { label(d + 1, "else:"); body(t.orelse, d + 2); }
      if (!t.finalbody.empty()) { label(d + 1, "finally:"); body(t.finalbody, d + 2); }
      return;
    }
    case StmtKind::Raise: {
      auto &r = static_cast<const Raise &>(s);
      line(d, "Raise", s.span);
      if (r.exc) expr(*r.exc, d + 1);
      if (r.cause) { label(d + 1, "from:"); expr(*r.cause, d + 2); }
      return;
    }
    case StmtKind::Assert: {
      auto &a = static_cast<const Assert &>(s);
      line(d, "Assert", s.span);
      expr(*a.test, d + 1);
      if (a.msg) expr(*a.msg, d + 1);
      return;
    }
    case StmtKind::Import:
      for (const auto &n : static_cast<const Import &>(s).names)
        line(d, "Import " + quoted(n.name) + (n.asname.empty() ? "" : " as " + quoted(n.asname)), s.span);
      return;
    case StmtKind::ImportFrom: {
      auto &i = static_cast<const ImportFrom &>(s);
      line(d, "ImportFrom " + quoted(std::string(size_t(i.level), '.') + i.module), s.span);
      for (const auto &n : i.names)
        line(d + 1, "Alias " + quoted(n.name) + (n.asname.empty() ? "" : " as " + quoted(n.asname)), n.span);
      return;
    }
    case StmtKind::Global:
    case StmtKind::Nonlocal: {
      std::string names;
      for (const auto &n : static_cast<const ScopeDecl &>(s).names) names += " " + quoted(n);
      line(d, (s.kind == StmtKind::Global ? "Global" : "Nonlocal") + names, s.span);
      return;
    }
    case StmtKind::Delete:
      line(d, "Delete", s.span);
      for (const auto &t : static_cast<const Delete &>(s).targets) expr(*t, d + 1);
      return;
    case StmtKind::Match: {
      auto &m = static_cast<const Match &>(s);
      line(d, "Match", s.span);
      expr(*m.subject, d + 1);
      for (const auto &c : m.cases) {
        line(d + 1, "MatchCase", c.span);
        pattern(c.pattern, d + 2);
        if (c.guard) { label(d + 2, "guard:"); expr(*c.guard, d + 3); }
        body(c.body, d + 2);
      }
      return;
    }
    }
  }

  void pattern(const Pattern &p, int d) {
    static const char *const names[] = {"MatchValue", "MatchSingleton", "MatchSequence", "MatchMapping",
                                        "MatchClass", "MatchStar",      "MatchAs",       "MatchOr"};
    std::string text = names[size_t(p.kind)];
    if (p.target) text += " " + quoted(static_cast<const Name &>(*p.target).id);
    if (!p.kwdAttrs.empty()) {
      text += " keywords";
      for (const auto &a : p.kwdAttrs) text += " " + quoted(a);
    }
    line(d, text, p.span);
    if (p.value) expr(*p.value, d + 1);
    for (size_t i = 0; i < p.patterns.size(); ++i) {
      if (i < p.keys.size()) expr(*p.keys[i], d + 1);
      pattern(p.patterns[i], d + 1);
    }
    for (const auto &q : p.kwdPatterns) pattern(q, d + 1);
    if (p.pattern) pattern(*p.pattern, d + 1);
  }

  void expr(const Expr &e, int d) {
    switch (e.kind) {
    case ExprKind::Name: {
      auto &n = static_cast<const Name &>(e);
      line(d, fmt::format("Name {}{}", quoted(n.id), n.ctx == Ctx::Store ? " store" : n.ctx == Ctx::Del ? " del" : ""), e.span);
      return;
    }
    case ExprKind::Constant: {
      auto &c = static_cast<const Constant &>(e);
      std::string v;
      switch (c.type) {
      case Constant::Type::None: v = "None"; break;
      case Constant::Type::Bool: v = c.b ? "True" : "False"; break;
      case Constant::Type::Int: v = std::to_string(c.i); break;
      case Constant::Type::Float: v = floatRepr(c.f); break;
      case Constant::Type::Str: v = quoted(c.s); break;
      case Constant::Type::Bytes: v = "b" + quoted(c.s, /*bytes=*/true); break;
      case Constant::Type::Ellipsis: v = "..."; break;
      case Constant::Type::BigInt: v = c.s; break;
      }
      line(d, "Constant " + v, e.span);
      return;
    }
    case ExprKind::FString: {
      auto &f = static_cast<const FString &>(e);
      line(d, "FString", e.span);
      for (const auto &p : f.parts) {
        if (!p.value) { label(d + 1, ("literal " + quoted(p.literal)).c_str()); continue; }
        label(d + 1, p.value->conversion ? fmt::format("field !{}", p.value->conversion).c_str() : "field");
        expr(*p.value->value, d + 2);
        if (p.value->formatSpec) { label(d + 2, "spec:"); expr(*p.value->formatSpec, d + 3); }
      }
      return;
    }
    case ExprKind::BinOp: {
      auto &b = static_cast<const BinOp &>(e);
      line(d, fmt::format("BinOp '{}'", binOpSymbol(b.op)), e.span);
      expr(*b.lhs, d + 1);
      expr(*b.rhs, d + 1);
      return;
    }
    case ExprKind::UnaryOp: {
      auto &u = static_cast<const UnaryOp &>(e);
      line(d, fmt::format("UnaryOp '{}'", unaryOpSymbol(u.op)), e.span);
      expr(*u.operand, d + 1);
      return;
    }
    case ExprKind::BoolOp: {
      auto &b = static_cast<const BoolOp &>(e);
      line(d, b.isAnd ? "BoolOp 'and'" : "BoolOp 'or'", e.span);
      for (const auto &v : b.values) expr(*v, d + 1);
      return;
    }
    case ExprKind::Compare: {
      auto &c = static_cast<const Compare &>(e);
      std::string ops;
      for (auto op : c.ops) ops += std::string(ops.empty() ? "" : " ") + "'" + cmpOpSymbol(op) + "'";
      line(d, "Compare " + ops, e.span);
      expr(*c.left, d + 1);
      for (const auto &x : c.comparators) expr(*x, d + 1);
      return;
    }
    case ExprKind::Call: {
      auto &c = static_cast<const Call &>(e);
      line(d, "Call", e.span);
      expr(*c.func, d + 1);
      for (const auto &a : c.args) expr(*a, d + 1);
      for (const auto &k : c.keywords) {
        line(d + 1, k.name.empty() ? "Keyword **" : "Keyword " + quoted(k.name), k.span);
        expr(*k.value, d + 2);
      }
      return;
    }
    case ExprKind::Attribute: {
      auto &a = static_cast<const Attribute &>(e);
      line(d, "Attribute " + quoted(a.attr) + (a.ctx == Ctx::Store ? " store" : ""), e.span);
      expr(*a.value, d + 1);
      return;
    }
    case ExprKind::Subscript: {
      auto &s = static_cast<const Subscript &>(e);
      line(d, std::string("Subscript") + (s.ctx == Ctx::Store ? " store" : ""), e.span);
      expr(*s.value, d + 1);
      expr(*s.index, d + 1);
      return;
    }
    case ExprKind::Slice: {
      auto &s = static_cast<const Slice &>(e);
      line(d, "Slice", e.span);
      for (const auto *p : {&s.lower, &s.upper, &s.step}) {
        if (*p) expr(**p, d + 1);
        else label(d + 1, "None");
      }
      return;
    }
    case ExprKind::List:
    case ExprKind::Tuple:
    case ExprKind::Set: {
      auto &s = static_cast<const Sequence &>(e);
      line(d, e.kind == ExprKind::List ? "List" : e.kind == ExprKind::Tuple ? "Tuple" : "Set", e.span);
      for (const auto &x : s.elts) expr(*x, d + 1);
      return;
    }
    case ExprKind::Dict: {
      auto &m = static_cast<const Dict &>(e);
      line(d, "Dict", e.span);
      for (size_t i = 0; i < m.values.size(); ++i) {
        if (m.keys[i]) expr(*m.keys[i], d + 1);
        else label(d + 1, "**");
        expr(*m.values[i], d + 1);
      }
      return;
    }
    case ExprKind::Comprehension: {
      auto &c = static_cast<const Comprehension &>(e);
      static const char *kinds[] = {"ListComp", "SetComp", "DictComp", "GeneratorExp"};
      line(d, kinds[int(c.type)], e.span);
      expr(*c.elt, d + 1);
      if (c.value) expr(*c.value, d + 1);
      for (const auto &g : c.generators) {
        label(d + 1, "for:");
        expr(*g.target, d + 2);
        expr(*g.iter, d + 2);
        for (const auto &i : g.ifs) { label(d + 2, "if:"); expr(*i, d + 3); }
      }
      return;
    }
    case ExprKind::Lambda: {
      auto &l = static_cast<const Lambda &>(e);
      line(d, "Lambda", e.span);
      params(l.params, d + 1);
      expr(*l.body, d + 1);
      return;
    }
    case ExprKind::IfExp: {
      auto &i = static_cast<const IfExp &>(e);
      line(d, "IfExp", e.span);
      expr(*i.test, d + 1);
      expr(*i.body, d + 1);
      expr(*i.orelse, d + 1);
      return;
    }
    case ExprKind::Starred:
      line(d, "Starred", e.span);
      expr(*static_cast<const Starred &>(e).value, d + 1);
      return;
    case ExprKind::Yield:
    case ExprKind::YieldFrom: {
      auto &y = static_cast<const Yield &>(e);
      line(d, e.kind == ExprKind::Yield ? "Yield" : "YieldFrom", e.span);
      if (y.value) expr(*y.value, d + 1);
      return;
    }
    case ExprKind::NamedExpr: {
      auto &n = static_cast<const NamedExpr &>(e);
      line(d, "NamedExpr", e.span);
      expr(*n.target, d + 1);
      expr(*n.value, d + 1);
      return;
    }
    }
  }
};

}  // namespace

std::string printAst(const Module &module) {
  Printer p;
  p.line(0, "Module", SourceSpan{module.file, 1, 1, 1, 1});
  p.body(module.body, 1);
  return p.out;
}

}  // namespace tfs::frontend
