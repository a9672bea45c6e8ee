// Calls: binding arguments to a user function's parameters (CPython's
// messages for missing / extra / duplicate arguments), running its body in
// a new scope, bound methods, classes (instantiation via __init__), native
// functions and native objects; recursion limit and call-site tracking.
#include "frontend/positional_only.h"
#include "ir/op_table.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/coroutine.h"
#include "runtime/interp/eval.h"
#include "runtime/interp/generator.h"

#include <llvm/ADT/SmallVector.h>

#include <fmt/format.h>

namespace tfs::runtime {

using namespace tfs::ast;

namespace {
constexpr int kRecursionLimit = 1000;


// Scopes of finished calls that nothing else holds (no closure or
// generator kept them), emptied with their hash table's buckets kept: a
// call takes one instead of allocating a scope and its buckets. The
// interpreter's objects belong to one thread.
std::vector<Ref<Scope>> &scopePool() {
  static thread_local std::vector<Ref<Scope>> pool;
  return pool;
}
Ref<Scope> takeScope() {
  auto &pool = scopePool();
  if (pool.empty()) return make<Scope>();
  Ref<Scope> s = std::move(pool.back());
  pool.pop_back();
  return s;
}
void recycleScope(Ref<Scope> &s) {
  constexpr size_t kMaxPooled = 64;
  if (s->refs != 1 || scopePool().size() >= kMaxPooled) return;
  s->vars.clear();  // nothing to do for a call whose locals were all flat
  s->parent = Ref<Scope>();
  scopePool().push_back(std::move(s));
}
}  // namespace

void Interpreter::enterFrame(const frontend::SourceSpan &site) {
  if (depth_ >= kRecursionLimit || stackNearlyExhausted())
    raise("RecursionError", "maximum recursion depth exceeded");
  ++depth_;
  callStack_.push_back(site);
}

void Interpreter::leaveFrame() {
  --depth_;
  callStack_.pop_back();
}

namespace {
// Where a call's arguments go when every parameter is a plain positional
// one with a slot (CodeInfo::plainParams): positional arguments (self
// first), keywords naming parameters past them, defaults for the rest.
// `from` gets, per parameter, the index of its value in args (self is -1),
// kKeyword + the index of its keyword, or kDefault + the index of its
// default. False for anything else (too many arguments, an unknown or
// repeated keyword, a missing argument): the general binder then raises
// CPython's message for it.
constexpr int32_t kKeyword = 1 << 20, kDefault = 2 << 20;
bool planPlainCall(const std::vector<Param> &params, bool lambda, size_t nargs, bool self, const Kwargs &kwargs,
                   llvm::SmallVectorImpl<int32_t> &from) {
  const size_t n = nargs + (self ? 1 : 0);
  if (n > params.size()) return false;
  from.assign(params.size(), -2);  // -2: not bound yet
  int positionalOnly = -1;          // how many parameters are, once a keyword asks
  for (size_t k = 0; k < n; ++k) from[k] = int32_t(k) - (self ? 1 : 0);
  for (size_t w = 0; w < kwargs.size(); ++w) {
    size_t k = n;
    while (k < params.size() && params[k].name != kwargs[w].first) ++k;
    if (k == params.size() || from[k] != -2) return false;  // unknown, or bound twice
    if (positionalOnly < 0) positionalOnly = frontend::positionalOnlyParams(params, lambda);
    if (int(k) < positionalOnly) return false;  // positional-only: the general binder's error
    from[k] = kKeyword + int32_t(w);
  }
  int32_t d = 0;  // defaults are numbered in parameter order
  for (size_t k = 0; k < params.size(); ++k) {
    if (!params[k].defaultValue) {
      if (from[k] == -2) return false;  // missing
      continue;
    }
    if (from[k] == -2) from[k] = kDefault + d;
    ++d;
  }
  return true;
}

// enterFrame / leaveFrame for the length of a call, inline.
struct FrameGuard {
  Interpreter &in;
  int &depth;
  std::vector<frontend::SourceSpan> &stack;
  [[gnu::always_inline]] FrameGuard(Interpreter &i, int &d, std::vector<frontend::SourceSpan> &s,
                                    const frontend::SourceSpan &site)
      : in(i), depth(d), stack(s) {
    if (depth >= kRecursionLimit || stackNearlyExhausted()) [[unlikely]]
      in.raise("RecursionError", "maximum recursion depth exceeded");
    ++depth;
    stack.push_back(site);
  }
  [[gnu::always_inline]] ~FrameGuard() {
    --depth;
    stack.pop_back();
  }
};
}  // namespace

Value Interpreter::callFunction(FunctionObject &fn, const FunctionDef *def, Args args,
                                const Kwargs &kwargs, const Value *self) {
  const std::vector<Param> &params = def ? def->params : fn.lambda->params;
  // CPython 3.11 names the function by its qualname in binding errors
  // ('P.__init__() takes 2 positional arguments but 4 were given').
  const std::string &name = fn.qualname;
  FrameGuard guard(*this, depth_, callStack_, span_);
  Frame frame;
  frame.locals = takeScope();
  frame.locals->parent = fn.closure;
  frame.globals = fn.globals;
  // The function's own analysis (no shared_ptr copy: its count is atomic),
  // or one of `def` when the call runs another body (converted code).
  std::shared_ptr<CodeInfo> otherCode;
  if (def && def != fn.def) otherCode = analyzeCode(def->params, &def->body, nullptr);
  const CodeInfo *code = otherCode ? otherCode.get() : fn.code.get();
  frame.setCode(code);
  frame.sizeSlots(code->localNames.size());
  frame.function = &fn;
  auto &vars = frame.locals->vars;
  // Locals in an array (a generator's frame outlives this call: by name).
  bool generator = def ? def->isGenerator : fn.lambda->isGenerator;
  FlatLocals flat(generator ? 0 : code->localNames.size());
  if (!generator) {
    frame.flatValues = flat.data();
    frame.flat = true;
  }

  // The common call: positional arguments, one per parameter (nothing for
  // defaults, *args, **kwargs or keyword-only parameters to do), bound
  // straight into the frame's slots.
  if (kwargs.empty() && code->plainParams && args.size() + (self ? 1 : 0) == params.size()) {
    size_t k = 0;
    // Argument k (self first) into its parameter's slot: a plain loop, as a
    // lambda called per argument was not inlined.
    const size_t n = args.size() + (self ? 1 : 0);
    for (; k < n; ++k) {
      const Value &v = self ? (k == 0 ? *self : args[k - 1]) : args[k];
      int32_t slot = code->paramSlots[k];
      if (frame.flat) *(frame.slot(slot) = &frame.flatValues[slot]) = v;
      else frame.slot(slot) = &vars.try_emplace(params[k].name, v).first->second;
    }
    if (self) frame.firstArg = *self;
    else if (!args.empty()) frame.firstArg = args[0];
  } else if (llvm::SmallVector<int32_t, 8> from;
             code->plainParams && frame.flat && planPlainCall(params, def == nullptr, args.size(), self, kwargs, from)) {
    // Keywords and defaults of plain parameters, bound into the slots as
    // the general binder below would bind them, without its hash table.
    for (size_t k = 0; k < params.size(); ++k) {
      int32_t i = from[k];
      const Value &v = i >= kDefault   ? fn.defaults[size_t(i - kDefault)]
                       : i >= kKeyword ? kwargs[size_t(i - kKeyword)].second
                       : i < 0         ? *self
                                       : args[size_t(i)];
      int32_t slot = code->paramSlots[k];
      *(frame.slot(slot) = &frame.flatValues[slot]) = v;
    }
    if (!params.empty()) frame.firstArg = frame.flatValues[code->paramSlots[0]];
  } else {
    // Bind parameters.
    std::vector<Value> all;
    if (self) all.push_back(*self);
    all.insert(all.end(), args.begin(), args.end());
    size_t positional = 0;
    for (const auto &p : params)
      if (p.kind == Param::Kind::Positional) ++positional;
    Ref<TupleObject> varargs;
    Ref<DictObject> varkw;
    for (const auto &p : params) {
      if (p.kind == Param::Kind::VarArgs) varargs = make<TupleObject>();
      if (p.kind == Param::Kind::VarKeywords) varkw = make<DictObject>();
    }
    size_t i = 0, pi = 0;
    for (const auto &p : params) {
      if (p.kind != Param::Kind::Positional) continue;
      if (i < all.size()) vars[p.name] = all[i++];
      ++pi;
    }
    // A keyword naming a positional-only parameter goes to **kwargs, or is
    // CPython's error naming every such keyword.
    const size_t positionalOnly = kwargs.empty() ? 0 : size_t(frontend::positionalOnlyParams(params, def == nullptr));
    auto isPositionalOnly = [&](const std::string &k) {
      for (size_t q = 0; q < positionalOnly; ++q)
        if (params[q].name == k) return true;
      return false;
    };
    std::string byKeyword;
    if (!varkw)
      for (const auto &[k, v] : kwargs)
        if (isPositionalOnly(k)) byKeyword += (byKeyword.empty() ? "" : ", ") + k;
    if (!byKeyword.empty())
      raise("TypeError", fmt::format("{}() got some positional-only arguments passed as keyword arguments: '{}'", name,
                                     byKeyword));
    if (i < all.size()) {
      if (!varargs) {
        size_t withDefault = 0;
        for (const auto &p : params)
          if (p.kind == Param::Kind::Positional && p.defaultValue) ++withDefault;
        std::string takes = withDefault ? fmt::format("from {} to {}", positional - withDefault, positional)
                                        : fmt::format("{}", positional);
        // Keyword-only parameters given by keyword are counted too (CPython's
        // too_many_positional).
        size_t kwonlyGiven = 0;
        for (const auto &p : params)
          if (p.kind == Param::Kind::KeywordOnly)
            for (const auto &kw : kwargs)
              if (kw.first == p.name) ++kwonlyGiven;
        std::string kwonly = kwonlyGiven ? fmt::format(" positional argument{} (and {} keyword-only argument{})",
                                                       all.size() == 1 ? "" : "s", kwonlyGiven,
                                                       kwonlyGiven == 1 ? "" : "s")
                                         : "";
        raise("TypeError", fmt::format("{}() takes {} positional argument{} but {}{} {} given", name, takes,
                                       positional == 1 && !withDefault ? "" : "s", all.size(), kwonly,
                                       all.size() == 1 && !kwonlyGiven ? "was" : "were"));
      }
      for (; i < all.size(); ++i) varargs->items.push_back(all[i]);
    }
    for (const auto &[k, v] : kwargs) {
      bool found = false;
      for (const auto &p : params) {
        if (p.name != k || p.kind == Param::Kind::VarArgs || p.kind == Param::Kind::VarKeywords || isPositionalOnly(k))
          continue;
        if (vars.count(k)) raise("TypeError", fmt::format("{}() got multiple values for argument '{}'", name, k));
        vars[k] = v;
        found = true;
        break;
      }
      if (!found) {
        if (!varkw) raise("TypeError", fmt::format("{}() got an unexpected keyword argument '{}'", name, k));
        varkw->set(*this, str(k), v);
      }
    }
    // Defaults and missing arguments.
    size_t d = 0;
    std::vector<std::string> missing, missingKwonly;
    for (const auto &p : params) {
      if (p.kind == Param::Kind::VarArgs) { vars[p.name] = varargs; continue; }
      if (p.kind == Param::Kind::VarKeywords) { vars[p.name] = varkw; continue; }
      if (p.defaultValue) {
        if (!vars.count(p.name)) vars[p.name] = fn.defaults[d];
        ++d;
      } else if (!vars.count(p.name)) {
        (p.kind == Param::Kind::KeywordOnly ? missingKwonly : missing).push_back(p.name);
      }
    }
    // CPython reports missing positional arguments first, then keyword-only ones.
    const char *missingKind = "positional";
    if (missing.empty() && !missingKwonly.empty()) {
      missing = std::move(missingKwonly);
      missingKind = "keyword-only";
    }
    if (!missing.empty()) {
      std::string list;
      for (size_t k = 0; k < missing.size(); ++k) {
        if (k) list += k + 1 == missing.size() ? (missing.size() > 2 ? ", and " : " and ") : ", ";
        list += "'" + missing[k] + "'";
      }
      raise("TypeError", fmt::format("{}() missing {} required {} argument{}: {}", name, missing.size(), missingKind,
                                     missing.size() == 1 ? "" : "s", list));
    }
    if (!params.empty() && !all.empty()) frame.firstArg = all[0];
    else if (!params.empty() && vars.count(params[0].name)) frame.firstArg = vars[params[0].name];
    // Into the flat locals: while flat, no local is bound by name.
    if (frame.flat)
      for (size_t k = 0; k < params.size(); ++k)
        if (int32_t slot = code->paramSlots[k]; slot >= 0)
          if (auto it = vars.find(params[k].name); it != vars.end()) {
            *(frame.slot(slot) = &frame.flatValues[slot]) = std::move(it->second);
            vars.erase(it);
          }
  }

  if (generator)
    return makeGenerator(*this, fn, def, std::move(frame), otherCode ? std::move(otherCode) : fn.code);
  Evaluator ev{*this, frame};
  Value result;
  if (!def) result = ev.eval(*fn.lambda->body);
  else if (ev.execBody(def->body) == Flow::Return) result = std::move(frame.retval);
  recycleScope(frame.locals);
  return result;
}

// callFunction's first branch without its argument vector: each argument
// is evaluated into the callee's flat locals (no copy, no reference count
// traffic, no vector). Same order of
// effects as evalCall's general path: the arguments left to right, then
// the recursion check; a kernel's error escaping the callee is raised as
// Interpreter::call reports it, after the callee's frame is gone.
Value Evaluator::callPlain(FunctionObject &fn, const Call &c, const Value *self) {
  const CodeInfo *code = fn.code.get();
  const size_t nlocals = code->localNames.size();
  FlatLocals flat(nlocals);
  Value *values = flat.data();
  const size_t first = self ? 1 : 0, nargs = c.args.size() + first;
  if (self) values[code->paramSlots[0]] = *self;
  for (size_t k = first; k < nargs; ++k) values[code->paramSlots[k]] = operand(*c.args[k - first]);
  in.span_ = c.span;
  try {
    FrameGuard guard(in, in.depth_, in.callStack_, in.span_);
    Frame frame;
    frame.locals = takeScope();
    frame.locals->parent = fn.closure;
    frame.globals = fn.globals;
    frame.setCode(code);
    frame.function = &fn;
    frame.flatValues = values;
    frame.flat = true;
    for (size_t k = 0; k < nargs; ++k) {
      int32_t slot = code->paramSlots[k];
      frame.slot(slot) = &values[slot];
    }
    if (nargs) frame.firstArg = values[code->paramSlots[0]];
    Evaluator ev{in, frame};
    Value result;
    if (!fn.def) result = ev.eval(*fn.lambda->body);
    else if (ev.execBody(fn.def->body) == Flow::Return) result = std::move(frame.retval);
    recycleScope(frame.locals);
    return result;
  } catch (const ir::OpError &e) {
    in.raise(e.errorClass, e.message);
  }
}

Value Interpreter::callWithDef(FunctionObject &fn, const FunctionDef &def, Args args, const Kwargs &kwargs) {
  return callFunction(fn, &def, args, kwargs, nullptr);
}

Value Interpreter::makeFunction(const FunctionDef &def, Ref<Scope> closure, Ref<Scope> globals,
                                std::shared_ptr<const void> keepAlive) {
  auto fn = make<FunctionObject>();
  fn->name = fn->qualname = def.name;
  fn->def = &def;
  fn->keepAlive = std::move(keepAlive);
  fn->code = analyzeCode(def.params, &def.body, nullptr);
  fn->closure = std::move(closure);
  fn->globals = std::move(globals);
  return fn;
}

Value Interpreter::call(const Value &f, Args args, const Kwargs &kwargs) {
  // Native code that calls Python (a library prelude's function) and then
  // raises must blame its own call site, not the callee's last line in
  // another file. A callee in the caller's own file leaves its span: the
  // expression it ended on (an AutoGraph loop's condition) is where errors
  // about its result point.
  const frontend::SourceSpan site = span_;
  try {
    Value r = callUnchecked(f, args, kwargs);
    if (span_.file != site.file) span_ = site;
    return r;
  } catch (const MissingArgument &m) {
    // A native callee indexed an argument the caller did not pass.
    std::string name = typeName(f);
    if (auto *nf = f.as<NativeFunction>()) name = nf->name;
    else if (auto *cls = f.as<ClassObject>()) name = cls->name;
    else if (auto *bm = f.as<BoundMethod>(); bm && bm->func.as<NativeFunction>()) name = bm->func.as<NativeFunction>()->name;
    raise("TypeError", fmt::format("{}() missing required argument: expected at least {} positional argument{}, got {}",
                                   name, m.index + 1, m.index == 0 ? "" : "s", args.size()));
  } catch (const ir::OpError &e) {
    // A kernel's or the allocator's error that the callee did not turn into
    // its Python exception: TF's class, raised where the call is, so that
    // `except tf.errors.ResourceExhaustedError` sees it.
    raise(e.errorClass, e.message);
  }
}

Value Interpreter::callUnchecked(const Value &f, Args args, const Kwargs &kwargs) {
  if (auto *fn = f.as<FunctionObject>()) return callFunction(*fn, fn->def, args, kwargs, nullptr);
  if (auto *nf = f.as<NativeFunction>()) return nf->fn(*this, args, kwargs);
  if (auto *bm = f.as<BoundMethod>()) {
    if (auto *fn = bm->func.as<FunctionObject>()) return callFunction(*fn, fn->def, args, kwargs, &bm->self);
    std::vector<Value> all{bm->self};
    all.insert(all.end(), args.begin(), args.end());
    return call(bm->func, all, kwargs);
  }
  if (auto *cls = f.as<ClassObject>()) return instantiate(*this, cls, args, kwargs);
  if (auto *inst = f.as<InstanceObject>()) {
    if (auto c = inst->klass->lookup("__call__")) {
      // A native descriptor (a tf.function-decorated __call__) binds itself,
      // as attribute access would: the instance is not an input.
      if (Object *o = c->obj(); o && !c->as<FunctionObject>() && !c->as<NativeFunction>())
        if (auto b = o->bind(*this, f)) return call(*b, args, kwargs);
      return call(Value(make<BoundMethod>(f, *c)), args, kwargs);
    }
  }
  if (Object *o = f.obj())
    if (auto r = o->call(*this, args, kwargs)) return std::move(*r);
  raise("TypeError", fmt::format("'{}' object is not callable", typeName(f)));
}

std::vector<Value> Interpreter::bindArgs(const std::string &fname, Args args, const Kwargs &kwargs,
                                         const std::vector<std::string> &names,
                                         const std::vector<std::optional<Value>> &defaults) {
  std::vector<std::optional<Value>> out(names.size());
  if (args.size() > names.size())
    raise("TypeError", fmt::format("{}() takes at most {} arguments ({} given)", fname, names.size(), args.size()));
  for (size_t i = 0; i < args.size(); ++i) out[i] = args[i];
  for (const auto &[k, v] : kwargs) {
    size_t i = 0;
    while (i < names.size() && names[i] != k) ++i;
    if (i == names.size()) raise("TypeError", fmt::format("{}() got an unexpected keyword argument '{}'", fname, k));
    if (out[i]) raise("TypeError", fmt::format("{}() got multiple values for argument '{}'", fname, k));
    out[i] = v;
  }
  std::vector<Value> result;
  for (size_t i = 0; i < names.size(); ++i) {
    if (!out[i]) {
      if (i < defaults.size() && defaults[i]) out[i] = *defaults[i];
      else raise("TypeError", fmt::format("{}() missing required argument '{}' (pos {})", fname, names[i], i + 1));
    }
    result.push_back(*out[i]);
  }
  return result;
}

}  // namespace tfs::runtime
