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
inline bool fastIntBinary(ast::BinOpKind op, int64_t x, int64_t y, int64_t &out) {
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
  std::vector<std::string> classOrder;  // a class body's names, first bound first
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
  void store(const std::string &name, Value v);
  // store() of a Name target (the fast path for a function's locals).
  void storeName(const ast::Name &target, Value v);
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
  Value *boundSlot(const ast::Expr &target) {
    if (target.kind != ast::ExprKind::Name) return nullptr;
    auto &n = static_cast<const ast::Name &>(target);
    return n.slotOwner == f.codeId && n.slot >= 0 ? f.slot(n.slot) : nullptr;
  }
  Value evalGeneral(const ast::Expr &e);  // what eval() does not do inline
  Value evalCompare(const ast::Compare &c);
  Value compareOnce(ast::CmpOpKind op, const Value &left, const Value &right);
  Flow execGeneral(const ast::Stmt &s);   // what exec() does not do inline
  Value augmented(const ast::AugAssign &a, const Value &cur, const Value &rhs);  // `cur op= rhs`
  // Python truth: inline for the unboxed values.
  bool truth(const Value &v) {
    if (v.isBool() || v.isInt()) [[likely]] return v.asInt() != 0;
    return in.truth(v);
  }
  Value evalCall(const ast::Call &c);
  Value evalComprehension(const ast::Comprehension &c);
  Value evalFString(const ast::FString &fs);
  Value makeLambda(const ast::Lambda &l);
  Value defineFunction(const ast::FunctionDef &def);
  Value defineClass(const ast::ClassDef &def);
  Flow execTry(const ast::Try &t);
  void annotatedAssign(const ast::Assign &a);  // `x: T [= v]` at module / class level
  Flow execWith(const ast::With &w, size_t item);
  void doImport(const ast::Stmt &s);
  std::string absoluteImportName(const ast::ImportFrom &im);  // resolves `from .x import y`
};

// Exceptions currently being handled (for bare `raise`), innermost last.
std::vector<PyException> &handledExceptions();

}  // namespace tfs::runtime
