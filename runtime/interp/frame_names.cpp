// The built-ins that read the calling frame: locals(), globals(), and
// vars() / dir() without an argument, with CPython 3.11's semantics.
// - globals(): the module's namespace, live (a name bound through it is a
//   global that later code reads).
// - locals() at module level is globals(); in a class body it is the class
//   namespace, live; in a function it is the frame's one locals dict,
//   refreshed from the locals at each call (writes to it do not change the
//   variables), listing the bound locals in CPython's order (co_varnames,
//   then cell variables, then free variables, each bound one).
// They are recognised at the call site (Evaluator::callFrameBuiltin); the
// same built-ins called another way (`f = locals; f()`) cannot see a frame
// and say so.
#include "runtime/interp/builtins.h"
#include "runtime/interp/eval.h"
#include "runtime/interp/function_code.h"
#include "runtime/interp/keyword_rules.h"
#include "runtime/interp/signature.h"
#include "runtime/interp/suggestions.h"

#include <fmt/format.h>

#include <set>

namespace tfs::runtime {

using namespace tfs::ast;

// --- CPython's order of a function's local names ----------------------------------

struct LocalsLayout {
  std::vector<int32_t> slots;           // the locals' slots, in locals() order
  std::vector<std::string> freeNames;   // names from enclosing functions, sorted
};

namespace {

// The names one scope (a function body, lambda, comprehension or class
// body) binds and uses, the ones it uses first first, as CPython's compiler
// meets them; and the free names of the scopes nested in it.
struct ScopeNames {
  std::vector<std::string> order;          // every name used here, first use first
  std::set<std::string> used, stored, declaredGlobal, declaredNonlocal;
  std::set<std::string> nestedFree;        // free names of nested scopes

  void use(const std::string &n, bool store) {
    if (used.insert(n).second) order.push_back(n);
    if (store) stored.insert(n);
  }
  // The names this scope takes from outside: used here or by a nested
  // scope, and neither bound here nor declared global.
  std::set<std::string> freeNames(const std::set<std::string> &params) const {
    std::set<std::string> out;
    auto add = [&](const std::string &n) {
      bool local = (stored.count(n) || params.count(n)) && !declaredNonlocal.count(n) && !declaredGlobal.count(n);
      if (!local && !declaredGlobal.count(n)) out.insert(n);
    };
    for (const auto &n : used) add(n);
    for (const auto &n : nestedFree) add(n);
    return out;
  }
  void nested(const std::set<std::string> &free) { nestedFree.insert(free.begin(), free.end()); }

