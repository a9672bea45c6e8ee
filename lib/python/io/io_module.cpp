// open(), the `io` module (StringIO, BytesIO, UnsupportedOperation) and the
// builtins that talk to the sys streams: print() writes to sys.stdout (or
// file=), input() reads sys.stdin -- looked up at each call, as CPython
// does, so a script may replace them.
#include "lib/python/io/stream.h"
#include "lib/python/python_modules.h"
#include "runtime/interp/signature.h"

#include <cerrno>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tfs::runtime::pyio {

namespace {

struct ParsedMode {
  bool reading = false, writing = false, appending = false, creating = false, updating = false, binary = false;
};

ParsedMode parseMode(Interpreter &in, const std::string &mode) {
  ParsedMode m;
  bool text = false;
  std::string seen;
  for (char c : mode) {
    if (std::string_view("rwxabt+").find(c) == std::string_view::npos || seen.find(c) != std::string::npos)
      in.raise("ValueError", fmt::format("invalid mode: '{}'", mode));
    seen += c;
    switch (c) {
    case 'r': m.reading = true; break;
    case 'w': m.writing = true; break;
    case 'a': m.appending = true; break;
    case 'x': m.creating = true; break;
    case '+': m.updating = true; break;
    case 'b': m.binary = true; break;
    case 't': text = true; break;
    }
  }
  if (text && m.binary) in.raise("ValueError", "can't have text and binary mode at once");
  int kinds = m.reading + m.writing + m.appending + m.creating;
  if (kinds > 1) in.raise("ValueError", "must have exactly one of create/read/write/append mode");
  if (kinds == 0)
    in.raise("ValueError", "Must have exactly one of create/read/write/append mode and at most one plus");
  return m;
}

NewlineMode newlineMode(Interpreter &in, const Value &newline) {
  if (newline.isNone()) return NewlineMode::Universal;
  std::string n = in.str(newline);
  if (n.empty()) return NewlineMode::Untranslated;
  if (n == "\n") return NewlineMode::LF;
  if (n == "\r") return NewlineMode::CR;
  if (n == "\r\n") return NewlineMode::CRLF;
  in.raise("ValueError", fmt::format("illegal newline value: {}", n));
}

void checkStrOrNone(Interpreter &in, const char *fn, const char *param, const Value &v) {
  if (!v.isNone() && !v.as<StrObject>())
    in.raise("TypeError", fmt::format("{}() argument '{}' must be str or None, not {}", fn, param, in.typeName(v)));
}

Ref<StreamObject> memoryStream(StreamObject::Kind kind, std::string initial) {
  auto s = make<StreamObject>();
  s->kind = kind;
  s->binary = kind == StreamObject::Kind::BytesIO;
  s->readable = s->writable = true;
  s->memory = std::move(initial);
  s->newline = NewlineMode::LF;
  return s;
}

Ref<ClassObject> unsupportedOperationClass(Interpreter &in) {
  auto c = make<ClassObject>();
  c->name = "UnsupportedOperation";
  c->module = "io";
  c->isException = true;
  Ref<ClassObject> osError = in.exceptionClass("OSError"), valueError = in.exceptionClass("ValueError");
  c->bases = {osError, valueError};
  c->mro = {c.get(), osError.get(), valueError.get()};
  for (ClassObject *m : valueError->mro)
    if (m != valueError.get()) c->mro.push_back(m);
  return c;
}

Value makeIoModule(Interpreter &in) {
  auto m = make<ModuleObject>("io");
  auto &vars = m->scope->vars;
  vars["open"] = in.builtin("open");
  vars["UnsupportedOperation"] = Value(unsupportedOperationClass(in));
  vars["SEEK_SET"] = Value::integer(0);
  vars["SEEK_CUR"] = Value::integer(1);
  vars["SEEK_END"] = Value::integer(2);
  vars["DEFAULT_BUFFER_SIZE"] = Value::integer(8192);
  vars["StringIO"] = nativeWithSignature(in, "StringIO(initial_value='', newline=!'\n')", [](Interpreter &in, const Bound &a) {
    Value init = a[0];
    if (!init.isNone() && !init.as<StrObject>())
      in.raise("TypeError", fmt::format("initial_value must be str or None, not {}", in.typeName(init)));
    return Value(memoryStream(StreamObject::Kind::StringIO, init.isNone() ? "" : init.as<StrObject>()->s));
  });
  vars["BytesIO"] = nativeWithSignature(in, "BytesIO(initial_bytes=None)", [](Interpreter &in, const Bound &a) {
    std::string init;
    if (!a[0].isNone()) {
      auto *b = a[0].as<BytesObject>();
      if (!b) in.raise("TypeError", fmt::format("a bytes-like object is required, not '{}'", in.typeName(a[0])));
      init = b->s;
    }
    return Value(memoryStream(StreamObject::Kind::BytesIO, std::move(init)));
  });
  m->lazyOnlyRejects = true;
  m->lazy = [](Interpreter &in, const std::string &name) -> std::optional<Value> {
    static const char *const cpython[] = {"TextIOWrapper", "BufferedReader", "BufferedWriter", "BufferedRandom",
                                          "BufferedRWPair", "FileIO", "IOBase", "RawIOBase", "BufferedIOBase",
                                          "TextIOBase", "IncrementalNewlineDecoder", "open_code", "text_encoding",
                                          "BlockingIOError"};
    for (const char *n : cpython)
      if (name == n) in.raise("NotImplementedError", fmt::format("io.{} is not supported by tfs", name));
    return std::nullopt;
  };
  return Value(m);
}

Value call1(Interpreter &in, const Value &fn, Value arg) { return in.call(fn, Args(&arg, 1)); }

Value sysAttr(Interpreter &in, const char *name) {
  auto *sys = in.importModule("sys").as<ModuleObject>();
  auto it = sys->scope->vars.find(name);
  if (it == sys->scope->vars.end()) in.raise("RuntimeError", fmt::format("lost sys.{}", name));
  return it->second;
}

std::string optionalStr(Interpreter &in, const Value &v, const char *what, const char *dflt) {
  if (v.isNone()) return dflt;
  if (auto *s = v.as<StrObject>()) return s->s;
  in.raise("TypeError", fmt::format("{} must be None or a string, not {}", what, in.typeName(v)));
}

// The module _tfs_stdio (internal): `stdout`, print()'s stream before sys is
// imported, and `sys`, the sys module once it is.
Value makeStdioModule(Interpreter &in) {
  auto m = make<ModuleObject>("_tfs_stdio");
  m->scope->vars["stdout"] = makeStdStream(in, 1);
  return Value(m);
}

// Where print() writes without file=: sys.stdout (sys imported) or the
// stream that sys.stdout would start as.
Value printTarget(Interpreter &in) {
  auto *stdio = in.importModule("_tfs_stdio").as<ModuleObject>();
  auto &vars = stdio->scope->vars;
  auto sys = vars.find("sys");
  if (sys == vars.end()) return vars.find("stdout")->second;
  auto &sysVars = sys->second.as<ModuleObject>()->scope->vars;
  auto it = sysVars.find("stdout");
  if (it == sysVars.end()) in.raise("RuntimeError", "lost sys.stdout");
  return it->second;
}

Value print(Interpreter &in, const Bound &a) {
  std::string sep = optionalStr(in, a["sep"], "sep", " ");
  std::string end = optionalStr(in, a["end"], "end", "\n");
  Value file = a["file"];
  if (file.isNone()) file = printTarget(in);
  if (file.isNone()) return Value();
  const auto &items = a.varArgs();
  if (auto *s = file.as<StreamObject>(); s && !s->binary) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out += sep;
      out += in.str(items[i]);
    }
    out += end;
    if (s->file == stderr) std::fflush(stdout);  // a merged stream keeps program order
    s->writeText(in, out);
    if (in.truth(a["flush"]) || s->file == stderr) s->flush(in);
    return Value();
  }
  Value write = in.getAttr(file, "write");
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) call1(in, write, in.str(sep));
    call1(in, write, in.str(in.str(items[i])));
  }
  call1(in, write, in.str(end));
  if (in.truth(a["flush"])) in.call(in.getAttr(file, "flush"), {});
  return Value();
}

