// tf.autograph.to_code: the text TensorFlow 2.15's AutoGraph generates for a
// function (its converters' output, printed by ast.unparse as TF does on
// Python 3.9+: CPython 3.11's spacing and parentheses), written from the
// user's AST. tfs stages functions with its own converters
// (autograph.cpp), whose code differs; this printer reproduces TF's text
// for the constructs it covers and throws TfCodeUnsupported for the rest,
// so a script never gets text that merely looks like TF's.
//
// Covered: assignments to names, expression statements, pass, `if`/`elif`/
// `else`, `while` (no else/break/continue/return inside), and `return` as
// the last statement of the function or of both branches of a final `if`.
// Expressions: names, constants, attributes, subscripts with slices, calls
// (positional and keyword arguments), arithmetic, comparisons, `not`,
// list/tuple/set/dict displays.
//
// TF's conversion, as reproduced here: return_statements turns each return
// into `try: do_return = True; retval_ = value / except: ...`, and the body
// ends in `return fscope.ret(retval_, do_return)`; control_flow turns an
// `if`/`while` into state functions and ag__.if_stmt / ag__.while_stmt over
// the variables it modifies that are live into or out of it (outputs
// first, then by name; the inputs only, last, are not counted in nouts);
// call_trees wraps calls in ag__.converted_call (not print's); variables
// wraps loads of user names in ag__.ld. TF prints the result with
// ast.unparse (Python 3.9+): CPython 3.11's parentheses and spacing. Generated names get TF's namer
// suffixes (get_state, get_state_1, ...), assigned children first. TF lists
// `nonlocal` names in a Python set's order, which varies between runs; here
// they are sorted (one of the orders TF prints).
#include "autograph/autograph.h"
#include "frontend/positional_only.h"

#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace tfs::autograph {

using namespace tfs::ast;

