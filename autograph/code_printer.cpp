// Prints an AST as .tfs (Python) source: 4-space indents, parentheses only
// where precedence needs them, string literals quoted like Python's repr.
// Used by --emit=autograph and tf.autograph.to_code.
#include "autograph/autograph.h"
#include "frontend/positional_only.h"

#include <fmt/format.h>

namespace tfs::autograph {

using namespace tfs::ast;

namespace {

// Python precedence levels, low to high.
enum Prec { kLambda = 1, kIfExp, kOr, kAnd, kNot, kCmp, kBitOr, kBitXor, kBitAnd, kShift,
            kArith, kTerm, kUnary, kPow, kAwait, kAtom };

int binPrec(BinOpKind op) {
  switch (op) {
  case BinOpKind::Add: case BinOpKind::Sub: return kArith;
  case BinOpKind::Mul: case BinOpKind::Div: case BinOpKind::FloorDiv: case BinOpKind::Mod:
  case BinOpKind::MatMul: return kTerm;
  case BinOpKind::Pow: return kPow;
  case BinOpKind::LShift: case BinOpKind::RShift: return kShift;
  case BinOpKind::BitAnd: return kBitAnd;
  case BinOpKind::BitOr: return kBitOr;
  case BinOpKind::BitXor: return kBitXor;
  }
  return kAtom;
}

std::string quote(const std::string &s, bool bytes) {
  bool hasSingle = s.find('\'') != std::string::npos, hasDouble = s.find('"') != std::string::npos;
  char q = hasSingle && !hasDouble ? '"' : '\'';
  std::string out = bytes ? "b" : "";
  out += q;
  for (unsigned char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == q) { out += '\\'; out += char(c); }
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c < 32 || c == 127 || (bytes && c > 127)) out += fmt::format("\\x{:02x}", c);
    else out += char(c);
  }
  return out + q;
}

std::string expr(const Expr &e, int ctx = 0);

std::string params(const std::vector<Param> &ps, bool lambda) {
  std::string out;
  bool sawStar = false;
  // The positional-only marker, found in the source (the AST keeps none).
  const size_t positionalOnly = size_t(frontend::positionalOnlyParams(ps, lambda));
  size_t index = 0;
  for (const auto &p : ps) {
    if (index++ == positionalOnly && positionalOnly > 0) out += ", /";
    if (!out.empty()) out += ", ";
    if (p.kind == Param::Kind::KeywordOnly && !sawStar) {
      out += "*, ";
      sawStar = true;
    }
    if (p.kind == Param::Kind::VarArgs) { out += "*"; sawStar = true; }
    if (p.kind == Param::Kind::VarKeywords) out += "**";
    out += p.name;
    if (p.defaultValue) out += "=" + expr(*p.defaultValue);
  }
  if (positionalOnly > 0 && positionalOnly == ps.size()) out += ", /";
  return out;
}

std::string wrap(const std::string &s, int prec, int ctx) { return prec < ctx ? "(" + s + ")" : s; }

// The text of an f-string between its quotes, `q` being the quote used:
// literal parts escaped like a string literal (plus doubled braces),
// replacement fields printed as expressions.
std::string fstringBody(const FString &f, char q) {
  std::string out;
  for (const auto &p : f.parts) {
    if (!p.value) {
      for (unsigned char c : p.literal) {
        if (c == '{') out += "{{";
        else if (c == '}') out += "}}";
        else if (c == '\\') out += "\\\\";
        else if (c == q) { out += '\\'; out += char(c); }
        else if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else if (c < 32 || c == 127) out += fmt::format("\\x{:02x}", c);
        else out += char(c);
      }
      continue;
    }
    out += "{" + expr(*p.value->value);
    if (p.value->conversion) out += std::string("!") + p.value->conversion;
    if (p.value->formatSpec) out += ":" + fstringBody(static_cast<const FString &>(*p.value->formatSpec), q);
    out += "}";
  }
  return out;
}

// Whether a replacement field of `f` (format specs included) prints a `q`:
// before Python 3.12 the f-string itself must then use the other quote.
bool fieldsContain(const FString &f, char q) {
  for (const auto &p : f.parts) {
    if (!p.value) continue;
    if (expr(*p.value->value).find(q) != std::string::npos) return true;
    if (p.value->formatSpec && fieldsContain(static_cast<const FString &>(*p.value->formatSpec), q)) return true;
  }
  return false;
}

