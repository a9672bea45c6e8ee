// Built-in functions, types and methods of the language (private to the
// interpreter): installed into the builtins scope at start-up.
#pragma once

#include "runtime/interp/interpreter.h"

namespace tfs::runtime {

void installBuiltinFunctions(Interpreter &in, Scope &builtins);
// Methods of built-in types (str.join, list.append, dict.items, ...).
std::optional<Value> builtinMethod(Interpreter &in, const Value &self, const std::string &name);
// Ordering of built-in values (str < str, tuple < tuple, list == list ...).
std::optional<Value> builtinCompare(Interpreter &in, CmpOp op, const Value &a, const Value &b);
// A KeyError whose args are (key,) (CPython: str(e) is repr(key)).
Value newKeyError(Interpreter &in, const Value &key);
// StopIteration.value, SystemExit.code, OSError's attributes (exceptions.cpp).
void installExceptionDetails(Interpreter &in);
// str(exc) for exceptions whose message is not their args (OSError).
std::optional<std::string> specialExceptionMessage(Interpreter &in, InstanceObject &inst);
// `del l[a:b:c]`.
void deleteListSlice(Interpreter &in, ListObject &l, const SliceObject &s);
// `x in range(...)` for an int x, by arithmetic.
bool rangeContains(const RangeObject &r, int64_t x);
// reversed(range): a lazy iterator from the last element down.
Value reversedRange(Interpreter &in, const RangeObject &r);

}  // namespace tfs::runtime