  void target(const Expr *e) { expr(e, true); }
  void expr(const Expr *e, bool store = false) {
    if (!e) return;
    switch (e->kind) {
    case ExprKind::Name: use(static_cast<const Name *>(e)->id, store); break;
    case ExprKind::Constant: break;
    case ExprKind::FString:
      for (const auto &p : static_cast<const FString *>(e)->parts)
        if (p.value) {
          expr(p.value->value.get());
          expr(p.value->formatSpec.get());
        }
      break;
    case ExprKind::BinOp: {
      auto *b = static_cast<const ast::BinOp *>(e);
      expr(b->lhs.get());
      expr(b->rhs.get());
      break;
    }
    case ExprKind::UnaryOp: expr(static_cast<const ast::UnaryOp *>(e)->operand.get()); break;
    case ExprKind::BoolOp:
      for (const auto &v : static_cast<const BoolOp *>(e)->values) expr(v.get());
      break;
    case ExprKind::Compare: {
      auto *c = static_cast<const Compare *>(e);
      expr(c->left.get());
      for (const auto &v : c->comparators) expr(v.get());
      break;
    }
    case ExprKind::Call: {
      auto *c = static_cast<const Call *>(e);
      expr(c->func.get());
      for (const auto &a : c->args) expr(a.get());
      for (const auto &k : c->keywords) expr(k.value.get());
      break;
    }
    case ExprKind::Attribute: expr(static_cast<const Attribute *>(e)->value.get()); break;
    case ExprKind::Subscript: {
      auto *s = static_cast<const Subscript *>(e);
      expr(s->value.get());
      expr(s->index.get());
      break;
    }
    case ExprKind::Slice: {
      auto *s = static_cast<const Slice *>(e);
      expr(s->lower.get());
      expr(s->upper.get());
      expr(s->step.get());
      break;
    }
    case ExprKind::List:
    case ExprKind::Tuple:
    case ExprKind::Set:
      for (const auto &x : static_cast<const Sequence *>(e)->elts) expr(x.get(), store);
      break;
    case ExprKind::Dict: {
      auto *d = static_cast<const Dict *>(e);
      for (size_t i = 0; i < d->values.size(); ++i) {
        if (i < d->keys.size()) expr(d->keys[i].get());
        expr(d->values[i].get());
      }
      break;
    }
    case ExprKind::Comprehension: {
      // The first iterable here; the rest is the comprehension's own scope.
      auto *c = static_cast<const Comprehension *>(e);
      expr(c->generators[0].iter.get());
      ScopeNames inner;
      for (size_t i = 0; i < c->generators.size(); ++i) {
        if (i) inner.expr(c->generators[i].iter.get());
        inner.target(c->generators[i].target.get());
        for (const auto &cond : c->generators[i].ifs) inner.expr(cond.get());
      }
      inner.expr(c->elt.get());
      inner.expr(c->value.get());
      nested(inner.freeNames({}));
      break;
    }
    case ExprKind::Lambda: {
      auto *l = static_cast<const Lambda *>(e);
      std::set<std::string> params;
      for (const auto &p : l->params) {
        expr(p.defaultValue.get());
        params.insert(p.name);
      }
      ScopeNames inner;
      inner.expr(l->body.get());
      nested(inner.freeNames(params));
      break;
    }
    case ExprKind::IfExp: {
      auto *i = static_cast<const IfExp *>(e);
      expr(i->test.get());
      expr(i->body.get());
      expr(i->orelse.get());
      break;
    }
    case ExprKind::Starred: expr(static_cast<const Starred *>(e)->value.get(), store); break;
    case ExprKind::Yield:
    case ExprKind::YieldFrom: expr(static_cast<const Yield *>(e)->value.get()); break;
    case ExprKind::NamedExpr: {
      // Inside a comprehension the target belongs to the enclosing scope
      // (CPython); the comprehension case above then sees it as free there.
      auto *n = static_cast<const NamedExpr *>(e);
      expr(n->value.get());
      expr(n->target.get(), true);
      break;
    }
    }
  }

