// converted_call: user functions (and lambdas) called from converted code
// are converted too, once per definition, unless TF's AutoGraph could not
// convert them; tf.function's wrappers lead back to the Python function.
#include "runtime/tf/autograph_convert.h"

#include "autograph/autograph.h"
#include "runtime/tf/tf.h"
#include "runtime/tf/wrapped_functions.h"

#include <fmt/format.h>

#include <unordered_map>

namespace tfs::runtime::tf {

namespace {

// `def` converted; or `def` itself when TF's AutoGraph cannot convert it
// (autograph::unconvertibleCause): TF then logs why, once per function
// (`shown`, the function as called; null: say nothing), and runs it as
// written, the calls in it unconverted too.
std::shared_ptr<ast::FunctionDef> converted(Interpreter &in, const ast::FunctionDef &def, const Value *shown = nullptr) {
  auto &cache = ctx(in).convertedFunctions;
  auto it = cache.find(&def);
  if (it != cache.end()) return it->second;
  if (auto cause = autograph::unconvertibleCause(def)) {
    if (shown) {
      std::string msg = fmt::format("AutoGraph could not transform {} and will run it as-is.\n"
                                    "Please report this to the TensorFlow team. When filing the bug, set the "
                                    "verbosity to 10 (on Linux, `export AUTOGRAPH_VERBOSITY=10`) and attach the "
                                    "full output.\nCause: {}\nTo silence this warning, decorate the function with "
                                    "@tf.autograph.experimental.do_not_convert",
                                    in.repr(*shown), *cause);
      in.call(in.getAttr(in.importModule("_tf_logging"), "warning"), std::vector<Value>{in.str(msg)});
    }
    // Not owned: the function's own definition outlives the cache.
    std::shared_ptr<ast::FunctionDef> asIs(std::shared_ptr<void>(), const_cast<ast::FunctionDef *>(&def));
    cache[&def] = asIs;
    return asIs;
  }
  PhaseTimer timer(in.profiler(), Phase::Convert);
  std::shared_ptr<ast::FunctionDef> c(autograph::convertFunction(def).release());
  cache[&def] = c;
  return c;
}

// A lambda called from code AutoGraph did not convert (the function given to
// tf.function, or a lambda defined eagerly and called while tracing):
// converted like `def <lambda>(params): return body`, so the calls in its
// body are converted too, as TF converts lambdas.
std::shared_ptr<ast::FunctionDef> convertedLambda(Interpreter &in, const ast::Lambda &lambda) {
  auto &cache = ctx(in).convertedLambdas;
  auto it = cache.find(&lambda);
  if (it != cache.end()) return it->second;
  ast::FunctionDef def("<lambda>", lambda.span);
  for (const auto &p : lambda.params) def.params.push_back(p.clone());
  auto ret = std::make_unique<ast::Return>(lambda.span);
  ret->value = lambda.body->clone();
  def.body.push_back(std::move(ret));
  PhaseTimer timer(in.profiler(), Phase::Convert);
  std::shared_ptr<ast::FunctionDef> c(autograph::convertFunction(def).release());
  cache[&lambda] = c;
  return c;
}

}  // namespace

namespace {
std::unordered_map<const Object *, Value> &wrappedFunctions() {
  static std::unordered_map<const Object *, Value> table;
  return table;
}
}  // namespace

void registerWrappedFunction(const Object *wrapper, Value original) {
  wrappedFunctions()[wrapper] = std::move(original);
}

// The table names objects of the interpreter that made them (by address):
// it is emptied when that interpreter's TfContext goes, so a later
// interpreter (fuzz replay runs many in one process) never finds a dead
// one's function at a reused address.
void forgetWrappedFunctions() { wrappedFunctions().clear(); }

const Value *wrappedFunction(const Value &f) {
  auto *native = f.as<NativeFunction>();
  if (!native) return nullptr;
  auto &table = wrappedFunctions();
  auto it = table.find(native);
  return it == table.end() ? nullptr : &it->second;
}

Value callConverted(Interpreter &in, const Value &f, Args args, const Kwargs &kwargs) {
  if (const Value *original = wrappedFunction(f)) return callConverted(in, *original, args, kwargs);
  FunctionObject *fn = f.as<FunctionObject>();
  const Value *self = nullptr;
  if (auto *bm = f.as<BoundMethod>()) {
    fn = bm->func.as<FunctionObject>();
    self = &bm->self;
  }
  bool lambda = fn && !fn->def && fn->lambda && !fn->lambda->isGenerator;
  if (!fn || (!fn->def && !lambda)) return in.call(f, args, kwargs);
  std::shared_ptr<ast::FunctionDef> def = lambda ? convertedLambda(in, *fn->lambda) : converted(in, *fn->def, &f);
  std::vector<Value> all;
  if (self) all.push_back(*self);
  all.insert(all.end(), args.begin(), args.end());
  return in.callWithDef(*fn, *def, all, kwargs);
}

std::string convertedCode(Interpreter &in, const Value &f) {
  const FunctionObject *fn = f.as<FunctionObject>();
  if (auto *bm = f.as<BoundMethod>()) fn = bm->func.as<FunctionObject>();
  if (!fn || !fn->def) return "";
  return autograph::printCode(*converted(in, *fn->def));
}

}  // namespace tfs::runtime::tf
