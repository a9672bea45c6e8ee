// Interpreter set-up and the pieces that tie it together: builtins and the
// exception hierarchy, type(), raising, the module system (native modules
// and .tfs prelude modules), step limits and SIGINT, and runModule, which
// prints uncaught exceptions in the diagnostic format.
#include "runtime/interp/exception_notes.h"
#include "runtime/interp/interpreter.h"

#include "frontend/ast_serialize.h"
#include "frontend/frontend.h"
#include "ir/op_table.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/complex_object.h"
#include "runtime/interp/eval.h"
#include "runtime/interp/generator.h"
#include "runtime/interp/suggestions.h"
#include "runtime/tensor/allocator.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <cstdio>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <unistd.h>

namespace tfs::runtime {

std::atomic<bool> Interpreter::interruptRequested{false};

namespace {
std::atomic<bool> &interrupted = Interpreter::interruptRequested;

// Ctrl-C: the interpreter polls `interrupted` at every step and raises
// KeyboardInterrupt (exit 130). Native code (a compiled while_loop, a long
// kernel) does not poll, so if the flag is still unclaimed after 2 s, or at
// a second Ctrl-C, the process stops at once with the same message/status.
[[noreturn]] void stopNow() {
  static const char msg[] = "\nKeyboardInterrupt\n";
  ssize_t ignored = ::write(2, msg, sizeof msg - 1);
  (void)ignored;
  ::_exit(130);
}
void onAlarm(int) {
  if (interrupted.load()) stopNow();
}
void onSigint(int) {
  if (interrupted.exchange(true)) stopNow();
  std::signal(SIGALRM, onAlarm);
  ::alarm(2);
}

std::map<std::string, Interpreter::ModuleFactory> &nativeModules() {
  static std::map<std::string, Interpreter::ModuleFactory> m;
  return m;
}

std::vector<Interpreter::BuiltinsInstaller> &builtinsInstallers() {
  static std::vector<Interpreter::BuiltinsInstaller> v;
  return v;
}

std::set<std::string> &unsupportedModules() {
  static std::set<std::string> m;
  return m;
}

std::map<std::string, const char *> &sourceModules() {
  static std::map<std::string, const char *> m;
  return m;
}

// CPython's exception hierarchy (name, base).
const std::pair<const char *, const char *> kExceptions[] = {
    {"BaseException", ""},
    {"Exception", "BaseException"},
    {"SystemExit", "BaseException"},
    {"KeyboardInterrupt", "BaseException"},
    {"GeneratorExit", "BaseException"},
    {"ArithmeticError", "Exception"},
    {"ZeroDivisionError", "ArithmeticError"},
    {"OverflowError", "ArithmeticError"},
    {"AssertionError", "Exception"},
    {"AttributeError", "Exception"},
    {"EOFError", "Exception"},
    {"ImportError", "Exception"},
    {"ModuleNotFoundError", "ImportError"},
    {"LookupError", "Exception"},
    {"IndexError", "LookupError"},
    {"KeyError", "LookupError"},
    {"NameError", "Exception"},
    {"UnboundLocalError", "NameError"},
    {"OSError", "Exception"},
    {"FileNotFoundError", "OSError"},
    {"FileExistsError", "OSError"},
    {"IsADirectoryError", "OSError"},
    {"NotADirectoryError", "OSError"},
    {"PermissionError", "OSError"},
    {"InterruptedError", "OSError"},
    {"BlockingIOError", "OSError"},
    {"ChildProcessError", "OSError"},
    {"ProcessLookupError", "OSError"},
    {"TimeoutError", "OSError"},
    {"ConnectionError", "OSError"},
    {"BrokenPipeError", "ConnectionError"},
    {"ConnectionAbortedError", "ConnectionError"},
    {"ConnectionRefusedError", "ConnectionError"},
    {"ConnectionResetError", "ConnectionError"},
    {"RuntimeError", "Exception"},
    {"RecursionError", "RuntimeError"},
    {"NotImplementedError", "RuntimeError"},
    {"StopIteration", "Exception"},
    {"StopAsyncIteration", "Exception"},
    {"SyntaxError", "Exception"},
    {"IndentationError", "SyntaxError"},
    {"TypeError", "Exception"},
    {"ValueError", "Exception"},
    {"UnicodeError", "ValueError"},
    {"UnicodeDecodeError", "UnicodeError"},
    {"UnicodeEncodeError", "UnicodeError"},
    {"UnicodeTranslateError", "UnicodeError"},
    {"MemoryError", "Exception"},
    {"FloatingPointError", "ArithmeticError"},
    {"BufferError", "Exception"},
    {"ReferenceError", "Exception"},
    {"SystemError", "Exception"},
    {"TabError", "IndentationError"},
    {"Warning", "Exception"},
    {"UserWarning", "Warning"},
    {"DeprecationWarning", "Warning"},
    {"PendingDeprecationWarning", "Warning"},
    {"SyntaxWarning", "Warning"},
    {"RuntimeWarning", "Warning"},
    {"FutureWarning", "Warning"},
    {"ImportWarning", "Warning"},
    {"UnicodeWarning", "Warning"},
    {"BytesWarning", "Warning"},
    {"ResourceWarning", "Warning"},
};
}  // namespace

void installInterruptHandler() { std::signal(SIGINT, onSigint); }

Interpreter::Interpreter(const RunOptions &options) : options_(options) {
  if (options.profile || options.timePhases) {
    profiler_ = std::make_unique<Profiler>();
    profiler_->setTimeOps(options.profile);
    profiler_->addPhase(Phase::Parse, int64_t(options.parseSeconds * 1e9));
  }
  builtins_ = make<Scope>();
  installBuiltins();
}

Profiler &Interpreter::profilerOnDemand() {
  if (!profiler_) profiler_ = std::make_unique<Profiler>();
  return *profiler_;
}

void Interpreter::printRunReports() {
  if (!profiler_ || (!options_.profile && !options_.timePhases)) return;
  std::string text;
  if (options_.profile) text += profiler_->formatProfile();
  if (options_.timePhases) text += profiler_->formatPhases();
  writeEmitted(options_, text);
}

Interpreter::~Interpreter() = default;

void Interpreter::teardown() {
  runPendingCloses();
  std::vector<Ref<Scope>> scopes{builtins_};
  for (auto &[name, m] : modules_)
    if (auto *mod = m.as<ModuleObject>()) scopes.push_back(mod->scope);
  modules_.clear();
  for (auto &sc : scopes) {
    // Move out first: destroying values may run code that looks names up.
    auto vars = std::move(sc->vars);
    sc->vars.clear();
    vars.clear();
  }
  exceptionClasses_.clear();
  tfContext.reset();
  tornDown_ = true;
  CycleTracked::clearAll();
  runPendingCloses();
}

void Interpreter::installBuiltins() {
  installBuiltinFunctions(*this, *builtins_);
  for (const auto &[name, base] : kExceptions) {
    if (*base) newExceptionClass(name, base);
    else newExceptionClass(name, "");
  }
  builtins_->vars["IOError"] = exceptionClass("OSError");
  builtins_->vars["EnvironmentError"] = exceptionClass("OSError");
  auto baseExc = exceptionClass("BaseException");
  baseExc->setAttr("__init__", native("__init__", [](Interpreter &in, Args a, const Kwargs &) {
    if (auto *inst = a[0].as<InstanceObject>())
      inst->set("args", in.tuple(std::vector<Value>(a.begin() + 1, a.end())));
    return Value();
  }));
  baseExc->setAttr("__str__", native("__str__", [](Interpreter &in, Args a, const Kwargs &) {
    return in.str(in.exceptionMessage(a[0]));
  }));
  installExceptionDetails(*this);
  for (const auto &install : builtinsInstallers()) install(*this, *builtins_);
}

void Interpreter::registerBuiltins(BuiltinsInstaller installer) {
  builtinsInstallers().push_back(std::move(installer));
}

Ref<ClassObject> Interpreter::newExceptionClass(const std::string &name, const std::string &base) {
  auto c = make<ClassObject>();
  c->name = name;
  c->isException = true;
  c->mro.push_back(c.get());
  Ref<ClassObject> b = base.empty() ? Ref<ClassObject>(builtin("object").as<ClassObject>())
                                    : exceptionClass(base);
  c->bases.push_back(b);
  for (ClassObject *m : b->mro) c->mro.push_back(m);
  c->setAttr("__builtin__", Value::boolean(true));
  exceptionClasses_[name] = c;
  if (!builtins_->vars.count(name)) builtins_->vars[name] = c;
  return c;
}

Ref<ClassObject> Interpreter::exceptionClass(const std::string &name) {
  auto it = exceptionClasses_.find(name);
  if (it != exceptionClasses_.end()) return it->second;
  return newExceptionClass(name, "Exception");
}

Value Interpreter::newException(const Ref<ClassObject> &cls, const std::string &message) {
  auto inst = make<InstanceObject>(cls);
  inst->set("args", message.empty() ? tuple({}) : tuple({str(message)}));
  return inst;
}

std::string Interpreter::exceptionMessage(const Value &exc) {
  auto *inst = exc.as<InstanceObject>();
  if (!inst) return str(exc);
  // A __str__ of its own (a script's, or a library class's native one);
  // BaseException's falls through to the args below.
  if (auto m = inst->klass->lookup("__str__");
      m && !m->is(*exceptionClass("BaseException")->lookup("__str__")))
    return str(call(Value(make<BoundMethod>(exc, *m)), {}));
  if (auto special = specialExceptionMessage(*this, *inst)) return *special;
  auto it = inst->attrs.find("args");
  if (it == inst->attrs.end()) return "";
  auto *t = it->second.as<TupleObject>();
  if (!t || t->items.empty()) return "";
  if (t->items.size() == 1) {
    // KeyError shows the repr of its key.
    if (inst->klass->isSubclassOf(exceptionClass("KeyError").get())) return repr(t->items[0]);
    return str(t->items[0]);
  }
  return repr(it->second);
}

void Interpreter::raise(const std::string &cls, const std::string &message) {
  raiseValue(newException(exceptionClass(cls), message));
}

void Interpreter::raiseIntTooLarge() { raise("OverflowError", "Python int too large to convert to C long"); }

int64_t Interpreter::intFrom128(__int128 v) {
  if (v > INT64_MAX || v < INT64_MIN) raiseIntTooLarge();
  return int64_t(v);
}

void Interpreter::raiseValue(Value exc) {
  PyException e;
  // A copy, not a move: GCC 12's mod/ref analysis takes the stores of this
  // [[noreturn]] function as dead, so a caller in this file may destroy the
  // argument as it passed it (still holding the object) while unwinding:
  // moving out of it here released the exception object once too often
  // (`import missing` crashed).
  e.exc = exc;
  e.span = span_;
  e.callChain = callStack_;
  throw e;
}

Value Interpreter::builtin(const std::string &name) {
  auto it = builtins_->vars.find(name);
  return it == builtins_->vars.end() ? Value() : it->second;
}

Ref<ClassObject> Interpreter::typeOf(const Value &v) {
  auto cls = [&](const char *n) { return Ref<ClassObject>(builtin(n).as<ClassObject>()); };
  // Types without a builtin name (NoneType, function, method, ...): one
  // class per type name, kept in the builtins scope under an unspellable key.
  auto hiddenType = [&](const std::string &n) {
    Value &slot = builtins_->vars[" " + n];
    if (slot.isNone()) {
      auto c = make<ClassObject>();
      c->name = n;
      Ref<ClassObject> object = cls("object");
      c->bases.push_back(object);
      c->mro = {c.get(), object.get()};
      c->setAttr("__builtin__", Value::boolean(true));
      // The singletons' types return their one value: type(None)() is None.
      const char *single = n == "NoneType" ? "None" : n == "NotImplementedType" ? "NotImplemented"
                           : n == "ellipsis" ? "Ellipsis" : nullptr;
      if (single)
        c->construct = [n, single = std::string(single)](Interpreter &in, Args a, const Kwargs &kw) -> Value {
          if (!a.empty() || !kw.empty()) in.raise("TypeError", fmt::format("{} takes no arguments", n));
          return single == "None" ? Value() : in.builtin(single);
        };
      slot = Value(c);
    }
    return Ref<ClassObject>(slot.as<ClassObject>());
  };
  switch (v.tag()) {
  case Value::Tag::None: return hiddenType("NoneType");
  case Value::Tag::Bool: return cls("bool");
  case Value::Tag::Int: return cls("int");
  case Value::Tag::Float: return cls("float");
  case Value::Tag::Obj: break;
  }
  if (auto *c = v.obj()->cls()) return Ref<ClassObject>(c);
  if (v.as<StrObject>()) return cls("str");
  if (v.as<BigIntObject>()) return cls("int");
  if (v.as<ComplexObject>()) return cls("complex");
  if (auto *b = v.as<BytesObject>()) return cls(b->isMutable ? "bytearray" : "bytes");
  if (v.as<ListObject>()) return cls("list");
  if (v.as<TupleObject>()) return cls("tuple");
  if (v.as<DictObject>()) return cls("dict");
  if (auto *s = v.as<SetObject>()) return cls(s->frozen ? "frozenset" : "set");
  if (v.as<RangeObject>()) return cls("range");
  if (v.as<SliceObject>()) return cls("slice");
  if (v.as<ClassObject>()) return cls("type");
  // Descriptors whose type is a callable builtin (isinstance(p, property)).
  if (v.as<PropertyObject>()) return cls("property");
  if (v.as<StaticMethodObject>()) return cls("staticmethod");
  if (v.as<ClassMethodObject>()) return cls("classmethod");
  return hiddenType(v.obj()->typeName());
}

void Interpreter::pollInterrupt() {
  // A plain load first: the exchange is a locked instruction, and this runs
  // on every statement.
  if (interrupted.load(std::memory_order_relaxed) && interrupted.exchange(false))
    raise("KeyboardInterrupt", "");
}

void Interpreter::stepChecked() {
  pollInterrupt();
  if (options_.maxSteps > 0 && ++steps_ > options_.maxSteps)
    raise("RuntimeError", fmt::format("step limit exceeded (--max-steps={})", options_.maxSteps));
}

// --- modules -------------------------------------------------------------------

void Interpreter::registerNativeModule(const std::string &name, ModuleFactory factory) {
  nativeModules()[name] = std::move(factory);
}

void Interpreter::registerUnsupportedModule(const std::string &name) { unsupportedModules().insert(name); }

std::vector<std::string> Interpreter::starImportNames(const Value &mod) {
  std::vector<std::string> names;
  if (auto all = getAttrOpt(mod, "__all__")) {
    for (auto &n : toList(*all)) {
      auto *s = n.as<StrObject>();
      if (!s) raise("TypeError", fmt::format("Item in {}.__all__ must be str, not {}",
                                             mod.as<ModuleObject>() ? mod.as<ModuleObject>()->name : "module",
                                             typeName(n)));
      names.push_back(s->s);
    }
    return names;
  }
  if (auto *m = mod.as<ModuleObject>()) {
    // sys makes version_info and float_info on first use and can list them
    // (lib/python/sys/sys_module.cpp); other lazy modules cannot.
    if (m->lazy && m->name == "sys")
      if (auto listed = m->lazy(*this, "_tfs_star_names")) {
        for (auto &n : toList(*listed)) names.push_back(str(n));
        return names;
      }
    // A module whose attributes are partly made on first use (tensorflow,
    // tf.math) cannot list them all: better an error than missing names.
    if (m->lazy && !m->lazyOnlyRejects) raise("NotImplementedError", fmt::format("'from {} import *' is not supported by tfs", m->name));
    for (auto &[k, v] : m->scope->vars)
      if (!k.empty() && k[0] != '_') names.push_back(k);
    std::sort(names.begin(), names.end());
  }
  return names;
}

void Interpreter::registerSourceModule(const std::string &name, const char *text) {
  sourceModules()[name] = text;
}

namespace {
// The parsed AST of prelude module `name`, read from its build-time tree
// (or parsed) once per process and shared by every Interpreter after it:
// reading is cheap, but a process that runs many scripts (the fuzz targets
// and their replay in `make test`, the unit tests) would still pay it per
// script, and a parse (a prelude text with no tree) costs ~1 s for Keras. Sharing is safe: the AST's interpreter caches (ast.h) are
// validated by process-unique ids, versions and class epochs, never by
// pointers alone, and a module's AST is immutable otherwise. An entry is
// checked against the registered text too (a test may register another text
// under the same name); a prelude that fails to parse is not cached.
std::shared_ptr<ast::Module> parsedPrelude(const std::string &name, const char *text) {
  static std::mutex mu;
  // Never destroyed: freeing the trees node by node at exit cost ~8% of a
  // Keras program's start-up, and the process is ending anyway.
  static auto &parsed = *new std::unordered_map<std::string, std::pair<std::string, std::shared_ptr<ast::Module>>>;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = parsed.find(name); it != parsed.end() && it->second.first == text) return it->second.second;
  }
  // The tree made at build time when there is one for this very text (Note
  // [prelude ASTs at build time]): the same nodes and spans as a parse.
  std::string path = std::string("<prelude ") + name + ">";
  std::shared_ptr<ast::Module> module;
  if (std::string_view blob = frontend::serializedModule(name); !blob.empty())
    module = frontend::deserializeModule(blob, std::make_shared<frontend::SourceFile>(path, text));
  if (!module) module = frontend::parseSource(path, text);
  std::lock_guard<std::mutex> lock(mu);
  parsed[name] = {text, module};
  return module;
}
}  // namespace

