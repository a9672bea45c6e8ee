// numpy's floating-point error handling (numpy 1.24): a float ufunc loop
// that divides by zero, overflows or produces an invalid value warns
// "RuntimeWarning: divide by zero encountered in divide" at the script's
// line, or raises FloatingPointError, as np.seterr / np.errstate say
// (defaults: under='ignore', the rest 'warn'). The loops' IEEE exception
// flags (<cfenv>) say what happened.
//
// Only a ufunc the script itself calls reports: tfs's own library code
// (numpy.testing's comparisons, TF ops written over numpy) computes where
// numpy or TF would not warn.
#include "lib/numpy/numpy_lib.h"
#include "lib/numpy/ufunc.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/signature.h"

#include <cfenv>
#include <filesystem>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

// numpy's order of the four conditions.
const char *const kKinds[] = {"divide", "over", "under", "invalid"};
const char *const kTexts[] = {"divide by zero", "overflow", "underflow", "invalid value"};
const int kFlags[] = {FE_DIVBYZERO, FE_OVERFLOW, FE_UNDERFLOW, FE_INVALID};
const char *const kModes[] = {"ignore", "warn", "raise", "call", "print", "log"};

struct ErrState {
  std::string mode[4] = {"warn", "warn", "ignore", "warn"};
};

ErrState &errState() {
  static ErrState s;
  return s;
}

Value errDict(Interpreter &in) {
  auto d = make<DictObject>();
  for (int k = 0; k < 4; ++k) d->set(in, in.str(kKinds[k]), in.str(errState().mode[k]));
  return Value(d);
}

void setMode(Interpreter &in, int k, const Value &v) {
  if (v.isNone()) return;
  std::string mode = in.str(v);
  bool known = false;
  for (const char *m : kModes) known = known || mode == m;
  if (!known) in.raise("KeyError", in.repr(v));
  if (mode == "call" || mode == "print" || mode == "log")
    in.raise("NotImplementedError", fmt::format("np.seterr({}='{}') is not supported by tfs", kKinds[k], mode));
  errState().mode[k] = mode;
}

std::string absolutePath(const std::string &path) {
  std::error_code ec;
  auto p = std::filesystem::absolute(path, ec);
  return ec ? path : p.string();
}

// Set while a Python operator runs on numpy scalars alone (numpy's scalar
// math, whose messages say "scalar divide").
thread_local bool scalarMath = false;

}  // namespace

ScalarMathScope::ScalarMathScope(bool on) : previous_(scalarMath) { scalarMath = on; }
ScalarMathScope::~ScalarMathScope() { scalarMath = previous_; }
bool ScalarMathScope::active() { return scalarMath; }

void reportIntegerOverflow(Interpreter &in, const char *ufunc) {
  std::feclearexcept(FE_ALL_EXCEPT);
  std::feraiseexcept(FE_OVERFLOW);
  reportFloatErrors(in, ufunc);
}

void clearFloatErrors() { std::feclearexcept(FE_ALL_EXCEPT); }

void reportFloatErrors(Interpreter &in, const char *ufunc) {
  int raised = std::fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
  std::feclearexcept(FE_ALL_EXCEPT);
  if (!raised) return;
  // A copy: the warnings module's code moves the current span.
  const frontend::SourceSpan site = in.currentSpan();
  std::string name = std::string(ufunc) == "true_divide" ? "divide" : ufunc;
  if (scalarMath) name = "scalar " + name;
  bool fromScript = site.file && !site.file->path().empty() && site.file->path()[0] != '<';
  if (!fromScript) return;
  for (int k = 0; k < 4; ++k) {
    if (!(raised & kFlags[k])) continue;
    const std::string &mode = errState().mode[k];
    std::string message = fmt::format("{} encountered in {}", kTexts[k], name);
    if (mode == "raise") in.raise("FloatingPointError", message);
    if (mode != "warn") continue;
    std::string_view line = site.file->line(site.line);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    Value warnings = in.importModule("warnings");
    std::vector<Value> args = {in.str(message), in.getAttr(in.importModule("builtins"), "RuntimeWarning"),
                               in.str(absolutePath(site.file->path())), Value::integer(site.line),
                               in.str(std::string(line))};
    in.call(in.getAttr(warnings, "_warn_from_native"), args);
  }
}

void installErrState(Interpreter &in, ModuleObject &np) {
  errState() = ErrState{};
  auto &vars = np.scope->vars;
  vars["seterr"] = nativeWithSignature(
      in, "seterr(all=None, divide=None, over=None, under=None, invalid=None)", [](Interpreter &in, const Bound &b) {
        Value old = errDict(in);
        for (int k = 0; k < 4; ++k) setMode(in, k, b["all"]);
        for (int k = 0; k < 4; ++k) setMode(in, k, b[kKinds[k]]);
        return old;
      });
  vars["geterr"] = nativeWithSignature(in, "geterr()", [](Interpreter &in, const Bound &) { return errDict(in); });
}

}  // namespace tfs::runtime::tf::numpy