std::string fstring(const FString &f) {
  char q = fieldsContain(f, '\'') ? '"' : '\'';
  return "f" + std::string(1, q) + fstringBody(f, q) + q;
}

std::string expr(const Expr &e, int ctx) {
  switch (e.kind) {
  case ExprKind::Name: return static_cast<const Name &>(e).id;
  case ExprKind::Constant: {
    auto &c = static_cast<const Constant &>(e);
    switch (c.type) {
    case Constant::Type::None: return "None";
    case Constant::Type::Bool: return c.b ? "True" : "False";
    case Constant::Type::Int: return std::to_string(c.i);
    case Constant::Type::Float: {
      std::string s = fmt::format("{}", c.f);
      if (s.find_first_of(".einf") == std::string::npos) s += ".0";
      return s;
    }
    case Constant::Type::Str: return quote(c.s, false);
    case Constant::Type::Bytes: return quote(c.s, true);
    case Constant::Type::Ellipsis: return "...";
    case Constant::Type::BigInt: return c.s;
    }
    return "";
  }
  case ExprKind::FString: return fstring(static_cast<const FString &>(e));
  case ExprKind::BinOp: {
    auto &b = static_cast<const BinOp &>(e);
    int p = binPrec(b.op);
    bool rightAssoc = b.op == BinOpKind::Pow;
    std::string s = expr(*b.lhs, rightAssoc ? p + 1 : p) + " " + binOpSymbol(b.op) + " " +
                    expr(*b.rhs, rightAssoc ? kUnary : p + 1);  // x ** -y needs no parens
    return wrap(s, p, ctx);
  }
  case ExprKind::UnaryOp: {
    auto &u = static_cast<const UnaryOp &>(e);
    if (u.op == UnaryOpKind::Not) return wrap("not " + expr(*u.operand, kNot), kNot, ctx);
    return wrap(std::string(unaryOpSymbol(u.op)) + expr(*u.operand, kUnary), kUnary, ctx);
  }
  case ExprKind::BoolOp: {
    auto &b = static_cast<const BoolOp &>(e);
    int p = b.isAnd ? kAnd : kOr;
    std::string s;
    for (size_t i = 0; i < b.values.size(); ++i)
      s += (i ? (b.isAnd ? " and " : " or ") : "") + expr(*b.values[i], p + 1);
    return wrap(s, p, ctx);
  }
  case ExprKind::Compare: {
    auto &c = static_cast<const Compare &>(e);
    std::string s = expr(*c.left, kCmp + 1);
    for (size_t i = 0; i < c.ops.size(); ++i)
      s += std::string(" ") + cmpOpSymbol(c.ops[i]) + " " + expr(*c.comparators[i], kCmp + 1);
    return wrap(s, kCmp, ctx);
  }
  case ExprKind::Call: {
    auto &c = static_cast<const Call &>(e);
    std::string s = expr(*c.func, kAtom) + "(";
    bool first = true;
    for (const auto &a : c.args) { s += (first ? "" : ", ") + expr(*a); first = false; }
    for (const auto &k : c.keywords) {
      s += (first ? "" : ", ") + (k.name.empty() ? "**" : k.name + "=") + expr(*k.value);
      first = false;
    }
    return s + ")";
  }
  case ExprKind::Attribute: {
    auto &a = static_cast<const Attribute &>(e);
    std::string base = expr(*a.value, kAtom);
    if (a.value->kind == ExprKind::Constant && static_cast<const Constant &>(*a.value).type == Constant::Type::Int)
      base = "(" + base + ")";
    return base + "." + a.attr;
  }
  case ExprKind::Subscript: {
    auto &s = static_cast<const Subscript &>(e);
    std::string idx;
    if (auto *t = llvm::dyn_cast<Sequence>(s.index.get()); t && t->kind == ExprKind::Tuple && !t->elts.empty()) {
      for (size_t i = 0; i < t->elts.size(); ++i) idx += (i ? ", " : "") + expr(*t->elts[i]);
      if (t->elts.size() == 1) idx += ",";
    } else {
      idx = expr(*s.index);
    }
    return expr(*s.value, kAtom) + "[" + idx + "]";
  }
  case ExprKind::Slice: {
    auto &s = static_cast<const Slice &>(e);
    std::string out = (s.lower ? expr(*s.lower) : "") + ":" + (s.upper ? expr(*s.upper) : "");
    if (s.step) out += ":" + expr(*s.step);
    return out;
  }
  case ExprKind::List:
  case ExprKind::Tuple:
  case ExprKind::Set: {
    auto &s = static_cast<const Sequence &>(e);
    std::string inner;
    for (size_t i = 0; i < s.elts.size(); ++i) inner += (i ? ", " : "") + expr(*s.elts[i]);
    if (e.kind == ExprKind::List) return "[" + inner + "]";
    if (e.kind == ExprKind::Set) return "{" + inner + "}";
    if (s.elts.size() == 1) inner += ",";
    return "(" + inner + ")";
  }
  case ExprKind::Dict: {
    auto &d = static_cast<const Dict &>(e);
    std::string s = "{";
    for (size_t i = 0; i < d.values.size(); ++i) {
      if (i) s += ", ";
      s += d.keys[i] ? expr(*d.keys[i]) + ": " + expr(*d.values[i]) : "**" + expr(*d.values[i]);
    }
    return s + "}";
  }
  case ExprKind::Comprehension: {
    auto &c = static_cast<const Comprehension &>(e);
    std::string s = expr(*c.elt);
    if (c.value) s += ": " + expr(*c.value);
    for (const auto &g : c.generators) {
      s += " for " + expr(*g.target) + " in " + expr(*g.iter, kOr);
      for (const auto &i : g.ifs) s += " if " + expr(*i, kOr);
    }
    switch (c.type) {
    case Comprehension::Type::List: return "[" + s + "]";
    case Comprehension::Type::Set: case Comprehension::Type::Dict: return "{" + s + "}";
    case Comprehension::Type::Generator: return "(" + s + ")";
    }
    return s;
  }
  case ExprKind::Lambda: {
    auto &l = static_cast<const Lambda &>(e);
    std::string p = params(l.params, true);
    return wrap("lambda" + (p.empty() ? "" : " " + p) + ": " + expr(*l.body), kLambda, ctx);
  }
  case ExprKind::IfExp: {
    auto &i = static_cast<const IfExp &>(e);
    return wrap(expr(*i.body, kIfExp + 1) + " if " + expr(*i.test, kIfExp + 1) + " else " + expr(*i.orelse, kIfExp),
                kIfExp, ctx);
  }
  case ExprKind::Starred: return "*" + expr(*static_cast<const Starred &>(e).value, kBitOr);
  case ExprKind::Yield:
  case ExprKind::YieldFrom: {
    // Parenthesized: valid wherever the yield stood.
    auto &y = static_cast<const Yield &>(e);
    std::string kw = e.kind == ExprKind::Yield ? "yield" : "yield from";
    return "(" + (y.value ? kw + " " + expr(*y.value) : kw) + ")";
  }
  case ExprKind::NamedExpr: {
    // Always parenthesized: valid wherever the walrus stood.
    auto &n = static_cast<const NamedExpr &>(e);
    return "(" + expr(*n.target) + " := " + expr(*n.value, kLambda) + ")";
  }
  }
  return "";
}