  void body(const Body &b) {
    for (const auto &s : b) stmt(*s);
  }
  void stmt(const Stmt &s) {
    switch (s.kind) {
    case StmtKind::FunctionDef: {
      auto &d = static_cast<const FunctionDef &>(s);
      for (const auto &x : d.decorators) expr(x.get());
      std::set<std::string> params;
      for (const auto &p : d.params) {
        expr(p.defaultValue.get());
        params.insert(p.name);
      }
      // Annotations are evaluated in the defining scope, like defaults.
      for (const auto &p : d.params) expr(p.annotation.get());
      expr(d.returns.get());
      ScopeNames inner;
      inner.body(d.body);
      nested(inner.freeNames(params));
      use(d.name, true);
      break;
    }
    case StmtKind::ClassDef: {
      auto &d = static_cast<const ClassDef &>(s);
      for (const auto &x : d.decorators) expr(x.get());
      for (const auto &x : d.bases) expr(x.get());
      for (const auto &k : d.keywords) expr(k.value.get());
      ScopeNames inner;
      inner.body(d.body);
      nested(inner.freeNames({}));
      use(d.name, true);
      break;
    }
    case StmtKind::Return: expr(static_cast<const Return &>(s).value.get()); break;
    case StmtKind::Assign: {
      // The value first; a local's annotation is not evaluated (the
      // builder keeps one only at module and class level).
      auto &a = static_cast<const Assign &>(s);
      expr(a.value.get());
      expr(a.annotation.get());
      for (const auto &t : a.targets) target(t.get());
      break;
    }
    case StmtKind::AugAssign: {
      auto &a = static_cast<const AugAssign &>(s);
      target(a.target.get());
      expr(a.value.get());
      break;
    }
    case StmtKind::ExprStmt: expr(static_cast<const ExprStmt &>(s).value.get()); break;
    case StmtKind::If: {
      auto &i = static_cast<const If &>(s);
      expr(i.test.get());
      body(i.body);
      body(i.orelse);
      break;
    }
    case StmtKind::While: {
      auto &w = static_cast<const While &>(s);
      expr(w.test.get());
      body(w.body);
      body(w.orelse);
      break;
    }
    case StmtKind::For: {
      auto &fo = static_cast<const For &>(s);
      expr(fo.iter.get());
      target(fo.target.get());
      body(fo.body);
      body(fo.orelse);
      break;
    }
    case StmtKind::With: {
      auto &w = static_cast<const With &>(s);
      for (const auto &item : w.items) {
        expr(item.context.get());
        target(item.target.get());
      }
      body(w.body);
      break;
    }
    case StmtKind::Try: {
      // CPython compiles the body, the else block, the handlers, finally.
      auto &t = static_cast<const Try &>(s);
      body(t.body);
      body(t.orelse);
      for (const auto &h : t.handlers) {
        expr(h.type.get());
        if (!h.name.empty()) use(h.name, true);
        body(h.body);
      }
      body(t.finalbody);
      break;
    }
    case StmtKind::Raise: {
      auto &r = static_cast<const Raise &>(s);
      expr(r.exc.get());
      expr(r.cause.get());
      break;
    }
    case StmtKind::Assert: {
      auto &a = static_cast<const Assert &>(s);
      expr(a.test.get());
      expr(a.msg.get());
      break;
    }
    case StmtKind::Import:
      for (const auto &a : static_cast<const Import &>(s).names)
        use(a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname, true);
      break;
    case StmtKind::ImportFrom:
      for (const auto &a : static_cast<const ImportFrom &>(s).names)
        if (a.name != "*") use(a.asname.empty() ? a.name : a.asname, true);
      break;
    case StmtKind::Global:
      for (const auto &n : static_cast<const ScopeDecl &>(s).names) declaredGlobal.insert(n);
      break;
    case StmtKind::Nonlocal:
      for (const auto &n : static_cast<const ScopeDecl &>(s).names) declaredNonlocal.insert(n);
      break;
    case StmtKind::Delete:
      for (const auto &t : static_cast<const Delete &>(s).targets) target(t.get());
      break;
    case StmtKind::Match: {
      // The subject, then each case's pattern (values read, captures
      // bound, in source order), guard and body.
      auto &m = static_cast<const Match &>(s);
      expr(m.subject.get());
      for (const auto &c : m.cases) {
        forEachPatternExpr(c.pattern, [&](const Expr &e) {
          if (e.kind == ExprKind::Name && static_cast<const Name &>(e).ctx == Ctx::Store) target(&e);
          else expr(&e);
        });
        expr(c.guard.get());
        body(c.body);
      }
      break;
    }
    case StmtKind::Break:
    case StmtKind::Continue:
    case StmtKind::Pass: break;
    }
  }
};

// co_varnames' parameter order: positional, keyword-only, *args, **kwargs.
std::vector<const Param *> parametersInVarnamesOrder(const std::vector<Param> &params) {
  std::vector<const Param *> out;
  for (auto kind : {Param::Kind::Positional, Param::Kind::KeywordOnly, Param::Kind::VarArgs, Param::Kind::VarKeywords})
    for (const auto &p : params)
      if (p.kind == kind) out.push_back(&p);
  return out;
}

LocalsLayout layoutOf(const CodeInfo &code, const std::vector<Param> &params, const Body *body, const Expr *lambdaBody) {
  ScopeNames names;
  std::set<std::string> paramNames;
  for (const auto &p : params) paramNames.insert(p.name);
  if (body) names.body(*body);
  if (lambdaBody) names.expr(lambdaBody);
  LocalsLayout layout;
  std::vector<bool> listed(code.localNames.size());
  auto add = [&](const std::string &name) {
    auto it = code.slotOf.find(name);
    if (it == code.slotOf.end() || listed[size_t(it->second)]) return;
    listed[size_t(it->second)] = true;
    layout.slots.push_back(it->second);
  };
  // Parameters, then the other locals as first used, then the locals a
  // nested scope uses (cells), sorted; parameters stay in place.
  for (const Param *p : parametersInVarnamesOrder(params)) add(p->name);
  for (const auto &n : names.order)
    if (!names.nestedFree.count(n)) add(n);
  for (const auto &n : names.nestedFree) add(n);
  for (size_t i = 0; i < code.localNames.size(); ++i) add(code.localNames[i]);
  for (const auto &n : names.freeNames(paramNames)) layout.freeNames.push_back(n);
  return layout;
}

const LocalsLayout &layoutFor(const Frame &f) {
  const CodeInfo &code = *f.code;
  if (!code.localsLayout) {
    // The frame runs its function's own code (not a converted body).
    const FunctionObject *fn = f.function;
    bool own = fn && fn->code.get() == &code;
    if (own && fn->def) code.localsLayout = std::make_shared<LocalsLayout>(layoutOf(code, fn->def->params, &fn->def->body, nullptr));
    else if (own && fn->lambda) code.localsLayout = std::make_shared<LocalsLayout>(layoutOf(code, fn->lambda->params, nullptr, fn->lambda->body.get()));
    else code.localsLayout = std::make_shared<LocalsLayout>(layoutOf(code, {}, nullptr, nullptr));
  }
  return *code.localsLayout;
}

}  // namespace

std::vector<std::string> functionVarnames(const FunctionObject &fn) {
  const std::vector<Param> &params = fn.def ? fn.def->params : fn.lambda->params;
  ScopeNames names;
  if (fn.def) names.body(fn.def->body);
  else names.expr(fn.lambda->body.get());
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const Param *p : parametersInVarnamesOrder(params))
    if (seen.insert(p->name).second) out.push_back(p->name);
  // Then the other locals as first met; a local a nested scope uses is a
  // cell variable (co_cellvars), not one of co_varnames.
  for (const auto &n : names.order) {
    if (seen.count(n) || names.nestedFree.count(n)) continue;
    bool local = fn.code ? fn.code->slotOf.count(n) > 0 : names.stored.count(n) > 0;
    if (local && !names.declaredGlobal.count(n) && !names.declaredNonlocal.count(n) && seen.insert(n).second)
      out.push_back(n);
  }
  return out;
}

