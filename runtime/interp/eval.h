// The evaluator (private to runtime/interp): one activation record (Frame)
// and the functions that evaluate expressions (eval_expr.cpp) and execute
// statements (eval_stmt.cpp) of the AST in it.
#pragma once

#include "runtime/interp/interpreter.h"

#include <algorithm>
#include <array>
#include <memory>

namespace tfs::runtime {

struct GeneratorState;

// The common cases of int arithmetic (+ - * and // % by a positive int)
// without the general protocol, with numericBinary's results; false when
// not one of them (overflow, another divisor, other operators): the
// general path decides and reports errors.
[[gnu::always_inline]] inline bool fastIntBinary(ast::BinOpKind op, int64_t x, int64_t y, int64_t &out) {
  switch (op) {
  case ast::BinOpKind::Add: return !__builtin_add_overflow(x, y, &out);
  case ast::BinOpKind::Sub: return !__builtin_sub_overflow(x, y, &out);
  case ast::BinOpKind::Mul: return !__builtin_mul_overflow(x, y, &out);
  case ast::BinOpKind::FloorDiv:
    if (y <= 0) return false;
    out = x / y - (x % y != 0 && x < 0);
    return true;
  case ast::BinOpKind::Mod:
    if (y <= 0) return false;
    out = x % y;
    if (out < 0) out += y;
    return true;
  default: return false;
  }
}

// seq[i] of a list or tuple `seq` when i is in range (negative from the
// end); null otherwise (then the general protocol decides or raises).
inline const Value *sequenceItem(const Value &seq, int64_t i) {
  const std::vector<Value> *items = nullptr;
  if (auto *l = seq.as<ListObject>()) items = &l->items;
  else if (auto *t = seq.as<TupleObject>()) items = &t->items;
  else return nullptr;
  if (i < 0) i += int64_t(items->size());
  return uint64_t(i) < items->size() ? &(*items)[size_t(i)] : nullptr;
}

// An int or float computed without making a Value (Evaluator::number).
struct PureNumber {
  enum class Kind : uint8_t { None, Int, Float } kind = Kind::None;
  union {
    int64_t i = 0;
    double d;
  };
  [[gnu::always_inline]] static PureNumber integer(int64_t v) { PureNumber n; n.kind = Kind::Int; n.i = v; return n; }
  [[gnu::always_inline]] static PureNumber real(double v) { PureNumber n; n.kind = Kind::Float; n.d = v; return n; }
  [[gnu::always_inline]] static PureNumber of(const Value &v) {
    if (v.isInt()) return integer(v.asInt());
    if (v.isFloat()) return real(v.asFloat());
    return {};
  }
  explicit operator bool() const { return kind != Kind::None; }
  double asDouble() const { return kind == Kind::Float ? d : double(i); }
  Value value() const { return kind == Kind::Int ? Value::integer(i) : Value::real(d); }
};

// *slot = n.value(): over an unboxed value (the common case of a loop's
// `x = x + 1`) the new value is written in place, without the move
// assignment's swap and release of the old one (nothing to release).
[[gnu::always_inline]] inline void storeNumber(Value *slot, PureNumber n) {
  if (slot->isObj()) [[unlikely]] *slot = n.value();
  else new (slot) Value(n.value());
}

// x op y as numericBinary computes it, for the operators that cannot fail
// here: int + - * (no overflow), // and % by a positive int, and + - * / of
// floats or an int and a float (/ by a non-zero); None for the others.
[[gnu::always_inline]] inline PureNumber pureBinary(ast::BinOpKind op, PureNumber x, PureNumber y) {
  if (x.kind == PureNumber::Kind::Int && y.kind == PureNumber::Kind::Int) {
    int64_t out;
    if (fastIntBinary(op, x.i, y.i, out)) return PureNumber::integer(out);
    // int / int: one double division is correctly rounded only when both are
    // exact doubles (|v| <= 2**53); past that numericBinary rounds exactly.
    constexpr int64_t exact = int64_t(1) << 53;
    if (op == ast::BinOpKind::Div && y.i != 0 && x.i >= -exact && x.i <= exact && y.i >= -exact && y.i <= exact)
      return PureNumber::real(double(x.i) / double(y.i));
    return {};
  }
  double a = x.asDouble(), b = y.asDouble();
  switch (op) {
  case ast::BinOpKind::Add: return PureNumber::real(a + b);
  case ast::BinOpKind::Sub: return PureNumber::real(a - b);
  case ast::BinOpKind::Mul: return PureNumber::real(a * b);
  case ast::BinOpKind::Div: return b != 0 ? PureNumber::real(a / b) : PureNumber{};
  default: return {};
  }
}

// Int comparisons (not `is` / `in`): false for other operators.
[[gnu::always_inline]] inline bool fastIntCompare(ast::CmpOpKind op, int64_t x, int64_t y, bool &out) {
  switch (op) {
  case ast::CmpOpKind::Eq: out = x == y; return true;
  case ast::CmpOpKind::NotEq: out = x != y; return true;
  case ast::CmpOpKind::Lt: out = x < y; return true;
  case ast::CmpOpKind::LtE: out = x <= y; return true;
  case ast::CmpOpKind::Gt: out = x > y; return true;
  case ast::CmpOpKind::GtE: out = x >= y; return true;
  default: return false;
  }
}

// `x op y` of two ints or two floats (Python's int/float comparison is
// exact, not through double: the general path does it); false when not
// one of these.
[[gnu::always_inline]] inline bool pureCompare(ast::CmpOpKind op, PureNumber x, PureNumber y, bool &out) {
  if (x.kind != y.kind) return false;
  if (x.kind == PureNumber::Kind::Int) return fastIntCompare(op, x.i, y.i, out);
  double a = x.d, b = y.d;
  switch (op) {
  case ast::CmpOpKind::Eq: out = a == b; return true;
  case ast::CmpOpKind::NotEq: out = a != b; return true;
  case ast::CmpOpKind::Lt: out = a < b; return true;
  case ast::CmpOpKind::LtE: out = a <= b; return true;
  case ast::CmpOpKind::Gt: out = a > b; return true;
  case ast::CmpOpKind::GtE: out = a >= b; return true;
  default: return false;
  }
}

struct Frame {
  Ref<Scope> locals;   // function locals, class namespace, or module globals
  Ref<Scope> globals;
  const CodeInfo *code = nullptr;  // null at module level and in class bodies
  uint64_t codeId = 0;             // code->id; 0 without code
  void setCode(const CodeInfo *c) {
    code = c;
    codeId = c ? c->id : 0;
  }
  bool classBody = false;
  FunctionObject *function = nullptr;
  Value firstArg;      // for zero-argument super()
  Value retval;
  GeneratorState *generator = nullptr;  // set in a generator's frame
  // What locals() returned in this function frame: CPython 3.11 gives one
  // dict per frame, refreshed from the locals at each call (null until then).
  Ref<DictObject> localsDict;
  // A function frame's own locals by slot (CodeInfo::slotOf, the index the
  // resolver gives each local name): a pointer into locals->vars, whose
  // elements stay put until erased, or null until the name is first bound or
  // read here. Reading a hot local costs an index, not hash lookups; `del`
  // of a local clears them all. The first kInlineSlots live in the frame.
  static constexpr size_t kInlineSlots = 16;
  std::array<Value *, kInlineSlots> inlineSlots{};
  std::unique_ptr<Value *[]> moreSlots;  // slots past kInlineSlots
  void sizeSlots(size_t n) {
    if (n > kInlineSlots) moreSlots = std::make_unique<Value *[]>(n - kInlineSlots);
  }
  Value *&slot(int32_t i) { return size_t(i) < kInlineSlots ? inlineSlots[size_t(i)] : moreSlots[size_t(i) - kInlineSlots]; }
  void clearSlots() {
    inlineSlots.fill(nullptr);
    if (moreSlots && code)
      std::fill_n(moreSlots.get(), code->localNames.size() - kInlineSlots, nullptr);
  }
  // Flat locals: while `flat`, a local bound here lives at flatValues[slot]
  // (an array the caller owns, FlatLocals), not in locals->vars, so a call
  // binds its parameters without hashing a name or allocating a node.
  // Whatever needs the locals by name (a closure, a comprehension, a class
  // body, `del`, locals()) calls spill() first: the values move into
  // locals->vars and the slots point there from then on. A slot may also
  // point into locals->vars while flat (a name bound there by the general
  // argument binder or a statement that stores by name).
  Value *flatValues = nullptr;
  bool flat = false;
  void spill();
  // In a comprehension's or generator expression's frame: where an
  // assignment expression binds (PEP 572: the scope containing the
  // comprehension, skipping comprehension scopes), i.e. the locals of the
  // nearest function or module frame around it, and that function's code
  // (its global / nonlocal declarations; null at module level). Null scope
  // elsewhere: the walrus binds like an assignment.
  Ref<Scope> walrusScope;
  const CodeInfo *walrusCode = nullptr;
};

// The storage of a frame's flat locals: inline for small functions. Lives
// beside the Frame on the C++ stack, for the length of the call.
class FlatLocals {
public:
  static constexpr size_t kInline = 16;
  [[gnu::always_inline]] explicit FlatLocals(size_t n) : n_(n) {
    if (n > kInline) heap_ = std::make_unique<Value[]>(n);
    else
      for (size_t i = 0; i < n; ++i) new (&inline_[i]) Value();
  }
  [[gnu::always_inline]] ~FlatLocals() {
    if (!heap_)
      for (size_t i = 0; i < n_; ++i) inline_[i].~Value();
  }
  FlatLocals(const FlatLocals &) = delete;
  FlatLocals &operator=(const FlatLocals &) = delete;
  Value *data() { return heap_ ? heap_.get() : inline_; }

private:
  size_t n_;
  union {
    Value inline_[kInline];
  };
  std::unique_ptr<Value[]> heap_;
};

// Names local to a function body (assigned, not declared global/nonlocal).
std::shared_ptr<CodeInfo> analyzeCode(const std::vector<ast::Param> &params, const ast::Body *body,
                                      const ast::Expr *lambdaBody);

struct Evaluator {
  Interpreter &in;
  Frame &f;