Value input(Interpreter &in, const Bound &a) {
  Value out = sysAttr(in, "stdout"), inp = sysAttr(in, "stdin");
  if (inp.isNone()) in.raise("RuntimeError", "input(): lost sys.stdin");
  if (out.isNone()) in.raise("RuntimeError", "input(): lost sys.stdout");
  std::fflush(stderr);
  if (a.given("prompt")) {
    std::string p = in.str(a[0]);
    if (auto *s = out.as<StreamObject>()) s->writeText(in, p);
    else call1(in, in.getAttr(out, "write"), in.str(p));
  }
  if (auto *s = out.as<StreamObject>()) s->flush(in);
  else in.call(in.getAttr(out, "flush"), {});
  Value line;
  if (auto *s = inp.as<StreamObject>()) line = s->readline(in, -1);
  else line = in.call(in.getAttr(inp, "readline"), {});
  auto *str = line.as<StrObject>();
  if (!str) in.raise("TypeError", "object.readline() returned non-string");
  if (str->s.empty()) in.raise("EOFError", "EOF when reading a line");
  std::string text = str->s;
  if (text.back() == '\n') text.pop_back();
  return in.str(text);
}

// A builtin bound by a signature, with the message CPython's C builtins give
// an unknown keyword ("'x' is an invalid keyword argument for print()").
Value builtinWithSignature(Interpreter &in, const char *text, SignedFn fn) {
  auto sig = std::make_shared<Signature>(text);
  return in.native(sig->name(), [sig, fn](Interpreter &in, Args args, const Kwargs &kw) {
    for (const auto &[k, v] : kw) {
      bool known = false;
      for (const auto &p : sig->params()) known |= p.name == k && !p.positionalOnly;
      if (!known && !sig->hasVarKwargs())
        in.raise("TypeError", fmt::format("'{}' is an invalid keyword argument for {}()", k, sig->name()));
    }
    return fn(in, sig->bind(in, args, kw));
  });
}

