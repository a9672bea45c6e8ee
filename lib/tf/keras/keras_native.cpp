// Native helpers of the Keras .tfs modules (module `_keras_native`, not part
// of the tf API): the parameter list of a layer's `call` (Keras passes
// `training` and `mask` only when `call` takes them), module objects for
// the tf.keras namespace, terminal detection for the progress bar, and the
// file primitives of Keras saving (atomic writes, CRC-32 checksums).
// Also registers `import keras` as tf.keras.
#include "lib/tf/keras/keras_native.h"
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <zlib.h>

namespace tfs::runtime::tf {

namespace {

namespace fs = std::filesystem;

// The function object behind a callable: a bound method's function (self
// dropped), a tf.function's Python function.
const FunctionObject *underlyingFunction(Interpreter &in, const Value &f, bool &bound) {
  if (auto *fn = f.as<FunctionObject>()) return fn;
  if (auto *m = f.as<BoundMethod>()) {
    bound = true;
    return underlyingFunction(in, m->func, bound);
  }
  if (auto inner = in.getAttrOpt(f, "python_function")) return underlyingFunction(in, *inner, bound);
  return nullptr;
}

// call_spec(fn) -> (arg names, accepts **kwargs, accepts *args, {name: default})
Value callSpec(Interpreter &in, const Bound &a) {
  bool bound = false;
  const FunctionObject *fn = underlyingFunction(in, a["fn"], bound);
  if (!fn) return in.tuple({in.list({}), Value::boolean(true), Value::boolean(true), make<DictObject>()});
  const std::vector<ast::Param> &params = fn->def ? fn->def->params : fn->lambda->params;
  std::vector<Value> names;
  bool varKw = false, varArgs = false;
  auto defaults = make<DictObject>();
  size_t defaultIndex = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    const ast::Param &p = params[i];
    bool skip = bound && i == 0;
    if (p.kind == ast::Param::Kind::VarKeywords) varKw = true;
    else if (p.kind == ast::Param::Kind::VarArgs) varArgs = true;
    else if (!skip) names.push_back(in.str(p.name));
    if (p.defaultValue) {
      if (defaultIndex < fn->defaults.size()) defaults->set(in, in.str(p.name), fn->defaults[defaultIndex]);
      ++defaultIndex;
    }
  }
  return in.tuple({in.list(names), Value::boolean(varKw), Value::boolean(varArgs), Value(defaults)});
}

std::string bytesOf(Interpreter &in, const Value &v) {
  if (auto *b = v.as<BytesObject>()) return b->s;
  if (auto *s = v.as<StrObject>()) return s->s;
  in.raise("TypeError", fmt::format("expected str or bytes, not {}", in.typeName(v)));
}

void syncDirectoryOf(const fs::path &p) {
  fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

// Writes `data` to a temporary sibling, fsyncs it and renames it over
// `path`: a reader (or a crash) sees the old file or the new one.
void writeAtomic(Interpreter &in, const std::string &path, const std::string &data) {
  if (in.options().readOnlyFiles) in.raise("OSError", fmt::format("cannot write {}: file writes are disabled", path));
  fs::path target(path);
  fs::path tmp = target;
  tmp += fmt::format(".tmp-{}", ::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    in.raise("OSError", fmt::format("[Errno {}] {}: '{}'", errno, std::strerror(errno), path));
  size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::write(fd, data.data() + off, data.size() - off);
    if (n <= 0) {
      ::close(fd);
      ::unlink(tmp.c_str());
      in.raise("OSError", fmt::format("cannot write {}", path));
    }
    off += size_t(n);
  }
  ::fsync(fd);
  ::close(fd);
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    ::unlink(tmp.c_str());
    in.raise("OSError", fmt::format("cannot write {}: {}", path, ec.message()));
  }
  syncDirectoryOf(target);
}

Value makeKerasNative(Interpreter &in) {
  auto m = make<ModuleObject>("_keras_native");
  auto bind = [&](std::string_view sig, SignedFn fn) {
    Value f = nativeWithSignature(in, sig, std::move(fn));
    m->scope->vars[f.as<NativeFunction>()->name] = f;
  };
  bind("call_spec(fn)", callSpec);
  // A module object named `name` holding the entries of `attrs`.
  bind("make_module(name, attrs)", [](Interpreter &in, const Bound &a) -> Value {
    auto mod = make<ModuleObject>(in.str(a["name"]));
    auto *d = a["attrs"].as<DictObject>();
    if (!d) in.raise("TypeError", "make_module() expects a dict");
    for (auto &[k, v] : d->items()) mod->scope->vars[in.str(k)] = v;
    mod->scope->vars["__name__"] = a["name"];
    return Value(mod);
  });
  bind("stdout_isatty()", [](Interpreter &, const Bound &) {
    std::fflush(stdout);
    return Value::boolean(::isatty(::fileno(stdout)) != 0);
  });
  bind("write_atomic(path, data)", [](Interpreter &in, const Bound &a) {
    writeAtomic(in, in.str(a["path"]), bytesOf(in, a["data"]));
    return Value();
  });
  bind("append_text(path, data)", [](Interpreter &in, const Bound &a) {
    if (in.options().readOnlyFiles) in.raise("OSError", "file writes are disabled");
    std::string path = in.str(a["path"]);
    std::ofstream f(path, std::ios::binary | std::ios::app);
    std::string data = bytesOf(in, a["data"]);
    if (!f || !f.write(data.data(), std::streamsize(data.size())))
      in.raise("OSError", fmt::format("cannot write {}", path));
    return Value();
  });
  bind("read_bytes(path)", [](Interpreter &in, const Bound &a) -> Value {
    std::string path = in.str(a["path"]);
    std::ifstream f(path, std::ios::binary);
    if (!f) in.raise("FileNotFoundError", fmt::format("[Errno 2] No such file or directory: '{}'", path));
    std::stringstream ss;
    ss << f.rdbuf();
    return Value(make<BytesObject>(ss.str()));
  });
  bind("crc32(data)", [](Interpreter &in, const Bound &a) {
    std::string s = bytesOf(in, a["data"]);
    uLong c = ::crc32(0L, Z_NULL, 0);
    c = ::crc32(c, reinterpret_cast<const Bytef *>(s.data()), uInt(s.size()));
    return Value::integer(int64_t(c));
  });
  bind("exists(path)", [](Interpreter &in, const Bound &a) {
    std::error_code ec;
    return Value::boolean(fs::exists(in.str(a["path"]), ec));
  });
  bind("isdir(path)", [](Interpreter &in, const Bound &a) {
    std::error_code ec;
    return Value::boolean(fs::is_directory(in.str(a["path"]), ec));
  });
  bind("makedirs(path)", [](Interpreter &in, const Bound &a) {
    std::error_code ec;
    fs::create_directories(in.str(a["path"]), ec);
    if (ec) in.raise("OSError", fmt::format("cannot create {}: {}", in.str(a["path"]), ec.message()));
    return Value();
  });
  bind("expanduser(path)", [](Interpreter &in, const Bound &a) -> Value {
    std::string p = in.str(a["path"]);
    if (!p.empty() && p[0] == '~') {
      const char *home = std::getenv("HOME");
      if (home) p = std::string(home) + p.substr(1);
    }
    return in.str(p);
  });
  return Value(m);
}

}  // namespace

void registerKerasModules() {
  Interpreter::registerNativeModule("_keras_native", makeKerasNative);
  // `import keras` is tf.keras, as with TensorFlow 2.15's Keras 2.
  Interpreter::registerNativeModule("keras", [](Interpreter &in) {
    return in.getAttr(in.importModule("tensorflow"), "keras");
  });
}

}  // namespace tfs::runtime::tf