std::string target(const Expr &e) {
  if (auto *t = llvm::dyn_cast<Sequence>(&e); t && t->kind == ExprKind::Tuple && !t->elts.empty()) {
    std::string s;
    for (size_t i = 0; i < t->elts.size(); ++i) s += (i ? ", " : "") + expr(*t->elts[i]);
    return t->elts.size() == 1 ? "(" + s + ",)" : "(" + s + ")";
  }
  return expr(e);
}

void stmts(const Body &b, int indent, std::string &out);
std::string pattern(const Pattern &p);

void stmt(const Stmt &s, int indent, std::string &out) {
  std::string pad(size_t(indent) * 4, ' ');
  auto block = [&](const Body &b) { stmts(b, indent + 1, out); };
  switch (s.kind) {
  case StmtKind::FunctionDef: {
    auto &f = static_cast<const FunctionDef &>(s);
    for (const auto &d : f.decorators) out += pad + "@" + expr(*d) + "\n";
    out += pad + "def " + f.name + "(" + params(f.params, false) + "):\n";
    block(f.body);
    return;
  }
  case StmtKind::ClassDef: {
    auto &c = static_cast<const ClassDef &>(s);
    for (const auto &d : c.decorators) out += pad + "@" + expr(*d) + "\n";
    std::string bases;
    for (const auto &b : c.bases) bases += (bases.empty() ? "" : ", ") + expr(*b);
    for (const auto &k : c.keywords) bases += (bases.empty() ? "" : ", ") + k.name + "=" + expr(*k.value);
    out += pad + "class " + c.name + (bases.empty() ? "" : "(" + bases + ")") + ":\n";
    block(c.body);
    return;
  }
  case StmtKind::Return: {
    auto &r = static_cast<const Return &>(s);
    out += pad + "return" + (r.value ? " " + target(*r.value) : "") + "\n";
    return;
  }
  case StmtKind::Assign: {
    auto &a = static_cast<const Assign &>(s);
    out += pad;
    if (a.annotation) {
      out += target(*a.targets[0]) + ": " + expr(*a.annotation) + (a.value ? " = " + target(*a.value) : "") + "\n";
      return;
    }
    for (const auto &t : a.targets) out += target(*t) + " = ";
    out += target(*a.value) + "\n";
    return;
  }
  case StmtKind::AugAssign: {
    auto &a = static_cast<const AugAssign &>(s);
    out += pad + expr(*a.target) + " " + binOpSymbol(a.op) + "= " + expr(*a.value) + "\n";
    return;
  }
  case StmtKind::ExprStmt: out += pad + expr(*static_cast<const ExprStmt &>(s).value) + "\n"; return;
  case StmtKind::If: {
    auto *i = &static_cast<const If &>(s);
    out += pad + "if " + expr(*i->test) + ":\n";
    block(i->body);
    while (i->orelse.size() == 1 && i->orelse[0]->kind == StmtKind::If) {
      i = &static_cast<const If &>(*i->orelse[0]);
      out += pad + "elif " + expr(*i->test) + ":\n";
      block(i->body);
    }
    if (!i->orelse.empty()) {
      out += pad + "else:\n";
      block(i->orelse);
    }
    return;
  }
  case StmtKind::While: {
    auto &w = static_cast<const While &>(s);
    out += pad + "while " + expr(*w.test) + ":\n";
    block(w.body);
    if (!w.orelse.empty()) { out += pad + "else:\n"; block(w.orelse); }
    return;
  }
  case StmtKind::For: {
    auto &f = static_cast<const For &>(s);
    out += pad + "for " + target(*f.target) + " in " + expr(*f.iter) + ":\n";
    block(f.body);
    if (!f.orelse.empty()) { out += pad + "else:\n"; block(f.orelse); }
    return;
  }
  case StmtKind::Break: out += pad + "break\n"; return;
  case StmtKind::Continue: out += pad + "continue\n"; return;
  case StmtKind::Pass: out += pad + "pass\n"; return;
  case StmtKind::With: {
    auto &w = static_cast<const With &>(s);
    std::string items;
    for (const auto &it : w.items)
      items += (items.empty() ? "" : ", ") + expr(*it.context) + (it.target ? " as " + target(*it.target) : "");
    out += pad + "with " + items + ":\n";
    block(w.body);
    return;
  }
  case StmtKind::Try: {
    auto &t = static_cast<const Try &>(s);
    out += pad + "try:\n";
    block(t.body);
    for (const auto &h : t.handlers) {
      out += pad + (t.isStar ? "except*" : "except") + (h.type ? " " + expr(*h.type) : "") + (h.name.empty() ? "" : " as " + h.name) + ":\n";
      block(h.body);
    }
    if (!t.orelse.empty()) { out += pad + "else:\n"; block(t.orelse); }
    if (!t.finalbody.empty()) { out += pad + "finally:\n"; block(t.finalbody); }
    return;
  }
  case StmtKind::Raise: {
    auto &r = static_cast<const Raise &>(s);
    out += pad + "raise" + (r.exc ? " " + expr(*r.exc) : "") + (r.cause ? " from " + expr(*r.cause) : "") + "\n";
    return;
  }
  case StmtKind::Assert: {
    auto &a = static_cast<const Assert &>(s);
    out += pad + "assert " + expr(*a.test) + (a.msg ? ", " + expr(*a.msg) : "") + "\n";
    return;
  }
  case StmtKind::Import: {
    std::string names;
    for (const auto &n : static_cast<const Import &>(s).names)
      names += (names.empty() ? "" : ", ") + n.name + (n.asname.empty() ? "" : " as " + n.asname);
    out += pad + "import " + names + "\n";
    return;
  }
  case StmtKind::ImportFrom: {
    auto &i = static_cast<const ImportFrom &>(s);
    std::string names;
    for (const auto &n : i.names) names += (names.empty() ? "" : ", ") + n.name + (n.asname.empty() ? "" : " as " + n.asname);
    out += pad + "from " + std::string(size_t(i.level), '.') + i.module + " import " + names + "\n";
    return;
  }
  case StmtKind::Global:
  case StmtKind::Nonlocal: {
    std::string names;
    for (const auto &n : static_cast<const ScopeDecl &>(s).names) names += (names.empty() ? "" : ", ") + n;
    out += pad + (s.kind == StmtKind::Global ? "global " : "nonlocal ") + names + "\n";
    return;
  }
  case StmtKind::Delete: {
    std::string t;
    for (const auto &x : static_cast<const Delete &>(s).targets) t += (t.empty() ? "" : ", ") + expr(*x);
    out += pad + "del " + t + "\n";
    return;
  }
  case StmtKind::Match: {
    auto &m = static_cast<const Match &>(s);
    out += pad + "match " + expr(*m.subject) + ":\n";
    for (const auto &c : m.cases) {
      out += pad + "    case " + pattern(c.pattern) + (c.guard ? " if " + expr(*c.guard) : "") + ":\n";
      stmts(c.body, indent + 2, out);
    }
    return;
  }
  }
}

