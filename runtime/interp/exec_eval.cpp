// exec() and eval() of source strings, with CPython 3.11's namespaces:
// - exec(code) / eval(expr) without namespaces run in the calling frame's
//   globals() and locals() (recognised at the call site, eval_call.cpp): at
//   module level the module's namespace, live; in a function a snapshot of
//   its locals, so assignments there do not change the function's variables.
// - A globals dict gets '__builtins__' when it has none; the code runs in a
//   namespace made from the dict, and what it binds, rebinds or deletes is
//   written back to the dict afterwards (also when it raises). globals()
//   itself (a live view of a module) is used as it is.
// - A separate locals mapping makes the code run as a class body runs:
//   assignments go to locals, lookups try locals, then globals, then
//   builtins, and functions defined there do not see the locals.
// Code objects (compile()) are not supported.
#include "runtime/interp/builtins.h"
#include "runtime/interp/eval.h"
#include "frontend/frontend.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {

// The parsed sources stay alive for the run: functions defined by exec'd
// code point into their AST, and diagnostics into their text.
std::vector<std::shared_ptr<const void>> &keptSources() {
  static std::vector<std::shared_ptr<const void>> kept;
  return kept;
}

// A namespace argument as a scope: globals()/locals() views share theirs;
// a plain dict is copied into a new one (synced back by writeBack).
struct Namespace {
  Ref<Scope> scope;
  DictObject *dict = nullptr;  // the plain dict to write back, if any
};

Namespace namespaceOf(Interpreter &in, const Value &v) {
  Namespace ns;
  if (Ref<Scope> s = scopeOfDict(v)) {
    ns.scope = s;
    return ns;
  }
  ns.dict = v.as<DictObject>();
  ns.scope = make<Scope>();
  ns.scope->vars.trackOrder();
  for (auto &[k, val] : ns.dict->items())
    if (auto *s = k.as<StrObject>()) ns.scope->vars[s->s] = val;
  (void)in;
  return ns;
}

void writeBack(Interpreter &in, const Namespace &ns) {
  if (!ns.dict) return;
  for (auto &[k, val] : ns.dict->items())
    if (auto *s = k.as<StrObject>(); s && !ns.scope->vars.contains(s->s)) ns.dict->erase(in, k);
  if (const auto *order = ns.scope->vars.order())
    for (const std::string &name : *order)
      if (auto it = ns.scope->vars.find(name); it != ns.scope->vars.end()) ns.dict->set(in, in.str(name), it->second);
}

bool isNamespaceDict(const Value &v) { return v.as<DictObject>() || scopeOfDict(v); }

}  // namespace

Value runSourceString(Interpreter &in, bool isEval, const Value &source, const Value &globals, const Value &locals) {
  const char *fn = isEval ? "eval" : "exec";
  std::string text;
  if (auto *s = source.as<StrObject>()) text = s->s;
  else if (auto *b = source.as<BytesObject>()) text = b->s;
  else in.raise("TypeError", fmt::format("{}() arg 1 must be a string, bytes or code object", fn));
  if (!globals.isNone() && !isNamespaceDict(globals)) {
    if (isEval)  // CPython's wording depends on whether the object is a mapping (has __getitem__)
      in.raise("TypeError", in.getAttrOpt(globals, "__getitem__") ? "globals must be a real dict; try eval(expr, {}, mapping)"
                                                                  : "globals must be a dict");
    in.raise("TypeError", fmt::format("exec() globals must be a dict, not {}", in.typeName(globals)));
  }
  if (!locals.isNone() && !isNamespaceDict(locals))
    in.raise("NotImplementedError", fmt::format("{}() with a locals mapping of type '{}' is not supported by tfs (a dict is)",
                                                fn, in.typeName(locals)));
  if (isEval) {  // eval ignores leading spaces and tabs
    size_t k = text.find_first_not_of(" \t");
    text = k == std::string::npos ? std::string() : text.substr(k);
  }
  std::shared_ptr<ast::Module> module;
  try {
    module = frontend::parseSource("<string>", text);
  } catch (const frontend::SyntaxErrorException &e) {
    for (auto &f : e.diag.keepAlive) keptSources().push_back(f);
    in.restoreSpan(e.diag.span);
    in.raise("SyntaxError", e.diag.message);
  }
  keptSources().push_back(module);
  const ast::ExprStmt *expr = nullptr;
  if (isEval) {
    if (module->body.size() == 1) expr = llvm::dyn_cast<ast::ExprStmt>(module->body[0].get());
    if (!expr) in.raise("SyntaxError", "invalid syntax");
  }

  Value g = globals.isNone() ? Value(make<DictObject>()) : globals;
  if (auto *d = g.as<DictObject>(); d && !d->get(in, in.str("__builtins__")))
    d->set(in, in.str("__builtins__"), in.importModule("builtins"));
  Namespace gns = namespaceOf(in, g);
  Namespace lns = locals.isNone() || locals.is(g) ? gns : namespaceOf(in, locals);
  Frame frame;
  frame.globals = gns.scope;
  frame.locals = lns.scope;
  frame.classBody = lns.scope.get() != gns.scope.get();
  Evaluator ev{in, frame};
  frontend::SourceSpan callSite = in.currentSpan();
  Value result;
  in.enterFrame(callSite);  // an error in the code names the exec/eval call too
  try {
    if (expr) result = ev.eval(*expr->value);
    else ev.execBody(module->body);
  } catch (...) {
    in.leaveFrame();
    writeBack(in, gns);
    if (lns.scope.get() != gns.scope.get()) writeBack(in, lns);
    throw;
  }
  in.leaveFrame();
  writeBack(in, gns);
  if (lns.scope.get() != gns.scope.get()) writeBack(in, lns);
  in.restoreSpan(callSite);
  return result;
}

void installExecEval(Interpreter &in, Scope &b) {
  auto frameless = [](Interpreter &in, bool isEval, Args a, const Kwargs &kw) -> Value {
    const char *fn = isEval ? "eval" : "exec";
    Value args[3];
    size_t n = a.size();
    if (n > 3) in.raise("TypeError", fmt::format("{} expected at most 3 arguments, got {}", fn, n));
    for (size_t i = 0; i < n; ++i) args[i] = a[i];
    for (const auto &[k, v] : kw) {
      size_t at = k == "globals" ? 1 : k == "locals" ? 2 : 0;
      if (!at) in.raise("TypeError", fmt::format("{}() got an unexpected keyword argument '{}'", fn, k));
      if (at < n) in.raise("TypeError", fmt::format("argument for {}() given by name ('{}') and position ({})", fn, k, at + 1));
      args[at] = v;
    }
    if (n == 0) in.raise("TypeError", fmt::format("{} expected at least 1 argument, got 0", fn));
    if (args[1].isNone() && !args[2].isNone())
      in.raise("NotImplementedError", fmt::format("{}() with locals but globals=None is not supported by tfs", fn));
    if (args[1].isNone() && args[2].isNone())
      // Called other than as `exec(code)` (`f = exec; f(code)`): no frame to read.
      in.raise("NotImplementedError",
               fmt::format("{}() without globals called other than as `{}(...)` in the code it runs is not supported "
                           "by tfs", fn, fn));
    return runSourceString(in, isEval, args[0], args[1], args[2]);
  };
  b.vars["exec"] = in.native("exec", [frameless](Interpreter &in, Args a, const Kwargs &kw) {
    return frameless(in, false, a, kw);
  });
  b.vars["eval"] = in.native("eval", [frameless](Interpreter &in, Args a, const Kwargs &kw) {
    return frameless(in, true, a, kw);
  });
}

}  // namespace tfs::runtime
