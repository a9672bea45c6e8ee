// Built-in exception classes whose instances carry more than `args`
// (CPython's attributes and messages): StopIteration.value,
// SystemExit.code, OSError's errno/strerror/filename ("[Errno 2] No such
// file or directory: 'x'", and OSError(errno, ...) choosing the subclass
// for the errno as CPython does), KeyError's repr of its key.
#include "runtime/interp/builtins.h"
#include "runtime/interp/exception_notes.h"
#include "runtime/interp/os_error_class.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

namespace tfs::runtime {

namespace {
Value argOr(Args a, size_t i) { return i < a.size() ? a[i] : Value(); }

// CPython's OSError constructor maps these errnos to subclasses.
const char *osErrorSubclass(int64_t err) {
  switch (err) {
  case ENOENT: return "FileNotFoundError";
  case EEXIST: return "FileExistsError";
  case EISDIR: return "IsADirectoryError";
  case ENOTDIR: return "NotADirectoryError";
  case EACCES: case EPERM: return "PermissionError";
  case EINTR: return "InterruptedError";
  case EAGAIN: case EALREADY: case EINPROGRESS: return "BlockingIOError";
  case ECHILD: return "ChildProcessError";
  case ESRCH: return "ProcessLookupError";
  case ETIMEDOUT: return "TimeoutError";
  case EPIPE: case ESHUTDOWN: return "BrokenPipeError";
  case ECONNABORTED: return "ConnectionAbortedError";
  case ECONNREFUSED: return "ConnectionRefusedError";
  case ECONNRESET: return "ConnectionResetError";
  default: return nullptr;
  }
}
}  // namespace

ClassObject *osErrorClassFor(Interpreter &in, ClassObject *cls, Args args) {
  // CPython maps only for OSError itself, with 2 to 5 arguments.
  if (args.size() < 2 || args.size() > 5 || !args[0].isInt()) return cls;
  ClassObject *os = in.exceptionClass("OSError").get();
  if (cls != os) return cls;
  const char *sub = osErrorSubclass(args[0].asInt());
  return sub ? in.exceptionClass(sub).get() : cls;
}

void installExceptionDetails(Interpreter &in) {
  installExceptionNotes(in);
  auto stop = in.exceptionClass("StopIteration");
  stop->setAttr("value", Value());
  stop->setAttr("__init__", in.native("__init__", [](Interpreter &in, Args a, const Kwargs &) {
    auto *inst = a[0].as<InstanceObject>();
    inst->set("args", in.tuple(std::vector<Value>(a.begin() + 1, a.end())));
    inst->set("value", argOr(a, 1));
    return Value();
  }));
  auto exit = in.exceptionClass("SystemExit");
  exit->setAttr("code", Value());
  exit->setAttr("__init__", in.native("__init__", [](Interpreter &in, Args a, const Kwargs &) {
    auto *inst = a[0].as<InstanceObject>();
    inst->set("args", in.tuple(std::vector<Value>(a.begin() + 1, a.end())));
    inst->set("code", a.size() == 2 ? a[1] : a.size() > 2 ? in.tuple(std::vector<Value>(a.begin() + 1, a.end())) : Value());
    return Value();
  }));
  // ImportError(msg, *, name=None, path=None): the module and its file.
  auto importError = in.exceptionClass("ImportError");
  importError->setAttr("name", Value());
  importError->setAttr("path", Value());
  importError->setAttr("__init__", in.native("__init__", [](Interpreter &in, Args a, const Kwargs &kw) {
    auto *inst = a[0].as<InstanceObject>();
    inst->set("args", in.tuple(std::vector<Value>(a.begin() + 1, a.end())));
    for (const auto &[k, v] : kw) {
      if (k != "name" && k != "path")
        in.raise("TypeError", fmt::format("'{}' is an invalid keyword argument for {}()", k, inst->klass->name));
      inst->set(k, v);
    }
    return Value();
  }));
  auto os = in.exceptionClass("OSError");
  for (const char *attr : {"errno", "strerror", "filename", "filename2"}) os->setAttr(attr, Value());
  os->setAttr("__init__", in.native("__init__", [](Interpreter &in, Args a, const Kwargs &) {
    auto *inst = a[0].as<InstanceObject>();
    size_t n = a.size() - 1;
    std::vector<Value> args(a.begin() + 1, a.end());
    if (n >= 2 && n <= 5) {
      inst->set("errno", a[1]);
      inst->set("strerror", a[2]);
      if (n >= 3) inst->set("filename", a[3]);
      if (n >= 5) inst->set("filename2", a[5]);
      args.resize(2);  // CPython: args holds (errno, strerror) only
    }
    inst->set("args", in.tuple(std::move(args)));
    return Value();
  }));
}

Value Interpreter::newOSError(int err, const std::string &filename, const std::string &filename2) {
  const char *sub = osErrorSubclass(err);
  Value exc = newException(exceptionClass(sub ? sub : "OSError"), "");
  auto *inst = exc.as<InstanceObject>();
  std::string strerror = std::strerror(err);
  inst->set("args", tuple({Value::integer(err), str(strerror)}));
  inst->set("errno", Value::integer(err));
  inst->set("strerror", str(strerror));
  if (!filename.empty()) inst->set("filename", str(filename));
  if (!filename2.empty()) inst->set("filename2", str(filename2));
  return exc;
}

std::optional<std::string> specialExceptionMessage(Interpreter &in, InstanceObject &inst) {
  auto get = [&](const char *k) {
    auto it = inst.attrs.find(k);
    return it == inst.attrs.end() ? Value() : it->second;
  };
  if (inst.klass->isSubclassOf(in.exceptionClass("SyntaxError").get())) {
    // "msg (file, line N)": the file's base name, as CPython's SyntaxError_str
    Value msg = get("msg"), file = get("filename"), line = get("lineno");
    auto *f = file.as<StrObject>();
    if (msg.isNone() || (!f && !line.isInt())) return std::nullopt;
    std::string base = f ? f->s.substr(f->s.rfind('/') == std::string::npos ? 0 : f->s.rfind('/') + 1) : "";
    if (f && line.isInt()) return fmt::format("{} ({}, line {})", in.str(msg), base, line.asInt());
    if (f) return fmt::format("{} ({})", in.str(msg), base);
    return fmt::format("{} (line {})", in.str(msg), line.asInt());
  }
  if (!inst.klass->isSubclassOf(in.exceptionClass("OSError").get())) return std::nullopt;
  Value err = get("errno"), strerror = get("strerror");
  if (err.isNone() || strerror.isNone()) return std::nullopt;
  Value f1 = get("filename"), f2 = get("filename2");
  std::string s = fmt::format("[Errno {}] {}", in.str(err), in.str(strerror));
  if (!f1.isNone()) s += ": " + in.repr(f1);
  if (!f2.isNone()) s += " -> " + in.repr(f2);
  return s;
}

}  // namespace tfs::runtime