namespace {

using Names = std::set<std::string>;

[[noreturn]] void unsupported(const std::string &what) { throw TfCodeUnsupported(what); }

const char *kDoReturn = "do_return";
const char *kRetval = "retval_";

// --- analysis -------------------------------------------------------------

void readsOf(const Expr &e, Names &out);

void readsOfAll(const std::vector<ExprPtr> &es, Names &out) {
  for (const auto &e : es)
    if (e) readsOf(*e, out);
}

void readsOf(const Expr &e, Names &out) {
  switch (e.kind) {
  case ExprKind::Name:
    if (static_cast<const Name &>(e).ctx == Ctx::Load) out.insert(static_cast<const Name &>(e).id);
    break;
  case ExprKind::BinOp: {
    auto &b = static_cast<const BinOp &>(e);
    readsOf(*b.lhs, out);
    readsOf(*b.rhs, out);
    break;
  }
  case ExprKind::UnaryOp: readsOf(*static_cast<const UnaryOp &>(e).operand, out); break;
  case ExprKind::Compare: {
    auto &c = static_cast<const Compare &>(e);
    readsOf(*c.left, out);
    readsOfAll(c.comparators, out);
    break;
  }
  case ExprKind::Call: {
    auto &c = static_cast<const Call &>(e);
    readsOf(*c.func, out);
    readsOfAll(c.args, out);
    for (const auto &k : c.keywords) readsOf(*k.value, out);
    break;
  }
  case ExprKind::Attribute: readsOf(*static_cast<const Attribute &>(e).value, out); break;
  case ExprKind::Subscript: {
    auto &s = static_cast<const Subscript &>(e);
    readsOf(*s.value, out);
    readsOf(*s.index, out);
    break;
  }
  case ExprKind::Slice: {
    auto &s = static_cast<const Slice &>(e);
    for (const auto *p : {&s.lower, &s.upper, &s.step})
      if (*p) readsOf(**p, out);
    break;
  }
  case ExprKind::List:
  case ExprKind::Tuple:
  case ExprKind::Set: readsOfAll(static_cast<const Sequence &>(e).elts, out); break;
  case ExprKind::Dict: {
    auto &d = static_cast<const Dict &>(e);
    readsOfAll(d.keys, out);
    readsOfAll(d.values, out);
    break;
  }
  default: break;
  }
}

void targetNames(const Expr &t, Names &out) {
  if (t.kind == ExprKind::Name) {
    out.insert(static_cast<const Name &>(t).id);
    return;
  }
  if (t.kind == ExprKind::Tuple || t.kind == ExprKind::List) {
    for (const auto &e : static_cast<const Sequence &>(t).elts) targetNames(*e, out);
    return;
  }
  unsupported("an assignment to something other than a name");
}

// Names a block assigns (a return assigns do_return and retval_, unless
// only the user's own names are asked for).
void boundIn(const Body &body, Names &out, bool returnsBind = true) {
  for (const auto &s : body) {
    switch (s->kind) {
    case StmtKind::Assign:
      for (const auto &t : static_cast<const Assign &>(*s).targets) targetNames(*t, out);
      break;
    case StmtKind::Return:
      if (returnsBind) {
        out.insert(kDoReturn);
        out.insert(kRetval);
      }
      break;
    case StmtKind::If:
      boundIn(static_cast<const If &>(*s).body, out, returnsBind);
      boundIn(static_cast<const If &>(*s).orelse, out, returnsBind);
      break;
    case StmtKind::While: boundIn(static_cast<const While &>(*s).body, out, returnsBind); break;
    default: break;
    }
  }
}

Names liveInBlock(const Body &body, Names out);

Names liveInStmt(const Stmt &s, Names out) {
  switch (s.kind) {
  case StmtKind::Assign: {
    auto &a = static_cast<const Assign &>(s);
    Names bound;
    for (const auto &t : a.targets) targetNames(*t, bound);
    for (const auto &n : bound) out.erase(n);
    readsOf(*a.value, out);
    return out;
  }
  case StmtKind::ExprStmt: readsOf(*static_cast<const ExprStmt &>(s).value, out); return out;
  case StmtKind::Return: {
    // Control leaves the function (its end reads retval_ and do_return).
    Names live;
    if (auto &v = static_cast<const Return &>(s).value) readsOf(*v, live);
    return live;
  }
  case StmtKind::If: {
    auto &i = static_cast<const If &>(s);
    Names live = liveInBlock(i.body, out);
    Names other = liveInBlock(i.orelse, out);
    live.insert(other.begin(), other.end());
    readsOf(*i.test, live);
    return live;
  }
  case StmtKind::While: {
    auto &w = static_cast<const While &>(s);
    Names head = out;
    readsOf(*w.test, head);
    for (;;) {
      Names next = liveInBlock(w.body, head);
      next.insert(head.begin(), head.end());
      if (next == head) return head;
      head = std::move(next);
    }
  }
  default: return out;
  }
}

Names liveInBlock(const Body &body, Names out) {
  for (auto it = body.rbegin(); it != body.rend(); ++it) out = liveInStmt(**it, std::move(out));
  return out;
}

// --- generated names ------------------------------------------------------

struct CfNames {
  std::string getState, setState, body, other;  // other: else_body / loop_test
};

struct Namer {
  Names taken;  // user names and names generated so far
  std::function<bool(const std::string &)> isGlobal;
  std::string fresh(const std::string &root) {
    std::string name = root;
    for (int n = 1; taken.count(name) || (isGlobal && isGlobal(name)); ++n) name = fmt::format("{}_{}", root, n);
    taken.insert(name);
    return name;
  }
};

// TF's namer runs children first: a nested statement's names come before
// its parent's.
void assignNames(const Body &body, Namer &namer, std::map<const Stmt *, CfNames> &out) {
  for (const auto &s : body) {
    bool isIf = s->kind == StmtKind::If;
    if (!isIf && s->kind != StmtKind::While) continue;
    if (isIf) {
      auto &i = static_cast<const If &>(*s);
      assignNames(i.body, namer, out);
      assignNames(i.orelse, namer, out);
    } else {
      assignNames(static_cast<const While &>(*s).body, namer, out);
    }
    CfNames n;
    n.getState = namer.fresh("get_state");
    n.setState = namer.fresh("set_state");
    n.body = namer.fresh(isIf ? "if_body" : "loop_body");
    n.other = namer.fresh(isIf ? "else_body" : "loop_test");
    out[s.get()] = n;
  }
}

void userNames(const Body &body, Names &out) {
  Names bound;
  boundIn(body, bound, false);
  out.insert(bound.begin(), bound.end());
  for (const auto &s : body) {
    Names reads = liveInStmt(*s, {});
    out.insert(reads.begin(), reads.end());
    if (s->kind == StmtKind::If) {
      userNames(static_cast<const If &>(*s).body, out);
      userNames(static_cast<const If &>(*s).orelse, out);
    } else if (s->kind == StmtKind::While) {
      userNames(static_cast<const While &>(*s).body, out);
    }
  }
}

// --- checks ---------------------------------------------------------------

bool endsInReturn(const Body &body) {
  if (body.empty()) return false;
  const Stmt &last = *body.back();
  if (last.kind == StmtKind::Return) return true;
  if (last.kind == StmtKind::If) {
    auto &i = static_cast<const If &>(last);
    return endsInReturn(i.body) && endsInReturn(i.orelse);
  }
  return false;
}

// Returns only where TF's return_statements converter needs no guards:
// last in the block, and in an `if` only when both branches end in one.
void checkBlock(const Body &body, bool returnPosition) {
  for (size_t k = 0; k < body.size(); ++k) {
    const Stmt &s = *body[k];
    bool last = k + 1 == body.size();
    switch (s.kind) {
    case StmtKind::Assign: {
      auto &a = static_cast<const Assign &>(s);
      if (a.targets.size() != 1) unsupported("a chained assignment");
      if (!a.value || a.annotation) unsupported("an annotated assignment");
      Names ignored;
      targetNames(*a.targets[0], ignored);
      break;
    }
    case StmtKind::ExprStmt:
    case StmtKind::Pass: break;
    case StmtKind::Return:
      if (!last || !returnPosition) unsupported("a return statement before the end of the function");
      if (!static_cast<const Return &>(s).value) unsupported("a return statement without a value");
      break;
    case StmtKind::If: {
      auto &i = static_cast<const If &>(s);
      Names bound;
      boundIn(i.body, bound);
      boundIn(i.orelse, bound);
      bool returns = bound.count(kDoReturn) > 0;
      if (returns && !(last && returnPosition && endsInReturn(i.body) && endsInReturn(i.orelse)))
        unsupported("a return statement in only some branches of an if statement");
      checkBlock(i.body, returns);
      checkBlock(i.orelse, returns);
      break;
    }
    case StmtKind::While: {
      auto &w = static_cast<const While &>(s);
      if (!w.orelse.empty()) unsupported("a while loop with an else clause");
      checkBlock(w.body, false);
      break;
    }
    case StmtKind::Break: unsupported("a break statement");
    case StmtKind::Continue: unsupported("a continue statement");
    case StmtKind::For: unsupported("a for loop");
    case StmtKind::AugAssign: unsupported("an augmented assignment");
    case StmtKind::FunctionDef: unsupported("a nested function");
    default: unsupported("a statement other than assignments, calls, if, while and return");
    }
  }
}

// --- printing -------------------------------------------------------------

const char *cmpSymbol(CmpOpKind op) {
  switch (op) {
  case CmpOpKind::Eq: return "==";
  case CmpOpKind::NotEq: return "!=";
  case CmpOpKind::Lt: return "<";
  case CmpOpKind::LtE: return "<=";
  case CmpOpKind::Gt: return ">";
  case CmpOpKind::GtE: return ">=";
  case CmpOpKind::Is: return "is";
  case CmpOpKind::IsNot: return "is not";
  case CmpOpKind::In: return "in";
  case CmpOpKind::NotIn: return "not in";
  }
  return "?";
}

std::string joined(const std::vector<std::string> &parts) {
  std::string out;
  for (const auto &p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

// astunparse's tuple: "(a, b)", "(a,)", "()".
std::string tupleText(const std::vector<std::string> &parts) {
  if (parts.size() == 1) return "(" + parts[0] + ",)";
  return "(" + joined(parts) + ")";
}

// CPython 3.11's ast.unparse precedence levels (TF 2.15 prints generated
// code with ast.unparse on Python 3.9+): a node is parenthesized when its
// context asks for a higher level than its own.
enum Prec : int {
  kTuple = 2, kYield = 3, kTest = 4, kNot = 7, kCmp = 8, kBor = 9, kBxor = 10, kBand = 11, kShift = 12,
  kArith = 13, kTerm = 14, kFactor = 15, kPower = 16, kAtom = 18
};

int binOpPrec(BinOpKind op) {
  switch (op) {
  case BinOpKind::BitOr: return kBor;
  case BinOpKind::BitXor: return kBxor;
  case BinOpKind::BitAnd: return kBand;
  case BinOpKind::LShift:
  case BinOpKind::RShift: return kShift;
  case BinOpKind::Add:
  case BinOpKind::Sub: return kArith;
  case BinOpKind::Pow: return kPower;
  default: return kTerm;
  }
}

std::string parensIf(bool yes, const std::string &s) { return yes ? "(" + s + ")" : s; }

// An expression of the user's code after call_trees and variables, printed
// in a context of precedence `ctx`.
std::string code(const Expr &e, int ctx = kTest);

void args(const Call &c, std::vector<std::string> &positional, std::vector<std::string> &keywords) {
  for (const auto &a : c.args) {
    if (a->kind == ExprKind::Starred) unsupported("a call with *args");
    positional.push_back(code(*a));
  }
  for (const auto &k : c.keywords) {
    if (k.name.empty()) unsupported("a call with **kwargs");
    keywords.push_back(k.name + "=" + code(*k.value));
  }
}

std::string code(const Expr &e, int ctx) {
  switch (e.kind) {
  case ExprKind::Name: return "ag__.ld(" + static_cast<const Name &>(e).id + ")";
  case ExprKind::Constant: {
    auto &c = static_cast<const Constant &>(e);
    if (c.type == Constant::Type::BigInt) unsupported("an integer literal beyond 64 bits");
    // Python parses -2 as a unary minus: parenthesized where one would be.
    bool negative = (c.type == Constant::Type::Int && c.i < 0) || (c.type == Constant::Type::Float && c.f < 0);
    return parensIf(negative && ctx > kFactor, printExpr(e));
  }
  case ExprKind::BinOp: {
    auto &b = static_cast<const BinOp &>(e);
    int p = binOpPrec(b.op);
    bool rightAssoc = b.op == BinOpKind::Pow;
    return parensIf(ctx > p, code(*b.lhs, rightAssoc ? p + 1 : p) + " " + binOpSymbol(b.op) + " " +
                                 code(*b.rhs, rightAssoc ? p : p + 1));
  }
  case ExprKind::UnaryOp: {
    auto &u = static_cast<const UnaryOp &>(e);
    switch (u.op) {
    case UnaryOpKind::Not: return "ag__.not_(" + code(*u.operand) + ")";
    case UnaryOpKind::Neg: return parensIf(ctx > kFactor, "-" + code(*u.operand, kFactor));
    case UnaryOpKind::Pos: return parensIf(ctx > kFactor, "+" + code(*u.operand, kFactor));
    case UnaryOpKind::Invert: return parensIf(ctx > kFactor, "~" + code(*u.operand, kFactor));
    }
    break;
  }
  case ExprKind::Compare: {
    auto &c = static_cast<const Compare &>(e);
    std::string out = code(*c.left, kCmp + 1);
    for (size_t k = 0; k < c.ops.size(); ++k)
      out += std::string(" ") + cmpSymbol(c.ops[k]) + " " + code(*c.comparators[k], kCmp + 1);
    return parensIf(ctx > kCmp, out);
  }
  case ExprKind::Call: {
    auto &c = static_cast<const Call &>(e);
    std::vector<std::string> positional, keywords;
    args(c, positional, keywords);
    // call_trees leaves print alone (without the BUILTIN_FUNCTIONS feature).
    if (c.func->kind == ExprKind::Name && static_cast<const Name &>(*c.func).id == "print") {
      positional.insert(positional.end(), keywords.begin(), keywords.end());
      return code(*c.func, kAtom) + "(" + joined(positional) + ")";
    }
    std::string kw = keywords.empty() ? "None" : "dict(" + joined(keywords) + ")";
    return "ag__.converted_call(" + code(*c.func, kAtom) + ", " + tupleText(positional) + ", " + kw + ", fscope)";
  }
  case ExprKind::Attribute: {
    auto &a = static_cast<const Attribute &>(e);
    if (a.value->kind == ExprKind::Constant) unsupported("an attribute of a literal");
    return code(*a.value, kAtom) + "." + a.attr;
  }
  case ExprKind::Subscript: {
    auto &s = static_cast<const Subscript &>(e);
    if (s.index->kind == ExprKind::Tuple) unsupported("a subscript with several indices");
    return code(*s.value, kAtom) + "[" + code(*s.index) + "]";
  }
  case ExprKind::Slice: {
    auto &s = static_cast<const Slice &>(e);
    std::string out = (s.lower ? code(*s.lower) : "") + ":" + (s.upper ? code(*s.upper) : "");
    if (s.step) out += ":" + code(*s.step);
    return out;
  }
  case ExprKind::List:
  case ExprKind::Tuple:
  case ExprKind::Set: {
    auto &q = static_cast<const Sequence &>(e);
    std::vector<std::string> parts;
    for (const auto &x : q.elts) {
      if (x->kind == ExprKind::Starred) unsupported("a starred element");
      parts.push_back(code(*x));
    }
    if (e.kind == ExprKind::Tuple) {
      std::string items = parts.size() == 1 ? parts[0] + "," : joined(parts);
      return parensIf(parts.empty() || ctx > kTuple, items);
    }
    if (e.kind == ExprKind::Set) {
      if (parts.empty()) unsupported("an empty set");
      return "{" + joined(parts) + "}";
    }
    return "[" + joined(parts) + "]";
  }
  case ExprKind::Dict: {
    auto &d = static_cast<const Dict &>(e);
    std::vector<std::string> parts;
    for (size_t k = 0; k < d.keys.size(); ++k) {
      if (!d.keys[k]) unsupported("a **mapping in a dict display");
      parts.push_back(code(*d.keys[k]) + ": " + code(*d.values[k]));
    }
    return "{" + joined(parts) + "}";
  }
  case ExprKind::BoolOp: unsupported("an `and`/`or` expression");
  case ExprKind::IfExp: unsupported("a conditional expression");
  case ExprKind::Lambda: unsupported("a lambda");
  case ExprKind::Comprehension: unsupported("a comprehension");
  case ExprKind::FString: unsupported("an f-string");
  default: break;
  }
  unsupported("this kind of expression");
}

// An assignment target: ast.unparse gives targets tuple precedence, so a
// tuple target has no parentheses ("x, = vars_").
std::string targetText(const Expr &t) {
  if (t.kind == ExprKind::Name) return static_cast<const Name &>(t).id;
  std::vector<std::string> parts;
  for (const auto &e : static_cast<const Sequence &>(t).elts) parts.push_back(targetText(*e));
  if (t.kind == ExprKind::List) return "[" + joined(parts) + "]";
  return parts.size() == 1 ? parts[0] + "," : joined(parts);
}

std::vector<std::string> quoted(const std::vector<std::string> &names) {
  std::vector<std::string> out;
  for (const auto &n : names) out.push_back("'" + n + "'");
  return out;
}

struct Printer {
  std::ostringstream out;
  std::map<const Stmt *, CfNames> names;
  Names params;

  void line(int ind, const std::string &s) { out << std::string(4 * size_t(ind), ' ') << s << '\n'; }

  // The state of a control-flow statement: TF's _get_block_vars.
  struct State {
    std::vector<std::string> vars, undefined;
    size_t nouts = 0;
  };
  State stateOf(const Names &modified, const Names &liveIn, const Names &liveOut, const Names &defined) {
    State st;
    std::vector<std::string> outputs, inputsOnly;
    for (const auto &v : modified) {
      // Modified but not defined before: each gets ag__.Undefined (TF
      // lists them in a set's order; sorted here, as Names is).
      if (!defined.count(v)) st.undefined.push_back(v);
      bool in = liveIn.count(v) > 0, outLive = liveOut.count(v) > 0;
      if (!in && !outLive) continue;  // local to the statement
      (in && !outLive ? inputsOnly : outputs).push_back(v);
    }
    st.nouts = outputs.size();
    st.vars = outputs;
    st.vars.insert(st.vars.end(), inputsOnly.begin(), inputsOnly.end());
    return st;
  }

  void stateFunctions(int ind, const State &st, const CfNames &n) {
    out << '\n';
    line(ind, "def " + n.getState + "():");
    if (st.vars.empty()) {
      line(ind + 1, "return ()");
      out << '\n';
      line(ind, "def " + n.setState + "(block_vars):");
      line(ind + 1, "pass");
      return;
    }
    line(ind + 1, "return " + tupleText(st.vars));
    out << '\n';
    line(ind, "def " + n.setState + "(vars_):");
    nonlocals(ind + 1, st);
    line(ind + 1, (st.vars.size() == 1 ? st.vars[0] + "," : joined(st.vars)) + " = vars_");
  }

  void nonlocals(int ind, const State &st) {
    if (st.vars.empty()) return;
    std::vector<std::string> sorted = st.vars;
    std::sort(sorted.begin(), sorted.end());
    line(ind, "nonlocal " + joined(sorted));
  }

  // `defined`: names with a definition reaching this point; updated.
  void block(int ind, const Body &body, const Names &liveAfter, Names &defined) {
    for (size_t k = 0; k < body.size(); ++k) {
      Names liveOut = liveAfter;
      for (size_t j = body.size(); j-- > k + 1;) liveOut = liveInStmt(*body[j], std::move(liveOut));
      stmt(ind, *body[k], liveOut, defined);
    }
  }

  void stmt(int ind, const Stmt &s, const Names &liveOut, Names &defined) {
    switch (s.kind) {
    case StmtKind::Assign: {
      auto &a = static_cast<const Assign &>(s);
      line(ind, targetText(*a.targets[0]) + " = " + code(*a.value));
      targetNames(*a.targets[0], defined);
      return;
    }
    case StmtKind::ExprStmt: line(ind, code(*static_cast<const ExprStmt &>(s).value, kYield)); return;
    case StmtKind::Pass: line(ind, "pass"); return;
    case StmtKind::Return: {
      line(ind, "try:");
      line(ind + 1, "do_return = True");
      line(ind + 1, "retval_ = " + code(*static_cast<const Return &>(s).value));
      line(ind, "except:");
      line(ind + 1, "do_return = False");
      line(ind + 1, "raise");
      return;
    }
    case StmtKind::If: {
      auto &i = static_cast<const If &>(s);
      const CfNames &n = names.at(&s);
      Names modified;
      boundIn(i.body, modified);
      boundIn(i.orelse, modified);
      State st = stateOf(modified, liveInStmt(s, liveOut), liveOut, defined);
      stateFunctions(ind, st, n);
      Names inBody = defined, inElse = defined;
      out << '\n';
      line(ind, "def " + n.body + "():");
      nonlocals(ind + 1, st);
      block(ind + 1, i.body, liveOut, inBody);
      out << '\n';
      line(ind, "def " + n.other + "():");
      nonlocals(ind + 1, st);
      if (i.orelse.empty()) line(ind + 1, "pass");
      else block(ind + 1, i.orelse, liveOut, inElse);
      for (const auto &u : st.undefined) line(ind, u + " = ag__.Undefined('" + u + "')");
      line(ind, "ag__.if_stmt(" + code(*i.test) + ", " + n.body + ", " + n.other + ", " + n.getState + ", " +
                    n.setState + ", " + tupleText(quoted(st.vars)) + ", " + std::to_string(st.nouts) + ")");
      defined.insert(inBody.begin(), inBody.end());
      defined.insert(inElse.begin(), inElse.end());
      return;
    }
    case StmtKind::While: {
      auto &w = static_cast<const While &>(s);
      const CfNames &n = names.at(&s);
      Names modified;
      boundIn(w.body, modified);
      Names liveIn = liveInStmt(s, liveOut);
      State st = stateOf(modified, liveIn, liveOut, defined);
      stateFunctions(ind, st, n);
      Names inBody = defined;
      out << '\n';
      line(ind, "def " + n.body + "():");
      nonlocals(ind + 1, st);
      block(ind + 1, w.body, liveIn, inBody);
      out << '\n';
      line(ind, "def " + n.other + "():");
      line(ind + 1, "return " + code(*w.test));
      for (const auto &u : st.undefined) line(ind, u + " = ag__.Undefined('" + u + "')");
      line(ind, "ag__.while_stmt(" + n.other + ", " + n.body + ", " + n.getState + ", " + n.setState + ", " +
                    tupleText(quoted(st.vars)) + ", {})");
      defined.insert(inBody.begin(), inBody.end());
      return;
    }
    default: unsupported("this statement");
    }
  }
};

std::string paramText(const FunctionDef &fn) {
  std::vector<std::string> parts;
  // The positional-only marker, found in the source (the AST keeps none).
  const size_t positionalOnly = size_t(frontend::positionalOnlyParams(fn.params, false));
  for (const auto &p : fn.params) {
    if (p.kind != Param::Kind::Positional) unsupported("*args, **kwargs or keyword-only parameters");
    if (p.annotation) unsupported("a parameter annotation");
    parts.push_back(p.defaultValue ? p.name + "=" + printExpr(*p.defaultValue) : p.name);
    if (parts.size() == positionalOnly) parts.push_back("/");
  }
  return joined(parts);
}

}  // namespace

std::string printTfCode(const FunctionDef &fn, bool recursive, const std::function<bool(const std::string &)> &isGlobal) {
  if (fn.isGenerator) unsupported("a generator");
  if (fn.returns) unsupported("a return annotation");
  checkBlock(fn.body, true);
  Namer namer;
  namer.isGlobal = isGlobal;
  for (const auto &p : fn.params) namer.taken.insert(p.name);
  userNames(fn.body, namer.taken);
  for (const char *generated : {"fscope", kDoReturn, kRetval, "vars_", "block_vars"})
    if (namer.taken.count(generated)) unsupported(fmt::format("a variable named {}", generated));
  Printer p;
  assignNames(fn.body, namer, p.names);
  Names defined;
  for (const auto &param : fn.params) defined.insert(param.name);
  defined.insert(kDoReturn);
  defined.insert(kRetval);
  p.line(0, "def tf__" + fn.name + "(" + paramText(fn) + "):");
  p.line(1, fmt::format("with ag__.FunctionScope('{}', 'fscope', ag__.ConversionOptions(recursive={}, "
                        "user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:",
                        fn.name, recursive ? "True" : "False"));
  p.line(2, "do_return = False");
  p.line(2, "retval_ = ag__.UndefinedReturnValue()");
  p.block(2, fn.body, Names{kDoReturn, kRetval}, defined);
  p.line(2, "return fscope.ret(retval_, do_return)");
  return p.out.str();
}

}  // namespace tfs::autograph
