// The abstract syntax tree of the .tfs language (a Python subset).
//
// Produced by frontend/ast_builder from the ANTLR parse tree; consumed by the
// interpreter (runtime/interp), the AutoGraph converters (autograph/, which
// rewrite it AST -> AST) and the printers (--emit=ast, --emit=autograph).
// Every node carries a SourceSpan. Node classes use LLVM-style Kind +
// classof so code can `llvm::dyn_cast<ast::If>(stmt)`.
//
// Ownership: a tree owns its children through unique_ptr. `clone()` deep-copies
// a subtree (AutoGraph needs it to duplicate code into branch functions).
#pragma once

#include "frontend/source.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/Support/Casting.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tfs::ast {

using frontend::SourceSpan;

// ---------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------

enum class ExprKind : uint8_t {
  Name, Constant, FString, BinOp, UnaryOp, BoolOp, Compare, Call, Attribute,
  Subscript, Slice, List, Tuple, Dict, Set, Comprehension, Lambda, IfExp,
  Starred, Yield, YieldFrom, NamedExpr,
};

struct Expr {
  const ExprKind kind;
  SourceSpan span;
  explicit Expr(ExprKind k, SourceSpan s = {}) : kind(k), span(s) {}
  virtual ~Expr() = default;
  virtual std::unique_ptr<Expr> clone() const = 0;
};
using ExprPtr = std::unique_ptr<Expr>;

// Where an expression appears: read (Load), assigned (Store), deleted (Del).
enum class Ctx : uint8_t { Load, Store, Del };

struct Name : Expr {
  std::string id;
  Ctx ctx = Ctx::Load;
  // Filled lazily by the interpreter's name resolver (runtime/interp): the
  // slot of this name among the locals of the function whose CodeInfo id is
  // `slotOwner` (-1: not one of its locals). A frame of another function
  // (a different id) resolves it again, so the result is never stale.
  mutable uint64_t slotOwner = 0;
  mutable int32_t slot = -1;
  // The interpreter's cache of a global or builtin read here: the value
  // found (a pointer into a scope's table) while the globals scope was
  // `cacheScope` and neither it nor the builtins gained or lost a name
  // since (their versions, unique for the life of the process).
  mutable const void *cacheScope = nullptr;
  mutable const void *cacheValue = nullptr;
  mutable uint64_t cacheGlobalsVersion = 0, cacheBuiltinsVersion = 0;
  Name(std::string id, SourceSpan s) : Expr(ExprKind::Name, s), id(std::move(id)) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::Name; }
  ExprPtr clone() const override;
};

struct Constant : Expr {
  // BigInt: an int literal past 64 bits; `s` holds its digits (0x/0o/0b
  // prefix kept, underscores dropped) and the interpreter makes the value.
  enum class Type : uint8_t { None, Bool, Int, Float, Str, Bytes, Ellipsis, BigInt };
  Type type = Type::None;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;  // Str (UTF-8), Bytes (raw) or BigInt (digits)
  explicit Constant(SourceSpan sp) : Expr(ExprKind::Constant, sp) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::Constant; }
  ExprPtr clone() const override;
};

// f"a{x!r:>{w}}b" — parts are Constant(Str) literals and FormattedValue pieces.
struct FormattedValue {
  ExprPtr value;
  char conversion = 0;         // 0, 'r', 's' or 'a'
  ExprPtr formatSpec;          // FString or nullptr
  bool selfDocumenting = false;  // f"{x=}"
  std::string exprText;          // source text of value, for `=`
};
struct FString : Expr {
  struct Part {
    std::string literal;                  // used when value is empty
    std::optional<FormattedValue> value;  // a {...} replacement field
  };
  std::vector<Part> parts;
  explicit FString(SourceSpan s) : Expr(ExprKind::FString, s) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::FString; }
  ExprPtr clone() const override;
};

enum class BinOpKind : uint8_t {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, LShift, RShift, BitAnd,
  BitOr, BitXor,
};
const char *binOpSymbol(BinOpKind k);  // "+", "//", ...

struct BinOp : Expr {
  BinOpKind op;
  ExprPtr lhs, rhs;
  BinOp(BinOpKind op, ExprPtr l, ExprPtr r, SourceSpan s)
      : Expr(ExprKind::BinOp, s), op(op), lhs(std::move(l)), rhs(std::move(r)) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::BinOp; }
  ExprPtr clone() const override;
};

