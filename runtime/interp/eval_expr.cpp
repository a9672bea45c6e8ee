// Expression evaluation: names (local / closure / global / builtin
// lookup), operators, comprehensions (their own scope), lambdas, f-strings
// (calls: eval_call.cpp). Each operation records its span first so
// errors point at the expression.
#include "autograph/analysis.h"
#include "runtime/interp/attr_cache.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/complex_object.h"
#include "runtime/interp/eval.h"
#include "runtime/interp/exception_group.h"
#include "runtime/interp/generator.h"
#include "runtime/interp/pyformat.h"
#include "runtime/interp/set_ops.h"
#include "runtime/interp/suggestions.h"

#include <fmt/format.h>
#include <set>
#include <llvm/ADT/SmallVector.h>

namespace tfs::runtime {

using namespace tfs::ast;

std::shared_ptr<CodeInfo> analyzeCode(const std::vector<ast::Param> &params, const ast::Body *body,
                                      const ast::Expr *lambdaBody) {
  auto info = std::make_shared<CodeInfo>();
  autograph::NameSet writes;
  if (body) {
    autograph::Usage u = autograph::usageOf(*body);
    writes = u.writes;
    std::function<void(const Body &)> scan = [&](const Body &b) {
      for (const auto &s : b) {
        if (auto *d = llvm::dyn_cast<ScopeDecl>(s.get())) {
          for (const auto &n : d->names) (s->kind == StmtKind::Global ? info->globals : info->nonlocals)[n] = true;
        } else if (auto *i = llvm::dyn_cast<If>(s.get())) { scan(i->body); scan(i->orelse); }
        else if (auto *w = llvm::dyn_cast<While>(s.get())) { scan(w->body); scan(w->orelse); }
        else if (auto *fo = llvm::dyn_cast<For>(s.get())) { scan(fo->body); scan(fo->orelse); }
        else if (auto *t = llvm::dyn_cast<Try>(s.get())) {
          scan(t->body);
          for (const auto &h : t->handlers) scan(h.body);
          scan(t->orelse);
          scan(t->finalbody);
        } else if (auto *wi = llvm::dyn_cast<With>(s.get())) scan(wi->body);
        else if (auto *m = llvm::dyn_cast<Match>(s.get()))
          for (const auto &c : m->cases) scan(c.body);
      }
    };
    scan(*body);
  }
  // A lambda binds only its parameters and its assignment expressions.
  if (lambdaBody) autograph::walrusTargets(*lambdaBody, writes);
  for (const auto &p : params) writes.insert(p.name);
  static uint64_t lastId = 0;
  info->id = ++lastId;
  for (const auto &w : writes)  // a sorted set: slots are the same for every analysis of a def
    if (!info->globals.count(w) && !info->nonlocals.count(w)) {
      info->slotOf[w] = int32_t(info->localNames.size());
      info->localNames.push_back(w);
    }
  info->plainParams = true;
  for (const auto &p : params) {
    if (p.kind != Param::Kind::Positional) info->plainParams = false;
    auto slot = info->slotOf.find(p.name);
    info->paramSlots.push_back(slot == info->slotOf.end() ? -1 : slot->second);
    if (slot == info->slotOf.end()) info->plainParams = false;
  }
  return info;
}

void Frame::spill() {
  if (!flat) return;
  flat = false;
  size_t n = code->localNames.size();
  for (size_t i = 0; i < n; ++i) {
    Value *&p = slot(int32_t(i));
    if (p && p >= flatValues && p < flatValues + n)
      p = &locals->vars.insert_or_assign(code->localNames[i], std::move(*p)).first->second;
  }
}

Value Evaluator::loadName(const Name &n) {
  // A function's local: its slot, else one lookup in the frame's scope
  // (which then fills the slot), else unbound.
  int32_t slot = slotOf(n);
  if (slot < 0) return loadNonLocal(n);
  Value *&p = f.slot(slot);
  if (p) [[likely]] return *p;
  auto v = f.locals->vars.find(n.id);
  if (v != f.locals->vars.end()) {
    p = &v->second;
    return v->second;
  }
  in.span_ = n.span;
  in.raise("UnboundLocalError",
           fmt::format("cannot access local variable '{}' where it is not associated with a value", n.id));
}

Value Evaluator::loadNonLocal(const Name &n) {
  // Only the globals and the builtins to search: module level, or a
  // function frame whose scope holds nothing by name and has no enclosing
  // function scope. Then the value found last time holds while neither
  // table gained or lost a name.
  Scope &globals = *f.globals;
  bool onlyGlobals = f.locals.get() == &globals ||
                     (f.code && !f.classBody && !f.locals->parent && f.locals->vars.empty());
  if (onlyGlobals && n.cacheScope == &globals && n.cacheGlobalsVersion == globals.vars.version() &&
      n.cacheBuiltinsVersion == in.builtins_->vars.version()) [[likely]]
    return *static_cast<const Value *>(n.cacheValue);
  return loadNonLocalUncached(n);
}

Value Evaluator::loadNonLocalUncached(const Name &n) {
  Scope &globals = *f.globals;
  bool onlyGlobals = f.locals.get() == &globals ||
                     (f.code && !f.classBody && !f.locals->parent && f.locals->vars.empty());
  if (!onlyGlobals) return load(n.id, n);
  Scope &builtins = *in.builtins_;
  auto g = globals.vars.find(n.id);
  const Value *found = nullptr;
  if (g != globals.vars.end()) {
    found = &g->second;
  } else {
    auto b = builtins.vars.find(n.id);
    if (b == builtins.vars.end()) {
      if (n.id == "__class__" && f.function && f.function->definingClass)
        return Value(Ref<Object>(f.function->definingClass));
      in.span_ = n.span;
      if (bindExceptionGroups(in, n.id)) return loadNonLocalUncached(n);
      raiseNameError(n.id);
    }
    found = &b->second;
  }
  n.cacheScope = &globals;
  n.cacheValue = found;
  n.cacheGlobalsVersion = globals.vars.version();
  n.cacheBuiltinsVersion = builtins.vars.version();
  return *found;
}

Value Evaluator::load(const std::string &name, const Expr &at) {
  // A function's own scope holds only its locals (store() sends global and
  // nonlocal names elsewhere), and loadName has looked for those already;
  // other names (imports in a function body, comprehension scopes) may
  // still be bound here.
  auto v = f.locals->vars.find(name);
  if (v != f.locals->vars.end()) return v->second;
  if (f.code && !f.classBody) {
    if (auto s = f.code->slotOf.find(name); s != f.code->slotOf.end()) {
      if (Value *p = f.slot(s->second)) return *p;
      in.span_ = at.span;
      in.raise("UnboundLocalError",
               fmt::format("cannot access local variable '{}' where it is not associated with a value", name));
    }
  }
  if (!f.code || !f.code->globals.count(name)) {
    for (Scope *s = f.locals->parent.get(); s; s = s->parent.get()) {
      auto v = s->vars.find(name);
      if (v != s->vars.end()) return v->second;
    }
  }
  auto g = f.globals->vars.find(name);
  if (g != f.globals->vars.end()) return g->second;
  auto b = in.builtins_->vars.find(name);
  if (b != in.builtins_->vars.end()) return b->second;
  // `__class__` in a method: the class its body was defined in (CPython's
  // implicit closure cell, the one zero-argument super() uses).
  if (name == "__class__" && f.function && f.function->definingClass)
    return Value(Ref<Object>(f.function->definingClass));
  in.span_ = at.span;
  if (bindExceptionGroups(in, name)) return in.builtins_->vars.find(name)->second;
  raiseNameError(name);
}

// CPython 3.11's NameError: `name`, and a close name from the function's
// locals, else the module's globals, else the builtins, for the report.
void Evaluator::raiseNameError(const std::string &name) {
  // Builtins CPython 3.11 has and tfs does not: named, not "not defined".
  static const std::set<std::string> kCPythonBuiltins = {
      "EncodingWarning", "aiter", "anext", "breakpoint", "copyright", "credits", "help", "license", "memoryview"};
  if (kCPythonBuiltins.count(name)) in.raise("NotImplementedError", fmt::format("builtin '{}' is not supported by tfs", name));
  Value exc = in.newException(in.exceptionClass("NameError"), fmt::format("name '{}' is not defined", name));
  auto sortedKeys = [](const Scope &s) {
    std::vector<std::string> keys;
    for (const auto &[k, v] : s.vars) keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    return keys;
  };
  std::optional<std::string> best;
  if (f.code) best = closestName(f.code->localNames, name);
  if (!best) best = closestName(sortedKeys(*f.globals), name);
  if (!best) best = closestName(sortedKeys(*in.builtins_), name);
  if (auto *inst = exc.as<InstanceObject>()) {
    inst->set("name", in.str(name));
    inst->set(kSuggestionAttr, best ? in.str(*best) : Value());
  }
  in.raiseValue(std::move(exc));
}

void Evaluator::storeName(const Name &target, Value v) {
  if (int32_t slot = slotOf(target); slot >= 0) {
    Value *&p = f.slot(slot);
    if (p) [[likely]] {
      *p = std::move(v);
      return;
    }
    storeSlot(slot, target.id, std::move(v));
    return;
  }
  store(target.id, std::move(v));
}

void Evaluator::shareWalrusScope(Frame &inner) {
  if (f.walrusScope) {  // a comprehension inside a comprehension
    inner.walrusScope = f.walrusScope;
    inner.walrusCode = f.walrusCode;
    return;
  }
  // The frame's locals hold its flat locals from here on (capturedLocals),
  // so a name bound in the scope is what the frame's slot then reads.
  inner.walrusScope = capturedLocals();
  inner.walrusCode = f.classBody ? nullptr : f.code;
}

void Evaluator::storeWalrus(const Name &target, Value v) {
  if (!f.walrusScope) {
    storeName(target, std::move(v));
    return;
  }
  const std::string &name = target.id;
  if (const CodeInfo *code = f.walrusCode) {
    if (code->globals.count(name)) {
      f.globals->vars[name] = std::move(v);
      return;
    }
    if (code->nonlocals.count(name))
      for (Scope *s = f.walrusScope->parent.get(); s; s = s->parent.get())
        if (s->vars.count(name)) {
          s->vars[name] = std::move(v);
          return;
        }
  }
  f.walrusScope->vars[name] = std::move(v);
}

void Evaluator::storeSlot(int32_t slot, const std::string &name, Value v) {
  Value *&p = f.slot(slot);
  if (p) *p = std::move(v);
  else if (f.flat) *(p = &f.flatValues[slot]) = std::move(v);
  else p = &f.locals->vars.insert_or_assign(name, std::move(v)).first->second;
}

void Evaluator::store(const std::string &name, Value v) {
  if (f.classBody) [[unlikely]] {
    f.locals->vars.insert_or_assign(name, std::move(v));  // the scope keeps the definition order
    return;
  }
  if (f.code) {
    if (auto s = f.code->slotOf.find(name); s != f.code->slotOf.end()) {
      storeSlot(s->second, name, std::move(v));
      return;
    }
    if (f.code->globals.count(name)) {
      f.globals->vars[name] = std::move(v);
      return;
    }
    if (f.code->nonlocals.count(name)) {
      for (Scope *s = f.locals->parent.get(); s; s = s->parent.get())
        if (s->vars.count(name)) {
          s->vars[name] = std::move(v);
          return;
        }
    }
  }
  f.locals->vars[name] = std::move(v);
}

namespace {
BinOp toBinOp(BinOpKind k) {
  switch (k) {
  case BinOpKind::Add: return BinOp::Add;
  case BinOpKind::Sub: return BinOp::Sub;
  case BinOpKind::Mul: return BinOp::Mul;
  case BinOpKind::Div: return BinOp::Div;
  case BinOpKind::FloorDiv: return BinOp::FloorDiv;
  case BinOpKind::Mod: return BinOp::Mod;
  case BinOpKind::Pow: return BinOp::Pow;
  case BinOpKind::MatMul: return BinOp::MatMul;
  case BinOpKind::LShift: return BinOp::LShift;
  case BinOpKind::RShift: return BinOp::RShift;
  case BinOpKind::BitAnd: return BinOp::And;
  case BinOpKind::BitOr: return BinOp::Or;
  case BinOpKind::BitXor: return BinOp::Xor;
  }
  return BinOp::Add;
}
}  // namespace

BinOp astBinOp(BinOpKind k) { return toBinOp(k); }


PureNumber Evaluator::pureArithmetic(const Expr &e) {
  if (e.kind == ExprKind::BinOp) {
    auto &b = static_cast<const ast::BinOp &>(e);
    PureNumber l = number(*b.lhs);
    if (!l) return l;
    PureNumber r = number(*b.rhs);
    if (!r) return r;
    return pureBinary(b.op, l, r);
  }
  if (e.kind == ExprKind::UnaryOp) {
    auto &u = static_cast<const ast::UnaryOp &>(e);
    if (u.op != UnaryOpKind::Neg) return {};
    PureNumber v = number(*u.operand);
    if (v.kind == PureNumber::Kind::Int) return v.i != INT64_MIN ? PureNumber::integer(-v.i) : PureNumber{};
    if (v.kind == PureNumber::Kind::Float) return PureNumber::real(-v.d);
    return {};
  }
  return {};
}


const Value *Evaluator::pureItem(const Expr &e) {
  if (e.kind == ExprKind::Name) return boundSlot(e);
  if (e.kind != ExprKind::Subscript) return nullptr;
  auto &s = static_cast<const Subscript &>(e);
  const Value *seq = pureItem(*s.value);
  if (!seq) return nullptr;
  PureNumber i;
  if (s.index->kind == ExprKind::Name) {
    if (const Value *p = boundSlot(*s.index)) i = PureNumber::of(*p);
  } else if (s.index->kind == ExprKind::Constant) {
    auto &c = static_cast<const Constant &>(*s.index);
    if (c.type == Constant::Type::Int) i = PureNumber::integer(c.i);
  }
  if (i.kind != PureNumber::Kind::Int) return nullptr;
  return sequenceItem(*seq, i.i);
}

bool Evaluator::testGeneral(const Expr &t) {
  Value v = eval(t);
  in.span_ = t.span;
  return truth(v);
}

// The common expressions of arithmetic loops, kept small so that the
// recursion through it stays cheap; the rest is evalGeneral.
Value Evaluator::eval(const Expr &e) {
  switch (e.kind) {
  case ExprKind::Name: {
    auto &n = static_cast<const Name &>(e);
    if (n.slotOwner == f.codeId && n.slot >= 0) [[likely]]
      if (Value *p = f.slot(n.slot)) [[likely]] return *p;
    return loadName(n);
  }
  case ExprKind::Constant: {
    auto &c = static_cast<const Constant &>(e);
    if (c.type == Constant::Type::Int) return Value::integer(c.i);
    return evalGeneral(e);
  }
  case ExprKind::BinOp: {
    if (PureNumber v = pureArithmetic(e)) return v.value();
    auto &b = static_cast<const ast::BinOp &>(e);
    Value l = operand(*b.lhs), r = operand(*b.rhs);
    if (PureNumber x = PureNumber::of(l))
      if (PureNumber y = PureNumber::of(r))
        if (PureNumber v = pureBinary(b.op, x, y)) return v.value();
    in.span_ = e.span;
    return in.binary(toBinOp(b.op), l, r);
  }
  case ExprKind::Compare: {
    auto &c = static_cast<const Compare &>(e);
    if (c.ops.size() != 1) return evalCompare(c);
    Value left = operand(*c.left);
    Value right = operand(*c.comparators[0]);
    bool truth;
    if (left.isInt() && right.isInt() && fastIntCompare(c.ops[0], left.asInt(), right.asInt(), truth))
      return Value::boolean(truth);
    in.span_ = e.span;
    return compareOnce(c.ops[0], left, right);
  }
  case ExprKind::Call: return evalCall(static_cast<const Call &>(e));
  default: return evalGeneral(e);
  }
}

Value Evaluator::compareOnce(CmpOpKind op, const Value &left, const Value &right) {
  switch (op) {
  case CmpOpKind::Eq: return in.compare(CmpOp::Eq, left, right);
  case CmpOpKind::NotEq: return in.compare(CmpOp::Ne, left, right);
  case CmpOpKind::Lt: return in.compare(CmpOp::Lt, left, right);
  case CmpOpKind::LtE: return in.compare(CmpOp::Le, left, right);
  case CmpOpKind::Gt: return in.compare(CmpOp::Gt, left, right);
  case CmpOpKind::GtE: return in.compare(CmpOp::Ge, left, right);
  case CmpOpKind::Is: return Value::boolean(left.is(right));
  case CmpOpKind::IsNot: return Value::boolean(!left.is(right));
  case CmpOpKind::In: return Value::boolean(in.contains(right, left));
  case CmpOpKind::NotIn: return Value::boolean(!in.contains(right, left));
  }
  return Value();
}

// A chain `a < b < c`: each comparand evaluated once, stopping at the
// first false link.
Value Evaluator::evalCompare(const Compare &c) {
  Value left = eval(*c.left);
  Value result;
  for (size_t i = 0; i < c.ops.size(); ++i) {
    Value right = eval(*c.comparators[i]);
    bool truth = false;
    if (left.isInt() && right.isInt() && fastIntCompare(c.ops[i], left.asInt(), right.asInt(), truth)) {
      result = Value::boolean(truth);
    } else {
      in.span_ = c.span;
      result = compareOnce(c.ops[i], left, right);
      truth = i + 1 == c.ops.size() || in.truth(result);
    }
    if (i + 1 < c.ops.size() && !truth) return result;
    left = std::move(right);
  }
  return result;
}

Value Evaluator::evalGeneral(const Expr &e) {
  switch (e.kind) {
  case ExprKind::Name: return loadName(static_cast<const Name &>(e));
  case ExprKind::BinOp:
  case ExprKind::Compare: return eval(e);
  case ExprKind::Constant: {
    auto &c = static_cast<const Constant &>(e);
    switch (c.type) {
    case Constant::Type::None: return Value();
    case Constant::Type::Bool: return Value::boolean(c.b);
    case Constant::Type::Int: return Value::integer(c.i);
    case Constant::Type::Float: return Value::real(c.f);
    case Constant::Type::Str: return in.str(c.s);
    case Constant::Type::Bytes: return make<BytesObject>(c.s);
    case Constant::Type::Ellipsis: return in.builtin("Ellipsis");
    case Constant::Type::BigInt:
      // An imaginary literal travels as a BigInt constant ending in j (literals.cpp).
      if (c.s.back() == 'j' || c.s.back() == 'J') return complexValue(0.0, std::strtod(c.s.c_str(), nullptr));
      return bigFromSourceLiteral(in, c.s);
    }
    return Value();
  }
  case ExprKind::FString: return evalFString(static_cast<const FString &>(e));
  case ExprKind::UnaryOp: {
    if (PureNumber v = pureArithmetic(e)) return v.value();
    auto &u = static_cast<const ast::UnaryOp &>(e);
    Value v = eval(*u.operand);
    in.span_ = e.span;
    switch (u.op) {
    case UnaryOpKind::Not: return Value::boolean(!in.truth(v));
    case UnaryOpKind::Neg: return in.unary(runtime::UnaryOp::Neg, v);
    case UnaryOpKind::Pos: return in.unary(runtime::UnaryOp::Pos, v);
    case UnaryOpKind::Invert: return in.unary(runtime::UnaryOp::Invert, v);
    }
    return Value();
  }
  case ExprKind::BoolOp: {
    auto &b = static_cast<const BoolOp &>(e);
    Value v;
    for (const auto &x : b.values) {
      v = eval(*x);
      in.span_ = x->span;
      bool t = in.truth(v);
      if (b.isAnd ? !t : t) return v;
    }
    return v;
  }
  case ExprKind::Call: return evalCall(static_cast<const Call &>(e));
  case ExprKind::Attribute: {
    auto &a = static_cast<const Attribute &>(e);
    Value base = eval(*a.value);
    if (auto *inst = base.as<InstanceObject>()) {
      // The site's cache (attr_cache.h): the instance's own attribute, or
      // the class's plain function bound to it, without the MRO walk.
      auto &c = attrCacheFor(a, inst->klass.get());
      if (c.cacheLoad == kLoadInstance || c.cacheLoad == kLoadMethod) {
        auto it = findOwnAttr(*inst, a.attr);
        if (it != inst->attrs.end()) return it->second;
        if (c.cacheLoad == kLoadMethod)
          return make<BoundMethod>(base, Value(Ref<FunctionObject>(static_cast<FunctionObject *>(const_cast<void *>(c.cacheValue)))));
      }
    }
    in.span_ = e.span;
    return in.getAttr(base, a.attr);
  }
  case ExprKind::Subscript: {
    auto &s = static_cast<const Subscript &>(e);
    Value base = eval(*s.value);
    Value idx = eval(*s.index);
    if (idx.isInt())
      if (const Value *item = sequenceItem(base, idx.asInt())) return *item;
    in.span_ = e.span;
    return in.getItem(base, idx);
  }
  case ExprKind::Slice: {
    auto &s = static_cast<const Slice &>(e);
    auto sl = make<SliceObject>();
    if (s.lower) sl->lower = eval(*s.lower);
    if (s.upper) sl->upper = eval(*s.upper);
    if (s.step) sl->step = eval(*s.step);
    return sl;
  }
  case ExprKind::List:
  case ExprKind::Tuple:
  case ExprKind::Set: {
    auto &s = static_cast<const Sequence &>(e);
    if (e.kind == ExprKind::Set) return setDisplay(s);
    std::vector<Value> items;
    for (const auto &x : s.elts) {
      if (auto *st = llvm::dyn_cast<Starred>(x.get())) {
        Value v = eval(*st->value);
        in.span_ = x->span;
        for (auto &item : in.toList(v)) items.push_back(item);
      } else {
        items.push_back(eval(*x));
      }
    }
    if (e.kind == ExprKind::List) return in.list(std::move(items));
    return in.tuple(std::move(items));
  }
  case ExprKind::Dict: {
    auto &d = static_cast<const Dict &>(e);
    auto dict = make<DictObject>();
    for (size_t i = 0; i < d.values.size(); ++i) {
      if (!d.keys[i]) {
        Value other = eval(*d.values[i]);
        in.span_ = d.values[i]->span;
        auto items = mappingItems(in, other);
        if (!items) in.raise("TypeError", fmt::format("'{}' object is not a mapping", in.typeName(other)));
        for (auto &[k, v] : *items) dict->set(in, k, v);
        continue;
      }
      Value k = eval(*d.keys[i]);
      Value v = eval(*d.values[i]);
      in.span_ = d.keys[i]->span;
      dict->set(in, k, v);
    }
    return dict;
  }
  case ExprKind::Comprehension: return evalComprehension(static_cast<const Comprehension &>(e));
  case ExprKind::NamedExpr: {
    auto &n = static_cast<const NamedExpr &>(e);
    Value v = eval(*n.value);
    storeWalrus(static_cast<const Name &>(*n.target), v);
    return v;
  }
  case ExprKind::Lambda: return makeLambda(static_cast<const Lambda &>(e));
  case ExprKind::IfExp: {
    auto &i = static_cast<const IfExp &>(e);
    Value t = eval(*i.test);
    in.span_ = i.test->span;
    return in.truth(t) ? eval(*i.body) : eval(*i.orelse);
  }
  case ExprKind::Starred:
    in.span_ = e.span;
    in.raise("SyntaxError", "can't use starred expression here");
  case ExprKind::Yield:
  case ExprKind::YieldFrom: {
    auto &y = static_cast<const Yield &>(e);
    Value v = y.value ? eval(*y.value) : Value();
    in.span_ = e.span;
    if (!f.generator) in.raise("SyntaxError", "'yield' outside function");
    if (e.kind == ExprKind::Yield) return generatorYield(*f.generator, std::move(v), e.span);
    return generatorYieldFrom(*f.generator, v, e.span);
  }
  }
  return Value();
}

namespace {
// Whether CPython's AST optimizer folds e into one constant (literals, unary
// and binary operators on them, tuples of them).
bool foldsToConstant(const Expr &e) {
  switch (e.kind) {
  case ExprKind::Constant: return true;
  case ExprKind::UnaryOp: return foldsToConstant(*static_cast<const ast::UnaryOp &>(e).operand);
  case ExprKind::BinOp: {
    auto &b = static_cast<const ast::BinOp &>(e);
    return foldsToConstant(*b.lhs) && foldsToConstant(*b.rhs);
  }
  case ExprKind::Tuple:
    for (const auto &x : static_cast<const Sequence &>(e).elts)
      if (!foldsToConstant(*x)) return false;
    return true;
  default: return false;
  }
}
}  // namespace

// A set display. CPython compiles one of three or more constants to a
// frozenset constant (built twice: from the items, then from its own order)
// copied into a new set, and any other display to adds
// in order (a starred item merged as set.update does): the two can lay the
// table out differently, so tfs builds each the same way.
Value Evaluator::setDisplay(const Sequence &s) {
  auto set = make<SetObject>();
  bool allConstant = s.elts.size() > 2;
  for (const auto &x : s.elts) allConstant = allConstant && foldsToConstant(*x);
  if (allConstant) {
    SetTable folded;
    for (const auto &x : s.elts) {
      Value v = eval(*x);
      in.span_ = x->span;
      folded.add(in, v);
    }
    // The compiler's constant merging then rebuilds the frozenset from its
    // own iteration order.
    SetTable merged;
    for (const Value &v : folded.keys()) merged.add(in, v);
    set->t.merge(in, merged);
    return set;
  }
  for (const auto &x : s.elts) {
    if (auto *st = llvm::dyn_cast<Starred>(x.get())) {
      Value v = eval(*st->value);
      in.span_ = x->span;
      setUpdate(in, set->t, v);
    } else {
      Value v = eval(*x);
      in.span_ = x->span;
      set->t.add(in, v);
    }
  }
  return set;
}

Value Evaluator::evalComprehension(const Comprehension &c) {
  if (c.type == Comprehension::Type::Generator) return makeGeneratorExpression(*this, c);
  // The comprehension's own scope: its targets are local to it.
  Frame inner;
  inner.locals = make<Scope>();
  inner.locals->parent = comprehensionParent();
  inner.globals = f.globals;
  inner.function = f.function;
  shareWalrusScope(inner);
  Evaluator ev{in, inner};
  std::vector<Value> out;
  auto dict = c.type == Comprehension::Type::Dict ? make<DictObject>() : Ref<DictObject>();
  std::function<void(size_t)> loop = [&](size_t level) {
    if (level == c.generators.size()) {
      if (dict) {
        Value k = ev.eval(*c.elt);
        Value v = ev.eval(*c.value);
        dict->set(in, k, v);
      } else {
        out.push_back(ev.eval(*c.elt));
      }
      return;
    }
    const auto &g = c.generators[level];
    Value iterable = level == 0 ? eval(*g.iter) : ev.eval(*g.iter);
    in.span_ = g.iter->span;
    Value it = in.iter(iterable);
    while (auto item = in.next(it)) {  // in.next counts a step per element
      ev.assign(*g.target, *item);
      bool ok = true;
      for (const auto &cond : g.ifs)
        if (!in.truth(ev.eval(*cond))) { ok = false; break; }
      if (ok) loop(level + 1);
    }
  };
  loop(0);
  if (dict) return dict;
  if (c.type == Comprehension::Type::Set) {
    auto set = make<SetObject>();
    for (auto &v : out) set->t.add(in, v);
    return set;
  }
  return in.list(std::move(out));
}

Value Evaluator::evalFString(const FString &fs) {
  std::string out;
  for (const auto &p : fs.parts) {
    if (!p.value) {
      out += p.literal;
      continue;
    }
    Value v = eval(*p.value->value);
    in.span_ = p.value->value->span;
    if (p.value->conversion == 'r') v = in.str(in.repr(v));
    else if (p.value->conversion == 's') v = in.str(in.str(v));
    else if (p.value->conversion == 'a') v = in.call(in.builtin("ascii"), std::vector<Value>{v});
    std::string spec;
    if (p.value->formatSpec) spec = in.str(evalFString(static_cast<const FString &>(*p.value->formatSpec)));
    out += in.format(v, spec);
  }
  return in.str(std::move(out));
}

Value Evaluator::makeLambda(const Lambda &l) {
  auto fn = make<FunctionObject>();
  fn->name = "<lambda>";
  fn->qualname = qualnamePrefix() + "<lambda>";
  fn->lambda = &l;
  fn->code = analyzeCode(l.params, nullptr, l.body.get());
  for (const auto &p : l.params)
    if (p.defaultValue) fn->defaults.push_back(eval(*p.defaultValue));
  fn->closure = f.classBody ? f.locals->parent : (f.locals.get() != f.globals.get() ? capturedLocals() : Ref<Scope>());
  fn->globals = f.globals;
  fn->definingClass = f.function ? f.function->definingClass : nullptr;
  return fn;
}

}  // namespace tfs::runtime
