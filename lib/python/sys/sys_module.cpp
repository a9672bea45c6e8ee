// The `sys` module subset: argv, path, maxsize, exit(), version_info and
// float_info (_sys_types.tfs, parsed on first use: parsing it cost ~30M
// instructions on every `import sys`), the stdin/stdout/stderr file objects
// (lib/python/io; print() and input() use whatever they are bound to),
// exc_info(), modules (the engine's table of imported modules) and the
// recursion limit accessors. Names CPython's sys has
// and tfs lacks say so.
#include "lib/python/io/stream.h"
#include "lib/python/python_modules.h"
#include "runtime/interp/interpreter.h"

#include <cstdio>
#include <fmt/format.h>
#include <limits>

namespace tfs::runtime {

namespace {

Value makeSysModule(Interpreter &in) {
  auto m = make<ModuleObject>("sys");
  auto &vars = m->scope->vars;
  std::vector<Value> argv;
  for (const auto &a : in.options().argv) argv.push_back(in.str(a));
  if (argv.empty()) argv.push_back(in.str(""));
  vars["argv"] = in.list(std::move(argv));
  vars["path"] = in.searchPath();
  vars["maxsize"] = Value::integer(std::numeric_limits<int64_t>::max());
  vars["stdin"] = vars["__stdin__"] = pyio::makeStdStream(in, 0);
  vars["stdout"] = vars["__stdout__"] = pyio::makeStdStream(in, 1);
  vars["stderr"] = vars["__stderr__"] = pyio::makeStdStream(in, 2);
  vars["platform"] = in.str("linux");
  vars["version"] = in.str("3.11.2 (tfs) [the Python of TensorFlow scripts]");
  vars["hexversion"] = Value::integer(0x030b02f0);
  vars["byteorder"] = in.str("little");
  vars["executable"] = in.str("/usr/bin/tfs");
  vars["implementation_name"] = in.str("tfs");
  vars["api_version"] = Value::integer(1013);
  vars["maxunicode"] = Value::integer(0x10FFFF);
  vars["getdefaultencoding"] = in.native("getdefaultencoding", [](Interpreter &in, Args, const Kwargs &) { return in.str("utf-8"); });
  vars["getfilesystemencoding"] = in.native("getfilesystemencoding", [](Interpreter &in, Args, const Kwargs &) { return in.str("utf-8"); });
  vars["exit"] = in.native("exit", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    Value e = in.newException(in.exceptionClass("SystemExit"), "");
    if (!a.empty()) {
      e.as<InstanceObject>()->set("args", in.tuple({a[0]}));
      e.as<InstanceObject>()->set("code", a[0]);
    }
    in.raiseValue(e);
  });
  // The interpreter's limit is fixed (RecursionError at depth 1000); the
  // setter accepts and validates its argument like CPython.
  vars["getrecursionlimit"] = in.native("getrecursionlimit", [](Interpreter &, Args, const Kwargs &) {
    return Value::integer(1000);
  });
  vars["setrecursionlimit"] = in.native("setrecursionlimit", [](Interpreter &in, Args a, const Kwargs &) {
    if (a.size() != 1) in.raise("TypeError", fmt::format("setrecursionlimit() takes exactly one argument ({} given)", a.size()));
    if (in.toIndex(a[0]) < 1) in.raise("ValueError", "recursion limit must be greater or equal than 1");
    return Value();
  });
  vars["exc_info"] = in.native("exc_info", [](Interpreter &in, Args, const Kwargs &) {
    const PyException *e = in.handledException();
    if (!e) return in.tuple({Value(), Value(), Value()});
    return in.tuple({Value(in.typeOf(e->exc)), e->exc, in.str("<traceback>")});
  });
  vars["exception"] = in.native("exception", [](Interpreter &in, Args, const Kwargs &) {
    const PyException *e = in.handledException();
    return e ? e->exc : Value();
  });
  // `lazy` makes version_info and float_info on first use (a .tfs module:
  // not run unless asked for) and rejects CPython's names tfs lacks.
  // `from sys import *` asks for _tfs_star_names: the scope, those two made.
  m->lazy = [](Interpreter &in, const std::string &name) -> std::optional<Value> {
    if (name == "modules") {  // the engine's module table (interpreter.cpp), kept current by import
      Value modules = in.getAttr(in.importModule("_tfs_modules"), "modules");
      in.importModule("sys").as<ModuleObject>()->scope->vars["modules"] = modules;
      return modules;
    }
    if (name == "version_info" || name == "float_info" || name == "int_info")
      return in.getAttr(in.importModule("_sys_types"), name == "version_info" ? "VERSION_INFO"
                                                       : name == "float_info" ? "FLOAT_INFO"
                                                                              : "INT_INFO");
    if (name == "_tfs_star_names") {
      Value sys = in.importModule("sys");
      std::vector<Value> names;
      for (const char *lazyName : {"float_info", "int_info", "version_info"})
        sys.as<ModuleObject>()->scope->vars[lazyName] = in.getAttr(sys, lazyName);
      for (auto &[k, v] : sys.as<ModuleObject>()->scope->vars)
        if (!k.empty() && k[0] != '_') names.push_back(in.str(k));
      return in.list(std::move(names));
    }
    static const char *const cpython[] = {
        "getsizeof", "settrace", "setprofile", "gettrace", "_getframe", "intern", "displayhook",
        "excepthook", "flags", "stdlib_module_names", "builtin_module_names", "getrefcount", "last_value",
        "last_type", "last_traceback", "ps1", "ps2", "meta_path", "path_hooks", "path_importer_cache",
        "dont_write_bytecode", "base_prefix", "prefix", "exec_prefix", "orig_argv", "warnoptions",
        "getswitchinterval", "setswitchinterval", "hash_info", "thread_info", "get_int_max_str_digits",
        "set_int_max_str_digits", "audit", "addaudithook", "call_tracing", "breakpointhook", "unraisablehook",
        "getallocatedblocks", "is_finalizing", "implementation", "abiflags", "platlibdir", "pycache_prefix"};
    for (const char *n : cpython)
      if (name == n) in.raise("NotImplementedError", fmt::format("sys.{} is not supported by tfs", name));
    return std::nullopt;
  };
  pyio::noteSysModuleLoaded(in, Value(m));
  return Value(m);
}

}  // namespace

void registerSysModule() { Interpreter::registerNativeModule("sys", makeSysModule); }

}  // namespace tfs::runtime
