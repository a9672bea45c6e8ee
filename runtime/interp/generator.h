// Generators (private to runtime/interp): the object a generator function
// or a generator expression returns, and the yield / yield from
// expressions that suspend it. CPython's semantics: next/send/throw/close,
// StopIteration carrying the return value, PEP 479 (a StopIteration
// escaping the body becomes RuntimeError), PEP 380 delegation, close() on a
// generator dropped while suspended (deferred to the next statement
// boundary, where running its `finally` blocks cannot disturb native code
// that was in the middle of changing a container).
//
// The body runs on a Coroutine (coroutine.h). Per resume, the interpreter
// state that is a stack is kept consistent: the resume site is pushed on
// the call chain (errors inside show where the generator was resumed), and
// the exceptions the body is handling (for bare `raise`) are stashed in the
// generator while it is suspended.
#pragma once

#include "runtime/interp/coroutine.h"
#include "runtime/interp/eval.h"

namespace tfs::runtime {

struct GeneratorState {
  Interpreter &in;
  std::string name, qualname;
  Ref<FunctionObject> function;   // keeps the def (and its AST) alive
  std::shared_ptr<CodeInfo> code; // frame.code points into it
  Frame frame;
  // The body: runs the frame, returns the generator's return value.
  std::function<Value(GeneratorState &)> run;
  Coroutine co;
  bool done = false;
  Value transfer;                          // yielded out / sent in
  std::optional<PyException> pendingThrow; // raised at the yield on resume
  Value returnValue;                       // until next() reports it
  std::vector<PyException> handled;        // the body's, while suspended
  frontend::SourceSpan yieldSpan;          // where it is suspended

  GeneratorState(Interpreter &i, std::string n);
  bool suspended() const { return co.started() && !co.finished() && !done; }
};

struct GeneratorObject : Object, CycleTracked {
  std::unique_ptr<GeneratorState> st;
  explicit GeneratorObject(std::unique_ptr<GeneratorState> s) : st(std::move(s)) {}
  ~GeneratorObject() override;
  const char *typeName() const override { return "generator"; }
  std::optional<Value> getAttr(Interpreter &, const std::string &) override;
  std::optional<Value> iter(Interpreter &) override { return Value(Ref<Object>(this)); }
  std::optional<Value> next(Interpreter &) override;
  std::optional<std::string> repr(Interpreter &) override;
  void clearReferences() override;
};

// A generator over a generator function's bound frame (callFunction).
Value makeGenerator(Interpreter &in, FunctionObject &fn, const ast::FunctionDef *def, Frame frame,
                    std::shared_ptr<CodeInfo> code);
// `(elt for t in it ...)`: the first iterable is evaluated now, in `outer`.
Value makeGeneratorExpression(Evaluator &outer, const ast::Comprehension &c);

// The value of `yield v` / `yield from it` in a generator's frame.
Value generatorYield(GeneratorState &st, Value v, const frontend::SourceSpan &at);
Value generatorYieldFrom(GeneratorState &st, const Value &iterable, const frontend::SourceSpan &at);

// Runs the body to its next yield (the yielded value) or to its end
// (nullopt; the return value is in st.returnValue). `send` is the value of
// the yield it is suspended at; `thrown` is raised there instead.
// The caller keeps the generator object alive while this runs.
std::optional<Value> resumeGenerator(GeneratorState &st, Value send, std::optional<PyException> thrown);
// StopIteration(value) for a generator that has returned: the return value
// the first time, none after (CPython).
[[noreturn]] void raiseGeneratorStop(GeneratorState &st);
// close(): GeneratorExit at the yield; RuntimeError if it yields again.
void closeGenerator(Interpreter &in, GeneratorState &st);

}  // namespace tfs::runtime