void installBuiltins(Interpreter &in, Scope &builtins) {
  builtins.vars["open"] = builtinWithSignature(
      in, "open(file, mode='r', buffering=-1, encoding=None, errors=None, newline=None, closefd=True, opener=!None)",
      [](Interpreter &in, const Bound &a) {
        if (!a["mode"].as<StrObject>())
          in.raise("TypeError", fmt::format("open() argument 'mode' must be str, not {}", in.typeName(a["mode"])));
        checkStrOrNone(in, "open", "encoding", a["encoding"]);
        checkStrOrNone(in, "open", "errors", a["errors"]);
        checkStrOrNone(in, "open", "newline", a["newline"]);
        return openFile(in, a["file"], in.str(a["mode"]), in.toIndex(a["buffering"]), a["encoding"], a["errors"],
                        a["newline"], in.truth(a["closefd"]));
      });
  builtins.vars["print"] = builtinWithSignature(in, "print(*args, sep=' ', end='\n', file=None, flush=False)", print);
  builtins.vars["input"] = nativeWithSignature(in, "input(prompt='', /)", input);
}

}  // namespace

std::string fsPath(Interpreter &in, const Value &file) {
  if (auto *s = file.as<StrObject>()) return s->s;
  if (auto *b = file.as<BytesObject>()) return b->s;
  if (auto fspath = in.getAttrOpt(file, "__fspath__")) {
    Value p = in.call(*fspath, {});
    if (auto *s = p.as<StrObject>()) return s->s;
    if (auto *b = p.as<BytesObject>()) return b->s;
  }
  in.raise("TypeError", fmt::format("expected str, bytes or os.PathLike object, not {}", in.typeName(file)));
}

