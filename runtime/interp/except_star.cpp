// `try ... except* T:` (PEP 654) with CPython 3.11's semantics: the raised
// exception (a lone one is wrapped in ExceptionGroup('', [e]) for matching)
// is split by each handler's types in turn with BaseExceptionGroup.split;
// each handler whose part is not empty runs once with that part; what the
// handlers raise and the unmatched rest then become the exception the
// statement raises (lib/python/builtins/_exception_group.tfs,
// _combine_raised), or none.
#include "runtime/interp/eval.h"
#include "runtime/interp/exception_group.h"
#include "runtime/interp/traceback_record.h"

#include <fmt/format.h>

namespace tfs::runtime {

using namespace tfs::ast;

namespace {

// CPython's checks on an except* clause's types: classes deriving from
// BaseException, and no exception group type (use `except` for those).
void checkStarTypes(Interpreter &in, const Value &types) {
  std::vector<Value> list = types.as<TupleObject>() ? types.as<TupleObject>()->items : std::vector<Value>{types};
  ClassObject *group = boundBaseExceptionGroup(in);
  for (const auto &t : list) {
    auto *c = t.as<ClassObject>();
    if (!c || !c->isSubclassOf(in.exceptionClass("BaseException").get()))
      in.raise("TypeError", "catching classes that do not inherit from BaseException is not allowed");
    if (c->isSubclassOf(group))
      in.raise("TypeError", "catching ExceptionGroup with except* is not allowed. Use except instead.");
  }
}

}  // namespace

std::optional<PyException> Evaluator::handleExceptStar(const Try &t, const PyException &caught) {
  bindExceptionGroups(in, "ExceptionGroup");
  Value groupModule = in.importModule("_exception_group");
  Value original = caught.exc;
  bool isGroup = in.isInstance(original, boundBaseExceptionGroup(in));
  Value rest = original;
  std::vector<Value> raised;
  std::optional<PyException> lastRaised;
  for (const auto &h : t.handlers) {
    if (rest.isNone()) break;
    Value types = eval(*h.type);
    in.span_ = h.type->span;
    checkStarTypes(in, types);
    Value match;
    if (isGroup) {
      Value parts = in.call(in.getAttr(rest, "split"), std::vector<Value>{types});
      auto &items = parts.as<TupleObject>()->items;
      match = items[0];
      rest = items[1];
    } else if (in.truth(in.call(in.builtin("isinstance"), std::vector<Value>{rest, types}))) {
      match = in.call(in.builtin("ExceptionGroup"), std::vector<Value>{in.str(""), in.tuple({rest})});
      rest = Value();
    }
    if (match.isNone()) continue;
    if (!h.name.empty()) store(h.name, match);
    PyException handled = caught;
    handled.exc = match;
    handledExceptions().push_back(handled);
    try {
      execBody(h.body);  // no break / continue / return in an except* block (the builder)
      raised.push_back(Value());
    } catch (PyException &e) {
      recordTraceback(e, in.callStack());
      raised.push_back(e.exc);
      lastRaised = e;
    }
    handledExceptions().pop_back();
    if (!h.name.empty()) unbindHandlerName(h.name);
  }
  raised.push_back(rest);
  Value result = in.call(in.getAttr(groupModule, "_combine_raised"), std::vector<Value>{original, in.list(std::move(raised))});
  if (result.isNone()) return std::nullopt;
  if (result.isObj() && result.obj() == original.obj()) return caught;
  if (lastRaised && result.isObj() && result.obj() == lastRaised->exc.obj()) return lastRaised;
  PyException out = lastRaised ? *lastRaised : caught;
  out.exc = result;
  return out;
}

Flow Evaluator::execTryStar(const Try &t) {
  Flow result = Flow::Normal;
  std::optional<PyException> pending;
  bool bodyDone = false;
  try {
    result = execBody(t.body);
    bodyDone = true;
    if (result == Flow::Normal) result = execBody(t.orelse);
  } catch (PyException &e) {
    if (bodyDone) {
      pending = e;  // the else block's exceptions are not the handlers'
    } else {
      recordTraceback(e, in.callStack());
      try {
        pending = handleExceptStar(t, e);
      } catch (PyException &x) {
        pending = x;  // a handler's types were not exception classes
      }
    }
  }
  if (!t.finalbody.empty()) {
    Value saved = f.retval;
    Flow ff = execBody(t.finalbody);
    if (ff != Flow::Normal) return ff;  // return/break in finally discards the exception
    f.retval = saved;
  }
  if (pending) throw *pending;
  return result;
}

}  // namespace tfs::runtime
