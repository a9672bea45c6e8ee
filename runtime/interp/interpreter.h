// The interpreter of the .tfs language: evaluates the AST with CPython's
// semantics for the supported subset. Also the API native modules use:
// calling values, attribute access, operators, conversions, raising
// exceptions, and registering native / prelude modules.
//
//   Value f = in.getAttr(mod, "relu");
//   Value y = in.call(f, {x}, {});
//   if (!y.as<TensorObject>()) in.raise("TypeError", "expected a tensor");
#pragma once

#include "runtime/graph/profile.h"
#include "runtime/interp/interp.h"
#include "runtime/interp/value.h"

#include <any>
#include <atomic>
#include <memory>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tfs::runtime {

struct GeneratorState;

// How a statement finished.
enum class Flow : uint8_t { Normal, Break, Continue, Return };

class Interpreter {
public:
  explicit Interpreter(const RunOptions &options);
  ~Interpreter();

  const RunOptions &options() const { return options_; }

  // --- running ---
  void runModuleBody(const ast::Module &module, Ref<Scope> globals);
  // Calls any callable value.
  Value call(const Value &f, Args args, const Kwargs &kwargs = {});
  // Calls a user function with a replacement definition (AutoGraph runs the
  // converted body in the original function's closure and globals).
  Value callWithDef(FunctionObject &fn, const ast::FunctionDef &def, Args args,
                    const Kwargs &kwargs);
  // Calls a user function with `def` as its body (fn.def, or converted code)
  // and `self` (when not null) as its first argument: what calling a bound
  // method of `self` does, without making the method.
  Value callFunction(FunctionObject &fn, const ast::FunctionDef *def, Args args,
                     const Kwargs &kwargs, const Value *self);
  Value makeFunction(const ast::FunctionDef &def, Ref<Scope> closure, Ref<Scope> globals,
                     std::shared_ptr<const void> keepAlive);

  // --- the object protocol ---
  Value getAttr(const Value &obj, const std::string &name);
  std::optional<Value> getAttrOpt(const Value &obj, const std::string &name);
  void setAttr(const Value &obj, const std::string &name, const Value &v);
  void delAttr(const Value &obj, const std::string &name);  // `del obj.name`
  // inPlace: `a op= b` fell back to the binary operator (CPython's error then names `op=`).
  Value binary(BinOp op, const Value &a, const Value &b, bool inPlace = false);
  Value compare(CmpOp op, const Value &a, const Value &b);
  bool equals(const Value &a, const Value &b);
  Value unary(UnaryOp op, const Value &a);
  bool truth(const Value &v);
  Value getItem(const Value &obj, const Value &key);
  void setItem(const Value &obj, const Value &key, const Value &v);
  bool contains(const Value &container, const Value &item);
  int64_t length(const Value &v);
  Value iter(const Value &v);
  std::optional<Value> next(const Value &iterator);
  std::vector<Value> toList(const Value &iterable);
  int64_t hash(const Value &v);
  std::string repr(const Value &v);
  std::string str(const Value &v);
  std::string format(const Value &v, const std::string &spec);
  int64_t toInt(const Value &v);      // int(x) semantics
  double toFloat(const Value &v);     // float(x) semantics
  int64_t toIndex(const Value &v);    // operator.index(x)
  std::string typeName(const Value &v);
  Ref<ClassObject> typeOf(const Value &v);
  bool isInstance(const Value &v, const ClassObject *cls);

  // --- values ---
  Value str(std::string s) { return make<StrObject>(std::move(s)); }
  Value tuple(std::vector<Value> items) { return make<TupleObject>(std::move(items)); }
  Value list(std::vector<Value> items) { return make<ListObject>(std::move(items)); }
  Value native(const std::string &name, NativeFn fn) { return make<NativeFunction>(name, std::move(fn)); }

  // --- exceptions ---
  [[noreturn]] void raise(const std::string &cls, const std::string &message);
  // An int past 64 bits where native code needs a C long: CPython's
  // OverflowError ("Python int too large to convert to C long"). Python
  // ints themselves have any size (big_int.h).
  [[noreturn]] void raiseIntTooLarge();
  int64_t intFrom128(__int128 v);  // v when it fits in 64 bits, else raiseIntTooLarge()
  [[noreturn]] void raiseValue(Value exc);
  Ref<ClassObject> exceptionClass(const std::string &name);
  // A new exception class (e.g. tf.errors.InvalidArgumentError).
  Ref<ClassObject> newExceptionClass(const std::string &name, const std::string &base);
  Value newException(const Ref<ClassObject> &cls, const std::string &message);
  std::string exceptionMessage(const Value &exc);
  // The OSError subclass CPython raises for errno `err` ("[Errno 2] No such
  // file or directory: 'x'"); empty filenames are left out.
  Value newOSError(int err, const std::string &filename = "", const std::string &filename2 = "");
  // The exception the innermost running `except` block handles (what bare
  // `raise`, sys.exc_info() and traceback.print_exc() see); null when none.
  const PyException *handledException() const;

  // --- where we are (for errors raised in native code) ---
  const frontend::SourceSpan &currentSpan() const { return span_; }
  // Native code that runs Python (tracing) moves the span; put it back.
  void restoreSpan(const frontend::SourceSpan &s) { span_ = s; }
  const std::vector<frontend::SourceSpan> &callStack() const { return callStack_; }

