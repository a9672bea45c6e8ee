// Which keyword arguments (and how many positional ones) CPython 3.11's built-in functions, types and the
// methods of str/list/tuple/dict/set accept. A call passing any other
// keyword gets CPython's TypeError ("abs() takes no keyword arguments",
// "'cmp' is an invalid keyword argument for sort()") instead of tfs
// dropping it silently.
//
//   checkBuiltinKeywords(in, "sorted", kw);     // builtin function or type
//   checkBuiltinKeywords(in, "str.split", kw);  // method, qualified by type
#pragma once

#include "runtime/interp/interpreter.h"

#include <string_view>

namespace tfs::runtime {

// Raises CPython's TypeError when `kw` holds a keyword `name` does not take.
// Names without a rule (dict(), str.format, dict.update: any keyword) pass.
void checkBuiltinKeywords(Interpreter &in, std::string_view name, const Kwargs &kw);
// How many positional arguments builtin `name` takes (null: no rule),
// looked up once when the builtin is made, not on every call.
struct BuiltinArity;
const BuiltinArity *builtinArity(std::string_view name);
// Raises CPython's TypeError when a call passes a count the rule does not
// take ("len() takes exactly one argument (2 given)", "divmod expected 2
// arguments, got 3"): n positional, nkw keyword arguments.
void checkBuiltinArity(Interpreter &in, const BuiltinArity &rule, size_t n, size_t nkw);

}  // namespace tfs::runtime