Value Interpreter::importPrelude(const std::string &name) {
  auto src = sourceModules().find(name);
  if (src == sourceModules().end()) return Value();
  // As CPython does, a submodule's package is imported first (importModule
  // then binds the submodule as its attribute).
  if (size_t dot = name.rfind('.'); dot != std::string::npos) {
    std::string parent = name.substr(0, dot);
    if (!modules_.count(parent) && (sourceModules().count(parent) || nativeModules().count(parent)))
      importModule(parent);
    if (auto it = modules_.find(name); it != modules_.end()) return it->second;  // the package imported it
  }
  auto mod = make<ModuleObject>(name);
  modules_[name] = mod;
  std::shared_ptr<ast::Module> owner = parsedPrelude(name, src->second);
  mod->scope->vars["__name__"] = str(name);
  // Keep the AST alive as long as the module.
  mod->scope->vars["__ast__"] = Value(make<NativeFunction>("<ast>", [owner](Interpreter &, Args, const Kwargs &) { return Value(); }));
  // An error the import statement raises after the body ran (`from pandas.foo
  // import x`: no module pandas.foo) points at that statement, not at the
  // body's last line.
  frontend::SourceSpan importSite = currentSpan();
  runModuleBody(*owner, mod->scope);
  restoreSpan(importSite);
  return mod;
}