enum class UnaryOpKind : uint8_t { Neg, Pos, Not, Invert };
const char *unaryOpSymbol(UnaryOpKind k);  // "-", "+", "not", "~"

struct UnaryOp : Expr {
  UnaryOpKind op;
  ExprPtr operand;
  UnaryOp(UnaryOpKind op, ExprPtr x, SourceSpan s)
      : Expr(ExprKind::UnaryOp, s), op(op), operand(std::move(x)) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::UnaryOp; }
  ExprPtr clone() const override;
};

// `a and b and c` is one BoolOp with three values (short-circuit, Python).
struct BoolOp : Expr {
  bool isAnd = true;
  std::vector<ExprPtr> values;
  explicit BoolOp(SourceSpan s) : Expr(ExprKind::BoolOp, s) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::BoolOp; }
  ExprPtr clone() const override;
};

enum class CmpOpKind : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };
const char *cmpOpSymbol(CmpOpKind k);  // "==", "is not", "not in", ...

// `a < b <= c`: left = a, ops = [<, <=], comparators = [b, c].
struct Compare : Expr {
  ExprPtr left;
  std::vector<CmpOpKind> ops;
  std::vector<ExprPtr> comparators;
  explicit Compare(SourceSpan s) : Expr(ExprKind::Compare, s) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::Compare; }
  ExprPtr clone() const override;
};

// f(a, *rest, k=v, **kw): args may contain Starred; a keyword with an empty
// name is `**expr`.
struct Keyword {
  std::string name;  // empty for **kwargs
  ExprPtr value;
  SourceSpan span;
};
struct Call : Expr {
  ExprPtr func;
  std::vector<ExprPtr> args;
  std::vector<Keyword> keywords;
  explicit Call(SourceSpan s) : Expr(ExprKind::Call, s) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::Call; }
  ExprPtr clone() const override;
};

struct Attribute : Expr {
  ExprPtr value;
  std::string attr;
  Ctx ctx = Ctx::Load;
  // The interpreter's id of `attr` among the methods of built-in types it
  // calls without a bound method (0: not looked up yet).
  mutable uint8_t methodId = 0;
  // The interpreter's cache of what `attr` is on the class of the last
  // instance read or written here (runtime/interp/attr_cache.h): valid
  // while that class and the class epoch it saw are current.
  mutable const void *cacheClass = nullptr;
  mutable const void *cacheValue = nullptr;
  mutable uint64_t cacheEpoch = 0;
  mutable uint8_t cacheLoad = 0, cacheStore = 0;
  Attribute(ExprPtr v, std::string a, SourceSpan s)
      : Expr(ExprKind::Attribute, s), value(std::move(v)), attr(std::move(a)) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::Attribute; }
  ExprPtr clone() const override;
};

// x[i], x[a:b], x[1:2, ::3, None] (index is a Tuple of Slice/exprs then).
struct Subscript : Expr {
  ExprPtr value, index;
  Ctx ctx = Ctx::Load;
  Subscript(ExprPtr v, ExprPtr i, SourceSpan s)
      : Expr(ExprKind::Subscript, s), value(std::move(v)), index(std::move(i)) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::Subscript; }
  ExprPtr clone() const override;
};

struct Slice : Expr {
  ExprPtr lower, upper, step;  // each may be null
  explicit Slice(SourceSpan s) : Expr(ExprKind::Slice, s) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::Slice; }
  ExprPtr clone() const override;
};

// List, Tuple and Set literals share a shape.
struct Sequence : Expr {
  std::vector<ExprPtr> elts;
  Ctx ctx = Ctx::Load;
  Sequence(ExprKind k, SourceSpan s) : Expr(k, s) {}
  static bool classof(const Expr *e) {
    return e->kind == ExprKind::List || e->kind == ExprKind::Tuple ||
           e->kind == ExprKind::Set;
  }
  ExprPtr clone() const override;
};

// {k: v, **other}: a null key means `**value`.
struct Dict : Expr {
  std::vector<ExprPtr> keys, values;
  explicit Dict(SourceSpan s) : Expr(ExprKind::Dict, s) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::Dict; }
  ExprPtr clone() const override;
};