Value openFile(Interpreter &in, const Value &file, const std::string &mode, int64_t buffering, const Value &encoding,
               const Value &errors, const Value &newline, bool closefd) {
  ParsedMode m = parseMode(in, mode);
  if (m.binary && !encoding.isNone()) in.raise("ValueError", "binary mode doesn't take an encoding argument");
  if (m.binary && !errors.isNone()) in.raise("ValueError", "binary mode doesn't take an errors argument");
  if (m.binary && !newline.isNone()) in.raise("ValueError", "binary mode doesn't take a newline argument");
  NewlineMode nl = m.binary ? NewlineMode::LF : newlineMode(in, newline);
  if (buffering == 0 && !m.binary) in.raise("ValueError", "can't have unbuffered text I/O");
  auto s = make<StreamObject>();
  s->binary = m.binary;
  s->readable = m.reading || m.updating;
  s->writable = !m.reading || m.updating;
  s->appending = m.appending;
  s->newline = nl;
  s->newlineArg = newline;
  s->closefd = closefd;
  if (!m.binary) {
    s->encoding = encoding.isNone() ? Encoding::Utf8 : lookupEncoding(in, in.str(encoding));
    s->encodingText = encoding.isNone() ? "UTF-8" : in.str(encoding);
    s->errors = errors.isNone() ? "strict" : in.str(errors);
    s->mode = mode;
  } else {
    s->mode = m.creating ? (s->readable ? "xb+" : "xb")
              : m.appending ? (s->readable ? "ab+" : "ab")
              : s->readable ? (s->writable ? "rb+" : "rb") : "wb";
  }
  int fd;
  if (file.isInt() || file.isBool()) {
    fd = int(file.asInt());
    s->name = file;
    if (::fcntl(fd, F_GETFD) < 0) in.raiseValue(in.newOSError(errno));
  } else {
    if (!closefd) in.raise("ValueError", "Cannot use closefd=False with file name");
    std::string path = fsPath(in, file);
    s->name = in.str(path);
    if (s->writable && in.options().readOnlyFiles) in.raiseValue(in.newOSError(EROFS, path));
    int flags = O_CLOEXEC | (s->readable && s->writable ? O_RDWR : s->readable ? O_RDONLY : O_WRONLY);
    if (m.writing) flags |= O_CREAT | O_TRUNC;
    if (m.appending) flags |= O_CREAT | O_APPEND;
    if (m.creating) flags |= O_CREAT | O_EXCL;
    fd = ::open(path.c_str(), flags, 0666);
    if (fd < 0) in.raiseValue(in.newOSError(errno, path));
    struct stat st{};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      ::close(fd);
      in.raiseValue(in.newOSError(EISDIR, path));
    }
  }
  if (m.appending) ::lseek(fd, 0, SEEK_END);
  const char *stdioMode = s->readable && s->writable ? (m.appending ? "a+" : "r+") : s->readable ? "r" : m.appending ? "a" : "w";
  s->file = ::fdopen(fd, stdioMode);
  if (!s->file) {
    int err = errno;
    if (closefd) ::close(fd);
    in.raiseValue(in.newOSError(err));
  }
  if (buffering == 0) std::setvbuf(s->file, nullptr, _IONBF, 0);
  else if (buffering == 1 && !m.binary) std::setvbuf(s->file, nullptr, _IOLBF, BUFSIZ);
  struct stat st{};
  s->seekable = ::fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode));
  return Value(s);
}

Value makeStdStream(Interpreter &, int fd) {
  auto s = make<StreamObject>();
  s->kind = StreamObject::Kind::StdStream;
  s->file = fd == 0 ? stdin : fd == 1 ? stdout : stderr;
  s->readable = fd == 0;
  s->writable = fd != 0;
  s->encodingText = "utf-8";
  s->errors = fd == 2 ? "backslashreplace" : "strict";
  s->newline = NewlineMode::LF;
  s->mode = fd == 0 ? "r" : "w";
  s->closefd = false;
  s->name = Value(make<StrObject>(fd == 0 ? "<stdin>" : fd == 1 ? "<stdout>" : "<stderr>"));
  struct stat st{};
  s->seekable = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  return Value(s);
}

void noteSysModuleLoaded(Interpreter &in, const Value &sys) {
  in.importModule("_tfs_stdio").as<ModuleObject>()->scope->vars["sys"] = sys;
}

void registerIo() {
  Interpreter::registerNativeModule("io", makeIoModule);
  Interpreter::registerNativeModule("_tfs_stdio", makeStdioModule);
  Interpreter::registerBuiltins(installBuiltins);
}

}  // namespace tfs::runtime::pyio