  // --- modules ---
  using ModuleFactory = std::function<Value(Interpreter &)>;
  static void registerNativeModule(const std::string &name, ModuleFactory factory);
  // A module written in the .tfs language (the library's application-level
  // code), imported by its dotted name; `text` must outlive the process.
  static void registerSourceModule(const std::string &name, const char *text);
  Value importModule(const std::string &dotted);
  // sys.path: the directories user modules are imported from (import_files.cpp).
  Value searchPath();
  // A module CPython (or a common package) has and tfs does not: importing
  // it says "module 'x' is not supported by tfs".
  static void registerUnsupportedModule(const std::string &topLevelName);
  // Built-in names the library provides (open, and print/input bound to the
  // sys streams): run on every new interpreter after the engine's own
  // builtins, so they may replace them.
  using BuiltinsInstaller = std::function<void(Interpreter &, Scope &builtins)>;
  static void registerBuiltins(BuiltinsInstaller installer);
  // The names `from mod import *` binds: __all__, else the public names.
  std::vector<std::string> starImportNames(const Value &mod);
  Ref<Scope> builtins() const { return builtins_; }
  // End of run: empties every module namespace, like CPython's module
  // teardown, so that reference cycles through them (a function and the
  // globals it lives in, a class and its methods) are freed.
  void teardown();
  Value builtin(const std::string &name);

  // An opaque slot for the tf runtime's per-run state.
  std::any tfContext;

  // The run's profiler (profile.h): made at the start of the run for
  // --profile / --time, or later by profilerOnDemand() (tf.profiler).
  // Null when nothing measures this run.
  Profiler *profiler() const { return profiler_.get(); }
  Profiler &profilerOnDemand();
  // Node and op timing is on (--profile, or tf.profiler collecting); --time
  // alone measures only the phases.
  bool profilingOps() const { return profiler_ && profiler_->timingOps(); }
  // The reports --profile and --time print after the run (stderr).
  void printRunReports();

  // Argument binding for native functions: positional names in order, and
  // defaults for trailing ones. Missing required -> TypeError.
  std::vector<Value> bindArgs(const std::string &fname, Args args, const Kwargs &kwargs,
                              const std::vector<std::string> &names,
                              const std::vector<std::optional<Value>> &defaults);

  // Executed statements (for --max-steps) and SIGINT checks; inline
  // because it runs on every statement.
  void step() {
    if (interruptRequested.load(std::memory_order_relaxed) || options_.maxSteps > 0) [[unlikely]]
      stepChecked();
  }
  // Set by the SIGINT handler, claimed by step() / pollInterrupt().
  static std::atomic<bool> interruptRequested;

  // The names CPython's __main__ module starts with, in its order
  // (__loader__ aside), into `globals`, which then keeps its binding order
  // (globals(), dir()). `file`: the script's path (none for -c, stdin, REPL).
  void initMainGlobals(Scope &globals, const std::optional<std::string> &file);

  // A frame starts running (a call, a generator resumed): `site` joins the
  // call chain errors report. RecursionError past the depth limit or when
  // the C++ stack (a generator's own) is nearly used up.
  void enterFrame(const frontend::SourceSpan &site);
  void leaveFrame();
  // A generator dropped while suspended: closed (its finally blocks run) at
  // the next statement boundary, or at the end of the run.
  void deferGeneratorClose(std::unique_ptr<GeneratorState> st);
  void runPendingCloses();
  bool hasPendingCloses() const { return !pendingCloses_.empty(); }
  // Raises KeyboardInterrupt after a Ctrl-C (for native code that waits,
  // such as time.sleep).
  void pollInterrupt();

private:
  void stepChecked();
  Value callUnchecked(const Value &f, Args args, const Kwargs &kwargs);

  friend struct Evaluator;
  void installBuiltins();
  Value importPrelude(const std::string &name);
  // A user module or package under sys.path (top level) or under the
  // parent package's __path__; nullopt when there is no such file.
  std::optional<Value> importFromFiles(const std::string &dotted, const Value *parent);

  RunOptions options_;
  Ref<Scope> builtins_;
  std::unordered_map<std::string, Value> modules_;
  Value searchPath_;  // sys.path, created on first use
  // User modules' sources and ASTs: spans and function bodies point into them.
  std::vector<std::shared_ptr<const frontend::SourceFile>> loadedSources_;
  std::vector<std::shared_ptr<ast::Module>> loadedModules_;
  std::unordered_map<std::string, Ref<ClassObject>> exceptionClasses_;
  frontend::SourceSpan span_;
  std::vector<frontend::SourceSpan> callStack_;
  int depth_ = 0;
  int64_t steps_ = 0;
  std::vector<std::unique_ptr<GeneratorState>> pendingCloses_;
  bool tornDown_ = false;  // closing generators after teardown runs no code
  std::unique_ptr<Profiler> profiler_;
};

// Pending SIGINT (set by the signal handler, checked by step()).
void installInterruptHandler();

// Runs `body`; an uncaught exception is reported (diagnostic format on
// stderr) and turned into the exit status: 1, 130 for KeyboardInterrupt,
// SystemExit's code (then *exited is set when given). 0 when it returns.
int runReporting(Interpreter &in, const RunOptions &options, const std::function<void()> &body,
                 bool *exited);

}  // namespace tfs::runtime
