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

// Each registers its module(s); all are called by registerLanguageModules
// (register.cpp).
void registerMathModule();
// `ast` (lib/python/ast/ast_module.cpp): literal_eval.
void registerAstModule();
// `cmath` (lib/python/cmath/cmath_module.cpp).
void registerCmathModule();
// builtins: the interpreter's built-in scope as a module.
void registerBuiltinsModule();
void registerSysModule();
void registerUnsupportedModuleNames();
void registerImportlibModule();
// The native cores of pure-.tfs modules: _random (Mersenne Twister).
void registerRandomCoreModule();
// _json: the JSON scanner under json.decoder.
void registerJsonScannerModule();
// _pcre: PCRE2 under re.
void registerPcreModule();
// _pickle_codec: pickles of plain data under pickle.
void registerPickleCodecModule();
// `_hashlib` (lib/python/hashlib/hashlib_core.cpp): OpenSSL digests under hashlib.
void registerHashlibCoreModule();
// `zlib` and `_gzip` (lib/python/zlib/zlib_module.cpp), under gzip.tfs.
void registerZlibModule();
// `_zip` (lib/python/zipfile/zip_core.cpp): libzip archives under zipfile.tfs.
void registerZipCoreModule();
// `_tar` (lib/python/tarfile/tar_core.cpp): tar headers under tarfile.tfs.
void registerTarCoreModule();
// `struct` (lib/python/struct/struct_module.cpp).
void registerStructModule();
// `posix` (lib/python/os/posix_module.cpp): the calls os.tfs is written on.
void registerPosixModule();
// `_types` (lib/python/types/types_core.cpp): MethodType and ModuleType under types.tfs.
void registerTypesCoreModule();
// `_weakref` (lib/python/weakref/weakref_core.cpp): weak references under weakref.tfs.
void registerWeakrefCoreModule();
// `traceback` and `_tfs_frames` (lib/python/traceback/traceback_module.cpp).
void registerTracebackModules();
// Registers `time` and `timeit` (time_module.cpp); part of registerLanguageModules.
void registerTimeModules();

// Registers the standard-library modules tfs provides natively. Idempotent;
// called by lib::registerLibrary before any interpreter runs.
void registerLanguageModules();

}  // namespace tfs::runtime