namespace {
// The engine's module table as a module: `_tfs_modules.modules`, a dict of
// every module imported so far (sys.modules is this dict). Made on its first
// import; from then on importModule keeps it current and answers from it (a
// module a script puts there is what `import` gives).
constexpr const char *kModuleTable = "_tfs_modules";
}  // namespace

Value Interpreter::importModule(const std::string &dotted) {
  DictObject *table = nullptr;
  if (auto t = modules_.find(kModuleTable); t != modules_.end())
    table = t->second.as<ModuleObject>()->scope->vars["modules"].as<DictObject>();
  if (table) {
    if (std::optional<Value> found = table->get(*this, str(dotted))) return *found;
  } else if (dotted == kModuleTable) {
    std::vector<std::string> names;
    for (auto &[name, m] : modules_) names.push_back(name);
    std::sort(names.begin(), names.end());
    auto d = make<DictObject>();
    for (auto &name : names) d->set(*this, str(name), modules_[name]);
    auto m = make<ModuleObject>(kModuleTable);
    m->scope->vars["modules"] = Value(d);
    modules_[kModuleTable] = Value(m);
    return Value(m);
  }
  auto load = [&]() -> Value {
    auto it = modules_.find(dotted);
    if (it != modules_.end()) return it->second;
    auto nm = nativeModules().find(dotted);
    if (nm != nativeModules().end()) {
      Value m = nm->second(*this);
      modules_[dotted] = m;
      return m;
    }
    if (Value p = importPrelude(dotted); !p.isNone()) return p;
    // a.b.c: import `a`, then walk attributes, then look in a's directory.
    size_t dot = dotted.rfind('.');
    if (dot == std::string::npos) {
      if (auto m = importFromFiles(dotted, nullptr)) return *m;
    } else {
      Value parent = importModule(dotted.substr(0, dot));
      // The parent's module __getattr__ raising AttributeError only says
      // the submodule is not an attribute yet: look for its file.
      std::optional<Value> attr;
      try {
        attr = getAttrOpt(parent, dotted.substr(dot + 1));
      } catch (PyException &e) {
        if (!isInstance(e.exc, exceptionClass("AttributeError").get())) throw;
      }
      if (auto v = attr) {
        modules_[dotted] = *v;
        return *v;
      }
      if (auto m = importFromFiles(dotted, &parent)) {
        setAttr(parent, dotted.substr(dot + 1), *m);
        return *m;
      }
    }
    std::string top = dotted.substr(0, dotted.find('.'));
    Value err = newException(exceptionClass("ModuleNotFoundError"),
                             unsupportedModules().count(top) ? fmt::format("module '{}' is not supported by tfs", dotted)
                                                             : fmt::format("No module named '{}'", dotted));
    err.as<InstanceObject>()->set("name", str(dotted));
    raiseValue(err);
  };
  Value m = load();
  if (table) table->set(*this, str(dotted), m);
  // A submodule becomes an attribute of its loaded parent package, as
  // CPython's import binds it (urllib.parse after `import urllib.parse`).
  if (size_t dot = dotted.rfind('.'); dot != std::string::npos) {
    auto parent = modules_.find(dotted.substr(0, dot));
    if (parent != modules_.end())
      if (auto *pm = parent->second.as<ModuleObject>(); pm && !pm->scope->vars.count(dotted.substr(dot + 1)))
        pm->scope->vars[dotted.substr(dot + 1)] = m;
  }
  return m;
}

