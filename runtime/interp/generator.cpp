// Generators (see generator.h): creation, resume (next/send/throw), yield,
// yield from (PEP 380), close, and the Python-visible methods.
#include "runtime/interp/generator.h"

#include <cstdio>
#include <fmt/format.h>

namespace tfs::runtime {

using namespace tfs::ast;

namespace {

bool isInstanceOf(Interpreter &in, const Value &exc, const char *cls) {
  return in.isInstance(exc, in.exceptionClass(cls).get());
}

// The generator's frame is no longer needed once it has finished: drop its
// locals now, as CPython clears a finished generator's frame.
void finish(GeneratorState &st) {
  st.done = true;
  st.frame = Frame();
  st.handled.clear();
}

// PEP 479: a StopIteration escaping the body becomes RuntimeError, chained,
// raised where the generator was resumed (as CPython reports it).
[[noreturn]] void reraiseFromBody(Interpreter &in, PyException &e) {
  if (!isInstanceOf(in, e.exc, "StopIteration")) throw;
  Value err = in.newException(in.exceptionClass("RuntimeError"), "generator raised StopIteration");
  auto *inst = err.as<InstanceObject>();
  inst->set("__cause__", e.exc);
  inst->set("__context__", e.exc);
  PyException out;
  out.exc = err;
  out.callChain = in.callStack();  // ends with the resume site
  out.span = out.callChain.empty() ? e.span : out.callChain.back();
  if (!out.callChain.empty()) out.callChain.pop_back();
  throw out;
}

std::unique_ptr<GeneratorState> newState(Interpreter &in, std::string name) {
  return std::make_unique<GeneratorState>(in, std::move(name));
}

// StopIteration's value: args[0], or None.
Value stopIterationValue(Interpreter &in, const Value &exc) {
  if (auto *inst = exc.as<InstanceObject>()) {
    auto it = inst->attrs.find("value");
    if (it != inst->attrs.end()) return it->second;
    it = inst->attrs.find("args");
    if (it != inst->attrs.end())
      if (auto *t = it->second.as<TupleObject>(); t && !t->items.empty()) return t->items[0];
  }
  return Value();
}

// The exception `throw(typ[, val])` raises: an instance, or the class called
// with val (CPython's rules and messages).
Value exceptionToThrow(Interpreter &in, const Value &typ, const Value &val) {
  if (auto *cls = typ.as<ClassObject>()) {
    if (!cls->isException)
      in.raise("TypeError", fmt::format("exceptions must be classes or instances deriving from BaseException, not type"));
    if (val.isNone()) return in.call(typ, {});
    if (in.isInstance(val, cls)) return val;
    if (auto *t = val.as<TupleObject>()) return in.call(typ, t->items);
    Value args[] = {val};
    return in.call(typ, args);
  }
  auto *inst = typ.as<InstanceObject>();
  if (!inst || !inst->klass->isException)
    in.raise("TypeError", fmt::format("exceptions must be classes or instances deriving from BaseException, not {}",
                                      in.typeName(typ)));
  if (!val.isNone()) in.raise("TypeError", "instance exception may not have a separate value");
  return typ;
}

}  // namespace

GeneratorState::GeneratorState(Interpreter &i, std::string n)
    : in(i), name(n), qualname(std::move(n)), co([this](Coroutine &) {
        try {
          returnValue = run(*this);
        } catch (PyException &e) {
          reraiseFromBody(in, e);
        }
      }) {}

Value makeGenerator(Interpreter &in, FunctionObject &fn, const FunctionDef *def, Frame frame,
                    std::shared_ptr<CodeInfo> code) {
  auto st = newState(in, fn.name);
  st->qualname = fn.qualname;
  st->function = Ref<FunctionObject>(&fn);
  st->code = std::move(code);
  st->frame = std::move(frame);
  st->frame.setCode(st->code.get());
  st->frame.generator = st.get();
  if (def) {
    st->run = [def](GeneratorState &s) {
      Evaluator ev{s.in, s.frame};
      return ev.execBody(def->body) == Flow::Return ? s.frame.retval : Value();
    };
  } else {
    const Lambda *lambda = fn.lambda;
    st->run = [lambda](GeneratorState &s) {
      Evaluator ev{s.in, s.frame};
      return ev.eval(*lambda->body);
    };
  }
  return make<GeneratorObject>(std::move(st));
}

Value makeGeneratorExpression(Evaluator &outer, const Comprehension &c) {
  Interpreter &in = outer.in;
  // CPython evaluates the outermost iterable, and calls iter() on it, at once.
  Value first = outer.eval(*c.generators[0].iter);
  in.restoreSpan(c.generators[0].iter->span);
  Value firstIter = in.iter(first);
  auto st = newState(in, "<genexpr>");
  st->qualname = "<genexpr>";
  if (outer.f.function) st->function = Ref<FunctionObject>(outer.f.function);
  st->frame.locals = make<Scope>();
  st->frame.locals->parent = outer.comprehensionParent();
  st->frame.globals = outer.f.globals;
  st->frame.function = outer.f.function;
  outer.shareWalrusScope(st->frame);
  st->frame.generator = st.get();
  st->run = [&c, firstIter](GeneratorState &s) {
    Evaluator ev{s.in, s.frame};
    std::function<void(size_t, const Value &)> loop = [&](size_t level, const Value &it) {
      const auto &g = c.generators[level];
      for (;;) {
        s.in.restoreSpan(g.iter->span);
        auto item = s.in.next(it);
        if (!item) return;
        ev.assign(*g.target, *item);
        bool ok = true;
        for (const auto &cond : g.ifs)
          if (!s.in.truth(ev.eval(*cond))) {
            ok = false;
            break;
          }
        if (!ok) continue;
        if (level + 1 == c.generators.size()) {
          generatorYield(s, ev.eval(*c.elt), c.elt->span);
        } else {
          const auto &inner = c.generators[level + 1];
          Value v = ev.eval(*inner.iter);
          s.in.restoreSpan(inner.iter->span);
          loop(level + 1, s.in.iter(v));
        }
      }
    };
    loop(0, firstIter);
    return Value();
  };
  return make<GeneratorObject>(std::move(st));
}

std::optional<Value> resumeGenerator(GeneratorState &st, Value send, std::optional<PyException> thrown) {
  Interpreter &in = st.in;
  if (st.co.running()) in.raise("ValueError", "generator already executing");
  if (st.done) {
    if (thrown) throw *thrown;
    return std::nullopt;
  }
  if (!st.co.started()) {
    if (thrown) {
      // Thrown into a generator that never ran: raised at once, it is done.
      finish(st);
      throw *thrown;
    }
    if (!send.isNone()) in.raise("TypeError", "can't send non-None value to a just-started generator");
    if (Coroutine::liveStacks() >= Coroutine::kMaxLiveStacks)
      in.raise("MemoryError", fmt::format("too many suspended generators (tfs runs at most {} at once)",
                                          Coroutine::kMaxLiveStacks));
  }
  st.transfer = std::move(send);
  st.pendingThrow = std::move(thrown);
  auto &handled = handledExceptions();
  size_t base = handled.size();
  for (auto &h : st.handled) handled.push_back(std::move(h));
  st.handled.clear();
  frontend::SourceSpan site = in.currentSpan();
  in.enterFrame(site);
  bool suspended;
  try {
    suspended = st.co.resume();
  } catch (...) {
    handled.resize(base);
    in.leaveFrame();
    finish(st);
    throw;
  }
  for (size_t i = base; i < handled.size(); ++i) st.handled.push_back(std::move(handled[i]));
  handled.resize(base);
  in.leaveFrame();
  in.restoreSpan(site);
  if (!suspended) {
    finish(st);
    return std::nullopt;
  }
  return std::exchange(st.transfer, Value());
}

Value generatorYield(GeneratorState &st, Value v, const frontend::SourceSpan &at) {
  st.transfer = std::move(v);
  st.yieldSpan = at;
  st.co.suspend();
  st.in.restoreSpan(at);
  if (st.pendingThrow) {
    PyException e = std::move(*st.pendingThrow);
    st.pendingThrow.reset();
    e.span = at;
    e.callChain = st.in.callStack();
    throw e;
  }
  return std::exchange(st.transfer, Value());
}

Value generatorYieldFrom(GeneratorState &st, const Value &iterable, const frontend::SourceSpan &at) {
  Interpreter &in = st.in;
  Value it = in.iter(iterable);
  auto *sub = it.as<GeneratorObject>();
  if (sub && sub->st.get() == &st) in.raise("ValueError", "generator already executing");
  // One step of the delegate: nullopt when it has finished (its value in `result`).
  Value result;
  auto step = [&](Value send, std::optional<PyException> thrown) -> std::optional<Value> {
    if (sub) {
      auto y = resumeGenerator(*sub->st, std::move(send), std::move(thrown));
      if (!y) result = std::exchange(sub->st->returnValue, Value());
      return y;
    }
    try {
      if (thrown) {
        auto m = in.getAttrOpt(it, "throw");
        if (!m) throw *thrown;
        Value args[] = {thrown->exc};
        return in.call(*m, args);
      }
      if (send.isNone()) {
        auto y = in.next(it);
        return y;
      }
      Value args[] = {send};
      return in.call(in.getAttr(it, "send"), args);
    } catch (PyException &e) {
      if (!isInstanceOf(in, e.exc, "StopIteration")) throw;
      result = stopIterationValue(in, e.exc);
      return std::nullopt;
    }
  };
  std::optional<Value> y = step(Value(), std::nullopt);
  while (y) {
    Value sent;
    try {
      sent = generatorYield(st, *y, at);
    } catch (PyException &e) {
      if (isInstanceOf(in, e.exc, "GeneratorExit")) {
        if (sub) closeGenerator(in, *sub->st);
        else if (auto m = in.getAttrOpt(it, "close")) in.call(*m, {});
        throw;
      }
      y = step(Value(), e);
      continue;
    }
    y = step(std::move(sent), std::nullopt);
  }
  in.restoreSpan(at);
  return result;
}

void raiseGeneratorStop(GeneratorState &st) {
  Interpreter &in = st.in;
  Value v = std::exchange(st.returnValue, Value());
  Value exc = in.newException(in.exceptionClass("StopIteration"), "");
  auto *inst = exc.as<InstanceObject>();
  if (!v.isNone()) inst->set("args", in.tuple({v}));
  inst->set("value", v);
  in.raiseValue(exc);
}

void closeGenerator(Interpreter &in, GeneratorState &st) {
  if (st.done || !st.co.started()) {
    finish(st);
    return;
  }
  PyException e;
  e.exc = in.newException(in.exceptionClass("GeneratorExit"), "");
  e.span = in.currentSpan();
  try {
    if (resumeGenerator(st, Value(), e)) in.raise("RuntimeError", "generator ignored GeneratorExit");
  } catch (PyException &x) {
    if (isInstanceOf(in, x.exc, "GeneratorExit") || isInstanceOf(in, x.exc, "StopIteration")) return;
    throw;
  }
}

// --- the object ------------------------------------------------------------------

GeneratorObject::~GeneratorObject() {
  if (st && st->suspended()) st->in.deferGeneratorClose(std::move(st));
}

void GeneratorObject::clearReferences() {
  if (st && st->suspended()) st->in.deferGeneratorClose(std::move(st));
  st.reset();
}

std::optional<Value> GeneratorObject::next(Interpreter &) {
  if (!st) return std::nullopt;
  Ref<Object> keep(this);
  return resumeGenerator(*st, Value(), std::nullopt);
}

std::optional<std::string> GeneratorObject::repr(Interpreter &) {
  return fmt::format("<generator object {} at {}>", st ? st->qualname : "?", static_cast<const void *>(this));
}

std::optional<Value> GeneratorObject::getAttr(Interpreter &in, const std::string &name) {
  if (!st) return std::nullopt;
  Ref<GeneratorObject> self(this);
  if (name == "__next__")
    return in.native("__next__", [self](Interpreter &in, Args a, const Kwargs &) -> Value {
      if (!a.empty()) in.raise("TypeError", fmt::format("expected 0 arguments, got {}", a.size()));
      if (auto y = resumeGenerator(*self->st, Value(), std::nullopt)) return *y;
      raiseGeneratorStop(*self->st);
    });
  if (name == "send")
    return in.native("send", [self](Interpreter &in, Args a, const Kwargs &) -> Value {
      if (a.size() != 1) in.raise("TypeError", fmt::format("generator.send() takes exactly one argument ({} given)", a.size()));
      if (auto y = resumeGenerator(*self->st, a[0], std::nullopt)) return *y;
      raiseGeneratorStop(*self->st);
    });
  if (name == "throw")
    return in.native("throw", [self](Interpreter &in, Args a, const Kwargs &) -> Value {
      if (a.empty() || a.size() > 3)
        in.raise("TypeError", fmt::format("throw expected at least 1 argument, got {}", a.size()));
      PyException e;
      e.exc = exceptionToThrow(in, a[0], a.size() > 1 ? a[1] : Value());
      e.span = in.currentSpan();
      e.callChain = in.callStack();
      if (auto y = resumeGenerator(*self->st, Value(), e)) return *y;
      raiseGeneratorStop(*self->st);
    });
  if (name == "close")
    return in.native("close", [self](Interpreter &in, Args, const Kwargs &) {
      closeGenerator(in, *self->st);
      return Value();
    });
  if (name == "__iter__")
    return in.native("__iter__", [self](Interpreter &, Args, const Kwargs &) { return Value(self); });
  if (name == "__name__") return in.str(st->name);
  if (name == "__qualname__") return in.str(st->qualname);
  if (name == "gi_running") return Value::boolean(st->co.running());
  if (name == "gi_suspended") return Value::boolean(st->suspended() && !st->co.running());
  return std::nullopt;
}

// --- deferred close -----------------------------------------------------------------

void Interpreter::deferGeneratorClose(std::unique_ptr<GeneratorState> st) {
  pendingCloses_.push_back(std::move(st));
}

void Interpreter::runPendingCloses() {
  while (!pendingCloses_.empty()) {
    std::unique_ptr<GeneratorState> st = std::move(pendingCloses_.back());
    pendingCloses_.pop_back();
    if (tornDown_) continue;  // modules are gone: its code could not run
    frontend::SourceSpan saved = span_;
    try {
      closeGenerator(*this, *st);
    } catch (PyException &e) {
      // CPython reports an error in a finalizer and carries on.
      std::fflush(stdout);
      std::string message;
      try {
        message = exceptionMessage(e.exc);
      } catch (PyException &) {
      }
      auto *inst = e.exc.as<InstanceObject>();
      std::fprintf(stderr, "Exception ignored in: <generator object %s>\n%s%s%s\n", st->qualname.c_str(),
                   inst ? inst->klass->name.c_str() : typeName(e.exc).c_str(), message.empty() ? "" : ": ",
                   message.c_str());
    } catch (const std::exception &e) {
      std::fprintf(stderr, "Exception ignored in: <generator object %s>\n%s\n", st->qualname.c_str(), e.what());
    }
    span_ = saved;
  }
}

}  // namespace tfs::runtime
