// tf.function and tf.config.run_functions_eagerly / functions_run_eagerly:
// the Python-facing constructors of the tf.function wrapper (function.cpp).
#include "runtime/interp/signature.h"
#include "runtime/tf/function_wrappers.h"
#include "runtime/tf/tf.h"

namespace tfs::runtime::tf {

void installFunctionApi(Interpreter &in, ModuleObject &tf) {
  // jit_compile / experimental_compile ask for XLA, which computes the same
  // values; experimental_relax_shapes is reduce_retracing's old name.
  tf.scope->vars["function"] = nativeWithSignature(
      in,
      "function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False, "
      "experimental_implements=!None, experimental_autograph_options=!None, experimental_attributes=!None, "
      "experimental_relax_shapes=None, experimental_compile=None, experimental_follow_type_hints=!None)",
      [](Interpreter &in, const Bound &a) -> Value {
        bool ag = in.truth(a["autograph"]);
        bool relax = in.truth(a["reduce_retracing"]) ||
                     (!a.isNone("experimental_relax_shapes") && in.truth(a["experimental_relax_shapes"]));
        Value sig = a["input_signature"];
        auto make = [ag, relax, sig](Interpreter &in, const Value &f) {
          Value w = makeFunction(in, f, ag, sig);
          setReduceRetracing(w, relax);
          return w;
        };
        if (a.isNone("func"))
          return in.native("function", [make](Interpreter &in, Args f, const Kwargs &) { return make(in, f[0]); });
        return make(in, a["func"]);
      });
  auto config = submodule(in, tf, "config");
  ctx(in).runFunctionsEagerly = in.options().runFunctionsEagerly;
  def(in, *config, "run_functions_eagerly", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("run_functions_eagerly", a, kw, {"run_eagerly"}, {});
    ctx(in).runFunctionsEagerly = in.truth(args[0]);
    return Value();
  });
  def(in, *config, "functions_run_eagerly", [](Interpreter &in, Args, const Kwargs &) {
    return Value::boolean(ctx(in).runFunctionsEagerly);
  });
}

}  // namespace tfs::runtime::tf