void Interpreter::runModuleBody(const ast::Module &module, Ref<Scope> globals) {
  Frame frame;
  frame.locals = globals;
  frame.globals = globals;
  // The module's docstring: its first statement when that is a string.
  Value doc;
  if (!module.body.empty())
    if (auto *es = llvm::dyn_cast<ast::ExprStmt>(module.body[0].get()))
      if (auto *c = llvm::dyn_cast<ast::Constant>(es->value.get()); c && c->type == ast::Constant::Type::Str)
        doc = str(c->s);
  globals->vars.insert_or_assign("__doc__", doc);
  // The script's own globals are importable as `__main__` (CPython's
  // sys.modules['__main__']): unittest.main() and absl's flags look there.
  if (!modules_.count("__main__")) {
    auto name = globals->vars.find("__name__");
    if (name != globals->vars.end())
      if (auto *s = name->second.as<StrObject>(); s && s->s == "__main__") {
        auto m = make<ModuleObject>("__main__");
        m->scope = globals;
        modules_["__main__"] = Value(m);
      }
  }
  Evaluator ev{*this, frame};
  ev.execBody(module.body);
}

// --- the entry point -------------------------------------------------------------

void writeEmitted(const RunOptions &options, const std::string &text) {
  std::fflush(stdout);  // keep program order in a merged stream
  std::FILE *out = options.emitStream ? options.emitStream : stderr;
  std::fputs(text.c_str(), out);
  std::fflush(out);
}

