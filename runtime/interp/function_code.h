// A function's introspection attributes that CPython reads from its code
// object: __defaults__, __kwdefaults__ and __code__ (co_argcount,
// co_varnames, co_name, ... and the source lines inspect.getsource shows),
// function_code.cpp.
#pragma once

#include "runtime/interp/interpreter.h"

#include <optional>
#include <string>
#include <vector>

namespace tfs::runtime {

// __defaults__, __kwdefaults__ or __code__ of fn; nullopt for other names.
std::optional<Value> functionCodeAttr(Interpreter &in, FunctionObject &fn, const std::string &name);
// co_varnames: the parameters (positional, keyword-only, *args, **kwargs),
// then the other locals as first met, cell variables excluded (frame_names.cpp).
std::vector<std::string> functionVarnames(const FunctionObject &fn);

}  // namespace tfs::runtime
