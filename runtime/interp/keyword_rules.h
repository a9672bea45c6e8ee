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
// Raises CPython's TypeError when builtin `name` gets a positional-argument
// count it does not take ("len() takes exactly one argument (2 given)",
// "divmod expected 2 arguments, got 3"): n positional, nkw keyword arguments.
void checkBuiltinArity(Interpreter &in, std::string_view name, size_t n, size_t nkw);

}  // namespace tfs::runtime