namespace {

// The report, each line after `options.errorReportPrefix()` when set.
void writeReport(const RunOptions &options, const frontend::Diagnostic &d) {
  std::string text = frontend::formatDiagnostic(d);
  std::string prefix = options.errorReportPrefix ? options.errorReportPrefix() : std::string();
  if (!prefix.empty()) {
    std::string prefixed;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      end = end == std::string::npos ? text.size() : end + 1;
      prefixed += prefix;
      prefixed.append(text, start, end - start);
      start = end;
    }
    text = std::move(prefixed);
  }
  std::fputs(text.c_str(), stderr);
}

}  // namespace

int runReporting(Interpreter &in, const RunOptions &options, const std::function<void()> &body,
                 bool *exited) {
  int status = 0;
  try {
    body();
  } catch (const PyException &e) {
    std::fflush(stdout);
    frontend::Diagnostic d;
    auto *inst = e.exc.as<InstanceObject>();
    d.errorClass = inst ? inst->klass->name : in.typeName(e.exc);
    // As CPython's traceback names it: a class defined in a module other than
    // the script is qualified by it (json.decoder.JSONDecodeError).
    if (inst) {
      auto mod = inst->klass->dict.find("__module__");
      if (mod != inst->klass->dict.end())
        if (auto *m = mod->second.as<StrObject>(); m && m->s != "__main__" && m->s != "builtins")
          d.errorClass = m->s + "." + d.errorClass;
    }
    try {
      d.message = in.exceptionMessage(e.exc);
      // CPython 3.11 adds its suggestion when it reports the error.
      if (std::string hint = suggestionFor(in, e.exc); !hint.empty()) d.message += ". " + hint;
      d.message += exceptionNotesText(in, e.exc);
      d.message += exceptionGroupText(in, e.exc);
    } catch (...) {
      d.message = "<exception str() failed>";
    }
    d.span = e.span;
    // The chain: call sites from the outermost; the error's own span is last.
    d.callChain = e.callChain;
    if (d.errorClass == "KeyboardInterrupt") {
      std::fputs("KeyboardInterrupt\n", stderr);
      status = 130;
    } else if (d.errorClass == "SystemExit") {
      if (exited) *exited = true;
      // sys.exit(True) (unittest.main's `not wasSuccessful()`) is status 1:
      // a bool is an int, not a message to print.
      if (auto *inst = e.exc.as<InstanceObject>()) {
        auto code = inst->attrs.find("code");
        if (code != inst->attrs.end() && code->second.isBool())
          d.message = code->second.asBool() ? "1" : "0";
      }
      bool numeric = !d.message.empty() && d.message.find_first_not_of("-0123456789") == std::string::npos;
      status = d.message.empty() || d.message == "None" ? 0 : numeric ? std::atoi(d.message.c_str()) & 0xFF : 1;
      if (!d.message.empty() && !numeric && d.message != "None")
        std::fprintf(stderr, "%s\n", d.message.c_str());
    } else {
      writeReport(options, d);
      status = 1;
    }
  } catch (const ir::OpError &e) {
    // An op's error that no binding turned into its Python exception (a tfs
    // bug): reported with TF's class at the script position.
    if (options.abortOnInternalError) {
      std::fprintf(stderr, "tfs: internal error: uncaught OpError: %s\n", e.message.c_str());
      std::abort();
    }
    std::fflush(stdout);
    frontend::Diagnostic d;
    d.errorClass = e.errorClass;
    d.message = e.message;
    d.span = in.currentSpan();
    writeReport(options, d);
    status = 1;
  } catch (const std::exception &e) {
    // A C++ error no layer turned into a Python exception: a tfs bug, but
    // the user still gets the script position and exit status 1. The
    // fuzzers abort here instead, so that such bugs are findings.
    if (options.abortOnInternalError) {
      std::fprintf(stderr, "tfs: internal error: %s\n", e.what());
      std::abort();
    }
    std::fflush(stdout);
    frontend::Diagnostic d;
    d.errorClass = "SystemError";
    d.message = fmt::format("tfs internal error: {} (please report this script)", e.what());
    d.span = in.currentSpan();
    writeReport(options, d);
    status = 1;
  }
  std::fflush(stdout);
  return status;
}

int runModule(const ast::Module &module, const RunOptions &options) {
  installInterruptHandler();
  setMemoryLimit(options.maxMemoryBytes > 0 ? options.maxMemoryBytes : defaultMemoryLimit());
  Interpreter in(options);
  auto globals = make<Scope>();
  // Code from -c or stdin has no __file__, as in CPython.
  std::optional<std::string> file;
  if (!options.argv.empty() && !options.argv[0].empty() && options.argv[0] != "-c" && options.argv[0] != "-") {
    std::error_code ec;
    auto path = std::filesystem::absolute(options.argv[0], ec);
    file = ec ? options.argv[0] : path.string();
  }
  in.initMainGlobals(*globals, file);
  int status;
  {
    PhaseTimer timer(in.profiler(), Phase::Run);
    status = runReporting(in, options, [&] { in.runModuleBody(module, globals); }, nullptr);
  }
  in.printRunReports();
  {
    auto vars = std::move(globals->vars);
    globals->vars.clear();
  }
  in.runPendingCloses();
  in.teardown();
  return status;
}

}  // namespace tfs::runtime
