// The `sys` module subset: argv, maxsize, exit(), stdout/stderr text
// streams (write/flush, sharing print()'s C stdio buffers so output
// interleaves correctly), and the recursion limit accessors.
#include "lib/python/python_modules.h"
#include "runtime/interp/interpreter.h"

#include <cstdio>
#include <fmt/format.h>
#include <limits>

namespace tfs::runtime {

namespace {

// sys.stdout / sys.stderr: `write(s)` returns the number of characters.
struct TextStreamObject : Object {
  std::FILE *file;
  std::string name;
  TextStreamObject(std::FILE *f, std::string n) : file(f), name(std::move(n)) {}
  const char *typeName() const override { return "TextIOWrapper"; }
  std::optional<Value> getAttr(Interpreter &in, const std::string &attr) override {
    std::FILE *f = file;
    if (attr == "write")
      return in.native("write", [f](Interpreter &in, Args a, const Kwargs &) {
        if (a.size() != 1) in.raise("TypeError", fmt::format("TextIOWrapper.write() takes exactly one argument ({} given)", a.size()));
        auto *s = a[0].as<StrObject>();
        if (!s) in.raise("TypeError", fmt::format("write() argument must be str, not {}", in.typeName(a[0])));
        std::fwrite(s->s.data(), 1, s->s.size(), f);
        return Value::integer(in.length(a[0]));
      });
    if (attr == "flush")
      return in.native("flush", [f](Interpreter &, Args, const Kwargs &) { std::fflush(f); return Value(); });
    if (attr == "name") return in.str(name);
    return std::nullopt;
  }
  std::optional<std::string> repr(Interpreter &) override {
    return fmt::format("<_io.TextIOWrapper name='{}' mode='w' encoding='utf-8'>", name);
  }
};

Value makeSysModule(Interpreter &in) {
  auto m = make<ModuleObject>("sys");
  auto &vars = m->scope->vars;
  std::vector<Value> argv;
  for (const auto &a : in.options().argv) argv.push_back(in.str(a));
  if (argv.empty()) argv.push_back(in.str(""));
  vars["argv"] = in.list(std::move(argv));
  vars["path"] = in.searchPath();
  vars["maxsize"] = Value::integer(std::numeric_limits<int64_t>::max());
  vars["stdout"] = Value(make<TextStreamObject>(stdout, "<stdout>"));
  vars["stderr"] = Value(make<TextStreamObject>(stderr, "<stderr>"));
  vars["platform"] = in.str("linux");
  vars["version_info"] = in.tuple({Value::integer(3), Value::integer(11), Value::integer(0)});
  vars["exit"] = in.native("exit", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    Value e = in.newException(in.exceptionClass("SystemExit"), "");
    if (!a.empty()) e.as<InstanceObject>()->set("args", in.tuple({a[0]}));
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
  return Value(m);
}

}  // namespace

void registerSysModule() { Interpreter::registerNativeModule("sys", makeSysModule); }

}  // namespace tfs::runtime