// --- the built-ins ---------------------------------------------------------------

Value Evaluator::localsValue() {
  bool moduleLevel = f.locals.get() == f.globals.get();
  if (moduleLevel || f.classBody) return scopeDict(in, f.locals);
  if (!f.code)  // a comprehension's or generator expression's own scope
    in.raise("NotImplementedError", "locals(), vars() and dir() inside a comprehension are not supported by tfs");
  if (!f.localsDict) f.localsDict = make<DictObject>();
  DictObject &d = *f.localsDict;
  const LocalsLayout &layout = layoutFor(f);
  auto refresh = [&](const std::string &name, const Value *v) {
    Value key = in.str(name);
    if (v) d.set(in, key, *v);
    else d.erase(in, key);
  };
  for (int32_t slot : layout.slots) {
    const std::string &name = f.code->localNames[size_t(slot)];
    const Value *v = f.slot(slot);
    if (!v)
      if (auto it = f.locals->vars.find(name); it != f.locals->vars.end()) v = &it->second;
    refresh(name, v);
  }
  for (const auto &name : layout.freeNames) {
    const Value *v = nullptr;
    for (Scope *s = f.locals->parent.get(); s && !v; s = s->parent.get())
      if (auto it = s->vars.find(name); it != s->vars.end()) v = &it->second;
    refresh(name, v);
  }
  return Value(f.localsDict);
}