// A case pattern as written (groups parenthesized where needed).
std::string pattern(const Pattern &p) {
  auto name = [](const ExprPtr &t) { return t ? static_cast<const Name &>(*t).id : std::string("_"); };
  auto list = [](const std::vector<Pattern> &ps) {
    std::string out;
    for (const auto &q : ps) out += (out.empty() ? "" : ", ") + pattern(q);
    return out;
  };
  switch (p.kind) {
  case Pattern::Kind::Value:
  case Pattern::Kind::Singleton: return expr(*p.value);
  case Pattern::Kind::Sequence: return "[" + list(p.patterns) + "]";
  case Pattern::Kind::Mapping: {
    std::string out;
    for (size_t i = 0; i < p.keys.size(); ++i)
      out += (out.empty() ? "" : ", ") + expr(*p.keys[i]) + ": " + pattern(p.patterns[i]);
    if (p.target) out += (out.empty() ? "**" : ", **") + name(p.target);
    return "{" + out + "}";
  }
  case Pattern::Kind::Class: {
    std::string out = list(p.patterns);
    for (size_t i = 0; i < p.kwdAttrs.size(); ++i)
      out += (out.empty() ? "" : ", ") + p.kwdAttrs[i] + "=" + pattern(p.kwdPatterns[i]);
    return expr(*p.value) + "(" + out + ")";
  }
  case Pattern::Kind::Star: return "*" + name(p.target);
  case Pattern::Kind::As:
    if (!p.pattern) return name(p.target);
    return "(" + pattern(*p.pattern) + " as " + name(p.target) + ")";
  case Pattern::Kind::Or: {
    std::string out;
    for (const auto &q : p.patterns) out += (out.empty() ? "" : " | ") + pattern(q);
    return "(" + out + ")";
  }
  }
  return "";
}

void stmts(const Body &b, int indent, std::string &out) {
  if (b.empty()) {
    out += std::string(size_t(indent) * 4, ' ') + "pass\n";
    return;
  }
  for (const auto &s : b) stmt(*s, indent, out);
}

}  // namespace

std::string printCode(const Stmt &s) {
  std::string out;
  stmt(s, 0, out);
  return out;
}

std::string printCode(const Module &m) {
  std::string out;
  for (const auto &s : m.body) stmt(*s, 0, out);
  return out;
}

std::string printExpr(const Expr &e) { return expr(e); }

}  // namespace tfs::autograph
