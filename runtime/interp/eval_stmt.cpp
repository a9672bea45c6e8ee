// Statement execution: assignment (with unpacking), control flow returning
// a Flow, def/class, try/except/finally, with, import, raise, assert.
#include "runtime/interp/attr_cache.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/eval.h"
#include "runtime/interp/index_protocol.h"
#include "runtime/interp/set_ops.h"
#include "runtime/interp/traceback_record.h"

#include <fmt/format.h>

namespace tfs::runtime {

using namespace tfs::ast;

BinOp astBinOp(BinOpKind k);

void recordTraceback(const PyException &e, const std::vector<frontend::SourceSpan> &callStack) {
  auto *inst = e.exc.as<InstanceObject>();
  if (!inst) return;
  auto sameSite = [](const frontend::SourceSpan &a, const frontend::SourceSpan &b) {
    return a.file == b.file && a.line == b.line && a.col == b.col;
  };
  size_t depth = 0;
  while (depth < e.callChain.size() && depth < callStack.size() && sameSite(e.callChain[depth], callStack[depth])) ++depth;
  auto tb = make<TracebackObject>();
  tb->frames.assign(e.callChain.begin() + long(depth), e.callChain.end());
  tb->frames.push_back(e.span);
  inst->attrs["__traceback__"] = Value(tb);
}

std::vector<PyException> &handledExceptions() {
  static thread_local std::vector<PyException> stack;
  return stack;
}

const PyException *Interpreter::handledException() const {
  auto &h = handledExceptions();
  return h.empty() ? nullptr : &h.back();
}

void Evaluator::assign(const Expr &target, const Value &v) {
  switch (target.kind) {
  case ExprKind::Name: storeName(static_cast<const Name &>(target), v); return;
  case ExprKind::Attribute: {
    auto &a = static_cast<const Attribute &>(target);
    Value base = eval(*a.value);
    if (auto *inst = base.as<InstanceObject>(); inst && attrCacheFor(a, inst->klass.get()).cacheStore == kStoreDirect) {
      // What setAttr does for this class (attr_cache.h).
      if (auto it = findOwnAttr(*inst, a.attr); it != inst->attrs.end()) it->second = v;
      else inst->attrs[a.attr] = v;
      return;
    }
    in.span_ = target.span;
    in.setAttr(base, a.attr, v);
    return;
  }
  case ExprKind::Subscript: {
    auto &s = static_cast<const Subscript &>(target);
    Value base = eval(*s.value);
    Value idx = eval(*s.index);
    if (auto *l = base.as<ListObject>(); l && idx.isInt())
      if (Value *item = const_cast<Value *>(sequenceItem(base, idx.asInt()))) {
        *item = v;
        return;
      }
    in.span_ = target.span;
    in.setItem(base, idx, v);
    return;
  }
  case ExprKind::List:
  case ExprKind::Tuple: {
    auto &seq = static_cast<const Sequence &>(target);
    in.span_ = target.span;
    if (!v.isObj())
      in.raise("TypeError", fmt::format("cannot unpack non-iterable {} object", in.typeName(v)));
    std::vector<Value> items = in.toList(v);
    size_t starAt = seq.elts.size();
    for (size_t i = 0; i < seq.elts.size(); ++i)
      if (seq.elts[i]->kind == ExprKind::Starred) starAt = i;
    if (starAt == seq.elts.size()) {
      if (items.size() != seq.elts.size()) {
        in.span_ = target.span;
        if (items.size() > seq.elts.size())
          in.raise("ValueError", fmt::format("too many values to unpack (expected {})", seq.elts.size()));
        in.raise("ValueError", fmt::format("not enough values to unpack (expected {}, got {})",
                                           seq.elts.size(), items.size()));
      }
      for (size_t i = 0; i < items.size(); ++i) assign(*seq.elts[i], items[i]);
      return;
    }
    size_t after = seq.elts.size() - starAt - 1;
    if (items.size() < starAt + after)
      in.raise("ValueError", fmt::format("not enough values to unpack (expected at least {}, got {})",
                                         starAt + after, items.size()));
    for (size_t i = 0; i < starAt; ++i) assign(*seq.elts[i], items[i]);
    std::vector<Value> mid(items.begin() + long(starAt), items.end() - long(after));
    assign(*static_cast<const Starred &>(*seq.elts[starAt]).value, in.list(std::move(mid)));
    for (size_t i = 0; i < after; ++i) assign(*seq.elts[starAt + 1 + i], items[items.size() - after + i]);
    return;
  }
  default:
    in.span_ = target.span;
    in.raise("SyntaxError", "cannot assign to expression");
  }
}

// `del base[idx]` (also list.__delitem__ and friends called by name).
void deleteSubscript(Interpreter &in, const Value &base, const Value &idx) {
  if (auto *l = base.as<ListObject>()) {
    if (auto *sl = idx.as<SliceObject>()) {
      deleteListSlice(in, *l, *sl);
      return;
    }
    int64_t i = in.toIndex(idx);
    if (i < 0) i += int64_t(l->items.size());
    if (i < 0 || i >= int64_t(l->items.size())) in.raise("IndexError", "list assignment index out of range");
    l->items.erase(l->items.begin() + long(i));
    return;
  }
  if (auto *d = base.as<DictObject>()) {
    if (!d->erase(in, idx)) in.raiseValue(newKeyError(in, idx));
    return;
  }
  if (auto *b = base.as<BytesObject>(); b && b->isMutable) {
    deleteBytearrayItem(in, *b, idx);
    return;
  }
  if (auto *inst = base.as<InstanceObject>()) {
    if (auto m = inst->klass->lookup("__delitem__")) {
      in.call(*m, std::vector<Value>{base, idx});
      return;
    }
  }
  if (base.obj() && !base.as<StrObject>() && !base.as<TupleObject>())
    if (auto m = in.getAttrOpt(base, "__delitem__")) {
      Value args[] = {idx};
      in.call(*m, args);
      return;
    }
  // CPython words it by the path that refused: a sequence's slot for an
  // index key, the generic one ("does not") for any other key.
  in.raise("TypeError", fmt::format("'{}' object {} support item deletion", in.typeName(base),
                                    hasIndexSlot(in, idx) ? "doesn't" : "does not"));
}

void Evaluator::del(const Expr &target) {
  in.span_ = target.span;
  if (auto *n = llvm::dyn_cast<Name>(&target)) {
    f.spill();
    f.clearSlots();  // they may point at the erased value
    if (!f.locals->vars.erase(n->id)) in.raise("NameError", fmt::format("name '{}' is not defined", n->id));
    return;
  }
  if (auto *s = llvm::dyn_cast<Subscript>(&target)) {
    Value base = eval(*s->value), idx = eval(*s->index);
    in.span_ = target.span;
    deleteSubscript(in, base, idx);
    return;
  }
  if (auto *a = llvm::dyn_cast<Attribute>(&target)) {
    Value base = eval(*a->value);
    in.span_ = target.span;
    in.delAttr(base, a->attr);
    return;
  }
  if (auto *t = llvm::dyn_cast<Sequence>(&target)) {
    for (const auto &e : t->elts) del(*e);
  }
}

namespace {
// Allocated at start-up, freed on the first std::bad_alloc (see execBody).
char *emergencyReserve = new char[size_t(32) << 20];
void releaseEmergencyReserve() {
  delete[] emergencyReserve;
  emergencyReserve = nullptr;
}
}  // namespace

Flow Evaluator::execBody(const Body &b) {
  for (const auto &s : b) {
    Flow fl;
    try {
      fl = exec(*s);
    } catch (const std::bad_alloc &) {
      // Out of host memory outside the tensor allocator (huge lists,
      // strings): Python's MemoryError at the statement, not an abort.
      // The emergency reserve is given back first so that raising and
      // reporting the error have memory to work with.
      releaseEmergencyReserve();
      in.raise("MemoryError", "");
    }
    if (fl != Flow::Normal) return fl;
  }
  return Flow::Normal;
}

Flow Evaluator::execStatement(const Stmt &s) {
  try {
    return exec(s);
  } catch (const std::bad_alloc &) {
    releaseEmergencyReserve();  // as in execBody
    in.raise("MemoryError", "");
  }
}

std::string Evaluator::qualnamePrefix() const {
  if (f.classBody) {
    auto q = f.locals->vars.find("__qualname__");
    if (q != f.locals->vars.end())
      if (auto *s = q->second.as<StrObject>()) return s->s + ".";
    return "";
  }
  return f.function ? f.function->qualname + ".<locals>." : "";
}

Value Evaluator::defineFunction(const FunctionDef &def) {
  auto fn = make<FunctionObject>();
  fn->name = def.name;
  fn->qualname = qualnamePrefix() + def.name;
  fn->def = &def;
  fn->code = analyzeCode(def.params, &def.body, nullptr);
  // CPython's order: the decorator expressions, the defaults, then the
  // annotations (parameters as written, `return` last).
  std::vector<Value> decorators;
  decorators.reserve(def.decorators.size());
  for (const auto &d : def.decorators) decorators.push_back(eval(*d));
  for (const auto &p : def.params)
    if (p.defaultValue) fn->defaults.push_back(eval(*p.defaultValue));
  bool annotated = def.returns != nullptr;
  for (const auto &p : def.params) annotated = annotated || p.annotation;
  if (annotated) [[unlikely]] {
    auto ann = make<DictObject>();
    for (const auto &p : def.params)
      if (p.annotation) {
        Value v = eval(*p.annotation);
        ann->set(in, in.str(p.name), v);
      }
    if (def.returns) {
      Value v = eval(*def.returns);
      ann->set(in, in.str("return"), v);
    }
    fn->attrs["__annotations__"] = Value(ann);
  }
  fn->closure = f.classBody ? f.locals->parent : (f.locals.get() != f.globals.get() ? capturedLocals() : Ref<Scope>());
  fn->globals = f.globals;
  fn->definingClass = f.function ? f.function->definingClass : nullptr;
  Value v = fn;
  for (size_t i = def.decorators.size(); i-- > 0;) {
    in.span_ = def.decorators[i]->span;
    Value args[] = {v};
    v = in.call(decorators[i], args);
  }
  return v;
}

void Evaluator::annotatedAssign(const Assign &a) {
  if (a.value) assign(*a.targets[0], eval(*a.value));
  Value ann = eval(*a.annotation);
  auto *name = llvm::dyn_cast<Name>(a.targets[0].get());
  if (!name) return;
  auto it = f.locals->vars.find("__annotations__");
  if (it == f.locals->vars.end() || !it->second.as<DictObject>()) {
    store("__annotations__", Value(make<DictObject>()));
    it = f.locals->vars.find("__annotations__");
  }
  in.span_ = a.span;
  it->second.as<DictObject>()->set(in, in.str(name->id), ann);
}

void Evaluator::unbindHandlerName(const std::string &name) {
  if (f.code && !f.classBody) {
    if (auto s = f.code->slotOf.find(name); s != f.code->slotOf.end()) {
      Value *&p = f.slot(s->second);
      bool inFlat = p && f.flat && p >= f.flatValues && p < f.flatValues + f.code->localNames.size();
      if (inFlat) *p = Value();
      p = nullptr;
      if (!inFlat) f.locals->vars.erase(name);
      return;
    }
    if (f.code->globals.count(name)) {
      f.globals->vars.erase(name);
      return;
    }
    if (f.code->nonlocals.count(name)) {
      for (Scope *s = f.locals->parent.get(); s; s = s->parent.get())
        if (s->vars.erase(name)) return;
      return;
    }
  }
  f.locals->vars.erase(name);
}

Flow Evaluator::execTry(const Try &t) {
  Flow result = Flow::Normal;
  bool pending = false;
  PyException pendingExc;
  bool bodyDone = false;
  try {
    result = execBody(t.body);
    bodyDone = true;
    if (result == Flow::Normal) result = execBody(t.orelse);
  } catch (PyException &e) {
    bool handled = false;
    // The else block's exceptions are not the handlers' (CPython).
    for (size_t hi = 0; hi < (bodyDone ? 0 : t.handlers.size()); ++hi) {
      const auto &h = t.handlers[hi];
      bool match = !h.type;
      if (h.type) {
        Value tv = eval(*h.type);
        std::vector<Value> types = tv.as<TupleObject>() ? tv.as<TupleObject>()->items : std::vector<Value>{tv};
        for (auto &ty : types)
          if (auto *c = ty.as<ClassObject>(); c && in.isInstance(e.exc, c)) match = true;
      }
      if (!match) continue;
      handled = true;
      recordTraceback(e, in.callStack());
      if (!h.name.empty()) store(h.name, e.exc);
      handledExceptions().push_back(e);
      try {
        result = execBody(h.body);
      } catch (...) {
        handledExceptions().pop_back();
        if (!h.name.empty()) unbindHandlerName(h.name);
        if (!t.finalbody.empty()) {
          Flow ff = execBody(t.finalbody);
          if (ff != Flow::Normal) return ff;
        }
        throw;
      }
      handledExceptions().pop_back();
      if (!h.name.empty()) unbindHandlerName(h.name);
      break;
    }
    if (!handled) {
      pending = true;
      pendingExc = e;
    }
  }
  if (!t.finalbody.empty()) {
    Value saved = f.retval;
    Flow ff = execBody(t.finalbody);
    if (ff != Flow::Normal) return ff;  // return/break in finally discards the exception
    f.retval = saved;
  }
  if (pending) throw pendingExc;
  return result;
}

Flow Evaluator::execWith(const With &w, size_t item) {
  if (item == w.items.size()) return execBody(w.body);
  const WithItem &it = w.items[item];
  Value mgr = eval(*it.context);
  in.span_ = it.context->span;
  Value entered;
  Value exitFn;
  if (auto *o = mgr.obj(); o && !mgr.as<InstanceObject>()) {
    auto v = o->enter(in);
    if (!v) in.raise("TypeError", fmt::format("'{}' object does not support the context manager protocol", in.typeName(mgr)));
    entered = *v;
  } else {
    // CPython 3.11 looks both up on the type before calling either.
    auto *inst = mgr.as<InstanceObject>();
    if (inst && !inst->klass->lookup("__enter__"))
      in.raise("TypeError", fmt::format("'{}' object does not support the context manager protocol", in.typeName(mgr)));
    if (inst && !inst->klass->lookup("__exit__"))
      in.raise("TypeError", fmt::format(
                                "'{}' object does not support the context manager protocol (missed __exit__ method)",
                                in.typeName(mgr)));
    Value enter = in.getAttr(mgr, "__enter__");
    exitFn = in.getAttr(mgr, "__exit__");
    entered = in.call(enter, {});
  }
  if (it.target) assign(*it.target, entered);
  auto doExit = [&](bool raised, const PyException *e) -> bool {
    if (exitFn.isNone()) return mgr.obj()->exit(in, raised);
    // CPython calls __exit__ from the `with` line, with the exception (if
    // any) being handled: its traceback is the third argument,
    // sys.exc_info() and traceback.format_exc() see it, and an exception
    // __exit__ raises has it as __context__.
    in.span_ = w.span;
    Value args[3];
    if (!raised) return in.truth(in.call(exitFn, args));
    recordTraceback(*e, in.callStack());
    args[0] = in.typeOf(e->exc);
    args[1] = e->exc;
    if (auto *inst = e->exc.as<InstanceObject>())
      if (auto tb = inst->attrs.find("__traceback__"); tb != inst->attrs.end()) args[2] = tb->second;
    handledExceptions().push_back(*e);
    bool suppress;
    try {
      suppress = in.truth(in.call(exitFn, args));
    } catch (...) {
      handledExceptions().pop_back();
      throw;
    }
    handledExceptions().pop_back();
    return suppress;
  };
  Flow fl;
  try {
    fl = execWith(w, item + 1);
  } catch (PyException &e) {
    if (doExit(true, &e)) return Flow::Normal;
    throw;
  }
  doExit(false, nullptr);
  return fl;
}

void Evaluator::doImport(const Stmt &s) {
  in.span_ = s.span;
  if (auto *im = llvm::dyn_cast<Import>(&s)) {
    for (const auto &a : im->names) {
      in.span_ = a.span;
      Value mod = in.importModule(a.name);
      if (!a.asname.empty()) {
        store(a.asname, mod);
      } else {
        std::string top = a.name.substr(0, a.name.find('.'));
        store(top, in.importModule(top));
      }
    }
    return;
  }
  auto &im = static_cast<const ImportFrom &>(s);
  std::string module = absoluteImportName(im);
  Value mod = in.importModule(module);
  for (const auto &a : im.names) {
    in.span_ = a.span;
    if (a.name == "*") {
      for (const auto &n : in.starImportNames(mod)) store(n, in.getAttr(mod, n));
      continue;
    }
    // A module-level __getattr__ raising AttributeError means the name is
    // absent (CPython's from-import catches it), not an error to report.
    std::optional<Value> v;
    try {
      v = in.getAttrOpt(mod, a.name);
    } catch (PyException &e) {
      auto *inst = e.exc.as<InstanceObject>();
      if (!inst || !inst->klass->isSubclassOf(in.exceptionClass("AttributeError").get())) throw;
    }
    if (!v) {
      // A submodule not imported yet; only its absence is "cannot import
      // name" (an error inside it propagates).
      std::string sub = module + "." + a.name;
      try {
        v = in.importModule(sub);
      } catch (PyException &e) {
        auto *inst = e.exc.as<InstanceObject>();
        auto missing = inst ? inst->attrs.find("name") : decltype(inst->attrs)::iterator();
        auto *missingName = inst && missing != inst->attrs.end() ? missing->second.as<StrObject>() : nullptr;
        if (!inst || inst->klass->name != "ModuleNotFoundError" || !missingName || missingName->s != sub) throw;
        // The module's own __file__ (its __getattr__ is not asked).
        std::optional<Value> file;
        if (auto *m = mod.as<ModuleObject>()) {
          auto it = m->scope->vars.find("__file__");
          if (it != m->scope->vars.end()) file = it->second;
        } else {
          file = in.getAttrOpt(mod, "__file__");
        }
        auto *fileName = file ? file->as<StrObject>() : nullptr;
        // CPython names the module by its __name__ (os.path is 'posixpath').
        std::string modName = module;
        if (auto *m = mod.as<ModuleObject>()) {
          auto it = m->scope->vars.find("__name__");
          if (it != m->scope->vars.end() && it->second.as<StrObject>()) modName = it->second.as<StrObject>()->s;
        }
        in.span_ = a.span;
        Value err = in.newException(in.exceptionClass("ImportError"),
                                    fmt::format("cannot import name '{}' from '{}' ({})", a.name, modName,
                                                fileName ? fileName->s : "unknown location"));
        // CPython's ImportError.name / .path: the module and its file.
        err.as<InstanceObject>()->set("name", in.str(modName));
        err.as<InstanceObject>()->set("path", fileName ? Value(in.str(fileName->s)) : Value());
        in.raiseValue(err);
      }
    }
    store(a.asname.empty() ? a.name : a.asname, *v);
  }
}

std::string Evaluator::absoluteImportName(const ImportFrom &im) {
  if (im.level == 0) return im.module;
  auto it = f.globals->vars.find("__package__");
  auto *package = it == f.globals->vars.end() ? nullptr : it->second.as<StrObject>();
  if (!package || package->s.empty()) in.raise("ImportError", "attempted relative import with no known parent package");
  std::string base = package->s;
  for (int i = 1; i < im.level; ++i) {
    size_t dot = base.rfind('.');
    if (dot == std::string::npos) in.raise("ImportError", "attempted relative import beyond top-level package");
    base.resize(dot);
  }
  return im.module.empty() ? base : base + "." + im.module;
}

Flow Evaluator::exec(const Stmt &s) {
  if (in.hasPendingCloses()) [[unlikely]] in.runPendingCloses();
  in.span_ = s.span;
  in.step();
  switch (s.kind) {
  case StmtKind::ExprStmt: eval(*static_cast<const ExprStmt &>(s).value); return Flow::Normal;
  case StmtKind::Assign: {
    auto &a = static_cast<const Assign &>(s);
    if (a.annotation) [[unlikely]] {
      annotatedAssign(a);
      return Flow::Normal;
    }
    if (a.targets.size() == 1) [[likely]] {
      if (Value *p = boundSlot(*a.targets[0])) {
        if (PureNumber r = number(*a.value)) {
          storeNumber(p, r);
          return Flow::Normal;
        }
      }
    }
    Value v = eval(*a.value);
    if (a.targets.size() == 1) [[likely]] {
      if (Value *p = boundSlot(*a.targets[0])) {
        *p = std::move(v);
        return Flow::Normal;
      }
    }
    for (const auto &t : a.targets) assign(*t, v);
    return Flow::Normal;
  }
  case StmtKind::AugAssign: {
    auto &a = static_cast<const AugAssign &>(s);
    if (a.target->kind == ExprKind::Subscript || a.target->kind == ExprKind::Attribute) return augAssignPart(a);
    if (Value *p = boundSlot(*a.target))
      if (PureNumber cur = PureNumber::of(*p))
        if (PureNumber r = number(*a.value))
          if (PureNumber v = pureBinary(a.op, cur, r)) {
            storeNumber(p, v);
            return Flow::Normal;
          }
    Value cur = operand(*a.target);
    Value rhs = operand(*a.value);
    int64_t fast;
    if (cur.isInt() && rhs.isInt() && fastIntBinary(a.op, cur.asInt(), rhs.asInt(), fast)) {
      if (Value *p = boundSlot(*a.target)) *p = Value::integer(fast);
      else assign(*a.target, Value::integer(fast));
      return Flow::Normal;
    }
    in.span_ = s.span;
    assign(*a.target, augmented(a, cur, rhs));
    return Flow::Normal;
  }
  case StmtKind::Return: {
    auto &r = static_cast<const Return &>(s);
    f.retval = r.value ? operand(*r.value) : Value();
    return Flow::Return;
  }
  case StmtKind::If: {
    auto &i = static_cast<const If &>(s);
    return test(*i.test) ? execBlock(i.body) : execBlock(i.orelse);
  }
  case StmtKind::While: {
    auto &w = static_cast<const While &>(s);
    for (;;) {
      if (!test(*w.test)) break;
      Flow fl = execBlock(w.body);
      if (fl == Flow::Break) return Flow::Normal;
      if (fl == Flow::Return) return fl;
      in.step();
    }
    return execBody(w.orelse);
  }
  case StmtKind::For: {
    auto &fo = static_cast<const For &>(s);
    Value iterable = eval(*fo.iter);
    in.span_ = fo.iter->span;
    // range and list without an iterator object (a list is read by index,
    // its length checked each time, as CPython's list iterator does).
    if (auto *r = iterable.as<RangeObject>())
      return forEach(fo, [&, i = int64_t(0), n = r->size()](Value &item) mutable {
        if (i == n) return false;
        item = Value::integer(int64_t(r->start + __int128(i++) * r->step));  // an element: fits
        return true;
      });
    if (auto *l = iterable.as<ListObject>())
      return forEach(fo, [&, i = size_t(0)](Value &item) mutable {
        if (i >= l->items.size()) return false;
        item = l->items[i++];
        return true;
      });
    Value it = in.iter(iterable);
    for (;;) {
      in.span_ = fo.iter->span;
      auto item = in.next(it);
      if (!item) break;
      assign(*fo.target, *item);
      Flow fl = execBlock(fo.body);
      if (fl == Flow::Break) return Flow::Normal;
      if (fl == Flow::Return) return fl;
      in.step();
    }
    return execBody(fo.orelse);
  }
  case StmtKind::Break: return Flow::Break;
  case StmtKind::Continue: return Flow::Continue;
  case StmtKind::Pass: return Flow::Normal;
  default: return execGeneral(s);
  }
}

// `obj[i] op= y` and `obj.a op= y`: the object and the index are evaluated
// once, as CPython does (`x[f()] += 1` calls f once), then read, combined and
// written back through the same object and index.
Flow Evaluator::augAssignPart(const AugAssign &a) {
  if (a.target->kind == ExprKind::Subscript) {
    auto &t = static_cast<const Subscript &>(*a.target);
    Value base = eval(*t.value);
    Value idx = eval(*t.index);
    in.span_ = t.span;
    Value cur = in.getItem(base, idx);
    Value rhs = eval(*a.value);
    in.span_ = a.span;
    Value result = augmented(a, cur, rhs);
    in.span_ = t.span;
    in.setItem(base, idx, result);
    return Flow::Normal;
  }
  auto &t = static_cast<const Attribute &>(*a.target);
  Value base = eval(*t.value);
  in.span_ = t.span;
  Value cur = in.getAttr(base, t.attr);
  Value rhs = eval(*a.value);
  in.span_ = a.span;
  Value result = augmented(a, cur, rhs);
  in.span_ = t.span;
  in.setAttr(base, t.attr, result);
  return Flow::Normal;
}

// `x op= y` other than int arithmetic: the in-place dunder (__iadd__ ...)
// of a user instance or native type, falling back to the binary operator
// when absent or NotImplemented.
Value Evaluator::augmented(const AugAssign &a, const Value &cur, const Value &rhs) {
  static const char *const inplaceNames[] = {"__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__",
                                             "__imod__", "__ipow__", "__imatmul__", "__ilshift__", "__irshift__",
                                             "__iand__", "__ior__", "__ixor__"};
  if (auto *inst = cur.as<InstanceObject>()) {
    if (auto m = inst->klass->lookup(inplaceNames[size_t(astBinOp(a.op))])) {
      Value r = in.call(Value(make<BoundMethod>(cur, *m)), std::vector<Value>{rhs});
      if (!r.is(in.builtin("NotImplemented"))) return r;
    }
  } else if (Object *o = cur.obj()) {
    // Native types with in-place operators (numpy arrays: `w -= lr * g`
    // changes w itself, so every name bound to it sees the update).
    if (auto m = o->getAttr(in, inplaceNames[size_t(astBinOp(a.op))])) {
      Value r = in.call(*m, std::vector<Value>{rhs});
      if (!r.is(in.builtin("NotImplemented"))) return r;
    }
  }
  // set |= &= -= ^= another set change the set itself (CPython's set_ior ...).
  if (auto *st = cur.as<SetObject>(); st && !st->frozen && setInPlace(in, astBinOp(a.op), *st, rhs)) return cur;
  // dict |= takes what dict.update takes (CPython's dict_ior), pairs included.
  if (auto *d = cur.as<DictObject>(); d && a.op == BinOpKind::BitOr) {
    dictUpdateFrom(in, *d, rhs);
    return cur;
  }
  if (auto *l = cur.as<ListObject>(); l && a.op == BinOpKind::Add) {
    for (auto &x : in.toList(rhs)) l->items.push_back(x);
    return cur;
  }
  if (auto *l = cur.as<ListObject>(); l && a.op == BinOpKind::Mul && (rhs.isInt() || rhs.isBool() || isNumpyScalar(in, rhs))) {
    // `lst *= n` repeats the list itself (n a numpy integer too: numpy's
    // scalars give way to the repeat; binary() raises for a numpy float).
    Value repeated = in.binary(BinOp::Mul, cur, rhs);
    l->items = repeated.as<ListObject>()->items;
    return cur;
  }
  // bytearray += / *= change the object itself, as CPython's in-place slots do.
  if (auto *ba = cur.as<BytesObject>(); ba && ba->isMutable && (a.op == BinOpKind::Add || a.op == BinOpKind::Mul)) {
    ba->s = in.binary(astBinOp(a.op), cur, rhs, true).as<BytesObject>()->s;
    return cur;
  }
  return in.binary(astBinOp(a.op), cur, rhs, true);
}

Flow Evaluator::execGeneral(const Stmt &s) {
  switch (s.kind) {
  case StmtKind::FunctionDef: {
    auto &d = static_cast<const FunctionDef &>(s);
    store(d.name, defineFunction(d));
    return Flow::Normal;
  }
  case StmtKind::ClassDef: {
    auto &d = static_cast<const ClassDef &>(s);
    store(d.name, defineClass(d));
    return Flow::Normal;
  }
  case StmtKind::With: return execWith(static_cast<const With &>(s), 0);
  case StmtKind::Try: {
    auto &t = static_cast<const Try &>(s);
    return t.isStar ? execTryStar(t) : execTry(t);
  }
  case StmtKind::Match: return execMatch(static_cast<const Match &>(s));
  case StmtKind::Raise: {
    auto &r = static_cast<const Raise &>(s);
    if (!r.exc) {
      if (handledExceptions().empty()) in.raise("RuntimeError", "No active exception to reraise");
      throw handledExceptions().back();
    }
    Value e = eval(*r.exc);
    in.span_ = s.span;
    if (e.as<ClassObject>()) e = in.call(e, {});
    if (!e.as<InstanceObject>() || !e.as<InstanceObject>()->klass->isException)
      in.raise("TypeError", "exceptions must derive from BaseException");
    auto *inst = e.as<InstanceObject>();
    if (r.cause) {
      Value c = eval(*r.cause);
      in.span_ = s.span;
      if (c.as<ClassObject>()) c = in.call(c, {});
      inst->attrs["__cause__"] = c;
      inst->attrs["__suppress_context__"] = Value::boolean(true);  // `raise X from Y`, also `from None`
    } else if (!inst->attrs.count("__cause__")) {
      inst->attrs["__cause__"] = Value();
    }
    if (!handledExceptions().empty() && !inst->attrs.count("__context__"))
      inst->attrs["__context__"] = handledExceptions().back().exc;
    in.raiseValue(e);
  }
  case StmtKind::Assert: {
    auto &a = static_cast<const Assert &>(s);
    Value t = eval(*a.test);
    in.span_ = s.span;
    if (!in.truth(t)) {
      std::string msg = a.msg ? in.str(eval(*a.msg)) : "";
      in.span_ = s.span;
      in.raise("AssertionError", msg);
    }
    return Flow::Normal;
  }
  case StmtKind::Import:
  case StmtKind::ImportFrom: doImport(s); return Flow::Normal;
  case StmtKind::Global:
  case StmtKind::Nonlocal: return Flow::Normal;
  case StmtKind::Delete:
    for (const auto &t : static_cast<const Delete &>(s).targets) del(*t);
    return Flow::Normal;
  default: break;  // exec() runs the others
  }
  return Flow::Normal;
}

}  // namespace tfs::runtime