// [elt for t in it if c ...], {k: v for ...}, {e for ...}, (e for ...).
struct ComprehensionFor {
  ExprPtr target, iter;
  std::vector<ExprPtr> ifs;
};
struct Comprehension : Expr {
  enum class Type : uint8_t { List, Set, Dict, Generator };
  Type type = Type::List;
  ExprPtr elt;    // element (or key for Dict)
  ExprPtr value;  // Dict only
  std::vector<ComprehensionFor> generators;
  explicit Comprehension(SourceSpan s) : Expr(ExprKind::Comprehension, s) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::Comprehension; }
  ExprPtr clone() const override;
};

// Function parameters, shared by def and lambda.
struct Param {
  enum class Kind : uint8_t { Positional, VarArgs, KeywordOnly, VarKeywords };
  std::string name;
  Kind kind = Kind::Positional;
  ExprPtr defaultValue;  // null if none
  // `x: T`: T, evaluated at def time into the function's __annotations__
  // (a string constant under `from __future__ import annotations`); null
  // if none and always null for a lambda's parameters.
  ExprPtr annotation;
  SourceSpan span;
  Param clone() const;
};

struct Lambda : Expr {
  std::vector<Param> params;
  ExprPtr body;
  bool isGenerator = false;  // `lambda: (yield)`
  explicit Lambda(SourceSpan s) : Expr(ExprKind::Lambda, s) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::Lambda; }
  ExprPtr clone() const override;
};

struct IfExp : Expr {
  ExprPtr test, body, orelse;
  explicit IfExp(SourceSpan s) : Expr(ExprKind::IfExp, s) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::IfExp; }
  ExprPtr clone() const override;
};

struct Starred : Expr {
  ExprPtr value;
  Ctx ctx = Ctx::Load;
  Starred(ExprPtr v, SourceSpan s) : Expr(ExprKind::Starred, s), value(std::move(v)) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::Starred; }
  ExprPtr clone() const override;
};

// `yield value` (value may be null) and `yield from value`: the function
// around them is a generator (FunctionDef::isGenerator).
struct Yield : Expr {
  ExprPtr value;
  Yield(ExprKind k, ExprPtr v, SourceSpan s) : Expr(k, s), value(std::move(v)) {}
  static bool classof(const Expr *e) {
    return e->kind == ExprKind::Yield || e->kind == ExprKind::YieldFrom;
  }
  ExprPtr clone() const override;
};

// `(target := value)` (PEP 572): the target is always a Name (the builder
// rejects others with CPython's message); it binds in the enclosing function
// (or module) scope, also when written inside a comprehension.
struct NamedExpr : Expr {
  ExprPtr target, value;
  NamedExpr(ExprPtr t, ExprPtr v, SourceSpan s)
      : Expr(ExprKind::NamedExpr, s), target(std::move(t)), value(std::move(v)) {}
  static bool classof(const Expr *e) { return e->kind == ExprKind::NamedExpr; }
  ExprPtr clone() const override;
};

// Calls `f` on each direct sub-expression of `e` (a lambda's body and
// defaults, a comprehension's parts, an f-string's fields included).
void forEachChild(const Expr &e, llvm::function_ref<void(const Expr &)> f);

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------

enum class StmtKind : uint8_t {
  FunctionDef, ClassDef, Return, Assign, AugAssign, ExprStmt, If, While, For,
  Break, Continue, Pass, With, Try, Raise, Assert, Import, ImportFrom, Global,
  Nonlocal, Delete, Match,
};

struct Stmt {
  const StmtKind kind;
  SourceSpan span;
  explicit Stmt(StmtKind k, SourceSpan s = {}) : kind(k), span(s) {}
  virtual ~Stmt() = default;
  virtual std::unique_ptr<Stmt> clone() const = 0;
};
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;
Body cloneBody(const Body &b);

struct FunctionDef : Stmt {
  std::string name;
  std::vector<Param> params;
  Body body;
  std::vector<ExprPtr> decorators;  // outermost first, as written
  ExprPtr returns;  // `-> T` (like Param::annotation); null if none
  bool isGenerator = false;  // its body (not a nested def) contains yield
  FunctionDef(std::string n, SourceSpan s) : Stmt(StmtKind::FunctionDef, s), name(std::move(n)) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::FunctionDef; }
  StmtPtr clone() const override;
};

