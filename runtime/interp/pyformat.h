// Python's text forms (private to the interpreter and the native modules):
// repr/str of built-in values, the format-spec mini-language, and
// `%`-formatting. Floats use the shortest round-trip repr (runtime/tensor/
// format.h's pythonFloatRepr).
#pragma once

#include "runtime/interp/interpreter.h"

#include <string>

namespace tfs::runtime {

// Formats a number/string per a format spec ("{:>8.3f}"); `v` is int,
// float, bool or str. Raises ValueError for bad specs.
std::string formatWithSpec(Interpreter &in, const Value &v, const std::string &spec);
// "fmt % args" (args: a tuple, a dict or a single value).
std::string percentFormat(Interpreter &in, const std::string &fmt, const Value &args);
// str.format(*args, **kwargs).
std::string strFormat(Interpreter &in, const std::string &fmt, Args args, const Kwargs &kwargs);
// str.format_map(mapping).
std::string strFormatMap(Interpreter &in, const std::string &fmt, const Value &mapping);
// repr of a str / bytes with Python's quoting.
std::string quoteStr(const std::string &s);
std::string quoteBytes(const std::string &s);

}  // namespace tfs::runtime