  Value eval(const ast::Expr &e);
  Flow exec(const ast::Stmt &s);
  Flow execBody(const ast::Body &b);
  // exec() of one statement with execBody's std::bad_alloc handler (the
  // interactive session runs statements one at a time).
  Flow execStatement(const ast::Stmt &s);
  // execBody inline, for the bodies of if / while / for: without its
  // std::bad_alloc handler, which the execBody around the statement (a
  // function's, a module's, a try's or with's body) applies the same way
  // (MemoryError at the innermost statement, in.span_), so a loop's
  // iteration does not pay a call.
  [[gnu::always_inline]] Flow execBlock(const ast::Body &b) {
    for (const auto &s : b) {
      Flow fl = exec(*s);
      if (fl != Flow::Normal) return fl;
    }
    return Flow::Normal;
  }

  Value load(const std::string &name, const ast::Expr &at);
  Value loadName(const ast::Name &n);
  // n's slot in this function frame (-1: not one of its locals; also in
  // module, class-body and comprehension frames).
  int32_t slotOf(const ast::Name &n) {
    if (!f.code || f.classBody) return -1;
    if (n.slotOwner != f.codeId) [[unlikely]] {
      auto it = f.code->slotOf.find(n.id);
      n.slot = it == f.code->slotOf.end() ? -1 : it->second;
      n.slotOwner = f.code->id;
    }
    return n.slot;
  }
  [[noreturn]] void raiseNameError(const std::string &name);
  // A name that is not one of this function's locals: a global or builtin
  // through the name's cache when the frame has no other scope to search.
  Value loadNonLocal(const ast::Name &n);
  // loadNonLocal past its cached value (kept out of line: the cached read
  // then needs no registers saved).
  [[gnu::noinline]] Value loadNonLocalUncached(const ast::Name &n);
  // f.locals for something that keeps it (a closure, a comprehension's or
  // class body's parent): the frame's flat locals move into it first.
  const Ref<Scope> &capturedLocals() {
    f.spill();
    return f.locals;
  }
  // The parent of a comprehension's or generator expression's scope made
  // here: this frame's locals, except in a class body, whose names CPython
  // hides from the scopes nested in it (only a comprehension's outermost
  // iterable, evaluated here, sees them): the class body's own parent then.
  Ref<Scope> comprehensionParent() { return f.classBody ? f.locals->parent : capturedLocals(); }
  // Binds local `slot` (named `name`) of this function frame.
  void storeSlot(int32_t slot, const std::string &name, Value v);
  // locals() here: the module's or class body's namespace (live), or the
  // function frame's locals dict refreshed from its variables.
  Value localsValue();
  // locals(), globals(), vars(), dir() called as `name()`, `fn` the value
  // of the name: what they return in this frame; nullopt when the name is
  // bound to something else.
  std::optional<Value> callFrameBuiltin(const Value &fn, const std::string &name, const ast::Call &c);
  void store(const std::string &name, Value v);
  // store() of a Name target (the fast path for a function's locals).
  void storeName(const ast::Name &target, Value v);
  // `target := value`'s binding (Frame::walrusScope).
  void storeWalrus(const ast::Name &target, Value v);
  // Makes `inner` (a comprehension's frame) bind assignment expressions
  // where this frame's would go.
  void shareWalrusScope(Frame &inner);
  void assign(const ast::Expr &target, const Value &v);
  void del(const ast::Expr &target);
  // eval() of an operand: a bound local or an int constant is read here,
  // without the recursive call; anything else goes through eval().
  [[gnu::always_inline]] Value operand(const ast::Expr &e) {
    if (e.kind == ast::ExprKind::Name) {
      auto &n = static_cast<const ast::Name &>(e);
      if (n.slotOwner == f.codeId && n.slot >= 0)
        if (Value *p = f.slot(n.slot)) return *p;
    } else if (e.kind == ast::ExprKind::Constant) {
      auto &c = static_cast<const ast::Constant &>(e);
      if (c.type == ast::Constant::Type::Int) return Value::integer(c.i);
    }
    return eval(e);
  }
  // The bound value of a local Name through its slot; null when `target`
  // is not a resolved, bound local of this frame.
  [[gnu::always_inline]] Value *boundSlot(const ast::Expr &target) {
    if (target.kind != ast::ExprKind::Name) return nullptr;
    auto &n = static_cast<const ast::Name &>(target);
    return n.slotOwner == f.codeId && n.slot >= 0 ? f.slot(n.slot) : nullptr;
  }
  // Arithmetic on numbers without Values: the value of `e` when it is made
  // only of bound int/float locals, int/float constants, unary - and the
  // binary operators pureBinary computes; kind None otherwise. It evaluates
  // nothing with an effect (no call, attribute, error), so a caller that gets
  // None evaluates `e` the general way and nothing has happened twice.
  // leafNumber: a local or a constant (inline); number: any expression.
  [[gnu::always_inline]] PureNumber leafNumber(const ast::Expr &e) {
    if (e.kind == ast::ExprKind::Name) {
      auto &n = static_cast<const ast::Name &>(e);
      if (n.slotOwner == f.codeId && n.slot >= 0)
        if (const Value *p = f.slot(n.slot)) return PureNumber::of(*p);
    } else if (e.kind == ast::ExprKind::Constant) {
      auto &c = static_cast<const ast::Constant &>(e);
      if (c.type == ast::Constant::Type::Int) return PureNumber::integer(c.i);
      if (c.type == ast::Constant::Type::Float) return PureNumber::real(c.f);
    } else if (e.kind == ast::ExprKind::Subscript) {
      if (const Value *p = pureItem(e)) return PureNumber::of(*p);
    }
    return {};
  }
  // The value `e` names when reading it has no effect and cannot fail: a
  // bound local, or seq[i] of such a list or tuple (nested: b[k][j]) with
  // an int local or constant index in range; null otherwise.
  const Value *pureItem(const ast::Expr &e);
  [[gnu::always_inline]] PureNumber number(const ast::Expr &e) {
    if (e.kind == ast::ExprKind::BinOp) {
      // An operator between two leaves (`n % 2`, `i + 1`) here, without
      // pureArithmetic's call; it computes the same for them.
      auto &b = static_cast<const ast::BinOp &>(e);
      if (isLeaf(*b.lhs) && isLeaf(*b.rhs)) {
        PureNumber l = leafNumber(*b.lhs);
        if (!l) return l;
        PureNumber r = leafNumber(*b.rhs);
        if (!r) return r;
        return pureBinary(b.op, l, r);
      }
      return pureArithmetic(e);
    }
    if (e.kind == ast::ExprKind::UnaryOp) return pureArithmetic(e);
    return leafNumber(e);
  }
  static bool isLeaf(const ast::Expr &e) { return e.kind != ast::ExprKind::BinOp && e.kind != ast::ExprKind::UnaryOp; }
  PureNumber pureArithmetic(const ast::Expr &e);  // a BinOp or UnaryOp
  // Python truth of the expression `test` (an if / while condition): a
  // comparison of two ints or two floats is decided without making a Value.
  // Inline: a loop's condition is tested once per iteration.
  [[gnu::always_inline]] bool test(const ast::Expr &t) {
    if (t.kind == ast::ExprKind::Compare) {
      auto &c = static_cast<const ast::Compare &>(t);
      if (c.ops.size() == 1) {
        if (PureNumber l = number(*c.left)) {
          bool truth;
          if (PureNumber r = number(*c.comparators[0]); r && pureCompare(c.ops[0], l, r, truth)) return truth;
        }
      }
    }
    return testGeneral(t);
  }
  bool testGeneral(const ast::Expr &t);  // test() past its fast path
  Value evalGeneral(const ast::Expr &e);  // what eval() does not do inline
  Value evalCompare(const ast::Compare &c);
  Value compareOnce(ast::CmpOpKind op, const Value &left, const Value &right);
  Flow execGeneral(const ast::Stmt &s);   // what exec() does not do inline
  // A for loop over the items `next(item)` produces until it returns false;
  // each counts a step, as Interpreter::next does.
  template <class Next> Flow forEach(const ast::For &fo, Next next) {
    Value item;
    for (;;) {
      in.span_ = fo.iter->span;
      in.step();
      if (!next(item)) break;
      if (Value *p = boundSlot(*fo.target)) *p = std::move(item);
      else assign(*fo.target, item);
      Flow fl = execBlock(fo.body);
      if (fl == Flow::Break) return Flow::Normal;
      if (fl == Flow::Return) return fl;
      in.step();
    }
    return execBody(fo.orelse);
  }
  Value augmented(const ast::AugAssign &a, const Value &cur, const Value &rhs);  // `cur op= rhs`
  Flow augAssignPart(const ast::AugAssign &a);  // `obj[i] op= rhs`, `obj.a op= rhs`
  // Python truth: inline for the unboxed values.
  bool truth(const Value &v) {
    if (v.isBool() || v.isInt()) [[likely]] return v.asInt() != 0;
    return in.truth(v);
  }
  Value evalCall(const ast::Call &c);
  // A call of `fn` (a user function, not a generator, whose parameters are
  // all plain positional ones, as many as c has positional arguments plus
  // `withSelf`, and at most Frame::kInlineSlots locals: canCallPlain): the
  // arguments, evaluated here, move straight into the callee's flat locals
  // (call.cpp). `self`: a method's receiver, bound to the first parameter.
  [[gnu::always_inline]] static bool canCallPlain(const FunctionObject &fn, const ast::Call &c,
                                                  bool withSelf = false) {
    const CodeInfo &code = *fn.code;
    if (!code.plainParams || !c.keywords.empty() || code.localNames.size() > Frame::kInlineSlots) return false;
    const size_t n = c.args.size() + (withSelf ? 1 : 0);
    const ast::FunctionDef *def = fn.def;
    return def ? !def->isGenerator && n == def->params.size()
               : !fn.lambda->isGenerator && n == fn.lambda->params.size();
  }
  Value callPlain(FunctionObject &fn, const ast::Call &c, const Value *self = nullptr);
  // `obj.name(args)` without keywords or *args: a method of an instance's
  // class, `append` of a list and `get` of a dict called without making a
  // bound method; other receivers through getAttr and call. nullopt (nothing
  // evaluated) for `__class__` / `__dict__` and starred arguments.
  std::optional<Value> callBuiltinMethod(const ast::Call &c);
  Value setDisplay(const ast::Sequence &s);  // {a, *b, c}
  Value evalComprehension(const ast::Comprehension &c);
  Value evalFString(const ast::FString &fs);
  Value makeLambda(const ast::Lambda &l);
  Value defineFunction(const ast::FunctionDef &def);
  // What CPython's __qualname__ puts before a name defined here: 'C.' in
  // the body of class C, 'f.<locals>.' in function f, nothing at top level.
  std::string qualnamePrefix() const;
  Value defineClass(const ast::ClassDef &def);
  Flow execTry(const ast::Try &t);
  Flow execMatch(const ast::Match &m);  // pattern_match.cpp
  // `try` with except* handlers (except_star.cpp); handleExceptStar runs
  // the handlers for `caught` and gives what the statement raises then.
  Flow execTryStar(const ast::Try &t);
  std::optional<PyException> handleExceptStar(const ast::Try &t, const PyException &caught);
  // The end of `except E as name:`: name is unbound (CPython's `del name`,
  // which breaks the cycle through the traceback), wherever it was stored.
  void unbindHandlerName(const std::string &name);
  void annotatedAssign(const ast::Assign &a);  // `x: T [= v]` at module / class level
  Flow execWith(const ast::With &w, size_t item);
  void doImport(const ast::Stmt &s);
  std::string absoluteImportName(const ast::ImportFrom &im);  // resolves `from .x import y`
};

// Exceptions currently being handled (for bare `raise`), innermost last.
std::vector<PyException> &handledExceptions();

}  // namespace tfs::runtime