struct ClassDef : Stmt {
  std::string name;
  std::vector<ExprPtr> bases;
  std::vector<Keyword> keywords;  // e.g. metaclass=...
  Body body;
  std::vector<ExprPtr> decorators;
  ClassDef(std::string n, SourceSpan s) : Stmt(StmtKind::ClassDef, s), name(std::move(n)) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::ClassDef; }
  StmtPtr clone() const override;
};

struct Return : Stmt {
  ExprPtr value;  // may be null
  explicit Return(SourceSpan s) : Stmt(StmtKind::Return, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::Return; }
  StmtPtr clone() const override;
};

// a = b = value: targets = [a, b]. Targets may be Tuple/List for unpacking.
struct Assign : Stmt {
  std::vector<ExprPtr> targets;
  ExprPtr value;  // null only for a bare `x: T` (annotation set)
  // `x: T [= v]` at module or class level: T is recorded in the namespace's
  // __annotations__ (a string constant under `from __future__ import
  // annotations`). Function bodies do not evaluate annotations.
  ExprPtr annotation;
  explicit Assign(SourceSpan s) : Stmt(StmtKind::Assign, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::Assign; }
  StmtPtr clone() const override;
};

struct AugAssign : Stmt {
  ExprPtr target;
  BinOpKind op;
  ExprPtr value;
  AugAssign(SourceSpan s) : Stmt(StmtKind::AugAssign, s), op(BinOpKind::Add) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::AugAssign; }
  StmtPtr clone() const override;
};

struct ExprStmt : Stmt {
  ExprPtr value;
  ExprStmt(ExprPtr v, SourceSpan s) : Stmt(StmtKind::ExprStmt, s), value(std::move(v)) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::ExprStmt; }
  StmtPtr clone() const override;
};

// elif chains are nested Ifs in orelse, as in Python's ast.
struct If : Stmt {
  ExprPtr test;
  Body body, orelse;
  explicit If(SourceSpan s) : Stmt(StmtKind::If, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::If; }
  StmtPtr clone() const override;
};

struct While : Stmt {
  ExprPtr test;
  Body body, orelse;
  explicit While(SourceSpan s) : Stmt(StmtKind::While, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::While; }
  StmtPtr clone() const override;
};

struct For : Stmt {
  ExprPtr target, iter;
  Body body, orelse;
  explicit For(SourceSpan s) : Stmt(StmtKind::For, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::For; }
  StmtPtr clone() const override;
};

struct Break : Stmt {
  explicit Break(SourceSpan s) : Stmt(StmtKind::Break, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::Break; }
  StmtPtr clone() const override;
};
struct Continue : Stmt {
  explicit Continue(SourceSpan s) : Stmt(StmtKind::Continue, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::Continue; }
  StmtPtr clone() const override;
};
struct Pass : Stmt {
  explicit Pass(SourceSpan s) : Stmt(StmtKind::Pass, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::Pass; }
  StmtPtr clone() const override;
};

struct WithItem {
  ExprPtr context;
  ExprPtr target;  // `as` target, may be null
};
struct With : Stmt {
  std::vector<WithItem> items;
  Body body;
  explicit With(SourceSpan s) : Stmt(StmtKind::With, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::With; }
  StmtPtr clone() const override;
};

struct ExceptHandler {
  ExprPtr type;      // null for bare `except:`
  std::string name;  // `as name`, empty if none
  Body body;
  SourceSpan span;
};
struct Try : Stmt {
  Body body;
  std::vector<ExceptHandler> handlers;
  Body orelse, finalbody;
  bool isStar = false;  // `except*` handlers (PEP 654): all or none of them
  explicit Try(SourceSpan s) : Stmt(StmtKind::Try, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::Try; }
  StmtPtr clone() const override;
};

struct Raise : Stmt {
  ExprPtr exc, cause;  // both may be null (bare `raise`)
  explicit Raise(SourceSpan s) : Stmt(StmtKind::Raise, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::Raise; }
  StmtPtr clone() const override;
};