std::optional<Value> Evaluator::callFrameBuiltin(const Value &fn, const std::string &name, const Call &c) {
  if (!fn.is(in.builtin(name))) return std::nullopt;  // rebound: an ordinary call
  in.span_ = c.span;
  if (name == "globals") return scopeDict(in, f.globals);
  Value locals = localsValue();
  if (name != "dir") return locals;  // locals(), vars()
  return in.call(in.builtin("sorted"), Args(&locals, 1));
}

// The built-ins themselves: what a call that is not `name()` gets (vars(x)
// and dir(x) need no frame).
void installFrameBuiltins(Interpreter &in, Scope &b) {
  auto frameless = [](Interpreter &in, const std::string &what) -> Value {
    in.raise("NotImplementedError",
             fmt::format("{} called other than as `{}` in the code it reads is not supported by tfs", what, what));
  };
  b.vars["locals"] = nativeWithSignature(in, "locals()", [frameless](Interpreter &in, const Bound &) {
    return frameless(in, "locals()");
  });
  b.vars["globals"] = nativeWithSignature(in, "globals()", [frameless](Interpreter &in, const Bound &) {
    return frameless(in, "globals()");
  });
  b.vars["vars"] = nativeWithSignature(in, "vars(object=None, /)", [frameless](Interpreter &in, const Bound &a) {
    if (!a.given("object")) return frameless(in, "vars()");
    auto d = in.getAttrOpt(a["object"], "__dict__");
    if (!d) in.raise("TypeError", "vars() argument must have __dict__ attribute");
    return *d;
  });
  // dir(obj): the sorted attribute names of a module, class or instance
  // (a module's lazily attached parts, like tf.keras, are listed once used).
  b.vars["dir"] = nativeWithSignature(in, "dir(object=None, /)", [frameless](Interpreter &in, const Bound &a) {
    if (!a.given("object")) return frameless(in, "dir()");
    // A class's own __dir__ lists the names; dir() sorts them.
    if (auto *inst = a["object"].as<InstanceObject>())
      if (auto m = inst->klass->lookup("__dir__"); m && !m->as<NativeFunction>()) {
        auto names = in.toList(in.call(Value(make<BoundMethod>(a["object"], *m)), {}));
        Value out = in.list(std::move(names));
        Value sorted[] = {out};
        return in.call(in.builtin("sorted"), sorted);
      }
    std::vector<Value> out;
    for (auto &n : attributeNames(in, a["object"])) out.push_back(in.str(n));
    return in.list(std::move(out));
  });
  for (const char *name : {"locals", "globals", "vars", "dir"}) {
    // CPython counts the arguments before binding them, in its own words
    // ("vars expected at most 1 argument, got 2"): keyword_rules.h.
    Value inner = b.vars[name];
    b.vars[name] = in.native(name, [arity = builtinArity(name), inner](Interpreter &in, Args a, const Kwargs &kw) {
      checkBuiltinArity(in, *arity, a.size(), kw.size());
      return in.call(inner, a, kw);
    });
  }
}

void Interpreter::initMainGlobals(Scope &globals, const std::optional<std::string> &file) {
  auto &vars = globals.vars;
  vars.trackOrder();
  vars["__name__"] = str("__main__");
  vars["__doc__"] = Value();
  vars["__package__"] = Value();
  vars["__spec__"] = Value();
  vars["__annotations__"] = Value(make<DictObject>());
  vars["__builtins__"] = importModule("builtins");
  if (file) {
    vars["__file__"] = str(*file);
    vars["__cached__"] = Value();
  }
  // `import __main__` is the script's module, as in CPython: what Keras's
  // Lambda loading resolves a saved lambda's globals in (module "__main__").
  auto main = make<ModuleObject>("__main__");
  main->scope = Ref<Scope>(&globals);
  modules_["__main__"] = Value(main);
}

}  // namespace tfs::runtime
