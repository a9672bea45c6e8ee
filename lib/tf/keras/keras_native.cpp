// Native helpers of the Keras .tfs modules (module `_keras_native`, not part
// of the tf API): the parameter list of a layer's `call` (Keras passes
// `training` and `mask` only when `call` takes them), module objects for
// the tf.keras namespace, terminal detection for the progress bar, and the
// file primitives of Keras saving (atomic writes, CRC-32 checksums), and
// Graphviz rendering for plot_model.
// Also registers `import keras` as tf.keras.
#include "lib/tf/keras/keras_native.h"
#include "lib/tf/compat_v1/variable_store_hook.h"
#include "lib/tf/random/seed_hook.h"
#include "lib/file_util.h"
#include "lib/tf/tf_lib.h"
#include "lib/zip_archive.h"
#include "runtime/kernels/fingerprint.h"
#include "runtime/interp/public_names.h"
#include "runtime/interp/signature.h"
#include "runtime/tf/autocast_variables.h"
#include "runtime/tf/wrapped_functions.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

namespace tfs::runtime::tf {

namespace {

namespace fs = std::filesystem;

// The function object behind a callable: a bound method's function (self
// dropped), a tf.function's Python function.
const FunctionObject *underlyingFunction(Interpreter &in, const Value &f, bool &bound) {
  if (auto *fn = f.as<FunctionObject>()) {
    // A wrapper made as tf.__internal__.decorator.make_decorator makes it
    // (Keras's track_tf1_style_variables): Keras reads the signature of
    // the decorated function (tf_inspect unwraps TF decorators).
    if (auto target = in.getAttrOpt(f, "_tfs_decorated_target")) return underlyingFunction(in, *target, bound);
    return fn;
  }
  if (auto *m = f.as<BoundMethod>()) {
    bound = true;
    return underlyingFunction(in, m->func, bound);
  }
  if (auto inner = in.getAttrOpt(f, "python_function")) return underlyingFunction(in, *inner, bound);
  // tf's wrapper of a .tfs function (Keras's dispatch for KerasTensors,
  // lib/tf/composite_dispatch.cpp): the function's own parameters.
  if (const Value *wrapped = wrappedFunction(f)) return underlyingFunction(in, *wrapped, bound);
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

// arg_spec(fn) -> (positional parameter names, the *args name or None, the
// **kwargs name or None): the parts of inspect.getfullargspec Keras reads
// (a bound method's self dropped, as getfullargspec does not; Keras's
// callers skip it themselves, so tfs callers pass the class's function).
Value argSpec(Interpreter &in, const Bound &a) {
  bool bound = false;
  const FunctionObject *fn = underlyingFunction(in, a["fn"], bound);
  if (!fn) return in.tuple({in.list({}), in.str("args"), in.str("kwargs")});
  const std::vector<ast::Param> &params = fn->def ? fn->def->params : fn->lambda->params;
  std::vector<Value> names;
  Value varArgs = Value::none(), varKw = Value::none();
  for (size_t i = 0; i < params.size(); ++i) {
    const ast::Param &p = params[i];
    if (p.kind == ast::Param::Kind::VarKeywords) varKw = in.str(p.name);
    else if (p.kind == ast::Param::Kind::VarArgs) varArgs = in.str(p.name);
    else if (p.kind != ast::Param::Kind::KeywordOnly && !(bound && i == 0)) names.push_back(in.str(p.name));
  }
  return in.tuple({in.list(names), varArgs, varKw});
}

// call_parameters(fn) -> [(name, kind, has_default, default)] in declaration
// order, kind one of "positional", "varargs", "keyword_only", "varkw" (what
// Keras's error wrapper reads from inspect.signature: a bound method's self
// dropped), or None when fn is not a Python function.
Value callParameters(Interpreter &in, const Bound &a) {
  bool bound = false;
  const FunctionObject *fn = underlyingFunction(in, a["fn"], bound);
  if (!fn) return Value::none();
  const std::vector<ast::Param> &params = fn->def ? fn->def->params : fn->lambda->params;
  std::vector<Value> out;
  size_t defaultIndex = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    const ast::Param &p = params[i];
    Value def = Value::none();
    bool hasDefault = false;
    if (p.defaultValue) {
      if (defaultIndex < fn->defaults.size()) {
        def = fn->defaults[defaultIndex];
        hasDefault = true;
      }
      ++defaultIndex;
    }
    if (bound && i == 0) continue;
    const char *kind = p.kind == ast::Param::Kind::VarArgs       ? "varargs"
                       : p.kind == ast::Param::Kind::KeywordOnly ? "keyword_only"
                       : p.kind == ast::Param::Kind::VarKeywords ? "varkw"
                                                                 : "positional";
    out.push_back(in.tuple({in.str(p.name), in.str(kind), Value::boolean(hasDefault), def}));
  }
  return in.list(out);
}

// module_global(fn, name) -> the value `name` has in the globals of the
// module that defined fn, or None (what Keras's importlib.import_module(
// obj.__module__) and vars(module).get(name) find).
Value moduleGlobal(Interpreter &in, const Bound &a) {
  bool bound = false;
  const FunctionObject *fn = underlyingFunction(in, a["fn"], bound);
  if (!fn || !fn->globals) return Value::none();
  auto it = fn->globals->vars.find(in.str(a["name"]));
  return it == fn->globals->vars.end() ? Value::none() : it->second;
}

// The byte offset of 1-based code-point column `col` in `line` (spans count
// characters, like CPython's carets).
size_t byteOfColumn(std::string_view line, uint32_t col) {
  size_t pos = 0;
  for (uint32_t c = 1; c < col && pos < line.size(); ++c) {
    ++pos;
    while (pos < line.size() && (static_cast<unsigned char>(line[pos]) & 0xC0) == 0x80) ++pos;
  }
  return pos;
}

// lambda_source(fn) -> None when fn is not a `lambda` with source text,
// else (its source text, {name: value} for each name of the text bound in
// the scopes enclosing the lambda, i.e. its closure): what tfs saves in
// place of the CPython bytecode Keras marshals for a Lambda layer's lambda.
Value lambdaSource(Interpreter &in, const Bound &a) {
  bool bound = false;
  const FunctionObject *fn = underlyingFunction(in, a["fn"], bound);
  if (!fn || !fn->lambda || bound) return Value::none();
  const frontend::SourceSpan &span = fn->lambda->span;
  if (!span.valid() || !span.file || span.endLine < span.line) return Value::none();
  std::string text;
  for (uint32_t l = span.line; l <= span.endLine; ++l) {
    std::string_view line = span.file->line(l);
    size_t begin = l == span.line ? byteOfColumn(line, span.col) : 0;
    size_t end = l == span.endLine ? byteOfColumn(line, span.endCol) : line.size();
    if (end < begin) return Value::none();
    if (l != span.line) text += "\n";
    text += line.substr(begin, end - begin);
  }
  std::set<std::string> params;
  for (const ast::Param &p : fn->lambda->params) params.insert(p.name);
  auto closure = make<DictObject>();
  // Identifiers of the text (not attribute names after '.'), looked up in
  // the enclosing function scopes the lambda closes over.
  for (size_t i = 0; i < text.size();) {
    unsigned char ch = static_cast<unsigned char>(text[i]);
    if (!(std::isalpha(ch) || ch == '_')) { ++i; continue; }
    size_t j = i;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
    std::string name = text.substr(i, j - i);
    size_t k = i;
    while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t')) --k;
    bool attribute = k > 0 && text[k - 1] == '.';
    bool quoted = false;
    for (size_t q = 0; q < i; ++q) if (text[q] == '\'' || text[q] == '"') quoted = !quoted;
    i = j;
    if (attribute || quoted || params.count(name)) continue;
    for (Scope *s = fn->closure.get(); s; s = s->parent.get()) {
      auto it = s->vars.find(name);
      if (it != s->vars.end()) {
        closure->set(in, in.str(name), it->second);
        break;
      }
    }
  }
  return in.tuple({in.str(text), Value(closure)});
}

std::string bytesOf(Interpreter &in, const Value &v) {
  if (auto *b = v.as<BytesObject>()) return b->s;
  if (auto *s = v.as<StrObject>()) return s->s;
  in.raise("TypeError", fmt::format("expected str or bytes, not {}", in.typeName(v)));
}

// Keras files are written atomically (lib/file_util.h).
void writeAtomic(Interpreter &in, const std::string &path, const std::string &data) {
  lib::writeFileAtomic(in, path, data);
}

// The weights blob of a tfs Keras file: per tensor a dtype code, the rank,
// the dims (int64) and the raw little-endian elements.
std::string encodeTensors(Interpreter &in, const Value &list) {
  std::string out;
  auto put = [&](const void *p, size_t n) { out.append(static_cast<const char *>(p), n); };
  for (const Value &v : in.toList(list)) {
    Ref<TensorObject> t = toTensor(in, v);
    if (t->symbolic()) in.raise("ValueError", "cannot save a symbolic tensor");
    const Tensor &e = t->eager;
    if (e.dtype() == DType::String) in.raise("NotImplementedError", "saving string weights is not supported by tfs");
    uint8_t code = uint8_t(e.dtype()), rank = uint8_t(e.rank());
    put(&code, 1);
    put(&rank, 1);
    for (int64_t d : e.shape()) put(&d, sizeof(d));
    put(e.rawData(), size_t(e.numElements()) * ir::dtypeSize(e.dtype()));
  }
  return out;
}

Value decodeTensors(Interpreter &in, const std::string &blob) {
  std::vector<Value> out;
  size_t pos = 0;
  auto need = [&](size_t n) {
    if (pos + n > blob.size()) in.raise("ValueError", "the weights data is truncated");
  };
  while (pos < blob.size()) {
    need(2);
    uint8_t code = uint8_t(blob[pos]), rank = uint8_t(blob[pos + 1]);
    pos += 2;
    if (code >= uint8_t(DType::String) || rank > 32)
      in.raise("ValueError", "the weights data is corrupted");
    std::vector<int64_t> shape(rank);
    int64_t n = 1;
    for (auto &d : shape) {
      need(sizeof(int64_t));
      std::memcpy(&d, blob.data() + pos, sizeof(int64_t));
      pos += sizeof(int64_t);
      if (d < 0 || d > (int64_t(1) << 40) || __builtin_mul_overflow(n, d, &n) || n > (int64_t(1) << 40))
        in.raise("ValueError", "the weights data is corrupted");
    }
    size_t bytes = size_t(n) * ir::dtypeSize(DType(code));
    need(bytes);
    Tensor t = Tensor::empty(DType(code), shape);
    std::memcpy(t.rawData(), blob.data() + pos, bytes);
    pos += bytes;
    out.push_back(wrap(t, true));
  }
  return in.list(out);
}

// Note [tfs Keras files]
// model.save / save_weights write one file: the magic line "TFS-KERAS 1",
// the byte length of a JSON header and the header (model config, weight
// names, training config), the weights blob (encodeTensors), and a trailer
// "CRC32 xxxxxxxx" over everything before it. It is written to a
// temporary sibling and renamed over the target (writeAtomic), so a crash
// leaves the old file or the new one; a torn or edited file fails its
// checksum and is refused with the file's name.
constexpr const char *kKerasMagic = "TFS-KERAS 1\n";

uint32_t crcOf(const std::string &s) {
  uLong c = ::crc32(0L, Z_NULL, 0);
  return uint32_t(::crc32(c, reinterpret_cast<const Bytef *>(s.data()), uInt(s.size())));
}

void writeContainer(Interpreter &in, const std::string &path, const std::string &header, const std::string &blob) {
  std::string body = kKerasMagic + std::to_string(header.size()) + "\n" + header + blob;
  writeAtomic(in, path, body + fmt::format("\nCRC32 {:08x}\n", crcOf(body)));
}

Value readContainer(Interpreter &in, const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) in.raise("OSError", fmt::format("No file or directory found at {}", path));
  std::stringstream ss;
  ss << f.rdbuf();
  std::string data = ss.str();
  std::string magic = kKerasMagic;
  if (data.compare(0, magic.size(), magic) != 0)
    in.raise("ValueError", fmt::format("{} is not a model or weights file written by tfs (HDF5 and Keras v3 .keras "
                                       "files are not supported by tfs)", path));
  constexpr size_t kTrailer = 1 + 6 + 8 + 1;  // "\nCRC32 " + 8 hex digits + "\n"
  if (data.size() < magic.size() + kTrailer)
    in.raise("ValueError", fmt::format("{} is truncated", path));
  std::string body = data.substr(0, data.size() - kTrailer), trailer = data.substr(data.size() - kTrailer);
  if (trailer.compare(0, 7, "\nCRC32 ") != 0 || trailer.substr(7, 8) != fmt::format("{:08x}", crcOf(body)))
    in.raise("ValueError", fmt::format("{} is corrupted (checksum mismatch)", path));
  size_t nl = body.find('\n', magic.size());
  if (nl == std::string::npos) in.raise("ValueError", fmt::format("{} is corrupted", path));
  size_t headerSize = 0;
  try {
    headerSize = std::stoul(body.substr(magic.size(), nl - magic.size()));
  } catch (...) {
    in.raise("ValueError", fmt::format("{} is corrupted", path));
  }
  if (nl + 1 + headerSize > body.size()) in.raise("ValueError", fmt::format("{} is corrupted", path));
  std::string header = body.substr(nl + 1, headerSize);
  std::string blob = body.substr(nl + 1 + headerSize);
  return in.tuple({in.str(header), Value(make<BytesObject>(blob))});
}

Value makeKerasNative(Interpreter &in) {
  auto m = make<ModuleObject>("_keras_native");
  auto bind = [&](std::string_view sig, SignedFn fn) {
    Value f = nativeWithSignature(in, sig, std::move(fn));
    m->scope->vars[f.as<NativeFunction>()->name] = f;
  };
  bind("call_spec(fn)", callSpec);
  bind("arg_spec(fn)", argSpec);
  bind("call_parameters(fn)", callParameters);
  // tf.compat.v1.keras.utils (lib/tf/keras/utils/_keras_v1_shim.tfs): the
  // variable store of a track_tf1_style_variables method, and the get_seed
  // of DeterministicRandomTestTool.
  bind("set_v1_variable_store(store)", [](Interpreter &in, const Bound &a) {
    return setV1VariableStore(in, a["store"]);
  });
  // Whether Keras's module `module` (a module object's name) has `name`
  // (the public-name tables): what tf.compat.v1.keras takes from tf.keras.
  bind("has_public_name(module, name)", [](Interpreter &in, const Bound &a) {
    return Value::boolean(publicNameOwner(in.str(a["module"]), in.str(a["name"])).has_value());
  });
  // `raise exc.with_traceback(e.__traceback__) from None` inside `except
  // ... as e` (Keras's traceback_utils): exc propagates from where e was
  // raised, so the error is reported at that line of the user's code.
  bind("reraise_from_handled(exc)", [](Interpreter &in, const Bound &a) -> Value {
    const PyException *handled = in.handledException();
    auto *inst = a["exc"].as<InstanceObject>();
    if (!handled || !inst || !inst->klass->isException)
      in.raise("TypeError", "reraise_from_handled() needs an exception, inside an except block");
    inst->attrs["__cause__"] = Value();
    inst->attrs["__suppress_context__"] = Value::boolean(true);
    inst->attrs["__context__"] = handled->exc;
    throw PyException{a["exc"], handled->span, handled->callChain};
  });
  bind("set_get_seed_hook(hook)", [](Interpreter &in, const Bound &a) { return setGetSeedHook(in, a["hook"]); });
  bind("module_global(fn, name)", moduleGlobal);
  bind("lambda_source(fn)", lambdaSource);
  // A module object named `name` holding the entries of `attrs`; the names
  // in `unsupported` (Keras 2.15 API that tfs lacks) raise
  // NotImplementedError "<user_name>.<name> is not supported by tfs".
  bind("make_module(name, attrs, unsupported=(), user_name=None)", [](Interpreter &in, const Bound &a) -> Value {
    auto mod = make<ModuleObject>(in.str(a["name"]));
    auto *d = a["attrs"].as<DictObject>();
    if (!d) in.raise("TypeError", "make_module() expects a dict");
    for (auto &[k, v] : d->items()) mod->scope->vars[in.str(k)] = v;
    mod->scope->vars["__name__"] = a["name"];
    auto missing = std::make_shared<std::set<std::string>>();
    for (const Value &n : in.toList(a["unsupported"]))
      if (!mod->scope->vars.count(in.str(n))) missing->insert(in.str(n));
    if (!missing->empty()) {
      std::string shown = a["user_name"].isNone() ? in.str(a["name"]) : in.str(a["user_name"]);
      mod->lazy = [missing, shown](Interpreter &in, const std::string &name) -> std::optional<Value> {
        if (missing->count(name))
          in.raise("NotImplementedError", fmt::format("{}.{} is not supported by tfs", shown, name));
        return std::nullopt;
      };
      mod->lazyOnlyRejects = true;
    }
    return Value(mod);
  });
  // __all__ of a finished module: its public names. `from M import *` needs
  // it for a module with a lazy hook (one with unsupported names).
  bind("set_public_names(module)", [](Interpreter &in, const Bound &a) -> Value {
    auto *mod = a["module"].as<ModuleObject>();
    if (!mod) in.raise("TypeError", "set_public_names() expects a module");
    std::vector<std::string> names;
    for (auto &[k, v] : mod->scope->vars)
      if (!k.empty() && k[0] != '_') names.push_back(k);
    std::sort(names.begin(), names.end());
    std::vector<Value> items;
    for (auto &n : names) items.push_back(in.str(n));
    mod->scope->vars["__all__"] = in.list(items);
    return Value();
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
  bind("encode_tensors(tensors)", [](Interpreter &in, const Bound &a) -> Value {
    return Value(make<BytesObject>(encodeTensors(in, a["tensors"])));
  });
  bind("decode_tensors(data)", [](Interpreter &in, const Bound &a) { return decodeTensors(in, bytesOf(in, a["data"])); });
  bind("write_container(path, header, weights)", [](Interpreter &in, const Bound &a) {
    writeContainer(in, in.str(a["path"]), in.str(a["header"]), bytesOf(in, a["weights"]));
    return Value();
  });
  bind("read_container(path)", [](Interpreter &in, const Bound &a) { return readContainer(in, in.str(a["path"])); });
  // Keras v3 .keras files: zip archives of (name, bytes) members, stored
  // uncompressed as Python's zipfile writes them by default, and written
  // atomically.
  bind("zip_write(path, members)", [](Interpreter &in, const Bound &a) {
    std::vector<std::pair<std::string, std::string>> members;
    auto *list = a["members"].as<ListObject>();
    if (!list) in.raise("TypeError", "zip_write: members must be a list of (name, bytes) pairs");
    for (const Value &m : list->items) {
      auto *pair = m.as<TupleObject>();
      if (!pair || pair->items.size() != 2) in.raise("TypeError", "zip_write: a member must be a (name, bytes) pair");
      members.emplace_back(in.str(pair->items[0]), bytesOf(in, pair->items[1]));
    }
    std::string path = in.str(a["path"]);
    writeAtomic(in, path, lib::writeZip(in, members, false, "the .keras archive " + path));
    return Value();
  });
  bind("zip_read(path)", [](Interpreter &in, const Bound &a) -> Value {
    auto out = make<ListObject>();
    for (auto &[name, data] : lib::readZip(in, lib::readWholeFile(in, in.str(a["path"]))))
      out->items.push_back(Value(make<TupleObject>(std::vector<Value>{Value(make<StrObject>(name)),
                                                                     Value(make<BytesObject>(data))})));
    return Value(out);
  });
  // TF's to_hash_bucket_fast of each string (bytes or str) of a list:
  // FarmHash Fingerprint64 modulo num_buckets (Keras's Hashing layer).
  bind("fingerprint64_buckets(strings, num_buckets)", [](Interpreter &in, const Bound &a) -> Value {
    auto *list = a["strings"].as<ListObject>();
    if (!list) in.raise("TypeError", "fingerprint64_buckets: strings must be a list");
    int64_t buckets = in.toInt(a["num_buckets"]);
    if (buckets <= 0) in.raise("ValueError", "num_buckets must be positive");
    auto out = make<ListObject>();
    for (const Value &s : list->items)
      out->items.push_back(Value::integer(int64_t(tfs::runtime::kernels::fingerprint64(bytesOf(in, s)) % uint64_t(buckets))));
    return Value(out);
  });
  bind("crc32(data)", [](Interpreter &in, const Bound &a) {
    return Value::integer(int64_t(crcOf(bytesOf(in, a["data"]))));
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
  // plot_model: renders Graphviz text with `dot -T<format> -o <path>` (what
  // pydot runs). Returns dot's exit status, 127 when Graphviz's `dot` cannot
  // be started (Keras then raises its "install graphviz" ImportError).
  bind("render_dot(text, format, path)", [](Interpreter &in, const Bound &a) -> Value {
    std::string path = in.str(a["path"]);
    std::string source = path + ".tfs-dot.tmp";
    {
      std::ofstream f(source);
      f << in.str(a["text"]);
      if (!f) in.raise("OSError", fmt::format("cannot write {}", source));
    }
    std::string t = "-T" + in.str(a["format"]);
    std::vector<std::string> argv = {"dot", t, "-o", path, source};
    std::vector<char *> cargs;
    for (auto &s : argv) cargs.push_back(s.data());
    cargs.push_back(nullptr);
    pid_t pid;
    int status = 127;
    if (posix_spawnp(&pid, "dot", nullptr, nullptr, cargs.data(), environ) == 0) {
      int ws = 0;
      if (waitpid(pid, &ws, 0) == pid) status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 1;
    }
    std::error_code ec;
    fs::remove(source, ec);
    return Value::integer(status);
  });
  // Mixed precision (runtime/tf/autocast_variables.h): mark a variable a
  // mixed-policy layer made; set the dtype marked variables read as while a
  // layer is called (None: as themselves), returning the previous one.
  bind("autocast_variable(variable)", [](Interpreter &in, const Bound &a) -> Value {
    auto *v = a["variable"].as<VariableObject>();
    if (!v) in.raise("TypeError", "autocast_variable expects a tf.Variable");
    markAutocastVariable(*v);
    return Value();
  });
  bind("enable_autocast(dtype)", [](Interpreter &in, const Bound &a) -> Value {
    std::optional<DType> previous = setAutocastDtype(a["dtype"].isNone() ? std::nullopt : dtypeArg(in, a["dtype"]));
    return previous ? dtypeValue(*previous) : Value();
  });
  return Value(m);
}

}  // namespace

void registerKerasModules() {
  Interpreter::registerNativeModule("_keras_native", makeKerasNative);
  Interpreter::registerNativeModule("_keras_hdf5", makeKerasHdf5);
  // `import keras` is tf.keras, as with TensorFlow 2.15's Keras 2.
  Interpreter::registerNativeModule("keras", [](Interpreter &in) {
    return in.getAttr(in.importModule("tensorflow"), "keras");
  });
}

}  // namespace tfs::runtime::tf