struct Assert : Stmt {
  ExprPtr test, msg;  // msg may be null
  explicit Assert(SourceSpan s) : Stmt(StmtKind::Assert, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::Assert; }
  StmtPtr clone() const override;
};

// import a.b.c as d  /  from a.b import c as d, e
struct Alias {
  std::string name;    // dotted module path or imported name
  std::string asname;  // empty if none
  SourceSpan span;
};
struct Import : Stmt {
  std::vector<Alias> names;
  explicit Import(SourceSpan s) : Stmt(StmtKind::Import, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::Import; }
  StmtPtr clone() const override;
};
struct ImportFrom : Stmt {
  std::string module;  // dotted; empty for `from . import x`
  int level = 0;       // leading dots of a relative import
  std::vector<Alias> names;  // a single "*" for `import *`
  explicit ImportFrom(SourceSpan s) : Stmt(StmtKind::ImportFrom, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::ImportFrom; }
  StmtPtr clone() const override;
};

// global / nonlocal share a shape.
struct ScopeDecl : Stmt {
  std::vector<std::string> names;
  ScopeDecl(StmtKind k, SourceSpan s) : Stmt(k, s) {}
  static bool classof(const Stmt *s) {
    return s->kind == StmtKind::Global || s->kind == StmtKind::Nonlocal;
  }
  StmtPtr clone() const override;
};

struct Delete : Stmt {
  std::vector<ExprPtr> targets;
  explicit Delete(SourceSpan s) : Stmt(StmtKind::Delete, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::Delete; }
  StmtPtr clone() const override;
};

// A `case` pattern (PEP 634), one struct for CPython's eight match_*
// nodes, told apart by `kind`:
//   Value      `1`, `-2.5`, `1+2j`, `"s"`, `Color.RED`   value: the expression (compared with ==)
//   Singleton  `None`, `True`, `False`                   value: the Constant (compared with is)
//   Sequence   `[a, *rest]`, `(a, b)`, `a, b`            patterns (at most one Star among them)
//   Mapping    `{"k": p, **rest}`                        keys, patterns; target: rest (or null)
//   Class      `Point(x, y=p)`                           value: the class expression; patterns
//                                                        (positional), kwdAttrs + kwdPatterns
//   Star       `*rest`, `*_`                             target (null for `*_`)
//   As         `p as name`, `name`, `_`                  pattern (null: capture / wildcard);
//                                                        target (null: wildcard `_`)
//   Or         `p | q | r`                               patterns
// A target is a Name in Store context, so the interpreter binds it as any
// assignment does and the scope analysis sees it as a local.
struct Pattern {
  enum class Kind : uint8_t { Value, Singleton, Sequence, Mapping, Class, Star, As, Or };
  Kind kind = Kind::As;
  SourceSpan span;
  ExprPtr value;
  std::vector<Pattern> patterns;
  std::vector<ExprPtr> keys;
  std::vector<std::string> kwdAttrs;
  std::vector<Pattern> kwdPatterns;
  std::unique_ptr<Pattern> pattern;
  ExprPtr target;
  Pattern clone() const;
  // Binds no name and always matches: `_` (CPython's irrefutable test
  // also counts a bare capture, see isIrrefutable).
  bool isWildcard() const { return kind == Kind::As && !pattern && !target; }
  // A capture or wildcard, or an or-pattern with one such alternative: it
  // matches every subject.
  bool isIrrefutable() const;
};

struct MatchCase {
  Pattern pattern;
  ExprPtr guard;  // `if guard`, or null
  Body body;
  SourceSpan span;
};
// `match subject:` with its `case` blocks, tried in order.
struct Match : Stmt {
  ExprPtr subject;
  std::vector<MatchCase> cases;
  explicit Match(SourceSpan s) : Stmt(StmtKind::Match, s) {}
  static bool classof(const Stmt *s) { return s->kind == StmtKind::Match; }
  StmtPtr clone() const override;
};
// Calls `f` on each expression inside a pattern (values, keys, class
// expressions, capture targets), depth first.
void forEachPatternExpr(const Pattern &p, llvm::function_ref<void(const Expr &)> f);

// A parsed file.
struct Module {
  const frontend::SourceFile *file = nullptr;
  std::shared_ptr<const frontend::SourceFile> owner;  // keeps spans valid
  Body body;
};

}  // namespace tfs::ast
