// Language-level native modules of the interpreter (CPython standard-library
// subset that .tfs scripts commonly import): `math`, `sys`, `time`, `timeit`.
//
// The extension API for native modules and types is Interpreter
// (runtime/interp/interpreter.h) and Object (runtime/interp/value.h):
//
//   Interpreter::registerNativeModule("mymod", [](Interpreter &in) {
//     auto m = make<ModuleObject>("mymod");
//     m->scope->vars["twice"] = in.native("twice", [](Interpreter &in, Args a, const Kwargs &kw) {
//       auto v = in.bindArgs("twice", a, kw, {"x"}, {std::nullopt});
//       return in.binary(BinOp::Mul, v[0], Value::integer(2));
//     });
//     return Value(m);
//   });
#pragma once

namespace tfs::runtime {

// Registers `sys` (sys_module.cpp); part of registerLanguageModules.
void registerSysModule();
// Registers `time` and `timeit` (time_module.cpp); part of registerLanguageModules.
void registerTimeModules();

// Registers `math`, `sys`, `time` and `timeit` with Interpreter::registerNativeModule. Idempotent; called
// by the Interpreter constructor so every run sees these modules.
void registerLanguageModules();

}  // namespace tfs::runtime
