// tf.autograph's entry points that only wrap or refuse (autograph_api.cpp):
// to_code (refused: TF's generated code is not reproduced) and
// experimental.do_not_convert. The rest of the module (to_graph,
// set_verbosity, set_loop_options) is installed with AutoGraph's runtime
// (autograph_ops.cpp).
#include "frontend/ast.h"
#include "runtime/interp/signature.h"
#include "runtime/tf/tf.h"

namespace tfs::runtime::tf {

void installAutographApi(Interpreter &in, ModuleObject &autograph, ModuleObject &experimental) {
  // TF prints the Python source its own converters generate (ag__.ld,
  // FunctionScope, get_state/set_state, ...), text tied to TF's AutoGraph
  // version; tfs's conversion is its own, so printing it here would pass
  // for TF's. `tfs run --emit=autograph` shows tfs's converted code.
  autograph.scope->vars["to_code"] = nativeWithSignature(
      in, "to_code(entity, recursive=True, experimental_optional_features=None)",
      [](Interpreter &in, const Bound &) -> Value {
        in.raise("NotImplementedError",
                 "tf.autograph.to_code is not supported by tfs: TensorFlow's generated AutoGraph code is not "
                 "reproduced (tfs run --emit=autograph prints the code tfs converts a function to)");
      });
  // TF's do_not_convert: the function runs as written inside a tf.function
  // (a Python `if` on a tensor is then TF's error); usable as a decorator
  // with or without the call.
  auto doNotConvert = [](Interpreter &in, const Value &f) -> Value {
    std::string name = "do_not_convert";
    if (auto *fn = f.as<FunctionObject>(); fn && fn->def) name = fn->def->name;
    return in.native(name, [f](Interpreter &in, Args args, const Kwargs &kw) { return in.call(f, args, kw); });
  };
  experimental.scope->vars["do_not_convert"] = nativeWithSignature(
      in, "do_not_convert(func=None)", [doNotConvert](Interpreter &in, const Bound &b) -> Value {
        if (!b.isNone("func")) return doNotConvert(in, b["func"]);
        return in.native("decorator", [doNotConvert](Interpreter &in, Args a, const Kwargs &) {
          if (a.size() != 1) in.raise("TypeError", "decorator() takes 1 positional argument");
          return doNotConvert(in, a[0]);
        });
      });
}

}  // namespace tfs::runtime::tf
